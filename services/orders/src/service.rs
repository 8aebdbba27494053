//! The `OrdersService` RPCs: who is calling comes only from the edge's identity metadata, and
//! every call is scoped to that customer.

use tiffin_platform::identity::Caller;
use tiffin_proto::orders::v1::orders_service_server::OrdersService;
use tiffin_proto::orders::v1::{
    CancelOrderRequest, CancelOrderResponse, ConfirmOrderRequest, ConfirmOrderResponse,
    GetInvoiceRequest, GetInvoiceResponse, GetOrderRequest, GetOrderResponse, ListOrdersRequest,
    ListOrdersResponse, PlaceOrderRequest, PlaceOrderResponse, ReorderRequest, ReorderResponse,
    TrackOrderRequest, TrackOrderResponse, WatchOrderRequest,
};
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use crate::error::Error;
use crate::orders::{Store, page_size};
use crate::placing::Placing;

fn user(metadata: &MetadataMap) -> Result<u64, Error> {
    Caller::from_metadata(metadata)
        .user_id
        .ok_or(Error::Unauthenticated)
}

/// The `OrdersService` implementation.
pub struct Orders {
    store: Store,
    placing: Placing,
}

impl Orders {
    pub fn new(store: Store, placing: Placing) -> Self {
        Self { store, placing }
    }
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
        _request: Request<TrackOrderRequest>,
    ) -> Result<Response<TrackOrderResponse>, Status> {
        Err(Status::unimplemented("tracking lands next"))
    }

    type WatchOrderStream =
        std::pin::Pin<Box<dyn futures::Stream<Item = Result<TrackOrderResponse, Status>> + Send>>;

    async fn watch_order(
        &self,
        _request: Request<WatchOrderRequest>,
    ) -> Result<Response<Self::WatchOrderStream>, Status> {
        Err(Status::unimplemented("tracking lands next"))
    }

    async fn cancel_order(
        &self,
        _request: Request<CancelOrderRequest>,
    ) -> Result<Response<CancelOrderResponse>, Status> {
        Err(Status::unimplemented("cancelling lands next"))
    }

    async fn reorder(
        &self,
        _request: Request<ReorderRequest>,
    ) -> Result<Response<ReorderResponse>, Status> {
        Err(Status::unimplemented("reordering lands next"))
    }

    async fn get_invoice(
        &self,
        _request: Request<GetInvoiceRequest>,
    ) -> Result<Response<GetInvoiceResponse>, Status> {
        Err(Status::unimplemented("invoices land next"))
    }
}
