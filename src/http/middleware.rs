//! The middleware around every route, composed in one place.
//!
//! With `ServiceBuilder` the first layer is the outermost: it sees the request first and
//! the response last. The order below follows from what each layer needs to see.
//! `Router::layer` wraps each route after routing, so the span and the metrics know the
//! matched route, and the 404 and 405 fallbacks get the same layers as the routes.

use std::any::Any;
use std::time::Instant;

use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use tower::ServiceBuilder;
use tower_http::ServiceBuilderExt;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{MakeRequestUuid, RequestId};
use tower_http::trace::{DefaultOnFailure, DefaultOnResponse, TraceLayer};
use tracing::{Level, Span};

use super::metrics::Metrics;
use super::problem::ApiError;

/// The route label of requests that matched no route, so odd paths cannot grow the
/// number of metric series without bound.
const UNMATCHED_ROUTE: &str = "unmatched";

/// Wraps every route of `router` (and its fallbacks) in the service's middleware.
pub fn with_layers<S>(router: Router<S>, metrics: Metrics, body_limit_bytes: usize) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    router.layer(
        ServiceBuilder::new()
            // Outermost: every request gets an id (a client's own x-request-id is kept)
            // before anything logs, and the response carries it back.
            .set_x_request_id(MakeRequestUuid)
            .propagate_x_request_id()
            // One span per request, holding the id; one log line per response with its
            // status and latency. 5xx are warnings: timeouts and overload are not bugs,
            // and real bugs are logged as errors where they surface.
            .layer(
                TraceLayer::new_for_http()
                    .make_span_with(request_span)
                    .on_response(DefaultOnResponse::new().level(Level::INFO))
                    .on_failure(DefaultOnFailure::new().level(Level::WARN)),
            )
            // Counts every answer, including the 500s that the next layer makes of panics.
            .layer(from_fn_with_state(metrics, record_request))
            // A panicking handler becomes 500 `internal`; the server keeps serving.
            .layer(CatchPanicLayer::custom(panic_response))
            // Innermost: the body limit that axum's extractors enforce with 413
            // `payload_too_large` (the JSON extractor's own reader of plain
            // `application/json` bodies holds them to the same number). It applies while
            // the body is read, so a chunked body without a length is held to it too.
            // (tower-http's RequestBodyLimitLayer would answer 413 itself, in plain text.)
            .layer(DefaultBodyLimit::max(body_limit_bytes)),
    )
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

/// Records the request's route, status and latency.
async fn record_request(State(metrics): State<Metrics>, request: Request, next: Next) -> Response {
    // A matched path is shared, so keeping it costs no copy of the route.
    let route = request.extensions().get::<MatchedPath>().cloned();
    let started = Instant::now();
    let response = next.run(request).await;
    let route = route.as_ref().map_or(UNMATCHED_ROUTE, MatchedPath::as_str);
    metrics.observe_request(route, response.status(), started.elapsed());
    response
}

/// The answer to a panic: 500 `internal`, with the panic message in the log only.
fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    ApiError::Internal {
        cause: format!("handler panicked: {message}"),
    }
    .into_response()
}
