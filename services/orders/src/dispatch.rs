//! Who delivers an order and when: the [`Dispatch`] interface a real dispatch system would sit
//! behind, and the [`Simulator`] that stands in for one.
//!
//! A dispatch answers a confirmed order with a [`Plan`]: the rider, the road they take (from
//! where they are to the restaurant, then to the customer) and when each status begins. Where the
//! rider is at any moment follows from the plan ([`Plan::rider_at`]), so the rider moves smoothly
//! along the road between two looks, and no position has to be written every second.

use serde::{Deserialize, Serialize};
use tiffin_geo::point::distance_m;

use crate::lifecycle::Status;

/// A point as the plan stores it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LatLng {
    pub lat: f64,
    pub lng: f64,
}

impl LatLng {
    fn metres_to(self, other: LatLng) -> f64 {
        distance_m(self.lat, self.lng, other.lat, other.lng)
    }

    /// The point `f` (0 to 1) of the way to `other`. Along a few hundred metres the earth is flat
    /// enough for a straight line between coordinates.
    fn toward(self, other: LatLng, f: f64) -> LatLng {
        LatLng {
            lat: self.lat + (other.lat - self.lat) * f,
            lng: self.lng + (other.lng - self.lng) * f,
        }
    }
}

/// What a dispatch needs to know about an order.
#[derive(Debug, Clone, PartialEq)]
pub struct Trip {
    pub order_id: u64,
    pub restaurant: LatLng,
    pub destination: LatLng,
    /// Minutes the kitchen needs.
    pub prep_minutes: u32,
}

/// The rider carrying an order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rider {
    pub name: String,
    pub phone: String,
}

/// When a status begins (unix milliseconds).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub status: Status,
    pub at_ms: i64,
}

/// How an order will be delivered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub rider: Rider,
    /// From ACCEPTED to DELIVERED, in order.
    pub steps: Vec<Step>,
    /// The rider's road to the restaurant: from where they were assigned to the restaurant.
    pub to_restaurant: Vec<LatLng>,
    /// The road from the restaurant to the customer.
    pub to_customer: Vec<LatLng>,
    /// When the rider sets off, reaches the restaurant, leaves with the food and arrives.
    pub sets_off_ms: i64,
    pub at_restaurant_ms: i64,
    pub picked_up_ms: i64,
    pub arrives_ms: i64,
    /// Simulated time per real time: a minute of the plan lasts `1 / time_scale` real minutes.
    pub time_scale: f64,
}

/// Where the rider is at a moment, and the road still ahead of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    pub at: LatLng,
    /// From the rider's position to the customer (through the restaurant when they have not
    /// picked up yet).
    pub ahead: Vec<LatLng>,
    /// What is left of that road, in metres.
    pub metres_left: f64,
}

fn length_m(road: &[LatLng]) -> f64 {
    road.windows(2).map(|w| w[0].metres_to(w[1])).sum()
}

/// The point `f` (0 to 1) of the way along `road`, and the road after it.
fn along(road: &[LatLng], f: f64) -> (LatLng, Vec<LatLng>) {
    let Some(&first) = road.first() else {
        return (LatLng { lat: 0.0, lng: 0.0 }, Vec::new());
    };
    let mut left = length_m(road) * f.clamp(0.0, 1.0);
    for (i, w) in road.windows(2).enumerate() {
        let leg = w[0].metres_to(w[1]);
        if left <= leg && leg > 0.0 {
            let here = w[0].toward(w[1], left / leg);
            let mut ahead = vec![here];
            ahead.extend_from_slice(&road[i + 1..]);
            return (here, ahead);
        }
        left -= leg;
    }
    let last = *road.last().unwrap_or(&first);
    (last, vec![last])
}

fn fraction(now_ms: i64, from_ms: i64, to_ms: i64) -> f64 {
    if to_ms <= from_ms {
        return 1.0;
    }
    ((now_ms - from_ms) as f64 / (to_ms - from_ms) as f64).clamp(0.0, 1.0)
}

impl Plan {
    /// When `status` begins, if the plan has it.
    pub fn starts(&self, status: Status) -> Option<i64> {
        self.steps
            .iter()
            .find(|s| s.status == status)
            .map(|s| s.at_ms)
    }

