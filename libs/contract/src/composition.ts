/**
 * What the shell, the remotes, the publish scripts and the edge agree on about runtime
 * composition: the route table's entries, the microfrontend manifest, and the props each
 * exposed module takes.
 */

/** Ids of the microfrontends (folder names, manifest keys, route table `mfe` values). */
export type MfeId = 'mfe-discovery' | 'mfe-cart' | 'mfe-checkout' | 'mfe-account' | 'mfe-desk';

/** Page types drive the header configuration. */
export type PageType =
  | 'HOME'
  | 'NEW_HOME'
  | 'LISTING'
  | 'LISTING_AREA'
  | 'CITY'
  | 'CITY_COLLECTION'
  | 'COLLECTION'
  | 'SEARCH'
  | 'MENU'
  | 'CART'
  | 'OFFERS'
  | 'CHECKOUT'
  | 'WEB_PAYMENTS'
  | 'TRACKING'
  | 'ACCOUNT'
  | 'SUPPORT'
  /** The agents' desk. */
  | 'DESK'
  | 'MEMBERSHIP'
  | 'MEMBERSHIP_CHECKOUT'
  | 'EATLIST'
  | 'STATIC'
  | 'APP'
  /** The entry page partners' apps open in their web views. */
  | 'WEBVIEW'
  | 'NOT_FOUND';

/**
 * One entry of `shell-app/src/routes.json` (published as `/shell/routes.json`). The edge reads the
 * same file to answer 200 or 404, so `pattern` must be valid in JavaScript and in Rust's `regex`
 * crate: anchored `^…$`, named groups `(?<name>…)`, no lookarounds or backreferences.
 */
export interface RouteDefinition {
  id: string;
  pattern: string;
  mfe: MfeId | 'shell';
  pageType: PageType;
  /** When true the `city` group must be a known city slug, else the next route is tried. */
  city?: boolean;
}

/** The route a remote is asked to render. */
export interface MatchedRoute {
  id: string;
  params: Record<string, string>;
  pageType: PageType;
}

/** Props of every remote's `./App`. `path` is `location.pathname`; the query stays in `location.search`. */
export interface RemoteAppProps {
  route: MatchedRoute;
  path: string;
}

/** Props of `mfe_cart/HeaderCart` (the header's cart flyout). */
export interface HeaderCartProps {
  /** Called when the flyout navigates away (checkout), so the shell can close it. */
  onClose?: () => void;
}

/** Props of `mfe_account/AuthSidebar`. The shell owns `open` so an early `auth:open` is never lost. */
export interface AuthSidebarProps {
  open: boolean;
  mode: 'login' | 'signup';
  onClose: () => void;
}

/**
 * Props of `mfe_discovery/LocationSidebar`, the module `location:open` asks for. The shell owns
 * `open` (as for the auth sidebar) so a `location:open` sent before the remote loads is never lost.
 */
export interface LocationSidebarProps {
  open: boolean;
  onClose: () => void;
}

/** One entry of `/mfe-manifest.json`, keyed by `MfeId`. */
export interface MfeManifestEntry {
  /** Federation container name, e.g. `mfe_discovery`. */
  name: string;
  /** URL of the remote's `remoteEntry.js`, e.g. `/mfe/mfe-discovery/0.1.0/remoteEntry.js`. */
  entry: string;
  version: string;
}

export type MfeManifest = Partial<Record<MfeId, MfeManifestEntry>> & Record<string, MfeManifestEntry>;
