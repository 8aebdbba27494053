//! `GET /invoice/download/{id}` (orders `GetInvoice`): the tax invoice of one of the caller's paid
//! orders, as the PDF the browser downloads. Not part of `/api`: the account's order list links
//! here and the browser opens the link, so the answers are a browser's, not the envelope's. A
//! guest is sent home to sign in (as the account pages do); an order that is not the caller's,
//! does not exist or is not paid yet gets the storefront's not-found page, all three alike.

use axum::Extension;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect, Response};
use http::{HeaderValue, header};
use tiffin_proto::orders::v1::{GetInvoiceRequest, GetInvoiceResponse};
use tonic::Code;

use crate::http::error::mapping;
use crate::http::visitor::{SessionUnavailable, Visitor};
use crate::infra::state::AppState;
use crate::routes::orders::order_id;
use crate::routes::platform::pages;

/// The route, as the router mounts it.
pub const ROUTE: &str = "/invoice/download/{id}";

/// An invoice is the customer's alone: no shared cache may keep it, and it is fetched afresh.
const CACHE_CONTROL: &str = "private, no-store";

/// `GET /invoice/download/{id}`
pub async fn download(
    State(state): State<AppState>,
    visitor: Option<Extension<Visitor>>,
    unavailable: Option<Extension<SessionUnavailable>>,
    Path(id): Path<String>,
) -> Response {
    // Mounted beside the pages, outside `/api`: the root span does not learn its route by itself.
    tracing::Span::current().record("http.route", ROUTE);
    let visitor = visitor.map(|Extension(v)| v);
    if let (None, Some(Extension(SessionUnavailable(status)))) = (&visitor, unavailable) {
        // Who is asking cannot be known right now: neither "sign in" nor "not found" is true.
        return pages::error_page(mapping(status.code()).http);
    }
    let Some(user) = visitor.as_ref().filter(|v| v.user_id.is_some()) else {
        return Redirect::to("/").into_response();
    };
    let Ok(order_id) = order_id::parse(&id) else {
        return pages::not_found(&state, visitor.as_ref()).await;
    };
    let up = &state.upstreams;
    match up
        .orders
        .clone()
        .get_invoice(up.request(GetInvoiceRequest { order_id }, &user.caller()))
        .await
    {
        Ok(reply) => pdf_reply(order_id, reply.into_inner()),
        // Not the caller's, not there, or not paid (no invoice exists yet): one answer for all.
        Err(status)
            if matches!(
                status.code(),
                Code::NotFound | Code::FailedPrecondition | Code::InvalidArgument
            ) =>
        {
            tracing::info!(grpc.code = ?status.code(), grpc.message = %status.message(), "no invoice for this caller");
            pages::not_found(&state, visitor.as_ref()).await
        }
        Err(status) if status.code() == Code::Unauthenticated => Redirect::to("/").into_response(),
        Err(status) => {
            let http = mapping(status.code()).http;
            tracing::error!(grpc.code = ?status.code(), grpc.message = %status.message(), http.status = http.as_u16(), "invoice could not be had");
            pages::error_page(http)
        }
    }
}

fn pdf_reply(order_id: u64, invoice: GetInvoiceResponse) -> Response {
    let disposition = format!(
        "attachment; filename=\"{}\"",
        attachment_name(&invoice.file_name, order_id)
    );
    let disposition = HeaderValue::from_str(&disposition)
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"));
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static(CACHE_CONTROL),
            ),
        ],
        invoice.pdf,
    )
        .into_response()
}

/// The service's file name made safe for a quoted header parameter: letters, digits, `.`, `-` and
/// `_` are kept and anything else becomes `_`, so no name can end the header or smuggle a path.
fn attachment_name(file_name: &str, order_id: u64) -> String {
    let name: String = file_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.trim_matches(['.', '_']).is_empty() {
        format!("tiffin-invoice-{order_id}.pdf")
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use super::*;

    #[test]
    fn the_pdf_is_an_attachment_under_the_services_name_kept_from_every_cache() {
        let response = pdf_reply(
            123,
            GetInvoiceResponse {
                pdf: b"%PDF-1.4 ...".to_vec(),
                file_name: "tiffin-invoice-123.pdf".into(),
            },
        );

        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers();
        assert_eq!(headers[header::CONTENT_TYPE], "application/pdf");
        assert_eq!(
            headers[header::CONTENT_DISPOSITION],
            "attachment; filename=\"tiffin-invoice-123.pdf\""
        );
        assert_eq!(headers[header::CACHE_CONTROL], "private, no-store");
    }

    #[test]
    fn a_file_name_cannot_break_out_of_its_header() {
        assert_eq!(attachment_name("a\"; b=\r\nx.pdf", 1), "a___b___x.pdf");
        assert_eq!(attachment_name("../../etc/passwd", 1), ".._.._etc_passwd");
        assert_eq!(attachment_name("", 42), "tiffin-invoice-42.pdf");
        assert_eq!(attachment_name("...", 42), "tiffin-invoice-42.pdf");
    }
}
