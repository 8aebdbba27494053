/**
 * The shapes of the order routes after placing: live tracking (order/trackV2 and its event
 * stream), the order history (order/all), one order's details (order/details), cancelling
 * (cancel-only/order/{id}) and ordering again (order/reorder).
 *
 * Written by hand because the edge that answers these is being built alongside the pages: once
 * the edge's OpenAPI document carries them, each becomes an alias of its generated type under the
 * same name (as in `edge-types.ts`) and this file goes away. Money is integer paise, times are
 * RFC 3339 strings, ids are strings, as everywhere else.
 */

/** Where an order stands. The last three are final: nothing happens to the order after them. */
export type OrderStatus =
  | 'AWAITING_PAYMENT'
  | 'PLACED'
  | 'ACCEPTED'
  | 'PREPARING'
  | 'RIDER_ASSIGNED'
  | 'PICKED_UP'
  | 'ARRIVING'
  | 'DELIVERED'
  | 'CANCELLED'
  | 'ABANDONED';

/** One step of an order's story: the status it reached and when. */
export interface OrderStatusChange {
  order_status: OrderStatus;
  changed_at: string;
}

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** The delivery partner on the map, once one is assigned. */
export interface TrackingRider {
  /** Which marker to draw (`rider`). */
  marker_image_id: string;
  /** The words beside the marker: the partner's first name. */
  marker_annotation: string;
  location: GeoPoint;
}

export interface TrackingMapDetails {
  show_map: boolean;
  /** Draw the rider's remaining route (`waypoints`). */
  show_polyline: boolean;
  /** Draw a straight line from the restaurant to the customer. */
  show_connector: boolean;
  rider: TrackingRider | null;
  /** The restaurant. */
  source: GeoPoint;
  /** The customer's address. */
  destination: GeoPoint;
  /** The rider's remaining route, rider → restaurant → destination; may be empty. */
  waypoints: GeoPoint[];
}

export interface TrackingStatusDetails {
  /** The status in the customer's words ("Order Received", "Order Cancelled"…). */
  status_tag_text: string;
  /** May be empty. */
  status_message: string;
  /** "24 mins"; empty once the order is final. */
  eta_text: string;
  eta_subtext: string;
  /** May be empty. */
  messages: Array<{ body: string }>;
  /** Carries the restaurant's phone in its `phoneNumber` parameter (`/call?phoneNumber=%2B91…`). */
  delivery_instruction_details: { secondary_cta_link: string } | null;
}

/** `data` of GET order/trackV2, and each `tracking` event of order/track-stream (without the envelope). */
export interface Tracking {
  order_id: string;
  order_status: OrderStatus;
  /** The same as `order_status`. */
  status_code: OrderStatus;
  /** True once the order is DELIVERED, CANCELLED or ABANDONED: nothing will change any more. */
  terminal: boolean;
  restaurant_name: string;
  /** `polling_interval_seconds` is 0 once the order is final. */
  configuration: { polling_interval_seconds: number };
  map_details: TrackingMapDetails;
  order_status_details: TrackingStatusDetails;
  status_history: OrderStatusChange[];
}

export interface OrderSummaryItem {
  item_id: string;
  name: string;
  quantity: number;
  /** Paise. */
  subtotal: number;
}

/** One order of the history (GET order/all). */
export interface OrderSummary {
  order_id: string;
  order_status: OrderStatus;
  restaurant_id: string;
  restaurant_name: string;
  /** Paise: everything the customer paid. */
  order_total: number;
  order_time: string;
  order_items: OrderSummaryItem[];
  /** Empty until delivered. */
  delivered_at: string;
}

/** `data` of GET order/all: one page of 10, newest first; fewer than 10 means no more. */
export interface OrdersResponse {
  orders: OrderSummary[];
  total_orders: number;
}

/** The named charges of an order, each in paise (0 when it does not apply). */
export type OrderChargeName = 'Delivery Charges' | 'Packing Charges' | 'GST' | 'Convenience Fee' | 'Service Charges' | 'Cancellation Fee';

/** One line of the bill as the customer sees it, in display order. */
export interface OrderRenderingLine {
  display_text: string;
  type: 'ITEM_TOTAL' | 'CHARGE' | 'DISCOUNT' | 'TOTAL';
  /** Paise, never signed: `is_negative` says it is taken off. */
  value: number;
  is_negative: boolean;
}

/** Where a refund goes: back to how the customer paid, or to their Tiffin Money balance. */
export type RefundDestination = 'SOURCE' | 'TIFFIN_MONEY';

export interface OrderRefund {
  /** Paise. */
  amount: number;
  destination: RefundDestination;
}

export interface OrderDetailsItem {
  item_id: string;
  name: string;
  quantity: number;
  /** Paise. */
  subtotal: number;
  /** The chosen add-ons and variations, named ("Half, Extra raita"); empty when none. */
  choices: string;
}

export interface OrderAddress {
  address_id: string;
  annotation: string;
  address: string;
  area: string;
}

/** `data` of GET order/details. */
export interface OrderDetails {
  order_id: string;
  order_status: OrderStatus;
  order_type: string;
  order_time: string;
  order_note: string;
  /** Paise: everything the customer pays. */
  order_total: number;
  restaurant_id: string;
  restaurant_name: string;
  order_items: OrderDetailsItem[];
  /** The cart's bill lines (signed paise), kept for the confirmation page. */
  bill: Array<{ key: string; label: string; amount: number }>;
  rendering_details: OrderRenderingLine[];
  charges: Record<OrderChargeName, number>;
  status_history: OrderStatusChange[];
  /** card, upi_collect, cod, wallet or tiffin_money; empty until paid. */
  payment_method: string;
  coupon_code: string;
  delivery_address?: OrderAddress | null;
  /** Whether the customer may cancel now. */
  cancellable: boolean;
  /** What cancelling now would cost, in paise; 0 means free. */
  cancellation_fee: number;
  /** The refund once the order was cancelled, else null. */
  refund: OrderRefund | null;
}

/** `data` of POST cancel-only/order/{id}. */
export interface CancelResult {
  /** The order as it is now (CANCELLED). */
  order: OrderDetails;
  /** Paise kept as the cancellation fee. */
  cancellation_fee: number;
  /** Paise given back; 0 when nothing was paid (cash on delivery) or the fee took it all. */
  refund_amount: number;
  refund_destination: RefundDestination;
}

/** `data` of POST order/reorder: what went into the cart and what could not go as before. */
export interface ReorderResult {
  /** Units now in the cart. */
  item_count: number;
  /** Items the restaurant no longer sells or has run out of; they were left out. */
  unavailable_items: Array<{ name: string; quantity: number }>;
  /** Items whose price changed since the order: what it was and what it is now, in paise. */
  price_changes: Array<{ name: string; previous_price: number; price: number }>;
}
