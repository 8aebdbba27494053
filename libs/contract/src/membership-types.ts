/**
 * Tiffin One (the membership, "super" in data), written by hand until the edge's contract
 * (`edge-api.gen.ts`) carries it: the membership routes and the cart's plan line were being built
 * beside the web pages. Each type extends the generated shape it grows where one exists, so once
 * `make contract` regenerates the file, every type here becomes a plain alias of the generated one
 * (or goes away) and nothing that uses it changes. All money is integer paise; times are unix
 * seconds.
 */
import type { components } from './edge-api.gen';
import type { Cart } from './edge-types';

type Schemas = components['schemas'];

/** The membership's states: a member now, a member once, never one. */
export type SuperStatusValue = 'SUPER' | 'WAS_SUPER' | 'NOT_SUPER';

/** One plan of the `plan-listing` widget (`GET /api/super/plans`). */
export type SuperPlan = Schemas['SuperPlan'] & {
  /** Paise off the base price. */
  discountApplied: number;
  /** "Save ₹248 (56% off)"; '' without a discount. */
  discountDescription: string;
  /** The plan's image id. */
  icon: string;
  cta: { text: string };
  /** Days the plan runs. */
  durationDays: number;
};

/** `GET /api/super/plans`: always the `plan-listing` widget. */
export interface SuperPlansWidget {
  type: 'plan-listing' | string;
  plans: SuperPlan[];
}

/** A plan bought: the one running now or one waiting to start after it. */
export interface SuperSubscription {
  subscriptionId: string;
  planId: string;
  planName: string;
  title: string;
  orderId: string;
  /** Paise paid. */
  pricePaid: number;
  startsAt: number;
  endsAt: number;
  renews: boolean;
}

/** `GET /api/profile/super` and `POST /api/super/cancel`. */
export interface SuperStatus {
  status: SuperStatusValue;
  /** The plan running now (members only). */
  current: SuperSubscription | null;
  /** Plans bought while a member: each starts where the one before ends. */
  upcoming: SuperSubscription[];
  /** When the membership lasts to (for WAS_SUPER, when it ended); 0 when never a member. */
  memberUntil: number;
  /** Paise saved on confirmed orders since this membership began. */
  savings: number;
  /** False once cancelled: the benefits last to `memberUntil` and it is not renewed. */
  renews: boolean;
}

/** Why a plan cannot be bought now; '' when it can. */
export type SuperUnavailableReason = '' | 'SIGN_IN' | 'WITHDRAWN' | 'NOT_IN_CITY' | 'LONGER_PLAN';

/** `GET /api/super/available/{planId}?lat=&lng=`. */
export interface SuperAvailability {
  plan: SuperPlan | null;
  available: boolean;
  reason: SuperUnavailableReason;
  /** For the customer, when not available. */
  message: string;
  /** The city of the point given (slug and name); '' when none. */
  city: string;
  cityName: string;
  /** The caller already asked to be told when the plan is sold in this city. */
  notifyRequested: boolean;
}

/** A "notify me" request: tell me when this plan is sold in this city. */
export interface SuperNotification {
  planId: string;
  planTitle: string;
  city: string;
  cityName: string;
  requestedAt: number;
}

/** `POST /api/super/notify/{planId}`: the request kept, and whether it is new. */
export interface SuperNotified {
  notification: SuperNotification;
  created: boolean;
}

/** `GET /api/super/notify`: the caller's requests, newest first. */
export interface SuperNotifications {
  notifications: SuperNotification[];
}

/** A Tiffin One plan in the cart (`POST /api/cart/addSubscriptionToCart`). */
export interface CartSubscriptionItem {
  planId: string;
  planName: string;
  title: string;
  quantity: number;
  /** Paise: the plan's final price. */
  price: number;
  /** Paise before the plan's discount. */
  basePrice: number;
  durationDays: number;
}

/** What the cart says about the membership: its plan line and what being a member saves. */
export interface CartMembershipFields {
  subscriptionItems?: CartSubscriptionItem[];
  /** Paise the membership takes off this bill; 0 for a non-member. */
  memberSavings?: number;
  /** "You saved ₹X with Tiffin One"; null when nothing was saved. */
  memberSavingsMessage?: string | null;
  /** For a non-member with food in the cart: the plan that would save on it, and how much. */
  subscriptionNudge?: CartSubscriptionNudge | null;
}

/** The plan the cart suggests to a non-member, and what it would save on this cart (paise). */
export interface CartSubscriptionNudge {
  planId: string;
  planName: string;
  title: string;
  durationDays: number;
  price: number;
  basePrice: number;
  savings: number;
  /** "Save ₹25 on this order with Tiffin One". */
  message: string;
}

/** The cart with its membership fields (these, over whatever the generated `Cart` has of them). */
export type CartWithMembership = Omit<Cart, keyof CartMembershipFields> & CartMembershipFields;

/** The `plan_id` and quantity (always 1) of the plan put in the cart. */
export interface AddSubscriptionToCartRequest {
  subscriptionItems: { plan_id: string; quantity: 1 }[];
}

/** The Tiffin One plan an order bought (order details' `plan`). */
export interface OrderPlan {
  planId: string;
  planName: string;
  title: string;
  durationDays: number;
  /** Paise. */
  price: number;
}

/** What order details say about the membership: the plan bought, and what being a member saved. */
export interface OrderMembershipFields {
  plan?: OrderPlan | null;
  /** Paise the membership took off this order. */
  member_savings?: number;
}
