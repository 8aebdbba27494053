import { useEffect, useRef } from 'react';

export function canObserveIntersections(): boolean {
  return typeof IntersectionObserver !== 'undefined';
}

/**
 * Calls `onVisible` when the returned element's ref comes near the viewport (infinite scroll).
 * `token` recreates the observer: a new observer reports the current state at once, so after a
 * page loads and the sentinel is still on screen, the next page is asked for too.
 */
export function useSentinel<E extends Element>(onVisible: () => void, enabled: boolean, token: unknown) {
  const ref = useRef<E>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;

  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element || !canObserveIntersections()) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled, token]);

  return ref;
}
