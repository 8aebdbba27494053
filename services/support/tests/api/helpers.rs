//! What the support tests share: the payments, membership and cart services a customer's order
//! needs; orders services that can be started and stopped over one database (with the payments
//! service up or down); the support service; orders placed and delivered as a customer would;
//! calls as the edge makes them, for a customer or for an agent.

use std::time::Duration;

use sqlx::AnyPool;
use tiffin_platform::db::testing::{self, TestDatabase};
use tiffin_platform::identity::{Caller, EDGE, Role};
use tiffin_platform::service::testing::{self as service, SignedChannel, Stop, signed_client};
use tiffin_proto::cart::v1::{
    AddressOption, Bill, BillLine, Cart, CartLine, CartRestaurant, DeliveryContext, DeliveryPoint,
    RestaurantFacts,
};
use tiffin_proto::orders::v1::orders_service_client::OrdersServiceClient;
use tiffin_proto::orders::v1::place_order_request::Method;
use tiffin_proto::orders::v1::{GetOrderRequest, OrderIssue, PlaceOrderRequest, RefundLine};
use tiffin_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use tiffin_proto::payments::v1::{
    CardDetails, CashOnDelivery, GetMoneyRequest, GetPaymentRequest, Payment, RefundDestination,
};
use tiffin_proto::support::v1::support_service_client::SupportServiceClient;
use tiffin_proto::support::v1::{
    Conversation, ConversationStatus, Customer, GetConversationRequest, StartOrderHelpRequest,
};
use tonic::{Request, Status};

pub const ASHA: u64 = 101;
pub const BILAL: u64 = 202;
/// Recovery (orders' and support's) runs this often here.
pub const RECOVERY_EVERY: Duration = Duration::from_millis(100);
/// An address nothing listens on: a service that is down.
pub const DOWN: &str = "http://127.0.0.1:9";

/// The services an order needs besides orders, each on SQLite of its own.
pub struct Shop {
    pub payments_url: String,
    pub cart_url: String,
    pub membership_url: String,
    _dbs: Vec<TestDatabase>,
    _stops: Vec<Stop>,
}

pub async fn shop() -> Shop {
    let payments_db = testing::sqlite();
    let payments = tiffin_payments::Application::build(tiffin_payments::Settings {
        service: service::settings(&payments_db.url),
    })
    .await
    .expect("payments starts");
    let (payments_url, payments_stop) =
        service::spawn(payments.port(), |s| payments.run_until_stopped(s));
    let membership_db = testing::sqlite();
    let membership = tiffin_membership::Application::build(tiffin_membership::Settings::new(
        service::settings(&membership_db.url),
    ))
    .await
    .expect("membership starts");
    let (membership_url, membership_stop) =
        service::spawn(membership.port(), |s| membership.run_until_stopped(s));
    let cart_db = testing::sqlite();
    let cart = tiffin_cart::Application::build(tiffin_cart::Settings {
        service: service::settings(&cart_db.url),
        // Emptying a cart prices nothing, so the menu service is never called.
        menu_url: DOWN.into(),
        membership_url: membership_url.clone(),
        surge: tiffin_cart::surge::Surge::none(),
    })
    .await
    .expect("cart starts");
    let (cart_url, cart_stop) = service::spawn(cart.port(), |s| cart.run_until_stopped(s));
    Shop {
        payments_url,
        cart_url,
        membership_url,
        _dbs: vec![payments_db, membership_db, cart_db],
        _stops: vec![payments_stop, membership_stop, cart_stop],
    }
}

impl Shop {
    pub async fn payments(&self) -> PaymentsServiceClient<SignedChannel> {
        signed_client(PaymentsServiceClient::new, self.payments_url.clone())
            .await
            .expect("connects")
    }

    pub async fn payment(&self, user: u64, payment_id: &str) -> Payment {
        self.payments()
            .await
            .get_payment(as_user(
                user,
                GetPaymentRequest {
                    payment_id: payment_id.into(),
                    idempotency_key: String::new(),
                },
            ))
            .await
            .expect("the payment")
            .into_inner()
            .payment
            .expect("a payment")
    }

    pub async fn money(&self, user: u64) -> i64 {
        self.payments()
            .await
            .get_money(as_user(user, GetMoneyRequest::default()))
            .await
            .expect("the balance")
            .into_inner()
            .balance_paise
    }
}

