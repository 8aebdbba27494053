//! Routes `GET menu/pl`, `GET menu/quick` and `GET menu/pl/search` (docs/edge-api.md, "Menu").
//!
//! `menu/pl` and `menu/quick` ask three things concurrently: the restaurant (discovery
//! `GetRestaurant`, with the delivery estimate to the visitor's point), its menu (menu `GetMenu`,
//! the quick form leaving out customisation) and, for a signed-in caller, whether it is a
//! favourite (account `ListFavourites`, which may fail or be slow without failing the page). The
//! header's states (closed, unserviceable), fee message and offers strip are decided here.
//!
//! The menu is read-mostly and large (a 60-item menu is ~2 000 JSON values, ~48 KiB), so this path
//! is kept light: the menu part of the page is written once per menu version and kept
//! (`menu_cache`: revalidated with the menu service, which answers `not_modified` for the version
//! held, at most `EDGE_MENU_FRESH_MS` after the last confirmation); the JSON views borrow every
//! string from the decoded reply instead of copying it, ids are written as strings without
//! building them, and the page goes to the envelope as serialised JSON (no `serde_json::Value`
//! tree).

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tiffin_platform::identity::Caller;
use tiffin_proto::account::v1::ListFavouritesRequest;
use tiffin_proto::discovery::v1::{GetRestaurantRequest, RestaurantCard, Sla};
use tiffin_proto::menu::v1::{
    AddonGroup, Category, GetMenuRequest, Menu, MenuItem, Offer, PricingModel, SearchMenuRequest,
    SpiceLevel, VariantGroup,
};

use crate::envelope::Outcome;
use crate::error::{ApiError, messages};
use crate::food::{flag, is_veg, veg_type_name};
use crate::menu_cache::{Fresh, MenuCache, ServedMenu, freshen};
use crate::params::{self, Params};
use crate::restaurants::{RestaurantJson, restaurant_json};
use crate::session::Identity;
use crate::state::AppState;
use crate::upstream::Upstreams;

/// The contract's wording for an unknown restaurant.
pub const RESTAURANT_NOT_FOUND: &str = "Restaurant not found";
/// The spec's item label text for an out-of-stock item (§8).
pub const OUT_OF_STOCK_MESSAGE: &str = "This item is not available.";
/// How long the page waits for the favourite flag before showing it as not favourite.
const FAVOURITES_TIMEOUT: Duration = Duration::from_millis(300);

/// Query of the menu page; a location is optional (a menu opened from a shared link has none).
#[derive(Debug, Deserialize)]
pub struct MenuQuery {
    /// `restaurant_id` too: the spec's menu route falls back to that query name.
    #[serde(rename = "restaurantId", alias = "restaurant_id")]
    restaurant_id: Option<String>,
    lat: Option<String>,
    lng: Option<String>,
}

/// Query of the in-menu search.
#[derive(Debug, Deserialize)]
pub struct SearchQuery {
    #[serde(rename = "restaurantId", alias = "restaurant_id")]
    restaurant_id: Option<String>,
    /// `str` and `searchText` too (the spec's search field names).
    #[serde(alias = "str", alias = "searchText")]
    query: Option<String>,
}

/// `GET /api/menu/pl?restaurantId=&lat=&lng=`
pub async fn pl(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<MenuQuery>,
) -> Result<Outcome, ApiError> {
    page(&state, &caller, &query, false).await
}

/// `GET /api/menu/quick?restaurantId=&lat=&lng=`: the page without the items' customisation.
pub async fn quick(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<MenuQuery>,
) -> Result<Outcome, ApiError> {
    page(&state, &caller, &query, true).await
}

/// `GET /api/menu/pl/search?restaurantId=&query=`
pub async fn search(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<SearchQuery>,
) -> Result<Outcome, ApiError> {
    let id = restaurant_id(query.restaurant_id.as_deref())?;
    let text = query.query.unwrap_or_default();
    let upstreams = &state.upstreams;
    let reply = upstreams
        .menu
        .clone()
        .search_menu(upstreams.request(
            SearchMenuRequest {
                restaurant_id: id,
                query: text.clone(),
            },
            &caller,
        ))
        .await
        .map_err(|e| ApiError::from(e).not_found_as(RESTAURANT_NOT_FOUND))?
        .into_inner();
    let view = SearchView {
        query: &text,
        item_ids: reply.items.iter().map(|i| IdStr(i.id)).collect(),
        items: ItemsView {
            items: &reply.items,
            quick: false,
        },
    };
    success(&view)
}

