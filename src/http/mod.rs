//! The HTTP/JSON API: its routes, the state they share, and the middleware around them.
//!
//! A request flows one way: the `json` extractor reads its body (`body`: under the body
//! limit, a time limit and the server's budget of buffered bytes) into a `dto` type, the
//! handler (`solve`, `validate`) parses the grid and hands it to the
//! [`crate::solver_pool::SolverPool`], and the answer goes back as JSON, or as
//! a `problem` (RFC 9457) when anything fails. `ops` has the liveness, readiness, metrics
//! and API description endpoints, `playground` the web page at `/`, `metrics` the
//! Prometheus registry, and `middleware` the layers around it all.

mod batch;
mod body;
mod dto;
mod explain;
mod generate;
mod json;
mod metrics;
mod middleware;
mod on_pool;
mod ops;
mod playground;
mod problem;
mod solve;
mod validate;
mod variant;

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::handler::Handler;
use axum::http::{Method, Uri};
use axum::routing::{MethodFilter, MethodRouter, on};

use batch::LineWork;
use body::BodyBudget;
pub use metrics::Metrics;
pub use middleware::with_layers;
pub use ops::Readiness;
use problem::ApiError;

use crate::solver_pool::{PoolLimits, SolverPool};

/// The limits the API enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest a solve may run (requests may ask for less).
    pub solve_timeout: Duration,
    /// Longest a generation may run.
    pub generate_timeout: Duration,
    /// Solves that run at once.
    pub solver_concurrency: NonZeroUsize,
    /// Solve requests that may wait for a solver before new ones are turned away.
    pub queue_length: usize,
    /// Largest request body accepted, in bytes.
    pub body_limit_bytes: usize,
    /// Longest a whole request body may take to arrive.
    pub body_read_timeout: Duration,
    /// Request body bytes that all requests together may hold in memory.
    pub body_budget_bytes: usize,
    /// Largest request head accepted (request line and headers), in bytes.
    pub header_limit_bytes: usize,
    /// Largest batch body accepted, in bytes.
    pub batch_body_limit_bytes: usize,
    /// Most lines a batch may have.
    pub batch_max_lines: usize,
    /// Slowest average rate at which a batch body may arrive, in bytes per second, once
    /// `body_read_timeout` has passed.
    pub batch_min_read_rate: u32,
    /// Longest a whole batch may take, from when it starts to its last answer.
    pub batch_timeout: Duration,
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
    body_budget: BodyBudget,
    metrics: Metrics,
    readiness: Readiness,
}

impl AppState {
    /// Fresh state (an idle solver pool, a full body budget, zeroed metrics, ready) under
    /// `limits`.
    pub fn new(limits: Limits) -> Self {
        let metrics = Metrics::new(limits.solver_concurrency.get());
        let pool_limits = PoolLimits {
            concurrency: limits.solver_concurrency.get(),
            queue_length: limits.queue_length,
            time_limit: limits.solve_timeout,
        };
        AppState(Arc::new(SharedState {
            pool: SolverPool::new(pool_limits),
            body_budget: BodyBudget::new(limits.body_budget_bytes),
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

    /// Whether `/readyz` says ready.
    pub fn readiness(&self) -> &Readiness {
        &self.0.readiness
    }

    /// The budget of buffered request body bytes.
    pub(super) fn body_budget(&self) -> &BodyBudget {
        &self.0.body_budget
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
    with_layers(router, state.metrics().clone(), state.limits()).with_state(state)
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
        endpoint(Method::POST, "/rate", explain::rate),
        endpoint(Method::POST, "/explain", explain::explain),
        batch_endpoint("/solve/batch", batch::route(solve::answer, LineWork::Light)),
        batch_endpoint(
            "/validate/batch",
            batch::route(validate::answer, LineWork::Light),
        ),
        batch_endpoint(
            "/rate/batch",
            batch::route(explain::rate_answer, LineWork::Heavy),
        ),
        batch_endpoint(
            "/explain/batch",
            batch::route(explain::explain_answer, LineWork::Heavy),
        ),
        endpoint(Method::POST, "/hint", explain::hint),
        endpoint(Method::POST, "/generate", generate::generate),
        endpoint(Method::GET, "/healthz", ops::healthz),
        endpoint(Method::GET, "/readyz", ops::readyz),
        endpoint(Method::GET, "/metrics", ops::metrics),
        endpoint(Method::GET, "/openapi.yaml", ops::openapi),
        endpoint(Method::GET, "/", playground::page),
        endpoint(Method::GET, "/playground.js", playground::script),
        endpoint(Method::GET, "/playground.css", playground::style),
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

/// A batch route (batches are POSTed).
fn batch_endpoint(path: &'static str, handler: MethodRouter<AppState>) -> Endpoint {
    Endpoint {
        method: Method::POST,
        path,
        handler,
    }
}

/// The answer for a path no route has, pointing to a route that differs from it only in
/// case or a trailing `/`; a target with no path (`CONNECT host:port`) is named whole.
async fn not_found(uri: Uri) -> ApiError {
    let path = match uri.path() {
        "" => uri.to_string(),
        path => path.to_owned(),
    };
    let trimmed = path.trim_end_matches('/');
    let suggestion = routes()
        .into_iter()
        .map(|(_, route)| route)
        .find(|route| route.eq_ignore_ascii_case(trimmed));
    ApiError::NotFound { path, suggestion }
}

/// The answer for a known path with a method it does not take.
async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed {
        method,
        path: uri.path().to_owned(),
    }
}
