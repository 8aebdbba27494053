//! Route `GET menu/pl`: the restaurant (discovery `GetRestaurant`, with the delivery estimate to
//! the visitor's point) and its menu (menu `GetMenu`), asked for concurrently and composed into the
//! contract's widgets and items.

use std::collections::BTreeMap;

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::discovery::v1::GetRestaurantRequest;
use tiffin_proto::menu::v1::{
    AddonGroup, Category, GetMenuRequest, Menu, MenuItem, SpiceLevel, VariantGroup,
};

use crate::app::AppState;
use crate::envelope::Data;
use crate::error::{ApiError, messages};
use crate::food::{flag, is_veg, veg_type_name};
use crate::params::{self, Params};
use crate::restaurants::{RestaurantJson, restaurant_json};
use crate::session::Identity;

/// The contract's wording for an unknown restaurant.
const RESTAURANT_NOT_FOUND: &str = "Restaurant not found";

/// Query of the menu page; a location is optional (a menu opened from a shared link has none).
#[derive(Debug, Deserialize)]
pub struct MenuQuery {
    /// `restaurant_id` too: the spec's menu route falls back to that query name.
    #[serde(rename = "restaurantId", alias = "restaurant_id")]
    restaurant_id: Option<String>,
    lat: Option<String>,
    lng: Option<String>,
}

/// The menu page's `data`.
#[derive(Debug, Serialize)]
pub struct MenuPage {
    restaurant: RestaurantJson,
    menu: MenuJson,
}

#[derive(Debug, Serialize)]
struct MenuJson {
    widgets: Vec<Widget>,
    items: BTreeMap<String, MenuItemJson>,
}

/// A section of the menu: the RECOMMENDED shelf or a CATEGORY with nested sub-categories.
#[derive(Debug, Serialize)]
struct Widget {
    #[serde(rename = "type")]
    kind: &'static str,
    id: String,
    name: String,
    entities: Vec<Entity>,
    widgets: Vec<Widget>,
}

#[derive(Debug, Serialize)]
struct Entity {
    id: String,
}

/// `GET /api/menu/pl?restaurantId=&lat=&lng=`
pub async fn pl(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<MenuQuery>,
) -> Result<Data<MenuPage>, ApiError> {
    let id = params::id(
        query.restaurant_id.as_deref().unwrap_or_default(),
        messages::BAD_REQUEST,
    )?;
    let location = params::optional_location(query.lat.as_deref(), query.lng.as_deref())?;
    let upstreams = &state.upstreams;
    let mut discovery = upstreams.discovery.clone();
    let mut menus = upstreams.menu.clone();
    let restaurant =
        discovery.get_restaurant(upstreams.request(GetRestaurantRequest { id, location }, &caller));
    let menu = menus.get_menu(upstreams.request(GetMenuRequest { restaurant_id: id }, &caller));
    let (restaurant, menu) = tokio::try_join!(restaurant, menu)
        .map_err(|e| ApiError::from(e).not_found_as(RESTAURANT_NOT_FOUND))?;

    let card = restaurant.into_inner().card.unwrap_or_default();
    let restaurant = restaurant_json(&card).ok_or(ApiError::NotFound(RESTAURANT_NOT_FOUND))?;
    let menu = menu.into_inner().menu.unwrap_or_default();
    Ok(Data::ok(MenuPage {
        restaurant,
        menu: MenuJson {
            widgets: widgets(&menu),
            items: items(&menu),
        },
    }))
}

/// The RECOMMENDED shelf first (when any item is recommended, in menu order), then the categories.
fn widgets(menu: &Menu) -> Vec<Widget> {
    let recommended: Vec<Entity> = menu
        .items
        .iter()
        .filter(|i| i.recommended)
        .map(|i| entity(i.id))
        .collect();
    let shelf = (!recommended.is_empty()).then(|| Widget {
        kind: "RECOMMENDED",
        id: "recommended".into(),
        name: "Recommended".into(),
        entities: recommended,
        widgets: Vec::new(),
    });
    shelf
        .into_iter()
        .chain(menu.categories.iter().map(category_widget))
        .collect()
}