/// An orders service; it stops when this is dropped.
pub struct Orders {
    pub url: String,
    pub pool: AnyPool,
    _stop: Stop,
}

/// The orders service on `database_url`, charging through `payments_url` (the shop's, or
/// [`DOWN`]), its delivery simulated 3,000 times faster than life.
pub async fn orders(database_url: &str, shop: &Shop, payments_url: &str) -> Orders {
    let mut settings = tiffin_orders::Settings::new(
        service::settings(database_url),
        payments_url.into(),
        shop.cart_url.clone(),
    );
    settings.membership_url = shop.membership_url.clone();
    settings.recovery_interval = RECOVERY_EVERY;
    settings.sim_speed = 3_000.0;
    settings.driver_interval = Duration::from_millis(20);
    settings.relay_interval = Duration::from_millis(20);
    let app = tiffin_orders::Application::build(settings)
        .await
        .expect("orders starts");
    let (url, stop) = service::spawn(app.port(), |s| app.run_until_stopped(s));
    Orders {
        url,
        pool: tiffin_platform::db::connect(database_url, &tiffin_orders::MIGRATOR)
            .await
            .expect("opens the database"),
        _stop: stop,
    }
}

/// A support service; it stops when this is dropped.
pub struct Support {
    pub url: String,
    pub client: SupportServiceClient<SignedChannel>,
    pub pool: AnyPool,
    _stop: Stop,
}

/// An orders address for tests that never reach orders.
pub fn unreachable_orders() -> String {
    DOWN.into()
}

/// The support service on `database_url`, acting through the orders service at `orders_url`.
pub async fn support(database_url: &str, orders_url: &str) -> Support {
    let app = tiffin_support::Application::build_with(
        tiffin_support::Settings {
            service: service::settings(database_url),
        },
        tiffin_support::Upstreams {
            orders_url: orders_url.into(),
            recovery_interval: RECOVERY_EVERY,
        },
    )
    .await
    .expect("support starts");
    let (url, stop) = service::spawn(app.port(), |s| app.run_until_stopped(s));
    Support {
        client: signed_client(SupportServiceClient::new, url.clone())
            .await
            .expect("connects"),
        url,
        pool: tiffin_platform::db::connect(database_url, &tiffin_support::MIGRATOR)
            .await
            .expect("opens the database"),
        _stop: stop,
    }
}

/// A request as the edge sends it for a signed-in customer.
pub fn as_user<T>(user: u64, message: T) -> Request<T> {
    let mut request = Request::new(message);
    Caller {
        user_id: Some(user),
        session_id: Some(format!("s-{user}")),
    }
    .write_to(request.metadata_mut(), EDGE);
    request
}

/// A request as the edge sends it for a signed-in agent.
pub fn as_agent<T>(user: u64, message: T) -> Request<T> {
    let mut request = Request::new(message);
    Caller {
        user_id: Some(user),
        session_id: Some(format!("s-{user}")),
    }
    .write_with_roles(request.metadata_mut(), EDGE, &[Role::Agent]);
    request
}

/// A cart as the cart service priced it: `lines` of (item, quantity, unit price) from Meghana
/// Biryani House, ₹39 delivery, delivering to address "12".
pub fn cart(lines: &[(u64, u32, i64)]) -> Cart {
    let lines: Vec<CartLine> = lines
        .iter()
        .map(|&(id, quantity, unit)| CartLine {
            cart_key: id.to_string(),
            menu_item_id: id,
            name: format!("Item {id}"),
            quantity,
            in_stock: true,
            unit_price_paise: unit,
            total_paise: unit * i64::from(quantity),
            ..CartLine::default()
        })
        .collect();
    let item_total: i64 = lines.iter().map(|l| l.total_paise).sum();
    let line = |key: &str, amount_paise| BillLine {
        key: key.into(),
        label: key.into(),
        amount_paise,
        tooltip: String::new(),
    };
    Cart {
        cart_id: "cart-1".into(),
        restaurant: Some(CartRestaurant {
            id: 1042,
            name: "Meghana Biryani House".into(),
            opened: true,
            ..CartRestaurant::default()
        }),
        item_count: lines.iter().map(|l| l.quantity).sum(),
        item_total_paise: item_total,
        bill: Some(Bill {
            lines: vec![line("ITEM_TOTAL", item_total), line("DELIVERY_FEE", 3_900)],
            to_pay_paise: item_total + 3_900,
            total_without_coupon_paise: item_total + 3_900,
        }),
        lines,
        addresses: vec![AddressOption {
            id: "12".into(),
            annotation: "home".into(),
            address: "4th Cross, 5th Block".into(),
            area: "Koramangala".into(),
            delivery_valid: true,
        }],
        serviceable: true,
        ..Cart::default()
    }
}

