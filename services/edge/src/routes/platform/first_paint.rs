//! The page's first paint: a picture of the route's first screen written into the HTML, so a phone
//! shows the page (its pictures included) while the scripts are still on their way, instead of a
//! blank screen until React has run.
//!
//! The microfrontend that owns the route owns the picture: its build publishes, beside its
//! `remoteEntry.js`, a `first-paint.json` naming a template per route (Jinja syntax, rendered here
//! with minijinja, HTML-escaped) and `first-paint.css`, the stylesheets those templates rely on.
//! A template sees only what this page already carries for this visitor: the first reply
//! (`first_page`) with its status code, the signed-in visitor's name, the route id, the path and
//! whether they show a menu's vegetarian dishes only. The edge wraps the
//! result in an element the shell removes once the microfrontend has drawn the real page; it is
//! hidden from assistive technology and lets clicks through to the page beneath.
//!
//! Anything short of a clean render (no `first-paint.json`, no template for the route, a template
//! error, an empty result) leaves the first paint out: the page is served as before.

use axum_extra::extract::cookie::CookieJar;
use http::HeaderMap;
use serde::Deserialize;
use std::collections::BTreeMap;

use crate::infra::state::AppState;
use crate::routes::platform::preloads::{entry_folder, route_entry};

/// The element id the shell removes once the real page is drawn.
pub const FIRST_PAINT_ID: &str = "tiffin-first-paint";
/// The comment in the shell's `index.html` the first paint replaces.
pub const PLACEHOLDER: &str = "<!--tiffin:first-paint-->";
/// The cookie the menu page keeps while the visitor shows vegetarian dishes only (the preference
/// itself lives in the browser's storage, which the edge cannot read).
const VEG_ONLY_COOKIE: &str = "tfn_veg_only";
/// A template's output larger than this is a mistake (a loop over a whole menu), not a first screen.
const MAX_HTML: usize = 64 * 1024;

/// A remote's `first-paint.json`.
#[derive(Debug, Default, Deserialize)]
struct Published {
    /// The stylesheet the templates rely on, a file in the entry's folder.
    #[serde(default)]
    styles: Option<String>,
    /// By route id (and `<route id>+located`, as in `preload.json`).
    #[serde(default)]
    routes: BTreeMap<String, RouteTemplate>,
}

#[derive(Debug, Deserialize)]
struct RouteTemplate {
    /// The template's path under the entry's folder.
    template: String,
    /// Whether the shell's header sits above this page (not on the landing page): the first paint
    /// then keeps the header's room free.
    #[serde(default = "yes")]
    header: bool,
}

fn yes() -> bool {
    true
}

/// What the page needs for its first paint: a stylesheet for the head and the element for the body.
/// The stylesheet's rules are all scoped to the element by the remote's build (`#tiffin-first-paint
/// …`), so the page's own styles, arriving after it in the head, cannot move the picture, and it
/// styles nothing once the picture is gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Painted {
    pub style: String,
    pub body: String,
}

/// What a template may read.
#[derive(Debug, Clone, Copy)]
pub struct PaintInput<'a> {
    /// The route's microfrontend entry, as the live manifest names it.
    pub entry: &'a str,
    pub route_id: &'a str,
    pub path: &'a str,
    pub located: bool,
    /// The `data` and `statusCode` of the page's first reply, when the page carries one.
    pub reply: Option<(&'a serde_json::value::RawValue, u32)>,
    /// The signed-in visitor's name (`''` when they have not given one) and mobile number;
    /// `None` for a guest. Nothing else of theirs: a template needs no more to greet them.
    pub user: Option<(&'a str, &'a str)>,
    /// The visitor shows a menu's vegetarian dishes only.
    pub veg_only: bool,
}

/// Whether the request's cookies say the visitor shows vegetarian dishes only.
pub fn veg_only(headers: &HeaderMap) -> bool {
    CookieJar::from_headers(headers)
        .get(VEG_ONLY_COOKIE)
        .is_some_and(|c| c.value() == "1")
}

