//! Collections: named, stable sets of restaurants that the storefront links to (`/collections/:id`,
//! the "what's on your mind" carousel, the filter collections). A collection is a rule, not a list:
//! a cuisine, or one of the listing's filters, applied to whatever delivers to the visitor.
//!
//! Ids are published in URLs, so they never change: cuisine collections are `80001 +` the cuisine's
//! place in [`CUISINES`] (append only), themed ones are 83001…, and 83951 is the visitor's
//! favourites: per user, so not a rule. Asked for it, discovery answers `needs_favourites`; the
//! caller reads the ids from the account service and asks again with only those
//! (`RefineListingRequest.only_restaurants`), and discovery heads that listing with the
//! favourites' card.

use tiffin_catalog_format::picture::{Cuisine, restaurant_image_id};
use tiffin_proto::discovery::v1::CollectionCard;

/// Cuisines with a collection, in id order. Append only: an id is a published URL.
pub const CUISINES: [&str; 23] = [
    "North Indian",
    "Biryani",
    "South Indian",
    "Chinese",
    "Pizzas",
    "Burgers",
    "Cafe",
    "Rolls & Wraps",
    "Desserts",
    "Sweets",
    "Momos",
    "Street Food",
    "Mughlai",
    "Healthy Food",
    "Continental",
    "Andhra",
    "Chettinad",
    "Kerala",
    "Bengali",
    "Gujarati",
    "Maharashtrian",
    "Beverages",
    "Chaat",
];

/// First cuisine collection id.
pub const CUISINE_BASE_ID: u64 = 80001;
/// The favourites collection's id: the storefront's link to it is fixed (`/collections/83951`,
/// listed with `type=rcv2`). Its restaurants are per user, so the caller supplies them
/// (`RefineListingResponse.needs_favourites`); its id and heading are discovery's.
pub const FAVOURITES_ID: u64 = 83951;
const FAVOURITES_TITLE: &str = "Your favourites";
const FAVOURITES_DESCRIPTION: &str = "Restaurants you marked with a heart";

/// The favourites collection's heading card; `restaurants` is how many of them deliver here.
pub fn favourites_card(restaurants: u32) -> CollectionCard {
    CollectionCard {
        collection_id: FAVOURITES_ID,
        title: FAVOURITES_TITLE.to_string(),
        description: FAVOURITES_DESCRIPTION.to_string(),
        restaurants,
        image_id: format!("collection-{FAVOURITES_ID}"),
    }
}

/// A cuisine's URL word, the one rule every cuisine page, link and filter uses: lower-case ASCII
/// letters and digits, every other run of characters one `-` (apostrophes dropped), as the
/// catalogue cuts area and restaurant slugs; accents are dropped (`Café` → `cafe`).
/// `Rolls & Wraps` → `rolls-wraps`. Discovery publishes it (`CuisineCount.slug`) so no caller has
/// to cut it again; names and URL words compare through it.
pub fn cuisine_slug(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    let mut slug = String::with_capacity(name.len());
    for c in name.nfkd() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if c == '\'' || c == '\u{2019}' || is_combining_mark(c) {
            // "Haldiram's" reads better as "haldirams" than "haldiram-s"; an accent goes, its
            // letter stays.
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    slug
}

/// A themed collection: one of the listing's filters under a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    TopRated,
    PureVeg,
    Offers,
    FastDelivery,
    Budget,
}

/// Themed collections in display order, with their ids.
pub const THEMES: [(u64, Theme); 5] = [
    (83001, Theme::TopRated),
    (83002, Theme::PureVeg),
    (83003, Theme::Offers),
    (83004, Theme::FastDelivery),
    (83005, Theme::Budget),
];

/// A collection the service can list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    pub id: u64,
    pub title: String,
    pub description: String,
    /// The cuisine of a cuisine collection.
    pub cuisine: Option<&'static str>,
    pub theme: Option<Theme>,
}

