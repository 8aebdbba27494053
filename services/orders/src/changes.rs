//! The transactions that change an order: opening (or reusing) the customer's unpaid order with
//! an attempt to pay for it, confirming it when a payment is charged, closing an attempt whose
//! charge was refunded, and noting the customer's cart emptied. Each writes its history and outbox
//! events in the same transaction, and each change of status is a conditional update from the
//! status it expects, so two callers settling the same payment at once confirm it once.

use sqlx::{AnyConnection, AnyPool, Row};
use tiffin_platform::db::{Writer, insert_sql};

use crate::attempts::{self, Attempt, settle_in};
use crate::cancellation_dues;
use crate::cash_on_delivery;
use crate::error::Error;
use crate::lifecycle::Status;
use crate::orders::{carried, stored_id};
use crate::outbox::{self, EventType, Payload};
use crate::payment_offer_claims;
use crate::snapshot::Snapshot;

/// An order recorded from a cart, before it is paid.
pub const AWAITING_PAYMENT: &str = Status::AwaitingPayment.as_str();
/// Paid and confirmed.
pub const PLACED: &str = Status::Placed.as_str();
/// Never paid, replaced by a newer order of the same customer.
pub const ABANDONED: &str = Status::Abandoned.as_str();

/// A fresh order id: random, so ids say nothing about how many orders there are and cannot be
/// guessed in sequence.
fn new_order_id() -> i64 {
    use rand::Rng;
    rand::rng().random_range(100_000_000_000..1_000_000_000_000)
}

