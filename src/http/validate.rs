//! `POST /validate`: which givens clash, whether the grid is finished, and on request
//! whether it can be solved and how many ways.

use axum::extract::State;

use super::AppState;
use super::dto::{ValidateRequest, ValidateResponse};
use super::json::ApiJson;
use super::problem::ApiError;
use super::solve::solve_on_pool;
use sudoku_engine::solver::{Order, Outcome, SolveOptions};
use sudoku_engine::validate::validate;

/// Checks the grid of the request against the rules; 200 for any well-formed grid.
pub async fn validate_grid(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ValidateRequest>,
) -> Result<ApiJson<ValidateResponse>, ApiError> {
    answer(state, request).await.map(ApiJson)
}

/// The answer to a validate request (a line of a batch, or the body of `/validate`).
pub async fn answer(
    state: AppState,
    request: ValidateRequest,
) -> Result<ValidateResponse, ApiError> {
    let grid = request.grid.parse()?;
    let verdict = validate(&grid);
    let (solvable, unique) = if !request.solvable {
        (None, None)
    } else if !verdict.valid {
        // Clashing givens cannot be completed; no need to ask the solver.
        (Some(false), Some(false))
    } else {
        let options = SolveOptions {
            order: Order::Fastest,
            limit: 2,
        };
        match solve_on_pool(&state, grid, options, None).await?.outcome {
            Outcome::Solved { count, .. } => (Some(true), Some(count == 1)),
            _ => (Some(false), Some(false)),
        }
    };
    Ok(ValidateResponse {
        verdict,
        solvable,
        unique,
    })
}
