//! Search (issue 3): the `SuggestSearch`, `Search` and `GetPreSearch` RPCs over a full-text index
//! (tantivy, in RAM) of restaurants (name, cuisines, area), dishes (name) and cuisines, built once
//! at start from the tables.
//!
//! - [`query`]: the analyzer, the synonym table and how a search string becomes a query (exact,
//!   synonym, prefix and typo-tolerant clauses).
//! - [`dishes`]: the `search_dishes` table the dish index is built from.
//! - [`rank`]: the order of results: relevance first, then distance, then rating.
//!
//! Only restaurants that deliver to the caller's point are ever returned: the delivery index
//! ([`DeliveryAreas`]) names them and the query is restricted to them inside the engine. This
//! module never writes a table, and never prices anything (a dish's price is for display; the
//! cart asks the menu service). See `docs/search.md`.

pub mod dishes;
pub mod near;
pub mod query;
pub mod rank;

use std::collections::{BTreeMap, HashMap, HashSet};

use sqlx::{AnyPool, Row};
use std::sync::Arc;

use tantivy::collector::{Collector, SegmentCollector, TopDocs};
use tantivy::columnar::Column;
use tantivy::indexer::NoMergePolicy;
use tantivy::query::Weight;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermSetQuery};
use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{
    BitSet, DocAddress, DocId, Index, IndexReader, IndexWriter, ReloadPolicy, Score,
    SegmentOrdinal, SegmentReader, Term, doc,
};
use tiffin_platform::internal_error;
use tiffin_platform::status::with_code;
use tiffin_proto::discovery::v1::{
    Dish as DishMessage, DishResult, GetPreSearchResponse, PopularCuisine, RestaurantCard,
    SearchResponse, SuggestSearchResponse, Suggestion, SuggestionKind,
};
use tonic::{Code, Status};

use crate::delivery_areas::DeliveryAreas;
use crate::geo::Point;
use crate::restaurants;
use dishes::Dish;
use near::Near;
use rank::Hit;

/// Results per kind when the caller asks for 0.
pub const DEFAULT_LIMIT: usize = 30;
/// Most results per kind, whatever the caller asks.
pub const MAX_LIMIT: usize = 50;
/// Suggestions when the caller asks for 0, and at most.
pub const DEFAULT_SUGGESTIONS: usize = 8;
pub const MAX_SUGGESTIONS: usize = 20;
/// Popular cuisines when the caller asks for 0, and at most.
pub const DEFAULT_CUISINES: usize = 12;
pub const MAX_CUISINES: usize = 50;
/// Hits read from the engine before ranking: enough to hold every top-relevance match near a point.
const CANDIDATES: usize = 400;

/// Why a search failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// Nothing to search for (blank, or only punctuation).
    #[error("empty search query")]
    EmptyQuery,
    /// The location, or reading restaurant cards.
    #[error(transparent)]
    Discovery(#[from] crate::error::Error),
    /// The engine failed; logged, answered as a generic internal error.
    #[error("search index: {0}")]
    Index(#[from] tantivy::TantivyError),
}

impl From<SearchError> for Status {
    fn from(e: SearchError) -> Self {
        match e {
            SearchError::EmptyQuery => with_code(Code::InvalidArgument, 1, "Invalid request."),
            SearchError::Discovery(e) => e.into(),
            SearchError::Index(e) => internal_error!(e, "discovery search index error"),
        }
    }
}

/// What search keeps about a restaurant besides its index entry: what a suggestion shows, and
/// its cuisines for the popular-cuisines count.
#[derive(Debug, Clone)]
pub struct SearchRestaurant {
    pub id: u64,
    pub name: String,
    pub slug: String,
    pub city: String,
    pub area_name: String,
    pub locality: String,
    pub image_id: String,
    pub cuisines: Vec<String>,
}

/// One tantivy index and the fields a query needs.
struct Corpus {
    reader: IndexReader,
    /// The restaurant the document belongs to (indexed, to restrict a query to those delivering).
    restaurant: Option<Field>,
    /// Text fields and their weights.
    fields: Vec<(Field, f32)>,
    /// The ord column of each segment, opened once: the index never changes after it is built.
    ords: Vec<Column<u64>>,
}

/// The fast field holding a document's position in the owning `Vec`.
const ORD: &str = "ord";
/// The field holding the id of the restaurant a document belongs to.
const RESTAURANT: &str = "restaurant";

fn text_options() -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(query::ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqs),
    )
}

/// Memory for one index's writer (tantivy flushes a segment when it is full).
const WRITER_BUDGET: usize = 50_000_000;

impl Corpus {
    /// Builds an index in RAM with the given weighted text fields and one document per item.
    fn build<T>(
        items: &[T],
        text_fields: &[(&str, f32)],
        with_restaurant: bool,
        document: impl Fn(&T) -> (Option<u64>, Vec<String>),
    ) -> tantivy::Result<Self> {
        Self::build_in_segments(items, text_fields, with_restaurant, |_| "", document)
    }

