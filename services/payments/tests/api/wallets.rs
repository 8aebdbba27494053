//! Wallets and pay-later through the sandbox's provider: link sends an OTP, the right OTP
//! (123456) links, the balance starts at ₹500 and grows with add-money, delink forgets it. A wrong
//! OTP or an unknown code is refused in words; a provider that does not answer makes a status
//! read "not linked" rather than fail; one user's link is never another's.

use tiffin_payments::sandbox::{
    SANDBOX_OTP, SANDBOX_PAY_LATER_LIMIT_PAISE, SANDBOX_WALLET_START_PAISE,
};
use tiffin_payments::wallets::MAX_ADD_MONEY_PAISE;
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_proto::payments::v1::{
    AddWalletMoneyRequest, CheckPayLaterLinkedRequest, CheckWalletBalanceRequest,
    DeleteSavedVpaRequest, DelinkPayLaterRequest, DelinkWalletRequest, LinkPayLaterRequest,
    LinkWalletRequest, ListLinkedWalletsRequest, ListSavedVpasRequest, PayLater,
    ResendPayLaterOtpRequest, ValidatePayLaterOtpRequest, ValidateWalletOtpRequest, Wallet,
};
use tonic::{Code, Status};

use crate::helpers::{self, Payments, as_caller, user};

pub async fn balance(svc: &mut Payments, caller: &Caller, code: &str) -> Result<Wallet, Status> {
    Ok(svc
        .client
        .check_wallet_balance(as_caller(
            caller,
            CheckWalletBalanceRequest {
                wallet_code: code.into(),
            },
        ))
        .await?
        .into_inner()
        .wallet
        .expect("a wallet"))
}

async fn link(svc: &mut Payments, caller: &Caller, code: &str) -> Result<(bool, bool), Status> {
    let reply = svc
        .client
        .link_wallet(as_caller(
            caller,
            LinkWalletRequest {
                wallet_code: code.into(),
            },
        ))
        .await?
        .into_inner();
    Ok((reply.otp_sent, reply.linked))
}

async fn validate(
    svc: &mut Payments,
    caller: &Caller,
    code: &str,
    otp: &str,
) -> Result<Wallet, Status> {
    Ok(svc
        .client
        .validate_wallet_otp(as_caller(
            caller,
            ValidateWalletOtpRequest {
                wallet_code: code.into(),
                otp: otp.into(),
            },
        ))
        .await?
        .into_inner()
        .wallet
        .expect("a wallet"))
}

/// A top-up under a key of its own.
async fn add_money(
    svc: &mut Payments,
    caller: &Caller,
    code: &str,
    amount_paise: i64,
) -> Result<Wallet, Status> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let key = format!(
        "topup-{}",
        NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    );
    add_money_keyed(svc, caller, code, amount_paise, &key).await
}

/// A top-up under `key`.
pub async fn add_money_keyed(
    svc: &mut Payments,
    caller: &Caller,
    code: &str,
    amount_paise: i64,
    key: &str,
) -> Result<Wallet, Status> {
    Ok(svc
        .client
        .add_wallet_money(as_caller(
            caller,
            AddWalletMoneyRequest {
                wallet_code: code.into(),
                amount_paise,
                idempotency_key: key.into(),
                payment: Some(crate::topup_payments::paid_by_card()),
            },
        ))
        .await?
        .into_inner()
        .wallet
        .expect("a wallet"))
}

async fn delink(svc: &mut Payments, caller: &Caller, code: &str) -> Result<(), Status> {
    svc.client
        .delink_wallet(as_caller(
            caller,
            DelinkWalletRequest {
                wallet_code: code.into(),
            },
        ))
        .await?;
    Ok(())
}

