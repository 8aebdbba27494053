//! ListOrders: the real service on port 0, called over gRPC, on every database engine. Orders are
//! arranged through `orders::Store`.

use tiffin_orders::orders::Store;
use tiffin_orders::{Application, MIGRATOR, Settings};
use tiffin_platform::db::testing;
use tiffin_platform::identity::Caller;
use tiffin_platform::service::testing::signed_client;
use tiffin_platform::service::testing::{self as service, Stop};
use tiffin_proto::orders::v1::{
    ListOrdersRequest, ListOrdersResponse, Order, orders_service_client::OrdersServiceClient,
};

const ASHA: u64 = 101;
const BILAL: u64 = 202;

async fn spawn(database_url: &str) -> (String, Stop) {
    // Nothing here places orders: the payments and cart services are never called.
    let settings = Settings::new(
        service::settings(database_url),
        "http://127.0.0.1:9".into(),
        "http://127.0.0.1:9".into(),
    );
    let app = Application::build(settings).await.expect("service starts");
    service::spawn(app.port(), |stopped| app.run_until_stopped(stopped))
}

async fn store(database_url: &str) -> Store {
    Store::new(
        tiffin_platform::db::connect(database_url, &MIGRATOR)
            .await
            .expect("opens the database"),
    )
}

fn order(order_id: u64, order_time: i64) -> Order {
    Order {
        order_id,
        order_status: "DELIVERED".into(),
        restaurant_id: 1042,
        restaurant_name: "Meghana Biryani House".into(),
        order_total_paise: 55_800,
        order_time,
        ..Order::default()
    }
}

/// Calls ListOrders the way the edge does: the signed-in user, if any, in metadata only.
async fn list_orders(
    url: &str,
    user: Option<u64>,
    request: ListOrdersRequest,
) -> Result<ListOrdersResponse, tonic::Status> {
    let mut client = signed_client(OrdersServiceClient::new, url.to_string())
        .await
        .expect("connects");
    let mut request = tonic::Request::new(request);
    Caller {
        user_id: user,
        session_id: Some("s-test".into()),
    }
    .write_to(request.metadata_mut(), "edge");
    client
        .list_orders(request)
        .await
        .map(tonic::Response::into_inner)
}

fn ids(reply: &ListOrdersResponse) -> Vec<u64> {
    reply.orders.iter().map(|o| o.order_id).collect()
}

#[tokio::test]
async fn a_visitor_who_is_not_logged_in_is_asked_to_log_in_on_every_engine() {
    for db in testing::all().await {
        let (url, _stop) = spawn(&db.url).await;
        store(&db.url)
            .await
            .insert(ASHA, &order(1, 1_700_000_000))
            .await
            .expect("arranged");

        let status = list_orders(&url, None, ListOrdersRequest::default())
            .await
            .expect_err("refused");

        assert_eq!(
            status.code(),
            tonic::Code::Unauthenticated,
            "engine {:?}",
            db.engine
        );
        assert_eq!(
            status.message(),
            "Please login to continue.",
            "engine {:?}",
            db.engine
        );
    }
}

#[tokio::test]
async fn a_customer_sees_only_their_own_orders_newest_first_on_every_engine() {
    for db in testing::all().await {
        // Arrange
        let (url, _stop) = spawn(&db.url).await;
        let store = store(&db.url).await;
        store.insert(ASHA, &order(11, 1_700_000_100)).await.unwrap();
        store
            .insert(BILAL, &order(21, 1_700_000_150))
            .await
            .unwrap();
        store.insert(ASHA, &order(12, 1_700_000_200)).await.unwrap();

        // Act
        let asha = list_orders(&url, Some(ASHA), ListOrdersRequest::default())
            .await
            .expect("answers");
        let bilal = list_orders(&url, Some(BILAL), ListOrdersRequest::default())
            .await
            .expect("answers");
        let newcomer = list_orders(&url, Some(303), ListOrdersRequest::default())
            .await
            .expect("answers");

        // Assert
        let engine = db.engine;
        assert_eq!(ids(&asha), [12, 11], "engine {engine:?}");
        assert_eq!(asha.total_orders, 2, "engine {engine:?}");
        assert_eq!(ids(&bilal), [21], "engine {engine:?}");
        assert_eq!(bilal.total_orders, 1, "engine {engine:?}");
        assert_eq!(
            bilal.orders[0],
            order(21, 1_700_000_150),
            "every field round-trips, engine {engine:?}"
        );
        assert!(
            newcomer.orders.is_empty() && newcomer.total_orders == 0,
            "engine {engine:?}"
        );
    }
}

