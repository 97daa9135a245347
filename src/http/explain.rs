//! `POST /rate`, `POST /explain` and `POST /hint`: a puzzle's Sudoku Explainer ratings, the
//! whole path a person takes through it, and the next step from a player's state. Every
//! one runs on the solver pool, under the same bound and time limit as `/solve`.

use std::num::NonZeroU64;

use axum::extract::State;
use serde::{Deserialize, Serialize};

use super::AppState;
use super::dto::{GridInput, GridOutput};
use super::json::ApiJson;
use super::problem::ApiError;
use sudoku_engine::logic::board::{Digits, HouseKind};
use sudoku_engine::logic::step::{Step, round_rating};
use sudoku_engine::logic::technique::Technique;
use sudoku_engine::logic::{self, Explanation, Hint, LogicError, MODEL, MistakeKind, Rating};
use sudoku_engine::solver::Cancellation;
use sudoku_engine::validate::{Cell, Unit};

/// The body of `POST /rate` and `POST /explain`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRequest {
    /// The puzzle.
    pub grid: GridInput,
    /// A time limit below the server's, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
}

/// The body of `POST /hint`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The puzzle's givens.
    pub puzzle: GridInput,
    /// The player's grid: the givens and the digits they placed.
    pub grid: GridInput,
    /// The player's pencil marks: one entry per cell, row-major, the candidate symbols
    /// they kept, or `null` where they keep none.
    pub candidates: Option<Vec<Option<String>>>,
    /// A time limit below the server's, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
}

/// The answer of `POST /rate`.
#[derive(Debug, Serialize)]
pub struct RateResponse {
    /// ER, one decimal.
    pub se: f64,
    /// ED: the first step's difficulty.
    pub ed: f64,
    /// EP: the hardest step up to the first digit placed.
    pub ep: f64,
    /// The band of `se`.
    pub level: &'static str,
    /// The technique of the step that set `se`; absent when there are no steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardest: Option<&'static str>,
    /// The number of steps.
    pub steps: usize,
    /// The techniques used, easiest first.
    pub techniques: Vec<TechniqueJson>,
    /// The rating model's version.
    pub model: &'static str,
}

/// One row of the histogram of techniques.
#[derive(Debug, Serialize)]
pub struct TechniqueJson {
    /// The technique's id.
    pub technique: &'static str,
    /// How many steps used it.
    pub count: usize,
    /// Its hardest use.
    pub se: f64,
}

/// The answer of `POST /explain`.
#[derive(Debug, Serialize)]
pub struct ExplainResponse {
    /// ER (9×9 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub se: Option<f64>,
    /// The band of `se` (9×9 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
    /// The solution, in the request's notation.
    pub solution: GridOutput,
    /// Every step, in order.
    pub steps: Vec<StepJson>,
    /// The rating model's version.
    pub model: &'static str,
}

/// The answer of `POST /hint`: a step, the player's mistakes, or that they are done.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum HintResponse {
    /// The easiest step from the player's state.
    Step {
        /// The step.
        step: StepJson,
    },
    /// Where the player's digits or marks contradict the solution.
    Mistakes {
        /// The mistakes.
        mistakes: Vec<MistakeJson>,
    },
    /// The grid is finished and correct.
    Solved {
        /// Always `true`.
        solved: bool,
    },
}

/// A mistake of the player.
#[derive(Debug, Serialize)]
pub struct MistakeJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The wrong digit, or the solution's digit that the marks removed.
    pub digit: u8,
    /// `wrong_digit` or `removed_candidate`.
    pub kind: &'static str,
}

/// A step, as the API writes it (coordinates 0-based).
#[derive(Debug, Serialize)]
pub struct StepJson {
    /// The technique's id.
    pub technique: &'static str,
    /// The step's difficulty, one decimal (9×9 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub se: Option<f64>,
    /// Digits placed.
    pub placements: Vec<PlacementJson>,
    /// Candidates removed.
    pub eliminations: Vec<EliminationJson>,
    /// The cells of the pattern.
    pub cells: Vec<Cell>,
    /// The houses of the pattern.
    pub houses: Vec<HouseJson>,
    /// A chain's nodes, in order (chains only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<ChainNodeJson>,
    /// One line in the community's notation (1-based `r1c1`).
    pub text: String,
}

/// A digit placed.
#[derive(Debug, Serialize)]
pub struct PlacementJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The digit.
    pub digit: u8,
}

/// Candidates removed from one cell.
#[derive(Debug, Serialize)]
pub struct EliminationJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The digits removed.
    pub digits: Vec<u8>,
}

/// A house of a pattern.
#[derive(Debug, Serialize)]
pub struct HouseJson {
    /// `row`, `column` or `box`.
    pub unit: Unit,
    /// 0-based index among its kind.
    pub index: usize,
}

