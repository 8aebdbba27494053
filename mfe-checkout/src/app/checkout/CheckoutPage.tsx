/**
 * The checkout page (/checkout): account, delivery address and payment beside the cart and its
 * bill, then one payment attempt at a time until the order is confirmed.
 *
 * Every bit of checkout state lives in this component, so leaving the page forgets it. An attempt
 * is one place-v2 with its own idempotency key: a press after an answer (declined, bill changed,
 * expired) is a new attempt with a new key, while a press after no answer at all (the network
 * failed) resends the same key, so the edge can tell a retry from a second payment.
 */
import { customerMessage, edge, isApiError } from '@tiffin/api-client';
import { fetchCart, setDeliveryAddress, useCart } from '@tiffin/cart-store';
import { Bill, CancellationMessage, CartLines, CartRestaurant } from '@tiffin/cart-store/ui';
import {
  chooseDefaultAddress,
  type Address,
  getCurrentUser,
  navigate,
  subscribeCurrentUser,
  type PaymentStatusV2 as PaymentStatus,
  type PlaceOrderPayment,
} from '@tiffin/contract';
import { Button, ErrorState, formatPrice, Link, Skeleton } from '@tiffin/design-system';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { AccountStep } from './AccountStep';
import { AddressStep } from './AddressStep';
import { BankWaiting, closeBankWindow, openBankWindow, type BankWindow } from './BankWaiting';
import { checkoutMetaError } from './meta';
import { failureMessage, outcomeOf } from './payment-status';
import { PaymentStep } from './PaymentStep';
import { ThreeDSecure } from './ThreeDSecure';
import { UpiWaiting } from './UpiWaiting';

/** The order was priced again and differs from what the customer was shown. */
const BILL_CHANGED = 21;
const NEW_ADDRESS_UNDELIVERABLE = 'Your new address is saved, but the restaurant does not deliver there. Choose another address.';
const UPI_EXPIRED_MESSAGE = 'The UPI request expired before it was approved. No money was taken. Please try again.';

type Phase =
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

export function orderConfirmationHref(orderId: string): string {
  return `/order-confirmation/${encodeURIComponent(orderId)}`;
}

