//! Pending payments end at their deadline: a UPI collect nobody approves and a netbanking payment
//! whose bank page was left open would otherwise stay PENDING_VBV for ever, keep the orders
//! service asking about them, and (split pay) hold the customer's Tiffin Money.
//!
//! Every [`EXPIRE_EVERY`], [`Expiry::run_once`] takes the pending UPI and netbanking payments past
//! their deadline (created + `PAYMENTS_UPI_EXPIRY_SECS` or `PAYMENTS_NETBANKING_EXPIRY_SECS`),
//! oldest first, and asks the gateway about each one last time: an answer that arrived meanwhile
//! (approved, refused) is applied as it would be on a poll. One still pending is failed
//! (AUTHORIZATION_FAILED, with the reason for the customer), and its Tiffin Money part goes back in
//! that same step ([`crate::store::apply`]). A gateway that does not answer leaves the payment for
//! the next round.

use std::time::Duration;

use crate::charges::Charges;
use crate::error::Error;
use crate::gateway::Outcome;
use crate::netbanking;
use crate::status::Status;
use crate::store::{self, Change, PaymentRow};

/// How often the expiry runs.
pub const EXPIRE_EVERY: Duration = Duration::from_secs(15);
/// Payments read at a time.
const BATCH: i64 = 100;

/// The failure reason of a UPI collect that expired.
pub const UPI_EXPIRED: &str = "The UPI request expired before it was approved";
/// The failure reason of a netbanking payment that expired.
pub const NETBANKING_EXPIRED: &str = "The bank did not confirm the payment in time";

/// The deadlines, and the charge flows to apply what the gateway says.
pub struct Expiry {
    charges: Charges,
    upi: Duration,
    netbanking: Duration,
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Expiry {
    pub fn new(charges: Charges, upi: Duration, netbanking: Duration) -> Self {
        Self {
            charges,
            upi,
            netbanking,
        }
    }

    /// Ends every pending UPI and netbanking payment past its deadline at `now_ms`; answers how
    /// many it failed as expired.
    pub async fn run_once(&self, now_ms: i64) -> Result<usize, Error> {
        let upi_before = now_ms.saturating_sub(millis(self.upi));
        let netbanking_before = now_ms.saturating_sub(millis(self.netbanking));
        let mut expired = 0;
        let mut after_ms = i64::MIN;
        loop {
            let due = store::pending_past(
                self.charges.writer.pool(),
                upi_before,
                netbanking_before,
                after_ms,
                BATCH,
            )
            .await?;
            for row in &due {
                after_ms = after_ms.max(row.created_at_ms);
                match self.end(row.clone()).await {
                    Ok(true) => expired += 1,
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, payment_id = %row.payment_id, "pending payment not expired yet")
                    }
                }
            }
            if usize::try_from(BATCH).is_ok_and(|b| due.len() < b) {
                return Ok(expired);
            }
        }
    }

    /// Asks the gateway once more, then fails the payment if it is still pending. Whether it
    /// failed it as expired.
    async fn end(&self, row: PaymentRow) -> Result<bool, Error> {
        let reason = if netbanking::is_netbanking(&row.payment_code) {
            NETBANKING_EXPIRED
        } else {
            UPI_EXPIRED
        };
        let row = match &row.gateway_reference {
            Some(reference) => match self.charges.gateway.status(reference).await {
                Ok(Outcome::Pending | Outcome::ChallengeRequired) => row,
                Ok(outcome) => {
                    self.charges
                        .follow(row, outcome, Change::default(), "be updated")
                        .await?;
                    return Ok(false);
                }
                Err(e) => return Err(crate::charges::gateway_error(e)),
            },
            None => row,
        };
        let failed = self
            .charges
            .follow(
                row,
                Outcome::AuthorizationFailed(reason.into()),
                Change::default(),
                "expire",
            )
            .await?;
        Ok(failed.status == Status::AuthorizationFailed)
    }

    /// Runs [`Self::run_once`] every [`EXPIRE_EVERY`] until the process ends; a failed round is
    /// logged and tried again next time.
    pub async fn run_forever(self: std::sync::Arc<Self>) {
        let mut every = tokio::time::interval(EXPIRE_EVERY);
        loop {
            every.tick().await;
            if let Err(e) = self.run_once(crate::clock::now_ms()).await {
                tracing::warn!(error = %e, "pending payment expiry failed");
            }
        }
    }
}
