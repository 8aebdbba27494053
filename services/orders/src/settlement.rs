//! Where an order's payments ended, applied exactly once: a CHARGED payment confirms the order it
//! pays for (and the customer's cart is emptied); a charge for an order that was already paid by
//! another payment, or abandoned, is refunded; a failed payment leaves the order unpaid and the
//! cart as it was, so the customer can pay again.
//!
//! The same steps run on three paths: the customer's own request (PlaceOrder, ConfirmOrder), and
//! recovery, which at start and then every few seconds looks at attempts still open (a crash
//! between "charged" and "confirmed", a UPI collect approved after the tab was closed, an outage of
//! the payments service) and at confirmed orders whose cart was not emptied yet. Every step is a
//! conditional write or an idempotent call, so the paths may overlap.
//!
//! Recovery takes open attempts in the order they fall due (`attempts::due`), and each one it
//! looks at goes to the back of the line with a growing wait (`attempts::backoff_secs`): one
//! customer's many attempts left pending cost a round its batch, never another customer's turn.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use sqlx::AnyPool;
use tiffin_platform::db::Writer;
use tiffin_platform::idempotency::KeyLocks;
use tiffin_proto::orders::v1::Order;
use tiffin_proto::payments::v1::{Payment, PaymentMethodType, PaymentStatus};
use tokio::sync::{Mutex, mpsc};

use crate::attempts::{self, Attempt, AttemptState, payment_key};
use crate::changes::{self, Charged};
use crate::clients::{Carts, Payments};
use crate::error::Error;
use crate::orders::{Confirmation, Store};

/// An attempt with no payment in the payments service is given this long (seconds) for its
/// CreatePayment to arrive there before recovery takes it as never made.
pub const LOST_ATTEMPT_AFTER_SECS: i64 = 60;
/// Recovery leaves a confirmed order's cart to the request that confirmed it for this long
/// (seconds): that request empties it moments after confirming, and a second emptying after the
/// customer has started a new cart would lose it.
pub const CART_CLEAR_GRACE_SECS: i64 = 30;
/// How many attempts and carts one round of recovery looks at.
const RECOVERY_BATCH: i64 = 100;
/// The most emptied carts noted in one write.
const CART_NOTES_BATCH: usize = 500;

/// Unix seconds now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

fn method_code(p: &Payment) -> &'static str {
    match PaymentMethodType::try_from(p.method) {
        Ok(PaymentMethodType::Card) => "card",
        Ok(PaymentMethodType::UpiCollect) => "upi_collect",
        Ok(PaymentMethodType::CashOnDelivery) => "cod",
        Ok(PaymentMethodType::Wallet) => "wallet",
        Ok(PaymentMethodType::TiffinMoney) => "tiffin_money",
        Ok(PaymentMethodType::Netbanking) => "netbanking",
        Ok(PaymentMethodType::PayLater) => "paylater",
        _ => "",
    }
}

/// Applies payments to orders.
#[derive(Clone)]
pub struct Settlement {
    pub(crate) store: Store,
    pub(crate) writer: Writer,
    pub(crate) payments: Payments,
    pub(crate) carts: Carts,
    /// One settling per order at a time in this process (a customer's request and recovery).
    pub(crate) locks: Arc<KeyLocks>,
    notes: CartNotes,
    in_flight: InFlight,
}

/// The attempts (customer, key) whose PlaceOrder is running in this process. Recovery leaves them
/// to their requests, which settle them moments later: settling them as well would ask the
/// payments service again and take the database's one writer a second time for each order being
/// placed. Known in memory, so a crash forgets them and the next process's recovery sees them all;
/// another replica's requests are not known here, and recovery there settles them as before
/// (every step is conditional, so doing it twice is harmless, only slower).
#[derive(Clone, Default)]
struct InFlight(Arc<std::sync::Mutex<HashSet<(u64, String)>>>);

/// An attempt's mark in [`InFlight`], taken off when its request ends however it ends.
pub(crate) struct Running {
    in_flight: InFlight,
    attempt: (u64, String),
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(mut running) = self.in_flight.0.lock() {
            running.remove(&self.attempt);
        }
    }
}

impl InFlight {
    fn mark(&self, user_id: u64, key: &str) -> Running {
        let attempt = (user_id, key.to_string());
        if let Ok(mut running) = self.0.lock() {
            running.insert(attempt.clone());
        }
        Running {
            in_flight: self.clone(),
            attempt,
        }
    }

