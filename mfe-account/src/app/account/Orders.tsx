/**
 * Orders: Active and Past tabs, "Show More Orders" paging with GET order/all's
 * optional order_id, and the empty state. Older orders than the edge pages through are only in the
 * app, which the spec's message says in place of more paging.
 */
import { edge } from '@tiffin/api-client';
import type { OrdersResponse } from '@tiffin/contract';
import { AsyncContent, Button, ErrorState, formatPrice, Link, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { errorMessage } from '../common/errors';

type Order = OrdersResponse['orders'][number];

/** Statuses after which an order is history. */
const FINISHED = new Set(['DELIVERED', 'CANCELLED', 'CANCELED', 'COMPLETED', 'FAILED', 'REFUNDED']);

function isActiveOrder(order: Pick<Order, 'order_status'>): boolean {
  return !FINISHED.has((order.order_status ?? '').toUpperCase());
}

function OrderCard({ order }: { order: Order }) {
  const active = isActiveOrder(order);
  return (
    <li className="acct-order" data-testid="order">
      <div>
        <strong>{order.restaurant_name ?? `Order #${order.order_id}`}</strong>
        <p className="acct-muted">
          ORDER #{order.order_id}
          {order.order_time ? ` | ${order.order_time}` : ''}
          {order.order_status ? ` | ${order.order_status}` : ''}
        </p>
      </div>
      {order.order_total !== undefined ? <span>Total Paid: {formatPrice(order.order_total)}</span> : null}
      {active ? <Link href={`/track-order/${order.order_id}`}>TRACK</Link> : null}
      <Link href="/support">HELP</Link>
    </li>
  );
}

function OrderList({ first }: { first: OrdersResponse }) {
  const [tab, setTab] = useState<'active' | 'past'>('active');
  const [orders, setOrders] = useState(first.orders);
  const [total, setTotal] = useState(first.total_orders);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

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
            <OrderCard key={order.order_id} order={order} />
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
    </>
  );
}

export function Orders() {
  const state = useAsync((signal) => edge.orders({ signal }), []);
  return <AsyncContent state={state}>{(data) => <OrderList first={data} />}</AsyncContent>;
}
