/**
 * Payment offers, written by hand until the edge's contract (`edge-api.gen.ts`) carries them: the
 * offers page's list (`GET /api/offers/payment`), the offers each payment method carries
 * (`payment/get-methods`), and what `cart/calculate` takes and answers for the chosen way to pay.
 * Each grows a generated shape where there is one, so once `make contract` regenerates the file
 * these become aliases of the generated types (or go away) and nothing that uses them changes.
 * Money is integer paise; dates are ISO days in India's time.
 */
import type { components } from './edge-api.gen';
import type { Cart, CartCalculateRequest } from './edge-types';

type Schemas = components['schemas'];

/** The tag an offer or coupon is drawn with: its two lines on its own colours ("#RRGGBB"). */
export interface OfferTag {
  title: string;
  subTitle: string;
  backgroundColor: string;
  textColor: string;
}

export type PaymentOfferKind = 'BANK' | 'CARD_NETWORK' | 'WALLET' | 'UPI';
export type PaymentOfferLimit = 'ONCE_A_DAY' | 'ONCE_A_MONTH';

/** A bank, card network, wallet or UPI offer and its terms. */
export interface PaymentOffer {
  /** Stable: HDFCBANK, MASTERCARD, RUPAY, MOBIKWIK, UPI. */
  offer_id: string;
  kind: PaymentOfferKind;
  /** The checkout method it rides on. */
  payment_method: 'card' | 'wallet' | 'upi_collect';
  /** The wallet's payment code for a WALLET offer; null otherwise. */
  wallet_code: string | null;
  title: string;
  description: string;
  /** Each term as the customer reads it ("Min cart amount ₹299", "Valid till 31 Mar 2027", ...). */
  terms: string[];
  /** Item total needed, in paise. */
  min_cart_amount: number;
  /** The most it takes off, in paise. */
  max_discount: number;
  /** The last day it applies ("2027-03-31"). */
  valid_till: string;
  limit: PaymentOfferLimit;
  offer_tag: OfferTag;
  /** The signed-in customer already used it in this day or month. */
  used: boolean;
}

/** A coupon every restaurant takes, listed beside the payment offers. */
export interface PlatformCoupon {
  code: string;
  title: string;
  description: string;
  /** Item total needed, in paise. */
  min_cart_amount: number;
  /** The last day it applies ("2027-03-31"); null when it does not end. */
  valid_till: string | null;
  offer_tag: OfferTag;
}

/** `GET /api/offers/payment?lat=&lng=`. */
export interface PaymentOffersResponse {
  payment_offers: PaymentOffer[];
  coupons: PlatformCoupon[];
}

/** An offer as a payment method of `payment/get-methods` lists it. */
export interface PaymentMethodOffer {
  offer_id: string;
  title: string;
  description: string;
}

/** A payment method with its offers; replies from before offers existed have none. */
export type PaymentMethodWithOffers = Schemas['PaymentMethod'] & { offers?: PaymentMethodOffer[] };
export type PaymentGroupWithOffers = Omit<Schemas['PaymentGroup'], 'payment_methods'> & { payment_methods: PaymentMethodWithOffers[] };

/** What `cart/calculate` takes beside `paymentMethod`, so the bill carries the card's offer. */
export interface CartCalculatePaymentFields {
  /** A new card's first 6 digits (paymentMethod `card`). */
  cardBin?: string;
  /** A saved card (paymentMethod `card`). */
  savedCardReference?: string;
}
export type CartCalculatePaymentRequest = CartCalculateRequest & CartCalculatePaymentFields;

/** The payment offer a bill earned for the way to pay it was priced for (its PAYMENT_OFFER line). */
export interface AppliedPaymentOffer {
  offerId: string;
  title: string;
  /** Paise taken off. */
  discount: number;
  /** "₹49.90 off with HDFC Bank cards". */
  message: string;
}

/** A cart priced for a way to pay: `paymentOffer` is null (or absent) when none applies. */
export type PricedCart = Cart & { paymentOffer?: AppliedPaymentOffer | null };
