/**
 * The header's user: the signed-in customer as React state (@tiffin/contract `user`, kept current
 * by `auth:changed`), the user menu's entries and Logout.
 */
import { edge } from '@tiffin/api-client';
import { forgetUserLocalState, getCurrentUser, subscribeCurrentUser, type User } from '@tiffin/contract';
import { useSyncExternalStore } from 'react';

export function useCurrentUser(): User | null {
  return useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
}

interface UserMenuEntry {
  label: string;
  href: string;
  /** Marked as the customer's membership (a member's Tiffin One entry). */
  member?: boolean;
}

/**
 * Logged-in menu, in the spec's order; Offers only with a location (offers need lat and lng).
 * Tiffin One follows the customer record's membership (`optional_map`): a member's entry opens
 * their membership in the account, anyone else's the plans.
 */
export function userMenuEntries(hasLocation: boolean, member = false): UserMenuEntry[] {
  return [
    { label: 'Orders', href: '/my-account/orders' },
    { label: 'Favourites', href: '/my-account/favourites' },
    ...(hasLocation ? [{ label: 'Offers', href: '/offers' }] : []),
    { label: 'Profile', href: '/my-account/profile' },
    member ? { label: 'Tiffin One', href: '/my-account/super', member: true } : { label: 'Tiffin One', href: '/tiffin-one' },
  ];
}

/** The page load after logout; replaceable in tests (jsdom cannot reload). */
export const pageReload = { reload: () => window.location.reload() };

/**
 * Logout clears some local state (the delivery address id), ends the session on the
 * server (POST auth/logout) and reloads the page, ignoring errors. The reload, not local state,
 * decides what the page shows next: the edge's initial state says whether a session is signed in.
 */
export async function logout(): Promise<void> {
  forgetUserLocalState();
  try {
    await edge.logout();
  } catch {
    // Ignored (spec): the reload below shows whatever the edge now says.
  }
  pageReload.reload();
}
