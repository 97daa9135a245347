//! The solver pool against the real server: bounded concurrency, the wait queue, 503s at
//! once when it is full, time limits that free the slot, a solver kept for easy grids,
//! and clients that go away.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use sudoku_engine::grid::Grid;
use sudoku_engine::solver::{self, Cancellation, Outcome, SolveOptions};
use sudoku_service::http::Limits;

use crate::helpers::{
    CLASSIC, CLASSIC_SOLUTION, GENEROUS_TIMEOUT, TestApp, assert_problem, busy_grid, limits,
    one_solver, patterned_puzzle, spawn_app,
};

const IN_USE: &str = "sudoku_solver_slots_in_use";
const QUEUED: &str = "sudoku_solver_queue_depth";

/// Starts a solve of the busy grid that holds a solver until the request goes away (over
/// HTTP/2, where dropping the request resets its stream).
fn hold_a_solver(server: &TestApp) -> tokio::task::JoinHandle<reqwest::Result<reqwest::Response>> {
    let request = server
        .h2
        .post(server.url("/solve"))
        .json(&json!({ "grid": busy_grid() }));
    tokio::spawn(request.send())
}

async fn problem_of(response: reqwest::Response, status: StatusCode, code: &str) -> Value {
    assert_eq!(response.status(), status);
    let headers = response.headers().clone();
    assert_problem(&headers, &response.json().await.unwrap(), status, code)
}

