//! `GET /images/<id>?w=&h=`: the catalogue's pictures. The catalogue has no photographs, so each id
//! gets a generated SVG: a warm gradient and a plate (restaurants) or a bowl (dishes), with colours
//! and garnish derived from the id alone. The same id always gives the same bytes, so the reply is
//! cached for a year as immutable.

use std::fmt::Write;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Deserialize;

use crate::infra::static_files::IMMUTABLE;

/// The contract's default image size.
pub const DEFAULT_WIDTH: u32 = 508;
pub const DEFAULT_HEIGHT: u32 = 320;
/// Sizes are clamped to this range: below it nothing is recognisable, above it is a waste.
const MIN_SIDE: u32 = 16;
const MAX_SIDE: u32 = 2048;

#[derive(Debug, Deserialize)]
pub struct Size {
    w: Option<String>,
    h: Option<String>,
}

/// The handler. Ids are `[a-z0-9-]{1,64}` (what the catalogue issues); anything else is a 404.
pub async fn image(
    id: Result<Path<String>, PathRejection>,
    size: Result<Query<Size>, QueryRejection>,
) -> Response {
    let Ok(Path(id)) = id else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if !valid_id(&id) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let (width, height) = match size {
        Ok(Query(size)) => dimensions(size.w.as_deref(), size.h.as_deref()),
        Err(_) => (DEFAULT_WIDTH, DEFAULT_HEIGHT),
    };
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("image/svg+xml"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE)),
        ],
        render(&id, width, height),
    )
        .into_response()
}

pub fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Width and height from the query, clamped; one side alone keeps the default aspect ratio.
pub fn dimensions(w: Option<&str>, h: Option<&str>) -> (u32, u32) {
    let side = |v: Option<&str>| {
        v.and_then(|v| v.trim().parse::<u32>().ok())
            .map(|v| v.clamp(MIN_SIDE, MAX_SIDE))
    };
    let scale = |v: u32, num: u32, den: u32| {
        ((u64::from(v) * u64::from(num) + u64::from(den) / 2) / u64::from(den)) as u32
    };
    match (side(w), side(h)) {
        (Some(w), Some(h)) => (w, h),
        (Some(w), None) => (
            w,
            scale(w, DEFAULT_HEIGHT, DEFAULT_WIDTH).clamp(MIN_SIDE, MAX_SIDE),
        ),
        (None, Some(h)) => (
            scale(h, DEFAULT_WIDTH, DEFAULT_HEIGHT).clamp(MIN_SIDE, MAX_SIDE),
            h,
        ),
        (None, None) => (DEFAULT_WIDTH, DEFAULT_HEIGHT),
    }
}

/// FNV-1a: stable across builds and platforms (unlike std's hasher), which the year-long cache needs.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A stream of small numbers drawn from the id's hash.
struct Draws(u64);

impl Draws {
    fn next(&mut self, below: u64) -> u64 {
        // xorshift64*: enough spread for picking colours and positions.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % below.max(1)
    }
}

/// The SVG for `id`. The drawing lives in a 508×320 box, scaled to cover the requested size.
pub fn render(id: &str, width: u32, height: u32) -> String {
    let mut draw = Draws(fnv1a(id) | 1);
    // Warm hues only: reds through ambers.
    let hue = draw.next(40);
    let hue2 = hue + 12 + draw.next(24);
    let (sat, light) = (70 + draw.next(20), 50 + draw.next(10));
    let angle = draw.next(4) * 30;
    let food_hue = draw.next(50);
    let mut svg = String::with_capacity(2048);
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 508 320" preserveAspectRatio="xMidYMid slice" role="img" aria-label="{id}">"##
    );
    let _ = write!(
        svg,
        r##"<defs><linearGradient id="bg" gradientTransform="rotate({angle} .5 .5)"><stop offset="0" stop-color="hsl({hue},{sat}%,{light}%)"/><stop offset="1" stop-color="hsl({hue2},{sat}%,{}%)"/></linearGradient></defs><rect width="508" height="320" fill="url(#bg)"/>"##,
        light + 12
    );
    if id.starts_with("item-") {
        bowl(&mut svg, food_hue, &mut draw);
    } else {
        plate(&mut svg, food_hue, &mut draw, id.starts_with("restaurant-"));
    }
    svg.push_str("</svg>");
    svg
}