fn category_widget(category: &Category) -> Widget {
    Widget {
        kind: "CATEGORY",
        id: category.id.clone(),
        name: category.name.clone(),
        entities: category.item_ids.iter().copied().map(entity).collect(),
        widgets: category
            .sub_categories
            .iter()
            .map(category_widget)
            .collect(),
    }
}

fn entity(id: u64) -> Entity {
    Entity { id: id.to_string() }
}

fn items(menu: &Menu) -> BTreeMap<String, MenuItemJson> {
    menu.items
        .iter()
        .map(|item| (item.id.to_string(), item_json(item)))
        .collect()
}

/// The contract's MenuItem.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MenuItemJson {
    id: String,
    name: String,
    description: String,
    category: String,
    cloudinary_image_id: String,
    /// List price in paise: the struck-out original when the dish is discounted, else the price.
    price: i64,
    /// Price of the default combination (the base price), in paise.
    default_price: i64,
    /// What one unit costs before choices, in paise.
    final_price: i64,
    is_veg: u8,
    veg_type: &'static str,
    in_stock: u8,
    ribbon: Option<Ribbon>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spice_level: Option<&'static str>,
    addons: Vec<AddonGroupJson>,
    #[serde(rename = "variantsV2")]
    variants_v2: Option<VariantsV2>,
}

#[derive(Debug, Serialize)]
struct Ribbon {
    text: String,
}

