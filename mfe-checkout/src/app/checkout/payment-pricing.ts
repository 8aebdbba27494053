/**
 * The bill for the way the customer chose to pay. A payment offer (a bank's, a card network's, a
 * wallet's, UPI's) changes the bill, and place-v2 prices the order for the way it is paid, so the
 * page asks `cart/calculate` for the stored cart priced for that way (a new card by its first 6
 * digits, a saved card by its reference) and shows and pays that reply's bill.
 *
 * The re-priced cart lives in the page, never in the shared cart store: it is a price for one way
 * to pay, which the header and the cart page know nothing of. It stands only for the stored cart it
 * was priced from; once the store holds another (a new address, a plan added, the bill changed at
 * place-v2) the store's bill shows until the new one is priced. A re-price that fails leaves the
 * bill as it was: if that is not what place-v2 would charge, place-v2 says the bill changed.
 */
import { edge } from '@tiffin/api-client';
import type { Cart, CartBill, CartCalculatePaymentFields, PricedCart } from '@tiffin/contract';
import { useEffect, useRef, useState } from 'react';

/**
 * The way to pay a bill is priced for: the payment code place-v2 prices the order with, and for a
 * card what its offers need (PaymentStep's `pricingOf` reads it from the choice).
 */
export type PaymentPricing = { paymentMethod: string } & CartCalculatePaymentFields;

/** A pricing as one string, equal exactly when the bill it asks for is the same. */
export function pricingKey(pricing: PaymentPricing | null): string {
  return pricing ? JSON.stringify([pricing.paymentMethod, pricing.cardBin ?? '', pricing.savedCardReference ?? '']) : '';
}

/**
 * How long a new card's first digits must stay as they are before the bill is priced for them:
 * digits pasted and then corrected, or typed over, cost one call, not one per change.
 */
export const CARD_PRICING_DELAY_MS = 300;

interface Repriced {
  /** The store's cart it was priced from. */
  basis: Cart;
  /** The way to pay it was priced for (`pricingKey`). */
  key: string;
  cart: PricedCart;
}

export interface PaymentPricingState {
  /** The bill to show and pay: the re-priced one while it stands for the stored cart, else the store's. */
  bill: CartBill | null;
  /** What the bill's payment offer takes off, when the bill is priced for the way to pay chosen now. */
  offerMessage: string | null;
  /** A re-price is under way: the bill is not final yet. */
  repricing: boolean;
  /** PaymentStep's `onPricingChange`. */
  onPricingChange: (pricing: PaymentPricing | null) => void;
}

/** `settled`: the store has no change of its own under way (its cart is what the server holds). */
export function usePaymentPricing(cart: Cart | null, settled: boolean): PaymentPricingState {
  const [pricing, setPricing] = useState<PaymentPricing | null>(null);
  const [repriced, setRepriced] = useState<Repriced | null>(null);
  const [repricing, setRepricing] = useState(false);
  /** The way to pay last sent to be priced: only a new card's new digits wait before going. */
  const lastAsked = useRef('');
  const key = pricingKey(pricing);

  useEffect(() => {
    if (!cart?.bill || !pricing || !settled) {
      setRepricing(false);
      return;
    }
    const controller = new AbortController();
    const reprice = () => {
      lastAsked.current = key;
      edge
        .calculateCart({ ...pricing, address_id: cart.address_id ?? undefined }, { signal: controller.signal })
        .then((reply) => {
          if (!controller.signal.aborted && reply.bill) setRepriced({ basis: cart, key, cart: reply });
        })
        .catch(() => {
          // The bill stays as it was; place-v2's own check catches a price that moved.
        })
        .finally(() => {
          if (!controller.signal.aborted) setRepricing(false);
        });
    };
    setRepricing(true);
    const timer = pricing.cardBin && key !== lastAsked.current ? setTimeout(reprice, CARD_PRICING_DELAY_MS) : null;
    if (!timer) reprice();
    return () => {
      if (timer) clearTimeout(timer);
      controller.abort();
    };
    // `key` stands for `pricing`; a new cart object is a new basis to price.
  }, [cart, key, settled]);

  const current = repriced && repriced.basis === cart ? repriced : null;
  return {
    bill: current?.cart.bill ?? cart?.bill ?? null,
    offerMessage: current && current.key === key ? (current.cart.paymentOffer?.message ?? null) : null,
    repricing,
    onPricingChange: setPricing,
  };
}
