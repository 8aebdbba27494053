//! Black-box tests of the generated catalogue: what the discovery and menu services, and through
//! them a shopper, would rely on.

use std::collections::{BTreeSet, HashSet};
use std::sync::LazyLock;

use tiffin_catalog::*;
use tiffin_geo::{self as gazetteer, distance_m};

/// A catalogue big enough to exercise every concept and cuisine, generated once for the tests
/// that only read it.
static LARGE: LazyLock<Catalogue> = LazyLock::new(|| {
    generate(&Options {
        seed: 7,
        restaurants_per_city: 60,
        cities: None,
    })
});

fn options(seed: u64, per_city: usize) -> Options {
    Options {
        seed,
        restaurants_per_city: per_city,
        cities: None,
    }
}

fn json(c: &Catalogue) -> Vec<u8> {
    serde_json::to_vec(c).unwrap()
}

fn all_items(c: &Catalogue) -> impl Iterator<Item = &MenuItem> {
    c.menus.iter().flat_map(|m| &m.items)
}

// ---- Determinism -------------------------------------------------------------------------------

#[test]
fn the_catalogue_without_menus_has_exactly_the_same_restaurants() {
    let full = generate(&options(42, 30));

    let lean = generate_restaurants(&options(42, 30));

    assert!(lean.menus.is_empty());
    assert!(!full.menus.is_empty());
    assert_eq!(lean.restaurants, full.restaurants);
    assert_eq!(
        (lean.seed, lean.restaurants_per_city, &lean.cities),
        (full.seed, full.restaurants_per_city, &full.cities)
    );
}

#[test]
fn same_seed_gives_byte_identical_json() {
    let first = generate(&Options::default());
    let second = generate(&Options::default());
    assert_eq!(json(&first), json(&second));
}

#[test]
fn same_seed_gives_byte_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    generate(&options(99, 5)).write_json(&a).unwrap();
    generate(&options(99, 5)).write_json(&b).unwrap();
    assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
}

#[test]
fn different_seed_gives_a_different_catalogue() {
    let a = generate(&options(1, 10));
    let b = generate(&options(2, 10));
    assert_ne!(json(&a), json(&b));
    // Not just the seed field: the restaurants themselves differ.
    let names = |c: &Catalogue| {
        c.restaurants
            .iter()
            .map(|r| r.name.clone())
            .collect::<Vec<_>>()
    };
    assert_ne!(names(&a), names(&b));
}