impl Collection {
    /// The collection with this id, if any (favourites is not one of discovery's).
    pub fn find(id: u64) -> Option<Self> {
        let cuisine = id
            .checked_sub(CUISINE_BASE_ID)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| CUISINES.get(i));
        if let Some(cuisine) = cuisine {
            return Some(Self::cuisine(cuisine));
        }
        THEMES
            .iter()
            .find(|(tid, _)| *tid == id)
            .map(|(id, theme)| Self::theme(*id, *theme))
    }

    /// The collection of a cuisine named in [`CUISINES`], by name or URL word.
    pub fn for_cuisine(name: &str) -> Option<Self> {
        let wanted = cuisine_slug(name);
        CUISINES
            .iter()
            .find(|c| cuisine_slug(c) == wanted)
            .map(|c| Self::cuisine(c))
    }

    /// Every themed collection, in display order.
    pub fn themes() -> impl Iterator<Item = Self> {
        THEMES.iter().map(|(id, theme)| Self::theme(*id, *theme))
    }

    fn cuisine(cuisine: &'static str) -> Self {
        let index = CUISINES
            .iter()
            .position(|c| *c == cuisine)
            .unwrap_or_default();
        Self {
            id: CUISINE_BASE_ID + index as u64,
            title: cuisine.to_string(),
            description: format!("The best {cuisine} near you"),
            cuisine: Some(cuisine),
            theme: None,
        }
    }

    fn theme(id: u64, theme: Theme) -> Self {
        let (title, description) = match theme {
            Theme::TopRated => ("Ratings 4.0+", "Restaurants rated 4.0 and above"),
            Theme::PureVeg => ("Pure Veg", "Restaurants serving only vegetarian food"),
            Theme::Offers => ("Offers", "Restaurants with offers on your order"),
            Theme::FastDelivery => ("Fast Delivery", "Delivered in 30 minutes or less"),
            Theme::Budget => ("Less than ₹300", "Great food for two under ₹300"),
        };
        Self {
            id,
            title: title.into(),
            description: description.into(),
            cuisine: None,
            theme: Some(theme),
        }
    }

    /// The picture of its card (rendered by the edge's image route). A cuisine the pictures know
    /// is drawn as a restaurant of that cuisine (its tile looks like its food); themes, and a
    /// cuisine the pictures do not know, keep the generic collection picture.
    pub fn image_id(&self) -> String {
        let known = self
            .cuisine
            .and_then(|name| Cuisine::from_slug(&cuisine_slug(name)));
        match known {
            Some(cuisine) => restaurant_image_id(Some(cuisine), self.id),
            None => format!("collection-{}", self.id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiffin_catalog_format::picture::Picture;

    #[test]
    fn ids_are_stable_and_round_trip() {
        assert_eq!(Collection::for_cuisine("biryani").unwrap().id, 80002);
        assert_eq!(Collection::find(80002).unwrap().title, "Biryani");
        assert_eq!(Collection::find(83002).unwrap().theme, Some(Theme::PureVeg));
        for id in [
            0,
            80000,
            80001 + CUISINES.len() as u64,
            FAVOURITES_ID,
            u64::MAX,
        ] {
            assert!(Collection::find(id).is_none(), "{id}");
        }
    }

    #[test]
    fn a_cuisine_tile_shows_its_cuisine_and_a_theme_the_generic_picture() {
        let biryani = Collection::for_cuisine("Biryani").unwrap();
        assert_eq!(biryani.image_id(), "restaurant-biryani-80002");
        assert_eq!(
            Picture::of(&biryani.image_id()),
            Picture::Restaurant(Some(Cuisine::Biryani))
        );
        assert_eq!(
            Picture::of(&Collection::for_cuisine("Rolls & Wraps").unwrap().image_id()),
            Picture::Restaurant(Some(Cuisine::RollsWraps))
        );
        for cuisine in CUISINES {
            let id = Collection::for_cuisine(cuisine).unwrap().image_id();
            assert!(
                matches!(Picture::of(&id), Picture::Restaurant(Some(_))),
                "{cuisine}: {id}"
            );
        }
        let veg = Collection::find(83002).unwrap();
        assert_eq!(veg.image_id(), "collection-83002");
    }

    #[test]
    fn a_cuisine_has_one_url_word_and_is_found_by_it_or_by_name() {
        assert_eq!(cuisine_slug("Rolls & Wraps"), "rolls-wraps");
        assert_eq!(cuisine_slug("  North Indian "), "north-indian");
        assert_eq!(cuisine_slug("Haldiram's Specials"), "haldirams-specials");
        assert_eq!(cuisine_slug("&"), "");
        assert_eq!(cuisine_slug("Café & Crêpes"), "cafe-crepes");
        let rolls = Collection::for_cuisine("rolls-wraps").unwrap();
        assert_eq!((rolls.id, rolls.title.as_str()), (80008, "Rolls & Wraps"));
        assert_eq!(Collection::for_cuisine("Rolls & Wraps").unwrap().id, 80008);
        assert_eq!(Collection::for_cuisine("ROLLS  WRAPS").unwrap().id, 80008);
        assert!(Collection::for_cuisine("rolls").is_none());
    }
}
