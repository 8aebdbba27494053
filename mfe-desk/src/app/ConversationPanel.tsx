/**
 * One conversation at the desk (`GET desk/conversations/{id}`): its messages, with the customer
 * (Tiffin One or not) and the order and its payment beside them, and what the agent can do while
 * it is open: reply, refund (an amount in rupees, sent as integer paise, to the payment or to Tiffin
 * Money; the edge holds each refund to what is left of the order and to the agent's limit, and its
 * refusal is shown in its words) and close. After each action the conversation and the queue are
 * asked again, so what is shown is what the edge now holds.
 */
import { customerMessage, edge, isSignInRequired, submissionKeys } from '@tiffin/api-client';
import {
  conversationStatusWords,
  orderStatusWords,
  refundToWords,
  type Conversation,
  type ConversationMessage,
  type DeskConversationResponse,
  type SupportRefundTo,
} from '@tiffin/contract';
import { Button, formatDateTimeOfSeconds, formatPrice, Skeleton, useAsync } from '@tiffin/design-system';
import { useEffect, useState, type FormEvent } from 'react';
import { isNotAnAgent, refundAmount } from './desk';
import { DeskRefusal } from './Refusal';

const REFUND_DESTINATIONS: readonly SupportRefundTo[] = ['SOURCE', 'TIFFIN_MONEY'];

function authorWords(message: ConversationMessage, customerName: string): string {
  if (message.author === 'CUSTOMER') return customerName;
  if (message.author === 'AGENT') return message.authorName ? `${message.authorName} (agent)` : 'Agent';
  return 'Tiffin';
}

function Messages({ conversation, customerName }: { conversation: Conversation; customerName: string }) {
  return (
    <ol className="desk-messages" aria-label="Messages">
      {conversation.messages.map((message) => (
        <li key={message.id} className={`desk-message desk-message--${message.author.toLowerCase()}`}>
          <p className="desk-message__author">
            <strong>{authorWords(message, customerName)}</strong>
            <span className="desk-muted"> · {formatDateTimeOfSeconds(message.sentAt)}</span>
          </p>
          <p className="desk-message__text">{message.text}</p>
        </li>
      ))}
    </ol>
  );
}

function Beside({ detail }: { detail: DeskConversationResponse }) {
  const { customer, order } = detail;
  return (
    <aside className="desk-beside" aria-label="Customer and order">
      <h3 className="desk-heading">Customer</h3>
      <p>
        {customer.name} · mobile ending {customer.mobileLast4}
        {customer.member ? <span className="desk-badge">Tiffin One</span> : null}
      </p>
      <h3 className="desk-heading">Order</h3>
      {order ? (
        <dl className="desk-facts">
          <dt>Order</dt>
          <dd>
            #{order.orderId} from {order.restaurantName}
          </dd>
          <dt>Status</dt>
          <dd>{orderStatusWords(order.status)}</dd>
          <dt>Total</dt>
          <dd>{formatPrice(order.totalPaise)}</dd>
          <dt>Refunded</dt>
          <dd>{formatPrice(order.refundedPaise)}</dd>
          <dt>Agent may refund</dt>
          <dd>{formatPrice(order.refundablePaise)}</dd>
          <dt>Payment</dt>
          <dd>
            {order.paymentMethod}
            {order.paymentStatus ? ` · ${order.paymentStatus}` : ''}
          </dd>
        </dl>
      ) : (
        <p className="desk-muted">No order.</p>
      )}
    </aside>
  );
}

/** One action's form state: busy while it runs, its problem (ours or the edge's) after. */
function useAction() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await action();
    } catch (e) {
      setProblem(customerMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, setProblem, run };
}

function Problem({ text }: { text: string | null }) {
  return text ? (
    <p className="desk-error" role="alert">
      {text}
    </p>
  ) : null;
}

function ReplyForm({ conversationId, onDone }: { conversationId: string; onDone: () => void }) {
  const [text, setText] = useState('');
  const action = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const words = text.trim();
    if (!words) return action.setProblem('Write the reply first.');
    void action.run(async () => {
      await edge.deskReply(conversationId, words);
      setText('');
      onDone();
    });
  };
  return (
    <form className="desk-form" aria-label="Reply" onSubmit={submit}>
      <label className="desk-field">
        <span>Reply to the customer</span>
        <textarea name="text" rows={3} maxLength={2000} value={text} disabled={action.busy} onChange={(e) => setText(e.target.value)} />
      </label>
      <Problem text={action.problem} />
      <Button type="submit" disabled={action.busy}>
        SEND REPLY
      </Button>
    </form>
  );
}

