//! A loopback TCP proxy the suite controls: it passes bytes both ways ([`Mode::Pass`]), stops
//! (every open connection dropped, every new one closed at once: [`Mode::Down`]), or delays
//! every byte from the upstream by a fixed time ([`Mode::Slow`]) without limiting how much flows.
//!
//! In front of PostgreSQL it is "the database stops and starts" without stopping the machine's
//! server (other tests use it); in front of a service's gRPC port it is "the service is slow".

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

/// What the proxy does with connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Pass,
    Down,
    /// Every chunk from the upstream is held this long before the client gets it.
    Slow(Duration),
}

/// A running proxy; it stops with the runtime or when dropped.
pub struct Proxy {
    addr: SocketAddr,
    mode: watch::Sender<Mode>,
    accepting: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Listens on a free loopback port and forwards every connection to `upstream`.
    pub async fn start(upstream: SocketAddr) -> anyhow::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .await
            .context("binding the proxy")?;
        let addr = listener.local_addr()?;
        let (mode, watching) = watch::channel(Mode::Pass);
        let accepting = tokio::spawn(accept(listener, upstream, watching));
        Ok(Self {
            addr,
            mode,
            accepting,
        })
    }

    /// Where clients connect.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn set(&self, mode: Mode) {
        self.mode.send_replace(mode);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

async fn accept(listener: TcpListener, upstream: SocketAddr, mode: watch::Receiver<Mode>) {
    loop {
        let Ok((client, _)) = listener.accept().await else {
            continue;
        };
        if *mode.borrow() == Mode::Down {
            // Refused: closed before a byte is read.
            drop(client);
            continue;
        }
        tokio::spawn(connection(client, upstream, mode.clone()));
    }
}

/// One client's connection, until either side closes it or the proxy goes down.
async fn connection(client: TcpStream, upstream: SocketAddr, mut mode: watch::Receiver<Mode>) {
    let Ok(server) = TcpStream::connect(upstream).await else {
        return;
    };
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let delays = mode.clone();
    let going_down = async {
        let _ = mode.wait_for(|m| *m == Mode::Down).await;
    };
    // Dropping this future (when the proxy goes down) drops both sockets: both peers see the
    // connection end, as when a server process dies.
    tokio::select! {
        _ = async {
            tokio::join!(
                copy(client_read, server_write),
                delayed_copy(server_read, client_write, delays),
            )
        } => {}
        _ = going_down => {}
    }
}

async fn copy(mut from: tokio::net::tcp::OwnedReadHalf, mut to: tokio::net::tcp::OwnedWriteHalf) {
    let _ = tokio::io::copy(&mut from, &mut to).await;
    let _ = to.shutdown().await;
}

