/** What a support page shows a visitor who is not signed in where it needs a customer: a way to sign in. */
import { emit } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';

export function SignInPrompt({ what }: { what: string }) {
  return (
    <div className="acct-note acct-support__sign-in" role="region" aria-label="Log in">
      <p>Log in to {what}.</p>
      <Button onClick={() => emit('auth:open', { mode: 'login' })}>LOGIN</Button>
    </div>
  );
}
