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
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body::{Body as _, Frame, SizeHint};
use tower::{Layer, Service, ServiceBuilder};
use tower_http::ServiceBuilderExt;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, RequestId};
use tower_http::trace::{OnResponse, TraceLayer};
use tracing::Span;

use super::Limits;
use super::metrics::Metrics;
use super::problem::ApiError;
use crate::server::{FramingLayer, FramingViolation};

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
    router.layer(
        ServiceBuilder::new()
            // Outermost: every request gets an id (a client's own x-request-id is kept if
            // it is short, visible ASCII) before anything logs, and the response carries
            // it back.
            .map_request(drop_unfit_request_id)
            .set_x_request_id(MakeRequestUuid)
            .propagate_x_request_id()
            // One span per request, holding the id; one log line and one count per
            // answer of known length, when it is made.
            .layer(
                TraceLayer::new_for_http()
                    .make_span_with(request_span)
                    .on_request(())
                    .on_response(RecordAnswer(metrics.clone()))
                    .on_body_chunk(())
                    .on_eos(())
                    .on_failure(()),
            )
            // TraceLayer has no hook for a request dropped before its answer: this guard
            // logs and counts it with status 499, and a streamed answer (a batch) once its
            // last piece is handed over, or with 499 when it is dropped before.
            .layer(AbandonGuardLayer(metrics))
            // What HTTP's framing rules forbid is refused before any route sees it.
            .layer(FramingLayer::new(limits.header_limit_bytes, refuse))
            .map_response(IntoResponse::into_response)
            // A panicking handler becomes 500 `internal`; the server keeps serving.
            .layer(CatchPanicLayer::custom(panic_response))
            // Innermost: the body limit that the JSON extractor's reader enforces with 413
            // `payload_too_large` while it reads, so a chunked body without a length is
            // held to it too. (tower-http's RequestBodyLimitLayer would answer 413 itself,
            // in plain text.)
            .layer(DefaultBodyLimit::max(limits.body_limit_bytes)),
    )
}

/// The problem a request that breaks HTTP's framing rules gets.
fn refuse(violation: FramingViolation) -> Response {
    let problem = match violation {
        FramingViolation::HostCount | FramingViolation::BadHost => {
            ApiError::BadRequest(violation.to_string())
        }
        FramingViolation::TransferCoding => ApiError::NotImplemented(violation.to_string()),
        FramingViolation::HeadTooLarge(limit) => ApiError::HeadersTooLarge { limit },
    };
    problem.into_response()
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

/// Logs and counts an answer of known length when TraceLayer sees it made; a streamed
/// answer is left to [`AbandonGuard`], which marks the ones it hands over.
#[derive(Clone)]
struct RecordAnswer(Metrics);

/// The route of an answer of known length, put in its extensions by [`AbandonGuard`] for
/// [`RecordAnswer`] to count.
#[derive(Clone)]
struct AnsweredRoute(Option<MatchedPath>);

impl<B> OnResponse<B> for RecordAnswer {
    fn on_response(self, response: &Response<B>, latency: Duration, _span: &Span) {
        if let Some(AnsweredRoute(route)) = response.extensions().get() {
            record_answer(&self.0, route.as_ref(), response.status(), latency);
        }
    }
}

/// Logs (in the current span) and counts a request that ended with `status` after
/// `latency`.
fn record_answer(
    metrics: &Metrics,
    route: Option<&MatchedPath>,
    status: StatusCode,
    latency: Duration,
) {
    let route = route.map_or(UNMATCHED_ROUTE, MatchedPath::as_str);
    metrics.observe_request(route, status, latency);
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

/// Counts a request dropped before its answer (its client went away, or the server closed
/// the connection) with status 499, and a streamed answer when its last piece is handed
/// over (or with 499 when it is dropped before). A tower layer rather than `from_fn`,
/// which boxes the inner service and two futures on every request: this runs on every
/// request, and `/healthz` is mostly this.
#[derive(Clone)]
struct AbandonGuardLayer(Metrics);

impl<S> Layer<S> for AbandonGuardLayer {
    type Service = AbandonGuard<S>;

    fn layer(&self, inner: S) -> AbandonGuard<S> {
        AbandonGuard {
            inner,
            metrics: self.0.clone(),
        }
    }
}

/// The service of [`AbandonGuardLayer`].
#[derive(Clone)]
struct AbandonGuard<S> {
    inner: S,
    metrics: Metrics,
}

impl<S, B> Service<Request> for AbandonGuard<S>
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
        let mut pending = PendingRequest {
            // A matched path is shared, so keeping it costs no copy of the route.
            route: request.extensions().get::<MatchedPath>().cloned(),
            started: Instant::now(),
            metrics: Some(self.metrics.clone()),
            // TraceLayer calls this in the request's span.
            span: Span::current(),
        };
        let answer = self.inner.call(request);
        Box::pin(async move {
            let mut response = answer.await?.map(Body::new);
            // An answer of known length is done when it is made; a streamed one (a batch)
            // only when its last piece is handed over.
            if response.body().size_hint().exact().is_some() {
                response.extensions_mut().insert(pending.hand_over());
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

/// A request on its way to its answer, counted and logged once: answered, or dropped.
struct PendingRequest {
    route: Option<MatchedPath>,
    started: Instant,
    /// Taken when the request is counted.
    metrics: Option<Metrics>,
    span: Span,
}

impl PendingRequest {
    /// Leaves the log line and the count of an answer of known length to
    /// [`RecordAnswer`], with the route it needs.
    fn hand_over(&mut self) -> AnsweredRoute {
        self.metrics = None;
        AnsweredRoute(self.route.take())
    }

    fn answered(&mut self, status: StatusCode) {
        if let Some(metrics) = self.metrics.take() {
            let _entered = self.span.enter();
            record_answer(
                &metrics,
                self.route.as_ref(),
                status,
                self.started.elapsed(),
            );
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
