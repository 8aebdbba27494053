//! The payments service's errors and how each reaches a caller.
//!
//! A customer's mistake (a card number, an expired card, a wrong state, too large a refund) is
//! answered in words meant for the customer, with the storefront's general code 1 beside it. A
//! gateway that does not answer is UNAVAILABLE; storage and any other fault of ours is logged in
//! full and answered "Oops! Something went wrong." A refused payment (declined card) is not an
//! error at all: it is a payment with a failed status.

use tiffin_platform::money::rupees;
use tiffin_platform::status::with_code;
use tonic::{Code, Status};

use crate::card::CardError;
use crate::gateway::CallbackError;
use crate::status::Status as PaymentStatus;
use crate::vpa::VpaError;

/// The storefront's general "ERROR" code, shown by the edge as `statusCode` 1.
pub const SPEC_ERROR: u32 = 1;

/// Anything that can go wrong answering a payments call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The call names no signed-in user.
    #[error("no signed-in user in the metadata")]
    NoCaller,
    /// A request field is missing or unusable; the text is worded for the customer.
    #[error("invalid request: {0}")]
    Invalid(String),
    /// A typed card that cannot be used.
    #[error("card: {0}")]
    Card(#[from] CardError),
    /// A typed UPI address that is not one.
    #[error("vpa: {0}")]
    Vpa(#[from] VpaError),
    /// The idempotency key was used before for a different request.
    #[error("idempotency key reused with a different request")]
    KeyReused,
    /// No such payment, refund or card of the caller's (another user's looks the same).
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The payment's status does not allow the action.
    #[error("payment is {status}: cannot {action}")]
    WrongState {
        status: PaymentStatus,
        action: &'static str,
    },
    /// The payment method is switched off (`payment_methods.enabled = 0`).
    #[error("payment method {0} is switched off")]
    MethodUnavailable(String),
    /// A split whose Tiffin Money would pay everything, for a bill whose coupon needs the
    /// method (its name) to pay.
    #[error("split leaves {0} nothing to pay")]
    MethodMustPay(String),
    /// Cash on delivery above the limit.
    #[error("cash on delivery above {limit_paise} paise")]
    CodLimit { limit_paise: i64 },
    /// The payment took no money online (cash on delivery).
    #[error("payment not refundable online")]
    NotRefundable,
    /// More than is left to refund.
    #[error("refund larger than the {refundable_paise} paise left")]
    RefundTooLarge { refundable_paise: i64 },
    /// A callback that is not signed right or not understood.
    #[error("callback: {0}")]
    Callback(#[from] CallbackError),
    /// A signed callback about a payment we do not have.
    #[error("callback for unknown gateway reference {0}")]
    UnknownReference(String),
    /// A wallet or pay-later action with no account linked (its name).
    #[error("{0} not linked")]
    NotLinked(&'static str),
    /// A wallet or pay-later action where no provider is configured (its name).
    #[error("{0} not offered")]
    NotOffered(&'static str),
    /// An OTP asked for again on an account already linked (its name).
    #[error("{0} already linked")]
    AlreadyLinked(&'static str),
    /// An OTP given (or asked again) when no link waits for one.
    #[error("no OTP pending")]
    NoOtpPending,
    /// Too many wrong linking OTPs: linking the account is locked for this many seconds.
    #[error("OTP locked for {retry_after_secs} s")]
    Locked { retry_after_secs: i64 },
    /// The wallet or pay-later provider (its name) did not answer an action.
    #[error("{0} provider unavailable")]
    ProviderUnavailable(&'static str),
    /// The gateway did not answer; the call may be retried (with the same idempotency key).
    #[error("gateway unavailable: {0}")]
    GatewayUnavailable(String),
    /// The gateway answered something that breaks its contract.
    #[error("gateway broke its contract: {0}")]
    Gateway(String),
    /// A stored row does not read back as this code writes it.
    #[error("stored data unreadable: {0}")]
    Corrupt(String),
    /// Something inside the call panicked; caught before it reached the caller.
    #[error("panic: {0}")]
    Panic(String),
    /// Storage failed; logged in full, answered as a generic internal error.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<Error> for Status {
    fn from(e: Error) -> Self {
        let refuse = |code, message: String| with_code(code, SPEC_ERROR, message);
        match e {
            Error::NoCaller => Status::unauthenticated("Please login to continue."),
            Error::Invalid(message) => refuse(Code::InvalidArgument, message),
            Error::Card(card) => refuse(Code::InvalidArgument, card.to_string()),
            Error::Vpa(vpa) => refuse(Code::InvalidArgument, vpa.to_string()),
            Error::KeyReused => refuse(
                Code::AlreadyExists,
                "This idempotency key was already used for a different request. Use a new key \
                 for a new payment or refund"
                    .into(),
            ),
            Error::NotFound(what) => Status::not_found(format!("{what} not found")),
            Error::WrongState { status, action } => refuse(
                Code::FailedPrecondition,
                format!("This payment is {status} and cannot {action}"),
            ),
            Error::MethodUnavailable(_) => refuse(
                Code::FailedPrecondition,
                "This payment method is unavailable right now. Please choose another".into(),
            ),
            Error::CodLimit { limit_paise } => refuse(
                Code::FailedPrecondition,
                format!(
                    "Cash on delivery is available for orders up to {}. Please pay online",
                    rupees(limit_paise)
                ),
            ),
            Error::MethodMustPay(method) => refuse(
                Code::FailedPrecondition,
                format!(
                    "Your Tiffin Money covers the whole bill, so nothing is left to pay by \
                     {method}, which your coupon needs. Remove the coupon, or pay without Tiffin \
                     Money"
                ),
            ),
            Error::NotRefundable => refuse(
                Code::FailedPrecondition,
                "Cash on delivery payments are not refunded online".into(),
            ),
            Error::RefundTooLarge { refundable_paise } => refuse(
                Code::FailedPrecondition,
                format!(
                    "At most {} of this payment can be refunded",
                    rupees(refundable_paise)
                ),
            ),
            Error::NotLinked(name) => refuse(
                Code::FailedPrecondition,
                format!("Please link your {name} account first"),
            ),
            Error::NotOffered(name) => refuse(
                Code::FailedPrecondition,
                format!("{name} is not offered right now. Please choose another way to pay"),
            ),
            Error::AlreadyLinked(name) => refuse(
                Code::FailedPrecondition,
                format!("Your {name} account is already linked"),
            ),
            Error::NoOtpPending => refuse(
                Code::FailedPrecondition,
                "Please ask for an OTP first".into(),
            ),
            Error::Locked { retry_after_secs } => {
                tiffin_platform::status::too_many_attempts(retry_after_secs)
            }
            Error::ProviderUnavailable(name) => with_code(
                Code::Unavailable,
                SPEC_ERROR,
                format!("We could not reach {name}. Please try again in a moment"),
            ),
            Error::Callback(CallbackError::BadSignature) => {
                tracing::warn!("gateway callback with a bad signature refused");
                Status::unauthenticated("Invalid signature")
            }
            Error::Callback(CallbackError::Malformed(ref detail)) => {
                tracing::warn!(detail, "malformed gateway callback refused");
                Status::invalid_argument("Malformed callback")
            }
            Error::Callback(CallbackError::Stale { age_secs }) => {
                tracing::warn!(age_secs, "gateway callback outside its time window refused");
                Status::invalid_argument("Callback too old")
            }
            Error::UnknownReference(ref reference) => {
                tracing::warn!(reference, "gateway callback for an unknown payment");
                Status::not_found("Payment not found")
            }
            Error::GatewayUnavailable(ref detail) => {
                tracing::warn!(detail, "payment gateway unavailable");
                Status::unavailable(
                    "We could not reach the payment gateway. Please try again in a moment",
                )
            }
            Error::Database(ref err) => {
                tiffin_platform::database_error!(err, "payments database error")
            }
            Error::Gateway(_) | Error::Corrupt(_) | Error::Panic(_) => {
                tiffin_platform::internal_error!(e, "payments failed")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_detail_never_reaches_the_caller() {
        let status = Status::from(Error::Corrupt("status \"WHAT\"".into()));
        assert_eq!(
            (status.code(), status.message()),
            (Code::Internal, "Oops! Something went wrong.")
        );
    }

    #[test]
    fn a_reused_key_is_already_exists_with_a_reason() {
        let status = Status::from(Error::KeyReused);
        assert_eq!(status.code(), Code::AlreadyExists);
        assert!(status.message().contains("idempotency key"));
        assert_eq!(
            tiffin_platform::status::spec_code(&status),
            Some(SPEC_ERROR)
        );
    }
}
