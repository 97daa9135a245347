//! The middleware around every route, composed in one place.
//!
//! With `ServiceBuilder` the first layer is the outermost: it sees the request first and
//! the response last. The order below follows from what each layer needs to see.
//! `Router::layer` wraps each route after routing, so the span and the metrics know the
//! matched route, and the 404 and 405 fallbacks get the same layers as the routes.

use std::any::Any;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::header::{HOST, TRANSFER_ENCODING};
use axum::http::uri::Authority;
use axum::http::{HeaderValue, StatusCode, Version};
use axum::response::{IntoResponse, Response};
use http_body::{Body as _, Frame, SizeHint};
use tower::{Layer, Service, ServiceBuilder};
use tower_http::ServiceBuilderExt;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, RequestId};
use tracing::{Instrument, Span};

use super::Limits;
use super::metrics::Metrics;
use super::problem::ApiError;

/// The route label of requests that matched no route, so odd paths cannot grow the
/// number of metric series without bound.
const UNMATCHED_ROUTE: &str = "unmatched";

/// The longest `x-request-id` a client may choose; a longer one is replaced, so a client
/// cannot make every log line of its requests large.
const MAX_REQUEST_ID_LENGTH: usize = 128;

/// The status counted for a request whose client went away before its answer (nginx's
/// "client closed request").
const CLIENT_CLOSED_REQUEST: u16 = 499;

/// Wraps every route of `router` (and its fallbacks) in the service's middleware.
pub fn with_layers<S>(router: Router<S>, metrics: Metrics, limits: &Limits) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let observer = Observer {
        metrics,
        header_limit: limits.header_limit_bytes,
    };
    router.layer(
        ServiceBuilder::new()
            // Outermost: every request gets an id (a client's own x-request-id is kept if
            // it is short, visible ASCII) before anything logs, and the response carries
            // it back.
            .map_request(drop_unfit_request_id)
            .set_x_request_id(MakeRequestUuid)
            .propagate_x_request_id()
            // One span per request, holding the id; one log line and one count per request
            // that ends, answered or abandoned, including the 500s that the next layer
            // makes of panics. It also refuses what HTTP's framing rules forbid.
            .layer(ObserveLayer(observer))
            // A panicking handler becomes 500 `internal`; the server keeps serving.
            .layer(CatchPanicLayer::custom(panic_response))
            // Innermost: the body limit that the JSON extractor's reader enforces with 413
            // `payload_too_large` while it reads, so a chunked body without a length is
            // held to it too. (tower-http's RequestBodyLimitLayer would answer 413 itself,
            // in plain text.)
            .layer(DefaultBodyLimit::max(limits.body_limit_bytes)),
    )
}

/// Removes an `x-request-id` that is empty, longer than [`MAX_REQUEST_ID_LENGTH`] or not
/// visible ASCII, so the next layer makes a new one.
fn drop_unfit_request_id(mut request: Request) -> Request {
    let fits = |id: &HeaderValue| {
        let bytes = id.as_bytes();
        (1..=MAX_REQUEST_ID_LENGTH).contains(&bytes.len()) && bytes.iter().all(u8::is_ascii_graphic)
    };
    if request
        .headers()
        .get_all("x-request-id")
        .iter()
        .enumerate()
        .any(|(index, id)| index > 0 || !fits(id))
    {
        request.headers_mut().remove("x-request-id");
    }
    request
}

/// What the observing middleware needs.
#[derive(Clone)]
struct Observer {
    metrics: Metrics,
    header_limit: usize,
}

/// Serves each request in a span of its own (with its id), refusing it first if HTTP's
/// framing rules forbid it, and logs and counts it once it ends: answered (a streamed
/// answer once its last piece is handed over), or dropped before its answer (its client
/// went away, or the server closed the connection), which is logged and counted with
/// status 499. A tower layer rather than `from_fn`, which boxes
/// the inner service and two futures on every request: this runs on every request, and
/// `/healthz` is mostly this.
#[derive(Clone)]
struct ObserveLayer(Observer);

impl<S> Layer<S> for ObserveLayer {
    type Service = Observe<S>;

    fn layer(&self, inner: S) -> Observe<S> {
        Observe {
            inner,
            observer: self.0.clone(),
        }
    }
}

/// The service of [`ObserveLayer`].
#[derive(Clone)]
struct Observe<S> {
    inner: S,
    observer: Observer,
}

impl<S, B> Service<Request> for Observe<S>
where
    S: Service<Request, Response = axum::http::Response<B>, Error = Infallible> + Send + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let span = request_span(&request);
        let mut pending = PendingRequest {
            // A matched path is shared, so keeping it costs no copy of the route.
            route: request.extensions().get::<MatchedPath>().cloned(),
            started: Instant::now(),
            metrics: Some(self.observer.metrics.clone()),
            span: span.clone(),
        };
        let answer = match framing_problem(&request, self.observer.header_limit) {
            Some(problem) => Err(problem),
            None => Ok(self.inner.call(request)),
        };
        Box::pin(async move {
            let response = match answer {
                Ok(answer) => answer.instrument(span).await?.map(Body::new),
                Err(problem) => problem.into_response(),
            };
            // An answer of known length is done when it is made; a streamed one (a batch)
            // only when its last piece is handed over.
            if response.body().size_hint().exact().is_some() {
                pending.answered(response.status());
                return Ok(response);
            }
            let status = response.status();
            Ok(response.map(|body| {
                Body::new(ObservedStream {
                    body,
                    pending,
                    status,
                })
            }))
        })
    }
}

