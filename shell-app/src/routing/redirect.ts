/**
 * Where `/redirect?prevPath=…` may take the user without leaving the page: a path on this origin
 * (or a URL on it, as its path). Anything else is `null`: the page is then loaded from the edge,
 * which alone decides whether another host is allowed (its `EDGE_REDIRECT_HOSTS`) and otherwise
 * sends the user home. The rule for paths is the edge's (services/edge, routes/platform/redirect.rs):
 * printable ASCII only (browsers drop tabs and newlines, turning `/<TAB>/evil` into `//evil`), no
 * backslash (`/\evil` reads as `//evil`), never `//host`.
 */
export function sameOriginTarget(prevPath: string | null, origin: string): string | null {
  if (!prevPath) return '/';
  if (!/^[\x21-\x7e]+$/.test(prevPath) || prevPath.includes('\\')) return null;
  if (prevPath.startsWith('/')) return prevPath.startsWith('//') ? null : prevPath;
  try {
    const url = new URL(prevPath);
    if (url.origin === origin) return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    // not a URL
  }
  return null;
}
