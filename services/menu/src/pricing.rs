//! Prices one customised item: the item pricing rules (variants, pricing models) and the add-on
//! rules (minimum, maximum, free choices). `PriceItems`
//! runs this for every selection, and the cart asks `PriceItems` on every update, so this is where
//! every price a customer pays comes from.
//!
//! Pure: it sees one menu item and one selection and never touches storage, so every rule has a
//! unit test below. It must never take a price from the caller: a selection names ids, nothing
//! else.
//!
//! The rules, in the order they apply:
//! 1. **Variations.** Each chosen variation must be in the named variant group of this item, and a
//!    group takes at most one. A group with no choice takes its default variation, or its first
//!    when none is marked default. The result is one variation per group: the *combination*.
//! 2. **Price before add-ons.** The pricing model whose variations are exactly the combination
//!    gives it. Without such a model (the item has none, or none for this combination) it is the
//!    base price plus the prices of the combination's variations, which is what a variation's
//!    `price_paise` means ("added to the base price").
//! 3. **Add-on limits**, per group: more chosen than `max_addons` (0 means no maximum) gives
//!    `You can select a maximum of {max} {group}.`; with `max_free_addons` above 0, more
//!    zero-priced choices than it gives `You can select a maximum of {max_free} free {group}.`;
//!    fewer than `min_addons` gives `You must select at least {min} {group}`. Each chosen choice
//!    must be in the named group of this item, at most once.
//! 4. **Free add-ons.** `max_free_addons` is how many of a group's chosen add-ons cost nothing.
//!    Zero-priced choices use that allowance first; what is left makes paid choices free in the
//!    order the menu lists them. Menu order, not request order, so the same choices always cost
//!    the same (the cart key sorts ids, so it cannot tell two orders apart either).
//! 5. **Unit price** = step 2 + what each chosen add-on is charged after step 4. Each
//!    `PricedAddon.price_paise` is that charged price (0 for a free one), so the lines add up.
//! 6. **Stock.** The item is in stock when it, every variation of the combination and every
//!    chosen add-on are. Out-of-stock selections are still priced; the cart decides what to do.

use tiffin_proto::menu::v1::{
    AddonChoice, AddonGroup, AddonRef, ItemSelection, MenuItem, PricedAddon, PricedItem,
    PricedVariation, VariantGroup, Variation, VariationRef,
};

use crate::error::Error;

/// Prices `selection` of `item` (see the module rules). The caller has already checked that the
/// item belongs to the restaurant being priced.
pub fn price(item: &MenuItem, selection: &ItemSelection) -> Result<PricedItem, Error> {
    let combination = combination(item, &selection.variations)?;
    let addons = addons(item, &selection.addons)?;

    let before_addons = price_of_combination(item, &combination);
    let unit_price_paise = addons
        .iter()
        .fold(before_addons, |sum, a| sum.saturating_add(a.charged));
    let in_stock = item.in_stock
        && combination.iter().all(|(_, v)| v.in_stock)
        && addons.iter().all(|a| a.choice.in_stock);

    let cart_key = cart_key(
        item.id,
        combination.iter().map(|(_, v)| v.id.as_str()),
        addons.iter().map(|a| a.choice.id.as_str()),
    );
    Ok(PricedItem {
        cart_key,
        item_id: item.id,
        name: item.name.clone(),
        veg_type: item.veg_type,
        in_stock,
        unit_price_paise,
        addons: addons
            .iter()
            .map(|a| PricedAddon {
                group_id: a.group.id.clone(),
                choice_id: a.choice.id.clone(),
                name: a.choice.name.clone(),
                price_paise: a.charged,
            })
            .collect(),
        variations: combination
            .iter()
            .map(|(g, v)| PricedVariation {
                group_id: g.id.clone(),
                variation_id: v.id.clone(),
                group_name: g.name.clone(),
                name: v.name.clone(),
                price_paise: v.price_paise,
            })
            .collect(),
    })
}

