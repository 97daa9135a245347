//! `POST /rate`, `POST /explain` and `POST /hint`: a puzzle's Sudoku Explainer ratings, the
//! whole path a person takes through it, and the next step from a player's state. Every
//! one runs on the solver pool, under the same bound and time limit as `/solve`.

use std::num::NonZeroU64;

use axum::extract::State;
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::AppState;
use super::dto::GridInput;
use super::json::ApiJson;
use super::on_pool::{on_pool, time_limit};
use super::problem::ApiError;
use crate::answers::{
    ExplainResponse, HintResponse, MistakeJson, RateResponse, explain_response, rate_response,
    step_json,
};
use crate::solver_pool::Effort;
use sudoku_engine::logic::board::Digits;
use sudoku_engine::logic::{self, Hint, MistakeKind};

/// The body of `POST /rate` and `POST /explain`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    /// The puzzle.
    pub grid: Option<GridInput>,
    /// Variant rules, which these endpoints do not answer yet.
    pub rules: Option<IgnoredAny>,
    /// An f-puzzles document, which these endpoints do not answer yet.
    pub fpuzzles: Option<IgnoredAny>,
    /// A time limit below the server's, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
}

/// The body of `POST /hint`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The puzzle's givens.
    pub puzzle: Option<GridInput>,
    /// Variant rules, which `/hint` does not answer yet.
    pub rules: Option<IgnoredAny>,
    /// An f-puzzles document, which `/hint` does not answer yet.
    pub fpuzzles: Option<IgnoredAny>,
    /// The player's grid: the givens and the digits they placed.
    pub grid: GridInput,
    /// The player's pencil marks: one entry per cell, row-major, the candidate symbols
    /// they kept, or `null` where they keep none.
    pub candidates: Option<Vec<Option<String>>>,
    /// A time limit below the server's, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
}

/// The classic grid of a request's `field`: 422 `unsupported_rules` when the request has
/// `rules` or `fpuzzles` too, and `invalid_request` when the field is missing.
pub(super) fn classic_only<'a>(
    grid: Option<&'a GridInput>,
    [rules, fpuzzles]: [&Option<IgnoredAny>; 2],
    field: &str,
) -> Result<&'a GridInput, ApiError> {
    if rules.is_some() || fpuzzles.is_some() {
        return Err(ApiError::UnsupportedRules);
    }
    grid.ok_or_else(|| ApiError::InvalidRequest(format!("missing field `{field}`")))
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
    let grid = classic_only(
        request.grid.as_ref(),
        [&request.rules, &request.fpuzzles],
        "grid",
    )?
    .parse()?;
    if grid.size() != 9 {
        let size = grid.size();
        return Err(ApiError::UnsupportedSize { size });
    }
    let rating = on_pool(
        &state,
        time_limit(&state, request.timeout_ms),
        Effort::Heavy,
        move |cancel| logic::rate(&grid, cancel),
    )
    .await?;
    Ok(rate_response(&rating))
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
    let input = classic_only(
        request.grid.as_ref(),
        [&request.rules, &request.fpuzzles],
        "grid",
    )?;
    let grid = input.parse()?;
    let explanation = on_pool(
        &state,
        time_limit(&state, request.timeout_ms),
        Effort::Heavy,
        move |cancel| logic::explain(&grid, cancel),
    )
    .await?;
    Ok(explain_response(
        &explanation,
        input.render(&explanation.solution),
    ))
}

/// The next step for the player of the request, or their mistakes.
pub async fn hint(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<HintRequest>,
) -> Result<ApiJson<HintResponse>, ApiError> {
    let in_field = |field| move |error| ApiError::InvalidGridField { field, error };
    let puzzle = classic_only(
        request.puzzle.as_ref(),
        [&request.rules, &request.fpuzzles],
        "puzzle",
    )?;
    let puzzle = puzzle.parse().map_err(in_field("puzzle"))?;
    let grid = request.grid.parse().map_err(in_field("grid"))?;
    let marks = request
        .candidates
        .as_deref()
        .map(|marks| parse_marks(marks, puzzle.size()))
        .transpose()?;
    let size = puzzle.size();
    let answer = on_pool(
        &state,
        time_limit(&state, request.timeout_ms),
        Effort::Light,
        move |cancel| logic::hint(&puzzle, &grid, marks.as_deref(), cancel),
    )
    .await?;
    Ok(ApiJson(match answer {
        Hint::Step(step) => HintResponse::Step {
            step: step_json(&step, size, size == 9),
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
    }))
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
