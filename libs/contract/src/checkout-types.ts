/**
 * Checkout's request and reply shapes (docs/checkout.md: place-v2, payment/authenticate,
 * confirm-v2, order/details), written by hand because the edge routes are not in the contract yet.
 * Replaced by generated aliases in edge-types.ts once the edge routes are in the contract.
 * The payment itself (`PaymentStatus`) is already generated and is reused, not restated.
 */
import type { PaymentStatus } from './edge-types';

/** How the customer pays; only the part of `PlaceOrderPayment` that matches is read. */
export type CheckoutPaymentMethod = 'card' | 'saved_card' | 'upi_collect' | 'cod';

export type OrderType = 'REGULAR' | 'SUBSCRIPTION';

export interface PlaceOrderCard {
  number: string;
  expiry_month: number;
  expiry_year: number;
  cvv: string;
  holder_name: string;
  save_card: boolean;
}

export interface PlaceOrderSavedCard {
  card_reference: string;
  cvv: string;
}

export interface PlaceOrderPayment {
  method: CheckoutPaymentMethod;
  card?: PlaceOrderCard;
  saved_card?: PlaceOrderSavedCard;
  vpa?: string;
}

export interface PlaceOrderCartItem {
  menu_item_id: number;
  quantity: number;
  addons: unknown[];
  variants: unknown[];
}

export interface PlaceOrderRequest {
  /** One per attempt; the same one again on a network retry of that attempt. */
  idempotency_key: string;
  order: {
    address_id?: string;
    order_type: OrderType;
    order_note?: string;
    /** The total the customer was shown, paise. */
    to_pay: number;
    cart_items?: PlaceOrderCartItem[];
  };
  payment: PlaceOrderPayment;
}

export type OrderStatus = 'AWAITING_PAYMENT' | 'PLACED';

export interface PlaceOrderResponse {
  order_id: string;
  order_total: number;
  order_status: OrderStatus;
  payment: PaymentStatus;
}

/** `data` of the statusCode 21 refusal: the bill the server priced. */
export interface BillChanged {
  to_pay: number;
}

export type AuthenticatePaymentRequest = { payment_id: string; otp: string } | { payment_id: string; abandon: true };

export interface ConfirmOrderRequest {
  order_id: string;
}

export interface ConfirmOrderResponse {
  order_id: string;
  order_total: number;
  order_status: OrderStatus;
}

export interface OrderDetailsItem {
  item_id: string;
  name: string;
  quantity: number;
  subtotal: number;
}

export interface OrderDetailsBillLine {
  key: string;
  label: string;
  amount: number;
}

export interface OrderDetails {
  order_id: string;
  order_total: number;
  order_status: string;
  order_time: string;
  restaurant_id: string;
  restaurant_name: string;
  payment_method: string;
  order_items: OrderDetailsItem[];
  bill: OrderDetailsBillLine[];
  delivery_address: { address_id: string; annotation: string; address: string };
}
