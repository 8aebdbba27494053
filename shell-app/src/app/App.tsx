/**
 * The shell's page: chrome (header, footer, toasts, offline banner, auth and location sidebar
 * slots) around the route's content. Route → owner comes from routes.json; a remote's page mounts
 * in a RemoteBoundary, so its failure never takes the chrome or other routes down.
 */
import { emit, navigate, on, type AuthSidebarProps, type LocationSidebarProps, type MatchedRoute } from '@tiffin/contract';
import { Skeleton } from '@tiffin/design-system';
import { useEffect, useState } from 'react';
import { knownCities, useCities } from '../data/cities';
import { AppErrorBoundary } from '../errors/AppErrorBoundary';
import { RemoteBoundary, RemoteLoaderContext, type RemoteLoader } from '../federation/RemoteBoundary';
import { Footer } from '../footer/Footer';
import { footerVisible } from '../footer/footer';
import { Header } from '../header/Header';
import { useCartCount } from '../header/useCartCount';
import { useCurrentUser } from '../header/user';
import { useUserLocation } from '../header/useUserLocation';
import { OfflineBanner } from '../offline/OfflineBanner';
import { NotFound } from '../pages/NotFound';
import { ShellPage } from '../pages/ShellPages';
import { initialRouteVerdict } from '../initial-state';
import { citiesDecidedByEdge, effectivePageType, resolveRoute, ROUTES } from '../routing/match';
import { documentTitle } from '../routing/titles';
import { useBrowserLocation } from '../routing/useBrowserLocation';
import { ToastHost } from '../toasts/ToastHost';
import '../styles/shell.css';

/** Mounts mfe_account/AuthSidebar on the first `auth:open`; the shell keeps the open state. */
function AuthSidebarSlot() {
  const [state, setState] = useState<{ mounted: boolean; open: boolean; mode: AuthSidebarProps['mode'] }>({
    mounted: false,
    open: false,
    mode: 'login',
  });
  useEffect(() => on('auth:open', ({ mode }) => setState({ mounted: true, open: true, mode })), []);
  if (!state.mounted) return null;
  const props: AuthSidebarProps = { open: state.open, mode: state.mode, onClose: () => setState((s) => ({ ...s, open: false })) };
  return (
    <div className={state.open ? 'shell-auth-slot shell-auth-slot--open' : 'shell-auth-slot'}>
      <RemoteBoundary mfe="mfe-account" expose="AuthSidebar" props={props} compact />
    </div>
  );
}

/**
 * Mounts mfe_discovery/LocationSidebar on the first `location:open` (location bar, location hints);
 * the shell keeps the open state. The sidebar renders its own overlay (a portal), so this slot only
 * holds the remote's error fallback, shown at the left edge (where the sidebar opens) while open.
 */
function LocationSidebarSlot() {
  const [state, setState] = useState({ mounted: false, open: false });
  useEffect(() => on('location:open', () => setState({ mounted: true, open: true })), []);
  if (!state.mounted) return null;
  const props: LocationSidebarProps = { open: state.open, onClose: () => setState((s) => ({ ...s, open: false })) };
  return (
    <div className={state.open ? 'shell-location-slot shell-location-slot--open' : 'shell-location-slot'}>
      <RemoteBoundary mfe="mfe-discovery" expose="LocationSidebar" props={props} compact />
    </div>
  );
}

function Page() {
  const { pathname, search } = useBrowserLocation();
  const cities = useCities();
  const location = useUserLocation();
  const cartCount = useCartCount();
  const user = useCurrentUser();
  const resolution = resolveRoute(pathname, ROUTES, citiesDecidedByEdge(pathname, initialRouteVerdict(), ROUTES) ?? knownCities(cities));
  const match: MatchedRoute | null = resolution.kind === 'match' ? resolution.match : null;

  useEffect(() => {
    if (resolution.kind !== 'pending') document.title = documentTitle(match);
  }, [resolution.kind, pathname]); // `match` follows from the path and the city list

  // /auth shows home with the auth sidebar open; a signed-in user (also right after signing in
  // there) is sent home.
  const signedIn = user !== null;
  useEffect(() => {
    if (match?.id !== 'auth') return;
    if (signedIn) navigate('/', { replace: true });
    else emit('auth:open', { mode: 'login' });
  }, [match?.id, signedIn]);

  let content;
  if (resolution.kind === 'pending') {
    content = <Skeleton height={240} />;
  } else if (resolution.kind === 'not-found') {
    content = <NotFound />;
  } else if (resolution.route.mfe === 'shell') {
    content = <ShellPage route={resolution.match} search={search} />;
  } else {
    const route = { ...resolution.match, pageType: effectivePageType(resolution.match, location !== null) };
    content = (
      <RemoteBoundary key={resolution.route.mfe} mfe={resolution.route.mfe} expose="App" props={{ route, path: pathname }} resetKey={pathname} />
    );
  }

  const pageType = match ? effectivePageType(match, location !== null) : 'NOT_FOUND';
  return (
    <>
      <OfflineBanner />
      <Header pageType={pageType} location={location} cartCount={cartCount} user={user} />
      <main className="shell-main" data-route-id={match?.id ?? (resolution.kind === 'not-found' ? 'not-found' : undefined)}>
        {content}
      </main>
      {footerVisible(match?.id ?? null) ? <Footer cities={cities} pageType={pageType} /> : null}
      <ToastHost />
      <AuthSidebarSlot />
      <LocationSidebarSlot />
    </>
  );
}

export function App({ loader }: { loader: RemoteLoader }) {
  return (
    <AppErrorBoundary>
      <RemoteLoaderContext.Provider value={loader}>
        <Page />
      </RemoteLoaderContext.Provider>
    </AppErrorBoundary>
  );
}
