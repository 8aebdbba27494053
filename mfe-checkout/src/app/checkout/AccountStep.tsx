/**
 * Step 1, the account. A visitor signs in without leaving checkout: the buttons ask the shell for
 * the account team's sign-in sidebar (`auth:open`), and the page follows `auth:changed`.
 */
import { emit, type User } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';

export function AccountStep({ user }: { user: User | null }) {
  return (
    <section className="chk-step" aria-label="Account">
      <h2 className="chk-step__title">Account</h2>
      {user ? (
        <p className="chk-step__done">
          Logged in as <strong>{user.name || user.mobile}</strong>
          {user.name ? <span className="chk-step__muted"> · {user.mobile}</span> : null}
        </p>
      ) : (
        <>
          <p className="chk-step__hint">To place your order now, log in to your existing account or sign up.</p>
          <div className="chk-step__actions">
            <Button variant="secondary" onClick={() => emit('auth:open', { mode: 'login' })}>
              LOG IN
            </Button>
            <Button onClick={() => emit('auth:open', { mode: 'signup' })}>SIGN UP</Button>
          </div>
        </>
      )}
    </section>
  );
}
