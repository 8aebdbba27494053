//! Routes `GET misc/cities` (discovery `ListCities`, through the edge's copy of the list) and
//! `GET restaurants/city` (discovery `ListCityRestaurants`): a city, area or cuisine page's
//! restaurants, its areas and cuisines, and the page's words.

use axum::extract::State;
use serde::{Deserialize, Serialize};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::http::params::{Params, optional_number};
use crate::infra::city_cache::PageNames;
use crate::infra::state::AppState;
use crate::routes::discovery::restaurants::PAGE_SIZE;
use crate::views::city_page::{PageSubject, page_text};
use crate::views::page::PageOffset;
use crate::views::restaurant::{RestaurantCardJson, restaurant_card, restaurant_json};

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Cities {
    cities: Vec<CityJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = City)]
struct CityJson {
    slug: String,
    name: String,
    enabled: bool,
}

/// `GET /api/misc/cities`: every city with its `enabled` flag (the footer lists the enabled ones).
#[utoipa::path(
    get,
    path = "/misc/cities",
    tag = "discovery",
    operation_id = "listCities",
    responses((status = 200, description = "Every city with its `enabled` flag.", body = crate::http::envelope::Envelope<Cities>), crate::http::error::Failures)
)]
pub async fn list(
    State(state): State<AppState>,
    Identity(caller): Identity,
) -> Result<Data<Cities>, ApiError> {
    let cities = state.cities.get(&state.upstreams, &caller).await?;
    let cities = cities
        .iter()
        .map(|c| CityJson {
            slug: c.slug.clone(),
            name: c.name.clone(),
            enabled: c.enabled,
        })
        .collect();
    Ok(Data::ok(Cities { cities }))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CityQuery {
    /// The city slug (`bangalore`).
    city: Option<String>,
    /// An area slug of the city (`koramangala`).
    area: Option<String>,
    /// A cuisine: a URL word (`rolls-wraps`) or a name.
    cuisine: Option<String>,
    /// `1` or `true`: a best-restaurants page (only its words differ).
    best: Option<String>,
    /// Restaurants to skip (pages of 15).
    offset: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CityPage)]
pub struct CityPageJson {
    city: CityJson,
    #[schema(required)]
    area: Option<PlaceJson>,
    #[schema(required)]
    cuisine: Option<String>,
    title: String,
    description: String,
    heading: String,
    total_restaurants: u32,
    page_offset: PageOffset,
    cards: Vec<RestaurantCardJson>,
    areas: Vec<AreaJson>,
    cuisines: Vec<CuisineJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CityPageArea)]
struct PlaceJson {
    slug: String,
    name: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CityPageAreaLink)]
struct AreaJson {
    slug: String,
    name: String,
    restaurants: u32,
    link: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = CityPageCuisine)]
struct CuisineJson {
    label: String,
    count: u32,
    link: String,
}

/// `GET /api/restaurants/city?city=&area=&cuisine=&best=&offset=`: a city page's restaurants
/// (no delivery point needed), its areas and cuisines, and the page's title and description.
#[utoipa::path(
    get,
    path = "/restaurants/city",
    tag = "discovery",
    operation_id = "cityRestaurants",
    params(CityQuery),
    responses((status = 200, description = "A city, area or cuisine page: its restaurants (open first), areas, cuisines and words.", body = crate::http::envelope::Envelope<CityPageJson>), crate::http::error::Failures)
)]
pub async fn restaurants(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<CityQuery>,
) -> Result<Data<CityPageJson>, ApiError> {
    let offset = optional_number::<u32>(query.offset.as_deref())?.unwrap_or(0);
    let city = query.city.unwrap_or_default();
    let request = tiffin_proto::discovery::v1::ListCityRestaurantsRequest {
        city: city.clone(),
        area_slug: query.area.unwrap_or_default(),
        cuisine: query.cuisine.unwrap_or_default(),
        offset,
        limit: PAGE_SIZE,
    };
    let asked_cuisine = !request.cuisine.trim().is_empty();
    let area_slug = request.area_slug.trim().to_lowercase();
    let up = &state.upstreams;
    let reply = up
        .discovery
        .clone()
        .list_city_restaurants(up.request(request, &caller))
        .await?
        .into_inner();
    let best = query.best.as_deref() == Some("1") || query.best.as_deref() == Some("true");
    let subject = PageSubject::of(&PageNames::of(&reply, asked_cuisine), best);
    let city = reply.city.unwrap_or_default();
    let (title, description, heading) = page_text(&subject);
    Ok(Data::ok(CityPageJson {
        area: (!reply.area_name.is_empty()).then(|| PlaceJson {
            slug: area_slug.clone(),
            name: reply.area_name.clone(),
        }),
        cuisine: (!reply.cuisine.is_empty()).then(|| reply.cuisine.clone()),
        title,
        description,
        heading,
        total_restaurants: reply.total_restaurants,
        page_offset: PageOffset {
            offset,
            next_offset: reply.next_offset,
        },
        cards: reply
            .restaurants
            .iter()
            .filter_map(restaurant_json)
            .map(restaurant_card)
            .collect(),
        areas: reply
            .areas
            .iter()
            .map(|a| AreaJson {
                link: format!("/city/{}/{}-restaurants", city.slug, a.slug),
                slug: a.slug.clone(),
                name: a.name.clone(),
                restaurants: a.restaurants,
            })
            .collect(),
        cuisines: reply
            .cuisines
            .iter()
            .map(|c| CuisineJson {
                // Discovery cuts the cuisine's URL word (`CuisineCount.slug`), the same one
                // its cuisine lookup compares by.
                link: if area_slug.is_empty() {
                    format!("/{}/{}-collection", city.slug, c.slug)
                } else {
                    format!("/{}/area-{}/{}-collection", city.slug, area_slug, c.slug)
                },
                label: c.cuisine.clone(),
                count: c.restaurants,
            })
            .collect(),
        city: CityJson {
            slug: city.slug,
            name: city.name,
            enabled: city.enabled,
        },
    }))
}
