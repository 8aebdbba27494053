/**
 * The favourite heart, one component for the menu header and the listing cards.
 * Signed-in customers toggle it (POST misc/favorite, shown at once and undone if the call
 * fails, with a message saying so); a visitor, or a session the edge no longer knows (401 / 999),
 * gets the auth sidebar instead. Every toggle is shared with the page's other hearts
 * (./favourites), so a restaurant shown twice never disagrees with itself.
 */
import { edge, isApiError } from '@tiffin/api-client';
import { emit, getCurrentUser, showToast, subscribeCurrentUser } from '@tiffin/contract';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { rememberFavourite } from './favourites';

/** When a favourite could not be saved: 'Unable to add/remove {0} to/from your favourites'. */
function favouriteFailureMessage(name: string, adding: boolean): string {
  return adding ? `Unable to add ${name} to your favourites` : `Unable to remove ${name} from your favourites`;
}

/** The edge said the visitor must sign in first (HTTP 401 / statusCode 999). */
function needsLogin(error: unknown): boolean {
  return isApiError(error) && (error.httpStatus === 401 || error.statusCode === 999);
}

export function FavouriteButton({ restaurant, className }: { restaurant: { id: string; name: string; favourite?: boolean }; className?: string }) {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
  const known = restaurant.favourite === true;
  const [favourite, setFavouriteState] = useState(known);
  const [busy, setBusy] = useState(false);
  // The listing learns favourites after the cards are drawn: follow what the page knows.
  useEffect(() => setFavouriteState(known), [known]);

  const show = (value: boolean) => {
    setFavouriteState(value);
    rememberFavourite(restaurant.id, value);
  };

  const toggle = async () => {
    if (!user) {
      emit('auth:open', { mode: 'login' });
      return;
    }
    const next = !favourite;
    show(next);
    setBusy(true);
    try {
      const reply = await edge.setFavourite(restaurant.id, next);
      show(reply?.favourite ?? next);
    } catch (error) {
      show(!next);
      if (needsLogin(error)) emit('auth:open', { mode: 'login' });
      else showToast({ text: favouriteFailureMessage(restaurant.name, next), status: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const shown = user ? favourite : false;
  return (
    <button
      type="button"
      className={[shown ? 'disc-fav disc-fav--on' : 'disc-fav', className].filter(Boolean).join(' ')}
      aria-pressed={shown}
      aria-label={shown ? `Remove ${restaurant.name} from favourites` : `Add ${restaurant.name} to favourites`}
      data-testid="favourite-toggle"
      disabled={busy}
      onClick={() => void toggle()}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path
          d="M12 21s-7.5-4.6-9.6-9.2C.9 8.4 3 4.5 6.7 4.5c2.1 0 3.6 1.2 4.3 2.4.7-1.2 2.2-2.4 4.3-2.4 3.7 0 5.8 3.9 4.3 7.3C19.5 16.4 12 21 12 21z"
          fill={shown ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.8"
        />
      </svg>
    </button>
  );
}
