//! How many live tracking streams the edge takes on: open at once in all, per customer and per
//! client address, and being set up at once (`EDGE_TRACKING_*`, see `config::TrackingSettings`).
//!
//! A stream is admitted or refused the moment it is asked for, before anything is asked of the
//! orders service, so a refusal costs microseconds and an accepted stream is one the edge can
//! carry. The edge's and the address's counts are taken before the session is looked up
//! ([`StreamLimits::admit_client`]), so a stream past them costs the account service nothing either;
//! the customer's count once the session says who it is ([`StreamLimits::admit_user`]). Accepting every stream and letting the overload fail them later fails them all at once;
//! refusing the ones past a limit keeps the others working, and the page of a refused one polls
//! instead. A limit of 0 is off.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::infra::config::TrackingSettings;
use crate::infra::rate_limit::bucket_of;

/// Which limit refused a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The edge carries as many streams as it may.
    Edge,
    /// The customer has as many open as one customer may.
    User,
    /// The client address has as many open as one address may.
    Address,
    /// As many streams are being set up as the orders service keeps up with.
    SetUps,
}

/// The counts behind the limits. Cheap to share.
#[derive(Debug, Clone)]
pub struct StreamLimits {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    settings: TrackingSettings,
    open: Mutex<Open>,
    setups: Arc<Semaphore>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_user: HashMap<u64, usize>,
    by_address: HashMap<IpAddr, usize>,
}

/// A stream counted against the edge's and its client address's limits until dropped; the
/// customer's comes next.
#[derive(Debug)]
pub struct Admission {
    shared: Arc<Shared>,
    address: IpAddr,
}

/// One admitted stream, counted against every limit until dropped.
#[derive(Debug)]
pub struct Slot {
    user: u64,
    admission: Admission,
}

/// What kept a stream from being set up. Every stream waiting on the same set-up gets the same.
#[derive(Debug, Clone)]
pub enum SetUpFailed {
    /// Past a limit.
    Refused(Refusal),
    /// The orders service's answer to the first read.
    Read(tonic::Status),
}

/// One stream being set up; the count is freed when dropped.
pub type SetUp = OwnedSemaphorePermit;

impl StreamLimits {
    pub fn new(settings: TrackingSettings) -> Self {
        let setups = match settings.setups_max {
            0 => Semaphore::MAX_PERMITS,
            n => n.min(Semaphore::MAX_PERMITS),
        };
        Self {
            shared: Arc::new(Shared {
                settings,
                open: Mutex::default(),
                setups: Arc::new(Semaphore::new(setups)),
            }),
        }
    }

    /// Counts a new stream of `user` from `address`, or says which limit it is past.
    pub fn admit(&self, user: u64, address: IpAddr) -> Result<Slot, Refusal> {
        self.admit_user(self.admit_client(address)?, user)
    }

    /// Counts a new stream from `address` against the edge's and the address's limits, or says
    /// which it is past. Needs nothing but the address, so it runs before the session is known.
    pub fn admit_client(&self, address: IpAddr) -> Result<Admission, Refusal> {
        let address = bucket_of(address);
        let settings = &self.shared.settings;
        let mut open = self.lock();
        if over(settings.streams_max, open.total) {
            return Err(Refusal::Edge);
        }
        if over(
            settings.streams_per_address,
            open.by_address.get(&address).copied().unwrap_or(0),
        ) {
            return Err(Refusal::Address);
        }
        open.total += 1;
        *open.by_address.entry(address).or_default() += 1;
        Ok(Admission {
            shared: Arc::clone(&self.shared),
            address,
        })
    }

    /// Counts an admitted stream against `user`'s limit, or refuses it (and its admission is
    /// given back).
    pub fn admit_user(&self, admission: Admission, user: u64) -> Result<Slot, Refusal> {
        let mut open = self.lock();
        if over(
            self.shared.settings.streams_per_user,
            open.by_user.get(&user).copied().unwrap_or(0),
        ) {
            return Err(Refusal::User);
        }
        *open.by_user.entry(user).or_default() += 1;
        Ok(Slot { user, admission })
    }

    /// Counts a stream being set up, or refuses it when as many are as may be.
    pub fn set_up(&self) -> Result<SetUp, Refusal> {
        Arc::clone(&self.shared.setups)
            .try_acquire_owned()
            .map_err(|_| Refusal::SetUps)
    }

