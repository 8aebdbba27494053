//! Route `GET payment/get-methods` (payments `ListPaymentMethods`): the groups of ways to pay for
//! everyone, and for a signed-in customer also what they can pay with at once: their saved cards,
//! saved UPI ids, linked wallets and pay-later, asked of the payments service side by side. Any of
//! those the service cannot answer reads as none (a wallet as not linked), so checkout still
//! offers every other way to pay. `split_pay` says whether Tiffin Money can pay part of the bill
//! (a signed-in customer with a balance), from GetMoney; unanswered, it is unavailable.

use axum::extract::State;
use serde::Serialize;
use tiffin_platform::identity::Caller;
use tiffin_proto::cart::v1::ListPaymentOffersRequest;
use tiffin_proto::payments::v1::{
    CheckPayLaterLinkedRequest, GetMoneyRequest, ListLinkedWalletsRequest,
    ListPaymentMethodsRequest, ListSavedCardsRequest, ListSavedVpasRequest,
};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::infra::state::AppState;
use crate::routes::payments::cards::{SavedCardJson, card_json};
use crate::routes::payments::paylater::{PayLaterJson, pay_later_json};
use crate::routes::payments::saved_vpas::{SavedVpaJson, vpa_json};
use crate::routes::payments::wallets::{WalletJson, wallet_json};

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PaymentMethods {
    payment_groups: Vec<PaymentGroup>,
    /// The signed-in customer's own instruments; `null` for a visitor.
    #[schema(required)]
    instruments: Option<Instruments>,
    split_pay: SplitPayJson,
}

/// Whether Tiffin Money can pay part of this bill with another method (place-v2's
/// `split_with_tiffin_money`).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SplitPay)]
struct SplitPayJson {
    /// Signed in with a Tiffin Money balance above 0.
    available: bool,
    /// Paise; 0 for a visitor, or when the balance could not be read.
    tiffin_money_balance: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PaymentInstruments)]
struct Instruments {
    /// Newest first.
    saved_cards: Vec<SavedCardJson>,
    /// Newest first.
    saved_vpas: Vec<SavedVpaJson>,
    /// The linked ones, with their balances.
    wallets: Vec<WalletJson>,
    pay_later: PayLaterJson,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PaymentGroup {
    group_name: String,
    payment_methods: Vec<PaymentMethod>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct PaymentMethod {
    payment_code: String,
    name: String,
    enabled: bool,
    /// The payment offers paying this way can earn (a card's bank and network offers, a
    /// wallet's, UPI's); the bill applies one once the method is chosen (`cart/calculate`).
    offers: Vec<MethodOfferJson>,
}

/// A payment offer shown on its method.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[schema(as = PaymentMethodOffer)]
struct MethodOfferJson {
    offer_id: String,
    title: String,
    description: String,
}

/// The payment offers there are, with the payment code of the method each is on. None when the
/// cart service cannot say: the methods are still offered, without their offers.
async fn offers_by_method(state: &AppState, caller: &Caller) -> Vec<(String, MethodOfferJson)> {
    let upstreams = &state.upstreams;
    let listed = upstreams
        .cart
        .clone()
        .list_payment_offers(upstreams.request(ListPaymentOffersRequest::default(), caller))
        .await;
    match listed {
        Ok(reply) => reply
            .into_inner()
            .offers
            .into_iter()
            .map(|o| {
                let code = if o.wallet_code.is_empty() {
                    o.payment_method
                } else {
                    o.wallet_code
                };
                (
                    code,
                    MethodOfferJson {
                        offer_id: o.offer_id,
                        title: o.title,
                        description: o.description,
                    },
                )
            })
            .collect(),
        Err(e) => {
            tracing::warn!(code = ?e.code(), "payment offers unavailable for the methods");
            Vec::new()
        }
    }
}

/// `GET /api/payment/get-methods`
#[utoipa::path(
    get,
    path = "/payment/get-methods",
    tag = "payments",
    operation_id = "getPaymentMethods",
    responses((status = 200, description = "The payment methods, in groups; for a signed-in customer also their saved cards, UPI ids, linked wallets and pay-later.", body = crate::http::envelope::Envelope<PaymentMethods>), crate::http::error::Failures)
)]
pub async fn get_methods(
    State(state): State<AppState>,
    Identity(caller): Identity,
) -> Result<Data<PaymentMethods>, ApiError> {
    let upstreams = &state.upstreams;
    let methods = async {
        upstreams
            .payments
            .clone()
            .list_payment_methods(upstreams.request(ListPaymentMethodsRequest {}, &caller))
            .await
    };
    let (reply, offers) = tokio::join!(methods, offers_by_method(&state, &caller));
    let reply = reply?.into_inner();
    let payment_groups = reply
        .groups
        .into_iter()
        .map(|g| PaymentGroup {
            group_name: g.group_name,
            payment_methods: g
                .methods
                .into_iter()
                .map(|m| PaymentMethod {
                    offers: offers
                        .iter()
                        .filter(|(code, _)| code.eq_ignore_ascii_case(&m.payment_code))
                        .map(|(_, offer)| offer.clone())
                        .collect(),
                    payment_code: m.payment_code,
                    name: m.name,
                    enabled: m.enabled,
                })
                .collect(),
        })
        .collect();
    let (instruments, split_pay) = match caller.user_id {
        Some(_) => {
            let (instruments, split_pay) =
                tokio::join!(instruments(&state, &caller), split_pay(&state, &caller));
            (Some(instruments), split_pay)
        }
        None => (None, unavailable()),
    };
    Ok(Data::ok(PaymentMethods {
        payment_groups,
        instruments,
        split_pay,
    }))
}