#[test]
fn a_smaller_catalogue_is_the_start_of_a_larger_one() {
    let small = generate(&options(5, 6));
    let large = generate(&options(5, 20));
    for city in &small.cities {
        let of = |c: &Catalogue| {
            c.restaurants
                .iter()
                .filter(|r| &r.city == city)
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(of(&small), of(&large)[..6], "{city}");
    }
    for menu in &small.menus {
        assert_eq!(Some(menu), large.menu(menu.restaurant_id));
    }
}

#[test]
fn a_city_generated_alone_matches_the_full_run() {
    let alone = generate(&Options {
        seed: 3,
        restaurants_per_city: 8,
        cities: Some(vec!["Bengaluru".into()]),
    });
    let full = generate(&options(3, 8));
    let bangalore = |c: &Catalogue| {
        c.restaurants
            .iter()
            .filter(|r| r.city == "bangalore")
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(alone.cities, ["bangalore"]);
    assert_eq!(bangalore(&alone), bangalore(&full));
}

// ---- Options -----------------------------------------------------------------------------------

#[test]
fn default_options_cover_the_listed_cities_only() {
    let c = generate(&Options::default());
    let listed: Vec<&str> = gazetteer::cities()
        .iter()
        .filter(|c| c.is_listed())
        .map(|c| c.slug.as_str())
        .collect();
    assert_eq!(c.cities, listed);
    for popular in [
        "ahmedabad",
        "bangalore",
        "chennai",
        "delhi",
        "gurgaon",
        "hyderabad",
        "kolkata",
        "mumbai",
        "pune",
    ] {
        assert!(c.cities.iter().any(|s| s == popular), "{popular}");
    }
    assert!(
        c.restaurants
            .iter()
            .all(|r| r.city != "test-city" && r.city != "shimla")
    );
    assert_eq!(
        c.restaurants.len(),
        c.cities.len() * DEFAULT_RESTAURANTS_PER_CITY
    );
    assert_eq!(c.summary().restaurants, c.restaurants.len());
}

#[test]
fn cities_option_takes_names_in_any_order_and_normalises_them() {
    let c = generate(&Options {
        seed: 1,
        restaurants_per_city: 3,
        cities: Some(vec![
            "Mumbai".into(),
            " bengaluru ".into(),
            "bangalore".into(),
        ]),
    });
    assert_eq!(c.cities, ["bangalore", "mumbai"]);
    assert_eq!(c.restaurants.len(), 6);
    assert!(
        c.restaurants
            .iter()
            .all(|r| r.city == "bangalore" || r.city == "mumbai")
    );
}

#[test]
fn unknown_cities_and_oversized_catalogues_are_rejected() {
    let unknown = Options {
        cities: Some(vec!["atlantis".into()]),
        ..Options::default()
    };
    assert!(
        matches!(unknown.validate(), Err(CatalogueError::UnknownCity(name)) if name == "atlantis")
    );
    let huge = Options {
        restaurants_per_city: MAX_RESTAURANTS_PER_CITY + 1,
        ..Options::default()
    };
    assert!(matches!(
        huge.validate(),
        Err(CatalogueError::TooManyRestaurants { .. })
    ));
    assert!(Options::default().validate().is_ok());
}

#[test]
#[should_panic(expected = "unknown city")]
fn generate_panics_on_options_validate_rejects() {
    generate(&Options {
        cities: Some(vec!["atlantis".into()]),
        ..Options::default()
    });
}

// ---- Restaurants -------------------------------------------------------------------------------

#[test]
fn every_restaurant_lies_within_3_km_of_its_locality_centre() {
    for r in &LARGE.restaurants {
        let locality =
            gazetteer::locality(&r.place_id).unwrap_or_else(|| panic!("{}: unknown place", r.id));
        let d = distance_m(r.lat, r.lng, locality.lat, locality.lng);
        assert!(
            d <= 3_000.0,
            "{} is {d:.0} m from {}",
            r.name,
            locality.name
        );
        assert!(
            d <= SPREAD_M as f64 + 1.0,
            "{} is {d:.0} m from {}",
            r.name,
            locality.name
        );
        assert_eq!(
            (r.city.as_str(), r.area_name.as_str(), r.area_slug.as_str()),
            (
                locality.city.as_str(),
                locality.name.as_str(),
                locality.slug.as_str()
            )
        );
        assert!(
            r.slug.ends_with(&format!("-{}", locality.slug)),
            "{}",
            r.slug
        );
    }
}

#[test]
fn every_locality_of_a_city_gets_a_restaurant_when_there_are_enough() {
    let c = generate(&options(11, 15));
    for slug in &c.cities {
        let city = gazetteer::city(slug).unwrap();
        for l in &city.localities {
            assert!(
                c.restaurants.iter().any(|r| r.place_id == l.place_id),
                "{} is empty",
                l.place_id
            );
        }
    }
}

#[test]
fn restaurant_fields_are_in_realistic_ranges() {
    for r in &LARGE.restaurants {
        assert!((1..=3).contains(&r.cuisines.len()), "{}", r.id);
        assert_eq!(
            r.cuisines.iter().collect::<BTreeSet<_>>().len(),
            r.cuisines.len(),
            "{}: repeated cuisine",
            r.id
        );
        assert!(
            r.cost_for_two % 5_000 == 0 && (15_000..=120_000).contains(&r.cost_for_two),
            "{}",
            r.cost_for_two
        );
        assert!((4_000..=9_000).contains(&r.delivery_radius_m));
        assert!((5..=30).contains(&r.prep_time_minutes));
        match r.avg_rating_tenths {
            None => assert_eq!(r.total_ratings, 0),
            Some(t) => assert!((32..=48).contains(&t) && r.total_ratings >= 20, "{t}"),
        }
        assert!(!r.name.is_empty() && !r.locality.is_empty());
    }
}

#[test]
fn shares_of_flags_are_roughly_as_designed() {
    let share = |n: usize, of: usize| n as f64 / of as f64;
    let rs = &LARGE.restaurants;
    let veg_only = share(rs.iter().filter(|r| r.veg_only).count(), rs.len());
    let opened = share(rs.iter().filter(|r| r.opened).count(), rs.len());
    let unrated = share(
        rs.iter().filter(|r| r.avg_rating_tenths.is_none()).count(),
        rs.len(),
    );
    assert!((0.14..=0.28).contains(&veg_only), "veg only {veg_only}");
    assert!((0.80..=0.90).contains(&opened), "opened {opened}");
    assert!((0.03..=0.15).contains(&unrated), "unrated {unrated}");

    let items: Vec<&MenuItem> = all_items(&LARGE).collect();
    let with_variants = share(
        items
            .iter()
            .filter(|i| !i.variant_groups.is_empty())
            .count(),
        items.len(),
    );
    let with_addons = share(
        items.iter().filter(|i| !i.addon_groups.is_empty()).count(),
        items.len(),
    );
    let in_stock = share(items.iter().filter(|i| i.in_stock).count(), items.len());
    let recommended = share(items.iter().filter(|i| i.recommended).count(), items.len());
    assert!(
        (0.25..=0.42).contains(&with_variants),
        "variants {with_variants}"
    );
    assert!(
        (0.25..=0.42).contains(&with_addons),
        "add-ons {with_addons}"
    );
    assert!((0.92..=0.98).contains(&in_stock), "in stock {in_stock}");
    assert!(
        (0.07..=0.13).contains(&recommended),
        "recommended {recommended}"
    );
}

// ---- Menus -------------------------------------------------------------------------------------

#[test]
fn every_restaurant_has_one_menu_in_the_same_order() {
    assert_eq!(LARGE.restaurants.len(), LARGE.menus.len());
    for (r, m) in LARGE.restaurants.iter().zip(&LARGE.menus) {
        assert_eq!(r.id, m.restaurant_id);
        assert_eq!(LARGE.restaurant(r.id), Some(r));
        assert_eq!(LARGE.menu(r.id), Some(m));
    }
}

#[test]
fn every_menu_has_20_to_80_items_in_4_to_9_categories() {
    for m in &LARGE.menus {
        assert!(
            (20..=80).contains(&m.items.len()),
            "{}: {} items",
            m.restaurant_id,
            m.items.len()
        );
        assert!(
            (4..=9).contains(&m.categories.len()),
            "{}: {} categories",
            m.restaurant_id,
            m.categories.len()
        );
    }
}

#[test]
fn categories_list_every_item_once_under_its_own_category() {
    for m in &LARGE.menus {
        let mut listed = Vec::new();
        for c in &m.categories {
            assert!(c.sub_categories.len() <= 2, "{}", c.id);
            assert!(
                !c.item_ids.is_empty() || !c.sub_categories.is_empty(),
                "{} is empty",
                c.id
            );
            for &id in &c.item_ids {
                let item = m.items.iter().find(|i| i.id == id).unwrap();
                assert_eq!(
                    (item.category.as_str(), item.sub_category.as_deref()),
                    (c.name.as_str(), None)
                );
                listed.push(id);
            }
            for s in &c.sub_categories {
                assert!(
                    s.sub_categories.is_empty() && !s.item_ids.is_empty(),
                    "{}",
                    s.id
                );
                for &id in &s.item_ids {
                    let item = m.items.iter().find(|i| i.id == id).unwrap();
                    assert_eq!(
                        (item.category.as_str(), item.sub_category.as_deref()),
                        (c.name.as_str(), Some(s.name.as_str()))
                    );
                    listed.push(id);
                }
            }
        }
        // Display order: the items array runs category by category.
        assert_eq!(listed, m.items.iter().map(|i| i.id).collect::<Vec<_>>());
    }
}

#[test]
fn menus_serve_the_restaurants_cuisines() {
    let c = generate(&options(21, 30));
    for (r, m) in c.restaurants.iter().zip(&c.menus) {
        let names: HashSet<&str> = m.items.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(
            names.len(),
            m.items.len(),
            "{}: a dish twice on one menu",
            r.id
        );
        assert!(!m.items.is_empty());
    }
    // A spot check that names and food agree: biryani houses sell biryani.
    let biryani_houses = c.restaurants.iter().filter(|r| r.cuisines[0] == "Biryani");
    for r in biryani_houses {
        let m = c.menu(r.id).unwrap();
        assert!(
            m.items.iter().any(|i| i.name.contains("Biryani")),
            "{} sells no biryani",
            r.name
        );
    }
}

#[test]
fn veg_only_restaurants_serve_only_veg() {
    let veg_only: Vec<&Restaurant> = LARGE.restaurants.iter().filter(|r| r.veg_only).collect();
    assert!(!veg_only.is_empty());
    for r in veg_only {
        for item in &LARGE.menu(r.id).unwrap().items {
            assert_eq!(item.veg_type, VegType::Veg, "{}: {}", r.name, item.name);
            for v in item.variant_groups.iter().flat_map(|g| &g.variations) {
                assert_eq!(v.veg_type, VegType::Veg, "{}: {}", item.name, v.name);
            }
            for ch in item.addon_groups.iter().flat_map(|g| &g.choices) {
                assert_eq!(ch.veg_type, VegType::Veg, "{}: {}", item.name, ch.name);
            }
        }
    }
}

#[test]
fn veg_items_offer_only_veg_add_ons_and_egg_items_no_meat() {
    for item in all_items(&LARGE) {
        for ch in item.addon_groups.iter().flat_map(|g| &g.choices) {
            match item.veg_type {
                VegType::Veg => assert_eq!(ch.veg_type, VegType::Veg, "{}: {}", item.name, ch.name),
                VegType::Egg => {
                    assert_ne!(ch.veg_type, VegType::NonVeg, "{}: {}", item.name, ch.name)
                }
                VegType::NonVeg => {}
            }
        }
    }
}

#[test]
fn prices_are_whole_rupees_in_paise() {
    for item in all_items(&LARGE) {
        assert!(
            item.price % 100 == 0 && item.price >= 1_900,
            "{}: {}",
            item.name,
            item.price
        );
        if let Some(original) = item.original_price {
            assert!(
                original % 100 == 0 && original > item.price,
                "{}: {original} vs {}",
                item.name,
                item.price
            );
        }
        for v in item.variant_groups.iter().flat_map(|g| &g.variations) {
            assert_eq!(v.price % 100, 0);
        }
        for ch in item.addon_groups.iter().flat_map(|g| &g.choices) {
            assert_eq!(ch.price % 100, 0);
        }
    }
}

// ---- Pictures ----------------------------------------------------------------------------------

#[test]
fn restaurants_are_pictured_by_their_main_cuisine() {
    for r in &LARGE.restaurants {
        assert_eq!(
            r.image_id,
            format!("restaurant-{}-{}", gazetteer::slugify(&r.cuisines[0]), r.id)
        );
        assert!(
            matches!(
                picture::Picture::of(&r.image_id),
                picture::Picture::Restaurant(Some(_))
            ),
            "{}",
            r.image_id
        );
    }
}

#[test]
fn dishes_are_pictured_as_what_their_names_say() {
    use picture::{DishKind, Picture};
    let mut kinds = HashSet::new();
    for item in all_items(&LARGE) {
        let Picture::Dish(kind) = Picture::of(&item.image_id) else {
            panic!("{}: {}", item.name, item.image_id);
        };
        assert_eq!(item.image_id, picture::dish_image_id(kind, item.id));
        assert_ne!(kind, DishKind::Plate, "{}", item.name);
        kinds.insert(kind);
        let name = item.name.to_lowercase();
        let expected = [
            ("biryani", DishKind::Biryani),
            ("dosa", DishKind::Dosa),
            ("pizza", DishKind::Pizza),
            ("burger", DishKind::Burger),
            ("momos", DishKind::Momos),
            ("noodles", DishKind::Noodles),
            ("lassi", DishKind::Lassi),
            ("gulab jamun", DishKind::GulabJamun),
        ]
        .into_iter()
        .find(|(word, _)| name.contains(word));
        if let Some((_, kind_of_name)) = expected {
            assert_eq!(kind, kind_of_name, "{}", item.name);
        }
    }
    let menu_of = |name: &str| {
        all_items(&LARGE)
            .find(|i| i.name == name)
            .unwrap_or_else(|| panic!("no {name} in the catalogue"))
            .image_id
            .clone()
    };
    assert!(menu_of("Boneless Chicken Biryani").starts_with("dish-biryani-"));
    assert!(menu_of("Masala Dosa").starts_with("dish-dosa-"));
    assert!(menu_of("Paneer Tikka").starts_with("dish-kebab-"));
    // A large catalogue shows every kind there is but the generic plate.
    for kind in DishKind::ALL.iter().filter(|&&k| k != DishKind::Plate) {
        assert!(kinds.contains(kind), "no dish is pictured as {kind:?}");
    }
}

#[test]
fn pricing_models_cover_every_combination_of_existing_variations() {
    let mut items_with_variants = 0;
    for item in all_items(&LARGE) {
        if item.variant_groups.is_empty() {
            assert!(item.pricing_models.is_empty(), "{}", item.id);
            continue;
        }
        items_with_variants += 1;

        // Each group: at least two variations, exactly one default, the first, in stock.
        for g in &item.variant_groups {
            assert!(g.variations.len() >= 2, "{}", g.id);
            let defaults: Vec<usize> = (0..g.variations.len())
                .filter(|&i| g.variations[i].default)
                .collect();
            assert_eq!(defaults, [0], "{}", g.id);
            assert!(
                g.variations[0].in_stock && g.variations[0].price == 0,
                "{}",
                g.id
            );
        }

        // Each model names one existing variation of every group, in group order.
        let mut combinations = HashSet::new();
        for model in &item.pricing_models {
            assert_eq!(
                model.variations.len(),
                item.variant_groups.len(),
                "{}",
                item.id
            );
            let mut combination = Vec::new();
            for (r, g) in model.variations.iter().zip(&item.variant_groups) {
                assert_eq!(r.group_id, g.id);
                let v = g.variations.iter().position(|v| v.id == r.variation_id);
                combination.push(
                    v.unwrap_or_else(|| panic!("{}: no variation {}", item.id, r.variation_id)),
                );
            }
            assert!(
                combinations.insert(combination),
                "{}: a combination priced twice",
                item.id
            );
            assert!(
                model.price % 100 == 0 && model.price >= item.price,
                "{}",
                item.id
            );
        }
        if item.pricing_models.is_empty() {
            continue;
        }
        let expected: usize = item
            .variant_groups
            .iter()
            .map(|g| g.variations.len())
            .product();
        assert_eq!(
            combinations.len(),
            expected,
            "{}: not every combination is priced",
            item.id
        );

        // A V1 item has no models: its price is the base plus the chosen variations.
        if item.pricing_models.is_empty() {
            continue;
        }
        // The default combination costs what the item card says.
        let default = &item.pricing_models[0];
        assert!(
            default
                .variations
                .iter()
                .all(|r| r.variation_id.ends_with("-v1"))
        );
        assert_eq!(default.price, item.price, "{}", item.id);
    }
    assert!(items_with_variants > 0);
}

#[test]
fn add_on_groups_are_well_formed() {
    let mut required = 0;
    for item in all_items(&LARGE) {
        for g in &item.addon_groups {
            assert!(g.min_addons <= g.max_addons, "{}", g.id);
            assert!(g.max_free_addons <= g.max_addons, "{}", g.id);
            assert!(
                g.max_addons >= 1 && usize::from(g.max_addons) <= g.choices.len(),
                "{}",
                g.id
            );
            required += usize::from(g.min_addons > 0);
        }
    }
    assert!(
        required > 0,
        "some groups should be required (choice of sweet, sugar)"
    );
}

// ---- Ids ---------------------------------------------------------------------------------------

#[test]
fn ids_are_unique_across_the_catalogue() {
    let c = &*LARGE;
    let mut numbers = HashSet::new();
    for r in &c.restaurants {
        assert!(numbers.insert(("restaurant", r.id)), "restaurant {}", r.id);
    }
    for item in all_items(c) {
        assert!(numbers.insert(("item", item.id)), "item {}", item.id);
        assert_eq!(item.id / 100, item.restaurant_id, "{}", item.id);
    }

    let mut strings = HashSet::new();
    let mut unique = |id: &str| assert!(strings.insert(id.to_owned()), "duplicate id {id}");
    for m in &c.menus {
        for cat in &m.categories {
            unique(&cat.id);
            cat.sub_categories.iter().for_each(|s| unique(&s.id));
        }
        for item in &m.items {
            for g in &item.variant_groups {
                unique(&g.id);
                g.variations.iter().for_each(|v| unique(&v.id));
            }
            for g in &item.addon_groups {
                unique(&g.id);
                g.choices.iter().for_each(|ch| unique(&ch.id));
            }
        }
    }

    let mut slugs = HashSet::new();
    for r in &c.restaurants {
        assert!(
            slugs.insert((&r.city, &r.slug)),
            "slug {} twice in {}",
            r.slug,
            r.city
        );
    }
}

#[test]
fn names_stay_unique_per_locality_in_a_very_large_city() {
    let c = generate(&Options {
        seed: 1,
        restaurants_per_city: 2_000,
        cities: Some(vec!["pune".into()]),
    });
    let slugs: HashSet<&str> = c.restaurants.iter().map(|r| r.slug.as_str()).collect();
    assert_eq!(slugs.len(), c.restaurants.len());
}

// ---- File --------------------------------------------------------------------------------------

#[test]
fn write_then_read_gives_back_the_same_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/data/catalogue.json");
    let written = generate(&options(8, 4));
    written.write_json(&path).unwrap();

    let read = Catalogue::read_json(&path).unwrap();
    assert_eq!(read, written);
    // Only the catalogue is left behind: the temporary file was renamed, not copied.
    let files: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(files, ["catalogue.json"]);
}

#[test]
fn writing_replaces_an_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("catalogue.json");
    generate(&options(1, 2)).write_json(&path).unwrap();
    generate(&options(2, 3)).write_json(&path).unwrap();
    assert_eq!(Catalogue::read_json(&path).unwrap().seed, 2);
}

