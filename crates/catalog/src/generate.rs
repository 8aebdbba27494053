//! The generator: turns a seed and a size into restaurants and menus.
//!
//! Every restaurant draws from its own ChaCha8 stream (the seed, with the restaurant id as stream
//! number), so what a restaurant looks like depends only on the seed, its id and the names of the
//! restaurants before it in its city. A catalogue of 24 restaurants per city is therefore the
//! first 24 of a catalogue of 10 000 per city, and `--cities bangalore` gives the same Bangalore as
//! the full run.
//!
//! It must never read the clock, the environment or the file system, never iterate a hash map
//! into its output, and never use floating-point functions whose last bit differs between
//! platforms (`sin`, `cos`, `exp`): money and ratings are integers, and positions use only `+ - * /`
//! and rounding, so the same seed gives the same bytes everywhere.

use std::collections::HashSet;

use rand::seq::{IndexedRandom, index};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::concepts::{CONCEPTS, Concept, OFFER_COUPONS, OFFERS, STREETS};
use crate::dishes::{self, CategorySpec, Delta, Dish, FILLER_CUISINES};
use crate::pictures;
use tiffin_catalog_format::*;
use tiffin_geo::{self as gazetteer, City, Locality, slugify};

/// The seed `make run` and the services use unless told otherwise.
pub const DEFAULT_SEED: u64 = 42;
/// Small enough that `make run` seeds in well under a second.
pub const DEFAULT_RESTAURANTS_PER_CITY: usize = 24;
/// Restaurant ids give each city a block of a million numbers.
pub const MAX_RESTAURANTS_PER_CITY: usize = 999_999;

/// Fewest and most items on one menu, and fewest and most categories.
pub const MENU_ITEMS: (usize, usize) = (20, 80);
pub const MENU_CATEGORIES: (usize, usize) = (4, 9);

/// Restaurants sit within this many metres of their locality's centre.
pub const SPREAD_M: i64 = 800;

const CITY_ID_STRIDE: u64 = 1_000_000;
/// Stream numbers of the menu extras' generators: the restaurant id with this bit set (ids stay
/// far below it), so no extras stream is ever a restaurant's stream.
const EXTRAS_STREAM: u64 = 1 << 62;

// Shares of the menu extras.
/// Out-of-stock items that say when they come back.
const NEXT_AVAILABLE_PERCENT: u32 = 75;
/// Items with variants served in the spec's V1 format (no pricing models).
const V1_PERCENT: u32 = 35;
/// V2 items whose last combination is a deal cheaper than the sum of its parts.
const COMBO_DEAL_PERCENT: u32 = 50;
const NEXT_AVAILABLE: &[&str] = &[
    "Next available at 11:30 AM",
    "Next available at 12:30 PM",
    "Next available at 6:30 PM",
    "Next available at 7:00 PM",
    "Available tomorrow",
];
const METRES_PER_DEGREE_LAT: f64 = 111_320.0;

// Shares tuned so that about a third of items have variants and a third have add-ons (not every
// category offers either).
const VARIANT_PERCENT: u32 = 75;
const ADDON_GROUP_PERCENT: u32 = 55;

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Same seed and sizes, same bytes.
    pub seed: u64,
    /// Restaurants in each city, at most [`MAX_RESTAURANTS_PER_CITY`].
    pub restaurants_per_city: usize,
    /// City names or slugs ("bangalore", "Bengaluru"); `None` means every city the footer lists.
    /// The order does not matter: cities are always generated in gazetteer order.
    pub cities: Option<Vec<String>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: DEFAULT_SEED,
            restaurants_per_city: DEFAULT_RESTAURANTS_PER_CITY,
            cities: None,
        }
    }
}

impl Options {
    /// Checks what [`generate`] would otherwise panic on: unknown city names and sizes beyond
    /// [`MAX_RESTAURANTS_PER_CITY`].
    pub fn validate(&self) -> Result<(), CatalogueError> {
        self.selected_cities().map(|_| ())
    }

