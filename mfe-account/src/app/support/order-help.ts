/**
 * The order-help flow's arithmetic and choices, apart from the page so each is tested alone: which
 * issues ask for lines, how many of a line can be asked for, the refund the chosen lines make and
 * the body sent to `POST support/order-help`.
 */
import type { OrderHelp, OrderHelpItem, OrderHelpRequest, OrderIssueCode, SupportRefundTo } from '@tiffin/contract';

/** Quantities chosen, by line id. */
export type ChosenQuantities = Readonly<Record<number, number>>;

/** Missing and wrong items are refunded line by line, so the customer picks the lines. */
export function asksForItems(issue: OrderIssueCode | null): boolean {
  return issue === 'MISSING_ITEMS' || issue === 'WRONG_ITEM';
}

/** A refund follows from these, so the customer says where it goes (a cancel's by the cancellation rules). */
export function asksForRefundTo(issue: OrderIssueCode | null): boolean {
  return asksForItems(issue) || issue === 'CANCEL';
}

/** The customer's own words go to the agent: the rules cannot settle these alone. */
export function asksForMessage(issue: OrderIssueCode | null): boolean {
  return issue === 'QUALITY' || issue === 'OTHER';
}

/** A quantity the line can take: a whole number from 0 to what can still be refunded. */
export function clampQuantity(item: OrderHelpItem, quantity: number): number {
  if (!Number.isFinite(quantity)) return 0;
  return Math.max(0, Math.min(item.refundableQuantity, Math.floor(quantity)));
}

/** The lines chosen with a quantity above 0, each at most its refundable quantity, in the order's order. */
export function chosenLines(items: readonly OrderHelpItem[], chosen: ChosenQuantities): { lineId: number; quantity: number }[] {
  return items.map((item) => ({ lineId: item.lineId, quantity: clampQuantity(item, chosen[item.lineId] ?? 0) })).filter((line) => line.quantity > 0);
}

/** What the chosen lines give back, in paise: each line's refund for one unit times the units chosen. */
export function refundPaise(items: readonly OrderHelpItem[], chosen: ChosenQuantities): number {
  return items.reduce((sum, item) => sum + item.unitRefundPaise * clampQuantity(item, chosen[item.lineId] ?? 0), 0);
}

/** Where the refund goes unless the customer says otherwise: the payment when it may, else the one offered. */
export function defaultRefundTo(help: Pick<OrderHelp, 'refundTo'>): SupportRefundTo | null {
  if (help.refundTo.includes('SOURCE')) return 'SOURCE';
  return help.refundTo[0] ?? null;
}

export interface OrderHelpChoice {
  issue: OrderIssueCode | null;
  chosen: ChosenQuantities;
  refundTo: SupportRefundTo | null;
  message: string;
}

/**
 * The request for the choice, without its idempotency key; or what is missing, in the words the
 * page shows.
 */
export function orderHelpBody(help: OrderHelp, choice: OrderHelpChoice): { body: Omit<OrderHelpRequest, 'idempotencyKey'> } | { problem: string } {
  const { issue } = choice;
  if (!issue) return { problem: 'Choose what went wrong with your order.' };
  const offered = help.issues.find((i) => i.code === issue);
  if (!offered || !offered.available) return { problem: offered?.reason || 'We cannot help with that on this order.' };
  const message = choice.message.trim();
  if (asksForItems(issue)) {
    const items = chosenLines(help.items, choice.chosen);
    if (items.length === 0) return { problem: 'Choose the items and how many of each.' };
    const refundTo = choice.refundTo && help.refundTo.includes(choice.refundTo) ? choice.refundTo : null;
    if (!refundTo) return { problem: 'Choose where your refund should go.' };
    return { body: { orderId: help.orderId, issue, items, refundTo, ...(message ? { message } : {}) } };
  }
  if (issue === 'OTHER' && !message) return { problem: 'Tell us what happened.' };
  const refundTo = asksForRefundTo(issue) && choice.refundTo && help.refundTo.includes(choice.refundTo) ? { refundTo: choice.refundTo } : {};
  return { body: { orderId: help.orderId, issue, ...refundTo, ...(message ? { message } : {}) } };
}
