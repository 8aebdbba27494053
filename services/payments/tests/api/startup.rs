//! What the service agrees to start with: the sandbox gateway and the sandbox wallets (test cards
//! that always pay, a published OTP and webhook secret) only where development is declared. The
//! binary itself is run, as a deployment runs it, with nothing but the environment under test; and
//! `Application::build_with` refuses the same, so no other path starts a production process on
//! the sandbox.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
    let dir = tempfile_dir();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiffin-payments"))
        .env_clear()
        .env("GRPC_ADDR", "127.0.0.1:0")
        .env(
            "DATABASE_URL",
            format!("sqlite://{}/payments.db", dir.display()),
        )
        // The public identity keys a deployment is given; every start below has them.
        .env(
            tiffin_platform::config::PUBLIC_KEYS_VAR,
            tiffin_platform::config::development_public_keys(),
        )
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("stdout");
    let (listening, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.contains("payments service listening") {
                let _ = listening.send(());
            }
        }
    });
    let started = Instant::now();
    let outcome = loop {
        if heard.try_recv().is_ok() {
            child.kill().expect("stopped");
            let _ = child.wait();
            break Ok(());
        }
        if child.try_wait().expect("waits").is_some() {
            let output = child.wait_with_output().expect("its output");
            break Err(String::from_utf8_lossy(&output.stderr).into_owned());
        }
        if started.elapsed() > PATIENCE {
            child.kill().expect("stopped");
            panic!("tiffin-payments neither started nor stopped within {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let _ = std::fs::remove_dir_all(&dir);
    outcome
}

/// A directory of this test's own for the database file.
fn tempfile_dir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tiffin-payments-startup-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
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
