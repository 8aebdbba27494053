//! The `OrdersService` RPCs: who is calling comes only from the edge's identity metadata, and
//! every call is scoped to that customer.

use tiffin_platform::identity::Caller;
use tiffin_proto::orders::v1::orders_service_server::OrdersService;
use tiffin_proto::orders::v1::{
    CancelOrderRequest, CancelOrderResponse, CompensateLateDeliveryRequest,
    CompensateLateDeliveryResponse, ConfirmOrderRequest, ConfirmOrderResponse, GetInvoiceRequest,
    GetInvoiceResponse, GetOrderHelpRequest, GetOrderHelpResponse, GetOrderRequest,
    GetOrderResponse, ListCancellationDuesRequest, ListCancellationDuesResponse, ListOrdersRequest,
    ListOrdersResponse, PlaceOrderRequest, PlaceOrderResponse, RefundOrderAmountRequest,
    RefundOrderAmountResponse, RefundOrderItemsRequest, RefundOrderItemsResponse, ReorderRequest,
    ReorderResponse, SettleChargedWithoutOrderRequest, SettleChargedWithoutOrderResponse,
    TrackOrderRequest, TrackOrderResponse, WatchOrderRequest,
};
use tiffin_proto::payments::v1::RefundDestination;
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use crate::cancellation_dues;
use crate::cancelling::Cancelling;
use crate::error::Error;
use crate::help_refunds::HelpRefunds;
use crate::lifecycle::Status as OrderStatus;
use crate::orders::{Store, page_size};
use crate::payment_offer_claims;
use crate::placing::Placing;
use crate::reordering::Reordering;
use crate::tracking::Tracking;

fn user(metadata: &MetadataMap) -> Result<u64, Error> {
    Caller::from_metadata(metadata)
        .user_id
        .ok_or(Error::Unauthenticated)
}

/// The `OrdersService` implementation.
pub struct Orders {
    pub store: Store,
    pub placing: Placing,
    pub tracking: Tracking,
    pub cancelling: Cancelling,
    pub reordering: Reordering,
    pub help_refunds: HelpRefunds,
}

#[tonic::async_trait]
impl OrdersService for Orders {
    async fn list_orders(
        &self,
        request: Request<ListOrdersRequest>,
    ) -> Result<Response<ListOrdersResponse>, Status> {
        let user_id = user(request.metadata())?;
        let ListOrdersRequest {
            before_order_id,
            limit,
        } = request.into_inner();
        let page = self
            .store
            .page(user_id, before_order_id, page_size(limit))
            .await?;
        Ok(Response::new(ListOrdersResponse {
            orders: page.orders,
            total_orders: page.total_orders,
        }))
    }

    async fn place_order(
        &self,
        request: Request<PlaceOrderRequest>,
    ) -> Result<Response<PlaceOrderResponse>, Status> {
        let user_id = user(request.metadata())?;
        let (order, payment) = self.placing.place(user_id, request.into_inner()).await?;
        Ok(Response::new(PlaceOrderResponse {
            order: Some(order),
            payment: Some(payment),
        }))
    }

    async fn confirm_order(
        &self,
        request: Request<ConfirmOrderRequest>,
    ) -> Result<Response<ConfirmOrderResponse>, Status> {
        let user_id = user(request.metadata())?;
        let order = self
            .placing
            .settlement
            .confirm(user_id, request.get_ref().order_id)
            .await?;
        Ok(Response::new(ConfirmOrderResponse { order: Some(order) }))
    }

    async fn get_order(
        &self,
        request: Request<GetOrderRequest>,
    ) -> Result<Response<GetOrderResponse>, Status> {
        let user_id = user(request.metadata())?;
        let order = self.store.load(user_id, request.get_ref().order_id).await?;
        Ok(Response::new(GetOrderResponse { order: Some(order) }))
    }

    async fn track_order(
        &self,
        request: Request<TrackOrderRequest>,
    ) -> Result<Response<TrackOrderResponse>, Status> {
        let user_id = user(request.metadata())?;
        let tracking = self
            .tracking
            .track(user_id, request.get_ref().order_id)
            .await?;
        Ok(Response::new(tracking))
    }

    type WatchOrderStream =
        std::pin::Pin<Box<dyn futures::Stream<Item = Result<TrackOrderResponse, Status>> + Send>>;

    async fn watch_order(
        &self,
        request: Request<WatchOrderRequest>,
    ) -> Result<Response<Self::WatchOrderStream>, Status> {
        use futures::StreamExt;
        let user_id = user(request.metadata())?;
        let order_id = request.get_ref().order_id;
        // Refuse someone else's order as the call's answer, not as a stream that fails later.
        self.store.load(user_id, order_id).await?;
        let stream = self
            .tracking
            .watch(user_id, order_id)
            .map(|answer| answer.map_err(Status::from));
        Ok(Response::new(Box::pin(stream)))
    }

