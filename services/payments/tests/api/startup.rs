//! What the service agrees to start with: the sandbox gateway and the sandbox wallets (test cards
//! that always pay, a published OTP and webhook secret) only where development is declared. The
//! binary itself is run, as a deployment runs it, with nothing but the environment under test; and
//! `Application::build_with` refuses the same, so no other path starts a production process on
//! the sandbox.

use std::time::Duration;

use tiffin_payments::config::{PaymentsConfig, Secret, WalletsChoice};
use tiffin_payments::{Application, Settings};
use tiffin_platform::config::Environment;
use tiffin_platform::db::testing;
use tiffin_platform::service::testing as service;

/// How long the binary may take to start or to refuse, on a busy machine.
const PATIENCE: Duration = Duration::from_secs(60);

/// Runs `tiffin-payments` with only `env` (and a free port, a throwaway database): `Ok(())` once it
/// says it is listening (it is then stopped), `Err(stderr)` when it stopped on its own first.
fn start(env: &[(&str, &str)]) -> Result<(), String> {
    // The public identity keys a deployment is given; every start below has them.
    let keys = (
        tiffin_platform::config::PUBLIC_KEYS_VAR,
        tiffin_platform::config::development_public_keys(),
    );
    let mut all = vec![(keys.0, keys.1.as_str())];
    all.extend_from_slice(env);
    service::start_binary(
        env!("CARGO_BIN_EXE_tiffin-payments"),
        "payments",
        &all,
        PATIENCE,
    )
}

#[test]
fn without_development_the_sandbox_gateway_never_starts() {
    let secret = ("PAYMENTS_WEBHOOK_SECRET", "a-deployment's-webhook-secret");
    for env in [
        vec![],
        vec![secret],
        vec![secret, ("PAYMENTS_GATEWAY", "sandbox")],
        vec![
            secret,
            ("PAYMENTS_GATEWAY", "sandbox"),
            ("TIFFIN_ENV", "production"),
        ],
    ] {
        let refused = start(&env).expect_err("it must not run");

        assert!(
            refused.contains("PAYMENTS_GATEWAY") && refused.contains("TIFFIN_ENV=development"),
            "{env:?}: {refused}"
        );
    }
}

#[test]
fn a_declared_development_starts_on_the_sandbox() {
    assert_eq!(start(&[("TIFFIN_ENV", "development")]), Ok(()));
}

#[tokio::test]
async fn the_sandbox_cannot_be_built_outside_development() {
    let db = testing::sqlite();
    let production = || {
        let mut service = service::settings(&db.url);
        service.environment = Environment::Production;
        Settings { service }
    };
    let real_secret = Secret::new("a-deployment's-webhook-secret");

    for (config, names) in [
        (
            PaymentsConfig {
                webhook_secret: real_secret.clone(),
                wallets: WalletsChoice::None,
                ..PaymentsConfig::default()
            },
            "PAYMENTS_GATEWAY",
        ),
        (PaymentsConfig::default(), "PAYMENTS_GATEWAY"),
    ] {
        let built = Application::build_with(production(), config).await;

        let e = built.err().expect("refused").to_string();
        assert!(
            e.contains(names) && e.contains("TIFFIN_ENV=development"),
            "{e}"
        );
    }
}

#[test]
fn outside_development_a_real_gateway_needs_its_own_webhook_secret() {
    let razorpay = [
        ("PAYMENTS_GATEWAY", "razorpay"),
        ("RAZORPAY_KEY_ID", "rzp_live_0123456789"),
        ("RAZORPAY_KEY_SECRET", "a-key-secret"),
        ("RAZORPAY_WEBHOOK_SECRET", "a-deployment's-webhook-secret"),
        ("RAZORPAY_CONTACT_EMAIL", "payments@example.com"),
        ("RAZORPAY_CONTACT_PHONE", "+919800000000"),
    ];
    for secret in [
        None,
        Some(""),
        Some("tiffin-sandbox-webhook-secret"),
        Some("short"),
    ] {
        let mut env = razorpay.to_vec();
        if let Some(secret) = secret {
            env.push(("PAYMENTS_WEBHOOK_SECRET", secret));
        }

        let refused = start(&env).expect_err("it must not run");

        assert!(
            refused.contains("PAYMENTS_WEBHOOK_SECRET"),
            "{secret:?}: {refused}"
        );
    }
}
