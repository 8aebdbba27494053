//! One tantivy index in RAM and how it is asked: the documents' fields and weights, their
//! positions in the owning list, and collectors that keep only the documents allowed (the
//! restaurants delivering to the point) while the engine scores.

use std::collections::HashMap;
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

use super::limits::CANDIDATES;
use super::query;

/// One tantivy index and the fields a query needs.
pub(super) struct Corpus {
    pub(super) reader: IndexReader,
    /// The restaurant the document belongs to (indexed, to restrict a query to those delivering).
    pub(super) restaurant: Option<Field>,
    /// Text fields and their weights.
    pub(super) fields: Vec<(Field, f32)>,
    /// The ord column of each segment, opened once: the index never changes after it is built.
    pub(super) ords: Vec<Column<u64>>,
}

/// The fast field holding a document's position in the owning `Vec`.
pub(super) const ORD: &str = "ord";
/// The field holding the id of the restaurant a document belongs to.
pub(super) const RESTAURANT: &str = "restaurant";

pub(super) fn text_options() -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(query::ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqs),
    )
}

/// Memory for one index's writer (tantivy flushes a segment when it is full).
pub(super) const WRITER_BUDGET: usize = 50_000_000;

impl Corpus {
    /// Builds an index in RAM with the given weighted text fields and one document per item.
    pub(super) fn build<T>(
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
    pub(super) fn build_in_segments<T>(
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
    pub(super) fn search(
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
    pub(super) fn search_among(
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
    pub(super) fn addresses(&self) -> tantivy::Result<Vec<Option<DocAddress>>> {
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
    pub(super) fn none_among(&self) -> Among {
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
    pub(super) fn ords(&self, top: Vec<(f32, DocAddress)>) -> Vec<(usize, f32)> {
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
pub(super) struct Among(pub(super) Vec<BitSet>);

impl Among {
    /// Allows the document at `at` (one beyond its segment's documents is ignored).
    pub(super) fn allow(&mut self, at: DocAddress) {
        if let Some(bits) = self.0.get_mut(at.segment_ord as usize)
            && at.doc_id < bits.max_value()
        {
            bits.insert(at.doc_id);
        }
    }

    /// Whether any document of `segment` is allowed.
    pub(super) fn any_in(&self, segment: usize) -> bool {
        self.0.get(segment).is_some_and(|bits| bits.len() > 0)
    }

    pub(super) fn allows(&self, segment: usize, doc: DocId) -> bool {
        self.0
            .get(segment)
            .is_some_and(|bits| doc < bits.max_value() && bits.contains(doc))
    }
}

/// Collects with `top` only the documents `among` allows: a bit test per hit, where tantivy's
/// `FilterCollector` reads a fast field and searches the allowed ids for every hit.
pub(super) struct Only<C> {
    /// Shared with each segment's collector rather than copied into it.
    pub(super) among: Arc<Among>,
    pub(super) top: C,
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
pub(super) struct OnlyInSegment<S> {
    pub(super) among: Arc<Among>,
    pub(super) segment: usize,
    pub(super) top: S,
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
