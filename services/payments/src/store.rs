//! The `payments`, `payment_events` and `gateway_callbacks` tables: a payment's row, its status
//! history, and the only way its status changes ([`apply`]).
//!
//! Concurrency: [`insert_new`] relies on the `(user_id, idempotency_key)` unique key, so two
//! creates with one key make one row. [`apply`] checks the step against the transition table and
//! writes it with `UPDATE … WHERE payment_id = $ AND status = <old> AND version = <old>`, together
//! with its `payment_events` row, in the caller's transaction: of two concurrent steps from one
//! status, exactly one is written and the other learns it lost ([`Applied::Lost`]) and re-reads.

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, AnyPool, Row};

use crate::error::Error;
use crate::money;
use crate::saved_cards::{self, NewCard};
use crate::saved_vpas;
use crate::status::Status;

/// A payment as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentRow {
    pub payment_id: String,
    pub user_id: i64,
    pub idempotency_key: String,
    pub request_fingerprint: String,
    pub order_id: i64,
    pub payment_code: String,
    pub amount_paise: i64,
    pub refunded_paise: i64,
    pub status: Status,
    pub version: i64,
    pub gateway: Option<String>,
    pub gateway_reference: Option<String>,
    pub card_network: Option<String>,
    pub card_last4: Option<String>,
    pub card_expiry_month: Option<i64>,
    pub card_expiry_year: Option<i64>,
    pub instrument_id: Option<String>,
    pub save_card: bool,
    pub pending_card_reference: Option<String>,
    pub vpa_address: Option<String>,
    /// The bank of a netbanking payment.
    pub bank_code: Option<String>,
    pub failure_reason: Option<String>,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
    /// The part taken from Tiffin Money (split pay); the rest is the method's.
    pub tiffin_money_paise: i64,
}

impl PaymentRow {
    /// What the gateway or the wallet's provider is asked for: the amount less Tiffin Money's part.
    pub fn online_paise(&self) -> i64 {
        self.amount_paise - self.tiffin_money_paise
    }
}

/// One step of a payment's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    pub status: Status,
    pub refunded_paise: i64,
    pub at_ms: i64,
}

/// A step to write.
#[derive(Debug, Clone, Default)]
pub struct Change {
    pub gateway_reference: Option<String>,
    pub failure_reason: Option<String>,
    /// The new refunded total, for refunds.
    pub refunded_paise: Option<i64>,
    /// The gateway's token of the card, to keep until the payment is charged.
    pub pending_card_reference: Option<String>,
}

/// Whether [`apply`] wrote the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    Yes,
    /// Another change got there first: the row is no longer at the status (or version) read.
    Lost,
}

/// The columns every read of a row selects (a macro, so queries stay literal SQL).
macro_rules! payment_columns {
    () => {
        "payment_id, user_id, idempotency_key, request_fingerprint, order_id, \
    payment_code, amount_paise, refunded_paise, status, version, gateway, gateway_reference, \
    card_network, card_last4, card_expiry_month, card_expiry_year, instrument_id, save_card, \
    pending_card_reference, vpa_address, bank_code, failure_reason, created_at_ms, updated_at_ms, \
    tiffin_money_paise"
    };
}

fn read(row: &AnyRow) -> Result<PaymentRow, Error> {
    let word: String = row.try_get("status")?;
    let status =
        Status::parse(&word).ok_or_else(|| Error::Corrupt(format!("payment status {word:?}")))?;
    Ok(PaymentRow {
        payment_id: row.try_get("payment_id")?,
        user_id: row.try_get("user_id")?,
        idempotency_key: row.try_get("idempotency_key")?,
        request_fingerprint: row.try_get("request_fingerprint")?,
        order_id: row.try_get("order_id")?,
        payment_code: row.try_get("payment_code")?,
        amount_paise: row.try_get("amount_paise")?,
        refunded_paise: row.try_get("refunded_paise")?,
        status,
        version: row.try_get("version")?,
        gateway: row.try_get("gateway")?,
        gateway_reference: row.try_get("gateway_reference")?,
        card_network: row.try_get("card_network")?,
        card_last4: row.try_get("card_last4")?,
        card_expiry_month: row.try_get("card_expiry_month")?,
        card_expiry_year: row.try_get("card_expiry_year")?,
        instrument_id: row.try_get("instrument_id")?,
        save_card: row.try_get::<i64, _>("save_card")? == 1,
        pending_card_reference: row.try_get("pending_card_reference")?,
        vpa_address: row.try_get("vpa_address")?,
        bank_code: row.try_get("bank_code")?,
        failure_reason: row.try_get("failure_reason")?,
        created_at_ms: row.try_get("created_at_ms")?,
        updated_at_ms: row.try_get("updated_at_ms")?,
        tiffin_money_paise: row.try_get("tiffin_money_paise")?,
    })
}