#[test]
fn reading_a_stale_or_broken_file_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();

    let stale = dir.path().join("stale.json");
    let mut value = serde_json::to_value(generate(&options(1, 1))).unwrap();
    value["format_version"] = 0.into();
    std::fs::write(&stale, value.to_string()).unwrap();
    let err = Catalogue::read_json(&stale).unwrap_err();
    assert!(
        matches!(err, CatalogueError::FormatVersion { found: 0, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("regenerate"), "{err}");

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"format_version\": 1, \"seed\": ").unwrap();
    assert!(matches!(
        Catalogue::read_json(&broken),
        Err(CatalogueError::Json { .. })
    ));

    let missing = dir.path().join("missing.json");
    assert!(matches!(
        Catalogue::read_json(&missing),
        Err(CatalogueError::Io { .. })
    ));
}

#[test]
fn json_uses_the_storefront_words_for_enums() {
    let value = serde_json::to_value(&*LARGE).unwrap();
    let text = value.to_string();
    for word in [
        "\"VEG\"",
        "\"NONVEG\"",
        "\"EGG\"",
        "\"MEDIUMSPICY\"",
        "\"VERYSPICY\"",
        "\"Bestseller\"",
        "\"Must Try\"",
    ] {
        assert!(text.contains(word), "{word} never appears");
    }
}