fn restaurant_id(value: Option<&str>) -> Result<u64, ApiError> {
    params::id(value.unwrap_or_default(), messages::BAD_REQUEST)
}

fn success(view: &impl Serialize) -> Result<Outcome, ApiError> {
    match Outcome::success_of(view) {
        Ok(outcome) => Ok(outcome),
        Err(e) => {
            tracing::error!(error = %e, "menu reply could not be serialised");
            Err(ApiError::Panic)
        }
    }
}

async fn page(
    state: &AppState,
    caller: &Caller,
    query: &MenuQuery,
    quick: bool,
) -> Result<Outcome, ApiError> {
    let id = restaurant_id(query.restaurant_id.as_deref())?;
    let location = params::optional_location(query.lat.as_deref(), query.lng.as_deref())?;
    let upstreams = &state.upstreams;
    let mut discovery = upstreams.discovery.clone();
    let restaurant =
        discovery.get_restaurant(upstreams.request(GetRestaurantRequest { id, location }, caller));
    let menu = current_menu(state, caller, id, quick);
    let favourite = is_favourite(upstreams, caller, id);
    let (restaurant, menu, favourite) = tokio::join!(restaurant, menu, favourite);
    let not_found = |e: tonic::Status| ApiError::from(e).not_found_as(RESTAURANT_NOT_FOUND);
    let card = restaurant
        .map_err(not_found)?
        .into_inner()
        .card
        .unwrap_or_default();
    let menu = menu.map_err(not_found)?;

    let base = restaurant_json(&card).ok_or(ApiError::NotFound(RESTAURANT_NOT_FOUND))?;
    let view = PageView {
        restaurant: header(base, &card, location.is_some(), favourite, &menu.offers),
        menu: &menu.json,
    };
    success(&view)
}

/// The restaurant's menu JSON as it is now: the one the edge holds when the menu service says it
/// is current, otherwise the one it sends, written and kept (see `menu_cache`).
async fn current_menu(
    state: &AppState,
    caller: &Caller,
    restaurant_id: u64,
    quick: bool,
) -> Result<Arc<ServedMenu>, tonic::Status> {
    let upstreams = &state.upstreams;
    let mut held = state.menus.get(restaurant_id, quick);
    if let Some(menu) = held.as_ref().filter(|m| state.menus.is_fresh(m)) {
        return Ok(Arc::clone(menu));
    }
    // Twice at most: a `not_modified` for a menu no longer held is asked again without a version.
    for _ in 0..2 {
        let request = GetMenuRequest {
            restaurant_id,
            quick,
            if_none_match: MenuCache::version_of(held.as_ref()),
        };
        let reply = upstreams
            .menu
            .clone()
            .get_menu(upstreams.request(request, caller))
            .await?
            .into_inner();
        match freshen(held.take(), reply) {
            Some(Fresh::Held(menu)) => {
                state.menus.confirmed(&menu);
                return Ok(menu);
            }
            Some(Fresh::Changed(menu, version)) => {
                let json = serde_json::value::to_raw_value(&MenuView {
                    widgets: WidgetsView(&menu),
                    items: ItemsView {
                        items: &menu.items,
                        quick,
                    },
                    item_count: menu.items.len(),
                })
                .map_err(|e| {
                    tracing::error!(error = %e, "menu could not be serialised");
                    tonic::Status::internal("menu could not be serialised")
                })?;
                let served = Arc::new(ServedMenu::new(version, json, menu.offers));
                state
                    .menus
                    .insert(restaurant_id, quick, Arc::clone(&served));
                return Ok(served);
            }
            None => continue,
        }
    }
    Err(tonic::Status::internal(
        "menu service answered not_modified to a request without a version",
    ))
}

