/**
 * How the account words an order: the one-line items summary of a card, the payment method,
 * a bill line's amount, and the refund's destination. Kept apart from the components so the list
 * and the details page say the same thing.
 */
import type { OrderChargeName, OrderRenderingLine, OrderSummaryItem, RefundDestination } from '@tiffin/contract';
import { formatPrice } from '@tiffin/design-system';

/** `Paneer Tikka x 2, Naan x 1`. */
export function itemsSummary(items: ReadonlyArray<Pick<OrderSummaryItem, 'name' | 'quantity'>>): string {
  return items.map((item) => `${item.name} x ${item.quantity}`).join(', ');
}

const PAYMENT_METHODS: Record<string, string> = {
  card: 'Card',
  upi_collect: 'UPI',
  cod: 'Cash on Delivery',
  wallet: 'Wallet',
  tiffin_money: 'Tiffin Money',
};

/** `upi_collect` → `UPI`; a method this page does not know yet reads as sent. */
export function paymentMethodWords(method: string): string {
  return PAYMENT_METHODS[method] ?? method;
}

/**
 * Whether cancelling asks where the refund goes: cash on delivery has nothing to refund, and an
 * order paid from Tiffin Money goes back there either way, so only the other methods ask.
 */
export function asksRefundDestination(method: string): boolean {
  return method !== '' && method !== 'cod' && method !== 'tiffin_money';
}

/** `Original payment method (Card)` or `Tiffin Money`. */
export function refundDestinationWords(destination: RefundDestination, method: string): string {
  if (destination === 'TIFFIN_MONEY') return 'Tiffin Money';
  const paidWith = paymentMethodWords(method);
  return paidWith ? `Original payment method (${paidWith})` : 'Original payment method';
}

/** A bill line's amount: what is taken off reads `-₹79.50`. */
export function billAmount(line: Pick<OrderRenderingLine, 'value' | 'is_negative'>): string {
  return line.is_negative ? `-${formatPrice(Math.abs(line.value))}` : formatPrice(line.value);
}

/** The charge names in the order they are listed. */
const CHARGE_ORDER: readonly OrderChargeName[] = ['Delivery Charges', 'Packing Charges', 'GST', 'Convenience Fee', 'Service Charges', 'Cancellation Fee'];

/** The charges that apply (above 0), in a fixed order; a name this page does not know comes last. */
export function chargesThatApply(charges: Partial<Record<string, number>>): Array<{ name: string; amount: number }> {
  const names = [...CHARGE_ORDER, ...Object.keys(charges).filter((name) => !(CHARGE_ORDER as readonly string[]).includes(name))];
  return names.flatMap((name) => {
    const amount = charges[name] ?? 0;
    return amount > 0 ? [{ name, amount }] : [];
  });
}

/** What the cancel dialog says about the fee. */
export function cancellationFeeWords(fee: number): string {
  return fee > 0 ? `A cancellation fee of ${formatPrice(fee)} applies.` : 'Cancelling now is free.';
}
