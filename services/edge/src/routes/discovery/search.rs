//! Search: routes `GET restaurants/search/suggest` (discovery `SuggestSearch`),
//! `GET restaurants/search/v3` (discovery `Search`) and `GET landing/PRE_SEARCH` (discovery
//! `GetPreSearch`). Search and auto-suggest need a string plus lat and lng; without
//! a usable location the answer is 400 / 1 `Invalid user location.` (checked before the string).
//!
//! Results come in tabs (Restaurants, Dishes); one call returns the cards of one tab (the first
//! when none is asked for) and every tab's count, so the web app caches results per tab. Nothing
//! found is a success with no cards: the page shows "There's nothing here".

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::discovery::v1::{
    DishResult, GetPreSearchRequest, SearchRequest, SuggestSearchRequest, Suggestion,
    SuggestionKind,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::http::messages;
use crate::http::params::{self, Params};
use crate::infra::state::AppState;
use crate::views::restaurant::{RestaurantJson, restaurant_json};

/// Query of the three calls (`str` only for the first two, `selectedTab` only for results).
#[derive(Debug, Deserialize)]
pub struct SearchQuery {
    #[serde(rename = "str")]
    text: Option<String>,
    lat: Option<String>,
    lng: Option<String>,
    #[serde(rename = "selectedTab")]
    selected_tab: Option<String>,
}

/// The location, then a non-blank search string: 400 / 1 otherwise.
fn location_and_text(
    query: &SearchQuery,
) -> Result<(tiffin_proto::discovery::v1::LatLng, String), ApiError> {
    let location = params::location(query.lat.as_deref(), query.lng.as_deref())?;
    let text = query.text.as_deref().map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Err(ApiError::BadRequest(messages::BAD_REQUEST));
    }
    Ok((location, text.to_string()))
}

/// `data` of `restaurants/search/suggest`.
#[derive(Debug, Serialize)]
pub struct Suggestions {
    suggestions: Vec<SuggestionJson>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SuggestionJson {
    /// `CUISINE`, `RESTAURANT` or `DISH`.
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
    subtitle: String,
    cloudinary_image_id: String,
    /// A restaurant's id (as a string), slug and city: where the suggestion leads.
    #[serde(skip_serializing_if = "Option::is_none")]
    restaurant_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    slug: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    city: Option<String>,
}

fn suggestion_json(s: &Suggestion) -> Option<SuggestionJson> {
    let kind = match s.kind() {
        SuggestionKind::Cuisine => "CUISINE",
        SuggestionKind::Restaurant => "RESTAURANT",
        SuggestionKind::Dish => "DISH",
        SuggestionKind::Unspecified => return None,
    };
    let restaurant = s.restaurant_id != 0;
    Some(SuggestionJson {
        kind,
        text: s.text.clone(),
        subtitle: s.subtitle.clone(),
        cloudinary_image_id: s.image_id.clone(),
        restaurant_id: restaurant.then(|| s.restaurant_id.to_string()),
        slug: restaurant.then(|| s.restaurant_slug.clone()),
        city: restaurant.then(|| s.city.clone()),
    })
}

/// `GET /api/restaurants/search/suggest?str=&lat=&lng=`
pub async fn suggest(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<SearchQuery>,
) -> Result<Data<Suggestions>, ApiError> {
    let (location, text) = location_and_text(&query)?;
    let request = SuggestSearchRequest {
        query: text,
        location: Some(location),
        limit: 0,
    };
    let upstreams = &state.upstreams;
    let reply = upstreams
        .discovery
        .clone()
        .suggest_search(upstreams.request(request, &caller))
        .await?
        .into_inner();
    Ok(Data::ok(Suggestions {
        suggestions: reply
            .suggestions
            .iter()
            .filter_map(suggestion_json)
            .collect(),
    }))
}

/// The result tabs, in order; the first is selected when none is asked for.
const TABS: [(&str, &str); 2] = [("RESTAURANT", "Restaurants"), ("DISH", "Dishes")];

/// `data` of `restaurants/search/v3`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Results {
    query: String,
    selected_tab: &'static str,
    navigation: Vec<Tab>,
    /// The selected tab's cards, best first.
    cards: Vec<ResultCard>,
}

#[derive(Debug, Serialize)]
struct Tab {
    id: &'static str,
    title: &'static str,
    count: usize,
}

#[derive(Debug, Serialize)]
struct ResultCard {
    #[serde(rename = "type")]
    kind: &'static str,
    tab: &'static str,
    data: CardData,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum CardData {
    Restaurant(Box<RestaurantJson>),
    Dish(Box<DishCard>),
}

#[derive(Debug, Serialize)]
struct DishCard {
    dish: DishJson,
    restaurant: RestaurantJson,
}

/// A dish as the search page shows it (the menu's item fields where they exist).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct DishJson {
    id: String,
    restaurant_id: String,
    name: String,
    category: String,
    /// Paise.
    price: i64,
    /// Struck-out price in paise, when there is one.
    default_price: Option<i64>,
    veg_type: String,
    /// 1 for veg (the menu's `isVeg`).
    is_veg: u8,
    /// 1 when in stock (the menu's `inStock`).
    in_stock: u8,
    /// Variants or add-ons: chosen on the menu, not from a search result.
    customisable: bool,
    cloudinary_image_id: String,
}

