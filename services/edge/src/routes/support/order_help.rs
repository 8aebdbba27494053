//! Help on one order: `GET support/order-help/{orderId}` (orders `GetOrderHelp`: what went wrong
//! can be reported, which lines can be refunded and for how much) and `POST support/order-help`
//! (support `StartOrderHelp`: opens a conversation and lets the rules act). Who the customer is
//! (name, the mobile's last digits, Tiffin One) is read here, from the account and membership
//! services, and kept with the conversation for the desk.

use axum::body::Bytes;
use axum::extract::{Path, State};
use futures::join;
use serde::{Deserialize, Serialize};
use tiffin_proto::account::v1::GetProfileRequest;
use tiffin_proto::membership::v1::MembershipStatus;
use tiffin_proto::orders::v1::{GetOrderHelpRequest, RefundLine};
use tiffin_proto::payments::v1::PaymentStatus;
use tiffin_proto::support::v1::{Customer, StartOrderHelpRequest};

use crate::http::envelope::Data;
use crate::http::error::ApiError;
use crate::http::extractors::SignedIn;
use crate::http::params::json_body;
use crate::infra::state::AppState;
use crate::routes::membership::status;
use crate::routes::orders::cancel::refund_to;
use crate::routes::orders::order_id::{self, OrderId};
use crate::routes::orders::reply::refund_destination_name;
use crate::routes::support::reply::{ConversationJson, issue_word, parse_issue, required};

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = OrderHelp)]
pub struct OrderHelpJson {
    order_id: String,
    restaurant_name: String,
    /// As in `order/details`.
    order_status: String,
    /// Everything paid, in paise.
    order_total_paise: i64,
    /// Everything given back so far, in paise.
    refunded_paise: i64,
    /// "card", "upi_collect", "cod", …
    payment_method: String,
    /// CHARGED, … ; `''` when nothing was paid.
    payment_status: String,
    /// Every problem that can be reported, in display order, with why not when it cannot.
    issues: Vec<OrderHelpIssueJson>,
    /// The order's lines with what of each can still be refunded.
    items: Vec<OrderHelpItemJson>,
    /// Where a refund may go: SOURCE and TIFFIN_MONEY, or only TIFFIN_MONEY (a cash order).
    refund_to: Vec<String>,
    /// Unix seconds when help on this order ends; 0 while it is on its way.
    window_ends_at: i64,
    /// Help can be asked now.
    window_open: bool,
    /// How late it arrived, in minutes (0: on time, or not delivered).
    minutes_late: u32,
    /// What a late delivery would be credited now, in paise.
    late_credit_paise: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = OrderHelpIssue)]
struct OrderHelpIssueJson {
    /// MISSING_ITEMS, WRONG_ITEM, QUALITY, LATE_DELIVERY, CHARGED_NO_ORDER, CANCEL or OTHER.
    code: String,
    title: String,
    available: bool,
    /// Why not, for the customer; `''` when available.
    reason: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = OrderHelpItem)]
struct OrderHelpItemJson {
    /// What a refund names the line by.
    line_id: u32,
    name: String,
    /// The add-ons and variations chosen.
    choices: String,
    quantity: u32,
    /// Units not yet refunded.
    refundable_quantity: u32,
    /// What one unit gives back, in paise.
    unit_refund_paise: i64,
}

/// `GET /api/support/order-help/{orderId}`
#[utoipa::path(
    get,
    path = "/support/order-help/{orderId}",
    tag = "support",
    operation_id = "getOrderHelp",
    params(("orderId" = String, Path, description = "One of the caller's orders.")),
    responses((status = 200, description = "What help the order can get.", body = crate::http::envelope::Envelope<OrderHelpJson>), crate::http::error::Failures)
)]
pub async fn order_help(
    State(state): State<AppState>,
    user: SignedIn,
    Path(id): Path<String>,
) -> Result<Data<OrderHelpJson>, ApiError> {
    let order_id = order_id::parse(&id)?;
    let up = &state.upstreams;
    let help = up
        .orders
        .clone()
        .get_order_help(up.request(GetOrderHelpRequest { order_id }, &user.caller()))
        .await
        .map_err(order_id::not_found)?
        .into_inner();
    let payment_status = match PaymentStatus::try_from(help.payment_status) {
        Ok(PaymentStatus::Unspecified) | Err(_) => String::new(),
        Ok(s) => s
            .as_str_name()
            .trim_start_matches("PAYMENT_STATUS_")
            .to_string(),
    };
    Ok(Data::ok(OrderHelpJson {
        order_id: help.order_id.to_string(),
        restaurant_name: help.restaurant_name,
        order_status: help.order_status,
        order_total_paise: help.order_total_paise,
        refunded_paise: help.refunded_paise,
        payment_method: help.payment_method,
        payment_status,
        issues: help
            .issues
            .into_iter()
            .map(|i| OrderHelpIssueJson {
                code: issue_word(i.issue),
                title: i.title,
                available: i.available,
                reason: i.reason,
            })
            .collect(),
        items: help
            .lines
            .into_iter()
            .map(|l| OrderHelpItemJson {
                line_id: l.line_id,
                name: l.name,
                choices: l.choices,
                quantity: l.quantity,
                refundable_quantity: l.refundable_quantity,
                unit_refund_paise: l.unit_refund_paise,
            })
            .collect(),
        refund_to: help
            .refund_to
            .into_iter()
            .map(refund_destination_name)
            .filter(|d| !d.is_empty())
            .collect(),
        window_ends_at: help.window_ends_at,
        window_open: help.window_open,
        minutes_late: help.minutes_late,
        late_credit_paise: help.late_credit_paise,
    }))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = StartOrderHelpInput)]
