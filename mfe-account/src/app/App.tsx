/**
 * mfe_account/App: my-account, Tiffin One (membership and its checkout) and support.
 */
import { navigate, type MatchedRoute, type RemoteAppProps } from '@tiffin/contract';
import { ErrorState, MfeRoot } from '@tiffin/design-system';
import { useEffect } from 'react';
import { AccountPage } from './account/AccountPage';
import { MembershipPage } from './MembershipPage';
import { SupportPage } from './SupportPage';
import './account.css';

/**
 * Super checkout with an empty user state goes to the membership page. The membership
 * checkout itself comes with the membership issue, so every visitor goes there for now.
 */
function MembershipCheckout() {
  useEffect(() => navigate('/tiffin-one', { replace: true }), []);
  return null;
}

function Page({ route }: { route: MatchedRoute }) {
  switch (route.id) {
    case 'account':
      return <AccountPage tab={route.params.tab} subtab={route.params.subtab} />;
    case 'membership':
    case 'membership-confirm':
      return <MembershipPage />;
    case 'membership-checkout':
      return <MembershipCheckout />;
    case 'support':
      return <SupportPage rest={route.params.rest} />;
    default:
      return <ErrorState role="region" title="There's nothing here" message="We cannot find what you are looking for. Please check your search query." />;
  }
}

export default function App({ route }: RemoteAppProps) {
  return (
    <MfeRoot mfe="mfe-account" version={__MFE_VERSION__} className="acct-root">
      <Page route={route} />
    </MfeRoot>
  );
}