    /// The step after `status` (the first one for a status before all of them).
    pub fn next_after(&self, status: Status) -> Option<Step> {
        match self.steps.iter().position(|s| s.status == status) {
            Some(i) => self.steps.get(i + 1).copied(),
            None if status == Status::Placed => self.steps.first().copied(),
            None => None,
        }
    }

    /// Where the rider is at `now_ms`; `None` before they set off.
    pub fn rider_at(&self, now_ms: i64) -> Option<Position> {
        if now_ms < self.sets_off_ms {
            return None;
        }
        let (at, mut ahead) = if now_ms < self.at_restaurant_ms {
            let (at, mut ahead) = along(
                &self.to_restaurant,
                fraction(now_ms, self.sets_off_ms, self.at_restaurant_ms),
            );
            ahead.extend(self.to_customer.iter().skip(1));
            (at, ahead)
        } else if now_ms < self.picked_up_ms {
            (
                self.to_customer
                    .first()
                    .copied()
                    .unwrap_or(LatLng { lat: 0.0, lng: 0.0 }),
                self.to_customer.clone(),
            )
        } else {
            along(
                &self.to_customer,
                fraction(now_ms, self.picked_up_ms, self.arrives_ms),
            )
        };
        if ahead.is_empty() {
            ahead.push(at);
        }
        let metres_left = length_m(&ahead);
        Some(Position {
            at,
            ahead,
            metres_left,
        })
    }

    /// Minutes until the customer has the food, as the customer counts them (plan time); at least
    /// one while the order is on its way.
    pub fn eta_minutes(&self, now_ms: i64) -> u32 {
        let left_ms = (self.arrives_ms - now_ms).max(0) as f64 * self.time_scale;
        (left_ms / 60_000.0).ceil().max(1.0) as u32
    }
}

/// Plans deliveries. A real dispatch system plugs in here: it would choose a real rider and report
/// their real position instead of a planned one.
pub trait Dispatch: Send + Sync {
    /// The plan for `trip`, confirmed (paid) at `confirmed_ms`.
    fn plan(&self, trip: &Trip, confirmed_ms: i64) -> Plan;
}

/// A rider's average speed through city traffic, metres per second (18 km/h).
pub const RIDER_SPEED_MPS: f64 = 5.0;
/// How long a restaurant takes to accept a paid order, in plan seconds.
pub const ACCEPT_AFTER_SECS: f64 = 45.0;
/// How long after accepting the kitchen starts cooking.
pub const START_COOKING_AFTER_SECS: f64 = 15.0;
/// Handing the food over at the counter.
pub const HANDOVER_SECS: f64 = 60.0;
/// The rider is "arriving" for the last part of the ride.
pub const ARRIVING_SECS: f64 = 120.0;
/// A rider is assigned this far (metres) from the restaurant, give or take a third.
pub const RIDER_START_METRES: f64 = 1_200.0;
/// Preparation when the restaurant's own estimate is unknown.
pub const DEFAULT_PREP_MINUTES: u32 = 15;

const RIDER_NAMES: [&str; 10] = [
    "Ravi", "Imran", "Suresh", "Arjun", "Manoj", "Farhan", "Kiran", "Deepak", "Vikram", "Naveen",
];

/// A stand-in for a dispatch system: the restaurant accepts after a short wait, cooks for its own
/// estimate, and a rider assigned nearby rides a street-like road (a few turns, not a straight
/// line) at city speed. `time_scale` runs it faster for demos and tests: at 60, a minute of the
/// plan passes in a second.
#[derive(Debug, Clone, Copy)]
pub struct Simulator {
    pub time_scale: f64,
}

/// A small deterministic generator, so one order's plan is the same every time it is made (a
/// replica that plans it again agrees with the first).
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> f64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A road from `from` to `to` that runs like streets do: alternating north–south and east–west
/// stretches with a little wobble, ending exactly at `to`.
fn street_road(from: LatLng, to: LatLng, rng: &mut Seeded) -> Vec<LatLng> {
    let turns = 3 + (rng.next() * 3.0) as usize;
    let mut road = vec![from];
    let mut here = from;
    for i in 0..turns {
        let share = (i + 1) as f64 / turns as f64;
        let target = from.toward(to, share);
        let wobble = (rng.next() - 0.5) * 0.0006;
        let corner = if i % 2 == 0 {
            LatLng {
                lat: target.lat + wobble,
                lng: here.lng,
            }
        } else {
            LatLng {
                lat: here.lat,
                lng: target.lng + wobble,
            }
        };
        road.push(corner);
        here = corner;
    }
    road.push(to);
    road.dedup();
    road
}

