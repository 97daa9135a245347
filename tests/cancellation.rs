//! Cancelling work: a deadline, a time limit and a flag raised from another thread each
//! stop a search that would otherwise run for a very long time, and the solve then ends in
//! `Outcome::Stopped`; a flag raised or a deadline passed before the call cancels at
//! once; a cancellation that never fires leaves an easy solve alone. A time limit alone
//! also stops the logic (a rating of the hardest puzzle) and the generator (a rare band),
//! which end in `Stopped` too, and a count of every solution of the empty 25×25 grid.
//!
//! The long searches are real work, not sleeps: 16×16 and 25×25 "pigeonhole traps" (no
//! rule broken, no solution, and nothing that singles propagation can see), and counting
//! every solution of the empty 9×9 grid. Only outcomes are checked, never elapsed times; a
//! watchdog fails a test whose solve does not stop at all instead of letting it hang.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use sudoku_engine::generate::{GenerateOptions, Symmetry, generate};
use sudoku_engine::grid::Grid;
use sudoku_engine::logic::{self, LogicError};
use sudoku_engine::solver::{Cancellation, Order, Outcome, SolveOptions, Stopped, solve};

/// How long a solve that should have been cancelled may go on before the test gives up on
/// it. Far above any deadline used here: it only turns a hang into a failure.
const WATCHDOG: Duration = Duration::from_secs(60);

/// Solves on another thread and returns the outcome, failing the test if the solve has
/// not returned after [`WATCHDOG`]. `while_solving` runs on this thread meanwhile.
fn solve_watched(
    grid: &Grid,
    options: SolveOptions,
    cancel: Cancellation,
    while_solving: impl FnOnce(),
) -> Outcome {
    let (sender, receiver) = mpsc::channel();
    let grid = grid.clone();
    thread::spawn(move || {
        let report = solve(&grid, &options, &cancel);
        let _ = sender.send(report.outcome);
    });
    while_solving();
    receiver
        .recv_timeout(WATCHDOG)
        .expect("the solve stopped (watchdog)")
}

fn options(order: Order, limit: u64) -> SolveOptions {
    SolveOptions { order, limit }
}

/// Long searches: the traps, and counting every solution of the empty 9×9 grid.
fn long_searches() -> Vec<(&'static str, Grid, SolveOptions)> {
    let mut searches = Vec::new();
    for order in [Order::Fastest, Order::Lexicographic] {
        searches.push(("16×16 trap", common::pigeonhole_trap(16), options(order, 1)));
        searches.push(("25×25 trap", common::pigeonhole_trap(25), options(order, 1)));
        searches.push((
            "empty 9×9",
            Grid::empty(9).unwrap(),
            options(order, u64::MAX),
        ));
    }
    searches
}

#[test]
fn a_deadline_cancels_a_long_solve() {
    for (name, grid, options) in long_searches() {
        let deadline = Instant::now() + Duration::from_millis(300);
        let cancel = Cancellation::none().with_deadline(deadline);
        let outcome = solve_watched(&grid, options, cancel, || {});
        assert_eq!(outcome, Outcome::Stopped, "{name}, {options:?}");
    }
}

#[test]
fn a_time_limit_cancels_a_long_solve() {
    for (name, grid, options) in long_searches() {
        let cancel = Cancellation::none().with_time_limit(Duration::from_millis(300));
        let outcome = solve_watched(&grid, options, cancel, || {});
        assert_eq!(outcome, Outcome::Stopped, "{name}, {options:?}");
    }
    let (_, grid, options) = &long_searches()[0];
    let cancel = Cancellation::none().with_time_limit(Duration::ZERO);
    assert_eq!(
        solve_watched(grid, *options, cancel, || {}),
        Outcome::Stopped,
        "a zero time limit cancels at once"
    );
}

/// Runs `work` on another thread and returns what it returned, failing the test if it has
/// not returned after [`WATCHDOG`].
fn watched<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let _ = sender.send(work());
    });
    receiver.recv_timeout(WATCHDOG).expect("the work stopped")
}