/// The key of a cart line: the item id, then the selected variation and add-on ids sorted
/// together (byte order) and joined with `|`, e.g. `88001|88001-ag1-c2|88001-vg1-v2`; an item
/// without customisation is just `88001`. Catalogue ids never contain `|`, so keys cannot collide.
///
/// Give it the ids of the [`PricedItem`] rather than of the request: those include the default
/// variations a request may leave out, so "Half by default" and "Half chosen" share a line.
pub fn cart_key<'a>(
    item_id: u64,
    variation_ids: impl IntoIterator<Item = &'a str>,
    addon_ids: impl IntoIterator<Item = &'a str>,
) -> String {
    let mut ids: Vec<&str> = variation_ids.into_iter().chain(addon_ids).collect();
    ids.sort_unstable();
    let mut key = item_id.to_string();
    for id in ids {
        key.push('|');
        key.push_str(id);
    }
    key
}

/// One variation per variant group, in the item's group order (rule 1).
fn combination<'m>(
    item: &'m MenuItem,
    chosen: &[VariationRef],
) -> Result<Vec<(&'m VariantGroup, &'m Variation)>, Error> {
    let mut picked: Vec<Option<&Variation>> = vec![None; item.variant_groups.len()];
    for r in chosen {
        let unknown = || Error::UnknownVariation {
            item_id: item.id,
            group_id: r.group_id.clone(),
            variation_id: r.variation_id.clone(),
        };
        let g = item
            .variant_groups
            .iter()
            .position(|g| g.id == r.group_id)
            .ok_or_else(unknown)?;
        let variation = item.variant_groups[g]
            .variations
            .iter()
            .find(|v| v.id == r.variation_id)
            .ok_or_else(unknown)?;
        if picked[g].replace(variation).is_some() {
            return Err(Error::SecondVariation {
                item_id: item.id,
                group_id: r.group_id.clone(),
            });
        }
    }
    Ok(item
        .variant_groups
        .iter()
        .zip(picked)
        // A group with no variations at all offers nothing to choose and adds nothing.
        .filter_map(|(g, p)| p.or_else(|| default_variation(g)).map(|v| (g, v)))
        .collect())
}

fn default_variation(group: &VariantGroup) -> Option<&Variation> {
    group
        .variations
        .iter()
        .find(|v| v.is_default)
        .or_else(|| group.variations.first())
}

/// Rule 2: the matching pricing model, else base price plus the variations' prices.
fn price_of_combination(item: &MenuItem, combination: &[(&VariantGroup, &Variation)]) -> i64 {
    let model = item.pricing_models.iter().find(|m| {
        // The combination has one entry per group, so equal lengths plus every entry being in the
        // model means the two sets are equal.
        m.variations.len() == combination.len()
            && combination.iter().all(|(g, v)| {
                m.variations
                    .iter()
                    .any(|r| r.group_id == g.id && r.variation_id == v.id)
            })
    });
    match model {
        Some(m) => m.price_paise,
        None => combination.iter().fold(item.price_paise, |sum, (_, v)| {
            sum.saturating_add(v.price_paise)
        }),
    }
}

/// A chosen add-on and what it is charged after the free allowance.
struct Chosen<'m> {
    group: &'m AddonGroup,
    choice: &'m AddonChoice,
    charged: i64,
}

/// Rules 3 and 4: the chosen add-ons in menu order (group by group), checked and charged.
fn addons<'m>(item: &'m MenuItem, chosen: &[AddonRef]) -> Result<Vec<Chosen<'m>>, Error> {
    let mut marked: Vec<Vec<bool>> = item
        .addon_groups
        .iter()
        .map(|g| vec![false; g.choices.len()])
        .collect();
    for r in chosen {
        let unknown = || Error::UnknownAddon {
            item_id: item.id,
            group_id: r.group_id.clone(),
            choice_id: r.choice_id.clone(),
        };
        let g = item
            .addon_groups
            .iter()
            .position(|g| g.id == r.group_id)
            .ok_or_else(unknown)?;
        let c = item.addon_groups[g]
            .choices
            .iter()
            .position(|c| c.id == r.choice_id)
            .ok_or_else(unknown)?;
        if std::mem::replace(&mut marked[g][c], true) {
            return Err(Error::RepeatedAddon {
                item_id: item.id,
                choice_id: r.choice_id.clone(),
            });
        }
    }

    let mut out = Vec::with_capacity(chosen.len());
    for (group, marks) in item.addon_groups.iter().zip(&marked) {
        let picked: Vec<&AddonChoice> = group
            .choices
            .iter()
            .zip(marks)
            .filter(|(_, m)| **m)
            .map(|(c, _)| c)
            .collect();
        let zero_priced = picked.iter().filter(|c| c.price_paise == 0).count();
        check_limits(item.id, group, picked.len(), zero_priced)?;

        let mut allowance = usize::try_from(group.max_free_addons)
            .unwrap_or(usize::MAX)
            .saturating_sub(zero_priced);
        for choice in picked {
            let charged = if choice.price_paise > 0 && allowance > 0 {
                allowance -= 1;
                0
            } else {
                choice.price_paise
            };
            out.push(Chosen {
                group,
                choice,
                charged,
            });
        }
    }
    Ok(out)
}

