/**
 * The shell owns browser history. Remotes ask for navigation through @tiffin/contract `navigate`
 * (the `route:navigate` event), which the shell claims here; back/forward arrive as `popstate`.
 *
 * The listener is attached when the store is created — during the shell's first render — and not
 * in an effect: React runs children's effects first, so a page that navigates on mount (the
 * redirect route, a remote) would otherwise emit before anyone listens.
 */
import { on } from '@tiffin/contract';
import { useEffect, useState, useSyncExternalStore } from 'react';

interface BrowserLocation {
  pathname: string;
  search: string;
}

interface HistoryStore {
  subscribe(listener: () => void): () => void;
  getSnapshot(): BrowserLocation;
  dispose(): void;
}

function read(): BrowserLocation {
  return { pathname: window.location.pathname, search: window.location.search };
}

function createHistoryStore(): HistoryStore {
  let snapshot = read();
  const listeners = new Set<() => void>();
  const update = () => {
    const next = read();
    if (next.pathname === snapshot.pathname && next.search === snapshot.search) return;
    snapshot = next;
    listeners.forEach((listener) => listener());
  };
  window.addEventListener('popstate', update);
  const off = on('route:navigate', ({ to, replace }, event) => {
    const url = new URL(to, window.location.href);
    if (url.origin !== window.location.origin) return; // not ours: the emitter falls back to a page load
    event.preventDefault();
    const target = `${url.pathname}${url.search}${url.hash}`;
    if (replace) window.history.replaceState(null, '', target);
    else {
      window.history.pushState(null, '', target);
      document.documentElement.scrollTop = 0;
    }
    update();
  });
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    dispose() {
      window.removeEventListener('popstate', update);
      off();
    },
  };
}

export function useBrowserLocation(): BrowserLocation {
  const [store] = useState(createHistoryStore);
  useEffect(() => () => store.dispose(), [store]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
