//! The candidates of a 9×9 board as the chain searches read them: per digit, the cells
//! that may still hold it, as one 81-bit set, so that "the other places of 5 in this row"
//! is one mask and a count. The searches run millions of such questions per rating.
//!
//! A box's cells in scan order (row by row) are also its cells in increasing index, as are
//! a row's and a column's, so walking a mask's bits upwards visits cells in the order the
//! reference scans them.

use crate::logic::board::{Board, Cell, Digits, HouseKind};

/// A set of cells of a 9×9 board: bit `i` for cell `i`.
pub type Cells = u128;

/// The cells of each house: boxes 0..9, rows 9..18, columns 18..27.
const HOUSES: [Cells; 27] = houses();

const fn houses() -> [Cells; 27] {
    let mut houses = [0; 27];
    let mut cell = 0;
    while cell < 81 {
        let (row, col) = (cell / 9, cell % 9);
        houses[row / 3 * 3 + col / 3] |= 1 << cell;
        houses[9 + row] |= 1 << cell;
        houses[18 + col] |= 1 << cell;
        cell += 1;
    }
    houses
}

/// The cells of the house of `kind` that holds `cell`.
pub fn house(cell: Cell, kind: HouseKind) -> Cells {
    let (row, col) = (cell / 9, cell % 9);
    match kind {
        HouseKind::Box => HOUSES[row / 3 * 3 + col / 3],
        HouseKind::Row => HOUSES[9 + row],
        HouseKind::Column => HOUSES[18 + col],
    }
}

/// The index of the house of `kind` that holds `cell`, among the houses of its kind.
pub fn house_index(cell: Cell, kind: HouseKind) -> usize {
    let (row, col) = (cell / 9, cell % 9);
    match kind {
        HouseKind::Box => row / 3 * 3 + col / 3,
        HouseKind::Row => row,
        HouseKind::Column => col,
    }
}

/// The cells that share a house with `cell` (not `cell` itself).
pub fn peers(cell: Cell) -> Cells {
    (house(cell, HouseKind::Box) | house(cell, HouseKind::Row) | house(cell, HouseKind::Column))
        & !(1 << cell)
}

/// The cells of `cells`, in increasing index.
pub fn cells_of(mut cells: Cells) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (cells != 0).then(|| {
            let cell = cells.trailing_zeros() as Cell;
            cells &= cells - 1;
            cell
        })
    })
}

/// Each cell's candidates, and each digit's cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    candidates: [Digits; 81],
    places: [Cells; 9],
}

impl State {
    /// The candidates of a 9×9 `board`.
    pub fn of(board: &Board) -> State {
        let mut state = State {
            candidates: [0; 81],
            places: [0; 9],
        };
        for cell in 0..81 {
            let candidates = board.candidates(cell);
            state.candidates[cell] = candidates;
            for index in crate::logic::board::ones(candidates) {
                state.places[index] |= 1 << cell;
            }
        }
        state
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
        Board::with_candidates(&base.to_grid(), self.candidates.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::logic::board::bit;

    #[test]
    fn houses_hold_nine_cells_and_places_follow_removals() {
        assert!(HOUSES.iter().all(|house| house.count_ones() == 9));
        assert_eq!(
            cells_of(house(40, HouseKind::Box)).collect::<Vec<_>>(),
            [30, 31, 32, 39, 40, 41, 48, 49, 50]
        );
        let board = Board::from_grid(&Grid::empty(9).unwrap());
        let mut state = State::of(&board);
        assert_eq!(state.places(5).count_ones(), 81);
        state.remove(10, 5);
        assert_eq!(state.places(5).count_ones(), 80);
        assert_eq!(state.candidates(10), 0x1ff & !bit(5));
        assert_eq!(state.on_board(&board).candidates(10), 0x1ff & !bit(5));
    }
}
