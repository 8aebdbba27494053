//! `GET /sandbox/bank/{payment_id}` and `POST /sandbox/bank/{payment_id}`: the sandbox gateway's
//! netbanking page, which a real gateway would have the bank serve. The checkout opens it (the
//! payment's `redirect_url`) and polls the payment while the customer chooses here: Approve,
//! Decline or Cancel, passed on to payments `AuthenticatePayment` as the bank's decision.
//!
//! Not part of `/api`: a browser opens it, so the answers are pages, not the envelope. It is only
//! for the signed-in customer whose netbanking payment waits on the sandbox's bank page; anyone
//! else (a guest, another customer, an unknown or settled payment, a payment of a real gateway)
//! gets the storefront's not-found page, all alike. The form carries the session's CSRF token,
//! checked here as the `/api` layer checks it there. No script: the edge's CSP allows none inline.

use axum::Extension;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::response::Response;
use http::StatusCode;
use serde::Deserialize;
use tiffin_platform::money::rupees;
use tiffin_proto::payments::v1::authenticate_payment_request::Action;
use tiffin_proto::payments::v1::{
    AuthenticatePaymentRequest, BankDecision, GetPaymentRequest, NextAction, Payment, PaymentStatus,
};
use tonic::Code;

use crate::http::error::mapping;
use crate::http::html::escape;
use crate::http::visitor::{SessionUnavailable, Visitor};
use crate::infra::state::AppState;
use crate::routes::payments::netbanking::bank_list;
use crate::routes::platform::pages;
use crate::session::csrf::same_token;

/// The route, as the router mounts it.
pub const ROUTE: &str = "/sandbox/bank/{payment_id}";

/// What the payments service names as the sandbox's bank page, before the payment id.
const PAGE_PREFIX: &str = "/sandbox/bank/";

/// The bank page's form.
#[derive(Debug, Deserialize)]
pub struct DecisionForm {
    /// approve, decline or cancel.
    #[serde(default)]
    decision: String,
    /// The session's CSRF token.
    #[serde(default, rename = "_csrf")]
    csrf: String,
}

/// Why no bank page can be shown.
enum Refusal {
    /// Not this visitor's to see: the not-found page.
    NotFound,
    /// A service failed: the error page with this status.
    Failed(StatusCode),
}

/// `GET /sandbox/bank/{payment_id}`: the bank's page with the three buttons.
pub async fn page(
    State(state): State<AppState>,
    visitor: Option<Extension<Visitor>>,
    unavailable: Option<Extension<SessionUnavailable>>,
    Path(payment_id): Path<String>,
) -> Response {
    tracing::Span::current().record("http.route", ROUTE);
    let visitor = visitor.map(|Extension(v)| v);
    let waiting = match waiting_payment(&state, visitor.as_ref(), unavailable, &payment_id).await {
        Ok(waiting) => waiting,
        Err(refusal) => return refused(&state, visitor.as_ref(), refusal).await,
    };
    let (payment, bank_name, csrf) = waiting;
    html(
        StatusCode::OK,
        &bank_page(&payment.payment_id, &bank_name, payment.amount_paise, &csrf),
    )
}

/// `POST /sandbox/bank/{payment_id}` `decision=approve|decline|cancel&_csrf=…`: passes the choice
/// on and answers what became of the payment.
pub async fn decide(
    State(state): State<AppState>,
    visitor: Option<Extension<Visitor>>,
    unavailable: Option<Extension<SessionUnavailable>>,
    Path(payment_id): Path<String>,
    form: Result<Form<DecisionForm>, FormRejection>,
) -> Response {
    tracing::Span::current().record("http.route", ROUTE);
    let visitor = visitor.map(|Extension(v)| v);
    let (payment, bank_name, csrf) =
        match waiting_payment(&state, visitor.as_ref(), unavailable, &payment_id).await {
            Ok(waiting) => waiting,
            Err(refusal) => return refused(&state, visitor.as_ref(), refusal).await,
        };
    let form = form.map(|Form(f)| f).unwrap_or(DecisionForm {
        decision: String::new(),
        csrf: String::new(),
    });
    // A page on another site can post this form with the customer's cookie, but cannot know the
    // token: refused before anything moves.
    if !same_token(&form.csrf, &csrf) {
        tracing::warn!("bank page decision without the session's CSRF token");
        return html(
            StatusCode::FORBIDDEN,
            &message_page(
                &bank_name,
                "This request could not be verified",
                "Please go back to Tiffin and try paying again.",
            ),
        );
    }
    let decision = match form.decision.as_str() {
        "approve" => BankDecision::Approve,
        "decline" => BankDecision::Decline,
        "cancel" => BankDecision::Cancel,
        _ => {
            return html(
                StatusCode::BAD_REQUEST,
                &bank_page(&payment.payment_id, &bank_name, payment.amount_paise, &csrf),
            );
        }
    };
    let user = visitor.as_ref().map(Visitor::caller).unwrap_or_default();
    let up = &state.upstreams;
    let answered = up
        .payments
        .clone()
        .authenticate_payment(up.request(
            AuthenticatePaymentRequest {
                payment_id: payment.payment_id.clone(),
                action: Some(Action::BankDecision(decision.into())),
            },
            &user,
        ))
        .await;
    match answered {
        Ok(reply) => {
            let payment = reply.into_inner().payment.unwrap_or(payment);
            html(StatusCode::OK, &result_page(&bank_name, &payment))
        }
        Err(status) => {
            let http = mapping(status.code()).http;
            tracing::error!(grpc.code = ?status.code(), grpc.message = %status.message(), "bank decision not taken");
            pages::error_page(http)
        }
    }
}

