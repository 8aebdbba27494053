//! How text becomes terms and how a search string becomes a tantivy query: the `food` analyzer,
//! the synonym table, and the per-word query (exact, synonym, prefix-as-you-type and fuzzy
//! clauses). It never ranks by distance or rating; that is [`super::rank`]'s job.

use std::sync::{Arc, Mutex};

use tantivy::index::SegmentId;
use tantivy::query::{
    AutomatonWeight, BitSetDocSet, BooleanQuery, BoostQuery, ConstScorer, DfaWrapper,
    EnableScoring, Explanation, FuzzyTermQuery, Occur, Query, Scorer, TermQuery, Weight,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};
use tantivy::{BitSet, DocId, DocSet, Score, SegmentReader, Term};
use tantivy_fst::Automaton;

/// The analyzer's registered name, used by every text field of the search indexes.
pub const ANALYZER: &str = "food";

/// Most words of a search string that are used (the rest are ignored): bounds a query's cost.
pub const MAX_WORDS: usize = 6;
/// Longest search string read, in characters.
pub const MAX_QUERY_CHARS: usize = 100;

/// Splits on anything that is not a letter or digit, lower-cases, folds accents ("Crème" →
/// "creme") and drops absurdly long tokens. No stemming: food names are mostly Indian words an
/// English stemmer would mangle; plurals are covered by prefix matching and the synonym table.
pub fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// The words of `text` as the index sees them, at most [`MAX_WORDS`].
pub fn words(text: &str) -> Vec<String> {
    let text: String = text.chars().take(MAX_QUERY_CHARS).collect();
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(&text);
    let mut words = Vec::new();
    while let Some(token) = stream.next() {
        if words.len() == MAX_WORDS {
            break;
        }
        words.push(token.text.clone());
    }
    words
}

/// Groups of words that mean the same dish or cuisine: a word of a group also finds every other
/// word of it. Spellings that are more than a typo apart, regional names and plurals that prefix
/// matching cannot reach. Documented in `docs/search.md`.
pub const SYNONYMS: &[&[&str]] = &[
    &["biryani", "biriyani", "biriani", "briyani", "biryanis"],
    &["paneer", "panir", "paner"],
    &["dosa", "dosai", "dose", "dosas"],
    &["idli", "idly", "idlis"],
    &["vada", "vadai", "wada"],
    &["kebab", "kebabs", "kabab", "kababs", "kabob", "kebap"],
    &["momo", "momos", "dumpling", "dumplings"],
    &["pizza", "pizzas"],
    &["burger", "burgers"],
    &["dessert", "desserts", "sweet", "sweets", "mithai"],
    &["chai", "tea"],
    &["coffee", "kaapi", "kapi"],
    &["shake", "shakes", "milkshake", "milkshakes"],
    &["roll", "rolls", "wrap", "wraps", "kathi", "frankie"],
    &["noodle", "noodles", "chowmein"],
    &["curd", "dahi", "yogurt", "yoghurt"],
    &["prawn", "prawns", "shrimp", "shrimps"],
    &["chicken", "murgh", "murg"],
    &["mutton", "gosht", "lamb"],
    &["fish", "machli", "macher"],
    &["pulao", "pulav", "pilaf"],
    &["paratha", "parotta", "parantha", "porotta", "parathas"],
    &["roti", "chapati", "chapathi", "phulka"],
    &["veg", "vegetarian", "veggie"],
    &["fries", "chips"],
    &["shawarma", "shawarmas", "shwarma"],
];

/// The other words of `word`'s synonym group (empty when it has none).
pub fn synonyms(word: &str) -> impl Iterator<Item = &'static str> + '_ {
    SYNONYMS
        .iter()
        .filter(move |group| group.contains(&word))
        .flat_map(|group| group.iter().copied())
        .filter(move |w| *w != word)
}

