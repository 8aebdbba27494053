/**
 * Ordering again, from the orders list or an order's page: order/reorder puts the order's items in
 * the cart, the page's cart is read again (so the header's count follows), and then either
 * checkout opens at once or, when something could not go in as before (an item is gone, a price
 * changed), the customer is told what first and chooses to go on to the cart.
 */
import { edge } from '@tiffin/api-client';
import { fetchCart } from '@tiffin/cart-store';
import { navigate, type ReorderResult } from '@tiffin/contract';
import { Button, formatPrice } from '@tiffin/design-system';
import { useRef, useState } from 'react';
import { errorMessage } from '../common/errors';

export function useReorder() {
  const [busyOrderId, setBusyOrderId] = useState<string | null>(null);
  const [report, setReport] = useState<ReorderResult | null>(null);
  const [error, setError] = useState<{ orderId: string; message: string } | null>(null);
  const running = useRef(false);

  const reorder = async (orderId: string) => {
    if (running.current) return;
    running.current = true;
    setBusyOrderId(orderId);
    setError(null);
    try {
      const result = await edge.reorder(orderId);
      await fetchCart({ force: true }).catch(() => {
        // The cart page reads it again anyway; the reorder itself went through.
      });
      if (result.unavailable_items.length > 0 || result.price_changes.length > 0) setReport(result);
      else navigate('/checkout');
    } catch (e) {
      setError({ orderId, message: errorMessage(e) });
    } finally {
      running.current = false;
      setBusyOrderId(null);
    }
  };

  return { reorder, busyOrderId, report, error, closeReport: () => setReport(null) };
}

/** What did not go into the cart as before, with the way on to the cart when anything did. */
export function ReorderReport({ result, onClose }: { result: ReorderResult; onClose: () => void }) {
  const nothingAdded = result.item_count === 0;
  return (
    <div className="acct-confirm acct-reorder" role="dialog" aria-modal="true" aria-labelledby="acct-reorder-title">
      <h3 id="acct-reorder-title" className="acct-reorder__title">
        {nothingAdded ? 'None of these items can be ordered right now' : 'Some items have changed'}
      </h3>
      {result.unavailable_items.length > 0 ? (
        <section aria-label="Not available">
          <p className="acct-reorder__heading">Not available, left out of your cart:</p>
          <ul className="acct-reorder__list">
            {result.unavailable_items.map((item) => (
              <li key={item.name}>
                {item.name} x {item.quantity}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {result.price_changes.length > 0 ? (
        <section aria-label="Price changed">
          <p className="acct-reorder__heading">The price has changed:</p>
          <ul className="acct-reorder__list">
            {result.price_changes.map((change) => (
              <li key={change.name}>
                {change.name}: <s>{formatPrice(change.previous_price)}</s> {formatPrice(change.price)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="acct-confirm__actions">
        <Button variant="secondary" onClick={onClose}>
          CLOSE
        </Button>
        {nothingAdded ? null : <Button onClick={() => navigate('/cart')}>VIEW CART</Button>}
      </div>
    </div>
  );
}
