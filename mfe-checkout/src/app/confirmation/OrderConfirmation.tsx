/**
 * The order confirmation page (/order-confirmation/{orderId}): what was ordered, from where, for
 * how much, and the way to follow it. Everything shown is the orders service's record of the
 * order, never what checkout remembered.
 */
import { edge } from '@tiffin/api-client';
import { trackOrderHref, type OrderDetails } from '@tiffin/contract';
import { AsyncContent, formatPrice, Link, useAsync } from '@tiffin/design-system';

function Confirmation({ order }: { order: OrderDetails }) {
  return (
    <section className="chk-confirmation" aria-label="Order placed">
      <h1 className="chk-confirmation__title">Order placed</h1>
      <p className="chk-confirmation__id">Order #{order.order_id}</p>
      <p className="chk-confirmation__restaurant">{order.restaurant_name}</p>
      <ul className="chk-confirmation__items" aria-label="Items ordered">
        {order.order_items.map((item) => (
          <li key={item.item_id} className="chk-confirmation__item">
            <span>
              {item.quantity} × {item.name}
            </span>
            <span>{formatPrice(item.subtotal)}</span>
          </li>
        ))}
      </ul>
      <p className="chk-confirmation__total">
        <span>Total paid</span>
        <strong>{formatPrice(order.order_total)}</strong>
      </p>
      {order.delivery_address?.address ? (
        <p className="chk-confirmation__address">
          Delivering to <strong>{order.delivery_address.annotation}</strong> {order.delivery_address.address}
        </p>
      ) : null}
      <Link href={trackOrderHref(order.order_id)} className="chk-button-link">
        Track order
      </Link>
    </section>
  );
}

export function OrderConfirmation({ orderId }: { orderId: string }) {
  const state = useAsync((signal) => edge.orderDetails(orderId, { signal }), [orderId]);
  return <AsyncContent state={state}>{(order) => <Confirmation order={order} />}</AsyncContent>;
}
