//! Asks the membership service what the cart needs of Tiffin One: whether the caller is a member
//! (`GetStatus`, at most once per cart call), whether a plan in the cart can be bought now and at
//! what price (`CheckAvailable`), and which plan to suggest (`ListPlans`, kept a few minutes).
//!
//! Every call is made on behalf of the cart's customer, signed as the cart, and gives up after
//! [`MEMBERSHIP_TIMEOUT`]: a membership service that is down or slow makes the customer a
//! non-member for this cart ([`Standing::Unknown`]), never a failed cart.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tiffin_platform::grpc::TracedChannel;
use tiffin_platform::identity::Caller;
use tiffin_proto::membership::v1::{
    CheckAvailableRequest, CheckAvailableResponse, GetStatusRequest, ListPlansRequest,
    MembershipStatus, Plan, membership_service_client::MembershipServiceClient,
};
use tonic::Code;

use crate::error::Error;

/// How long one membership call may take before the cart prices without it. Short: a member's
/// benefits are worth less to a customer than a cart that answers.
pub const MEMBERSHIP_TIMEOUT: Duration = Duration::from_millis(500);

/// How long the plans on sale are kept before they are asked again.
pub const PLANS_TTL: Duration = Duration::from_secs(300);

/// Whether the cart's customer is priced as a Tiffin One member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Not signed in: a non-member, asked of no one.
    Guest,
    /// Signed in, but nothing on this cart depends on it: not asked.
    NotAsked,
    /// A subscription runs now.
    Member,
    /// Signed in and not a member (never was, or was).
    NonMember,
    /// The membership service did not answer: priced as a non-member, and said so.
    Unknown,
}

/// The plans on sale and when they were fetched.
type PlansCache = Arc<Mutex<Option<(Instant, Vec<Plan>)>>>;

/// A client of the membership service.
#[derive(Clone)]
pub struct MembershipClient {
    client: MembershipServiceClient<TracedChannel>,
    /// The plans on sale and when they were fetched (the nudge's recommended plan).
    plans: PlansCache,
}

/// A call for `caller`, signed as the cart.
fn on_behalf_of<T>(caller: &Caller, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    caller.write_to(request.metadata_mut(), "cart");
    request
}

impl MembershipClient {
    /// A client of the membership service at `url`; connects on first use.
    pub fn new(url: &str) -> Result<Self, tonic::transport::Error> {
        let channel = tiffin_platform::grpc::channel(url, MEMBERSHIP_TIMEOUT)?;
        Ok(Self {
            client: MembershipServiceClient::new(channel),
            plans: Arc::default(),
        })
    }

    /// Whether `caller` is a member now. Guests are non-members without a call.
    pub async fn standing(&self, caller: &Caller) -> Standing {
        if caller.user_id.is_none() {
            return Standing::Guest;
        }
        match self
            .client
            .clone()
            .get_status(on_behalf_of(caller, GetStatusRequest {}))
            .await
        {
            Ok(reply) if reply.get_ref().status() == MembershipStatus::Super => Standing::Member,
            Ok(_) => Standing::NonMember,
            Err(e) => {
                tracing::warn!(code = ?e.code(), message = e.message(), "membership unknown; priced as a non-member");
                Standing::Unknown
            }
        }
    }

    /// Whether `caller` can buy plan `plan_id` now at `point`, with the plan as sold.
    pub async fn check(
        &self,
        caller: &Caller,
        plan_id: u64,
        point: Option<(f64, f64)>,
    ) -> Result<CheckAvailableResponse, Error> {
        let reply = self
            .client
            .clone()
            .check_available(on_behalf_of(
                caller,
                CheckAvailableRequest {
                    plan_id,
                    lat: point.map(|p| p.0),
                    lng: point.map(|p| p.1),
                },
            ))
            .await
            .map_err(|status| match status.code() {
                Code::NotFound => Error::UnknownPlan(plan_id),
                _ => Error::MembershipUnavailable(status),
            })?;
        Ok(reply.into_inner())
    }

    /// The plan the storefront recommends, from the plans on sale (kept for [`PLANS_TTL`]);
    /// `None` when there is none or the service cannot say.
    pub async fn recommended(&self) -> Option<Plan> {
        let cached = self.plans.lock().ok().and_then(|c| {
            c.as_ref()
                .filter(|(at, _)| at.elapsed() < PLANS_TTL)
                .cloned()
        });
        let plans = match cached {
            Some((_, plans)) => plans,
            None => {
                let plans = self
                    .client
                    .clone()
                    .list_plans(on_behalf_of(&Caller::default(), ListPlansRequest {}))
                    .await
                    .map_err(
                        |e| tracing::warn!(code = ?e.code(), "plans unavailable for the nudge"),
                    )
                    .ok()?
                    .into_inner()
                    .plans;
                if let Ok(mut cache) = self.plans.lock() {
                    *cache = Some((Instant::now(), plans.clone()));
                }
                plans
            }
        };
        plans
            .iter()
            .filter(|p| p.on_sale)
            .find(|p| p.recommended)
            .or_else(|| plans.iter().find(|p| p.on_sale))
            .cloned()
    }
}