/// A plate seen from above; restaurants also get cutlery beside it.
fn plate(svg: &mut String, food_hue: u64, draw: &mut Draws, cutlery: bool) {
    svg.push_str(r##"<ellipse cx="254" cy="172" rx="118" ry="112" fill="#000" opacity=".12"/>"##);
    svg.push_str(r##"<circle cx="254" cy="160" r="112" fill="#fffaf2"/><circle cx="254" cy="160" r="84" fill="#f3e9da"/>"##);
    let _ = write!(
        svg,
        r##"<circle cx="254" cy="160" r="58" fill="hsl({food_hue},65%,45%)"/>"##
    );
    garnish(svg, draw, 254, 160, 40);
    if cutlery {
        svg.push_str(
            r##"<rect x="96" y="70" width="10" height="180" rx="5" fill="#fffaf2" opacity=".9"/>"##,
        );
        svg.push_str(r##"<path d="M86 70v40a15 15 0 0 0 30 0V70" fill="none" stroke="#fffaf2" stroke-width="6" opacity=".9"/>"##);
        svg.push_str(r##"<path d="M412 70c-14 20-14 60 0 80v100" fill="none" stroke="#fffaf2" stroke-width="10" stroke-linecap="round" opacity=".9"/>"##);
    }
}

/// A bowl from the side, with food on top and steam.
fn bowl(svg: &mut String, food_hue: u64, draw: &mut Draws) {
    svg.push_str(r##"<ellipse cx="254" cy="262" rx="130" ry="16" fill="#000" opacity=".12"/>"##);
    svg.push_str(r##"<path d="M124 160h260a130 100 0 0 1-260 0z" fill="#fffaf2"/>"##);
    let _ = write!(
        svg,
        r##"<ellipse cx="254" cy="160" rx="130" ry="26" fill="hsl({food_hue},65%,45%)"/>"##
    );
    garnish(svg, draw, 254, 156, 100);
    svg.push_str(r##"<path d="M124 160a130 26 0 0 0 260 0" fill="none" stroke="#f3e9da" stroke-width="6"/>"##);
    for x in [214, 254, 294] {
        let _ = write!(
            svg,
            r##"<path d="M{x} 118c-12-14 12-24 0-40" fill="none" stroke="#fffaf2" stroke-width="5" stroke-linecap="round" opacity=".7"/>"##
        );
    }
}

/// A few herb and spice dots on the food.
fn garnish(svg: &mut String, draw: &mut Draws, cx: u64, cy: u64, spread: u64) {
    for _ in 0..(3 + draw.next(4)) {
        let x = cx + draw.next(spread) - spread / 2;
        let y = cy + draw.next(spread / 3 + 1) - spread / 6;
        let colour = if draw.next(2) == 0 {
            "#3f8f3a"
        } else {
            "#fff3c4"
        };
        let _ = write!(
            svg,
            r##"<circle cx="{x}" cy="{y}" r="{}" fill="{colour}"/>"##,
            4 + draw.next(5)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_lowercase_words_and_digits() {
        assert!(valid_id("restaurant-1042"));
        for bad in ["", "Restaurant-1", "../etc", "a b", &"x".repeat(65)] {
            assert!(!valid_id(bad), "{bad}");
        }
    }

    #[test]
    fn sizes_default_clamp_and_keep_the_aspect_ratio() {
        assert_eq!(dimensions(None, None), (508, 320));
        assert_eq!(dimensions(Some("x"), None), (508, 320));
        assert_eq!(dimensions(Some("100000"), Some("1")), (2048, 16));
        assert_eq!(dimensions(Some("254"), None), (254, 160));
        assert_eq!(dimensions(None, Some("160")), (254, 160));
    }

    #[test]
    fn the_same_id_draws_the_same_picture_and_kinds_differ() {
        assert_eq!(
            render("item-88001", 508, 320),
            render("item-88001", 508, 320)
        );
        assert_ne!(
            render("item-88001", 508, 320),
            render("item-88002", 508, 320)
        );
        assert!(
            render("item-1", 10, 10).contains("M124 160h260"),
            "dishes are bowls"
        );
        assert!(
            render("restaurant-1", 10, 10).contains(r#"<rect x="96""#),
            "restaurants have cutlery"
        );
        let svg = render("restaurant-1042", 254, 160);
        assert!(
            svg.starts_with("<svg")
                && svg.ends_with("</svg>")
                && svg.contains(r#"width="254" height="160""#)
        );
    }
}
