//! The catalogue file: its data types and how it is written and read.
//!
//! These are the shapes the discovery and menu services seed their tables from at start-up, and
//! what the generator (`tiffin-catalog`, a tool the services never link) writes; keeping them apart
//! from the generator lets the services read the file without carrying the generator. The edge's
//! JSON (`docs/edge-api.md`) is built from them, so field names follow the storefront's words
//! (`area_name`, `cost_for_two`, `min_addons`...). All money is integer paise.
//!
//! What this crate must never do: I/O other than [`Catalogue::write_json`] and
//! [`Catalogue::read_json`]; floating-point money; change a field's meaning without bumping
//! [`FORMAT_VERSION`].
//!
//! [`picture`] is the vocabulary of image ids (what a dish's or restaurant's picture shows), shared
//! by the generator that issues them and the edge that draws them.

#![forbid(unsafe_code)]

pub mod picture;

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Bumped whenever a field changes meaning or disappears, so a service given a stale
/// `data/catalogue.json` refuses it instead of seeding wrong data.
pub const FORMAT_VERSION: u32 = 1;

/// Everything the generator produced for one set of its options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Catalogue {
    /// [`FORMAT_VERSION`] of the code that wrote the file.
    pub format_version: u32,
    /// The seed it was generated from; the same seed and sizes give the same bytes.
    pub seed: u64,
    /// Restaurants generated in each city.
    pub restaurants_per_city: usize,
    /// Slugs of the cities covered, in gazetteer order.
    pub cities: Vec<String>,
    /// Every restaurant, ordered by id (so by city, then by number within the city).
    pub restaurants: Vec<Restaurant>,
    /// One menu per restaurant, in the same order as `restaurants`. Kept apart so the discovery
    /// service can seed from `restaurants` and the menu service from `menus`.
    pub menus: Vec<Menu>,
}

/// A restaurant as the listing shows it. Delivery time and distance are not here: they depend on
/// the user's location and are the discovery service's to compute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Restaurant {
    /// Unique and stable: `(city ordinal + 1) * 1_000_000 + number in city`.
    pub id: u64,
    pub name: String,
    /// `<name-slug>-<locality-slug>`, unique within the city (URLs carry the city too).
    pub slug: String,
    /// City slug (`bangalore`).
    pub city: String,
    /// Gazetteer place id of the locality it sits in (`bangalore-koramangala`).
    pub place_id: String,
    /// Locality name, the storefront's `areaName` ("Koramangala").
    pub area_name: String,
    /// Locality slug, the spec's `areaSlug`.
    pub area_slug: String,
    /// Street-level line under the area ("1st Cross"), the storefront's `locality`.
    pub locality: String,
    /// Position: a few hundred metres from the locality centre, rounded to 6 decimals (~0.1 m).
    pub lat: f64,
    pub lng: f64,
    /// 1 to 3 cuisines, the main one first.
    pub cuisines: Vec<String>,
    /// Average rating in tenths of a star (43 is 4.3); `None` for a new restaurant with no
    /// ratings yet, which the storefront shows as "--".
    pub avg_rating_tenths: Option<u8>,
    /// Number of ratings behind the average (0 when there is none).
    pub total_ratings: u32,
    /// Paise, a multiple of 5000 (₹50) between 15000 and 120000.
    pub cost_for_two: u32,
    /// The restaurant delivers to points within this many metres of itself.
    pub delivery_radius_m: u32,
    /// Minutes the kitchen needs before a rider can leave; travel time is added per address.
    pub prep_time_minutes: u16,
    /// Serves vegetarian food only; every item, variation and add-on choice is then `Veg`.
    pub veg_only: bool,
    /// Accepting orders now; closed restaurants are listed after open ones.
    pub opened: bool,
    /// Headline offer ("20% OFF UPTO ₹100"), the listing's `aggregatedDiscountInfo`.
    pub offer: Option<String>,
    /// `restaurant-<cuisine>-<id>`, the image the edge renders ([`picture`]); catalogues from
    /// before the cuisine was carried hold `restaurant-<id>`.
    pub image_id: String,
    /// The restaurant's phone number ("+9180…"), for customers with a question about an order.
    /// Catalogues written before it existed read as "" (no number).
    #[serde(default)]
    pub phone: String,
    /// A Tiffin One partner's extra discount for members, percent of the item total: 0 when the
    /// restaurant is not a partner, else at most [`MAX_MEMBER_DISCOUNT_PERCENT`]. Catalogues
    /// written before partners existed read as 0 (no partners).
    #[serde(default)]
    pub member_discount_percent: u8,
}