#[derive(Debug, Serialize)]
struct AddonGroupJson {
    group_id: String,
    group_name: String,
    #[serde(rename = "minAddons")]
    min_addons: u32,
    #[serde(rename = "maxAddons")]
    max_addons: u32,
    #[serde(rename = "maxFreeAddons")]
    max_free_addons: u32,
    choices: Vec<AddonChoiceJson>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct AddonChoiceJson {
    id: String,
    name: String,
    price: i64,
    in_stock: u8,
    is_veg: u8,
}

#[derive(Debug, Serialize)]
struct VariantsV2 {
    variant_groups: Vec<VariantGroupJson>,
    pricing_models: Vec<PricingModelJson>,
}

#[derive(Debug, Serialize)]
struct VariantGroupJson {
    group_id: String,
    name: String,
    variations: Vec<VariationJson>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct VariationJson {
    id: String,
    name: String,
    price: i64,
    default: u8,
    in_stock: u8,
    is_veg: u8,
}

#[derive(Debug, Serialize)]
struct PricingModelJson {
    variations: Vec<VariationRefJson>,
    price: i64,
}

#[derive(Debug, Serialize)]
struct VariationRefJson {
    group_id: String,
    variation_id: String,
}

fn item_json(item: &MenuItem) -> MenuItemJson {
    MenuItemJson {
        id: item.id.to_string(),
        name: item.name.clone(),
        description: item.description.clone(),
        category: item.category.clone(),
        cloudinary_image_id: item.image_id.clone(),
        price: item.original_price_paise.unwrap_or(item.price_paise),
        default_price: item.price_paise,
        final_price: item.price_paise,
        is_veg: is_veg(item.veg_type()),
        veg_type: veg_type_name(item.veg_type()),
        in_stock: flag(item.in_stock),
        ribbon: (!item.ribbon.is_empty()).then(|| Ribbon {
            text: item.ribbon.clone(),
        }),
        spice_level: match item.spice_level() {
            SpiceLevel::MediumSpicy => Some("MEDIUMSPICY"),
            SpiceLevel::VerySpicy => Some("VERYSPICY"),
            SpiceLevel::Unspecified => None,
        },
        addons: item.addon_groups.iter().map(addon_group_json).collect(),
        // The spec's V2 variants apply only when the dish has variant groups.
        variants_v2: (!item.variant_groups.is_empty()).then(|| VariantsV2 {
            variant_groups: item.variant_groups.iter().map(variant_group_json).collect(),
            pricing_models: item
                .pricing_models
                .iter()
                .map(|m| PricingModelJson {
                    variations: m
                        .variations
                        .iter()
                        .map(|v| VariationRefJson {
                            group_id: v.group_id.clone(),
                            variation_id: v.variation_id.clone(),
                        })
                        .collect(),
                    price: m.price_paise,
                })
                .collect(),
        }),
    }
}

fn addon_group_json(group: &AddonGroup) -> AddonGroupJson {
    AddonGroupJson {
        group_id: group.id.clone(),
        group_name: group.name.clone(),
        min_addons: group.min_addons,
        max_addons: group.max_addons,
        max_free_addons: group.max_free_addons,
        choices: group
            .choices
            .iter()
            .map(|c| AddonChoiceJson {
                id: c.id.clone(),
                name: c.name.clone(),
                price: c.price_paise,
                in_stock: flag(c.in_stock),
                is_veg: is_veg(c.veg_type()),
            })
            .collect(),
    }
}

fn variant_group_json(group: &VariantGroup) -> VariantGroupJson {
    VariantGroupJson {
        group_id: group.id.clone(),
        name: group.name.clone(),
        variations: group
            .variations
            .iter()
            .map(|v| VariationJson {
                id: v.id.clone(),
                name: v.name.clone(),
                price: v.price_paise,
                default: flag(v.is_default),
                in_stock: flag(v.in_stock),
                is_veg: is_veg(v.veg_type()),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use tiffin_proto::menu::v1::{PricingModel, Variation, VariationRef};
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

    #[test]
    fn recommended_comes_first_then_categories_with_nested_sub_categories() {
        let v = serde_json::to_value(widgets(&menu(vec![item(1, false), item(2, true)]))).unwrap();
        assert_eq!(v[0]["type"], "RECOMMENDED");
        assert_eq!(v[0]["entities"], serde_json::json!([{ "id": "2" }]));
        assert_eq!(v[1]["type"], "CATEGORY");
        assert_eq!(v[1]["id"], "c-3");
        assert_eq!(v[1]["widgets"][0]["name"], "Chicken Biryani");
        assert_eq!(v[1]["widgets"][0]["entities"][0]["id"], "2");
    }

    #[test]
    fn without_recommended_items_there_is_no_shelf() {
        let v = widgets(&menu(vec![item(1, false)]));
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].kind, "CATEGORY");
    }

    #[test]
    fn an_item_has_the_contract_fields() {
        let mut dish = item(88001, true);
        dish.original_price_paise = Some(29900);
        dish.ribbon = "Bestseller".into();
        dish.spice_level = SpiceLevel::MediumSpicy as i32;
        dish.variant_groups = vec![VariantGroup {
            id: "vg1".into(),
            name: "Size".into(),
            variations: vec![Variation {
                id: "v1".into(),
                name: "Half".into(),
                is_default: true,
                in_stock: true,
                ..Default::default()
            }],
        }];
        dish.pricing_models = vec![PricingModel {
            variations: vec![VariationRef {
                group_id: "vg1".into(),
                variation_id: "v1".into(),
            }],
            price_paise: 24900,
        }];
        let v = serde_json::to_value(item_json(&dish)).unwrap();
        assert_eq!(v["id"], "88001");
        assert_eq!(
            (
                v["price"].as_i64(),
                v["finalPrice"].as_i64(),
                v["defaultPrice"].as_i64()
            ),
            (Some(29900), Some(24900), Some(24900))
        );
        assert_eq!(
            (
                v["isVeg"].as_i64(),
                v["vegType"].as_str(),
                v["inStock"].as_i64()
            ),
            (Some(1), Some("VEG"), Some(1))
        );
        assert_eq!(v["ribbon"]["text"], "Bestseller");
        assert_eq!(v["spiceLevel"], "MEDIUMSPICY");
        assert_eq!(
            v["variantsV2"]["variant_groups"][0]["variations"][0]["default"],
            1
        );
        assert_eq!(v["variantsV2"]["pricing_models"][0]["price"], 24900);
    }

    #[test]
    fn a_plain_item_has_no_ribbon_spice_or_variants() {
        let v = serde_json::to_value(item_json(&item(1, false))).unwrap();
        assert_eq!(v["ribbon"], serde_json::Value::Null);
        assert!(v.get("spiceLevel").is_none());
        assert_eq!(v["variantsV2"], serde_json::Value::Null);
        assert_eq!(v["addons"], serde_json::json!([]));
    }
}
