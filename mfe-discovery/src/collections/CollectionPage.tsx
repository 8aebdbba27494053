/**
 * `/collections/:collectionId` (needs a location, the router sends visitors
 * without one home). A collection is the listing narrowed to it, headed by the collection's title
 * from the reply. Collection 83951 with `type=rcv2` is the visitor's favourites: the edge answers
 * it from the signed-in user's favourites that deliver to the stored location (docs/edge-api.md,
 * listing), with the listing's paging, sort and filters; a visitor is asked to log in first.
 */
import { emit, getCurrentUser, subscribeCurrentUser, type UserLocation } from '@tiffin/contract';
import { Button, ErrorState } from '@tiffin/design-system';
import { useSyncExternalStore } from 'react';
import { useDocumentTitle } from '../common/useDocumentTitle';
import { Listing } from '../listing/Listing';
import '../listing/listing.css';

const FAVOURITES_COLLECTION = '83951';

export function isFavouritesCollection(collectionId: string | undefined, type: string | null | undefined): boolean {
  return collectionId === FAVOURITES_COLLECTION && (type ?? '').toLowerCase() === 'rcv2';
}

function FavouritesCollection({ location }: { location: UserLocation }) {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
  useDocumentTitle('Your favourites');
  if (!user) {
    // The edge would answer 401 / 999: ask for the login here instead of calling.
    return (
      <section className="disc-listing" aria-label="Your favourites">
        <ErrorState role="region" title="Your favourites" message="Please login to continue.">
          <Button onClick={() => emit('auth:open', { mode: 'login' })}>Login</Button>
        </ErrorState>
      </section>
    );
  }
  // Keyed by user: signing in as someone else lists their favourites, not the last user's.
  return <Listing key={user.customer_id} location={location} title="Your favourites" collection={FAVOURITES_COLLECTION} showCarousels={false} />;
}

export function CollectionPage({ collectionId, type, location }: { collectionId: string | undefined; type: string | null | undefined; location: UserLocation }) {
  if (isFavouritesCollection(collectionId, type)) return <FavouritesCollection location={location} />;
  return <Listing location={location} title="Collection" collection={collectionId} showCarousels={false} />;
}
