//! Short human-readable verdicts for the command line.

use sudoku_engine::grid::{Grid, cell_name};
use sudoku_engine::validate::{Conflict, Unit, Validation, validate};

/// `row 1 has 5 at r1c1 r1c2`: one conflict on one line, numbered from 1 as people (and
/// `explain`) number rows, columns and boxes.
fn describe_conflict(conflict: &Conflict) -> String {
    let unit = match conflict.unit {
        Unit::Row => "row",
        Unit::Column => "column",
        Unit::Box => "box",
    };
    let cells: Vec<String> = conflict
        .cells
        .iter()
        .map(|cell| cell_name(cell.row, cell.col))
        .collect();
    format!(
        "{unit} {} has {} at {}",
        conflict.index + 1,
        conflict.digit,
        cells.join(" ")
    )
}

/// `the givens clash: …` with every clash of `grid`'s givens, if they do: the usual reason a
/// puzzle has no solution, and the one a person can fix.
pub(super) fn clashes(grid: &Grid) -> Option<String> {
    let verdict = validate(grid);
    (!verdict.valid).then(|| clash_text(&verdict.conflicts))
}

/// `the givens clash: …` with every one of `conflicts`.
pub(super) fn clash_text(conflicts: &[Conflict]) -> String {
    format!("the givens clash: {}", joined(conflicts))
}

/// `solved`, `valid` (no clash, blanks left) or `conflicts: …` with every clash.
pub(super) fn describe_validation(verdict: &Validation) -> String {
    if verdict.solved {
        return "solved".to_owned();
    }
    if verdict.valid {
        return "valid".to_owned();
    }
    format!("conflicts: {}", joined(&verdict.conflicts))
}

/// Every conflict, described and joined by `; `.
fn joined(conflicts: &[Conflict]) -> String {
    let described: Vec<String> = conflicts.iter().map(describe_conflict).collect();
    described.join("; ")
}

/// What a solution count up to 2 says about uniqueness.
pub(super) fn uniqueness(count: u64) -> &'static str {
    if count == 1 { "unique" } else { "multiple" }
}
