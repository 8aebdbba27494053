//! Menu search: the query is split on whitespace, and an item matches when every word
//! is, case-insensitively, the start of a word of the item's name.
//!
//! Words are compared as plain text, never compiled into a pattern, so a query of `(`, `.*`, `[`
//! or `c++` is safe and matches only those characters. Case is folded with Unicode lower-casing,
//! on the query and on the name alike.
//!
//! Where a word of the name starts: at the beginning of the name, after whitespace, and where a
//! letter or digit follows a character that is neither (so `half` finds `Biryani (Half)` and
//! `masala` finds `Tikka-Masala`, while `(half` still finds it too, from the whitespace).

/// Longest query accepted, in characters; a longer one is refused rather than scanned.
pub const MAX_QUERY_CHARS: usize = 200;

/// A parsed query: its words, lower-cased. No words (a blank query) matches everything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    words: Vec<String>,
}

impl Query {
    /// Splits `text` on whitespace and lower-cases each word.
    pub fn parse(text: &str) -> Self {
        Self {
            words: text.split_whitespace().map(str::to_lowercase).collect(),
        }
    }

    /// Whether every word of the query starts a word of `name`. Give it the name already
    /// lower-cased ([`fold`]), as the cache keeps it, so matching allocates nothing.
    pub fn matches(&self, folded_name: &str) -> bool {
        self.words.iter().all(|word| {
            word_starts(folded_name).any(|start| folded_name[start..].starts_with(word.as_str()))
        })
    }
}

/// The form of a name that [`Query::matches`] compares against.
pub fn fold(name: &str) -> String {
    name.to_lowercase()
}

/// Byte offsets in `name` where a word starts (see the module comment).
fn word_starts(name: &str) -> impl Iterator<Item = usize> + '_ {
    let mut previous: Option<char> = None;
    name.char_indices().filter_map(move |(i, c)| {
        let starts = match previous {
            None => !c.is_whitespace(),
            Some(p) if p.is_whitespace() => !c.is_whitespace(),
            Some(p) => c.is_alphanumeric() && !p.is_alphanumeric(),
        };
        previous = Some(c);
        starts.then_some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finds(query: &str, name: &str) -> bool {
        Query::parse(query).matches(&fold(name))
    }

    #[test]
    fn every_word_must_start_a_word_of_the_name() {
        assert!(finds("chi bir", "Chicken Dum Biryani"));
        assert!(finds("bir chi", "Chicken Dum Biryani"), "any order");
        assert!(finds("dum", "Chicken Dum Biryani"));
        assert!(
            !finds("chi paneer", "Chicken Dum Biryani"),
            "one word missing is no match"
        );
        assert!(
            !finds("icken", "Chicken Dum Biryani"),
            "inside a word is not the start of one"
        );
        assert!(
            !finds("chickens", "Chicken Dum Biryani"),
            "longer than the word"
        );
    }

    #[test]
    fn case_does_not_matter_on_either_side() {
        assert!(finds("CHICKEN", "chicken tikka"));
        assert!(finds("tikka", "CHICKEN TIKKA"));
    }

    #[test]
    fn whitespace_of_any_kind_and_amount_splits_the_query() {
        assert!(finds("  chi\t\tbir \n", "Chicken Dum Biryani"));
    }

    #[test]
    fn a_blank_query_matches_everything() {
        assert!(finds("", "Anything"));
        assert!(finds("   ", "Anything"));
    }

    #[test]
    fn words_start_after_punctuation_as_well_as_spaces() {
        assert!(finds("half", "Chicken Biryani (Half)"));
        assert!(finds("(half", "Chicken Biryani (Half)"));
        assert!(finds("masala", "Paneer Tikka-Masala"));
        assert!(finds("tikka-mas", "Paneer Tikka-Masala"));
        assert!(finds("65", "Chicken-65"));
    }

    #[test]
    fn regex_metacharacters_are_plain_characters() {
        assert!(!finds(".*", "Chicken Dum Biryani"));
        assert!(!finds("(", "Chicken Dum Biryani"));
        assert!(!finds("[a-z]", "Chicken Dum Biryani"));
        assert!(!finds("chi|paneer", "Chicken Dum Biryani"));
        assert!(!finds("^chi", "Chicken Dum Biryani"));
        assert!(!finds("\\b", "Chicken Dum Biryani"));
        assert!(finds("c++", "C++ Combo Meal"));
        assert!(finds("(half)", "Biryani (Half)"));
        assert!(finds("$5", "Lunch $5 Deal"));
        assert!(finds("[new]", "[New] Momos"));
        assert!(!finds("c+", "Cheese Pizza"), "+ is not a quantifier");
    }

    #[test]
    fn unicode_names_and_queries_fold_case() {
        assert!(finds("çay", "ÇAY Latte"));
        assert!(finds("ÉCLAIR", "Chocolate éclair"));
        assert!(finds("पनीर", "पनीर टिक्का"));
        assert!(finds("टिक", "पनीर टिक्का"));
        assert!(!finds("नीर", "पनीर टिक्का"));
        assert!(finds("crème", "Crème Brûlée"));
        assert!(
            !finds("creme", "Crème Brûlée"),
            "accents are letters, not decoration"
        );
    }

    #[test]
    fn a_query_that_changes_length_when_lower_cased_is_safe() {
        // 'İ' lower-cases to two characters; matching must neither panic nor misalign.
        assert!(finds("i̇stanbul", "İstanbul Kebab"));
        assert!(finds("İSTANBUL", "İstanbul Kebab"));
        assert!(!finds("kebabİ", "İstanbul Kebab"));
    }
}
