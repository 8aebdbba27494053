//! Parsing what the browser sends, and nothing more: a coordinate must be a pair of numbers, an
//! id must be a number and a body must be JSON of the expected shape, or the call never reaches a
//! service. Whether a point is served or an id exists is the services' business.

use axum::extract::{FromRequestParts, Query};
use http::request::Parts;
use serde::de::DeserializeOwned;
use tiffin_proto::discovery::v1::LatLng;

use crate::http::error::ApiError;
use crate::http::messages;

/// Query parameters of an `/api` call. Query structs hold `Option<String>`s so that decoding only
/// fails on a broken query string; values are parsed by the functions below, with their own errors.
#[derive(Debug)]
pub struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Query(value) = Query::<T>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::BadRequest(messages::BAD_REQUEST))?;
        Ok(Params(value))
    }
}

/// A delivery point from `lat` and `lng`: both present, finite and on the globe, else
/// 400 / 1 `Invalid user location.`
pub fn location(lat: Option<&str>, lng: Option<&str>) -> Result<LatLng, ApiError> {
    let lat = coordinate(lat, 90.0)?;
    let lng = coordinate(lng, 180.0)?;
    Ok(LatLng { lat, lng })
}

/// Like [`location`], but both absent (or empty) means "no point given".
pub fn optional_location(lat: Option<&str>, lng: Option<&str>) -> Result<Option<LatLng>, ApiError> {
    let blank = |v: Option<&str>| v.is_none_or(|v| v.trim().is_empty());
    if blank(lat) && blank(lng) {
        Ok(None)
    } else {
        location(lat, lng).map(Some)
    }
}

/// `"<lat>,<lng>"`, the contract's `latlng` form.
pub fn latlng(value: &str) -> Result<LatLng, ApiError> {
    let (lat, lng) = value.split_once(',').ok_or(ApiError::InvalidLocation)?;
    location(Some(lat), Some(lng))
}

fn coordinate(value: Option<&str>, limit: f64) -> Result<f64, ApiError> {
    value
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|v| v.is_finite() && v.abs() <= limit)
        .ok_or(ApiError::InvalidLocation)
}

/// A JSON body of the shape `T` (unknown fields such as `_csrf` ignored), else 400 / 1
/// `Invalid request.`
pub fn json_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|_| ApiError::BadRequest(messages::BAD_REQUEST))
}

/// A numeric id (ids travel as strings in JSON and as `u64` in gRPC).
pub fn id(value: &str, message: &'static str) -> Result<u64, ApiError> {
    value
        .trim()
        .parse()
        .map_err(|_| ApiError::BadRequest(message))
}

