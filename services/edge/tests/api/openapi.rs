//! The HTTP contract's OpenAPI document: served at `GET /api/openapi.json` as plain JSON, naming
//! every `/api` route the router serves, and equal to the committed `docs/openapi.json`.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::helpers::spawn_app;
use crate::payments::signed_in;

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
    // The cart's envelope, or a refusal's (`allow_refusals`).
    let reply = &doc["paths"]["/api/cart"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"]["anyOf"][0]["$ref"];
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

/// A service's refusal is answered with HTTP 200, its own `statusCode` and `data: null` on any
/// route (here: topping up a wallet that was never linked); the document the edge serves allows that
/// reply for the route's 200, as it must for a generated client to read it.
#[tokio::test]
async fn a_refusal_answered_with_200_is_a_reply_the_document_allows() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let (client, _) = signed_in(&app, "9800000301", "Asha").await;

    let refused = app
        .api_post_as(
            &client,
            "payment/wallet/add-money",
            json!({ "walletCode": "PAYTM", "amount": 10_000, "idempotency_key": "topup-1" }),
        )
        .await;

    assert_eq!(
        (refused.status, refused.data()),
        (200, &Value::Null),
        "{:?}",
        refused.body
    );
    assert_eq!(refused.outcome().2, "Please link your Paytm account first");
    assert_ne!(refused.outcome().1, 0, "a refusal, not a success");
    let schema = &doc["paths"]["/api/payment/wallet/add-money"]["post"]["responses"]["200"]["content"]
        ["application/json"]["schema"];
    assert_eq!(
        violations(&doc, schema, &refused.body),
        Vec::<String>::new(),
        "{:?}",
        refused.body
    );
    // And a success still has to be the route's own reply: a failure's shape does not pass for it.
    let cities = app.api_get("misc/cities").await;
    let schema = &doc["paths"]["/api/misc/cities"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"];
    assert_eq!(violations(&doc, schema, &cities.body), Vec::<String>::new());
    let mut wrong = cities.body.clone();
    wrong["data"]["cities"] = json!("Bangalore");
    assert_ne!(violations(&doc, schema, &wrong), Vec::<String>::new());
}

/// What in `value` the JSON Schema `schema` of `doc` does not allow (empty: it conforms), for the
/// keywords the edge's document uses: `$ref` to its components, `anyOf`, `oneOf`, `type`, `enum`,
/// `properties`, `required`, `items`, `additionalProperties`. A small stand-in for the
/// response-schema check of the schema tests (scripts/schemathesis.sh), for one reply in a test.
fn violations(doc: &Value, schema: &Value, value: &Value) -> Vec<String> {
    let mut found = Vec::new();
    check(doc, schema, value, "$", &mut found);
    found
}

fn check(doc: &Value, schema: &Value, value: &Value, at: &str, found: &mut Vec<String>) {
    if let Some(target) = schema["$ref"].as_str() {
        let name = target
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("a $ref outside components.schemas: {target}"));
        check(doc, &doc["components"]["schemas"][name], value, at, found);
    }
    for (keyword, at_most_one) in [("anyOf", false), ("oneOf", true)] {
        if let Some(alternatives) = schema[keyword].as_array() {
            let passing = alternatives
                .iter()
                .filter(|alternative| violations(doc, alternative, value).is_empty())
                .count();
            if passing == 0 || (at_most_one && passing > 1) {
                found.push(format!(
                    "{at}: {passing} of the {keyword} alternatives match"
                ));
            }
        }
    }
    if let Some(types) = schema.get("type") {
        let types: Vec<&str> = match types {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            other => panic!("{at}: type {other}"),
        };
        let is = |t: &str| match t {
            "null" => value.is_null(),
            "boolean" => value.is_boolean(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "string" => value.is_string(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            other => panic!("{at}: unknown type {other}"),
        };
        if !types.iter().any(|t| is(t)) {
            found.push(format!("{at}: {value} is not {types:?}"));
        }
    }
    if let Some(allowed) = schema["enum"].as_array()
        && !allowed.contains(value)
    {
        found.push(format!("{at}: {value} is not one of {allowed:?}"));
    }
    if let Some(object) = value.as_object() {
        for name in schema["required"].as_array().into_iter().flatten() {
            let name = name.as_str().unwrap();
            if !object.contains_key(name) {
                found.push(format!("{at}: {name} is missing"));
            }
        }
        for (name, field) in object {
            let field_at = format!("{at}.{name}");
            match schema["properties"].get(name) {
                Some(property) => check(doc, property, field, &field_at, found),
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => found.push(format!("{field_at} is not allowed")),
                    Some(extra @ Value::Object(_)) => check(doc, extra, field, &field_at, found),
                    _ => {}
                },
            }
        }
    }
    if let (Some(items), Some(schema)) = (value.as_array(), schema.get("items")) {
        for (i, item) in items.iter().enumerate() {
            check(doc, schema, item, &format!("{at}[{i}]"), found);
        }
    }
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