    fn contains(&self, attempt: &Attempt) -> bool {
        self.0
            .lock()
            .is_ok_and(|running| running.contains(&(attempt.user_id, attempt.key.clone())))
    }
}

/// Customers' requests note their emptied carts here instead of each taking the database's one
/// writer for it: [`Settlement::write_cart_notes`] writes whatever has gathered in one statement,
/// moments later. A note lost with the process (a crash before it was written) leaves the order
/// to recovery, which empties that customer's cart again after [`CART_CLEAR_GRACE_SECS`].
#[derive(Clone)]
struct CartNotes {
    send: mpsc::UnboundedSender<u64>,
    gathered: Arc<Mutex<mpsc::UnboundedReceiver<u64>>>,
}

impl Default for CartNotes {
    fn default() -> Self {
        let (send, gathered) = mpsc::unbounded_channel();
        Self {
            send,
            gathered: Arc::new(Mutex::new(gathered)),
        }
    }
}

impl Settlement {
    pub fn new(store: Store, writer: Writer, payments: Payments, carts: Carts) -> Self {
        Self {
            store,
            writer,
            payments,
            carts,
            locks: Arc::default(),
            notes: CartNotes::default(),
            in_flight: InFlight::default(),
        }
    }

    /// Marks the customer's attempt `key` as running in a request of this process until the
    /// returned mark is dropped (see [`InFlight`]).
    pub(crate) fn running(&self, user_id: u64, key: &str) -> Running {
        self.in_flight.mark(user_id, key)
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        self.writer.pool()
    }

    /// Applies where `payment` stands to the order of `attempt`; says when it confirmed the
    /// order, if it did (not when the order was confirmed before, or the charge refunded).
    pub async fn apply(
        &self,
        attempt: &Attempt,
        payment: &Payment,
    ) -> Result<Option<Confirmation>, Error> {
        let _order = self.locks.lock(format!("order:{}", attempt.order_id)).await;
        let status = PaymentStatus::try_from(payment.status).unwrap_or_default();
        Ok(match status {
            PaymentStatus::Charged | PaymentStatus::PartiallyRefunded | PaymentStatus::Refunded => {
                let at = now();
                let outcome = changes::apply_charge(
                    &self.writer,
                    attempt,
                    &payment.payment_id,
                    method_code(payment),
                    at,
                )
                .await?;
                match outcome {
                    Charged::Confirmed { cart_version } => {
                        tracing::info!(order_id = attempt.order_id, "order confirmed");
                        self.empty_cart(attempt.user_id, attempt.order_id, cart_version)
                            .await;
                        Some(Confirmation {
                            at,
                            payment_method: method_code(payment),
                        })
                    }
                    Charged::AlreadyConfirmed => None,
                    Charged::MustRefund => {
                        self.refund(attempt, payment).await?;
                        None
                    }
                }
            }
            PaymentStatus::AuthenticationFailed
            | PaymentStatus::AuthorizationFailed
            | PaymentStatus::Declined
            | PaymentStatus::UserAborted => {
                attempts::settle(&self.writer, attempt, &payment.payment_id).await?;
                None
            }
            PaymentStatus::Unspecified
            | PaymentStatus::New
            | PaymentStatus::PendingVbv
            | PaymentStatus::Authorizing => None,
        })
    }

    /// A charge that cannot pay for its order goes back where it came from. Cash on delivery
    /// was never taken, so there is nothing to give back.
    async fn refund(&self, attempt: &Attempt, payment: &Payment) -> Result<(), Error> {
        let already = payment.status == PaymentStatus::Refunded as i32;
        if payment.method == PaymentMethodType::CashOnDelivery as i32 {
            // Nobody will come to collect it: closing the attempt is all there is to do.
            return attempts::settle(&self.writer, attempt, &payment.payment_id).await;
        }
        if !already {
            self.payments
                .refund_in_full(
                    attempt.user_id,
                    format!("refund:{}", payment_key(&attempt.key)),
                    &payment.payment_id,
                )
                .await
                .map_err(Error::Upstream)?;
            tracing::warn!(
                order_id = attempt.order_id,
                payment_id = payment.payment_id,
                "refunded a charge for an order that was paid already or abandoned"
            );
        }
        changes::refunded(&self.writer, attempt, &payment.payment_id, now()).await
    }

