//! `POST /solve`: a grid in, its solution out, in the notation it came in; and the solve
//! on the solver pool that `/validate` shares, counted in the metrics by outcome.

use std::num::NonZeroU64;
use std::time::{Duration, Instant};

use axum::extract::State;

use super::AppState;
use super::dto::{GridInput, SolveRequest, SolveResponse, SolveStats};
use super::json::ApiJson;
use super::metrics::{Metrics, SolveOutcome};
use super::on_pool::{on_pool, time_limit};
use super::problem::ApiError;
use sudoku_engine::grid::Grid;
use sudoku_engine::solver::{self, Outcome, SolveOptions, SolveReport};
use sudoku_engine::validate::validate;

/// Solves the grid of the request, or says why not.
pub async fn solve(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<SolveRequest>,
) -> Result<ApiJson<SolveResponse>, ApiError> {
    answer(state, request).await.map(ApiJson)
}

/// The answer to a solve request (a line of a batch, or the body of `/solve`).
pub async fn answer(state: AppState, request: SolveRequest) -> Result<SolveResponse, ApiError> {
    let grid = request.grid.parse()?;
    let options = SolveOptions {
        order: request.order.into(),
        // A second solution is all it takes to know the first is not unique.
        limit: if request.unique { 2 } else { 1 },
    };
    let solved = solve_on_pool(&state, grid, options, request.timeout_ms).await;
    let report = solved.map_err(|error| clash_or(&request.grid, error))?;
    let Outcome::Solved { solution, count } = report.outcome else {
        return Err(clash_or(&request.grid, ApiError::Unsolvable));
    };
    Ok(SolveResponse {
        solution: request.grid.render(&solution),
        unique: request.unique.then_some(count == 1),
        stats: SolveStats {
            elapsed_us: report.elapsed.as_micros(),
            guesses: report.guesses,
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

/// Solves `grid` on the solver pool, within the server's time limit or the lower
/// `timeout_ms` a request asked for; the report's outcome is `Solved` or `Unsolvable`.
pub(super) async fn solve_on_pool(
    state: &AppState,
    grid: Grid,
    options: SolveOptions,
    timeout_ms: Option<NonZeroU64>,
) -> Result<SolveReport, ApiError> {
    let limit = time_limit(state, timeout_ms);
    let mut count = SolveCount::start(state.metrics());
    let result = on_pool(state, limit, move |cancel| {
        solver::solve(&grid, &options, cancel).finished()
    })
    .await;
    match &result {
        Ok(report) => count.finish(
            match report.outcome {
                Outcome::Solved { .. } => SolveOutcome::Solved,
                _ => SolveOutcome::Unsolvable,
            },
            report.elapsed,
        ),
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
