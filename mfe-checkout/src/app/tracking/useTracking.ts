/**
 * One order's tracking, kept current two ways at once: polling order/trackV2 (first at once, then
 * every interval the latest snapshot names) and the order's event stream, whose every snapshot is
 * shown the moment it arrives. The stream makes updates immediate; polling is what keeps the page
 * right when the stream cannot be had or drops (it is never reopened). The edge refuses a stream
 * when it carries as many as it can, and ends each after its longest lifetime: when the stream
 * closes before the order has ended, the page asks at once rather than waiting out the interval.
 * Both stop for good once a snapshot is final, and when the page goes away.
 */
import { edge, isSignInRequired } from '@tiffin/api-client';
import { navigate, type Tracking } from '@tiffin/contract';
import { useCallback, useEffect, useState } from 'react';
import { pollIntervalMs } from './tracking-rules';

export type TrackingState =
  | { status: 'loading' }
  /** The first load failed and nothing has arrived since. */
  | { status: 'failed' }
  | { status: 'ready'; tracking: Tracking };

export function useTracking(orderId: string): TrackingState & { retry: () => void } {
  const [state, setState] = useState<TrackingState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setState({ status: 'loading' });
    const controller = new AbortController();
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closeStream = () => {};
    // Every update is numbered when it is asked for (a poll) or when it arrives (a stream event).
    // A poll answer numbered below what is shown was asked before that snapshot came, so it is
    // older and is dropped rather than undoing a newer state.
    let numbered = 0;
    let shownNumber = 0;
    let latest: Tracking | null = null;
    // A poll is on its way: asking again meanwhile would start a second chain of polls.
    let polling = false;

    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
      closeStream();
    };
    const show = (tracking: Tracking, number: number) => {
      if (stopped || number < shownNumber) return;
      shownNumber = number;
      latest = tracking;
      setState({ status: 'ready', tracking });
      if (tracking.terminal) stop();
    };
    const poll = async () => {
      const number = ++numbered;
      polling = true;
      try {
        show(await edge.trackOrder(orderId, { signal: controller.signal }), number);
      } catch (error) {
        if (stopped) return;
        if (isSignInRequired(error)) {
          // The session ended while the page was open: tracking is for signed-in customers only.
          stop();
          navigate('/', { replace: true });
          return;
        }
        if (!latest) setState({ status: 'failed' });
      } finally {
        polling = false;
      }
      if (!stopped) timer = setTimeout(() => void poll(), pollIntervalMs(latest));
    };

    const pollNow = () => {
      if (stopped || polling) return;
      clearTimeout(timer);
      void poll();
    };

    closeStream = edge.trackOrderStream(orderId, { onTracking: (tracking) => show(tracking, ++numbered), onClose: pollNow });
    void poll();
    return stop;
  }, [orderId, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
