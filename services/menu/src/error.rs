//! The menu service's errors and how each reaches a caller.
//!
//! A caller sees only the storefront's words: "Restaurant not found", "Oops! Something wrong"
//! for a selection naming something the menu does not sell, the add-on rules' own messages, and
//! "Oops! Something went wrong." for any fault of ours. The ids behind a refusal go to the log.

use tiffin_platform::internal_error;
use tiffin_platform::status::with_code;
use tonic::Code;

/// The storefront's general "ERROR" code; the edge shows it as `statusCode` 1.
const SPEC_ERROR: u32 = 1;
/// The storefront's general "NOT_FOUND" code.
const SPEC_NOT_FOUND: u32 = 404;

/// Metadata key naming the add-on group a rule refused, so the customisation modal can mark the
/// group (the minimum error travels together with the group id).
pub const ADDON_GROUP_ID: &str = "x-tiffin-addon-group-id";

/// Anything that can go wrong answering a menu call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `GetMenu` for a restaurant with no menu.
    #[error("restaurant {0} has no menu")]
    RestaurantNotFound(u64),
    /// `PriceItems` for a restaurant with no menu: the cart sent something we never served.
    #[error("restaurant {0} has no menu to price from")]
    UnknownRestaurant(u64),
    /// The item is not on this restaurant's menu (unknown, or another restaurant's).
    #[error("item {item_id} is not on the menu of restaurant {restaurant_id}")]
    UnknownItem { restaurant_id: u64, item_id: u64 },
    /// The variation is not in that variant group of this item.
    #[error("item {item_id} has no variation {variation_id:?} in group {group_id:?}")]
    UnknownVariation {
        item_id: u64,
        group_id: String,
        variation_id: String,
    },
    /// A variant group takes exactly one variation.
    #[error("item {item_id}: more than one variation chosen in group {group_id:?}")]
    SecondVariation { item_id: u64, group_id: String },
    /// The choice is not in that add-on group of this item.
    #[error("item {item_id} has no add-on {choice_id:?} in group {group_id:?}")]
    UnknownAddon {
        item_id: u64,
        group_id: String,
        choice_id: String,
    },
    /// A choice is either chosen or not; naming it twice is a malformed request.
    #[error("item {item_id}: add-on {choice_id:?} chosen twice")]
    RepeatedAddon { item_id: u64, choice_id: String },
    /// A group requires choices but has none to offer (a group without data gives the generic
    /// error).
    #[error("item {item_id}: required add-on group {group_id:?} has no choices")]
    EmptyAddonGroup { item_id: u64, group_id: String },
    /// The minimum rule; the text is the storefront's, word for word.
    #[error("You must select at least {min} {group_name}")]
    TooFewAddons {
        group_id: String,
        group_name: String,
        min: u32,
    },
    /// The maximum rule.
    #[error("You can select a maximum of {max} {group_name}.")]
    TooManyAddons {
        group_id: String,
        group_name: String,
        max: u32,
    },
    /// The free-choices rule.
    #[error("You can select a maximum of {max_free} free {group_name}.")]
    TooManyFreeAddons {
        group_id: String,
        group_name: String,
        max_free: u32,
    },
    /// A search query longer than [`crate::search::MAX_QUERY_CHARS`].
    #[error("search query too long")]
    QueryTooLong,
    /// Storage failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A stored menu does not read back as a menu (a value outside its column's domain).
    #[error("stored menu of restaurant {restaurant_id} is unreadable: {reason}")]
    Corrupt { restaurant_id: u64, reason: String },
}

impl From<Error> for tonic::Status {
    fn from(e: Error) -> Self {
        match e {
            Error::RestaurantNotFound(_) => {
                with_code(Code::NotFound, SPEC_NOT_FOUND, "Restaurant not found")
            }
            Error::UnknownRestaurant(_)
            | Error::UnknownItem { .. }
            | Error::UnknownVariation { .. }
            | Error::SecondVariation { .. }
            | Error::UnknownAddon { .. }
            | Error::RepeatedAddon { .. }
            | Error::EmptyAddonGroup { .. }
            | Error::QueryTooLong => {
                // The caller only learns that the selection is wrong; which id was wrong is ours.
                tracing::info!(error = %e, "selection refused");
                with_code(Code::InvalidArgument, SPEC_ERROR, "Oops! Something wrong")
            }
            Error::TooFewAddons { ref group_id, .. }
            | Error::TooManyAddons { ref group_id, .. }
            | Error::TooManyFreeAddons { ref group_id, .. } => {
                let mut status = with_code(Code::InvalidArgument, SPEC_ERROR, e.to_string());
                if let Ok(v) = group_id.parse() {
                    status.metadata_mut().insert(ADDON_GROUP_ID, v);
                }
                status
            }
            Error::Database(ref err) => {
                tiffin_platform::database_error!(err, "menu database error")
            }
            Error::Corrupt { .. } => internal_error!(e, "menu data error"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_on_rules_reach_the_caller_word_for_word_with_their_group() {
        let e = Error::TooManyAddons {
            group_id: "9-ag1".into(),
            group_name: "Dips".into(),
            max: 2,
        };

        let status = tonic::Status::from(e);

        assert_eq!(status.code(), Code::InvalidArgument);
        assert_eq!(status.message(), "You can select a maximum of 2 Dips.");
        assert_eq!(
            status
                .metadata()
                .get(ADDON_GROUP_ID)
                .and_then(|v| v.to_str().ok()),
            Some("9-ag1")
        );
        assert_eq!(
            tiffin_platform::status::spec_code(&status),
            Some(SPEC_ERROR)
        );
    }

    #[test]
    fn internal_detail_never_reaches_the_caller() {
        let e = Error::Corrupt {
            restaurant_id: 1,
            reason: "veg_type \"PURPLE\"".into(),
        };

        let status = tonic::Status::from(e);

        assert_eq!(status.code(), Code::Internal);
        assert_eq!(status.message(), "Oops! Something went wrong.");
    }

    #[test]
    fn an_unknown_restaurant_is_not_found_only_for_get_menu() {
        assert_eq!(
            tonic::Status::from(Error::RestaurantNotFound(5)).code(),
            Code::NotFound
        );
        assert_eq!(
            tonic::Status::from(Error::RestaurantNotFound(5)).message(),
            "Restaurant not found"
        );
        let priced = tonic::Status::from(Error::UnknownRestaurant(5));
        assert_eq!(
            (priced.code(), priced.message()),
            (Code::InvalidArgument, "Oops! Something wrong")
        );
    }
}
