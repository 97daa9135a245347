//! Running the HTTP server: accepting connections up to a cap, serving each with
//! hyper-util (HTTP/1.1, and HTTP/2 with prior knowledge) on the tokio runtime, and
//! draining them on shutdown. This layer knows HTTP, not Sudoku: it serves any axum
//! `Router`.
//!
//! [`run`] takes a bound listener and a shutdown future, so tests bind `127.0.0.1:0` and
//! stop the server when they like; [`bind`] and [`shutdown_signal`] give the real ones.
//! Shutdown goes in order: `/readyz` turns 503 at once, the
//! listener keeps serving for the drain delay (so load balancers notice), then it closes;
//! open connections finish their requests and close (for at most the grace period), and
//! whatever is left then is closed.
//!
//! At most `max_connections` connections are open at once; beyond that, new ones wait in
//! the listen backlog (and beyond the backlog the kernel refuses them) while the server
//! keeps answering those it holds.

mod client_stream;
mod connection;
mod framing;
mod request_body;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use thiserror::Error;
use tokio::net::{TcpListener, TcpSocket};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use self::connection::Shared;
pub use self::framing::{FramingLayer, FramingViolation};

/// How long to back off when accepting fails (typically: out of file descriptors).
const ACCEPT_ERROR_BACKOFF: Duration = Duration::from_millis(100);

/// How the server treats connections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerSettings {
    /// Connections open at once; more wait in the listen backlog.
    pub max_connections: usize,
    /// Longest wait for a request's complete head (HTTP/1.1).
    pub header_read_timeout: Duration,
    /// Longest a connection may stay open with no request in flight.
    pub idle_timeout: Duration,
    /// Longest a write may wait for a client that does not read.
    pub write_timeout: Duration,
    /// Largest request head the API accepts; the connection's buffers are sized from it.
    pub header_limit_bytes: usize,
    /// How long the listener keeps serving after shutdown starts, with `/readyz` at 503.
    pub drain_delay: Duration,
    /// How long open requests get to finish once the listener has closed.
    pub shutdown_grace: Duration,
}

/// Why a connection ended, as the server's metrics count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseReason {
    /// The client closed it, or asked for it to close.
    Client,
    /// A request's head did not arrive within the header read timeout.
    HeaderTimeout,
    /// A request's body did not arrive within the body read timeout (its answer was 408).
    BodyTimeout,
    /// No request came within the idle timeout.
    IdleTimeout,
    /// The client did not read its answer within the write timeout.
    WriteTimeout,
    /// The server shut down.
    Shutdown,
    /// A malformed request or a transport error.
    Error,
}

impl CloseReason {
    /// Every reason, for metrics that list them all from the start.
    pub const ALL: [CloseReason; 7] = [
        Self::Client,
        Self::HeaderTimeout,
        Self::BodyTimeout,
        Self::IdleTimeout,
        Self::WriteTimeout,
        Self::Shutdown,
        Self::Error,
    ];

    /// The reason as a metric label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Client => "client",
            Self::HeaderTimeout => "header_timeout",
            Self::BodyTimeout => "body_timeout",
            Self::IdleTimeout => "idle_timeout",
            Self::WriteTimeout => "write_timeout",
            Self::Shutdown => "shutdown",
            Self::Error => "error",
        }
    }
}

/// What the server reports about its connections (to the metrics).
pub trait ConnectionObserver: Send + Sync + 'static {
    /// A connection was accepted.
    fn opened(&self);
    /// A connection ended, for `reason`.
    fn closed(&self, reason: CloseReason);
}

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum ServerError {
    /// The signal handlers could not be installed.
    #[error("cannot listen for shutdown signals")]
    Signals(#[source] io::Error),
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}")]
    Bind {
        /// The address that was asked for.
        addr: SocketAddr,
        /// Why binding failed.
        source: io::Error,
    },
}

/// Binds `addr` with a listen backlog of `backlog` connections.
pub fn bind(addr: SocketAddr, backlog: u32) -> Result<TcpListener, ServerError> {
    let bind = || {
        let socket = match addr {
            SocketAddr::V4(_) => TcpSocket::new_v4()?,
            SocketAddr::V6(_) => TcpSocket::new_v6()?,
        };
        socket.set_reuseaddr(true)?;
        socket.bind(addr)?;
        socket.listen(backlog)
    };
    bind().map_err(|source| ServerError::Bind { addr, source })
}

/// Serves `app` on `listener` until `shutdown` completes, then drains (see the module
/// docs). `on_drain` runs when shutdown starts, before the drain delay: the app uses it to
/// turn `/readyz` to 503.
pub async fn run(
    listener: TcpListener,
    app: Router,
    settings: ServerSettings,
    observer: Arc<dyn ConnectionObserver>,
    shutdown: impl Future<Output = ()>,
    on_drain: impl FnOnce(),
) {
    let shared = Arc::new(Shared {
        builder: connection::builder(&settings),
        app,
        settings,
        observer,
        drain: CancellationToken::new(),
        stop: CancellationToken::new(),
    });
    let connections = TaskTracker::new();
    let open = Arc::new(Semaphore::new(settings.max_connections.max(1)));

    let accepting_ends = async {
        shutdown.await;
        on_drain();
        tracing::info!(
            drain_delay_ms = settings.drain_delay.as_millis(),
            "shutting down: /readyz answers 503, still serving until the drain delay ends"
        );
        tokio::time::sleep(settings.drain_delay).await;
    };
    let mut accepting_ends = std::pin::pin!(accepting_ends);
    loop {
        // A free place first: beyond the cap, connections wait in the backlog.
        let place = tokio::select! {
            place = Arc::clone(&open).acquire_owned() => {
                place.expect("the connection semaphore is never closed")
            }
            () = &mut accepting_ends => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(connection) => connection,
                Err(error) => {
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(ACCEPT_ERROR_BACKOFF).await;
                    continue;
                }
            },
            () = &mut accepting_ends => break,
        };
        // Answers are small; sending them at once beats batching them.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, %peer, "cannot set TCP_NODELAY");
        }
        let shared = Arc::clone(&shared);
        connections.spawn(async move {
            let _place = place;
            connection::serve(stream, peer, shared).await;
        });
    }

    drop(listener);
    connections.close();
    shared.drain.cancel();
    let grace = settings.shutdown_grace;
    tracing::info!(
        grace_ms = grace.as_millis(),
        "no new connections; finishing open requests"
    );
    if tokio::time::timeout(grace, connections.wait())
        .await
        .is_ok()
    {
        tracing::info!("all connections closed");
    } else {
        tracing::warn!(
            ?grace,
            "grace period over; closing the connections still open"
        );
        shared.stop.cancel();
        connections.wait().await;
    }
}

/// Completes on the first SIGTERM (what container runtimes send) or SIGINT (Ctrl-C).
///
/// The handlers are installed when this is called, not when the future is first polled.
pub fn shutdown_signal() -> Result<impl Future<Output = ()>, ServerError> {
    let mut terminate = signal(SignalKind::terminate()).map_err(ServerError::Signals)?;
    let mut interrupt = signal(SignalKind::interrupt()).map_err(ServerError::Signals)?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => tracing::info!("SIGTERM received"),
            _ = interrupt.recv() => tracing::info!("SIGINT received"),
        }
    })
}
