//! The services the orders service calls: payments (to charge, look up and refund an order's
//! payments) and cart (to empty the customer's cart once the order is confirmed, and to fill it
//! again with an old order's items).
//!
//! Every call is made on behalf of the order's customer: their user id goes in the gRPC metadata,
//! exactly as the edge sends it, so those services scope what they do to that customer.

use std::time::Duration;

use tiffin_platform::grpc::{TracedChannel, channel};
use tiffin_platform::identity::Caller;
use tiffin_proto::cart::v1::cart_service_client::CartServiceClient;
use tiffin_proto::cart::v1::{
    CalculateCartRequest, Cart, CartItemInput, EmptyOrderedCartRequest, UpdateCartRequest,
};
use tiffin_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use tiffin_proto::payments::v1::{
    CreatePaymentRequest, CreditMoneyRequest, GetPaymentRequest, Payment, RefundDestination,
    RefundPaymentRequest,
};

/// How long one call to another service may take. A charge waits on the gateway, which can be
/// slow; the customer's request is retried with the same key if it gives up.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) fn on_behalf_of<T>(user_id: u64, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    Caller {
        user_id: Some(user_id),
        session_id: None,
    }
    .write_to(request.metadata_mut(), "orders");
    request
}

/// The payments service.
#[derive(Clone)]
pub struct Payments {
    client: PaymentsServiceClient<TracedChannel>,
}

impl Payments {
    /// Connects on first use.
    pub fn new(url: &str) -> Result<Self, tonic::transport::Error> {
        Ok(Self {
            client: PaymentsServiceClient::new(channel(url, CALL_TIMEOUT)?),
        })
    }

    pub async fn create(
        &self,
        user_id: u64,
        request: CreatePaymentRequest,
    ) -> Result<Payment, tonic::Status> {
        let reply = self
            .client
            .clone()
            .create_payment(on_behalf_of(user_id, request))
            .await?;
        reply
            .into_inner()
            .payment
            .ok_or_else(|| tonic::Status::internal("payments answered no payment"))
    }

    /// The customer's payment started with `key`; NOT_FOUND when it was never created.
    pub async fn by_key(&self, user_id: u64, key: &str) -> Result<Payment, tonic::Status> {
        let reply = self
            .client
            .clone()
            .get_payment(on_behalf_of(
                user_id,
                GetPaymentRequest {
                    payment_id: String::new(),
                    idempotency_key: key.to_string(),
                },
            ))
            .await?;
        reply
            .into_inner()
            .payment
            .ok_or_else(|| tonic::Status::internal("payments answered no payment"))
    }

    /// Refunds the whole of `payment_id` to where it came from; idempotent by `key`.
    pub async fn refund_in_full(
        &self,
        user_id: u64,
        key: String,
        payment_id: &str,
    ) -> Result<(), tonic::Status> {
        self.refund(user_id, key, payment_id, 0, RefundDestination::Source)
            .await
    }

    /// Refunds `amount_paise` of `payment_id` (0: all that is left) to `destination`; idempotent
    /// by `key`.
    pub async fn refund(
        &self,
        user_id: u64,
        key: String,
        payment_id: &str,
        amount_paise: i64,
        destination: RefundDestination,
    ) -> Result<(), tonic::Status> {
        self.client
            .clone()
            .refund_payment(on_behalf_of(
                user_id,
                RefundPaymentRequest {
                    idempotency_key: key,
                    payment_id: payment_id.to_string(),
                    amount_paise,
                    destination: destination.into(),
                },
            ))
            .await?;
        Ok(())
    }
}

impl Payments {
    /// One of the customer's payments by its id.
    pub async fn get(&self, user_id: u64, payment_id: &str) -> Result<Payment, tonic::Status> {
        let reply = self
            .client
            .clone()
            .get_payment(on_behalf_of(
                user_id,
                GetPaymentRequest {
                    payment_id: payment_id.to_string(),
                    idempotency_key: String::new(),
                },
            ))
            .await?;
        reply
            .into_inner()
            .payment
            .ok_or_else(|| tonic::Status::internal("payments answered no payment"))
    }

    /// Credits the customer's Tiffin Money with `amount_paise` where no payment can be refunded
    /// (a cash order, a late delivery); idempotent by `key`.
    pub async fn credit(
        &self,
        user_id: u64,
        key: String,
        amount_paise: i64,
        description: String,
    ) -> Result<(), tonic::Status> {
        self.client
            .clone()
            .credit_money(on_behalf_of(
                user_id,
                CreditMoneyRequest {
                    idempotency_key: key,
                    amount_paise,
                    description,
                },
            ))
            .await?;
        Ok(())
    }
}

/// The cart service.
#[derive(Clone)]
pub struct Carts {
    client: CartServiceClient<TracedChannel>,
}

impl Carts {
    /// Connects on first use.
    pub fn new(url: &str) -> Result<Self, tonic::transport::Error> {
        Ok(Self {
            client: CartServiceClient::new(channel(url, CALL_TIMEOUT)?),
        })
    }

    /// Empties the customer's cart (lines, coupon, note) if it is still at `cart_version`, the
    /// version the order was taken from (0: whatever it holds). A cart changed since is left as
    /// it is: emptying late must never lose what the customer chose afterwards.
    pub async fn empty(&self, user_id: u64, cart_version: u64) -> Result<(), tonic::Status> {
        self.client
            .clone()
            .empty_ordered_cart(on_behalf_of(
                user_id,
                EmptyOrderedCartRequest {
                    version: cart_version,
                },
            ))
            .await?;
        Ok(())
    }

    /// Prices `items` of `restaurant_id` for the customer without saving them.
    pub async fn price(
        &self,
        user_id: u64,
        restaurant_id: u64,
        items: Vec<CartItemInput>,
    ) -> Result<Cart, tonic::Status> {
        self.client
            .clone()
            .calculate_cart(on_behalf_of(
                user_id,
                CalculateCartRequest {
                    restaurant_id,
                    items,
                    items_given: true,
                    details: None,
                    delivery: None,
                },
            ))
            .await?
            .into_inner()
            .cart
            .ok_or_else(|| tonic::Status::internal("cart answered no cart"))
    }

    /// Replaces the customer's cart with `items` of `restaurant_id`.
    pub async fn replace(
        &self,
        user_id: u64,
        restaurant_id: u64,
        items: Vec<CartItemInput>,
    ) -> Result<Cart, tonic::Status> {
        self.client
            .clone()
            .update_cart(on_behalf_of(
                user_id,
                UpdateCartRequest {
                    restaurant_id,
                    items,
                    items_given: true,
                    details: None,
                    delivery: None,
                },
            ))
            .await?
            .into_inner()
            .cart
            .ok_or_else(|| tonic::Status::internal("cart answered no cart"))
    }
}
