//! HandleGatewayCallback: a gateway's signed notification that a payment moved (a UPI collect
//! approved, a payment failed at the bank).
//!
//! The signature is checked over the raw body before anything is read, and a notification signed
//! more than [`MAX_AGE_MS`] before now (or after: a clock far ahead) is refused, so one caught on
//! the way cannot be replayed later. The notification is then
//! applied through the same steps as a poll (`Charges::follow`), and its event id is remembered
//! (`gateway_callbacks`) only after it was applied, so a failure on the way lets the gateway's
//! retry apply it, and a replay afterwards changes nothing. A notification that does not fit the
//! payment any more (a late "failed" for a payment already charged) is logged for reconciliation
//! and answered with the payment as it stands: the gateway must not keep retrying it.

use crate::charges::Charges;
use crate::clock::now_ms;
use crate::error::Error;
use crate::gateway::{Callback, CallbackError};
use crate::store::{self, Change, PaymentRow};

/// What a callback did.
#[derive(Debug, Clone)]
pub struct Handled {
    pub payment: PaymentRow,
    /// Its event id had been applied before.
    pub duplicate: bool,
}

/// How far from now a callback's signed time may be: five minutes, either way.
pub const MAX_AGE_MS: i64 = 5 * 60 * 1000;

/// Verifies and applies one callback.
pub async fn handle(charges: &Charges, callback: &Callback<'_>) -> Result<Handled, Error> {
    let event = charges.gateway.verify_callback(callback)?;
    let age_ms = now_ms() - event.signed_at_ms;
    if age_ms.abs() > MAX_AGE_MS {
        return Err(CallbackError::Stale {
            age_secs: age_ms / 1000,
        }
        .into());
    }
    let pool = charges.writer.pool();
    let payment = store::by_reference(pool, &event.reference)
        .await?
        .ok_or_else(|| Error::UnknownReference(event.reference.clone()))?;
    if store::callback_seen(pool, &event.event_id).await? {
        return Ok(Handled {
            payment,
            duplicate: true,
        });
    }
    let payment = match charges
        .follow(
            payment.clone(),
            event.outcome.clone(),
            Change::default(),
            "change so",
        )
        .await
    {
        Ok(row) => row,
        Err(Error::WrongState { status, .. }) => {
            tracing::warn!(
                payment_id = payment.payment_id,
                %status,
                outcome = ?event.outcome,
                "gateway callback does not fit the payment; left for reconciliation"
            );
            payment
        }
        Err(e) => return Err(e),
    };
    let recorded = charges
        .writer
        .write(async |c| {
            sqlx::query(
                "INSERT INTO gateway_callbacks (event_id, payment_id, received_at_ms) \
                 VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING",
            )
            .bind(&event.event_id)
            .bind(&payment.payment_id)
            .bind(now_ms())
            .execute(c)
            .await
        })
        .await?
        .rows_affected()
        == 1;
    Ok(Handled {
        payment,
        duplicate: !recorded,
    })
}
