/**
 * The LINK button and, once the provider has sent its OTP, the code field with CANCEL, Resend OTP
 * and VERIFY. It is a group, not a form, so it can sit inside a page's own form (checkout's payment
 * step); Enter in the field verifies. A refused code stays here with the edge's words; the caller
 * hears only of a linked account (`onLinked`) or of a link that could not start (`onError`).
 */
import { customerMessage } from '@tiffin/api-client';
import { OTP_LENGTH, OTP_PLACEHOLDER, otpError } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';
import { useState } from 'react';
import type { LinkableAccount, LinkActions } from './link-actions';
import './payment-link.css';

export function OtpLink({
  name,
  actions,
  onLinked,
  onError,
  linkLabel = 'LINK',
}: {
  /** The provider's name, as the customer knows it ("PhonePe", "LazyPay"). */
  name: string;
  actions: LinkActions;
  onLinked: (account: LinkableAccount) => void;
  onError: (message: string) => void;
  linkLabel?: string;
}) {
  const [otpSent, setOtpSent] = useState(false);
  const [otp, setOtp] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (step: () => Promise<void>, failed: (message: string) => void) => {
    setBusy(true);
    try {
      await step();
    } catch (e) {
      failed(customerMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    run(async () => {
      const started = await actions.link();
      if (started.linked) onLinked(await actions.refresh());
      else setOtpSent(true);
    }, onError);

  const resend = (send: () => Promise<unknown>) =>
    run(async () => {
      await send();
      setOtp('');
      setProblem(null);
    }, setProblem);

  const cancel = () => {
    setOtpSent(false);
    setOtp('');
    setProblem(null);
  };

  const verify = () => {
    if (busy) return;
    const wrong = otpError(otp);
    if (wrong) return setProblem(wrong);
    setProblem(null);
    void run(async () => {
      const linked = await actions.validate(otp.trim());
      setOtpSent(false);
      setOtp('');
      onLinked(linked);
    }, setProblem);
  };

  if (!otpSent) {
    return (
      <Button variant="link" onClick={() => void start()} disabled={busy}>
        {linkLabel}
      </Button>
    );
  }
  return (
    <div className="plink-otp" role="group" aria-label={`Link ${name}`}>
      <label className="plink-otp__field">
        <span>Enter the OTP sent to the mobile number registered with {name}</span>
        <input
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          placeholder={OTP_PLACEHOLDER}
          value={otp}
          onChange={(e) => setOtp(e.target.value.replace(/[^0-9]/g, ''))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              // Inside a page's form, Enter would submit that form instead.
              e.preventDefault();
              verify();
            }
          }}
        />
      </label>
      {problem ? (
        <p className="plink-otp__error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="plink-otp__actions">
        <Button variant="secondary" onClick={cancel} disabled={busy}>
          CANCEL
        </Button>
        {actions.resend ? (
          <Button variant="link" onClick={() => void resend(actions.resend!)} disabled={busy}>
            Resend OTP
          </Button>
        ) : null}
        <Button onClick={verify} disabled={busy}>
          VERIFY
        </Button>
      </div>
    </div>
  );
}
