//! The storefront's listing as a visitor refines it (`RefineListing`): sort, filters, collections,
//! and what the page shows around the restaurants (the cuisine carousel, offer banners, filter
//! collections, a nudge). Issue 3.
//!
//! Which restaurants deliver comes from [`DeliveryAreas`]; what a filter needs that ordering does
//! not (cost, veg, offer, cuisines) is held here in memory ([`ListingIndex`]), built once at start
//! like the delivery index; the cards of the page come from [`restaurants::Cards`], so a refined
//! page reads no table.
//! It never decides relevance ([`restaurants::relevance`]) or the estimate ([`sla`]).

pub mod cells;
pub mod city;

use std::collections::HashMap;

use sqlx::{AnyPool, Row};
use tiffin_platform::status::with_code;
use tiffin_proto::discovery::v1::{
    CollectionCard, CostRange, CuisineCount, ListRestaurantsResponse, ListingFilters, Nudge,
    OfferBanner, RefineListingRequest, RefineListingResponse, RestaurantCard, Serviceability,
    SortBy,
};
use tonic::{Code, Status};

use crate::collections::{Collection, Theme, cuisine_slug};
use crate::delivery_areas::{Delivering, DeliveryAreas};
use crate::error::Error;
use crate::geo::Point;
use crate::listing::cells::Gathered;
use crate::{restaurants, sla};

/// Rated at least this (tenths of a star) for "Ratings 4.0+".
pub const RATING_4_PLUS_TENTHS: u32 = 40;
/// "Fast Delivery": the estimate's lower bound is at most this.
pub const FAST_DELIVERY_MINUTES: u32 = 30;
/// Cost bands' edges in paise (₹300, ₹600).
pub const COST_300: i64 = 30_000;
pub const COST_600: i64 = 60_000;
/// Most cuisines one filter may name, and longest name.
pub const MAX_CUISINE_FILTERS: usize = 20;
const MAX_CUISINE_LEN: usize = 64;
/// Cards in the cuisine carousel and banners at most.
pub const TOP_CAROUSEL_SIZE: usize = 12;
pub const BANNERS_SIZE: usize = 5;

/// What a filter needs to know about one restaurant.
#[derive(Debug, Clone, PartialEq)]
pub struct Facts {
    pub cost_for_two_paise: i64,
    pub veg_only: bool,
    /// The headline offer, if any.
    pub offer: Option<String>,
    /// Cuisines as stored (main first).
    pub cuisines: Vec<String>,
    /// The same as URL words ([`cuisine_slug`]), for comparing.
    cuisine_slugs: Vec<String>,
    /// The same as positions in the [`ListingIndex`]'s cuisine names (set when indexed), so the
    /// listing counts cuisines near a point by number, not by hashing each restaurant's strings.
    cuisine_ids: Vec<u32>,
    /// The offer as a position in the [`ListingIndex`]'s offer texts (set when indexed).
    offer_id: Option<u32>,
}

impl Facts {
    pub fn new(
        cost_for_two_paise: i64,
        veg_only: bool,
        offer: Option<String>,
        cuisines: Vec<String>,
    ) -> Self {
        let cuisine_slugs = cuisines.iter().map(|c| cuisine_slug(c)).collect();
        Self {
            cost_for_two_paise,
            veg_only,
            offer: offer.filter(|o| !o.trim().is_empty()),
            cuisines,
            cuisine_slugs,
            cuisine_ids: Vec::new(),
            offer_id: None,
        }
    }
}

/// Every restaurant's [`Facts`], laid out like the delivery index.
#[derive(Debug, Default)]
pub struct ListingIndex {
    /// By [`Delivering::position`] (the delivery index's order), read for every restaurant near
    /// the point on every listing: those around one point lie together, with no hashing. `None`
    /// for a restaurant without facts.
    facts: Vec<Option<Facts>>,
    /// Where each restaurant's facts are, for pages that start from ids (city pages). Our own
    /// ids: a fast hash.
    positions: rustc_hash::FxHashMap<u64, usize>,
    /// Every distinct cuisine (as stored), at the position [`Facts`]' `cuisine_ids` name.
    cuisine_names: Vec<String>,
    /// The plain listing's counts and leaders per area cell ([`ListingIndex::with_cells`]).
    cells: Option<cells::Cells>,
    /// Every distinct offer text, at the position [`Facts`]' `offer_id` names.
    offer_texts: Vec<String>,
}

