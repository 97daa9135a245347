//! `POST /rate`, `POST /explain` and `POST /hint`: a puzzle's Sudoku Explainer ratings, the
//! whole path a person takes through it, and the next step from a player's state. Every
//! one runs on the solver pool, under the same bound and time limit as `/solve`.

use std::num::NonZeroU64;

use axum::extract::State;
use serde::Deserialize;
use serde_json::Value;

use super::AppState;
use super::dto::GridInput;
use super::json::ApiJson;
use super::on_pool::{on_pool, time_limit};
use super::problem::ApiError;
use super::variant::{self, Input};
use crate::answers::{
    ExplainResponse, HintResponse, MistakeJson, RateResponse, candidates_json, explain_response,
    rate_response, step_json, variant_explain_response,
};
use crate::solver_pool::Effort;
use sudoku_engine::logic::board::Digits;
use sudoku_engine::logic::modes::VariantMode;
use sudoku_engine::logic::{self, Hint, MistakeKind};

/// The body of `POST /rate` and `POST /explain`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    /// The puzzle.
    pub grid: Option<GridInput>,
    /// Variant rules on the grid (`/rate` rates those of Sukaku Explainer's modes).
    pub rules: Option<Value>,
    /// An f-puzzles document in place of the grid.
    pub fpuzzles: Option<Value>,
    /// A time limit below the server's, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
}

/// The body of `POST /hint`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The puzzle's givens (not with `fpuzzles`, which brings its own).
    pub puzzle: Option<GridInput>,
    /// Variant rules on the puzzle.
    pub rules: Option<Value>,
    /// An f-puzzles document: the puzzle with its givens.
    pub fpuzzles: Option<Value>,
    /// The player's grid: the givens and the digits they placed.
    pub grid: GridInput,
    /// The player's pencil marks: one entry per cell, row-major, the candidate symbols
    /// they kept, or `null` where they keep none.
    pub candidates: Option<Vec<Option<String>>>,
    /// A time limit below the server's, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
}

/// Rates the puzzle of the request.
pub async fn rate(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<PuzzleRequest>,
) -> Result<ApiJson<RateResponse>, ApiError> {
    rate_answer(state, request).await.map(ApiJson)
}

/// The answer to a rate request (a line of a batch, or the body of `/rate`).
pub async fn rate_answer(
    state: AppState,
    request: PuzzleRequest,
) -> Result<RateResponse, ApiError> {
    let limit = time_limit(&state, request.timeout_ms);
    let input = variant::read(
        "grid",
        request.grid.as_ref(),
        request.rules.as_ref(),
        request.fpuzzles.as_ref(),
    )?;
    let puzzle = match input {
        Input::Classic(input) => {
            let grid = input.parse()?;
            if grid.size() != 9 {
                let size = grid.size();
                return Err(ApiError::UnsupportedSize { size });
            }
            let rating = on_pool(&state, limit, Effort::Heavy, move |cancel| {
                logic::rate(&grid, cancel)
            })
            .await?;
            return Ok(rate_response(&rating, None));
        }
        Input::Variant { puzzle, .. } => puzzle,
    };
    if puzzle.size() != 9 {
        let size = puzzle.size();
        return Err(ApiError::UnsupportedSize { size });
    }
    VariantMode::of(&puzzle).map_err(ApiError::NoScale)?;
    let (rating, mode) = on_pool(&state, limit, Effort::Heavy, move |cancel| {
        logic::rate_variant(&puzzle, cancel)
    })
    .await?;
    Ok(rate_response(&rating, Some(mode)))
}

/// Explains the puzzle of the request, step by step.
pub async fn explain(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<PuzzleRequest>,
) -> Result<ApiJson<ExplainResponse>, ApiError> {
    explain_answer(state, request).await.map(ApiJson)
}

