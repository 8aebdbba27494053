//! A deployment with no wallet or pay-later provider (`PAYMENTS_WALLETS=none`, the default outside
//! development) offers neither: ListPaymentMethods leaves their groups out, linking one is refused
//! in words, and an account linked while the sandbox ran can neither be seen nor paid from.

use tiffin_payments::config::WalletsChoice;
use tiffin_payments::sandbox::SANDBOX_OTP;
use tiffin_platform::db::testing;
use tiffin_proto::payments::v1::create_payment_request::Method;
use tiffin_proto::payments::v1::{
    LinkPayLaterRequest, LinkWalletRequest, ListLinkedWalletsRequest, ListPaymentMethodsRequest,
    ValidateWalletOtpRequest, WalletPayment,
};
use tonic::Code;

use crate::helpers::{self, as_caller, user};

#[tokio::test]
async fn without_a_provider_wallets_and_pay_later_are_not_offered_on_every_engine() {
    for db in testing::all().await {
        let engine = db.engine;
        let asha = user(7);
        // Arrange: Asha linked Paytm while the sandbox's wallets ran on this database.
        {
            let mut sandbox = helpers::start(&db.url).await;
            sandbox
                .client
                .link_wallet(as_caller(
                    &asha,
                    LinkWalletRequest {
                        wallet_code: "PAYTM".into(),
                    },
                ))
                .await
                .expect("sent");
            sandbox
                .client
                .validate_wallet_otp(as_caller(
                    &asha,
                    ValidateWalletOtpRequest {
                        wallet_code: "PAYTM".into(),
                        otp: SANDBOX_OTP.into(),
                    },
                ))
                .await
                .expect("linked");
        }
        let mut svc = helpers::start_with(
            &db.url,
            tiffin_payments::config::PaymentsConfig {
                wallets: WalletsChoice::None,
                ..helpers::test_config()
            },
        )
        .await;

        // Act and assert: checkout is not offered them.
        let groups: Vec<String> = svc
            .client
            .list_payment_methods(ListPaymentMethodsRequest {})
            .await
            .expect("answers")
            .into_inner()
            .groups
            .into_iter()
            .map(|g| g.group_name)
            .collect();
        assert!(
            !groups.iter().any(|g| g == "WALLET" || g == "PAY_LATER"),
            "{engine:?}: {groups:?}"
        );
        assert!(groups.iter().any(|g| g == "CARD"), "{engine:?}: {groups:?}");

        // Linking is refused in words, for a wallet and for pay-later.
        let refused = svc
            .client
            .link_wallet(as_caller(
                &asha,
                LinkWalletRequest {
                    wallet_code: "PHONEPE".into(),
                },
            ))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::FailedPrecondition, "{engine:?}");
        assert_eq!(
            refused.message(),
            "PhonePe is not offered right now. Please choose another way to pay"
        );
        let refused = svc
            .client
            .link_pay_later(as_caller(
                &asha,
                LinkPayLaterRequest {
                    wallet_code: String::new(),
                },
            ))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::FailedPrecondition, "{engine:?}");
        assert!(refused.message().contains("LazyPay"), "{engine:?}");

        // The account linked before is not shown, and cannot pay.
        let linked = svc
            .client
            .list_linked_wallets(as_caller(&asha, ListLinkedWalletsRequest {}))
            .await
            .expect("answers")
            .into_inner()
            .wallets;
        assert!(linked.is_empty(), "{engine:?}: {linked:?}");
        let creates_before = svc.sandbox.creates();
        let refused = helpers::create(
            &mut svc,
            &asha,
            "pay-from-paytm",
            10_000,
            Method::Wallet(WalletPayment {
                wallet_code: "PAYTM".into(),
            }),
        )
        .await
        .unwrap_err();
        assert_eq!(refused.code(), Code::FailedPrecondition, "{engine:?}");
        assert!(refused.message().contains("Paytm"), "{engine:?}");
        assert_eq!(helpers::count(&svc.pool, "payments").await, 0, "{engine:?}");
        assert_eq!(svc.sandbox.creates(), creates_before, "{engine:?}");
    }
}
