/**
 * The first paint: a picture of the route's first screen that the edge wrote into the HTML (the
 * route's microfrontend publishes its template), shown over the page while the scripts load. It
 * goes as soon as the real page stands in its place: when the page's microfrontend says it has
 * drawn (`page:drawn`), when the page fails (its error box must be seen), when the visitor moves on
 * to another page, and at the latest after FIRST_PAINT_LIMIT_MS, so a microfrontend that never
 * says so leaves its real page covered only briefly.
 */
import { on } from '@tiffin/contract';

const ELEMENT_ID = 'tiffin-first-paint';
export const FIRST_PAINT_LIMIT_MS = 5000;

/** Removes the first paint, if it is still there. */
export function releaseFirstPaint(): void {
  document.getElementById(ELEMENT_ID)?.remove();
}

/** Starts watching for the moments the first paint must go; returns the stop function. */
export function watchFirstPaint(): () => void {
  if (!document.getElementById(ELEMENT_ID)) return () => {};
  const stops: Array<() => void> = [];
  const release = () => {
    releaseFirstPaint();
    stops.forEach((stop) => stop());
  };
  stops.push(on('page:drawn', release), on('route:navigate', release));
  window.addEventListener('popstate', release);
  stops.push(() => window.removeEventListener('popstate', release));
  const timer = window.setTimeout(release, FIRST_PAINT_LIMIT_MS);
  stops.push(() => window.clearTimeout(timer));
  return release;
}
