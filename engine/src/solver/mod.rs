//! Solving: options, cancellation, outcomes, and the choice of search engine.
//!
//! Two engines share one contract. `nine` is a bitboard solver tuned for the common 9×9
//! grid; `any_size` works on every supported size with one candidate mask per cell. Both
//! propagate naked and hidden singles to a fixed point before each guess, branch on a cell
//! with the fewest candidates (or on the first open cell in row-major order for
//! [`Order::Lexicographic`]), never allocate inside the search, and poll a
//! [`Cancellation`] often enough to stop within a millisecond or two.

mod any_size;
mod cancel;
mod nine;

use std::time::{Duration, Instant};

use crate::grid::Grid;

pub(crate) use cancel::StopCheck;
pub use cancel::{Cancellation, Stopped};

/// Which solution to return when a grid has several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Whichever solution the search meets first; the same grid always gives the same one.
    #[default]
    Fastest,
    /// The smallest solution read row by row (Baekjoon 2239).
    Lexicographic,
}

/// What to search for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveOptions {
    /// Which solution to report first.
    pub order: Order,
    /// Stop counting solutions once this many are found (at least 1; 2 decides uniqueness).
    pub limit: u64,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            order: Order::Fastest,
            limit: 1,
        }
    }
}

/// How a solve ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// At least one solution exists.
    Solved {
        /// The first solution in the requested order.
        solution: Grid,
        /// Solutions found, at most the limit; equal to the limit means "at least that many".
        count: u64,
    },
    /// No solution exists (this includes givens that break a rule).
    Unsolvable,
    /// The deadline or the time limit passed, or the cancel flag was raised, before the
    /// search finished.
    Stopped,
}

/// The outcome of a solve together with what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveReport {
    /// How the search ended.
    pub outcome: Outcome,
    /// Branches taken on values that propagation could not deduce.
    pub guesses: u64,
    /// Wall time spent in the solver.
    pub elapsed: Duration,
}

impl SolveReport {
    /// The report of a search that finished (its outcome `Solved` or `Unsolvable`), or
    /// [`Stopped`] when its cancellation stopped it.
    pub fn finished(self) -> Result<SolveReport, Stopped> {
        match self.outcome {
            Outcome::Stopped => Err(Stopped),
            _ => Ok(self),
        }
    }
}

/// What an engine hands back: the outcome and the number of guesses.
pub(crate) struct Search {
    outcome: Outcome,
    guesses: u64,
}

/// Whether a search goes on after a branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Stop,
}

/// The solutions an engine has met: how many, and the first one's cells.
struct Solutions {
    limit: u64,
    count: u64,
    first: Option<Vec<u8>>,
}

impl Solutions {
    fn new(options: &SolveOptions) -> Self {
        Solutions {
            limit: options.limit,
            count: 0,
            first: None,
        }
    }

    /// Counts a solution, keeping the cells of the first; stops at the limit.
    fn record(&mut self, cells: impl FnOnce() -> Vec<u8>) -> Flow {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(cells());
        }
        if self.count >= self.limit {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }

    /// How the search ended for a grid of side `size`.
    fn into_outcome(self, size: usize, cancelled: bool) -> Outcome {
        match self.first {
            _ if cancelled => Outcome::Stopped,
            Some(cells) => Outcome::Solved {
                solution: Grid::from_cells(size, cells).expect("a solution fits its grid"),
                count: self.count,
            },
            None => Outcome::Unsolvable,
        }
    }
}

/// Solves `grid` under `options`, stopping early when `cancel` says so.
pub fn solve(grid: &Grid, options: &SolveOptions, cancel: &Cancellation) -> SolveReport {
    let started = Instant::now();
    let options = SolveOptions {
        limit: options.limit.max(1),
        ..*options
    };
    let search = if grid.size() == 9 {
        nine::search(grid, &options, cancel, started)
    } else {
        any_size::search(grid, &options, cancel, started)
    };
    SolveReport {
        outcome: search.outcome,
        guesses: search.guesses,
        elapsed: started.elapsed(),
    }
}

/// Whether `grid` has a solution without `digit` in the open `cell`. Deciding whether a
/// proper puzzle stays proper without one given asks just this: any other solution must
/// differ from the only one in that cell. A much smaller search than counting solutions,
/// which must also go through every branch that holds the known one. Any size; `None`
/// when `cancel` stops it, or when the node budgets of the search's restarts add up to
/// `nodes` or more before it ends (so it may visit up to about twice `nodes`; on large
/// sparse grids a few such questions take millions of times the nodes of most).
pub fn has_solution_without(
    grid: &Grid,
    cell: usize,
    digit: u8,
    nodes: u64,
    cancel: &Cancellation,
) -> Option<bool> {
    let options = SolveOptions::default();
    let ruled_out = [(cell, digit)];
    let search = any_size::search_within(grid, &ruled_out, &options, cancel, Instant::now(), nodes);
    match search.outcome {
        Outcome::Solved { .. } => Some(true),
        Outcome::Unsolvable => Some(false),
        Outcome::Stopped => None,
    }
}

/// The any-size engine on any grid, so tests can hold the 9×9 engine against it.
#[cfg(test)]
pub(crate) fn solve_with_any_size_engine(grid: &Grid, options: &SolveOptions) -> Outcome {
    any_size::search(grid, options, &Cancellation::none(), Instant::now()).outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without one of its givens, a proper puzzle keeps a single solution exactly when no
    /// solution has another digit in that cell: what counting solutions says too.
    #[test]
    fn ruling_out_a_removed_given_agrees_with_counting() {
        let puzzles = [
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            "1.....3..4.....2",
            "1324423124133142",
        ];
        let counting = SolveOptions {
            limit: 2,
            ..SolveOptions::default()
        };
        let (mut spare, mut needed) = (0, 0);
        for puzzle in puzzles {
            let grid = Grid::parse_symbols(puzzle).unwrap();
            for (cell, &digit) in grid.cells().iter().enumerate().filter(|(_, d)| **d != 0) {
                let mut cells = grid.cells().to_vec();
                cells[cell] = 0;
                let without = Grid::from_cells(grid.size(), cells).unwrap();
                let other =
                    has_solution_without(&without, cell, digit, u64::MAX, &Cancellation::none());
                let count = match solve(&without, &counting, &Cancellation::none()).outcome {
                    Outcome::Solved { count, .. } => count,
                    outcome => panic!("{puzzle}: {outcome:?}"),
                };
                assert_eq!(other, Some(count == 2), "{puzzle}, cell {cell}");
                if count == 2 {
                    needed += 1;
                } else {
                    spare += 1;
                }
            }
        }
        assert!(
            spare > 0 && needed > 0,
            "{spare} givens spare, {needed} needed"
        );
    }
}
