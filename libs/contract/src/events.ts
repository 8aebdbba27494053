/**
 * Namespaced window events: the only way microfrontends talk to each other and to the shell.
 *
 * Each event is `<domain>:<what happened>` and carries a typed `detail`. Teams never import each
 * other's code; they emit and listen here. Adding an event means adding it to `TiffinEventMap`,
 * so every producer and consumer agrees on the payload at compile time.
 */
import type { User } from './edge-types';

export type ToastStatus = 'info' | 'success' | 'error';

/** The payload of `toast:show` (without its id): see `showToast` in `toast.ts`. */
export interface ToastRequest {
  text: string;
  status?: ToastStatus;
  /** Milliseconds before the toast hides. Default 4000; a negative value never hides it. */
  duration?: number;
}

/**
 * The shared delivery location, the payload of `location:changed`; kept in the `userLocation`
 * cookie (`user-location.ts`).
 */
export interface UserLocation {
  lat: number;
  lng: number;
  address: string;
  area: string;
  mainText: string;
  city: string;
  /** The saved address this location came from, when it did. */
  id?: string;
  /** That address's annotation (HOME, WORK, OTHER). */
  annotation?: string;
  /**
   * The location is a saved address chosen for the customer on sign-in (the default
   * address, `default-address.ts`) and the address hint has not told them yet. Only ever `true`.
   */
  showUserDefaultAddressHint?: boolean;
}

export interface TiffinEventMap {
  /** The cart changed (fetched, updated, emptied). Owner: mfe-cart. The header badge listens. */
  'cart:updated': { count: number };
  /** The delivery location was set or cleared (null). Owner: whoever sets it (discovery, account). */
  'location:changed': UserLocation | null;
  /**
   * Someone asks for the location sidebar (header location bar, the location hints, any page).
   * Owner of the sidebar: mfe-discovery (`LocationSidebar`), mounted by the shell.
   */
  'location:open': Record<string, never>;
  /** Someone asks for the auth sidebar. Owner of the sidebar: mfe-account, mounted by the shell. */
  'auth:open': { mode: 'login' | 'signup' };
  /**
   * The signed-in user changed: the user after a sign-in or a profile change, null after sign-out.
   * Owner: whoever changes it (mfe-account, the shell's Logout) through `setCurrentUser`.
   */
  'auth:changed': User | null;
  /** Show a toast. The shell renders it; see `showToast`. */
  'toast:show': ToastRequest & { id: string };
  /**
   * In-app navigation request. The shell claims it with `preventDefault()`; see `navigate`.
   * Cancelable, so the emitter knows whether a shell is there to handle it.
   */
  'route:navigate': { to: string; replace: boolean };
  /**
   * The route's page has drawn its first real screen. Owner: the page's microfrontend. The shell
   * then removes the first paint, the picture of that screen the edge wrote into the HTML.
   */
  'page:drawn': Record<string, never>;
}

type TiffinEventName = keyof TiffinEventMap;

function target(): EventTarget | undefined {
  return typeof window === 'undefined' ? undefined : window;
}

/**
 * Dispatches a typed event on `window`. Returns false when a listener called `preventDefault()`
 * on a cancelable event (how the shell claims a navigation).
 */
export function emit<K extends TiffinEventName>(
  name: K,
  detail: TiffinEventMap[K],
  options: { cancelable?: boolean } = {},
): boolean {
  const t = target();
  if (!t) return true;
  return t.dispatchEvent(new CustomEvent(name, { detail, cancelable: options.cancelable ?? false }));
}

/** Subscribes to a typed event; returns the unsubscribe function (handy as a React effect cleanup). */
export function on<K extends TiffinEventName>(
  name: K,
  listener: (detail: TiffinEventMap[K], event: CustomEvent<TiffinEventMap[K]>) => void,
): () => void {
  const t = target();
  if (!t) return () => {};
  const handler = (event: Event) => {
    const custom = event as CustomEvent<TiffinEventMap[K]>;
    listener(custom.detail, custom);
  };
  t.addEventListener(name, handler);
  return () => t.removeEventListener(name, handler);
}
