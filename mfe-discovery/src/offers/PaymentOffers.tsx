/**
 * The offers page's 'Payment offers/Coupons' tab: the bank, card network, wallet and UPI offers
 * (`GET offers/payment` for the location), each with its tag, its terms and whether the customer
 * has used it for now, then the coupons every restaurant takes, each with a button that copies its
 * code. Every word, amount and colour is the cart service's; the page only lays them out. The
 * offers themselves are applied at checkout, by the way the customer pays.
 */
import { edge } from '@tiffin/api-client';
import type { OfferTag, PaymentOffer, PaymentOffersResponse, PlatformCoupon, UserLocation } from '@tiffin/contract';
import { AsyncContent, Button, ErrorState, formatDate, formatPrice, Skeleton, useAsync } from '@tiffin/design-system';
import { useId, useState } from 'react';
import './offers.css';

const SKELETON_OFFERS = 4;
const TAG_COLOURS = { background: '#282C3F', text: '#FFFFFF' };

/** The colour as sent when it is a plain hex colour, else the fallback (it goes into a style). */
function colour(value: string, fallback: string): string {
  return /^#[0-9a-fA-F]{3,8}$/.test(value) ? value : fallback;
}

/** `2027-03-31` → `31 Mar 2027`: the day as India reads it, whatever the browser's zone. */
export function offerDay(iso: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!day) return iso;
  // Noon in India (06:30 UTC) is that same day in India.
  return formatDate(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]), 6, 30) / 1000);
}

function Tag({ tag }: { tag: OfferTag }) {
  return (
    <div className="disc-offer-tag" style={{ background: colour(tag.backgroundColor, TAG_COLOURS.background), color: colour(tag.textColor, TAG_COLOURS.text) }}>
      <strong className="disc-offer-tag__title">{tag.title}</strong>
      {tag.subTitle ? <span className="disc-offer-tag__sub">{tag.subTitle}</span> : null}
    </div>
  );
}

function PaymentOfferItem({ offer }: { offer: PaymentOffer }) {
  const titleId = useId();
  return (
    <li className={offer.used ? 'disc-offer disc-offer--used' : 'disc-offer'} aria-labelledby={titleId}>
      <Tag tag={offer.offer_tag} />
      <div className="disc-offer__body">
        <h3 id={titleId} className="disc-offer__title">
          {offer.title}
        </h3>
        {offer.used ? <span className="disc-offer__used">Used</span> : null}
        <p className="disc-offer__description">{offer.description}</p>
        {offer.terms.length > 0 ? (
          <ul className="disc-offer__terms" aria-label="Terms">
            {offer.terms.map((term) => (
              <li key={term}>{term}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

function CouponItem({ coupon, copied, onCopy }: { coupon: PlatformCoupon; copied: boolean; onCopy: () => void }) {
  const codeId = useId();
  return (
    <li className="disc-offer" aria-labelledby={codeId}>
      <Tag tag={coupon.offer_tag} />
      <div className="disc-offer__body">
        <p className="disc-offer__code" id={codeId}>
          {coupon.code}
        </p>
        <h3 className="disc-offer__title">{coupon.title}</h3>
        <p className="disc-offer__description">{coupon.description}</p>
        <ul className="disc-offer__terms" aria-label="Terms">
          <li>{`Min cart amount ${formatPrice(coupon.min_cart_amount)}`}</li>
          {coupon.valid_till ? <li>{`Valid till ${offerDay(coupon.valid_till)}`}</li> : null}
        </ul>
        <Button variant="secondary" className="disc-offer__copy" onClick={onCopy}>
          {copied ? 'Copied' : 'Copy code'}
        </Button>
      </div>
    </li>
  );
}

function OffersSkeleton() {
  return (
    <div className="disc-offer-list" aria-busy="true" data-testid="payment-offers-loading">
      {Array.from({ length: SKELETON_OFFERS }, (_, i) => (
        <Skeleton key={i} height={112} />
      ))}
    </div>
  );
}

function OfferLists({ data }: { data: PaymentOffersResponse }) {
  const [copied, setCopied] = useState<string | null>(null);
  const [copyFailed, setCopyFailed] = useState<string | null>(null);

  const copy = (code: string) => {
    setCopyFailed(null);
    // Without a clipboard (an old browser, a page not served securely) the code is left to copy by hand.
    const clipboard = globalThis.navigator?.clipboard;
    const written = clipboard ? clipboard.writeText(code) : Promise.reject(new Error('no clipboard'));
    written.then(
      () => setCopied(code),
      () => {
        setCopied(null);
        setCopyFailed(code);
      },
    );
  };

  if (data.payment_offers.length === 0 && data.coupons.length === 0) {
    return <ErrorState role="region" title="No offers right now" message="There are no payment offers or coupons at the moment. Please check again later." />;
  }
  return (
    <>
      {data.payment_offers.length > 0 ? (
        <>
          <h2 className="disc-carousel__title">Payment offers</h2>
          <ul className="disc-offer-list" aria-label="Payment offers">
            {data.payment_offers.map((offer) => (
              <PaymentOfferItem key={offer.offer_id} offer={offer} />
            ))}
          </ul>
        </>
      ) : null}
      {data.coupons.length > 0 ? (
        <>
          <h2 className="disc-carousel__title">Coupons</h2>
          <ul className="disc-offer-list" aria-label="Coupons">
            {data.coupons.map((coupon) => (
              <CouponItem key={coupon.code} coupon={coupon} copied={copied === coupon.code} onCopy={() => copy(coupon.code)} />
            ))}
          </ul>
          {copyFailed ? (
            <p className="disc-offer__copy-failed" role="status">
              {`We could not copy the code. Your code is ${copyFailed}.`}
            </p>
          ) : null}
        </>
      ) : null}
    </>
  );
}

export function PaymentOffers({ location }: { location: UserLocation }) {
  const state = useAsync((signal) => edge.paymentOffers({ lat: location.lat, lng: location.lng }, { signal }), [location.lat, location.lng]);
  return (
    <section className="disc-pay-offers" aria-label="Payment offers/Coupons">
      <AsyncContent state={state} skeleton={<OffersSkeleton />}>
        {(data) => <OfferLists data={data} />}
      </AsyncContent>
    </section>
  );
}
