//! The floor the edge is compared with: the same reply bytes served from memory by a minimal
//! axum server (the edge's HTTP stack: axum on hyper on tokio), measured by the same load
//! generator. The gap between the two is what the edge, the gRPC hops and the services cost.
//!
//! It runs on its own multi-threaded tokio runtime with as many workers as the edge gets (one per
//! core), on its own thread, so it does not share the load generator's runtime any more than the
//! edge process does.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

use anyhow::Context;
use axum::Router;
use axum::body::Bytes;
use axum::response::IntoResponse;
use http::{HeaderValue, StatusCode, Uri, header};
use tokio::sync::oneshot;

/// A running in-memory server; stops when dropped.
pub struct Baseline {
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Baseline {
    /// `http://127.0.0.1:<port>`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

/// Serves `body` with `content_type` and status 200 for every method and path, on a free loopback port.
pub fn serve(body: Bytes, content_type: HeaderValue) -> anyhow::Result<Baseline> {
    let app = Router::new().fallback(move || {
        let body = body.clone();
        let content_type = content_type.clone();
        async move { ([(header::CONTENT_TYPE, content_type)], body) }
    });
    serve_router(app)
}

/// Serves each reply at its own path and query (`"/api/x?a=1"`) with `content_type` and status
/// 200, for any method; any other path gets 404. One reply is served at every path, like [`serve`].
/// A scenario whose clients take turns with many paths (a listing from many points) is compared
/// with exactly the bytes each of its paths got from the edge.
pub fn serve_each(
    replies: Vec<(String, Bytes)>,
    content_type: HeaderValue,
) -> anyhow::Result<Baseline> {
    if let [(_, body)] = replies.as_slice() {
        return serve(body.clone(), content_type);
    }
    let replies: Arc<HashMap<String, Bytes>> = Arc::new(replies.into_iter().collect());
    let app = Router::new().fallback(move |uri: Uri| {
        let reply = uri
            .path_and_query()
            .and_then(|pq| replies.get(pq.as_str()))
            .cloned();
        let content_type = content_type.clone();
        async move {
            match reply {
                Some(body) => ([(header::CONTENT_TYPE, content_type)], body).into_response(),
                None => StatusCode::NOT_FOUND.into_response(),
            }
        }
    });
    serve_router(app)
}

/// Runs `app` on a free loopback port, on its own runtime and thread.
fn serve_router(app: Router) -> anyhow::Result<Baseline> {
    // Bound here with std, so a caller inside another runtime (the load generator's) can call this.
    let listener =
        std::net::TcpListener::bind("127.0.0.1:0").context("binding the baseline server")?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("baseline")
        .build()
        .context("starting the baseline's runtime")?;
    let (shutdown, stopped) = oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name("baseline".into())
        .spawn(move || {
            runtime.block_on(async move {
                let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
                    return;
                };
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    })
                    .await;
            });
        })
        .context("starting the baseline thread")?;
    Ok(Baseline {
        addr,
        shutdown: Some(shutdown),
        thread: Some(thread),
    })
}

impl Drop for Baseline {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_path_gets_the_same_bytes_and_content_type() {
        let body = Bytes::from_static(br#"{"statusCode":0,"data":{"menu":1}}"#);
        let server = serve(body.clone(), HeaderValue::from_static("application/json")).unwrap();

        let reply = reqwest::Client::new()
            .get(format!("{}/api/anything?x=1", server.base_url()))
            .send()
            .await
            .unwrap();

        assert_eq!(reply.status(), 200);
        assert_eq!(reply.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(reply.bytes().await.unwrap(), body);
    }

    #[tokio::test]
    async fn each_path_gets_its_own_bytes_and_an_unknown_path_a_404() {
        let (a, b) = (
            Bytes::from_static(b"{\"a\":1}"),
            Bytes::from_static(b"{\"b\":22}"),
        );
        let server = serve_each(
            vec![
                ("/api/list?lat=1&lng=2".into(), a.clone()),
                ("/api/list?lat=1&lng=2&offset=15".into(), b.clone()),
            ],
            HeaderValue::from_static("application/json"),
        )
        .unwrap();
        let get = |path: &str| {
            reqwest::Client::new()
                .get(format!("{}{path}", server.base_url()))
                .send()
        };

        let first = get("/api/list?lat=1&lng=2").await.unwrap();
        let second = get("/api/list?lat=1&lng=2&offset=15").await.unwrap();
        let unknown = get("/api/list?lat=9&lng=9").await.unwrap();

        assert_eq!(first.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(first.bytes().await.unwrap(), a);
        assert_eq!(second.bytes().await.unwrap(), b);
        assert_eq!(unknown.status(), 404);
    }
}
