//! The payment state machine: the statuses a payment can be in and the one table of which status
//! may follow which. Pure: the store asks [`Status::may_become`] before it writes, and writes with a
//! conditional UPDATE (`WHERE status = old`), so an illegal step is never stored and a concurrent
//! second step cannot overwrite the first.
//!
//! ```text
//!  NEW ──▶ PENDING_VBV ──▶ AUTHORIZING ──▶ CHARGED ──▶ PARTIALLY_REFUNDED ──▶ REFUNDED
//!   │          │  │  └─▶ AUTHENTICATION_FAILED                └──(again)──┘      ▲
//!   │          │  └────▶ USER_ABORTED                                          │
//!   │          └───────▶ CHARGED (UPI settles) / AUTHORIZATION_FAILED         CHARGED ─┘
//!   ├─▶ AUTHORIZING ──▶ AUTHORIZATION_FAILED
//!   ├─▶ DECLINED
//!   └─▶ CHARGED (cash on delivery)
//! ```

/// Where a payment stands. The names are the payment SDK's (DECLINED is its JUSPAY_DECLINED),
/// plus the two refund states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    New,
    PendingVbv,
    Authorizing,
    Charged,
    AuthenticationFailed,
    AuthorizationFailed,
    Declined,
    UserAborted,
    PartiallyRefunded,
    Refunded,
}

impl Status {
    /// Every status, for exhaustive tests and documentation.
    pub const ALL: [Status; 10] = [
        Status::New,
        Status::PendingVbv,
        Status::Authorizing,
        Status::Charged,
        Status::AuthenticationFailed,
        Status::AuthorizationFailed,
        Status::Declined,
        Status::UserAborted,
        Status::PartiallyRefunded,
        Status::Refunded,
    ];

    /// The word stored in the `status` columns (and shown in `docs/payments.md`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::New => "NEW",
            Status::PendingVbv => "PENDING_VBV",
            Status::Authorizing => "AUTHORIZING",
            Status::Charged => "CHARGED",
            Status::AuthenticationFailed => "AUTHENTICATION_FAILED",
            Status::AuthorizationFailed => "AUTHORIZATION_FAILED",
            Status::Declined => "DECLINED",
            Status::UserAborted => "USER_ABORTED",
            Status::PartiallyRefunded => "PARTIALLY_REFUNDED",
            Status::Refunded => "REFUNDED",
        }
    }

    /// The status a stored word names; `None` for a word this code never writes.
    pub fn parse(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == word)
    }

    /// The one transition table. A partial refund after a partial refund is a step of its own
    /// (PARTIALLY_REFUNDED → PARTIALLY_REFUNDED): every refund is an event in the history.
    pub fn may_become(self, next: Status) -> bool {
        use Status::*;
        matches!(
            (self, next),
            // The gateway's first answer (or cash on delivery, which needs none).
            (New, PendingVbv | Authorizing | Declined | Charged)
            // 3-D Secure: right OTP, wrong OTP, abandoned; UPI: settled, refused or expired.
            | (PendingVbv, Authorizing | AuthenticationFailed | UserAborted | Charged | AuthorizationFailed)
            // The bank authorised and the capture went through, or the bank refused.
            | (Authorizing, Charged | AuthorizationFailed)
            // Refunds.
            | (Charged | PartiallyRefunded, PartiallyRefunded | Refunded)
        )
    }

    /// No gateway answer can change it any more (refunds aside): charged, refunded or failed.
    pub fn is_settled(self) -> bool {
        !matches!(self, Status::New | Status::PendingVbv | Status::Authorizing)
    }

    /// Money was taken and may be refunded.
    pub fn is_refundable(self) -> bool {
        matches!(self, Status::Charged | Status::PartiallyRefunded)
    }

    /// It ended without taking money.
    pub fn is_failed(self) -> bool {
        matches!(
            self,
            Status::AuthenticationFailed
                | Status::AuthorizationFailed
                | Status::Declined
                | Status::UserAborted
        )
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Status::{self, *};

    /// Every allowed step, written out once more by hand: the table above must say exactly this.
    const ALLOWED: &[(Status, Status)] = &[
        (New, PendingVbv),
        (New, Authorizing),
        (New, Declined),
        (New, Charged),
        (PendingVbv, Authorizing),
        (PendingVbv, AuthenticationFailed),
        (PendingVbv, UserAborted),
        (PendingVbv, Charged),
        (PendingVbv, AuthorizationFailed),
        (Authorizing, Charged),
        (Authorizing, AuthorizationFailed),
        (Charged, PartiallyRefunded),
        (Charged, Refunded),
        (PartiallyRefunded, PartiallyRefunded),
        (PartiallyRefunded, Refunded),
    ];

    #[test]
    fn the_transition_table_allows_exactly_the_listed_steps_of_all_100_pairs() {
        let mut checked = 0;
        for from in Status::ALL {
            for to in Status::ALL {
                let expected = ALLOWED.contains(&(from, to));
                assert_eq!(from.may_become(to), expected, "{from} → {to}");
                checked += 1;
            }
        }
        assert_eq!(checked, 100);
    }

    #[test]
    fn failed_and_refunded_payments_are_final() {
        for from in [
            AuthenticationFailed,
            AuthorizationFailed,
            Declined,
            UserAborted,
            Refunded,
        ] {
            for to in Status::ALL {
                assert!(!from.may_become(to), "{from} → {to}");
            }
        }
    }

    #[test]
    fn nothing_goes_back_to_new_or_to_pending() {
        for from in Status::ALL {
            assert!(!from.may_become(New), "{from} → NEW");
            if from != New {
                assert!(!from.may_become(PendingVbv), "{from} → PENDING_VBV");
            }
        }
    }

    #[test]
    fn every_word_round_trips_and_unknown_words_do_not_parse() {
        for s in Status::ALL {
            assert_eq!(Status::parse(s.as_str()), Some(s));
        }
        assert_eq!(Status::parse("JUSPAY_DECLINED"), None);
        assert_eq!(Status::parse("charged"), None);
    }

    #[test]
    fn settled_failed_and_refundable_partition_sensibly() {
        for s in Status::ALL {
            if s.is_failed() || s.is_refundable() || s == Refunded {
                assert!(s.is_settled(), "{s}");
            }
            assert!(!(s.is_failed() && s.is_refundable()), "{s}");
        }
        assert!(!New.is_settled() && !PendingVbv.is_settled() && !Authorizing.is_settled());
    }
}
