/**
 * Checkout's request and reply shapes (docs/checkout.md: place-v2, payment/authenticate,
 * confirm-v2): the generated contract's, under the names the checkout uses, with
 * the values the edge documents for its free-text fields spelled out for the page's own code.
 */
import type { components } from './edge-api.gen';
import type { PaymentStatusV2, PlaceOrderPaymentV2Fields } from './payment-v2-types';

type Schemas = components['schemas'];

/** How the customer pays; only the part of `PlaceOrderPayment` that matches is read. */
export type CheckoutPaymentMethod = 'card' | 'saved_card' | 'upi_collect' | 'cod' | 'wallet' | 'tiffin_money' | 'netbanking' | 'paylater';
export type OrderType = 'REGULAR' | 'SUBSCRIPTION';

export type PlaceOrderCard = Schemas['PlaceOrderCard'];
export type PlaceOrderSavedCard = Schemas['PlaceOrderSavedCard'];
export type PlaceOrderPayment = Schemas['PlaceOrderPayment'] & PlaceOrderPaymentV2Fields & { method: CheckoutPaymentMethod };
export type PlaceOrderCartItem = Schemas['PlaceOrderItem'];
export type PlaceOrderRequest = Schemas['PlaceOrderInput'] & {
  idempotency_key: string;
  order: Schemas['PlaceOrderOrder'] & { order_type: OrderType; to_pay: number };
  payment: PlaceOrderPayment;
};
export type PlaceOrderResponse = Omit<Schemas['PlacedOrder'], 'payment'> & { payment: PaymentStatusV2 };
export type AuthenticatePaymentRequest = Schemas['AuthenticatePaymentInput'];
export type ConfirmOrderRequest = Schemas['ConfirmOrderInput'];
/** confirm-v2 answers the order whole, as order/details does (`OrderDetails`, order-types.ts). */
export type ConfirmOrderResponse = Schemas['OrderDetails'];
export type OrderDetailsBillLine = Schemas['OrderBillLine'];
