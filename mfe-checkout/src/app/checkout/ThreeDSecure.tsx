/**
 * The bank's 3-D Secure page, in the app: the customer types the OTP their bank sent. Closing it
 * tells the payments service the customer gave up, so the payment ends as USER_ABORTED rather
 * than waiting.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import { OTP_LENGTH, OTP_PLACEHOLDER, otpError, type PaymentStatusV2 as PaymentStatus } from '@tiffin/contract';
import { Button, formatPrice } from '@tiffin/design-system';
import { useState, type FormEvent } from 'react';
import { methodAmount } from './payment-status';

export function ThreeDSecure({
  payment,
  onSettled,
  onError,
}: {
  payment: PaymentStatus;
  onSettled: (payment: PaymentStatus) => void;
  onError: (message: string) => void;
}) {
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (request: { otp: string } | { abandon: true }) => {
    setBusy(true);
    try {
      onSettled(await edge.authenticatePayment({ payment_id: payment.payment_id, ...request }));
    } catch (failure) {
      setBusy(false);
      // A refused OTP stays on the bank page; anything else ends the attempt.
      if ('otp' in request && (failure as { statusCode?: number }).statusCode === 1) setError(customerMessage(failure));
      else onError(customerMessage(failure));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = otpError(otp);
    setError(problem);
    if (!problem) void send({ otp: otp.trim() });
  };

  return (
    <div className="chk-overlay">
      <div
        className="chk-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="chk-3ds-title"
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !busy) void send({ abandon: true });
        }}
      >
        <h2 id="chk-3ds-title" className="chk-dialog__title">
          Verify your payment
        </h2>
        <p className="chk-dialog__hint">
          Your bank sent a one-time password to your registered mobile number to approve {formatPrice(methodAmount(payment))}.
        </p>
        <form onSubmit={submit} noValidate className="chk-dialog__form">
          <label htmlFor="chk-3ds-otp" className="chk-field__label">
            One-time password
          </label>
          <input
            id="chk-3ds-otp"
            autoFocus
            className="chk-field__input"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={OTP_LENGTH}
            placeholder={OTP_PLACEHOLDER}
            value={otp}
            onChange={(event) => setOtp(event.target.value.replace(/[^0-9]/g, ''))}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'chk-3ds-error' : undefined}
          />
          {error ? (
            <p id="chk-3ds-error" className="chk-field__error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="chk-dialog__actions">
            <Button type="button" variant="secondary" disabled={busy} onClick={() => void send({ abandon: true })}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              Submit
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
}