/// The route's first paint, or `None` (see the module's comment).
pub async fn first_paint(state: &AppState, input: PaintInput<'_>) -> Option<Painted> {
    let folder = entry_folder(input.entry)?;
    let dir = state
        .settings
        .static_dir
        .join(folder.trim_start_matches('/'));
    let published: Published = match tokio::fs::read(dir.join("first-paint.json")).await {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| tracing::warn!(folder, error = %e, "first-paint.json unreadable: page served without a first paint"))
            .ok()?,
        // An older build, or a microfrontend that paints nothing first.
        Err(_) => return None,
    };
    let chosen = route_entry(&published.routes, input.route_id, input.located)?;
    if !is_plain_file(&chosen.template) {
        tracing::warn!(folder, template = %chosen.template, "first-paint template outside its folder: ignored");
        return None;
    }
    let source = tokio::fs::read_to_string(dir.join(&chosen.template))
        .await
        .map_err(|e| tracing::warn!(folder, template = %chosen.template, error = %e, "first-paint template unreadable"))
        .ok()?;
    let style = match published.styles.as_deref() {
        Some(file) if is_plain_file(file) => tokio::fs::read_to_string(dir.join(file))
            .await
            .map_err(|e| tracing::warn!(folder, error = %e, "first-paint styles unreadable"))
            .ok()?,
        _ => String::new(),
    };
    let html = render(&chosen.template, &source, &input)?;
    // A stylesheet is ours, but a `</style` in it would end the element early.
    if style.to_ascii_lowercase().contains("</style") {
        tracing::warn!(
            folder,
            "first-paint styles hold </style: page served without a first paint"
        );
        return None;
    }
    Some(Painted {
        style: format!("<style>{style}</style>"),
        body: wrap(&html, chosen.header),
    })
}

/// The template's output, or `None` when it fails, says nothing or says far too much.
fn render(name: &str, source: &str, input: &PaintInput<'_>) -> Option<String> {
    let mut env = minijinja::Environment::new();
    // Every value is HTML-escaped whatever the template's file is called: minijinja escapes by the
    // name's extension by default, so a template published as `cart.jinja` or `cart` would
    // write a restaurant's or a customer's text into the page as markup.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    // A missing field reads as undefined, which templates test for; nothing else is lenient.
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Chainable);
    env.add_function("image_url", image_url);
    if let Err(e) = env.add_template(name, source) {
        tracing::warn!(template = name, error = %e, "first-paint template does not parse");
        return None;
    }
    let reply = input
        .reply
        .and_then(|(raw, _)| serde_json::from_str::<serde_json::Value>(raw.get()).ok());
    let status_code = input.reply.map(|(_, code)| code);
    let user = input
        .user
        .map(|(name, mobile)| minijinja::context! { name => name, mobile => mobile });
    let context = minijinja::context! {
        reply => reply,
        status_code => status_code,
        user => user,
        veg_only => input.veg_only,
        route => input.route_id,
        path => input.path,
    };
    let html = env
        .get_template(name)
        .and_then(|t| t.render(context))
        .map_err(|e| tracing::warn!(template = name, error = %e, "first-paint template failed"))
        .ok()?;
    if html.trim().is_empty() {
        return None;
    }
    if html.len() > MAX_HTML {
        tracing::warn!(
            template = name,
            bytes = html.len(),
            "first paint too large: left out"
        );
        return None;
    }
    Some(html)
}

/// The element the shell removes; its class names are the shell's (its `index.html` styles them).
fn wrap(html: &str, header: bool) -> String {
    let room = if header {
        r#"<div class="shell-first-paint__header"></div>"#
    } else {
        ""
    };
    format!(
        r#"<div id="{FIRST_PAINT_ID}" class="shell-first-paint" aria-hidden="true">{room}<div class="shell-main">{html}</div></div>"#
    )
}

/// The design system's picture address: `/images/<id>?w=&h=`, the id encoded as JavaScript's
/// `encodeURIComponent` does, so the browser finds the same request the page will make.
fn image_url(id: String, w: Option<u32>, h: Option<u32>) -> String {
    // Every byte but ASCII letters, digits and `-_.!~*'()`.
    const COMPONENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'!')
        .remove(b'~')
        .remove(b'*')
        .remove(b'\'')
        .remove(b'(')
        .remove(b')');
    format!(
        "/images/{}?w={}&h={}",
        percent_encoding::utf8_percent_encode(&id, COMPONENT),
        w.unwrap_or(DEFAULT_IMAGE.0),
        h.unwrap_or(DEFAULT_IMAGE.1)
    )
}

/// The design system's default picture size (`tokens.image`).
const DEFAULT_IMAGE: (u32, u32) = (508, 320);

