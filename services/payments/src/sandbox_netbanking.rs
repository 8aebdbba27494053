//! The sandbox's netbanking: the banks it lists and what each choice on its bank page means.
//!
//! A netbanking payment waits for the customer on the bank's page (the edge serves the sandbox's
//! one, `/sandbox/bank/<payment id>`); the bank's code rides in the payment's reference
//! (`sbx_nb_<code>_<created ms>_<uuid>`), so, like the rest of the sandbox, it keeps no state.

use crate::gateway::{Bank, BankDecision, Challenge, Outcome};

/// The banks the sandbox takes netbanking payments from: (code, name), in the order shown.
pub const SANDBOX_BANKS: &[(&str, &str)] = &[
    ("HDFC", "HDFC Bank"),
    ("ICICI", "ICICI Bank"),
    ("SBI", "State Bank of India"),
    ("AXIS", "Axis Bank"),
    ("KOTAK", "Kotak Mahindra Bank"),
];

/// The sandbox gateway's name, as payments store it (`payments.gateway`).
pub const SANDBOX: &str = "sandbox";

/// Where the sandbox's bank page is: the edge serves it (a real gateway's bank page is the bank's
/// own site), followed by the payment id.
pub const SANDBOX_BANK_PAGE: &str = "/sandbox/bank/";

/// The failure reason of a payment the customer declined on the bank's page.
pub const BANK_DECLINED: &str = "Your bank declined the payment";

/// The sandbox's banks.
pub fn banks() -> Vec<Bank> {
    SANDBOX_BANKS
        .iter()
        .map(|&(code, name)| Bank {
            code: code.into(),
            name: name.into(),
        })
        .collect()
}

/// Whether `code` is one of the sandbox's banks (as the service upper-cases it).
pub fn is_bank(code: &str) -> bool {
    SANDBOX_BANKS.iter().any(|(c, _)| *c == code)
}

/// What the customer's choice on the bank page does to a payment waiting there; `None` for a
/// challenge that is not a bank page's (an OTP).
pub fn outcome(challenge: &Challenge) -> Option<Outcome> {
    match challenge {
        Challenge::Bank(BankDecision::Approve) => Some(Outcome::Captured),
        Challenge::Bank(BankDecision::Decline) => {
            Some(Outcome::AuthorizationFailed(BANK_DECLINED.into()))
        }
        Challenge::Bank(BankDecision::Cancel) | Challenge::Abandon => Some(Outcome::Aborted),
        Challenge::Otp(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_on_the_bank_page_has_its_outcome() {
        assert_eq!(
            outcome(&Challenge::Bank(BankDecision::Approve)),
            Some(Outcome::Captured)
        );
        assert_eq!(
            outcome(&Challenge::Bank(BankDecision::Decline)),
            Some(Outcome::AuthorizationFailed(BANK_DECLINED.into()))
        );
        assert_eq!(
            outcome(&Challenge::Bank(BankDecision::Cancel)),
            Some(Outcome::Aborted)
        );
        assert_eq!(outcome(&Challenge::Otp("123456".into())), None);
    }

    #[test]
    fn the_banks_are_listed_by_upper_case_code() {
        assert_eq!(banks().len(), 5);
        assert!(is_bank("HDFC") && is_bank("KOTAK"));
        assert!(!is_bank("hdfc") && !is_bank("YES"));
    }
}