/// The largest extra discount a partner restaurant gives Tiffin One members, percent.
pub const MAX_MEMBER_DISCOUNT_PERCENT: u8 = 30;

/// A restaurant's menu: categories for layout, items for content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Menu {
    pub restaurant_id: u64,
    /// 4 to 9 categories in display order.
    pub categories: Vec<Category>,
    /// 20 to 80 items in display order (category by category).
    pub items: Vec<MenuItem>,
    /// The menu page's offers strip, in display order (0 to 3). The first one's `header` is the
    /// restaurant's listing `offer`; a restaurant without one has none.
    #[serde(default)]
    pub offers: Vec<Offer>,
}

/// An offer on the menu page's strip, redeemed with a coupon code in the cart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// `<restaurant id>-o<n>`, unique in the catalogue.
    pub id: String,
    /// "20% OFF UPTO ₹100".
    pub header: String,
    /// What the cart's coupon box takes ("TIFFIN20"): upper-case letters and digits.
    pub coupon_code: String,
    /// "Use TIFFIN20 | above ₹249".
    pub description: String,
}

/// A menu section; the storefront's `CATEGORY` widget.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Category {
    /// `<restaurant id>-c<n>` (sub-categories `<restaurant id>-c<n>-<m>`), unique in the catalogue.
    pub id: String,
    pub name: String,
    /// Items shown directly in this category, in order.
    pub item_ids: Vec<u64>,
    /// At most two nested sections (e.g. "Chicken Biryani" inside "Biryani"); their own
    /// `sub_categories` are always empty.
    pub sub_categories: Vec<Category>,
}

/// A dish on a menu.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MenuItem {
    /// Unique and stable: `restaurant id * 100 + position on the menu` (1-based).
    pub id: u64,
    pub restaurant_id: u64,
    pub name: String,
    pub description: String,
    /// Name of the category it appears under.
    pub category: String,
    /// Name of the sub-category, when it sits in one.
    pub sub_category: Option<String>,
    pub veg_type: VegType,
    /// Paise, a multiple of 100. With variants, this is the default combination's price.
    pub price: u32,
    /// Struck-out price shown next to `price`; always above it when present.
    pub original_price: Option<u32>,
    pub in_stock: bool,
    /// For most out-of-stock items, when they come back ("Next available at 7:00 PM",
    /// "Available tomorrow"); always `None` for an item in stock.
    #[serde(default)]
    pub next_available_message: Option<String>,
    pub ribbon: Option<Ribbon>,
    pub spice_level: Option<SpiceLevel>,
    /// Shown in the menu's "Recommended" section as well as its category.
    pub recommended: bool,
    /// `dish-<kind>-<id>`, the image the edge renders ([`picture`]); catalogues from before the
    /// kind was carried hold `item-<id>`.
    pub image_id: String,
    /// Choices the user must make (size, crust); each group's first variation is the default.
    pub variant_groups: Vec<VariantGroup>,
    /// One price per full combination of `variant_groups` (one variation from each group). When
    /// the selected variations match a model, its price replaces `price` (the spec's V2 variants;
    /// a model may be a combination deal cheaper than the sum). Empty without variants, and empty
    /// for a V1 item, whose price is `price` plus the chosen variations' prices.
    pub pricing_models: Vec<PricingModel>,
    /// Optional or required extras (breads, dips, toppings).
    pub addon_groups: Vec<AddonGroup>,
}

/// The spec's food type. Serialised as `VEG`, `NONVEG`, `EGG`, as the storefront shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum VegType {
    Veg,
    NonVeg,
    Egg,
}

/// Serialised as `MEDIUMSPICY` (one chilli icon) and `VERYSPICY` (two).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum SpiceLevel {
    MediumSpicy,
    VerySpicy,
}

/// Badge on an item card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ribbon {
    Bestseller,
    #[serde(rename = "Must Try")]
    MustTry,
}

impl Ribbon {
    /// The badge's text, as the edge's `ribbon.text` shows it.
    pub fn text(self) -> &'static str {
        match self {
            Ribbon::Bestseller => "Bestseller",
            Ribbon::MustTry => "Must Try",
        }
    }
}

/// A choice the user must make, exactly one variation of it (e.g. Size: Half / Full).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantGroup {
    /// `<item id>-vg<n>`, unique in the catalogue.
    pub id: String,
    pub name: String,
    /// The first variation is the default and is always in stock.
    pub variations: Vec<Variation>,
}

/// One option of a variant group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variation {
    /// `<group id>-v<n>`, unique in the catalogue.
    pub id: String,
    pub name: String,
    /// Paise added to the item's price when chosen (0 for the default), the spec's variation
    /// `price`. A matching pricing model takes precedence over this sum.
    pub price: u32,
    pub default: bool,
    pub in_stock: bool,
    pub veg_type: VegType,
}

