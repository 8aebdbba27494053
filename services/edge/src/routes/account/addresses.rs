//! Routes `address`, `address/all`, `address/delete` and `address/serviceable` (account
//! `SaveAddress`, `ListAddresses`, `DeleteAddress`, `GetAddress`; discovery
//! `CheckServiceability`).
//!
//! The account service keeps addresses and answers an id that is not the caller's exactly like an
//! unknown one; discovery alone knows whether anything delivers to a point, so each address's
//! `delivery_valid` and `address/serviceable` are composed here from both.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::account::v1::{
    Address, Annotation, DeleteAddressRequest, GetAddressRequest, ListAddressesRequest,
    SaveAddressRequest,
};
use tiffin_proto::discovery::v1::{CheckServiceabilityRequest, LatLng};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::http::params::{self, Params};
use crate::infra::state::AppState;

/// NOT_FOUND wording for an address id that is unknown or someone else's.
pub const ADDRESS_NOT_FOUND: &str = "Address not found";
/// An address saved without a point.
pub const SELECT_LOCATION: &str = "Please select a location.";

/// The contract's `<Address>`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = Address)]
pub struct AddressJson {
    id: String,
    annotation: Annotated,
    address: String,
    area: String,
    flat_no: String,
    landmark: String,
    lat: f64,
    lng: f64,
    mobile: String,
    instructions: String,
    city: String,
    /// 1 when some restaurant delivers to the address, else 0.
    delivery_valid: u8,
}

/// What the customer calls an address.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[schema(as = AddressAnnotation)]
pub enum Annotated {
    Home,
    Work,
    Other,
}

fn annotation_word(a: Annotation) -> Annotated {
    match a {
        Annotation::Home => Annotated::Home,
        Annotation::Work => Annotated::Work,
        Annotation::Other | Annotation::Unspecified => Annotated::Other,
    }
}

fn address_json(a: Address, serviceable: bool) -> AddressJson {
    AddressJson {
        annotation: annotation_word(a.annotation()),
        id: a.id,
        address: a.address,
        area: a.area,
        flat_no: a.flat_no,
        landmark: a.landmark,
        lat: a.lat,
        lng: a.lng,
        mobile: a.mobile,
        instructions: a.instructions,
        city: a.city,
        delivery_valid: u8::from(serviceable),
    }
}

/// A point discovery accepts, or `None` for one it would refuse (never stored by a well-behaved
/// account service, but one bad row must not fail a whole list).
fn point_of(a: &Address) -> Option<LatLng> {
    let valid = a.lat.is_finite()
        && a.lng.is_finite()
        && a.lat.abs() <= 90.0
        && a.lng.abs() <= 180.0
        && !(a.lat == 0.0 && a.lng == 0.0);
    valid.then_some(LatLng {
        lat: a.lat,
        lng: a.lng,
    })
}

/// Whether anything delivers to each point (`None` answers false), in one discovery call. If
/// discovery cannot answer, the addresses are still shown, as not deliverable, and it is logged.
async fn serviceability(state: &AppState, points: &[Option<LatLng>]) -> Vec<bool> {
    let asked: Vec<LatLng> = points.iter().flatten().cloned().collect();
    if asked.is_empty() {
        return vec![false; points.len()];
    }
    let up = &state.upstreams;
    let request = up.request(
        CheckServiceabilityRequest { locations: asked },
        &Default::default(),
    );
    let answers = match up.discovery.clone().check_serviceability(request).await {
        Ok(reply) => reply.into_inner().serviceable,
        Err(status) => {
            tracing::warn!(grpc.code = ?status.code(), grpc.message = %status.message(), "serviceability unknown: addresses shown as not deliverable");
            Vec::new()
        }
    };
    let mut answers = answers.into_iter();
    points
        .iter()
        .map(|p| p.is_some() && answers.next().unwrap_or(false))
        .collect()
}

async fn addresses_json(state: &AppState, addresses: Vec<Address>) -> Vec<AddressJson> {
    let points: Vec<Option<LatLng>> = addresses.iter().map(point_of).collect();
    let served = serviceability(state, &points).await;
    addresses
        .into_iter()
        .zip(served)
        .map(|(a, s)| address_json(a, s))
        .collect()
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Addresses)]
pub struct AddressesJson {
    addresses: Vec<AddressJson>,
}