// ---- Gazetteer ---------------------------------------------------------------------------------

#[test]
fn gazetteer_coordinates_are_in_india_and_localities_near_their_city() {
    let in_india = |lat: f64, lng: f64| (6.5..=37.5).contains(&lat) && (68.0..=97.5).contains(&lng);
    for city in gazetteer::cities() {
        assert!(in_india(city.lat, city.lng), "{}", city.slug);
        assert!(!city.localities.is_empty(), "{}", city.slug);
        for l in &city.localities {
            assert!(in_india(l.lat, l.lng), "{}", l.place_id);
            let d = distance_m(city.lat, city.lng, l.lat, l.lng);
            assert!(
                d <= 40_000.0,
                "{} is {:.1} km from the centre of {}",
                l.name,
                d / 1000.0,
                city.name
            );
            assert_eq!(l.place_id, format!("{}-{}", city.slug, l.slug));
            assert_eq!(l.city, city.slug);
        }
    }
}

#[test]
fn gazetteer_has_the_nine_popular_cities_with_10_to_15_localities() {
    let popular: Vec<&str> = gazetteer::cities()
        .iter()
        .filter(|c| c.popular)
        .map(|c| c.slug.as_str())
        .collect();
    assert_eq!(
        popular,
        [
            "ahmedabad",
            "bangalore",
            "chennai",
            "delhi",
            "gurgaon",
            "hyderabad",
            "kolkata",
            "mumbai",
            "pune"
        ]
    );
    for slug in popular {
        let city = gazetteer::city(slug).unwrap();
        assert!(city.enabled && city.is_listed());
        assert!(
            (10..=15).contains(&city.localities.len()),
            "{slug}: {}",
            city.localities.len()
        );
    }
    let koramangala = gazetteer::locality("bangalore-koramangala").unwrap();
    assert_eq!((koramangala.lat, koramangala.lng), (12.9352, 77.6245));
}

