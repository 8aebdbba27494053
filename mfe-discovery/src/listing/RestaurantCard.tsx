/**
 * One restaurant in a listing. The whole card links to the menu; a signed-in
 * customer also gets the favourite heart (outside the link, so it is its own control). Visitors
 * see no heart on cards, as in food apps: the menu header's heart offers them the login instead.
 */
import { getCurrentUser, restaurantHref, subscribeCurrentUser, type Restaurant } from '@tiffin/contract';
import { Image, imageUrl, Link, Skeleton } from '@tiffin/design-system';
import { useSyncExternalStore } from 'react';
import { FavouriteButton } from '../common/FavouriteButton';
import { useIsFavourite } from '../common/favourites';
import { areaText, costForTwoText, deliveryTimeText, isOpen, offerText, ratingText } from './restaurant-format';

/** Shown when a restaurant's own image fails: an edge-generated placeholder. */
const FALLBACK_IMAGE = imageUrl('restaurant-placeholder');

/** `priority`: the card is among the first on the page, its picture likely the largest thing on the first screen. */
export function RestaurantCard({ restaurant, priority = false }: { restaurant: Restaurant; priority?: boolean }) {
  const offer = offerText(restaurant);
  const open = isOpen(restaurant);
  const rating = ratingText(restaurant);
  const time = deliveryTimeText(restaurant);
  const cost = costForTwoText(restaurant.costForTwo);
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
  return (
    <li className={open ? 'disc-card' : 'disc-card disc-card--closed'} data-testid="restaurant-card" data-restaurant-id={restaurant.id} data-open={open}>
      <Link href={restaurantHref(restaurant)} className="disc-card__link">
        <div className="disc-card__media">
          <Image src={imageUrl(restaurant.cloudinaryImageId)} fallbackSrc={FALLBACK_IMAGE} alt="" width={254} height={160} priority={priority} />
          {offer ? <span className="disc-card__offer">{offer}</span> : null}
        </div>
        <h3 className="disc-card__name">{restaurant.name}</h3>
        <p className="disc-card__cuisines">{(restaurant.cuisines ?? []).join(', ')}</p>
        <p className="disc-card__area">{areaText(restaurant)}</p>
        <p className="disc-card__meta">
          <span className={rating === '--' ? 'disc-card__rating disc-card__rating--none' : 'disc-card__rating'} aria-label={`Rating ${rating}`}>
            ★ {rating}
          </span>
          {time ? <span className="disc-card__time">{time}</span> : null}
          {cost ? <span className="disc-card__cost">{cost}</span> : null}
        </p>
        {open ? null : <p className="disc-card__status">Closed &amp; not delivering</p>}
      </Link>
      {user ? <CardFavourite restaurant={restaurant} /> : null}
    </li>
  );
}

/** Only mounted for a signed-in customer, so a visitor's listing never asks for favourites. */
function CardFavourite({ restaurant }: { restaurant: Restaurant }) {
  const favourite = useIsFavourite(restaurant.id);
  return <FavouriteButton restaurant={{ id: restaurant.id, name: restaurant.name, favourite }} className="disc-card__fav" />;
}

export function RestaurantCardSkeleton() {
  return (
    <li className="disc-card disc-card--skeleton" data-testid="restaurant-card-skeleton" aria-hidden="true">
      <Skeleton height={160} />
      <Skeleton height={18} width="70%" />
      <Skeleton height={14} width="50%" />
      <Skeleton height={14} width="60%" />
    </li>
  );
}
