//! Recovery serves every customer in turn: one customer's attempts left open by the thousand (bank
//! pages left open) cannot keep another customer's charged payment from confirming its order, and
//! one customer cannot open attempts without bound. Recovery rounds are driven here at chosen
//! times, as the service would run them every 3 s; the minute is the schedule's, not the wall's.

use std::time::Duration;

use tiffin_platform::db::testing;
use tiffin_proto::payments::v1::{AuthenticatePaymentRequest, BankDecision};
use tonic::Code;

use crate::helpers::*;

const CAROL: u64 = 303;
/// The service's recovery interval.
const ROUND_SECS: i64 = 3;

fn unix_now() -> i64 {
    i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs(),
    )
    .expect("fits")
}

#[tokio::test]
async fn a_thousand_abandoned_attempts_of_one_customer_leave_others_confirmed_within_a_minute_on_every_engine()
 {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, |s| {
            // Only the rounds below run; the limit on open attempts is lifted to show the
            // schedule alone is fair.
            s.recovery_interval = Duration::from_secs(3_600);
            s.open_attempts_limit = 10_000;
        })
        .await;
        // Bilal pays by UPI and closes the tab before the approval arrives.
        let bilal = place(
            &w.url,
            BILAL,
            place_request("b-1", biryanis(), upi("success@tiffin")),
        )
        .await
        .expect("placed")
        .order
        .expect("an order");
        // Asha opens the bank page a thousand times, each with a new key, and leaves each open.
        for i in 0..1_000 {
            place(
                &w.url,
                ASHA,
                place_request(&format!("a-{i}"), biryanis(), netbanking("HDFC")),
            )
            .await
            .expect("a bank page");
        }
        // Carol's UPI payment comes after all of them.
        let carol = place(
            &w.url,
            CAROL,
            place_request("c-1", biryanis(), upi("success@tiffin")),
        )
        .await
        .expect("placed")
        .order
        .expect("an order");
        assert_eq!(bilal.order_status, "AWAITING_PAYMENT");
        assert_eq!(carol.order_status, "AWAITING_PAYMENT");
        tokio::time::sleep(UPI_SETTLES_AFTER).await;

        let start = unix_now();
        let mut confirmed_after = [None, None];
        let mut round = 0;
        while round * ROUND_SECS <= 60 && confirmed_after.iter().any(Option::is_none) {
            w.settlement
                .recover_once_at(start + round * ROUND_SECS)
                .await
                .expect("a round");
            for (at, (user, order_id)) in confirmed_after
                .iter_mut()
                .zip([(BILAL, bilal.order_id), (CAROL, carol.order_id)])
            {
                if at.is_none()
                    && get_order(&w.url, user, order_id)
                        .await
                        .unwrap()
                        .order_status
                        != "AWAITING_PAYMENT"
                {
                    *at = Some(round * ROUND_SECS);
                }
            }
            round += 1;
        }

        assert!(
            confirmed_after.iter().all(Option::is_some),
            "confirmed after (s): {confirmed_after:?} on {:?}",
            db.engine
        );
        for (user, order_id) in [(BILAL, bilal.order_id), (CAROL, carol.order_id)] {
            let order = get_order(&w.url, user, order_id).await.unwrap();
            assert_eq!(order.order_status, "PLACED", "{:?}", db.engine);
            assert_eq!(order.payment_method, "upi_collect");
        }
    }
}

#[tokio::test]
async fn a_customer_with_five_payments_pending_is_told_to_finish_one_first_on_every_engine() {
    for db in testing::all().await {
        let w = world_with(&db.url, neighbours().await, |s| {
            s.recovery_interval = Duration::from_secs(3_600);
        })
        .await;
        let mut pending = Vec::new();
        for i in 0..5 {
            let placed = place(
                &w.url,
                ASHA,
                place_request(&format!("a-{i}"), biryanis(), netbanking("HDFC")),
            )
            .await
            .expect("a bank page");
            pending.push(placed.payment.expect("a payment").payment_id);
        }

        let sixth = place(
            &w.url,
            ASHA,
            place_request("a-5", biryanis(), netbanking("HDFC")),
        )
        .await
        .expect_err("too many open");
        // Bilal is not held back by Asha's.
        place(
            &w.url,
            BILAL,
            place_request("b-1", biryanis(), netbanking("HDFC")),
        )
        .await
        .expect("his own first payment");
        // Asha cancels one on the bank page: the next one goes through.
        let mut payments = w.payments.clone();
        payments
            .authenticate_payment(as_user(
                ASHA,
                AuthenticatePaymentRequest {
                    payment_id: pending[0].clone(),
                    action: Some(
                        tiffin_proto::payments::v1::authenticate_payment_request::Action::BankDecision(
                            BankDecision::Cancel.into(),
                        ),
                    ),
                },
            ))
            .await
            .expect("cancelled on the bank page");
        let after = place(
            &w.url,
            ASHA,
            place_request("a-6", biryanis(), netbanking("HDFC")),
        )
        .await;

        assert_eq!(sixth.code(), Code::FailedPrecondition, "{:?}", db.engine);
        assert_eq!(spec_code(&sixth), Some(1));
        assert_eq!(
            sixth.message(),
            "You have 5 payments still waiting for your bank or UPI app. Please finish or cancel \
             one of them, or try again in a few minutes."
        );
        assert!(after.is_ok(), "{after:?} on {:?}", db.engine);
    }
}

#[tokio::test]
async fn attempts_the_payments_service_never_received_do_not_hold_back_the_customers_next_order_on_every_engine()
 {
    for db in testing::all().await {
        // The payments service is down: every place leaves an attempt open with no payment behind
        // it, as an outage does.
        let down = world_with(&db.url, neighbours().await, |s| {
            s.payments_url = "http://127.0.0.1:9".into();
            s.recovery_interval = Duration::from_secs(3_600);
            s.cod_active_limit = 100;
        })
        .await;
        for i in 0..6 {
            place(
                &down.url,
                ASHA,
                place_request(&format!("down-{i}"), biryanis(), cod()),
            )
            .await
            .expect_err("payments is down");
        }
        drop(down);

        // It is back, before recovery has given those attempts up as lost.
        let w = world_with(&db.url, neighbours().await, |s| {
            s.recovery_interval = Duration::from_secs(3_600);
            s.cod_active_limit = 100;
        })
        .await;
        let next = place(&w.url, ASHA, place_request("up-1", biryanis(), cod())).await;

        assert!(
            next.is_ok(),
            "no bank or UPI app holds those attempts: {next:?} on {:?}",
            db.engine
        );
    }
}
