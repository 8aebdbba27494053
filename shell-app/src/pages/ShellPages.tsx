/**
 * The few routes the shell renders itself (`"mfe": "shell"` in routes.json): the redirect route
 * and static company pages that belong to no domain team.
 */
import { navigate, type MatchedRoute } from '@tiffin/contract';
import { Link, Skeleton } from '@tiffin/design-system';
import { useEffect } from 'react';
import { sameOriginTarget } from '../routing/redirect';
import { documentTitle } from '../routing/titles';

function RedirectPage({ search }: { search: string }) {
  useEffect(() => {
    const target = sameOriginTarget(new URLSearchParams(search).get('prevPath'), window.location.origin);
    if (target) navigate(target, { replace: true });
    // Only reached by navigating inside the shell: a page load of /redirect is answered by the
    // edge itself, which decides where anything but a path on this origin may go.
    else window.location.replace(`/redirect${search}`);
  }, [search]);
  return <Skeleton height={24} width="30%" />;
}

function CorporatePage() {
  return (
    <article className="shell-static-page">
      <h1>Tiffin for Corporates</h1>
      <p>Order meals for your teams from the restaurants that deliver to your office, on one company account.</p>
      <p>
        To set up a corporate account, write to us from <Link href="/support">Help &amp; Support</Link>.
      </p>
    </article>
  );
}

function InfoPage({ route }: { route: MatchedRoute }) {
  const heading = documentTitle(route).replace(/ \| Tiffin$/, '');
  return (
    <article className="shell-static-page">
      <h1>{heading}</h1>
      <p>
        This page is not published on the storefront yet. For anything you need now, reach us through{' '}
        <Link href="/support">Help &amp; Support</Link>.
      </p>
    </article>
  );
}

export function ShellPage({ route, search }: { route: MatchedRoute; search: string }) {
  switch (route.id) {
    case 'redirect':
      return <RedirectPage search={search} />;
    case 'corporate':
      return <CorporatePage />;
    default:
      return <InfoPage route={route} />;
  }
}