    /// The cities to generate, with their gazetteer ordinals, in gazetteer order.
    fn selected_cities(&self) -> Result<Vec<(usize, &'static City)>, CatalogueError> {
        if self.restaurants_per_city > MAX_RESTAURANTS_PER_CITY {
            return Err(CatalogueError::TooManyRestaurants {
                got: self.restaurants_per_city,
                max: MAX_RESTAURANTS_PER_CITY,
            });
        }
        let all = gazetteer::cities();
        let mut picked: Vec<(usize, &City)> = match &self.cities {
            None => all
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_listed())
                .collect(),
            Some(names) => names
                .iter()
                .map(|name| {
                    let slug = gazetteer::normalise_city(name);
                    all.iter()
                        .position(|c| c.slug == slug)
                        .map(|i| (i, &all[i]))
                        .ok_or_else(|| CatalogueError::UnknownCity(name.clone()))
                })
                .collect::<Result<_, _>>()?,
        };
        picked.sort_by_key(|(ordinal, _)| *ordinal);
        picked.dedup_by_key(|(ordinal, _)| *ordinal);
        Ok(picked)
    }
}

/// Generates the catalogue the options describe.
///
/// # Panics
/// On options [`Options::validate`] rejects (an unknown city, too many restaurants per city).
pub fn generate(options: &Options) -> Catalogue {
    generate_with(options, true)
}

/// [`generate`] without menus (`menus` is empty): the same restaurants, field for field, in a
/// small part of the time and memory (a menu is most of a restaurant's bytes). For benchmarks of
/// what reads no menu, such as the listing at 100,000 restaurants (`make bench`); a storefront
/// seeded from it has no menus and no dishes to search.
///
/// # Panics
/// On options [`Options::validate`] rejects (an unknown city, too many restaurants per city).
pub fn generate_restaurants(options: &Options) -> Catalogue {
    generate_with(options, false)
}

fn generate_with(options: &Options, with_menus: bool) -> Catalogue {
    let cities = options
        .selected_cities()
        .unwrap_or_else(|e| panic!("invalid catalogue options: {e}"));
    let total = cities.len() * options.restaurants_per_city;
    let mut restaurants = Vec::with_capacity(total);
    let mut menus = Vec::with_capacity(if with_menus { total } else { 0 });

    for &(ordinal, city) in &cities {
        // Only for uniqueness checks; never iterated, so its order cannot reach the output.
        let mut slugs_in_city = HashSet::new();
        for number in 0..options.restaurants_per_city {
            let id = (ordinal as u64 + 1) * CITY_ID_STRIDE + number as u64 + 1;
            let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
            rng.set_stream(id);

            let (restaurant, price_percent) =
                restaurant(&mut rng, id, number, city, &mut slugs_in_city);
            // The menu draws come after the restaurant's, so leaving them out changes no
            // restaurant.
            if !with_menus {
                restaurants.push(restaurant);
                continue;
            }
            let mut menu = menu(&mut rng, &restaurant, price_percent);
            // Offers, stock messages and V1/V2 formats draw from a stream of their own, so adding
            // them did not move a single dish or price drawn from the restaurant's stream.
            let mut extras = ChaCha8Rng::seed_from_u64(options.seed);
            extras.set_stream(id | EXTRAS_STREAM);
            enrich(&mut extras, &restaurant, &mut menu);
            menus.push(menu);
            restaurants.push(restaurant);
        }
    }

    Catalogue {
        format_version: FORMAT_VERSION,
        seed: options.seed,
        restaurants_per_city: options.restaurants_per_city,
        cities: cities.iter().map(|(_, c)| c.slug.clone()).collect(),
        restaurants,
        menus,
    }
}

// ---- Restaurants -------------------------------------------------------------------------------