/// Whether a signed-in caller has favourited the restaurant. A guest has no favourites; a failed,
/// missing or slow account service counts as "not a favourite" (logged), never as a failed page.
async fn is_favourite(upstreams: &Upstreams, caller: &Caller, restaurant_id: u64) -> bool {
    if caller.user_id.is_none() {
        return false;
    }
    let mut account = upstreams.account.clone();
    let call = account.list_favourites(upstreams.request(ListFavouritesRequest {}, caller));
    match tokio::time::timeout(FAVOURITES_TIMEOUT, call).await {
        Ok(Ok(reply)) => reply.into_inner().restaurant_ids.contains(&restaurant_id),
        Ok(Err(status)) => {
            tracing::warn!(code = ?status.code(), message = status.message(), "favourites unavailable for the menu");
            false
        }
        Err(_) => {
            tracing::warn!("favourites timed out for the menu");
            false
        }
    }
}

// ---- The restaurant header ----------------------------------------------------------------------

/// Whether the restaurant can take an order to the visitor's point, first that applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryState {
    /// Not accepting orders now.
    Closed,
    /// A point was given and it is outside the delivery radius.
    Unserviceable,
    Open,
}

impl DeliveryState {
    /// Closed first: a closed restaurant delivers nowhere, whatever the point.
    pub fn of(opened: bool, sla: Option<&Sla>) -> Self {
        if !opened {
            DeliveryState::Closed
        } else if sla.is_some_and(|s| !s.serviceable) {
            DeliveryState::Unserviceable
        } else {
            DeliveryState::Open
        }
    }

    fn name(self) -> &'static str {
        match self {
            DeliveryState::Closed => "CLOSED",
            DeliveryState::Unserviceable => "UNSERVICEABLE",
            DeliveryState::Open => "OPEN",
        }
    }

    /// The spec's restaurant status text (§8).
    pub fn text(self) -> Option<&'static str> {
        match self {
            DeliveryState::Closed => Some("Closed & not delivering"),
            DeliveryState::Unserviceable => Some("Does not deliver"),
            DeliveryState::Open => None,
        }
    }

    /// The spec's longer message for the state (§8: cart and menu messages).
    pub fn message(self) -> Option<&'static str> {
        match self {
            DeliveryState::Closed => Some("Restaurant is currently closed"),
            DeliveryState::Unserviceable => {
                Some("Sorry, this restaurant does not deliver to this address")
            }
            DeliveryState::Open => None,
        }
    }
}

/// The fee line under the header: only for an open restaurant with a known distance. The amount
/// belongs to the cart's bill, so the line does not name one.
pub fn fee_message(state: DeliveryState, sla: Option<&Sla>) -> Option<String> {
    let sla = sla.filter(|_| state == DeliveryState::Open)?;
    let km = (sla.distance_km * 10.0).round() / 10.0;
    Some(format!("{km:.1} kms | Delivery fee will apply"))
}

fn header<'a>(
    base: RestaurantJson,
    card: &RestaurantCard,
    located: bool,
    favourite: bool,
    offers: &'a [Offer],
) -> HeaderView<'a> {
    let opened = card.restaurant.as_ref().is_some_and(|r| r.opened);
    // An estimate only counts when the visitor gave a point (discovery sends none otherwise).
    let sla = card.sla.as_ref().filter(|_| located);
    let state = DeliveryState::of(opened, sla);
    HeaderView {
        base,
        favourite,
        opened,
        unserviceable: state == DeliveryState::Unserviceable,
        tmp_closed: false,
        delivery_state: state.name(),
        delivery_state_text: state.text(),
        delivery_state_message: state.message(),
        fee_details: fee_message(state, sla).map(|message| FeeDetails {
            message,
            icon: "delivery",
        }),
        offers: offers
            .iter()
            .map(|o| OfferView {
                offer_id: &o.id,
                header: &o.header,
                coupon_code: &o.coupon_code,
                description: &o.description,
            })
            .collect(),
    }
}

// ---- JSON views ------------------------------------------------------------------------------

