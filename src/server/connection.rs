//! Serving one connection with hyper-util's automatic HTTP/1.1 and HTTP/2 server, until
//! the client is done, a timeout ends it, or the server shuts down.
//!
//! Timeouts, from the outside in:
//!
//! - **header read** (hyper, HTTP/1.1): a request's head must arrive whole within it,
//!   counted from when the connection starts waiting for it, that is also from the end of
//!   the previous answer on a kept-alive connection;
//! - **idle** (here, both protocols): a connection with no request in flight for this long
//!   is shut down gracefully, which also ends one that never said which protocol it speaks;
//!   one that is still open with no request in flight for a write timeout after that (an
//!   HTTP/2 client that never answers the server's GOAWAY and PING) is closed;
//! - **write** (`ClientStream`): a write that waits this long for a client that does not
//!   read fails, and the connection ends. Over HTTP/2 a client can also hold answers up
//!   without filling any buffer, by granting no flow-control window: a connection whose
//!   answers have frames ready that it has not asked for in this long ends too;
//! - the body read timeout is the HTTP layer's; its 408 answer closes the connection.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{Response, StatusCode};
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use super::client_stream::ClientStream;
use super::request_body;
use super::{CloseReason, ConnectionObserver, ServerSettings};

/// Room beyond the header limit in hyper's read buffer, so a head somewhat over the limit
/// is still read whole and answered 431 in the API's error format; a larger one gets
/// hyper's own 431, without a body.
const HEAD_BUFFER_SLACK: usize = 1024;

/// The smallest read buffer hyper takes for HTTP/1.1 (it refuses a smaller one), so under
/// a low header limit every head up to this size gets the API's 431.
const HYPER_MIN_BUFFER: usize = 8192;

/// Requests that one HTTP/2 connection may have in flight at once.
const HTTP2_MAX_STREAMS: u32 = 64;

/// HTTP/2 flow-control windows: bytes a client may send before the server has read them,
/// per request and per connection (the connection's is HTTP/2's initial 64 KiB). Request
/// bodies are small, and small windows bound what a connection can make the server buffer.
const HTTP2_STREAM_WINDOW: u32 = 16 * 1024;
const HTTP2_CONNECTION_WINDOW: u32 = 65_535;

/// The HTTP/1.1 and HTTP/2 connection settings of `settings`.
pub(super) fn builder(settings: &ServerSettings) -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_read_timeout)
        // A client that shuts its side down while its request runs has gone away, as for
        // nginx (499) and Go's net/http: hyper then ends the connection, which drops the
        // request and so stops its work. (hyper does not read a half-closed connection.)
        .max_buf_size(read_buffer_bytes(settings));
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(
            u32::try_from(settings.header_limit_bytes + HEAD_BUFFER_SLACK).unwrap_or(u32::MAX),
        )
        .max_concurrent_streams(HTTP2_MAX_STREAMS)
        .initial_stream_window_size(HTTP2_STREAM_WINDOW)
        .initial_connection_window_size(HTTP2_CONNECTION_WINDOW);
    builder
}

/// The size of hyper's HTTP/1.1 read buffer, which holds a request's head and whatever of
/// its body arrived with it.
fn read_buffer_bytes(settings: &ServerSettings) -> usize {
    (settings.header_limit_bytes + HEAD_BUFFER_SLACK).max(HYPER_MIN_BUFFER)
}

/// What a connection needs from the server: its settings, the app, and the signals to
/// drain (finish requests, then close) and to stop at once.
pub(super) struct Shared {
    pub builder: auto::Builder<TokioExecutor>,
    pub app: Router,
    pub settings: ServerSettings,
    pub observer: Arc<dyn ConnectionObserver>,
    pub drain: CancellationToken,
    pub stop: CancellationToken,
}

