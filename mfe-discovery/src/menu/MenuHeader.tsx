/**
 * The restaurant header of the menu: name, cuisines, area and distance,
 * rating and its count ('--' when missing), delivery time ('min-max MINS'), cost for two, the fee
 * message, the offers strip (coupon codes with a copy button), the favourite heart, the
 * collections panel, and the closed / not-delivering state in the spec's words.
 */
import { Link } from '@tiffin/design-system';
import { useId, useState } from 'react';
import { areaText, costForTwoText, deliveryTimeText, ratingText } from '../listing/restaurant-format';
import { FavouriteButton } from '../common/FavouriteButton';
import type { MenuRestaurant } from './menu-types';
import { collectionLinks, distanceText, feeMessage, offersOf, orderingStatus, ratingCountText, type OfferView } from './restaurant-state';

function copyText(text: string): Promise<void> {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (!clipboard?.writeText) return Promise.reject(new Error('No clipboard'));
  return clipboard.writeText(text);
}

function Offer({ offer }: { offer: OfferView }) {
  const [copied, setCopied] = useState(false);
  return (
    <li className="disc-menu-header__offer" data-testid="menu-offer">
      <span className="disc-menu-header__offer-title">{offer.title}</span>
      {offer.description ? <span className="disc-menu-header__offer-text">{offer.description}</span> : null}
      {offer.couponCode ? (
        <span className="disc-menu-header__coupon">
          <code data-testid="coupon-code">{offer.couponCode}</code>
          <button
            type="button"
            className="disc-menu-header__copy"
            aria-label={`Copy coupon code ${offer.couponCode}`}
            onClick={() =>
              copyText(offer.couponCode).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? 'Copied' : 'Copy'}
          </button>
        </span>
      ) : null}
    </li>
  );
}

function CollectionsPanel({ restaurant }: { restaurant: MenuRestaurant }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const links = collectionLinks(restaurant);
  if (links.length === 0) return null;
  return (
    <div className="disc-menu-header__collections">
      <button type="button" className="disc-menu-header__collections-toggle" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide collections' : 'Collections'}
      </button>
      {open ? (
        <ul id={panelId} className="disc-menu-header__collections-list" aria-label={`Collections of ${restaurant.name}`}>
          {links.map((link) => (
            <li key={link.href}>
              <Link href={link.href}>{link.name}</Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function MenuHeader({ restaurant }: { restaurant: MenuRestaurant }) {
  const rating = ratingText(restaurant);
  const time = deliveryTimeText(restaurant);
  const cost = costForTwoText(restaurant.costForTwo);
  const offers = offersOf(restaurant);
  const distance = distanceText(restaurant);
  const fee = feeMessage(restaurant);
  const status = orderingStatus(restaurant);
  return (
    <header className="disc-menu-header">
      <div className="disc-menu-header__main">
        <div>
          <h1 className="disc-menu-header__name">{restaurant.name}</h1>
          <p className="disc-menu-header__cuisines">{(restaurant.cuisines ?? []).join(', ')}</p>
          <p className="disc-menu-header__area">
            {areaText(restaurant)}
            {distance ? <span data-testid="menu-distance">{`${areaText(restaurant) ? ', ' : ''}${distance}`}</span> : null}
          </p>
        </div>
        <div className="disc-menu-header__side">
          <FavouriteButton restaurant={restaurant} />
          <div className="disc-menu-header__rating" aria-label={`Rating ${rating}, ${ratingCountText(restaurant)}`} data-testid="menu-rating">
            <span className="disc-menu-header__stars">★ {rating}</span>
            <span className="disc-menu-header__ratings">{ratingCountText(restaurant)}</span>
          </div>
        </div>
      </div>
      <p className="disc-menu-header__meta">
        {time ? (
          <span className="disc-menu-header__time" data-testid="menu-delivery-time">
            {time}
          </span>
        ) : null}
        {cost ? <span className="disc-menu-header__cost">{cost}</span> : null}
      </p>
      {fee ? (
        <p className="disc-menu-header__fee" data-testid="menu-fee">
          {fee}
        </p>
      ) : null}
      {offers.length > 0 ? (
        <ul className="disc-menu-header__offers" aria-label="Offers">
          {offers.map((offer) => (
            <Offer key={`${offer.title}|${offer.couponCode}`} offer={offer} />
          ))}
        </ul>
      ) : null}
      <CollectionsPanel restaurant={restaurant} />
      {status.state === 'OPEN' ? null : (
        <div className="disc-menu-header__closed" role="status" data-testid="restaurant-closed" data-state={status.state}>
          <strong>{status.text}</strong>
          <span className="disc-menu-header__closed-text">{status.message}</span>
        </div>
      )}
    </header>
  );
}
