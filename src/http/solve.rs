//! `POST /solve`: a grid in, its solution out, in the notation it came in; and the solve
//! on the solver pool that `/validate` shares, counted in the metrics by outcome.

use std::num::NonZeroU64;
use std::time::{Duration, Instant};

use axum::extract::State;

use super::AppState;
use super::dto::{GridInput, SolveRequest, SolveResponse, SolveStats};
use super::json::ApiJson;
use super::metrics::{Metrics, SolveOutcome};
use super::on_pool::{Failure, on_pool, time_limit};
use super::problem::ApiError;
use super::variant::{self, Input};
use crate::solver_pool::Effort;
use sudoku_engine::grid::Grid;
use sudoku_engine::solver::{self, Cancellation, Outcome, SolveOptions, SolveReport};
use sudoku_engine::validate::validate;
use sudoku_engine::variant::{Puzzle, VariantAnswer, VariantError, VariantSolveOptions};

/// Solves the grid of the request, or says why not.
pub async fn solve(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<SolveRequest>,
) -> Result<ApiJson<SolveResponse>, ApiError> {
    answer(state, request).await.map(ApiJson)
}

/// The most solutions a request may ask to count.
const MAX_SOLUTIONS: u64 = 10_000;

/// The most solutions a request may ask to count per true candidate.
const MAX_SOLUTIONS_PER_CANDIDATE: u32 = 100;

/// The answer to a solve request (a line of a batch, or the body of `/solve`).
pub async fn answer(state: AppState, request: SolveRequest) -> Result<SolveResponse, ApiError> {
    check_counting(&request)?;
    let input = variant::read(
        "grid",
        request.grid.as_ref(),
        request.rules.as_ref(),
        request.fpuzzles.as_ref(),
    )?;
    match input {
        Input::Classic(grid) if !request.true_candidates => {
            classic_answer(&state, grid, &request).await
        }
        Input::Classic(grid) => {
            let rows = matches!(grid, GridInput::Rows(_));
            let puzzle = variant::classic_as_variant(grid)?;
            variant_answer(&state, puzzle, rows, &request).await
        }
        Input::Variant { puzzle, rows } => variant_answer(&state, puzzle, rows, &request).await,
    }
}

/// Refuses counts out of range, and a count per candidate without true candidates.
fn check_counting(request: &SolveRequest) -> Result<(), ApiError> {
    let invalid = |detail: String| Err(ApiError::InvalidRequest(detail));
    if let Some(count) = request
        .max_solutions
        .filter(|count| !(2..=MAX_SOLUTIONS).contains(count))
    {
        return invalid(format!(
            "max_solutions: must be 2 to {MAX_SOLUTIONS}, not {count}"
        ));
    }
    match request.max_solutions_per_candidate {
        Some(_) if !request.true_candidates => {
            invalid("max_solutions_per_candidate: needs `true_candidates: true`".to_owned())
        }
        Some(count) if !(1..=MAX_SOLUTIONS_PER_CANDIDATE).contains(&count) => invalid(format!(
            "max_solutions_per_candidate: must be 1 to {MAX_SOLUTIONS_PER_CANDIDATE}, not {count}"
        )),
        _ => Ok(()),
    }
}

/// How many solutions a request needs counted: `max_solutions`, and 2 to decide `unique`.
fn solutions_to_count(request: &SolveRequest) -> u64 {
    let least = if request.unique { 2 } else { 1 };
    request.max_solutions.unwrap_or(least).max(least)
}

/// Solves a classic grid on the classic engines.
async fn classic_answer(
    state: &AppState,
    input: &GridInput,
    request: &SolveRequest,
) -> Result<SolveResponse, ApiError> {
    let grid = input.parse()?;
    let options = SolveOptions {
        order: request.order.into(),
        limit: solutions_to_count(request),
    };
    let solved = solve_on_pool(state, grid, options, request.timeout_ms).await;
    let report = solved.map_err(|error| clash_or(input, error))?;
    let Outcome::Solved { solution, count } = report.outcome else {
        return Err(clash_or(input, ApiError::Unsolvable));
    };
    Ok(SolveResponse {
        solution: input.render(&solution),
        unique: request.unique.then_some(count == 1),
        solution_count: request.max_solutions.map(|_| count),
        solution_count_exact: request.max_solutions.map(|limit| count < limit),
        true_candidates: None,
        true_candidate_counts: None,
        stats: SolveStats {
            elapsed_us: report.elapsed.as_micros(),
            guesses: report.guesses,
        },
    })
}

/// Solves a variant puzzle (or a classic one, for its true candidates) on the variant
/// engine; its answers are in the string notation, or rows when `rows`.
async fn variant_answer(
    state: &AppState,
    puzzle: Puzzle,
    rows: bool,
    request: &SolveRequest,
) -> Result<SolveResponse, ApiError> {
    let size = puzzle.size();
    let options = VariantSolveOptions {
        order: request.order.into(),
        max_solutions: solutions_to_count(request),
        true_candidates: request
            .true_candidates
            .then(|| request.max_solutions_per_candidate.unwrap_or(1)),
        max_guesses: None,
    };
    let limit = time_limit(state, request.timeout_ms);
    let (answer, elapsed) = variant_on_pool(state, puzzle, options, limit).await?;
    let Some(solution) = &answer.solution else {
        return Err(ApiError::Unsolvable);
    };
    let count = answer.solution_count;
    let unique = match request.unique {
        true => Some(is_unique(&answer, limit)?),
        false => None,
    };
    Ok(SolveResponse {
        solution: variant::render(solution, size, rows),
        unique,
        solution_count: request.max_solutions.map(|_| count),
        solution_count_exact: request.max_solutions.map(|_| answer.count_exact),
        true_candidates: answer
            .true_candidates
            .map(|cells| variant::as_rows(&cells, size)),
        true_candidate_counts: answer
            .true_candidate_counts
            .map(|cells| variant::as_rows(&cells, size)),
        stats: SolveStats {
            elapsed_us: elapsed.as_micros(),
            guesses: answer.guesses,
        },
    })
}

