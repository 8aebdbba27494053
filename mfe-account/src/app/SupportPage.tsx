/**
 * Help & Support (/support and any sub-path): the issue types from GET /api/support. Opened from
 * an order ("Help", `/support?order_id=…`), it first names that order, so the customer sees what
 * the help is about; an order that cannot be read (not theirs, signed out) is said so plainly and
 * the help is still shown.
 */
import { edge } from '@tiffin/api-client';
import { orderDetailsHref, orderStatusWords } from '@tiffin/contract';
import { AsyncContent, formatDateTime, formatPrice, Link, useAsync } from '@tiffin/design-system';

/** The order the page was opened about, from the address's `order_id`. */
function orderIdOfPage(): string | null {
  const id = new URLSearchParams(window.location.search).get('order_id')?.trim();
  return id && /^\d{1,20}$/.test(id) ? id : null;
}

function AboutOrder({ orderId }: { orderId: string }) {
  const state = useAsync((signal) => edge.orderDetails(orderId, { signal }), [orderId]);
  if (state.status === 'error') {
    return (
      <p className="acct-support__order acct-support__order--missing" role="status">
        We could not find order #{orderId} in your orders.
      </p>
    );
  }
  if (state.status !== 'success') return <p className="acct-support__order" aria-busy="true">Looking up order #{orderId}…</p>;
  const order = state.data;
  const items = order.order_items.map((i) => `${i.name} × ${i.quantity}`).join(', ');
  return (
    <section className="acct-support__order" aria-label="About your order">
      <h2 className="acct-support__order-title">
        Order #{order.order_id} from {order.restaurant_name}
      </h2>
      <p>
        {orderStatusWords(order.order_status)} · {formatPrice(order.order_total)} · {formatDateTime(order.order_time)}
      </p>
      <p className="acct-support__order-items">{items}</p>
      <Link href={orderDetailsHref(order.order_id)}>View order details</Link>
    </section>
  );
}

export function SupportPage({ rest }: { rest: string | undefined }) {
  const state = useAsync((signal) => edge.support({ signal }), []);
  const faq = rest?.includes('faq');
  const orderId = orderIdOfPage();
  return (
    <section className="acct-support" aria-label="Help and support">
      <h1 className="acct-support__title">{faq ? 'FAQs' : 'Help & Support'}</h1>
      <p className="acct-support__subtitle">Let&apos;s take a step ahead and help you better.</p>
      {orderId ? <AboutOrder orderId={orderId} /> : null}
      <AsyncContent state={state}>
        {(data) => (
          <ul className="acct-issues">
            {data.issueTypes.map((issue) => (
              <li key={issue.id} className="acct-issue">
                <h3 className="acct-issue__title">{issue.title}</h3>
                <p className="acct-issue__description">{issue.description}</p>
              </li>
            ))}
          </ul>
        )}
      </AsyncContent>
    </section>
  );
}