    /// Like [`Corpus::build`], with the items of each `segment_of` key in a segment of their own
    /// (kept apart: never merged). A search restricted to some documents ([`Corpus::search_among`])
    /// reads only the segments holding one of them, so a corpus split by city costs a keystroke
    /// one city's terms and postings, not the whole country's.
    fn build_in_segments<T>(
        items: &[T],
        text_fields: &[(&str, f32)],
        with_restaurant: bool,
        segment_of: impl Fn(&T) -> &str,
        document: impl Fn(&T) -> (Option<u64>, Vec<String>),
    ) -> tantivy::Result<Self> {
        let mut schema = Schema::builder();
        let ord = schema.add_u64_field(ORD, FAST);
        // Indexed to restrict a query to some restaurants.
        let restaurant = with_restaurant.then(|| schema.add_u64_field(RESTAURANT, INDEXED));
        let fields: Vec<(Field, f32)> = text_fields
            .iter()
            .map(|(name, weight)| (schema.add_text_field(name, text_options()), *weight))
            .collect();
        let index = Index::create_in_ram(schema.build());
        index
            .tokenizers()
            .register(query::ANALYZER, query::analyzer());
        let mut writer: IndexWriter = index.writer_with_num_threads(1, WRITER_BUDGET)?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        // Item positions by key, the keys in first-seen order and the items in order within.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut group_of: HashMap<&str, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let group = *group_of.entry(segment_of(item)).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            if let Some(members) = groups.get_mut(group) {
                members.push(i);
            }
        }
        for (n, members) in groups.iter().enumerate() {
            // A commit ends the segment being written.
            if n > 0 {
                writer.commit()?;
            }
            for (i, item) in members.iter().filter_map(|&i| Some((i, items.get(i)?))) {
                let (restaurant_id, texts) = document(item);
                let mut d = doc!(ord => i as u64);
                if let (Some(field), Some(id)) = (restaurant, restaurant_id) {
                    d.add_u64(field, id);
                }
                for ((field, _), text) in fields.iter().zip(texts) {
                    d.add_text(*field, text);
                }
                writer.add_document(d)?;
            }
        }
        writer.commit()?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let ords = reader
            .searcher()
            .segment_readers()
            .iter()
            .map(|r| r.fast_fields().u64(ORD))
            .collect::<tantivy::Result<_>>()?;
        Ok(Self {
            reader,
            restaurant,
            fields,
            ords,
        })
    }

    /// The best `CANDIDATES` documents for `words` (ord and score), restricted to `restaurants`
    /// when given.
    fn search(
        &self,
        words: &query::Prepared,
        restaurants: Option<&[u64]>,
    ) -> tantivy::Result<Vec<(usize, f32)>> {
        let Some(text) = query::text_query(&self.fields, words) else {
            return Ok(Vec::new());
        };
        let query: Box<dyn Query> = match (self.restaurant, restaurants) {
            (Some(field), Some(ids)) => {
                if ids.is_empty() {
                    return Ok(Vec::new());
                }
                let only = TermSetQuery::new(ids.iter().map(|id| Term::from_field_u64(field, *id)));
                // A filter: it must match, and adds nothing to the score.
                Box::new(BooleanQuery::new(vec![
                    (Occur::Must, text),
                    (Occur::Must, Box::new(BoostQuery::new(Box::new(only), 0.0))),
                ]))
            }
            _ => text,
        };
        let searcher = self.reader.searcher();
        let top: Vec<(f32, DocAddress)> =
            searcher.search(&query, &TopDocs::with_limit(CANDIDATES).order_by_score())?;
        Ok(self.ords(top))
    }

    /// Like [`Corpus::search`] restricted to some documents, but filtering the hits as they are
    /// collected instead of adding the restaurants to the query: no per-search term set (a
    /// dictionary of a few hundred ids built for every keystroke) and no bitmap of every
    /// matching document. `among` names the documents allowed, one bit each (see [`Among`]).
    fn search_among(
        &self,
        words: &query::Prepared,
        among: Among,
    ) -> tantivy::Result<Vec<(usize, f32)>> {
        let Some(query) = query::text_query(&self.fields, words) else {
            return Ok(Vec::new());
        };
        let searcher = self.reader.searcher();
        let top: Vec<(f32, DocAddress)> = searcher.search(
            &query,
            &Only {
                among: Arc::new(among),
                top: TopDocs::with_limit(CANDIDATES).order_by_score(),
            },
        )?;
        Ok(self.ords(top))
    }

    /// Where each item's document is, by the item's position in the owning `Vec` (its ord).
    fn addresses(&self) -> tantivy::Result<Vec<Option<DocAddress>>> {
        let searcher = self.reader.searcher();
        let mut at = Vec::new();
        let segments = searcher.segment_readers().iter().zip(&self.ords);
        for (segment, (reader, ords)) in segments.enumerate() {
            for doc in 0..reader.max_doc() {
                if let Some(ord) = ords.first(doc).and_then(|o| usize::try_from(o).ok()) {
                    if at.len() <= ord {
                        at.resize(ord + 1, None);
                    }
                    at[ord] = Some(DocAddress::new(segment as u32, doc));
                }
            }
        }
        Ok(at)
    }

    /// No document allowed yet, one bit per document of each segment.
    fn none_among(&self) -> Among {
        Among(
            self.reader
                .searcher()
                .segment_readers()
                .iter()
                .map(|r| BitSet::with_max_value(r.max_doc()))
                .collect(),
        )
    }

    /// The position (ord) of each hit's item, with its score, in the order given.
    fn ords(&self, top: Vec<(f32, DocAddress)>) -> Vec<(usize, f32)> {
        top.into_iter()
            .filter_map(|(score, address)| {
                let ord = self
                    .ords
                    .get(address.segment_ord as usize)?
                    .first(address.doc_id)?;
                Some((ord as usize, score))
            })
            .collect()
    }
}

/// Documents a search may return: per segment, one bit per document.
struct Among(Vec<BitSet>);

impl Among {
    /// Allows the document at `at` (one beyond its segment's documents is ignored).
    fn allow(&mut self, at: DocAddress) {
        if let Some(bits) = self.0.get_mut(at.segment_ord as usize)
            && at.doc_id < bits.max_value()
        {
            bits.insert(at.doc_id);
        }
    }

