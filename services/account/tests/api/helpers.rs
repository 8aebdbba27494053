//! What the black-box tests share: the real service on port 0 with a manual clock, a gRPC client,
//! calls made as a given caller, and the sign-up path (code read from the development outbox).

use sqlx::AnyPool;
use tiffin_account::clock::{Clock, ManualClock};
use tiffin_account::{Application, Settings};
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_platform::service::testing::{SignedChannel, signed_client};
use tiffin_proto::account::v1::{
    CreateSessionRequest, ListOutboxRequest, SendOtpRequest, VerifyOtpRequest, VerifyOtpResponse,
    account_service_client::AccountServiceClient,
};
use tonic::{Code, Request, Status};

pub type Client = AccountServiceClient<SignedChannel>;

/// A running service with its clock and a direct line to its database.
pub struct Svc {
    pub client: Client,
    pub clock: ManualClock,
    pub pool: AnyPool,
    _stop: Stop,
}

/// Starts the service on `database_url` with a manual clock; `tweak` may change the settings.
pub async fn spawn_with(database_url: &str, tweak: impl FnOnce(&mut Settings)) -> Svc {
    let clock = ManualClock::starting_now();
    let mut settings = Settings::new(service::settings(database_url));
    settings.clock = std::sync::Arc::new(clock.clone());
    tweak(&mut settings);
    let app = Application::build(settings).await.expect("service starts");
    let (url, stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    let client = signed_client(AccountServiceClient::new, url)
        .await
        .expect("connects");
    sqlx::any::install_default_drivers();
    let pool = AnyPool::connect(database_url)
        .await
        .expect("test opens the database");
    Svc {
        client,
        clock,
        pool,
        _stop: stop,
    }
}

pub async fn spawn(database_url: &str) -> Svc {
    spawn_with(database_url, |_| {}).await
}

/// `message` sent as `caller` (the metadata the edge would set).
pub fn as_caller<T>(caller: &Caller, message: T) -> Request<T> {
    let mut request = Request::new(message);
    caller.write_to(request.metadata_mut(), "edge");
    request
}

/// A status as (code, message), for assertions.
pub fn answer(status: Status) -> (Code, String) {
    (status.code(), status.message().to_string())
}

/// The `retry-after` metadata of a status, in seconds.
pub fn retry_after(status: &Status) -> i64 {
    status
        .metadata()
        .get("retry-after")
        .expect("retry-after metadata")
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

impl Svc {
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// A new guest session: the caller the edge would state for it, and its token.
    pub async fn guest(&mut self) -> (Caller, String) {
        self.guest_on("device-1").await
    }

    /// A new guest session in the browser whose device cookie is `device_id`.
    pub async fn guest_on(&mut self, device_id: &str) -> (Caller, String) {
        let created = self
            .client
            .create_session(CreateSessionRequest {
                device_id: device_id.into(),
                user_agent: "test".into(),
                csrf_token: String::new(),
            })
            .await
            .expect("session created")
            .into_inner();
        let session = created.session.expect("session");
        (
            Caller {
                user_id: None,
                session_id: Some(session.session_id),
            },
            created.token,
        )
    }

    /// Sends a sign-in code to `mobile` for `caller`.
    pub async fn send(&mut self, caller: &Caller, mobile: &str) -> Result<(), Status> {
        self.send_from(caller, mobile, "").await
    }

    /// Asks for a code to `mobile` from the client address `client` (as the edge buckets it).
    pub async fn send_from(
        &mut self,
        caller: &Caller,
        mobile: &str,
        client: &str,
    ) -> Result<(), Status> {
        self.client
            .send_otp(as_caller(
                caller,
                SendOtpRequest {
                    mobile: mobile.into(),
                    client: client.into(),
                },
            ))
            .await
            .map(|_| ())
    }

    /// The newest message body to `recipient` in the development outbox.
    pub async fn latest_message(&mut self, recipient: &str) -> String {
        let messages = self
            .client
            .list_outbox(ListOutboxRequest {
                recipient: recipient.into(),
            })
            .await
            .expect("outbox readable")
            .into_inner()
            .messages;
        messages.first().expect("a message was sent").body.clone()
    }

    /// The newest code sent to `mobile`.
    pub async fn latest_code(&mut self, mobile: &str) -> String {
        self.latest_message(mobile).await[..6].to_string()
    }

    pub async fn verify(
        &mut self,
        caller: &Caller,
        mobile: &str,
        otp: &str,
        name: &str,
    ) -> Result<VerifyOtpResponse, Status> {
        self.client
            .verify_otp(as_caller(
                caller,
                VerifyOtpRequest {
                    mobile: mobile.into(),
                    otp: otp.into(),
                    name: name.into(),
                    email: String::new(),
                },
            ))
            .await
            .map(|r| r.into_inner())
    }

    /// Signs up (or in) `mobile` from a fresh session; the signed-in caller and its token.
    pub async fn sign_in(&mut self, mobile: &str, name: &str) -> (Caller, String) {
        let (guest, _) = self.guest().await;
        self.send(&guest, mobile).await.expect("code sent");
        let code = self.latest_code(mobile).await;
        let signed = self
            .verify(&guest, mobile, &code, name)
            .await
            .expect("signed in");
        let session = signed.session.expect("session");
        (
            Caller {
                user_id: session.user_id,
                session_id: Some(session.session_id),
            },
            signed.token,
        )
    }
}
