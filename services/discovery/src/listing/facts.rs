//! What a filter needs to know about each restaurant that the delivery index does not hold
//! (cost, veg, offer, cuisines), read once at start and laid out like the delivery index.

use std::collections::HashMap;

use sqlx::{AnyPool, Row};

use crate::collections::cuisine_slug;
use crate::error::Error;

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
    pub(super) cuisine_slugs: Vec<String>,
    /// The same as positions in the [`FactsIndex`]'s cuisine names (set when indexed), so the
    /// listing counts cuisines near a point by number, not by hashing each restaurant's strings.
    pub(super) cuisine_ids: Vec<u32>,
    /// The offer as a position in the [`FactsIndex`]'s offer texts (set when indexed).
    pub(super) offer_id: Option<u32>,
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
pub struct FactsIndex {
    /// By [`Delivering::position`] (the delivery index's order), read for every restaurant near
    /// the point on every listing: those around one point lie together, with no hashing. `None`
    /// for a restaurant without facts.
    facts: Vec<Option<Facts>>,
    /// Where each restaurant's facts are, for pages that start from ids (city pages). Our own
    /// ids: a fast hash.
    positions: rustc_hash::FxHashMap<u64, usize>,
    /// Every distinct cuisine (as stored), at the position [`Facts`]' `cuisine_ids` name.
    pub(super) cuisine_names: Vec<String>,
    /// Every distinct offer text, at the position [`Facts`]' `offer_id` names.
    pub(super) offer_texts: Vec<String>,
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

impl FactsIndex {
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
            cuisine_names: cuisines.texts,
            offer_texts: offers.texts,
        }
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
    /// [`FactsIndex::new`]).
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
