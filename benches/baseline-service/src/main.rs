//! The yardstick the service is measured against: `POST /solve {"grid": "<81 symbols>"}`
//! answers `{"solution": "..."}` and `GET /healthz` answers `ok`, written as most would
//! write it: `axum::serve`, each solve on `spawn_blocking` with the `sudoku` crate, and a
//! timeout around the join. It listens on 0.0.0.0 at `PORT` (8090 without it).

use std::time::Duration;

use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use sudoku::Sudoku;

#[derive(Deserialize)]
struct SolveRequest {
    grid: String,
}

#[derive(Serialize)]
struct SolveResponse {
    solution: String,
}

type Failure = (StatusCode, String);

async fn solve(Json(request): Json<SolveRequest>) -> Result<Json<SolveResponse>, Failure> {
    let solving = tokio::task::spawn_blocking(move || {
        let sudoku = Sudoku::from_str_line(&request.grid)
            .map_err(|error| (StatusCode::UNPROCESSABLE_ENTITY, error.to_string()))?;
        let solution = sudoku
            .some_solution()
            .ok_or((StatusCode::UNPROCESSABLE_ENTITY, "unsolvable".to_owned()))?;
        Ok(solution.to_str_line().to_string())
    });
    let joined = tokio::time::timeout(Duration::from_secs(2), solving)
        .await
        .map_err(|_| (StatusCode::SERVICE_UNAVAILABLE, "timeout".to_owned()))?;
    let solution =
        joined.map_err(|error| (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()))??;
    Ok(Json(SolveResponse { solution }))
}

#[tokio::main]
async fn main() {
    let port: u16 = std::env::var("PORT")
        .ok()
        .and_then(|port| port.parse().ok())
        .unwrap_or(8090);
    let app = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/solve", post(solve));
    let listener = tokio::net::TcpListener::bind(("0.0.0.0", port))
        .await
        .expect("the port is free");
    axum::serve(listener, app).await.expect("the server runs");
}