    /// Whether any document of `segment` is allowed.
    fn any_in(&self, segment: usize) -> bool {
        self.0.get(segment).is_some_and(|bits| bits.len() > 0)
    }

    fn allows(&self, segment: usize, doc: DocId) -> bool {
        self.0
            .get(segment)
            .is_some_and(|bits| doc < bits.max_value() && bits.contains(doc))
    }
}

/// Collects with `top` only the documents `among` allows: a bit test per hit, where tantivy's
/// `FilterCollector` reads a fast field and searches the allowed ids for every hit.
struct Only<C> {
    /// Shared with each segment's collector rather than copied into it.
    among: Arc<Among>,
    top: C,
}

impl<C: Collector> Collector for Only<C> {
    type Fruit = C::Fruit;
    type Child = OnlyInSegment<C::Child>;

    fn for_segment(
        &self,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<Self::Child> {
        Ok(OnlyInSegment {
            among: self.among.clone(),
            segment: segment as usize,
            top: self.top.for_segment(segment, reader)?,
        })
    }

    fn requires_scoring(&self) -> bool {
        self.top.requires_scoring()
    }

    /// A segment none of whose documents is allowed is not read at all: no scorer is built for it
    /// (the terms the query's automata match are never looked up there). Otherwise as tantivy's
    /// own collection.
    fn collect_segment(
        &self,
        weight: &dyn Weight,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<<Self::Child as SegmentCollector>::Fruit> {
        let mut collector = self.for_segment(segment, reader)?;
        if !self.among.any_in(segment as usize) {
            return Ok(collector.harvest());
        }
        let alive = reader.alive_bitset();
        let is_alive = |doc| alive.is_none_or(|bits| bits.is_alive(doc));
        if self.requires_scoring() {
            weight.for_each(reader, &mut |doc, score| {
                if is_alive(doc) {
                    collector.collect(doc, score);
                }
            })?;
        } else {
            weight.for_each_no_score(reader, &mut |docs| {
                for &doc in docs.iter().filter(|&&doc| is_alive(doc)) {
                    collector.collect(doc, 0.0);
                }
            })?;
        }
        Ok(collector.harvest())
    }

    fn merge_fruits(
        &self,
        fruits: Vec<<C::Child as SegmentCollector>::Fruit>,
    ) -> tantivy::Result<C::Fruit> {
        self.top.merge_fruits(fruits)
    }
}

/// [`Only`] in one segment.
struct OnlyInSegment<S> {
    among: Arc<Among>,
    segment: usize,
    top: S,
}

impl<S: SegmentCollector> SegmentCollector for OnlyInSegment<S> {
    type Fruit = S::Fruit;

    fn collect(&mut self, doc: DocId, score: Score) {
        if self.among.allows(self.segment, doc) {
            self.top.collect(doc, score);
        }
    }

    fn harvest(self) -> S::Fruit {
        self.top.harvest()
    }
}

/// The search indexes and what results are built from.
pub struct SearchIndex {
    restaurants: Vec<SearchRestaurant>,
    /// Each restaurant's position in `restaurants`, by id.
    position: HashMap<u64, usize>,
    /// The cuisines (as positions in `cuisines`) of each restaurant of the delivery index, by its
    /// position there ([`Delivering::position`]): read for the restaurants near a point without
    /// looking their ids up.
    cuisine_ords: Vec<Vec<u32>>,
    /// Each restaurant's document in `restaurant_corpus`, by its position in the delivery index:
    /// what restricts a suggestion to the restaurants near the point.
    restaurant_docs: Vec<Option<DocAddress>>,
    /// The city of each restaurant of the delivery index (as a number), by its position there.
    city_by_position: Vec<Option<u32>>,
    /// Each restaurant's position in the delivery index, by id: how a hit is looked up in
    /// [`Near`].
    delivery_position: Positions,
    /// The distinct dish names and where each is served, for suggestions.
    dish_names: DishNames,
    dishes: Vec<Dish>,
    /// Distinct cuisine names, in first-seen order.
    cuisines: Vec<String>,
    restaurant_corpus: Corpus,
    dish_corpus: Corpus,
    cuisine_corpus: Corpus,
}

/// The distinct dish names (lower-cased; shown as first seen), indexed on their own, and which
/// restaurants of each city serve each: what suggestions search instead of every dish.
///
/// A keystroke reads, for each name it matches, the restaurants serving that name in the cities
/// of the restaurants near the point: work in proportion to what matched, not to every name of
/// every restaurant nearby.
struct DishNames {
    corpus: Corpus,
    /// Where the restaurants of a city serving a name are in `served`, by (city, name position).
    runs: rustc_hash::FxHashMap<(u32, u32), (u32, u32)>,
    /// One run after another.
    served: Vec<Served>,
}

/// A restaurant serving a dish name.
#[derive(Debug, Clone, Copy)]
struct Served {
    /// The restaurant's position in the delivery index ([`Near::at`]).
    position: u32,
    /// The restaurant's first dish of that name, as a position in `SearchIndex::dishes`.
    dish: u32,
}

impl DishNames {
    /// `city_of`: each indexed restaurant's city, as a number; `position_of`: each restaurant's
    /// position in the delivery index. Dishes of any other restaurant are left out (it is never
    /// near a point).
    fn build(
        dishes: &[Dish],
        city_of: &HashMap<u64, u32>,
        position_of: &Positions,
    ) -> tantivy::Result<Self> {
        let too_many =
            || tantivy::TantivyError::InvalidArgument("over 2^32 dishes or restaurants".into());
        let mut names: Vec<String> = Vec::new();
        let mut ord_of: HashMap<String, u32> = HashMap::new();
        let mut by_run: BTreeMap<(u32, u32), Vec<Served>> = BTreeMap::new();
        let mut seen: HashSet<(u64, u32)> = HashSet::new();
        for (ord, dish) in dishes.iter().enumerate() {
            let key = dish.name.to_lowercase();
            let name = *ord_of.entry(key).or_insert_with(|| {
                names.push(dish.name.clone());
                (names.len() - 1) as u32
            });
            let (Some(&city), Some(&position)) = (
                city_of.get(&dish.restaurant_id),
                position_of.get(&dish.restaurant_id),
            ) else {
                continue;
            };
            // A restaurant's first dish of a name is the one `rank` would pick among its dishes
            // of that name (same restaurant, so same band, rating and distance; then the lower ord).
            if seen.insert((dish.restaurant_id, name)) {
                let ord = u32::try_from(ord).map_err(|_| too_many())?;
                by_run.entry((city, name)).or_default().push(Served {
                    position: u32::try_from(position).map_err(|_| too_many())?,
                    dish: ord,
                });
            }
        }
        let mut served = Vec::with_capacity(by_run.values().map(Vec::len).sum());
        let mut runs = rustc_hash::FxHashMap::default();
        for (key, run) in by_run {
            let start = u32::try_from(served.len()).map_err(|_| too_many())?;
            served.extend(run);
            let end = u32::try_from(served.len()).map_err(|_| too_many())?;
            runs.insert(key, (start, end));
        }
        let corpus = Corpus::build(&names, &[("name", 1.0)], false, |n: &String| {
            (None, vec![n.clone()])
        })?;
        Ok(Self {
            corpus,
            runs,
            served,
        })
    }

    /// The restaurants of `city` serving the name at position `name`.
    fn served_in(&self, city: u32, name: u32) -> &[Served] {
        self.runs
            .get(&(city, name))
            .and_then(|&(start, end)| self.served.get(start as usize..end as usize))
            .unwrap_or_default()
    }
}

/// Each restaurant's position in the delivery index, by id: a fast hash (the keys are our own ids).
type Positions = rustc_hash::FxHashMap<u64, usize>;

impl SearchIndex {
    /// Indexes these restaurants and dishes (CPU-bound: call it off the async workers). `order` is
    /// the delivery index's restaurant ids by position ([`DeliveryAreas::ids`]): what a keystroke
    /// reads per restaurant near the point is laid out and looked up by that position, so the
    /// index must be searched with that same delivery index.
    pub fn build(
        restaurants: Vec<SearchRestaurant>,
        dishes: Vec<Dish>,
        order: &[u64],
    ) -> tantivy::Result<Self> {
        // A segment per city: a keystroke reads only the cities of the restaurants near the point.
        let restaurant_corpus = Corpus::build_in_segments(
            &restaurants,
            &[("name", 3.0), ("cuisines", 2.0), ("area", 1.0)],
            true,
            |r: &SearchRestaurant| r.city.as_str(),
            |r: &SearchRestaurant| {
                (
                    Some(r.id),
                    vec![
                        r.name.clone(),
                        r.cuisines.join(", "),
                        format!("{} {}", r.area_name, r.locality),
                    ],
                )
            },
        )?;
        let dish_corpus = Corpus::build(&dishes, &[("name", 1.0)], true, |d: &Dish| {
            (Some(d.restaurant_id), vec![d.name.clone()])
        })?;
        let mut seen = HashSet::new();
        let cuisines: Vec<String> = restaurants
            .iter()
            .flat_map(|r| r.cuisines.iter())
            .filter(|c| seen.insert(c.to_lowercase()))
            .cloned()
            .collect();
        let cuisine_corpus = Corpus::build(&cuisines, &[("name", 1.0)], false, |c: &String| {
            (None, vec![c.clone()])
        })?;
        let position: HashMap<u64, usize> = restaurants
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id, i))
            .collect();
        let cuisine_ord: HashMap<String, u32> = cuisines
            .iter()
            .enumerate()
            .map(|(i, c)| (c.to_lowercase(), i as u32))
            .collect();
        let cuisine_ords = order
            .iter()
            .map(|id| {
                let Some(r) = position.get(id).and_then(|&i| restaurants.get(i)) else {
                    return Vec::new();
                };
                r.cuisines
                    .iter()
                    .filter_map(|c| cuisine_ord.get(&c.to_lowercase()).copied())
                    .collect()
            })
            .collect();
        let mut city_number: HashMap<&str, u32> = HashMap::new();
        let city_of: HashMap<u64, u32> = restaurants
            .iter()
            .map(|r| {
                let next = city_number.len() as u32;
                (r.id, *city_number.entry(r.city.as_str()).or_insert(next))
            })
            .collect();
        let city_by_position = order.iter().map(|id| city_of.get(id).copied()).collect();
        let delivery_position: Positions =
            order.iter().enumerate().map(|(p, &id)| (id, p)).collect();
        let dish_names = DishNames::build(&dishes, &city_of, &delivery_position)?;
        let by_ord = restaurant_corpus.addresses()?;
        let restaurant_docs = order
            .iter()
            .map(|id| {
                position
                    .get(id)
                    .and_then(|&i| by_ord.get(i).copied().flatten())
            })
            .collect();
        Ok(Self {
            restaurants,
            position,
            cuisine_ords,
            restaurant_docs,
            city_by_position,
            delivery_position,
            dish_names,
            dishes,
            cuisines,
            restaurant_corpus,
            dish_corpus,
            cuisine_corpus,
        })
    }

