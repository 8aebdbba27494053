//! An order id as the browser sends it, in a query, a path or a body, and the one answer for an id
//! that names no order of the caller's. Every orders route reads ids through here, so a malformed
//! id, an unknown one and another customer's are indistinguishable: 404 / 404 `Order not found`.

use serde::Deserialize;

use crate::http::error::ApiError;

/// NOT_FOUND wording for an unknown order (or another user's).
pub const ORDER_NOT_FOUND: &str = "Order not found";

/// An order id in a JSON body: a string, or a number.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum OrderId {
    Text(String),
    Number(u64),
}

impl OrderId {
    /// The id, or 404 when it cannot name an order (no number can be another's order either).
    pub fn parse(self) -> Result<u64, ApiError> {
        match self {
            OrderId::Number(n) => Ok(n),
            OrderId::Text(t) => parse(&t),
        }
    }
}

/// An id from a query or a path; absent or not a number is 404 / 404 `Order not found`.
pub fn parse(text: &str) -> Result<u64, ApiError> {
    text.trim()
        .parse()
        .map_err(|_| ApiError::NotFound(ORDER_NOT_FOUND))
}

/// A service's NOT_FOUND for an order, in the contract's words; every other failure as it is.
pub fn not_found(status: tonic::Status) -> ApiError {
    ApiError::from(status).not_found_as(ORDER_NOT_FOUND)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_a_number_as_text_or_json_and_anything_else_names_no_order() {
        assert_eq!(parse(" 42 ").unwrap(), 42);
        assert_eq!(OrderId::Number(7).parse().unwrap(), 7);
        assert_eq!(OrderId::Text("9".into()).parse().unwrap(), 9);
        for bad in ["", "abc", "-1", "1.5"] {
            let error = parse(bad).unwrap_err();
            assert_eq!(
                (error.outcome().http.as_u16(), error.outcome().message),
                (404, ORDER_NOT_FOUND.into()),
                "{bad:?}"
            );
        }
    }

    mod properties {
        use proptest::prelude::*;
        use tiffin_strategies::{json_value, numberish_text};

        use super::super::*;
        use crate::http::error::seen;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            /// Any text names an order by its number or is 404 / 404 `Order not found`; every
            /// number written (padded or not) reads back.
            #[test]
            fn any_text_is_an_order_number_or_not_found(text in numberish_text(), n in any::<u64>()) {
                match parse(&text) {
                    Ok(id) => prop_assert_eq!(Some(id), text.trim().parse::<u64>().ok()),
                    Err(e) => prop_assert_eq!(seen(&e), (404, 404, ORDER_NOT_FOUND.to_string())),
                }
                prop_assert_eq!(parse(&format!(" {n}\n")).ok(), Some(n));
            }

            /// An id in a body, of any JSON shape, is an order number or the same 404; a number
            /// and its string name the same order.
            #[test]
            fn any_body_id_is_an_order_number_or_not_found(value in json_value(), n in any::<u64>()) {
                if let Ok(id) = serde_json::from_value::<OrderId>(value)
                    && let Err(e) = id.parse()
                {
                    prop_assert_eq!(seen(&e), (404, 404, ORDER_NOT_FOUND.to_string()));
                }
                let as_number: OrderId = serde_json::from_value(serde_json::json!(n)).unwrap();
                let as_text: OrderId = serde_json::from_value(serde_json::json!(n.to_string())).unwrap();
                prop_assert_eq!(as_number.parse().ok(), Some(n));
                prop_assert_eq!(as_text.parse().ok(), Some(n));
            }
        }
    }
}
