//! Points on the earth and the distance between them: the one geometry every service shares
//! (nearest locality, delivery radius, delivery estimate, the cart's delivery fee).
//!
//! A [`Point`] can only be made from a coordinate that is finite and in range, so code that holds
//! one never has to check again; a caller's bad coordinate is refused where it enters
//! ([`Point::new`]; discovery answers "Invalid user location.").

/// Mean earth radius of every distance: the one figure the whole storefront uses, so discovery's
/// estimate and the cart's delivery fee never disagree about how far a restaurant is.
pub const EARTH_RADIUS_KM: f64 = 6371.0;

/// Great-circle distance in metres between two coordinates given as plain numbers, for callers
/// that hold no [`Point`] (the cart's stored facts, tests). The same haversine as
/// [`Point::distance_km`], to the bit. A NaN or infinite input gives NaN (callers treat it as
/// out of reach), never a distance; an out-of-range one gives a meaningless distance, so check
/// inputs that come from outside.
pub fn distance_m(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
    if ![lat1, lng1, lat2, lng2].iter().all(|x| x.is_finite()) {
        // The arcsine's clamp would otherwise turn NaN into half the earth's circumference.
        return f64::NAN;
    }
    let a = Prepared::new(Point {
        lat: lat1,
        lng: lng1,
    });
    let b = Prepared::new(Point {
        lat: lat2,
        lng: lng2,
    });
    a.distance_km(&b) * 1000.0
}

/// A valid coordinate: latitude in [-90, 90], longitude in [-180, 180], both finite.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    lat: f64,
    lng: f64,
}

/// A coordinate outside the earth (or NaN / infinite).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("invalid coordinate ({lat}, {lng})")]
pub struct InvalidPoint {
    pub lat: f64,
    pub lng: f64,
}

impl Point {
    /// Parses a caller's coordinate. The range checks also refuse NaN, since every comparison
    /// with NaN is false.
    pub fn new(lat: f64, lng: f64) -> Result<Self, InvalidPoint> {
        if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lng) {
            Ok(Self { lat, lng })
        } else {
            Err(InvalidPoint { lat, lng })
        }
    }

    pub fn lat(self) -> f64 {
        self.lat
    }

    pub fn lng(self) -> f64 {
        self.lng
    }

    /// Great-circle distance in kilometres (haversine, R = 6371 km).
    pub fn distance_km(self, other: Point) -> f64 {
        Prepared::new(self).distance_km(&Prepared::new(other))
    }

    /// Earth-centred cartesian position in kilometres. The spatial index works in this space
    /// because straight-line (chord) distance there never exceeds the great-circle distance and
    /// has no seam at the antimeridian or the poles, unlike boxes in degrees.
    pub fn to_cartesian_km(self) -> [f64; 3] {
        let (lat, lng) = (self.lat.to_radians(), self.lng.to_radians());
        [
            EARTH_RADIUS_KM * lat.cos() * lng.cos(),
            EARTH_RADIUS_KM * lat.cos() * lng.sin(),
            EARTH_RADIUS_KM * lat.sin(),
        ]
    }
}

/// A point made ready for many distances: the sines and cosines of its half latitude and half
/// longitude, and the cosine of its latitude, worked out once. The delivery index keeps one per
/// restaurant, so checking a restaurant near the point asked about costs a few multiplications and
/// one arcsine, and no sine at all. The same haversine as [`Point::distance_km`], which goes
/// through it: the same result to the bit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prepared {
    sin_half_lat: f64,
    cos_half_lat: f64,
    sin_half_lng: f64,
    cos_half_lng: f64,
    cos_lat: f64,
}

impl Prepared {
    pub fn new(point: Point) -> Self {
        let (half_lat, half_lng) = (point.lat.to_radians() / 2.0, point.lng.to_radians() / 2.0);
        Self {
            sin_half_lat: half_lat.sin(),
            cos_half_lat: half_lat.cos(),
            sin_half_lng: half_lng.sin(),
            cos_half_lng: half_lng.cos(),
            cos_lat: point.lat.to_radians().cos(),
        }
    }

