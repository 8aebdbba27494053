//! Where the browser says to deliver: an address id (from the body or query, else its cookie) and
//! the `userLocation` cookie's point. Only read here; whether the address is the caller's and
//! whether anything delivers there is asked of the services (`delivery`).

use axum::http::HeaderMap;
use axum_extra::extract::cookie::CookieJar;
use serde::Deserialize;

/// The browser's chosen delivery address id (the web app keeps it in a cookie and in storage).
const ADDRESS_COOKIE: &str = "deliveryAddressId";
/// The browser's chosen location (`{lat, lng, …}`, URL-encoded JSON).
const LOCATION_COOKIE: &str = "userLocation";

/// What the browser tells about where to deliver, from the body, the query and its cookies.
#[derive(Debug, Default)]
pub struct Whereabouts {
    pub address_id: Option<String>,
    pub location: Option<(f64, f64)>,
}

impl Whereabouts {
    /// The body's or query's address id, else the cookie's; the location cookie's point.
    pub fn read(headers: &HeaderMap, given: Option<&str>) -> Self {
        let jar = CookieJar::from_headers(headers);
        let address_id = given
            .map(str::to_string)
            .or_else(|| jar.get(ADDRESS_COOKIE).map(|c| c.value().to_string()))
            .map(|id| id.trim().to_string())
            .filter(|id| !id.is_empty());
        let location = jar
            .get(LOCATION_COOKIE)
            .and_then(|c| serde_json::from_str::<CookieLocation>(c.value()).ok())
            .and_then(|l| Some((l.lat.as_f64()?, l.lng.as_f64()?)))
            .filter(|(lat, lng)| {
                lat.abs() <= 90.0 && lng.abs() <= 180.0 && (*lat, *lng) != (0.0, 0.0)
            });
        Self {
            address_id,
            location,
        }
    }
}

/// The `userLocation` cookie's point; numbers or numeric strings.
#[derive(Debug, Deserialize)]
struct CookieLocation {
    lat: Coordinate,
    lng: Coordinate,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Coordinate {
    Number(f64),
    Text(String),
}

impl Coordinate {
    fn as_f64(&self) -> Option<f64> {
        match self {
            Coordinate::Number(n) => Some(*n).filter(|n| n.is_finite()),
            Coordinate::Text(s) => s.trim().parse().ok().filter(|n: &f64| n.is_finite()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(cookie: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(axum::http::header::COOKIE, cookie.parse().unwrap());
        h
    }

    #[test]
    fn the_delivery_point_is_the_given_address_then_the_cookie_address_then_the_location() {
        let location = "userLocation=%7B%22lat%22%3A%2212.9352%22%2C%22lng%22%3A77.6245%7D";
        let h = headers(&format!("{location}; deliveryAddressId=a-cookie"));

        let given = Whereabouts::read(&h, Some("a-body"));
        let from_cookie = Whereabouts::read(&h, None);
        let only_location = Whereabouts::read(&headers(location), Some("  "));

        assert_eq!(given.address_id.as_deref(), Some("a-body"));
        assert_eq!(from_cookie.address_id.as_deref(), Some("a-cookie"));
        assert_eq!(only_location.address_id, None);
        assert_eq!(only_location.location, Some((12.9352, 77.6245)));
    }

    #[test]
    fn a_location_cookie_that_is_not_a_point_is_ignored() {
        for cookie in [
            "userLocation=nope",
            "userLocation=%7B%22lat%22%3A91%2C%22lng%22%3A10%7D",
            "userLocation=%7B%22lat%22%3A%22x%22%2C%22lng%22%3A10%7D",
            "userLocation=%7B%22lat%22%3A0%2C%22lng%22%3A0%7D",
        ] {
            assert_eq!(
                Whereabouts::read(&headers(cookie), None).location,
                None,
                "{cookie}"
            );
        }
    }

    mod properties {
        use proptest::prelude::*;
        use tiffin_strategies::{
            hostile_bytes, hostile_text, numberish_text, same_float, short_hostile_text,
        };

        use super::super::*;

        /// `encodeURIComponent`, as the web writes the cookie's JSON.
        fn uri_component(text: &str) -> String {
            text.bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'!' | b'~' => {
                        (b as char).to_string()
                    }
                    _ => format!("%{b:02X}"),
                })
                .collect()
        }

        fn read(cookie_header: &[u8], given: Option<&str>) -> Option<Whereabouts> {
            let mut h = HeaderMap::new();
            h.insert(
                axum::http::header::COOKIE,
                axum::http::HeaderValue::from_bytes(cookie_header).ok()?,
            );
            Some(Whereabouts::read(&h, given))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Whatever the cookies hold, a point is on the globe and not the (0, 0) the web
            /// writes for "unknown", and an address id is trimmed and not empty.
            #[test]
            fn whereabouts_are_on_the_globe_or_absent(
                header in prop_oneof![
                    hostile_bytes(),
                    (numberish_text(), numberish_text(), short_hostile_text()).prop_map(|(lat, lng, id)| {
                        let json = serde_json::json!({ "lat": lat, "lng": lng }).to_string();
                        format!("userLocation={}; deliveryAddressId={id}", uri_component(&json)).into_bytes()
                    }),
                    (any::<f64>(), any::<f64>()).prop_map(|(lat, lng)| {
                        format!("userLocation={}", uri_component(&format!("{{\"lat\":{lat},\"lng\":{lng}}}"))).into_bytes()
                    }),
                ],
                given in proptest::option::of(hostile_text()),
            ) {
                let Some(whereabouts) = read(&header, given.as_deref()) else { return Ok(()) };
                if let Some((lat, lng)) = whereabouts.location {
                    prop_assert!(lat.is_finite() && lat.abs() <= 90.0, "{}", lat);
                    prop_assert!(lng.is_finite() && lng.abs() <= 180.0, "{}", lng);
                    prop_assert!((lat, lng) != (0.0, 0.0));
                }
                if let Some(id) = &whereabouts.address_id {
                    prop_assert!(!id.is_empty() && id.trim() == id);
                }
                if let Some(given) = given.as_deref().map(str::trim).filter(|g| !g.is_empty()) {
                    prop_assert_eq!(whereabouts.address_id.as_deref(), Some(given));
                }
            }

            /// A point the web writes (numbers or numeric strings, with its other fields) reads
            /// back exactly.
            #[test]
            fn a_written_location_cookie_reads_back_the_same_point(
                lat in -90.0f64..=90.0,
                lng in -180.0f64..=180.0,
                as_text: bool,
                label in short_hostile_text(),
            ) {
                prop_assume!((lat, lng) != (0.0, 0.0));
                let json = if as_text {
                    serde_json::json!({ "lat": lat.to_string(), "lng": lng.to_string(), "label": label })
                } else {
                    serde_json::json!({ "lat": lat, "lng": lng, "label": label })
                };
                let cookie = format!("a=1; userLocation={}", uri_component(&json.to_string()));

                let whereabouts = read(cookie.as_bytes(), None).unwrap();

                let (read_lat, read_lng) = whereabouts.location.unwrap();
                prop_assert!(same_float(read_lat, lat) && same_float(read_lng, lng), "{},{} read as {},{}", lat, lng, read_lat, read_lng);
            }
        }
    }
}