/// One restaurant, and the percentage its menu prices are of a typical menu's.
fn restaurant(
    rng: &mut ChaCha8Rng,
    id: u64,
    number: usize,
    city: &City,
    slugs_in_city: &mut HashSet<String>,
) -> (Restaurant, u32) {
    // The first restaurants go one to a locality so that every locality has food even in the
    // smallest catalogue; after that they land anywhere.
    let locality = match city.localities.get(number) {
        Some(l) => l,
        None => city
            .localities
            .choose(rng)
            .expect("every city has localities"),
    };
    let concept = CONCEPTS
        .choose_weighted(rng, |c| {
            if c.home_cities.contains(&city.slug.as_str()) {
                c.weight * 4
            } else {
                c.weight
            }
        })
        .expect("concept weights are positive");

    let (name, slug) = unique_name(rng, concept, locality, slugs_in_city);

    let mut cuisines = vec![concept.cuisine.to_owned()];
    let extra = rng.random_range(0..=2);
    cuisines.extend(
        concept
            .extra_cuisines
            .choose_multiple(rng, extra)
            .map(|c| (*c).to_owned()),
    );

    let (lat, lng) = near(rng, locality);

    let price_percent = rng.random_range(70..=150);
    let cost_rupees = (concept.cost_for_two * price_percent / 100 + 25) / 50 * 50;
    let cost_for_two = cost_rupees.clamp(150, 1200) * 100;

    // One restaurant in twelve is new and has no ratings yet.
    let (avg_rating_tenths, total_ratings) = if rng.random_ratio(1, 12) {
        (None, 0)
    } else {
        // Two dice make ratings bunch around 4.0, as real ones do.
        let tenths = (rng.random_range(32..=48u8) + rng.random_range(32..=48u8)).div_ceil(2);
        (Some(tenths), total_ratings(rng))
    };

    let delivery_radius_m = rng.random_range(8..=18) * 500;
    let prep_time_minutes = rng.random_range(concept.prep_minutes.0..=concept.prep_minutes.1);
    let veg_only = rng.random_ratio(concept.veg_only_percent, 100);
    let opened = rng.random_ratio(85, 100);
    let offer = rng
        .random_ratio(55, 100)
        .then(|| (*OFFERS.choose(rng).expect("offers")).to_owned());
    let street = *STREETS.choose(rng).expect("streets");

    let restaurant = Restaurant {
        id,
        name,
        slug,
        city: city.slug.clone(),
        place_id: locality.place_id.clone(),
        area_name: locality.name.clone(),
        area_slug: locality.slug.clone(),
        locality: street.to_owned(),
        lat,
        lng,
        cuisines,
        avg_rating_tenths,
        total_ratings,
        cost_for_two,
        delivery_radius_m,
        prep_time_minutes,
        veg_only,
        opened,
        offer,
        image_id: picture::restaurant_image_id(pictures::cuisine_picture(concept.cuisine), id),
        phone: phone_number(id),
        member_discount_percent: member_discount_percent(id),
    };
    (restaurant, price_percent)
}

/// A made-up landline for restaurant `id`, taken from the id rather than the random stream, so
/// adding it changed no other generated value.
fn phone_number(id: u64) -> String {
    format!("+9180{:08}", id.wrapping_mul(2_654_435_761) % 100_000_000)
}

/// The partner discount of restaurant `id` for Tiffin One members: about one restaurant in four
/// is a partner, giving 10, 15, 20, 25 or 30%. Taken from the id, like [`phone_number`], so it is
/// the same for an id in every catalogue and no other generated value moved when it was added.
pub fn member_discount_percent(id: u64) -> u8 {
    let h = id.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    if !h.is_multiple_of(4) {
        return 0;
    }
    [10, 15, 20, 25, 30][((h / 4) % 5) as usize]
}

/// A name and slug not yet used in the city. A few fresh draws usually find one; in very large
/// catalogues the last draw gets an outlet number ("Meghana Biryani (2)").
fn unique_name(
    rng: &mut ChaCha8Rng,
    concept: &Concept,
    locality: &Locality,
    taken: &mut HashSet<String>,
) -> (String, String) {
    let slug_for = |name: &str| format!("{}-{}", slugify(name), locality.slug);
    let mut name = String::new();
    for _ in 0..4 {
        name = draw_name(rng, concept);
        let slug = slug_for(&name);
        if taken.insert(slug.clone()) {
            return (name, slug);
        }
    }
    (2..)
        .map(|outlet| format!("{name} ({outlet})"))
        .find_map(|numbered| {
            let slug = slug_for(&numbered);
            taken.insert(slug.clone()).then_some((numbered, slug))
        })
        .expect("some outlet number is free")
}

