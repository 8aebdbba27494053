/**
 * Help on one order (/support?order_id=…, from the order's details, the history and tracking):
 * what help the order can have now (`GET support/order-help/{orderId}`), the customer picks what
 * went wrong (an issue that cannot be asked now is shown disabled with its reason), for missing or
 * wrong items the lines and how many of each (never more than can still be refunded) with the
 * refund that makes, and where the money goes. `POST support/order-help` then hands it to the
 * rules, and the conversation's page shows what they did.
 *
 * A submission keeps its idempotency key while its body is unchanged, so pressing again after an
 * error or no answer never makes a second refund; the edge's refusal is shown in its own words.
 */
import { edge, submissionKeys } from '@tiffin/api-client';
import { navigate, orderDetailsHref, orderStatusWords, refundToWords, supportConversationHref, type OrderHelp, type OrderIssueCode, type SupportRefundTo } from '@tiffin/contract';
import { AsyncContent, Button, formatDateTimeOfSeconds, formatPrice, Link, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { errorMessage } from '../common/errors';
import { asksForItems, asksForMessage, asksForRefundTo, clampQuantity, defaultRefundTo, orderHelpBody, refundPaise, type ChosenQuantities } from './order-help';

function ItemChoices({ help, chosen, onChange, disabled }: { help: OrderHelp; chosen: ChosenQuantities; onChange: (lineId: number, quantity: number) => void; disabled: boolean }) {
  return (
    <fieldset className="acct-help__items" disabled={disabled}>
      <legend>Which items, and how many?</legend>
      <ul className="acct-help__lines">
        {help.items.map((item) => {
          const quantity = clampQuantity(item, chosen[item.lineId] ?? 0);
          const none = item.refundableQuantity === 0;
          return (
            <li key={item.lineId} className="acct-help__line">
              <div className="acct-help__line-what">
                <label className="acct-help__line-name" htmlFor={`acct-help-qty-${item.lineId}`}>
                  {item.name} × {item.quantity}
                </label>
                {item.choices ? <span className="acct-muted acct-help__choices">{item.choices}</span> : null}
              </div>
              {none ? (
                <span className="acct-muted">Already refunded</span>
              ) : (
                <>
                  <input
                    id={`acct-help-qty-${item.lineId}`}
                    className="acct-help__qty"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={item.refundableQuantity}
                    step={1}
                    value={quantity}
                    onChange={(e) => onChange(item.lineId, clampQuantity(item, Number(e.target.value)))}
                  />
                  <span className="acct-muted">
                    of {item.refundableQuantity} · {formatPrice(item.unitRefundPaise)} each
                  </span>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

function RefundToChoice({ help, refundTo, onChange, disabled }: { help: OrderHelp; refundTo: SupportRefundTo | null; onChange: (to: SupportRefundTo) => void; disabled: boolean }) {
  if (help.refundTo.length === 1) {
    return <p className="acct-muted">Your refund goes to {refundToWords(help.refundTo[0]!)}.</p>;
  }
  return (
    <fieldset className="acct-help__refund-to" disabled={disabled}>
      <legend>Refund to</legend>
      {help.refundTo.map((to) => (
        <label key={to} className="acct-help__option">
          <input type="radio" name="refund_to" value={to} checked={refundTo === to} onChange={() => onChange(to)} />
          {refundToWords(to)}
        </label>
      ))}
    </fieldset>
  );
}

export function OrderHelpForm({ help }: { help: OrderHelp }) {
  const [issue, setIssue] = useState<OrderIssueCode | null>(null);
  const [chosen, setChosen] = useState<ChosenQuantities>({});
  const [refundTo, setRefundTo] = useState<SupportRefundTo | null>(() => defaultRefundTo(help));
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [keyFor] = useState(() => submissionKeys());

  const refund = refundPaise(help.items, chosen);

  const submit = async () => {
    const built = orderHelpBody(help, { issue, chosen, refundTo, message });
    if ('problem' in built) return setProblem(built.problem);
    setProblem(null);
    setBusy(true);
    try {
      const { conversation } = await edge.requestOrderHelp({ ...built.body, idempotencyKey: keyFor(built.body) });
      navigate(supportConversationHref(conversation.id));
    } catch (e) {
      setProblem(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <form
      className="acct-help__form"
      aria-label="What went wrong?"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <fieldset className="acct-help__issues" disabled={busy}>
        <legend>What went wrong?</legend>
        {help.issues.map((option) => (
          <label key={option.code} className={option.available ? 'acct-help__option' : 'acct-help__option acct-help__option--unavailable'}>
            <input
              type="radio"
              name="issue"
              value={option.code}
              checked={issue === option.code}
              disabled={!option.available}
              onChange={() => {
                setIssue(option.code);
                setProblem(null);
              }}
            />
            <span>{option.title}</span>
            {!option.available && option.reason ? <span className="acct-muted acct-help__reason">{option.reason}</span> : null}
          </label>
        ))}
      </fieldset>
      {asksForItems(issue) ? (
        <>
          <ItemChoices help={help} chosen={chosen} disabled={busy} onChange={(lineId, quantity) => setChosen((c) => ({ ...c, [lineId]: quantity }))} />
          <p className="acct-help__refund" role="status">
            {refund > 0 ? `We will refund ${formatPrice(refund)}.` : 'Choose the items to see your refund.'}
          </p>
        </>
      ) : null}
      {asksForRefundTo(issue) ? <RefundToChoice help={help} refundTo={refundTo} onChange={setRefundTo} disabled={busy} /> : null}
      {issue ? (
        <label className="acct-auth__field">
          <span>{asksForMessage(issue) ? 'Tell us what happened' : 'Anything to add? (optional)'}</span>
          <textarea name="message" className="acct-help__message" rows={3} maxLength={2000} value={message} disabled={busy} onChange={(e) => setMessage(e.target.value)} />
        </label>
      ) : null}
      {problem ? (
        <p className="acct-error" role="alert">
          {problem}
        </p>
      ) : null}
      <Button type="submit" disabled={busy}>
        {busy ? 'SENDING…' : 'GET HELP'}
      </Button>
    </form>
  );
}

/** The order-help flow for `orderId`: the order named, then the form (or why the order cannot be helped here). */
export function OrderHelpFlow({ orderId }: { orderId: string }) {
  const state = useAsync((signal) => edge.orderHelp(orderId, { signal }), [orderId]);
  if (state.status === 'error') {
    return (
      <section className="acct-support__order" aria-label="Help with your order">
        <p className="acct-error" role="alert">
          {errorMessage(state.error)}
        </p>
        <p className="acct-muted">We could not open help for order #{orderId}. You can still read the answers below.</p>
      </section>
    );
  }
  return (
    <section className="acct-support__order acct-help" aria-label="Help with your order">
      <AsyncContent state={state}>
        {(help) => (
          <>
            <h2 className="acct-support__order-title">
              Order #{help.orderId} from {help.restaurantName}
            </h2>
            <p className="acct-muted">
              {orderStatusWords(help.orderStatus)}
              {help.windowOpen && help.windowEndsAt ? ` · Help on this order is open until ${formatDateTimeOfSeconds(help.windowEndsAt)}` : ''}
            </p>
            <Link href={orderDetailsHref(help.orderId)}>View order details</Link>
            <OrderHelpForm help={help} />
          </>
        )}
      </AsyncContent>
    </section>
  );
}
