/**
 * Where `/redirect?prevPath=…` may send the user: a valid http(s) URL or a
 * path on this origin; anything else (javascript:, protocol-relative //host, garbage) goes home.
 */
export function safeRedirectTarget(prevPath: string | null, origin: string): string {
  if (!prevPath) return '/';
  if (prevPath.startsWith('/') && !prevPath.startsWith('//') && !prevPath.startsWith('/\\')) return prevPath;
  try {
    const url = new URL(prevPath);
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : url.href;
    }
  } catch {
    // not a URL
  }
  return '/';
}
