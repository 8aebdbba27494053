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
}