fn draw_name(rng: &mut ChaCha8Rng, concept: &Concept) -> String {
    let root = *concept.roots.choose(rng).expect("roots");
    let suffix = *concept.suffixes.choose(rng).expect("suffixes");
    // "Rolls King" + "Rolls" would read "Rolls King Rolls": a suffix repeating the root is dropped.
    let repeats = suffix
        .split(' ')
        .any(|w| root.split(' ').any(|r| r.eq_ignore_ascii_case(w)));
    if suffix.is_empty() || repeats {
        root.to_owned()
    } else {
        format!("{root} {suffix}")
    }
}

/// A point at most [`SPREAD_M`] from the locality centre, uniform over the disc.
fn near(rng: &mut ChaCha8Rng, locality: &Locality) -> (f64, f64) {
    let (dx, dy) = loop {
        let dx = rng.random_range(-SPREAD_M..=SPREAD_M);
        let dy = rng.random_range(-SPREAD_M..=SPREAD_M);
        if dx * dx + dy * dy <= SPREAD_M * SPREAD_M {
            break (dx as f64, dy as f64);
        }
    };
    let lat = locality.lat + dy / METRES_PER_DEGREE_LAT;
    let lng = locality.lng + dx / (METRES_PER_DEGREE_LAT * cos_degrees(locality.lat));
    (round6(lat), round6(lng))
}

/// Cosine by its Taylor series: exact to 1e-9 for Indian latitudes, and, unlike `f64::cos`, the
/// same to the last bit on every platform.
fn cos_degrees(degrees: f64) -> f64 {
    let x2 = {
        let x = degrees * (std::f64::consts::PI / 180.0);
        x * x
    };
    1.0 - x2 / 2.0 + x2 * x2 / 24.0 - x2 * x2 * x2 / 720.0 + x2 * x2 * x2 * x2 / 40_320.0
}

/// Six decimals is about 0.1 m: precise enough, and keeps the JSON short.
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Rating counts spread over orders of magnitude, like the listing's "20+", "1K+", "10K+".
fn total_ratings(rng: &mut ChaCha8Rng) -> u32 {
    const BUCKETS: &[(u32, u32, u32)] = &[
        (20, 99, 20),
        (100, 499, 25),
        (500, 999, 20),
        (1_000, 4_999, 20),
        (5_000, 9_999, 10),
        (10_000, 50_000, 5),
    ];
    let (low, high, _) = BUCKETS
        .choose_weighted(rng, |b| b.2)
        .expect("bucket weights are positive");
    rng.random_range(*low..=*high)
}

// ---- Menus -------------------------------------------------------------------------------------

/// A category's dishes this restaurant can serve, and where the category comes from.
struct Pool {
    spec: &'static CategorySpec,
    /// (cuisine position, category position): menus keep cuisines in the restaurant's order and
    /// categories in the table's order (starters before mains before breads).
    rank: (usize, usize),
    dishes: Vec<(Option<&'static str>, &'static Dish)>,
}

fn pools_of(cuisine: &str, cuisine_rank: usize, veg_only: bool) -> Vec<Pool> {
    let cuisine = dishes::cuisine(cuisine).expect("concept cuisines have dishes");
    cuisine
        .categories
        .iter()
        .enumerate()
        .map(|(i, spec)| Pool {
            spec,
            rank: (cuisine_rank, i),
            dishes: spec
                .sections
                .iter()
                .flat_map(|(sub, dishes)| dishes.iter().map(move |d| (*sub, d)))
                .filter(|(_, d)| !veg_only || d.veg == VegType::Veg)
                .collect(),
        })
        .filter(|p| !p.dishes.is_empty())
        .collect()
}

