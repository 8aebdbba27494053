/**
 * /my-account/verify-email?token=… — the link of an email change. Posts the token
 * (profile/verify-email) and shows the result; a signed-in page then refreshes its user.
 */
import { edge } from '@tiffin/api-client';
import { getCurrentUser, setCurrentUser } from '@tiffin/contract';
import { ErrorState, Link, Skeleton, useAsync } from '@tiffin/design-system';
import { errorMessage } from '../common/errors';

async function verify(token: string, signal: AbortSignal): Promise<string> {
  const { email } = await edge.verifyEmail(token, { signal });
  if (getCurrentUser()) {
    try {
      setCurrentUser(await edge.profile({ signal }));
    } catch {
      // The email is verified either way; the page shows the new one on its next load.
    }
  }
  return email;
}

export function VerifyEmail() {
  const token = new URLSearchParams(typeof window === 'undefined' ? '' : window.location.search).get('token') ?? '';
  const state = useAsync((signal) => (token ? verify(token, signal) : Promise.reject(new Error('This link has expired.'))), [token]);
  if (state.status === 'loading') return <Skeleton height={80} />;
  if (state.status === 'error') {
    const message = state.error instanceof Error && !('kind' in state.error) ? state.error.message : errorMessage(state.error);
    return (
      <ErrorState title="Email not verified" message={message}>
        <Link href="/my-account/profile">Go to your profile</Link>
      </ErrorState>
    );
  }
  return (
    <ErrorState role="region" title="Email verified" message={`Your email ${state.data} is verified.`}>
      <Link href="/my-account/profile">Go to your profile</Link>
    </ErrorState>
  );
}
