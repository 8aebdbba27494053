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
//! and answered with the payment as it stands: the gateway must not keep retrying it. The one
//! exception is money: a capture for a payment we had already failed is refunded at the gateway
//! there and then.

use crate::charges::Charges;
use crate::clock::now_ms;
use crate::error::Error;
use crate::gateway::{Callback, CallbackError, Outcome};
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

/// The refund id under which money captured after its payment had failed goes back: one per
/// payment, so the gateway's own deduplication makes every retry of the callback the same refund.
pub fn late_capture_refund_id(payment_id: &str) -> String {
    format!("late-{payment_id}")
}

/// Money the gateway captured for a payment we had already failed (a UPI collect approved after its
/// deadline, a bank page finished after it expired): no order waits for it, so the customer gets
/// it back at once instead of waiting for someone to reconcile it. Only the gateway's part goes
/// back; a split's Tiffin Money was returned when the payment failed. When the gateway does not
/// answer the callback is not remembered, so the gateway's retry asks again.
async fn return_late_capture(
    charges: &Charges,
    payment: &PaymentRow,
    reference: &str,
) -> Result<(), Error> {
    let online_paise = payment.amount_paise - payment.tiffin_money_paise;
    if online_paise <= 0 {
        return Ok(());
    }
    let refund_id = late_capture_refund_id(&payment.payment_id);
    let gateway_refund = charges
        .gateway
        .refund(reference, &refund_id, online_paise)
        .await
        .map_err(crate::charges::gateway_error)?;
    tracing::warn!(
        payment_id = payment.payment_id,
        status = %payment.status,
        online_paise,
        gateway_refund,
        "captured after the payment had failed: refunded at the gateway"
    );
    Ok(())
}

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
        Err(Error::WrongState { .. })
            if event.outcome == Outcome::Captured && payment.status.is_failed() =>
        {
            return_late_capture(charges, &payment, &event.reference).await?;
            payment
        }
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