/// A path inside the entry's folder: names and `/`, no way up, nothing hidden.
fn is_plain_file(file: &str) -> bool {
    !file.is_empty()
        && !file.starts_with('/')
        && file.split('/').all(|segment| {
            !segment.is_empty()
                && !segment.starts_with('.')
                && segment
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    fn input<'a>(reply: Option<&'a RawValue>, user: Option<(&'a str, &'a str)>) -> PaintInput<'a> {
        PaintInput {
            entry: "/mfe/mfe-discovery/1/remoteEntry.js",
            route_id: "listing",
            path: "/restaurants",
            located: true,
            reply: reply.map(|raw| (raw, 0)),
            user,
            veg_only: false,
        }
    }

    const CARDS: &str = "{% if reply and reply.restaurants %}<ul>{% for r in reply.restaurants[:2] %}<li><img src=\"{{ image_url(r.imageId) }}\"><h3>{{ r.name }}</h3></li>{% endfor %}</ul>{% endif %}{% if user %}<p>{{ user.name }}</p>{% endif %}";

    #[test]
    fn a_template_writes_the_reply_escaped_and_pictures_as_the_page_asks_for_them() {
        let reply = RawValue::from_string(
            r#"{"restaurants":[{"name":"<script>alert(1)</script> & Co","imageId":"dish/a b+c"},{"name":"Second","imageId":"x"},{"name":"Third","imageId":"y"}]}"#.into(),
        )
        .unwrap();
        let html = render(
            "listing.html",
            CARDS,
            &input(Some(&reply), Some(("Asha \"A\"", "9876543210"))),
        )
        .unwrap();
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt; &amp; Co"),
            "{html}"
        );
        assert!(!html.contains("<script>"), "{html}");
        // Escaped as any value is; the browser reads the attribute back to the page's address.
        assert!(
            html.contains(r#"src="&#x2f;images&#x2f;dish%2Fa%20b%2Bc?w=508&amp;h=320""#),
            "{html}"
        );
        assert!(html.contains("Second") && !html.contains("Third"), "{html}");
        assert!(html.contains("Asha &quot;A&quot;"), "{html}");
    }

    #[test]
    fn a_template_escapes_whatever_its_file_is_called() {
        let reply = RawValue::from_string(
            r#"{"restaurants":[{"name":"<script>alert(1)</script>","imageId":"x"}]}"#.into(),
        )
        .unwrap();
        for name in ["listing", "listing.jinja", "listing.txt", "listing.HTML.j2"] {
            let html = render(name, CARDS, &input(Some(&reply), None)).unwrap();
            assert!(!html.contains("<script>"), "{name}: {html}");
            assert!(html.contains("&lt;script&gt;"), "{name}: {html}");
        }
    }

    #[test]
    fn nothing_to_show_is_no_first_paint() {
        assert_eq!(render("listing.html", CARDS, &input(None, None)), None);
        let empty = RawValue::from_string(r#"{"restaurants":[]}"#.into()).unwrap();
        assert_eq!(
            render("listing.html", CARDS, &input(Some(&empty), None)),
            None
        );
    }

    #[test]
    fn a_broken_template_is_no_first_paint() {
        assert_eq!(render("x.html", "{% for %}", &input(None, None)), None);
        assert_eq!(
            render(
                "x.html",
                "{{ reply.a.b.c | no_such_filter }}",
                &input(None, None)
            ),
            None
        );
        let huge = "{% for i in range(100000) %}xxxxxxxx{% endfor %}";
        assert_eq!(render("x.html", huge, &input(None, None)), None);
    }

    #[test]
    fn a_template_can_tell_a_reply_shown_with_a_warning_from_a_plain_one() {
        let cart = RawValue::from_string(r#"{"cartItems":[{"name":"Dosa"}]}"#.into()).unwrap();
        let template = "{% if status_code == 0 %}{% for i in reply.cartItems %}<p>{{ i.name }}</p>{% endfor %}{% endif %}";
        let mut plain = input(Some(&cart), None);
        assert_eq!(
            render("cart.html", template, &plain).as_deref(),
            Some("<p>Dosa</p>")
        );
        plain.reply = Some((&cart, 8));
        assert_eq!(render("cart.html", template, &plain), None);
    }

    #[test]
    fn only_the_veg_only_cookie_set_to_1_says_veg_only() {
        let with = |cookie: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(http::header::COOKIE, cookie.parse().unwrap());
            veg_only(&headers)
        };
        assert!(with("a=b; tfn_veg_only=1"));
        assert!(!with("tfn_veg_only=0"));
        assert!(!with("tfn_veg_only="));
        assert!(!veg_only(&HeaderMap::new()));
    }

    #[test]
    fn picture_addresses_match_encode_uri_component() {
        assert_eq!(
            image_url("r/1".into(), None, None),
            "/images/r%2F1?w=508&h=320"
        );
        assert_eq!(
            image_url("a-b_c.d!~*'()é".into(), Some(254), Some(160)),
            "/images/a-b_c.d!~*'()%C3%A9?w=254&h=160"
        );
    }

    #[test]
    fn only_files_inside_the_folder_are_read() {
        assert!(is_plain_file("first-paint/listing.html"));
        assert!(is_plain_file("first-paint.css"));
        for file in [
            "",
            "/etc/passwd",
            "../x.html",
            "a/../b",
            ".hidden",
            "a//b",
            "a\\b",
        ] {
            assert!(!is_plain_file(file), "{file}");
        }
    }

    #[test]
    fn the_wrapper_keeps_the_headers_room_only_where_the_header_is() {
        assert!(wrap("<p>x</p>", true).contains("shell-first-paint__header"));
        assert!(!wrap("<p>x</p>", false).contains("shell-first-paint__header"));
        assert!(wrap("<p>x</p>", false).starts_with(r#"<div id="tiffin-first-paint""#));
    }
}
