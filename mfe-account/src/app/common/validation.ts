/**
 * Field rules the forms check before calling the edge, worded as the edge words them
 * (docs/edge-api.md "Accounts"), so a customer sees the same sentence either way.
 */
import { OTP_EMPTY_MESSAGE, OTP_PLACEHOLDER } from '@tiffin/contract';

export const MESSAGES = {
  mobile: 'Enter a valid 10-digit mobile number.',
  otpEmpty: OTP_EMPTY_MESSAGE,
  otpFormat: OTP_PLACEHOLDER,
  name: 'Please enter your name.',
  email: 'Please enter a valid email address.',
} as const;

export { OTP_LENGTH, OTP_PLACEHOLDER, otpError } from '@tiffin/contract';

/** Ten digits once `+91`, `91`, `0` and spaces are removed, as the edge reads it. */
export function normaliseMobile(value: string): string {
  const digits = value.replace(/[\s-]/g, '').replace(/^\+91/, '');
  if (digits.length === 12 && digits.startsWith('91')) return digits.slice(2);
  if (digits.length === 11 && digits.startsWith('0')) return digits.slice(1);
  return digits;
}

/** Indian mobile numbers: 10 digits starting 6–9. */
export function isValidMobile(value: string): boolean {
  return /^[6-9][0-9]{9}$/.test(normaliseMobile(value));
}

/** An optional email: empty is fine, otherwise something@domain.tld. */
export function isValidEmail(value: string): boolean {
  const trimmed = value.trim();
  return trimmed === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed);
}