impl Dispatch for Simulator {
    fn plan(&self, trip: &Trip, confirmed_ms: i64) -> Plan {
        let mut rng = Seeded(trip.order_id);
        let scale = if self.time_scale.is_finite() && self.time_scale > 0.0 {
            self.time_scale
        } else {
            1.0
        };
        // Plan seconds to real milliseconds after confirmation.
        let at = |plan_secs: f64| confirmed_ms + (plan_secs * 1000.0 / scale).round() as i64;

        let bearing = rng.next() * std::f64::consts::TAU;
        let metres = RIDER_START_METRES * (0.67 + rng.next() * 0.66);
        let start = LatLng {
            lat: trip.restaurant.lat + metres * bearing.cos() / 111_320.0,
            lng: trip.restaurant.lng
                + metres * bearing.sin()
                    / (111_320.0 * trip.restaurant.lat.to_radians().cos().max(0.1)),
        };
        let to_restaurant = street_road(start, trip.restaurant, &mut rng);
        let to_customer = street_road(trip.restaurant, trip.destination, &mut rng);

        let prep_minutes = if trip.prep_minutes == 0 {
            DEFAULT_PREP_MINUTES
        } else {
            trip.prep_minutes
        };
        let accepted = ACCEPT_AFTER_SECS;
        let preparing = accepted + START_COOKING_AFTER_SECS;
        let food_ready = preparing + f64::from(prep_minutes) * 60.0;
        let ride_in = length_m(&to_restaurant) / RIDER_SPEED_MPS;
        // Assigned so the rider gets there as the food is ready, never before cooking starts.
        let assigned = (food_ready - ride_in).max(preparing + 1.0);
        let at_restaurant = assigned + ride_in;
        let picked_up = food_ready.max(at_restaurant) + HANDOVER_SECS;
        let arrives = picked_up + length_m(&to_customer) / RIDER_SPEED_MPS;
        let arriving = (arrives - ARRIVING_SECS).max(picked_up + 1.0);
        let delivered = arrives.max(arriving + 1.0);

        let name =
            RIDER_NAMES[(rng.next() * RIDER_NAMES.len() as f64) as usize % RIDER_NAMES.len()];
        let phone = format!("+9198{:08}", (rng.next() * 1e8) as u64);
        Plan {
            rider: Rider {
                name: name.to_string(),
                phone,
            },
            steps: vec![
                Step {
                    status: Status::Accepted,
                    at_ms: at(accepted),
                },
                Step {
                    status: Status::Preparing,
                    at_ms: at(preparing),
                },
                Step {
                    status: Status::RiderAssigned,
                    at_ms: at(assigned),
                },
                Step {
                    status: Status::PickedUp,
                    at_ms: at(picked_up),
                },
                Step {
                    status: Status::Arriving,
                    at_ms: at(arriving),
                },
                Step {
                    status: Status::Delivered,
                    at_ms: at(delivered),
                },
            ],
            to_restaurant,
            to_customer,
            sets_off_ms: at(assigned),
            at_restaurant_ms: at(at_restaurant),
            picked_up_ms: at(picked_up),
            arrives_ms: at(delivered),
            time_scale: scale,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trip() -> Trip {
        Trip {
            order_id: 123_456_789_012,
            // Koramangala to HSR Layout, about 3.5 km apart.
            restaurant: LatLng {
                lat: 12.9352,
                lng: 77.6245,
            },
            destination: LatLng {
                lat: 12.9116,
                lng: 77.6474,
            },
            prep_minutes: 20,
        }
    }

    #[test]
    fn statuses_follow_the_machine_in_time_order() {
        let plan = Simulator { time_scale: 1.0 }.plan(&trip(), 1_000_000);
        let mut previous = Status::Placed;
        let mut previous_at = 1_000_000;
        for step in &plan.steps {
            assert!(
                previous.may_become(step.status),
                "{previous:?} -> {:?}",
                step.status
            );
            assert!(
                step.at_ms > previous_at,
                "{:?} comes after {previous:?}",
                step.status
            );
            previous = step.status;
            previous_at = step.at_ms;
        }
        assert_eq!(previous, Status::Delivered);
        assert_eq!(
            plan.next_after(Status::Placed).map(|s| s.status),
            Some(Status::Accepted)
        );
        assert_eq!(plan.next_after(Status::Delivered), None);
    }

    #[test]
    fn the_same_order_gets_the_same_plan() {
        let a = Simulator { time_scale: 1.0 }.plan(&trip(), 5);
        let b = Simulator { time_scale: 1.0 }.plan(&trip(), 5);
        assert_eq!(a, b);
    }

    #[test]
    fn the_road_turns_like_streets_and_is_longer_than_the_crow_flies() {
        let t = trip();
        let plan = Simulator { time_scale: 1.0 }.plan(&t, 0);
        assert!(
            plan.to_customer.len() >= 4,
            "a few turns: {:?}",
            plan.to_customer
        );
        assert_eq!(plan.to_customer.first(), Some(&t.restaurant));
        assert_eq!(plan.to_customer.last(), Some(&t.destination));
        assert_eq!(plan.to_restaurant.last(), Some(&t.restaurant));
        let straight = t.restaurant.metres_to(t.destination);
        let road = length_m(&plan.to_customer);
        assert!(
            road > straight * 1.05 && road < straight * 2.0,
            "{road} vs {straight}"
        );
        // The rider starts near the restaurant.
        let start = plan.to_restaurant[0].metres_to(t.restaurant);
        assert!((700.0..=1700.0).contains(&start), "{start}");
    }

    #[test]
    fn the_ride_takes_city_speed_and_preparation_the_restaurants_estimate() {
        let t = trip();
        let plan = Simulator { time_scale: 1.0 }.plan(&t, 0);
        let ride_secs = (plan.arrives_ms - plan.picked_up_ms) as f64 / 1000.0;
        let road = length_m(&plan.to_customer);
        assert!((ride_secs - road / RIDER_SPEED_MPS).abs() < 1.0);
        let cooking =
            plan.starts(Status::PickedUp).unwrap() - plan.starts(Status::Preparing).unwrap();
        assert!(
            cooking >= 20 * 60_000,
            "the kitchen's 20 minutes: {cooking}"
        );
    }

    #[test]
    fn the_rider_moves_smoothly_along_the_road_and_the_eta_counts_down() {
        let t = trip();
        let plan = Simulator { time_scale: 1.0 }.plan(&t, 0);
        assert!(
            plan.rider_at(plan.sets_off_ms - 1).is_none(),
            "no rider before one sets off"
        );
        let mut last: Option<Position> = None;
        let mut last_eta = u32::MAX;
        let step = (plan.arrives_ms - plan.sets_off_ms) / 200;
        let mut now = plan.sets_off_ms;
        while now <= plan.arrives_ms {
            let p = plan.rider_at(now).expect("a rider on the way");
            if let Some(prev) = &last {
                // Never a jump: at 5 m/s a step of this plan is at most a few hundred metres.
                let moved = prev.at.metres_to(p.at);
                assert!(
                    moved <= RIDER_SPEED_MPS * step as f64 / 1000.0 + 1.0,
                    "jumped {moved} m"
                );
                assert!(
                    p.metres_left <= prev.metres_left + 0.5,
                    "the road ahead only shrinks"
                );
            }
            let eta = plan.eta_minutes(now);
            assert!(eta <= last_eta);
            last_eta = eta;
            last = Some(p);
            now += step;
        }
        let end = plan.rider_at(plan.arrives_ms).unwrap();
        assert!(end.at.metres_to(t.destination) < 1.0);
        assert!(end.metres_left < 1.0);
        // Waiting at the counter, the rider is at the restaurant with the whole ride ahead.
        if plan.picked_up_ms > plan.at_restaurant_ms {
            let waiting = plan.rider_at(plan.at_restaurant_ms).unwrap();
            assert!(waiting.at.metres_to(t.restaurant) < 1.0);
            assert_eq!(waiting.ahead, plan.to_customer);
        }
    }

    #[test]
    fn a_time_scale_runs_the_same_plan_faster_and_keeps_the_customers_minutes() {
        let slow = Simulator { time_scale: 1.0 }.plan(&trip(), 0);
        let fast = Simulator { time_scale: 60.0 }.plan(&trip(), 0);
        let total = |p: &Plan| p.arrives_ms;
        assert!((total(&slow) as f64 / total(&fast) as f64 - 60.0).abs() < 0.5);
        assert_eq!(slow.eta_minutes(0), fast.eta_minutes(0));
        assert_eq!(slow.to_customer, fast.to_customer);
    }
}
