//! Checking a grid against the rules: which givens clash, and whether it is finished.

use serde::Serialize;

use crate::grid::{Grid, SUPPORTED_SIZES};

/// A row, column or box of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// A row, indexed top to bottom.
    Row,
    /// A column, indexed left to right.
    Column,
    /// A box, indexed row-major (box 0 is top left, box 1 to its right).
    Box,
}

/// A cell's 0-based position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
}

/// A digit that stands more than once in one unit, with every cell that holds it there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conflict {
    /// The kind of unit.
    pub unit: Unit,
    /// 0-based index of the unit among its kind.
    pub index: usize,
    /// The repeated digit.
    pub digit: u8,
    /// Every cell of the unit that holds the digit, in reading order.
    pub cells: Vec<Cell>,
}

/// The verdict on a grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Validation {
    /// No digit repeats in any row, column or box.
    pub valid: bool,
    /// No cell is blank.
    pub complete: bool,
    /// Valid and complete: a finished Sudoku.
    pub solved: bool,
    /// Every repetition, rows first, then columns, then boxes.
    pub conflicts: Vec<Conflict>,
}

/// Checks `grid` against the rules (blanks are allowed).
pub fn validate(grid: &Grid) -> Validation {
    let conflicts: Vec<Conflict> = if has_repeats(grid) {
        [Unit::Row, Unit::Column, Unit::Box]
            .into_iter()
            .flat_map(|unit| (0..grid.size()).map(move |index| (unit, index)))
            .flat_map(|(unit, index)| unit_conflicts(grid, unit, index))
            .collect()
    } else {
        Vec::new()
    };
    let valid = conflicts.is_empty();
    let complete = grid.is_complete();
    Validation {
        valid,
        complete,
        solved: valid && complete,
        conflicts,
    }
}

/// Whether some digit stands twice in a row, column or box: one pass over the givens with
/// a bit per digit for each unit, so that the common grid, which has no repeat, is cleared
/// without visiting every unit cell by cell. The cells are read band by band and box by
/// box along each row, so no cell's box takes a division to find.
fn has_repeats(grid: &Grid) -> bool {
    let size = grid.size();
    let side = crate::grid::box_side(size);
    const UNITS: usize = SUPPORTED_SIZES[SUPPORTED_SIZES.len() - 1];
    let (mut rows, mut cols, mut boxes) = ([0u32; UNITS], [0u32; UNITS], [0u32; UNITS]);
    let mut row_cells = grid.cells().chunks_exact(size).enumerate();
    for band in 0..side {
        for (row, cells) in row_cells.by_ref().take(side) {
            for (stack, box_cells) in cells.chunks_exact(side).enumerate() {
                let box_index = band * side + stack;
                for (offset, &value) in box_cells.iter().enumerate() {
                    if value == 0 {
                        continue;
                    }
                    let col = stack * side + offset;
                    let bit = 1 << value;
                    if (rows[row] | cols[col] | boxes[box_index]) & bit != 0 {
                        return true;
                    }
                    rows[row] |= bit;
                    cols[col] |= bit;
                    boxes[box_index] |= bit;
                }
            }
        }
    }
    false
}

/// The cells of one unit in reading order.
pub fn unit_cells(size: usize, unit: Unit, index: usize) -> impl Iterator<Item = Cell> {
    let side = crate::grid::box_side(size);
    (0..size).map(move |i| match unit {
        Unit::Row => Cell { row: index, col: i },
        Unit::Column => Cell { row: i, col: index },
        Unit::Box => Cell {
            row: index / side * side + i / side,
            col: index % side * side + i % side,
        },
    })
}

fn unit_conflicts(grid: &Grid, unit: Unit, index: usize) -> Vec<Conflict> {
    // Most units have no repeat: find that out with one bit per digit before collecting
    // any cells.
    let mut seen = 0u32;
    let repeats = unit_cells(grid.size(), unit, index).any(|cell| {
        let value = grid.get(cell.row, cell.col);
        let bit = (1u32 << value) & !1;
        let repeated = seen & bit != 0;
        seen |= bit;
        repeated
    });
    if !repeats {
        return Vec::new();
    }
    let mut by_digit: Vec<Vec<Cell>> = vec![Vec::new(); grid.size() + 1];
    for cell in unit_cells(grid.size(), unit, index) {
        by_digit[usize::from(grid.get(cell.row, cell.col))].push(cell);
    }
    by_digit
        .into_iter()
        .enumerate()
        .skip(1)
        .filter(|(_, cells)| cells.len() > 1)
        .map(|(digit, cells)| Conflict {
            unit,
            index,
            digit: digit as u8,
            cells,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_digit_is_reported_in_each_unit_it_breaks() {
        // Two 5s in row 0, columns 0 and 1: same row and same box, different columns.
        let grid = Grid::parse_symbols(&format!("55{}", ".".repeat(79))).unwrap();
        let verdict = validate(&grid);
        assert!(!verdict.valid && !verdict.complete && !verdict.solved);
        let units: Vec<(Unit, usize)> = verdict
            .conflicts
            .iter()
            .map(|c| (c.unit, c.index))
            .collect();
        assert_eq!(units, vec![(Unit::Row, 0), (Unit::Box, 0)]);
        assert_eq!(
            verdict.conflicts[0].cells,
            vec![Cell { row: 0, col: 0 }, Cell { row: 0, col: 1 }]
        );
        assert_eq!(verdict.conflicts[0].digit, 5);
    }

    #[test]
    fn box_cells_read_row_major() {
        let cells: Vec<Cell> = unit_cells(9, Unit::Box, 5).collect();
        assert_eq!(cells[0], Cell { row: 3, col: 6 });
        assert_eq!(cells[8], Cell { row: 5, col: 8 });
    }
}
