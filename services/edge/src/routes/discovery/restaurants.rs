//! Routes `GET restaurants/list/v5`, `POST restaurants/list/update` and `GET offers/restaurant`
//! (discovery `RefineListing`: sort, filters, collections, carousels). The cards are the shared
//! restaurant view (`views::restaurant`); the favourites collection is narrowed to the caller's
//! favourites by the account routes, since discovery holds no users.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::discovery::v1::{
    CollectionCard, CostRange, LatLng, ListingFilters, RefineListingRequest, RefineListingResponse,
    RestaurantCard, RestaurantIds, Serviceability, SortBy,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::http::messages;
use crate::http::params::{self, Params, json_body};
use crate::infra::state::AppState;
use crate::views::page::PageOffset;
use crate::views::restaurant::{RestaurantCardJson, restaurant_card, restaurant_json};

/// Restaurants per page (the contract's page size).
pub const PAGE_SIZE: u32 = 15;

/// Query of the listing (`page_type` is accepted for the contract's request shape; every page type
/// lists the same way). `collection` narrows it to a collection; `sortBy` orders it.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// The delivery point (required).
    lat: Option<String>,
    lng: Option<String>,
    /// Restaurants to skip (pages of 15).
    offset: Option<String>,
    /// A collection id (`80002`; `83951` is the caller's favourites).
    collection: Option<String>,
    /// `RELEVANCE` (default), `DELIVERY_TIME`, `RATING`, `COST_LOW_TO_HIGH`, `COST_HIGH_TO_LOW`.
    sort_by: Option<String>,
}

/// Body of `restaurants/list/update`: the listing's query plus filters. `lat`/`lng` may be numbers
/// or numeric strings.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = ListingUpdate)]
pub struct UpdateBody {
    /// A number or a numeric string.
    #[schema(value_type = Option<NumberOrText>)]
    lat: Option<serde_json::Value>,
    /// A number or a numeric string.
    #[schema(value_type = Option<NumberOrText>)]
    lng: Option<serde_json::Value>,
    offset: Option<u32>,
    /// A collection id, as a number or a string.
    #[schema(value_type = Option<NumberOrText>)]
    collection: Option<serde_json::Value>,
    /// As the query's `sortBy` (read in any case).
    #[schema(value_type = Option<SortKey>)]
    sort_by: Option<String>,
    filters: FiltersJson,
}

/// A value sent as a JSON number or a numeric string (only in the OpenAPI document: the body reads
/// it as any JSON value and takes numbers and strings).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
#[serde(untagged)]
enum NumberOrText {
    Number(f64),
    Text(String),
}

/// The listing's filters, as sent and as echoed back.
#[derive(Debug, Default, Clone, Deserialize, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
#[schema(as = ListingFilters)]
pub struct FiltersJson {
    /// Rated 4.0 or more.
    #[serde(rename = "rating4Plus")]
    rating_4_plus: bool,
    pure_veg: bool,
    /// The estimate's lower bound is at most 30 minutes.
    fast_delivery: bool,
    /// `UNDER_300`, `300_TO_600`, `OVER_600` (read in any case; echoed as sent).
    #[schema(value_type = Vec<CostRangeKey>)]
    cost_ranges: Vec<String>,
    /// Names or URL words (`Rolls & Wraps`, `rolls-wraps`), at most 20.
    cuisines: Vec<String>,
    /// Has an offer.
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
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    /// Restaurants in the refined list.
    total_restaurants: u32,
    page_index: u32,
    page_offset: PageOffset,
    serviceability: ListingServiceability,
    /// Open restaurants of this page.
    cards: Vec<RestaurantCardJson>,
    /// Closed restaurants of this page (after every open one).
    closed_cards: Vec<RestaurantCardJson>,
    /// Restaurants delivering here before filters and collection.
    unfiltered_total: u32,
    /// The sort applied.
    #[schema(value_type = SortKey)]
    sort_by: &'static str,
    /// The filters as sent.
    filters: FiltersJson,
    sort_configs: Vec<SortChoice>,
    facets: Facets,
    /// Cuisine collections near the point ("What's on your mind?"), at most 12.
    top_carousel: Vec<CollectionJson>,
    /// Offer headlines near the point, at most 5.
    banner_carousel: Vec<BannerJson>,
    /// Themed collections with at least one restaurant here.
    filter_collections: Vec<CollectionJson>,
    /// Points at fast delivery when it applies; otherwise `null`.
    #[schema(required)]
    nudge_card: Option<NudgeJson>,
    /// The collection listed; `null` without one.
    #[schema(required)]
    collection: Option<CollectionJson>,
}

/// Whether anything delivers to the point (both lists are empty when nothing does).
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[schema(as = Serviceability)]
enum ListingServiceability {
    Serviceable,
    NonServiceable,
}

/// A sort of the sort menu.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SortChoice)]
struct SortChoice {
    #[schema(value_type = SortKey)]
    key: &'static str,
    title: &'static str,
}