#[test]
fn a_time_limit_alone_stops_a_rating_a_generation_and_a_count() {
    let limit = || Cancellation::none().with_time_limit(Duration::from_millis(50));
    // The slowest to rate of the forum's hardest list here: seconds of chains.
    let hardest = Grid::parse_symbols(
        "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........",
    )
    .unwrap();
    let rated = watched(move || logic::rate(&hardest, &limit()).map(|rating| rating.er));
    assert_eq!(rated, Err(LogicError::Stopped(Stopped)));

    // Puzzles rated 8.5 and up are among the rarest the generator makes.
    let rare = GenerateOptions::new(9, None, Some(8.5), None, Symmetry::None, true).unwrap();
    let made = watched(move || generate(&rare, 1, &limit()).map(|made| made.seed));
    assert_eq!(made, Err(Stopped));

    let empty = Grid::from_cells(25, vec![0; 625]).unwrap();
    let counted = watched(move || solve(&empty, &options(Order::Fastest, u64::MAX), &limit()));
    assert_eq!(counted.outcome, Outcome::Stopped);
}

#[test]
fn a_flag_raised_from_another_thread_cancels_a_long_solve() {
    for (name, grid, options) in long_searches() {
        let flag = Arc::new(AtomicBool::new(false));
        let cancel = Cancellation::none().with_flag(Arc::clone(&flag));
        let outcome = solve_watched(&grid, options, cancel, || {
            thread::sleep(Duration::from_millis(100));
            flag.store(true, Ordering::Relaxed);
        });
        assert_eq!(outcome, Outcome::Stopped, "{name}, {options:?}");
    }
}

#[test]
fn a_flag_raised_before_the_call_cancels_at_once() {
    for (name, grid, options) in long_searches() {
        let flag = Arc::new(AtomicBool::new(true));
        let cancel = Cancellation::none().with_flag(flag);
        let outcome = solve_watched(&grid, options, cancel, || {});
        assert_eq!(outcome, Outcome::Stopped, "{name}, {options:?}");
    }
}

#[test]
fn a_deadline_already_passed_cancels_at_once() {
    for (name, grid, options) in long_searches() {
        let cancel = Cancellation::none().with_deadline(Instant::now());
        let outcome = solve_watched(&grid, options, cancel, || {});
        assert_eq!(outcome, Outcome::Stopped, "{name}, {options:?}");
    }
}

#[test]
fn a_cancellation_that_never_fires_leaves_an_easy_solve_alone() {
    let puzzles = common::read_puzzles("9x9/easy50.txt");
    let hard = common::read_puzzles("9x9/top95.txt");
    let grids = [&puzzles[0].grid, &hard[0].grid];
    let flag = Arc::new(AtomicBool::new(false));
    let cancel = Cancellation::none()
        .with_flag(Arc::clone(&flag))
        .with_deadline(Instant::now() + Duration::from_secs(3600));
    for grid in grids {
        for order in [Order::Fastest, Order::Lexicographic] {
            let outcome = solve_watched(grid, options(order, 2), cancel.clone(), || {});
            let Outcome::Solved { solution, count } = outcome else {
                panic!("{grid:?} in {order:?} order: {outcome:?}");
            };
            assert_eq!(count, 1);
            common::assert_solves(grid, &solution);
        }
    }
    assert!(!flag.load(Ordering::Relaxed));
    assert!(!cancel.is_cancelled());
}

#[test]
fn cancellation_reports_what_it_would_do() {
    assert!(!Cancellation::none().is_cancelled());
    assert!(!Cancellation::default().is_cancelled());
    let flag = Arc::new(AtomicBool::new(false));
    let cancel = Cancellation::none().with_flag(Arc::clone(&flag));
    let copy = cancel.clone();
    assert!(!cancel.is_cancelled());
    flag.store(true, Ordering::Relaxed);
    assert!(
        cancel.is_cancelled() && copy.is_cancelled(),
        "clones share the flag"
    );
    let past = Cancellation::none().with_deadline(Instant::now());
    assert!(past.is_cancelled());
    let future = Cancellation::none().with_deadline(Instant::now() + Duration::from_secs(3600));
    assert!(!future.is_cancelled());
}
