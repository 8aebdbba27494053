//! What the placing tests share: the orders service with real payments and cart services, carts
//! as the edge hands them over (priced by the cart service), and calls as the edge makes them.

use std::time::Duration;
use tiffin_platform::service::testing::{SignedChannel, signed_client};

use sqlx::AnyPool;
use tiffin_orders::{Application, MIGRATOR, Settings};
use tiffin_platform::db::testing::{self, TestDatabase};
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::cart::v1::{
    AddressOption, Bill, BillLine, Cart, CartLine, CartRestaurant, DeliveryContext, DeliveryPoint,
    RestaurantFacts,
};
use tiffin_proto::orders::v1::orders_service_client::OrdersServiceClient;
use tiffin_proto::orders::v1::place_order_request::Method;
use tiffin_proto::orders::v1::{
    ConfirmOrderRequest, GetOrderRequest, Order, PlaceOrderRequest, PlaceOrderResponse,
};
use tiffin_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use tiffin_proto::payments::v1::{
    AuthenticatePaymentRequest, CardDetails, CashOnDelivery, GetPaymentRequest, Payment, UpiCollect,
};
use tonic::{Request, Status};

pub const ASHA: u64 = 101;
pub const BILAL: u64 = 202;
/// The sandbox's `success@tiffin` and `failure@tiffin` settle this long after creation here.
pub const UPI_SETTLES_AFTER: Duration = Duration::from_millis(300);
/// Recovery runs this often here.
pub const RECOVERY_EVERY: Duration = Duration::from_millis(100);

/// The payments, cart and membership services, on SQLite of their own.
pub struct Neighbours {
    pub payments_url: String,
    pub cart_url: String,
    pub membership_url: String,
    _dbs: Vec<TestDatabase>,
    _stops: Vec<Stop>,
}

pub async fn neighbours() -> Neighbours {
    // Emptying a cart prices nothing, so the menu service is never called.
    neighbours_with_menu("http://127.0.0.1:9").await
}

/// The neighbours with the cart priced by the menu service at `menu_url`.
pub async fn neighbours_with_menu(menu_url: &str) -> Neighbours {
    let payments_db = testing::sqlite();
    let cart_db = testing::sqlite();
    let payments = tiffin_payments::Application::build_with(
        tiffin_payments::Settings {
            service: service::settings(&payments_db.url),
        },
        tiffin_payments::config::PaymentsConfig {
            sandbox_settle: UPI_SETTLES_AFTER,
            upi_expiry: Duration::from_secs(5),
            ..Default::default()
        },
    )
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
    let cart = tiffin_cart::Application::build(tiffin_cart::Settings {
        service: service::settings(&cart_db.url),
        menu_url: menu_url.into(),
        membership_url: membership_url.clone(),
        surge: tiffin_cart::surge::Surge::none(),
    })
    .await
    .expect("cart starts");
    let (cart_url, cart_stop) = service::spawn(cart.port(), |s| cart.run_until_stopped(s));
    Neighbours {
        payments_url,
        cart_url,
        membership_url,
        _dbs: vec![payments_db, cart_db, membership_db],
        _stops: vec![payments_stop, cart_stop, membership_stop],
    }
}

/// The orders service on `database_url` with its neighbours, and clients of both.
pub struct World {
    pub url: String,
    cart_url: String,
    /// The membership service the orders service tells about plans and savings.
    pub membership_url: String,
    pub payments: PaymentsServiceClient<SignedChannel>,
    /// The orders service's own database, to look at its outbox and attempts.
    pub pool: AnyPool,
    /// The service's settlement, to run recovery rounds at a chosen time.
    pub settlement: tiffin_orders::settlement::Settlement,
    _neighbours: Neighbours,
    _stop: Stop,
}

pub fn settings(database_url: &str, n: &Neighbours) -> Settings {
    let mut settings = Settings::new(
        service::settings(database_url),
        n.payments_url.clone(),
        n.cart_url.clone(),
    );
    settings.membership_url = n.membership_url.clone();
    settings.recovery_interval = RECOVERY_EVERY;
    settings
}

pub async fn world(database_url: &str) -> World {
    let neighbours = neighbours().await;
    world_with(database_url, neighbours, |_| {}).await
}

