//! `POST /solve`: a grid in, its solution out, in the notation it came in.

use axum::extract::State;

use super::AppState;
use super::dto::{SolveRequest, SolveResponse, SolveStats};
use super::json::ApiJson;
use super::problem::ApiError;
use crate::solver::SolveOptions;
use crate::validate::validate;

/// Solves the grid of the request, or says why not.
pub async fn solve(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<SolveRequest>,
) -> Result<ApiJson<SolveResponse>, ApiError> {
    let grid = request.grid.parse()?;
    // Clashing givens make the grid unsolvable; saying where they clash is more useful
    // than a bare `unsolvable`, and costs no solver time.
    let verdict = validate(&grid);
    if !verdict.valid {
        return Err(ApiError::ConflictingGivens(verdict.conflicts));
    }
    let options = SolveOptions {
        order: request.order.into(),
        // A second solution is all it takes to know the first is not unique.
        limit: if request.unique { 2 } else { 1 },
    };
    let solved = state
        .pool()
        .solve(grid, options, request.timeout_ms)
        .await?
        .ok_or(ApiError::Unsolvable)?;
    Ok(ApiJson(SolveResponse {
        solution: request.grid.render(&solved.solution),
        unique: request.unique.then_some(solved.count == 1),
        stats: SolveStats {
            elapsed_us: solved.elapsed.as_micros(),
            guesses: solved.guesses,
        },
    }))
}
