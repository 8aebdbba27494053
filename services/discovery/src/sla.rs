//! The delivery estimate (`Sla`) from a restaurant to a point.
//!
//! The rule: the kitchen's preparation time plus the rider's travel at [`RIDER_SPEED_KMPH`]
//! (3 minutes per kilometre), rounded **up** to the next multiple of 5 minutes for the lower
//! bound, and the upper bound [`WINDOW_MINUTES`] later. Rounding up, never to the nearest, so the
//! promise a customer sees is never earlier than the arithmetic; both bounds grow with distance.
//! Example: 20 min prep, 2.4 km → 20 + 7.2 = 27.2 → "30-40 MINS".
//!
//! Distance is straight-line (haversine), not road distance: the gazetteer holds no roads, and the
//! radius that decides serviceability is measured the same way.

use tiffin_geo::Point;
use tiffin_proto::discovery::v1::Sla;

/// Average rider speed in city traffic.
pub const RIDER_SPEED_KMPH: f64 = 20.0;
/// Minutes between the lower and upper bound of the estimate.
pub const WINDOW_MINUTES: u32 = 10;
/// The lower bound is a multiple of this many minutes.
pub const ROUND_TO_MINUTES: u32 = 5;
/// No estimate's lower bound is later than a day.
pub const MAX_ESTIMATE_MINUTES: u32 = 24 * 60;

/// `(min, max)` delivery minutes for a kitchen needing `prep_minutes` and a rider riding
/// `distance_km`.
pub fn delivery_minutes(prep_minutes: u32, distance_km: f64) -> (u32, u32) {
    // A negative or NaN distance cannot come from haversine; treat it as zero rather than trust it.
    let travel = if distance_km > 0.0 {
        distance_km * 60.0 / RIDER_SPEED_KMPH
    } else {
        0.0
    };
    let step = f64::from(ROUND_TO_MINUTES);
    let min = ((f64::from(prep_minutes) + travel) / step).ceil() * step;
    // Radii are a few kilometres, so the cap is never reached by real data; it keeps an absurd
    // input from overflowing.
    let min = min.clamp(step, f64::from(MAX_ESTIMATE_MINUTES)) as u32;
    (min, min + WINDOW_MINUTES)
}

/// The estimate from a restaurant at `from` (delivering within `radius_m` metres, preparing in
/// `prep_minutes`) to `to`.
pub fn sla(from: Point, radius_m: u32, prep_minutes: u32, to: Point) -> Sla {
    let distance_km = from.distance_km(to);
    sla_at_distance(distance_km, radius_m, prep_minutes)
}

/// [`sla`] when the distance is already known.
pub fn sla_at_distance(distance_km: f64, radius_m: u32, prep_minutes: u32) -> Sla {
    let (min, max) = delivery_minutes(prep_minutes, distance_km);
    Sla {
        min_delivery_minutes: min,
        max_delivery_minutes: max,
        distance_km,
        serviceable: delivers(distance_km, radius_m),
    }
}

/// Whether a restaurant with this radius delivers to a point `distance_km` away (the boundary
/// itself is inside).
pub fn delivers(distance_km: f64, radius_m: u32) -> bool {
    distance_km * 1000.0 <= f64::from(radius_m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prep_plus_three_minutes_a_kilometre_rounded_up_to_five() {
        // 20 + 2.4 km × 3 = 27.2 → 30.
        assert_eq!(delivery_minutes(20, 2.4), (30, 40));
        // Exactly on a multiple stays there: 25 + 0 = 25.
        assert_eq!(delivery_minutes(25, 0.0), (25, 35));
        // 15 + 0.1 km × 3 = 15.3 → 20: never promise earlier than the arithmetic.
        assert_eq!(delivery_minutes(15, 0.1), (20, 30));
    }

    #[test]
    fn the_window_is_ten_minutes_and_moves_later_with_distance() {
        let mut last = (0, 0);
        for tenth_km in 0..=100 {
            let (min, max) = delivery_minutes(18, f64::from(tenth_km) / 10.0);
            assert_eq!(max - min, WINDOW_MINUTES);
            assert_eq!(min % ROUND_TO_MINUTES, 0);
            assert!(
                min >= last.0,
                "estimate went down at {tenth_km} tenths of a km"
            );
            last = (min, max);
        }
        assert!(delivery_minutes(18, 10.0).0 > delivery_minutes(18, 1.0).0);
    }

    #[test]
    fn odd_inputs_give_a_sane_estimate_not_a_panic() {
        assert_eq!(delivery_minutes(0, 0.0), (5, 15));
        assert_eq!(delivery_minutes(10, f64::NAN), (10, 20));
        assert_eq!(delivery_minutes(10, -3.0), (10, 20));
        assert_eq!(
            delivery_minutes(10, f64::INFINITY),
            (MAX_ESTIMATE_MINUTES, MAX_ESTIMATE_MINUTES + 10)
        );
    }

    #[test]
    fn the_radius_boundary_is_inside() {
        assert!(delivers(3.0, 3000));
        assert!(!delivers(3.0001, 3000));
        let sla = sla_at_distance(4.0, 3000, 20);
        assert!(!sla.serviceable);
        assert_eq!(sla.min_delivery_minutes, 35);
    }
}
