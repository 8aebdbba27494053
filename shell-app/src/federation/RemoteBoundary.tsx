/**
 * The one boundary every remote mounts in: an error boundary + Suspense + a `role="alert"` fallback
 * with a Retry button that re-attempts the load. Whatever a remote does — 404, time out, throw
 * while rendering — stays inside this box; the header, footer and other routes keep working.
 */
import type { MfeId } from '@tiffin/contract';
import { Button, Skeleton } from '@tiffin/design-system';
import {
  Component,
  createContext,
  lazy,
  Suspense,
  useContext,
  useMemo,
  useState,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { releaseFirstPaint } from '../first-paint';

type RemoteModule<P> = { default: ComponentType<P> };

/** How a remote module is loaded; the registry in production, a fake in tests. */
export type RemoteLoader = <P>(mfe: MfeId, expose: string, options: { retry: boolean }) => Promise<RemoteModule<P>>;

export const RemoteLoaderContext = createContext<RemoteLoader | null>(null);

interface BoundaryProps {
  mfe: MfeId;
  expose: string;
  compact: boolean;
  /** A change (e.g. a new path) clears a render error without a manual retry. */
  resetKey: string | undefined;
  onRetry: () => void;
  children: ReactNode;
}

class RemoteErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // Until an error reporter exists, the console is where operators look.
    console.error(`[shell] ${this.props.mfe}/${this.props.expose} failed`, error, info.componentStack);
    // The failure box stands where the page would have: nothing may cover it.
    releaseFirstPaint();
  }

  override componentDidUpdate(previous: BoundaryProps) {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const { mfe, compact, onRetry } = this.props;
    return (
      <div className={compact ? 'shell-remote-fallback shell-remote-fallback--compact' : 'shell-remote-fallback'} role="alert" data-failed-mfe={mfe}>
        {compact ? null : <h2 className="shell-remote-fallback__title">Uh-oh!</h2>}
        <p className="shell-remote-fallback__message">
          {compact ? 'This section could not be loaded.' : 'Sorry! This should not have happened. Please retry.'}
        </p>
        <Button variant={compact ? 'secondary' : 'primary'} onClick={onRetry}>
          Retry
        </Button>
      </div>
    );
  }
}

function RemoteLoading({ compact }: { compact: boolean }) {
  return (
    <div className="shell-remote-loading" aria-busy="true" aria-label="Loading">
      <Skeleton height={compact ? 48 : 24} width={compact ? '100%' : '40%'} />
      {compact ? null : (
        <>
          <Skeleton height={160} />
          <Skeleton height={160} />
        </>
      )}
    </div>
  );
}

interface RemoteBoundaryProps<P> {
  mfe: MfeId;
  /** The exposed module without `./`, e.g. `App`, `HeaderCart`. */
  expose: string;
  props: P;
  /** Small inline fallback for header slots instead of the page-sized one. */
  compact?: boolean;
  resetKey?: string;
}

export function RemoteBoundary<P extends object>({ mfe, expose, props, compact = false, resetKey }: RemoteBoundaryProps<P>) {
  const loader = useContext(RemoteLoaderContext);
  if (!loader) throw new Error('RemoteBoundary needs a RemoteLoaderContext provider');
  const [attempt, setAttempt] = useState(0);

  // A new lazy component per attempt: React.lazy caches its result, including a failure.
  const Remote = useMemo(
    () =>
      lazy(async () => {
        const module = await loader<P>(mfe, expose, { retry: attempt > 0 });
        if (typeof module?.default !== 'function' && typeof module?.default !== 'object') {
          throw new Error(`${mfe}/${expose} has no default export`);
        }
        return module;
      }),
    [loader, mfe, expose, attempt],
  );

  return (
    <RemoteErrorBoundary key={attempt} mfe={mfe} expose={expose} compact={compact} resetKey={resetKey} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<RemoteLoading compact={compact} />}>
        <Remote {...props} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
