//! `SettleChargedWithoutOrder`: the customer says they were charged but their order never came.
//!
//! Every charge that cannot pay for an order (its order was abandoned, or paid by another payment)
//! is refunded in full to its source by settlement, under the one key settlement uses for it, so a
//! charge is never refunded twice whoever asks (recovery, this call, a retry). This call brings the
//! customer's recent attempts to pay up to date at once, rather than at recovery's next look, and
//! answers every such charge of theirs: refunded, or pending while the payments service cannot
//! take it yet. A charged payment whose order was still awaiting it confirms that order instead:
//! the order was paid and comes. The same request again answers the same refunds.

use sqlx::Row;
use tiffin_proto::orders::v1::HelpRefund;
use tiffin_proto::payments::v1::{
    PaymentMethodType, PaymentStatus, RefundDestination, RefundStatus,
};
use tonic::Code;

use crate::attempts::{self, AttemptState, payment_key};
use crate::error::Error;
use crate::help_refunds::MAX_KEY_LEN;
use crate::orders::stored_id;
use crate::settlement::{Settlement, now};

/// How far back charges are looked for (seconds): a week, well past the help window of any order.
pub const LOOKBACK_SECS: i64 = 7 * 86_400;

/// The customer's charges without an order of the last [`LOOKBACK_SECS`], each refunded or pending.
pub async fn settle(
    settlement: &Settlement,
    user_id: u64,
    key: &str,
) -> Result<Vec<HelpRefund>, Error> {
    let key = key.trim();
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(Error::Invalid(format!(
            "An idempotency key of 1 to {MAX_KEY_LEN} characters is required."
        )));
    }
    let pool = settlement.pool();
    let recent = attempts::of_user_since(pool, user_id, now() - LOOKBACK_SECS).await?;
    let mut refunds = Vec::new();
    for attempt in &recent {
        if attempt.state == AttemptState::Open
            && let Err(e) = settlement.recover(attempt).await
        {
            // The payment stays charged and is answered as pending below.
            tracing::warn!(error = %e, order_id = attempt.order_id, "attempt not brought up to date");
        }
        let payment = match settlement
            .payments
            .by_key(user_id, &payment_key(&attempt.key))
            .await
        {
            Ok(payment) => payment,
            Err(s) if s.code() == Code::NotFound => continue,
            Err(s) => return Err(Error::Upstream(s)),
        };
        if payment.method == PaymentMethodType::CashOnDelivery as i32
            || paid_by(settlement, attempt.order_id).await? == payment.payment_id
        {
            continue;
        }
        let status = match PaymentStatus::try_from(payment.status).unwrap_or_default() {
            PaymentStatus::Refunded => RefundStatus::Refunded,
            PaymentStatus::Charged | PaymentStatus::PartiallyRefunded => RefundStatus::Pending,
            _ => continue,
        };
        refunds.push(HelpRefund {
            order_id: attempt.order_id,
            amount_paise: payment.amount_paise,
            destination: RefundDestination::Source.into(),
            status: status.into(),
        });
    }
    Ok(refunds)
}

/// The payment that paid for the order; "" when none did.
async fn paid_by(settlement: &Settlement, order_id: u64) -> Result<String, Error> {
    let id = stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
    let row = sqlx::query("SELECT paid_payment_id FROM orders WHERE order_id = $1")
        .bind(id)
        .fetch_optional(settlement.pool())
        .await?;
    Ok(row
        .map(|r| r.try_get::<String, _>("paid_payment_id"))
        .transpose()?
        .unwrap_or_default())
}
