//! Pending payments end at their deadline: a netbanking payment whose bank page was left open
//! fails after `netbanking_expiry` (its Tiffin Money part back with it), a UPI collect nobody
//! approves after `upi_expiry`, and one approved meanwhile is charged, not expired. Rounds run at
//! chosen times; nothing waits for the real deadline.

use tiffin_payments::clock::now_ms;
use tiffin_payments::config::DEFAULT_NETBANKING_EXPIRY;
use tiffin_payments::expiry::NETBANKING_EXPIRED;
use tiffin_platform::db::testing;

use crate::helpers::{self, get, status_of, upi, user};
use crate::netbanking::netbanking;
use crate::split::{balance, fund, split};

fn ms(d: std::time::Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap()
}

#[tokio::test]
async fn pending_payments_end_at_their_deadline_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let asha = user(1);
        fund(&mut svc, &asha, 10_000).await;
        let bank = helpers::create(&mut svc, &asha, "nb", 25_000, netbanking("HDFC"))
            .await
            .unwrap();
        let split_bank = split(&mut svc, &asha, "nb-split", 25_000, netbanking("ICICI"))
            .await
            .unwrap();
        let unanswered = helpers::create(&mut svc, &asha, "upi", 25_000, upi("nobody@okaxis"))
            .await
            .unwrap();
        let approved = helpers::create(&mut svc, &asha, "upi-ok", 25_000, upi("success@tiffin"))
            .await
            .unwrap();
        assert_eq!(balance(&mut svc, &asha).await, 0, "the split took it all");
        tokio::time::sleep(helpers::SETTLE).await;

        // Before the bank's deadline (the UPI one has passed): only the UPI collects end.
        let start = now_ms();
        let early = svc
            .expiry
            .run_once(start + ms(helpers::EXPIRY) + 1_000)
            .await
            .unwrap();
        let bank_early = status_of(&get(&mut svc, &asha, &bank.payment_id).await.unwrap());
        // After it.
        let late = svc
            .expiry
            .run_once(start + ms(DEFAULT_NETBANKING_EXPIRY) + 1_000)
            .await
            .unwrap();

        assert_eq!(early, 1, "the unanswered UPI collect: {:?}", db.engine);
        assert_eq!(bank_early, "PENDING_VBV");
        assert_eq!(late, 2, "both bank pages: {:?}", db.engine);
        for payment_id in [&bank.payment_id, &split_bank.payment_id] {
            let p = get(&mut svc, &asha, payment_id).await.unwrap();
            assert_eq!(status_of(&p), "AUTHORIZATION_FAILED", "{:?}", db.engine);
            assert_eq!(p.failure_reason, NETBANKING_EXPIRED);
        }
        let p = get(&mut svc, &asha, &unanswered.payment_id).await.unwrap();
        assert_eq!(status_of(&p), "AUTHORIZATION_FAILED");
        let p = get(&mut svc, &asha, &approved.payment_id).await.unwrap();
        assert_eq!(
            status_of(&p),
            "CHARGED",
            "approved in time: {:?}",
            db.engine
        );
        assert_eq!(
            balance(&mut svc, &asha).await,
            10_000,
            "the split's Tiffin Money is back: {:?}",
            db.engine
        );
    }
}