/// How many edits a word may be from a term and still match: none for short words (too many
/// false friends), one from 4 letters ("panner" → paneer), two from 8 ("biriyanii").
pub fn typo_distance(word: &str) -> u8 {
    match word.chars().count() {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// Clause weights, relative: an exact word beats a synonym beats a prefix beats a typo.
const EXACT: f32 = 4.0;
const SYNONYM: f32 = 3.0;
const PREFIX: f32 = 2.0;
const TYPO: f32 = 1.0;
const TYPO_PREFIX: f32 = 0.5;

/// A search string's words with what matching each needs, prepared once per search and shared
/// by every field of every index the search reads: a keystroke's typo automata are built once,
/// not once per field and index (building them was a tenth of a suggestion's cost).
pub struct Prepared {
    words: Vec<Word>,
}

/// One word of a [`Prepared`] search.
struct Word {
    text: String,
    synonyms: Vec<&'static str>,
    /// The word as the start of a term, when it may be the one being typed.
    prefix: Option<Arc<Prefix>>,
    /// Terms within [`typo_distance`] edits of the word.
    typo: Option<Arc<DfaWrapper>>,
    /// Terms starting with something within one edit of the word ("biriy" as it is typed).
    typo_prefix: Option<Arc<DfaWrapper>>,
}

/// Prepares `words` (from [`words`]); the last is also matched as a prefix when `prefix_last`.
pub fn prepare(words: &[String], prefix_last: bool) -> tantivy::Result<Prepared> {
    let last = words.len().saturating_sub(1);
    let words = words
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let as_prefix = prefix_last && i == last;
            let distance = typo_distance(text);
            let typo = (distance > 0)
                .then(|| levenshtein(text, distance, false))
                .transpose()?;
            let typo_prefix = (distance > 0 && as_prefix)
                .then(|| levenshtein(text, 1, true))
                .transpose()?;
            Ok(Word {
                text: text.clone(),
                synonyms: synonyms(text).collect(),
                prefix: as_prefix.then(|| Arc::new(Prefix(text.as_bytes().to_vec()))),
                typo,
                typo_prefix,
            })
        })
        .collect::<tantivy::Result<_>>()?;
    Ok(Prepared { words })
}

/// tantivy's Levenshtein automaton for `word` (transpositions cost one edit), as its fuzzy term
/// query builds it; the field a term names plays no part in the automaton.
fn levenshtein(word: &str, distance: u8, prefix: bool) -> tantivy::Result<Arc<DfaWrapper>> {
    let term = Term::from_field_text(Field::from_field_id(0), word);
    let query = if prefix {
        FuzzyTermQuery::new_prefix(term, distance, true)
    } else {
        FuzzyTermQuery::new(term, distance, true)
    };
    Ok(Arc::new(query.automaton()?))
}

/// Matches the terms that start with the given bytes: the prefix clause without a Levenshtein
/// automaton of distance 0 to build for every keystroke.
#[derive(Debug)]
pub struct Prefix(Vec<u8>);

impl Automaton for Prefix {
    /// How many of the prefix's bytes have been read; `None` once one differed.
    type State = Option<usize>;

    fn start(&self) -> Self::State {
        Some(0)
    }

    fn is_match(&self, state: &Self::State) -> bool {
        *state == Some(self.0.len())
    }

    fn can_match(&self, state: &Self::State) -> bool {
        state.is_some()
    }

    fn will_always_match(&self, state: &Self::State) -> bool {
        self.is_match(state)
    }

    fn accept(&self, state: &Self::State, byte: u8) -> Self::State {
        match *state {
            Some(read) if read == self.0.len() => Some(read),
            Some(read) if self.0.get(read) == Some(&byte) => Some(read + 1),
            _ => None,
        }
    }
}

/// Terms of one field that an automaton built beforehand accepts (tantivy's automaton weight,
/// as its fuzzy term query uses, over a shared automaton).
struct Matching<A> {
    field: Field,
    automaton: Arc<A>,
}

impl<A> Clone for Matching<A> {
    fn clone(&self) -> Self {
        Self {
            field: self.field,
            automaton: self.automaton.clone(),
        }
    }
}

impl<A> std::fmt::Debug for Matching<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matching")
            .field("field", &self.field)
            .finish_non_exhaustive()
    }
}

impl<A> Query for Matching<A>
where
    A: Automaton + Send + Sync + 'static,
    A::State: Clone,
{
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(AutomatonWeight::<A>::new(
            self.field,
            self.automaton.clone(),
        )))
    }
}

fn matching<A>(field: Field, automaton: &Arc<A>) -> Box<dyn Query>
where
    A: Automaton + Send + Sync + 'static,
    A::State: Clone,
{
    Box::new(Matching {
        field,
        automaton: automaton.clone(),
    })
}

/// Which of a word's spelling clauses a [`Spelled`] query is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spelling {
    Prefix = 0,
    Typo = 1,
    TypoPrefix = 2,
}

/// The documents of one segment having a term of each [`Spelling`], by the spelling's number.
type DocsBySpelling = [Option<BitSet>; 3];

/// The prefix, typo and typo-prefix clauses of one word in one field match overlapping terms (a
/// term starting with the word, or within a typo of it, also starts with something within a typo
/// of it). The first of the three asked for a segment's documents walks the term dictionary once,
/// with an automaton accepting what either typo automaton does, reads each matched term's
/// postings once and sorts its documents into every clause whose automaton accepts the term; the
/// other two take theirs. Each clause still scores as its own constant-score clause: the query
/// and its scores are those of three separate automaton clauses, at about a third of the walks.
struct SharedWalk {
    field: Field,
    prefix: Arc<Prefix>,
    typo: Arc<DfaWrapper>,
    typo_prefix: Arc<DfaWrapper>,
    /// The segment last walked, with the document sets not taken yet.
    walked: Mutex<Option<(SegmentId, DocsBySpelling)>>,
}