pub fn card() -> Method {
    Method::Card(CardDetails {
        number: "4111 1111 1111 1111".into(),
        expiry_month: 12,
        // Two years ahead: good to within a day, which is all a card's expiry needs.
        expiry_year: 1970
            + 2
            + u32::try_from(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_secs()
                    / 31_556_952,
            )
            .unwrap(),
        cvv: "123".into(),
        holder_name: "Asha Rao".into(),
        save_card: false,
    })
}

pub fn cod() -> Method {
    Method::CashOnDelivery(CashOnDelivery {})
}

/// `user` orders two biryanis (₹250) and a lassi (₹80), ₹619 with delivery, paid by `method`,
/// and waits until it is delivered; answers the order id and its payment id.
pub async fn delivered(orders: &Orders, user: u64, key: &str, method: Method) -> (u64, String) {
    let cart = cart(&[(1001, 2, 25_000), (1002, 1, 8_000)]);
    let mut client = signed_client(OrdersServiceClient::new, orders.url.clone())
        .await
        .expect("connects");
    let placed = client
        .place_order(as_user(
            user,
            PlaceOrderRequest {
                idempotency_key: key.into(),
                expected_total_paise: cart.bill.as_ref().map_or(0, |b| b.to_pay_paise),
                cart: Some(cart),
                address_id: "12".into(),
                method: Some(method),
                delivery: Some(DeliveryContext {
                    restaurant: Some(RestaurantFacts {
                        restaurant_id: 1042,
                        opened: true,
                        lat: 12.9352,
                        lng: 77.6245,
                        delivery_radius_m: 7_000,
                        prep_time_minutes: 20,
                        ..RestaurantFacts::default()
                    }),
                    point: Some(DeliveryPoint {
                        address_id: "12".into(),
                        lat: 12.9116,
                        lng: 77.6474,
                    }),
                    ..DeliveryContext::default()
                }),
                ..PlaceOrderRequest::default()
            },
        ))
        .await
        .expect("placed")
        .into_inner();
    let order_id = placed.order.expect("an order").order_id;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let order = client
            .get_order(as_user(user, GetOrderRequest { order_id }))
            .await
            .expect("the order")
            .into_inner()
            .order
            .expect("an order");
        if order.order_status == "DELIVERED" {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never delivered");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    (order_id, placed.payment.expect("a payment").payment_id)
}

/// Asha as the edge describes her.
pub fn asha(member: bool) -> Customer {
    Customer {
        name: "Asha Rao".into(),
        mobile_last4: "3210".into(),
        member,
    }
}

/// A request for help with `order_id`.
pub fn help_request(
    order_id: u64,
    issue: OrderIssue,
    lines: &[(u32, u32)],
    message: &str,
    key: &str,
) -> StartOrderHelpRequest {
    StartOrderHelpRequest {
        customer: Some(asha(false)),
        order_id,
        issue: issue.into(),
        lines: lines
            .iter()
            .map(|&(line_id, quantity)| RefundLine { line_id, quantity })
            .collect(),
        refund_to: RefundDestination::Source.into(),
        message: message.into(),
        idempotency_key: key.into(),
    }
}

pub async fn start_help(
    s: &Support,
    user: u64,
    request: StartOrderHelpRequest,
) -> Result<Conversation, Status> {
    s.client
        .clone()
        .start_order_help(as_user(user, request))
        .await
        .map(|r| r.into_inner().conversation.expect("a conversation"))
}

pub async fn conversation(s: &Support, user: u64, conversation_id: u64) -> Conversation {
    s.client
        .clone()
        .get_conversation(as_user(user, GetConversationRequest { conversation_id }))
        .await
        .expect("the conversation")
        .into_inner()
        .conversation
        .expect("a conversation")
}

pub fn status(c: &Conversation) -> ConversationStatus {
    ConversationStatus::try_from(c.status).unwrap_or_default()
}

/// The texts of a conversation's messages, in order.
pub fn texts(c: &Conversation) -> Vec<&str> {
    c.messages.iter().map(|m| m.text.as_str()).collect()
}

/// Waits (up to 15 s) until `check` holds.
pub async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while !check().await {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
