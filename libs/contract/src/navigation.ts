/**
 * In-app navigation without sharing a router library between independently deployed apps.
 *
 * A remote calls `navigate('/cart')`. The shell, which owns history and routing, claims the
 * cancelable `route:navigate` event and pushes the URL. If no shell is listening (a remote mounted
 * on its own, or the shell failed), the browser does a full page load, which still works because
 * the edge serves the shell for every route.
 */
import { emit } from './events';

interface NavigateOptions {
  replace?: boolean;
}

/** True for paths on this origin that the app can handle without a page load. */
export function isInternalHref(href: string, origin = typeof window === 'undefined' ? '' : window.location.origin): boolean {
  if (href.startsWith('/') && !href.startsWith('//')) return true;
  try {
    return new URL(href).origin === origin;
  } catch {
    return false;
  }
}

export function navigate(to: string, options: NavigateOptions = {}): void {
  const replace = options.replace ?? false;
  const handled = !emit('route:navigate', { to, replace }, { cancelable: true });
  if (handled || typeof window === 'undefined') return;
  if (replace) window.location.replace(to);
  else window.location.assign(to);
}

/**
 * The menu route of a restaurant, `/restaurants/<slug>-<id>` (the `menu` route of
 * shell-app/src/routes.json): every app that links to a menu builds the link here.
 */
export function restaurantHref(restaurant: { id: string; slug?: string }): string {
  const slug = (restaurant.slug || 'restaurant').replace(/[^a-z0-9-]+/gi, '-').toLowerCase();
  return `/restaurants/${slug}-${encodeURIComponent(restaurant.id)}`;
}
