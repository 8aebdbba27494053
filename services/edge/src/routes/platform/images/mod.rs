//! `GET /images/<id>?w=&h=`: the catalogue's pictures. The catalogue has no photographs, so each id
//! gets a generated SVG illustration. The id says what to draw (`dish-biryani-…`,
//! `restaurant-south-indian-…`, read through the catalogue format's `picture` vocabulary, never
//! the catalogue itself): a dish of that kind on a light background, or the cuisine's signature
//! dish on a laid table. Everything else (colours, garnish, counts, a small turn) is drawn from
//! the id's hash, so the same id always gives the same bytes and the reply is cached for a year as
//! immutable. Old ids (`item-<n>`, `restaurant-<n>`) draw a generic plated dish.
//!
//! Modules: `dishes` (one drawing per kind of dish) and `pen` (the id's draws and shared shapes).
//! Rendering writes into one string sized for the largest picture: this is on every listing and
//! menu view.

mod dishes;
mod pen;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Deserialize;

use tiffin_catalog_format::picture::{Cuisine, DishKind, Picture};

use crate::infra::static_files::IMMUTABLE;
use pen::{Draws, put};

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

/// Room for the largest picture, so the string never grows while it is written.
const CAPACITY: usize = 8 * 1024;

/// The SVG for `id`. The drawing lives in a 508×320 box, scaled to cover the requested size.
pub fn render(id: &str, width: u32, height: u32) -> String {
    let mut draw = Draws::of(id);
    let mut svg = String::with_capacity(CAPACITY);
    put!(
        &mut svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 508 320" preserveAspectRatio="xMidYMid slice" role="img" aria-label="{id}">"##
    );
    match Picture::of(id) {
        Picture::Dish(kind) => {
            backdrop(&mut svg, &mut draw, LIGHT);
            // A small turn, and sometimes a mirror image, so neighbours on a menu differ.
            let turn = draw.int(-5, 5);
            let mirror = if draw.chance(5) {
                " translate(508 0) scale(-1 1)"
            } else {
                ""
            };
            put!(
                &mut svg,
                r##"<g transform="rotate({turn} 254 165){mirror}">"##
            );
            dishes::draw(&mut svg, &mut draw, kind);
            svg.push_str("</g>");
        }
        Picture::Restaurant(cuisine) => restaurant(&mut svg, &mut draw, cuisine),
        Picture::Other => {
            backdrop(&mut svg, &mut draw, RICH);
            dishes::draw(&mut svg, &mut draw, DishKind::Plate);
        }
    }
    svg.push_str("</svg>");
    svg
}

/// Background colours, as pairs for a gradient: light ones behind a dish, so the food stands out,
/// and deeper ones behind a restaurant's table.
const LIGHT: &[(&str, &str)] = &[
    ("#fbe9d0", "#f6d2a8"),
    ("#fdf1dc", "#f3d9b5"),
    ("#f9e0d4", "#f2c2ab"),
    ("#eef3e2", "#d8e6c2"),
    ("#e6f0f2", "#c9dfe4"),
    ("#fbeed5", "#efcf95"),
    ("#f6e4ee", "#e9c6d6"),
];
const RICH: &[(&str, &str)] = &[
    ("#f08a4b", "#d9542b"),
    ("#f2b544", "#e07b24"),
    ("#e8634a", "#b83a2e"),
    ("#7fb069", "#4d8a3e"),
    ("#5fa8b8", "#2f7d8f"),
    ("#c06c84", "#8e3b5c"),
];

fn backdrop(svg: &mut String, draw: &mut Draws, colours: &[(&str, &str)]) {
    let (from, to) = draw.pick(colours);
    let angle = draw.next(4) * 30;
    put!(
        svg,
        r##"<defs><linearGradient id="bg" gradientTransform="rotate({angle} .5 .5)"><stop offset="0" stop-color="{from}"/><stop offset="1" stop-color="{to}"/></linearGradient></defs><rect width="508" height="320" fill="url(#bg)"/>"##
    );
}