/// The price of one full combination of an item's variations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PricingModel {
    /// One entry per variant group, in group order.
    pub variations: Vec<VariationRef>,
    /// Paise; replaces the item's base price when this combination is selected.
    pub price: u32,
}

/// Names one variation of one group.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VariationRef {
    pub group_id: String,
    pub variation_id: String,
}

/// Extras the user may (or, with `min_addons > 0`, must) pick.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AddonGroup {
    /// `<item id>-ag<n>`, unique in the catalogue.
    pub id: String,
    pub name: String,
    /// Fewest choices the user must pick (0 = optional).
    pub min_addons: u8,
    /// Most choices the user may pick; never more than there are choices.
    pub max_addons: u8,
    /// How many of the picked choices are free; never more than `max_addons`.
    pub max_free_addons: u8,
    pub choices: Vec<AddonChoice>,
}

/// One extra in an add-on group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AddonChoice {
    /// `<group id>-c<n>`, unique in the catalogue.
    pub id: String,
    pub name: String,
    /// Paise, a multiple of 100 (0 for a free choice).
    pub price: u32,
    pub in_stock: bool,
    pub veg_type: VegType,
}

/// Counts for the binary's one-line report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub cities: usize,
    pub restaurants: usize,
    pub items: usize,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} cities, {} restaurants, {} items",
            self.cities, self.restaurants, self.items
        )
    }
}

/// Why a catalogue could not be generated, written or read.
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    #[error("unknown city {0:?}")]
    UnknownCity(String),
    #[error("restaurants per city must be at most {max}, got {got}")]
    TooManyRestaurants { got: usize, max: usize },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not a catalogue: {source}", path.display())]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("{}: catalogue format {found}, this build reads {expected}; regenerate it", path.display())]
    FormatVersion {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
}

impl Catalogue {
    /// The restaurant with this id.
    pub fn restaurant(&self, id: u64) -> Option<&Restaurant> {
        let i = self.restaurants.binary_search_by_key(&id, |r| r.id).ok()?;
        Some(&self.restaurants[i])
    }

    /// The menu of the restaurant with this id.
    pub fn menu(&self, restaurant_id: u64) -> Option<&Menu> {
        let i = self
            .menus
            .binary_search_by_key(&restaurant_id, |m| m.restaurant_id)
            .ok()?;
        Some(&self.menus[i])
    }

    pub fn summary(&self) -> Summary {
        Summary {
            cities: self.cities.len(),
            restaurants: self.restaurants.len(),
            items: self.menus.iter().map(|m| m.items.len()).sum(),
        }
    }

    /// Writes the catalogue as compact JSON, creating missing parent directories. The file is
    /// written to a temporary file in the same directory and renamed over `path`, so a reader
    /// never sees half a catalogue and a failed write leaves the old file in place.
    pub fn write_json(&self, path: impl AsRef<Path>) -> Result<(), CatalogueError> {
        let path = path.as_ref();
        let io = |source| CatalogueError::Io {
            path: path.to_owned(),
            source,
        };
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
        {
            let mut out = BufWriter::new(tmp.as_file_mut());
            serde_json::to_writer(&mut out, self).map_err(|source| CatalogueError::Json {
                path: path.to_owned(),
                source,
            })?;
            out.flush().map_err(io)?;
        }
        // A temporary file is private to its owner; the catalogue is read by other services.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))
                .map_err(io)?;
        }
        tmp.as_file().sync_all().map_err(io)?;
        tmp.persist(path).map_err(|e| io(e.error))?;
        Ok(())
    }

    /// Reads a catalogue written by [`Catalogue::write_json`], refusing one written in another
    /// [`FORMAT_VERSION`].
    pub fn read_json(path: impl AsRef<Path>) -> Result<Catalogue, CatalogueError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| CatalogueError::Io {
            path: path.to_owned(),
            source,
        })?;
        let json = |source| CatalogueError::Json {
            path: path.to_owned(),
            source,
        };

        // Check the version before the full parse, so a stale file gets the clear error rather
        // than whatever field happens to be missing first.
        #[derive(Deserialize)]
        struct Header {
            format_version: u32,
        }
        let header: Header = serde_json::from_slice(&bytes).map_err(json)?;
        if header.format_version != FORMAT_VERSION {
            return Err(CatalogueError::FormatVersion {
                path: path.to_owned(),
                found: header.format_version,
                expected: FORMAT_VERSION,
            });
        }
        serde_json::from_slice(&bytes).map_err(json)
    }
}
