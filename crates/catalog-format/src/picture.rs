//! What a catalogue picture shows, carried in its image id.
//!
//! The catalogue has no photographs: the edge draws every picture from its id alone. For it to
//! draw a biryani when the dish is a biryani, the id names the kind of dish, or the restaurant's
//! main cuisine: `dish-biryani-10420012`, `restaurant-south-indian-1000045`. The generator picks
//! the kind (it knows the dish's name and category and the restaurant's cuisines); the edge only
//! parses the id, so it never needs the catalogue. This module is the one vocabulary both use:
//! the kind slugs and the id grammar.
//!
//! Ids stay `[a-z0-9-]{1,64}`, which the image route accepts. Catalogues from before this module
//! issued `item-<id>` and `restaurant-<id>`; databases seeded from them keep those ids, so they
//! still parse, as a generic dish and a restaurant of no known cuisine. A kind this build does
//! not know (an id from a newer catalogue) parses the same way rather than failing.
//!
//! What this module must never do: allocate to parse (the edge parses on every image request),
//! or rename a slug (ids holding it are cached by browsers for a year).

/// Declares a closed list of slugs as an enum, with `ALL`, `slug` and `from_slug`.
macro_rules! vocabulary {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $slug:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The word the image id carries.
            pub fn slug(self) -> &'static str {
                match self {
                    $($name::$variant => $slug,)*
                }
            }

            pub fn from_slug(slug: &str) -> Option<$name> {
                match slug {
                    $($slug => Some($name::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

vocabulary! {
    /// What a dish's picture shows. Several dishes share a kind ("Chicken 65" and "Chilli Paneer"
    /// are both `starter`); the picture varies within a kind by the id.
    DishKind {
        /// A plated dish of no particular kind: old ids, and dishes no rule names.
        Plate = "plate",
        Biryani = "biryani",
        Dosa = "dosa",
        Idli = "idli",
        Thali = "thali",
        Curry = "curry",
        Dal = "dal",
        Rice = "rice",
        Noodles = "noodles",
        Momos = "momos",
        Pizza = "pizza",
        Burger = "burger",
        Fries = "fries",
        Roll = "roll",
        Sandwich = "sandwich",
        /// Pieces on skewers: tikka, seekh, boti.
        Kebab = "kebab",
        /// Fried or tossed pieces on a plate: chicken 65, chilli paneer, wings.
        Starter = "starter",
        Fish = "fish",
        Eggs = "eggs",
        Soup = "soup",
        Salad = "salad",
        Pasta = "pasta",
        /// Puris with their fillings: pani puri, sev puri, papdi chaat.
        Chaat = "chaat",
        PavBhaji = "pav-bhaji",
        /// Samosas and their kin: kachori, pakora, dhokla, namkeen.
        Samosa = "samosa",
        /// Flatbreads: naan, roti, paratha, luchi.
        Bread = "bread",
        GulabJamun = "gulab-jamun",
        Rasgulla = "rasgulla",
        Kheer = "kheer",
        Halwa = "halwa",
        IceCream = "ice-cream",
        Cake = "cake",
        /// Ladoos, barfi, katli, jalebi.
        Mithai = "mithai",
        Lassi = "lassi",
        Shake = "shake",
        Juice = "juice",
        Chai = "chai",
        Coffee = "coffee",
    }
}

vocabulary! {
    /// A restaurant's main cuisine, as its picture shows it. The slugs are the cuisine names the
    /// storefront lists, slugified ("Rolls & Wraps" is `rolls-wraps`).
    Cuisine {
        NorthIndian = "north-indian",
        Biryani = "biryani",
        SouthIndian = "south-indian",
        Chinese = "chinese",
        Pizzas = "pizzas",
        Burgers = "burgers",
        Cafe = "cafe",
        RollsWraps = "rolls-wraps",
        Desserts = "desserts",
        Sweets = "sweets",
        Momos = "momos",
        StreetFood = "street-food",
        Mughlai = "mughlai",
        HealthyFood = "healthy-food",
        Continental = "continental",
        Andhra = "andhra",
        Chettinad = "chettinad",
        Kerala = "kerala",
        Bengali = "bengali",
        Gujarati = "gujarati",
        Maharashtrian = "maharashtrian",
        Chaat = "chaat",
        Beverages = "beverages",
    }
}

/// What an image id shows, as the edge reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picture {
    Dish(DishKind),
    /// A restaurant, by its main cuisine when the id names one. Discovery's cuisine tiles
    /// (`cuisine-<slug>`) show the same picture as a restaurant of that cuisine.
    Restaurant(Option<Cuisine>),
    /// Any other id (collections, banners): a generic picture.
    Other,
}

/// The image id of a dish of this kind.
pub fn dish_image_id(kind: DishKind, item_id: u64) -> String {
    format!("dish-{}-{item_id}", kind.slug())
}

/// The image id of a restaurant; without a cuisine this build can draw, the old generic form.
pub fn restaurant_image_id(cuisine: Option<Cuisine>, restaurant_id: u64) -> String {
    match cuisine {
        Some(c) => format!("restaurant-{}-{restaurant_id}", c.slug()),
        None => format!("restaurant-{restaurant_id}"),
    }
}

impl Picture {
    /// Reads an image id. Never fails: an id it does not know is [`Picture::Other`].
    pub fn of(image_id: &str) -> Picture {
        let Some((prefix, rest)) = image_id.split_once('-') else {
            return Picture::Other;
        };
        // "<slug>-<number>" → the slug; a bare number (the old ids) → None.
        let kind_slug = || {
            rest.rsplit_once('-')
                .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .map(|(slug, _)| slug)
        };
        match prefix {
            "dish" | "item" => Picture::Dish(
                kind_slug()
                    .and_then(DishKind::from_slug)
                    .unwrap_or(DishKind::Plate),
            ),
            "restaurant" => Picture::Restaurant(kind_slug().and_then(Cuisine::from_slug)),
            "cuisine" => {
                Cuisine::from_slug(rest).map_or(Picture::Other, |c| Picture::Restaurant(Some(c)))
            }
            _ => Picture::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slug_round_trips_and_fits_an_image_id() {
        for &kind in DishKind::ALL {
            assert_eq!(DishKind::from_slug(kind.slug()), Some(kind));
            let id = dish_image_id(kind, 99_999_999_999);
            assert!(id.len() <= 64, "{id}");
            assert_eq!(Picture::of(&id), Picture::Dish(kind));
        }
        for &cuisine in Cuisine::ALL {
            assert_eq!(Cuisine::from_slug(cuisine.slug()), Some(cuisine));
            let id = restaurant_image_id(Some(cuisine), 999_999_999);
            assert!(id.len() <= 64, "{id}");
            assert_eq!(Picture::of(&id), Picture::Restaurant(Some(cuisine)));
            assert_eq!(
                Picture::of(&format!("cuisine-{}", cuisine.slug())),
                Picture::Restaurant(Some(cuisine))
            );
        }
        for slug in DishKind::ALL
            .iter()
            .map(|k| k.slug())
            .chain(Cuisine::ALL.iter().map(|c| c.slug()))
        {
            assert!(
                slug.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{slug}"
            );
        }
    }

    #[test]
    fn old_and_unknown_ids_still_name_something_drawable() {
        assert_eq!(Picture::of("item-88001"), Picture::Dish(DishKind::Plate));
        assert_eq!(Picture::of("restaurant-1042"), Picture::Restaurant(None));
        assert_eq!(restaurant_image_id(None, 1042), "restaurant-1042");
        assert_eq!(
            Picture::of("dish-hotdog-12"),
            Picture::Dish(DishKind::Plate)
        );
        assert_eq!(
            Picture::of("restaurant-lebanese-12"),
            Picture::Restaurant(None)
        );
        assert_eq!(Picture::of("dish-biryani-"), Picture::Dish(DishKind::Plate));
        for other in [
            "collection-83951",
            "banner-1",
            "rider",
            "",
            "cuisine-lebanese",
        ] {
            assert_eq!(Picture::of(other), Picture::Other, "{other}");
        }
    }
}