fn menu(rng: &mut ChaCha8Rng, restaurant: &Restaurant, price_percent: u32) -> Menu {
    let mut chosen = choose_categories(rng, restaurant);
    chosen.sort_by_key(|p| p.rank);

    // Every category shows at least one or two dishes; the rest are spread by what each has left.
    let available: usize = chosen.iter().map(|p| p.dishes.len()).sum();
    let target = rng.random_range(MENU_ITEMS.0..=MENU_ITEMS.1).min(available);
    let mut take: Vec<usize> = chosen.iter().map(|p| p.dishes.len().min(2)).collect();
    for _ in take.iter().sum::<usize>()..target {
        let spare: usize = chosen
            .iter()
            .zip(&take)
            .map(|(p, t)| p.dishes.len() - t)
            .sum();
        let mut r = rng.random_range(0..spare);
        for (p, t) in chosen.iter().zip(take.iter_mut()) {
            let left = p.dishes.len() - *t;
            if r < left {
                *t += 1;
                break;
            }
            r -= left;
        }
    }

    let mut categories = Vec::with_capacity(chosen.len());
    let mut items = Vec::with_capacity(target);
    for (c, (pool, count)) in chosen.iter().zip(take).enumerate() {
        let mut picked = index::sample(rng, pool.dishes.len(), count).into_vec();
        picked.sort_unstable();

        let category_id = format!("{}-c{}", restaurant.id, c + 1);
        let mut category = Category {
            id: category_id.clone(),
            name: pool.spec.name.to_owned(),
            item_ids: vec![],
            sub_categories: vec![],
        };
        for i in picked {
            let (sub, dish) = pool.dishes[i];
            let id = restaurant.id * 100 + items.len() as u64 + 1;
            match sub {
                None => category.item_ids.push(id),
                Some(sub) => {
                    if category.sub_categories.last().is_none_or(|s| s.name != sub) {
                        let n = category.sub_categories.len() + 1;
                        category.sub_categories.push(Category {
                            id: format!("{category_id}-{n}"),
                            name: sub.to_owned(),
                            item_ids: vec![],
                            sub_categories: vec![],
                        });
                    }
                    category
                        .sub_categories
                        .last_mut()
                        .expect("just pushed")
                        .item_ids
                        .push(id);
                }
            }
            items.push(menu_item(
                rng,
                id,
                restaurant,
                pool.spec,
                sub,
                dish,
                price_percent,
            ));
        }
        categories.push(category);
    }

    Menu {
        restaurant_id: restaurant.id,
        categories,
        items,
        offers: Vec::new(),
    }
}

/// The menu extras: the offers strip, when out-of-stock items come back, and which items with
/// variants use the V1 format or a V2 combination deal.
fn enrich(rng: &mut ChaCha8Rng, restaurant: &Restaurant, menu: &mut Menu) {
    // The strip opens with the listing's headline offer, so the card and the page agree.
    if let Some(headline) = &restaurant.offer {
        let mut headers = vec![headline.as_str()];
        let more = rng.random_range(0..=2);
        for header in OFFERS.choose_multiple(rng, more + 1) {
            if headers.len() <= more && !headers.contains(header) {
                headers.push(header);
            }
        }
        menu.offers = headers
            .into_iter()
            .enumerate()
            .map(|(n, header)| {
                let (code, description) = coupon(header);
                Offer {
                    id: format!("{}-o{}", restaurant.id, n + 1),
                    header: header.to_owned(),
                    coupon_code: code.to_owned(),
                    description: description.to_owned(),
                }
            })
            .collect();
    }

    for item in &mut menu.items {
        if !item.in_stock && rng.random_ratio(NEXT_AVAILABLE_PERCENT, 100) {
            item.next_available_message =
                Some((*NEXT_AVAILABLE.choose(rng).expect("messages")).to_owned());
        }
        if item.variant_groups.is_empty() {
            continue;
        }
        if rng.random_ratio(V1_PERCENT, 100) {
            // V1: the price is the base plus the chosen variations, which every model already
            // equals; dropping the models changes no price.
            item.pricing_models.clear();
        } else if item.pricing_models.len() > 1 && rng.random_ratio(COMBO_DEAL_PERCENT, 100) {
            // The most expensive combination becomes a deal: 10% off its sum, in whole ₹10s,
            // never below the default combination.
            let floor = item.price;
            if let Some(last) = item.pricing_models.last_mut() {
                let deal = (last.price / 100 * 9 / 10) / 10 * 10 * 100;
                last.price = deal.max(floor).min(last.price);
            }
        }
    }
}