#[test]
fn the_busy_grid_keeps_the_solver_busy_until_cancelled() {
    let grid = Grid::parse_symbols(&busy_grid()).unwrap();
    assert!(sudoku_engine::validate::validate(&grid).valid);
    let cancel = Cancellation::none()
        .with_deadline(Instant::now() + Duration::from_millis(200))
        .with_flag(Arc::new(AtomicBool::new(false)));
    let report = solver::solve(&grid, &SolveOptions::default(), &cancel);
    assert_eq!(report.outcome, Outcome::Stopped);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_concurrent_solves_are_all_answered() {
    // Two solvers and room for everyone else in the queue.
    let server = spawn_app(Limits {
        queue_length: 64,
        ..limits()
    })
    .await;
    let requests = (0..48).map(|i| {
        let grid = if i % 2 == 0 {
            CLASSIC.to_owned()
        } else {
            patterned_puzzle(16)
        };
        server
            .client
            .post(server.url("/solve"))
            .json(&json!({ "grid": grid }))
            .send()
    });
    let responses = join_all(requests).await;
    for response in responses {
        assert_eq!(response.unwrap().status(), StatusCode::OK);
    }
    assert_eq!(
        server
            .metric(r#"sudoku_solves_total{outcome="solved"}"#)
            .await,
        48.0
    );
}

/// Awaits every future, concurrently, in order.
async fn join_all<F>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut outputs = Vec::with_capacity(handles.len());
    for handle in handles {
        outputs.push(handle.await.expect("the request task does not panic"));
    }
    outputs
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solve_that_hits_its_limit_gets_503_and_frees_its_slot() {
    let server = spawn_app(one_solver(0, Duration::from_millis(300))).await;
    let timed_out = server.post("/solve", &json!({ "grid": busy_grid() })).await;
    let problem = problem_of(timed_out, StatusCode::SERVICE_UNAVAILABLE, "solve_timeout").await;
    assert!(problem["detail"].as_str().unwrap().contains("300 ms"));

    // The only slot is free again: an easy request is solved, not turned away.
    let easy = server.post("/solve", &json!({ "grid": CLASSIC })).await;
    assert_eq!(easy.status(), StatusCode::OK);
    assert_eq!(
        easy.json::<Value>().await.unwrap()["solution"],
        CLASSIC_SOLUTION
    );
    assert_eq!(
        server
            .metric(r#"sudoku_solves_total{outcome="timed_out"}"#)
            .await,
        1.0
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_the_queue_requests_get_503_overloaded_with_retry_after() {
    let server = spawn_app(one_solver(0, GENEROUS_TIMEOUT)).await;
    let busy = hold_a_solver(&server);
    server.wait_for_metric(IN_USE, 1.0).await;

    // A second hard grid finds no solver and no place in the queue: refused after its
    // quick attempt, and told to retry when the solve it found must have ended, whatever
    // limit it asked.
    let request = json!({ "grid": busy_grid(), "timeout_ms": 1000 });
    let turned_away = server.post("/solve", &request).await;
    assert_eq!(turned_away.headers()["retry-after"], "30");
    problem_of(turned_away, StatusCode::SERVICE_UNAVAILABLE, "overloaded").await;
    // Clashing givens are still named: no solver would help.
    let clashing = format!("11{}", &CLASSIC[2..]);
    let clashing = server.post("/solve", &json!({ "grid": clashing })).await;
    problem_of(
        clashing,
        StatusCode::UNPROCESSABLE_ENTITY,
        "conflicting_givens",
    )
    .await;
    // An easy grid is solved in its quick attempt all the same.
    let easy = server.post("/solve", &json!({ "grid": CLASSIC })).await;
    assert_eq!(easy.status(), StatusCode::OK);
    // A rating gets no attempt while the long lane is full, however easy its puzzle.
    let rating = server.post("/rate", &json!({ "grid": CLASSIC })).await;
    problem_of(rating, StatusCode::SERVICE_UNAVAILABLE, "overloaded").await;
    // `/validate` without `solvable` never needs a solver.
    let validated = server.post("/validate", &json!({ "grid": CLASSIC })).await;
    assert_eq!(validated.status(), StatusCode::OK);
    busy.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_beyond_the_solvers_wait_in_the_queue() {
    let server = spawn_app(one_solver(1, GENEROUS_TIMEOUT)).await;
    let busy = hold_a_solver(&server);
    server.wait_for_metric(IN_USE, 1.0).await;

    // A second grid waits for the only solver, in the queue's one place.
    let waiting = tokio::spawn(
        server
            .client
            .post(server.url("/solve"))
            .json(&json!({ "grid": busy_grid(), "timeout_ms": 3000 }))
            .send(),
    );
    server.wait_for_metric(QUEUED, 1.0).await;
    let turned_away = server.post("/solve", &json!({ "grid": busy_grid() })).await;
    problem_of(turned_away, StatusCode::SERVICE_UNAVAILABLE, "overloaded").await;

    // The busy client gives up; its solve stops and the waiting request gets the solver,
    // where it runs into its own limit.
    busy.abort();
    server.wait_for_metric(QUEUED, 0.0).await;
    let answered = waiting.await.unwrap().unwrap();
    problem_of(answered, StatusCode::SERVICE_UNAVAILABLE, "solve_timeout").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_limit_spent_waiting_for_a_solver_says_so() {
    let server = spawn_app(Limits {
        generate_timeout: Duration::from_millis(100),
        ..one_solver(2, GENEROUS_TIMEOUT)
    })
    .await;
    let busy = hold_a_solver(&server);
    server.wait_for_metric(IN_USE, 1.0).await;

    // Both outlast their quick attempt, then wait their whole limit for the only solver,
    // which the busy grid holds: the detail says so, and a generation is not told to
    // change its request.
    let solve = server
        .post("/solve", &json!({ "grid": busy_grid(), "timeout_ms": 100 }))
        .await;
    let generate = server
        .post("/generate", &json!({ "size": 16, "seed": 1 }))
        .await;
    for (answer, advice) in [(solve, "SOLVE_TIMEOUT_MS"), (generate, "retry later")] {
        let problem = problem_of(answer, StatusCode::SERVICE_UNAVAILABLE, "solve_timeout").await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains("went waiting for a solver that other requests held")
                && detail.contains(advice)
                && !detail.contains("seed"),
            "{detail}"
        );
    }
    busy.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_easy_puzzle_is_solved_while_hard_ones_hold_every_solver_and_the_queue() {
    let server = spawn_app(Limits {
        solver_concurrency: NonZeroUsize::new(2).unwrap(),
        queue_length: 1,
        ..limits()
    })
    .await;
    let busy = [0; 3].map(|_| hold_a_solver(&server));
    server.wait_for_metric(IN_USE, 2.0).await;
    server.wait_for_metric(QUEUED, 1.0).await;

    // A quick attempt runs beside long solves on time they pay back: had it waited for a
    // solver, it would have waited until its limit.
    let request = json!({ "grid": CLASSIC, "timeout_ms": 5000 });
    let easy = server.post("/solve", &request).await;
    assert_eq!(easy.status(), StatusCode::OK);
    let body: Value = easy.json().await.unwrap();
    assert_eq!(body["solution"], CLASSIC_SOLUTION);
    // The hard grids go back to holding both solvers, and the third to waiting.
    server.wait_for_metric(IN_USE, 2.0).await;
    server.wait_for_metric(QUEUED, 1.0).await;
    assert!(busy.iter().all(|busy| !busy.is_finished()));
    busy.iter().for_each(tokio::task::JoinHandle::abort);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_cancels_its_solve_and_is_counted() {
    let server = spawn_app(one_solver(0, GENEROUS_TIMEOUT)).await;
    let busy = hold_a_solver(&server);
    server.wait_for_metric(IN_USE, 1.0).await;

    busy.abort();
    server
        .wait_for_metric(r#"sudoku_solves_total{outcome="abandoned"}"#, 1.0)
        .await;
    server
        .wait_for_metric(
            r#"sudoku_http_requests_total{route="/solve",status="499"}"#,
            1.0,
        )
        .await;
    // Long before the 30 s limit, the only solver is free for the next request.
    server.wait_for_metric(IN_USE, 0.0).await;
    let easy = server.post("/solve", &json!({ "grid": CLASSIC })).await;
    assert_eq!(easy.status(), StatusCode::OK);
}
