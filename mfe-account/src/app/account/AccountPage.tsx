/**
 * /my-account with optional tab and subtab. A visitor who is not logged in is
 * sent home, except on the delete-account subtab (/my-account/settings/delete-account) and on the
 * email verification link (/my-account/verify-email?token=…), which works without a session by
 * design (docs/edge-api.md). The tab 'offers' lives at /offers.
 */
import { navigate } from '@tiffin/contract';
import { ErrorState, Link } from '@tiffin/design-system';
import { useEffect } from 'react';
import { useCurrentUser } from '../common/user';
import { Addresses } from './Addresses';
import { DeleteAccount } from './DeleteAccount';
import { Favourites } from './Favourites';
import { OrderDetailsPage } from './OrderDetails';
import { Orders } from './Orders';
import { Payments } from './Payments';
import { Profile } from './Profile';
import { Settings } from './Settings';
import { TiffinOne } from './TiffinOne';
import { VerifyEmail } from './VerifyEmail';

/** The left navigation, in the spec's order. */
const ACCOUNT_TABS = [
  { tab: 'orders', label: 'Orders' },
  { tab: 'super', label: 'Tiffin One' },
  { tab: 'favourites', label: 'Favourites' },
  { tab: 'payments', label: 'Payments' },
  { tab: 'manage_addresses', label: 'Addresses' },
  { tab: 'settings', label: 'Settings' },
] as const;

const DELETE_ACCOUNT_SUBTAB = 'delete-account';

/** Pages reachable without a session. */
function isPublic(tab: string | undefined, subtab: string | undefined): boolean {
  return subtab === DELETE_ACCOUNT_SUBTAB || tab === 'verify-email';
}

function Section({ tab, subtab }: { tab: string; subtab: string | undefined }) {
  if (subtab === DELETE_ACCOUNT_SUBTAB) return <DeleteAccount />;
  switch (tab) {
    case 'orders':
      // /my-account/orders/{orderId}: the order's id is the subtab.
      return subtab ? <OrderDetailsPage orderId={subtab} /> : <Orders />;
    case 'super':
      return <TiffinOne />;
    case 'favourites':
      return <Favourites />;
    case 'payments':
      return <Payments />;
    case 'manage_addresses':
      return <Addresses />;
    case 'settings':
      return <Settings />;
    case 'profile':
      return <Profile />;
    default:
      return <ErrorState role="region" title="There's nothing here" message="We cannot find what you are looking for. Please check your search query." />;
  }
}

const SECTION_TITLES: Record<string, string> = { profile: 'Profile', 'verify-email': 'Verify email' };

export function AccountPage({ tab, subtab }: { tab: string | undefined; subtab: string | undefined }) {
  const user = useCurrentUser();
  const redirect = tab === 'offers' ? '/offers' : !user && !isPublic(tab, subtab) ? '/' : null;
  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);
  if (redirect) return null;

  if (tab === 'verify-email') {
    return (
      <section className="acct-content acct-content--single" aria-label="Verify email">
        <VerifyEmail />
      </section>
    );
  }
  if (!user) {
    // Only the delete-account subtab gets here logged out.
    return (
      <section className="acct-content acct-content--single" aria-label="Delete account">
        <DeleteAccount />
      </section>
    );
  }

  const active = tab ?? 'orders';
  const label =
    subtab === DELETE_ACCOUNT_SUBTAB ? 'Delete account' : active === 'orders' && subtab ? 'Order details' : (ACCOUNT_TABS.find((t) => t.tab === active)?.label ?? SECTION_TITLES[active] ?? 'Account');
  return (
    <div className="acct-page">
      <div className="acct-profile-bar">
        <div>
          <h1 className="acct-profile-bar__name">{user.name || 'Your account'}</h1>
          <p className="acct-profile-bar__contact">
            {user.mobile}
            {user.email ? ` · ${user.email}` : ''}
          </p>
        </div>
        <Link href="/my-account/profile" className="acct-button-link">
          EDIT PROFILE
        </Link>
      </div>
      <div className="acct-layout">
        <nav className="acct-tabs" aria-label="Account sections">
          {ACCOUNT_TABS.map((t) => (
            <Link
              key={t.tab}
              href={`/my-account/${t.tab}`}
              className={t.tab === active ? 'acct-tab acct-tab--active' : 'acct-tab'}
              aria-current={t.tab === active ? 'page' : undefined}
            >
              {t.label}
            </Link>
          ))}
        </nav>
        <section className="acct-content" aria-label={label}>
          <h2 className="acct-content__title">{label}</h2>
          <Section tab={active} subtab={subtab} />
        </section>
      </div>
    </div>
  );
}