/// The coupon code and description of an offer header; an offer without a known code gets a
/// generic one (every entry of `OFFERS` has one).
fn coupon(header: &str) -> (&'static str, &'static str) {
    OFFER_COUPONS
        .iter()
        .find(|(h, _, _)| *h == header)
        .map_or(("TIFFIN", "Use TIFFIN"), |(_, code, description)| {
            (code, description)
        })
}

/// Picks 4 to 9 categories: the restaurant's cuisines take turns (main cuisine first), then drinks
/// or desserts are added when the menu would otherwise be too thin.
fn choose_categories(rng: &mut ChaCha8Rng, restaurant: &Restaurant) -> Vec<Pool> {
    let veg_only = restaurant.veg_only;
    let by_cuisine: Vec<Vec<Pool>> = restaurant
        .cuisines
        .iter()
        .enumerate()
        .map(|(i, c)| pools_of(c, i, veg_only))
        .collect();

    // How many categories each cuisine gets. The main cuisine shows its whole range when it fits
    // (a cafe without its coffee section would look broken); every other cuisine gets at least
    // one, so the listing's cuisines are all on the menu; the rest go round in turns.
    let others = by_cuisine.iter().skip(1).filter(|p| !p.is_empty()).count();
    let main_len = by_cuisine.first().map_or(0, Vec::len);
    let wanted = rng
        .random_range(MENU_CATEGORIES.0..=MENU_CATEGORIES.1)
        .max((main_len + others).min(MENU_CATEGORIES.1));
    let mut quota = vec![0; by_cuisine.len()];
    if let Some(main) = quota.first_mut() {
        *main = main_len.min(wanted - others);
    }
    let mut given: usize = quota.iter().sum();
    while given < wanted {
        let before = given;
        for (q, pools) in quota.iter_mut().zip(&by_cuisine).skip(1) {
            if given < wanted && *q < pools.len() {
                *q += 1;
                given += 1;
            }
        }
        if given == before {
            break;
        }
    }

    // Which categories, keeping each cuisine's table order.
    let mut chosen = Vec::with_capacity(MENU_CATEGORIES.1);
    for (pools, q) in by_cuisine.into_iter().zip(quota) {
        let mut keep = index::sample(rng, pools.len(), q).into_vec();
        keep.sort_unstable();
        let mut pools: Vec<Option<Pool>> = pools.into_iter().map(Some).collect();
        chosen.extend(keep.into_iter().filter_map(|i| pools[i].take()));
    }

    let taken: HashSet<&str> = chosen.iter().map(|p| p.spec.name).collect();
    let mut fillers: Vec<Pool> = FILLER_CUISINES
        .iter()
        .enumerate()
        .flat_map(|(i, c)| pools_of(c, restaurant.cuisines.len() + i, veg_only))
        .filter(|p| !taken.contains(p.spec.name))
        .collect();

    // Most kitchens also sell a drink or a sweet.
    if chosen.len() < MENU_CATEGORIES.1 && !fillers.is_empty() && rng.random_ratio(2, 5) {
        let i = rng.random_range(0..fillers.len());
        chosen.push(fillers.remove(i));
    }
    let dish_count = |pools: &[Pool]| pools.iter().map(|p| p.dishes.len()).sum::<usize>();
    while chosen.len() < MENU_CATEGORIES.0 || dish_count(&chosen) < MENU_ITEMS.0 {
        assert!(
            !fillers.is_empty(),
            "filler categories always complete a menu"
        );
        let filler = fillers.remove(0);
        if chosen.len() < MENU_CATEGORIES.1 {
            chosen.push(filler);
        } else {
            let smallest = (0..chosen.len())
                .min_by_key(|&i| chosen[i].dishes.len())
                .expect("nine categories");
            chosen[smallest] = filler;
        }
    }
    chosen
}

