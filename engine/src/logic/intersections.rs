//! Intersections (locked candidates): when a digit's places in one house all lie in a
//! second house, the digit leaves the second house's other cells. Pointing: a box confines
//! a digit of a row or column; claiming: a row or column confines a digit of a box. The
//! direct variants count only when the removal leaves a hidden single in another house of
//! the first house's kind, and place that single.

use std::ops::ControlFlow;

use super::board::{Board, House, HouseKind, MAX_SIZE, bit, ones};
use super::singles::cells_at;
use super::step::{
    Elimination, HouseRef, Placement, Step, cell_name, digit_name, eliminations_text, house_name,
};
use super::technique::Technique;

/// The pairs of house kinds in Sudoku Explainer's scan order: the first kind confines the
/// digit, the second loses it elsewhere; then the same with a variant puzzle's regions,
/// which a classic board has none of.
const KIND_PAIRS: [(HouseKind, HouseKind); 8] = [
    (HouseKind::Box, HouseKind::Column),
    (HouseKind::Box, HouseKind::Row),
    (HouseKind::Column, HouseKind::Box),
    (HouseKind::Row, HouseKind::Box),
    (HouseKind::Region, HouseKind::Column),
    (HouseKind::Region, HouseKind::Row),
    (HouseKind::Column, HouseKind::Region),
    (HouseKind::Row, HouseKind::Region),
];

/// The pairs in a board of one of Sukaku Explainer's variant modes: the classic four,
/// then disjoint groups and windows (kinds a mode lacks have no houses) with the lines
/// and boxes, then with each other, in the reference's order.
const MODE_PAIRS: [(HouseKind, HouseKind); 18] = [
    (HouseKind::Box, HouseKind::Column),
    (HouseKind::Box, HouseKind::Row),
    (HouseKind::Column, HouseKind::Box),
    (HouseKind::Row, HouseKind::Box),
    (HouseKind::DisjointGroup, HouseKind::Column),
    (HouseKind::DisjointGroup, HouseKind::Row),
    (HouseKind::Column, HouseKind::DisjointGroup),
    (HouseKind::Row, HouseKind::DisjointGroup),
    (HouseKind::Box, HouseKind::DisjointGroup),
    (HouseKind::DisjointGroup, HouseKind::Box),
    (HouseKind::ExtraRegion, HouseKind::Column),
    (HouseKind::ExtraRegion, HouseKind::Row),
    (HouseKind::Column, HouseKind::ExtraRegion),
    (HouseKind::Row, HouseKind::ExtraRegion),
    (HouseKind::Box, HouseKind::ExtraRegion),
    (HouseKind::ExtraRegion, HouseKind::Box),
    (HouseKind::ExtraRegion, HouseKind::DisjointGroup),
    (HouseKind::DisjointGroup, HouseKind::ExtraRegion),
];

/// The first pointing or claiming that removes a candidate.
pub fn locked_candidates(board: &Board) -> Option<Step> {
    let mut found = None;
    for_each_lock(board, |lock| {
        if lock.eliminations(board).is_empty() {
            return ControlFlow::Continue(());
        }
        found = Some(lock.step(board, None));
        ControlFlow::Break(())
    });
    found
}

/// The first pointing or claiming that leaves a hidden single (in a house of the
/// confining house's kind), with that single placed.
pub fn direct_locked_candidates(board: &Board) -> Option<Step> {
    let mut found = None;
    for_each_lock(board, |lock| match lock.following_single(board) {
        Some(single) => {
            found = Some(lock.step(board, Some(single)));
            ControlFlow::Break(())
        }
        None => ControlFlow::Continue(()),
    });
    found
}

/// Calls `visit` with every lock on `board` in the reference's scan order (pairs of house
/// kinds, then digits, then the confining house, then the crossing one), until it breaks.
pub fn for_each_lock<'a>(board: &'a Board, mut visit: impl FnMut(Lock<'a>) -> ControlFlow<()>) {
    let geometry = board.geometry();
    let pairs: &[(HouseKind, HouseKind)] = match geometry.mode() {
        Some(mode) if !mode.is_classic() => &MODE_PAIRS,
        _ => &KIND_PAIRS,
    };
    for &(first_kind, second_kind) in pairs {
        let firsts = geometry.houses_of(first_kind);
        let places: Vec<[u32; MAX_SIZE]> = firsts
            .iter()
            .map(|first| board.digit_positions(first))
            .collect();
        for digit in 1..=board.size() as u8 {
            for (first, places) in firsts.iter().zip(&places) {
                let positions = places[usize::from(digit) - 1];
                if positions.count_ones() < 2 {
                    continue;
                }
                // Houses of one kind are disjoint: only the one that holds the first
                // place can hold them all.
                let mut cells = ones(positions).map(|position| first.cells[position]);
                let Some(second) = cells
                    .next()
                    .and_then(|cell| geometry.kind_house_of(cell, second_kind))
                else {
                    continue;
                };
                if !cells.all(|cell| second.cells.contains(&cell)) {
                    continue;
                }
                let lock = Lock {
                    first,
                    second,
                    digit,
                };
                if visit(lock).is_break() {
                    return;
                }
            }
        }
    }
}

/// `digit`, confined in `first` to cells of `second`.
pub struct Lock<'a> {
    first: &'a House,
    second: &'a House,
    digit: u8,
}