/// Gives each distinct text a number, in first-seen order.
#[derive(Default)]
struct Interner {
    texts: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Interner {
    fn id(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        self.texts.push(text.to_string());
        let id = (self.texts.len() - 1) as u32;
        self.ids.insert(text.to_string(), id);
        id
    }
}

impl ListingIndex {
    /// Lays `facts` out in `order`, the delivery index's ids by position ([`DeliveryAreas::ids`]).
    /// Facts of a restaurant missing from `order` (none, while both come from one table) are kept
    /// after them, still found by id.
    pub fn new(mut facts: HashMap<u64, Facts>, order: impl IntoIterator<Item = u64>) -> Self {
        let mut ids: Vec<u64> = order.into_iter().collect();
        let mut laid_out: Vec<Option<Facts>> = ids.iter().map(|id| facts.remove(id)).collect();
        for (id, f) in facts {
            ids.push(id);
            laid_out.push(Some(f));
        }
        let (mut cuisines, mut offers) = (Interner::default(), Interner::default());
        for f in laid_out.iter_mut().flatten() {
            f.cuisine_ids = f.cuisines.iter().map(|c| cuisines.id(c)).collect();
            f.offer_id = f.offer.as_deref().map(|o| offers.id(o));
        }
        Self {
            facts: laid_out,
            positions: ids.into_iter().enumerate().map(|(n, id)| (id, n)).collect(),
            cells: None,
            cuisine_names: cuisines.texts,
            offer_texts: offers.texts,
        }
    }

    /// Keeps up to `megabytes` MiB of the plain listing's cells ([`cells`]; 0: none, every
    /// listing ranks everyone delivering).
    pub fn with_cells(mut self, megabytes: u64) -> Self {
        self.cells = cells::Cells::new(megabytes);
        self
    }

    /// The facts of the restaurant at `position` in the delivery index.
    pub fn at(&self, position: usize) -> Option<&Facts> {
        self.facts.get(position)?.as_ref()
    }

    /// The facts of restaurant `id`.
    pub fn get(&self, id: u64) -> Option<&Facts> {
        self.at(*self.positions.get(&id)?)
    }

    /// Reads every restaurant's facts (two queries), at start, laid out in `order` (see
    /// [`ListingIndex::new`]).
    pub async fn load(pool: &AnyPool, order: impl IntoIterator<Item = u64>) -> Result<Self, Error> {
        let mut cuisines: HashMap<u64, Vec<String>> = HashMap::new();
        for r in sqlx::query("SELECT restaurant_id, cuisine FROM restaurant_cuisines ORDER BY restaurant_id, position")
            .fetch_all(pool)
            .await?
        {
            let id: i64 = r.try_get("restaurant_id")?;
            cuisines.entry(id as u64).or_default().push(r.try_get("cuisine")?);
        }
        let mut facts = HashMap::new();
        for r in sqlx::query("SELECT id, cost_for_two, veg_only, offer FROM restaurants")
            .fetch_all(pool)
            .await?
        {
            let id = u64::try_from(r.try_get::<i64, _>("id")?)
                .map_err(|_| Error::Corrupt("restaurants.id is negative".into()))?;
            facts.insert(
                id,
                Facts::new(
                    r.try_get("cost_for_two")?,
                    r.try_get::<i64, _>("veg_only")? != 0,
                    r.try_get("offer")?,
                    cuisines.remove(&id).unwrap_or_default(),
                ),
            );
        }
        Ok(Self::new(facts, order))
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// A band of cost for two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CostBand {
    Under300,
    From300To600,
    Over600,
}

impl CostBand {
    fn contains(self, paise: i64) -> bool {
        match self {
            CostBand::Under300 => paise < COST_300,
            CostBand::From300To600 => (COST_300..=COST_600).contains(&paise),
            CostBand::Over600 => paise > COST_600,
        }
    }
}

/// The filters of one listing; each one set must match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    pub rating_4_plus: bool,
    pub pure_veg: bool,
    pub fast_delivery: bool,
    /// Any of these (none: any cost).
    pub cost_bands: Vec<CostBand>,
    /// URL words ([`cuisine_slug`]); any of these (none: any cuisine).
    pub cuisines: Vec<String>,
    pub offers: bool,
}

impl Filters {
    /// Parses a caller's filters.
    pub fn from_proto(f: &ListingFilters) -> Result<Self, ListingError> {
        if f.cuisines.len() > MAX_CUISINE_FILTERS
            || f.cuisines.iter().any(|c| c.len() > MAX_CUISINE_LEN)
        {
            return Err(ListingError::InvalidRefinement);
        }
        let mut cost_bands = Vec::new();
        for band in &f.cost_ranges {
            let band = match CostRange::try_from(*band) {
                Ok(CostRange::Under300) => CostBand::Under300,
                Ok(CostRange::CostRange300To600) => CostBand::From300To600,
                Ok(CostRange::Over600) => CostBand::Over600,
                _ => return Err(ListingError::InvalidRefinement),
            };
            if !cost_bands.contains(&band) {
                cost_bands.push(band);
            }
        }
        Ok(Self {
            rating_4_plus: f.rating_4_plus,
            pure_veg: f.pure_veg,
            fast_delivery: f.fast_delivery,
            cost_bands,
            cuisines: f
                .cuisines
                .iter()
                .map(|c| cuisine_slug(c))
                .filter(|c| !c.is_empty())
                .collect(),
            offers: f.offers,
        })
    }

