//! The orders service, which the rules act through: every call is made on behalf of the
//! conversation's customer (their user id in the signed identity, signed as "support"), so orders
//! scopes it to that customer's orders, exactly as when the customer asks.

use std::time::Duration;

use tiffin_platform::grpc::{TracedChannel, channel};
use tiffin_platform::identity::Caller;
use tiffin_proto::orders::v1::orders_service_client::OrdersServiceClient;
use tiffin_proto::orders::v1::{
    CancelOrderRequest, CancelOrderResponse, CompensateLateDeliveryRequest,
    CompensateLateDeliveryResponse, GetOrderHelpRequest, GetOrderHelpResponse,
    RefundOrderAmountRequest, RefundOrderAmountResponse, RefundOrderItemsRequest,
    RefundOrderItemsResponse, SettleChargedWithoutOrderRequest, SettleChargedWithoutOrderResponse,
};

/// How long one call to orders may take. A refund waits on the payments service behind it.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The name support signs its calls with.
pub const SIGNER: &str = "support";

fn on_behalf_of<T>(user_id: u64, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    Caller {
        user_id: Some(user_id),
        session_id: None,
    }
    .write_to(request.metadata_mut(), SIGNER);
    request
}

/// The orders service.
#[derive(Clone)]
pub struct Orders {
    client: OrdersServiceClient<TracedChannel>,
}

impl Orders {
    /// Connects on first use.
    pub fn new(url: &str) -> Result<Self, tonic::transport::Error> {
        Ok(Self {
            client: OrdersServiceClient::new(channel(url, CALL_TIMEOUT)?),
        })
    }

    pub async fn help(
        &self,
        user_id: u64,
        order_id: u64,
    ) -> Result<GetOrderHelpResponse, tonic::Status> {
        Ok(self
            .client
            .clone()
            .get_order_help(on_behalf_of(user_id, GetOrderHelpRequest { order_id }))
            .await?
            .into_inner())
    }

    pub async fn refund_items(
        &self,
        user_id: u64,
        request: RefundOrderItemsRequest,
    ) -> Result<RefundOrderItemsResponse, tonic::Status> {
        Ok(self
            .client
            .clone()
            .refund_order_items(on_behalf_of(user_id, request))
            .await?
            .into_inner())
    }

    pub async fn compensate_late(
        &self,
        user_id: u64,
        request: CompensateLateDeliveryRequest,
    ) -> Result<CompensateLateDeliveryResponse, tonic::Status> {
        Ok(self
            .client
            .clone()
            .compensate_late_delivery(on_behalf_of(user_id, request))
            .await?
            .into_inner())
    }

    pub async fn refund_amount(
        &self,
        user_id: u64,
        request: RefundOrderAmountRequest,
    ) -> Result<RefundOrderAmountResponse, tonic::Status> {
        Ok(self
            .client
            .clone()
            .refund_order_amount(on_behalf_of(user_id, request))
            .await?
            .into_inner())
    }

    pub async fn settle_charged(
        &self,
        user_id: u64,
        request: SettleChargedWithoutOrderRequest,
    ) -> Result<SettleChargedWithoutOrderResponse, tonic::Status> {
        Ok(self
            .client
            .clone()
            .settle_charged_without_order(on_behalf_of(user_id, request))
            .await?
            .into_inner())
    }

    pub async fn cancel(
        &self,
        user_id: u64,
        request: CancelOrderRequest,
    ) -> Result<CancelOrderResponse, tonic::Status> {
        Ok(self
            .client
            .clone()
            .cancel_order(on_behalf_of(user_id, request))
            .await?
            .into_inner())
    }
}
