//! Helpers shared by the integration tests and the benchmark: reading the puzzle files
//! under `tests/data`, solving with given options, checking a solution against its
//! puzzle, and building grids that keep the solver busy.
//!
//! The files are read here with a deliberately simple reader of their own, not with the
//! crate's `text_format`, so that a bug there cannot hide a bug in the solver.

// Each test binary uses its own part of this module.
#![allow(dead_code)]

pub mod child;
pub mod raw_http;

use std::fmt::Write as _;
use std::path::PathBuf;

use sudoku_engine::grid::Grid;
use sudoku_engine::solver::{self, Cancellation, Order, Outcome, SolveOptions};
use sudoku_engine::validate::validate;

/// Both search orders, for tests that hold them to the same contract.
pub const ORDERS: [Order; 2] = [Order::Fastest, Order::Lexicographic];

/// The path of a file under `tests/data`.
pub fn data_path(relative: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative)
}

/// The whole text of a file under `tests/data`.
pub fn read_data(relative: &str) -> String {
    let path = data_path(relative);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

/// One puzzle of a data file, with what followed the grid on its line.
#[derive(Debug, Clone)]
pub struct Puzzle {
    /// 1-based line number in the file.
    pub line: usize,
    /// The grid field, as written in the file.
    pub text: String,
    /// The puzzle itself.
    pub grid: Grid,
    /// The fields after the grid (split at `:` or `,`; a tab ends the line's data).
    pub fields: Vec<String>,
}

/// Reads every puzzle of a file under `tests/data`: one per line, `#` lines and blank
/// lines skipped, `\r\n` line ends allowed, the grid ended by a tab, `:` or `,`.
pub fn read_puzzles(relative: &str) -> Vec<Puzzle> {
    parse_puzzles(relative, &read_data(relative), 1)
}

/// Like [`read_puzzles`] on `text`, whose first line is line `first_line` of `file`.
pub fn parse_puzzles(file: &str, text: &str, first_line: usize) -> Vec<Puzzle> {
    text.split('\n')
        .enumerate()
        .map(|(index, line)| (index + first_line, line.strip_suffix('\r').unwrap_or(line)))
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(line, content)| {
            let data = content.split('\t').next().unwrap_or_default();
            let mut fields = data.split([':', ',']).map(str::to_owned);
            let text = fields.next().unwrap_or_default();
            let grid = Grid::parse_symbols(&text)
                .unwrap_or_else(|error| panic!("{file}:{line}: not a grid ({error}): {text:?}"));
            Puzzle {
                line,
                text,
                grid,
                fields: fields.collect(),
            }
        })
        .collect()
}

/// Solves `grid` in `order`, counting up to `limit` solutions, never cancelled.
pub fn solve(grid: &Grid, order: Order, limit: u64) -> Outcome {
    solver::solve(grid, &SolveOptions { order, limit }, &Cancellation::none()).outcome
}

/// Why `solution` does not solve `puzzle`, if it does not: a different size, a broken
/// rule, a blank left, or a given changed.
pub fn solution_error(puzzle: &Grid, solution: &Grid) -> Option<String> {
    if solution.size() != puzzle.size() {
        return Some(format!(
            "solution is {0}×{0}, puzzle is {1}×{1}",
            solution.size(),
            puzzle.size()
        ));
    }
    let verdict = validate(solution);
    if !verdict.solved {
        return Some(format!(
            "solution {} is not a finished grid (valid: {}, complete: {}, conflicts: {:?})",
            solution.to_symbols(),
            verdict.valid,
            verdict.complete,
            verdict.conflicts
        ));
    }
    let changed = puzzle
        .cells()
        .iter()
        .zip(solution.cells())
        .position(|(&given, &value)| given != 0 && given != value);
    changed.map(|index| {
        format!(
            "solution {} changes the given at row {}, column {}",
            solution.to_symbols(),
            index / puzzle.size(),
            index % puzzle.size()
        )
    })
}

/// Panics unless `solution` solves `puzzle`.
pub fn assert_solves(puzzle: &Grid, solution: &Grid) {
    if let Some(error) = solution_error(puzzle, solution) {
        panic!("puzzle {}: {error}", puzzle.to_symbols());
    }
}

/// Collects the puzzles of a data set that break an expectation, so one run reports
/// them all instead of only the first.
#[derive(Debug, Default)]
pub struct Failures {
    checked: usize,
    failures: Vec<String>,
}

impl Failures {
    /// Records that one more puzzle was checked, and its failure if `failure` is `Some`.
    pub fn check(&mut self, puzzle: &Puzzle, failure: Option<String>) {
        self.checked += 1;
        if let Some(failure) = failure {
            self.failures
                .push(format!("line {}: {}: {failure}", puzzle.line, puzzle.text));
        }
    }

    /// Panics with the first failures (and how many there were) unless there were none.
    pub fn assert_none(&self, what: &str) {
        if self.failures.is_empty() {
            return;
        }
        let mut message = format!(
            "{what}: {} of {} puzzles failed\n",
            self.failures.len(),
            self.checked
        );
        for failure in self.failures.iter().take(10) {
            let _ = writeln!(message, "  {failure}");
        }
        panic!("{message}");
    }
}

/// A grid of side `size` (16 or 25, box side s) that breaks no rule and has no solution:
/// the s+1 largest digits fill rows 1..s-1 of each of the first s-1 boxes, so the
/// (s-1)·s cells of row 0 in those boxes are left with only n-s-1 digits, one too few.
/// Each digit sits in a different row in each box, so no row, column or box repeats one.
pub fn pigeonhole_trap(size: usize) -> Grid {
    let side = (1..=5).find(|s| s * s == size).expect("a square size");
    let mut cells = vec![0u8; size * size];
    for b in 0..side - 1 {
        let mut next_col = vec![0; side - 1];
        for (k, digit) in (size - side..=size).enumerate() {
            let row = (k + b) % (side - 1);
            let col = b * side + next_col[row];
            next_col[row] += 1;
            cells[(1 + row) * size + col] = digit as u8;
        }
    }
    let grid = Grid::from_cells(size, cells).unwrap();
    let verdict = validate(&grid);
    assert!(
        verdict.valid,
        "the trap breaks no rule: {:?}",
        verdict.conflicts
    );
    // Row 0 of each of those boxes already sees every big digit in its box.
    let big: Vec<u8> = (size - side..=size).map(|d| d as u8).collect();
    for b in 0..side - 1 {
        let mut seen: Vec<u8> = (1..side)
            .flat_map(|r| (b * side..(b + 1) * side).map(move |c| (r, c)))
            .map(|(r, c)| grid.get(r, c))
            .filter(|&v| v != 0)
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, big, "box {b}");
    }
    grid
}
