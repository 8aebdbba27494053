/**
 * Restaurants that deliver to the stored location: the first page from GET restaurants/list/v5,
 * refining (sort, filters) and every later page from POST restaurants/list/update (paging
 * appends, refining replaces). Around them: the sort and filter toolbar, the "What's on
 * your mind?" and offer carousels, filter collections and the nudge card. Infinite scroll on
 * `pageOffset.nextOffset` with skeleton cards while a page loads. The spec's screens for nothing
 * delivering or a location not found (both with "Change location", `LocationProblem`), rate
 * limiting (no retry) and outages (retry) replace the list when a first page cannot be shown.
 * When the page arrived with the plain listing's first page for this point (the edge's initial
 * state), the first render shows it and nothing is fetched until the visitor pages or refines.
 */
import { edge, markInitialReplyUsed, type ListingPageType } from '@tiffin/api-client';
import type { ListingFilters, ListingResponse, Restaurant, UserLocation } from '@tiffin/contract';
import { Button, ErrorState } from '@tiffin/design-system';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isNotFound, listingErrorCopy } from '../common/errors';
import { canObserveIntersections, useSentinel } from '../common/useSentinel';
import { appendPage, firstPage, type ListingPages } from './listing-state';
import { BannerCarousel, FilterCollections, NudgeCard, TopCarousel } from './Carousels';
import { ListingToolbar } from './ListingToolbar';
import { isLocationNotFound, LocationProblem } from './LocationProblem';
import { DEFAULT_REFINEMENT, isDefault, type Refinement } from './refine';
import { RestaurantCard, RestaurantCardSkeleton } from './RestaurantCard';
import './listing.css';

const SKELETON_CARDS = 8;
/** The cards whose pictures are on a phone's or a laptop's first screen: fetched before the rest. */
const PRIORITY_CARDS = 2;

type State =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; pages: ListingPages; response: ListingResponse; more: 'idle' | 'loading' | 'error' };

