//! The HTTP/JSON API: its routes, the state they share, and the middleware around them.
//!
//! A request flows one way: the `json` extractor reads its body into a `dto` type, the
//! handler (`solve`, `validate`) parses the grid and hands it to the `solver_pool`,
//! and the answer goes back as JSON, or as a `problem` (RFC 9457) when anything fails.
//! `ops` has the liveness, readiness, metrics and API description endpoints,
//! `metrics` the Prometheus registry, and `middleware` the layers around it all.

mod dto;
mod json;
mod metrics;
mod middleware;
mod ops;
mod problem;
mod solve;
mod solver_pool;
mod validate;

pub(crate) use solver_pool::take_quick_lane;

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::handler::Handler;
use axum::http::{Method, Uri};
use axum::routing::{MethodFilter, MethodRouter, on};

pub use metrics::Metrics;
pub use middleware::with_layers;
pub use ops::Readiness;
use problem::ApiError;
use solver_pool::SolverPool;

/// The limits the API enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest a solve may run (requests may ask for less).
    pub solve_timeout: Duration,
    /// Solves that run at once.
    pub solver_concurrency: NonZeroUsize,
    /// Solve requests that may wait for a solver before new ones are turned away.
    pub queue_length: usize,
    /// Largest request body accepted, in bytes.
    pub body_limit_bytes: usize,
}

/// What every handler shares; cheap to clone.
///
/// One shared allocation: handlers take the state by value on every request, and one
/// reference count is cheaper to clone than the dozen the parts hold.
#[derive(Clone)]
pub struct AppState(Arc<SharedState>);

struct SharedState {
    limits: Limits,
    pool: SolverPool,
    metrics: Metrics,
    readiness: Readiness,
}

impl AppState {
    /// Fresh state (an idle solver pool, zeroed metrics, ready) under `limits`.
    pub fn new(limits: Limits) -> Self {
        Self::for_threads(limits, NonZeroUsize::MIN)
    }

    /// Fresh state under `limits` for a server that serves its requests on `threads`
    /// threads, which then queue their solves apart.
    pub fn for_threads(limits: Limits, threads: NonZeroUsize) -> Self {
        let metrics = Metrics::new(limits.solver_concurrency.get());
        AppState(Arc::new(SharedState {
            pool: SolverPool::new(&limits, metrics.clone(), threads),
            metrics,
            readiness: Readiness::new(),
            limits,
        }))
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.0.limits
    }

    /// The metrics this server records.
    pub fn metrics(&self) -> &Metrics {
        &self.0.metrics
    }

    /// Whether the server takes new work.
    pub fn readiness(&self) -> &Readiness {
        &self.0.readiness
    }

    fn pool(&self) -> &SolverPool {
        &self.0.pool
    }
}

/// The whole API as a router, with its middleware; serve it or call it with `oneshot`.
pub fn app(state: AppState) -> Router {
    let router = endpoints()
        .into_iter()
        .fold(Router::new(), |router, endpoint| {
            router.route(endpoint.path, endpoint.handler)
        })
        .fallback(not_found)
        // After the routes: it applies to the routes that exist when it is called.
        .method_not_allowed_fallback(method_not_allowed);
    with_layers(
        router,
        state.metrics().clone(),
        state.limits().body_limit_bytes,
    )
    .with_state(state)
}

/// Every method and path the API serves (`openapi.yaml` must describe each one).
pub fn routes() -> Vec<(Method, &'static str)> {
    endpoints()
        .into_iter()
        .map(|endpoint| (endpoint.method, endpoint.path))
        .collect()
}

/// One route: the method and path it answers, and its handler.
struct Endpoint {
    method: Method,
    path: &'static str,
    handler: MethodRouter<AppState>,
}

/// The route table, the single list both [`app`] and [`routes`] read.
fn endpoints() -> Vec<Endpoint> {
    vec![
        endpoint(Method::POST, "/solve", solve::solve),
        endpoint(Method::POST, "/validate", validate::validate_grid),
        endpoint(Method::GET, "/healthz", ops::healthz),
        endpoint(Method::GET, "/readyz", ops::readyz),
        endpoint(Method::GET, "/metrics", ops::metrics),
        endpoint(Method::GET, "/openapi.yaml", ops::openapi),
    ]
}

fn endpoint<H, T>(method: Method, path: &'static str, handler: H) -> Endpoint
where
    H: Handler<T, AppState>,
    T: 'static,
{
    let filter = MethodFilter::try_from(method.clone()).expect("route methods are standard");
    Endpoint {
        method,
        path,
        handler: on(filter, handler),
    }
}

/// The answer for a path no route has.
async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound {
        path: uri.path().to_owned(),
    }
}

/// The answer for a known path with a method it does not take.
async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed {
        method,
        path: uri.path().to_owned(),
    }
}
