//! Running the HTTP server: accepting connections, and draining them on shutdown.
//!
//! [`run`] takes a bound listener and a shutdown future, so tests bind `127.0.0.1:0` and
//! stop the server when they like, while [`serve`] binds the configured address and stops
//! on SIGTERM or SIGINT. Shutdown goes in order: `/readyz` turns 503, the listener closes,
//! open connections finish their requests (for at most the grace period), then `run`
//! returns.
//!
//! Connections are served with hyper directly rather than with `axum::serve`, because
//! only there can a connection be given a timer, and with it a header read timeout that
//! stops a client from holding a connection open by sending its headers slowly. The
//! listener hands each connection to one of the connection threads, a runtime each,
//! which serves it to the end (see `connection_threads`).

mod connection_threads;
mod lingering_close;

use std::future::Future;
use std::io;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::{GracefulShutdown, Watcher};
use hyper_util::service::TowerToHyperService;
use thiserror::Error;
use tokio::net::TcpListener;
use tokio::signal::unix::{SignalKind, signal};

use self::connection_threads::ConnectionThreads;
use self::lingering_close::LingeringClose;
use crate::config::ServeConfig;
use crate::http::{self, AppState};

/// How long a client may take to send a request's headers. Honest clients send them in
/// one packet; a slow trickle is a client holding a connection open.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How often histogram samples are folded in, so memory stays flat without scrapes.
const METRICS_UPKEEP_PERIOD: Duration = Duration::from_secs(5);

/// How long to back off when accepting fails (typically: out of file descriptors).
const ACCEPT_ERROR_BACKOFF: Duration = Duration::from_millis(100);

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum ServerError {
    /// The signal handlers could not be installed.
    #[error("cannot listen for shutdown signals: {0}")]
    Signals(#[source] io::Error),
    /// The connection threads could not be started.
    #[error("cannot start the connection threads: {0}")]
    Threads(#[source] io::Error),
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address that was asked for.
        addr: std::net::SocketAddr,
        /// Why binding failed.
        source: io::Error,
    },
}

/// Binds the configured address and serves until SIGTERM or SIGINT.
pub async fn serve(config: ServeConfig) -> Result<(), ServerError> {
    // Signal handlers first: a SIGTERM that arrives once the address is logged must drain.
    let shutdown = shutdown_signal().map_err(ServerError::Signals)?;
    let addr = config.listen.addr();
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|source| ServerError::Bind { addr, source })?;
    run(listener, &config, shutdown).await
}

/// Serves the API on `listener` until `shutdown` completes, then drains.
pub async fn run(
    listener: TcpListener,
    config: &ServeConfig,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServerError> {
    let limits = config.limits();
    let connection_threads = config.connection_threads();
    let state = AppState::for_threads(limits, connection_threads);
    let app = http::app(state.clone());

    let mut connections = http1::Builder::new();
    connections
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT);
    let graceful = GracefulShutdown::new();
    let serve = move |stream, peer, watcher: Watcher| {
        let connection = connections.serve_connection(
            TokioIo::new(LingeringClose::new(stream)),
            TowerToHyperService::new(app.clone()),
        );
        let connection = watcher.watch(connection);
        async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, %peer, "connection ended with an error");
            }
        }
    };
    // Each thread queues its quick attempts in a lane of its own.
    let threads = ConnectionThreads::start(connection_threads, http::take_quick_lane, serve)
        .map_err(ServerError::Threads)?;

    match listener.local_addr() {
        Ok(addr) => tracing::info!(%addr, ?limits, "listening"),
        Err(error) => tracing::warn!(%error, "listening on an unknown address"),
    }

    let upkeep = tokio::spawn({
        let metrics = state.metrics().clone();
        async move {
            let mut ticks = tokio::time::interval(METRICS_UPKEEP_PERIOD);
            loop {
                ticks.tick().await;
                metrics.run_upkeep();
            }
        }
    });

    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(connection) => connection,
                Err(error) => {
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(ACCEPT_ERROR_BACKOFF).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Answers are small; sending them at once beats batching them.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, %peer, "cannot set TCP_NODELAY");
        }
        threads.hand_over(stream, peer, graceful.watcher());
    }

    state.readiness().start_draining();
    drop(listener);
    let grace = config.shutdown_grace();
    tracing::info!(
        ?grace,
        "shutting down: no new connections, finishing open requests"
    );
    tokio::select! {
        () = graceful.shutdown() => tracing::info!("all requests finished"),
        () = tokio::time::sleep(grace) => {
            tracing::warn!(?grace, "grace period over; dropping the requests still open");
        }
    }
    threads.stop().await;
    upkeep.abort();
    Ok(())
}

/// Completes on the first SIGTERM (what container runtimes send) or SIGINT (Ctrl-C).
///
/// The handlers are installed when this is called, not when the future is first polled.
pub fn shutdown_signal() -> io::Result<impl Future<Output = ()>> {
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => tracing::info!("SIGTERM received"),
            _ = interrupt.recv() => tracing::info!("SIGINT received"),
        }
    })
}