async fn linked_wallets(svc: &mut Payments, caller: &Caller) -> Vec<Wallet> {
    svc.client
        .list_linked_wallets(as_caller(caller, ListLinkedWalletsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .wallets
}

pub async fn linked(svc: &mut Payments, caller: &Caller, code: &str) -> Wallet {
    assert_eq!(link(svc, caller, code).await.unwrap(), (true, false));
    validate(svc, caller, code, SANDBOX_OTP).await.unwrap()
}

#[tokio::test]
async fn a_wallet_links_with_the_otp_tops_up_and_delinks_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);

        let before = balance(&mut svc, &asha, "paytm").await.unwrap();
        let started = link(&mut svc, &asha, "PAYTM").await.unwrap();
        let pending = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        let validated = validate(&mut svc, &asha, "PAYTM", SANDBOX_OTP)
            .await
            .unwrap();
        let again = link(&mut svc, &asha, "PAYTM").await.unwrap();
        let topped_up = add_money(&mut svc, &asha, "PAYTM", 25_050).await.unwrap();
        let after = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        let listed = linked_wallets(&mut svc, &asha).await;
        delink(&mut svc, &asha, "PAYTM").await.unwrap();
        let delinked = balance(&mut svc, &asha, "PAYTM").await.unwrap();
        let listed_after = linked_wallets(&mut svc, &asha).await;

        assert_eq!(
            (
                before.wallet_code.as_str(),
                before.linked,
                before.balance_paise
            ),
            ("PAYTM", false, 0),
            "{}",
            db.url
        );
        assert_eq!(started, (true, false), "an OTP was sent");
        assert!(!pending.linked, "not linked before the OTP");
        assert!(validated.linked);
        assert_eq!(validated.name, "Paytm");
        assert_eq!(validated.balance_paise, SANDBOX_WALLET_START_PAISE);
        assert!(validated.linked_at_unix_ms > 0);
        assert_eq!(again, (false, true), "a linked wallet needs no OTP");
        assert_eq!(topped_up.balance_paise, SANDBOX_WALLET_START_PAISE + 25_050);
        assert_eq!(after.balance_paise, SANDBOX_WALLET_START_PAISE + 25_050);
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].wallet_code, "PAYTM");
        assert_eq!(listed[0].balance_paise, SANDBOX_WALLET_START_PAISE + 25_050);
        assert!(!delinked.linked);
        assert!(listed_after.is_empty());
        // The provider's token is stored, and gone with the link.
        assert_eq!(helpers::count(&svc.pool, "linked_wallets").await, 0);
    }
}

#[tokio::test]
async fn a_wrong_otp_does_not_link_and_the_right_one_still_does() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);
    link(&mut svc, &asha, "PHONEPE").await.unwrap();

    let wrong = validate(&mut svc, &asha, "PHONEPE", "654321")
        .await
        .unwrap_err();
    let empty = validate(&mut svc, &asha, "PHONEPE", "").await.unwrap_err();
    let short = validate(&mut svc, &asha, "PHONEPE", "123")
        .await
        .unwrap_err();
    let still = balance(&mut svc, &asha, "PHONEPE").await.unwrap();
    let right = validate(&mut svc, &asha, "PHONEPE", SANDBOX_OTP)
        .await
        .unwrap();

    assert_eq!(
        (wrong.code(), wrong.message()),
        (Code::InvalidArgument, "The OTP you entered is incorrect")
    );
    assert_eq!(empty.message(), "Please enter the OTP.");
    assert_eq!(short.message(), "Please enter the 6-digit OTP");
    assert!(!still.linked);
    assert!(right.linked);
}

#[tokio::test]
async fn an_otp_without_a_link_started_is_refused() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;

    let refused = validate(&mut svc, &user(1), "MOBIKWIK", SANDBOX_OTP)
        .await
        .unwrap_err();

    assert_eq!(
        (refused.code(), refused.message()),
        (Code::FailedPrecondition, "Please ask for an OTP first")
    );
}

#[tokio::test]
async fn an_unknown_wallet_code_is_refused_on_every_call() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);

    let refusals = [
        balance(&mut svc, &asha, "SWIGGYPAY").await.unwrap_err(),
        link(&mut svc, &asha, "GPAY").await.unwrap_err(),
        validate(&mut svc, &asha, "", SANDBOX_OTP)
            .await
            .unwrap_err(),
        add_money(&mut svc, &asha, "nope", 100).await.unwrap_err(),
        delink(&mut svc, &asha, "nope").await.unwrap_err(),
    ];

    for refused in refusals {
        assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
        assert!(
            refused.message().starts_with("Unknown wallet code"),
            "{refused:?}"
        );
        assert_eq!(
            tiffin_platform::status::spec_code(&refused),
            Some(1),
            "{refused:?}"
        );
    }
}

