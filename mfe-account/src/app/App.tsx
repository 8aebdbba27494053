/**
 * mfe_account/App: my-account, Tiffin One (the plans and the confirmation of one bought; its
 * checkout is mfe-checkout's) and support.
 */
import { navigate, type MatchedRoute, type RemoteAppProps } from '@tiffin/contract';
import { ErrorState, MfeRoot } from '@tiffin/design-system';
import { useEffect } from 'react';
import { AccountPage } from './account/AccountPage';
import { useCurrentUser } from './common/user';
import { MembershipConfirm } from './membership/MembershipConfirm';
import { MembershipPage } from './MembershipPage';
import { SupportPage } from './support/SupportPage';
import './account.css';

/** The confirmation is a member's: nobody signed in goes to the plans. */
function MembershipConfirmPage() {
  const user = useCurrentUser();
  useEffect(() => {
    if (!user) navigate('/tiffin-one', { replace: true });
  }, [user]);
  return user ? <MembershipConfirm /> : null;
}

function Page({ route }: { route: MatchedRoute }) {
  switch (route.id) {
    case 'account':
      return <AccountPage tab={route.params.tab} subtab={route.params.subtab} />;
    case 'membership':
      return <MembershipPage />;
    case 'membership-confirm':
      return <MembershipConfirmPage />;
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
