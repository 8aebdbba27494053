//! Headers every reply carries, and the request headers no client may send.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

/// Only the edge's own origin may supply scripts, styles, images (plus `data:` images and the map
/// tile servers it is configured with) and API calls; no one may frame the storefront
/// (clickjacking). Inline styles are allowed because the design system's components set `style`
/// attributes; inline scripts are not (the initial state is JSON data, not a script). The tile
/// origins were checked at start-up (`Settings::check`) to be plain origins.
pub fn content_security_policy(map_tile_origins: &[String]) -> String {
    let mut img_src = String::from("'self' data:");
    for origin in map_tile_origins {
        img_src.push(' ');
        img_src.push_str(origin);
    }
    format!(
        "default-src 'self'; img-src {img_src}; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
    )
}
pub const REFERRER_POLICY: &str = "strict-origin-when-cross-origin";

/// Browser features the storefront's pages may use. Geolocation is the one it needs ("Locate Me",
/// the location sidebar), and only for itself; fullscreen is left to the storefront's own maps.
/// Everything else a page could be tricked into asking for (camera, microphone, payment handlers,
/// USB and the like) is off for the storefront and for anything it embeds.
pub const PERMISSIONS_POLICY: &str = "geolocation=(self), fullscreen=(self), camera=(), \
microphone=(), payment=(), usb=(), serial=(), bluetooth=(), midi=(), magnetometer=(), \
gyroscope=(), accelerometer=(), display-capture=(), screen-wake-lock=(), xr-spatial-tracking=(), \
browsing-topics=()";

/// Behind HTTPS (`COOKIE_SECURE=1`) browsers are told to come back only over HTTPS for a year, so
/// a first request typed as `http://` cannot be intercepted and stripped of TLS. Never sent over
/// plain HTTP (`make run`), where it would be meaningless and where browsers ignore it anyway.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000; includeSubDomains";

/// Prefix of the metadata keys through which the edge states identity to services.
const IDENTITY_PREFIX: &str = "x-tiffin-";

/// Middleware: drops every client-sent `x-tiffin-*` header. The edge never forwards HTTP headers
/// to services (identity is written from the session), so this is a second wall: no code added
/// later can pass a forged `x-tiffin-user-id` through by accident.
pub async fn strip_identity_headers(mut request: Request, next: Next) -> Response {
    let forged: Vec<_> = request
        .headers()
        .keys()
        .filter(|name| name.as_str().starts_with(IDENTITY_PREFIX))
        .cloned()
        .collect();
    for name in forged {
        tracing::debug!(header = %name, "client-sent identity header dropped");
        request.headers_mut().remove(name);
    }
    next.run(request).await
}
