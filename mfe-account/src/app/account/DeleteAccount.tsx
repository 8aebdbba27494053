/**
 * The delete-account subtab (/my-account/settings/delete-account), reachable logged out: it
 * explains what is deleted; a signed-in customer confirms and POSTs profile/delete-account, after
 * which the local user bits are cleared and the page loads afresh.
 */
import { edge } from '@tiffin/api-client';
import { emit, forgetUserLocalState } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';
import { useState } from 'react';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { errorMessage } from '../common/errors';
import { useCurrentUser } from '../common/user';

const DELETE_ACCOUNT_CONFIRMATION = 'Are you sure you want to delete your account? This cannot be undone.';

/** A full page load of home, as a fresh guest. Replaceable in tests. */
export const pageLoad = { home: () => window.location.assign('/') };

export function DeleteAccount() {
  const user = useCurrentUser();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await edge.deleteAccount();
      forgetUserLocalState();
      pageLoad.home();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <div className="acct-delete">
      <h3>Delete your Tiffin account</h3>
      <p>Deleting your account removes, for good:</p>
      <ul>
        <li>your profile: name, mobile number and email;</li>
        <li>your saved addresses and favourite restaurants;</li>
        <li>every signed-in session, on all your devices.</li>
      </ul>
      {error ? (
        <p className="acct-auth__error" role="alert">
          {error}
        </p>
      ) : null}
      {user ? (
        <Button onClick={() => setConfirming(true)} disabled={busy}>
          DELETE MY ACCOUNT
        </Button>
      ) : (
        <>
          <p>Please login to delete your account.</p>
          <Button onClick={() => emit('auth:open', { mode: 'login' })}>LOGIN</Button>
        </>
      )}
      {confirming ? (
        <ConfirmDialog message={DELETE_ACCOUNT_CONFIRMATION} confirmLabel="DELETE" busy={busy} onConfirm={() => void remove()} onCancel={() => setConfirming(false)} />
      ) : null}
    </div>
  );
}