/// Copies `from` to `to`, each chunk held until the delay of the mode it was read in has passed.
/// Chunks keep their order and are read as fast as they come, so the delay adds latency and never
/// limits throughput.
async fn delayed_copy(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mode: watch::Receiver<Mode>,
) {
    let (chunks, mut due) = mpsc::unbounded_channel::<(Instant, Vec<u8>)>();
    let reading = async move {
        let mut buffer = vec![0u8; 16 * 1024];
        loop {
            match from.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let delay = match *mode.borrow() {
                        Mode::Slow(d) => d,
                        Mode::Pass | Mode::Down => Duration::ZERO,
                    };
                    if chunks
                        .send((Instant::now() + delay, buffer[..n].to_vec()))
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    };
    let writing = async move {
        while let Some((at, chunk)) = due.recv().await {
            tokio::time::sleep_until(at).await;
            if to.write_all(&chunk).await.is_err() {
                return;
            }
        }
        let _ = to.shutdown().await;
    };
    tokio::join!(reading, writing);
}

/// `url` (`postgres://user@host:port/db?…`) with its host and port replaced by `addr`.
pub fn url_through(url: &str, addr: SocketAddr) -> anyhow::Result<String> {
    let (scheme, rest) = url.split_once("://").context("a URL without a scheme")?;
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    let user = match authority.rsplit_once('@') {
        Some((user, _)) => format!("{user}@"),
        None => String::new(),
    };
    Ok(format!("{scheme}://{user}{addr}{path}"))
}

/// The host and port a `postgres://` URL names (port 5432 when it names none).
pub fn url_addr(url: &str) -> anyhow::Result<SocketAddr> {
    let rest = url.split_once("://").context("a URL without a scheme")?.1;
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let with_port = if host_port.contains(':') {
        host_port.to_string()
    } else {
        format!("{host_port}:5432")
    };
    let host_port = with_port.replace("localhost", "127.0.0.1");
    host_port
        .parse()
        .with_context(|| format!("{host_port} is not a loopback address and port"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An echo server on a free port.
    async fn echo() -> SocketAddr {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let (mut r, mut w) = stream.split();
                    let _ = tokio::io::copy(&mut r, &mut w).await;
                });
            }
        });
        addr
    }

    async fn round_trip(stream: &mut TcpStream, text: &[u8]) -> std::io::Result<Vec<u8>> {
        stream.write_all(text).await?;
        let mut back = vec![0u8; text.len()];
        stream.read_exact(&mut back).await?;
        Ok(back)
    }

    #[tokio::test]
    async fn it_passes_then_drops_and_refuses_then_passes_again() {
        let proxy = Proxy::start(echo().await).await.unwrap();
        let mut open = TcpStream::connect(proxy.addr()).await.unwrap();
        assert_eq!(round_trip(&mut open, b"hello").await.unwrap(), b"hello");

        proxy.set(Mode::Down);

        // The open connection ends: the read sees its end (or a reset), never an echo.
        let mut rest = Vec::new();
        let ended = tokio::time::timeout(Duration::from_secs(5), open.read_to_end(&mut rest))
            .await
            .expect("the open connection is dropped");
        assert!(ended.is_err() || rest.is_empty(), "{ended:?} {rest:?}");
        // A new one is closed before it is served.
        let mut refused = TcpStream::connect(proxy.addr()).await.unwrap();
        let answer = tokio::time::timeout(Duration::from_secs(5), round_trip(&mut refused, b"x"))
            .await
            .expect("refused at once");
        assert!(answer.is_err(), "{answer:?}");

        proxy.set(Mode::Pass);

        let mut again = TcpStream::connect(proxy.addr()).await.unwrap();
        assert_eq!(round_trip(&mut again, b"back").await.unwrap(), b"back");
    }

    #[tokio::test]
    async fn a_slow_proxy_delays_every_reply_by_its_delay_and_only_while_slow() {
        let proxy = Proxy::start(echo().await).await.unwrap();
        let mut stream = TcpStream::connect(proxy.addr()).await.unwrap();
        let delay = Duration::from_millis(300);

        proxy.set(Mode::Slow(delay));
        let started = Instant::now();
        assert_eq!(round_trip(&mut stream, b"slow").await.unwrap(), b"slow");
        let slow = started.elapsed();
        proxy.set(Mode::Pass);
        let started = Instant::now();
        assert_eq!(round_trip(&mut stream, b"fast").await.unwrap(), b"fast");
        let fast = started.elapsed();

        assert!(slow >= delay, "{slow:?}");
        assert!(fast < delay, "{fast:?}");
    }

    #[test]
    fn a_database_url_is_pointed_through_the_proxy_keeping_user_database_and_options() {
        let proxy: SocketAddr = "127.0.0.1:40001".parse().unwrap();
        assert_eq!(
            url_through(
                "postgres://postgres@127.0.0.1:5432/tiffin_x?sslmode=disable",
                proxy
            )
            .unwrap(),
            "postgres://postgres@127.0.0.1:40001/tiffin_x?sslmode=disable"
        );
        assert_eq!(
            url_through("postgres://u:p@w@db.example:6543/d", proxy).unwrap(),
            "postgres://u:p@w@127.0.0.1:40001/d"
        );
        assert_eq!(
            url_addr("postgres://postgres@127.0.0.1:5432/x").unwrap(),
            "127.0.0.1:5432".parse().unwrap()
        );
        assert_eq!(
            url_addr("postgres://postgres@localhost/x").unwrap(),
            "127.0.0.1:5432".parse().unwrap()
        );
        assert!(url_through("no-scheme", proxy).is_err());
    }
}
