//! What every area's tests share: the payments service on port 0 with a quick sandbox clock, a
//! direct look at its database, callers, and requests as the edge sends them.

use std::sync::Arc;
use std::time::Duration;
use tiffin_platform::service::testing::{SignedChannel, signed_client};

use sqlx::AnyPool;
use tiffin_payments::config::PaymentsConfig;
use tiffin_payments::sandbox::Sandbox;
use tiffin_payments::{Application, MIGRATOR, Settings};
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::payments_service_client::PaymentsServiceClient;
use tiffin_proto::payments::v1::{
    CardDetails, CashOnDelivery, CreatePaymentRequest, GetPaymentRequest, Payment, UpiCollect,
};
use tonic::{Request, Status};

/// The sandbox's UPI test addresses settle this long after creation in tests.
pub const SETTLE: Duration = Duration::from_millis(400);
/// A UPI collect expires this long after creation in tests.
pub const EXPIRY: Duration = Duration::from_millis(1500);
/// The webhook secret of the service under test.
pub const SECRET: &str = "test-webhook-secret";

/// A running payments service; it stops when this is dropped.
pub struct Payments {
    pub client: PaymentsServiceClient<SignedChannel>,
    pub url: String,
    /// The gateway, to count its calls.
    pub sandbox: Arc<Sandbox>,
    /// The service's own database, to prove what is (and is not) stored.
    pub pool: AnyPool,
    /// The expiry of pending payments, to run a round at a chosen time.
    pub expiry: Arc<tiffin_payments::expiry::Expiry>,
    /// The settler of paid top-ups, to run a round at a chosen time.
    pub topups: Arc<tiffin_payments::topups::Settler>,
    _stop: Stop,
}

pub fn test_config() -> PaymentsConfig {
    PaymentsConfig {
        webhook_secret: tiffin_payments::config::Secret::new(SECRET),
        sandbox_settle: SETTLE,
        upi_expiry: EXPIRY,
        ..PaymentsConfig::default()
    }
}

pub async fn start(database_url: &str) -> Payments {
    start_with(database_url, test_config()).await
}

pub async fn start_with(database_url: &str, payments: PaymentsConfig) -> Payments {
    let settings = Settings {
        service: service::settings(database_url),
    };
    let app = Application::build_with(settings, payments)
        .await
        .expect("payments starts");
    let sandbox = app.sandbox().expect("the sandbox is the default gateway");
    let expiry = app.expiry();
    let topups = app.topups();
    let (url, stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    let pool = tiffin_platform::db::connect(database_url, &MIGRATOR)
        .await
        .expect("opens the database");
    Payments {
        client: signed_client(PaymentsServiceClient::new, url.clone())
            .await
            .expect("connects"),
        url,
        sandbox,
        pool,
        expiry,
        topups,
        _stop: stop,
    }
}

/// A signed-in user, as the edge states them.
pub fn user(id: u64) -> Caller {
    Caller {
        user_id: Some(id),
        session_id: Some(format!("s-{id}")),
    }
}

/// A request as the edge sends it: the caller in metadata.
pub fn as_caller<T>(caller: &Caller, message: T) -> Request<T> {
    let mut request = Request::new(message);
    caller.write_to(request.metadata_mut(), "edge");
    request
}

/// A card typed at checkout, expiring in two years.
pub fn card(number: &str, cvv: &str) -> Method {
    Method::Card(CardDetails {
        number: number.into(),
        expiry_month: 12,
        expiry_year: this_year() + 2,
        cvv: cvv.into(),
        holder_name: "Asha Rao".into(),
        save_card: false,
    })
}

pub fn saved(number: &str, cvv: &str) -> Method {
    match card(number, cvv) {
        Method::Card(mut details) => {
            details.save_card = true;
            Method::Card(details)
        }
        other => other,
    }
}

pub fn upi(vpa: &str) -> Method {
    Method::UpiCollect(UpiCollect { vpa: vpa.into() })
}

pub fn cod() -> Method {
    Method::CashOnDelivery(CashOnDelivery {})
}

pub fn this_year() -> u32 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // Good enough for "two years ahead" and "last year": off by at most a day at New Year.
    1970 + (secs / 31_556_952) as u32
}

pub fn create_request(key: &str, amount_paise: i64, method: Method) -> CreatePaymentRequest {
    CreatePaymentRequest {
        idempotency_key: key.into(),
        amount_paise,
        order_id: 0,
        method: Some(method),
        split_with_tiffin_money: false,
        method_must_pay: false,
    }
}

pub async fn create(
    svc: &mut Payments,
    caller: &Caller,
    key: &str,
    amount_paise: i64,
    method: Method,
) -> Result<Payment, Status> {
    Ok(svc
        .client
        .create_payment(as_caller(caller, create_request(key, amount_paise, method)))
        .await?
        .into_inner()
        .payment
        .expect("a payment in the reply"))
}

pub async fn get(svc: &mut Payments, caller: &Caller, payment_id: &str) -> Result<Payment, Status> {
    Ok(svc
        .client
        .get_payment(as_caller(
            caller,
            GetPaymentRequest {
                payment_id: payment_id.into(),
                idempotency_key: String::new(),
            },
        ))
        .await?
        .into_inner()
        .payment
        .expect("a payment in the reply"))
}

/// The statuses of a payment's history, oldest first, as the enum's names.
pub fn history(payment: &Payment) -> Vec<String> {
    payment
        .events
        .iter()
        .map(|e| status_name(e.status))
        .collect()
}

/// "CHARGED" for `PAYMENT_STATUS_CHARGED`.
pub fn status_name(status: i32) -> String {
    tiffin_proto::payments::v1::PaymentStatus::try_from(status)
        .map(|s| {
            s.as_str_name()
                .trim_start_matches("PAYMENT_STATUS_")
                .to_string()
        })
        .unwrap_or_else(|_| format!("?{status}"))
}

pub fn status_of(payment: &Payment) -> String {
    status_name(payment.status)
}

/// How many rows a table has.
pub async fn count(pool: &AnyPool, table: &str) -> i64 {
    // `table` is always one of the tests' own literals.
    sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
        .fetch_one(pool)
        .await
        .expect("counts")
}
