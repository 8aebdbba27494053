/**
 * The few routes the shell renders itself (`"mfe": "shell"` in routes.json): the redirect route,
 * static company pages and the other written pages that belong to no domain team (the app page,
 * the partners' web view entry, Tiffin Moments, order for others and the New Year's Eve quiz).
 */
import { navigate, type MatchedRoute } from '@tiffin/contract';
import { Link, Skeleton } from '@tiffin/design-system';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { sameOriginTarget } from '../routing/redirect';
import { NotFound } from './NotFound';
import { isInfoPageId } from './info/titles';
import { isMomentSlug } from './moments/slugs';

// The text of the company and legal pages is its own chunk: few visitors open them, and every
// page's first download carries the shell. A chunk that fails to load reaches the app's error
// boundary, whose retry reloads the page.
const InfoPage = lazy(() => import('./info/InfoPage'));
// The same for the other written pages, one chunk each.
const AppPage = lazy(() => import('./app/AppPage'));
const WebviewPage = lazy(() => import('./webview/WebviewPage'));
const MomentsPage = lazy(() => import('./moments/MomentsPage'));
const OrderForOthersPage = lazy(() => import('./ofo/OrderForOthersPage'));
const QuizPage = lazy(() => import('./nyequiz/QuizPage'));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Skeleton height={240} />}>{children}</Suspense>;
}

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

export function ShellPage({ route, search }: { route: MatchedRoute; search: string }) {
  switch (route.id) {
    case 'redirect':
      return <RedirectPage search={search} />;
    case 'corporate':
      return <CorporatePage />;
    case 'info-page': {
      // The route's pattern lists the same pages (a test holds the two together); a page with no
      // text is answered as not found rather than drawn empty.
      const page = route.params.page;
      if (!isInfoPageId(page)) return <NotFound />;
      return <Loading><InfoPage id={page} /></Loading>;
    }
    case 'app':
      return <Loading><AppPage /></Loading>;
    case 'webview':
      return <Loading><WebviewPage /></Loading>;
    case 'moments': {
      // As for the info pages: the pattern lists the stories, and a slug without one is not found.
      const slug = route.params.slug;
      if (slug !== undefined && !isMomentSlug(slug)) return <NotFound />;
      return <Loading><MomentsPage slug={slug} /></Loading>;
    }
    case 'order-for-others':
      return <Loading><OrderForOthersPage tab={route.params.tab} /></Loading>;
    case 'nyequiz':
      return <Loading><QuizPage /></Loading>;
    default:
      return <NotFound />;
  }
}
