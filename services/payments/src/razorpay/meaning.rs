//! What Razorpay's words mean to us: a payment's status or a refusal as an [`Outcome`] with the
//! customer's reason (ours, never Razorpay's description, which is for our logs), and its bank
//! codes as ours. Pure.

use crate::gateway::Outcome;

use super::wire::{ApiError, Payment};

/// The customer's reasons.
pub const OTP_WRONG: &str = "The OTP you entered is incorrect";
pub const NOT_VERIFIED: &str = "Your bank could not verify the payment";
pub const INSUFFICIENT_FUNDS: &str = "Your bank declined the payment: insufficient funds";
pub const EXPIRED: &str = "The payment request expired before it was approved";
pub const BANK_DECLINED: &str = "Your bank declined the payment";
pub const CARD_DECLINED: &str = "Your card was declined";
pub const UPI_DECLINED: &str = "The payment was declined in your UPI app";
pub const VPA_UNKNOWN: &str = "This UPI ID does not exist. Please check it and try again";
pub const NOT_STARTED: &str = "Your payment could not be started. Please try another way to pay";

/// Where a payment Razorpay holds stands. `method` matters only while it is `created`: a card or
/// netbanking payment then waits on the customer's bank, a UPI collect on their UPI app.
pub fn payment_outcome(payment: &Payment) -> Outcome {
    match payment.status.as_str() {
        "captured" | "refunded" => Outcome::Captured,
        "authorized" => Outcome::Authorized,
        "failed" => failure(&payment.error(), &payment.method),
        // `created` and anything newer than this code: still in progress.
        _ if payment.method == "upi" => Outcome::Pending,
        _ => Outcome::ChallengeRequired,
    }
}

/// A failed payment, or a refusal of one, as the customer's outcome. A refusal before the bank was
/// asked (`payment_initiation`) is a decline; one by the customer or their bank is an
/// authorisation or authentication failure.
pub fn failure(error: &ApiError, method: &str) -> Outcome {
    let reason = na(&error.reason);
    let step = na(&error.step);
    let description = na(&error.description).to_ascii_lowercase();
    match reason {
        "payment_cancelled" | "payment_cancelled_by_user" | "user_cancelled" => Outcome::Aborted,
        "incorrect_otp" | "invalid_otp" | "otp_attempts_exceeded" => {
            Outcome::AuthenticationFailed(OTP_WRONG.into())
        }
        "authentication_failed" | "payment_authentication_failed" => {
            Outcome::AuthenticationFailed(NOT_VERIFIED.into())
        }
        "insufficient_funds" | "insufficient_balance" => {
            Outcome::AuthorizationFailed(INSUFFICIENT_FUNDS.into())
        }
        "payment_timed_out" | "payment_expired" | "collect_request_expired" => {
            Outcome::AuthorizationFailed(EXPIRED.into())
        }
        "invalid_vpa" | "vpa_not_found" => Outcome::Declined(VPA_UNKNOWN.into()),
        // Razorpay's OTP refusal documents only its description.
        _ if description.contains("otp") => Outcome::AuthenticationFailed(OTP_WRONG.into()),
        _ if step == "payment_authentication" => Outcome::AuthenticationFailed(NOT_VERIFIED.into()),
        _ if step == "payment_initiation" || step.is_empty() => Outcome::Declined(
            if method == "card" {
                CARD_DECLINED
            } else {
                NOT_STARTED
            }
            .into(),
        ),
        _ if method == "upi" => Outcome::AuthorizationFailed(UPI_DECLINED.into()),
        _ => Outcome::AuthorizationFailed(BANK_DECLINED.into()),
    }
}

/// A field Razorpay may leave null or `"NA"`.
fn na(field: &Option<String>) -> &str {
    match field.as_deref() {
        None | Some("NA") => "",
        Some(v) => v,
    }
}

/// Razorpay's codes (IFSC prefixes) of the banks our payment methods name, and ours.
const BANKS: &[(&str, &str)] = &[
    ("SBIN", "SBI"),
    ("HDFC", "HDFC"),
    ("ICIC", "ICICI"),
    ("UTIB", "AXIS"),
    ("KKBK", "KOTAK"),
];

/// Our code of a Razorpay bank: the banks with a `payment_methods` row of their own keep our
/// name for them; every other bank keeps Razorpay's code.
pub fn our_bank_code(razorpay: &str) -> String {
    let razorpay = razorpay.to_ascii_uppercase();
    BANKS
        .iter()
        .find(|(theirs, _)| *theirs == razorpay)
        .map_or(razorpay.clone(), |(_, ours)| (*ours).to_string())
}

/// Razorpay's code of one of our bank codes.
pub fn razorpay_bank_code(ours: &str) -> String {
    BANKS
        .iter()
        .find(|(_, o)| *o == ours)
        .map_or(ours.to_string(), |(theirs, _)| (*theirs).to_string())
}

/// Whether our bank code is one of the banks shown first (those with their own switch).
pub fn is_listed_first(ours: &str) -> Option<usize> {
    BANKS.iter().position(|(_, o)| *o == ours)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(reason: &str, step: &str) -> ApiError {
        ApiError {
            code: Some("BAD_REQUEST_ERROR".into()),
            description: Some("Razorpay's own words".into()),
            source: Some("customer".into()),
            step: Some(step.into()),
            reason: Some(reason.into()),
            metadata: None,
        }
    }

    #[test]
    fn refusals_read_as_the_customers_outcome_in_our_words() {
        assert_eq!(
            failure(
                &refused("insufficient_funds", "payment_authorization"),
                "card"
            ),
            Outcome::AuthorizationFailed(INSUFFICIENT_FUNDS.into())
        );
        assert_eq!(
            failure(&refused("incorrect_otp", "payment_authentication"), "card"),
            Outcome::AuthenticationFailed(OTP_WRONG.into())
        );
        assert_eq!(
            failure(
                &refused("payment_cancelled", "payment_authentication"),
                "netbanking"
            ),
            Outcome::Aborted
        );
        assert_eq!(
            failure(&refused("card_declined", "payment_initiation"), "card"),
            Outcome::Declined(CARD_DECLINED.into())
        );
        assert_eq!(
            failure(&refused("NA", "NA"), "upi"),
            Outcome::Declined(NOT_STARTED.into())
        );
        assert_eq!(
            failure(&refused("bank_declined", "payment_authorization"), "upi"),
            Outcome::AuthorizationFailed(UPI_DECLINED.into())
        );
        // Razorpay's description never reaches the customer.
        let Outcome::AuthorizationFailed(reason) =
            failure(&refused("whatever", "payment_authorization"), "card")
        else {
            panic!("an authorisation failure");
        };
        assert!(!reason.contains("Razorpay"));
    }

    #[test]
    fn bank_codes_translate_both_ways_and_others_keep_razorpays() {
        assert_eq!(our_bank_code("ICIC"), "ICICI");
        assert_eq!(our_bank_code("utib"), "AXIS");
        assert_eq!(our_bank_code("YESB"), "YESB");
        assert_eq!(razorpay_bank_code("KOTAK"), "KKBK");
        assert_eq!(razorpay_bank_code("YESB"), "YESB");
    }
}
