//! Short human-readable verdicts for the command line.

use crate::validate::{Conflict, Unit, Validation};

/// `row 0 has 5 at (0,0) (0,1)`: one conflict on one line, 0-based like the API.
pub(super) fn describe_conflict(conflict: &Conflict) -> String {
    let unit = match conflict.unit {
        Unit::Row => "row",
        Unit::Column => "column",
        Unit::Box => "box",
    };
    let cells: Vec<String> = conflict
        .cells
        .iter()
        .map(|cell| format!("({},{})", cell.row, cell.col))
        .collect();
    format!(
        "{unit} {} has {} at {}",
        conflict.index,
        conflict.digit,
        cells.join(" ")
    )
}

/// `solved`, `valid` (no clash, blanks left) or `conflicts: …` with every clash.
pub(super) fn describe_validation(verdict: &Validation) -> String {
    if verdict.solved {
        return "solved".to_owned();
    }
    if verdict.valid {
        return "valid".to_owned();
    }
    let conflicts: Vec<String> = verdict.conflicts.iter().map(describe_conflict).collect();
    format!("conflicts: {}", conflicts.join("; "))
}

/// What a solution count up to 2 says about uniqueness.
pub(super) fn uniqueness(count: u64) -> &'static str {
    if count == 1 { "unique" } else { "multiple" }
}
