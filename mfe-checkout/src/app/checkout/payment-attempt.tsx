/**
 * One payment attempt at a time until the order is confirmed: place-v2, then whatever the payment
 * asks for (the bank's 3-D Secure page, a UPI approval, the bank's own page in a window), then
 * confirm-v2. Both checkouts (/checkout for food, /checkout/super for a Tiffin One plan) pay this
 * way; each says what it orders and where the customer goes once it is confirmed.
 *
 * An attempt is one place-v2 with its own idempotency key: a press after an answer (declined, bill
 * changed, expired) is a new attempt with a new key, while a press after no answer at all (the
 * network failed) resends the same key, so the edge can tell a retry from a second payment.
 * Everything lives in the component that uses it, so leaving the page forgets it.
 */
import { customerMessage, edge, isApiError } from '@tiffin/api-client';
import { fetchCart } from '@tiffin/cart-store';
import type { PaymentStatusV2 as PaymentStatus, PlaceOrderPayment, PlaceOrderRequest } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { BankWaiting, closeBankWindow, openBankWindow, type BankWindow } from './BankWaiting';
import { failureMessage, outcomeOf } from './payment-status';
import { ThreeDSecure } from './ThreeDSecure';
import { UpiWaiting } from './UpiWaiting';

/** The order was priced again and differs from what the customer was shown. */
export const BILL_CHANGED = 22;
const UPI_EXPIRED_MESSAGE = 'The UPI request expired before it was approved. No money was taken. Please try again.';

export type Phase =
  | { kind: 'ready' }
  | { kind: 'placing' }
  | { kind: 'otp'; orderId: string; payment: PaymentStatus }
  | { kind: 'upi'; orderId: string; payment: PaymentStatus; vpa: string }
  | { kind: 'bank'; orderId: string; payment: PaymentStatus; bankWindow: BankWindow | null }
  | { kind: 'confirming'; orderId: string }
  | { kind: 'confirm-failed'; orderId: string; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'bill-changed'; message: string };

function newAttemptKey(): string {
  return globalThis.crypto.randomUUID();
}

export interface PaymentAttempt {
  phase: Phase;
  /** An attempt is under way: the Pay button waits. */
  inProgress: boolean;
  /** Places `order` paid by `payment` (a new attempt, or the unanswered one again). */
  pay: (order: PlaceOrderRequest['order'], payment: PlaceOrderPayment) => void;
  /** What the customer is told, and the UPI and bank waits: goes under the payment step. */
  progress: ReactNode;
  /** The bank's 3-D Secure page over the checkout, while it is open. */
  dialog: ReactNode;
}

