//! Routes `POST misc/favorite` and `GET profile/favourites` (account `SetFavourite`,
//! `ListFavourites`; discovery `GetRestaurants`). The favourites collection of the listing is the
//! listing route's (`routes::discovery::restaurants`).
//!
//! The account service keeps which restaurants the caller marked; discovery owns the restaurants,
//! so it is asked whether one exists before it is marked, for the cards of the list, and for
//! which of them deliver to a point. Favourites are never sent to discovery as a collection id:
//! they are per user, and discovery holds no users.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::account::v1::SetFavouriteRequest;
use tiffin_proto::discovery::v1::GetRestaurantsRequest;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::http::params::{self, Params};
use crate::infra::state::AppState;
use crate::views::restaurant::{RestaurantJson, restaurant_json};

/// NOT_FOUND wording for an unknown restaurant.
pub const RESTAURANT_NOT_FOUND: &str = "Restaurant not found";

/// An id: a string in the contract; a number is accepted too, as JavaScript callers mix them.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(as = IdInput)]
pub enum Id {
    Text(String),
    Number(u64),
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = FavouriteInput)]
pub struct FavouriteBody {
    #[serde(rename = "restaurantId")]
    restaurant_id: Option<Id>,
    /// True (the default) marks it, false unmarks it.
    #[serde(default = "yes")]
    favourite: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Favourite)]
pub struct FavouriteJson {
    #[serde(rename = "restaurantId")]
    restaurant_id: String,
    favourite: bool,
}

/// `POST /api/misc/favorite` `{ "restaurantId", "favourite" }`
#[utoipa::path(
    post,
    path = "/misc/favorite",
    tag = "account",
    operation_id = "setFavourite",
    request_body(content = FavouriteBody, content_type = "application/json"),
    responses((status = 200, description = "The restaurant as now marked.", body = crate::http::envelope::Envelope<FavouriteJson>), crate::http::error::Failures)
)]
pub async fn set(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<FavouriteJson>, ApiError> {
    let body: FavouriteBody = json_body(&body)?;
    let restaurant_id = match &body.restaurant_id {
        Some(Id::Number(n)) => *n,
        Some(Id::Text(s)) => params::id(s, RESTAURANT_NOT_FOUND)
            .map_err(|_| ApiError::NotFound(RESTAURANT_NOT_FOUND))?,
        None => return Err(ApiError::NotFound(RESTAURANT_NOT_FOUND)),
    };
    let up = &state.upstreams;
    let known = up
        .discovery
        .clone()
        .get_restaurants(up.request(
            GetRestaurantsRequest {
                ids: vec![restaurant_id],
                location: None,
            },
            &user.caller(),
        ))
        .await?
        .into_inner();
    if known.cards.is_empty() {
        return Err(ApiError::NotFound(RESTAURANT_NOT_FOUND));
    }
    let reply = up
        .account
        .clone()
        .set_favourite(up.request(
            SetFavouriteRequest {
                restaurant_id,
                favourite: body.favourite,
            },
            &user.caller(),
        ))
        .await
        .map_err(|s| ApiError::from(s).not_found_as(RESTAURANT_NOT_FOUND))?
        .into_inner();
    Ok(Data::ok(FavouriteJson {
        restaurant_id: reply.restaurant_id.to_string(),
        favourite: reply.favourite,
    }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// The visitor's point (optional): with it each restaurant has its estimate from there.
    lat: Option<String>,
    lng: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = Favourites)]
pub struct FavouritesJson {
    /// Most recently marked first, at most 100.
    restaurants: Vec<RestaurantJson>,
}

/// `GET /api/profile/favourites?lat=&lng=` (the point is optional; with it each restaurant has
/// its estimate from there).
#[utoipa::path(
    get,
    path = "/profile/favourites",
    tag = "account",
    operation_id = "listFavourites",
    params(ListQuery),
    responses((status = 200, description = "The caller's favourite restaurants.", body = crate::http::envelope::Envelope<FavouritesJson>), crate::http::error::Failures)
)]
pub async fn list(
    State(state): State<AppState>,
    user: SignedIn,
    Params(query): Params<ListQuery>,
) -> Result<Data<FavouritesJson>, ApiError> {
    let location = params::optional_location(query.lat.as_deref(), query.lng.as_deref())?;
    let ids = state.upstreams.favourite_ids(&user.caller()).await?;
    if ids.is_empty() {
        return Ok(Data::ok(FavouritesJson {
            restaurants: Vec::new(),
        }));
    }
    let up = &state.upstreams;
    let cards = up
        .discovery
        .clone()
        .get_restaurants(up.request(GetRestaurantsRequest { ids, location }, &user.caller()))
        .await?
        .into_inner()
        .cards;
    Ok(Data::ok(FavouritesJson {
        restaurants: cards.iter().filter_map(restaurant_json).collect(),
    }))
}
