//! The direct implications of one potential, as the reference derives them, in its order.
//!
//! A candidate that holds turns off the cell's other candidates (when cell links are on),
//! then the digit's other places in the cell's box, row and column. A candidate that goes
//! turns on the cell's last candidate (when the cell had two), and the digit's last place
//! in each of the cell's box, row and column. In a dynamic search the board already lacks
//! what earlier steps of the same search turned off; each node then also names those
//! removals as parents ("hidden parents"), which makes dynamic chains longer.

use super::bitboard::{State, cells_of};
use super::graph::{Cause, Key, NodeId, PotentialSet, cell_of, digit_of, key};
use crate::logic::board::{bit, digits_of, orthogonal_neighbours};

/// A potential that follows from another, before it becomes a node: a search makes nodes
/// only of those it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Implied {
    /// The potential.
    pub key: Key,
    /// Why it follows.
    pub cause: Cause,
}

/// Appends to `out` what turns off when the potential `on` holds on `state`.
pub fn on_to_off(state: &State, on: Key, cell_links: bool, out: &mut Vec<Implied>) {
    let (cell, digit) = (cell_of(on), digit_of(on));
    if cell_links {
        for other in digits_of(state.candidates(cell)) {
            if other != digit {
                out.push(Implied {
                    key: key(cell, other, false),
                    cause: Cause::Cell,
                });
            }
        }
    }
    // Each peer once: the box first, then the row and the column outside the box, then
    // the houses of the board's rules, then cells that see it by a chess move.
    let mut seen = 1 << cell;
    let mut push_house = |house: usize, cells| {
        for other in cells_of(state.places(digit) & cells & !seen) {
            out.push(Implied {
                key: key(other, digit, false),
                cause: Cause::House(house as u8),
            });
        }
        seen |= cells;
    };
    if state.classic() {
        for (house, cells) in state.box_row_column(cell) {
            push_house(house, cells);
        }
        return;
    }
    for house in state.houses_of(cell) {
        push_house(house, state.house_cells(house));
    }
    for other in cells_of(state.places(digit) & state.peers(cell) & !seen) {
        out.push(Implied {
            key: key(other, digit, false),
            cause: Cause::Sees,
        });
    }
    if state.nonconsecutive() {
        for neighbour in orthogonal_neighbours(cell, 9) {
            let next = [digit + 1, digit - 1]
                .into_iter()
                .filter(|d| (1..=9).contains(d));
            for close in next.filter(|&d| state.candidates(neighbour) & bit(d) != 0) {
                out.push(Implied {
                    key: key(neighbour, close, false),
                    cause: Cause::Neighbour,
                });
            }
        }
    }
}

/// Appends to `out` what turns on when the potential `off` goes on `state`: the cell's
/// last candidate (with cell links), the digit's last place in each house (with house
/// links).
pub fn off_to_on(
    state: &State,
    off: Key,
    cell_links: bool,
    house_links: bool,
    out: &mut Vec<Implied>,
) {
    let (cell, digit) = (cell_of(off), digit_of(off));
    if cell_links {
        let candidates = state.candidates(cell);
        let rest = candidates & candidates.wrapping_sub(1);
        if rest != 0 && rest & (rest - 1) == 0 {
            // Two candidates.
            let other = digits_of(candidates)
                .find(|&d| d != digit)
                .expect("two candidates");
            out.push(Implied {
                key: key(cell, other, true),
                cause: Cause::Cell,
            });
        }
    }
    if house_links {
        for house in state.houses_of(cell) {
            let others = state.places(digit) & state.house_cells(house) & !(1 << cell);
            if others != 0 && others & (others - 1) == 0 {
                // One place left.
                out.push(Implied {
                    key: key(others.trailing_zeros() as usize, digit, true),
                    cause: Cause::House(house as u8),
                });
            }
        }
    }
}

/// Appends to `parents` the hidden parents of `implied` (an "on" that `off_to_on` derived)
/// in a dynamic search: the nodes of `offs` that removed, since `source`, the other
/// candidates of its cell (cell cause) or the digit's other places in its house (house
/// cause).
pub fn hidden_parents(
    state: &State,
    source: &State,
    offs: &PotentialSet,
    implied: Implied,
    parents: &mut Vec<NodeId>,
) {
    let (cell, digit) = (cell_of(implied.key), digit_of(implied.key));
    match implied.cause {
        Cause::Cell => {
            let removed = source.candidates(cell) & !state.candidates(cell);
            parents.extend(digits_of(removed).filter_map(|d| offs.get(key(cell, d, false))));
        }
        Cause::House(house) => {
            let cells = state.house_cells(usize::from(house));
            let removed = source.places(digit) & cells & !state.places(digit);
            parents
                .extend(cells_of(removed).filter_map(|other| offs.get(key(other, digit, false))));
        }
        Cause::Assumption | Cause::Advanced | Cause::Sees | Cause::Neighbour => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::graph::is_on;
    use super::*;
    use crate::grid::Grid;
    use crate::logic::board::{Board, bit};

    #[test]
    fn a_true_candidate_clears_its_cell_then_its_box_row_and_column() {
        let state = State::of(&Board::from_grid(&Grid::empty(9).unwrap()));
        let mut out = Vec::new();
        on_to_off(&state, key(0, 1, true), true, &mut out);
        // 8 other digits, 8 box peers, 6 more in the row, 6 more in the column.
        assert_eq!(out.len(), 8 + 8 + 6 + 6);
        assert_eq!(out[0].key, key(0, 2, false));
        assert_eq!(out[8].key, key(1, 1, false), "the box comes first");
        assert!(out.iter().all(|implied| !is_on(implied.key)));
        out.clear();
        on_to_off(&state, key(0, 1, true), false, &mut out);
        assert_eq!(out.len(), 20, "no cell links: the peers alone");
    }

    #[test]
    fn a_false_candidate_turns_on_the_last_candidate_and_the_last_places() {
        let mut board = Board::from_grid(&Grid::empty(9).unwrap());
        board.eliminate(0, !(bit(1) | bit(2)));
        // Digit 1 of row 1 may go only in r1c1 and r1c5.
        for cell in [1, 2, 3, 5, 6, 7, 8] {
            board.eliminate(cell, bit(1));
        }
        let state = State::of(&board);
        let mut out = Vec::new();
        off_to_on(&state, key(0, 1, false), true, true, &mut out);
        let keys: Vec<Key> = out.iter().map(|implied| implied.key).collect();
        assert_eq!(keys, [key(0, 2, true), key(4, 1, true)]);
        // Removed since the start, by nodes of the chain: hidden parents.
        let source = State::of(&Board::from_grid(&Grid::empty(9).unwrap()));
        let mut arena = super::super::graph::Arena::new();
        let mut offs = PotentialSet::default();
        let removal = arena.add(key(5, 1, false), Cause::Cell, &[]);
        offs.add(&arena, removal);
        let mut parents = Vec::new();
        hidden_parents(&state, &source, &offs, out[1], &mut parents);
        assert_eq!(parents, [removal]);
    }
}
