//! Routes `GET misc/place-autocomplete` (discovery `AutocompletePlaces`) and
//! `GET misc/address-recommend` (discovery `RecommendAddress`), shaped like the map-provider
//! replies the web app reads.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::discovery::v1::recommend_address_request::Target;
use tiffin_proto::discovery::v1::{AutocompletePlacesRequest, Place, RecommendAddressRequest};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::http::params::{self, Params};
use crate::infra::state::AppState;

/// Suggestions per keystroke (the contract's "up to 8").
const SUGGESTIONS: u32 = 8;
/// The contract's wording for an unknown place id.
const LOCATION_NOT_FOUND: &str = "Location not found";

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AutocompleteQuery {
    /// What the visitor typed; empty gives `[]`.
    input: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PlaceSuggestion)]
pub struct Suggestion {
    place_id: String,
    description: String,
    structured_formatting: StructuredFormatting,
    terms: Vec<Term>,
    #[schema(value_type = Vec<String>)]
    types: [&'static str; 1],
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct StructuredFormatting {
    main_text: String,
    secondary_text: String,
}

#[derive(Debug, Serialize, PartialEq, utoipa::ToSchema)]
#[schema(as = PlaceTerm)]
struct Term {
    /// Where the term starts in `description`, in UTF-16 units (what JavaScript's indices count).
    offset: usize,
    value: String,
}

/// `GET /api/misc/place-autocomplete?input=`
#[utoipa::path(
    get,
    path = "/misc/place-autocomplete",
    tag = "discovery",
    operation_id = "autocompletePlaces",
    params(AutocompleteQuery),
    responses((status = 200, description = "Up to 8 places, best first.", body = crate::http::envelope::Envelope<Vec<Suggestion>>), crate::http::error::Failures)
)]
pub async fn autocomplete(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<AutocompleteQuery>,
) -> Result<Data<Vec<Suggestion>>, ApiError> {
    let request = AutocompletePlacesRequest {
        input: query.input.unwrap_or_default(),
        limit: SUGGESTIONS,
    };
    let upstreams = &state.upstreams;
    let reply = upstreams
        .discovery
        .clone()
        .autocomplete_places(upstreams.request(request, &caller))
        .await?
        .into_inner();
    Ok(Data::ok(reply.places.iter().map(suggestion).collect()))
}

fn description(place: &Place) -> String {
    if place.secondary_text.is_empty() {
        place.main_text.clone()
    } else {
        format!("{}, {}", place.main_text, place.secondary_text)
    }
}

fn suggestion(place: &Place) -> Suggestion {
    let description = description(place);
    Suggestion {
        place_id: place.place_id.clone(),
        terms: terms(&description),
        description,
        structured_formatting: StructuredFormatting {
            main_text: place.main_text.clone(),
            secondary_text: place.secondary_text.clone(),
        },
        types: ["sublocality"],
    }
}

/// The comma-separated parts of a description with their offsets.
fn terms(description: &str) -> Vec<Term> {
    let mut offset = 0;
    description
        .split(", ")
        .map(|part| {
            let term = Term {
                offset,
                value: part.to_string(),
            };
            offset += part.encode_utf16().count() + 2;
            term
        })
        .collect()
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RecommendQuery {
    /// A place id from `misc/place-autocomplete`.
    place_id: Option<String>,
    /// `<lat>,<lng>`: the nearest locality to the point (used when `place_id` is absent).
    latlng: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = AddressRecommendation)]