    /// The filters that select a collection's restaurants.
    pub fn of(collection: &Collection) -> Self {
        let mut f = Filters::default();
        if let Some(cuisine) = collection.cuisine {
            f.cuisines.push(cuisine_slug(cuisine));
        }
        match collection.theme {
            Some(Theme::TopRated) => f.rating_4_plus = true,
            Some(Theme::PureVeg) => f.pure_veg = true,
            Some(Theme::Offers) => f.offers = true,
            Some(Theme::FastDelivery) => f.fast_delivery = true,
            Some(Theme::Budget) => f.cost_bands.push(CostBand::Under300),
            None => {}
        }
        f
    }

    /// Both sets of filters at once (a collection's rule inside the visitor's filters). Two cost
    /// or cuisine lists must both match.
    fn and(&self, other: &Filters) -> Vec<Filters> {
        vec![self.clone(), other.clone()]
    }

    /// Whether a restaurant passes every filter set.
    pub fn matches(&self, c: &Candidate<'_>) -> bool {
        let l = c.delivering.listing;
        (!self.rating_4_plus || l.rating_tenths.is_some_and(|t| t >= RATING_4_PLUS_TENTHS))
            && (!self.pure_veg || c.facts.veg_only)
            && (!self.fast_delivery || c.min_minutes <= FAST_DELIVERY_MINUTES)
            && (self.cost_bands.is_empty()
                || self
                    .cost_bands
                    .iter()
                    .any(|b| b.contains(c.facts.cost_for_two_paise)))
            && (self.cuisines.is_empty()
                || self
                    .cuisines
                    .iter()
                    .any(|w| c.facts.cuisine_slugs.contains(w)))
            && (!self.offers || c.facts.offer.is_some())
    }
}

/// How a listing is ordered (open restaurants first in every order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sort {
    #[default]
    Relevance,
    DeliveryTime,
    Rating,
    CostLowToHigh,
    CostHighToLow,
}

impl Sort {
    pub fn from_proto(value: i32) -> Result<Self, ListingError> {
        Ok(
            match SortBy::try_from(value).map_err(|_| ListingError::InvalidRefinement)? {
                SortBy::Unspecified | SortBy::Relevance => Sort::Relevance,
                SortBy::DeliveryTime => Sort::DeliveryTime,
                SortBy::Rating => Sort::Rating,
                SortBy::CostLowToHigh => Sort::CostLowToHigh,
                SortBy::CostHighToLow => Sort::CostHighToLow,
            },
        )
    }
}

/// A restaurant delivering to the point, with what sorting and filtering read.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    pub delivering: Delivering<'a>,
    pub facts: &'a Facts,
    /// The estimate's lower bound from here.
    pub min_minutes: u32,
    pub relevance: f64,
}

impl<'a> Candidate<'a> {
    pub fn new(delivering: Delivering<'a>, facts: &'a Facts) -> Self {
        let l = delivering.listing;
        Self {
            delivering,
            facts,
            min_minutes: sla::delivery_minutes(l.prep_time_minutes, delivering.distance_km).0,
            relevance: restaurants::relevance(&delivering),
        }
    }
}

