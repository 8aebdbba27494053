//! Routes `POST misc/favorite` and `GET profile/favourites` (account `SetFavourite`,
//! `ListFavourites`; discovery `GetRestaurants`), and the favourites collection of the listing
//! (`restaurants/list/v5?collection=83951&type=rcv2`; discovery `RefineListing` narrowed to them).
//!
//! The account service keeps which restaurants the caller marked; discovery owns the restaurants,
//! so it is asked whether one exists before it is marked, for the cards of the list, and for
//! which of them deliver to a point. Favourites are never sent to discovery as a collection id:
//! they are per user, and discovery holds no users.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::{ListFavouritesRequest, SetFavouriteRequest};
use tiffin_proto::discovery::v1::{
    CollectionCard, GetRestaurantsRequest, RefineListingRequest, RestaurantIds,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::http::params::{self, Params};
use crate::infra::state::AppState;
use crate::views::restaurant::{RestaurantJson, restaurant_json};

/// NOT_FOUND wording for an unknown restaurant.
pub const RESTAURANT_NOT_FOUND: &str = "Restaurant not found";
/// Most favourites listed (discovery's batch limit); the most recently marked come first.
pub const LIST_MAX: usize = 100;
/// The favourites collection: the web app lists it as collection 83951 with query `type=rcv2`.
pub const COLLECTION_ID: u64 = 83951;
const COLLECTION_TITLE: &str = "Your favourites";
const COLLECTION_DESCRIPTION: &str = "Restaurants you marked with a heart";

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
    let ids = favourite_ids(&state, &user.caller()).await?;
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

/// The caller's favourite ids, most recently marked first, at most [`LIST_MAX`].
async fn favourite_ids(state: &AppState, caller: &Caller) -> Result<Vec<u64>, ApiError> {
    let up = &state.upstreams;
    let mut ids = up
        .account
        .clone()
        .list_favourites(up.request(ListFavouritesRequest {}, caller))
        .await?
        .into_inner()
        .restaurant_ids;
    ids.truncate(LIST_MAX);
    Ok(ids)
}

/// Turns a listing request for the favourites collection into one for the caller's favourite
/// restaurants: discovery lists those of them that deliver to the point, sorted and filtered like
/// any listing. A guest has no favourites to show and is asked to sign in (401 / 999 `Please login
/// to continue.`), as `profile/favourites` does, so the page can offer the login.
pub async fn narrow_to_favourites(
    state: &AppState,
    caller: &Caller,
    request: &mut RefineListingRequest,
) -> Result<(), ApiError> {
    if caller.user_id.is_none() {
        return Err(ApiError::LoginRequired);
    }
    let ids = favourite_ids(state, caller).await?;
    request.collection_id = 0;
    request.only_restaurants = Some(RestaurantIds { ids });
    Ok(())
}

/// The favourites collection's heading card; `restaurants` is how many of them deliver here.
pub fn collection_card(restaurants: u32) -> CollectionCard {
    CollectionCard {
        collection_id: COLLECTION_ID,
        title: COLLECTION_TITLE.to_string(),
        description: COLLECTION_DESCRIPTION.to_string(),
        restaurants,
        image_id: format!("collection-{COLLECTION_ID}"),
    }
}
