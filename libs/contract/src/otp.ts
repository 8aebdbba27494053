/**
 * The one-time code rules every form that asks for a code follows (sign-in, a phone change, a
 * bank's 3-D Secure page): 6 digits, and the same words when it is missing or malformed, so a
 * customer reads the same sentence wherever they type a code.
 */

export const OTP_LENGTH = 6;
export const OTP_PLACEHOLDER = 'Enter 6-digit OTP';
export const OTP_EMPTY_MESSAGE = 'Please enter the OTP.';

/** null when the code is acceptable, else the message to show. */
export function otpError(otp: string): string | null {
  const trimmed = otp.trim();
  if (trimmed === '') return OTP_EMPTY_MESSAGE;
  if (!new RegExp(`^[0-9]{${OTP_LENGTH}}$`).test(trimmed)) return OTP_PLACEHOLDER;
  return null;
}
