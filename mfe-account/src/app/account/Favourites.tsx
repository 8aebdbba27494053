/** Favourites (GET profile/favourites, with lat/lng when a location is set): cards to the menus. */
import { edge } from '@tiffin/api-client';
import { getUserLocation, restaurantHref } from '@tiffin/contract';
import { AsyncContent, ErrorState, Image, imageUrl, Link, useAsync } from '@tiffin/design-system';

export function Favourites() {
  const state = useAsync((signal) => {
    const location = getUserLocation();
    return edge.favourites(location ? { lat: location.lat, lng: location.lng } : {}, { signal });
  }, []);
  return (
    <AsyncContent state={state}>
      {({ restaurants }) =>
        restaurants.length === 0 ? (
          <ErrorState role="region" title="Where is the love?" message="Once you favourite a restaurant, it will appear here." />
        ) : (
          <ul className="acct-favourites">
            {restaurants.map((r) => (
              <li key={r.id} className="acct-favourite" data-testid="favourite">
                <Link href={restaurantHref(r)} className="acct-favourite__link">
                  <Image src={imageUrl(r.cloudinaryImageId, { w: 254, h: 160 })} alt="" width={254} height={160} />
                  <h3>{r.name}</h3>
                  <p className="acct-muted">{r.cuisines.join(', ')}</p>
                  <p className="acct-muted">
                    {r.areaName}
                    {r.sla?.slaString ? ` · ${r.sla.slaString}` : ''}
                  </p>
                </Link>
              </li>
            ))}
          </ul>
        )
      }
    </AsyncContent>
  );
}
