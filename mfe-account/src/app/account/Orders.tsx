/**
 * Orders: Active and Past tabs, "Show More Orders" paging with GET order/all's
 * optional order_id, and the empty state. Older orders than the edge pages through are only in the
 * app, which the spec's message says in place of more paging. Each card opens the order's page
 * and offers TRACK (while the order is under way), REORDER and HELP.
 */
import { edge } from '@tiffin/api-client';
import { isFinalOrderStatus, orderDetailsHref, orderHelpHref, orderStatusWords, trackOrderHref, type OrderSummary, type OrdersResponse } from '@tiffin/contract';
import { AsyncContent, Button, ErrorState, formatDateTime, formatPrice, Link, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { errorMessage } from '../common/errors';
import { itemsSummary } from './order-words';
import { ReorderReport, useReorder } from './Reorder';

function isActiveOrder(order: Pick<OrderSummary, 'order_status'>): boolean {
  return !isFinalOrderStatus(order.order_status ?? '');
}

interface OrderCardProps {
  order: OrderSummary;
  onReorder: (orderId: string) => void;
  reordering: boolean;
  reorderError: string | null;
}

function OrderCard({ order, onReorder, reordering, reorderError }: OrderCardProps) {
  const active = isActiveOrder(order);
  // Orders listed before the history carried items and times show without them.
  const items = itemsSummary(order.order_items ?? []);
  const when = formatDateTime(order.order_time ?? '');
  const delivered = formatDateTime(order.delivered_at ?? '');
  return (
    <li className="acct-order" data-testid="order">
      <Link href={orderDetailsHref(order.order_id)} className="acct-order__main" aria-label={`Order #${order.order_id} from ${order.restaurant_name ?? 'the restaurant'}`}>
        <strong>{order.restaurant_name ?? `Order #${order.order_id}`}</strong>
        <span className="acct-muted acct-order__meta">
          ORDER #{order.order_id}
          {when ? ` | ${when}` : ''}
        </span>
        {items ? <span className="acct-order__items">{items}</span> : null}
      </Link>
      {order.order_status ? (
        <span className="acct-order__status">
          {orderStatusWords(order.order_status)}
          {delivered ? ` on ${delivered}` : ''}
        </span>
      ) : null}
      {order.order_total !== undefined ? <span>Total Paid: {formatPrice(order.order_total)}</span> : null}
      <div className="acct-order__actions">
        {active ? <Link href={trackOrderHref(order.order_id)}>TRACK</Link> : null}
        <Button variant="secondary" onClick={() => onReorder(order.order_id)} disabled={reordering}>
          REORDER
        </Button>
        <Link href={orderHelpHref(order.order_id)}>HELP</Link>
      </div>
      {reorderError ? (
        <p className="acct-error acct-order__error" role="alert">
          {reorderError}
        </p>
      ) : null}
    </li>
  );
}

function OrderList({ first }: { first: OrdersResponse }) {
  const [tab, setTab] = useState<'active' | 'past'>('active');
  const [orders, setOrders] = useState(first.orders);
  const [total, setTotal] = useState(first.total_orders);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reorder = useReorder();

  if (orders.length === 0) {
    return <ErrorState role="region" title="No Orders" message="You haven't placed any order yet." />;
  }
  const shown = orders.filter((o) => isActiveOrder(o) === (tab === 'active'));
  const more = async () => {
    setLoading(true);
    setError(null);
    try {
      const page = await edge.moreOrders(orders[orders.length - 1]!.order_id);
      setOrders((o) => [...o, ...page.orders]);
      setTotal(page.orders.length === 0 ? orders.length : page.total_orders);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setLoading(false);
    }
  };
  return (
    <>
      <div className="acct-subtabs" role="tablist" aria-label="Orders">
        {(['active', 'past'] as const).map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} className={tab === t ? 'acct-subtab acct-subtab--active' : 'acct-subtab'} onClick={() => setTab(t)}>
            {t === 'active' ? 'Active Orders' : 'Past Orders'}
          </button>
        ))}
      </div>
      {shown.length === 0 ? (
        <p className="acct-muted">{tab === 'active' ? 'No active orders right now.' : 'No past orders yet.'}</p>
      ) : (
        <ul className="acct-orders">
          {shown.map((order) => (
            <OrderCard
              key={order.order_id}
              order={order}
              onReorder={(orderId) => void reorder.reorder(orderId)}
              reordering={reorder.busyOrderId !== null}
              reorderError={reorder.error?.orderId === order.order_id ? reorder.error.message : null}
            />
          ))}
        </ul>
      )}
      {error ? (
        <p className="acct-error" role="alert">
          {error}
        </p>
      ) : null}
      {orders.length < total ? (
        <Button variant="secondary" onClick={() => void more()} disabled={loading}>
          Show More Orders
        </Button>
      ) : (
        <p className="acct-muted">To view older orders, please use Tiffin App</p>
      )}
      {reorder.report ? <ReorderReport result={reorder.report} onClose={reorder.closeReport} /> : null}
    </>
  );
}

export function Orders() {
  const state = useAsync((signal) => edge.orders({ signal }), []);
  return <AsyncContent state={state}>{(data) => <OrderList first={data} />}</AsyncContent>;
}
