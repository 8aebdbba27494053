/**
 * Tiffin One (the membership, "super" in data): aliases of the shapes the edge's contract
 * generates (`edge-api.gen.ts`), with the few strings the edge documents as a closed set narrowed
 * to it (the membership's status, why a plan cannot be bought). All money is integer paise; times
 * are unix seconds.
 */
import type { components } from './edge-api.gen';
import type { Cart } from './edge-types';

type Schemas = components['schemas'];

/** The membership's states: a member now, a member once, never one. */
export type SuperStatusValue = 'SUPER' | 'WAS_SUPER' | 'NOT_SUPER';

/** One plan of the `plan-listing` widget (`GET /api/super/plans`). */
export type SuperPlan = Schemas['SuperPlan'];

/** `GET /api/super/plans`: always the `plan-listing` widget. */
export type SuperPlansWidget = Schemas['SuperPlans'];

/** A plan bought: the one running now or one waiting to start after it. */
export type SuperSubscription = Schemas['SuperSubscription'];

/** `GET /api/profile/super` and `POST /api/super/cancel`. */
export type SuperStatus = Omit<Schemas['SuperStatus'], 'status' | 'current'> & {
  status: SuperStatusValue;
  /** The plan running now (members only). */
  current: SuperSubscription | null;
};

/** Why a plan cannot be bought now; '' when it can. */
export type SuperUnavailableReason = '' | 'SIGN_IN' | 'WITHDRAWN' | 'NOT_IN_CITY' | 'LONGER_PLAN';

/** `GET /api/super/available/{planId}?lat=&lng=`. */
export type SuperAvailability = Omit<Schemas['SuperAvailability'], 'reason' | 'plan'> & {
  reason: SuperUnavailableReason;
  plan: SuperPlan | null;
};

/** A "notify me" request: tell me when this plan is sold in this city. */
export type SuperNotification = Schemas['SuperNotification'];

/** `POST /api/super/notify/{planId}`: the request kept, and whether it is new. */
export type SuperNotified = Schemas['SuperNotified'];

/** `GET /api/super/notify`: the caller's requests, newest first. */
export type SuperNotifications = Schemas['SuperNotifications'];

/** A Tiffin One plan in the cart (`POST /api/cart/addSubscriptionToCart`). */
export type CartSubscriptionItem = Schemas['CartSubscriptionItem'];

/** The plan the cart suggests to a non-member with food in the cart, and what it would save. */
export type CartSubscriptionNudge = Schemas['CartSubscriptionNudge'];

/** The cart: its plan line, what membership saves on it and its suggestion are the cart's own fields. */
export type CartWithMembership = Cart;

/** The Tiffin One plan an order bought (order details' `plan`). */
export type OrderPlan = Schemas['OrderPlan'];

/**
 * What order details say about the membership (the plan bought, paise being a member saved), for
 * the order details written by hand in order-types.
 */
export type OrderMembershipFields = Partial<Pick<Schemas['OrderDetails'], 'plan' | 'member_savings'>>;
