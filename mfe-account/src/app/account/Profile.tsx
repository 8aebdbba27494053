/**
 * Profile: name, mobile and email. Changing the mobile sends a code to the new
 * number (profile/update-mobile), verified with profile/verify-otp → "Update Successful".
 * Changing the email sends a verification link (profile/update-email); until it is opened the new
 * address is pending and the current one stays.
 */
import { edge } from '@tiffin/api-client';
import { setCurrentUser, type User } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../common/errors';
import { useCurrentUser } from '../common/user';
import { formatCountdown, useCountdown } from '../common/useCountdown';
import { isValidEmail, isValidMobile, MESSAGES, normaliseMobile, OTP_LENGTH, OTP_PLACEHOLDER, otpError } from '../common/validation';

const UPDATE_SUCCESSFUL = 'Update Successful';

function ChangeMobile({ onDone }: { onDone: () => void }) {
  const [mobile, setMobile] = useState('');
  const [otp, setOtp] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const resendIn = useCountdown(resendAt);

  const send = async (number: string) => {
    setBusy(true);
    setError(null);
    try {
      const sent = await edge.updateMobile(number);
      setSentTo(sent.mobile || number);
      setResendAt(Date.now() + Math.max(0, sent.resendAfterSeconds) * 1000);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!sentTo) {
      const number = normaliseMobile(mobile);
      if (!isValidMobile(number)) return setError(MESSAGES.mobile);
      return send(number);
    }
    const problem = otpError(otp);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      const user = await edge.verifyMobile({ mobile: sentTo, otp: otp.trim() });
      setCurrentUser(user);
      onDone();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  return (
    <form className="acct-auth__form" onSubmit={(e) => void submit(e)} noValidate aria-label="Change mobile number">
      {!sentTo ? (
        <label className="acct-auth__field">
          <span>New mobile number</span>
          <input name="new-mobile" type="tel" inputMode="numeric" value={mobile} onChange={(e) => setMobile(e.target.value.replace(/[^0-9+ ]/g, ''))} />
        </label>
      ) : (
        <>
          <p>
            Enter the OTP sent to <strong>{sentTo}</strong>
          </p>
          <label className="acct-auth__field">
            <span>One-time password</span>
            <input name="otp" inputMode="numeric" maxLength={OTP_LENGTH} placeholder={OTP_PLACEHOLDER} value={otp} onChange={(e) => setOtp(e.target.value.replace(/[^0-9]/g, ''))} />
          </label>
          {resendIn > 0 ? (
            <p className="acct-muted">Resend OTP in {formatCountdown(resendIn)}</p>
          ) : (
            <Button variant="link" onClick={() => void send(sentTo)} disabled={busy}>
              Resend OTP
            </Button>
          )}
        </>
      )}
      {error ? (
        <p className="acct-auth__error" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={busy}>
        {sentTo ? 'VERIFY' : 'SEND OTP'}
      </Button>
    </form>
  );
}

function ChangeEmail({ onDone }: { onDone: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !isValidEmail(email)) return setError(MESSAGES.email);
    setBusy(true);
    setError(null);
    try {
      const user = await edge.updateEmail(email.trim());
      setCurrentUser(user);
      onDone(user);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <form className="acct-auth__form" onSubmit={(e) => void submit(e)} noValidate aria-label="Change email">
      <label className="acct-auth__field">
        <span>New email</span>
        <input name="new-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      {error ? (
        <p className="acct-auth__error" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={busy}>
        VERIFY EMAIL
      </Button>
    </form>
  );
}

export function Profile() {
  const user = useCurrentUser();
  const [editing, setEditing] = useState<'mobile' | 'email' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  if (!user) return null;
  const finish = (text: string) => {
    setEditing(null);
    setMessage(text);
  };
  return (
    <div className="acct-profile">
      <dl className="acct-profile__fields">
        <dt>Name</dt>
        <dd data-testid="profile-name">{user.name || '—'}</dd>
        <dt>Phone number</dt>
        <dd data-testid="profile-mobile">
          {user.mobile}{' '}
          <Button variant="link" onClick={() => (setEditing('mobile'), setMessage(null))}>
            CHANGE
          </Button>
        </dd>
        <dt>Email</dt>
        <dd data-testid="profile-email">
          {user.email || 'Not added'}{' '}
          <Button variant="link" onClick={() => (setEditing('email'), setMessage(null))}>
            CHANGE
          </Button>
        </dd>
      </dl>
      {user.pendingEmail ? (
        <p className="acct-note" data-testid="pending-email">
          A verification link has been sent to {user.pendingEmail}. Open it to finish changing your email.
        </p>
      ) : null}
      {message ? (
        <p className="acct-note" role="status">
          {message}
        </p>
      ) : null}
      {editing === 'mobile' ? <ChangeMobile onDone={() => finish(UPDATE_SUCCESSFUL)} /> : null}
      {editing === 'email' ? <ChangeEmail onDone={() => setEditing(null)} /> : null}
    </div>
  );
}
