//! Routes `GET profile/saved-cards` and `POST profile/delete-card` (payments `ListSavedCards`,
//! `DeleteSavedCard`). A card is shown by network, last 4 digits and expiry: the payments service
//! holds no card number. Another user's card answers 404 / 404, as an unknown one does.

use axum::body::Bytes;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::payments::v1::{DeleteSavedCardRequest, ListSavedCardsRequest, SavedCard};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::infra::state::AppState;

/// NOT_FOUND wording for an unknown card (or another user's).
pub const CARD_NOT_FOUND: &str = "Card not found";

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SavedCards)]
pub struct SavedCardsJson {
    /// Newest first.
    cards: Vec<SavedCardJson>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SavedCard)]
pub(crate) struct SavedCardJson {
    /// The card's id at the payments service ("card_…"): what delete-card and a payment name.
    card_reference: String,
    /// VISA, MASTERCARD, AMEX, RUPAY, DINERS or DISCOVER.
    network: String,
    last4: String,
    /// 1 to 12.
    expiry_month: u32,
    /// Four digits.
    expiry_year: u32,
}

pub(crate) fn card_json(card: SavedCard) -> SavedCardJson {
    SavedCardJson {
        card_reference: card.card_id,
        network: card.network,
        last4: card.last4,
        expiry_month: card.expiry_month,
        expiry_year: card.expiry_year,
    }
}

/// `GET /api/profile/saved-cards`
#[utoipa::path(
    get,
    path = "/profile/saved-cards",
    tag = "payments",
    operation_id = "listSavedCards",
    responses((status = 200, description = "The caller's saved cards, newest first.", body = crate::http::envelope::Envelope<SavedCardsJson>), crate::http::error::Failures)
)]
pub async fn list(
    State(state): State<AppState>,
    user: SignedIn,
) -> Result<Data<SavedCardsJson>, ApiError> {
    let up = &state.upstreams;
    let reply = up
        .payments
        .clone()
        .list_saved_cards(up.request(ListSavedCardsRequest {}, &user.caller()))
        .await?
        .into_inner();
    Ok(Data::ok(SavedCardsJson {
        cards: reply.cards.into_iter().map(card_json).collect(),
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[schema(as = DeleteCardInput)]
pub struct DeleteCardBody {
    /// From saved-cards.
    card_reference: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = DeletedCard)]
pub struct DeletedCardJson {
    card_reference: String,
    deleted: bool,
}

/// `POST /api/profile/delete-card` `{ "card_reference" }`
#[utoipa::path(
    post,
    path = "/profile/delete-card",
    tag = "payments",
    operation_id = "deleteSavedCard",
    request_body(content = DeleteCardBody, content_type = "application/json"),
    responses((status = 200, description = "The card is gone.", body = crate::http::envelope::Envelope<DeletedCardJson>), crate::http::error::Failures)
)]
pub async fn delete(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<DeletedCardJson>, ApiError> {
    let body: DeleteCardBody = json_body(&body)?;
    let card_id = body
        .card_reference
        .filter(|c| !c.is_empty())
        .ok_or(ApiError::NotFound(CARD_NOT_FOUND))?;
    let up = &state.upstreams;
    up.payments
        .clone()
        .delete_saved_card(up.request(
            DeleteSavedCardRequest {
                card_id: card_id.clone(),
            },
            &user.caller(),
        ))
        .await
        .map_err(|s| ApiError::from(s).not_found_as(CARD_NOT_FOUND))?;
    Ok(Data::ok(DeletedCardJson {
        card_reference: card_id,
        deleted: true,
    }))
}