pub(crate) async fn record_status(
    conn: &mut AnyConnection,
    order_id: i64,
    status: &str,
    at: i64,
) -> Result<(), Error> {
    // The next position is found by the insert itself: one statement, not a read and a write.
    sqlx::query(
        "INSERT INTO order_status_history (order_id, position, order_status, changed_at)
         SELECT $1, COALESCE(MAX(position), 0) + 1, $2, $3
         FROM order_status_history WHERE order_id = $1",
    )
    .bind(order_id)
    .bind(status)
    .bind(at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The facts about an order an event carries.
struct Head {
    user_id: u64,
    order_status: String,
    order_total: i64,
    restaurant_id: u64,
    paid_payment_id: String,
}

async fn head(conn: &mut AnyConnection, order_id: i64) -> Result<Head, Error> {
    let row = sqlx::query(
        "SELECT user_id, order_status, order_total, restaurant_id, paid_payment_id
         FROM orders WHERE order_id = $1",
    )
    .bind(order_id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or(Error::NotFound)?;
    let id = |column: &str| -> Result<u64, Error> {
        let v: i64 = row.try_get(column)?;
        u64::try_from(v).map_err(|_| Error::Corrupt(format!("{column} = {v}")))
    };
    Ok(Head {
        user_id: id("user_id")?,
        order_status: row.try_get("order_status")?,
        order_total: row.try_get("order_total")?,
        restaurant_id: id("restaurant_id")?,
        paid_payment_id: row.try_get("paid_payment_id")?,
    })
}

pub(crate) async fn event(
    conn: &mut AnyConnection,
    order_id: i64,
    kind: EventType,
    payment_id: &str,
    at: i64,
) -> Result<(), Error> {
    let h = head(conn, order_id).await?;
    event_of(conn, &h, order_id, kind, payment_id, at).await
}

/// [`event`] where the transaction already knows the order's facts: one statement fewer while it
/// holds the database's one writer.
async fn event_of(
    conn: &mut AnyConnection,
    h: &Head,
    order_id: i64,
    kind: EventType,
    payment_id: &str,
    at: i64,
) -> Result<(), Error> {
    outbox::append(
        conn,
        kind,
        &Payload {
            order_id: u64::try_from(order_id).unwrap_or_default(),
            user_id: h.user_id,
            order_status: &h.order_status,
            order_total: h.order_total,
            restaurant_id: h.restaurant_id,
            payment_id,
            at,
        },
    )
    .await
}

/// Opens the attempt `key` for the customer's cart: on their unpaid order when it is the same
/// cart with nothing changed, otherwise on a new order (an unpaid one of another cart or content is
/// abandoned first, giving back the cancellation dues it carried). One transaction: order, items,
/// bill, history, attempt, events and the cancellation dues the new order takes, together.
///
/// Two of the customer's requests doing this at once would both try to open an order: the unique
/// index on unpaid orders lets one through, and the other fails with a conflict
/// ([`Error::is_conflict`]) and is retried by the caller, finding the first one's order.
///
/// `cash`: the attempt pays cash on delivery, allowed while the customer has fewer than this many
/// cash orders on their way ([`cash_on_delivery::check`]).
pub async fn open_attempt(
    writer: &Writer,
    user_id: u64,
    key: &str,
    fingerprint: &str,
    snapshot: &Snapshot,
    now: i64,
    cash: Option<i64>,
) -> Result<Opened, Error> {
    let user = stored_id(user_id).ok_or(Error::IdOutOfRange(user_id))?;
    let mut tx = writer.begin().await?;
    let open = sqlx::query(
        "SELECT order_id, cart_id, snapshot_hash FROM orders
         WHERE user_id = $1 AND order_status = 'AWAITING_PAYMENT'",
    )
    .bind(user)
    .fetch_optional(&mut *tx)
    .await?;
    let reused = match open {
        Some(row) => {
            let order_id: i64 = row.try_get("order_id")?;
            let cart_id: String = row.try_get("cart_id")?;
            let hash: String = row.try_get("snapshot_hash")?;
            if cart_id == snapshot.cart_id && hash == snapshot.hash {
                // Written again since with the same content: the version to empty is the newest.
                sqlx::query("UPDATE orders SET cart_version = $2 WHERE order_id = $1")
                    .bind(order_id)
                    .bind(cart_version(snapshot)?)
                    .execute(&mut *tx)
                    .await?;
                Some(order_id)
            } else {
                let changed = sqlx::query(
                    "UPDATE orders SET order_status = 'ABANDONED'
                     WHERE order_id = $1 AND order_status = 'AWAITING_PAYMENT'",
                )
                .bind(order_id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if changed == 1 {
                    record_status(&mut tx, order_id, ABANDONED, now).await?;
                    event(&mut tx, order_id, EventType::Abandoned, "", now).await?;
                    // Never paid: the fees it carried are owed again, for the new order to take.
                    cancellation_dues::give_back(&mut tx, order_id).await?;
                    payment_offer_claims::give_back(&mut tx, order_id).await?;
                }
                None
            }
        }
        None => None,
    };
    if let Some(active_limit) = cash {
        cash_on_delivery::check(&mut tx, user, active_limit).await?;
    }
    let new_order = reused.is_none();
    let order_id = match reused {
        Some(id) => id,
        None => {
            let order_id = insert_order(&mut tx, user, snapshot, now).await?;
            cancellation_dues::take(
                &mut tx,
                user,
                order_id,
                carried(&snapshot.charges),
                snapshot.total_paise,
            )
            .await?;
            payment_offer_claims::claim(
                &mut tx,
                user,
                order_id,
                snapshot.payment_offer.as_ref(),
                snapshot.total_paise,
                now,
            )
            .await?;
            order_id
        }
    };
    sqlx::query(
        "INSERT INTO order_payments
            (user_id, idempotency_key, fingerprint, order_id, payment_id, state, created_at,
             next_check_at)
         VALUES ($1, $2, $3, $4, '', 'OPEN', $5, $6)",
    )
    .bind(user)
    .bind(key)
    .bind(fingerprint)
    .bind(order_id)
    .bind(now)
    .bind(now + attempts::FIRST_CHECK_AFTER_SECS)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Opened {
        order_id: u64::try_from(order_id)
            .map_err(|_| Error::Corrupt(format!("order_id = {order_id}")))?,
        new_order,
    })
}

/// The order an attempt was opened on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opened {
    pub order_id: u64,
    /// Written by this attempt from its snapshot (not an unpaid order of the same cart reused),
    /// so the snapshot is all there is to it.
    pub new_order: bool,
}

fn cart_version(s: &Snapshot) -> Result<i64, Error> {
    i64::try_from(s.cart_version).map_err(|_| Error::IdOutOfRange(s.cart_version))
}

async fn insert_order(
    tx: &mut AnyConnection,
    user: i64,
    s: &Snapshot,
    now: i64,
) -> Result<i64, Error> {
    let order_id = new_order_id();
    let restaurant_id = stored_id(s.restaurant_id).ok_or(Error::IdOutOfRange(s.restaurant_id))?;
    let address = s.address.clone().unwrap_or_default();
    let plan = s.plan.clone().unwrap_or_default();
    sqlx::query(
        "INSERT INTO orders
            (order_id, user_id, order_status, restaurant_id, restaurant_name, order_total,
             order_time, order_type, cart_id, snapshot_hash, address_id, address_annotation,
             address_text, address_area, coupon_code, order_note, cart_cleared, cart_version,
             plan_id, plan_name, plan_title, plan_duration_days, plan_price, member_savings)
         VALUES ($1, $2, 'AWAITING_PAYMENT', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0,
                 $16, $17, $18, $19, $20, $21, $22)",
    )
    .bind(order_id)
    .bind(user)
    .bind(restaurant_id)
    .bind(&s.restaurant_name)
    .bind(s.total_paise)
    .bind(now)
    .bind(s.order_type.as_str_name())
    .bind(&s.cart_id)
    .bind(&s.hash)
    .bind(&address.address_id)
    .bind(&address.annotation)
    .bind(&address.address)
    .bind(&address.area)
    .bind(&s.coupon_code)
    .bind(&s.order_note)
    .bind(cart_version(s)?)
    .bind(
        stored_id(plan.plan_id).ok_or(Error::IdOutOfRange(plan.plan_id))?,
    )
    .bind(&plan.plan_name)
    .bind(&plan.title)
    .bind(i64::from(plan.duration_days))
    .bind(plan.price_paise)
    .bind(s.member_savings_paise)
    .execute(&mut *tx)
    .await?;
    // Items and bill lines go in one statement each, however many there are.
    if !s.items.is_empty() {
        let sql = insert_sql(
            "order_items",
            &[
                "order_id",
                "position",
                "menu_item_id",
                "name",
                "quantity",
                "unit_price",
                "subtotal",
                "choices",
                "selections",
            ],
            s.items.len(),
        );
        let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (position, item) in (1_i64..).zip(&s.items) {
            let menu_item_id =
                stored_id(item.menu_item_id).ok_or(Error::IdOutOfRange(item.menu_item_id))?;
            let selections = s
                .selections
                .get(usize::try_from(position - 1).unwrap_or(usize::MAX))
                .map(serde_json::to_string)
                .transpose()
                .map_err(|e| Error::Corrupt(e.to_string()))?
                .unwrap_or_default();
            insert = insert
                .bind(order_id)
                .bind(position)
                .bind(menu_item_id)
                .bind(item.name.clone())
                .bind(i64::from(item.quantity))
                .bind(item.unit_price_paise)
                .bind(item.subtotal_paise)
                .bind(item.choices.clone())
                .bind(selections);
        }
        insert.execute(&mut *tx).await?;
    }
    if let Some(trip) = &s.trip {
        sqlx::query(
            "INSERT INTO order_deliveries
                (order_id, restaurant_lat, restaurant_lng, destination_lat, destination_lng,
                 prep_minutes, restaurant_phone)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(order_id)
        .bind(trip.restaurant_lat)
        .bind(trip.restaurant_lng)
        .bind(trip.destination_lat)
        .bind(trip.destination_lng)
        .bind(i64::from(trip.prep_minutes))
        .bind(&trip.restaurant_phone)
        .execute(&mut *tx)
        .await?;
    }
    if !s.charges.is_empty() {
        let sql = insert_sql(
            "order_charges",
            &["order_id", "position", "charge_key", "label", "amount"],
            s.charges.len(),
        );
        let mut insert = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (position, charge) in (1_i64..).zip(&s.charges) {
            insert = insert
                .bind(order_id)
                .bind(position)
                .bind(charge.key.clone())
                .bind(charge.label.clone())
                .bind(charge.amount_paise);
        }
        insert.execute(&mut *tx).await?;
    }
    record_status(tx, order_id, AWAITING_PAYMENT, now).await?;
    let head = Head {
        user_id: u64::try_from(user).map_err(|_| Error::Corrupt(format!("user_id = {user}")))?,
        order_status: AWAITING_PAYMENT.to_string(),
        order_total: s.total_paise,
        restaurant_id: s.restaurant_id,
        paid_payment_id: String::new(),
    };
    event_of(tx, &head, order_id, EventType::Placed, "", now).await?;
    Ok(order_id)
}

/// What applying a charged payment did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charged {
    /// The order was waiting for it and is now confirmed; its cart is emptied if still at this
    /// version.
    Confirmed { cart_version: u64 },
    /// The order was already confirmed by this same payment.
    AlreadyConfirmed,
    /// The order was paid by another payment or abandoned: this charge must be refunded.
    MustRefund,
}

/// Applies a CHARGED payment to its order: confirms the order if it was waiting for it.
/// The attempt stays open when the charge must be refunded (see `settlement`).
pub async fn apply_charge(
    writer: &Writer,
    attempt: &Attempt,
    payment_id: &str,
    payment_method: &str,
    now: i64,
) -> Result<Charged, Error> {
    let order_id = stored_id(attempt.order_id).ok_or(Error::IdOutOfRange(attempt.order_id))?;
    let mut tx = writer.begin().await?;
    // The confirmed order's facts come back with the update, for its event.
    let confirmed = sqlx::query(
        "UPDATE orders SET order_status = 'PLACED', paid_payment_id = $2, payment_method = $3,
                confirmed_at = $4
         WHERE order_id = $1 AND order_status = 'AWAITING_PAYMENT'
         RETURNING user_id, order_total, restaurant_id, cart_version",
    )
    .bind(order_id)
    .bind(payment_id)
    .bind(payment_method)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    let outcome = if let Some(row) = confirmed {
        record_status(&mut tx, order_id, PLACED, now).await?;
        let id = |column: &str| -> Result<u64, Error> {
            let v: i64 = row.try_get(column)?;
            u64::try_from(v).map_err(|_| Error::Corrupt(format!("{column} = {v}")))
        };
        let head = Head {
            user_id: id("user_id")?,
            order_status: PLACED.to_string(),
            order_total: row.try_get("order_total")?,
            restaurant_id: id("restaurant_id")?,
            paid_payment_id: payment_id.to_string(),
        };
        event_of(
            &mut tx,
            &head,
            order_id,
            EventType::Confirmed,
            payment_id,
            now,
        )
        .await?;
        Charged::Confirmed {
            cart_version: id("cart_version")?,
        }
    } else if head(&mut tx, order_id).await?.paid_payment_id == payment_id {
        Charged::AlreadyConfirmed
    } else {
        Charged::MustRefund
    };
    if outcome != Charged::MustRefund {
        settle_in(&mut tx, attempt, payment_id).await?;
    }
    tx.commit().await?;
    Ok(outcome)
}

/// Closes an attempt whose charge was refunded, with the event saying so.
pub async fn refunded(
    writer: &Writer,
    attempt: &Attempt,
    payment_id: &str,
    now: i64,
) -> Result<(), Error> {
    let order_id = stored_id(attempt.order_id).ok_or(Error::IdOutOfRange(attempt.order_id))?;
    let mut tx = writer.begin().await?;
    if settle_in(&mut tx, attempt, payment_id).await? {
        event(
            &mut tx,
            order_id,
            EventType::PaymentRefunded,
            payment_id,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Orders confirmed at or before `confirmed_before` (unix seconds) whose customer's cart is still
/// to be emptied: (user, order, the cart's version the order was taken from).
pub async fn carts_to_clear(
    pool: &AnyPool,
    confirmed_before: i64,
    limit: i64,
) -> Result<Vec<(u64, u64, u64)>, Error> {
    sqlx::query(
        "SELECT user_id, order_id, cart_version FROM orders
         WHERE cart_cleared = 0 AND confirmed_at > 0 AND confirmed_at <= $1 LIMIT $2",
    )
    .bind(confirmed_before)
    .bind(limit)
    .fetch_all(pool)
    .await?
    .iter()
    .map(|r| {
        let id = |column: &str| -> Result<u64, Error> {
            let v: i64 = r.try_get(column)?;
            u64::try_from(v).map_err(|_| Error::Corrupt(format!("{column} = {v}")))
        };
        Ok((id("user_id")?, id("order_id")?, id("cart_version")?))
    })
    .collect()
}

/// Whether the order's cart is still to be emptied (read again under the order's turn).
pub async fn cart_still_to_clear(pool: &AnyPool, order_id: u64) -> Result<bool, Error> {
    let id = stored_id(order_id).ok_or(Error::IdOutOfRange(order_id))?;
    let cleared: Option<i64> = sqlx::query("SELECT cart_cleared FROM orders WHERE order_id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(|r| r.try_get("cart_cleared"))
        .transpose()?;
    Ok(cleared == Some(0))
}

/// Notes that the carts of these orders were emptied, in one write however many there are.
pub async fn carts_cleared(writer: &Writer, order_ids: &[u64]) -> Result<(), Error> {
    let ids = order_ids
        .iter()
        .map(|&id| stored_id(id).ok_or(Error::IdOutOfRange(id)))
        .collect::<Result<Vec<i64>, Error>>()?;
    if ids.is_empty() {
        return Ok(());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "UPDATE orders SET cart_cleared = 1 WHERE order_id IN ({})",
        placeholders.join(", ")
    );
    writer
        .write(async |c| {
            let mut update = sqlx::query(sqlx::AssertSqlSafe(sql));
            for id in &ids {
                update = update.bind(*id);
            }
            update.execute(c).await
        })
        .await?;
    Ok(())
}
