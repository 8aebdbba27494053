/**
 * `/app`: why to get the Tiffin app, and where. Only what the app adds to the web (the rest is
 * the same storefront), with a plain link to each store: there is no "text me the link" service
 * behind the edge, so the page asks for no phone number.
 */
import { InfoSections } from '../info/blocks';
import type { InfoSection } from '../info/content';

/** The stores' pages for Tiffin. Opened in a new tab: the visitor leaves the storefront. */
export const APP_STORES = [
  { name: 'Get it on Google Play', store: 'Google Play', href: 'https://play.google.com/store/search?q=Tiffin%20food%20delivery&c=apps' },
  { name: 'Download on the App Store', store: 'App Store', href: 'https://apps.apple.com/in/search?term=Tiffin%20food%20delivery' },
] as const;

const SECTIONS: InfoSection[] = [
  {
    heading: 'Know when the rider is at your gate',
    blocks: [
      'The app tells you as your order moves: when the restaurant accepts it, when the food is picked up, and when the rider is a few minutes away, so you can be at the door instead of watching the map.',
      'The website shows the same live map on the tracking page, but only while you keep that page open.',
    ],
  },
  {
    heading: 'Reorder in a tap',
    blocks: [
      'Your past orders are on the app’s first screen. Tap one to put the same dishes from the same restaurant back in your cart, then change anything you like before you pay.',
    ],
  },
  {
    heading: 'Pay without typing your card again',
    blocks: [
      'Saved cards and UPI ids are offered first at checkout. For a saved card you type only its CVV: Tiffin never keeps your full card number, only a token from our payment gateway with the card’s network, last 4 digits and expiry. A UPI id is saved after you pay with it once. Your bank may still ask for its one-time password.',
      'Tiffin Money and Tiffin One work the same in the app and on the web: they belong to your account, not to the device.',
    ],
  },
  {
    heading: 'One account everywhere',
    blocks: [
      'Sign in with the same mobile number and the one-time code we send you. Your addresses, favourites, orders and membership are already there. Anything you have not done in the app, you can still do on this site: see [your account](/my-account) or [Help & Support](/support).',
    ],
  },
];

export default function AppPage() {
  return (
    <article className="shell-info-page" aria-labelledby="shell-app-title">
      <h1 id="shell-app-title">Get the Tiffin app</h1>
      <p className="shell-info-page__intro">
        Everything you do on this site, plus the things a phone does better: a nudge when the rider is near, your last order again in one tap,
        and checkout without typing your card.
      </p>
      <ul className="shell-store-badges" aria-label="App stores">
        {APP_STORES.map((store) => (
          <li key={store.store}>
            <a className="shell-store-badge" href={store.href} target="_blank" rel="noopener noreferrer">
              {store.name}
            </a>
          </li>
        ))}
      </ul>
      <InfoSections sections={SECTIONS} idPrefix="shell-app-section" />
    </article>
  );
}
