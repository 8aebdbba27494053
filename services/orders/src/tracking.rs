//! Where an order is now (`TrackOrder`), and the same kept up to date (`WatchOrder`).
//!
//! Both read the order's status and its delivery plan, and place the rider from the plan at the
//! moment asked, so a watcher sees the rider move every tick without anything being written.

use std::time::Duration;

use tiffin_proto::orders::v1::{GeoPoint, Order, Rider, TrackOrderResponse};

use crate::delivery::{self, Delivery, now_ms};
use crate::dispatch::LatLng;
use crate::error::Error;
use crate::feed::Feed;
use crate::lifecycle::Status;
use crate::orders::Store;

/// How often a client should ask again while the order is on its way (seconds).
pub const POLLING_INTERVAL_SECS: u32 = 30;
/// How often a watcher gets a fresh position.
pub const WATCH_TICK: Duration = Duration::from_secs(1);

fn point(p: LatLng) -> GeoPoint {
    GeoPoint {
        lat: p.lat,
        lng: p.lng,
    }
}

/// A sentence about the status for the tracking page; "" when the page words it itself.
fn message(status: Status, restaurant: &str, rider: Option<&str>) -> String {
    let rider = rider.unwrap_or("Your delivery partner");
    match status {
        Status::AwaitingPayment => "We are waiting for your payment to go through.".into(),
        Status::Abandoned => "This order was not placed.".into(),
        // The page says the restaurant has yet to confirm.
        Status::Placed => String::new(),
        Status::Accepted => format!("{restaurant} has accepted your order."),
        Status::Preparing => format!("{restaurant} is preparing your food."),
        Status::RiderAssigned => format!("{rider} is on the way to {restaurant}."),
        Status::PickedUp => format!("{rider} has picked up your order."),
        Status::Arriving => format!("{rider} is about to reach you."),
        Status::Delivered => "Your order has been delivered. Enjoy your meal!".into(),
        Status::Cancelled => "Your order was cancelled.".into(),
    }
}

/// What the ETA is waiting on.
fn eta_subtext(status: Status, metres_left: Option<f64>) -> String {
    match (status, metres_left) {
        (Status::Placed | Status::Accepted | Status::Preparing, _) => {
            "Your food is being prepared".into()
        }
        (Status::RiderAssigned, _) => "Your food will be picked up soon".into(),
        (Status::PickedUp | Status::Arriving, Some(m)) if m >= 1000.0 => {
            format!("{:.1} km away", m / 1000.0)
        }
        (Status::PickedUp | Status::Arriving, Some(m)) => format!("{} m away", m.round() as i64),
        _ => String::new(),
    }
}

/// The tracking answer for `order` with its delivery, at `now_ms`.
pub fn snapshot(order: &Order, delivery: Option<&Delivery>, now_ms: i64) -> TrackOrderResponse {
    let status = Status::parse(&order.order_status).unwrap_or(Status::Placed);
    let plan = delivery.and_then(|d| d.plan.as_ref());
    let on_the_way = !status.is_terminal() && status.is_paid();
    let position = plan.filter(|_| on_the_way).and_then(|p| p.rider_at(now_ms));
    let rider = plan.zip(position.as_ref()).map(|(plan, at)| Rider {
        name: plan.rider.name.clone(),
        phone: plan.rider.phone.clone(),
        location: Some(point(at.at)),
    });
    let eta_minutes = match (on_the_way, plan) {
        (true, Some(plan)) => Some(plan.eta_minutes(now_ms)),
        _ => None,
    };
    TrackOrderResponse {
        order_id: order.order_id,
        order_status: status.as_str().into(),
        terminal: status.is_terminal(),
        restaurant_name: order.restaurant_name.clone(),
        status_tag_text: status.tag_text().into(),
        status_message: message(
            status,
            &order.restaurant_name,
            rider.as_ref().map(|r| r.name.as_str()),
        ),
        eta_minutes,
        eta_subtext: if on_the_way {
            eta_subtext(status, position.as_ref().map(|p| p.metres_left))
        } else {
            String::new()
        },
        polling_interval_seconds: if status.is_terminal() {
            0
        } else {
            POLLING_INTERVAL_SECS
        },
        source: delivery.map(|d| point(d.restaurant)),
        destination: delivery.map(|d| point(d.destination)),
        rider,
        waypoints: position
            .map(|p| p.ahead.into_iter().map(point).collect())
            .unwrap_or_default(),
        restaurant_phone: delivery
            .map(|d| d.restaurant_phone.clone())
            .unwrap_or_default(),
        status_history: order.status_history.clone(),
        as_of_ms: now_ms,
    }
}

/// Reads orders' tracking.
#[derive(Clone)]
pub struct Tracking {
    store: Store,
    feed: Feed,
}

impl Tracking {
    pub fn new(store: Store, feed: Feed) -> Self {
        Self { store, feed }
    }

    /// Where `user_id`'s order is now; `NotFound` for anyone else's.
    pub async fn track(&self, user_id: u64, order_id: u64) -> Result<TrackOrderResponse, Error> {
        let (order, delivery) = self.read(user_id, order_id).await?;
        Ok(snapshot(&order, delivery.as_ref(), now_ms()))
    }

    async fn read(&self, user_id: u64, order_id: u64) -> Result<(Order, Option<Delivery>), Error> {
        let order = self.store.load(user_id, order_id).await?;
        let delivery = delivery::load(self.store.pool(), order_id).await?;
        Ok((order, delivery))
    }

