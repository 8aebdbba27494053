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
}
