/**
 * mfe_checkout/App: checkout (/checkout), the Tiffin One checkout (/checkout/super), the order
 * confirmation (/order-confirmation/{orderId}), web payments (/payments) and order tracking.
 */
import type { MatchedRoute, RemoteAppProps } from '@tiffin/contract';
import { ErrorState, MfeRoot } from '@tiffin/design-system';
import { CheckoutPage } from './checkout/CheckoutPage';
import { OrderConfirmation } from './confirmation/OrderConfirmation';
import { MembershipCheckoutPage } from './membership/MembershipCheckoutPage';
import { PaymentMethods } from './PaymentMethods';
import { TrackOrderPage } from './tracking/TrackOrderPage';
import './checkout.css';

function Page({ route }: { route: MatchedRoute }) {
  switch (route.id) {
    case 'checkout':
      return <CheckoutPage />;
    case 'membership-checkout':
      return <MembershipCheckoutPage />;
    case 'order-confirmation':
      return <OrderConfirmation orderId={route.params.orderId ?? ''} />;
    case 'payments':
      return (
        <section className="chk-page" aria-label="Payment options">
          <h2 className="chk-page__title">Payment options</h2>
          <PaymentMethods />
        </section>
      );
    case 'track-order':
      return <TrackOrderPage orderId={route.params.orderId ?? ''} />;
    default:
      return <ErrorState role="region" title="There's nothing here" message="We cannot find what you are looking for. Please check your search query." />;
  }
}

export default function App({ route }: RemoteAppProps) {
  return (
    <MfeRoot mfe="mfe-checkout" version={__MFE_VERSION__} className="chk-root">
      <Page route={route} />
    </MfeRoot>
  );
}
