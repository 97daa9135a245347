//! `POST /validate`: which givens clash, whether the grid is finished, and on request
//! whether it can be solved and how many ways.

use axum::extract::State;

use super::AppState;
use super::dto::{ValidateRequest, ValidateResponse};
use super::json::ApiJson;
use super::problem::ApiError;
use crate::solver::{Order, SolveOptions};
use crate::validate::validate;

/// Checks the grid of the request against the rules; 200 for any well-formed grid.
pub async fn validate_grid(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ValidateRequest>,
) -> Result<ApiJson<ValidateResponse>, ApiError> {
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
        let solved = state.pool().solve(grid, options, None).await?;
        (
            Some(solved.is_some()),
            Some(solved.is_some_and(|solved| solved.count == 1)),
        )
    };
    Ok(ApiJson(ValidateResponse {
        verdict,
        solvable,
        unique,
    }))
}
