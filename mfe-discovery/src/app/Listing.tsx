/**
 * Restaurants that deliver to the stored location (GET /api/restaurants/list/v5), open ones
 * first, then closed ones, with "Show more" paging on nextOffset.
 */
import { edge } from '@tiffin/api-client';
import type { ListingResponse, Restaurant, UserLocation } from '@tiffin/contract';
import { AsyncContent, Button, ErrorState, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { RestaurantList } from './RestaurantList';

export function Listing({
  location,
  title,
  collection,
  only,
}: {
  location: UserLocation;
  title: string;
  collection?: string;
  /** Narrows the open restaurants shown (e.g. offers page: only those with a discount). */
  only?: (restaurant: Restaurant) => boolean;
}) {
  const [more, setMore] = useState<{ open: Restaurant[]; closed: Restaurant[]; nextOffset: number | null } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const state = useAsync(
    (signal) => edge.restaurants({ lat: location.lat, lng: location.lng, collection, pageType: collection ? 'DESKTOP_COLLECTION_LISTING' : 'DESKTOP_WEB_LISTING' }, { signal }),
    [location.lat, location.lng, collection],
  );

  const loadMore = async (first: ListingResponse, offset: number) => {
    setLoadingMore(true);
    try {
      const page = await edge.restaurants({ lat: location.lat, lng: location.lng, collection, offset });
      setMore((previous) => ({
        open: [...(previous?.open ?? []), ...page.cards.map((c) => c.data)],
        closed: [...(previous?.closed ?? first.closedCards.map((c) => c.data)), ...page.closedCards.map((c) => c.data)],
        nextOffset: page.pageOffset.nextOffset,
      }));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section className="disc-listing" aria-label={title}>
      <AsyncContent state={state}>
        {(listing) => {
          if (listing.serviceability === 'NON_SERVICEABLE') {
            return <ErrorState role="region" title="No delivery here" message="We don't have any services here till now. Try changing the location." />;
          }
          const open = [...listing.cards.map((c) => c.data), ...(more?.open ?? [])].filter(only ?? (() => true));
          const closed = more?.closed ?? listing.closedCards.map((c) => c.data);
          const nextOffset = more ? more.nextOffset : listing.pageOffset.nextOffset;
          return (
            <>
              <h2 className="disc-listing__title">
                {title} <span className="disc-listing__count">({listing.totalRestaurants} restaurants)</span>
              </h2>
              <RestaurantList restaurants={open} label="Open restaurants" />
              {nextOffset !== null ? (
                <Button variant="secondary" disabled={loadingMore} onClick={() => loadMore(listing, nextOffset)}>
                  Show more
                </Button>
              ) : null}
              {closed.length > 0 && nextOffset === null ? (
                <>
                  <h3 className="disc-listing__subtitle">Currently not delivering</h3>
                  <RestaurantList restaurants={closed} label="Closed restaurants" />
                </>
              ) : null}
            </>
          );
        }}
      </AsyncContent>
    </section>
  );
}
