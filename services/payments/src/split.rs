//! Split pay: Tiffin Money pays what it can of a payment and one online method (card, saved card,
//! UPI collect, wallet, pay-later, netbanking) pays the rest, as one payment with one key and one
//! status.
//!
//! Tiffin Money's part is taken in the transaction that stores the payment NEW, so the balance
//! never moves for a payment that was not stored, nor twice for one key. When the balance covers
//! everything the payment is simply a Tiffin Money payment, CHARGED in that same transaction.
//! The part goes back when the payment fails: that happens in [`crate::store::apply`], with the
//! failing step, whichever path writes it. A payment left NEW (the process died before the
//! gateway heard of it) would hold the money forever, so [`sweep`] fails old ones.

use std::time::Duration;

use sqlx::{AnyConnection, Row};
use tiffin_platform::db::Writer;
use tiffin_proto::payments::v1::create_payment_request::Method;

use crate::error::Error;
use crate::money;
use crate::status::Status;
use crate::store::{self, Applied, Change, PaymentRow};

/// A split payment still NEW after this long is failed by the sweep: a create that is alive has
/// long had the gateway's answer by then.
pub const STALE_AFTER_MS: i64 = 5 * 60 * 1000;

/// How often the service runs the sweep.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// The swept payment's reason, for the customer.
pub const NOT_COMPLETED: &str = "The payment could not be completed";

/// How often the debit re-reads the balance when concurrent payments keep changing it.
const DEBIT_ATTEMPTS: usize = 8;

/// Whether `method` can be split with Tiffin Money: only the online ones.
pub fn check_method(method: Option<&Method>) -> Result<(), Error> {
    match method {
        Some(Method::CashOnDelivery(_)) => Err(Error::Invalid(
            "Tiffin Money cannot be combined with cash on delivery".into(),
        )),
        Some(Method::TiffinMoney(_)) => Err(Error::Invalid(
            "Please choose a way to pay the rest besides Tiffin Money".into(),
        )),
        _ => Ok(()),
    }
}

/// Takes min(balance, amount) from the user's Tiffin Money for the payment just inserted as
/// `row`, in the caller's transaction, and records the part on the payment. A part that is the
/// whole amount makes it a Tiffin Money payment, CHARGED here. Answers the row as it now is.
///
/// `method_must_pay`: the bill's coupon is an offer for the method, so a balance that would pay
/// everything is refused ([`Error::MethodMustPay`]) before anything is taken; the caller's
/// transaction, with the payment it inserted, is then dropped.
pub async fn take(
    conn: &mut AnyConnection,
    mut row: PaymentRow,
    now_ms: i64,
    method_must_pay: bool,
) -> Result<PaymentRow, Error> {
    let description = if row.order_id > 0 {
        format!("Paid for order {}", row.order_id)
    } else {
        format!("Paid for payment {}", row.payment_id)
    };
    let mut part = 0;
    for _ in 0..DEBIT_ATTEMPTS {
        let balance = sqlx::query("SELECT balance_paise FROM money_accounts WHERE user_id = $1")
            .bind(row.user_id)
            .fetch_optional(&mut *conn)
            .await?
            .map(|r| r.try_get::<i64, _>("balance_paise"))
            .transpose()?
            .unwrap_or(0);
        if method_must_pay && balance >= row.amount_paise {
            return Err(Error::MethodMustPay(method_name(&row.payment_code)));
        }
        let want = balance.min(row.amount_paise);
        if want <= 0 {
            break;
        }
        // Conditional on the balance: a concurrent payment that took some first makes this
        // answer None, and the balance is read again.
        if money::debit(
            conn,
            row.user_id,
            want,
            &description,
            &row.payment_id,
            now_ms,
        )
        .await?
        .is_some()
        {
            part = want;
            break;
        }
    }
    if part == 0 {
        return Ok(row);
    }
    row.tiffin_money_paise = part;
    if part < row.amount_paise {
        sqlx::query("UPDATE payments SET tiffin_money_paise = $1 WHERE payment_id = $2")
            .bind(part)
            .bind(&row.payment_id)
            .execute(&mut *conn)
            .await?;
        return Ok(row);
    }
    // Nothing is left for the method: it is a Tiffin Money payment, and shows as one.
    sqlx::query(
        "UPDATE payments SET tiffin_money_paise = $1, payment_code = 'tiffin_money', \
         gateway = NULL, card_network = NULL, card_last4 = NULL, card_expiry_month = NULL, \
         card_expiry_year = NULL, instrument_id = NULL, save_card = 0, vpa_address = NULL, \
         bank_code = NULL WHERE payment_id = $2",
    )
    .bind(part)
    .bind(&row.payment_id)
    .execute(&mut *conn)
    .await?;
    row = PaymentRow {
        payment_code: "tiffin_money".into(),
        gateway: None,
        card_network: None,
        card_last4: None,
        card_expiry_month: None,
        card_expiry_year: None,
        instrument_id: None,
        save_card: false,
        vpa_address: None,
        bank_code: None,
        ..row
    };
    if store::apply(
        conn,
        &row,
        Status::Charged,
        Change::default(),
        "be charged",
        now_ms,
    )
    .await?
        == Applied::Yes
    {
        row.status = Status::Charged;
        row.version += 1;
    }
    Ok(row)
}

