//! The contract's MenuItem, written straight from the menu service's `MenuItem`: its prices (the
//! list price struck out beside a discount), veg mark, stock and ribbon, and in the full form (not
//! the quick one) its customisation. The views borrow every string from the decoded reply.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use tiffin_proto::menu::v1::{MenuItem, SpiceLevel};

use crate::routes::menu::customisation::{
    AddonGroupView, VariantsView, addon_group_view, variants_view,
};
use crate::views::food::{VegWord, flag, is_veg, veg_type_name};

/// The contract's label for an out-of-stock item.
pub const OUT_OF_STOCK_MESSAGE: &str = "This item is not available.";

/// An id written as a JSON string (ids are strings in JSON), without building the string first.
#[derive(Clone, Copy, utoipa::ToSchema)]
#[schema(value_type = String)]
pub struct IdStr(pub u64);

impl Serialize for IdStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// `items`: every item keyed by its id.
pub struct ItemsView<'a> {
    pub items: &'a [MenuItem],
    /// The quick form: no customisation keys at all.
    pub quick: bool,
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

/// The struck-out price rule: the list price is struck out next to the final price when
/// it differs from it and is above 0.
pub fn struck_out(price: i64, final_price: i64) -> Option<i64> {
    (price != final_price && price > 0).then_some(price)
}

/// The contract's MenuItem.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = MenuItem)]
pub struct ItemView<'a> {
    id: IdStr,
    name: &'a str,
    description: &'a str,
    category: &'a str,
    #[schema(required)]
    sub_category: Option<&'a str>,
    cloudinary_image_id: &'a str,
    /// List price in integer paise: the original price when discounted, else the final price.
    price: i64,
    /// The price charged, in integer paise (as `finalPrice`).
    default_price: i64,
    /// The price charged, in integer paise.
    final_price: i64,
    /// The list price struck out beside a discount, in integer paise; `null` without one.
    #[schema(required)]
    struck_out_price: Option<i64>,
    /// 1 for vegetarian food (egg is not).
    is_veg: u8,
    veg_type: VegWord,
    /// 1 when in stock.
    in_stock: u8,
    #[schema(required)]
    next_available_at_message: Option<&'a str>,
    #[schema(required)]
    out_of_stock_message: Option<&'static str>,
    #[schema(required)]
    ribbon: Option<Ribbon<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Spice)]
    spice_level: Option<Spice>,
    recommended: bool,
    customisable: bool,
    /// Absent (not null) in the quick form, as are the two variant keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Vec<AddonGroupView>)]
    addons: Option<Vec<AddonGroupView<'a>>>,
    /// V1 variants (each variation priced on its own); `null` without them.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<VariantsView>)]
    variants: Option<Option<VariantsView<'a>>>,
    /// V2 variants (pricing models price a combination); `null` without them.
    #[serde(rename = "variantsV2", skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<VariantsView>)]
    variants_v2: Option<Option<VariantsView<'a>>>,
}

/// How hot a dish is; absent when not spicy.
#[derive(Clone, Copy, Serialize, utoipa::ToSchema)]
#[schema(as = SpiceLevel)]
enum Spice {
    #[serde(rename = "MEDIUMSPICY")]
    MediumSpicy,
    #[serde(rename = "VERYSPICY")]
    VerySpicy,
}

#[derive(Serialize, utoipa::ToSchema)]
struct Ribbon<'a> {
    text: &'a str,
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
            SpiceLevel::MediumSpicy => Some(Spice::MediumSpicy),
            SpiceLevel::VerySpicy => Some(Spice::VerySpicy),
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tiffin_proto::menu::v1::{
        AddonChoice, AddonGroup, PricingModel, VariantGroup, Variation, VariationRef,
    };
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
        dish.image_id = "dish-biryani-88001".into();

        let v = json_of(&dish, false);

        assert_eq!(v["id"], "88001");
        assert_eq!(
            (&v["isVeg"], &v["vegType"], &v["inStock"]),
            (&json!(1), &json!("VEG"), &json!(1))
        );
        assert_eq!(v["ribbon"]["text"], "Bestseller");
        assert_eq!(v["spiceLevel"], "MEDIUMSPICY");
        assert_eq!(v["subCategory"], "Chicken Biryani");
        assert_eq!(v["cloudinaryImageId"], "dish-biryani-88001");
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
}