/// An optional non-negative number such as a page offset; absent or empty gives `None`.
pub fn optional_number<T: std::str::FromStr>(value: Option<&str>) -> Result<Option<T>, ApiError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(v) => v
            .parse()
            .map(Some)
            .map_err(|_| ApiError::BadRequest(messages::BAD_REQUEST)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_location_needs_two_numbers_on_the_globe() {
        assert_eq!(
            location(Some("12.93"), Some(" 77.62")).unwrap(),
            LatLng {
                lat: 12.93,
                lng: 77.62
            }
        );
        for (lat, lng) in [
            (None, Some("77")),
            (Some("abc"), Some("77")),
            (Some("NaN"), Some("77")),
            (Some("91"), Some("0")),
            (Some("1"), Some("inf")),
        ] {
            assert!(
                matches!(location(lat, lng), Err(ApiError::InvalidLocation)),
                "{lat:?},{lng:?}"
            );
        }
    }

    #[test]
    fn no_location_at_all_is_allowed_where_optional_but_half_of_one_is_not() {
        assert_eq!(optional_location(None, Some("")).unwrap(), None);
        assert!(optional_location(Some("12.9"), None).is_err());
    }

    #[test]
    fn latlng_is_a_comma_separated_pair() {
        assert_eq!(
            latlng("12.5,77.25").unwrap(),
            LatLng {
                lat: 12.5,
                lng: 77.25
            }
        );
        assert!(latlng("12.5").is_err());
        assert!(latlng("a,b").is_err());
    }

    #[test]
    fn ids_and_offsets_must_be_numbers() {
        assert_eq!(id("1042", "x").unwrap(), 1042);
        assert!(id("-1", "x").is_err());
        assert_eq!(optional_number::<u32>(Some("15")).unwrap(), Some(15));
        assert_eq!(optional_number::<u32>(None).unwrap(), None);
        assert!(optional_number::<u32>(Some("x")).is_err());
    }

    mod properties {
        use axum::extract::FromRequestParts;
        use proptest::prelude::*;
        use serde::Deserialize;
        use tiffin_strategies::{hostile_bytes, hostile_text, numberish_text, same_json};

        use super::super::*;
        use crate::http::error::seen;

        fn invalid_location() -> (u16, u32, String) {
            (400, 1, "Invalid user location.".into())
        }

        fn bad_request(message: &str) -> (u16, u32, String) {
            (400, 1, message.into())
        }

        /// A query struct as the routes declare theirs.
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct SomeQuery {
            lat: Option<String>,
            lng: Option<String>,
            offset: Option<String>,
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Any pair of texts gives a finite point on the globe or the location error.
            #[test]
            fn a_location_is_on_the_globe_or_refused(
                lat in proptest::option::of(numberish_text()),
                lng in proptest::option::of(numberish_text()),
            ) {
                match location(lat.as_deref(), lng.as_deref()) {
                    Ok(point) => {
                        prop_assert!(point.lat.is_finite() && point.lat.abs() <= 90.0);
                        prop_assert!(point.lng.is_finite() && point.lng.abs() <= 180.0);
                    }
                    Err(e) => prop_assert_eq!(seen(&e), invalid_location()),
                }
                match optional_location(lat.as_deref(), lng.as_deref()) {
                    Ok(None) => prop_assert!(
                        [&lat, &lng].iter().all(|v| v.as_deref().is_none_or(|v| v.trim().is_empty()))
                    ),
                    Ok(Some(point)) => prop_assert_eq!(Ok(point), location(lat.as_deref(), lng.as_deref()).map_err(|e| seen(&e))),
                    Err(e) => prop_assert_eq!(seen(&e), invalid_location()),
                }
            }

            /// Every point on the globe, written as the web writes it, reads back exactly.
            #[test]
            fn a_written_point_reads_back_exactly(lat in -90.0f64..=90.0, lng in -180.0f64..=180.0) {
                let point = latlng(&format!("{lat},{lng}")).unwrap();
                prop_assert_eq!(point, LatLng { lat, lng });
                let point = location(Some(&format!(" {lat} ")), Some(&lng.to_string())).unwrap();
                prop_assert_eq!(point, LatLng { lat, lng });
            }

            /// A `latlng` value of any text is a point on the globe or the location error.
            #[test]
            fn a_latlng_is_a_point_or_refused(value in prop_oneof![
                hostile_text(),
                (numberish_text(), numberish_text()).prop_map(|(a, b)| format!("{a},{b}")),
            ]) {
                match latlng(&value) {
                    Ok(point) => prop_assert!(point.lat.abs() <= 90.0 && point.lng.abs() <= 180.0),
                    Err(e) => prop_assert_eq!(seen(&e), invalid_location()),
                }
            }

            /// An id is a number or the route's own wording, and every number reads back.
            #[test]
            fn an_id_is_a_number_or_the_routes_refusal(text in numberish_text(), n in any::<u64>()) {
                match id(&text, "No such thing") {
                    Ok(value) => {
                        let digits = text.trim().strip_prefix('+').unwrap_or(text.trim());
                        prop_assert!(digits.bytes().all(|b| b.is_ascii_digit()), "{:?}", text);
                        prop_assert_eq!(digits.parse::<u64>().ok(), Some(value));
                    }
                    Err(e) => prop_assert_eq!(seen(&e), bad_request("No such thing")),
                }
                prop_assert_eq!(id(&format!("\t{n} "), "x").map_err(|e| seen(&e)), Ok(n));
                match optional_number::<u32>(Some(&text)) {
                    Ok(None) => prop_assert!(text.trim().is_empty()),
                    Ok(Some(v)) => prop_assert_eq!(Some(v), text.trim().parse::<u32>().ok()),
                    Err(e) => prop_assert_eq!(seen(&e), bad_request(messages::BAD_REQUEST)),
                }
            }

            /// Any body is the shape asked for or 400 / 1 `Invalid request.`; a document the
            /// web could have written reads back as it was.
            #[test]
            fn a_json_body_is_the_shape_or_refused(
                body in hostile_bytes(),
                document in tiffin_strategies::json_value(),
            ) {
                if let Err(e) = json_body::<serde_json::Value>(&body) {
                    prop_assert_eq!(seen(&e), bad_request(messages::BAD_REQUEST));
                }
                let written = serde_json::to_vec(&document).unwrap();
                let read = json_body::<serde_json::Value>(&written).unwrap();
                prop_assert!(same_json(&read, &document), "{} read as {}", document, read);
            }

            /// Nesting deeper than any real body is refused, never a stack overflow.
            #[test]
            fn deeply_nested_bodies_are_refused(depth in 200usize..100_000, open in prop::sample::select(vec!["[", "{\"a\":"])) {
                let body = open.repeat(depth);
                let error = json_body::<serde_json::Value>(body.as_bytes()).unwrap_err();
                prop_assert_eq!(seen(&error), bad_request(messages::BAD_REQUEST));
            }

            /// Any query string a request can carry decodes or is 400 / 1 `Invalid request.`
            #[test]
            fn any_query_string_decodes_or_is_refused(query in hostile_bytes()) {
                let mut uri = b"/api/x?".to_vec();
                uri.extend_from_slice(&query);
                let Ok(request) = http::Request::builder().uri(uri.as_slice()).body(()) else {
                    // Not a URI hyper would hand on.
                    return Ok(());
                };
                let (mut parts, ()) = request.into_parts();
                let decoded = futures::executor::block_on(
                    Params::<SomeQuery>::from_request_parts(&mut parts, &()),
                );
                if let Err(e) = decoded {
                    prop_assert_eq!(seen(&e), bad_request(messages::BAD_REQUEST));
                }
            }
        }
    }
}
