/** A restaurant's menu (GET /api/menu/pl): header, then categories with their items. */
import { edge } from '@tiffin/api-client';
import type { MenuItem, MenuWidget, UserLocation } from '@tiffin/contract';
import { AsyncContent, ErrorState, formatPrice, formatRating, Image, imageUrl, VegMark, useAsync } from '@tiffin/design-system';

function ItemRow({ item }: { item: MenuItem }) {
  const struck = item.defaultPrice > 0 && item.defaultPrice !== item.finalPrice;
  return (
    <li className="disc-item">
      <div className="disc-item__info">
        <VegMark vegType={item.vegType} />
        {item.ribbon ? <span className="disc-item__ribbon">{item.ribbon.text}</span> : null}
        <h4 className="disc-item__name">{item.name}</h4>
        <p className="disc-item__price">
          {struck ? <s>{formatPrice(item.defaultPrice)}</s> : null} {formatPrice(item.finalPrice)}
        </p>
        {item.description ? <p className="disc-item__description">{item.description}</p> : null}
        {item.inStock !== 1 ? <p className="disc-item__unavailable">Unavailable</p> : null}
      </div>
      <Image src={imageUrl(item.cloudinaryImageId, { w: 118, h: 96 })} alt={item.name} width={118} height={96} className="disc-item__image" />
    </li>
  );
}

function Category({ widget, items, depth }: { widget: MenuWidget; items: Record<string, MenuItem>; depth: number }) {
  const own = widget.entities.map((e) => items[e.id]).filter((item): item is MenuItem => item !== undefined);
  const count = own.length + widget.widgets.reduce((n, w) => n + w.entities.length, 0);
  const Heading = depth === 0 ? 'h3' : 'h4';
  return (
    <section className="disc-category" aria-label={widget.name}>
      <Heading className="disc-category__title">
        {widget.name} ({count})
      </Heading>
      <ul className="disc-category__items">
        {own.map((item) => (
          <ItemRow key={item.id} item={item} />
        ))}
      </ul>
      {widget.widgets.map((child) => (
        <Category key={child.id} widget={child} items={items} depth={depth + 1} />
      ))}
    </section>
  );
}

export function MenuPage({ restaurantId, location }: { restaurantId: string | undefined; location: UserLocation | null }) {
  const state = useAsync(
    (signal) =>
      restaurantId
        ? edge.menu({ restaurantId, lat: location?.lat, lng: location?.lng }, { signal })
        : Promise.reject(Object.assign(new Error('Restaurant not found'), { statusCode: 404 })),
    [restaurantId, location?.lat, location?.lng],
  );
  if (!restaurantId) {
    return <ErrorState role="region" title="There's nothing here" message="We cannot find what you are looking for. Please check your search query." />;
  }
  return (
    <AsyncContent state={state}>
      {({ restaurant, menu }) => (
        <article className="disc-menu">
          <header className="disc-menu__header">
            <h1 className="disc-menu__name">{restaurant.name}</h1>
            <p className="disc-menu__cuisines">{restaurant.cuisines.join(', ')}</p>
            <p className="disc-menu__area">
              {restaurant.areaName}, {restaurant.sla.lastMileTravel} km
            </p>
            <p className="disc-menu__meta">
              <span>★ {formatRating(restaurant.avgRating)}</span> <span>{restaurant.totalRatingsString}</span>{' '}
              <span>{restaurant.sla.slaString}</span> <span>{formatPrice(restaurant.costForTwo)} for two</span>
            </p>
            {!restaurant.availability.opened ? <p className="disc-menu__closed">Closed &amp; not delivering</p> : null}
          </header>
          {menu.widgets.map((widget) => (
            <Category key={widget.id} widget={widget} items={menu.items} depth={0} />
          ))}
        </article>
      )}
    </AsyncContent>
  );
}
