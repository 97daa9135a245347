//! The direct implications of one potential, as the reference derives them, in its order.
//!
//! A candidate that holds turns off the cell's other candidates (when cell links are on),
//! then the digit's other places in the cell's box, row and column. A candidate that goes
//! turns on the cell's last candidate (when the cell had two), and the digit's last place
//! in each of the cell's box, row and column. In a dynamic search the board already lacks
//! what earlier steps of the same search turned off; each node then also names those
//! removals as parents ("hidden parents"), which makes dynamic chains longer.

use super::graph::{Arena, Cause, NodeId, PotentialSet, cell_of, digit_of, key};
use crate::logic::board::{Board, HouseKind, digits_of};

/// The kinds of house in the order the reference links through them.
const HOUSE_ORDER: [HouseKind; 3] = [HouseKind::Box, HouseKind::Row, HouseKind::Column];

/// Appends to `out` the nodes that turn off when node `p` (on) holds on `board`.
pub fn on_to_off(
    board: &Board,
    arena: &mut Arena,
    p: NodeId,
    cell_links: bool,
    out: &mut Vec<NodeId>,
) {
    let (cell, digit) = (cell_of(arena.key(p)), digit_of(arena.key(p)));
    if cell_links {
        for other in digits_of(board.candidates(cell)) {
            if other != digit {
                out.push(arena.add(key(cell, other, false), Cause::Cell, &[p]));
            }
        }
    }
    let geometry = board.geometry();
    let mut added: u128 = 1 << cell;
    for kind in HOUSE_ORDER {
        for &other in &geometry.house_of(cell, kind).cells {
            if added & 1 << other == 0 && board.has(other, digit) {
                added |= 1 << other;
                out.push(arena.add(key(other, digit, false), Cause::House(kind), &[p]));
            }
        }
    }
}

/// Appends to `out` the nodes that turn on when node `p` (off) goes on `board`. In a
/// dynamic search, `source` is the board the search started from and `offs` the nodes
/// turned off so far, which become hidden parents.
#[allow(clippy::too_many_arguments)]
pub fn off_to_on(
    board: &Board,
    arena: &mut Arena,
    p: NodeId,
    source: Option<&Board>,
    offs: &PotentialSet,
    cell_links: bool,
    house_links: bool,
    out: &mut Vec<NodeId>,
) {
    let (cell, digit) = (cell_of(arena.key(p)), digit_of(arena.key(p)));
    let mut parents = Vec::with_capacity(4);
    if cell_links {
        let candidates = board.candidates(cell);
        if candidates.count_ones() == 2 {
            let other = digits_of(candidates)
                .find(|&d| d != digit)
                .expect("two candidates");
            parents.clear();
            parents.push(p);
            if let Some(source) = source {
                let removed = source.candidates(cell) & !candidates;
                parents.extend(digits_of(removed).filter_map(|d| offs.get(key(cell, d, false))));
            }
            out.push(arena.add(key(cell, other, true), Cause::Cell, &parents));
        }
    }
    if house_links {
        let geometry = board.geometry();
        for kind in HOUSE_ORDER {
            let house = geometry.house_of(cell, kind);
            let mut places = house
                .cells
                .iter()
                .filter(|&&other| other != cell && board.has(other, digit));
            let (Some(&last), None) = (places.next(), places.next()) else {
                continue;
            };
            parents.clear();
            parents.push(p);
            if let Some(source) = source {
                parents.extend(
                    house
                        .cells
                        .iter()
                        .filter(|&&other| source.has(other, digit) && !board.has(other, digit))
                        .filter_map(|&other| offs.get(key(other, digit, false))),
                );
            }
            out.push(arena.add(key(last, digit, true), Cause::House(kind), &parents));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::graph::{Key, is_on};
    use super::*;
    use crate::grid::Grid;
    use crate::logic::board::bit;

    #[test]
    fn a_true_candidate_clears_its_cell_then_its_box_row_and_column() {
        let board = Board::from_grid(&Grid::empty(9).unwrap());
        let mut arena = Arena::new();
        let start = arena.add(key(0, 1, true), Cause::Assumption, &[]);
        let mut out = Vec::new();
        on_to_off(&board, &mut arena, start, true, &mut out);
        // 8 other digits, 8 box peers, 6 more in the row, 6 more in the column.
        assert_eq!(out.len(), 8 + 8 + 6 + 6);
        assert_eq!(arena.key(out[0]), key(0, 2, false));
        assert_eq!(arena.key(out[8]), key(1, 1, false), "the box comes first");
        assert!(out.iter().all(|&node| !is_on(arena.key(node))));
        out.clear();
        on_to_off(&board, &mut arena, start, false, &mut out);
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
        let mut arena = Arena::new();
        let start = arena.add(key(0, 1, false), Cause::Assumption, &[]);
        let mut out = Vec::new();
        off_to_on(
            &board,
            &mut arena,
            start,
            None,
            &PotentialSet::default(),
            true,
            true,
            &mut out,
        );
        let keys: Vec<Key> = out.iter().map(|&node| arena.key(node)).collect();
        assert_eq!(keys, [key(0, 2, true), key(4, 1, true)]);
    }
}
