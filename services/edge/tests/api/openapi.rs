//! The HTTP contract's OpenAPI document: served at `GET /api/openapi.json` as plain JSON, naming
//! every `/api` route the router serves, and equal to the committed `docs/openapi.json`.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::helpers::spawn_app;

/// The committed document, from the repository root.
const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");

#[tokio::test]
async fn the_document_is_plain_json_for_anyone_and_never_enveloped() {
    let app = spawn_app().await;

    let response = app.get("/api/openapi.json").await;

    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(headers["cache-control"], "no-cache");
    assert!(
        headers.get("set-cookie").is_none(),
        "no session for the document"
    );
    let doc: Value = response.json().await.unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert!(
        doc.get("statusCode").is_none(),
        "not wrapped in the envelope"
    );
}

/// Every path and method of the document the edge serves, answered by the edge itself: the router
/// and the document come from the same `#[utoipa::path]` registrations (`app::api_routes`), so
/// this proves no described route is missing from the router and the document lists the router's.
#[tokio::test]
async fn every_route_in_the_served_document_is_routed_and_every_api_route_is_in_it() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let unrouted = app.api_get("no/such/route").await;
    assert_eq!(unrouted.outcome(), (404, 404, "There's nothing here"));

    let mut seen = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let api = path
            .strip_prefix("/api/")
            .expect("every path is under /api");
        for method in item.as_object().unwrap().keys() {
            seen.insert(format!("{method} {path}"));
            if api == "openapi.json" {
                continue;
            }
            let reply = match method.as_str() {
                "get" => app.api_get(api).await,
                "post" => app.api_post(api, json!({})).await,
                other => panic!("{other} {path}: the edge serves only GET and POST"),
            };
            assert_ne!(
                reply.outcome(),
                unrouted.outcome(),
                "{method} {path} is described but not routed"
            );
            assert_ne!(reply.status, 405, "{method} {path}: method not routed");
        }
    }
    // The document the edge serves is the one it builds from its router (dev routes on here).
    let built = serde_json::to_value(tiffin_edge::app::openapi(true)).unwrap();
    let built: BTreeSet<String> = built["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |m| format!("{m} {path}"))
        })
        .collect();
    assert_eq!(seen, built);
    for known in [
        "get /api/cart",
        "post /api/cart",
        "get /api/menu/pl",
        "get /api/restaurants/list/v5",
        "post /api/auth/verify-otp",
        "get /api/dev/sms",
        "get /api/openapi.json",
    ] {
        assert!(seen.contains(known), "{known} missing from the document");
    }
}

#[tokio::test]
async fn the_cart_schema_has_the_fields_the_web_reads() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();

    let cart = &doc["components"]["schemas"]["Cart"];
    let required: BTreeSet<&str> = cart["required"]
        .as_array()
        .expect("the cart's fields are always sent")
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    for field in [
        "cartId",
        "restaurant_details",
        "cartItems",
        "cartItemsCount",
        "item_total",
        "bill",
        "coupons",
        "best_coupon",
        "cutlerySelection",
        "addresses",
        "serviceable",
    ] {
        assert!(required.contains(field), "Cart lacks {field}");
    }
    assert_eq!(
        cart["properties"]["item_total"]["type"], "integer",
        "money is integer paise"
    );
    let reply = &doc["paths"]["/api/cart"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"]["$ref"];
    let envelope = reply.as_str().unwrap().rsplit('/').next().unwrap();
    let envelope = &doc["components"]["schemas"][envelope];
    for field in [
        "statusCode",
        "statusMessage",
        "data",
        "tid",
        "sid",
        "deviceId",
        "csrfToken",
    ] {
        assert!(envelope["properties"].get(field).is_some(), "{field}");
    }
    assert_eq!(
        envelope["properties"]["data"]["properties"], cart["properties"],
        "the cart call's data is the Cart"
    );
}

#[test]
fn the_committed_document_is_the_generated_one() {
    let committed = std::fs::read_to_string(COMMITTED).unwrap_or_default();
    let generated = tiffin_edge::app::openapi_json();
    assert!(
        committed == generated,
        "docs/openapi.json differs from what the edge's types give: run `make contract` and commit \
         docs/openapi.json and libs/contract/src/edge-api.gen.ts"
    );
}