#[test]
fn gazetteer_place_ids_and_slugs_are_unique() {
    let mut place_ids = HashSet::new();
    let mut slugs = HashSet::new();
    for city in gazetteer::cities() {
        assert!(slugs.insert(&city.slug), "{}", city.slug);
        for l in &city.localities {
            assert!(place_ids.insert(&l.place_id), "{}", l.place_id);
        }
    }
}

#[test]
fn footer_filtering_has_something_to_exclude() {
    let unlisted: Vec<&str> = gazetteer::cities()
        .iter()
        .filter(|c| !c.is_listed())
        .map(|c| c.slug.as_str())
        .collect();
    assert!(
        gazetteer::cities().iter().any(|c| !c.enabled),
        "a disabled city"
    );
    assert!(unlisted.iter().any(|s| s.contains("test")), "a test slug");
    // Beyond the nine popular cities, more enabled ones with a few localities each.
    let extra = gazetteer::cities()
        .iter()
        .filter(|c| c.is_listed() && !c.popular)
        .count();
    assert!(extra >= 5, "{extra}");
}

// ---- Menu extras: offers, stock messages, variant formats --------------------------------------

#[test]
fn some_menus_are_about_60_items_long_and_sizes_vary() {
    let sizes: Vec<usize> = LARGE.menus.iter().map(|m| m.items.len()).collect();
    assert!(
        sizes.iter().any(|n| (58..=62).contains(n)),
        "no menu near 60"
    );
    assert!(sizes.iter().any(|&n| n > 60), "no menu above 60");
    assert!(sizes.iter().any(|&n| n < 35), "no short menu");
    // The default `make run` catalogue has one too, for the benchmark.
    let small = generate(&Options::default());
    assert!(
        small
            .menus
            .iter()
            .any(|m| (55..=65).contains(&m.items.len()))
    );
}