    /// Waits for a set-up's turn: for a stream already admitted whose watch must be opened again.
    pub async fn set_up_when_free(&self) -> Option<SetUp> {
        Arc::clone(&self.shared.setups).acquire_owned().await.ok()
    }

    /// Streams open now.
    pub fn open(&self) -> usize {
        self.lock().total
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.shared
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// A limit of 0 is off.
fn over(limit: usize, count: usize) -> bool {
    limit > 0 && count >= limit
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut open = self
            .shared
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        open.total = open.total.saturating_sub(1);
        release(&mut open.by_address, &self.address);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        // The admission's own counts are given back after this, when it is dropped.
        let mut open = self
            .admission
            .shared
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        release(&mut open.by_user, &self.user);
    }
}

/// One fewer for `key`; a key with none left is forgotten, so the maps hold only open streams.
fn release<K: Eq + Hash>(counts: &mut HashMap<K, usize>, key: &K) {
    if let Some(count) = counts.get_mut(key) {
        *count = count.saturating_sub(1);
        if *count == 0 {
            counts.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(streams_max: usize, per_user: usize, per_address: usize) -> StreamLimits {
        StreamLimits::new(TrackingSettings {
            streams_max,
            streams_per_user: per_user,
            streams_per_address: per_address,
            setups_max: 2,
            ..TrackingSettings::default()
        })
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn each_limit_refuses_past_its_count_and_a_closed_stream_frees_its_place() {
        let l = limits(0, 2, 0);
        let a = l.admit(1, ip("10.0.0.1")).unwrap();
        let _b = l.admit(1, ip("10.0.0.2")).unwrap();
        assert_eq!(l.admit(1, ip("10.0.0.3")).unwrap_err(), Refusal::User);
        assert!(l.admit(2, ip("10.0.0.1")).is_ok(), "another customer");
        drop(a);
        assert!(l.admit(1, ip("10.0.0.3")).is_ok());

        let l = limits(0, 0, 2);
        let _a = l.admit(1, ip("10.0.0.1")).unwrap();
        let _b = l.admit(2, ip("10.0.0.1")).unwrap();
        assert_eq!(l.admit(3, ip("10.0.0.1")).unwrap_err(), Refusal::Address);
        assert!(l.admit(3, ip("10.0.0.2")).is_ok(), "another address");

        let l = limits(2, 0, 0);
        let _a = l.admit(1, ip("10.0.0.1")).unwrap();
        let _b = l.admit(2, ip("10.0.0.2")).unwrap();
        assert_eq!(l.admit(3, ip("10.0.0.3")).unwrap_err(), Refusal::Edge);
        assert_eq!(l.open(), 2);
    }

    #[test]
    fn a_stream_the_customers_limit_refuses_gives_back_its_place_at_the_edge_and_address() {
        let l = limits(2, 1, 0);
        let _a = l.admit(1, ip("10.0.0.1")).unwrap();
        let admission = l.admit_client(ip("10.0.0.1")).unwrap();
        assert_eq!(l.open(), 2);
        assert_eq!(l.admit_user(admission, 1).unwrap_err(), Refusal::User);
        assert_eq!(l.open(), 1);
        assert!(l.admit(2, ip("10.0.0.1")).is_ok());
    }

    #[test]
    fn one_ipv6_client_is_its_whole_64() {
        let l = limits(0, 0, 1);
        let _a = l.admit(1, ip("2001:db8:1:2::1")).unwrap();
        assert_eq!(
            l.admit(2, ip("2001:db8:1:2::ffff")).unwrap_err(),
            Refusal::Address
        );
        assert!(l.admit(2, ip("2001:db8:1:3::1")).is_ok());
    }

    #[test]
    fn set_ups_are_refused_past_their_count_until_one_finishes() {
        let l = limits(0, 0, 0);
        let a = l.set_up().unwrap();
        let _b = l.set_up().unwrap();
        assert_eq!(l.set_up().unwrap_err(), Refusal::SetUps);
        drop(a);
        assert!(l.set_up().is_ok());
    }

    #[test]
    fn the_counts_forget_customers_and_addresses_with_nothing_open() {
        let l = limits(0, 5, 5);
        let slots: Vec<Slot> = (0..100)
            .map(|n| l.admit(n, IpAddr::from([10, 0, 0, n as u8])).unwrap())
            .collect();
        drop(slots);
        let open = l.shared.open.lock().unwrap();
        assert_eq!(
            (open.total, open.by_user.len(), open.by_address.len()),
            (0, 0, 0)
        );
    }
}
