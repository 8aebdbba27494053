//! What the menu calls read from the query string: a restaurant id that is a number, and for the
//! page an optional delivery point.

use serde::Deserialize;

use crate::http::error::ApiError;
use crate::http::messages;
use crate::http::params;

/// Query of the menu page; a location is optional (a menu opened from a shared link has none).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MenuQuery {
    /// The restaurant's id (`restaurant_id` is read too: the web app's menu route falls back to
    /// that query name).
    #[serde(rename = "restaurantId", alias = "restaurant_id")]
    pub restaurant_id: Option<String>,
    /// The visitor's point (optional): with it the header says whether the restaurant delivers.
    pub lat: Option<String>,
    pub lng: Option<String>,
}

/// Query of the in-menu search.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// The restaurant's id (`restaurant_id` is read too).
    #[serde(rename = "restaurantId", alias = "restaurant_id")]
    pub restaurant_id: Option<String>,
    /// `str` and `searchText` too (the names the web app's search fields send).
    #[serde(alias = "str", alias = "searchText")]
    pub query: Option<String>,
}

/// The restaurant id of a menu call: a number, else 400 / 1 `Invalid request.`
pub fn restaurant_id(value: Option<&str>) -> Result<u64, ApiError> {
    params::id(value.unwrap_or_default(), messages::BAD_REQUEST)
}