/// A payment code as the customer names the way to pay.
fn method_name(payment_code: &str) -> String {
    match payment_code {
        "upi_collect" => "UPI".into(),
        "card" => "card".into(),
        code if crate::netbanking::is_netbanking(code) => "netbanking".into(),
        code => crate::wallets::Provider::of_payment_code(code)
            .map_or_else(|| code.to_string(), |p| p.name.to_string()),
    }
}

/// How a refund of `amount_paise` of `row` divides: (online part, Tiffin Money part). The online
/// part is refunded first, so what is left of it is the charged online part less everything
/// refunded so far.
pub fn refund_parts(row: &PaymentRow, amount_paise: i64) -> (i64, i64) {
    let online = row.online_paise();
    let online_left = (online - row.refunded_paise.min(online)).max(0);
    let from_online = amount_paise.min(online_left);
    (from_online, amount_paise - from_online)
}

/// Fails the split payments left NEW for longer than [`STALE_AFTER_MS`] at `now_ms`, giving their
/// Tiffin Money back in the failing step. Answers how many it failed.
pub async fn sweep(writer: &Writer, now_ms: i64) -> Result<usize, Error> {
    let stale = store::stale_split(writer.pool(), now_ms - STALE_AFTER_MS).await?;
    let mut failed = 0;
    for row in stale {
        // NEW cannot fail directly: it passes through AUTHORIZING, both steps in one transaction,
        // so a concurrent retry that moved the payment makes the first step lose and nothing is
        // written.
        let mut tx = writer.begin().await?;
        if store::apply(
            &mut tx,
            &row,
            Status::Authorizing,
            Change::default(),
            "be swept",
            now_ms,
        )
        .await?
            == Applied::Lost
        {
            continue;
        }
        let authorizing = PaymentRow {
            status: Status::Authorizing,
            version: row.version + 1,
            ..row
        };
        let change = Change {
            failure_reason: Some(NOT_COMPLETED.into()),
            ..Change::default()
        };
        if store::apply(
            &mut tx,
            &authorizing,
            Status::AuthorizationFailed,
            change,
            "be swept",
            now_ms,
        )
        .await?
            == Applied::Yes
        {
            tx.commit().await?;
            failed += 1;
            tracing::warn!(payment_id = %authorizing.payment_id, "split payment left NEW swept");
        }
    }
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(amount: i64, money: i64, refunded: i64) -> PaymentRow {
        PaymentRow {
            payment_id: "pay_1".into(),
            user_id: 1,
            idempotency_key: "k".into(),
            request_fingerprint: "f".into(),
            order_id: 0,
            payment_code: "card".into(),
            amount_paise: amount,
            refunded_paise: refunded,
            status: Status::Charged,
            version: 2,
            gateway: None,
            gateway_reference: None,
            card_network: None,
            card_last4: None,
            card_expiry_month: None,
            card_expiry_year: None,
            instrument_id: None,
            save_card: false,
            pending_card_reference: None,
            vpa_address: None,
            bank_code: None,
            failure_reason: None,
            created_at_ms: 0,
            updated_at_ms: 0,
            tiffin_money_paise: money,
        }
    }

    #[test]
    fn a_refund_takes_the_online_part_first_then_tiffin_money() {
        // ₹100: ₹30 Tiffin Money, ₹70 card.
        assert_eq!(refund_parts(&row(10_000, 3_000, 0), 10_000), (7_000, 3_000));
        assert_eq!(refund_parts(&row(10_000, 3_000, 0), 5_000), (5_000, 0));
        assert_eq!(
            refund_parts(&row(10_000, 3_000, 5_000), 5_000),
            (2_000, 3_000)
        );
        assert_eq!(refund_parts(&row(10_000, 3_000, 7_000), 1_000), (0, 1_000));
        // Not a split payment: all online.
        assert_eq!(refund_parts(&row(10_000, 0, 0), 4_000), (4_000, 0));
    }
}
