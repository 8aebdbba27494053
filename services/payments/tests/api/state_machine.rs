//! The persisted state machine: an illegal step is refused by storage itself, and of two
//! concurrent steps from one status exactly one is written.

use tiffin_payments::error::Error;
use tiffin_payments::status::Status;
use tiffin_payments::store::{self, Applied, Change};
use tiffin_platform::db::{Writer, testing};

use crate::helpers::{self, card, create, user};

#[tokio::test]
async fn concurrent_steps_from_one_status_write_exactly_one_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let pending = create(
            &mut svc,
            &user(1),
            "k",
            50_000,
            card("4000000000003220", "123"),
        )
        .await
        .unwrap();
        let writer = Writer::new(svc.pool.clone());
        let row = store::of_user(&svc.pool, 1, &pending.payment_id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.status, Status::PendingVbv);

        // Both read PENDING_VBV; one aborts, the other fails authentication.
        let step = async |to: Status| {
            let mut tx = writer.begin().await.unwrap();
            let applied = store::apply(&mut tx, &row, to, Change::default(), "test", 1)
                .await
                .unwrap();
            tx.commit().await.unwrap();
            applied
        };
        let (a, b) = tokio::join!(
            step(Status::UserAborted),
            step(Status::AuthenticationFailed)
        );

        let engine = db.engine;
        let mut outcomes = [a, b];
        outcomes.sort_by_key(|o| *o == Applied::Lost);
        assert_eq!(outcomes, [Applied::Yes, Applied::Lost], "{engine:?}");
        let after = store::of_user(&svc.pool, 1, &pending.payment_id)
            .await
            .unwrap()
            .unwrap();
        assert!(matches!(
            after.status,
            Status::UserAborted | Status::AuthenticationFailed
        ));
        assert_eq!(after.version, row.version + 1);
        let events = store::events(&svc.pool, &pending.payment_id).await.unwrap();
        assert_eq!(
            events.len(),
            3,
            "{engine:?}: NEW, PENDING_VBV and the one winner"
        );
        assert_eq!(events.last().unwrap().status, after.status);
    }
}

#[tokio::test]
async fn an_illegal_step_is_refused_and_nothing_is_written_on_every_engine() {
    for db in testing::all().await {
        let mut svc = helpers::start(&db.url).await;
        let charged = create(
            &mut svc,
            &user(1),
            "k",
            50_000,
            card("4111111111111111", "123"),
        )
        .await
        .unwrap();
        let writer = Writer::new(svc.pool.clone());
        let row = store::of_user(&svc.pool, 1, &charged.payment_id)
            .await
            .unwrap()
            .unwrap();

        let mut tx = writer.begin().await.unwrap();
        let refused = store::apply(
            &mut tx,
            &row,
            Status::PendingVbv,
            Change::default(),
            "go back",
            1,
        )
        .await;
        drop(tx);

        assert!(
            matches!(
                refused,
                Err(Error::WrongState {
                    status: Status::Charged,
                    ..
                })
            ),
            "{:?}: {refused:?}",
            db.engine
        );
        let after = store::of_user(&svc.pool, 1, &charged.payment_id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(after, row);
    }
}