    /// Great-circle distance in kilometres (haversine, R = 6371 km):
    /// `a = sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2)`, `d = 2R asin √a`. The two half-difference sines
    /// come from the points' own half-angle sines and cosines, `sin(y/2 − x/2) = sin(y/2) cos(x/2)
    /// − cos(y/2) sin(x/2)`: exact in arithmetic, and within a few units of 1e-16 of the sine of
    /// the difference in floating point, micrometres on the ground.
    pub fn distance_km(&self, other: &Prepared) -> f64 {
        let half_dp =
            other.sin_half_lat * self.cos_half_lat - other.cos_half_lat * self.sin_half_lat;
        let half_dl =
            other.sin_half_lng * self.cos_half_lng - other.cos_half_lng * self.sin_half_lng;
        let a = half_dp * half_dp + self.cos_lat * other.cos_lat * (half_dl * half_dl);
        // Rounding can push `a` a hair above 1 for nearly antipodal points; asin would give NaN.
        2.0 * EARTH_RADIUS_KM * a.sqrt().min(1.0).asin()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(lat: f64, lng: f64) -> Point {
        Point::new(lat, lng).unwrap()
    }

    #[test]
    fn koramangala_to_indiranagar_is_about_5_1_km() {
        // Between the gazetteer's centres: 4.80 km north (0.0432°) and 1.77 km east (0.0163° at
        // cos 12.96°), so √(4.80² + 1.77²) ≈ 5.12 km. "About 4.8 km" is only the northward leg.
        let d = p(12.9352, 77.6245).distance_km(p(12.9784, 77.6408));

        assert!((d - 5.12).abs() <= 0.02, "{d}");
    }

    #[test]
    fn a_degree_of_latitude_is_r_times_pi_over_180() {
        let d = p(10.0, 77.0).distance_km(p(11.0, 77.0));

        assert!(
            (d - EARTH_RADIUS_KM * std::f64::consts::PI / 180.0).abs() < 1e-9,
            "{d}"
        );
    }

    #[test]
    fn distance_is_symmetric_zero_to_itself_and_finite_at_the_antipode() {
        let (a, b) = (p(12.9, 77.6), p(28.6, 77.2));
        assert_eq!(a.distance_km(b), b.distance_km(a));
        assert_eq!(a.distance_km(a), 0.0);

        let half_circumference = p(0.0, 0.0).distance_km(p(0.0, 180.0));
        assert!((half_circumference - EARTH_RADIUS_KM * std::f64::consts::PI).abs() < 1e-6);
    }

    /// The haversine as written in the books, with the sines of the differences.
    fn textbook(a: Point, b: Point) -> f64 {
        let (p1, p2) = (a.lat.to_radians(), b.lat.to_radians());
        let (dp, dl) = (p2 - p1, (b.lng - a.lng).to_radians());
        let h = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
        2.0 * EARTH_RADIUS_KM * h.sqrt().min(1.0).asin()
    }

    #[test]
    fn the_distance_is_the_textbook_haversine_to_the_micrometre_nearby() {
        // A linear congruential generator: deterministic noise without a dependency.
        let mut state: u64 = 7;
        let mut between = |low: f64, high: f64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            low + (high - low) * ((state >> 11) as f64 / (1u64 << 53) as f64)
        };
        for _ in 0..10_000 {
            let a = p(between(-89.0, 89.0), between(-180.0, 180.0));
            // Near pairs (a delivery radius) and far ones (across the antimeridian too).
            let near = between(0.0, 1.0) < 0.5;
            let b = if near {
                p(
                    (a.lat + between(-0.1, 0.1)).clamp(-90.0, 90.0),
                    (a.lng + between(-0.1, 0.1)).clamp(-180.0, 180.0),
                )
            } else {
                p(between(-90.0, 90.0), between(-180.0, 180.0))
            };
            let (got, want) = (a.distance_km(b), textbook(a, b));
            // Far apart, both carry the arcsine's own rounding (steep near the antipode).
            let tolerance = if near { 1e-9 } else { 1e-6 };
            assert!(
                (got - want).abs() < tolerance,
                "{a:?} {b:?}: {got} against {want}"
            );
        }
    }

    #[test]
    fn metres_between_plain_numbers_are_the_points_distance() {
        let (a, b) = (p(12.9352, 77.6245), p(12.9784, 77.6408));
        assert_eq!(
            distance_m(a.lat, a.lng, b.lat, b.lng),
            a.distance_km(b) * 1000.0
        );
        assert!(distance_m(f64::NAN, 0.0, 0.0, 0.0).is_nan());
    }

    #[test]
    fn refuses_out_of_range_and_non_finite_coordinates() {
        for (lat, lng) in [
            (90.1, 0.0),
            (-90.1, 0.0),
            (0.0, 180.5),
            (0.0, -181.0),
            (f64::NAN, 0.0),
            (0.0, f64::INFINITY),
        ] {
            assert!(Point::new(lat, lng).is_err(), "({lat}, {lng})");
        }
        assert!(Point::new(90.0, -180.0).is_ok());
    }

    #[test]
    fn chord_distance_never_exceeds_the_great_circle_distance() {
        let (a, b) = (p(12.9352, 77.6245), p(12.9784, 77.6408));
        let (ca, cb) = (a.to_cartesian_km(), b.to_cartesian_km());
        let chord = ca
            .iter()
            .zip(cb)
            .map(|(x, y)| (x - y).powi(2))
            .sum::<f64>()
            .sqrt();

        assert!(chord <= a.distance_km(b));
        assert!(a.distance_km(b) - chord < 1e-3);
    }
}