    /// Reads the tables and builds the index for the delivery index whose ids by position are
    /// `order` (see [`SearchIndex::build`]).
    pub async fn load(pool: &AnyPool, order: impl Iterator<Item = u64>) -> anyhow::Result<Self> {
        let restaurants = load_restaurants(pool).await?;
        let dishes = dishes::load(pool).await?;
        let order: Vec<u64> = order.collect();
        Ok(tokio::task::spawn_blocking(move || Self::build(restaurants, dishes, &order)).await??)
    }

    /// How many restaurants and dishes are indexed.
    pub fn len(&self) -> (usize, usize) {
        (self.restaurants.len(), self.dishes.len())
    }

    /// `found` (key, restaurant id, score) with each restaurant id as its delivery-index position,
    /// for [`rank`]: restaurants outside the delivery index are left out (never near a point).
    fn by_position<K>(
        &self,
        found: impl IntoIterator<Item = (K, u64, f32)>,
    ) -> impl Iterator<Item = (K, usize, f32)> {
        found
            .into_iter()
            .filter_map(|(key, id, score)| Some((key, *self.delivery_position.get(&id)?, score)))
    }

    /// Restaurant hits: those matching by name, cuisine or area first, then those serving a
    /// matching dish; each group in [`rank`] order, the first `limit` of each.
    fn restaurant_hits(
        &self,
        words: &query::Prepared,
        near: &Near<'_>,
        ids: &[u64],
        dish_found: &[(usize, f32)],
        limit: usize,
    ) -> Result<Vec<Hit>, SearchError> {
        let direct: Vec<(u64, u64, f32)> = self
            .restaurant_corpus
            .search(words, Some(ids))?
            .into_iter()
            .filter_map(|(ord, score)| self.restaurants.get(ord).map(|r| (r.id, r.id, score)))
            .collect();
        let found: HashSet<u64> = direct.iter().map(|(id, _, _)| *id).collect();
        let mut hits: Vec<Hit> = rank::rank(self.by_position(direct), near, true, limit)
            .into_iter()
            .map(|(_, h)| h)
            .collect();
        let mut by_dish: HashMap<u64, f32> = HashMap::new();
        for &(ord, score) in dish_found {
            if let Some(d) = self
                .dishes
                .get(ord)
                .filter(|d| !found.contains(&d.restaurant_id))
            {
                let best = by_dish.entry(d.restaurant_id).or_insert(score);
                *best = best.max(score);
            }
        }
        let by_dish = by_dish.into_iter().map(|(id, score)| (id, id, score));
        hits.extend(
            rank::rank(self.by_position(by_dish), near, false, limit)
                .into_iter()
                .map(|(_, h)| h),
        );
        Ok(hits)
    }