/// Serves `stream` until it ends, and tells the observer how.
pub(super) async fn serve(stream: TcpStream, peer: SocketAddr, shared: Arc<Shared>) {
    shared.observer.opened();
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(ClientStream::new(stream, shared.settings.write_timeout));
    let service = {
        let (app, activity) = (shared.app.clone(), Arc::clone(&activity));
        let read_buffer = read_buffer_bytes(&shared.settings);
        hyper::service::service_fn(move |request| {
            tracked(app.clone(), Arc::clone(&activity), request, read_buffer)
        })
    };
    let connection = shared.builder.serve_connection(io, service);
    let mut connection = std::pin::pin!(connection);
    let ServerSettings {
        idle_timeout,
        write_timeout,
        ..
    } = shared.settings;
    let mut closed_by_server = None;
    let ended = loop {
        tokio::select! {
            ended = connection.as_mut() => break ended,
            () = activity.idle_for(idle_timeout), if closed_by_server.is_none() => {
                closed_by_server = Some(CloseReason::IdleTimeout);
                // The client's time to close starts now.
                activity.touch();
                connection.as_mut().graceful_shutdown();
            }
            // Asked to close, it did not, and has had no request in flight (one that
            // crossed the GOAWAY included) for a write timeout since.
            () = activity.idle_for(write_timeout),
                if closed_by_server == Some(CloseReason::IdleTimeout) => break Ok(()),
            () = activity.stalled_for(write_timeout) => {
                closed_by_server = Some(CloseReason::WriteTimeout);
                break Ok(());
            }
            () = shared.drain.cancelled(), if closed_by_server.is_none() => {
                closed_by_server = Some(CloseReason::Shutdown);
                connection.as_mut().graceful_shutdown();
            }
            () = shared.stop.cancelled() => break Ok(()),
        }
    };
    let reason = match ended {
        _ if shared.stop.is_cancelled() => CloseReason::Shutdown,
        Err(error) => {
            // The request never reached the service, which logs every other one.
            if is_invalid_request(&*error) {
                tracing::info!(%error, %peer, "request is not valid HTTP");
            } else {
                tracing::debug!(%error, %peer, "connection ended with an error");
            }
            match error_reason(&*error) {
                // A graceful shutdown the server asked for may end in an error.
                CloseReason::Error => closed_by_server.unwrap_or(CloseReason::Error),
                timeout => timeout,
            }
        }
        Ok(()) if activity.body_timed_out.load(Ordering::Relaxed) => CloseReason::BodyTimeout,
        Ok(()) => closed_by_server.unwrap_or(CloseReason::Client),
    };
    shared.observer.closed(reason);
}

/// Serves one request through the app, counted in flight until its answer has been sent
/// whole (or dropped); an answer that left unread a request body larger than hyper's read
/// buffer of `read_buffer` bytes says that the connection closes (see `request_body`).
async fn tracked(
    app: Router,
    activity: Arc<Activity>,
    request: hyper::Request<Incoming>,
    read_buffer: usize,
) -> Result<Response<TrackedBody>, Infallible> {
    let in_flight = activity.begin();
    let version = request.version();
    let (request, unread) = request_body::watch(request, read_buffer);
    let mut response = app.oneshot(request).await?;
    unread.close_if_left(version, &mut response);
    if response.status() == StatusCode::REQUEST_TIMEOUT {
        activity.body_timed_out.store(true, Ordering::Relaxed);
    }
    Ok(response.map(|body| TrackedBody::new(body, in_flight)))
}

/// A response body that keeps its request counted in flight while it is being sent, and
/// counted as held up by the client while it has a frame ready (from when it is made, or
/// has handed a frame out) that the connection has not asked for yet.
struct TrackedBody {
    body: Body,
    in_flight: InFlight,
    awaiting_pull: bool,
}

impl TrackedBody {
    fn new(body: Body, in_flight: InFlight) -> Self {
        let mut tracked = TrackedBody {
            body,
            in_flight,
            awaiting_pull: false,
        };
        tracked.in_flight.0.pulled();
        tracked.set_awaiting_pull(true);
        tracked
    }

    fn set_awaiting_pull(&mut self, awaiting: bool) {
        if awaiting != self.awaiting_pull {
            self.awaiting_pull = awaiting;
            let count = &self.in_flight.0.awaiting_pull;
            match awaiting {
                true => count.fetch_add(1, Ordering::Relaxed),
                false => count.fetch_sub(1, Ordering::Relaxed),
            };
        }
    }
}