/// Puts candidates in `sort` order: open first; then the sort's key; ties by relevance, then the
/// nearer, then the lower id, so pages never overlap or skip.
pub fn sort(candidates: &mut [Candidate<'_>], sort: Sort) {
    candidates.sort_by(|a, b| compare(sort, a, b));
}

/// Puts the first `n` candidates of [`sort`]'s order first, in that order, and leaves the rest
/// after them in no particular order: a page needs only what comes up to its end, and near a busy
/// point thousands of restaurants deliver (linear time, instead of sorting them all).
pub fn sort_first(candidates: &mut [Candidate<'_>], sort_by: Sort, n: usize) {
    if n == 0 {
        return;
    }
    if n < candidates.len() {
        candidates.select_nth_unstable_by(n - 1, |a, b| compare(sort_by, a, b));
    }
    let end = n.min(candidates.len());
    sort(&mut candidates[..end], sort_by);
}

/// [`sort`]'s order: a total order (ids are unique), so pages never overlap or skip.
fn compare(sort: Sort, a: &Candidate<'_>, b: &Candidate<'_>) -> std::cmp::Ordering {
    {
        let (la, lb) = (a.delivering.listing, b.delivering.listing);
        let key = match sort {
            Sort::Relevance => std::cmp::Ordering::Equal,
            Sort::DeliveryTime => a.min_minutes.cmp(&b.min_minutes),
            // Unrated last: `None` < `Some`, so compare b to a.
            Sort::Rating => lb.rating_tenths.cmp(&la.rating_tenths),
            Sort::CostLowToHigh => a.facts.cost_for_two_paise.cmp(&b.facts.cost_for_two_paise),
            Sort::CostHighToLow => b.facts.cost_for_two_paise.cmp(&a.facts.cost_for_two_paise),
        };
        lb.opened
            .cmp(&la.opened)
            .then(key)
            .then(b.relevance.total_cmp(&a.relevance))
            .then(
                a.delivering
                    .distance_km
                    .total_cmp(&b.delivering.distance_km),
            )
            .then(la.id.cmp(&lb.id))
    }
}

/// Why a refined listing was refused.
#[derive(Debug, thiserror::Error)]
pub enum ListingError {
    #[error(transparent)]
    Discovery(#[from] Error),
    /// An unknown sort or cost range, or too many / too long cuisine names.
    #[error("invalid sort or filter")]
    InvalidRefinement,
    /// No collection has this id.
    #[error("collection not found")]
    CollectionNotFound,
    /// The collection has no restaurant delivering to the point (spec 000 §5: rejected).
    #[error("empty collection")]
    EmptyCollection,
    /// A city page's city (unknown, disabled or a QA slug) or area does not exist.
    #[error("place not found")]
    PlaceNotFound,
}

impl From<ListingError> for Status {
    fn from(e: ListingError) -> Self {
        match e {
            ListingError::Discovery(e) => e.into(),
            ListingError::InvalidRefinement => {
                with_code(Code::InvalidArgument, 1, "Invalid request.")
            }
            ListingError::CollectionNotFound => {
                with_code(Code::NotFound, 404, "Collection not found")
            }
            ListingError::EmptyCollection => with_code(Code::NotFound, 404, "There's nothing here"),
            ListingError::PlaceNotFound => with_code(Code::NotFound, 404, "Location not found"),
        }
    }
}

/// `RefineListing`: one page of the refined listing at `location`, and what surrounds it.
pub fn refine(
    cards: &restaurants::Cards,
    areas: &DeliveryAreas,
    index: &ListingIndex,
    location: Point,
    request: &RefineListingRequest,
) -> Result<RefineListingResponse, ListingError> {
    let sort_by = Sort::from_proto(request.sort)?;
    let filters = Filters::from_proto(&request.filters.clone().unwrap_or_default())?;
    let collection = match request.collection_id {
        0 => None,
        id => Some(Collection::find(id).ok_or(ListingError::CollectionNotFound)?),
    };

    let limit = match request.limit as usize {
        0 => restaurants::DEFAULT_PAGE_SIZE,
        n => n.min(restaurants::MAX_PAGE_SIZE),
    };
    let page_end = (request.offset as usize).saturating_add(limit);
    // A per-user set (the favourites collection) narrows the page, never the counts around it.
    let only = request.only_restaurants.as_ref().map(|o| o.ids.as_slice());
    if only.is_some_and(|ids| ids.len() > restaurants::MAX_BATCH) {
        return Err(ListingError::InvalidRefinement);
    }
    let themes = theme_filters();

    // The plain listing (no filter, collection or set, by relevance) from the point's cell when
    // the cell settles the page; any other listing from every restaurant delivering there.
    let plain = sort_by == Sort::Relevance
        && filters == Filters::default()
        && collection.is_none()
        && only.is_none();
    let gathered = plain
        .then(|| {
            index
                .cells
                .as_ref()?
                .gather(areas, index, &themes, location, page_end)
        })
        .flatten();
    let (
        Gathered {
            chosen,
            total,
            counts,
        },
        collection_card_json,
    ) = match gathered {
        Some(g) => (g, None),
        None => everyone(
            (areas, index, &themes),
            location,
            (&filters, collection.as_ref(), only),
            sort_by,
            page_end,
        )?,
    };

    let start = (request.offset as usize).min(total);
    let end = page_end.min(total);
    let mut page = ListRestaurantsResponse {
        total_restaurants: count_u32(total),
        next_offset: (end < total).then(|| count_u32(end)),
        serviceability: if counts.total == 0 {
            Serviceability::NonServiceable
        } else {
            Serviceability::Serviceable
        }
        .into(),
        ..Default::default()
    };
    for c in &chosen[start..end] {
        let l = c.delivering.listing;
        let Some(restaurant) = cards.restaurant(l.id).cloned() else {
            tracing::warn!(id = l.id, "indexed restaurant missing from the table");
            continue;
        };
        let card = RestaurantCard {
            sla: Some(sla::sla_at_distance(
                c.delivering.distance_km,
                l.delivery_radius_m,
                l.prep_time_minutes,
            )),
            restaurant: Some(restaurant),
        };
        if l.opened {
            page.open.push(card)
        } else {
            page.closed.push(card)
        }
    }

    let cuisines = cuisine_counts(&index.cuisine_names, &counts.cuisines);
    Ok(RefineListingResponse {
        page: Some(page),
        unfiltered_total: counts.total,
        top_carousel: top_carousel(&cuisines),
        banners: banners(&index.offer_texts, &counts.open_offers),
        filter_collections: theme_cards(themes, &counts.themes),
        cuisines,
        nudge: nudge(counts.open_fast, sort_by, &filters, collection.as_ref()),
        collection: collection_card_json,
    })
}

/// Any listing from every restaurant delivering to `location`: those passing `filters`, the
/// collection's rule and the `only` set, in `sort_by` order up to `page_end`, the counts around
/// the page, and the collection's card.
fn everyone<'a>(
    (areas, index, themes): (
        &'a DeliveryAreas,
        &'a ListingIndex,
        &[(Collection, Filters)],
    ),
    location: Point,
    (filters, collection, only): (&Filters, Option<&Collection>, Option<&[u64]>),
    sort_by: Sort,
    page_end: usize,
) -> Result<(Gathered<'a>, Option<CollectionCard>), ListingError> {
    let all: Vec<Candidate<'_>> = areas
        .delivering_to(location)
        .into_iter()
        // A restaurant in the delivery index always has facts (same table, same start); skip
        // rather than fail if an operator's hand edit broke that.
        .filter_map(|d| Some(Candidate::new(d, index.at(d.position)?)))
        .collect();
    let mut counts = Counts::new(index, themes.len());
    for c in &all {
        counts.add(c, themes);
    }
    let collection_card = collection.map(|c| {
        let rule = Filters::of(c);
        CollectionCard {
            collection_id: c.id,
            title: c.title.clone(),
            description: c.description.clone(),
            restaurants: count_u32(all.iter().filter(|a| rule.matches(a)).count()),
            image_id: c.image_id(),
        }
    });
    if collection_card
        .as_ref()
        .is_some_and(|card| counts.total > 0 && card.restaurants == 0)
    {
        return Err(ListingError::EmptyCollection);
    }
    let rules = match collection {
        Some(c) => filters.and(&Filters::of(c)),
        None => vec![filters.clone()],
    };
    let mut chosen: Vec<Candidate<'_>> = all
        .into_iter()
        .filter(|c| {
            only.is_none_or(|ids| ids.contains(&c.delivering.listing.id))
                && rules.iter().all(|f| f.matches(c))
        })
        .collect();
    sort_first(&mut chosen, sort_by, page_end);
    let total = chosen.len();
    Ok((
        Gathered {
            chosen,
            total,
            counts,
        },
        collection_card,
    ))
}

fn count_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The themed collections in display order, each with the filters that select it.
fn theme_filters() -> Vec<(Collection, Filters)> {
    Collection::themes()
        .map(|c| {
            let f = Filters::of(&c);
            (c, f)
        })
        .collect()
}

/// What the page shows around the restaurants, counted over every restaurant delivering to the
/// point (filters and collections narrow the page, never these). Counts add up, so those of a
/// cell's settled restaurants ([`cells`]) are kept and the rest added per listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Counts {
    /// Restaurants delivering.
    pub total: u32,
    /// By [`theme_filters`]' order.
    themes: Vec<u32>,
    /// By the [`ListingIndex`]'s cuisine positions.
    cuisines: Vec<u32>,
    /// Open restaurants with each offer, by the [`ListingIndex`]'s offer positions.
    open_offers: Vec<u32>,
    /// Open restaurants delivering fast (the nudge).
    open_fast: u32,
}

impl Counts {
    pub fn new(index: &ListingIndex, themes: usize) -> Self {
        Self {
            total: 0,
            themes: vec![0; themes],
            cuisines: vec![0; index.cuisine_names.len()],
            open_offers: vec![0; index.offer_texts.len()],
            open_fast: 0,
        }
    }

    /// Counts one restaurant. One pass over the candidates for every theme: near a busy point
    /// there are thousands, and each restaurant's facts are then read once rather than once per
    /// theme.
    pub fn add(&mut self, c: &Candidate<'_>, themes: &[(Collection, Filters)]) {
        self.total += 1;
        for (n, (_, f)) in self.themes.iter_mut().zip(themes) {
            *n += u32::from(f.matches(c));
        }
        for &id in &c.facts.cuisine_ids {
            if let Some(n) = self.cuisines.get_mut(id as usize) {
                *n += 1;
            }
        }
        if c.delivering.listing.opened {
            if let Some(n) = c
                .facts
                .offer_id
                .and_then(|id| self.open_offers.get_mut(id as usize))
            {
                *n += 1;
            }
            self.open_fast += u32::from(c.min_minutes <= FAST_DELIVERY_MINUTES);
        }
    }

    /// Adds another set of counts (of other restaurants) to these.
    pub fn merge(&mut self, other: &Counts) {
        self.total += other.total;
        self.open_fast += other.open_fast;
        for (mine, theirs) in [
            (&mut self.themes, &other.themes),
            (&mut self.cuisines, &other.cuisines),
            (&mut self.open_offers, &other.open_offers),
        ] {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }
}

/// The themed collections with a restaurant near the point, with how many, in display order.
fn theme_cards(themes: Vec<(Collection, Filters)>, counts: &[u32]) -> Vec<CollectionCard> {
    themes
        .into_iter()
        .zip(counts.iter().copied())
        .filter(|(_, n)| *n > 0)
        .map(|((c, _), restaurants)| CollectionCard {
            collection_id: c.id,
            image_id: c.image_id(),
            title: c.title,
            description: c.description,
            restaurants,
        })
        .collect()
}

/// Cuisines near the point with how many restaurants serve each, most first, then by name.
/// `counts` are by position in `names`, the index's cuisine names.
fn cuisine_counts(names: &[String], counts: &[u32]) -> Vec<CuisineCount> {
    let mut counts: Vec<(&str, u32)> = names
        .iter()
        .map(String::as_str)
        .zip(counts.iter().copied())
        .filter(|(_, n)| *n > 0)
        .collect();
    counts.sort_by(|(na, a), (nb, b)| b.cmp(a).then(na.cmp(nb)));
    counts
        .into_iter()
        .map(|(cuisine, restaurants)| CuisineCount {
            slug: cuisine_slug(cuisine),
            cuisine: cuisine.into(),
            restaurants,
        })
        .collect()
}

/// "What's on your mind": the cuisine collections with the most restaurants near the point.
fn top_carousel(cuisines: &[CuisineCount]) -> Vec<CollectionCard> {
    cuisines
        .iter()
        .filter_map(|cc| {
            let c = Collection::for_cuisine(&cc.cuisine)?;
            Some(CollectionCard {
                collection_id: c.id,
                image_id: c.image_id(),
                title: c.title,
                description: c.description,
                restaurants: cc.restaurants,
            })
        })
        .take(TOP_CAROUSEL_SIZE)
        .collect()
}

/// The offer headlines near the point, most common first (then by text).
/// `counts` (open restaurants) are by position in `texts`, the index's offer texts.
fn banners(texts: &[String], counts: &[u32]) -> Vec<OfferBanner> {
    let mut counts: Vec<(&str, u32)> = texts
        .iter()
        .map(String::as_str)
        .zip(counts.iter().copied())
        .filter(|(_, n)| *n > 0)
        .collect();
    counts.sort_by(|(ta, a), (tb, b)| b.cmp(a).then(ta.cmp(tb)));
    counts
        .into_iter()
        .take(BANNERS_SIZE)
        .map(|(offer, restaurants)| OfferBanner {
            offer_text: offer.into(),
            restaurants,
        })
        .collect()
}

/// Points a visitor who is not already sorting or filtering by speed at the fast-delivery
/// collection, when some open restaurant near them qualifies (`fast` of them).
fn nudge(
    fast: u32,
    sort: Sort,
    filters: &Filters,
    collection: Option<&Collection>,
) -> Option<Nudge> {
    if sort == Sort::DeliveryTime
        || filters.fast_delivery
        || collection.is_some_and(|c| c.theme == Some(Theme::FastDelivery))
    {
        return None;
    }
    let id = crate::collections::THEMES
        .iter()
        .find(|(_, t)| *t == Theme::FastDelivery)?
        .0;
    (fast > 0).then(|| Nudge {
        title: "Hungry in a hurry?".into(),
        text: format!(
            "{fast} {} deliver in {FAST_DELIVERY_MINUTES} minutes or less",
            if fast == 1 {
                "restaurant can"
            } else {
                "restaurants can"
            }
        ),
        collection_id: id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delivery_areas::Listing;

    #[test]
    fn a_collection_is_a_filter() {
        assert_eq!(
            Filters::of(&Collection::find(80002).unwrap()).cuisines,
            ["biryani"]
        );
        assert_eq!(
            Filters::of(&Collection::find(80008).unwrap()).cuisines,
            ["rolls-wraps"]
        );
        assert!(Filters::of(&Collection::find(83001).unwrap()).rating_4_plus);
        assert_eq!(
            Filters::of(&Collection::find(83005).unwrap()).cost_bands,
            [CostBand::Under300]
        );
    }

    fn listing(id: u64, opened: bool, rating: Option<u32>) -> Listing {
        Listing {
            id,
            point: Point::new(12.9, 77.6).unwrap(),
            delivery_radius_m: 5_000,
            prep_time_minutes: 20,
            opened,
            rating_tenths: rating,
            total_ratings: 100,
        }
    }

    fn cand<'a>(l: &'a Listing, f: &'a Facts, min_minutes: u32, relevance: f64) -> Candidate<'a> {
        Candidate {
            delivering: Delivering {
                listing: l,
                position: 0,
                distance_km: 1.0,
            },
            facts: f,
            min_minutes,
            relevance,
        }
    }

    fn ids(c: &[Candidate<'_>]) -> Vec<u64> {
        c.iter().map(|c| c.delivering.listing.id).collect()
    }

    #[test]
    fn every_sort_keeps_open_restaurants_first_and_orders_by_its_key() {
        let ls = [
            listing(1, true, Some(45)),
            listing(2, true, None),
            listing(3, false, Some(49)),
            listing(4, true, Some(38)),
        ];
        let fs = [
            Facts::new(40_000, false, None, vec![]),
            Facts::new(20_000, false, None, vec![]),
            Facts::new(10_000, false, None, vec![]),
            Facts::new(70_000, false, None, vec![]),
        ];
        let all = vec![
            cand(&ls[0], &fs[0], 40, 0.9),
            cand(&ls[1], &fs[1], 25, 0.5),
            cand(&ls[2], &fs[2], 20, 1.0),
            cand(&ls[3], &fs[3], 30, 0.7),
        ];
        let sorted = |s| {
            let mut v = all.clone();
            sort(&mut v, s);
            ids(&v)
        };
        assert_eq!(sorted(Sort::Relevance), [1, 4, 2, 3]);
        assert_eq!(sorted(Sort::DeliveryTime), [2, 4, 1, 3]);
        assert_eq!(sorted(Sort::Rating), [1, 4, 2, 3]);
        assert_eq!(sorted(Sort::CostLowToHigh), [2, 1, 4, 3]);
        assert_eq!(sorted(Sort::CostHighToLow), [4, 1, 2, 3]);
    }

    #[test]
    fn the_first_n_of_a_partial_sort_are_those_of_the_full_sort_in_order() {
        // Many ties on every key, so only the tie-breaks (relevance, distance, id) separate them.
        let ls: Vec<Listing> = (0..200)
            .map(|id| listing(id, id % 7 != 0, Some(30 + (id % 20) as u32)))
            .collect();
        let fs: Vec<Facts> = (0..200)
            .map(|i| Facts::new(10_000 * (i % 9), false, None, vec![]))
            .collect();
        let all: Vec<Candidate<'_>> = ls
            .iter()
            .zip(&fs)
            .map(|(l, f)| cand(l, f, 20 + (l.id % 5) as u32 * 5, (l.id % 11) as f64 / 10.0))
            .collect();

        for by in [
            Sort::Relevance,
            Sort::DeliveryTime,
            Sort::Rating,
            Sort::CostLowToHigh,
            Sort::CostHighToLow,
        ] {
            let mut full = all.clone();
            sort(&mut full, by);
            for n in [0, 1, 15, 30, 199, 200, 500] {
                let mut partial = all.clone();
                sort_first(&mut partial, by, n);
                let n = n.min(all.len());
                assert_eq!(ids(&partial[..n]), ids(&full[..n]), "{by:?}, first {n}");
                assert_eq!(partial.len(), all.len());
            }
        }
    }

    #[test]
    fn each_filter_keeps_only_what_it_names() {
        let l = listing(1, true, Some(40));
        let unrated = listing(2, true, None);
        let veg = Facts::new(
            25_000,
            true,
            Some("50% OFF".into()),
            vec!["South Indian".into(), "Sweets".into()],
        );
        let meat = Facts::new(65_000, false, None, vec!["Biryani".into()]);
        let f = |filters: Filters, c: Candidate<'_>| filters.matches(&c);

        assert!(f(
            Filters {
                rating_4_plus: true,
                ..Default::default()
            },
            cand(&l, &meat, 40, 0.0)
        ));
        assert!(!f(
            Filters {
                rating_4_plus: true,
                ..Default::default()
            },
            cand(&unrated, &meat, 40, 0.0)
        ));
        assert!(f(
            Filters {
                pure_veg: true,
                ..Default::default()
            },
            cand(&l, &veg, 40, 0.0)
        ));
        assert!(!f(
            Filters {
                pure_veg: true,
                ..Default::default()
            },
            cand(&l, &meat, 40, 0.0)
        ));
        assert!(f(
            Filters {
                fast_delivery: true,
                ..Default::default()
            },
            cand(&l, &meat, 30, 0.0)
        ));
        assert!(!f(
            Filters {
                fast_delivery: true,
                ..Default::default()
            },
            cand(&l, &meat, 35, 0.0)
        ));
        assert!(f(
            Filters {
                offers: true,
                ..Default::default()
            },
            cand(&l, &veg, 40, 0.0)
        ));
        assert!(!f(
            Filters {
                offers: true,
                ..Default::default()
            },
            cand(&l, &meat, 40, 0.0)
        ));
        assert!(f(
            Filters {
                cuisines: vec!["sweets".into(), "x".into()],
                ..Default::default()
            },
            cand(&l, &veg, 40, 0.0)
        ));
        assert!(!f(
            Filters {
                cuisines: vec!["sweets".into()],
                ..Default::default()
            },
            cand(&l, &meat, 40, 0.0)
        ));
        let bands = |b: Vec<CostBand>| Filters {
            cost_bands: b,
            ..Default::default()
        };
        assert!(f(bands(vec![CostBand::Under300]), cand(&l, &veg, 40, 0.0)));
        assert!(f(
            bands(vec![CostBand::From300To600, CostBand::Over600]),
            cand(&l, &meat, 40, 0.0)
        ));
        assert!(!f(
            bands(vec![CostBand::From300To600]),
            cand(&l, &meat, 40, 0.0)
        ));
    }

    #[test]
    fn cost_band_edges_follow_the_labels() {
        assert!(CostBand::Under300.contains(29_999) && !CostBand::Under300.contains(30_000));
        assert!(CostBand::From300To600.contains(30_000) && CostBand::From300To600.contains(60_000));
        assert!(CostBand::Over600.contains(60_001) && !CostBand::Over600.contains(60_000));
    }

    #[test]
    fn unknown_sorts_and_ranges_and_oversized_cuisine_lists_are_refused() {
        assert!(Sort::from_proto(99).is_err());
        assert!(
            Filters::from_proto(&ListingFilters {
                cost_ranges: vec![0],
                ..Default::default()
            })
            .is_err()
        );
        let many = ListingFilters {
            cuisines: vec!["a".into(); 21],
            ..Default::default()
        };
        assert!(Filters::from_proto(&many).is_err());
        let ok = Filters::from_proto(&ListingFilters {
            cuisines: vec![" Biryani ".into()],
            cost_ranges: vec![1, 1],
            ..Default::default()
        })
        .unwrap();
        assert_eq!(
            (ok.cuisines, ok.cost_bands),
            (vec!["biryani".to_string()], vec![CostBand::Under300])
        );
    }
}
