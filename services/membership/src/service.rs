//! The `MembershipService` RPCs: who may call each, and the reply shapes; the rules are in
//! [`crate::plans`], [`crate::subscriptions`] and [`crate::availability`].

use std::sync::Arc;

use tiffin_platform::clock::Clock;
use tiffin_platform::db::Writer;
use tiffin_platform::identity::Caller;
use tiffin_proto::membership::v1::{
    ActivateRequest, ActivateResponse, CancelRequest, CancelResponse, CheckAvailableRequest,
    CheckAvailableResponse, GetStatusRequest, GetStatusResponse, ListNotificationsRequest,
    ListNotificationsResponse, ListPlansRequest, ListPlansResponse, NotifyRequest, NotifyResponse,
    RecordSavingsRequest, RecordSavingsResponse, membership_service_server::MembershipService,
};
use tonic::{Request, Response, Status};

use crate::error::Error;
use crate::{availability, plans, subscriptions};

/// The process allowed to say an order bought a plan or saved a member money.
const ORDERS: &str = "orders";

/// The `MembershipService` implementation.
pub struct Membership {
    writer: Writer,
    clock: Arc<dyn Clock>,
}

impl Membership {
    pub fn new(writer: Writer, clock: Arc<dyn Clock>) -> Self {
        Self { writer, clock }
    }

    fn signed_in<T>(request: &Request<T>) -> Result<u64, Error> {
        Caller::from_metadata(request.metadata())
            .user_id
            .ok_or(Error::SignIn)
    }

    /// Methods that change a membership for a paid order: the orders service alone calls them.
    fn from_orders<T>(request: &Request<T>) -> Result<(), Error> {
        match Caller::signer(request.metadata()) {
            Some(signer) if signer == ORDERS => Ok(()),
            other => Err(Error::NotAllowed(other.unwrap_or_else(|| "nobody".into()))),
        }
    }
}

#[tonic::async_trait]
impl MembershipService for Membership {
    async fn list_plans(
        &self,
        _request: Request<ListPlansRequest>,
    ) -> Result<Response<ListPlansResponse>, Status> {
        let plans = plans::on_sale(self.writer.pool()).await?;
        Ok(Response::new(ListPlansResponse { plans }))
    }

    async fn get_status(
        &self,
        request: Request<GetStatusRequest>,
    ) -> Result<Response<GetStatusResponse>, Status> {
        let status = match Caller::from_metadata(request.metadata()).user_id {
            Some(user) => subscriptions::status(self.writer.pool(), user, self.clock.now()).await?,
            None => subscriptions::guest(),
        };
        Ok(Response::new(status))
    }

    async fn check_available(
        &self,
        request: Request<CheckAvailableRequest>,
    ) -> Result<Response<CheckAvailableResponse>, Status> {
        let user = Caller::from_metadata(request.metadata()).user_id;
        let r = request.into_inner();
        let point = match (r.lat, r.lng) {
            (Some(lat), Some(lng)) => Some((lat, lng)),
            (None, None) => None,
            _ => return Err(Error::Invalid("Please choose a valid location.".into()).into()),
        };
        let reply =
            availability::check(self.writer.pool(), user, r.plan_id, point, self.clock.now())
                .await?;
        Ok(Response::new(reply))
    }

    async fn notify(
        &self,
        request: Request<NotifyRequest>,
    ) -> Result<Response<NotifyResponse>, Status> {
        let user = Self::signed_in(&request)?;
        let r = request.into_inner();
        let (notification, created) = availability::notify(
            &self.writer,
            user,
            r.plan_id,
            r.lat,
            r.lng,
            self.clock.now(),
        )
        .await?;
        Ok(Response::new(NotifyResponse {
            notification: Some(notification),
            created,
        }))
    }

    async fn list_notifications(
        &self,
        request: Request<ListNotificationsRequest>,
    ) -> Result<Response<ListNotificationsResponse>, Status> {
        let user = Self::signed_in(&request)?;
        let notifications = availability::notifications(self.writer.pool(), user).await?;
        Ok(Response::new(ListNotificationsResponse { notifications }))
    }

    async fn activate(
        &self,
        request: Request<ActivateRequest>,
    ) -> Result<Response<ActivateResponse>, Status> {
        Self::from_orders(&request)?;
        let r = request.into_inner();
        let (subscription, created) = subscriptions::activate(
            &self.writer,
            r.order_id,
            r.user_id,
            r.plan_id,
            r.price_paid_paise,
            self.clock.now(),
        )
        .await?;
        Ok(Response::new(ActivateResponse {
            subscription: Some(subscription),
            created,
        }))
    }

    async fn cancel(
        &self,
        request: Request<CancelRequest>,
    ) -> Result<Response<CancelResponse>, Status> {
        let user = Self::signed_in(&request)?;
        let now = self.clock.now();
        subscriptions::cancel(&self.writer, user, now).await?;
        let status = subscriptions::status(self.writer.pool(), user, now).await?;
        Ok(Response::new(CancelResponse {
            status: Some(status),
        }))
    }

    async fn record_savings(
        &self,
        request: Request<RecordSavingsRequest>,
    ) -> Result<Response<RecordSavingsResponse>, Status> {
        Self::from_orders(&request)?;
        let r = request.into_inner();
        let recorded = subscriptions::record_savings(
            &self.writer,
            r.order_id,
            r.user_id,
            r.savings_paise,
            self.clock.now(),
        )
        .await?;
        Ok(Response::new(RecordSavingsResponse { recorded }))
    }
}