fn menu_item(
    rng: &mut ChaCha8Rng,
    id: u64,
    restaurant: &Restaurant,
    spec: &CategorySpec,
    sub: Option<&str>,
    dish: &Dish,
    price_percent: u32,
) -> MenuItem {
    let base = menu_price(rng, dish.rupees, price_percent);

    let (variant_groups, pricing_models) =
        if !spec.variants.is_empty() && rng.random_ratio(VARIANT_PERCENT, 100) {
            variants(rng, id, spec, dish.veg, base)
        } else {
            (vec![], vec![])
        };

    let mut addon_groups = Vec::new();
    for addon in spec.addons {
        if rng.random_ratio(ADDON_GROUP_PERCENT, 100)
            && let Some(group) = addon_group(
                rng,
                &format!("{id}-ag{}", addon_groups.len() + 1),
                addon,
                dish.veg,
            )
        {
            addon_groups.push(group);
        }
    }

    // A struck-out price 10-40% above the real one, for items on offer.
    let original_price = rng.random_ratio(12, 100).then(|| {
        let higher = (base * rng.random_range(110..=140) / 100).div_ceil(10) * 10;
        higher.max(base + 10) * 100
    });
    let in_stock = rng.random_ratio(95, 100);
    let ribbon = match rng.random_range(0..100) {
        0..12 => Some(Ribbon::Bestseller),
        12..16 => Some(Ribbon::MustTry),
        _ => None,
    };
    let recommended = rng.random_ratio(1, 10);

    MenuItem {
        id,
        restaurant_id: restaurant.id,
        name: dish.name.to_owned(),
        description: dish.description.to_owned(),
        category: spec.name.to_owned(),
        sub_category: sub.map(str::to_owned),
        veg_type: dish.veg,
        price: base * 100,
        original_price,
        in_stock,
        next_available_message: None,
        ribbon,
        spice_level: dish.spice,
        recommended,
        image_id: picture::dish_image_id(pictures::dish_kind(dish.name, spec.name), id),
        variant_groups,
        pricing_models,
        addon_groups,
    }
}

/// A typical price scaled to this restaurant, in rupees: rounded to ten, and half the time
/// ending in 9 (₹249) the way menus print them.
fn menu_price(rng: &mut ChaCha8Rng, typical: u32, percent: u32) -> u32 {
    let rounded = ((typical * percent + 500) / 1000 * 10).max(20);
    if rng.random_bool(0.5) {
        rounded - 1
    } else {
        rounded
    }
}

