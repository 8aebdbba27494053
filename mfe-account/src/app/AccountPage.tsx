/**
 * /my-account with optional tab and subtab. Orders come from GET /api/order/all, which answers
 * 401 / 999 to a visitor who is not logged in: then the page offers the login sidebar.
 */
import { edge } from '@tiffin/api-client';
import { emit, navigate } from '@tiffin/contract';
import { AsyncContent, Button, ErrorState, formatPrice, Link, useAsync } from '@tiffin/design-system';
import { useEffect } from 'react';

export const ACCOUNT_TABS = [
  { tab: 'orders', label: 'Orders' },
  { tab: 'super', label: 'Tiffin One' },
  { tab: 'favourites', label: 'Favourites' },
  { tab: 'payments', label: 'Payments' },
  { tab: 'manage_addresses', label: 'Addresses' },
  { tab: 'settings', label: 'Settings' },
] as const;

function isUnauthenticated(error: unknown): boolean {
  const e = error as { httpStatus?: number; statusCode?: number } | null;
  return e?.httpStatus === 401 || e?.statusCode === 999;
}

function Orders() {
  const state = useAsync((signal) => edge.orders({ signal }), []);
  if (state.status === 'error' && isUnauthenticated(state.error)) {
    return (
      <ErrorState role="region" title="Please login to continue." message="Log in to see your orders, addresses and membership.">
        <Button onClick={() => emit('auth:open', { mode: 'login' })}>LOGIN</Button>
      </ErrorState>
    );
  }
  return (
    <AsyncContent state={state}>
      {(data) =>
        data.orders.length === 0 ? (
          <ErrorState role="region" title="No Orders" message="You haven't placed any order yet." />
        ) : (
          <ul className="acct-orders">
            {data.orders.map((order) => (
              <li key={order.order_id} className="acct-order">
                <strong>{order.restaurant_name ?? `Order #${order.order_id}`}</strong>
                {order.order_total !== undefined ? <span> {formatPrice(order.order_total)}</span> : null}
                <Link href={`/track-order/${order.order_id}`}>Track</Link>
              </li>
            ))}
          </ul>
        )
      }
    </AsyncContent>
  );
}

export function AccountPage({ tab }: { tab: string | undefined }) {
  // Spec 001 §2: the 'offers' tab lives at /offers.
  useEffect(() => {
    if (tab === 'offers') navigate('/offers', { replace: true });
  }, [tab]);
  const active = tab ?? 'orders';
  const label = ACCOUNT_TABS.find((t) => t.tab === active)?.label ?? 'Orders';
  return (
    <div className="acct-layout">
      <nav className="acct-tabs" aria-label="Account sections">
        {ACCOUNT_TABS.map((t) => (
          <Link key={t.tab} href={`/my-account/${t.tab}`} className={t.tab === active ? 'acct-tab acct-tab--active' : 'acct-tab'} aria-current={t.tab === active ? 'page' : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      <section className="acct-content" aria-label={label}>
        <h2 className="acct-content__title">{label}</h2>
        <Orders />
      </section>
    </div>
  );
}