/// A cost range of the filters.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CostRangeChoice)]
struct CostChoice {
    #[schema(value_type = CostRangeKey)]
    key: &'static str,
    title: &'static str,
}

/// The words of [`SORTS`], as the OpenAPI document's `ListingSortKey` enum.
struct SortKey;

impl utoipa::PartialSchema for SortKey {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        words_schema(SORTS.iter().map(|(key, _, _)| *key))
    }
}

impl utoipa::ToSchema for SortKey {
    fn name() -> std::borrow::Cow<'static, str> {
        "ListingSortKey".into()
    }
}

/// The words of [`COST_RANGES`], as the OpenAPI document's `CostRangeKey` enum.
struct CostRangeKey;

impl utoipa::PartialSchema for CostRangeKey {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        words_schema(COST_RANGES.iter().map(|(key, _, _)| *key))
    }
}

impl utoipa::ToSchema for CostRangeKey {}

fn words_schema(
    words: impl Iterator<Item = &'static str>,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(words))
        .into()
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ListingFacets)]
struct Facets {
    cuisines: Vec<CuisineFacet>,
    cost_ranges: Vec<CostChoice>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct CuisineFacet {
    label: String,
    count: u32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Collection)]
struct CollectionJson {
    id: String,
    title: String,
    description: String,
    image_id: String,
    link: String,
    /// How many of it deliver to the point.
    restaurants: u32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Banner)]
struct BannerJson {
    title: String,
    text: String,
    image_id: String,
    link: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Nudge)]
struct NudgeJson {
    title: String,
    text: String,
    link: String,
}

/// `GET /api/restaurants/list/v5?lat=&lng=&offset=&collection=&sortBy=`
#[utoipa::path(
    get,
    path = "/restaurants/list/v5",
    tag = "discovery",
    operation_id = "listRestaurants",
    params(ListQuery),
    responses((status = 200, description = "The listing: open restaurants first, then closed ones; 15 a page.", body = crate::http::envelope::Envelope<Listing>), crate::http::error::Failures)
)]
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
    refined(&state, &caller, request, FiltersJson::default())
        .await
        .map(Data::ok)
}

/// The plain listing's first page at `location`: what `restaurants/list/v5` answers the listing
/// page's first call (no collection, sort or filter, offset 0), for a page that carries it.
pub async fn first_page(
    state: &AppState,
    caller: &tiffin_platform::identity::Caller,
    location: LatLng,
) -> Result<Listing, ApiError> {
    let request = RefineListingRequest {
        location: Some(location),
        offset: 0,
        limit: PAGE_SIZE,
        sort: SortBy::Relevance.into(),
        filters: None,
        collection_id: 0,
        only_restaurants: None,
    };
    refined(state, caller, request, FiltersJson::default()).await
}

/// `POST /api/restaurants/list/update` `{ lat, lng, offset, sortBy, filters, collection }`: the
/// next page, or a refined first page (the CSRF token has been checked already).
#[utoipa::path(
    post,
    path = "/restaurants/list/update",
    tag = "discovery",
    operation_id = "refineListing",
    request_body(content = UpdateBody, content_type = "application/json"),
    responses((status = 200, description = "The next page, or a refined first page.", body = crate::http::envelope::Envelope<Listing>), crate::http::error::Failures)
)]
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
    refined(&state, &caller, request, body.filters)
        .await
        .map(Data::ok)
}

/// `GET /api/offers/restaurant?lat=&lng=&offset=`: restaurants with an offer near the point, in
/// the listing's shape.
#[utoipa::path(
    get,
    path = "/offers/restaurant",
    tag = "discovery",
    operation_id = "offerRestaurants",
    params(ListQuery),
    responses((status = 200, description = "Restaurants with an offer near the point, in the listing's shape.", body = crate::http::envelope::Envelope<Listing>), crate::http::error::Failures)
)]
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
    refined(&state, &caller, request, filters)
        .await
        .map(Data::ok)
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
) -> Result<Listing, ApiError> {
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
    Ok(listing_json(reply, offset, sort, filters))
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
    let cards = |list: &[RestaurantCard]| -> Vec<RestaurantCardJson> {
        list.iter()
            .filter_map(restaurant_json)
            .map(restaurant_card)
            .collect()
    };
    let serviceability = match page.serviceability() {
        Serviceability::Serviceable => ListingServiceability::Serviceable,
        Serviceability::NonServiceable => ListingServiceability::NonServiceable,
        // An older discovery that leaves it unset: nothing listed means nothing delivers.
        Serviceability::Unspecified if reply.unfiltered_total > 0 => {
            ListingServiceability::Serviceable
        }
        Serviceability::Unspecified => ListingServiceability::NonServiceable,
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
            .map(|(key, _, title)| SortChoice { key, title })
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
                .map(|(key, _, title)| CostChoice { key, title })
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
