//! One time budget per browser request (`EDGE_REQUEST_BUDGET_MS`): the request runs within a
//! deadline that every gRPC call it makes carries onward as `grpc-timeout`, however many hops it
//! makes (`tiffin_platform::deadline`), and the edge answers when the budget is spent even if a
//! service has not. A slow service costs the browser one budget, not a fresh allowance per call.
//!
//! What an `/api` call answers then is the outage envelope (503 / 777 `Something's broken`), and
//! a page the storefront's error page with 503. The session is not named in that envelope: its
//! lookup may be what ran out of time.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::StatusCode;
use tiffin_platform::deadline;
use tokio::time::Instant;

use crate::http::envelope::render;
use crate::http::error::ApiError;
use crate::http::html;

/// Middleware for `/api`.
pub async fn api(State(budget): State<Duration>, request: Request, next: Next) -> Response {
    within_budget(budget, request, next)
        .await
        .unwrap_or_else(|| {
            let spent = ApiError::Upstream(tonic::Status::deadline_exceeded(
                "the request's time budget is spent",
            ));
            render(&spent.outcome(), None)
        })
}

/// Middleware for pages.
pub async fn pages(State(budget): State<Duration>, request: Request, next: Next) -> Response {
    within_budget(budget, request, next)
        .await
        .unwrap_or_else(|| html::error_page(StatusCode::SERVICE_UNAVAILABLE))
}

/// The response, or `None` when the budget ran out first.
async fn within_budget(budget: Duration, request: Request, next: Next) -> Option<Response> {
    let deadline = Instant::now() + budget;
    let path = request.uri().path().to_string();
    let answered = deadline::within(
        deadline,
        tokio::time::timeout_at(deadline, next.run(request)),
    )
    .await;
    match answered {
        Ok(response) => Some(response),
        Err(_) => {
            tracing::warn!(http.path = %path, budget_ms = budget.as_millis() as u64, "request budget spent");
            None
        }
    }
}
