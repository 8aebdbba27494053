/**
 * `/webview`: the page a partner's app opens in its web view. It says in three steps how ordering
 * works here and starts the first one: choose where to deliver (the shell's location sidebar,
 * through `location:open`), then the restaurants that deliver there. Once a location is set, the
 * way on is one link to them.
 */
import { emit } from '@tiffin/contract';
import { Button, Link } from '@tiffin/design-system';
import { useUserLocation } from '../../header/useUserLocation';
import { InfoSections } from '../info/blocks';
import type { InfoSection } from '../info/content';

const STEPS = [
  'Choose where to deliver: search for your area or street, or use your current location.',
  'Pick a restaurant. The list shows only restaurants that deliver to that address, with their delivery time and cost for two.',
  'Add dishes, check the bill line by line, and pay. Then follow the rider on the live map.',
];

const SECTIONS: InfoSection[] = [
  {
    heading: 'Good to know',
    blocks: [
      { list: [
        'You sign in with your mobile number and a one-time code, as on the Tiffin website and app: your addresses, orders and Tiffin Money are the same everywhere.',
        'Orders placed here are Tiffin orders. Help with them is in [Help & Support](/support), not in the app you opened this page from.',
        'Cancelling is free until the restaurant accepts your order. The [Refund and Cancellation Policy](/refund-policy) says what happens after that.',
      ] },
    ],
  },
  {
    heading: 'Looking for something else?',
    blocks: [
      { list: [
        '[Offers near you](/offers-near-me), and the [Offer Terms](/offer-terms) that come with them.',
        '[Search](/search) for a dish or a restaurant by name.',
        '[Your orders and account](/my-account).',
      ] },
    ],
  },
];

export default function WebviewPage() {
  const location = useUserLocation();
  const place = location?.mainText || location?.area || location?.address || '';
  return (
    <article className="shell-info-page" aria-labelledby="shell-webview-title">
      <h1 id="shell-webview-title">Order food on Tiffin</h1>
      <p className="shell-info-page__intro">Food from restaurants near you, delivered to your door, in three steps.</p>
      <ol className="shell-steps">
        {STEPS.map((step) => <li key={step}>{step}</li>)}
      </ol>
      <div className="shell-webview__start">
        {place ? (
          <>
            <p>
              Delivering to <strong>{place}</strong>.{' '}
              <Button variant="link" onClick={() => emit('location:open', {})}>Change</Button>
            </p>
            <Link className="ds-button ds-button--primary" href="/restaurants">See restaurants</Link>
          </>
        ) : (
          <Button onClick={() => emit('location:open', {})}>Choose delivery location</Button>
        )}
      </div>
      <InfoSections sections={SECTIONS} idPrefix="shell-webview-section" />
    </article>
  );
}
