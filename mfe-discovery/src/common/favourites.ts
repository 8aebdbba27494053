/**
 * Which restaurants the signed-in customer has favourited, for the hearts on listing cards
 * (docs/edge-api.md "Favourites"). The listing reply carries no favourite flag, so the set
 * is read once per page (`GET /api/profile/favourites`, keyed by user and path) and shared by every
 * card; a toggle anywhere updates it at once. It never reads anything for a visitor.
 */
import { edge } from '@tiffin/api-client';
import { getCurrentUser, subscribeCurrentUser } from '@tiffin/contract';
import { useEffect, useSyncExternalStore } from 'react';

interface FavouritesState {
  /** `<customer_id> <path>` the set was read for; a new page or another user reads it again. */
  key: string | null;
  /** Favourited restaurant ids; null until read (or when reading failed: hearts show as off). */
  ids: ReadonlySet<string> | null;
}

let state: FavouritesState = { key: null, ids: null };
const listeners = new Set<() => void>();

function setState(next: FavouritesState) {
  state = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => state;

function pageKey(customerId: string): string {
  const path = typeof window === 'undefined' ? '' : `${window.location.pathname}${window.location.search}`;
  return `${customerId} ${path}`;
}

/** Reads the set for this user and page unless it is read (or being read) already. */
function loadFavourites(): void {
  const user = getCurrentUser();
  if (!user) return;
  const key = pageKey(user.customer_id);
  if (state.key === key) return;
  setState({ key, ids: null });
  edge.favourites().then(
    (reply) => {
      if (state.key === key) setState({ key, ids: new Set(reply.restaurants.map((r) => r.id)) });
    },
    () => {
      // Not knowing favourites must not break the listing: hearts show as off and still toggle.
    },
  );
}

/** Records a toggle (or its undo) so every card of that restaurant on the page shows it. */
export function rememberFavourite(restaurantId: string, favourite: boolean): void {
  const ids = new Set(state.ids ?? []);
  if (favourite) ids.add(restaurantId);
  else ids.delete(restaurantId);
  setState({ ...state, ids });
}

/** Whether a listed restaurant is a favourite of the signed-in customer (false for a visitor). */
export function useIsFavourite(restaurantId: string): boolean {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    if (user) loadFavourites();
  }, [user]);
  return !!user && (current.ids?.has(restaurantId) ?? false);
}

/** Tests only: forget the page's set. */
export function resetFavouritesForTests(): void {
  state = { key: null, ids: null };
}
