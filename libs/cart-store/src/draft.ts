/**
 * Pure cart transforms: what a change does to a cart, without any network. The store applies them
 * twice: to the server's last reply for the optimistic display, and again to the newest reply
 * when the change's turn in the queue comes, to build the full cart it sends.
 */
import type { Cart, CartItem, CartLinesUpdate } from '@tiffin/contract';
import { cartKey } from './cart-key';
import { DifferentRestaurantError } from './errors';
import type { CartSelection, OptimisticDisplay } from './types';

/** A cart without lines, as the edge sends one (docs/edge-api.md "The Cart"). */
export function emptyCart(cartId = ''): Cart {
  return {
    cartId,
    restaurant_details: null,
    cartItems: [],
    cartItemsCount: 0,
    item_total: 0,
    cart_subtotal_without_packing: 0,
    total_without_coupon_discount: null,
    bill: null,
    coupon_code: '',
    coupon_details: null,
    discount_message: null,
    discount_message_type: null,
    coupons: [],
    best_coupon: null,
    cartFreebieItems: [],
    cutlerySelection: { restaurantId: null, selected: false },
    cutlery_instruction: null,
    order_comments: '',
    address_id: null,
    addresses: [],
    serviceable: true,
    distance_km: null,
    sla_time: null,
    estimated_sla_min: null,
    estimated_sla_max: null,
    min_cart_value: 0,
    min_cart_message: null,
    cancellation_message: null,
    subscriptionItems: [],
    memberSavings: 0,
    memberSavingsMessage: null,
    subscriptionNudge: null,
    membershipUnknown: false,
    membershipMessage: null,
    paymentOffer: null,
  };
}

function isEmpty(cart: Cart): boolean {
  return !cart.restaurant_details || cart.cartItems.length === 0;
}

/** Recounts units and the item total after lines changed; an empty cart names no restaurant. */
function withTotals(cart: Cart, cartItems: CartItem[]): Cart {
  const lines = cartItems.filter((line) => line.quantity > 0);
  return {
    ...cart,
    restaurant_details: lines.length === 0 ? null : cart.restaurant_details,
    cartItems: lines,
    cartItemsCount: lines.reduce((sum, line) => sum + line.quantity, 0),
    item_total: lines.reduce((sum, line) => sum + line.final_price, 0),
  };
}

function withQuantity(line: CartItem, quantity: number): CartItem {
  return { ...line, quantity, final_price: line.base_price * quantity };
}

function newLine(sel: CartSelection, display: OptimisticDisplay['item']): CartItem {
  const unit = display?.unitPrice ?? 0;
  return {
    cart_key: cartKey(sel),
    menu_item_id: String(sel.menu_item_id),
    name: display?.name ?? '',
    quantity: sel.quantity,
    isVeg: display?.isVeg ?? 0,
    in_stock: 1,
    base_price: unit,
    final_price: unit * sel.quantity,
    price_changed: false,
    previous_price: null,
    addons: (sel.addons ?? []).map((a) => ({ group_id: a.group_id, choice_id: a.choice_id, name: '', price: 0 })),
    variants: (sel.variants ?? []).map((v) => ({ group_id: v.group_id, variation_id: v.variation_id, group_name: '', name: '', price: 0 })),
  };
}

export function assertQuantity(quantity: number, allowZero: boolean): void {
  if (!Number.isSafeInteger(quantity) || quantity < (allowZero ? 0 : 1)) {
    throw new RangeError(`Cart quantity must be ${allowZero ? 'a whole number ≥ 0' : 'a whole number ≥ 1'}, got ${String(quantity)}`);
  }
}

/**
 * Adds `sel.quantity` to the line with the same cart key, or appends a new line. Throws
 * `DifferentRestaurantError` when the cart holds another restaurant's items.
 */
export function addLine(cart: Cart, restaurantId: string, sel: CartSelection, display: OptimisticDisplay = {}): Cart {
  const current = cart.restaurant_details;
  if (current && !isEmpty(cart) && current.id !== String(restaurantId)) {
    throw new DifferentRestaurantError(current.id, current.name, String(restaurantId));
  }
  const key = cartKey(sel);
  const existing = cart.cartItems.find((line) => line.cart_key === key);
  const lines = existing
    ? cart.cartItems.map((line) => (line === existing ? withQuantity(line, line.quantity + sel.quantity) : line))
    : [...cart.cartItems, newLine(sel, display.item)];
  const restaurant_details = isEmpty(cart)
    ? { id: String(restaurantId), name: '', area_name: '', cloudinary_image_id: '', opened: true, ...display.restaurant }
    : current;
  return withTotals({ ...cart, restaurant_details }, lines);
}

/** A cart of only this line, for `restaurantId` (the customer agreed to drop the old cart). */
export function singleLine(cart: Cart, restaurantId: string, sel: CartSelection, display: OptimisticDisplay = {}): Cart {
  return addLine(emptyCart(cart.cartId), restaurantId, sel, display);
}

/** Sets a line's quantity; 0 removes it. An unknown key leaves the cart as it is. */
export function setQuantity(cart: Cart, key: string, quantity: number): Cart {
  if (!cart.cartItems.some((line) => line.cart_key === key)) return cart;
  return withTotals(
    cart,
    cart.cartItems.map((line) => (line.cart_key === key ? withQuantity(line, quantity) : line)),
  );
}

/** The selection a line stands for (ids only), e.g. to add the same customisation again. */
export function selectionOfLine(line: CartItem, quantity = line.quantity): CartSelection {
  return {
    menu_item_id: line.menu_item_id,
    quantity,
    addons: line.addons.map((a) => ({ group_id: a.group_id, choice_id: a.choice_id })),
    variants: line.variants.map((v) => ({ group_id: v.group_id, variation_id: v.variation_id })),
  };
}

/**
 * The line `key` becomes `sel` (e.g. its customisation was edited).
 * When the new choices equal another line's, the quantities are summed into that line; when they
 * equal the old line's (same key and quantity) the cart is returned unchanged, so no call is made.
 * An unknown key leaves the cart as it is.
 */
export function changeLine(cart: Cart, key: string, sel: CartSelection, display: OptimisticDisplay = {}): Cart {
  const old = cart.cartItems.find((line) => line.cart_key === key);
  if (!old || !cart.restaurant_details) return cart;
  if (cartKey(sel) === key && sel.quantity === old.quantity) return cart;
  const restaurant = cart.restaurant_details;
  const base = withTotals(cart, cart.cartItems.filter((line) => line !== old));
  const { id, ...details } = restaurant;
  const item = display.item ?? { name: old.name, isVeg: old.isVeg, unitPrice: cartKey(sel) === key ? old.base_price : undefined };
  // The edited line replaces the old one even when it was the only line: same restaurant.
  return addLine(base, id, sel, { restaurant: display.restaurant ?? details, item });
}

/** The POST /api/cart body for a whole cart: selections only, never a price. */
export function toUpdateRequest(cart: Cart): CartLinesUpdate {
  return {
    restaurantId: cart.cartItems.length > 0 && cart.restaurant_details ? cart.restaurant_details.id : '',
    cartItems: cart.cartItems.map((line) => ({
      menu_item_id: line.menu_item_id,
      quantity: line.quantity,
      addons: line.addons.map((a) => ({ group_id: a.group_id, choice_id: a.choice_id })),
      variants: line.variants.map((v) => ({ group_id: v.group_id, variation_id: v.variation_id })),
    })),
  };
}