pub async fn world_with(
    database_url: &str,
    neighbours: Neighbours,
    adjust: impl FnOnce(&mut Settings),
) -> World {
    let mut settings = settings(database_url, &neighbours);
    adjust(&mut settings);
    let app = Application::build(settings).await.expect("orders starts");
    let settlement = app.settlement();
    let (url, stop) = service::spawn(app.port(), |s| app.run_until_stopped(s));
    World {
        url,
        cart_url: neighbours.cart_url.clone(),
        membership_url: neighbours.membership_url.clone(),
        payments: signed_client(PaymentsServiceClient::new, neighbours.payments_url.clone())
            .await
            .expect("connects"),
        pool: tiffin_platform::db::connect(database_url, &MIGRATOR)
            .await
            .expect("opens the database"),
        settlement,
        _neighbours: neighbours,
        _stop: stop,
    }
}

impl World {
    pub fn cart_url(&self) -> String {
        self.cart_url.clone()
    }

    /// Stops this orders service and hands back its neighbours, so another orders service on the
    /// same database can use the same payments service (one with the payments service down in
    /// between, for instance).
    pub fn stop(self) -> Neighbours {
        self._neighbours
    }
}

/// A request as the edge sends it: the signed-in user in metadata only.
pub fn as_user<T>(user: u64, message: T) -> Request<T> {
    let mut request = Request::new(message);
    Caller {
        user_id: Some(user),
        session_id: Some(format!("s-{user}")),
    }
    .write_to(request.metadata_mut(), "edge");
    request
}

/// Asha's cart as the cart service priced it: `lines` of (item, quantity, unit price), a
/// delivery fee of ₹39, and two addresses, "12" (home, delivers) and "13" (work, does not).
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
    let bill = vec![
        BillLine {
            key: "ITEM_TOTAL".into(),
            label: "Item Total".into(),
            amount_paise: item_total,
            tooltip: String::new(),
        },
        BillLine {
            key: "DELIVERY_FEE".into(),
            label: "Delivery Fee".into(),
            amount_paise: 3_900,
            tooltip: String::new(),
        },
    ];
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
            lines: bill,
            to_pay_paise: item_total + 3_900,
            total_without_coupon_paise: item_total + 3_900,
        }),
        lines,
        addresses: vec![
            AddressOption {
                id: "12".into(),
                annotation: "home".into(),
                address: "4th Cross, 5th Block".into(),
                area: "Koramangala".into(),
                delivery_valid: true,
            },
            AddressOption {
                id: "13".into(),
                annotation: "work".into(),
                address: "Whitefield Main Road".into(),
                area: "Whitefield".into(),
                delivery_valid: false,
            },
        ],
        serviceable: true,
        ..Cart::default()
    }
}

/// Two biryanis at ₹250 (₹539 with delivery).
pub fn biryanis() -> Cart {
    cart(&[(1001, 2, 25_000)])
}

pub fn this_year() -> u32 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // Good to within a day, which is all a card's expiry needs.
    1970 + u32::try_from(secs / 31_556_952).unwrap()
}

pub fn card(number: &str) -> Method {
    Method::Card(CardDetails {
        number: number.into(),
        expiry_month: 12,
        expiry_year: this_year() + 2,
        cvv: "123".into(),
        holder_name: "Asha Rao".into(),
        save_card: false,
    })
}

pub fn upi(vpa: &str) -> Method {
    Method::UpiCollect(UpiCollect { vpa: vpa.into() })
}

pub fn netbanking(bank_code: &str) -> Method {
    Method::Netbanking(tiffin_proto::payments::v1::NetbankingPayment {
        bank_code: bank_code.into(),
    })
}

pub fn cod() -> Method {
    Method::CashOnDelivery(CashOnDelivery {})
}

/// Placing `cart` for delivery to "12", paying by `method`, as the customer saw it.
pub fn place_request(key: &str, cart: Cart, method: Method) -> PlaceOrderRequest {
    PlaceOrderRequest {
        idempotency_key: key.into(),
        expected_total_paise: cart.bill.as_ref().map_or(0, |b| b.to_pay_paise),
        cart: Some(cart),
        address_id: "12".into(),
        method: Some(method),
        delivery: Some(koramangala_to_hsr()),
        ..PlaceOrderRequest::default()
    }
}

