/**
 * Help & Support: /support and every sub-path (the `support` route's `rest`).
 *
 * - `/support`: the issue types (GET /api/support), each opening its page, and the customer's
 *   conversations, newest first. Opened from an order ("Help", `/support?order_id=…`) it starts
 *   the order-help flow for that order first.
 * - `/support/issues/{id}`: the issue's FAQ, searchable (`faq` and `super-faq` among them).
 * - `/support/conversations/{id}`: one conversation, kept current.
 */
import { edge, isSignInRequired } from '@tiffin/api-client';
import { conversationStatusWords, supportConversationHref, supportIssueHref, type Conversation } from '@tiffin/contract';
import { AsyncContent, ErrorState, formatDateTimeOfSeconds, Link, Skeleton, useAsync } from '@tiffin/design-system';
import { useCurrentUser } from '../common/user';
import { errorMessage } from '../common/errors';
import { ConversationPage, outcomeWords } from './ConversationPage';
import { IssuePage } from './IssuePage';
import { OrderHelpFlow } from './OrderHelpFlow';
import { SignInPrompt } from './SignInPrompt';

/** The order the page was opened about, from the address's `order_id`. */
function orderIdOfPage(): string | null {
  const id = new URLSearchParams(window.location.search).get('order_id')?.trim();
  return id && /^\d{1,20}$/.test(id) ? id : null;
}

/** A path segment as written, or null when it cannot be read (a stray `%`). */
function segment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

export type SupportView = { kind: 'home' } | { kind: 'issue'; issueId: string } | { kind: 'conversation'; conversationId: string } | { kind: 'not-found' };

/** Which page a sub-path of /support is. */
export function supportView(rest: string | undefined): SupportView {
  const path = rest ?? '';
  if (path === '' || path === '/') return { kind: 'home' };
  const issue = /^\/issues\/([^/]+)\/?$/.exec(path);
  const issueId = issue ? segment(issue[1]!) : null;
  if (issueId) return { kind: 'issue', issueId };
  const conversation = /^\/conversations\/([^/]+)\/?$/.exec(path);
  const conversationId = conversation ? segment(conversation[1]!) : null;
  if (conversationId) return { kind: 'conversation', conversationId };
  return { kind: 'not-found' };
}

/** Newest first, whatever order they came in. */
function newestFirst(conversations: readonly Conversation[]): Conversation[] {
  return [...conversations].sort((a, b) => b.createdAt - a.createdAt);
}

function YourConversations() {
  const state = useAsync((signal) => edge.supportConversations({ signal }), []);
  return (
    <section className="acct-support__conversations" aria-label="Your conversations">
      <h2 className="acct-support__heading">Your conversations</h2>
      {state.status === 'error' ? (
        <p className="acct-error" role="alert">
          {isSignInRequired(state.error) ? 'Log in again to see your conversations.' : errorMessage(state.error)}
        </p>
      ) : state.status === 'loading' ? (
        <Skeleton height={60} />
      ) : state.data.conversations.length === 0 ? (
        <p className="acct-muted">You have not asked us for help yet.</p>
      ) : (
        <ul className="acct-conversations">
          {newestFirst(state.data.conversations).map((conversation) => {
            const outcome = conversation.outcome ? outcomeWords(conversation.outcome) : null;
            return (
              <li key={conversation.id} className="acct-conversations__item">
                <Link href={supportConversationHref(conversation.id)} className="acct-conversations__link">
                  <strong>{conversation.title}</strong>
                  <span className="acct-muted">
                    {conversation.orderId ? `Order #${conversation.orderId} · ` : ''}
                    {formatDateTimeOfSeconds(conversation.createdAt)}
                  </span>
                </Link>
                <span className="acct-conversations__status">{conversationStatusWords(conversation.status)}</span>
                {outcome ? <span className="acct-conversations__outcome">{outcome}</span> : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function SupportHome() {
  const user = useCurrentUser();
  const state = useAsync((signal) => edge.support({ signal }), []);
  const orderId = orderIdOfPage();
  return (
    <section className="acct-support" aria-label="Help and support">
      <h1 className="acct-support__title">Help &amp; Support</h1>
      <p className="acct-support__subtitle">Let&apos;s take a step ahead and help you better.</p>
      {orderId ? user ? <OrderHelpFlow orderId={orderId} /> : <SignInPrompt what={`get help with order #${orderId}`} /> : null}
      <AsyncContent state={state}>
        {(data) => (
          <ul className="acct-issues" aria-label="Issues">
            {data.issueTypes.map((issue) => (
              <li key={issue.id} className="acct-issue">
                <Link href={supportIssueHref(issue.id)} className="acct-issue__link">
                  <h3 className="acct-issue__title">{issue.title}</h3>
                  <p className="acct-issue__description">{issue.description}</p>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </AsyncContent>
      {user ? <YourConversations /> : null}
    </section>
  );
}

export function SupportPage({ rest }: { rest: string | undefined }) {
  const view = supportView(rest);
  switch (view.kind) {
    case 'home':
      return <SupportHome />;
    case 'issue':
      return <IssuePage issueId={view.issueId} />;
    case 'conversation':
      return <ConversationPage conversationId={view.conversationId} />;
    default:
      return <ErrorState role="region" title="There's nothing here" message="We cannot find what you are looking for. Please check your search query." />;
  }
}