/// The span every log line of a request is written in.
fn request_span(request: &Request) -> Span {
    let request_id = request
        .extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default();
    tracing::info_span!(
        "request",
        method = %request.method(),
        uri = %request.uri(),
        request_id,
    )
}

/// The problem with a request that HTTP's framing rules forbid: an HTTP/1.1 request
/// without exactly one `Host`, or a `Host` that is not a host and port (400), a transfer
/// coding other than `chunked` (501, since the server decodes no other), and a head larger
/// than `header_limit` bytes (431).
fn framing_problem(request: &Request, header_limit: usize) -> Option<ApiError> {
    let headers = request.headers();
    if request.version() == Version::HTTP_11 && headers.get_all(HOST).iter().count() != 1 {
        let detail = "an HTTP/1.1 request needs exactly one Host header";
        return Some(ApiError::BadRequest(detail.into()));
    }
    if !headers.get_all(HOST).iter().all(is_host) {
        let detail = "the Host header must be a host name or address and an optional port";
        return Some(ApiError::BadRequest(detail.into()));
    }
    let other_coding = headers.get_all(TRANSFER_ENCODING).iter().any(|value| {
        value.to_str().map_or(true, |codings| {
            codings
                .split(',')
                .any(|coding| !coding.trim().eq_ignore_ascii_case("chunked"))
        })
    });
    if other_coding {
        let detail = "the only transfer coding accepted is chunked";
        return Some(ApiError::NotImplemented(detail.into()));
    }
    // The request line and each header line as sent, with their separators.
    let target = request.uri().path_and_query();
    let head = request.method().as_str().len()
        + target.map_or(0, |target| target.as_str().len())
        + headers
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len() + 4)
            .sum::<usize>();
    (head > header_limit).then_some(ApiError::HeadersTooLarge {
        limit: header_limit,
    })
}

/// Whether `value` is a `Host` header's value: empty (a target with no authority), or a
/// host and optional port, without user information (RFC 9112, section 3.2).
fn is_host(value: &HeaderValue) -> bool {
    let Ok(text) = value.to_str() else {
        return false;
    };
    // The port, if any: after the last `:` that is not inside an IPv6 address.
    let port = match text.rsplit_once(':') {
        Some((_, port)) if !port.contains(']') => port,
        _ => "",
    };
    text.is_empty()
        || (text.parse::<Authority>().is_ok()
            && !text.contains('@')
            && (port.is_empty()
                || port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok()))
}

/// A request on its way to its answer, counted and logged once: answered, or dropped.
struct PendingRequest {
    route: Option<MatchedPath>,
    started: Instant,
    /// Taken when the request is counted.
    metrics: Option<Metrics>,
    span: Span,
}

impl PendingRequest {
    fn answered(&mut self, status: StatusCode) {
        let Some(metrics) = self.metrics.take() else {
            return;
        };
        let latency = self.started.elapsed();
        let route = self
            .route
            .as_ref()
            .map_or(UNMATCHED_ROUTE, MatchedPath::as_str);
        metrics.observe_request(route, status, latency);
        let _entered = self.span.enter();
        let status = status.as_u16();
        // A number in one unit, which log queries can compare and add up, to the
        // microsecond (whole microseconds over 1000 print without float noise).
        let latency_ms = latency.as_micros() as f64 / 1e3;
        // 5xx are warnings: timeouts and overload are not bugs, and real bugs are logged
        // as errors where they surface.
        if status == CLIENT_CLOSED_REQUEST {
            tracing::info!(status, latency_ms, "client went away before the answer");
        } else if status >= 500 {
            tracing::warn!(status, latency_ms, "answered");
        } else {
            tracing::info!(status, latency_ms, "answered");
        }
    }
}

impl Drop for PendingRequest {
    fn drop(&mut self) {
        let status = StatusCode::from_u16(CLIENT_CLOSED_REQUEST).expect("a valid status");
        self.answered(status);
    }
}

/// A streamed answer whose request is logged and counted when its last piece is handed
/// over, or with status 499 when it is dropped before (the client went away).
struct ObservedStream {
    body: Body,
    pending: PendingRequest,
    status: StatusCode,
}

impl http_body::Body for ObservedStream {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let frame = std::task::ready!(Pin::new(&mut self.body).poll_frame(cx));
        if frame.is_none() || self.body.is_end_stream() {
            let status = self.status;
            self.pending.answered(status);
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The answer to a panic: 500 `internal`, with the panic message in the log only.
fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response {
    ApiError::from_panic("handler", &*panic).into_response()
}