    /// The first `limit` dish hits in [`rank`] order, with the dish's position in `self.dishes`.
    fn dish_hits(
        &self,
        dish_found: &[(usize, f32)],
        near: &Near<'_>,
        limit: usize,
    ) -> Vec<(usize, Hit)> {
        let found = dish_found.iter().filter_map(|&(ord, score)| {
            self.dishes.get(ord).map(|d| (ord, d.restaurant_id, score))
        });
        rank::rank(self.by_position(found), near, true, limit)
    }

    /// `Search`: restaurants and dishes for `text` from restaurants delivering to `at`.
    pub fn search(
        &self,
        cards: &restaurants::Cards,
        areas: &DeliveryAreas,
        text: &str,
        at: Point,
        limit: u32,
    ) -> Result<SearchResponse, SearchError> {
        let words = query::words(text);
        if words.is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        let limit = match limit as usize {
            0 => DEFAULT_LIMIT,
            n => n.min(MAX_LIMIT),
        };
        let near = Near::to(areas, at);
        let ids: Vec<u64> = near.iter().map(|d| d.listing.id).collect();
        // A lone word is matched as a prefix too ("pan" → paneer); a phrase needs its words whole
        // or within a typo, so "chicken b" does not list every chicken dish.
        let words = query::prepare(&words, words.len() == 1)?;
        let dish_found = self.dish_corpus.search(&words, Some(&ids))?;
        let restaurant_hits: Vec<Hit> = self
            .restaurant_hits(&words, &near, &ids, &dish_found, limit)?
            .into_iter()
            .take(limit)
            .collect();
        let dish_hits = self.dish_hits(&dish_found, &near, limit);

        // One card for every restaurant shown, either as a result or as a dish's restaurant.
        let mut wanted: Vec<u64> = restaurant_hits.iter().map(|h| h.restaurant_id).collect();
        for (_, h) in &dish_hits {
            if !wanted.contains(&h.restaurant_id) {
                wanted.push(h.restaurant_id);
            }
        }
        let mut shown: HashMap<u64, RestaurantCard> = HashMap::new();
        for chunk in wanted.chunks(restaurants::MAX_BATCH) {
            for card in restaurants::get_restaurants(cards, chunk, Some(at))? {
                if let Some(r) = &card.restaurant {
                    shown.insert(r.id, card);
                }
            }
        }
        let restaurants = restaurant_hits
            .iter()
            .filter_map(|h| shown.get(&h.restaurant_id).cloned())
            .collect();
        let dishes = dish_hits
            .iter()
            .filter_map(|(ord, h)| {
                let dish = self.dishes.get(*ord)?;
                Some(DishResult {
                    dish: Some(dish_message(dish)),
                    restaurant: Some(shown.get(&h.restaurant_id)?.clone()),
                })
            })
            .collect();
        Ok(SearchResponse {
            restaurants,
            dishes,
        })
    }

