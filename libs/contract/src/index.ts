/**
 * @tiffin/contract — everything two Tiffin web apps must agree on, and nothing else.
 *
 * - `events`: namespaced window events (`cart:updated`, `location:changed`, `auth:open`, …)
 * - `toast`: the toast API the shell renders
 * - `user-location`: the shared `userLocation` cookie
 * - `navigation`: in-app navigation that the shell claims
 * - `composition`: route table entries, the microfrontend manifest, the remotes' props
 * - `edge-types`: the edge's reply shapes (docs/edge-api.md)
 * - `user`: the signed-in user (`getCurrentUser`, `setCurrentUser` → `auth:changed`)
 * - `default-address`: which saved address becomes the location on sign-in
 * - `geolocation`: the device position, only with permission already granted
 * - `map`: where map tiles come from (URL, attribution) and where a map starts
 * - `checkout-types`: checkout's calls until the edge's contract carries them
 * - `payment-v2-types`: netbanking, pay-later, split pay and the keyed top-up, by hand until the
 *   edge's contract carries them (each extends the generated shape, to become an alias)
 * - `membership-types`: Tiffin One's plans, status, availability and the cart's plan line (aliases of
 *   the generated shapes, the documented closed sets narrowed)
 * - `offer-types`: payment offers and coupons (the offers page, each payment method's offers, the
 *   bill priced for a way to pay), by hand until the edge's contract carries them
 * - `support-types`: support's issues and FAQs, help on an order, conversations and the agents'
 *   desk (aliases of the generated shapes, the documented closed sets narrowed)
 * - `order-types`: tracking, the order history, details, cancel and reorder, written by hand until
 *   the edge's contract carries them
 * - `orders`: links to an order's pages, which statuses are final, the words for each status
 * - `support`: links to support's and the desk's pages, the words for a conversation's status and
 *   for where a refund goes
 * - `otp`: the one-time code rules (length, placeholder, messages)
 *
 * It must never import React or any app: every microfrontend and the shell depend on it.
 */
export * from './events';
export * from './toast';
export * from './user-location';
export * from './navigation';
export * from './storage';
export * from './composition';
export * from './edge-types';
export * from './user';
export * from './default-address';
export * from './geolocation';
export * from './map';
export * from './checkout-types';
export * from './payment-v2-types';
export * from './membership-types';
export * from './offer-types';
export * from './order-types';
export * from './support-types';
export * from './support';
export * from './orders';
export * from './otp';
