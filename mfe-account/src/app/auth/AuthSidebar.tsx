/**
 * mfe_account/AuthSidebar: login and sign-up with a mobile number and a one-time code, opened by
 * the shell on `auth:open` (header Login, /auth, any microfrontend). The shell owns `open`.
 *
 * Login: mobile → POST auth/otp → code → POST auth/verify-otp. Sign up: mobile, name, optional
 * email → the same two calls, with name and email on the second. Sending a code says nothing
 * about whether the number has an account; only its right code does: a login whose code is right
 * for a number without an account answers `nameRequired`, and the sidebar turns into a sign-up on
 * the code step, asking for the name and sending the same code again with it. A sign-up for a
 * number that has an account simply signs in. The edge's messages are shown as they are (wrong,
 * expired, locked with its retry time). On success see `completeSignIn`.
 */
import { edge } from '@tiffin/api-client';
import { type AuthSidebarProps, type OtpSent } from '@tiffin/contract';
import { Button, MfeRoot } from '@tiffin/design-system';
import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../common/errors';
import { formatCountdown, useCountdown } from '../common/useCountdown';
import { isValidEmail, isValidMobile, MESSAGES, normaliseMobile, OTP_LENGTH, OTP_PLACEHOLDER, otpError } from '../common/validation';
import '../account.css';
import { completeSignIn } from './signIn';

export { isValidMobile } from '../common/validation';

type Mode = AuthSidebarProps['mode'];
type Step = 'mobile' | 'otp';

interface FormState {
  mode: Mode;
  step: Step;
  mobile: string;
  name: string;
  email: string;
  otp: string;
  error: string | null;
  /** A neutral note (switched to sign-up, code re-sent). */
  note: string | null;
  busy: boolean;
  /** Epoch ms when "Resend OTP" becomes available. */
  resendAt: number | null;
}

const fresh = (mode: Mode): FormState => ({
  mode,
  step: 'mobile',
  mobile: '',
  name: '',
  email: '',
  otp: '',
  error: null,
  note: null,
  busy: false,
  resendAt: null,
});

const TITLES: Record<Mode, string> = { login: 'Login', signup: 'Sign up' };