interface ListingProps {
  location: UserLocation;
  /** Accessible name of the section, e.g. 'Restaurants near you'. */
  title: string;
  collection?: string;
  /** Narrows what is shown (the offers page: only restaurants with an offer). */
  only?: (restaurant: Restaurant) => boolean;
  /** Filters always sent, under the visitor's own (the offers page: `{ offers: true }`). */
  baseFilters?: ListingFilters;
  /** The carousels, filter collections and nudge (the main listing; not on collection pages). */
  showCarousels?: boolean;
  /** The sort and filter toolbar (default on). */
  showToolbar?: boolean;
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

export function Listing({ location, title, collection, only, baseFilters, showCarousels = !collection, showToolbar = true }: ListingProps) {
  const { lat, lng } = location;
  const pageType: ListingPageType = collection ? 'DESKTOP_COLLECTION_LISTING' : 'DESKTOP_WEB_LISTING';
  const base = JSON.stringify(baseFilters ?? {});
  // The page may have come with this very listing's first page (the edge answers it with the HTML):
  // shown at once instead of asked for, on the first render only.
  const [carried] = useState(() => (base === '{}' ? edge.initialRestaurants({ lat, lng, collection, pageType, offset: 0 }) : undefined));
  const [state, setState] = useState<State>(() =>
    carried ? { status: 'ready', pages: firstPage(carried), response: carried, more: 'idle' } : { status: 'loading' },
  );
  const [attempt, setAttempt] = useState(0);
  const [refinement, setRefinement] = useState<Refinement>(DEFAULT_REFINEMENT);
  // The last reply, so the toolbar keeps its options while a refined page loads or fails.
  const [lastResponse, setLastResponse] = useState<ListingResponse | null>(carried ?? null);
  const refineKey = JSON.stringify(refinement);
  // Aborts the page in flight when the location changes or the listing unmounts.
  const moreController = useRef<AbortController | null>(null);
  // Whether the first page shown is the carried one, still to be taken instead of a first fetch.
  const showingCarried = useRef(carried !== undefined);

  const query = useCallback(
    (offset: number) => {
      const r = JSON.parse(refineKey) as Refinement;
      return { lat, lng, collection, pageType, offset, sortBy: r.sortBy, filters: { ...(JSON.parse(base) as ListingFilters), ...r.filters } };
    },
    [lat, lng, collection, pageType, refineKey, base],
  );

  useEffect(() => {
    if (showingCarried.current) {
      showingCarried.current = false;
      markInitialReplyUsed();
      return () => moreController.current?.abort();
    }
    const controller = new AbortController();
    setState({ status: 'loading' });
    const q = query(0);
    const plain = isDefault(refinement) && base === '{}';
    const call = plain ? edge.restaurants(q, { signal: controller.signal }) : edge.updateListing(q, { signal: controller.signal });
    call.then(
      (page) => {
        if (controller.signal.aborted) return;
        setLastResponse(page);
        setState({ status: 'ready', pages: firstPage(page), response: page, more: 'idle' });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => {
      controller.abort();
      moreController.current?.abort();
    };
    // `refinement` is read through `query` (keyed by its JSON).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query, attempt]);

  const nextOffset = state.status === 'ready' ? state.pages.nextOffset : null;
  const canLoadMore = state.status === 'ready' && state.more !== 'loading' && nextOffset !== null;

  const loadMore = useCallback(() => {
    if (!canLoadMore || nextOffset === null) return;
    const controller = new AbortController();
    moreController.current = controller;
    setState((s) => (s.status === 'ready' ? { ...s, more: 'loading' } : s));
    edge.updateListing(query(nextOffset), { signal: controller.signal }).then(
      (page) => {
        if (controller.signal.aborted) return;
        setState((s) => (s.status === 'ready' ? { ...s, pages: appendPage(s.pages, page), more: 'idle' } : s));
      },
      () => {
        if (controller.signal.aborted) return;
        setState((s) => (s.status === 'ready' ? { ...s, more: 'error' } : s));
      },
    );
  }, [canLoadMore, nextOffset, query]);

  const loaded = state.status === 'ready' ? state.pages.open.length + state.pages.closed.length : 0;
  // Only the automatic path: after a failed page the visitor retries by hand.
  const sentinel = useSentinel<HTMLDivElement>(loadMore, canLoadMore && state.status === 'ready' && state.more === 'idle', loaded);

  const toolbar = showToolbar ? <ListingToolbar refinement={refinement} response={lastResponse} onChange={setRefinement} /> : null;
  const heading = (state.status === 'ready' ? state.response : lastResponse)?.collection;
  const collectionHead = heading ? (
    <header className="disc-collection-head">
      <h1>{heading.title}</h1>
      <p>{heading.description}</p>
    </header>
  ) : null;

  if (state.status === 'loading') {
    return (
      <section className="disc-listing" aria-label={title} aria-busy="true">
        {lastResponse ? collectionHead : null}
        {lastResponse ? toolbar : null}
        <Skeletons count={SKELETON_CARDS} />
      </section>
    );
  }

  if (state.status === 'error' && isLocationNotFound(state.error)) {
    return (
      <section className="disc-listing" aria-label={title}>
        <LocationProblem kind="not-found" />
      </section>
    );
  }

  if (state.status === 'error') {
    // A collection that does not exist, or has nothing here (rejected): nothing to retry.
    const copy = isNotFound(state.error)
      ? { title: "There's nothing here", message: 'We cannot find what you are looking for. Please check your search query.', retry: false }
      : listingErrorCopy(state.error);
    return (
      <section className="disc-listing" aria-label={title}>
        {lastResponse ? toolbar : null}
        <ErrorState
          title={copy.title}
          message={copy.message}
          actionLabel={copy.retry ? 'Retry' : undefined}
          onAction={copy.retry ? () => setAttempt((n) => n + 1) : undefined}
        />
      </section>
    );
  }

  const { pages, more, response } = state;
  if (pages.serviceability === 'NON_SERVICEABLE') {
    return (
      <section className="disc-listing" aria-label={title}>
        <LocationProblem kind="no-delivery" />
      </section>
    );
  }

  const keep = only ?? (() => true);
  const open = pages.open.filter(keep);
  const closed = pages.closed.filter(keep);
  const hasMore = pages.nextOffset !== null;

  return (
    <section className="disc-listing" aria-label={title} aria-busy={more === 'loading'}>
      {collectionHead}
      {showCarousels ? <TopCarousel response={response} /> : null}
      {showCarousels ? <BannerCarousel response={response} /> : null}
      <h2 className="disc-listing__count" data-testid="restaurant-count">
        {pages.totalRestaurants} {pages.totalRestaurants === 1 ? 'restaurant' : 'restaurants'}
      </h2>
      {toolbar}
      {showCarousels ? <FilterCollections response={response} /> : null}
      {open.length > 0 ? (
        <ul className="disc-list" aria-label="Open restaurants">
          {open.map((restaurant, index) => (
            <RestaurantCard key={restaurant.id} restaurant={restaurant} priority={index < PRIORITY_CARDS} />
          ))}
        </ul>
      ) : null}
      {showCarousels && open.length > 0 ? <NudgeCard response={response} /> : null}
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