#[test]
fn the_offers_strip_opens_with_the_listing_offer_and_has_coupon_codes() {
    let mut with_several = 0;
    for (r, m) in LARGE.restaurants.iter().zip(&LARGE.menus) {
        match &r.offer {
            None => assert!(m.offers.is_empty(), "{}", r.id),
            Some(headline) => {
                assert_eq!(
                    m.offers.first().map(|o| &o.header),
                    Some(headline),
                    "{}",
                    r.id
                );
                assert!(m.offers.len() <= 3, "{}", r.id);
            }
        }
        if m.offers.len() > 1 {
            with_several += 1;
        }
        let headers: HashSet<&str> = m.offers.iter().map(|o| o.header.as_str()).collect();
        assert_eq!(headers.len(), m.offers.len(), "{}: an offer twice", r.id);
        for (n, o) in m.offers.iter().enumerate() {
            assert_eq!(o.id, format!("{}-o{}", r.id, n + 1));
            assert!(
                !o.coupon_code.is_empty()
                    && o.coupon_code
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()),
                "{}",
                o.coupon_code
            );
            assert!(o.description.contains(&o.coupon_code), "{}", o.description);
        }
    }
    assert!(with_several > 0);
}

#[test]
fn out_of_stock_items_mostly_say_when_they_come_back_and_in_stock_items_never_do() {
    let (mut out, mut told) = (0, 0);
    for item in all_items(&LARGE) {
        if item.in_stock {
            assert_eq!(item.next_available_message, None, "{}", item.id);
        } else {
            out += 1;
            told += usize::from(item.next_available_message.is_some());
        }
    }
    let share = told as f64 / out as f64;
    assert!((0.6..=0.9).contains(&share), "told {share}");
}