/// `POST /api/address/all`
#[utoipa::path(
    post,
    path = "/address/all",
    tag = "account",
    operation_id = "listAddresses",
    responses((status = 200, description = "Your saved addresses, newest first.", body = crate::http::envelope::Envelope<AddressesJson>), crate::http::error::Failures)
)]
pub async fn all(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Data<AddressesJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .list_addresses(up.request(ListAddressesRequest {}, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(AddressesJson {
        addresses: addresses_json(&state, reply.addresses).await,
    }))
}

/// A number sent as a JSON number or a string.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(as = NumberInput)]
pub enum Number {
    Float(f64),
    Text(String),
}

impl Number {
    fn value(&self) -> Option<f64> {
        match self {
            Number::Float(f) => Some(*f),
            Number::Text(s) => s.trim().parse().ok(),
        }
        .filter(|v| v.is_finite())
    }
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = AddressInput)]
pub struct AddressBody {
    /// Absent to add an address; an id of yours to edit it.
    #[serde(default)]
    id: Option<String>,
    /// `HOME`, `WORK` or `OTHER`, in any case (anything else is `OTHER`).
    #[serde(default)]
    annotation: String,
    #[serde(default)]
    address: String,
    #[serde(default)]
    area: String,
    #[serde(default)]
    flat_no: String,
    #[serde(default)]
    landmark: String,
    /// A number or a numeric string.
    lat: Option<Number>,
    /// A number or a numeric string.
    lng: Option<Number>,
    #[serde(default)]
    mobile: String,
    #[serde(default)]
    instructions: String,
    #[serde(default)]
    city: String,
}

fn annotation_of(word: &str) -> Annotation {
    match word.trim().to_ascii_uppercase().as_str() {
        "HOME" => Annotation::Home,
        "WORK" => Annotation::Work,
        _ => Annotation::Other,
    }
}

fn address_of(body: AddressBody) -> Result<Address, ApiError> {
    let lat = body.lat.as_ref().and_then(Number::value);
    let lng = body.lng.as_ref().and_then(Number::value);
    let (Some(lat), Some(lng)) = (lat, lng) else {
        return Err(ApiError::BadRequest(SELECT_LOCATION));
    };
    if lat.abs() > 90.0 || lng.abs() > 180.0 {
        return Err(ApiError::BadRequest(SELECT_LOCATION));
    }
    let mut address = Address {
        id: body.id.unwrap_or_default().trim().to_string(),
        annotation: 0,
        address: body.address,
        area: body.area,
        flat_no: body.flat_no,
        landmark: body.landmark,
        lat,
        lng,
        mobile: body.mobile,
        instructions: body.instructions,
        city: body.city,
        updated_at: 0,
    };
    address.set_annotation(annotation_of(&body.annotation));
    Ok(address)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SavedAddress)]
pub struct SavedJson {
    address: AddressJson,
    addresses: Vec<AddressJson>,
}

