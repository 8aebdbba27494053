//! The edge's own HTML replies: a page's HTML with the headers every page gets, and the bare
//! pages the edge writes itself when the shell cannot answer (not published, the visitor loading
//! pages too fast, the request's time spent).

use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};

use crate::http::messages;

/// Text made safe inside an HTML element or a quoted attribute.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// `html` as a page with `status`.
pub fn reply(status: StatusCode, html: String) -> Response {
    // The HTML carries this visitor's session ids (and on the cart page, their cart): revalidate
    // every time, and no shared cache may keep it.
    with_cache_control(status, html, "private, no-cache")
}

/// `html` as a page with `status` that no cache may keep at all: one carrying a form's CSRF token.
pub fn reply_unstored(status: StatusCode, html: String) -> Response {
    with_cache_control(status, html, "no-store")
}

fn with_cache_control(status: StatusCode, html: String, cache: &'static str) -> Response {
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

/// A bare page: a title, a heading and a sentence (the edge's own words, never a visitor's), and a
/// way home when `home` is set.
pub fn bare(title: &str, heading: &str, message: &str, home: bool) -> String {
    let link = if home {
        "<a href=\"/\">GO HOME</a>"
    } else {
        ""
    };
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title></head>\
         <body><main><h1>{heading}</h1><p>{message}</p>{link}</main></body></html>"
    )
}

/// The storefront's generic error page ("Uh-oh!").
pub fn error_page(status: StatusCode) -> Response {
    reply(status, bare("Tiffin", "Uh-oh!", messages::ERROR_PAGE, true))
}

/// The page for a visitor loading pages faster than the edge serves anyone: 429 with the
/// contract's wording for a storefront that is briefly unavailable, and no way to retry at once
/// (retrying at once is what got it refused).
pub fn busy_page() -> Response {
    reply(
        StatusCode::TOO_MANY_REQUESTS,
        bare(
            messages::RATE_LIMITED,
            messages::RATE_LIMITED,
            messages::RATE_LIMITED_DETAIL,
            false,
        ),
    )
}
