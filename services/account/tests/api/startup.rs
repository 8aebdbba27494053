//! What the service agrees to start with: the development message provider (every code in the
//! log and in `ListOutbox`) only where development is declared. The binary itself is run, as a
//! deployment runs it, with nothing but the environment under test.

use std::time::Duration;
use tiffin_platform::service::testing::signed_client;

use tiffin_account::messages::MessagesConfig;
use tiffin_account::{Application, Settings};
use tiffin_platform::config::{Environment, Secret};
use tiffin_platform::db::testing;
use tiffin_platform::service::testing as service;
use tiffin_proto::account::v1::ListOutboxRequest;
use tiffin_proto::account::v1::account_service_client::AccountServiceClient;
use tonic::Code;

/// The public identity keys a deployment is given (`TIFFIN_IDENTITY_PUBLIC_KEYS`); every start
/// below has them unless the environment under test says otherwise.
fn public_keys() -> String {
    tiffin_platform::config::development_public_keys()
}

/// How long the binary may take to start or to refuse, on a busy machine.
const PATIENCE: Duration = Duration::from_secs(60);

/// Runs `tiffin-account` with only `env` (and a free port, a throwaway database): `Ok(())` once it
/// says it is listening (it is then stopped), `Err(stderr)` when it stopped on its own first.
fn start(env: &[(&str, &str)]) -> Result<(), String> {
    let keys = public_keys();
    let mut all = vec![("TIFFIN_IDENTITY_PUBLIC_KEYS", keys.as_str())];
    all.extend_from_slice(env);
    service::start_binary(
        env!("CARGO_BIN_EXE_tiffin-account"),
        "account",
        &all,
        PATIENCE,
    )
}

#[test]
fn with_nothing_declared_the_service_does_not_start_without_its_webhook() {
    let refused = start(&[]).expect_err("it must not run");

    assert!(
        refused.contains("ACCOUNT_MESSAGES_WEBHOOK_URL"),
        "it names what is missing: {refused}"
    );
}

#[test]
fn the_development_provider_is_refused_unless_development_is_declared() {
    for env in [
        vec![("ACCOUNT_MESSAGES", "dev")],
        vec![("ACCOUNT_MESSAGES", "dev"), ("TIFFIN_ENV", "production")],
    ] {
        let refused = start(&env).expect_err("it must not run");

        assert!(
            refused.contains("ACCOUNT_MESSAGES") && refused.contains("TIFFIN_ENV=development"),
            "{env:?}: {refused}"
        );
    }
}

#[test]
fn outside_development_the_service_does_not_start_without_the_public_identity_keys() {
    let webhook = [
        (
            "ACCOUNT_MESSAGES_WEBHOOK_URL",
            "https://sms.example.com/hook",
        ),
        ("ACCOUNT_MESSAGES_WEBHOOK_SECRET", "s3cret"),
    ];
    let (_, stray) = tiffin_platform::identity::generate_key_pair().unwrap();
    let without_edge = format!("orders={stray}");
    for keys in ["", "edge", without_edge.as_str(), "edge=not-a-key"] {
        let mut env = webhook.to_vec();
        env.push(("TIFFIN_IDENTITY_PUBLIC_KEYS", keys));
        let refused = start(&env).expect_err("it must not run");
        assert!(
            refused.contains("TIFFIN_IDENTITY_PUBLIC_KEYS") || refused.contains("identity key"),
            "{keys:?}: {refused}"
        );
    }
    let mut env = webhook.to_vec();
    let shared = public_keys();
    env.push(("TIFFIN_IDENTITY_PUBLIC_KEYS", shared.as_str()));
    assert!(start(&env).is_ok(), "with the keys it runs");
}

#[test]
fn a_webhook_needs_its_secret() {
    let refused = start(&[
        ("ACCOUNT_MESSAGES", "webhook"),
        (
            "ACCOUNT_MESSAGES_WEBHOOK_URL",
            "https://sms.example.com/hook",
        ),
    ])
    .expect_err("it must not run");

    assert!(
        refused.contains("ACCOUNT_MESSAGES_WEBHOOK_SECRET"),
        "{refused}"
    );
}

#[test]
fn a_declared_development_or_a_configured_webhook_starts() {
    for env in [
        vec![("TIFFIN_ENV", "development")],
        vec![
            (
                "ACCOUNT_MESSAGES_WEBHOOK_URL",
                "https://sms.example.com/hook",
            ),
            ("ACCOUNT_MESSAGES_WEBHOOK_SECRET", "s3cret"),
        ],
    ] {
        assert_eq!(start(&env), Ok(()), "{env:?}");
    }
}

#[tokio::test]
async fn the_development_provider_cannot_be_built_outside_development() {
    let db = testing::sqlite();
    let mut settings = Settings::new(service::settings(&db.url));
    settings.service.environment = Environment::Production;

    let built = Application::build(settings).await;

    let e = built.err().expect("refused").to_string();
    assert!(e.contains("TIFFIN_ENV=development"), "{e}");
}

#[tokio::test]
async fn outside_development_list_outbox_is_refused() {
    let db = testing::sqlite();
    let mut settings = Settings::new(service::settings(&db.url));
    settings.service.environment = Environment::Production;
    settings.messages = MessagesConfig::Webhook {
        url: "http://127.0.0.1:9/hook".into(),
        secret: Secret::new("s"),
    };
    let app = Application::build(settings).await.expect("starts");
    let (url, _stop) = service::spawn(app.port(), |stopped| app.run_until_stopped(stopped));
    let mut client = signed_client(AccountServiceClient::new, url)
        .await
        .expect("connects");

    let refused = client
        .list_outbox(ListOutboxRequest {
            recipient: "9876543210".into(),
        })
        .await
        .unwrap_err();

    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert!(!refused.message().contains("OTP"), "{}", refused.message());
}
