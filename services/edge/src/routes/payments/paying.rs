//! How the customer will pay, as far as a bill depends on it: the payment code (a coupon or offer
//! for paying by UPI, a wallet...) and, for a card, what a payment offer asks of it (BIN and
//! network), which the payments service reads from the first digits typed or the saved card.
//! The card's number never reaches the cart.

use tiffin_platform::identity::Caller;
use tiffin_proto::cart::v1::PaymentInstrument;
use tiffin_proto::payments::v1::{DescribeCardRequest, describe_card_request};

use crate::http::error::ApiError;
use crate::infra::state::AppState;

/// The card the customer chose, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardChoice {
    None,
    /// The first digits typed (6 to 8 of them).
    Digits(String),
    /// One of the customer's saved cards.
    Saved(String),
}

/// What the cart is told about the way to pay.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Paying {
    /// A payment code of `payment/get-methods` ("" before one is chosen).
    pub payment_code: String,
    pub instrument: Option<PaymentInstrument>,
}

impl Paying {
    /// A way to pay with no card, or none at all ("").
    pub fn code(payment_code: impl Into<String>) -> Self {
        Self {
            payment_code: payment_code.into(),
            instrument: None,
        }
    }

    /// The way to pay with its card described by the payments service. A card the service does
    /// not know of the caller's is the caller's mistake (404); digits that are not a card's start
    /// are 400. An outage leaves the card undescribed: the bill then carries no card offer, and a
    /// place priced so is refused as a changed bill rather than charged differently.
    pub async fn describe(
        state: &AppState,
        caller: &Caller,
        payment_code: String,
        card: CardChoice,
    ) -> Result<Self, ApiError> {
        let card = match card {
            CardChoice::None => return Ok(Self::code(payment_code)),
            CardChoice::Digits(d) => describe_card_request::Card::CardBin(d),
            CardChoice::Saved(id) => describe_card_request::Card::CardId(id),
        };
        let upstreams = &state.upstreams;
        let described = upstreams
            .payments
            .clone()
            .describe_card(upstreams.request(DescribeCardRequest { card: Some(card) }, caller))
            .await;
        let instrument = match described {
            Ok(reply) => {
                let reply = reply.into_inner();
                Some(PaymentInstrument {
                    card_bin: reply.card_bin,
                    card_network: reply.card_network,
                })
            }
            Err(status) => match status.code() {
                tonic::Code::InvalidArgument => {
                    return Err(ApiError::BadRequest(
                        "Please enter the first 6 digits of your card.",
                    ));
                }
                tonic::Code::NotFound => return Err(ApiError::NotFound("Card not found")),
                code => {
                    tracing::warn!(?code, "card undescribed: no card offer on this bill");
                    None
                }
            },
        };
        Ok(Self {
            payment_code,
            instrument,
        })
    }
}
