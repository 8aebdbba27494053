//! The city list: the `cities` table and the `ListCities` RPC.
//!
//! Which cities are *popular* and which may be shown to users are the storefront's rules (the
//! nine cities the catalogue is built for; no QA or retired city in front of a customer), so they
//! live here as code rather than as columns another import could get wrong.

use sqlx::{AnyPool, Row};
use tiffin_geo::Point;
use tiffin_proto::discovery::v1::{City, ListCitiesResponse};

use crate::error::Error;

/// The popular cities (the footer's first list); a city is popular only when it is also enabled.
pub const POPULAR: [&str; 9] = [
    "ahmedabad",
    "bangalore",
    "chennai",
    "delhi",
    "gurgaon",
    "hyderabad",
    "kolkata",
    "mumbai",
    "pune",
];

/// Slug fragments that keep an enabled city away from users: QA and retired cities.
const HIDDEN_SLUG_PARTS: [&str; 3] = ["test", "do-not-use", "closed"];

/// A row of `cities`.
#[derive(Debug, Clone, PartialEq)]
pub struct CityRecord {
    pub slug: String,
    pub name: String,
    pub state: String,
    /// The city's centre: where a city-level suggestion puts the user.
    pub centre: Point,
    pub enabled: bool,
}

impl CityRecord {
    /// One of the spec's popular cities, and enabled.
    pub fn popular(&self) -> bool {
        self.enabled && POPULAR.contains(&self.slug.as_str())
    }

    /// Whether users may be offered this city: enabled, and not a QA or retired slug. Its places
    /// are suggested and reverse-geocoded to; other cities' places still resolve by id, so an old
    /// saved address keeps working.
    pub fn offered(&self) -> bool {
        self.enabled
            && !HIDDEN_SLUG_PARTS
                .iter()
                .any(|part| self.slug.contains(part))
    }

    fn to_proto(&self) -> City {
        City {
            slug: self.slug.clone(),
            name: self.name.clone(),
            enabled: self.enabled,
            popular: self.popular(),
        }
    }
}

/// Every city in display order.
pub async fn load(pool: &AnyPool) -> Result<Vec<CityRecord>, Error> {
    let rows =
        sqlx::query("SELECT slug, name, state, lat, lng, enabled FROM cities ORDER BY position")
            .fetch_all(pool)
            .await?;
    rows.into_iter()
        .map(|r| {
            let slug: String = r.try_get("slug")?;
            let centre = Point::new(r.try_get("lat")?, r.try_get("lng")?)
                .map_err(|e| Error::Corrupt(format!("city {slug}: {e}")))?;
            Ok(CityRecord {
                name: r.try_get("name")?,
                state: r.try_get("state")?,
                centre,
                enabled: r.try_get::<i64, _>("enabled")? != 0,
                slug,
            })
        })
        .collect()
}

/// `ListCities`: every city, enabled or not, in display order. Hiding disabled and QA cities is
/// the footer's job (it needs the flags to do it).
pub fn list_cities(cities: &[CityRecord]) -> ListCitiesResponse {
    ListCitiesResponse {
        cities: cities.iter().map(CityRecord::to_proto).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn city(slug: &str, enabled: bool) -> CityRecord {
        CityRecord {
            slug: slug.into(),
            name: slug.into(),
            state: "S".into(),
            centre: Point::new(0.0, 0.0).unwrap(),
            enabled,
        }
    }

    #[test]
    fn popular_means_in_the_spec_list_and_enabled() {
        assert!(city("pune", true).popular());
        assert!(!city("pune", false).popular());
        assert!(!city("jaipur", true).popular());
    }

    #[test]
    fn qa_and_disabled_cities_are_not_offered() {
        assert!(city("jaipur", true).offered());
        assert!(!city("shimla", false).offered());
        assert!(!city("test-city", true).offered());
        assert!(!city("old-town-closed", true).offered());
    }
}
