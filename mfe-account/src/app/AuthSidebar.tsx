/**
 * mfe_account/AuthSidebar: login or sign-up, opened by the shell on `auth:open`. The edge has no
 * OTP login calls yet, so submitting a valid number says so in a toast instead of pretending.
 */
import { showToast, type AuthSidebarProps } from '@tiffin/contract';
import { Button, MfeRoot } from '@tiffin/design-system';
import { useEffect, useState, type FormEvent } from 'react';
import './account.css';

/** Indian mobile numbers: 10 digits starting 6–9. */
export function isValidMobile(value: string): boolean {
  return /^[6-9][0-9]{9}$/.test(value.trim());
}

export default function AuthSidebar({ open, mode: initialMode, onClose }: AuthSidebarProps) {
  const [mode, setMode] = useState(initialMode);
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setMode(initialMode), [initialMode, open]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isValidMobile(phone)) {
      setError('Enter your 10-digit mobile number');
      return;
    }
    setError(null);
    showToast({ text: 'Signing in is not available yet. Please try again later.', status: 'error' });
  };

  return (
    <MfeRoot mfe="mfe-account" version={__MFE_VERSION__} className={open ? 'acct-auth acct-auth--open' : 'acct-auth'}>
      {open ? <div className="acct-auth__scrim" onClick={onClose} aria-hidden="true" /> : null}
      <aside className="acct-auth__panel" role="dialog" aria-modal="true" aria-label={mode === 'login' ? 'Login' : 'Sign up'} hidden={!open}>
        <button type="button" className="acct-auth__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
        <h2 className="acct-auth__title">{mode === 'login' ? 'Login' : 'Sign up'}</h2>
        <p className="acct-auth__switch">
          or{' '}
          <button type="button" className="acct-auth__link" onClick={() => setMode(mode === 'login' ? 'signup' : 'login')}>
            {mode === 'login' ? 'create an account' : 'login to your account'}
          </button>
        </p>
        <form onSubmit={submit} className="acct-auth__form" noValidate>
          <label className="acct-auth__field">
            <span>Phone number</span>
            <input inputMode="numeric" autoComplete="tel-national" maxLength={10} value={phone} onChange={(e) => setPhone(e.target.value.replace(/[^0-9]/g, ''))} />
          </label>
          {error ? (
            <p className="acct-auth__error" role="alert">
              {error}
            </p>
          ) : null}
          <Button type="submit" block>
            {mode === 'login' ? 'LOGIN' : 'CONTINUE'}
          </Button>
        </form>
      </aside>
    </MfeRoot>
  );
}