#[tokio::test]
async fn another_customers_order_id_is_no_cursor_on_every_engine() {
    for db in testing::all().await {
        let (url, _stop) = spawn(&db.url).await;
        let store = store(&db.url).await;
        store.insert(ASHA, &order(11, 1_700_000_100)).await.unwrap();
        store
            .insert(BILAL, &order(21, 1_700_000_150))
            .await
            .unwrap();

        // Bilal pages from Asha's order id; he must learn nothing about it, as for a made-up id.
        let theirs = ListOrdersRequest {
            before_order_id: Some(11),
            limit: 0,
        };
        let made_up = ListOrdersRequest {
            before_order_id: Some(999),
            limit: 0,
        };
        let theirs = list_orders(&url, Some(BILAL), theirs)
            .await
            .expect_err("refused");
        let made_up = list_orders(&url, Some(BILAL), made_up)
            .await
            .expect_err("refused");

        assert_eq!(
            theirs.code(),
            tonic::Code::InvalidArgument,
            "engine {:?}",
            db.engine
        );
        assert_eq!(
            (theirs.code(), theirs.message()),
            (made_up.code(), made_up.message()),
            "engine {:?}",
            db.engine
        );
    }
}

#[tokio::test]
async fn pages_through_every_order_once_newest_first_on_every_engine() {
    for db in testing::all().await {
        // Arrange: 60 orders, two placed in each second, ids not in time order, so paging must
        // follow time and break ties by id.
        let (url, _stop) = spawn(&db.url).await;
        let store = store(&db.url).await;
        let mut placed: Vec<(i64, u64)> = (0..60u64)
            .map(|i| (1_700_000_000 + (i / 2) as i64, 1 + (i * 37) % 61))
            .collect();
        for &(time, id) in &placed {
            store.insert(ASHA, &order(id, time)).await.unwrap();
        }
        store
            .insert(BILAL, &order(500, 1_700_000_010))
            .await
            .unwrap();
        placed.sort_by(|a, b| b.cmp(a));
        let newest_first: Vec<u64> = placed.iter().map(|&(_, id)| id).collect();

        // Act: the default page size, following before_order_id until a short page.
        let mut seen = Vec::new();
        let mut sizes = Vec::new();
        let mut before = None;
        loop {
            let reply = list_orders(
                &url,
                Some(ASHA),
                ListOrdersRequest {
                    before_order_id: before,
                    limit: 0,
                },
            )
            .await
            .expect("answers");
            assert_eq!(reply.total_orders, 60, "engine {:?}", db.engine);
            sizes.push(reply.orders.len());
            seen.extend(ids(&reply));
            match reply.orders.last() {
                Some(last) if reply.orders.len() == 10 => before = Some(last.order_id),
                _ => break,
            }
        }
        let capped = list_orders(
            &url,
            Some(ASHA),
            ListOrdersRequest {
                before_order_id: None,
                limit: 1000,
            },
        )
        .await
        .expect("answers");

        // Assert
        let engine = db.engine;
        assert_eq!(seen, newest_first, "engine {engine:?}");
        assert_eq!(sizes, [10, 10, 10, 10, 10, 10, 0], "engine {engine:?}");
        assert_eq!(
            ids(&capped),
            newest_first[..50],
            "at most 50 per page, engine {engine:?}"
        );
    }
}

#[tokio::test]
async fn reports_serving_health_and_migrates_twice_without_harm() {
    let db = testing::sqlite();
    let (url, _stop) = spawn(&db.url).await;
    let (_url2, _stop2) = spawn(&db.url).await;

    let serving = service::is_serving(&url, "tiffin.orders.v1.OrdersService").await;

    assert!(serving);
}
