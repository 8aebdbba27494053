/**
 * What every page that shows an order agrees on: the links to an order's pages (tracking in
 * mfe-checkout, details and help in mfe-account), which statuses are final, and the words for
 * each status. A page that links to an order builds the link here, so a route can move in one
 * place.
 */
import type { OrderStatus } from './order-types';

/** Live tracking (the `track-order` route). */
export function trackOrderHref(orderId: string): string {
  return `/track-order/${encodeURIComponent(orderId)}`;
}

/** The order's page in the account (the `account` route, tab `orders`, the id as subtab). */
export function orderDetailsHref(orderId: string): string {
  return `/my-account/orders/${encodeURIComponent(orderId)}`;
}

/** Help about one order: the support page knows which order from `order_id`. */
export function orderHelpHref(orderId: string): string {
  return `/support?order_id=${encodeURIComponent(orderId)}`;
}

/** The invoice PDF. Served by the edge outside `/api`, so it is a plain link, never a fetch. */
export function invoiceHref(orderId: string): string {
  return `/invoice/download/${encodeURIComponent(orderId)}`;
}

/**
 * Statuses after which nothing happens to an order. Tracking replies say so themselves
 * (`terminal`); the history's summaries do not, so pages that list orders ask here.
 */
const FINAL_STATUSES: ReadonlySet<string> = new Set<OrderStatus>(['DELIVERED', 'CANCELLED', 'ABANDONED']);

export function isFinalOrderStatus(status: string): boolean {
  return FINAL_STATUSES.has(status.toUpperCase());
}

const STATUS_WORDS: Record<OrderStatus, string> = {
  AWAITING_PAYMENT: 'Awaiting payment',
  PLACED: 'Order placed',
  ACCEPTED: 'Accepted by the restaurant',
  PREPARING: 'Being prepared',
  RIDER_ASSIGNED: 'Delivery partner assigned',
  PICKED_UP: 'Picked up',
  ARRIVING: 'Arriving',
  DELIVERED: 'Delivered',
  CANCELLED: 'Cancelled',
  ABANDONED: 'Payment not completed',
};

/** `PICKED_UP` → `Picked up`; a status this page does not know yet reads as its own words. */
export function orderStatusWords(status: string): string {
  const known = STATUS_WORDS[status.toUpperCase() as OrderStatus];
  if (known) return known;
  const words = status.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