    /// Empties the customer's cart after their order was confirmed, and notes it (later, with
    /// others: see [`CartNotes`]). Failing here is not the customer's problem: the order is
    /// confirmed, and recovery tries again.
    async fn empty_cart(&self, user_id: u64, order_id: u64, cart_version: u64) {
        match self.carts.empty(user_id, cart_version).await {
            Ok(()) => {
                if self.notes.send.send(order_id).is_err() {
                    self.note_now(order_id).await;
                }
            }
            Err(e) => tracing::warn!(error = %e, order_id, "cart not emptied yet; will retry"),
        }
    }

    async fn note_now(&self, order_id: u64) {
        if let Err(e) = changes::carts_cleared(&self.writer, &[order_id]).await {
            tracing::warn!(error = %e, order_id, "could not note the cart as emptied");
        }
    }

    /// Writes the noted carts as they gather, until the process ends.
    pub async fn write_cart_notes(self) {
        let mut gathered = self.notes.gathered.lock().await;
        let mut batch = Vec::with_capacity(CART_NOTES_BATCH);
        while gathered.recv_many(&mut batch, CART_NOTES_BATCH).await > 0 {
            if let Err(e) = changes::carts_cleared(&self.writer, &batch).await {
                tracing::warn!(error = %e, orders = batch.len(), "could not note carts as emptied");
            }
            batch.clear();
        }
    }

    /// Writes the notes still waiting, once [`Self::write_cart_notes`] has stopped: on the way
    /// out, so a stop loses none.
    pub async fn flush_cart_notes(&self) {
        let mut gathered = self.notes.gathered.lock().await;
        let mut batch = Vec::new();
        while let Ok(order_id) = gathered.try_recv() {
            batch.push(order_id);
        }
        if let Err(e) = changes::carts_cleared(&self.writer, &batch).await {
            tracing::warn!(error = %e, orders = batch.len(), "could not note carts as emptied");
        }
    }

    /// Asks the payments service where an attempt's payment stands, by its key.
    async fn look_up(&self, attempt: &Attempt) -> Result<Option<Payment>, Error> {
        match self
            .payments
            .by_key(attempt.user_id, &payment_key(&attempt.key))
            .await
        {
            Ok(p) => Ok(Some(p)),
            Err(s) if s.code() == tonic::Code::NotFound => Ok(None),
            Err(s) => Err(Error::Upstream(s)),
        }
    }

    /// Brings one open attempt up to date.
    pub async fn recover(&self, attempt: &Attempt) -> Result<(), Error> {
        self.recover_at(attempt, now()).await
    }

    /// [`Self::recover`] at `now` (unix seconds).
    async fn recover_at(&self, attempt: &Attempt, now: i64) -> Result<(), Error> {
        self.bring_up_to_date(attempt, now).await.map(|_| ())
    }

    /// Brings one open attempt up to date at `now`, and says whether the payments service holds
    /// its payment at all: one it never received (it was down when the attempt was made) waits on
    /// no bank and no UPI app.
    async fn bring_up_to_date(&self, attempt: &Attempt, now: i64) -> Result<bool, Error> {
        match self.look_up(attempt).await? {
            Some(payment) => self.apply(attempt, &payment).await.map(|_| true),
            None if now - attempt.created_at >= LOST_ATTEMPT_AFTER_SECS => {
                attempts::settle(&self.writer, attempt, "")
                    .await
                    .map(|()| false)
            }
            None => Ok(false),
        }
    }

    /// ConfirmOrder: asks about every open attempt of the order, then answers the order if it
    /// is confirmed.
    pub async fn confirm(&self, user_id: u64, order_id: u64) -> Result<Order, Error> {
        let order = self.store.load(user_id, order_id).await?;
        if order.order_status == changes::AWAITING_PAYMENT {
            for attempt in attempts::of_order(self.pool(), order_id).await? {
                if attempt.state == AttemptState::Open {
                    self.recover(&attempt).await?;
                }
            }
        }
        let order = self.store.load(user_id, order_id).await?;
        match order.order_status.as_str() {
            changes::AWAITING_PAYMENT => {
                Err(Error::Refused("Your payment is not complete yet.".into()))
            }
            changes::ABANDONED => Err(Error::Refused(
                "This order was replaced by a newer one from your cart.".into(),
            )),
            _ => Ok(order),
        }
    }