pub struct Address {
    place_id: String,
    formatted_address: String,
    address_components: Vec<AddressComponent>,
    geometry: Geometry,
    area: String,
    city: String,
    main_text: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct AddressComponent {
    long_name: String,
    short_name: String,
    /// `sublocality`, `locality` or `administrative_area_level_1`.
    #[schema(value_type = Vec<String>)]
    types: [&'static str; 1],
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct Geometry {
    location: Point,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = LatLng)]
struct Point {
    lat: f64,
    lng: f64,
}

/// `GET /api/misc/address-recommend?place_id=` or `?latlng=<lat>,<lng>`
#[utoipa::path(
    get,
    path = "/misc/address-recommend",
    tag = "discovery",
    operation_id = "recommendAddress",
    params(RecommendQuery),
    responses((status = 200, description = "The place, as a one-element array.", body = crate::http::envelope::Envelope<Vec<Address>>), crate::http::error::Failures)
)]
pub async fn address_recommend(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<RecommendQuery>,
) -> Result<Data<[Address; 1]>, ApiError> {
    let target = match (
        query.place_id.filter(|p| !p.trim().is_empty()),
        query.latlng,
    ) {
        (Some(place_id), _) => Target::PlaceId(place_id),
        (None, Some(latlng)) => Target::Latlng(params::latlng(&latlng)?),
        (None, None) => return Err(ApiError::InvalidLocation),
    };
    let upstreams = &state.upstreams;
    let request = upstreams.request(
        RecommendAddressRequest {
            target: Some(target),
        },
        &caller,
    );
    let reply = upstreams
        .discovery
        .clone()
        .recommend_address(request)
        .await
        .map_err(|e| ApiError::from(e).not_found_as(LOCATION_NOT_FOUND))?
        .into_inner();
    let place = reply.place.ok_or(ApiError::NotFound(LOCATION_NOT_FOUND))?;
    Ok(Data::ok([address(&place)]))
}

fn address(place: &Place) -> Address {
    let component = |name: &str, kind| AddressComponent {
        long_name: name.to_string(),
        short_name: name.to_string(),
        types: [kind],
    };
    let components = [
        (&place.main_text, "sublocality"),
        (&place.city_name, "locality"),
        (&place.state, "administrative_area_level_1"),
    ];
    Address {
        place_id: place.place_id.clone(),
        formatted_address: description(place),
        address_components: components
            .into_iter()
            .filter(|(name, _)| !name.is_empty())
            .map(|(name, kind)| component(name, kind))
            .collect(),
        geometry: Geometry {
            location: Point {
                lat: place.lat,
                lng: place.lng,
            },
        },
        area: place.main_text.clone(),
        city: place.city.clone(),
        main_text: place.main_text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn koramangala() -> Place {
        Place {
            place_id: "bangalore-koramangala".into(),
            main_text: "Koramangala".into(),
            secondary_text: "Bangalore, Karnataka, India".into(),
            city: "bangalore".into(),
            lat: 12.9352,
            lng: 77.6245,
            city_name: "Bangalore".into(),
            state: "Karnataka".into(),
        }
    }

    #[test]
    fn a_suggestion_has_the_contract_shape() {
        let v = serde_json::to_value(suggestion(&koramangala())).unwrap();
        assert_eq!(v["description"], "Koramangala, Bangalore, Karnataka, India");
        assert_eq!(
            v["structured_formatting"]["secondary_text"],
            "Bangalore, Karnataka, India"
        );
        assert_eq!(
            v["terms"][1],
            serde_json::json!({ "offset": 13, "value": "Bangalore" })
        );
        assert_eq!(v["types"], serde_json::json!(["sublocality"]));
    }

    #[test]
    fn term_offsets_count_utf16_units() {
        let t = terms("Bānér, Pune");
        assert_eq!(
            t[1],
            Term {
                offset: 7,
                value: "Pune".into()
            }
        );
    }

    #[test]
    fn an_address_has_the_contract_shape() {
        let v = serde_json::to_value(address(&koramangala())).unwrap();
        assert_eq!(
            v["formatted_address"],
            "Koramangala, Bangalore, Karnataka, India"
        );
        assert_eq!(v["address_components"][0]["types"][0], "sublocality");
        assert_eq!(v["address_components"][1]["long_name"], "Bangalore");
        assert_eq!(v["geometry"]["location"]["lat"], 12.9352);
        assert_eq!(
            (v["area"].as_str(), v["city"].as_str()),
            (Some("Koramangala"), Some("bangalore"))
        );
    }
}
