/** The restaurant header of the menu (spec 000 §2.6, §3): name, cuisines, area, rating, time, cost, offers. */
import type { Restaurant } from '@tiffin/contract';
import { areaText, costForTwoText, deliveryTimeText, isOpen, offerTexts, ratingText } from '../listing/restaurant-format';

export function MenuHeader({ restaurant }: { restaurant: Restaurant }) {
  const rating = ratingText(restaurant);
  const time = deliveryTimeText(restaurant);
  const cost = costForTwoText(restaurant.costForTwo);
  const offers = offerTexts(restaurant);
  const distance = restaurant.sla?.lastMileTravel;
  return (
    <header className="disc-menu-header">
      <div className="disc-menu-header__main">
        <div>
          <h1 className="disc-menu-header__name">{restaurant.name}</h1>
          <p className="disc-menu-header__cuisines">{(restaurant.cuisines ?? []).join(', ')}</p>
          <p className="disc-menu-header__area">
            {areaText(restaurant)}
            {typeof distance === 'number' && distance > 0 ? `, ${distance} km` : ''}
          </p>
        </div>
        <div className="disc-menu-header__rating" aria-label={`Rating ${rating}`}>
          <span className="disc-menu-header__stars">★ {rating}</span>
          {restaurant.totalRatingsString ? <span className="disc-menu-header__ratings">{restaurant.totalRatingsString}</span> : null}
        </div>
      </div>
      <p className="disc-menu-header__meta">
        {time ? <span className="disc-menu-header__time">{time}</span> : null}
        {cost ? <span className="disc-menu-header__cost">{cost}</span> : null}
      </p>
      {offers.length > 0 ? (
        <ul className="disc-menu-header__offers" aria-label="Offers">
          {offers.map((offer) => (
            <li key={offer} className="disc-menu-header__offer">
              {offer}
            </li>
          ))}
        </ul>
      ) : null}
      {isOpen(restaurant) ? null : (
        <p className="disc-menu-header__closed" role="status" data-testid="restaurant-closed">
          Currently not delivering
        </p>
      )}
    </header>
  );
}
