import type { Restaurant } from '@tiffin/contract';
import { formatPrice, formatRating, Image, imageUrl, Link } from '@tiffin/design-system';

export function restaurantHref(restaurant: Pick<Restaurant, 'id' | 'slug'>): string {
  return `/restaurants/${restaurant.slug}-${restaurant.id}`;
}

function RestaurantCard({ restaurant }: { restaurant: Restaurant }) {
  const offer = restaurant.aggregatedDiscountInfo?.shortDescriptionList?.[0]?.meta;
  const closed = !restaurant.availability.opened;
  return (
    <li className={closed ? 'disc-card disc-card--closed' : 'disc-card'}>
      <Link href={restaurantHref(restaurant)} className="disc-card__link">
        <div className="disc-card__media">
          <Image src={imageUrl(restaurant.cloudinaryImageId, { w: 254, h: 160 })} alt={restaurant.name} width={254} height={160} />
          {offer ? <span className="disc-card__offer">{offer}</span> : null}
        </div>
        <h3 className="disc-card__name">{restaurant.name}</h3>
        <p className="disc-card__cuisines">{restaurant.cuisines.join(', ')}</p>
        <p className="disc-card__meta">
          <span className="disc-card__rating" aria-label="Rating">
            ★ {formatRating(restaurant.avgRating)}
          </span>
          <span>{restaurant.sla.slaString}</span>
          <span>{formatPrice(restaurant.costForTwo)} FOR TWO</span>
        </p>
        <p className="disc-card__area">{restaurant.areaName}</p>
        {closed ? <p className="disc-card__status">Currently not delivering</p> : null}
      </Link>
    </li>
  );
}

export function RestaurantList({ restaurants, label }: { restaurants: Restaurant[]; label: string }) {
  return (
    <ul className="disc-list" aria-label={label}>
      {restaurants.map((restaurant) => (
        <RestaurantCard key={restaurant.id} restaurant={restaurant} />
      ))}
    </ul>
  );
}
