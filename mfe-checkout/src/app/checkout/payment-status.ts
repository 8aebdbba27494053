/** What a payment's status means for the page (docs/checkout.md, "What the page does with it"). */
import type { PaymentStatus, PaymentStatusV2 } from '@tiffin/contract';

const FAILED = new Set(['DECLINED', 'AUTHORIZATION_FAILED', 'AUTHENTICATION_FAILED', 'USER_ABORTED', 'JUSPAY_DECLINED']);

export type PaymentOutcome = 'charged' | 'enter-otp' | 'approve-in-upi-app' | 'redirect-to-bank' | 'failed' | 'pending';

export function outcomeOf(payment: PaymentStatus): PaymentOutcome {
  const status = payment.status.toUpperCase();
  if (status === 'CHARGED') return 'charged';
  if (FAILED.has(status)) return 'failed';
  if (payment.next_action === 'ENTER_OTP') return 'enter-otp';
  if (payment.next_action === 'APPROVE_IN_UPI_APP') return 'approve-in-upi-app';
  if (payment.next_action === 'REDIRECT_TO_BANK') return 'redirect-to-bank';
  return 'pending';
}

/** A final status: polling stops here. */
export function isFinal(outcome: PaymentOutcome): boolean {
  return outcome === 'charged' || outcome === 'failed';
}

/** The payments service words the reason; this covers a failure that came without one. */
export function failureMessage(payment: PaymentStatus): string {
  return payment.failure_reason || 'Your payment did not go through. No money was taken. Please try again.';
}

/**
 * What the method itself (card, UPI, bank) is asked for: the payment's amount less the part Tiffin
 * Money paid when the bill was split (`tiffin_money_paise`, 0 or absent otherwise).
 */
export function methodAmount(payment: PaymentStatusV2): number {
  return payment.amount - (payment.tiffin_money_paise ?? 0);
}
