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
