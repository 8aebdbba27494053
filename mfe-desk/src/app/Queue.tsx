/**
 * The queue (`GET desk/queue`): the open conversations, Tiffin One members' marked and first, then
 * the one waiting longest. It is asked again when an action changed a conversation (`version`) and
 * on Refresh. A refusal that is about who is asking (not an agent, signed out) is the desk's to
 * show (`onRefused`); any other failure is shown here with Retry.
 */
import { edge, isSignInRequired } from '@tiffin/api-client';
import { deskConversationHref } from '@tiffin/contract';
import { Button, formatDateTimeOfSeconds, Link, Skeleton, useAsync } from '@tiffin/design-system';
import { useEffect } from 'react';
import { DeskRefusal } from './Refusal';
import { isNotAnAgent, queueOrder } from './desk';

export function Queue({ version, selectedId, onRefused }: { version: number; selectedId: string | undefined; onRefused: (error: unknown) => void }) {
  const state = useAsync((signal) => edge.deskQueue({ signal }), [version]);
  const refused = state.status === 'error' && (isNotAnAgent(state.error) || isSignInRequired(state.error));
  useEffect(() => {
    if (refused) onRefused(state.error);
  }, [refused]);

  return (
    <section className="desk-queue" aria-label="Queue">
      <div className="desk-queue__head">
        <h2 className="desk-heading">Queue</h2>
        <Button variant="link" onClick={state.reload} disabled={state.status === 'loading'}>
          Refresh
        </Button>
      </div>
      {state.status === 'loading' ? (
        <Skeleton height={120} />
      ) : state.status === 'error' ? (
        refused ? null : <DeskRefusal error={state.error} onRetry={state.reload} />
      ) : state.data.conversations.length === 0 ? (
        <p className="desk-muted">No one is waiting. Well done.</p>
      ) : (
        <ol className="desk-queue__list">
          {queueOrder(state.data.conversations).map((entry) => (
            <li key={entry.id} className={entry.id === selectedId ? 'desk-queue__item desk-queue__item--selected' : 'desk-queue__item'}>
              <Link href={deskConversationHref(entry.id)} className="desk-queue__link" aria-current={entry.id === selectedId ? 'page' : undefined}>
                <span className="desk-queue__title">
                  {entry.priority ? <span className="desk-badge">Tiffin One</span> : null}
                  <strong>{entry.customerName}</strong> · {entry.title}
                </span>
                <span className="desk-muted">
                  {entry.orderId ? `Order #${entry.orderId} · ` : ''}
                  {formatDateTimeOfSeconds(entry.updatedAt)}
                </span>
                {entry.lastMessage ? <span className="desk-queue__last">{entry.lastMessage}</span> : null}
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