    /// `SuggestSearch`: cuisines, then restaurants, then dish names, for what is typed so far (its
    /// last word matched as a prefix).
    ///
    /// It runs on every keystroke, so it reads small indexes: restaurants (one document each,
    /// filtered to those delivering here as hits are collected) and distinct dish names (a few
    /// thousand, whatever the catalogue size), each name then looked up among the dishes of the
    /// restaurants delivering here. The full search ([`SearchIndex::search`]) reads every dish.
    pub fn suggest(
        &self,
        areas: &DeliveryAreas,
        text: &str,
        at: Point,
        limit: u32,
    ) -> Result<SuggestSearchResponse, SearchError> {
        let words = query::words(text);
        if words.is_empty() {
            return Err(SearchError::EmptyQuery);
        }
        let limit = match limit as usize {
            0 => DEFAULT_SUGGESTIONS,
            n => n.min(MAX_SUGGESTIONS),
        };
        let near = Near::to(areas, at);
        // The last word is the one being typed: matched as a prefix everywhere.
        let words = query::prepare(&words, true)?;

        let mut suggestions = Vec::new();
        for (ord, _) in self.cuisine_corpus.search(&words, None)? {
            let Some(name) = self.cuisines.get(ord) else {
                continue;
            };
            if suggestions.len() < 2 && self.serves_cuisine(&near, ord) {
                suggestions.push(Suggestion {
                    kind: SuggestionKind::Cuisine.into(),
                    text: name.clone(),
                    subtitle: "Cuisine".into(),
                    image_id: cuisine_image(name),
                    ..Default::default()
                });
            }
        }
        let mut among = self.restaurant_corpus.none_among();
        for d in near.iter() {
            if let Some(&Some(at)) = self.restaurant_docs.get(d.position) {
                among.allow(at);
            }
        }
        let direct: Vec<(u64, u64, f32)> = self
            .restaurant_corpus
            .search_among(&words, among)?
            .into_iter()
            .filter_map(|(ord, score)| self.restaurants.get(ord).map(|r| (r.id, r.id, score)))
            .collect();
        for (_, hit) in rank::rank(self.by_position(direct), &near, true, 3) {
            let Some(r) = self.restaurant(hit.restaurant_id) else {
                continue;
            };
            suggestions.push(Suggestion {
                kind: SuggestionKind::Restaurant.into(),
                text: r.name.clone(),
                subtitle: r.area_name.clone(),
                image_id: r.image_id.clone(),
                restaurant_id: r.id,
                restaurant_slug: r.slug.clone(),
                city: r.city.clone(),
            });
        }
        let wanted = limit.saturating_sub(suggestions.len());
        for (ord, _) in self.dish_name_hits(&words, &near, wanted)? {
            let Some(d) = self.dishes.get(ord) else {
                continue;
            };
            suggestions.push(Suggestion {
                kind: SuggestionKind::Dish.into(),
                text: d.name.clone(),
                subtitle: "Dish".into(),
                image_id: d.image_id.clone(),
                ..Default::default()
            });
        }
        suggestions.truncate(limit);
        Ok(SuggestSearchResponse { suggestions })
    }

    /// Dish names matching `words` (the last as a prefix) that a restaurant delivering here serves,
    /// one hit per name (lower-cased) in [`rank`] order, the first `limit`: each name's hit is its
    /// dish at the restaurant that ranks best, so this is the dish ranking with repeated names
    /// left out.
    fn dish_name_hits(
        &self,
        words: &query::Prepared,
        near: &Near<'_>,
        limit: usize,
    ) -> Result<Vec<(usize, Hit)>, SearchError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let found = self.dish_names.corpus.search(words, None)?;
        if found.is_empty() {
            return Ok(Vec::new());
        }
        // The cities of the restaurants delivering here: one, or a few near a city's edge.
        let mut cities: Vec<u32> = Vec::new();
        for d in near.iter() {
            if let Some(&Some(city)) = self.city_by_position.get(d.position)
                && !cities.contains(&city)
            {
                cities.push(city);
            }
        }
        // Per name: (band, rating, distance, dish ord) of its best dish here, as `rank` orders
        // hits of one score, and the restaurant serving it.
        type Best = (u64, std::cmp::Reverse<u32>, f64, usize, usize);
        let better = |candidate: &Best, held: &Best| {
            (candidate.0, candidate.1)
                .cmp(&(held.0, held.1))
                .then(candidate.2.total_cmp(&held.2))
                .then(candidate.3.cmp(&held.3))
                .is_lt()
        };
        let mut hits = Vec::new();
        for (name, score) in found {
            let Ok(name) = u32::try_from(name) else {
                continue;
            };
            let mut best: Option<Best> = None;
            for &city in &cities {
                for s in self.dish_names.served_in(city, name) {
                    let Some(d) = near.at(s.position as usize) else {
                        continue;
                    };
                    let band = rank::km_band(d.distance_km);
                    let rating =
                        std::cmp::Reverse(d.listing.rating_tenths.filter(|t| *t > 0).unwrap_or(0));
                    let candidate: Best =
                        (band, rating, d.distance_km, s.dish as usize, d.position);
                    if best.as_ref().is_none_or(|held| better(&candidate, held)) {
                        best = Some(candidate);
                    }
                }
            }
            if let Some((_, _, _, dish, position)) = best {
                hits.push((dish, position, score));
            }
        }
        Ok(rank::rank(hits, near, true, limit))
    }

    /// The indexed restaurant with this id.
    fn restaurant(&self, id: u64) -> Option<&SearchRestaurant> {
        self.position
            .get(&id)
            .and_then(|&i| self.restaurants.get(i))
    }

    /// Whether a restaurant delivering here serves the cuisine at position `ord` (stops at the
    /// first: a keystroke matches a few cuisines, so they are checked one by one rather than
    /// counting every cuisine of every restaurant near the point).
    fn serves_cuisine(&self, near: &Near<'_>, ord: usize) -> bool {
        near.iter()
            .filter_map(|d| self.cuisine_ords.get(d.position))
            .any(|ords| ords.iter().any(|&c| c as usize == ord))
    }

    /// For each of `cuisines` (by position), how many restaurants delivering here serve it.
    fn served_cuisine_counts(&self, near: &Near<'_>) -> Vec<u32> {
        let mut counts = vec![0u32; self.cuisines.len()];
        for ords in near
            .iter()
            .filter_map(|d| self.cuisine_ords.get(d.position))
        {
            for &c in ords {
                if let Some(n) = counts.get_mut(c as usize) {
                    *n += 1;
                }
            }
        }
        counts
    }

    /// Each cuisine served by a restaurant delivering here (lower-cased) → (display name, count).
    fn served_cuisines(&self, near: &Near<'_>) -> HashMap<String, (String, u32)> {
        self.served_cuisine_counts(near)
            .into_iter()
            .zip(&self.cuisines)
            .filter(|(n, _)| *n > 0)
            .map(|(n, name)| (name.to_lowercase(), (name.clone(), n)))
            .collect()
    }

    /// `GetPreSearch`: the cuisines most restaurants delivering to `at` serve.
    pub fn pre_search(&self, areas: &DeliveryAreas, at: Point, limit: u32) -> GetPreSearchResponse {
        let limit = match limit as usize {
            0 => DEFAULT_CUISINES,
            n => n.min(MAX_CUISINES),
        };
        let near = Near::to(areas, at);
        let ordered: BTreeMap<(std::cmp::Reverse<u32>, String), String> = self
            .served_cuisines(&near)
            .into_iter()
            .map(|(key, (name, n))| ((std::cmp::Reverse(n), key), name))
            .collect();
        let cuisines = ordered
            .into_iter()
            .take(limit)
            .map(|((std::cmp::Reverse(n), _), name)| PopularCuisine {
                image_id: cuisine_image(&name),
                name,
                restaurant_count: n,
            })
            .collect();
        GetPreSearchResponse { cuisines }
    }
}

