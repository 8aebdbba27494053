/**
 * One conversation (/support/conversations/{id}): its messages (the customer's, Tiffin's, and each
 * agent's under their name), where it stands and what came of it, kept current while the page is
 * open (useConversation). While it is with an agent the customer can write back.
 */
import { edge, isSignInRequired } from '@tiffin/api-client';
import { conversationStatusWords, orderDetailsHref, refundToWords, type Conversation, type ConversationMessage, type ConversationOutcome } from '@tiffin/contract';
import { Button, ErrorState, errorCopyFor, formatDateTimeOfSeconds, formatPrice, Link, Skeleton } from '@tiffin/design-system';
import { useState } from 'react';
import { errorMessage } from '../common/errors';
import { useCurrentUser } from '../common/user';
import { SignInPrompt } from './SignInPrompt';
import { useConversation } from './useConversation';

/** Who wrote a message, as the customer reads it. */
export function authorWords(message: Pick<ConversationMessage, 'author' | 'authorName'>): string {
  switch (message.author) {
    case 'CUSTOMER':
      return 'You';
    case 'AGENT':
      return message.authorName ? `${message.authorName}, Tiffin support` : 'Tiffin support';
    default:
      return 'Tiffin';
  }
}

/** What came of the conversation in one line: `Refund of ₹120.50 to Tiffin Money`. */
export function outcomeWords(outcome: ConversationOutcome): string | null {
  const amount = outcome.amountPaise > 0 ? formatPrice(outcome.amountPaise) : null;
  const to = outcome.refundTo ? ` to ${refundToWords(outcome.refundTo)}` : '';
  switch (outcome.kind) {
    case 'REFUND':
      return amount ? `Refund of ${amount}${to}` : 'Refund';
    case 'CREDIT':
      return amount ? `${amount} added to your Tiffin Money` : 'Tiffin Money added';
    case 'CANCELLED':
      return amount ? `Order cancelled, ${amount} refunded${to}` : 'Order cancelled';
    default:
      return null;
  }
}

function Messages({ messages }: { messages: readonly ConversationMessage[] }) {
  return (
    <ol className="acct-conversation__messages" aria-label="Messages">
      {messages.map((message) => (
        <li key={message.id} className={`acct-message acct-message--${message.author.toLowerCase()}`}>
          <p className="acct-message__author">
            <strong>{authorWords(message)}</strong>
            <span className="acct-muted"> · {formatDateTimeOfSeconds(message.sentAt)}</span>
          </p>
          <p className="acct-message__text">{message.text}</p>
        </li>
      ))}
    </ol>
  );
}

function ReplyBox({ conversationId, onSent }: { conversationId: string; onSent: (conversation: Conversation) => void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    const words = text.trim();
    if (!words) return setProblem('Write your message first.');
    setProblem(null);
    setBusy(true);
    try {
      const { conversation } = await edge.sendSupportMessage(conversationId, words);
      setText('');
      onSent(conversation);
    } catch (e) {
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="acct-conversation__reply"
      aria-label="Reply"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label className="acct-auth__field">
        <span>Your message</span>
        <textarea name="text" rows={3} maxLength={2000} value={text} disabled={busy} onChange={(e) => setText(e.target.value)} />
      </label>
      {problem ? (
        <p className="acct-error" role="alert">
          {problem}
        </p>
      ) : null}
      <Button type="submit" disabled={busy}>
        SEND
      </Button>
    </form>
  );
}

export function ConversationView({ conversation, onChange }: { conversation: Conversation; onChange: (conversation: Conversation) => void }) {
  const outcome = conversation.outcome;
  const outcomeLine = outcome ? outcomeWords(outcome) : null;
  return (
    <section className="acct-conversation" aria-label="Conversation">
      <h1 className="acct-support__title">{conversation.title}</h1>
      <p className="acct-conversation__status">
        <span role="status">{conversationStatusWords(conversation.status)}</span>
        {conversation.orderId ? (
          <>
            {' · '}
            <Link href={orderDetailsHref(conversation.orderId)}>Order #{conversation.orderId}</Link>
          </>
        ) : null}
      </p>
      {outcome && (outcomeLine || outcome.text) ? (
        <div className="acct-note acct-conversation__outcome" aria-label="Outcome">
          {outcomeLine ? <p className="acct-conversation__outcome-title">{outcomeLine}</p> : null}
          {outcome.text ? <p>{outcome.text}</p> : null}
        </div>
      ) : null}
      <Messages messages={conversation.messages} />
      {conversation.status === 'WITH_AGENT' ? <ReplyBox conversationId={conversation.id} onSent={onChange} /> : null}
      <Link href="/support">Back to Help &amp; Support</Link>
    </section>
  );
}

export function ConversationPage({ conversationId }: { conversationId: string }) {
  const user = useCurrentUser();
  const state = useConversation(conversationId, user?.customer_id ?? null);
  if (state.status === 'loading') return <Skeleton height={240} />;
  if (state.status === 'error') {
    if (isSignInRequired(state.error)) return <SignInPrompt what="see this conversation" />;
    const copy = errorCopyFor(state.error);
    return <ErrorState title={copy.title} message={copy.message} actionLabel={copy.retry ? 'Retry' : undefined} onAction={copy.retry ? state.retry : undefined} />;
  }
  return <ConversationView conversation={state.conversation} onChange={state.replace} />;
}
