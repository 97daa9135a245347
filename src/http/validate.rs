//! `POST /validate`: which givens clash (or, for variant input, which rules the grid
//! breaks), whether the grid is finished, and on request whether it can be solved and how
//! many ways.

use axum::extract::State;

use super::AppState;
use super::dto::{GridInput, ValidateRequest, ValidateResponse};
use super::json::ApiJson;
use super::on_pool::{on_pool, time_limit};
use super::problem::ApiError;
use super::solve::{is_unique, solve_on_pool, variant_on_pool};
use super::variant::{self, Input};
use crate::solver_pool::Effort;
use sudoku_engine::solver::{Order, Outcome, SolveOptions};
use sudoku_engine::validate::{Validation, validate};
use sudoku_engine::variant::{Puzzle, VariantSolveOptions, check};

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
    let input = variant::read(
        "grid",
        request.grid.as_ref(),
        request.rules.as_ref(),
        request.fpuzzles.as_ref(),
    )?;
    match input {
        Input::Classic(grid) => classic_answer(&state, grid, request.solvable).await,
        Input::Variant { puzzle, .. } => variant_answer(&state, puzzle, request.solvable).await,
    }
}

/// Checks a classic grid: which digits repeat in its rows, columns and boxes.
async fn classic_answer(
    state: &AppState,
    input: &GridInput,
    solvable: bool,
) -> Result<ValidateResponse, ApiError> {
    let grid = input.parse()?;
    let verdict = validate(&grid);
    let (solvable, unique) = if !solvable {
        (None, None)
    } else if !verdict.valid {
        // Clashing givens cannot be completed; no need to ask the solver.
        (Some(false), Some(false))
    } else {
        let options = SolveOptions {
            order: Order::Fastest,
            limit: 2,
        };
        match solve_on_pool(state, grid, options, None).await?.outcome {
            Outcome::Solved { count, .. } => (Some(true), Some(count == 1)),
            _ => (Some(false), Some(false)),
        }
    };
    Ok(ValidateResponse {
        verdict,
        solvable,
        unique,
        broken: None,
    })
}

/// Checks a variant puzzle's givens against every rule, houses included, on the solver
/// pool under the request's time limit; `conflicts` stays empty, since `broken` names every
/// rule broken.
async fn variant_answer(
    state: &AppState,
    puzzle: Puzzle,
    solvable: bool,
) -> Result<ValidateResponse, ApiError> {
    let checked = puzzle.clone();
    let limit = time_limit(state, None);
    let broken = on_pool(state, limit, Effort::Light, move |cancel| {
        check(&checked, cancel)
    })
    .await?;
    let valid = broken.is_empty();
    let complete = puzzle.givens().iter().all(Option::is_some);
    let (solvable, unique) = if !solvable {
        (None, None)
    } else if !valid {
        (Some(false), Some(false))
    } else {
        let options = VariantSolveOptions {
            order: Order::Fastest,
            max_solutions: 2,
            true_candidates: None,
            max_guesses: None,
        };
        let (answer, _) = variant_on_pool(state, puzzle, options, limit).await?;
        let solvable = answer.solution.is_some();
        (Some(solvable), Some(solvable && is_unique(&answer, limit)?))
    };
    Ok(ValidateResponse {
        verdict: Validation {
            valid,
            complete,
            solved: valid && complete,
            conflicts: Vec::new(),
        },
        solvable,
        unique,
        broken: Some(broken),
    })
}
