/**
 * Waiting for the customer to approve a UPI collect in their UPI app: a countdown until the
 * request expires (at most 3 minutes), coloured as time runs out, while the payment's status is
 * polled every `poll_interval_ms`. Polling stops at the first error, at a final status, when time
 * is up, or when the page goes away.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import type { PaymentStatusV2 as PaymentStatus } from '@tiffin/contract';
import { formatPrice } from '@tiffin/design-system';
import { useEffect, useRef, useState } from 'react';
import { COUNTDOWN_COLOURS, countdownColour, countdownDeadline, formatRemaining } from './countdown';
import { methodAmount, outcomeOf } from './payment-status';

const DEFAULT_POLL_INTERVAL_MS = 1000;

export function UpiWaiting({
  payment,
  vpa,
  onSettled,
  onError,
  onExpired,
}: {
  payment: PaymentStatus;
  vpa: string;
  onSettled: (payment: PaymentStatus) => void;
  onError: (message: string) => void;
  onExpired: () => void;
}) {
  const [{ startedAt, deadline }] = useState(() => {
    const now = Date.now();
    return { startedAt: now, deadline: countdownDeadline(now, payment.expires_at) };
  });
  const [now, setNow] = useState(startedAt);
  // The callbacks change every render of the page; the timers must not restart because of it.
  const handlers = useRef({ onSettled, onError, onExpired });
  handlers.current = { onSettled, onError, onExpired };

  useEffect(() => {
    let stopped = false;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const interval = payment.poll_interval_ms > 0 ? payment.poll_interval_ms : DEFAULT_POLL_INTERVAL_MS;

    const stop = () => {
      stopped = true;
      clearTimeout(pollTimer);
      clearInterval(ticker);
      controller.abort();
    };
    const poll = async () => {
      try {
        const latest = await edge.paymentStatus(payment.payment_id, { signal: controller.signal });
        if (stopped) return;
        const outcome = outcomeOf(latest);
        if (outcome === 'charged' || outcome === 'failed') {
          stop();
          handlers.current.onSettled(latest);
          return;
        }
        pollTimer = setTimeout(poll, interval);
      } catch (failure) {
        if (stopped) return;
        stop();
        handlers.current.onError(customerMessage(failure));
      }
    };
    const ticker = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= deadline) {
        stop();
        handlers.current.onExpired();
      }
    }, 1000);
    pollTimer = setTimeout(poll, interval);
    return stop;
  }, [payment.payment_id, payment.poll_interval_ms, deadline]);

  const total = Math.max(1, deadline - startedAt);
  const remaining = Math.max(0, deadline - now);
  const colour = countdownColour((total - remaining) / total);
  return (
    <section className="chk-upi-wait" aria-label="Waiting for the payment">
      {vpa ? (
        <>
          <h3 className="chk-upi-wait__title">Approve {formatPrice(methodAmount(payment))} in your UPI app</h3>
          <p className="chk-upi-wait__hint">
            We sent a payment request to <strong>{vpa}</strong>. Open your UPI app and approve it before the time runs out.
          </p>
        </>
      ) : (
        <h3 className="chk-upi-wait__title">Waiting for your bank to confirm {formatPrice(methodAmount(payment))}</h3>
      )}
      <p className="chk-upi-wait__timer" role="timer" aria-live="off" data-colour={colour} style={{ color: COUNTDOWN_COLOURS[colour] }}>
        {formatRemaining(remaining)}
      </p>
    </section>
  );
}
