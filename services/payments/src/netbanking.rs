//! Netbanking: the gateway's banks (ListNetbankingBanks), a bank code read from a request, and the
//! customer's choice on the bank's page as the gateway's challenge.
//!
//! A netbanking payment is created at the gateway, waits in PENDING_VBV while the customer is on
//! the bank's page (`next_action` REDIRECT_TO_BANK), and ends with what they chose there: approve
//! (CHARGED), decline (AUTHORIZATION_FAILED) or cancel (USER_ABORTED), passed on through
//! AuthenticatePayment. A payment's code is its bank's `payment_methods` row (`nb_hdfc`…, the
//! switch operators turn a bank off with; `nb_other` for the gateway's other banks), and the
//! gateway's code of the bank is the payment's `bank_code`.

use tiffin_proto::payments::v1::BankDecision as PbDecision;

use crate::error::Error;
use crate::gateway::{Bank, BankDecision, Challenge, Gateway, GatewayError};

/// The gateway's bank `typed` names (case-insensitive), or INVALID_ARGUMENT naming the ones there
/// are. Asked of the gateway, which is the one that knows its banks.
pub async fn bank(gateway: &dyn Gateway, typed: &str) -> Result<Bank, Error> {
    let typed = typed.trim().to_ascii_uppercase();
    let banks = gateway.netbanking_banks().await.map_err(|e| match e {
        GatewayError::Unavailable(detail) => Error::GatewayUnavailable(detail),
        other => Error::Gateway(other.to_string()),
    })?;
    if typed.is_empty() {
        return Err(Error::Invalid("Please choose your bank".into()));
    }
    let codes = banks
        .iter()
        .map(|b| b.code.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    banks
        .iter()
        .find(|b| b.code == typed)
        .cloned()
        .ok_or_else(|| Error::Invalid(format!("Unknown bank code. Please choose one of {codes}")))
}

/// A netbanking payment's code: its bank's `payment_methods` row (`nb_hdfc`…), which is also
/// the switch that turns the bank off; `nb_other` for every other bank of the gateway.
pub fn payment_code(bank_code: &str) -> &'static str {
    match bank_code {
        "SBI" => "nb_sbi",
        "HDFC" => "nb_hdfc",
        "ICICI" => "nb_icici",
        "AXIS" => "nb_axis",
        "KOTAK" => "nb_kotak",
        _ => "nb_other",
    }
}

/// Whether a stored payment code is a netbanking payment's.
pub fn is_netbanking(payment_code: &str) -> bool {
    payment_code.starts_with("nb_")
}

/// The customer's choice on the bank page as the gateway's challenge.
pub fn challenge(decision: i32) -> Result<Challenge, Error> {
    match PbDecision::try_from(decision) {
        Ok(PbDecision::Approve) => Ok(Challenge::Bank(BankDecision::Approve)),
        Ok(PbDecision::Decline) => Ok(Challenge::Bank(BankDecision::Decline)),
        Ok(PbDecision::Cancel) => Ok(Challenge::Bank(BankDecision::Cancel)),
        Ok(PbDecision::Unspecified) | Err(_) => Err(Error::Invalid(
            "Please approve, decline or cancel the payment".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_listed_bank_has_its_code_and_the_rest_share_one() {
        assert_eq!(payment_code("HDFC"), "nb_hdfc");
        assert_eq!(payment_code("SBI"), "nb_sbi");
        assert_eq!(payment_code("YES"), "nb_other");
        assert!(is_netbanking("nb_other") && !is_netbanking("card"));
    }

    #[test]
    fn an_unspecified_decision_is_refused() {
        assert!(challenge(0).is_err());
        assert!(challenge(99).is_err());
        assert_eq!(
            challenge(PbDecision::Decline as i32).ok(),
            Some(Challenge::Bank(BankDecision::Decline))
        );
    }
}