/// Rule 3 for one group: `count` chosen, `zero_priced` of them free by their own price.
fn check_limits(
    item_id: u64,
    group: &AddonGroup,
    count: usize,
    zero_priced: usize,
) -> Result<(), Error> {
    let count = u32::try_from(count).unwrap_or(u32::MAX);
    let zero_priced = u32::try_from(zero_priced).unwrap_or(u32::MAX);
    if group.max_addons > 0 && count > group.max_addons {
        return Err(Error::TooManyAddons {
            group_id: group.id.clone(),
            group_name: group.name.clone(),
            max: group.max_addons,
        });
    }
    if group.max_free_addons > 0 && zero_priced > group.max_free_addons {
        return Err(Error::TooManyFreeAddons {
            group_id: group.id.clone(),
            group_name: group.name.clone(),
            max_free: group.max_free_addons,
        });
    }
    if count < group.min_addons {
        if group.choices.is_empty() {
            return Err(Error::EmptyAddonGroup {
                item_id,
                group_id: group.id.clone(),
            });
        }
        return Err(Error::TooFewAddons {
            group_id: group.id.clone(),
            group_name: group.name.clone(),
            min: group.min_addons,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use tiffin_proto::menu::v1::PricingModel;

    use super::*;

    // ---- A small menu item to customise -------------------------------------------------------

    fn variation(id: &str, price_paise: i64, is_default: bool) -> Variation {
        Variation {
            id: id.into(),
            name: format!("V {id}"),
            price_paise,
            is_default,
            in_stock: true,
            ..Default::default()
        }
    }

    fn choice(id: &str, price_paise: i64) -> AddonChoice {
        AddonChoice {
            id: id.into(),
            name: format!("C {id}"),
            price_paise,
            in_stock: true,
            ..Default::default()
        }
    }

    fn addon_group(
        id: &str,
        name: &str,
        (min, max, max_free): (u32, u32, u32),
        choices: Vec<AddonChoice>,
    ) -> AddonGroup {
        AddonGroup {
            id: id.into(),
            name: name.into(),
            min_addons: min,
            max_addons: max,
            max_free_addons: max_free,
            choices,
        }
    }

    fn vref(group_id: &str, variation_id: &str) -> VariationRef {
        VariationRef {
            group_id: group_id.into(),
            variation_id: variation_id.into(),
        }
    }

    fn aref(group_id: &str, choice_id: &str) -> AddonRef {
        AddonRef {
            group_id: group_id.into(),
            choice_id: choice_id.into(),
        }
    }

    /// ₹200 with no customisation.
    fn plain() -> MenuItem {
        MenuItem {
            id: 7,
            name: "Veg Thali".into(),
            price_paise: 20_000,
            in_stock: true,
            ..Default::default()
        }
    }

    /// ₹200 pizza. Size: Regular (default, +0) or Large (+₹80). Crust, no default marked: Classic
    /// (+0) or Cheese Burst (+₹99). Models for two of the four combinations only, one of them
    /// cheaper than the sum so a test can tell a model from the sum.
    fn pizza() -> MenuItem {
        MenuItem {
            variant_groups: vec![
                VariantGroup {
                    id: "size".into(),
                    name: "Size".into(),
                    variations: vec![
                        variation("regular", 0, true),
                        variation("large", 8_000, false),
                    ],
                },
                VariantGroup {
                    id: "crust".into(),
                    name: "Crust".into(),
                    variations: vec![
                        variation("classic", 0, false),
                        variation("burst", 9_900, false),
                    ],
                },
            ],
            pricing_models: vec![
                PricingModel {
                    variations: vec![vref("size", "regular"), vref("crust", "classic")],
                    price_paise: 20_000,
                },
                PricingModel {
                    variations: vec![vref("crust", "burst"), vref("size", "large")],
                    price_paise: 34_900,
                },
            ],
            ..plain()
        }
    }

    /// ₹200 with Extras (0-2, none free): Raita ₹30, Papad ₹10, Salan ₹40.
    fn with_extras() -> MenuItem {
        MenuItem {
            addon_groups: vec![addon_group(
                "extras",
                "Extras",
                (0, 2, 0),
                vec![
                    choice("raita", 3_000),
                    choice("papad", 1_000),
                    choice("salan", 4_000),
                ],
            )],
            ..plain()
        }
    }

    /// ₹200 with Dips (0-3, one free): Mint ₹30, Schezwan ₹20, Plain free, Ketchup free.
    fn with_dips() -> MenuItem {
        MenuItem {
            addon_groups: vec![addon_group(
                "dips",
                "Dips",
                (0, 3, 1),
                vec![
                    choice("mint", 3_000),
                    choice("schezwan", 2_000),
                    choice("plain", 0),
                    choice("ketchup", 0),
                ],
            )],
            ..plain()
        }
    }

    fn select(
        item: &MenuItem,
        variations: Vec<VariationRef>,
        addons: Vec<AddonRef>,
    ) -> Result<PricedItem, Error> {
        price(
            item,
            &ItemSelection {
                item_id: item.id,
                addons,
                variations,
            },
        )
    }

    fn message(result: Result<PricedItem, Error>) -> String {
        match result {
            Ok(priced) => panic!("expected a refusal, got {priced:?}"),
            Err(e) => tonic::Status::from(e).message().to_string(),
        }
    }

    // ---- Base price and variations -----------------------------------------------------------

    #[test]
    fn a_plain_item_costs_its_price() {
        let priced = select(&plain(), vec![], vec![]).unwrap();

        assert_eq!(priced.unit_price_paise, 20_000);
        assert!(priced.in_stock);
        assert!(priced.addons.is_empty() && priced.variations.is_empty());
    }

    #[test]
    fn a_group_without_a_choice_takes_its_default_else_its_first_variation() {
        let priced = select(&pizza(), vec![], vec![]).unwrap();

        let chosen: Vec<_> = priced
            .variations
            .iter()
            .map(|v| v.variation_id.as_str())
            .collect();
        assert_eq!(chosen, ["regular", "classic"]);
        assert_eq!(priced.unit_price_paise, 20_000);
    }

    #[test]
    fn a_matching_pricing_model_replaces_base_plus_variations() {
        // The sum would be 20_000 + 8_000 + 9_900 = 37_900; the model says 34_900.
        let priced = select(
            &pizza(),
            vec![vref("size", "large"), vref("crust", "burst")],
            vec![],
        )
        .unwrap();

        assert_eq!(priced.unit_price_paise, 34_900);
    }

    #[test]
    fn without_a_matching_model_the_price_is_base_plus_the_variations() {
        let priced = select(&pizza(), vec![vref("size", "large")], vec![]).unwrap();

        assert_eq!(priced.unit_price_paise, 20_000 + 8_000);
        let large = &priced.variations[0];
        assert_eq!(
            (large.group_name.as_str(), large.price_paise),
            ("Size", 8_000)
        );
    }

    #[test]
    fn a_model_must_name_the_whole_combination() {
        // A model for one group only cannot price a two-group item.
        let mut item = pizza();
        item.pricing_models = vec![PricingModel {
            variations: vec![vref("size", "large")],
            price_paise: 1,
        }];

        let priced = select(&item, vec![vref("size", "large")], vec![]).unwrap();

        assert_eq!(priced.unit_price_paise, 28_000);
    }

    #[test]
    fn a_variation_the_item_does_not_have_is_refused() {
        let wrong_id = select(&pizza(), vec![vref("size", "huge")], vec![]);
        let wrong_group = select(&pizza(), vec![vref("crust", "large")], vec![]);
        let no_groups = select(&plain(), vec![vref("size", "large")], vec![]);

        for result in [wrong_id, wrong_group, no_groups] {
            assert!(matches!(result, Err(Error::UnknownVariation { .. })));
        }
    }

    #[test]
    fn a_variant_group_takes_one_variation() {
        let result = select(
            &pizza(),
            vec![vref("size", "large"), vref("size", "regular")],
            vec![],
        );

        assert!(matches!(result, Err(Error::SecondVariation { .. })));
        assert_eq!(
            message(select(
                &pizza(),
                vec![vref("size", "large"), vref("size", "large")],
                vec![]
            )),
            "Oops! Something wrong"
        );
    }

    // ---- Add-ons ------------------------------------------------------------------------------

    #[test]
    fn add_ons_add_their_prices_in_menu_order() {
        let priced = select(
            &with_extras(),
            vec![],
            vec![aref("extras", "salan"), aref("extras", "raita")],
        )
        .unwrap();

        assert_eq!(priced.unit_price_paise, 20_000 + 3_000 + 4_000);
        let names: Vec<_> = priced
            .addons
            .iter()
            .map(|a| (a.choice_id.as_str(), a.price_paise))
            .collect();
        assert_eq!(names, [("raita", 3_000), ("salan", 4_000)]);
    }

    #[test]
    fn add_ons_and_variations_add_up() {
        let mut item = pizza();
        item.addon_groups = with_extras().addon_groups;

        let priced = select(
            &item,
            vec![vref("size", "large")],
            vec![aref("extras", "papad")],
        )
        .unwrap();

        assert_eq!(priced.unit_price_paise, 28_000 + 1_000);
    }

    #[test]
    fn more_add_ons_than_the_maximum_gives_the_maximum_message() {
        let all_three = vec![
            aref("extras", "raita"),
            aref("extras", "papad"),
            aref("extras", "salan"),
        ];

        assert_eq!(
            message(select(&with_extras(), vec![], all_three)),
            "You can select a maximum of 2 Extras."
        );
    }

    #[test]
    fn a_maximum_of_zero_means_no_maximum() {
        let mut item = with_extras();
        item.addon_groups[0].max_addons = 0;

        let all_three = vec![
            aref("extras", "raita"),
            aref("extras", "papad"),
            aref("extras", "salan"),
        ];
        let priced = select(&item, vec![], all_three).unwrap();

        assert_eq!(priced.unit_price_paise, 20_000 + 8_000);
    }

    #[test]
    fn fewer_add_ons_than_the_minimum_gives_the_minimum_message_and_the_group() {
        let mut item = with_extras();
        item.addon_groups[0].min_addons = 1;

        let status = tonic::Status::from(select(&item, vec![], vec![]).unwrap_err());

        assert_eq!(status.message(), "You must select at least 1 Extras");
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        let group = status
            .metadata()
            .get(crate::error::ADDON_GROUP_ID)
            .and_then(|v| v.to_str().ok());
        assert_eq!(group, Some("extras"));
    }

    #[test]
    fn the_minimum_is_checked_in_every_group_even_one_not_mentioned() {
        let mut item = with_extras();
        item.addon_groups.push(addon_group(
            "sweet",
            "Choice of Sweet",
            (1, 1, 1),
            vec![choice("jamun", 0), choice("kheer", 0)],
        ));

        let result = select(&item, vec![], vec![aref("extras", "raita")]);

        assert_eq!(
            message(result),
            "You must select at least 1 Choice of Sweet"
        );
    }

    #[test]
    fn a_required_group_with_nothing_to_choose_gives_the_generic_error() {
        let mut item = plain();
        item.addon_groups
            .push(addon_group("empty", "Sides", (1, 1, 0), vec![]));

        assert_eq!(
            message(select(&item, vec![], vec![])),
            "Oops! Something wrong"
        );
    }

    #[test]
    fn more_free_choices_than_the_free_maximum_gives_the_free_message() {
        let two_free = vec![aref("dips", "plain"), aref("dips", "ketchup")];

        assert_eq!(
            message(select(&with_dips(), vec![], two_free)),
            "You can select a maximum of 1 free Dips."
        );
    }

    #[test]
    fn the_free_allowance_covers_paid_choices_in_menu_order_whatever_the_request_order() {
        let forward = select(
            &with_dips(),
            vec![],
            vec![aref("dips", "mint"), aref("dips", "schezwan")],
        )
        .unwrap();
        let backward = select(
            &with_dips(),
            vec![],
            vec![aref("dips", "schezwan"), aref("dips", "mint")],
        )
        .unwrap();

        // Mint comes first on the menu, so Mint is the free one and Schezwan is charged.
        assert_eq!(forward.unit_price_paise, 20_000 + 2_000);
        assert_eq!(forward, backward);
        let charged: Vec<_> = forward
            .addons
            .iter()
            .map(|a| (a.choice_id.as_str(), a.price_paise))
            .collect();
        assert_eq!(charged, [("mint", 0), ("schezwan", 2_000)]);
    }

    #[test]
    fn zero_priced_choices_use_the_free_allowance_first() {
        let priced = select(
            &with_dips(),
            vec![],
            vec![aref("dips", "ketchup"), aref("dips", "mint")],
        )
        .unwrap();

        assert_eq!(priced.unit_price_paise, 20_000 + 3_000);
    }

    #[test]
    fn without_a_free_allowance_every_choice_costs_its_price() {
        let mut item = with_dips();
        item.addon_groups[0].max_free_addons = 0;

        let priced = select(
            &item,
            vec![],
            vec![
                aref("dips", "mint"),
                aref("dips", "plain"),
                aref("dips", "ketchup"),
            ],
        )
        .unwrap();

        assert_eq!(priced.unit_price_paise, 20_000 + 3_000);
    }

    #[test]
    fn an_add_on_the_item_does_not_have_is_refused() {
        let wrong_id = select(&with_extras(), vec![], vec![aref("extras", "mint")]);
        let wrong_group = select(&with_extras(), vec![], vec![aref("dips", "raita")]);

        for result in [wrong_id, wrong_group] {
            assert!(matches!(result, Err(Error::UnknownAddon { .. })));
        }
    }

    #[test]
    fn an_add_on_named_twice_is_refused() {
        let result = select(
            &with_extras(),
            vec![],
            vec![aref("extras", "raita"), aref("extras", "raita")],
        );

        assert!(matches!(result, Err(Error::RepeatedAddon { .. })));
    }

    // ---- Stock --------------------------------------------------------------------------------

    #[test]
    fn an_out_of_stock_item_is_priced_but_not_in_stock() {
        let item = MenuItem {
            in_stock: false,
            ..plain()
        };

        let priced = select(&item, vec![], vec![]).unwrap();

        assert!(!priced.in_stock);
        assert_eq!(priced.unit_price_paise, 20_000);
    }

    #[test]
    fn an_out_of_stock_variation_or_add_on_makes_the_selection_out_of_stock() {
        let mut item = pizza();
        item.variant_groups[0].variations[1].in_stock = false;
        item.addon_groups = with_extras().addon_groups;
        item.addon_groups[0].choices[2].in_stock = false;

        let large = select(&item, vec![vref("size", "large")], vec![]).unwrap();
        let salan = select(&item, vec![], vec![aref("extras", "salan")]).unwrap();
        let neither = select(&item, vec![], vec![aref("extras", "raita")]).unwrap();

        assert!(!large.in_stock);
        assert!(!salan.in_stock);
        assert!(neither.in_stock);
    }

    #[test]
    fn an_out_of_stock_default_variation_makes_the_plain_selection_out_of_stock() {
        let mut item = pizza();
        item.variant_groups[0].variations[0].in_stock = false;

        assert!(!select(&item, vec![], vec![]).unwrap().in_stock);
    }

    // ---- Cart key -----------------------------------------------------------------------------

    #[test]
    fn the_cart_key_is_the_item_then_its_sorted_ids() {
        assert_eq!(cart_key(88001, ["v1"], ["ch1"]), "88001|ch1|v1");
        assert_eq!(
            cart_key(88001, ["b", "a"], ["d", "c"]),
            cart_key(88001, ["a", "b"], ["c", "d"])
        );
        assert_eq!(cart_key(88001, [], []), "88001");
        assert_ne!(cart_key(88001, ["v1"], []), cart_key(88002, ["v1"], []));
    }
}
