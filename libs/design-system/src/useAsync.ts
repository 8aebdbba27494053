import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

export type AsyncState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'success'; data: T; error?: undefined }
  | { status: 'error'; data?: undefined; error: unknown };

/**
 * Runs an async load (usually an @tiffin/api-client call) for the current inputs, aborting the
 * previous one when inputs change or the component unmounts, so a late reply never overwrites a
 * newer one. `reload` runs it again (the Retry buttons of error states). `initial`, when given,
 * is the first inputs' result already in hand: it is shown at once and not loaded.
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: DependencyList,
  options: { initial?: T } = {},
): AsyncState<T> & { reload: () => void } {
  const [state, setState] = useState<AsyncState<T>>(() => (options.initial !== undefined ? { status: 'success', data: options.initial } : { status: 'loading' }));
  const [attempt, setAttempt] = useState(0);
  // A value already in hand for the first inputs stands in for their load.
  const hasInitial = useRef(options.initial !== undefined);

  useEffect(() => {
    if (hasInitial.current) {
      hasInitial.current = false;
      return;
    }
    const controller = new AbortController();
    setState({ status: 'loading' });
    load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'success', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
    // `load` is recreated every render on purpose: the caller's deps say when it really changed.
  }, [...deps, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