/// The answer to an explain request (a line of a batch, or the body of `/explain`).
pub async fn explain_answer(
    state: AppState,
    request: PuzzleRequest,
) -> Result<ExplainResponse, ApiError> {
    let limit = time_limit(&state, request.timeout_ms);
    let input = variant::read(
        "grid",
        request.grid.as_ref(),
        request.rules.as_ref(),
        request.fpuzzles.as_ref(),
    )?;
    let (puzzle, rows) = match input {
        Input::Classic(input) => {
            let grid = input.parse()?;
            let explanation = on_pool(&state, limit, Effort::Heavy, move |cancel| {
                logic::explain(&grid, cancel)
            })
            .await?;
            let solution = input.render(&explanation.solution);
            return Ok(explain_response(&explanation, solution));
        }
        Input::Variant { puzzle, rows } => (puzzle, rows),
    };
    let size = puzzle.size();
    let explanation = on_pool(&state, limit, Effort::Heavy, move |cancel| {
        logic::explain_variant(&puzzle, cancel)
    })
    .await?;
    Ok(variant_explain_response(
        &explanation,
        variant::render(&explanation.solution, size, rows),
        size,
    ))
}

/// The next step for the player of the request, or their mistakes.
pub async fn hint(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<HintRequest>,
) -> Result<ApiJson<HintResponse>, ApiError> {
    let in_field = |field| move |error| ApiError::InvalidGridField { field, error };
    let limit = time_limit(&state, request.timeout_ms);
    let input = variant::read(
        "puzzle",
        request.puzzle.as_ref(),
        request.rules.as_ref(),
        request.fpuzzles.as_ref(),
    )?;
    let puzzle = match input {
        Input::Variant { puzzle, .. } => puzzle,
        Input::Classic(puzzle) => {
            let puzzle = puzzle.parse().map_err(in_field("puzzle"))?;
            let grid = request.grid.parse().map_err(in_field("grid"))?;
            let size = puzzle.size();
            let marks = marks_of(request.candidates.as_deref(), size)?;
            let answer = on_pool(&state, limit, Effort::Light, move |cancel| {
                logic::hint(&puzzle, &grid, marks.as_deref(), cancel)
            })
            .await?;
            return Ok(ApiJson(hint_response(answer, size, size == 9, Vec::new())));
        }
    };
    let size = puzzle.size();
    let grid = variant::values(&request.grid, size)?;
    let marks = marks_of(request.candidates.as_deref(), size)?;
    let (answer, candidates) = on_pool(&state, limit, Effort::Light, move |cancel| {
        logic::hint_variant(&puzzle, &grid, marks.as_deref(), cancel)
    })
    .await?;
    Ok(ApiJson(hint_response(answer, size, false, candidates)))
}

/// The pencil marks of a request, if it sent any.
fn marks_of(
    marks: Option<&[Option<String>]>,
    size: usize,
) -> Result<Option<Vec<Option<Digits>>>, ApiError> {
    marks.map(|marks| parse_marks(marks, size)).transpose()
}

/// A hint as the API answers it, its step `rated` or not; `candidates` are the player's
/// board's, for a stalled one.
fn hint_response(answer: Hint, size: usize, rated: bool, candidates: Vec<Digits>) -> HintResponse {
    match answer {
        Hint::Step(step) => HintResponse::Step {
            step: step_json(&step, size, rated),
        },
        Hint::Mistakes(mistakes) => HintResponse::Mistakes {
            mistakes: mistakes
                .iter()
                .map(|mistake| MistakeJson {
                    row: mistake.cell / size,
                    col: mistake.cell % size,
                    digit: mistake.digit,
                    kind: match mistake.kind {
                        MistakeKind::WrongDigit => "wrong_digit",
                        MistakeKind::RemovedCandidate => "removed_candidate",
                    },
                })
                .collect(),
        },
        Hint::Solved => HintResponse::Solved { solved: true },
        Hint::Stalled => HintResponse::Stalled {
            stalled: true,
            candidates: candidates_json(&candidates, size),
        },
    }
}

/// The pencil marks of a request: one entry per cell, each a string of candidate symbols
/// or `null`.
fn parse_marks(marks: &[Option<String>], size: usize) -> Result<Vec<Option<Digits>>, ApiError> {
    marks
        .iter()
        .enumerate()
        .map(|(cell, mark)| {
            let Some(mark) = mark else { return Ok(None) };
            mark.chars()
                .try_fold(0 as Digits, |digits, symbol| {
                    let digit = symbol
                        .to_digit(36)
                        .filter(|&d| d >= 1 && d as usize <= size);
                    digit.map(|digit| digits | 1 << (digit - 1)).ok_or_else(|| {
                        ApiError::InvalidRequest(format!(
                            "candidates[{cell}]: {symbol:?} is not a digit of a {size}×{size} grid"
                        ))
                    })
                })
                .map(Some)
        })
        .collect()
}