/// `POST /api/address`: adds, or with `id` edits one of the caller's addresses.
#[utoipa::path(
    post,
    path = "/address",
    tag = "account",
    operation_id = "saveAddress",
    request_body(content = AddressBody, content_type = "application/json"),
    responses((status = 200, description = "The saved address and all your addresses.", body = crate::http::envelope::Envelope<SavedJson>), crate::http::error::Failures)
)]
pub async fn save(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<SavedJson>, ApiError> {
    let address = address_of(json_body(&body)?)?;
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .save_address(up.request(
            SaveAddressRequest {
                address: Some(address),
            },
            &user.caller(),
        ))
        .await
        .map_err(|s| ApiError::from(s).not_found_as(ADDRESS_NOT_FOUND))?
        .into_inner();
    let saved = reply
        .address
        .ok_or_else(|| ApiError::Upstream(tonic::Status::internal("reply without an address")))?;
    let mut all = reply.addresses;
    // The saved address is judged with the others, in the same discovery call.
    all.push(saved);
    let mut json = addresses_json(&state, all).await;
    let address = json
        .pop()
        .ok_or_else(|| ApiError::Upstream(tonic::Status::internal("no address")))?;
    Ok(Data::ok(SavedJson {
        address,
        addresses: json,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = AddressIdInput)]
pub struct IdBody {
    #[serde(default)]
    id: String,
}

/// `POST /api/address/delete`
#[utoipa::path(
    post,
    path = "/address/delete",
    tag = "account",
    operation_id = "deleteAddress",
    request_body(content = IdBody, content_type = "application/json"),
    responses((status = 200, description = "Your remaining addresses.", body = crate::http::envelope::Envelope<AddressesJson>), crate::http::error::Failures)
)]
pub async fn delete(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<AddressesJson>, ApiError> {
    let body: IdBody = json_body(&body)?;
    let up = &state.upstreams;
    let reply = up
        .account
        .clone()
        .delete_address(up.request(DeleteAddressRequest { id: body.id }, &user.caller()))
        .await
        .map_err(|s| ApiError::from(s).not_found_as(ADDRESS_NOT_FOUND))?
        .into_inner();
    Ok(Data::ok(AddressesJson {
        addresses: addresses_json(&state, reply.addresses).await,
    }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ServiceableQuery {
    /// A point (with `lng`), when no `id`.
    lat: Option<String>,
    lng: Option<String>,
    /// One of your saved addresses.
    id: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Serviceable)]
pub struct ServiceableJson {
    serviceable: bool,
}

/// `GET /api/address/serviceable?lat=&lng=` or `?id=` (one of the caller's addresses).
#[utoipa::path(
    get,
    path = "/address/serviceable",
    tag = "account",
    operation_id = "addressServiceable",
    params(ServiceableQuery),
    responses((status = 200, description = "Whether some restaurant delivers to the point or address.", body = crate::http::envelope::Envelope<ServiceableJson>), crate::http::error::Failures)
)]
pub async fn serviceable(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<ServiceableQuery>,
) -> Result<Data<ServiceableJson>, ApiError> {
    let point = match query.id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(id) => {
            let up = &state.upstreams;
            let address = up
                .account
                .clone()
                .get_address(up.request(GetAddressRequest { id: id.to_string() }, &user.caller()))
                .await
                .map_err(|s| ApiError::from(s).not_found_as(ADDRESS_NOT_FOUND))?
                .into_inner()
                .address
                .ok_or(ApiError::NotFound(ADDRESS_NOT_FOUND))?;
            point_of(&address)
        }
        None => Some(params::location(
            query.lat.as_deref(),
            query.lng.as_deref(),
        )?),
    };
    let Some(point) = point else {
        return Ok(Data::ok(ServiceableJson { serviceable: false }));
    };
    let up = &state.upstreams;
    let reply = up
        .discovery
        .clone()
        .check_serviceability(up.request(
            CheckServiceabilityRequest {
                locations: vec![point],
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    Ok(Data::ok(ServiceableJson {
        serviceable: reply.serviceable.first().copied().unwrap_or(false),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_are_read_in_any_case_and_written_upper_case() {
        assert_eq!(annotation_of("home"), Annotation::Home);
        assert_eq!(annotation_of(" Work "), Annotation::Work);
        assert_eq!(annotation_of("boat"), Annotation::Other);
        assert_eq!(
            serde_json::to_value(annotation_word(Annotation::Unspecified)).unwrap(),
            "OTHER"
        );
    }

    #[test]
    fn a_body_without_a_point_asks_for_a_location() {
        let body: AddressBody =
            serde_json::from_str(r#"{"address":"x","annotation":"home"}"#).unwrap();
        let err = address_of(body).unwrap_err();
        assert_eq!(err.outcome().message, "Please select a location.");
        let body: AddressBody =
            serde_json::from_str(r#"{"address":"x","lat":"12.9","lng":77.6,"annotation":"home"}"#)
                .unwrap();
        let a = address_of(body).unwrap();
        assert_eq!(
            (a.lat, a.lng, a.annotation(), a.id.as_str()),
            (12.9, 77.6, Annotation::Home, "")
        );
    }

    #[test]
    fn an_address_has_the_contract_fields() {
        let mut a = Address {
            id: "a1".into(),
            lat: 12.9,
            lng: 77.6,
            ..Default::default()
        };
        a.set_annotation(Annotation::Work);
        let v = serde_json::to_value(address_json(a, true)).unwrap();
        assert_eq!(
            (v["annotation"].as_str(), v["delivery_valid"].as_i64()),
            (Some("WORK"), Some(1))
        );
        assert!(v.get("updated_at").is_none());
    }
}