export default function AuthSidebar({ open, mode: initialMode, onClose }: AuthSidebarProps) {
  const [form, setForm] = useState<FormState>(() => fresh(initialMode));
  const update = (patch: Partial<FormState>) => setForm((f) => ({ ...f, ...patch }));
  const resendIn = useCountdown(form.resendAt);

  // Every opening starts afresh in the requested mode.
  useEffect(() => {
    if (open) setForm(fresh(initialMode));
  }, [initialMode, open]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  const afterCodeSent = (sent: OtpSent): Partial<FormState> => ({
    step: 'otp',
    resendAt: Date.now() + Math.max(0, sent.resendAfterSeconds) * 1000,
    note: null,
  });

  const sendCode = async () => {
    const mobile = normaliseMobile(form.mobile);
    if (!isValidMobile(mobile)) return update({ error: MESSAGES.mobile });
    if (form.mode === 'signup') {
      if (!form.name.trim()) return update({ error: MESSAGES.name });
      if (!isValidEmail(form.email)) return update({ error: MESSAGES.email });
    }
    update({ busy: true, error: null, mobile });
    try {
      const sent = await edge.requestOtp(mobile);
      setForm((f) => ({ ...f, busy: false, otp: '', ...afterCodeSent(sent) }));
    } catch (error) {
      update({ busy: false, error: errorMessage(error) });
    }
  };

  const resend = async () => {
    update({ busy: true, error: null });
    try {
      const sent = await edge.requestOtp(form.mobile);
      update({ busy: false, otp: '', resendAt: Date.now() + Math.max(0, sent.resendAfterSeconds) * 1000, note: `OTP sent again to ${form.mobile}` });
    } catch (error) {
      update({ busy: false, error: errorMessage(error) });
    }
  };

  const verify = async () => {
    const problem = otpError(form.otp);
    if (problem) return update({ error: problem });
    if (form.mode === 'signup') {
      if (!form.name.trim()) return update({ error: MESSAGES.name });
      if (!isValidEmail(form.email)) return update({ error: MESSAGES.email });
    }
    update({ busy: true, error: null });
    try {
      const request =
        form.mode === 'signup'
          ? { mobile: form.mobile, otp: form.otp.trim(), name: form.name.trim(), email: form.email.trim() }
          : { mobile: form.mobile, otp: form.otp.trim() };
      const { user, nameRequired } = await edge.verifyOtp(request);
      if (nameRequired || !user) {
        // The code is right and the number is new: the same code signs up once a name is given.
        update({ busy: false, mode: 'signup', note: "You're new here! Tell us your name to create your account." });
        return;
      }
      await completeSignIn(user);
      setForm(fresh(initialMode));
      onClose();
    } catch (error) {
      update({ busy: false, error: errorMessage(error) });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.busy) return;
    void (form.step === 'mobile' ? sendCode() : verify());
  };

  const title = TITLES[form.mode];
  const signup = form.mode === 'signup';
  return (
    <MfeRoot mfe="mfe-account" version={__MFE_VERSION__} className={open ? 'acct-auth acct-auth--open' : 'acct-auth'}>
      {open ? <div className="acct-auth__scrim" onClick={onClose} aria-hidden="true" /> : null}
      <aside className="acct-auth__panel" role="dialog" aria-modal="true" aria-label={title} hidden={!open}>
        <button type="button" className="acct-auth__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
        <h2 className="acct-auth__title">{title}</h2>
        {form.step === 'mobile' ? (
          <p className="acct-auth__switch">
            or{' '}
            <button type="button" className="acct-auth__link" onClick={() => update({ mode: signup ? 'login' : 'signup', error: null })}>
              {signup ? 'login to your account' : 'create an account'}
            </button>
          </p>
        ) : (
          <p className="acct-auth__switch">
            Enter the OTP sent to <strong>{form.mobile}</strong>{' '}
            <button type="button" className="acct-auth__link" onClick={() => update({ step: 'mobile', otp: '', error: null, note: null, resendAt: null })}>
              Change
            </button>
          </p>
        )}
        <form onSubmit={submit} className="acct-auth__form" noValidate>
          {form.step === 'mobile' ? (
            <label className="acct-auth__field">
              <span>Phone number</span>
              <input
                name="mobile"
                type="tel"
                inputMode="numeric"
                autoComplete="tel-national"
                maxLength={13}
                value={form.mobile}
                onChange={(e) => update({ mobile: e.target.value.replace(/[^0-9+ ]/g, '') })}
              />
            </label>
          ) : null}
          {signup ? (
            <>
              <label className="acct-auth__field">
                <span>Name</span>
                <input name="name" autoComplete="name" value={form.name} onChange={(e) => update({ name: e.target.value })} />
              </label>
              <label className="acct-auth__field">
                <span>Email (optional)</span>
                <input name="email" type="email" autoComplete="email" value={form.email} onChange={(e) => update({ email: e.target.value })} />
              </label>
            </>
          ) : null}
          {form.step === 'otp' ? (
            <label className="acct-auth__field">
              <span>One-time password</span>
              <input
                name="otp"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={OTP_LENGTH}
                placeholder={OTP_PLACEHOLDER}
                value={form.otp}
                onChange={(e) => update({ otp: e.target.value.replace(/[^0-9]/g, '') })}
              />
            </label>
          ) : null}
          {form.note ? (
            <p className="acct-auth__note" role="status">
              {form.note}
            </p>
          ) : null}
          {form.error ? (
            <p className="acct-auth__error" role="alert">
              {form.error}
            </p>
          ) : null}
          <Button type="submit" block disabled={form.busy}>
            {form.step === 'otp' ? 'VERIFY OTP' : signup ? 'CONTINUE' : 'LOGIN'}
          </Button>
          {form.step === 'otp' ? (
            resendIn > 0 ? (
              <p className="acct-auth__resend" data-testid="resend-countdown">
                Resend OTP in {formatCountdown(resendIn)}
              </p>
            ) : (
              <button type="button" className="acct-auth__link" onClick={() => void resend()} disabled={form.busy}>
                Resend OTP
              </button>
            )
          ) : null}
        </form>
      </aside>
    </MfeRoot>
  );
}