#[tokio::test]
async fn add_money_needs_a_linked_wallet_and_a_sensible_amount() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);

    let unlinked = add_money(&mut svc, &asha, "AMAZONPAY", 100)
        .await
        .unwrap_err();
    linked(&mut svc, &asha, "AMAZONPAY").await;
    let zero = add_money(&mut svc, &asha, "AMAZONPAY", 0)
        .await
        .unwrap_err();
    let negative = add_money(&mut svc, &asha, "AMAZONPAY", -500)
        .await
        .unwrap_err();
    let too_much = add_money(&mut svc, &asha, "AMAZONPAY", MAX_ADD_MONEY_PAISE + 1)
        .await
        .unwrap_err();
    let the_most = add_money(&mut svc, &asha, "AMAZONPAY", MAX_ADD_MONEY_PAISE)
        .await
        .unwrap();

    assert_eq!(
        (unlinked.code(), unlinked.message()),
        (
            Code::FailedPrecondition,
            "Please link your Amazon Pay account first"
        )
    );
    assert_eq!(zero.code(), Code::InvalidArgument);
    assert_eq!(negative.code(), Code::InvalidArgument);
    assert_eq!(
        (too_much.code(), too_much.message()),
        (
            Code::InvalidArgument,
            "You can add at most ₹10,000 at a time"
        )
    );
    assert_eq!(
        the_most.balance_paise,
        SANDBOX_WALLET_START_PAISE + MAX_ADD_MONEY_PAISE
    );
}

#[tokio::test]
async fn a_provider_that_does_not_answer_reads_as_not_linked() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let asha = user(1);
    linked(&mut svc, &asha, "TIFFINPAY").await;
    svc.client
        .link_pay_later(as_caller(&asha, LinkPayLaterRequest::default()))
        .await
        .unwrap();
    svc.client
        .validate_pay_later_otp(as_caller(
            &asha,
            ValidatePayLaterOtpRequest {
                wallet_code: String::new(),
                otp: SANDBOX_OTP.into(),
            },
        ))
        .await
        .unwrap();

    svc.sandbox.set_wallets_down(true);
    let wallet = balance(&mut svc, &asha, "TIFFINPAY").await.unwrap();
    let pay_later = check_pay_later(&mut svc, &asha).await;
    let listed = linked_wallets(&mut svc, &asha).await;
    let top_up = add_money(&mut svc, &asha, "TIFFINPAY", 100)
        .await
        .unwrap_err();
    let new_link = link(&mut svc, &asha, "PAYTM").await.unwrap_err();
    svc.sandbox.set_wallets_down(false);
    let back = balance(&mut svc, &asha, "TIFFINPAY").await.unwrap();

    assert_eq!((wallet.linked, wallet.balance_paise), (false, 0));
    assert_eq!(
        (pay_later.linked, pay_later.available_limit_paise),
        (false, 0)
    );
    assert_eq!(listed.len(), 1);
    assert!(!listed[0].linked);
    // Actions cannot fall back: the customer is told to try again.
    assert_eq!(top_up.code(), Code::Unavailable);
    assert_eq!(
        new_link.message(),
        "We could not reach Paytm. Please try again in a moment"
    );
    assert!(back.linked, "the link was kept through the outage");
}

async fn check_pay_later(svc: &mut Payments, caller: &Caller) -> PayLater {
    svc.client
        .check_pay_later_linked(as_caller(caller, CheckPayLaterLinkedRequest {}))
        .await
        .unwrap()
        .into_inner()
        .pay_later
        .expect("pay-later")
}