impl Lock<'_> {
    /// The removals of the digit from the confining house, outside the crossing house,
    /// that the lock relies on: candidates `source` had and `current` lacks (the
    /// reference's rule parents, for chains that use the lock).
    pub fn rule_parents(&self, source: &Board, current: &Board) -> Vec<(usize, u8)> {
        self.first
            .cells
            .iter()
            .filter(|&&cell| {
                source.has(cell, self.digit)
                    && !current.has(cell, self.digit)
                    && !self.second.cells.contains(&cell)
            })
            .map(|&cell| (cell, self.digit))
            .collect()
    }

    /// The hidden single the lock leaves in another house of the first house's kind that
    /// crosses the second: the first such house, by index, whose places for the digit
    /// outside the second house come down to one.
    fn following_single(&self, board: &Board) -> Option<Placement> {
        let geometry = board.geometry();
        geometry
            .houses_of(self.first.kind)
            .iter()
            .filter(|third| third.index != self.first.index)
            .filter(|third| {
                third
                    .cells
                    .iter()
                    .any(|cell| self.second.cells.contains(cell))
            })
            .find_map(|third| {
                let positions = board.positions(third, self.digit);
                if positions.count_ones() < 2 {
                    return None;
                }
                let outside: Vec<usize> = cells_at(third, positions)
                    .into_iter()
                    .filter(|cell| !self.second.cells.contains(cell))
                    .collect();
                (outside.len() == 1).then(|| Placement {
                    cell: outside[0],
                    digit: self.digit,
                })
            })
    }

    /// The digit's candidates in the crossing house outside the confining one, in house
    /// order: what the lock removes.
    pub fn eliminations(&self, board: &Board) -> Vec<Elimination> {
        self.second
            .cells
            .iter()
            .filter(|&&cell| board.has(cell, self.digit) && !self.first.cells.contains(&cell))
            .map(|&cell| Elimination {
                cell,
                digits: bit(self.digit),
            })
            .collect()
    }

    /// The lock as a step: its removals, or (direct) the single it leaves.
    pub fn step(&self, board: &Board, single: Option<Placement>) -> Step {
        let pointing = self.first.kind == HouseKind::Box;
        let (technique, difficulty) = match (single.is_some(), pointing) {
            (false, true) => (Technique::Pointing, 2.6),
            (false, false) => (Technique::Claiming, 2.8),
            (true, true) => (Technique::DirectPointing, 1.7),
            (true, false) => (Technique::DirectClaiming, 1.9),
        };
        let mut step = Step::new(technique, difficulty);
        step.cells = self
            .second
            .cells
            .iter()
            .copied()
            .filter(|&cell| board.has(cell, self.digit) && self.first.cells.contains(&cell))
            .collect();
        step.eliminations = self.eliminations(board);
        // A direct step only places its single, as the reference applies it: the lock's
        // removals are what make the single, and a later step finds them again.
        if let Some(single) = single {
            step.eliminations.clear();
            step.placements.push(single);
        }
        step.houses = [self.first, self.second]
            .iter()
            .map(|house| HouseRef {
                kind: house.kind,
                index: house.index,
            })
            .collect();
        let size = board.size();
        let mut text = format!(
            "{}: {} in {} is confined to {}",
            technique.name(),
            digit_name(self.digit),
            house_name(step.houses[0]),
            house_name(step.houses[1]),
        );
        if single.is_none() {
            text.push_str(" => ");
            text.push_str(&eliminations_text(&step.eliminations, size));
        }
        if let Some(single) = single {
            text.push_str(&format!(
                ", so {}={}",
                cell_name(single.cell, size),
                digit_name(single.digit)
            ));
        }
        step.text = text;
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    /// An empty 9×9 board where digit 1 has left rows 2 and 3 of box 1.
    fn one_confined_to_the_first_row_of_box_1() -> Board {
        let mut board = Board::from_grid(&Grid::empty(9).unwrap());
        for cell in [9, 10, 11, 18, 19, 20] {
            board.eliminate(cell, bit(1));
        }
        board
    }

    #[test]
    fn a_box_that_confines_a_digit_to_a_row_clears_the_rest_of_the_row() {
        let board = one_confined_to_the_first_row_of_box_1();
        let step = locked_candidates(&board).unwrap();
        assert_eq!(step.technique, Technique::Pointing);
        assert_eq!(step.difficulty, 2.6);
        assert_eq!(step.cells, [0, 1, 2]);
        let removed: Vec<usize> = step.eliminations.iter().map(|e| e.cell).collect();
        assert_eq!(removed, [3, 4, 5, 6, 7, 8]);
        assert!(step.placements.is_empty());
        assert_eq!(
            step.text,
            "Pointing: 1 in b1 is confined to r1 => r1c4<>1, r1c5<>1, r1c6<>1, r1c7<>1, r1c8<>1, r1c9<>1"
        );
    }

    #[test]
    fn a_direct_lock_needs_a_hidden_single_behind_it() {
        let mut board = one_confined_to_the_first_row_of_box_1();
        assert_eq!(direct_locked_candidates(&board), None);
        // Box 2 keeps 1 only in r1c4 and r2c4: the lock leaves r2c4.
        for cell in [4, 5, 13, 14, 21, 22, 23] {
            board.eliminate(cell, bit(1));
        }
        let step = direct_locked_candidates(&board).unwrap();
        assert_eq!(step.technique, Technique::DirectPointing);
        assert_eq!(step.placements, [Placement { cell: 12, digit: 1 }]);
    }

    #[test]
    fn no_lock_on_an_empty_board() {
        let board = Board::from_grid(&Grid::empty(9).unwrap());
        assert_eq!(locked_candidates(&board), None);
        assert_eq!(direct_locked_candidates(&board), None);
    }
}