/// Records a NEW payment and its first event, unless the user already has a payment with this
/// idempotency key. Answers whether it was recorded.
pub async fn insert_new(conn: &mut AnyConnection, p: &PaymentRow) -> Result<bool, Error> {
    let inserted = sqlx::query(
        "INSERT INTO payments (payment_id, user_id, idempotency_key, request_fingerprint, \
         order_id, payment_code, amount_paise, refunded_paise, status, version, gateway, \
         card_network, card_last4, card_expiry_month, card_expiry_year, instrument_id, save_card, \
         vpa_address, bank_code, created_at_ms, updated_at_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, 1, $9, $10, $11, $12, $13, $14, $15, $16, \
         $17, $18, $18) \
         ON CONFLICT (user_id, idempotency_key) DO NOTHING",
    )
    .bind(&p.payment_id)
    .bind(p.user_id)
    .bind(&p.idempotency_key)
    .bind(&p.request_fingerprint)
    .bind(p.order_id)
    .bind(&p.payment_code)
    .bind(p.amount_paise)
    .bind(Status::New.as_str())
    .bind(&p.gateway)
    .bind(&p.card_network)
    .bind(&p.card_last4)
    .bind(p.card_expiry_month)
    .bind(p.card_expiry_year)
    .bind(&p.instrument_id)
    .bind(i64::from(p.save_card))
    .bind(&p.vpa_address)
    .bind(&p.bank_code)
    .bind(p.created_at_ms)
    .execute(&mut *conn)
    .await?
    .rows_affected()
        == 1;
    if inserted {
        insert_event(conn, &p.payment_id, 1, Status::New, 0, p.created_at_ms).await?;
    }
    Ok(inserted)
}

async fn insert_event(
    conn: &mut AnyConnection,
    payment_id: &str,
    seq: i64,
    status: Status,
    refunded_paise: i64,
    at_ms: i64,
) -> Result<(), Error> {
    sqlx::query(
        "INSERT INTO payment_events (payment_id, seq, status, refunded_paise, at_ms) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(payment_id)
    .bind(seq)
    .bind(status.as_str())
    .bind(refunded_paise)
    .bind(at_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Moves `current` to `to` with `change`, if the transition table allows it and nobody moved it
/// since `current` was read; an illegal step is [`Error::WrongState`]. When a payment whose
/// customer asked to save the card becomes CHARGED, the card is saved in the same transaction; so
/// is the address of a charged UPI collect.
pub async fn apply(
    conn: &mut AnyConnection,
    current: &PaymentRow,
    to: Status,
    change: Change,
    action: &'static str,
    now_ms: i64,
) -> Result<Applied, Error> {
    if !current.status.may_become(to) {
        return Err(Error::WrongState {
            status: current.status,
            action,
        });
    }
    let refunded = change.refunded_paise.unwrap_or(current.refunded_paise);
    let updated = sqlx::query(
        "UPDATE payments SET status = $1, version = version + 1, updated_at_ms = $2, \
         gateway_reference = COALESCE($3, gateway_reference), \
         failure_reason = COALESCE($4, failure_reason), refunded_paise = $5, \
         pending_card_reference = COALESCE($6, pending_card_reference) \
         WHERE payment_id = $7 AND status = $8 AND version = $9",
    )
    .bind(to.as_str())
    .bind(now_ms)
    .bind(change.gateway_reference)
    .bind(change.failure_reason)
    .bind(refunded)
    .bind(change.pending_card_reference.clone())
    .bind(&current.payment_id)
    .bind(current.status.as_str())
    .bind(current.version)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if updated == 0 {
        return Ok(Applied::Lost);
    }
    insert_event(
        conn,
        &current.payment_id,
        current.version + 1,
        to,
        refunded,
        now_ms,
    )
    .await?;

    let token = change
        .pending_card_reference
        .or_else(|| current.pending_card_reference.clone());
    if to == Status::Charged
        && current.save_card
        && current.instrument_id.is_none()
        && let (Some(card_reference), Some(network), Some(last4), Some(month), Some(year)) = (
            token,
            current.card_network.as_deref(),
            current.card_last4.as_deref(),
            current.card_expiry_month,
            current.card_expiry_year,
        )
    {
        let card = NewCard {
            user_id: current.user_id,
            card_reference: &card_reference,
            network,
            last4,
            expiry_month: month,
            expiry_year: year,
        };
        let instrument_id = saved_cards::save(conn, &card, now_ms / 1000).await?;
        sqlx::query(
            "UPDATE payments SET instrument_id = $1, pending_card_reference = NULL \
             WHERE payment_id = $2",
        )
        .bind(instrument_id)
        .bind(&current.payment_id)
        .execute(&mut *conn)
        .await?;
    }
    // A failed split gets its Tiffin Money back once, whoever applies it: the step is written once.
    if to.is_failed() && current.tiffin_money_paise > 0 {
        money::give_back(
            conn,
            current.user_id,
            current.tiffin_money_paise,
            current.order_id,
            &current.payment_id,
            now_ms,
        )
        .await?;
    }
    // The address a UPI payment was charged from is offered again next time.
    if to == Status::Charged
        && current.payment_code == "upi_collect"
        && let Some(vpa) = current.vpa_address.as_deref()
    {
        saved_vpas::remember(conn, current.user_id, vpa, now_ms / 1000).await?;
    }
    Ok(Applied::Yes)
}

/// The user's payment with this idempotency key.
pub async fn by_key(pool: &AnyPool, user_id: i64, key: &str) -> Result<Option<PaymentRow>, Error> {
    let row = sqlx::query(concat!(
        "SELECT ",
        payment_columns!(),
        " FROM payments WHERE user_id = $1 AND idempotency_key = $2"
    ))
    .bind(user_id)
    .bind(key)
    .fetch_optional(pool)
    .await?;
    row.as_ref().map(read).transpose()
}

/// The user's payment with this id; another user's is `None`, as if it did not exist.
pub async fn of_user(
    conn: impl sqlx::Executor<'_, Database = sqlx::Any>,
    user_id: i64,
    payment_id: &str,
) -> Result<Option<PaymentRow>, Error> {
    let row = sqlx::query(concat!(
        "SELECT ",
        payment_columns!(),
        " FROM payments WHERE payment_id = $1 AND user_id = $2"
    ))
    .bind(payment_id)
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    row.as_ref().map(read).transpose()
}

/// Split payments still NEW that were created before `before_ms`, oldest first, at most 100.
pub async fn stale_split(pool: &AnyPool, before_ms: i64) -> Result<Vec<PaymentRow>, Error> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        payment_columns!(),
        " FROM payments WHERE status = $1 AND created_at_ms < $2 AND tiffin_money_paise > 0 \
         ORDER BY created_at_ms LIMIT 100"
    ))
    .bind(Status::New.as_str())
    .bind(before_ms)
    .fetch_all(pool)
    .await?;
    rows.iter().map(read).collect()
}

