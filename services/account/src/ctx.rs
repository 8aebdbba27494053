//! What every handler shares ([`Ctx`]) and who is calling: the service's section modules
//! (sign-in, profile, addresses, favourites) depend on this, never on the gRPC service itself.

use std::sync::Arc;

use sqlx::AnyPool;
use tiffin_platform::identity::Caller;

use crate::error::Error;
use crate::messages::MessageSender;
use crate::sessions::Lifetimes;
use tiffin_platform::clock::Clock;

/// What every handler works with.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The service's own database.
    pub pool: AnyPool,
    /// Every time rule reads the time here (tests move it).
    pub clock: Arc<dyn Clock>,
    /// How long sessions live.
    pub lifetimes: Lifetimes,
    /// Where OTP codes and email links go.
    pub messages: Arc<dyn MessageSender>,
    /// Whether the process is a declared development one: `ListOutbox` answers only then.
    pub development: bool,
    /// The storefront's public origin, for links in emails (no trailing slash).
    pub public_url: String,
}

impl Ctx {
    pub fn now(&self) -> i64 {
        self.clock.now()
    }
}

/// The signed-in user of a call, as a database id; [`Error::NotSignedIn`] without one.
pub fn user_of(caller: &Caller) -> Result<i64, Error> {
    caller
        .user_id
        .and_then(|id| i64::try_from(id).ok())
        .ok_or(Error::NotSignedIn)
}

/// The session of a call; [`Error::NoSession`] without one.
pub fn session_of(caller: &Caller) -> Result<&str, Error> {
    caller.session_id.as_deref().ok_or(Error::NoSession)
}