/// A node of a chain.
#[derive(Debug, Serialize)]
pub struct ChainNodeJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The candidate.
    pub digit: u8,
    /// Whether the chain takes it as true.
    pub on: bool,
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
    let grid = request.grid.parse()?;
    if grid.size() != 9 {
        return Err(LogicError::UnsupportedSize(grid.size()).into());
    }
    let rating = on_pool(&state, request.timeout_ms, move |cancel| {
        logic::rate(&grid, cancel)
    })
    .await?;
    Ok(rate_response(&rating))
}

/// The answer of `/rate` for `rating` (the command line's JSON lines use it too).
pub fn rate_response(rating: &Rating) -> RateResponse {
    RateResponse {
        se: round_rating(rating.er),
        ed: round_rating(rating.ed),
        ep: round_rating(rating.ep),
        level: rating.level().id(),
        hardest: rating.hardest.map(Technique::id),
        steps: rating.steps,
        techniques: rating
            .techniques
            .iter()
            .map(|used| TechniqueJson {
                technique: used.technique.id(),
                count: used.count,
                se: round_rating(used.difficulty),
            })
            .collect(),
        model: MODEL,
    }
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
    let grid = request.grid.parse()?;
    let explanation = on_pool(&state, request.timeout_ms, move |cancel| {
        logic::explain(&grid, cancel)
    })
    .await?;
    Ok(explain_response(
        &explanation,
        request.grid.render(&explanation.solution),
    ))
}

/// The answer of `/explain` for `explanation`, its solution written as `solution` (the
/// command line's JSON uses it too).
pub fn explain_response(explanation: &Explanation, solution: GridOutput) -> ExplainResponse {
    let size = explanation.solution.size();
    let rated = explanation.rating.is_some();
    ExplainResponse {
        se: explanation.rating.as_ref().map(|r| round_rating(r.er)),
        level: explanation.rating.as_ref().map(|r| r.level().id()),
        solution,
        steps: explanation
            .steps
            .iter()
            .map(|step| step_json(step, size, rated))
            .collect(),
        model: MODEL,
    }
}

/// The next step for the player of the request, or their mistakes.
pub async fn hint(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<HintRequest>,
) -> Result<ApiJson<HintResponse>, ApiError> {
    let in_field = |field| move |error| ApiError::InvalidGridField { field, error };
    let puzzle = request.puzzle.parse().map_err(in_field("puzzle"))?;
    let grid = request.grid.parse().map_err(in_field("grid"))?;
    let marks = request
        .candidates
        .as_deref()
        .map(|marks| parse_marks(marks, puzzle.size()))
        .transpose()?;
    let size = puzzle.size();
    let answer = on_pool(&state, request.timeout_ms, move |cancel| {
        logic::hint(&puzzle, &grid, marks.as_deref(), cancel)
    })
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

/// Runs `work` on the solver pool within the request's time limit.
async fn on_pool<T: Send + 'static>(
    state: &AppState,
    timeout_ms: Option<NonZeroU64>,
    work: impl Fn(&Cancellation) -> Result<T, LogicError> + Send + 'static,
) -> Result<T, ApiError> {
    let limit = state.pool().limit_for(timeout_ms);
    let result = state
        .pool()
        .run(limit, move |cancel| match work(cancel) {
            Err(LogicError::Stopped(stopped)) => Err(stopped),
            done => Ok(done),
        })
        .await?;
    Ok(result?)
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

/// `step` as the API writes it, on a board of side `size`; `rated` says whether its
/// difficulty is shown (9×9 only).
fn step_json(step: &Step, size: usize, rated: bool) -> StepJson {
    let at = |cell: usize| (cell / size, cell % size);
    StepJson {
        technique: step.technique.id(),
        se: rated.then(|| step.rounded_difficulty()),
        placements: step
            .placements
            .iter()
            .map(|placement| {
                let (row, col) = at(placement.cell);
                PlacementJson {
                    row,
                    col,
                    digit: placement.digit,
                }
            })
            .collect(),
        eliminations: step
            .eliminations
            .iter()
            .map(|elimination| {
                let (row, col) = at(elimination.cell);
                EliminationJson {
                    row,
                    col,
                    digits: logic::board::digits_of(elimination.digits).collect(),
                }
            })
            .collect(),
        cells: step
            .cells
            .iter()
            .map(|&cell| {
                let (row, col) = at(cell);
                Cell { row, col }
            })
            .collect(),
        houses: step
            .houses
            .iter()
            .map(|house| HouseJson {
                unit: match house.kind {
                    HouseKind::Row => Unit::Row,
                    HouseKind::Column => Unit::Column,
                    HouseKind::Box => Unit::Box,
                },
                index: house.index,
            })
            .collect(),
        chain: step
            .chain
            .iter()
            .map(|node| {
                let (row, col) = at(node.cell);
                ChainNodeJson {
                    row,
                    col,
                    digit: node.digit,
                    on: node.on,
                }
            })
            .collect(),
        text: step.text.clone(),
    }
}