/** `onConfirmed`: the order is paid and confirmed (the cart is empty again); go on from here. */
export function usePaymentAttempt({ onConfirmed }: { onConfirmed: (orderId: string) => void }): PaymentAttempt {
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });
  /** The key of the attempt that has not been answered yet; null when the next press is a new attempt. */
  const pendingKey = useRef<string | null>(null);
  const mounted = useRef(true);
  const confirmed = useRef(onConfirmed);
  confirmed.current = onConfirmed;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const safeSet = (next: Phase) => {
    if (mounted.current) setPhase(next);
  };

  const confirm = async (orderId: string) => {
    safeSet({ kind: 'confirming', orderId });
    try {
      await edge.confirmOrder(orderId);
      // The edge cleared the cart on confirming: the header's badge must learn it too.
      fetchCart({ force: true }).catch(() => {});
      if (mounted.current) confirmed.current(orderId);
    } catch (failure) {
      safeSet({ kind: 'confirm-failed', orderId, message: customerMessage(failure) });
    }
  };

  /** `bankWindow`: the window opened for a netbanking payment's bank page, if one was. */
  const settle = (orderId: string, payment: PaymentStatus, vpa = '', bankWindow: BankWindow | null = null) => {
    const outcome = outcomeOf(payment);
    // Only a payment waiting on the bank's page keeps the window opened for it.
    if (outcome !== 'redirect-to-bank') closeBankWindow(bankWindow);
    switch (outcome) {
      case 'charged':
        return void confirm(orderId);
      case 'enter-otp':
        return safeSet({ kind: 'otp', orderId, payment });
      case 'redirect-to-bank':
        return safeSet({ kind: 'bank', orderId, payment, bankWindow });
      case 'approve-in-upi-app':
      case 'pending':
        return safeSet({ kind: 'upi', orderId, payment, vpa });
      case 'failed':
        return safeSet({ kind: 'failed', message: failureMessage(payment) });
    }
  };

  const pay = async (order: PlaceOrderRequest['order'], payment: PlaceOrderPayment) => {
    const key = pendingKey.current ?? newAttemptKey();
    pendingKey.current = key;
    // The bank's window opens now, while the press still counts as the customer's: opened after
    // place-v2 answers, a popup blocker would stop it. It is closed again unless the bank is next.
    const bankWindow = payment.method === 'netbanking' ? openBankWindow() : null;
    setPhase({ kind: 'placing' });
    try {
      const placed = await edge.placeOrder({ idempotency_key: key, order, payment });
      pendingKey.current = null;
      settle(placed.order_id, placed.payment, payment.vpa ?? undefined, bankWindow);
    } catch (failure) {
      closeBankWindow(bankWindow);
      if (isApiError(failure) && failure.kind === 'network') {
        // No answer: the order may or may not exist, so the next press resends this key.
        return safeSet({ kind: 'failed', message: customerMessage(failure) });
      }
      pendingKey.current = null;
      if (isApiError(failure) && failure.statusCode === BILL_CHANGED) {
        // The message names the new total; the re-fetched cart shows it on the Pay button.
        safeSet({ kind: 'bill-changed', message: customerMessage(failure) });
        fetchCart({ force: true }).catch(() => {});
        return;
      }
      safeSet({ kind: 'failed', message: customerMessage(failure) });
    }
  };

  const inProgress = phase.kind === 'placing' || phase.kind === 'confirming' || phase.kind === 'otp' || phase.kind === 'upi' || phase.kind === 'bank';

  const progress = (
    <>
      <PaymentProgress phase={phase} onRetryConfirm={(orderId) => void confirm(orderId)} />
      {phase.kind === 'upi' ? (
        <UpiWaiting
          payment={phase.payment}
          vpa={phase.vpa}
          onSettled={(payment) => settle(phase.orderId, payment)}
          onError={(message) => safeSet({ kind: 'failed', message })}
          onExpired={() => safeSet({ kind: 'failed', message: UPI_EXPIRED_MESSAGE })}
        />
      ) : null}
      {phase.kind === 'bank' ? (
        <BankWaiting
          payment={phase.payment}
          bankWindow={phase.bankWindow}
          onSettled={(payment) => settle(phase.orderId, payment)}
          onError={(message) => safeSet({ kind: 'failed', message })}
        />
      ) : null}
    </>
  );

  const dialog =
    phase.kind === 'otp' ? (
      <ThreeDSecure payment={phase.payment} onSettled={(payment) => settle(phase.orderId, payment)} onError={(message) => safeSet({ kind: 'failed', message })} />
    ) : null;

  return { phase, inProgress, pay: (order, payment) => void pay(order, payment), progress, dialog };
}

/** What the customer is told about the attempt in progress or just ended. */
function PaymentProgress({ phase, onRetryConfirm }: { phase: Phase; onRetryConfirm: (orderId: string) => void }) {
  switch (phase.kind) {
    case 'placing':
      return (
        <p className="chk-progress" role="status">
          Placing your order…
        </p>
      );
    case 'confirming':
      return (
        <p className="chk-progress" role="status">
          Payment received. Confirming your order…
        </p>
      );
    case 'confirm-failed':
      return (
        <div className="chk-progress chk-progress--error" role="alert">
          <p>Your payment went through, but we could not confirm the order yet. {phase.message}</p>
          <Button onClick={() => onRetryConfirm(phase.orderId)}>Try again</Button>
        </div>
      );
    case 'failed':
      return (
        <div className="chk-progress chk-progress--error" role="alert">
          <p className="chk-progress__title">Payment failed</p>
          <p>{phase.message}</p>
        </div>
      );
    case 'bill-changed':
      return (
        <div className="chk-progress chk-progress--warning" role="alert">
          <p className="chk-progress__title">Your bill has changed</p>
          <p>{phase.message}</p>
        </div>
      );
    default:
      return null;
  }
}
