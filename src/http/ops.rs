//! Operations endpoints: liveness, readiness, metrics and the API description. None of
//! them goes through the solver pool, so they answer even when every solver is busy.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::Json;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use serde_json::{Value, json};

use super::AppState;
use super::problem::ApiError;

/// The OpenAPI description of this API, served as it is in the repository.
const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

/// Whether the server should be sent new work (what `/readyz` says); cleared once
/// shutdown starts, while requests that still arrive are served until the drain ends.
#[derive(Debug, Clone)]
pub struct Readiness(Arc<AtomicBool>);

impl Readiness {
    /// A server that is ready.
    pub fn new() -> Self {
        Readiness(Arc::new(AtomicBool::new(true)))
    }

    /// Marks the server as shutting down; `/readyz` answers 503 from now on.
    pub fn start_draining(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether `/readyz` still says ready.
    pub fn is_ready(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl Default for Readiness {
    fn default() -> Self {
        Self::new()
    }
}

/// `GET /healthz`: the process is alive and serving HTTP. The body is a constant, so
/// the probe that load balancers send most often costs no JSON writing.
pub async fn healthz() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], r#"{"status":"ok"}"#)
}

/// `GET /readyz`: whether to send the server new work (503 `draining` once shutdown
/// starts).
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    if state.readiness().is_ready() {
        Ok(Json(json!({ "status": "ready" })))
    } else {
        Err(ApiError::Draining)
    }
}

/// `GET /metrics`: every metric in the Prometheus text format.
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        state.metrics().render(state.pool().occupancy()),
    )
}

/// `GET /openapi.yaml`: the OpenAPI 3.1 description of this API.
pub async fn openapi() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/yaml")], OPENAPI_YAML)
}
