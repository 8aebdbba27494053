//! Routes `GET restaurants/list/v5`, `POST restaurants/list/update` and `GET offers/restaurant`
//! (discovery `RefineListing`: sort, filters, collections, carousels). The cards are the shared
//! restaurant view (`views::restaurant`); the favourites collection is narrowed to the caller's
//! favourites by the account routes, since discovery holds no users.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::discovery::v1::{
    CollectionCard, CostRange, ListingFilters, RefineListingRequest, RefineListingResponse,
    RestaurantCard, RestaurantIds, Serviceability, SortBy,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::http::messages;
use crate::http::params::{self, Params, json_body};
use crate::infra::state::AppState;
use crate::views::restaurant::{RestaurantJson, restaurant_json};

/// Restaurants per page (the contract's page size).
pub const PAGE_SIZE: u32 = 15;

/// Query of the listing (`page_type` is accepted for the contract's request shape; every page type
/// lists the same way). `collection` narrows it to a collection; `sortBy` orders it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    lat: Option<String>,
    lng: Option<String>,
    offset: Option<String>,
    collection: Option<String>,
    sort_by: Option<String>,
}

/// Body of `restaurants/list/update`: the listing's query plus filters. `lat`/`lng` may be numbers
/// or numeric strings.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdateBody {
    lat: Option<serde_json::Value>,
    lng: Option<serde_json::Value>,
    offset: Option<u32>,
    collection: Option<serde_json::Value>,
    sort_by: Option<String>,
    filters: FiltersJson,
}

/// The listing's filters, as sent and as echoed back.
#[derive(Debug, Default, Clone, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct FiltersJson {
    #[serde(rename = "rating4Plus")]
    rating_4_plus: bool,
    pure_veg: bool,
    fast_delivery: bool,
    /// `UNDER_300`, `300_TO_600`, `OVER_600`.
    cost_ranges: Vec<String>,
    cuisines: Vec<String>,
    offers: bool,
}

/// Sort keys and their labels, in the order the sort menu shows them.
pub const SORTS: [(&str, SortBy, &str); 5] = [
    ("RELEVANCE", SortBy::Relevance, "Relevance (Default)"),
    ("DELIVERY_TIME", SortBy::DeliveryTime, "Delivery Time"),
    ("RATING", SortBy::Rating, "Rating"),
    (
        "COST_LOW_TO_HIGH",
        SortBy::CostLowToHigh,
        "Cost: Low to High",
    ),
    (
        "COST_HIGH_TO_LOW",
        SortBy::CostHighToLow,
        "Cost: High to Low",
    ),
];

/// Cost ranges and their labels, in the contract's `₹{0} - ₹{1}` form.
pub const COST_RANGES: [(&str, CostRange, &str); 3] = [
    ("UNDER_300", CostRange::Under300, "Less than ₹300"),
    ("300_TO_600", CostRange::CostRange300To600, "₹300 - ₹600"),
    ("OVER_600", CostRange::Over600, "Greater than ₹600"),
];

/// The listing's `data`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    total_restaurants: u32,
    page_index: u32,
    page_offset: PageOffset,
    serviceability: &'static str,
    cards: Vec<Card>,
    closed_cards: Vec<Card>,
    /// Restaurants delivering here before filters and collection.
    unfiltered_total: u32,
    sort_by: &'static str,
    filters: FiltersJson,
    sort_configs: Vec<Choice>,
    facets: Facets,
    top_carousel: Vec<CollectionJson>,
    banner_carousel: Vec<BannerJson>,
    filter_collections: Vec<CollectionJson>,
    nudge_card: Option<NudgeJson>,
    collection: Option<CollectionJson>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PageOffset {
    offset: u32,
    /// `null` on the last page.
    next_offset: Option<u32>,
}

#[derive(Debug, Serialize)]
struct Card {
    #[serde(rename = "type")]
    kind: &'static str,
    data: RestaurantJson,
}

