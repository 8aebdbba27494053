/**
 * Waiting for the customer to pay on their bank's page (netbanking). The page opened in a window of
 * its own (`bankWindow`, opened by the Pay press so no popup blocker stops it); when the browser
 * blocked it anyway, a link opens the bank's page instead. The payment's status is polled every
 * second until it is final. "Cancel payment" abandons it the way the 3-D Secure dialog does
 * (`payment/authenticate` with `abandon`), so it ends USER_ABORTED rather than waiting. Polling
 * stops at the first error, at a final status, on cancelling, or when the page goes away; the bank's
 * window is closed once the payment is settled.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import type { PaymentStatusV2 } from '@tiffin/contract';
import { Button, formatPrice } from '@tiffin/design-system';
import { useEffect, useRef, useState } from 'react';
import { isFinal, methodAmount, outcomeOf } from './payment-status';

export const BANK_POLL_INTERVAL_MS = 1000;
/** The name of the bank's window: the fallback link opens into the same one. */
export const BANK_WINDOW_NAME = 'tiffin-bank';

/** The part of a window the page uses; a blocked popup is null. */
export type BankWindow = Pick<Window, 'close' | 'closed'> & { location: { href: string } };

/** Opens an empty window for the bank's page while the Pay press still counts as the customer's. */
export function openBankWindow(): BankWindow | null {
  try {
    return window.open('about:blank', BANK_WINDOW_NAME, 'popup,width=520,height=720') as BankWindow | null;
  } catch {
    return null;
  }
}

export function closeBankWindow(bankWindow: BankWindow | null) {
  try {
    if (bankWindow && !bankWindow.closed) bankWindow.close();
  } catch {
    // Gone already.
  }
}

export function BankWaiting({
  payment,
  bankWindow,
  onSettled,
  onError,
}: {
  payment: PaymentStatusV2;
  /** The window opened for the bank's page, or null when the browser blocked it. */
  bankWindow: BankWindow | null;
  onSettled: (payment: PaymentStatusV2) => void;
  onError: (message: string) => void;
}) {
  const redirectUrl = payment.redirect_url ?? '';
  const [cancelling, setCancelling] = useState(false);
  const stopRef = useRef<() => void>(() => {});
  // The callbacks change every render of the page; the polling must not restart because of it.
  const handlers = useRef({ onSettled, onError });
  handlers.current = { onSettled, onError };

  useEffect(() => {
    if (bankWindow && redirectUrl) {
      try {
        bankWindow.location.href = redirectUrl;
      } catch {
        // The window went away; the link below still opens the page.
      }
    }
  }, [bankWindow, redirectUrl]);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
    };
    stopRef.current = stop;
    const poll = async () => {
      try {
        const latest = await edge.paymentStatus(payment.payment_id, { signal: controller.signal });
        if (stopped) return;
        if (isFinal(outcomeOf(latest))) {
          stop();
          closeBankWindow(bankWindow);
          handlers.current.onSettled(latest);
          return;
        }
        timer = setTimeout(poll, BANK_POLL_INTERVAL_MS);
      } catch (failure) {
        if (stopped) return;
        stop();
        handlers.current.onError(customerMessage(failure));
      }
    };
    timer = setTimeout(poll, BANK_POLL_INTERVAL_MS);
    return stop;
  }, [payment.payment_id, bankWindow]);

  const cancel = async () => {
    stopRef.current();
    setCancelling(true);
    closeBankWindow(bankWindow);
    try {
      handlers.current.onSettled(await edge.authenticatePayment({ payment_id: payment.payment_id, abandon: true }));
    } catch (failure) {
      handlers.current.onError(customerMessage(failure));
    }
  };

  return (
    <section className="chk-bank-wait" aria-label="Waiting for your bank">
      <h3 className="chk-bank-wait__title">Complete the payment on your bank&apos;s page</h3>
      {bankWindow ? (
        <p className="chk-bank-wait__hint">We opened your bank&apos;s page in a new window to pay {formatPrice(methodAmount(payment))}. This page moves on as soon as your bank tells us.</p>
      ) : (
        <p className="chk-bank-wait__hint">
          Your browser blocked the window for your bank&apos;s page.{' '}
          <a href={redirectUrl} target={BANK_WINDOW_NAME} rel="opener" className="chk-bank-wait__link">
            Open your bank&apos;s page
          </a>{' '}
          to pay {formatPrice(methodAmount(payment))}.
        </p>
      )}
      <p className="chk-progress" role="status">
        {cancelling ? 'Cancelling the payment…' : 'Waiting for your bank…'}
      </p>
      <Button variant="secondary" disabled={cancelling} onClick={() => void cancel()}>
        Cancel payment
      </Button>
    </section>
  );
}
