//! The whole storefront as `make run` starts it (the launcher and one process per service), with
//! an OTLP receiver standing in for the collector. One storefront request must come back as one
//! trace spanning the edge and several services, and the services' logs must carry its id.
//! Ctrl-C (here SIGTERM) must then stop everything.
//!
//! Needs every binary built first (`cargo build --workspace --bins`; `make test` does it).

use std::collections::BTreeSet;
use std::net::TcpListener;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

/// Every span received, as (service.name, trace id hex, span name).
#[derive(Clone, Default)]
struct Receiver(Arc<Mutex<Vec<(String, String, String)>>>);

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let mut spans = self.0.lock().unwrap();
        for rs in request.into_inner().resource_spans {
            let service = rs
                .resource
                .iter()
                .flat_map(|r| r.attributes.iter())
                .find(|kv| kv.key == "service.name")
                .and_then(|kv| kv.value.as_ref()?.value.as_ref())
                .map(|v| match v {
                    AnyValue::StringValue(s) => s.clone(),
                    other => format!("{other:?}"),
                })
                .unwrap_or_default();
            for ss in rs.scope_spans {
                for span in ss.spans {
                    let trace: String = span.trace_id.iter().map(|b| format!("{b:02x}")).collect();
                    spans.push((service.clone(), trace, span.name));
                }
            }
        }
        Ok(tonic::Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Nine consecutive free ports: the services', then the edge's admin port.
fn free_port_range() -> u16 {
    for _ in 0..200 {
        let base = free_port();
        if base > 65000 {
            continue;
        }
        // The eight services and the edge's admin port after them.
        let held: Vec<_> = (0..9)
            .filter_map(|i| TcpListener::bind(("127.0.0.1", base + i)).ok())
            .collect();
        if held.len() == 9 {
            return base;
        }
    }
    panic!("no free port range");
}

#[tokio::test(flavor = "multi_thread")]
async fn one_request_is_one_trace_across_the_edge_and_services_and_ctrl_c_stops_everything() {
    // Arrange: a collector, then the storefront exporting to it.
    let receiver = Receiver::default();
    let collector = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let collector_port = collector.local_addr().unwrap().port();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(TraceServiceServer::new(receiver.clone()))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(collector)),
    );

    let launcher = env!("CARGO_BIN_EXE_tiffin");
    let bin_dir = std::path::Path::new(launcher).parent().unwrap();
    for binary in [
        "tiffin-edge",
        "tiffin-cart",
        "tiffin-menu",
        "tiffin-catalog",
    ] {
        assert!(
            bin_dir.join(binary).exists(),
            "{binary} is not built: run `cargo build --workspace --bins` first"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let grpc_base = free_port_range();
    let admin_port = grpc_base + 8;
    let mut storefront = tokio::process::Command::new(launcher)
        .env("PORT", port.to_string())
        .env("GRPC_BASE_PORT", grpc_base.to_string())
        .env("EDGE_ADMIN_PORT", admin_port.to_string())
        .env("DATA_DIR", dir.path().join("data"))
        .env("STATIC_DIR", dir.path().join("web"))
        .env("CATALOG_RESTAURANTS_PER_CITY", "4")
        .env(
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            format!("http://127.0.0.1:{collector_port}"),
        )
        .env("OTEL_BSP_SCHEDULE_DELAY", "100")
        .env_remove("DATABASE_URL")
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("launcher starts");
    let logs = Arc::new(Mutex::new(Vec::<String>::new()));
    {
        let logs = logs.clone();
        let mut lines = BufReader::new(storefront.stdout.take().unwrap()).lines();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                logs.lock().unwrap().push(line);
            }
        });
    }
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::builder()
        .cookie_store(true)
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let mut ready = false;
    for _ in 0..600 {
        if http
            // Every service up, as the edge's admin listener sees them.
            .get(format!("http://127.0.0.1:{admin_port}/upstreams"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(
        ready,
        "the storefront never became ready; logs:\n{}",
        logs.lock().unwrap().join("\n")
    );

    let listing: Value = http
        .get(format!(
            "{base}/api/restaurants/list/v5?lat=12.9352&lng=77.6245"
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let restaurant = listing["data"]["cards"][0]["data"]["id"]
        .as_str()
        .expect("a restaurant near Koramangala")
        .to_string();
    let menu: Value = http
        .get(format!(
            "{base}/api/menu/pl?restaurantId={restaurant}&lat=12.9352&lng=77.6245"
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let csrf = menu["csrfToken"].as_str().unwrap().to_string();
    let item = menu["data"]["menu"]["items"]
        .as_object()
        .unwrap()
        .values()
        .find(|i| {
            i["inStock"] == 1
                && i["addons"].as_array().is_none_or(|a| a.is_empty())
                && i["variantsV2"]["variant_groups"]
                    .as_array()
                    .is_none_or(|v| v.is_empty())
        })
        .expect("a plain item in stock")["id"]
        .as_str()
        .unwrap()
        .to_string();

    // Act: one storefront request (add to cart), with a trace id of our choosing.
    let trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
    let reply = http
        .post(format!("{base}/api/cart"))
        .header("traceparent", format!("00-{trace_id}-00f067aa0ba902b7-01"))
        .json(&json!({ "restaurantId": restaurant, "cartItems": [{ "menu_item_id": item, "quantity": 1 }], "_csrf": csrf }))
        .send()
        .await
        .unwrap();
    assert!(
        reply.status().is_success(),
        "add to cart answered {}",
        reply.status()
    );
    let body: Value = reply.json().await.unwrap();
    assert_eq!(body["tid"], trace_id, "the envelope's tid is the trace id");

    // Assert: the trace reached the collector from the edge and at least two services.
    let mut services = BTreeSet::new();
    for _ in 0..100 {
        services = receiver
            .0
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, t, _)| t == trace_id)
            .map(|(s, _, _)| s.clone())
            .collect();
        if services.contains("tiffin-edge") && services.len() >= 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("trace {trace_id} spans services {services:?}");
    assert!(
        services.contains("tiffin-edge"),
        "no edge span in the trace: {services:?}"
    );
    assert!(
        services.len() >= 3,
        "the trace should span the edge and two services or more: {services:?}"
    );
    let logged_by: BTreeSet<String> = logs
        .lock()
        .unwrap()
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["trace_id"] == trace_id)
        .filter_map(|l| l["service"].as_str().map(str::to_string))
        .collect();
    assert!(
        logged_by.contains("tiffin-edge"),
        "the edge's logs should carry the trace id: {logged_by:?}"
    );

    // And Ctrl-C (SIGTERM from a supervisor) stops everything cleanly.
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(storefront.id().unwrap() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .unwrap();
    let status = tokio::time::timeout(Duration::from_secs(30), storefront.wait())
        .await
        .expect("stops in time")
        .unwrap();
    assert!(status.success(), "the launcher exits cleanly, got {status}");
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the edge stopped listening"
    );
}
