//! Route `GET offers/payment` (cart `ListPaymentOffers`): the payment offers (bank, card network,
//! wallet, UPI) and the platform coupons, for the offers page's "Payment offers/Coupons" tab. A
//! signed-in customer sees which offers they have used up for now and, before their first order,
//! the first-order coupons; both come from the orders service in the call every cart makes.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use tiffin_proto::cart::v1::{
    ListPaymentOffersRequest, OfferTag, PaymentOffer, PlatformCoupon, UsedPaymentOffer,
};
use tiffin_proto::orders::v1::ListCancellationDuesRequest;

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::Identity;
use crate::http::params::{self, Params};
use crate::infra::state::AppState;

/// `?lat=&lng=`: where the customer is (the offers page needs a location, like its other tab).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OffersQuery {
    lat: Option<String>,
    lng: Option<String>,
}

/// The offers page's payment tab.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PaymentOffers)]
pub struct PaymentOffersJson {
    payment_offers: Vec<PaymentOfferJson>,
    coupons: Vec<PlatformCouponJson>,
}

/// An offer's tag, as the spec draws it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = OfferTag)]
pub struct OfferTagJson {
    title: String,
    #[serde(rename = "subTitle")]
    sub_title: String,
    #[serde(rename = "backgroundColor")]
    background_color: String,
    #[serde(rename = "textColor")]
    text_color: String,
}

/// A payment offer: applied at checkout when the chosen way to pay qualifies. Money in paise.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PaymentOffer)]
pub struct PaymentOfferJson {
    offer_id: String,
    /// `BANK`, `CARD_NETWORK`, `WALLET` or `UPI`.
    kind: String,
    /// The checkout method it is on: `card`, `wallet` or `upi_collect`.
    payment_method: String,
    /// For a wallet offer, the wallet's payment code; `null` otherwise.
    #[schema(required)]
    wallet_code: Option<String>,
    title: String,
    description: String,
    /// Each term as shown: "Min cart amount ₹299", "Valid till 31 Mar 2027", ...
    terms: Vec<String>,
    /// The item total needed.
    min_cart_amount: i64,
    /// The most it takes off.
    max_discount: i64,
    /// The last day it applies, in India (`2027-03-31`).
    valid_till: String,
    /// `ONCE_A_DAY` or `ONCE_A_MONTH`.
    limit: String,
    offer_tag: OfferTagJson,
    /// The signed-in customer has used it in the current day or month; false for a visitor.
    used: bool,
}

/// A coupon every restaurant takes.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = PlatformCoupon)]
pub struct PlatformCouponJson {
    code: String,
    title: String,
    description: String,
    /// The item total needed, in paise.
    min_cart_amount: i64,
    /// The last day it applies, in India; `null` when it does not end.
    #[schema(required)]
    valid_till: Option<String>,
    offer_tag: OfferTagJson,
}

fn tag_json(tag: Option<OfferTag>) -> OfferTagJson {
    let tag = tag.unwrap_or_default();
    OfferTagJson {
        title: tag.title,
        sub_title: tag.sub_title,
        background_color: tag.background_color,
        text_color: tag.text_color,
    }
}

fn offer_json(o: PaymentOffer) -> PaymentOfferJson {
    PaymentOfferJson {
        offer_id: o.offer_id,
        kind: o.kind,
        payment_method: o.payment_method,
        wallet_code: Some(o.wallet_code).filter(|c| !c.is_empty()),
        title: o.title,
        description: o.description,
        terms: o.terms,
        min_cart_amount: o.min_cart_paise,
        max_discount: o.max_discount_paise,
        valid_till: o.valid_till,
        limit: o.limit,
        offer_tag: tag_json(o.tag),
        used: o.used,
    }
}

fn coupon_json(c: PlatformCoupon) -> PlatformCouponJson {
    PlatformCouponJson {
        code: c.code,
        title: c.title,
        description: c.description,
        min_cart_amount: c.min_cart_paise,
        valid_till: Some(c.valid_till).filter(|v| !v.is_empty()),
        offer_tag: tag_json(c.tag),
    }
}

/// `GET /api/offers/payment?lat=&lng=`
#[utoipa::path(
    get,
    path = "/offers/payment",
    tag = "cart",
    operation_id = "paymentOffers",
    params(OffersQuery),
    responses((status = 200, description = "The payment offers (each marked `used` once the signed-in customer's limit for it is reached) and the platform coupons the customer can use.", body = crate::http::envelope::Envelope<PaymentOffersJson>), crate::http::error::Failures)
)]
pub async fn payment(
    State(state): State<AppState>,
    Identity(caller): Identity,
    Params(query): Params<OffersQuery>,
) -> Result<Data<PaymentOffersJson>, ApiError> {
    params::location(query.lat.as_deref(), query.lng.as_deref())?;
    let upstreams = &state.upstreams;
    let (first_order, used_payment_offers): (bool, Vec<UsedPaymentOffer>) = match caller.user_id {
        // A visitor has placed nothing and used nothing.
        None => (true, Vec::new()),
        Some(_) => {
            let mut orders = upstreams.orders.clone();
            let standing = orders
                .list_cancellation_dues(upstreams.request(ListCancellationDuesRequest {}, &caller));
            match state.breakers.orders.call(standing).await {
                Ok(reply) => {
                    let reply = reply.into_inner();
                    (!reply.has_ordered, reply.used_payment_offers)
                }
                Err(e) => {
                    // Unknown: no first-order coupon is promised, and nothing is marked used
                    // (checkout, which asks again, is where an offer is applied or not).
                    tracing::warn!(code = ?e.code(), "orders unavailable for the offers page");
                    (false, Vec::new())
                }
            }
        }
    };
    let reply = upstreams
        .cart
        .clone()
        .list_payment_offers(upstreams.request(
            ListPaymentOffersRequest {
                used_payment_offers,
                first_order,
            },
            &caller,
        ))
        .await?
        .into_inner();
    Ok(Data::ok(PaymentOffersJson {
        payment_offers: reply.offers.into_iter().map(offer_json).collect(),
        coupons: reply.coupons.into_iter().map(coupon_json).collect(),
    }))
}