#[test]
fn items_with_variants_come_in_both_formats_and_some_v2_combinations_are_deals() {
    let with_variants: Vec<&MenuItem> = all_items(&LARGE)
        .filter(|i| !i.variant_groups.is_empty())
        .collect();
    let v1 = with_variants
        .iter()
        .filter(|i| i.pricing_models.is_empty())
        .count();
    let share = v1 as f64 / with_variants.len() as f64;
    assert!((0.25..=0.45).contains(&share), "V1 {share}");

    let sum = |item: &MenuItem, model: &PricingModel| -> u32 {
        item.price
            + model
                .variations
                .iter()
                .zip(&item.variant_groups)
                .map(|(r, g)| {
                    g.variations
                        .iter()
                        .find(|v| v.id == r.variation_id)
                        .unwrap()
                        .price
                })
                .sum::<u32>()
    };
    let deals = with_variants
        .iter()
        .flat_map(|i| i.pricing_models.iter().map(move |m| (i, m)))
        .filter(|(i, m)| m.price < sum(i, m))
        .count();
    assert!(deals > 0, "no V2 combination overrides the sum");
    for item in &with_variants {
        for m in &item.pricing_models {
            assert!(
                m.price <= sum(item, m),
                "{}: a model above its sum",
                item.id
            );
        }
    }
}