function RefundForm({ conversationId, detail, onDone }: { conversationId: string; detail: DeskConversationResponse; onDone: (message: string) => void }) {
  const [amount, setAmount] = useState('');
  const [refundTo, setRefundTo] = useState<SupportRefundTo>(detail.order?.paymentMethod === 'cash' ? 'TIFFIN_MONEY' : 'SOURCE');
  const [keyFor] = useState(() => submissionKeys());
  const action = useAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = refundAmount(amount);
    if ('problem' in parsed) return action.setProblem(parsed.problem);
    const body = { amountPaise: parsed.paise, refundTo };
    void action.run(async () => {
      await edge.deskRefund(conversationId, { ...body, idempotencyKey: keyFor(body) });
      setAmount('');
      onDone(`Refund of ${formatPrice(parsed.paise)} to ${refundToWords(refundTo)} sent.`);
    });
  };
  return (
    <form className="desk-form" aria-label="Refund" onSubmit={submit}>
      <label className="desk-field">
        <span>Refund amount (₹)</span>
        <input name="amount" inputMode="decimal" autoComplete="off" value={amount} disabled={action.busy} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <fieldset className="desk-choice" disabled={action.busy}>
        <legend>Refund to</legend>
        {REFUND_DESTINATIONS.map((to) => (
          <label key={to}>
            <input type="radio" name="refund_to" value={to} checked={refundTo === to} onChange={() => setRefundTo(to)} />
            {refundToWords(to)}
          </label>
        ))}
      </fieldset>
      <Problem text={action.problem} />
      <Button type="submit" disabled={action.busy}>
        REFUND
      </Button>
    </form>
  );
}

function CloseButton({ conversationId, onDone }: { conversationId: string; onDone: () => void }) {
  const action = useAction();
  return (
    <div className="desk-form">
      <Problem text={action.problem} />
      <Button
        variant="secondary"
        disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            await edge.deskClose(conversationId);
            onDone();
          })
        }
      >
        CLOSE CONVERSATION
      </Button>
    </div>
  );
}

export function ConversationPanel({ conversationId, onChanged, onRefused }: { conversationId: string; onChanged: () => void; onRefused: (error: unknown) => void }) {
  const state = useAsync((signal) => edge.deskConversation(conversationId, { signal }), [conversationId]);
  const [done, setDone] = useState<string | null>(null);
  const refused = state.status === 'error' && (isNotAnAgent(state.error) || isSignInRequired(state.error));
  useEffect(() => {
    if (refused) onRefused(state.error);
  }, [refused]);

  if (state.status === 'loading') return <Skeleton height={240} />;
  if (state.status === 'error') return refused ? null : <DeskRefusal error={state.error} onRetry={state.reload} />;

  const detail = state.data;
  const { conversation } = detail;
  const open = conversation.status !== 'CLOSED';
  const changed = (message: string | null) => {
    setDone(message);
    state.reload();
    onChanged();
  };
  return (
    <section className="desk-conversation" aria-label="Conversation">
      <div className="desk-conversation__main">
        <h2 className="desk-heading">
          {conversation.priority ? <span className="desk-badge">Tiffin One</span> : null}
          {conversation.title}
        </h2>
        <p className="desk-conversation__status">
          <span>{conversationStatusWords(conversation.status)}</span>
          {conversation.outcome && conversation.outcome.amountPaise > 0 ? (
            <span className="desk-muted">
              {' · '}
              {conversation.outcome.kind} {formatPrice(conversation.outcome.amountPaise)}
              {conversation.outcome.refundTo ? ` to ${refundToWords(conversation.outcome.refundTo)}` : ''}
            </span>
          ) : null}
        </p>
        {done ? (
          <p className="desk-note" role="status">
            {done}
          </p>
        ) : null}
        <Messages conversation={conversation} customerName={detail.customer.name} />
        {open ? (
          <div className="desk-actions">
            <ReplyForm conversationId={conversation.id} onDone={() => changed('Reply sent.')} />
            <RefundForm conversationId={conversation.id} detail={detail} onDone={changed} />
            <CloseButton conversationId={conversation.id} onDone={() => changed('Conversation closed.')} />
          </div>
        ) : null}
      </div>
      <Beside detail={detail} />
    </section>
  );
}
