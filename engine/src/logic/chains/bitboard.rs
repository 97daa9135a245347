//! The candidates of a 9×9 board as the chain searches read them: per digit, the cells
//! that may still hold it, as one 81-bit set, so that "the other places of 5 in this row"
//! is one mask and a count. The searches run millions of such questions per rating.
//!
//! A box's cells in scan order (row by row) are also its cells in increasing index, as are
//! a row's and a column's, so walking a mask's bits upwards visits cells in the order the
//! reference scans them.

use crate::logic::board::{Board, Cell, Digits, HouseKind};
pub use crate::logic::cell_masks::{CellMask as Cells, cells_of};
use crate::logic::cell_masks::{CellMasks, digit_cells, houses_of};

/// Each cell's candidates, and each digit's cells.
#[derive(Debug, Clone, Copy)]
pub struct State {
    candidates: [Digits; 81],
    places: [Cells; 9],
    masks: &'static CellMasks,
}

impl State {
    /// The candidates of a 9×9 `board`.
    pub fn of(board: &Board) -> State {
        State {
            candidates: std::array::from_fn(|cell| board.candidates(cell)),
            places: digit_cells(board),
            masks: board.geometry().masks(),
        }
    }

    /// The cells that `cell` sees (not `cell` itself).
    pub fn peers(&self, cell: Cell) -> Cells {
        self.masks.peers[cell]
    }

    /// The houses that hold `cell`, by index in the board's numbering, in the order the
    /// reference links through them: its box, row and column, then the houses of the
    /// board's rules (disjoint group, window, diagonals).
    pub fn houses_of(&self, cell: Cell) -> impl Iterator<Item = usize> + '_ {
        houses_of(cell)
            .into_iter()
            .chain(self.masks.rule_houses[cell].iter().copied())
    }

    /// The cells of the house numbered `house`.
    pub fn house_cells(&self, house: usize) -> Cells {
        self.masks.houses[house]
    }

    /// The kind of the house numbered `house`, and its index among its kind.
    pub fn house_ref(&self, house: usize) -> (HouseKind, usize) {
        self.masks.house_refs[house]
    }

    /// Whether orthogonal neighbours may not hold consecutive digits.
    pub fn nonconsecutive(&self) -> bool {
        self.masks.nonconsecutive
    }

    /// Whether cells see by their box, row and column alone, with no rule beyond.
    pub fn classic(&self) -> bool {
        self.masks.classic
    }

    /// The cells of the box, row and column of `cell`, with their house indexes.
    pub fn box_row_column(&self, cell: Cell) -> [(usize, Cells); 3] {
        let houses = houses_of(cell);
        std::array::from_fn(|kind| (houses[kind], self.masks.cell_houses[cell][kind]))
    }

    /// The candidates of `cell`.
    pub fn candidates(&self, cell: Cell) -> Digits {
        self.candidates[cell]
    }

    /// The cells that may still hold `digit`.
    pub fn places(&self, digit: u8) -> Cells {
        self.places[usize::from(digit) - 1]
    }

    /// Removes `digit` from the candidates of `cell`.
    pub fn remove(&mut self, cell: Cell, digit: u8) {
        self.candidates[cell] &= !(1 << (digit - 1));
        self.places[usize::from(digit) - 1] &= !(1 << cell);
    }

    /// `base` (for its digits) with these candidates.
    pub fn on_board(&self, base: &Board) -> Board {
        base.with_candidates_of(self.candidates.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::logic::board::bit;

    #[test]
    fn houses_are_in_scan_order_and_places_follow_removals() {
        let board = Board::from_grid(&Grid::empty(9).unwrap());
        let mut state = State::of(&board);
        assert_eq!(
            cells_of(state.house_cells(4)).collect::<Vec<_>>(),
            [30, 31, 32, 39, 40, 41, 48, 49, 50]
        );
        assert_eq!(state.places(5).count_ones(), 81);
        state.remove(10, 5);
        assert_eq!(state.places(5).count_ones(), 80);
        assert_eq!(state.candidates(10), 0x1ff & !bit(5));
        assert_eq!(state.on_board(&board).candidates(10), 0x1ff & !bit(5));
    }
}