    /// Tracking answers for `user_id`'s order: the first at once, then one whenever the status
    /// changes or the rider moves (checked every tick), ending with the order. The order is read
    /// again only when its plan says a status is due (or every few seconds, for a cancellation);
    /// in between the rider is placed from the plan in memory, so many watchers cost little.
    pub fn watch(
        &self,
        user_id: u64,
        order_id: u64,
    ) -> impl futures::Stream<Item = Result<TrackOrderResponse, Error>> + Send + 'static {
        let watch = Watch {
            bell: self.feed.subscribe(order_id),
            rang: false,
            tracking: self.clone(),
            user_id,
            order_id,
            read: None,
            watching_since: now_ms(),
            last: None,
            ended: false,
        };
        futures::stream::try_unfold(watch, |mut w| async move {
            match w.next().await? {
                Some(answer) => Ok(Some((answer, w))),
                None => Ok(None),
            }
        })
    }
}

/// One watcher's state between answers.
struct Watch {
    /// Rung when this process changes the order.
    bell: tokio::sync::watch::Receiver<()>,
    /// The bell rang since the last look.
    rang: bool,
    tracking: Tracking,
    user_id: u64,
    order_id: u64,
    /// The order and delivery as last read, and when (unix ms).
    read: Option<(Order, Option<Delivery>, i64)>,
    /// When this watch began (unix ms).
    watching_since: i64,
    last: Option<TrackOrderResponse>,
    ended: bool,
}

/// Read the order again at least this often, for changes no plan announces made by another
/// replica (a cancellation); this process's own changes ring the bell.
const REREAD_EVERY_MS: i64 = 15_000;

/// How long a paid order's plan is looked for on every tick. A plan comes within moments or not
/// at all (no rider could be found): after this, the order is read no more often than any other,
/// so an order that is never planned does not cost a read a second for as long as it is watched.
const PLANNING_LOOKS_MS: i64 = 60_000;

/// Paid but not planned yet, and watched for less than [`PLANNING_LOOKS_MS`]: the plan comes
/// within moments, so the order is worth reading on every tick.
fn awaiting_plan(
    delivery: Option<&Delivery>,
    status: Option<Status>,
    watching_since: i64,
    now: i64,
) -> bool {
    delivery.is_some_and(|d| d.plan.is_none())
        && status.is_some_and(|s| s.is_paid() && !s.is_terminal())
        && now - watching_since < PLANNING_LOOKS_MS
}

impl Watch {
    /// The next answer that differs from the last one; `None` after the terminal one.
    async fn next(&mut self) -> Result<Option<TrackOrderResponse>, Error> {
        if self.ended {
            return Ok(None);
        }
        loop {
            let now = now_ms();
            let stale = match &self.read {
                None => true,
                Some((order, delivery, read_at)) => {
                    let status = Status::parse(&order.order_status);
                    let plan = delivery.as_ref().and_then(|d| d.plan.as_ref());
                    let planning =
                        awaiting_plan(delivery.as_ref(), status, self.watching_since, now);
                    // A step came due since the last look: whichever replica applies it, look
                    // once more.
                    let due = plan
                        .zip(status)
                        .and_then(|(plan, status)| plan.next_after(status))
                        .is_some_and(|step| step.at_ms <= now && step.at_ms > *read_at);
                    let rung = self.rang || self.bell.has_changed().unwrap_or(false);
                    planning || due || rung || now - read_at >= REREAD_EVERY_MS
                }
            };
            if stale {
                self.rang = false;
                self.bell.borrow_and_update();
                let (order, delivery) = self.tracking.read(self.user_id, self.order_id).await?;
                self.read = Some((order, delivery, now));
            }
            let Some((order, delivery, _)) = &self.read else {
                return Ok(None);
            };
            let fresh = snapshot(order, delivery.as_ref(), now);
            let changed = self.last.as_ref().is_none_or(|l| {
                l.order_status != fresh.order_status
                    || l.rider != fresh.rider
                    || l.eta_minutes != fresh.eta_minutes
            });
            if changed {
                self.ended = fresh.terminal;
                self.last = Some(fresh.clone());
                return Ok(Some(fresh));
            }
            tokio::select! {
                rung = self.bell.changed() => {
                    match rung {
                        // Waiting marked the ring as seen: remember it for the next look.
                        Ok(()) => self.rang = true,
                        // No bell any more: look on the tick alone.
                        Err(_) => tokio::time::sleep(WATCH_TICK).await,
                    }
                }
                _ = tokio::time::sleep(WATCH_TICK) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unplanned() -> Delivery {
        Delivery {
            restaurant: LatLng {
                lat: 12.93,
                lng: 77.62,
            },
            destination: LatLng {
                lat: 12.94,
                lng: 77.63,
            },
            restaurant_phone: String::new(),
            plan: None,
        }
    }

    #[test]
    fn a_paid_order_is_looked_at_every_tick_for_its_plan_only_for_a_while() {
        let delivery = unplanned();
        let placed = Some(Status::Placed);
        assert!(awaiting_plan(Some(&delivery), placed, 0, 1_000));
        assert!(awaiting_plan(
            Some(&delivery),
            placed,
            0,
            PLANNING_LOOKS_MS - 1
        ));
        // Never planned: from now on it is read like any other order, not every second forever.
        assert!(!awaiting_plan(
            Some(&delivery),
            placed,
            0,
            PLANNING_LOOKS_MS
        ));
        assert!(!awaiting_plan(Some(&delivery), placed, 0, 24 * 3_600_000));
    }

    #[test]
    fn an_unpaid_or_ended_order_is_not_waiting_for_a_plan() {
        let delivery = unplanned();
        for status in [
            Status::AwaitingPayment,
            Status::Cancelled,
            Status::Delivered,
        ] {
            assert!(!awaiting_plan(Some(&delivery), Some(status), 0, 1_000));
        }
        assert!(!awaiting_plan(None, Some(Status::Placed), 0, 1_000));
    }
}