#[derive(Serialize)]
struct PageView<'a> {
    restaurant: HeaderView<'a>,
    /// The `MenuView`, written once per menu version (`menu_cache`).
    menu: &'a RawValue,
}

/// The contract's MenuRestaurant: the listing's Restaurant plus the header's fields.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HeaderView<'a> {
    #[serde(flatten)]
    base: RestaurantJson,
    favourite: bool,
    opened: bool,
    unserviceable: bool,
    tmp_closed: bool,
    delivery_state: &'static str,
    delivery_state_text: Option<&'static str>,
    delivery_state_message: Option<&'static str>,
    fee_details: Option<FeeDetails>,
    offers: Vec<OfferView<'a>>,
}

#[derive(Serialize)]
struct FeeDetails {
    message: String,
    icon: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OfferView<'a> {
    offer_id: &'a str,
    header: &'a str,
    coupon_code: &'a str,
    description: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MenuView<'a> {
    widgets: WidgetsView<'a>,
    items: ItemsView<'a>,
    item_count: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SearchView<'a> {
    query: &'a str,
    item_ids: Vec<IdStr>,
    items: ItemsView<'a>,
}

/// An id written as a JSON string (ids are strings in JSON), without building the string first.
#[derive(Clone, Copy)]
struct IdStr(u64);

impl Serialize for IdStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

#[derive(Serialize)]
struct Entity {
    id: IdStr,
}

/// The RECOMMENDED shelf first (when any item is recommended, in menu order), then the categories.
struct WidgetsView<'a>(&'a Menu);

impl Serialize for WidgetsView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let menu = self.0;
        let recommended: Vec<Entity> = menu
            .items
            .iter()
            .filter(|i| i.recommended)
            .map(|i| Entity { id: IdStr(i.id) })
            .collect();
        let shelf = (!recommended.is_empty()).then(|| Widget {
            kind: "RECOMMENDED",
            id: "recommended",
            name: "Recommended",
            entities: recommended,
            widgets: Vec::new(),
        });
        serializer.collect_seq(
            shelf
                .into_iter()
                .chain(menu.categories.iter().map(category_widget)),
        )
    }
}

/// A section of the menu: the RECOMMENDED shelf or a CATEGORY with nested sub-categories.
#[derive(Serialize)]
struct Widget<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'a str,
    name: &'a str,
    entities: Vec<Entity>,
    widgets: Vec<Widget<'a>>,
}

fn category_widget(category: &Category) -> Widget<'_> {
    Widget {
        kind: "CATEGORY",
        id: &category.id,
        name: &category.name,
        entities: category
            .item_ids
            .iter()
            .map(|&id| Entity { id: IdStr(id) })
            .collect(),
        widgets: category
            .sub_categories
            .iter()
            .map(category_widget)
            .collect(),
    }
}

/// `items`: every item keyed by its id.
struct ItemsView<'a> {
    items: &'a [MenuItem],
    /// The quick form: no customisation keys at all.
    quick: bool,
}

impl Serialize for ItemsView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.items.len()))?;
        for item in self.items {
            map.serialize_entry(&IdStr(item.id), &item_view(item, self.quick))?;
        }
        map.end()
    }
}

/// The struck-out price rule (spec §4): the list price is struck out next to the final price when
/// it differs from it and is above 0.
pub fn struck_out(price: i64, final_price: i64) -> Option<i64> {
    (price != final_price && price > 0).then_some(price)
}

/// The contract's MenuItem.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ItemView<'a> {
    id: IdStr,
    name: &'a str,
    description: &'a str,
    category: &'a str,
    sub_category: Option<&'a str>,
    cloudinary_image_id: &'a str,
    /// List price: the original price when discounted, else the final price.
    price: i64,
    default_price: i64,
    final_price: i64,
    struck_out_price: Option<i64>,
    is_veg: u8,
    veg_type: &'static str,
    in_stock: u8,
    next_available_at_message: Option<&'a str>,
    out_of_stock_message: Option<&'static str>,
    ribbon: Option<Ribbon<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spice_level: Option<&'static str>,
    recommended: bool,
    customisable: bool,
    /// Absent (not null) in the quick form, as are the two variant keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    addons: Option<Vec<AddonGroupView<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variants: Option<Option<VariantsView<'a>>>,
    #[serde(rename = "variantsV2", skip_serializing_if = "Option::is_none")]
    variants_v2: Option<Option<VariantsView<'a>>>,
}

