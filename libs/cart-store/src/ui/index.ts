/**
 * The cart's pieces of UI that more than one page shows (the cart page, the header flyout, the
 * menu's cart panel, the checkouts): the restaurant with its delivery time, the lines, the bill with
 * tooltips, the coupon box, what the cart says about Tiffin One. They read and change the cart only through `@tiffin/cart-store` (imported by
 * its package name, so every microfrontend uses the one shared store). Class prefix: `cart-`.
 *
 * Each component imports its own stylesheet, and this entry imports none: the package declares
 * itself free of side effects except for `*.css`, so webpack skips this file of re-exports and
 * links a remote straight to the components it uses, dropping anything imported here. Styles
 * imported by the component travel with it into whichever remote renders it.
 */
export { Bill } from './Bill';
export { CancellationMessage } from './CancellationMessage';
export { CartLines } from './CartLines';
export { CartMembership, PlanLine } from './CartMembership';
export { CartPanel } from './CartPanel';
export { CartRestaurant } from './CartRestaurant';
export { CouponBox } from './CouponBox';