/// A restaurant: its cuisine's signature dish on a table laid for a meal, with a side dish and
/// cutlery; the table's colour and the side vary by the id.
fn restaurant(svg: &mut String, draw: &mut Draws, cuisine: Option<Cuisine>) {
    let (hero, side) = cuisine.map_or((DishKind::Plate, DishKind::Chai), signature);
    backdrop(svg, draw, RICH);
    // A tablecloth's weave over the colour.
    svg.push_str(
        r##"<path d="M0 40H508M0 120H508M0 200H508M0 280H508M60 0V320M188 0V320M316 0V320M444 0V320" stroke="#fff" stroke-opacity=".12" stroke-width="26"/>"##,
    );
    svg.push_str(r##"<g transform="translate(-14 14) scale(.9)">"##);
    dishes::draw(svg, draw, hero);
    svg.push_str(r##"</g><g transform="translate(372 176) scale(.34)">"##);
    dishes::draw(svg, draw, side);
    svg.push_str("</g>");
    // A fork and a spoon at the side.
    svg.push_str(
        r##"<g fill="#f4f1ea" opacity=".95"><rect x="22" y="70" width="9" height="200" rx="4"/><path d="M12 70v44a14 14 0 0 0 28 0V70h-5v40h-4V70h-5v40h-4V70z"/><rect x="474" y="40" width="9" height="130" rx="4"/><ellipse cx="478" cy="32" rx="14" ry="22"/></g>"##,
    );
}

/// The dish a cuisine is known by, and one that is often ordered with it.
fn signature(cuisine: Cuisine) -> (DishKind, DishKind) {
    use DishKind as K;
    match cuisine {
        Cuisine::NorthIndian => (K::Curry, K::Bread),
        Cuisine::Biryani => (K::Biryani, K::Salad),
        Cuisine::SouthIndian => (K::Dosa, K::Coffee),
        Cuisine::Chinese => (K::Noodles, K::Soup),
        Cuisine::Pizzas => (K::Pizza, K::Juice),
        Cuisine::Burgers => (K::Burger, K::Fries),
        Cuisine::Cafe => (K::Coffee, K::Cake),
        Cuisine::RollsWraps => (K::Roll, K::Juice),
        Cuisine::Desserts => (K::IceCream, K::Cake),
        Cuisine::Sweets => (K::Mithai, K::GulabJamun),
        Cuisine::Momos => (K::Momos, K::Soup),
        Cuisine::StreetFood => (K::PavBhaji, K::Chai),
        Cuisine::Mughlai => (K::Kebab, K::Bread),
        Cuisine::HealthyFood => (K::Salad, K::Juice),
        Cuisine::Continental => (K::Pasta, K::Juice),
        Cuisine::Andhra => (K::Thali, K::Lassi),
        Cuisine::Chettinad => (K::Starter, K::Bread),
        Cuisine::Kerala => (K::Fish, K::Bread),
        Cuisine::Bengali => (K::Fish, K::Rasgulla),
        Cuisine::Gujarati => (K::Thali, K::Samosa),
        Cuisine::Maharashtrian => (K::PavBhaji, K::Chai),
        Cuisine::Chaat => (K::Chaat, K::Lassi),
        Cuisine::Beverages => (K::Shake, K::Juice),
    }
}

#[cfg(test)]
mod tests {
    use tiffin_catalog_format::picture;

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

    /// Every picture the catalogue can ask for: each kind of dish and each cuisine, a few ids each.
    fn every_picture() -> impl Iterator<Item = String> {
        let dishes = DishKind::ALL.iter().flat_map(|&kind| {
            (0..6).map(move |n| picture::dish_image_id(kind, 1_000_000_001 + n * 7))
        });
        let restaurants = Cuisine::ALL.iter().flat_map(|&cuisine| {
            (0..4).map(move |n| picture::restaurant_image_id(Some(cuisine), 1_000_000 + n))
        });
        dishes.chain(restaurants)
    }

    /// Parses the SVG as XML and checks it is one `<svg>` image of the requested size.
    fn assert_valid_svg(id: &str, svg: &str, width: u32, height: u32) {
        let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{id}: {e}\n{svg}"));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg", "{id}");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        assert_eq!(
            root.attribute("width"),
            Some(width.to_string().as_str()),
            "{id}"
        );
        assert_eq!(
            root.attribute("height"),
            Some(height.to_string().as_str()),
            "{id}"
        );
        assert_eq!(root.attribute("viewBox"), Some("0 0 508 320"), "{id}");
        assert!(root.descendants().count() > 10, "{id}: an empty picture");
    }

    #[test]
    fn every_kind_and_cuisine_draws_a_valid_small_svg() {
        for id in every_picture() {
            let svg = render(&id, 508, 320);
            assert_valid_svg(&id, &svg, 508, 320);
            // Small enough to send on every card, and never past the string's first allocation.
            assert!(svg.len() <= CAPACITY, "{id}: {} bytes", svg.len());
        }
    }

    #[test]
    fn old_and_unknown_ids_still_draw_a_dish() {
        for id in [
            "item-88001",
            "restaurant-1042",
            "collection-83951",
            "banner-1",
            "cuisine-north-indian",
            "dish-hotdog-7",
        ] {
            let svg = render(id, 254, 160);
            assert_valid_svg(id, &svg, 254, 160);
        }
        // An old dish id is the generic plated dish.
        assert!(
            render("item-88001", 80, 80).contains(r#"<circle cx="254" cy="165" r="62""#),
            "the generic plate's food"
        );
    }

    /// The picture without its `aria-label` (which repeats the id), to compare two ids' drawings.
    fn strip_label(svg: &str) -> String {
        let start = svg.find("aria-label=").expect("labelled");
        let end = start + svg[start..].find('>').expect("closed");
        format!("{}{}", &svg[..start], &svg[end..])
    }

    #[test]
    fn the_same_id_draws_the_same_bytes() {
        for id in every_picture() {
            assert_eq!(render(&id, 508, 320), render(&id, 508, 320), "{id}");
        }
    }

    #[test]
    fn different_kinds_draw_different_pictures_and_ids_vary_a_kind() {
        let mut seen = std::collections::HashSet::new();
        for &kind in DishKind::ALL {
            // The same number under every kind: only the kind differs between these ids.
            let svg = strip_label(&render(&picture::dish_image_id(kind, 42), 508, 320));
            assert!(seen.insert(svg), "{kind:?} draws what another kind draws");
        }
        for &cuisine in Cuisine::ALL {
            let svg = strip_label(&render(
                &picture::restaurant_image_id(Some(cuisine), 42),
                508,
                320,
            ));
            assert!(
                seen.insert(svg),
                "{cuisine:?} draws what another picture draws"
            );
        }
        // Within a kind, a menu's dishes are not copies of one another.
        let menu: std::collections::HashSet<String> = (1..=12)
            .map(|n| {
                strip_label(&render(
                    &picture::dish_image_id(DishKind::Curry, 104_200_000 + n),
                    508,
                    320,
                ))
            })
            .collect();
        assert_eq!(menu.len(), 12);
    }

    #[test]
    fn dishes_and_restaurants_draw_what_their_ids_name() {
        assert!(
            render("dish-biryani-1", 10, 10).contains("M156 132C136 196"),
            "a biryani comes in its handi"
        );
        assert!(
            render("dish-pizza-1", 10, 10).contains(r##"r="98" fill="#f6d37a""##),
            "a pizza has its cheese"
        );
        let south_indian = render("restaurant-south-indian-1000045", 10, 10);
        assert!(
            south_indian.contains("M92 170L400 124"),
            "a dosa leads a South Indian table"
        );
        assert!(
            south_indian.contains(r#"<rect x="22" y="70""#),
            "restaurants have cutlery"
        );
        let svg = render("restaurant-biryani-1000042", 254, 160);
        assert!(
            svg.starts_with("<svg")
                && svg.ends_with("</svg>")
                && svg.contains(r#"width="254" height="160""#)
        );
    }
}
