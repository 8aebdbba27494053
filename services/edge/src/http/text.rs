//! Text from the browser, cleaned once for every `/api` call: each query value and each string
//! of a JSON body loses the characters no text may keep ([`tiffin_platform::text::clean`]:
//! control characters such as NUL, bidirectional overrides) before any handler reads it. A name
//! or an order note carrying them is stored without them, instead of failing at PostgreSQL
//! (which refuses NUL in text) or reading differently on a restaurant's screen.
//!
//! A layer, not a step in each route, so no route can forget it and a new one has it already.
//! A request with nothing to clean, nearly every one, is handed on as it came: its bytes are
//! looked at, never parsed here. A body that is not JSON is handed on unchanged too, for the
//! route to refuse as it always does.

use std::borrow::Cow;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http::{Uri, header};
use serde_json::Value;
use tiffin_platform::text::{clean, is_unwanted};

use crate::http::body_deadline;
use crate::http::error::ApiError;
use crate::http::messages;

/// Middleware; its state is the largest body the `/api` routes accept.
pub async fn middleware(State(body_limit): State<usize>, request: Request, next: Next) -> Response {
    match cleaned(request, body_limit).await {
        Ok(request) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

async fn cleaned(request: Request, body_limit: usize) -> Result<Request, ApiError> {
    let (mut parts, body) = request.into_parts();
    if let Some(query) = parts.uri.query().and_then(clean_query) {
        parts.uri = with_query(&parts.uri, &query)?;
    }
    if parts.method.is_safe() {
        return Ok(Request::from_parts(parts, body));
    }
    let bytes = axum::body::to_bytes(body, body_limit).await.map_err(|e| {
        if body_deadline::is_timeout(&e) {
            ApiError::RequestTimeout
        } else {
            ApiError::TooLarge
        }
    })?;
    let bytes = match clean_json(&bytes) {
        Some(json) => {
            parts.headers.remove(header::CONTENT_LENGTH);
            Bytes::from(json)
        }
        None => bytes,
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// The query with every name and value cleaned, or `None` when there was nothing to clean.
fn clean_query(query: &str) -> Option<String> {
    // Every unwanted character is outside printable ASCII, so it can only arrive percent-encoded.
    if !query.contains('%') {
        return None;
    }
    let pairs: Vec<(Cow<str>, Cow<str>)> = form_urlencoded::parse(query.as_bytes()).collect();
    if !pairs
        .iter()
        .any(|(name, value)| name.chars().chain(value.chars()).any(is_unwanted))
    {
        return None;
    }
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (name, value) in &pairs {
        out.append_pair(&clean(name), &clean(value));
    }
    Some(out.finish())
}

fn with_query(uri: &Uri, query: &str) -> Result<Uri, ApiError> {
    let path_and_query = format!("{}?{query}", uri.path());
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(
        path_and_query
            .parse()
            .map_err(|_| ApiError::BadRequest(messages::BAD_REQUEST))?,
    );
    Uri::from_parts(parts).map_err(|_| ApiError::BadRequest(messages::BAD_REQUEST))
}

/// The JSON body written again with every string (object keys too) cleaned, or `None` when
/// nothing needed it or it is not JSON.
fn clean_json(body: &[u8]) -> Option<Vec<u8>> {
    if !may_hold_unwanted(body) {
        return None;
    }
    let mut value: Value = serde_json::from_slice(body).ok()?;
    if !clean_value(&mut value) {
        return None;
    }
    serde_json::to_vec(&value).ok()
}

/// Whether the JSON text could hold an unwanted character: as an escape (`\u…`, or the short
/// escapes of backspace, form feed and carriage return, `\b` `\f` `\r`, which `JSON.stringify`
/// writes), or written out (DEL, the UTF-8 of a C1 control or of a bidi embedding, override or
/// isolate). A raw C0 control inside a string is not JSON at all. False for nearly every body,
/// which is then left alone without being parsed.
fn may_hold_unwanted(body: &[u8]) -> bool {
    body.windows(2)
        .any(|w| w[0] == b'\\' && matches!(w[1], b'u' | b'b' | b'f' | b'r'))
        || body.contains(&0x7f)
        || body
            .windows(2)
            .any(|w| w[0] == 0xc2 && (0x80..=0x9f).contains(&w[1]))
        || body.windows(3).any(|w| {
            w[0] == 0xe2
                && ((w[1] == 0x80 && (0xaa..=0xae).contains(&w[2]))
                    || (w[1] == 0x81 && (0xa6..=0xa9).contains(&w[2])))
        })
}

/// Cleans every string in `value`; whether anything changed.
fn clean_value(value: &mut Value) -> bool {
    match value {
        Value::String(text) => match clean(text) {
            Cow::Borrowed(_) => false,
            Cow::Owned(cleaned) => {
                *text = cleaned;
                true
            }
        },
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, item| clean_value(item) | changed),
        Value::Object(map) => {
            let mut changed = false;
            if map.keys().any(|k| k.chars().any(is_unwanted)) {
                let entries = std::mem::take(map);
                for (key, item) in entries {
                    map.insert(clean(&key).into_owned(), item);
                }
                changed = true;
            }
            map.values_mut()
                .fold(changed, |changed, item| clean_value(item) | changed)
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_anywhere_in_a_body_are_cleaned() {
        let body = br#"{"name":"Asha\u0000\u202e","items":[{"note":"no\u0007 onions\n"}],"n":1.5,"ok":true}"#;

        let cleaned: Value = serde_json::from_slice(&clean_json(body).unwrap()).unwrap();

        assert_eq!(
            cleaned,
            json!({ "name": "Asha", "items": [{ "note": "no onions\n" }], "n": 1.5, "ok": true })
        );
    }

    #[test]
    fn short_escapes_of_controls_are_cleaned_too() {
        let body = br#"{"note":"ring\r\nthe\b bell\f\t"}"#;

        let cleaned: Value = serde_json::from_slice(&clean_json(body).unwrap()).unwrap();

        assert_eq!(cleaned, json!({ "note": "ring\nthe bell\t" }));
    }

    #[test]
    fn written_out_bidi_and_c1_characters_are_cleaned_too() {
        let body = "{\"note\":\"ring\u{202e}\u{85}\u{7f} bell\"}".as_bytes();

        let cleaned: Value = serde_json::from_slice(&clean_json(body).unwrap()).unwrap();

        assert_eq!(cleaned, json!({ "note": "ring bell" }));
    }

    #[test]
    fn a_body_with_nothing_to_clean_or_no_json_is_left_as_it_came() {
        for body in [
            br#"{"name":"Asha","note":"\u20b9 49 \u00e9"}"#.as_slice(),
            "{\"name\":\"आशा ₹49 😀\"}".as_bytes(),
            b"not json \\u0000",
            b"",
        ] {
            assert_eq!(
                clean_json(body),
                None,
                "{:?}",
                String::from_utf8_lossy(body)
            );
        }
    }

    #[test]
    fn query_values_are_cleaned_and_others_kept() {
        assert_eq!(clean_query("lat=12.9&lng=77.6"), None);
        assert_eq!(clean_query("q=pan%20eer"), None);
        let cleaned = clean_query("q=bir%00yani%E2%80%AE&lat=12.9").unwrap();
        let pairs: Vec<(String, String)> = form_urlencoded::parse(cleaned.as_bytes())
            .into_owned()
            .collect();
        assert_eq!(
            pairs,
            vec![
                ("q".to_string(), "biryani".to_string()),
                ("lat".to_string(), "12.9".to_string())
            ]
        );
    }

    #[test]
    fn a_cleaned_query_keeps_its_path() {
        let uri: Uri = "/api/search?q=a%00b".parse().unwrap();

        let uri = with_query(&uri, &clean_query(uri.query().unwrap()).unwrap()).unwrap();

        assert_eq!(uri.path(), "/api/search");
        assert_eq!(uri.query(), Some("q=ab"));
    }

    mod properties {
        use proptest::prelude::*;
        use tiffin_strategies::{hostile_bytes, json_value, same_json, short_hostile_text};

        use super::super::*;

        /// Whether any string in the document (keys too) holds a character no text may keep.
        fn holds_unwanted(value: &Value) -> bool {
            match value {
                Value::String(s) => s.chars().any(is_unwanted),
                Value::Array(items) => items.iter().any(holds_unwanted),
                Value::Object(map) => map
                    .iter()
                    .any(|(k, v)| k.chars().any(is_unwanted) || holds_unwanted(v)),
                _ => false,
            }
        }

        /// The document with every string cleaned, built independently of `clean_value`.
        fn cleaned_copy(value: &Value) -> Value {
            match value {
                Value::String(s) => Value::String(clean(s).into_owned()),
                Value::Array(items) => Value::Array(items.iter().map(cleaned_copy).collect()),
                Value::Object(map) => Value::Object(
                    map.iter()
                        .map(|(k, v)| (clean(k).into_owned(), cleaned_copy(v)))
                        .collect(),
                ),
                other => other.clone(),
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// A JSON body reaches the handler with every string cleaned and nothing else
            /// changed, whether written with escapes or with the characters themselves; the
            /// shortcut that skips parsing never lets an unwanted character through.
            #[test]
            fn a_json_body_arrives_cleaned(document in json_value(), escape_all: bool) {
                let written = if escape_all {
                    // Every non-ASCII character as `\u` escapes, as some clients write JSON.
                    let mut out = String::new();
                    for c in serde_json::to_string(&document).unwrap().chars() {
                        if c.is_ascii() {
                            out.push(c);
                        } else {
                            for unit in c.encode_utf16(&mut [0; 2]) {
                                out.push_str(&format!("\\u{unit:04x}"));
                            }
                        }
                    }
                    out.into_bytes()
                } else {
                    serde_json::to_vec(&document).unwrap()
                };

                let arrived: Value = match clean_json(&written) {
                    Some(cleaned) => serde_json::from_slice(&cleaned).unwrap(),
                    None => {
                        prop_assert!(!holds_unwanted(&document));
                        serde_json::from_slice(&written).unwrap()
                    }
                };

                prop_assert!(!holds_unwanted(&arrived));
                let expected = cleaned_copy(&document);
                prop_assert!(same_json(&arrived, &expected), "{} arrived as {}", expected, arrived);
            }

            /// A body that is not JSON is handed on unchanged, whatever it holds.
            #[test]
            fn a_body_that_is_not_json_is_left_alone(body in hostile_bytes()) {
                if serde_json::from_slice::<Value>(&body).is_err() {
                    prop_assert_eq!(clean_json(&body), None);
                }
            }

            /// Every query value and name a handler reads is clean and otherwise as sent, and
            /// the path is kept.
            #[test]
            fn a_query_arrives_cleaned(
                pairs in prop::collection::vec((short_hostile_text(), short_hostile_text()), 0..5),
                raw in hostile_bytes(),
            ) {
                let mut query = form_urlencoded::Serializer::new(String::new());
                for (name, value) in &pairs {
                    query.append_pair(name, value);
                }
                let query = query.finish();
                let uri: Uri = format!("/api/search?{query}").parse().unwrap();

                let arrived = match clean_query(&query) {
                    Some(cleaned) => with_query(&uri, &cleaned).unwrap(),
                    None => uri,
                };

                prop_assert_eq!(arrived.path(), "/api/search");
                let read: Vec<(String, String)> =
                    form_urlencoded::parse(arrived.query().unwrap_or_default().as_bytes()).into_owned().collect();
                let expected: Vec<(String, String)> = pairs
                    .iter()
                    .map(|(n, v)| (clean(n).into_owned(), clean(v).into_owned()))
                    .collect();
                prop_assert_eq!(read, expected);

                // Any query at all: cleaned to one a URI can carry, or left as it came.
                if let Ok(raw) = std::str::from_utf8(&raw)
                    && let Some(cleaned) = clean_query(raw)
                {
                    let read = form_urlencoded::parse(cleaned.as_bytes());
                    prop_assert!(read.clone().all(|(n, v)| !n.chars().chain(v.chars()).any(is_unwanted)));
                    prop_assert!(with_query(&"/x".parse().unwrap(), &cleaned).is_ok());
                }
            }
        }
    }
}