#[test]
fn menus_have_required_groups_free_choices_and_out_of_stock_choices() {
    let groups: Vec<&AddonGroup> = all_items(&LARGE).flat_map(|i| &i.addon_groups).collect();
    assert!(groups.iter().any(|g| g.min_addons > 0));
    assert!(groups.iter().any(|g| g.max_free_addons > 0));
    // A group where picking more free choices than the free maximum is possible within the
    // maximum, so the free-limit rule can be broken on its own.
    assert!(groups.iter().any(|g| {
        let free = g.choices.iter().filter(|c| c.price == 0).count();
        g.max_free_addons > 0
            && free > usize::from(g.max_free_addons)
            && g.max_addons > g.max_free_addons
    }));
    assert!(groups.iter().flat_map(|g| &g.choices).any(|c| !c.in_stock));
    assert!(
        groups
            .iter()
            .flat_map(|g| &g.choices)
            .any(|c| c.veg_type == VegType::Veg)
    );
    assert!(
        groups
            .iter()
            .flat_map(|g| &g.choices)
            .any(|c| c.veg_type == VegType::NonVeg)
    );
    assert!(
        LARGE
            .menus
            .iter()
            .any(|m| m.categories.iter().any(|c| !c.sub_categories.is_empty()))
    );
    assert!(LARGE.restaurants.iter().any(|r| !r.opened));
}
