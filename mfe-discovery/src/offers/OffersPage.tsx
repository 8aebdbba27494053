/**
 * `/offers[/:tab]` and `/offers-near-me` (needs a location). Heading 'Offers for you';
 * tabs 'Restaurant offers' (restaurants near the location running an offer: the listing narrowed
 * to offers, sortable and filterable) and 'Payment offers/Coupons' (the bank, card, wallet and UPI
 * offers checkout applies, and the coupons every restaurant takes: PaymentOffers). No tab or an
 * unknown tab goes to the restaurant offers.
 */
import { navigate, type UserLocation } from '@tiffin/contract';
import { Link } from '@tiffin/design-system';
import { useEffect } from 'react';
import { useDocumentTitle } from '../common/useDocumentTitle';
import { Listing } from '../listing/Listing';
import '../listing/listing.css';
import { PaymentOffers } from './PaymentOffers';

const OFFER_TABS = [
  { tab: 'restaurant', label: 'Restaurant offers' },
  { tab: 'payment', label: 'Payment offers/Coupons' },
] as const;

const OFFERS_ONLY = { offers: true };

/** The tab to show, or the path to send the visitor to when the tab is missing or unknown. */
export function offersTab(tab: string | undefined): { tab: 'restaurant' | 'payment' } | { redirect: string } {
  const known = OFFER_TABS.find((t) => t.tab === tab);
  return known ? { tab: known.tab } : { redirect: '/offers/restaurant' };
}

export function OffersPage({ tab, location }: { tab: string | undefined; location: UserLocation }) {
  const choice = offersTab(tab);
  useDocumentTitle('Offers');
  useEffect(() => {
    if ('redirect' in choice) navigate(choice.redirect, { replace: true });
  }, [choice]);
  if ('redirect' in choice) return null;
  return (
    <div className="disc-offers">
      <h1 className="disc-page-title">Offers for you</h1>
      <nav className="disc-collections" aria-label="Offer types">
        {OFFER_TABS.map((t) => (
          <Link key={t.tab} href={`/offers/${t.tab}`} className="disc-chip" aria-current={t.tab === choice.tab ? 'page' : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      {choice.tab === 'restaurant' ? (
        <>
          <h2 className="disc-carousel__title">Offers near you</h2>
          <Listing location={location} title="Offers near you" baseFilters={OFFERS_ONLY} showCarousels={false} />
        </>
      ) : (
        <PaymentOffers location={location} />
      )}
    </div>
  );
}
