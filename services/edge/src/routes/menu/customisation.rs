//! An item's customisation as the menu page shows it: add-on groups with their limits and choices,
//! and variant groups, V1 (`variants`: each variation priced on its own) or V2 (`variantsV2`:
//! pricing models price a combination of variations).

use serde::Serialize;
use tiffin_proto::menu::v1::{AddonGroup, PricingModel, VariantGroup};

use crate::views::food::{flag, is_veg};

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = AddonGroup)]
pub struct AddonGroupView<'a> {
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

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AddonChoice)]
pub struct AddonChoiceView<'a> {
    id: &'a str,
    name: &'a str,
    price: i64,
    in_stock: u8,
    is_veg: u8,
}

/// V1 (`variants`) has no `pricing_models` key; V2 (`variantsV2`) has one.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Variants)]
pub struct VariantsView<'a> {
    variant_groups: Vec<VariantGroupView<'a>>,
    /// Only in V2 (`variantsV2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Vec<PricingModelView>)]
    pricing_models: Option<Vec<PricingModelView<'a>>>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = VariantGroup)]
pub struct VariantGroupView<'a> {
    group_id: &'a str,
    name: &'a str,
    variations: Vec<VariationView<'a>>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Variation)]
pub struct VariationView<'a> {
    id: &'a str,
    name: &'a str,
    price: i64,
    default: u8,
    in_stock: u8,
    is_veg: u8,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = PricingModel)]
pub struct PricingModelView<'a> {
    variations: Vec<VariationRefView<'a>>,
    price: i64,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = VariationRef)]
pub struct VariationRefView<'a> {
    group_id: &'a str,
    variation_id: &'a str,
}

pub fn addon_group_view(group: &AddonGroup) -> AddonGroupView<'_> {
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

pub fn variants_view<'a>(
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
