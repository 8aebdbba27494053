/**
 * On a page whose first screen the edge drew into the HTML (the first paint), the HTML names no
 * script but the shell's own `main.js`, so the picture's bytes have the connection to themselves.
 * The shell asks for the rest here, all at once, as the first thing it does: its start-up chunks as
 * scripts, the route's microfrontend's entry and first scripts as `fetch` preloads into the HTTP
 * cache (the same links the edge writes into a page without a first paint; see
 * services/edge/src/routes/platform/preloads.rs for why `fetch`).
 */
import type { PreloadLater } from '../initial-state';

export function startPreloads(later: PreloadLater | undefined, doc: Document = document): void {
  if (!later) return;
  const add = (href: string, as: 'script' | 'fetch') => {
    const link = doc.createElement('link');
    link.rel = 'preload';
    link.setAttribute('as', as);
    link.href = href;
    if (as === 'fetch') link.crossOrigin = 'anonymous';
    doc.head.append(link);
  };
  later.scripts.forEach((href) => add(href, 'script'));
  later.fetches.forEach((href) => add(href, 'fetch'));
}

/** How long a hidden page (no frames drawn) waits before starting anyway. */
export const FIRST_FRAME_LIMIT_MS = 200;

/**
 * Runs `run` once the browser has painted the frame it is about to draw: an animation-frame
 * callback runs just before a paint, and a task queued from it runs after that paint. A page in a
 * background tab draws no frames, so it starts after FIRST_FRAME_LIMIT_MS instead.
 */
export function afterFirstPaint(run: () => void, win: Window = window): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    run();
  };
  win.requestAnimationFrame(() => win.setTimeout(once, 0));
  win.setTimeout(once, FIRST_FRAME_LIMIT_MS);
}
