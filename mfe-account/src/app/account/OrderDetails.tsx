/**
 * One order's page (/my-account/orders/{orderId}): what was ordered with its choices, the bill
 * line by line as the orders service renders it with the charges behind it, where it went, how it
 * was paid, its status history, and what can be done with it now: track it while it is under way,
 * cancel it while the orders service says it may be, order it again, download its invoice, ask
 * for help.
 */
import { edge } from '@tiffin/api-client';
import { invoiceHref, isFinalOrderStatus, orderHelpHref, orderStatusWords, trackOrderHref, type CancelResult, type OrderDetails, type OrderMembershipFields } from '@tiffin/contract';
import { AsyncContent, Button, formatDateTime, formatPrice, Link, Timeline, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { CancelledNotice, CancelOrderDialog, refundTarget } from './CancelOrder';
import { billAmount, chargesThatApply, paymentMethodWords } from './order-words';
import { ReorderReport, useReorder } from './Reorder';

export function OrderDetailsPage({ orderId }: { orderId: string }) {
  const state = useAsync((signal) => edge.orderDetails(orderId, { signal }), [orderId]);
  return <AsyncContent state={state}>{(order) => <OrderPage first={order} reload={state.reload} />}</AsyncContent>;
}

function OrderPage({ first, reload }: { first: OrderDetails; reload: () => void }) {
  const [order, setOrder] = useState(first);
  const [cancelling, setCancelling] = useState(false);
  const [cancelled, setCancelled] = useState<CancelResult | null>(null);
  const reorder = useReorder();
  const id = order.order_id;
  const active = !isFinalOrderStatus(order.order_status);

  const onCancelled = (result: CancelResult) => {
    setCancelling(false);
    setCancelled(result);
    setOrder(result.order);
  };

  return (
    <article className="acct-order-details" aria-label={`Order #${id}`}>
      <Link href="/my-account/orders" className="acct-order-details__back">
        ← All orders
      </Link>
      <header className="acct-order-details__head">
        <h3 className="acct-order-details__title">Order #{id}</h3>
        <p className="acct-order-details__restaurant">{order.restaurant_name}</p>
        <p className="acct-muted">
          {orderStatusWords(order.order_status)} · {formatDateTime(order.order_time)}
        </p>
      </header>

      <div className="acct-order-details__actions">
        {active ? (
          <Link href={trackOrderHref(id)} className="acct-button-link">
            Track order
          </Link>
        ) : null}
        {order.cancellable ? (
          <Button variant="secondary" onClick={() => setCancelling(true)}>
            Cancel order
          </Button>
        ) : null}
        {order.order_type === 'SUBSCRIPTION' ? null : (
          <Button variant="secondary" onClick={() => void reorder.reorder(id)} disabled={reorder.busyOrderId !== null}>
            Reorder
          </Button>
        )}
        {/* The invoice is a file the edge serves outside the app's routes: a plain download link. */}
        <a href={invoiceHref(id)} className="acct-button-link" download>
          Download invoice
        </a>
        <Link href={orderHelpHref(id)} className="acct-button-link">
          Help
        </Link>
      </div>
      {reorder.error ? (
        <p className="acct-error" role="alert">
          {reorder.error.message}
        </p>
      ) : null}
      {cancelled ? <CancelledNotice result={cancelled} paymentMethod={order.payment_method} /> : null}
      {!cancelled && order.refund && order.refund.amount > 0 ? (
        <p className="acct-note">
          A refund of {formatPrice(order.refund.amount)} goes to {refundTarget(order.refund.destination, order.payment_method)}.
        </p>
      ) : null}

      <section className="acct-order-details__section" aria-label="Items">
        <h4>Items</h4>
        <ul className="acct-order-details__items">
          {order.order_items.map((item) => (
            <li key={item.item_id} className="acct-order-details__item">
              <span>
                {item.name} x {item.quantity}
                {item.choices ? <span className="acct-muted acct-order-details__choices">{item.choices}</span> : null}
              </span>
              <span>{formatPrice(item.subtotal)}</span>
            </li>
          ))}
        </ul>
      </section>

      <MembershipPart order={order} />

      <Bill order={order} />

      {order.delivery_address?.address ? (
        <section className="acct-order-details__section" aria-label="Delivery address">
          <h4>Delivered to</h4>
          <p>
            <strong className="acct-order-details__annotation">{order.delivery_address.annotation.toLowerCase()}</strong> {order.delivery_address.address}
          </p>
        </section>
      ) : null}

      <section className="acct-order-details__section" aria-label="Payment">
        <h4>Payment</h4>
        {order.payment_method ? <p>Paid via {paymentMethodWords(order.payment_method)}</p> : null}
        {order.coupon_code ? <p>Coupon applied: {order.coupon_code}</p> : null}
      </section>

      {order.status_history.length > 0 ? (
        <section className="acct-order-details__section" aria-label="Status history">
          <h4>Status history</h4>
          <Timeline label="Order status" steps={order.status_history.map((change) => ({ label: orderStatusWords(change.order_status), detail: formatDateTime(change.changed_at) }))} />
        </section>
      ) : null}

      {cancelling ? (
        <CancelOrderDialog
          order={order}
          onCancelled={onCancelled}
          onClose={(refused) => {
            setCancelling(false);
            // A refusal means the order moved on: read it again so the page shows where it is now.
            if (refused) reload();
          }}
        />
      ) : null}
      {reorder.report ? <ReorderReport result={reorder.report} onClose={reorder.closeReport} /> : null}
    </article>
  );
}

/** The Tiffin One plan the order bought, and what the membership saved on it. */
function MembershipPart({ order }: { order: OrderDetails & OrderMembershipFields }) {
  const { plan } = order;
  const saved = order.member_savings ?? 0;
  if (!plan && saved <= 0) return null;
  return (
    <section className="acct-order-details__section" aria-label="Tiffin One">
      <h4>Tiffin One</h4>
      {plan ? (
        <p className="acct-order-details__item">
          <span>{`${plan.planName} · ${plan.title} (${plan.durationDays} days)`}</span>
          <span>{formatPrice(plan.price)}</span>
        </p>
      ) : null}
      {saved > 0 ? <p>{`You saved ${formatPrice(saved)} with Tiffin One.`}</p> : null}
    </section>
  );
}

/** The bill as the orders service renders it, and the charges behind it that apply. */
function Bill({ order }: { order: OrderDetails }) {
  const charges = chargesThatApply(order.charges);
  return (
    <section className="acct-order-details__section" aria-label="Bill details">
      <h4>Bill details</h4>
      <ul className="acct-bill">
        {order.rendering_details.map((line, index) => (
          <li key={`${index}-${line.display_text}`} className={line.type === 'TOTAL' ? 'acct-bill__line acct-bill__line--total' : line.is_negative ? 'acct-bill__line acct-bill__line--discount' : 'acct-bill__line'}>
            <span>{line.display_text}</span>
            <span>{billAmount(line)}</span>
          </li>
        ))}
      </ul>
      {charges.length > 0 ? (
        <details className="acct-bill__charges">
          <summary>Charges breakdown</summary>
          <ul className="acct-bill" aria-label="Charges">
            {charges.map((charge) => (
              <li key={charge.name} className="acct-bill__line">
                <span>{charge.name}</span>
                <span>{formatPrice(charge.amount)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
