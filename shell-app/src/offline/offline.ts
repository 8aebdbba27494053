/**
 * Offline notice: an offline event shows a permanent banner; an online
 * event shows a reconnect banner with a retry that reloads the page, which hides after 5 s.
 */
type OfflineState = 'hidden' | 'offline' | 'reconnected';
type OfflineEvent = 'offline' | 'online' | 'timeout';

export const RECONNECT_BANNER_MS = 5000;

export function offlineReducer(state: OfflineState, event: OfflineEvent): OfflineState {
  switch (event) {
    case 'offline':
      return 'offline';
    case 'online':
      return 'reconnected';
    case 'timeout':
      return state === 'reconnected' ? 'hidden' : state;
  }
}
