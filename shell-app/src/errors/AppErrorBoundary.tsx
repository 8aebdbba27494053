/**
 * Last line of defence for the shell's own rendering: 'Uh-oh!' /
 * 'Sorry! This should not have happened. Please retry.', and retry reloads the page. Remotes have
 * their own, finer boundary (RemoteBoundary) so they rarely reach this one.
 */
import { ErrorState } from '@tiffin/design-system';
import { Component, type ErrorInfo, type ReactNode } from 'react';

const ERROR_TITLE = 'Uh-oh!';
const ERROR_MESSAGE = 'Sorry! This should not have happened. Please retry.';

interface Props {
  children: ReactNode;
  reload?: () => void;
}

export class AppErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('[shell] render failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const reload = this.props.reload ?? (() => window.location.reload());
    return <ErrorState title={ERROR_TITLE} message={ERROR_MESSAGE} actionLabel="Retry" onAction={reload} />;
  }
}