fn unavailable() -> SplitPayJson {
    SplitPayJson {
        available: false,
        tiffin_money_balance: 0,
    }
}

/// The caller's Tiffin Money balance decides split pay; a balance that cannot be read offers none,
/// so checkout goes on with the other ways to pay.
async fn split_pay(state: &AppState, caller: &Caller) -> SplitPayJson {
    let up = &state.upstreams;
    let money = up
        .payments
        .clone()
        .get_money(up.request(
            GetMoneyRequest {
                after_transaction_id: String::new(),
            },
            caller,
        ))
        .await;
    match money {
        Ok(reply) => {
            let balance = reply.into_inner().balance_paise.max(0);
            SplitPayJson {
                available: balance > 0,
                tiffin_money_balance: balance,
            }
        }
        Err(e) => {
            tracing::warn!(code = ?e.code(), "Tiffin Money balance unavailable");
            unavailable()
        }
    }
}

/// The caller's instruments; a part the payments service does not answer is left empty.
async fn instruments(state: &AppState, caller: &Caller) -> Instruments {
    let up = &state.upstreams;
    let payments = || up.payments.clone();
    let (cards, vpas, wallets, pay_later) = tokio::join!(
        async {
            payments()
                .list_saved_cards(up.request(ListSavedCardsRequest {}, caller))
                .await
        },
        async {
            payments()
                .list_saved_vpas(up.request(ListSavedVpasRequest {}, caller))
                .await
        },
        async {
            payments()
                .list_linked_wallets(up.request(ListLinkedWalletsRequest {}, caller))
                .await
        },
        async {
            payments()
                .check_pay_later_linked(up.request(CheckPayLaterLinkedRequest {}, caller))
                .await
        },
    );
    let unanswered = |what: &str, e: &tonic::Status| {
        tracing::warn!(code = ?e.code(), what, "payment instruments unavailable");
    };
    Instruments {
        saved_cards: cards
            .map(|r| r.into_inner().cards.into_iter().map(card_json).collect())
            .unwrap_or_else(|e| {
                unanswered("saved cards", &e);
                Vec::new()
            }),
        saved_vpas: vpas
            .map(|r| r.into_inner().vpas.into_iter().map(vpa_json).collect())
            .unwrap_or_else(|e| {
                unanswered("saved UPI ids", &e);
                Vec::new()
            }),
        wallets: wallets
            .map(|r| {
                r.into_inner()
                    .wallets
                    .into_iter()
                    .map(|w| wallet_json(Some(w)))
                    .collect()
            })
            .unwrap_or_else(|e| {
                unanswered("wallets", &e);
                Vec::new()
            }),
        pay_later: pay_later_json(pay_later.map(|r| r.into_inner().pay_later).unwrap_or_else(
            |e| {
                unanswered("pay-later", &e);
                None
            },
        )),
    }
}