    async fn cancel_order(
        &self,
        request: Request<CancelOrderRequest>,
    ) -> Result<Response<CancelOrderResponse>, Status> {
        let user_id = user(request.metadata())?;
        let CancelOrderRequest {
            order_id,
            refund_to,
        } = request.into_inner();
        let refund_to = RefundDestination::try_from(refund_to)
            .map_err(|_| Error::Invalid("Please choose where your refund should go.".into()))?;
        let order = self.cancelling.cancel(user_id, order_id, refund_to).await?;
        Ok(Response::new(CancelOrderResponse { order: Some(order) }))
    }

    async fn list_cancellation_dues(
        &self,
        request: Request<ListCancellationDuesRequest>,
    ) -> Result<Response<ListCancellationDuesResponse>, Status> {
        let user_id = user(request.metadata())?;
        let pool = self.store.pool();
        let (standing, used_payment_offers) = tokio::try_join!(
            cancellation_dues::standing(pool, user_id),
            payment_offer_claims::used(pool, user_id, crate::settlement::now()),
        )?;
        let cancellation_dues::Standing { dues, has_ordered } = standing;
        Ok(Response::new(ListCancellationDuesResponse {
            dues,
            has_ordered,
            used_payment_offers,
        }))
    }

    async fn reorder(
        &self,
        request: Request<ReorderRequest>,
    ) -> Result<Response<ReorderResponse>, Status> {
        let user_id = user(request.metadata())?;
        let reply = self
            .reordering
            .reorder(user_id, request.get_ref().order_id)
            .await?;
        Ok(Response::new(reply))
    }

    async fn get_invoice(
        &self,
        request: Request<GetInvoiceRequest>,
    ) -> Result<Response<GetInvoiceResponse>, Status> {
        let user_id = user(request.metadata())?;
        let order_id = request.get_ref().order_id;
        let order = self.store.load(user_id, order_id).await?;
        match OrderStatus::parse(&order.order_status) {
            Some(OrderStatus::Cancelled) => {
                return Err(Error::Refused("A cancelled order has no invoice.".into()).into());
            }
            Some(s) if s.is_paid() => {}
            _ => return Err(Error::Refused("This order was not paid.".into()).into()),
        }
        let pdf = crate::invoice::render(&order, crate::settlement::now())
            .map_err(|e| Error::Corrupt(format!("invoice of order {order_id}: {e}")))?;
        Ok(Response::new(GetInvoiceResponse {
            pdf,
            file_name: format!("tiffin-invoice-{order_id}.pdf"),
        }))
    }

    async fn get_order_help(
        &self,
        request: Request<GetOrderHelpRequest>,
    ) -> Result<Response<GetOrderHelpResponse>, Status> {
        let user_id = user(request.metadata())?;
        let help = crate::help::describe(
            &self.store,
            &self.placing.settlement.payments,
            user_id,
            request.get_ref().order_id,
            crate::settlement::now(),
        )
        .await?;
        Ok(Response::new(help))
    }

    async fn refund_order_items(
        &self,
        request: Request<RefundOrderItemsRequest>,
    ) -> Result<Response<RefundOrderItemsResponse>, Status> {
        let user_id = user(request.metadata())?;
        let (claim, lines) = self
            .help_refunds
            .refund_items(user_id, request.into_inner())
            .await?;
        Ok(Response::new(RefundOrderItemsResponse {
            refund: Some(claim.refund()),
            lines,
        }))
    }

    async fn compensate_late_delivery(
        &self,
        request: Request<CompensateLateDeliveryRequest>,
    ) -> Result<Response<CompensateLateDeliveryResponse>, Status> {
        let user_id = user(request.metadata())?;
        let claim = self
            .help_refunds
            .compensate_late(user_id, request.into_inner())
            .await?;
        Ok(Response::new(CompensateLateDeliveryResponse {
            refund: Some(claim.refund()),
            minutes_late: claim.minutes_late,
        }))
    }

    async fn refund_order_amount(
        &self,
        request: Request<RefundOrderAmountRequest>,
    ) -> Result<Response<RefundOrderAmountResponse>, Status> {
        let user_id = user(request.metadata())?;
        let (claim, refundable_paise) = self
            .help_refunds
            .refund_amount(user_id, request.into_inner())
            .await?;
        Ok(Response::new(RefundOrderAmountResponse {
            refund: Some(claim.refund()),
            refundable_paise,
        }))
    }

    async fn settle_charged_without_order(
        &self,
        request: Request<SettleChargedWithoutOrderRequest>,
    ) -> Result<Response<SettleChargedWithoutOrderResponse>, Status> {
        let user_id = user(request.metadata())?;
        let refunds = crate::charged_without_order::settle(
            &self.placing.settlement,
            user_id,
            &request.get_ref().idempotency_key,
        )
        .await?;
        let amount_paise = refunds.iter().map(|r| r.amount_paise).sum();
        Ok(Response::new(SettleChargedWithoutOrderResponse {
            refunds,
            amount_paise,
        }))
    }
}
