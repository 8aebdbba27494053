/**
 * `/collections/:collectionId` (spec 000 §2.1; needs a location, the router sends visitors
 * without one home). A discovery collection (a cuisine or a theme) is the listing narrowed to it,
 * headed by the collection's title. Collection 83951 with `type=rcv2` is the visitor's favourites:
 * their favourite restaurants with delivery times from the stored location (login needed).
 */
import { edge } from '@tiffin/api-client';
import { emit, type Restaurant, type UserLocation } from '@tiffin/contract';
import { Button, ErrorState } from '@tiffin/design-system';
import { useEffect, useState } from 'react';
import { listingErrorCopy } from '../common/errors';
import { useDocumentTitle } from '../common/useDocumentTitle';
import { Listing } from '../listing/Listing';
import { RestaurantCard, RestaurantCardSkeleton } from '../listing/RestaurantCard';
import '../listing/listing.css';

export const FAVOURITES_COLLECTION = '83951';

export function isFavouritesCollection(collectionId: string | undefined, type: string | null | undefined): boolean {
  return collectionId === FAVOURITES_COLLECTION && (type ?? '').toLowerCase() === 'rcv2';
}

type Favourites = { status: 'loading' } | { status: 'login' } | { status: 'error'; error: unknown } | { status: 'ready'; restaurants: Restaurant[] };

function isUnauthenticated(error: unknown): boolean {
  const e = (error ?? {}) as { httpStatus?: number; statusCode?: number };
  return e.httpStatus === 401 || e.statusCode === 999;
}

export function FavouritesCollection({ location }: { location: UserLocation }) {
  const [state, setState] = useState<Favourites>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useDocumentTitle('Your favourites');
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    edge.favourites({ lat: location.lat, lng: location.lng }, { signal: controller.signal }).then(
      (reply) => !controller.signal.aborted && setState({ status: 'ready', restaurants: reply.restaurants ?? [] }),
      (error: unknown) => !controller.signal.aborted && setState(isUnauthenticated(error) ? { status: 'login' } : { status: 'error', error }),
    );
    return () => controller.abort();
  }, [location.lat, location.lng, attempt]);

  return (
    <section className="disc-listing" aria-label="Your favourites">
      <header className="disc-collection-head">
        <h1>Your favourites</h1>
        <p>Restaurants you marked with a heart</p>
      </header>
      {state.status === 'loading' ? (
        <ul className="disc-list" aria-hidden="true">
          {Array.from({ length: 4 }, (_, i) => (
            <RestaurantCardSkeleton key={i} />
          ))}
        </ul>
      ) : null}
      {state.status === 'login' ? (
        <ErrorState role="region" title="Your favourites" message="Please login to continue.">
          <Button onClick={() => emit('auth:open', { mode: 'login' })}>Login</Button>
        </ErrorState>
      ) : null}
      {state.status === 'error' ? (
        (() => {
          const copy = listingErrorCopy(state.error);
          return <ErrorState title={copy.title} message={copy.message} actionLabel={copy.retry ? 'Retry' : undefined} onAction={copy.retry ? () => setAttempt((n) => n + 1) : undefined} />;
        })()
      ) : null}
      {state.status === 'ready' && state.restaurants.length === 0 ? (
        <ErrorState role="region" title="There's nothing here" message="Tap the heart on a restaurant's page to keep it here." />
      ) : null}
      {state.status === 'ready' && state.restaurants.length > 0 ? (
        <ul className="disc-list" aria-label="Favourite restaurants">
          {state.restaurants.map((r) => (
            <RestaurantCard key={r.id} restaurant={r} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function CollectionPage({ collectionId, type, location }: { collectionId: string | undefined; type: string | null | undefined; location: UserLocation }) {
  if (isFavouritesCollection(collectionId, type)) return <FavouritesCollection location={location} />;
  return <Listing location={location} title="Collection" collection={collectionId} showCarousels={false} />;
}