impl std::fmt::Debug for SharedWalk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedWalk")
            .field("field", &self.field)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl SharedWalk {
    /// `spelling`'s documents in the segment `reader` reads.
    fn take(&self, reader: &SegmentReader, spelling: Spelling) -> tantivy::Result<BitSet> {
        let segment = reader.segment_id();
        let mut walked = self
            .walked
            .lock()
            .map_err(|_| tantivy::TantivyError::InternalError("spelling walk poisoned".into()))?;
        if let Some((at, sets)) = walked.as_mut()
            && *at == segment
            && let Some(set) = sets[spelling as usize].take()
        {
            return Ok(set);
        }
        let mut sets = self.walk(reader)?;
        let set = sets[spelling as usize]
            .take()
            .unwrap_or_else(|| BitSet::with_max_value(reader.max_doc()));
        *walked = Some((segment, sets));
        Ok(set)
    }

    fn walk(&self, reader: &SegmentReader) -> tantivy::Result<DocsBySpelling> {
        let max_doc = reader.max_doc();
        let mut sets: [BitSet; 3] = std::array::from_fn(|_| BitSet::with_max_value(max_doc));
        let inverted_index = reader.inverted_index(self.field)?;
        let either = Either(&*self.typo_prefix, &*self.typo);
        let mut terms = inverted_index.terms().search(either).into_stream()?;
        while terms.advance() {
            let term = terms.key();
            let accepted = [
                accepts(&*self.prefix, term),
                accepts(&*self.typo, term),
                accepts(&*self.typo_prefix, term),
            ];
            let mut postings = inverted_index
                .read_block_postings_from_terminfo(terms.value(), IndexRecordOption::Basic)?;
            loop {
                let docs = postings.docs();
                if docs.is_empty() {
                    break;
                }
                for (set, _) in sets.iter_mut().zip(accepted).filter(|(_, yes)| *yes) {
                    for &doc in docs {
                        set.insert(doc);
                    }
                }
                postings.advance();
            }
        }
        Ok(sets.map(Some))
    }
}

/// Whether `automaton` accepts the whole of `term`.
fn accepts<A: Automaton>(automaton: &A, term: &[u8]) -> bool {
    let mut state = automaton.start();
    for &byte in term {
        if !automaton.can_match(&state) {
            return false;
        }
        state = automaton.accept(&state, byte);
    }
    automaton.is_match(&state)
}

/// Accepts what either automaton accepts.
struct Either<'a, A, B>(&'a A, &'a B);

impl<A: Automaton, B: Automaton> Automaton for Either<'_, A, B> {
    type State = (A::State, B::State);

    fn start(&self) -> Self::State {
        (self.0.start(), self.1.start())
    }

    fn is_match(&self, (a, b): &Self::State) -> bool {
        self.0.is_match(a) || self.1.is_match(b)
    }

    fn can_match(&self, (a, b): &Self::State) -> bool {
        self.0.can_match(a) || self.1.can_match(b)
    }

    fn accept(&self, (a, b): &Self::State, byte: u8) -> Self::State {
        (self.0.accept(a, byte), self.1.accept(b, byte))
    }
}

/// One spelling clause of a [`SharedWalk`]: a constant score for the documents having a term
/// of that spelling.
#[derive(Debug, Clone)]
struct Spelled {
    walk: Arc<SharedWalk>,
    spelling: Spelling,
}

