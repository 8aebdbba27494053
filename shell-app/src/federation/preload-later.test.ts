import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialPreloadLater, resetInitialStateForTests } from '../initial-state';
import { startPreloads } from './preload-later';

function carry(state: unknown) {
  const script = document.createElement('script');
  script.id = 'tiffin-initial-state';
  script.type = 'application/json';
  script.textContent = JSON.stringify(state);
  document.body.append(script);
  resetInitialStateForTests();
}

const links = () =>
  [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => [l.getAttribute('href'), l.getAttribute('as'), l.getAttribute('crossorigin')]);

describe('the preloads a first-painted page leaves to the shell', () => {
  afterEach(() => {
    document.head.innerHTML = '';
    document.body.innerHTML = '';
    resetInitialStateForTests();
  });

  it('asks for the shell chunks as scripts and the remote files as fetches', () => {
    carry({ preloadLater: { scripts: ['/shell/470.abcd1234.js'], fetches: ['/mfe/mfe-discovery/1/remoteEntry.js', '/mfe/mfe-discovery/1/disc-listing.abcd1234.js'] } });
    startPreloads(initialPreloadLater());
    expect(links()).toEqual([
      ['/shell/470.abcd1234.js', 'script', null],
      ['/mfe/mfe-discovery/1/remoteEntry.js', 'fetch', 'anonymous'],
      ['/mfe/mfe-discovery/1/disc-listing.abcd1234.js', 'fetch', 'anonymous'],
    ]);
  });

  it('asks for nothing on a page without them, and never for another site', () => {
    carry({ route: { path: '/', id: 'home' } });
    startPreloads(initialPreloadLater());
    expect(links()).toEqual([]);
    document.body.innerHTML = '';
    carry({ preloadLater: { scripts: ['//evil.example/x.js', 'https://evil.example/y.js', 7], fetches: 'no' } });
    expect(initialPreloadLater()).toEqual({ scripts: [], fetches: [] });
  });
});

describe('starting after the first paint', () => {
  it('starts once, after the frame, or after the limit when no frame comes', async () => {
    const { afterFirstPaint, FIRST_FRAME_LIMIT_MS } = await import('./preload-later');
    vi.useFakeTimers();
    try {
      let frame: FrameRequestCallback | undefined;
      const win = { requestAnimationFrame: (cb: FrameRequestCallback) => ((frame = cb), 1), setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms) } as unknown as Window;
      let runs = 0;
      afterFirstPaint(() => (runs += 1), win);
      expect(runs).toBe(0);
      frame?.(0);
      expect(runs).toBe(0);
      vi.advanceTimersByTime(0);
      expect(runs).toBe(1);
      vi.advanceTimersByTime(FIRST_FRAME_LIMIT_MS);
      expect(runs).toBe(1);

      // No frame at all (a background tab): it starts at the limit.
      let hidden = 0;
      afterFirstPaint(() => (hidden += 1), { ...win, requestAnimationFrame: () => 1 } as unknown as Window);
      vi.advanceTimersByTime(FIRST_FRAME_LIMIT_MS - 1);
      expect(hidden).toBe(0);
      vi.advanceTimersByTime(1);
      expect(hidden).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