/// Where the givens of `grid` clash, if they do, or else `error`: why its solve failed.
/// Clashing givens are the usual reason a grid has no solution, and the one a client can
/// fix. They are looked for only once a solve has failed, as the command does for a file
/// of puzzles: the solver meets a clash at once, and a grid that is solved needs no check.
fn clash_or(grid: &GridInput, error: ApiError) -> ApiError {
    match grid.parse().map(|grid| validate(&grid)) {
        Ok(verdict) if !verdict.valid => ApiError::ConflictingGivens(verdict.conflicts),
        _ => error,
    }
}

/// Solves a variant puzzle on the solver pool within `limit`, counted in the metrics;
/// with the time the engine took.
pub(super) async fn variant_on_pool(
    state: &AppState,
    puzzle: Puzzle,
    options: VariantSolveOptions,
    limit: Duration,
) -> Result<(VariantAnswer, Duration), ApiError> {
    // A count cut short before the request's own time limit (the pool's quick attempt)
    // is a stop, to be run again; one cut short at the limit is the answer.
    let deadline = Instant::now() + limit;
    counted_on_pool(
        state,
        limit,
        move |cancel| {
            let started = Instant::now();
            let answer = sudoku_engine::variant::solve(&puzzle, &options, cancel)?;
            let cut_short = !answer.count_exact && answer.solution_count < options.max_solutions;
            if cut_short && Instant::now() < deadline {
                return Err(VariantError::Stopped);
            }
            Ok((answer, started.elapsed()))
        },
        |(answer, elapsed)| match answer.solution {
            Some(_) => (SolveOutcome::Solved, *elapsed),
            None => (SolveOutcome::Unsolvable, *elapsed),
        },
    )
    .await
}

/// Whether a variant puzzle counted to at least 2 has one solution; a time-out when the
/// time ran out after the first, before a second was ruled out.
pub(super) fn is_unique(answer: &VariantAnswer, limit: Duration) -> Result<bool, ApiError> {
    match (answer.solution_count, answer.count_exact) {
        (..=1, false) => Err(ApiError::SolveTimeout {
            timeout_ms: limit.as_millis(),
            waited_ms: 0,
        }),
        (count, _) => Ok(count == 1),
    }
}

/// Solves `grid` on the solver pool, within the server's time limit or the lower
/// `timeout_ms` a request asked for; the report's outcome is `Solved` or `Unsolvable`.
pub(super) async fn solve_on_pool(
    state: &AppState,
    grid: Grid,
    options: SolveOptions,
    timeout_ms: Option<NonZeroU64>,
) -> Result<SolveReport, ApiError> {
    let limit = time_limit(state, timeout_ms);
    counted_on_pool(
        state,
        limit,
        move |cancel| solver::solve(&grid, &options, cancel).finished(),
        |report| match report.outcome {
            Outcome::Solved { .. } => (SolveOutcome::Solved, report.elapsed),
            _ => (SolveOutcome::Unsolvable, report.elapsed),
        },
    )
    .await
}

/// Runs a solve on the solver pool within `limit`, and counts it in the metrics with the
/// outcome and time `outcome` reads from its answer (or as timed out, or abandoned).
pub(super) async fn counted_on_pool<T: Send + 'static, E: Failure>(
    state: &AppState,
    limit: Duration,
    work: impl Fn(&Cancellation) -> Result<T, E> + Send + 'static,
    outcome: impl FnOnce(&T) -> (SolveOutcome, Duration),
) -> Result<T, ApiError> {
    let mut count = SolveCount::start(state.metrics());
    let result = on_pool(state, limit, Effort::Light, work).await;
    match &result {
        Ok(answer) => {
            let (outcome, elapsed) = outcome(answer);
            count.finish(outcome, elapsed);
        }
        Err(ApiError::SolveTimeout { .. }) => count.finish(SolveOutcome::TimedOut, limit),
        // Refused before any solving, or a bug (logged as an internal error): no solve.
        Err(_) => count.finish_uncounted(),
    }
    result
}

/// Counts a solve in the metrics once it ends, as abandoned when its request is dropped
/// first (the client went away).
struct SolveCount<'a> {
    metrics: &'a Metrics,
    started: Instant,
    done: bool,
}

impl<'a> SolveCount<'a> {
    fn start(metrics: &'a Metrics) -> Self {
        SolveCount {
            metrics,
            started: Instant::now(),
            done: false,
        }
    }

    fn finish(&mut self, outcome: SolveOutcome, elapsed: Duration) {
        self.metrics.observe_solve(outcome, elapsed);
        self.done = true;
    }

    fn finish_uncounted(&mut self) {
        self.done = true;
    }
}

impl Drop for SolveCount<'_> {
    fn drop(&mut self) {
        if !self.done {
            let elapsed = self.started.elapsed();
            self.metrics.observe_solve(SolveOutcome::Abandoned, elapsed);
        }
    }
}