#[derive(Serialize)]
struct Ribbon<'a> {
    text: &'a str,
}

#[derive(Serialize)]
struct AddonGroupView<'a> {
    group_id: &'a str,
    group_name: &'a str,
    #[serde(rename = "minAddons")]
    min_addons: u32,
    #[serde(rename = "maxAddons")]
    max_addons: u32,
    #[serde(rename = "maxFreeAddons")]
    max_free_addons: u32,
    choices: Vec<AddonChoiceView<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AddonChoiceView<'a> {
    id: &'a str,
    name: &'a str,
    price: i64,
    in_stock: u8,
    is_veg: u8,
}

/// V1 (`variants`) has no `pricing_models` key; V2 (`variantsV2`) has one.
#[derive(Serialize)]
struct VariantsView<'a> {
    variant_groups: Vec<VariantGroupView<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pricing_models: Option<Vec<PricingModelView<'a>>>,
}

#[derive(Serialize)]
struct VariantGroupView<'a> {
    group_id: &'a str,
    name: &'a str,
    variations: Vec<VariationView<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct VariationView<'a> {
    id: &'a str,
    name: &'a str,
    price: i64,
    default: u8,
    in_stock: u8,
    is_veg: u8,
}

#[derive(Serialize)]
struct PricingModelView<'a> {
    variations: Vec<VariationRefView<'a>>,
    price: i64,
}

#[derive(Serialize)]
struct VariationRefView<'a> {
    group_id: &'a str,
    variation_id: &'a str,
}

fn item_view(item: &MenuItem, quick: bool) -> ItemView<'_> {
    let final_price = item.price_paise;
    let price = item.original_price_paise.unwrap_or(final_price);
    let (variants, variants_v2) = if quick {
        (None, None)
    } else if item.variant_groups.is_empty() {
        (Some(None), Some(None))
    } else if item.pricing_models.is_empty() {
        (
            Some(Some(variants_view(&item.variant_groups, None))),
            Some(None),
        )
    } else {
        let v2 = variants_view(&item.variant_groups, Some(&item.pricing_models));
        (Some(None), Some(Some(v2)))
    };
    ItemView {
        id: IdStr(item.id),
        name: &item.name,
        description: &item.description,
        category: &item.category,
        sub_category: non_empty(&item.sub_category),
        cloudinary_image_id: &item.image_id,
        price,
        default_price: final_price,
        final_price,
        struck_out_price: struck_out(price, final_price),
        is_veg: is_veg(item.veg_type()),
        veg_type: veg_type_name(item.veg_type()),
        in_stock: flag(item.in_stock),
        next_available_at_message: if item.in_stock {
            None
        } else {
            non_empty(&item.next_available_message)
        },
        out_of_stock_message: (!item.in_stock).then_some(OUT_OF_STOCK_MESSAGE),
        ribbon: non_empty(&item.ribbon).map(|text| Ribbon { text }),
        spice_level: match item.spice_level() {
            SpiceLevel::MediumSpicy => Some("MEDIUMSPICY"),
            SpiceLevel::VerySpicy => Some("VERYSPICY"),
            SpiceLevel::Unspecified => None,
        },
        recommended: item.recommended,
        customisable: item.customisable
            || !item.addon_groups.is_empty()
            || !item.variant_groups.is_empty(),
        addons: (!quick).then(|| item.addon_groups.iter().map(addon_group_view).collect()),
        variants,
        variants_v2,
    }
}

fn non_empty(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

fn addon_group_view(group: &AddonGroup) -> AddonGroupView<'_> {
    AddonGroupView {
        group_id: &group.id,
        group_name: &group.name,
        min_addons: group.min_addons,
        max_addons: group.max_addons,
        max_free_addons: group.max_free_addons,
        choices: group
            .choices
            .iter()
            .map(|c| AddonChoiceView {
                id: &c.id,
                name: &c.name,
                price: c.price_paise,
                in_stock: flag(c.in_stock),
                is_veg: is_veg(c.veg_type()),
            })
            .collect(),
    }
}