#[tokio::test]
async fn pay_later_links_with_a_resent_otp_and_delinks_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);

        let before = check_pay_later(&mut svc, &asha).await;
        let resend_too_early = svc
            .client
            .resend_pay_later_otp(as_caller(&asha, ResendPayLaterOtpRequest::default()))
            .await
            .unwrap_err();
        let started = svc
            .client
            .link_pay_later(as_caller(
                &asha,
                LinkPayLaterRequest {
                    wallet_code: "LAZYPAY".into(),
                },
            ))
            .await
            .unwrap()
            .into_inner();
        let resent = svc
            .client
            .resend_pay_later_otp(as_caller(&asha, ResendPayLaterOtpRequest::default()))
            .await
            .unwrap()
            .into_inner();
        let validated = svc
            .client
            .validate_pay_later_otp(as_caller(
                &asha,
                ValidatePayLaterOtpRequest {
                    wallet_code: "lazypay".into(),
                    otp: SANDBOX_OTP.into(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .pay_later
            .unwrap();
        let now = check_pay_later(&mut svc, &asha).await;
        let simpl = svc
            .client
            .link_pay_later(as_caller(
                &asha,
                LinkPayLaterRequest {
                    wallet_code: "simpl".into(),
                },
            ))
            .await
            .unwrap_err();
        svc.client
            .delink_pay_later(as_caller(&asha, DelinkPayLaterRequest::default()))
            .await
            .unwrap();
        let after = check_pay_later(&mut svc, &asha).await;

        assert_eq!(
            (before.wallet_code.as_str(), before.linked),
            ("lazypay", false),
            "{}",
            db.url
        );
        assert_eq!(resend_too_early.code(), Code::FailedPrecondition);
        assert!(started.otp_sent);
        assert!(resent.otp_sent);
        assert!(validated.linked);
        assert_eq!(validated.name, "LazyPay");
        assert_eq!(now.available_limit_paise, SANDBOX_PAY_LATER_LIMIT_PAISE);
        assert_eq!(simpl.code(), Code::InvalidArgument);
        assert!(!after.linked);
        // Pay-later is not a wallet.
        assert!(linked_wallets(&mut svc, &asha).await.is_empty());
    }
}

#[tokio::test]
async fn a_link_is_its_owners_alone() {
    let db = testing::sqlite();
    let mut svc = helpers::start(&db.url).await;
    let (asha, bilal) = (user(1), user(2));
    linked(&mut svc, &asha, "PAYTM").await;
    link(&mut svc, &asha, "MOBIKWIK").await.unwrap();

    let bilal_sees = balance(&mut svc, &bilal, "PAYTM").await.unwrap();
    let bilal_lists = linked_wallets(&mut svc, &bilal).await;
    let bilal_tops_up = add_money(&mut svc, &bilal, "PAYTM", 100).await.unwrap_err();
    // Asha's pending OTP is not Bilal's to use.
    let bilal_validates = validate(&mut svc, &bilal, "MOBIKWIK", SANDBOX_OTP)
        .await
        .unwrap_err();
    delink(&mut svc, &bilal, "PAYTM").await.unwrap();
    let asha_still = balance(&mut svc, &asha, "PAYTM").await.unwrap();

    assert!(!bilal_sees.linked);
    assert!(bilal_lists.is_empty());
    assert_eq!(bilal_tops_up.code(), Code::FailedPrecondition);
    assert_eq!(bilal_validates.code(), Code::FailedPrecondition);
    assert!(asha_still.linked);
}

#[tokio::test]
async fn every_wallet_pay_later_and_saved_vpa_call_needs_a_signed_in_caller() {
    let db = testing::sqlite();
    let svc = helpers::start(&db.url).await;
    let c = || svc.client.clone();
    let code = || "PAYTM".to_string();

    let refusals = [
        c().check_wallet_balance(CheckWalletBalanceRequest {
            wallet_code: code(),
        })
        .await
        .map(drop),
        c().link_wallet(LinkWalletRequest {
            wallet_code: code(),
        })
        .await
        .map(drop),
        c().validate_wallet_otp(ValidateWalletOtpRequest {
            wallet_code: code(),
            otp: SANDBOX_OTP.into(),
        })
        .await
        .map(drop),
        c().add_wallet_money(AddWalletMoneyRequest {
            wallet_code: code(),
            amount_paise: 100,
            idempotency_key: "k1".into(),
            payment: Some(crate::topup_payments::paid_by_card()),
        })
        .await
        .map(drop),
        c().delink_wallet(DelinkWalletRequest {
            wallet_code: code(),
        })
        .await
        .map(drop),
        c().list_linked_wallets(ListLinkedWalletsRequest {})
            .await
            .map(drop),
        c().check_pay_later_linked(CheckPayLaterLinkedRequest {})
            .await
            .map(drop),
        c().link_pay_later(LinkPayLaterRequest::default())
            .await
            .map(drop),
        c().validate_pay_later_otp(ValidatePayLaterOtpRequest::default())
            .await
            .map(drop),
        c().resend_pay_later_otp(ResendPayLaterOtpRequest::default())
            .await
            .map(drop),
        c().delink_pay_later(DelinkPayLaterRequest::default())
            .await
            .map(drop),
        c().list_saved_vpas(ListSavedVpasRequest {}).await.map(drop),
        c().delete_saved_vpa(DeleteSavedVpaRequest {
            vpa_id: "vpa_x".into(),
            vpa_address: String::new(),
        })
        .await
        .map(drop),
    ];

    for (i, refused) in refusals.into_iter().enumerate() {
        assert_eq!(
            refused.map_err(|s| s.code()),
            Err(Code::Unauthenticated),
            "call {i}"
        );
    }
}

/// Five wrong linking OTPs lock linking that account as sign-in locks its codes: the right OTP is
/// refused after them, so is a new OTP, and delinking does not lift the lock; once the lock is
/// over, Resend OTP sends a new one that links. Pay-later is counted the same way.
#[tokio::test]
async fn five_wrong_otps_lock_linking_until_the_lock_is_over_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        link(&mut svc, &asha, "PAYTM").await.unwrap();

        let mut wrong = Vec::new();
        for guess in ["111111", "222222", "333333", "444444", "555555"] {
            wrong.push(validate(&mut svc, &asha, "PAYTM", guess).await.unwrap_err());
        }
        let right_after = validate(&mut svc, &asha, "PAYTM", SANDBOX_OTP)
            .await
            .unwrap_err();
        let new_otp = link(&mut svc, &asha, "PAYTM").await.unwrap_err();
        delink(&mut svc, &asha, "PAYTM").await.unwrap();
        let after_delink = link(&mut svc, &asha, "PAYTM").await.unwrap_err();
        let other_wallet = link(&mut svc, &asha, "PHONEPE").await;

        for w in &wrong[..4] {
            assert_eq!(
                (w.code(), w.message()),
                (Code::InvalidArgument, "The OTP you entered is incorrect"),
                "{}",
                db.url
            );
        }
        for locked in [&wrong[4], &right_after, &new_otp, &after_delink] {
            assert_eq!(
                (locked.code(), locked.message()),
                (
                    Code::ResourceExhausted,
                    "Too many attempts. Please try again in 15 minutes."
                ),
                "{}",
                db.url
            );
            assert_eq!(tiffin_platform::status::spec_code(locked), Some(429));
        }
        assert!(!balance(&mut svc, &asha, "PAYTM").await.unwrap().linked);
        assert!(other_wallet.is_ok(), "another wallet's linking is its own");

        // The lock's time passes.
        sqlx::query("UPDATE linked_wallets SET otp_locked_until_ms = 1 WHERE user_id = 1")
            .execute(&svc.pool)
            .await
            .unwrap();
        let (otp_sent, _) = link(&mut svc, &asha, "PAYTM").await.unwrap();
        assert!(otp_sent);
        let one_wrong = validate(&mut svc, &asha, "PAYTM", "999999")
            .await
            .unwrap_err();
        let linked = validate(&mut svc, &asha, "PAYTM", SANDBOX_OTP)
            .await
            .unwrap();
        assert_eq!(one_wrong.code(), Code::InvalidArgument, "a fresh count");
        assert!(linked.linked, "{}", db.url);

        // Pay-later's OTP is counted the same way.
        svc.client
            .link_pay_later(as_caller(
                &asha,
                LinkPayLaterRequest {
                    wallet_code: "lazypay".into(),
                },
            ))
            .await
            .unwrap();
        let mut last = None;
        for _ in 0..5 {
            last = svc
                .client
                .validate_pay_later_otp(as_caller(
                    &asha,
                    ValidatePayLaterOtpRequest {
                        wallet_code: "lazypay".into(),
                        otp: "000000".into(),
                    },
                ))
                .await
                .err();
        }
        let right = svc
            .client
            .validate_pay_later_otp(as_caller(
                &asha,
                ValidatePayLaterOtpRequest {
                    wallet_code: "lazypay".into(),
                    otp: SANDBOX_OTP.into(),
                },
            ))
            .await
            .unwrap_err();
        assert_eq!(last.map(|s| s.code()), Some(Code::ResourceExhausted));
        assert_eq!(right.code(), Code::ResourceExhausted);
        assert!(!check_pay_later(&mut svc, &asha).await.linked);
        // After the lock, Resend OTP sends a new one, which links.
        sqlx::query("UPDATE linked_wallets SET otp_locked_until_ms = 1 WHERE user_id = 1")
            .execute(&svc.pool)
            .await
            .unwrap();
        svc.client
            .resend_pay_later_otp(as_caller(&asha, ResendPayLaterOtpRequest::default()))
            .await
            .unwrap();
        svc.client
            .validate_pay_later_otp(as_caller(
                &asha,
                ValidatePayLaterOtpRequest {
                    wallet_code: "lazypay".into(),
                    otp: SANDBOX_OTP.into(),
                },
            ))
            .await
            .unwrap();
        assert!(check_pay_later(&mut svc, &asha).await.linked, "{}", db.url);
    }
}