    /// Makes room for a new attempt of the customer's when they have `limit` open already: their
    /// open attempts are brought up to date first (those whose payments ended close), and the new
    /// one is refused only if that leaves `limit` still open with a payment the payments service
    /// holds.
    pub(crate) async fn make_room(&self, user_id: u64, limit: usize) -> Result<(), Error> {
        let open = attempts::open_of_user(self.pool(), user_id).await?;
        if open.len() < limit {
            return Ok(());
        }
        let mut still_open = 0;
        for attempt in &open {
            // Being paid right now in this process (another tab's tap): it ends in a moment, and
            // counts once it is left open.
            if self.in_flight.contains(attempt) {
                continue;
            }
            // Only a payment the payments service holds can keep an attempt open on purpose (a
            // bank page left open); attempts it never received, left by its outage, would
            // otherwise refuse the customer's every order until recovery gives them up as lost.
            let has_payment = self.bring_up_to_date(attempt, now()).await?;
            if has_payment
                && attempts::find(self.pool(), user_id, &attempt.key)
                    .await?
                    .is_some_and(|a| a.state == AttemptState::Open)
            {
                still_open += 1;
            }
        }
        if still_open >= limit {
            return Err(Error::Refused(format!(
                "You have {still_open} payments still waiting for your bank or UPI app. Please \
                 finish or cancel one of them, or try again in a few minutes."
            )));
        }
        Ok(())
    }

    /// One round of recovery. Returns how many attempts it looked at (not those whose request is
    /// running here).
    pub async fn recover_once(&self) -> Result<usize, Error> {
        self.recover_once_at(now()).await
    }

    /// One round of recovery as if it were `now` (unix seconds): the attempts due then, each put
    /// back in line after it was looked at. Tests drive the schedule with it.
    pub async fn recover_once_at(&self, now: i64) -> Result<usize, Error> {
        let due = attempts::due(self.pool(), now, RECOVERY_BATCH).await?;
        let mut looked_at = 0;
        for attempt in &due {
            // One whose request is running here is settled by that request in a moment.
            if !self.in_flight.contains(attempt) {
                looked_at += 1;
                if let Err(e) = self.recover_at(attempt, now).await {
                    tracing::warn!(error = %e, order_id = attempt.order_id, "recovery: attempt left open");
                }
            }
            // Only an attempt still open is moved (the update is conditional on it).
            attempts::reschedule(&self.writer, attempt, now).await?;
        }
        let confirmed_before = now - CART_CLEAR_GRACE_SECS;
        for (user_id, order_id, cart_version) in
            changes::carts_to_clear(self.pool(), confirmed_before, RECOVERY_BATCH).await?
        {
            // The customer's own request may be emptying it right now: take its turn, and look
            // again. A cart the customer filled since (emptied before a restart lost the note) is
            // past `cart_version` and left alone by the cart service.
            let _order = self.locks.lock(format!("order:{order_id}")).await;
            // Noted at once, not gathered: the next round must not find it still to clear.
            if changes::cart_still_to_clear(self.pool(), order_id).await? {
                match self.carts.empty(user_id, cart_version).await {
                    Ok(()) => self.note_now(order_id).await,
                    Err(e) => {
                        tracing::warn!(error = %e, order_id, "cart not emptied yet; will retry")
                    }
                }
            }
        }
        Ok(looked_at)
    }

    /// Runs recovery now and then every `every`, until the process ends.
    pub async fn run_recovery(self, every: Duration) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = self.recover_once().await {
                tracing::warn!(error = %e, "recovery round failed");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(user_id: u64, key: &str) -> Attempt {
        Attempt {
            user_id,
            key: key.into(),
            fingerprint: String::new(),
            order_id: 1,
            payment_id: String::new(),
            state: AttemptState::Open,
            created_at: 0,
            checks: 0,
        }
    }

    #[test]
    fn an_attempt_is_running_until_its_request_ends() {
        let in_flight = InFlight::default();
        let mark = in_flight.mark(7, "k");
        assert!(in_flight.contains(&attempt(7, "k")));
        // Another customer's attempt with the same key is not this one.
        assert!(!in_flight.contains(&attempt(8, "k")));
        drop(mark);
        assert!(!in_flight.contains(&attempt(7, "k")));
    }
}