pub struct StartBody {
    /// One of the caller's orders.
    order_id: OrderId,
    /// MISSING_ITEMS, WRONG_ITEM, QUALITY, LATE_DELIVERY, CHARGED_NO_ORDER, CANCEL or OTHER.
    issue: String,
    /// For MISSING_ITEMS and WRONG_ITEM: the lines and units.
    #[serde(default)]
    items: Vec<ItemBody>,
    /// SOURCE (the default) or TIFFIN_MONEY.
    #[schema(value_type = Option<String>)]
    refund_to: Option<serde_json::Value>,
    /// The customer's own words; required for OTHER.
    #[serde(default)]
    message: String,
    /// One per request for help, the same on every retry of it; 1 to 100 characters.
    idempotency_key: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = OrderHelpItemInput)]
struct ItemBody {
    line_id: u32,
    quantity: u32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = SupportConversationReply)]
pub struct ConversationReply {
    conversation: ConversationJson,
}

impl ConversationReply {
    pub fn of(conversation: ConversationJson) -> Data<Self> {
        Data::ok(Self { conversation })
    }
}

/// `POST /api/support/order-help`
#[utoipa::path(
    post,
    path = "/support/order-help",
    tag = "support",
    operation_id = "startOrderHelp",
    request_body(content = StartBody, content_type = "application/json"),
    responses((status = 200, description = "The conversation it opened, with what the rules did (a refund, a credit, a cancellation, or a hand-over to an agent). The same idempotency key again answers the same conversation.", body = crate::http::envelope::Envelope<ConversationReply>), crate::http::error::Failures)
)]
pub async fn start(
    State(state): State<AppState>,
    user: SignedIn,
    body: Bytes,
) -> Result<Data<ConversationReply>, ApiError> {
    let body: StartBody = json_body(&body)?;
    let order_id = body.order_id.parse()?;
    let issue = parse_issue(&body.issue)?;
    let refund_to = refund_to(body.refund_to.as_ref())?;
    let caller = user.caller();
    let customer = customer(&state, &user).await;
    let up = &state.upstreams;
    let conversation = up
        .support
        .clone()
        .start_order_help(
            up.request(
                StartOrderHelpRequest {
                    customer: Some(customer),
                    order_id,
                    issue: issue.into(),
                    lines: body
                        .items
                        .into_iter()
                        .map(|i| RefundLine {
                            line_id: i.line_id,
                            quantity: i.quantity,
                        })
                        .collect(),
                    refund_to: refund_to.into(),
                    message: body.message,
                    idempotency_key: body.idempotency_key,
                },
                &caller,
            ),
        )
        .await
        .map_err(order_id::not_found)?
        .into_inner()
        .conversation;
    Ok(ConversationReply::of(required(conversation)?))
}

/// Who is asking, as the desk should see them. Asked of the account and membership services at
/// once; either being down leaves its part blank rather than refusing the customer help.
async fn customer(state: &AppState, user: &SignedIn) -> Customer {
    let up = &state.upstreams;
    let caller = user.caller();
    let mut account = up.account.clone();
    let profile = account.get_profile(up.request(GetProfileRequest {}, &caller));
    let (profile, member) = join!(profile, status::of(state, &caller));
    let profile = profile
        .ok()
        .and_then(|reply| reply.into_inner().profile)
        .unwrap_or_default();
    let digits: Vec<char> = profile
        .mobile
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    Customer {
        name: profile.name,
        mobile_last4: digits[digits.len().saturating_sub(4)..].iter().collect(),
        member: member == Some(MembershipStatus::Super),
    }
}
