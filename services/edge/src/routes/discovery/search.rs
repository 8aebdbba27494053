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
use crate::views::food::VegWord;
use crate::views::page::PageOffset;
use crate::views::restaurant::{RestaurantJson, restaurant_json};

/// Query of the three calls (`str` only for the first two, `selectedTab` only for results).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    #[serde(rename = "str")]
    /// What was typed (auto-suggest, results).
    text: Option<String>,
    /// The delivery point (every call).
    lat: Option<String>,
    lng: Option<String>,
    #[serde(rename = "selectedTab")]
    /// `RESTAURANT` (default) or `DISH` (results only).
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
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SearchSuggestions)]
pub struct Suggestions {
    suggestions: Vec<SuggestionJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SearchSuggestion)]
struct SuggestionJson {
    #[serde(rename = "type")]
    kind: SuggestionType,
    text: String,
    subtitle: String,
    cloudinary_image_id: String,
    /// A restaurant's id (as a string), slug and city: where the suggestion leads.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String)]
    restaurant_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String)]
    slug: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String)]
    city: Option<String>,
}

/// What a suggestion is: picking a cuisine or a dish searches its `text`, a restaurant opens it.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[schema(as = SearchSuggestionType)]
enum SuggestionType {
    Cuisine,
    Restaurant,
    Dish,
}

fn suggestion_json(s: &Suggestion) -> Option<SuggestionJson> {
    let kind = match s.kind() {
        SuggestionKind::Cuisine => SuggestionType::Cuisine,
        SuggestionKind::Restaurant => SuggestionType::Restaurant,
        SuggestionKind::Dish => SuggestionType::Dish,
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
#[utoipa::path(
    get,
    path = "/restaurants/search/suggest",
    tag = "discovery",
    operation_id = "suggestSearch",
    params(SearchQuery),
    responses((status = 200, description = "At most 8 suggestions: cuisines, restaurants, then dishes.", body = crate::http::envelope::Envelope<Suggestions>), crate::http::error::Failures)
)]
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

/// A tab of results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[schema(as = SearchTab)]
enum TabId {
    Restaurant,
    Dish,
}

/// The result tabs, in order; the first is selected when none is asked for.
const TABS: [(TabId, &str, &str); 2] = [
    (TabId::Restaurant, "RESTAURANT", "Restaurants"),
    (TabId::Dish, "DISH", "Dishes"),
];

/// `data` of `restaurants/search/v3`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SearchResults)]
pub struct Results {
    query: String,
    selected_tab: TabId,
    navigation: Vec<Tab>,
    /// The selected tab's cards, best first.
    cards: Vec<ResultCard>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SearchTabCount)]
struct Tab {
    id: TabId,
    title: &'static str,
    count: usize,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SearchResultCard)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
enum ResultCard {
    /// `tab` is `RESTAURANT`.
    Restaurant {
        tab: TabId,
        data: Box<RestaurantJson>,
    },
    /// `tab` is `DISH`.
    Dish { tab: TabId, data: Box<DishCard> },
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SearchDishCard)]
struct DishCard {
    dish: DishJson,
    restaurant: RestaurantJson,
}

/// A dish as the search page shows it (the menu's item fields where they exist).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SearchDish)]
struct DishJson {
    id: String,
    restaurant_id: String,
    name: String,
    category: String,
    /// Paise.
    price: i64,
    /// Struck-out price in paise, when there is one.
    #[schema(required)]
    default_price: Option<i64>,
    veg_type: VegWord,
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
            veg_type: match d.veg_type.as_str() {
                "VEG" => VegWord::Veg,
                "NONVEG" => VegWord::NonVeg,
                "EGG" => VegWord::Egg,
                _ => VegWord::Default,
            },
            is_veg: u8::from(d.veg_type == "VEG"),
            in_stock: u8::from(d.in_stock),
            customisable: d.customisable,
            cloudinary_image_id: d.image_id.clone(),
        },
        restaurant,
    })
}

/// `GET /api/restaurants/search/v3?str=&lat=&lng=&selectedTab=`
#[utoipa::path(
    get,
    path = "/restaurants/search/v3",
    tag = "discovery",
    operation_id = "searchResults",
    params(SearchQuery),
    responses((status = 200, description = "The selected tab's cards (at most 30, best first) and every tab's count; nothing found is empty `cards`.", body = crate::http::envelope::Envelope<Results>), crate::http::error::Failures)
)]
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
            .find(|(_, word, _)| word.eq_ignore_ascii_case(tab))
            .map(|(id, _, _)| *id)
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
            title: TABS[0].2,
            count: restaurants.len(),
        },
        Tab {
            id: TABS[1].0,
            title: TABS[1].2,
            count: dishes.len(),
        },
    ];
    let cards = match selected_tab {
        TabId::Restaurant => restaurants
            .into_iter()
            .map(|r| ResultCard::Restaurant {
                tab: selected_tab,
                data: Box::new(r),
            })
            .collect(),
        TabId::Dish => dishes
            .into_iter()
            .map(|d| ResultCard::Dish {
                tab: selected_tab,
                data: Box::new(d),
            })
            .collect(),
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
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreSearch {
    page_offset: PageOffset,
    first_offset_request: bool,
    /// Always `[]`.
    #[schema(value_type = Vec<Object>)]
    ribbons: Vec<()>,
    cards: Vec<PreSearchCard>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PreSearchCard {
    card: PopularCuisines,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PopularCuisines {
    #[serde(rename = "type")]
    kind: PopularCuisinesKind,
    title: &'static str,
    cuisines: Vec<CuisineJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PopularCuisine)]
struct CuisineJson {
    name: String,
    restaurant_count: u32,
    cloudinary_image_id: String,
}

/// The one kind of pre-search card.
#[derive(Debug, Clone, Copy, Serialize, utoipa::ToSchema)]
enum PopularCuisinesKind {
    #[serde(rename = "POPULAR_CUISINES")]
    PopularCuisines,
}

/// `GET /api/landing/PRE_SEARCH?lat=&lng=`
#[utoipa::path(
    get,
    path = "/landing/PRE_SEARCH",
    tag = "discovery",
    operation_id = "preSearch",
    params(SearchQuery),
    responses((status = 200, description = "The popular cuisines near the point.", body = crate::http::envelope::Envelope<PreSearch>), crate::http::error::Failures)
)]
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
                kind: PopularCuisinesKind::PopularCuisines,
                title: "Popular Cuisines",
                cuisines,
            },
        }],
    }))
}
