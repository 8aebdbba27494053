//! How text becomes terms and how a search string becomes a tantivy query: the `food` analyzer,
//! the synonym table, and the per-word query (exact, synonym, prefix-as-you-type and fuzzy
//! clauses). It never ranks by distance or rating; that is [`super::rank`]'s job.

use tantivy::Term;
use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};

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

/// One word against every field: any of its forms in any field.
fn word_query(fields: &[(Field, f32)], word: &str, as_prefix: bool) -> Box<dyn Query> {
    let mut clauses: Vec<Box<dyn Query>> = Vec::new();
    let distance = typo_distance(word);
    for &(field, weight) in fields {
        let term = Term::from_field_text(field, word);
        let boosted = |q: Box<dyn Query>, w: f32| -> Box<dyn Query> {
            Box::new(BoostQuery::new(q, weight * w))
        };
        clauses.push(boosted(
            Box::new(TermQuery::new(term.clone(), IndexRecordOption::WithFreqs)),
            EXACT,
        ));
        for synonym in synonyms(word) {
            let term = Term::from_field_text(field, synonym);
            clauses.push(boosted(
                Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)),
                SYNONYM,
            ));
        }
        if as_prefix {
            clauses.push(boosted(
                Box::new(FuzzyTermQuery::new_prefix(term.clone(), 0, true)),
                PREFIX,
            ));
        }
        if distance > 0 {
            clauses.push(boosted(
                Box::new(FuzzyTermQuery::new(term.clone(), distance, true)),
                TYPO,
            ));
            if as_prefix {
                // "biriy" as it is typed: a prefix of some word within one edit.
                clauses.push(boosted(
                    Box::new(FuzzyTermQuery::new_prefix(term, 1, true)),
                    TYPO_PREFIX,
                ));
            }
        }
    }
    Box::new(BooleanQuery::union(clauses))
}

/// Every word must match some field (in some form). The last word is also matched as a prefix
/// when `prefix_last` (the user may be in the middle of typing it); so is a lone word of a full
/// search, so "pan" finds paneer. `None` when the text has no words.
pub fn text_query(
    fields: &[(Field, f32)],
    words: &[String],
    prefix_last: bool,
) -> Option<Box<dyn Query>> {
    let last = words.len().checked_sub(1)?;
    let clauses = words
        .iter()
        .enumerate()
        .map(|(i, w)| (Occur::Must, word_query(fields, w, prefix_last && i == last)))
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
    fn short_words_get_no_typo_allowance() {
        assert_eq!(typo_distance("tea"), 0);
        assert_eq!(typo_distance("panner"), 1);
        assert_eq!(typo_distance("biriyani"), 2);
    }
}