/// The restaurant in Koramangala and address "12" in HSR Layout, about 3.5 km apart, as the edge
/// gathers them; the kitchen needs `PREP_MINUTES`.
pub fn koramangala_to_hsr() -> DeliveryContext {
    DeliveryContext {
        restaurant: Some(RestaurantFacts {
            restaurant_id: 1042,
            opened: true,
            lat: 12.9352,
            lng: 77.6245,
            delivery_radius_m: 7_000,
            prep_time_minutes: PREP_MINUTES,
            phone: "+918041234567".into(),
            ..RestaurantFacts::default()
        }),
        point: Some(DeliveryPoint {
            address_id: "12".into(),
            lat: 12.9116,
            lng: 77.6474,
        }),
        ..DeliveryContext::default()
    }
}

/// The test restaurant's kitchen time.
pub const PREP_MINUTES: u32 = 20;

pub async fn place(
    url: &str,
    user: u64,
    request: PlaceOrderRequest,
) -> Result<PlaceOrderResponse, Status> {
    signed_client(OrdersServiceClient::new, url.to_string())
        .await
        .expect("connects")
        .place_order(as_user(user, request))
        .await
        .map(tonic::Response::into_inner)
}

pub async fn confirm(url: &str, user: u64, order_id: u64) -> Result<Order, Status> {
    signed_client(OrdersServiceClient::new, url.to_string())
        .await
        .expect("connects")
        .confirm_order(as_user(user, ConfirmOrderRequest { order_id }))
        .await
        .map(|r| r.into_inner().order.expect("an order"))
}

pub async fn get_order(url: &str, user: u64, order_id: u64) -> Result<Order, Status> {
    signed_client(OrdersServiceClient::new, url.to_string())
        .await
        .expect("connects")
        .get_order(as_user(user, GetOrderRequest { order_id }))
        .await
        .map(|r| r.into_inner().order.expect("an order"))
}

impl World {
    pub async fn payment(&self, user: u64, payment_id: &str) -> Payment {
        self.payments
            .clone()
            .get_payment(as_user(
                user,
                GetPaymentRequest {
                    payment_id: payment_id.into(),
                    idempotency_key: String::new(),
                },
            ))
            .await
            .expect("the payment exists")
            .into_inner()
            .payment
            .expect("a payment")
    }

    pub async fn otp(&self, user: u64, payment_id: &str, otp: &str) -> Payment {
        use tiffin_proto::payments::v1::authenticate_payment_request::Action;
        self.payments
            .clone()
            .authenticate_payment(as_user(
                user,
                AuthenticatePaymentRequest {
                    payment_id: payment_id.into(),
                    action: Some(Action::Otp(otp.into())),
                },
            ))
            .await
            .expect("authenticates")
            .into_inner()
            .payment
            .expect("a payment")
    }

    /// The event types of the order's outbox, in order.
    pub async fn events(&self, order_id: u64) -> Vec<String> {
        tiffin_orders::outbox::of_order(&self.pool, order_id)
            .await
            .expect("reads the outbox")
            .into_iter()
            .map(|e| e.event_type)
            .collect()
    }

    /// How many payments attempts the customer has made, and how many are still open.
    pub async fn attempts(&self, order_id: u64) -> Vec<tiffin_orders::attempts::Attempt> {
        tiffin_orders::attempts::of_order(&self.pool, order_id)
            .await
            .expect("reads the attempts")
    }
}

/// Waits (up to 10 s) until `check` holds.
pub async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !check().await {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub fn status_name(p: &Payment) -> &'static str {
    use tiffin_proto::payments::v1::PaymentStatus;
    match PaymentStatus::try_from(p.status).unwrap_or_default() {
        PaymentStatus::Charged => "CHARGED",
        PaymentStatus::PendingVbv => "PENDING_VBV",
        PaymentStatus::Declined => "DECLINED",
        PaymentStatus::AuthorizationFailed => "AUTHORIZATION_FAILED",
        PaymentStatus::AuthenticationFailed => "AUTHENTICATION_FAILED",
        PaymentStatus::Refunded => "REFUNDED",
        PaymentStatus::UserAborted => "USER_ABORTED",
        PaymentStatus::New => "NEW",
        PaymentStatus::Authorizing => "AUTHORIZING",
        PaymentStatus::PartiallyRefunded => "PARTIALLY_REFUNDED",
        PaymentStatus::Unspecified => "UNSPECIFIED",
    }
}

pub fn spec_code(status: &Status) -> Option<u32> {
    tiffin_platform::status::spec_code(status)
}