fn variants_view<'a>(
    groups: &'a [VariantGroup],
    models: Option<&'a [PricingModel]>,
) -> VariantsView<'a> {
    VariantsView {
        variant_groups: groups
            .iter()
            .map(|g| VariantGroupView {
                group_id: &g.id,
                name: &g.name,
                variations: g
                    .variations
                    .iter()
                    .map(|v| VariationView {
                        id: &v.id,
                        name: &v.name,
                        price: v.price_paise,
                        default: flag(v.is_default),
                        in_stock: flag(v.in_stock),
                        is_veg: is_veg(v.veg_type()),
                    })
                    .collect(),
            })
            .collect(),
        pricing_models: models.map(|models| {
            models
                .iter()
                .map(|m| PricingModelView {
                    variations: m
                        .variations
                        .iter()
                        .map(|v| VariationRefView {
                            group_id: &v.group_id,
                            variation_id: &v.variation_id,
                        })
                        .collect(),
                    price: m.price_paise,
                })
                .collect()
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tiffin_proto::menu::v1::{AddonChoice, PricingModel, Variation, VariationRef};
    use tiffin_proto::types::VegType;

    use super::*;

    fn item(id: u64, recommended: bool) -> MenuItem {
        MenuItem {
            id,
            name: format!("Dish {id}"),
            price_paise: 24900,
            veg_type: VegType::Veg as i32,
            in_stock: true,
            recommended,
            ..Default::default()
        }
    }

    fn menu(items: Vec<MenuItem>) -> Menu {
        Menu {
            categories: vec![Category {
                id: "c-3".into(),
                name: "Biryani".into(),
                item_ids: vec![1],
                sub_categories: vec![Category {
                    id: "c-3-1".into(),
                    name: "Chicken Biryani".into(),
                    item_ids: vec![2],
                    sub_categories: vec![],
                }],
            }],
            items,
            ..Default::default()
        }
    }

    fn json_of(item: &MenuItem, quick: bool) -> Value {
        serde_json::to_value(item_view(item, quick)).unwrap()
    }

    fn size(variations: Vec<Variation>) -> VariantGroup {
        VariantGroup {
            id: "vg1".into(),
            name: "Size".into(),
            variations,
        }
    }

    fn variation(id: &str, price_paise: i64, is_default: bool) -> Variation {
        Variation {
            id: id.into(),
            name: id.into(),
            price_paise,
            is_default,
            in_stock: true,
            ..Default::default()
        }
    }

    #[test]
    fn recommended_comes_first_then_categories_with_nested_sub_categories() {
        let menu = menu(vec![item(1, false), item(2, true)]);
        let v = serde_json::to_value(WidgetsView(&menu)).unwrap();
        assert_eq!(v[0]["type"], "RECOMMENDED");
        assert_eq!(v[0]["entities"], json!([{ "id": "2" }]));
        assert_eq!(v[1]["type"], "CATEGORY");
        assert_eq!(v[1]["id"], "c-3");
        assert_eq!(v[1]["entities"], json!([{ "id": "1" }]));
        assert_eq!(v[1]["widgets"][0]["name"], "Chicken Biryani");
        assert_eq!(v[1]["widgets"][0]["entities"][0]["id"], "2");
        assert_eq!(v[1]["widgets"][0]["widgets"], json!([]));
    }

    #[test]
    fn without_recommended_items_there_is_no_shelf() {
        let menu = menu(vec![item(1, false)]);
        let v = serde_json::to_value(WidgetsView(&menu)).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 1);
        assert_eq!(v[0]["type"], "CATEGORY");
    }

    #[test]
    fn items_are_keyed_by_their_id_as_a_string() {
        let items = [item(88001, false), item(88002, false)];
        let v = serde_json::to_value(ItemsView {
            items: &items,
            quick: false,
        })
        .unwrap();
        assert_eq!(v["88001"]["id"], "88001");
        assert_eq!(v["88002"]["name"], "Dish 88002");
        assert_eq!(v.as_object().unwrap().len(), 2);
    }

    #[test]
    fn the_struck_out_price_shows_only_when_it_differs_and_is_above_zero() {
        assert_eq!(struck_out(29900, 24900), Some(29900));
        assert_eq!(
            struck_out(24900, 24900),
            None,
            "same price: nothing struck out"
        );
        assert_eq!(struck_out(0, 24900), None, "zero is never struck out");
        assert_eq!(struck_out(-100, 24900), None);
    }

    #[test]
    fn a_discounted_item_lists_its_original_price_struck_out() {
        let mut dish = item(88001, true);
        dish.original_price_paise = Some(29900);

        let v = json_of(&dish, false);

        assert_eq!(
            (
                &v["price"],
                &v["finalPrice"],
                &v["defaultPrice"],
                &v["struckOutPrice"]
            ),
            (&json!(29900), &json!(24900), &json!(24900), &json!(29900))
        );
        let plain = json_of(&item(1, false), false);
        assert_eq!(
            (&plain["price"], &plain["struckOutPrice"]),
            (&json!(24900), &Value::Null)
        );
    }

    #[test]
    fn an_item_has_the_contract_fields() {
        let mut dish = item(88001, true);
        dish.ribbon = "Bestseller".into();
        dish.spice_level = SpiceLevel::MediumSpicy as i32;
        dish.sub_category = "Chicken Biryani".into();
        dish.category = "Biryani".into();
        dish.image_id = "item-88001".into();

        let v = json_of(&dish, false);

        assert_eq!(v["id"], "88001");
        assert_eq!(
            (&v["isVeg"], &v["vegType"], &v["inStock"]),
            (&json!(1), &json!("VEG"), &json!(1))
        );
        assert_eq!(v["ribbon"]["text"], "Bestseller");
        assert_eq!(v["spiceLevel"], "MEDIUMSPICY");
        assert_eq!(v["subCategory"], "Chicken Biryani");
        assert_eq!(v["cloudinaryImageId"], "item-88001");
        assert_eq!(v["recommended"], true);
        assert_eq!(v["customisable"], false);
        assert_eq!(
            (&v["nextAvailableAtMessage"], &v["outOfStockMessage"]),
            (&Value::Null, &Value::Null)
        );
    }

    #[test]
    fn a_plain_item_has_no_ribbon_spice_sub_category_or_variants() {
        let v = json_of(&item(1, false), false);
        assert_eq!(v["ribbon"], Value::Null);
        assert!(v.get("spiceLevel").is_none());
        assert_eq!(v["subCategory"], Value::Null);
        assert_eq!(
            (&v["variants"], &v["variantsV2"]),
            (&Value::Null, &Value::Null)
        );
        assert_eq!(v["addons"], json!([]));
    }

    #[test]
    fn an_out_of_stock_item_says_so_and_when_it_comes_back() {
        let mut dish = item(5, false);
        dish.in_stock = false;
        dish.next_available_message = "Next available at 7:00 PM".into();

        let v = json_of(&dish, false);

        assert_eq!(v["inStock"], 0);
        assert_eq!(v["outOfStockMessage"], "This item is not available.");
        assert_eq!(v["nextAvailableAtMessage"], "Next available at 7:00 PM");
        dish.next_available_message.clear();
        assert_eq!(json_of(&dish, false)["nextAvailableAtMessage"], Value::Null);
    }

    #[test]
    fn variant_groups_without_pricing_models_are_v1() {
        let mut dish = item(7, false);
        dish.variant_groups = vec![size(vec![
            variation("half", 0, true),
            variation("full", 9000, false),
        ])];

        let v = json_of(&dish, false);

        assert_eq!(v["variantsV2"], Value::Null);
        assert_eq!(v["variants"]["variant_groups"][0]["group_id"], "vg1");
        assert_eq!(
            v["variants"]["variant_groups"][0]["variations"][1]["price"],
            9000
        );
        assert_eq!(
            v["variants"]["variant_groups"][0]["variations"][0]["default"],
            1
        );
        assert!(v["variants"].get("pricing_models").is_none());
        assert_eq!(v["customisable"], true);
    }

    #[test]
    fn variant_groups_with_pricing_models_are_v2() {
        let mut dish = item(7, false);
        dish.variant_groups = vec![size(vec![
            variation("half", 0, true),
            variation("full", 9000, false),
        ])];
        dish.pricing_models = vec![PricingModel {
            variations: vec![VariationRef {
                group_id: "vg1".into(),
                variation_id: "full".into(),
            }],
            price_paise: 31900,
        }];

        let v = json_of(&dish, false);

        assert_eq!(v["variants"], Value::Null);
        assert_eq!(
            v["variantsV2"]["variant_groups"][0]["variations"][1]["id"],
            "full"
        );
        assert_eq!(
            v["variantsV2"]["pricing_models"],
            json!([{ "variations": [{ "group_id": "vg1", "variation_id": "full" }], "price": 31900 }])
        );
    }

    #[test]
    fn add_on_groups_carry_their_limits_and_each_choice_its_price_stock_and_veg_mark() {
        let mut dish = item(9, false);
        dish.addon_groups = vec![AddonGroup {
            id: "ag1".into(),
            name: "Dips".into(),
            min_addons: 1,
            max_addons: 3,
            max_free_addons: 1,
            choices: vec![AddonChoice {
                id: "c1".into(),
                name: "Mint Mayo".into(),
                price_paise: 3000,
                in_stock: false,
                veg_type: VegType::NonVeg as i32,
            }],
        }];

        let v = json_of(&dish, false);

        assert_eq!(
            v["addons"],
            json!([{ "group_id": "ag1", "group_name": "Dips", "minAddons": 1, "maxAddons": 3, "maxFreeAddons": 1,
                     "choices": [{ "id": "c1", "name": "Mint Mayo", "price": 3000, "inStock": 0, "isVeg": 0 }] }])
        );
        assert_eq!(v["customisable"], true);
    }

    #[test]
    fn the_quick_form_leaves_out_customisation_but_says_it_exists() {
        let mut dish = item(9, false);
        dish.customisable = true;

        let v = json_of(&dish, true);

        for key in ["addons", "variants", "variantsV2"] {
            assert!(v.get(key).is_none(), "{key} present in the quick form");
        }
        assert_eq!(v["customisable"], true);
    }

    fn sla(serviceable: bool, distance_km: f64) -> Sla {
        Sla {
            min_delivery_minutes: 25,
            max_delivery_minutes: 35,
            distance_km,
            serviceable,
        }
    }

    #[test]
    fn delivery_states_have_the_spec_texts_closed_first() {
        let far = sla(false, 14.2);
        assert_eq!(DeliveryState::of(false, Some(&far)), DeliveryState::Closed);
        assert_eq!(
            DeliveryState::of(false, None).text(),
            Some("Closed & not delivering")
        );
        assert_eq!(
            DeliveryState::of(true, Some(&far)),
            DeliveryState::Unserviceable
        );
        assert_eq!(
            DeliveryState::Unserviceable.text(),
            Some("Does not deliver")
        );
        assert_eq!(
            DeliveryState::Unserviceable.message(),
            Some("Sorry, this restaurant does not deliver to this address")
        );
        assert_eq!(
            DeliveryState::of(true, Some(&sla(true, 2.0))),
            DeliveryState::Open
        );
        assert_eq!(
            DeliveryState::of(true, None),
            DeliveryState::Open,
            "no point given: nothing against it"
        );
        assert_eq!(
            (DeliveryState::Open.text(), DeliveryState::Open.message()),
            (None, None)
        );
    }

    #[test]
    fn the_fee_line_names_the_distance_only_when_open_and_located() {
        let near = sla(true, 2.449);
        assert_eq!(
            fee_message(DeliveryState::Open, Some(&near)).as_deref(),
            Some("2.4 kms | Delivery fee will apply")
        );
        assert_eq!(fee_message(DeliveryState::Open, None), None);
        assert_eq!(fee_message(DeliveryState::Closed, Some(&near)), None);
    }
}