/// The caller's netbanking payment waiting on the sandbox's bank page, its bank's name and the
/// session's CSRF token; anything else is refused.
async fn waiting_payment(
    state: &AppState,
    visitor: Option<&Visitor>,
    unavailable: Option<Extension<SessionUnavailable>>,
    payment_id: &str,
) -> Result<(Payment, String, String), Refusal> {
    if let (None, Some(Extension(SessionUnavailable(status)))) = (visitor, unavailable) {
        // Who is asking cannot be known right now: neither page is true.
        return Err(Refusal::Failed(mapping(status.code()).http));
    }
    let Some(user) = visitor.filter(|v| v.user_id.is_some()) else {
        return Err(Refusal::NotFound);
    };
    let up = &state.upstreams;
    let payment = match up
        .payments
        .clone()
        .get_payment(up.request(
            GetPaymentRequest {
                payment_id: payment_id.to_string(),
                idempotency_key: String::new(),
            },
            &user.caller(),
        ))
        .await
    {
        Ok(reply) => reply.into_inner().payment.ok_or(Refusal::NotFound)?,
        Err(status) if matches!(status.code(), Code::NotFound | Code::InvalidArgument) => {
            return Err(Refusal::NotFound);
        }
        Err(status) => {
            tracing::error!(grpc.code = ?status.code(), grpc.message = %status.message(), "payment for the bank page could not be had");
            return Err(Refusal::Failed(mapping(status.code()).http));
        }
    };
    // Only a payment the payments service sends to the sandbox's bank page, while it waits there.
    let waits_here = payment.status == PaymentStatus::PendingVbv as i32
        && payment.next_action == NextAction::RedirectToBank as i32
        && payment.redirect_url == format!("{PAGE_PREFIX}{payment_id}");
    if !waits_here {
        return Err(Refusal::NotFound);
    }
    let bank_name = bank_list(state, &user.caller())
        .await
        .ok()
        .and_then(|banks| {
            banks
                .into_iter()
                .find(|b| b.bank_code == payment.bank_code)
                .map(|b| b.name)
        })
        .unwrap_or_else(|| payment.bank_code.clone());
    Ok((payment, bank_name, user.csrf_token.clone()))
}

async fn refused(state: &AppState, visitor: Option<&Visitor>, refusal: Refusal) -> Response {
    match refusal {
        Refusal::NotFound => pages::not_found(state, visitor).await,
        Refusal::Failed(status) => pages::error_page(status),
    }
}

fn document(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\" />\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\
         <meta name=\"robots\" content=\"noindex\" /><title>{}</title>\
         <style>body{{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}}\
         button{{font-size:1rem;padding:.6rem 1.2rem;margin:.3rem .3rem 0 0}}</style></head>\
         <body>{body}</body></html>\n",
        escape(title)
    )
}

/// The bank's page: the amount and the three choices, each a submit button of one form.
fn bank_page(payment_id: &str, bank_name: &str, amount_paise: i64, csrf: &str) -> String {
    let title = format!("{bank_name} — Sandbox NetBanking");
    let body = format!(
        "<h1>{title}</h1>\
         <p>Pay <strong>{amount}</strong> to Tiffin (payment {payment}).</p>\
         <form method=\"post\" action=\"{PAGE_PREFIX}{payment}\">\
         <input type=\"hidden\" name=\"_csrf\" value=\"{csrf}\" />\
         <button type=\"submit\" name=\"decision\" value=\"approve\">Approve</button>\
         <button type=\"submit\" name=\"decision\" value=\"decline\">Decline</button>\
         <button type=\"submit\" name=\"decision\" value=\"cancel\">Cancel</button>\
         </form>",
        title = escape(&title),
        amount = rupees(amount_paise),
        payment = escape(payment_id),
        csrf = escape(csrf),
    );
    document(&title, &body)
}

fn message_page(bank_name: &str, heading: &str, text: &str) -> String {
    let title = format!("{bank_name} — Sandbox NetBanking");
    document(
        &title,
        &format!(
            "<h1>{}</h1><p>{}</p><p>{}</p>",
            escape(&title),
            escape(heading),
            escape(text)
        ),
    )
}

/// What became of the payment, and where to go now.
fn result_page(bank_name: &str, payment: &Payment) -> String {
    let heading = match PaymentStatus::try_from(payment.status) {
        Ok(PaymentStatus::Charged) => "Payment approved".to_string(),
        Ok(PaymentStatus::UserAborted) => "Payment cancelled".to_string(),
        _ if !payment.failure_reason.is_empty() => payment.failure_reason.clone(),
        _ => "Payment not completed".to_string(),
    };
    message_page(
        bank_name,
        &heading,
        "You can close this window and return to Tiffin.",
    )
}

/// It carries the session's CSRF token: never kept by a cache.
fn html(status: StatusCode, body: &str) -> Response {
    crate::http::html::reply_unstored(status, body.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bank_page_escapes_what_it_shows_and_carries_the_token() {
        let page = bank_page("pay_1", "A<b>", 10_000, "tok\"en");
        assert!(page.contains("A&lt;b&gt; — Sandbox NetBanking"));
        assert!(page.contains("value=\"tok&quot;en\""));
        assert!(page.contains("₹100"));
        assert!(!page.contains("<script"));
    }
}
