import { isSignInRequired } from '@tiffin/api-client';
import { emit } from '@tiffin/contract';
import { Button, ErrorState, errorCopyFor } from '@tiffin/design-system';
import { isNotAnAgent, NOT_AN_AGENT_MESSAGE } from './desk';

/** What the desk shows instead of itself when the edge would not answer it. */
export function DeskRefusal({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (isNotAnAgent(error)) {
    return <ErrorState role="region" title="Support desk" message={NOT_AN_AGENT_MESSAGE} />;
  }
  if (isSignInRequired(error)) {
    return (
      <ErrorState role="region" title="Support desk" message="Log in with your support team account to use the desk.">
        <Button onClick={() => emit('auth:open', { mode: 'login' })}>LOGIN</Button>
      </ErrorState>
    );
  }
  const copy = errorCopyFor(error);
  return <ErrorState title={copy.title} message={copy.message} actionLabel={copy.retry && onRetry ? 'Retry' : undefined} onAction={copy.retry ? onRetry : undefined} />;
}
