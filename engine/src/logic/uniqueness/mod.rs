//! Uniqueness techniques, which assume the puzzle has one solution: unique rectangles and
//! loops (types 1 to 4), and the bivalue universal grave (types 1 to 4).
//!
//! Both look for a deadly pattern: cells whose candidates could be swapped between two
//! solutions. Since the puzzle has one solution, some candidate outside the pattern must
//! be true, and what it sees can go. The searches follow Sukaku Explainer's lkSudoku
//! variants (its defaults), scan for scan, so that the same pattern is found first.
//!
//! `loops` finds the rectangles and loops, `grave` the graves; the removals and house
//! references they share are here.

mod grave;
mod loops;

pub use grave::bug;
pub use loops::unique_loops;

use super::board::{Board, Cell, Digits, HouseKind, digits_of, orthogonal_neighbours};
use super::cell_masks::{CellMask, cells_of};
use super::step::{Elimination, HouseRef};

/// A house index of [`CellMasks::houses`](super::cell_masks::CellMasks::houses) as a
/// reference for a step.
fn house_ref(house: usize) -> HouseRef {
    let kind = [HouseKind::Box, HouseKind::Row, HouseKind::Column][house / 9];
    HouseRef {
        kind,
        index: house % 9,
    }
}

/// Whether a rule beyond the houses restricts the digits `pair` in `cell`, so that a
/// pattern through it need not be deadly (the reference then skips the pattern): a cell
/// that sees it by a chess move alone holds one of them, or, with non-consecutive, an
/// orthogonal neighbour holds a digit next to one of them.
fn restricted(board: &Board, cell: Cell, pair: Digits) -> bool {
    let masks = board.geometry().masks();
    let chess = cells_of(masks.chess_peers[cell]).any(|other| board.candidates(other) & pair != 0);
    let close = (pair << 1 | pair >> 1) & 0x1ff;
    chess
        || masks.nonconsecutive
            && orthogonal_neighbours(cell, 9).any(|other| board.candidates(other) & close != 0)
}

/// The mask of `cells`.
fn mask_of(cells: &[Cell]) -> CellMask {
    cells.iter().fold(0, |mask, &cell| mask | 1 << cell)
}

/// Candidates to remove, as a set of cells per digit, until they become a step's
/// eliminations (sorted by cell).
#[derive(Default)]
struct Removals([CellMask; 9]);

impl Removals {
    /// Removes each of `digits` from each of `cells`.
    fn add(&mut self, digits: Digits, cells: CellMask) {
        for digit in digits_of(digits) {
            self.0[digit as usize - 1] |= cells;
        }
    }

    /// Whether nothing is removed.
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&cells| cells == 0)
    }

    /// The removals cell by cell, in cell order.
    fn eliminations(&self) -> Vec<Elimination> {
        let cells = self.0.iter().fold(0, |all, &cells| all | cells);
        cells_of(cells)
            .map(|cell| Elimination {
                cell,
                digits: (0..9)
                    .filter(|&digit| self.0[digit] & 1 << cell != 0)
                    .fold(0, |digits, digit| digits | 1 << digit),
            })
            .collect()
    }
}

/// Boards and expected answers for the tests of both searches.
#[cfg(test)]
mod testing {
    use super::*;
    use crate::grid::Grid;
    use crate::logic::board::{Board, bit};

    pub(super) fn empty_board() -> Board {
        Board::from_grid(&Grid::empty(9).unwrap())
    }

    pub(super) fn digits(list: &[u8]) -> Digits {
        list.iter().fold(0, |mask, &digit| mask | bit(digit))
    }

    /// Leaves `cells` with only the digits of `list`.
    pub(super) fn keep(board: &mut Board, cells: &[Cell], list: &[u8]) {
        for &cell in cells {
            board.eliminate(cell, !digits(list));
        }
    }

    pub(super) fn eliminations(pairs: &[(Cell, &[u8])]) -> Vec<Elimination> {
        pairs
            .iter()
            .map(|&(cell, list)| Elimination {
                cell,
                digits: digits(list),
            })
            .collect()
    }

    pub(super) fn board_of(symbols: &str) -> Board {
        Board::from_grid(&Grid::parse_symbols(symbols).unwrap())
    }
}