/// The category's variant groups and one pricing model per combination. Prices in rupees in,
/// paise out.
fn variants(
    rng: &mut ChaCha8Rng,
    item_id: u64,
    spec: &CategorySpec,
    veg: VegType,
    base: u32,
) -> (Vec<VariantGroup>, Vec<PricingModel>) {
    let groups: Vec<VariantGroup> = spec
        .variants
        .iter()
        .enumerate()
        .map(|(g, vs)| {
            let group_id = format!("{item_id}-vg{}", g + 1);
            let variations = vs
                .options
                .iter()
                .enumerate()
                .map(|(i, (name, delta))| {
                    let rupees = match *delta {
                        Delta::Percent(p) => (base * p + 500) / 1000 * 10,
                        Delta::Rupees(r) => r,
                    };
                    Variation {
                        id: format!("{group_id}-v{}", i + 1),
                        name: (*name).to_owned(),
                        price: rupees * 100,
                        default: i == 0,
                        // The default must be orderable, or the item could never be added.
                        in_stock: i == 0 || rng.random_ratio(97, 100),
                        veg_type: veg,
                    }
                })
                .collect();
            VariantGroup {
                id: group_id,
                name: vs.name.to_owned(),
                variations,
            }
        })
        .collect();

    // Every combination, by counting in a mixed radix over the groups.
    let mut models = Vec::new();
    let mut pick = vec![0usize; groups.len()];
    loop {
        let chosen = groups
            .iter()
            .zip(&pick)
            .map(|(g, &i)| (g, &g.variations[i]));
        models.push(PricingModel {
            variations: chosen
                .clone()
                .map(|(g, v)| VariationRef {
                    group_id: g.id.clone(),
                    variation_id: v.id.clone(),
                })
                .collect(),
            price: base * 100 + chosen.map(|(_, v)| v.price).sum::<u32>(),
        });
        let Some(g) = (0..groups.len())
            .rev()
            .find(|&g| pick[g] + 1 < groups[g].variations.len())
        else {
            break;
        };
        pick[g] += 1;
        pick[g + 1..].fill(0);
    }
    (groups, models)
}

/// An add-on group with the choices that suit the dish (no chicken on a veg item), or `None`
/// when too few are left to make a choice.
fn addon_group(
    rng: &mut ChaCha8Rng,
    group_id: &str,
    spec: &dishes::AddonSpec,
    veg: VegType,
) -> Option<AddonGroup> {
    let suits = |choice: VegType| match veg {
        VegType::Veg => choice == VegType::Veg,
        VegType::Egg => choice != VegType::NonVeg,
        VegType::NonVeg => true,
    };
    let choices: Vec<AddonChoice> = spec
        .choices
        .iter()
        .filter(|c| suits(c.2))
        .enumerate()
        .map(|(i, &(name, rupees, veg_type))| AddonChoice {
            id: format!("{group_id}-c{}", i + 1),
            name: name.to_owned(),
            price: rupees * 100,
            in_stock: rng.random_ratio(97, 100),
            veg_type,
        })
        .collect();
    if choices.len() < 2 {
        return None;
    }
    let max_addons = spec.max.min(u8::try_from(choices.len()).unwrap_or(u8::MAX));
    Some(AddonGroup {
        id: group_id.to_owned(),
        name: spec.name.to_owned(),
        min_addons: spec.min.min(max_addons),
        max_addons,
        max_free_addons: spec.max_free.min(max_addons),
        choices,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cos_degrees_matches_the_library_cosine_for_indian_latitudes() {
        for lat in [0.0, 8.0, 12.97, 19.07, 28.6, 37.0] {
            let exact = f64::to_radians(lat).cos();
            assert!((cos_degrees(lat) - exact).abs() < 1e-8, "{lat}");
        }
    }

    #[test]
    fn about_a_quarter_of_restaurants_are_partners_giving_ten_to_thirty_percent() {
        let ids: Vec<u64> = (1..=2_000).map(|n| 2 * CITY_ID_STRIDE + n).collect();
        let partners: Vec<u8> = ids
            .iter()
            .map(|&id| member_discount_percent(id))
            .filter(|&p| p > 0)
            .collect();
        assert!((400..=600).contains(&partners.len()), "{}", partners.len());
        for p in [10, 15, 20, 25, 30] {
            assert!(partners.contains(&p), "{p}% is given somewhere");
        }
        assert!(
            partners
                .iter()
                .all(|&p| p <= tiffin_catalog_format::MAX_MEMBER_DISCOUNT_PERCENT)
        );
        // The same id is the same partner in every catalogue.
        assert_eq!(
            member_discount_percent(ids[7]),
            member_discount_percent(ids[7])
        );
    }

    #[test]
    fn menu_price_rounds_to_ten_or_ends_in_nine() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..200 {
            let p = menu_price(&mut rng, 249, 117);
            assert!(matches!(p % 10, 0 | 9), "{p}");
            assert!((280..=290).contains(&p), "{p}");
        }
    }
}