#[derive(Debug, Serialize)]
struct Choice {
    key: &'static str,
    title: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Facets {
    cuisines: Vec<CuisineFacet>,
    cost_ranges: Vec<Choice>,
}

#[derive(Debug, Serialize)]
struct CuisineFacet {
    label: String,
    count: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CollectionJson {
    id: String,
    title: String,
    description: String,
    image_id: String,
    link: String,
    restaurants: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct BannerJson {
    title: String,
    text: String,
    image_id: String,
    link: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct NudgeJson {
    title: String,
    text: String,
    link: String,
}

/// `GET /api/restaurants/list/v5?lat=&lng=&offset=&collection=&sortBy=`
pub async fn list(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<ListQuery>,
) -> Result<Data<Listing>, ApiError> {
    let location = params::location(query.lat.as_deref(), query.lng.as_deref())?;
    let request = RefineListingRequest {
        location: Some(location),
        offset: params::optional_number::<u32>(query.offset.as_deref())?.unwrap_or(0),
        limit: PAGE_SIZE,
        sort: sort_by(query.sort_by.as_deref())?.into(),
        filters: None,
        collection_id: collection_id(query.collection.as_deref())?,
        only_restaurants: None,
    };
    refined(&state, &caller, request, FiltersJson::default()).await
}

/// `POST /api/restaurants/list/update` `{ lat, lng, offset, sortBy, filters, collection }`: the
/// next page, or a refined first page (the CSRF token has been checked already).
pub async fn update(
    State(state): State<AppState>,
    Identity(caller): Identity,
    body: Bytes,
) -> Result<Data<Listing>, ApiError> {
    let body: UpdateBody = json_body(&body)?;
    let text = |v: &Option<serde_json::Value>| match v {
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        Some(serde_json::Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let location = params::location(text(&body.lat).as_deref(), text(&body.lng).as_deref())?;
    let request = RefineListingRequest {
        location: Some(location),
        offset: body.offset.unwrap_or(0),
        limit: PAGE_SIZE,
        sort: sort_by(body.sort_by.as_deref())?.into(),
        filters: Some(filters_proto(&body.filters)?),
        collection_id: collection_id(text(&body.collection).as_deref())?,
        only_restaurants: None,
    };
    refined(&state, &caller, request, body.filters).await
}

/// `GET /api/offers/restaurant?lat=&lng=&offset=`: restaurants with an offer near the point, in
/// the listing's shape.
pub async fn offers(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<ListQuery>,
) -> Result<Data<Listing>, ApiError> {
    let location = params::location(query.lat.as_deref(), query.lng.as_deref())?;
    let filters = FiltersJson {
        offers: true,
        ..Default::default()
    };
    let request = RefineListingRequest {
        location: Some(location),
        offset: params::optional_number::<u32>(query.offset.as_deref())?.unwrap_or(0),
        limit: PAGE_SIZE,
        sort: sort_by(query.sort_by.as_deref())?.into(),
        filters: Some(filters_proto(&filters)?),
        collection_id: 0,
        only_restaurants: None,
    };
    refined(&state, &caller, request, filters).await
}

fn sort_by(key: Option<&str>) -> Result<SortBy, ApiError> {
    match key.map(str::trim).filter(|k| !k.is_empty()) {
        None => Ok(SortBy::Relevance),
        Some(key) => SORTS
            .iter()
            .find(|(k, _, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, s, _)| *s)
            .ok_or(ApiError::BadRequest(messages::BAD_REQUEST)),
    }
}

fn collection_id(value: Option<&str>) -> Result<u64, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(0),
        Some(v) => v
            .parse()
            .map_err(|_| ApiError::NotFound("Collection not found")),
    }
}

fn filters_proto(f: &FiltersJson) -> Result<ListingFilters, ApiError> {
    let cost_ranges = f
        .cost_ranges
        .iter()
        .map(|key| {
            COST_RANGES
                .iter()
                .find(|(k, _, _)| k.eq_ignore_ascii_case(key.trim()))
                .map(|(_, r, _)| i32::from(*r))
                .ok_or(ApiError::BadRequest(messages::BAD_REQUEST))
        })
        .collect::<Result<_, _>>()?;
    Ok(ListingFilters {
        rating_4_plus: f.rating_4_plus,
        pure_veg: f.pure_veg,
        fast_delivery: f.fast_delivery,
        cost_ranges,
        cuisines: f.cuisines.clone(),
        offers: f.offers,
    })
}

async fn refined(
    state: &AppState,
    caller: &tiffin_platform::identity::Caller,
    request: RefineListingRequest,
    filters: FiltersJson,
) -> Result<Data<Listing>, ApiError> {
    let offset = request.offset;
    let sort = request.sort();
    let upstreams = &state.upstreams;
    let ask = |request: RefineListingRequest| {
        let mut discovery = upstreams.discovery.clone();
        let request = upstreams.request(request, caller);
        async move { discovery.refine_listing(request).await }
    };
    let mut reply = ask(request.clone()).await?.into_inner();
    if reply.needs_favourites {
        // Discovery knows the favourites collection but not whose favourites they are: the
        // caller's ids come from the account service. A guest has none and is asked to sign in
        // (401 / 999), as `profile/favourites` does, so the page can offer the login.
        if caller.user_id.is_none() {
            return Err(ApiError::LoginRequired);
        }
        let ids = upstreams.favourite_ids(caller).await?;
        let request = RefineListingRequest {
            only_restaurants: Some(RestaurantIds { ids }),
            ..request
        };
        reply = ask(request).await?.into_inner();
    }
    Ok(Data::ok(listing_json(reply, offset, sort, filters)))
}

fn collection_json(c: &CollectionCard) -> CollectionJson {
    CollectionJson {
        id: c.collection_id.to_string(),
        title: c.title.clone(),
        description: c.description.clone(),
        image_id: c.image_id.clone(),
        link: format!("/collections/{}", c.collection_id),
        restaurants: c.restaurants,
    }
}

fn listing_json(
    reply: RefineListingResponse,
    offset: u32,
    sort: SortBy,
    filters: FiltersJson,
) -> Listing {
    let page = reply.page.unwrap_or_default();
    let cards = |list: &[RestaurantCard]| -> Vec<Card> {
        list.iter()
            .filter_map(restaurant_json)
            .map(|data| Card {
                kind: "RESTAURANT",
                data,
            })
            .collect()
    };
    let serviceability = match page.serviceability() {
        Serviceability::Serviceable => "SERVICEABLE",
        Serviceability::NonServiceable => "NON_SERVICEABLE",
        // An older discovery that leaves it unset: nothing listed means nothing delivers.
        Serviceability::Unspecified if reply.unfiltered_total > 0 => "SERVICEABLE",
        Serviceability::Unspecified => "NON_SERVICEABLE",
    };
    let restaurants_text = |n: u32| {
        if n == 1 {
            "at 1 restaurant near you".to_string()
        } else {
            format!("at {n} restaurants near you")
        }
    };
    Listing {
        total_restaurants: page.total_restaurants,
        page_index: offset / PAGE_SIZE,
        page_offset: PageOffset {
            offset,
            next_offset: page.next_offset,
        },
        serviceability,
        cards: cards(&page.open),
        closed_cards: cards(&page.closed),
        unfiltered_total: reply.unfiltered_total,
        sort_by: SORTS
            .iter()
            .find(|(_, s, _)| *s == sort)
            .map_or("RELEVANCE", |(k, _, _)| k),
        filters,
        sort_configs: SORTS
            .iter()
            .map(|(key, _, title)| Choice { key, title })
            .collect(),
        facets: Facets {
            cuisines: reply
                .cuisines
                .iter()
                .map(|c| CuisineFacet {
                    label: c.cuisine.clone(),
                    count: c.restaurants,
                })
                .collect(),
            cost_ranges: COST_RANGES
                .iter()
                .map(|(key, _, title)| Choice { key, title })
                .collect(),
        },
        top_carousel: reply.top_carousel.iter().map(collection_json).collect(),
        banner_carousel: reply
            .banners
            .iter()
            .enumerate()
            .map(|(i, b)| BannerJson {
                title: b.offer_text.clone(),
                text: restaurants_text(b.restaurants),
                image_id: format!("banner-{}", i + 1),
                link: "/offers".into(),
            })
            .collect(),
        filter_collections: reply
            .filter_collections
            .iter()
            .map(collection_json)
            .collect(),
        nudge_card: reply.nudge.map(|n| NudgeJson {
            title: n.title,
            text: n.text,
            link: format!("/collections/{}", n.collection_id),
        }),
        collection: reply.collection.as_ref().map(collection_json),
    }
}