impl Query for Spelled {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for Spelled {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let docs = self.walk.take(reader, self.spelling)?;
        Ok(Box::new(ConstScorer::new(BitSetDocSet::from(docs), boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) == doc {
            Ok(Explanation::new("spelling", scorer.score()))
        } else {
            Err(tantivy::TantivyError::InvalidArgument(format!(
                "document {doc} does not match"
            )))
        }
    }
}

/// One word against every field: any of its forms in any field.
fn word_query(fields: &[(Field, f32)], word: &Word) -> Box<dyn Query> {
    let mut clauses: Vec<Box<dyn Query>> = Vec::new();
    for &(field, weight) in fields {
        let boosted = |q: Box<dyn Query>, w: f32| -> Box<dyn Query> {
            Box::new(BoostQuery::new(q, weight * w))
        };
        clauses.push(boosted(
            Box::new(TermQuery::new(
                Term::from_field_text(field, &word.text),
                IndexRecordOption::WithFreqs,
            )),
            EXACT,
        ));
        for synonym in &word.synonyms {
            let term = Term::from_field_text(field, synonym);
            clauses.push(boosted(
                Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)),
                SYNONYM,
            ));
        }
        if let (Some(prefix), Some(typo), Some(typo_prefix)) =
            (&word.prefix, &word.typo, &word.typo_prefix)
        {
            let walk = Arc::new(SharedWalk {
                field,
                prefix: prefix.clone(),
                typo: typo.clone(),
                typo_prefix: typo_prefix.clone(),
                walked: Mutex::new(None),
            });
            let spelled = |spelling| -> Box<dyn Query> {
                Box::new(Spelled {
                    walk: walk.clone(),
                    spelling,
                })
            };
            clauses.push(boosted(spelled(Spelling::Prefix), PREFIX));
            clauses.push(boosted(spelled(Spelling::Typo), TYPO));
            clauses.push(boosted(spelled(Spelling::TypoPrefix), TYPO_PREFIX));
            continue;
        }
        if let Some(prefix) = &word.prefix {
            clauses.push(boosted(matching(field, prefix), PREFIX));
        }
        if let Some(typo) = &word.typo {
            clauses.push(boosted(matching(field, typo), TYPO));
        }
        if let Some(typo_prefix) = &word.typo_prefix {
            clauses.push(boosted(matching(field, typo_prefix), TYPO_PREFIX));
        }
    }
    Box::new(BooleanQuery::union(clauses))
}

/// Every word must match some field (in some form); the last word is also matched as a prefix
/// when it was prepared so (the user may be in the middle of typing it; a lone word of a full
/// search too, so "pan" finds paneer). `None` when the text has no words.
pub fn text_query(fields: &[(Field, f32)], prepared: &Prepared) -> Option<Box<dyn Query>> {
    if prepared.words.is_empty() {
        return None;
    }
    let clauses = prepared
        .words
        .iter()
        .map(|w| (Occur::Must, word_query(fields, w)))
        .collect();
    Some(Box::new(BooleanQuery::new(clauses)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_cased_folded_split_on_punctuation_and_bounded() {
        assert_eq!(
            words("  Chicken-BIRYANI, Crème!"),
            ["chicken", "biryani", "creme"]
        );
        assert_eq!(words("a b c d e f g h").len(), MAX_WORDS);
        assert!(words(" ,.; ").is_empty());
    }

    #[test]
    fn synonyms_are_the_rest_of_the_group_and_only_that() {
        let found: Vec<_> = synonyms("panir").collect();
        assert!(found.contains(&"paneer"));
        assert!(!found.contains(&"panir"));
        assert_eq!(synonyms("pasta").count(), 0);
        // Every word belongs to one group at most, so expansion is unambiguous.
        let mut seen = std::collections::HashSet::new();
        for w in SYNONYMS.iter().flat_map(|g| g.iter()) {
            assert!(seen.insert(*w), "{w} is in two groups");
            assert_eq!(words(w), [w.to_string()], "{w} must be one analysed word");
        }
    }

    #[test]
    fn a_prefix_accepts_the_terms_that_start_with_it_and_only_those() {
        let prefix = Prefix(b"bir".to_vec());
        for term in ["bir", "biryani", "biriyani"] {
            assert!(accepts(&prefix, term.as_bytes()), "{term}");
        }
        for term in ["bi", "bri", "abir", "dosa", ""] {
            assert!(!accepts(&prefix, term.as_bytes()), "{term}");
        }
    }

    #[test]
    fn a_prepared_word_gets_the_clauses_its_length_and_place_allow() {
        let words = words("chicken pan");
        let prepared = prepare(&words, true).unwrap();
        let [chicken, pan] = &prepared.words[..] else {
            panic!("two words");
        };
        // Not the last word: whole or within a typo, never a prefix.
        assert!(chicken.prefix.is_none() && chicken.typo_prefix.is_none());
        assert!(chicken.typo.is_some());
        assert!(chicken.synonyms.contains(&"murgh"));
        // The word being typed: a prefix; too short for a typo.
        assert!(pan.prefix.is_some() && pan.typo.is_none() && pan.typo_prefix.is_none());
        let prepared = prepare(&words, false).unwrap();
        assert!(prepared.words.iter().all(|w| w.prefix.is_none()));
    }

    #[test]
    fn short_words_get_no_typo_allowance() {
        assert_eq!(typo_distance("tea"), 0);
        assert_eq!(typo_distance("panner"), 1);
        assert_eq!(typo_distance("biriyani"), 2);
    }
}
