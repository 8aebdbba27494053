import { navigate } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';

/** The catch-all route: the edge answers 404 with the shell's HTML, which renders this. */
export function NotFound() {
  return (
    <section className="shell-not-found" aria-labelledby="shell-not-found-title">
      <h1 id="shell-not-found-title">Page not found</h1>
      <p>Uh-oh! Looks like the page you are trying to access, doesn&apos;t exist. Please start afresh.</p>
      <Button onClick={() => navigate('/')}>GO HOME</Button>
    </section>
  );
}
