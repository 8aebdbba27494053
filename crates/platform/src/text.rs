//! Text as it may be kept: what arrives from a browser is free of the characters nobody types.
//!
//! [`clean`] removes control characters (NUL and the other C0 controls but tab and newline, DEL,
//! the C1 controls) and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
//! U+2066–U+2069). Nothing a customer means is lost: none of them can be typed into a form, and
//! each does harm when kept. NUL is refused by PostgreSQL in text, so a note carrying one would
//! fail to store; a right-to-left override makes a name or a note read differently on the
//! restaurant's screen than it was written (the "Trojan Source" trick). The edge cleans every
//! JSON string and query value with it before a handler sees them; services that store free text
//! clean it again, so a caller other than the edge cannot store them either.
//!
//! This module must never decide what a field means (lengths, allowed words): only which
//! characters no text may hold.

use std::borrow::Cow;

/// Whether `c` is removed by [`clean`].
pub fn is_unwanted(c: char) -> bool {
    match c {
        '\t' | '\n' => false,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

/// `text` without the characters of [`is_unwanted`]; borrowed when there were none, which is
/// nearly always.
pub fn clean(text: &str) -> Cow<'_, str> {
    if text.chars().any(is_unwanted) {
        Cow::Owned(text.chars().filter(|c| !is_unwanted(*c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// Free text a person typed for others to read (a name, an address line, a note for the
/// restaurant), as it is stored: [`clean`], without `&`, `<` and `>` (so it can never be markup
/// wherever it is shown), trimmed.
pub fn free_text(text: &str) -> String {
    clean(text)
        .chars()
        .filter(|c| !matches!(c, '&' | '<' | '>'))
        .collect::<String>()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_bidi_characters_are_removed() {
        assert_eq!(
            clean("Asha\u{0}\u{202e}gnp.exe\u{2066}\u{7}\u{85}\u{7f}"),
            "Ashagnp.exe"
        );
        assert_eq!(
            clean("a\u{202a}b\u{202b}c\u{202c}d\u{202d}e\u{2069}"),
            "abcde"
        );
        assert_eq!(clean("\r\n"), "\n");
    }

    #[test]
    fn ordinary_text_is_kept_as_it_is_without_a_copy() {
        for text in [
            "Ring the bell\n\tno onions",
            "आशा",
            "தமிழ்",
            "عربي",
            "₹49 — 😀",
            "",
        ] {
            assert!(
                matches!(clean(text), Cow::Borrowed(t) if t == text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn free_text_is_clean_without_markup_characters_and_trimmed() {
        assert_eq!(free_text("  <b>Asha</b> & co\u{0} "), "bAsha/b  co");
        assert_eq!(free_text("\u{202e} \u{0}"), "");
    }

    mod properties {
        use proptest::prelude::*;

        use super::super::*;
        use tiffin_strategies::hostile_text;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Whatever arrives, what is kept holds none of the removed characters, keeps every
            /// other one in order, and cleaning it again changes nothing.
            #[test]
            fn clean_removes_exactly_the_unwanted_characters(text in hostile_text()) {
                let cleaned = clean(&text);

                prop_assert!(!cleaned.chars().any(is_unwanted));
                let kept: String = text.chars().filter(|c| !is_unwanted(*c)).collect();
                prop_assert_eq!(cleaned.as_ref(), kept.as_str());
                prop_assert_eq!(matches!(cleaned, Cow::Borrowed(_)), kept == text);
                prop_assert!(matches!(clean(&cleaned), Cow::Borrowed(_)));
            }

            /// Free text is clean, cannot be markup, has no outer spaces, and is stored the same
            /// however many times it is cleaned.
            #[test]
            fn free_text_is_clean_unmarked_trimmed_and_stable(text in hostile_text()) {
                let stored = free_text(&text);

                prop_assert!(!stored.chars().any(|c| is_unwanted(c) || matches!(c, '&' | '<' | '>')));
                prop_assert_eq!(stored.trim(), stored.as_str());
                prop_assert!(stored.chars().count() <= text.chars().count());
                prop_assert_eq!(free_text(&stored), stored);
            }
        }
    }
}
