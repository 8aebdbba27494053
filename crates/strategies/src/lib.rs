//! Generators of what a hostile or broken client may send, for the property tests of every
//! decoder of client input (the edge's cookies, params and bodies; the cart's coupon codes; the
//! text cleaning here). One place, so every decoder is tried against the same nasty characters.
//!
//! Only ever a dev-dependency: it must never be reachable from a server.
#![forbid(unsafe_code)]

use proptest::prelude::*;

/// Characters that break naive decoders: NUL and other controls, DEL, a C1 control, the bidi
/// embeddings, overrides and isolates, a BOM and zero-width joiner, a combining mark, a character
/// outside the BMP, and the separators of cookies, queries and JSON.
pub const NASTY_CHARS: &[char] = &[
    '\u{0}', '\u{1}', '\u{7}', '\u{8}', '\t', '\n', '\r', '\u{1b}', '\u{7f}', '\u{85}', '\u{9f}',
    '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}', '\u{feff}', '\u{200d}', '\u{301}', '😀', '₹', 'आ', ' ', '"', '\\', '%', ';', ',',
    '=', '&', '<', '>', '+', '-', '.', 'e', '0', '9', '{', '}', '[', ']', ':',
];

/// Text a browser may send: anything Unicode, mostly short, often stuffed with [`NASTY_CHARS`],
/// sometimes huge (beyond the edge's 64 KiB body limit).
pub fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => short_hostile_text(),
        1 => (nasty_or_any_char(), 10_000usize..70_000)
            .prop_map(|(c, n)| std::iter::repeat_n(c, n).collect()),
    ]
}

/// Like [`hostile_text`] but never huge: for the strings inside generated documents.
pub fn short_hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(nasty_or_any_char(), 0..64)
            .prop_map(|chars| chars.into_iter().collect()),
    ]
}

/// One character, a nasty one half of the time.
pub fn nasty_or_any_char() -> impl Strategy<Value = char> {
    prop_oneof![prop::sample::select(NASTY_CHARS), any::<char>()]
}

/// Bytes a client may send where bytes are allowed (a body, a header): anything, including
/// invalid UTF-8, or hostile text as its UTF-8.
pub fn hostile_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..256),
        hostile_text().prop_map(String::into_bytes),
    ]
}

/// A decimal number as people and programs write one: signs, exponents, leading zeros, padding,
/// special words (`NaN`, `inf`), or just a hostile string.
pub fn numberish_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| format!(" {n} ")),
        "[-+]?[0-9]{0,30}(\\.[0-9]{0,20})?([eE][-+]?[0-9]{1,4})?",
        prop::sample::select(vec![
            "NaN", "inf", "-inf", "infinity", "1e309", "-0", "", " "
        ])
        .prop_map(str::to_string),
        hostile_text(),
    ]
}

/// A JSON document of any shape whose strings are [`hostile_text`], nested a few levels.
pub fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        short_hostile_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(short_hostile_text(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Whether two numbers are equal but for the last few bits. serde_json (without its
/// `float_roundtrip` feature, which the workspace does not turn on) may read a decimal it wrote a
/// unit or two in the last place off, more after a second trip: nanometres on a coordinate, and
/// money is integer paise.
pub fn same_float(a: f64, b: f64) -> bool {
    // Relative, but never finer than the few units of a subnormal number.
    a == b || (a - b).abs() <= a.abs().max(b.abs()).max(f64::MIN_POSITIVE) * 1e-15
}

/// Whether two documents are equal, numbers compared with [`same_float`].
pub fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            matches!((x.as_f64(), y.as_f64()), (Some(x), Some(y)) if same_float(x, y))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same_json(vx, vy))
        }
        _ => a == b,
    }
}
