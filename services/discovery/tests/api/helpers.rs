//! What every area's tests share: the small Bangalore catalogue, the service started on it on
//! port 0, and the points the tests ask about.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use tiffin_platform::service::testing::{SignedChannel, signed_client};

use tiffin_catalog::{Catalogue, Options};
use tiffin_discovery::{Application, Settings};
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::discovery::v1::{LatLng, discovery_service_client::DiscoveryServiceClient};

pub const KORAMANGALA: (f64, f64) = (12.9352, 77.6245);
/// Jaipur's centre: a city Tiffin knows, but the test catalogue has no restaurant near it.
pub const JAIPUR: (f64, f64) = (26.9124, 75.7873);

/// A small Bangalore-only catalogue written to a temporary file.
pub struct TestCatalogue {
    _dir: tempfile::TempDir,
    pub path: PathBuf,
    pub catalogue: Catalogue,
}

/// The usual test catalogue: 60 Bangalore restaurants.
pub fn catalogue() -> TestCatalogue {
    catalogue_of(60)
}

/// A Bangalore-only catalogue of `restaurants_per_city` restaurants.
pub fn catalogue_of(restaurants_per_city: usize) -> TestCatalogue {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("catalogue.json");
    let catalogue = tiffin_catalog::generate(&Options {
        seed: 42,
        restaurants_per_city,
        cities: Some(vec!["bangalore".into()]),
    });
    catalogue.write_json(&path).expect("write catalogue");
    TestCatalogue {
        _dir: dir,
        path,
        catalogue,
    }
}

pub fn settings(database_url: &str, catalog_path: &Path) -> Settings {
    Settings::new(service::settings(database_url), catalog_path.to_owned())
}

/// The service on port 0, seeded from the catalogue at `catalog_path`; its URL.
pub async fn start(database_url: &str, catalog_path: &Path) -> (String, Stop) {
    let app = Application::build(settings(database_url, catalog_path))
        .await
        .expect("service starts");
    service::spawn(app.port(), |stopped| app.run_until_stopped(stopped))
}

/// The service on port 0 and a client of it.
pub async fn spawn(
    database_url: &str,
    catalog_path: &Path,
) -> (DiscoveryServiceClient<SignedChannel>, Stop) {
    let (url, stop) = start(database_url, catalog_path).await;
    let client = signed_client(DiscoveryServiceClient::new, url)
        .await
        .expect("connects");
    (client, stop)
}

pub fn at((lat, lng): (f64, f64)) -> Option<LatLng> {
    Some(LatLng { lat, lng })
}

/// Restaurants of the catalogue delivering to `point`, by the gazetteer's distance.
pub fn delivering(catalogue: &Catalogue, (lat, lng): (f64, f64)) -> HashSet<u64> {
    catalogue
        .restaurants
        .iter()
        .filter(|r| {
            tiffin_geo::distance_m(lat, lng, r.lat, r.lng) <= f64::from(r.delivery_radius_m)
        })
        .map(|r| r.id)
        .collect()
}
