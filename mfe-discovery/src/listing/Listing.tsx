/**
 * Restaurants that deliver to the stored location (GET restaurants/list/v5): the count, open
 * restaurants then closed ones, and infinite scroll on `pageOffset.nextOffset` with skeleton
 * cards while a page loads. The spec's screens for nothing delivering, rate limiting (no retry)
 * and outages (retry) replace the list when the first page cannot be shown.
 */
import { edge, type ListingPageType } from '@tiffin/api-client';
import { navigate, setUserLocation, type Restaurant, type UserLocation } from '@tiffin/contract';
import { Button, ErrorState } from '@tiffin/design-system';
import { useCallback, useEffect, useRef, useState } from 'react';
import { listingErrorCopy, NO_DELIVERY } from '../common/errors';
import { canObserveIntersections, useSentinel } from '../common/useSentinel';
import { appendPage, firstPage, type ListingPages } from './listing-state';
import { RestaurantCard, RestaurantCardSkeleton } from './RestaurantCard';
import './listing.css';

const SKELETON_CARDS = 8;

type State =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; pages: ListingPages; more: 'idle' | 'loading' | 'error' };

export interface ListingProps {
  location: UserLocation;
  /** Accessible name of the section, e.g. 'Restaurants near you'. */
  title: string;
  collection?: string;
  /** Narrows what is shown (the offers page: only restaurants with an offer). */
  only?: (restaurant: Restaurant) => boolean;
}

function Skeletons({ count }: { count: number }) {
  return (
    <ul className="disc-list" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        <RestaurantCardSkeleton key={i} />
      ))}
    </ul>
  );
}

export function Listing({ location, title, collection, only }: ListingProps) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const { lat, lng } = location;
  const pageType: ListingPageType = collection ? 'DESKTOP_COLLECTION_LISTING' : 'DESKTOP_WEB_LISTING';
  // Aborts the page in flight when the location changes or the listing unmounts.
  const moreController = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    edge.restaurants({ lat, lng, collection, pageType, offset: 0 }, { signal: controller.signal }).then(
      (page) => {
        if (!controller.signal.aborted) setState({ status: 'ready', pages: firstPage(page), more: 'idle' });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => {
      controller.abort();
      moreController.current?.abort();
    };
  }, [lat, lng, collection, pageType, attempt]);

  const nextOffset = state.status === 'ready' ? state.pages.nextOffset : null;
  const canLoadMore = state.status === 'ready' && state.more !== 'loading' && nextOffset !== null;

  const loadMore = useCallback(() => {
    if (!canLoadMore || nextOffset === null) return;
    const controller = new AbortController();
    moreController.current = controller;
    setState((s) => (s.status === 'ready' ? { ...s, more: 'loading' } : s));
    edge.restaurants({ lat, lng, collection, pageType, offset: nextOffset }, { signal: controller.signal }).then(
      (page) => {
        if (controller.signal.aborted) return;
        setState((s) => (s.status === 'ready' ? { status: 'ready', pages: appendPage(s.pages, page), more: 'idle' } : s));
      },
      () => {
        if (controller.signal.aborted) return;
        setState((s) => (s.status === 'ready' ? { ...s, more: 'error' } : s));
      },
    );
  }, [canLoadMore, nextOffset, lat, lng, collection, pageType]);

  const loaded = state.status === 'ready' ? state.pages.open.length + state.pages.closed.length : 0;
  // Only the automatic path: after a failed page the visitor retries by hand.
  const sentinel = useSentinel<HTMLDivElement>(loadMore, canLoadMore && state.status === 'ready' && state.more === 'idle', loaded);

  if (state.status === 'loading') {
    return (
      <section className="disc-listing" aria-label={title} aria-busy="true">
        <Skeletons count={SKELETON_CARDS} />
      </section>
    );
  }

  if (state.status === 'error') {
    const copy = listingErrorCopy(state.error);
    return (
      <section className="disc-listing" aria-label={title}>
        <ErrorState
          title={copy.title}
          message={copy.message}
          actionLabel={copy.retry ? 'Retry' : undefined}
          onAction={copy.retry ? () => setAttempt((n) => n + 1) : undefined}
        />
      </section>
    );
  }

  const { pages, more } = state;
  if (pages.serviceability === 'NON_SERVICEABLE') {
    return (
      <section className="disc-listing" aria-label={title}>
        <ErrorState role="region" title={NO_DELIVERY.title} message={NO_DELIVERY.message}>
          <Button
            variant="secondary"
            onClick={() => {
              setUserLocation(null);
              navigate('/');
            }}
          >
            Change location
          </Button>
        </ErrorState>
      </section>
    );
  }

  const keep = only ?? (() => true);
  const open = pages.open.filter(keep);
  const closed = pages.closed.filter(keep);
  const hasMore = pages.nextOffset !== null;

  return (
    <section className="disc-listing" aria-label={title} aria-busy={more === 'loading'}>
      <h2 className="disc-listing__count" data-testid="restaurant-count">
        {pages.totalRestaurants} {pages.totalRestaurants === 1 ? 'restaurant' : 'restaurants'}
      </h2>
      {open.length > 0 ? (
        <ul className="disc-list" aria-label="Open restaurants">
          {open.map((restaurant) => (
            <RestaurantCard key={restaurant.id} restaurant={restaurant} />
          ))}
        </ul>
      ) : null}
      {closed.length > 0 ? (
        <ul className="disc-list disc-list--closed" aria-label="Closed restaurants">
          {closed.map((restaurant) => (
            <RestaurantCard key={restaurant.id} restaurant={restaurant} />
          ))}
        </ul>
      ) : null}
      {open.length + closed.length === 0 && !hasMore ? (
        <ErrorState role="region" title="There's nothing here" message="We cannot find what you are looking for. Please check your search query." />
      ) : null}
      {more === 'loading' ? <Skeletons count={4} /> : null}
      {more === 'error' ? (
        <div className="disc-listing__more" role="alert">
          <p>Oops!! Something went wrong</p>
          <Button variant="secondary" onClick={loadMore}>
            Retry
          </Button>
        </div>
      ) : null}
      {hasMore && more === 'idle' && !canObserveIntersections() ? (
        <div className="disc-listing__more">
          <Button variant="secondary" onClick={loadMore}>
            Show more
          </Button>
        </div>
      ) : null}
      {hasMore ? <div ref={sentinel} className="disc-listing__sentinel" data-testid="listing-sentinel" aria-hidden="true" /> : null}
    </section>
  );
}