impl Drop for TrackedBody {
    fn drop(&mut self) {
        self.set_awaiting_pull(false);
    }
}

impl http_body::Body for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        self.in_flight.0.pulled();
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        self.set_awaiting_pull(matches!(polled, Poll::Ready(Some(Ok(_)))));
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Why a connection that failed ended: one of the server's timeouts, or some other error
/// (a malformed request, a reset).
fn error_reason(error: &(dyn std::error::Error + 'static)) -> CloseReason {
    for cause in causes(error) {
        if cause
            .downcast_ref::<hyper::Error>()
            .is_some_and(hyper::Error::is_timeout)
        {
            return CloseReason::HeaderTimeout;
        }
        if cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut)
        {
            return CloseReason::WriteTimeout;
        }
    }
    CloseReason::Error
}

/// Whether `error` is a request hyper could not parse as HTTP (and answered 400, 414 or
/// 431 itself).
fn is_invalid_request(error: &(dyn std::error::Error + 'static)) -> bool {
    causes(error)
        .filter_map(|cause| cause.downcast_ref::<hyper::Error>())
        .any(hyper::Error::is_parse)
}

/// `error` and the errors beneath it.
fn causes<'a>(
    error: &'a (dyn std::error::Error + 'static),
) -> impl Iterator<Item = &'a (dyn std::error::Error + 'static)> {
    std::iter::successors(Some(error), |cause| cause.source())
}

/// Whether a connection has requests in flight, and since when it has had none.
struct Activity {
    started: Instant,
    in_flight: AtomicUsize,
    /// Milliseconds from `started` to when the last request began or ended.
    last_change_ms: AtomicU64,
    /// Answers held up by the client (see [`TrackedBody`]).
    awaiting_pull: AtomicUsize,
    /// Milliseconds from `started` to when an answer was last made or asked for a frame.
    last_pull_ms: AtomicU64,
    /// Set when an answer was 408: the body of a request did not arrive in time.
    body_timed_out: AtomicBool,
}

impl Activity {
    fn new() -> Self {
        Activity {
            started: Instant::now(),
            in_flight: AtomicUsize::new(0),
            last_change_ms: AtomicU64::new(0),
            awaiting_pull: AtomicUsize::new(0),
            last_pull_ms: AtomicU64::new(0),
            body_timed_out: AtomicBool::new(false),
        }
    }

    /// Counts a request in flight until the guard is dropped.
    fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        self.touch();
        InFlight(Arc::clone(self))
    }

    fn touch(&self) {
        self.last_change_ms.store(self.now_ms(), Ordering::Relaxed);
    }

    fn pulled(&self) {
        self.last_pull_ms.store(self.now_ms(), Ordering::Relaxed);
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Completes once the connection has had no request in flight for `timeout`.
    async fn idle_for(&self, timeout: Duration) {
        let idle = || self.in_flight.load(Ordering::Relaxed) == 0;
        self.for_as_long(timeout, &self.last_change_ms, idle).await;
    }

    /// Completes once answers have been held up by the client, with none asked for a
    /// frame, for `timeout`.
    async fn stalled_for(&self, timeout: Duration) {
        let held_up = || self.awaiting_pull.load(Ordering::Relaxed) > 0;
        self.for_as_long(timeout, &self.last_pull_ms, held_up).await;
    }

    /// Completes once `holds` is true and the time in `mark` is `timeout` past.
    async fn for_as_long(&self, timeout: Duration, mark: &AtomicU64, holds: impl Fn() -> bool) {
        loop {
            let since = self.started + Duration::from_millis(mark.load(Ordering::Relaxed));
            let holding = holds();
            if holding && Instant::now() >= since + timeout {
                return;
            }
            // While it does not hold, look again a period on: when it starts to hold, the
            // mark moves anyway.
            let next_look = if holding {
                since + timeout
            } else {
                Instant::now() + timeout
            };
            tokio::time::sleep_until(next_look).await;
        }
    }
}

/// A request in flight on a connection.
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}