/// The image the edge renders for a cuisine: `cuisine-<words-joined-by-dashes>`.
fn cuisine_image(name: &str) -> String {
    let slug: Vec<String> = query::words(name);
    format!("cuisine-{}", slug.join("-"))
}

fn dish_message(d: &Dish) -> DishMessage {
    DishMessage {
        id: d.id,
        restaurant_id: d.restaurant_id,
        name: d.name.clone(),
        category: d.category.clone(),
        veg_type: d.veg_type.clone(),
        price_paise: d.price,
        original_price_paise: d.original_price,
        in_stock: d.in_stock,
        customisable: d.customisable,
        image_id: d.image_id.clone(),
    }
}

/// Every restaurant's searchable text, with its cuisines in order.
async fn load_restaurants(pool: &AnyPool) -> Result<Vec<SearchRestaurant>, sqlx::Error> {
    let mut cuisines: HashMap<i64, Vec<String>> = HashMap::new();
    for r in sqlx::query(
        "SELECT restaurant_id, cuisine FROM restaurant_cuisines ORDER BY restaurant_id, position",
    )
    .fetch_all(pool)
    .await?
    {
        cuisines
            .entry(r.try_get("restaurant_id")?)
            .or_default()
            .push(r.try_get("cuisine")?);
    }
    sqlx::query(
        "SELECT id, name, slug, city, area_name, locality, image_id FROM restaurants ORDER BY id",
    )
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        let id: i64 = r.try_get("id")?;
        Ok(SearchRestaurant {
            id: id as u64,
            name: r.try_get("name")?,
            slug: r.try_get("slug")?,
            city: r.try_get("city")?,
            area_name: r.try_get("area_name")?,
            locality: r.try_get("locality")?,
            image_id: r.try_get("image_id")?,
            cuisines: cuisines.remove(&id).unwrap_or_default(),
        })
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delivery_areas::Listing;

    fn restaurant(id: u64) -> SearchRestaurant {
        SearchRestaurant {
            id,
            name: format!("Kitchen {id}"),
            slug: format!("kitchen-{id}"),
            city: "bangalore".into(),
            area_name: "Koramangala".into(),
            locality: "5th Block".into(),
            image_id: String::new(),
            cuisines: vec!["North Indian".into()],
        }
    }

    fn dish(id: u64, restaurant_id: u64, name: &str) -> Dish {
        Dish {
            id,
            restaurant_id,
            name: name.into(),
            category: "Mains".into(),
            veg_type: "VEG".into(),
            price: 20_000,
            original_price: None,
            in_stock: true,
            customisable: false,
            image_id: format!("dish-{id}"),
        }
    }

    fn listing(id: u64, lat: f64) -> Listing {
        Listing {
            id,
            point: Point::new(lat, 77.6245).unwrap(),
            delivery_radius_m: 10_000,
            prep_time_minutes: 20,
            opened: true,
            rating_tenths: Some(40),
            total_ratings: 100,
        }
    }

    #[test]
    fn among_allows_exactly_the_documents_named_in_their_own_segment() {
        let mut among = Among(vec![
            BitSet::with_max_value(128),
            BitSet::with_max_value(64),
        ]);
        for at in [(0, 0), (0, 63), (0, 64), (1, 5), (2, 0), (0, 500)] {
            among.allow(DocAddress::new(at.0, at.1));
        }
        let allowed = |segment: usize, doc| among.allows(segment, doc);
        assert!(allowed(0, 0) && allowed(0, 63) && allowed(0, 64) && allowed(1, 5));
        assert!(!allowed(0, 1) && !allowed(0, 65) && !allowed(1, 0) && !allowed(0, 5));
        // Beyond a segment's documents: nothing is set and nothing is allowed.
        assert!(!allowed(0, 500) && !allowed(1, 64));
    }

    #[test]
    fn a_corpus_split_by_city_finds_only_the_documents_allowed_in_each() {
        let mut restaurants = vec![restaurant(1), restaurant(2), restaurant(3)];
        restaurants[1].city = "delhi".into();
        let corpus = Corpus::build_in_segments(
            &restaurants,
            &[("name", 1.0)],
            true,
            |r: &SearchRestaurant| r.city.as_str(),
            |r: &SearchRestaurant| (Some(r.id), vec!["Biryani House".into()]),
        )
        .unwrap();
        assert_eq!(corpus.reader.searcher().segment_readers().len(), 2);
        let at = corpus.addresses().unwrap();
        let words = query::prepare(&query::words("biry"), true).unwrap();
        let found = |allowed: &[usize]| {
            let mut among = corpus.none_among();
            for &ord in allowed {
                among.allow(at[ord].unwrap());
            }
            let mut ords: Vec<usize> = corpus
                .search_among(&words, among)
                .unwrap()
                .into_iter()
                .map(|(ord, _)| ord)
                .collect();
            ords.sort();
            ords
        };
        assert_eq!(found(&[1]), [1], "Delhi's alone");
        assert_eq!(found(&[0, 2]), [0, 2], "Bangalore's two, not Delhi's");
        assert_eq!(found(&[0, 1]), [0, 1], "one of each city");
        assert!(found(&[]).is_empty());
    }

    #[test]
    fn a_dish_name_is_suggested_from_the_nearest_restaurant_whichever_city_it_is_in() {
        let at = Point::new(12.9352, 77.6245).unwrap();
        // At a city's edge: the Bangalore restaurant is 3 km away, the Hosur one 500 m.
        let areas = DeliveryAreas::new(vec![
            listing(1, 12.9352 + 0.027),
            listing(2, 12.9352 - 0.0045),
            listing(3, 12.9352 - 0.009),
        ]);
        let mut hosur = restaurant(2);
        hosur.city = "hosur".into();
        let reply = suggest_over(
            &areas,
            vec![restaurant(1), hosur, restaurant(3)],
            vec![
                dish(10, 1, "Paneer Tikka"),
                dish(20, 2, "Paneer Tikka"),
                dish(21, 2, "Paneer Roll"),
                dish(30, 3, "Paneer Butter Masala"),
            ],
            "paneer",
            at,
        );

        assert_eq!(
            dish_suggestions(&reply),
            [
                ("Paneer Tikka", "dish-20"),
                ("Paneer Roll", "dish-21"),
                ("Paneer Butter Masala", "dish-30")
            ],
            "each name from its nearest restaurant, in either city, nearest first"
        );
    }

    #[test]
    fn a_word_being_typed_scores_by_each_spelling_it_matches() {
        let names: Vec<String> = ["Biryani House", "Bury Cafe", "Briyani Point", "Dosa Place"]
            .map(String::from)
            .into();
        let corpus = Corpus::build(&names, &[("name", 1.0)], false, |n: &String| {
            (None, vec![n.clone()])
        })
        .unwrap();
        let words = query::prepare(&query::words("biry"), true).unwrap();
        let mut found = corpus.search(&words, None).unwrap();
        found.sort_by_key(|(ord, _)| *ord);
        // Prefix (2) and typo-prefix (0.5); a typo (1) and typo-prefix; typo-prefix alone
        // ("briy" is "biry" with two letters swapped).
        assert_eq!(found, [(0, 2.5), (1, 1.5), (2, 0.5)]);
    }

    /// The suggestions for `typed` at `at`, from an index of `restaurants` and `dishes` delivering
    /// as `areas` says.
    fn suggest_over(
        areas: &DeliveryAreas,
        restaurants: Vec<SearchRestaurant>,
        dishes: Vec<Dish>,
        typed: &str,
        at: Point,
    ) -> SuggestSearchResponse {
        let index =
            SearchIndex::build(restaurants, dishes, &areas.ids().collect::<Vec<_>>()).unwrap();
        index.suggest(areas, typed, at, 0).unwrap()
    }

    fn dish_suggestions(reply: &SuggestSearchResponse) -> Vec<(&str, &str)> {
        reply
            .suggestions
            .iter()
            .filter(|s| s.kind() == SuggestionKind::Dish)
            .map(|s| (s.text.as_str(), s.image_id.as_str()))
            .collect()
    }

    #[test]
    fn a_dish_name_is_suggested_once_from_its_nearest_restaurant_and_ordered_by_it() {
        let at = Point::new(12.9352, 77.6245).unwrap();
        // The far restaurant's dishes come first in the tables; the near one serves one name
        // twice. 0.009 degrees of latitude is about 1 km.
        let areas = DeliveryAreas::new(vec![
            listing(2, 12.9352 + 0.032),
            listing(1, 12.9352 + 0.004),
        ]);
        let reply = suggest_over(
            &areas,
            vec![restaurant(2), restaurant(1)],
            vec![
                dish(20, 2, "Paneer Roll"),
                dish(21, 2, "Paneer Tikka"),
                dish(10, 1, "paneer tikka"),
                dish(11, 1, "Paneer Tikka"),
            ],
            "paneer",
            at,
        );

        assert_eq!(
            dish_suggestions(&reply),
            [("paneer tikka", "dish-10"), ("Paneer Roll", "dish-20")],
            "the near restaurant's first dish of a name, and its name first"
        );
    }
}
