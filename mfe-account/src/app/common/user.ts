/** The signed-in user as React state, kept current by `auth:changed` (@tiffin/contract `user`). */
import { getCurrentUser, subscribeCurrentUser, type User } from '@tiffin/contract';
import { useSyncExternalStore } from 'react';

export function useCurrentUser(): User | null {
  return useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
}