fn dish_card(result: &DishResult) -> Option<DishCard> {
    let d = result.dish.as_ref()?;
    let restaurant = restaurant_json(result.restaurant.as_ref()?)?;
    Some(DishCard {
        dish: DishJson {
            id: d.id.to_string(),
            restaurant_id: d.restaurant_id.to_string(),
            name: d.name.clone(),
            category: d.category.clone(),
            price: d.price_paise,
            default_price: d.original_price_paise,
            veg_type: d.veg_type.clone(),
            is_veg: u8::from(d.veg_type == "VEG"),
            in_stock: u8::from(d.in_stock),
            customisable: d.customisable,
            cloudinary_image_id: d.image_id.clone(),
        },
        restaurant,
    })
}

/// `GET /api/restaurants/search/v3?str=&lat=&lng=&selectedTab=`
pub async fn results(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<SearchQuery>,
) -> Result<Data<Results>, ApiError> {
    let (location, text) = location_and_text(&query)?;
    let selected_tab = match query.selected_tab.as_deref().map(str::trim) {
        None | Some("") => TABS[0].0,
        Some(tab) => TABS
            .iter()
            .map(|(id, _)| *id)
            .find(|id| id.eq_ignore_ascii_case(tab))
            .ok_or(ApiError::BadRequest(messages::BAD_REQUEST))?,
    };
    let request = SearchRequest {
        query: text.clone(),
        location: Some(location),
        limit: 0,
    };
    let upstreams = &state.upstreams;
    let reply = upstreams
        .discovery
        .clone()
        .search(upstreams.request(request, &caller))
        .await?
        .into_inner();

    let restaurants: Vec<RestaurantJson> = reply
        .restaurants
        .iter()
        .filter_map(restaurant_json)
        .collect();
    let dishes: Vec<DishCard> = reply.dishes.iter().filter_map(dish_card).collect();
    let navigation = vec![
        Tab {
            id: TABS[0].0,
            title: TABS[0].1,
            count: restaurants.len(),
        },
        Tab {
            id: TABS[1].0,
            title: TABS[1].1,
            count: dishes.len(),
        },
    ];
    let cards = if selected_tab == "RESTAURANT" {
        restaurants
            .into_iter()
            .map(|r| ResultCard {
                kind: "RESTAURANT",
                tab: "RESTAURANT",
                data: CardData::Restaurant(Box::new(r)),
            })
            .collect()
    } else {
        dishes
            .into_iter()
            .map(|d| ResultCard {
                kind: "DISH",
                tab: "DISH",
                data: CardData::Dish(Box::new(d)),
            })
            .collect()
    };
    Ok(Data::ok(Results {
        query: text,
        selected_tab,
        navigation,
        cards,
    }))
}

/// `data` of `landing/PRE_SEARCH`: the contract's reply shape with one card, the popular cuisines.
/// Recent searches are kept by the browser (local storage), never sent.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PreSearch {
    page_offset: PageOffset,
    first_offset_request: bool,
    ribbons: Vec<()>,
    cards: Vec<PreSearchCard>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PageOffset {
    offset: u32,
    next_offset: Option<u32>,
}

#[derive(Debug, Serialize)]
struct PreSearchCard {
    card: PopularCuisines,
}

#[derive(Debug, Serialize)]
struct PopularCuisines {
    #[serde(rename = "type")]
    kind: &'static str,
    title: &'static str,
    cuisines: Vec<CuisineJson>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CuisineJson {
    name: String,
    restaurant_count: u32,
    cloudinary_image_id: String,
}

/// `GET /api/landing/PRE_SEARCH?lat=&lng=`
pub async fn pre_search(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<SearchQuery>,
) -> Result<Data<PreSearch>, ApiError> {
    let location = params::location(query.lat.as_deref(), query.lng.as_deref())?;
    let request = GetPreSearchRequest {
        location: Some(location),
        limit: 0,
    };
    let upstreams = &state.upstreams;
    let reply = upstreams
        .discovery
        .clone()
        .get_pre_search(upstreams.request(request, &caller))
        .await?
        .into_inner();
    let cuisines = reply
        .cuisines
        .into_iter()
        .map(|c| CuisineJson {
            name: c.name,
            restaurant_count: c.restaurant_count,
            cloudinary_image_id: c.image_id,
        })
        .collect();
    Ok(Data::ok(PreSearch {
        page_offset: PageOffset {
            offset: 0,
            next_offset: None,
        },
        first_offset_request: true,
        ribbons: Vec::new(),
        cards: vec![PreSearchCard {
            card: PopularCuisines {
                kind: "POPULAR_CUISINES",
                title: "Popular Cuisines",
                cuisines,
            },
        }],
    }))
}
