/**
 * Cancelling an order from its page. The dialog says first what cancelling costs now (the order's
 * own `cancellation_fee`) and, when there is money to give back, lets the customer choose where it
 * goes: back to how they paid, or to Tiffin Money. The answer is the order as it now is with the
 * fee kept and the refund made; a refusal (the order was picked up meanwhile, say) is shown in the
 * edge's words.
 */
import { edge } from '@tiffin/api-client';
import type { CancelResult, OrderDetails, RefundDestination } from '@tiffin/contract';
import { Button, formatPrice } from '@tiffin/design-system';
import { useState } from 'react';
import { errorMessage } from '../common/errors';
import { asksRefundDestination, cancellationFeeWords, paymentMethodWords, refundDestinationWords } from './order-words';

const DESTINATIONS: readonly RefundDestination[] = ['SOURCE', 'TIFFIN_MONEY'];

interface CancelOrderDialogProps {
  order: OrderDetails;
  onCancelled: (result: CancelResult) => void;
  /** Closed without cancelling; `refused` when the edge would not cancel (the order has moved on). */
  onClose: (refused: boolean) => void;
}

export function CancelOrderDialog({ order, onCancelled, onClose }: CancelOrderDialogProps) {
  const asks = asksRefundDestination(order.payment_method);
  const [refundTo, setRefundTo] = useState<RefundDestination>('SOURCE');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const cancel = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      onCancelled(await edge.cancelOrder(order.order_id, asks ? refundTo : 'SOURCE'));
    } catch (e) {
      setRefusal(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <div className="acct-confirm acct-cancel" role="dialog" aria-modal="true" aria-labelledby="acct-cancel-title">
      <h3 id="acct-cancel-title" className="acct-cancel__title">
        Cancel order #{order.order_id}?
      </h3>
      <p className="acct-cancel__fee">{cancellationFeeWords(order.cancellation_fee)}</p>
      {asks && !refusal ? (
        <fieldset className="acct-cancel__refund" disabled={busy}>
          <legend>Refund to</legend>
          {DESTINATIONS.map((destination) => (
            <label key={destination} className="acct-cancel__option">
              <input type="radio" name="refund_to" value={destination} checked={refundTo === destination} onChange={() => setRefundTo(destination)} />
              {refundDestinationWords(destination, order.payment_method)}
            </label>
          ))}
        </fieldset>
      ) : null}
      {refusal ? (
        <p className="acct-error" role="alert">
          {refusal}
        </p>
      ) : null}
      <div className="acct-confirm__actions">
        <Button variant="secondary" onClick={() => onClose(refusal !== null)} disabled={busy}>
          {refusal ? 'CLOSE' : 'KEEP ORDER'}
        </Button>
        {refusal ? null : (
          <Button onClick={() => void cancel()} disabled={busy}>
            CANCEL ORDER
          </Button>
        )}
      </div>
    </div>
  );
}

/** What came of a cancel: the fee kept and where the money went. */
export function CancelledNotice({ result, paymentMethod }: { result: CancelResult; paymentMethod: string }) {
  return (
    <div className="acct-note acct-cancelled" role="status">
      <p className="acct-cancelled__title">Your order has been cancelled.</p>
      {result.cancellation_fee > 0 ? <p>A cancellation fee of {formatPrice(result.cancellation_fee)} was charged.</p> : null}
      {result.refund_amount > 0 ? (
        <p>
          {formatPrice(result.refund_amount)} will be refunded to {refundTarget(result.refund_destination, paymentMethod)}.
        </p>
      ) : null}
    </div>
  );
}

/** `your Tiffin Money` or `your original payment method (Card)`, to end a sentence with. */
export function refundTarget(destination: RefundDestination, paymentMethod: string): string {
  if (destination === 'TIFFIN_MONEY') return 'your Tiffin Money';
  const paidWith = paymentMethodWords(paymentMethod);
  return paidWith ? `your original payment method (${paidWith})` : 'your original payment method';
}