export function CheckoutPage() {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, () => null);
  const { cart, error, updating } = useCart();
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });
  const [addressBusy, setAddressBusy] = useState(false);
  const [addressNotice, setAddressNotice] = useState<string | null>(null);
  /** The key of the attempt that has not been answered yet; null when the next press is a new attempt. */
  const pendingKey = useRef<string | null>(null);
  const defaulted = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    fetchCart({ force: true }).catch(() => {
      // Kept in the store; the page shows its own state for a cart it cannot read.
    });
    return () => {
      mounted.current = false;
    };
  }, []);

  const chooseAddress = (id: string) => {
    setAddressBusy(true);
    setAddressNotice(null);
    setDeliveryAddress(id)
      .catch(() => {})
      .finally(() => {
        if (mounted.current) setAddressBusy(false);
      });
  };

  // A new address is chosen only when this restaurant delivers there. The save reply's
  // delivery_valid says whether any restaurant does: with 0 the cart is only re-read, still billed
  // to the current choice, so the new address shows up in the list. With 1 the cart service has
  // the last word: the cart is billed to the new address, and if it answers that this restaurant
  // does not deliver there, the bill goes back to the address chosen before.
  const addressAdded = (saved: Address) => {
    const previous = (cart?.addresses ?? []).find((a) => a.id === cart?.address_id && a.delivery_valid === 1)?.id ?? null;
    setAddressBusy(true);
    setAddressNotice(null);
    const rebill = async (): Promise<boolean> => {
      if (saved.delivery_valid !== 1) {
        await fetchCart({ force: true, addressId: previous });
        return false;
      }
      const billed = await setDeliveryAddress(saved.id);
      if (billed.addresses?.some((a) => a.id === saved.id && a.delivery_valid === 1)) return true;
      await setDeliveryAddress(previous);
      return false;
    };
    rebill()
      .then((chosen) => {
        if (mounted.current && !chosen) setAddressNotice(NEW_ADDRESS_UNDELIVERABLE);
      })
      .catch(() => {
        // Kept in the store; the page shows its own state for a cart it cannot read.
      })
      .finally(() => {
        if (mounted.current) setAddressBusy(false);
      });
  };

  // Defaulting the address: work on weekday working hours, home otherwise, among the addresses
  // the restaurant delivers to, once per visit and only when none deliverable is chosen.
  useEffect(() => {
    if (!user || !cart || defaulted.current) return;
    const deliverable = (cart.addresses ?? []).filter((a) => a.delivery_valid === 1);
    const current = deliverable.find((a) => a.id === cart.address_id);
    if (current || deliverable.length === 0) return;
    const chosen = chooseDefaultAddress(deliverable, new Date());
    if (!chosen) return;
    defaulted.current = true;
    chooseAddress(chosen.id);
  }, [user, cart]);

  const safeSet = (next: Phase) => {
    if (mounted.current) setPhase(next);
  };

  const confirm = async (orderId: string) => {
    safeSet({ kind: 'confirming', orderId });
    try {
      await edge.confirmOrder(orderId);
      // The edge cleared the cart on confirming: the header's badge must learn it too.
      fetchCart({ force: true }).catch(() => {});
      if (mounted.current) navigate(orderConfirmationHref(orderId));
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

  const pay = async (payment: PlaceOrderPayment) => {
    if (!cart?.bill) return;
    const key = pendingKey.current ?? newAttemptKey();
    pendingKey.current = key;
    // The bank's window opens now, while the press still counts as the customer's: opened after
    // place-v2 answers, a popup blocker would stop it. It is closed again unless the bank is next.
    const bankWindow = payment.method === 'netbanking' ? openBankWindow() : null;
    setPhase({ kind: 'placing' });
    try {
      const placed = await edge.placeOrder({
        idempotency_key: key,
        order: {
          address_id: cart.address_id ?? undefined,
          order_type: 'REGULAR',
          order_note: cart.order_comments || undefined,
          to_pay: cart.bill.to_pay,
        },
        payment,
      });
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

  if (!cart) {
    if (!error) return <Skeleton height={320} />;
  }
  const meta = checkoutMetaError({ cart, signedIn: !!user });
  if (meta === 'state not found') {
    return (
      <ErrorState
        title="We could not load your checkout"
        message="Sorry! This should not have happened. Please retry."
        actionLabel="Retry"
        onAction={() => void fetchCart({ force: true }).catch(() => {})}
      />
    );
  }
  if (meta === 'cart data not found' || !cart) {
    return (
      <ErrorState role="region" title="Your cart is empty" message="You can go to home page to view more restaurants">
        <Link href="/restaurants" className="chk-button-link">
          SEE RESTAURANTS NEAR YOU
        </Link>
      </ErrorState>
    );
  }
  if (!cart.restaurant_details) {
    return (
      <ErrorState role="region" title="Your cart needs a look" message="We could not find the restaurant for the items in your cart.">
        <Link href="/cart" className="chk-button-link">
          Back to cart
        </Link>
      </ErrorState>
    );
  }

  const unavailable = cart.cartItems.some((line) => line.in_stock !== 1);
  const blockedReason = !user
    ? 'Log in to place your order.'
    : meta === 'Addresses are empty'
      ? 'Add a delivery address to place your order.'
      : meta === 'restaurantdetails or cart address is empty'
        ? 'Choose a delivery address to place your order.'
        : unavailable
          ? 'Some items are unavailable. Remove them from your cart to proceed.'
          : cart.min_cart_message;
  const busy = phase.kind === 'placing' || phase.kind === 'confirming' || phase.kind === 'otp' || phase.kind === 'upi' || phase.kind === 'bank' || updating || addressBusy;

  return (
    <div className="chk-checkout">
      <div className="chk-checkout__steps">
        <AccountStep user={user} />
        <AddressStep cart={cart} signedIn={!!user} onChoose={chooseAddress} onAdded={addressAdded} notice={addressNotice} busy={addressBusy} />
        <PaymentStep signedIn={!!user} toPay={cart.bill?.to_pay ?? null} blockedReason={blockedReason} busy={busy} onPay={(payment) => void pay(payment)} />
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
      </div>
      <aside className="chk-checkout__cart" aria-label="Your order">
        <CartRestaurant cart={cart} as="p" />
        <CartLines cart={cart} />
        <CancellationMessage cart={cart} />
        {cart.bill ? <Bill bill={cart.bill} updating={updating || addressBusy} /> : null}
        <Link href="/cart">Edit cart</Link>
      </aside>
      {phase.kind === 'otp' ? (
        <ThreeDSecure
          payment={phase.payment}
          onSettled={(payment) => settle(phase.orderId, payment)}
          onError={(message) => safeSet({ kind: 'failed', message })}
        />
      ) : null}
    </div>
  );
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