/// Pending (PENDING_VBV) UPI collects created before `upi_before_ms` and netbanking payments
/// created before `netbanking_before_ms`, created after `after_ms`, oldest first, at most `limit`:
/// those past their deadline. Netbanking codes are the ones starting `nb_` (`netbanking.rs`).
pub async fn pending_past(
    pool: &AnyPool,
    upi_before_ms: i64,
    netbanking_before_ms: i64,
    after_ms: i64,
    limit: i64,
) -> Result<Vec<PaymentRow>, Error> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        payment_columns!(),
        " FROM payments WHERE status = $1 AND created_at_ms > $2 AND ( \
         (payment_code = 'upi_collect' AND created_at_ms < $3) \
         OR (payment_code LIKE 'nb!_%' ESCAPE '!' AND created_at_ms < $4)) \
         ORDER BY created_at_ms LIMIT $5"
    ))
    .bind(Status::PendingVbv.as_str())
    .bind(after_ms)
    .bind(upi_before_ms)
    .bind(netbanking_before_ms)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    rows.iter().map(read).collect()
}

/// The payment the gateway knows by `reference` (for callbacks, which speak for no user).
pub async fn by_reference(pool: &AnyPool, reference: &str) -> Result<Option<PaymentRow>, Error> {
    let row = sqlx::query(concat!(
        "SELECT ",
        payment_columns!(),
        " FROM payments WHERE gateway_reference = $1"
    ))
    .bind(reference)
    .fetch_optional(pool)
    .await?;
    row.as_ref().map(read).transpose()
}

/// A payment's history, oldest first.
pub async fn events(pool: &AnyPool, payment_id: &str) -> Result<Vec<EventRow>, Error> {
    let rows = sqlx::query(
        "SELECT status, refunded_paise, at_ms FROM payment_events WHERE payment_id = $1 \
         ORDER BY seq",
    )
    .bind(payment_id)
    .fetch_all(pool)
    .await?;
    rows.iter()
        .map(|row| {
            let word: String = row.try_get("status")?;
            Ok(EventRow {
                status: Status::parse(&word)
                    .ok_or_else(|| Error::Corrupt(format!("event status {word:?}")))?,
                refunded_paise: row.try_get("refunded_paise")?,
                at_ms: row.try_get("at_ms")?,
            })
        })
        .collect()
}

/// Whether a gateway notification with this event id was applied before.
pub async fn callback_seen(pool: &AnyPool, event_id: &str) -> Result<bool, Error> {
    Ok(
        sqlx::query("SELECT event_id FROM gateway_callbacks WHERE event_id = $1")
            .bind(event_id)
            .fetch_optional(pool)
            .await?
            .is_some(),
    )
}

/// Whether a payment method is switched on.
pub async fn method_enabled(pool: &AnyPool, payment_code: &str) -> Result<bool, Error> {
    let row = sqlx::query("SELECT enabled FROM payment_methods WHERE payment_code = $1")
        .bind(payment_code)
        .fetch_optional(pool)
        .await?;
    Ok(match row {
        Some(row) => row.try_get::<i64, _>("enabled")? == 1,
        None => false,
    })
}
