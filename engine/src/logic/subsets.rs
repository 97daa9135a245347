//! Subsets: naked (n cells of a house hold n candidates between them: the candidates
//! leave the house's other cells) and hidden (n digits of a house are confined to the same
//! n cells: the cells lose their other candidates). The direct hidden variants count only
//! when the removal leaves a hidden single of another digit in the same house, and place
//! it.

use std::ops::ControlFlow;

use super::board::{Board, Cell, Digits, House, bit, combinations, digits_of, ones};
use super::cell_masks::{CellMask, cells_of};
use super::singles::{SCAN_ORDER, cells_at};
use super::step::{
    Elimination, HouseRef, Placement, Step, cell_name, cells_name, digit_name, digits_name,
    eliminations_text, house_name,
};
use super::technique::Technique;

/// The first naked set of `degree` cells (2 to 4) that removes a candidate. Only houses
/// with at least twice `degree` empty cells are searched, as the reference does.
pub fn naked_set(board: &Board, degree: u32) -> Option<Step> {
    first_naked_set(board, degree, false)
}

/// The first generalized naked set of `degree` cells (2 to 4): a naked set whose digits
/// each leave every cell, in the house or not, that sees all of the set's cells holding
/// that digit (Sukaku Explainer's form for variant modes).
pub fn generalized_naked_set(board: &Board, degree: u32) -> Option<Step> {
    first_naked_set(board, degree, true)
}

/// The first naked set of `degree` cells, plain or `generalized`, that removes a
/// candidate.
fn first_naked_set(board: &Board, degree: u32, generalized: bool) -> Option<Step> {
    let mut found = None;
    for_each_naked_set(board, degree, generalized, |naked| {
        found = Some(naked.step(board));
        ControlFlow::Break(())
    });
    found
}

/// Calls `visit` with every naked set of `degree` cells, plain or `generalized`, that
/// removes a candidate, in the reference's scan order, until it breaks.
pub fn for_each_naked_set<'a>(
    board: &'a Board,
    degree: u32,
    generalized: bool,
    mut visit: impl FnMut(NakedSet<'a>) -> ControlFlow<()>,
) {
    let geometry = board.geometry();
    for kind in SCAN_ORDER {
        for house in geometry.houses_of(kind) {
            if board.empty_count(house) < 2 * degree as usize {
                continue;
            }
            for positions in combinations(degree, house.cells.len() as u32) {
                let Some(digits) = common_tuple(
                    ones(positions).map(|position| board.candidates(house.cells[position])),
                    degree,
                ) else {
                    continue;
                };
                let cells = cells_at(house, positions);
                let eliminations = if generalized {
                    seen_by_all_holding(board, &cells, digits)
                } else {
                    house
                        .cells
                        .iter()
                        .filter(|cell| !cells.contains(cell))
                        .filter_map(|&cell| {
                            let digits = board.candidates(cell) & digits;
                            (digits != 0).then_some(Elimination { cell, digits })
                        })
                        .collect()
                };
                if !eliminations.is_empty() {
                    let naked = NakedSet {
                        house,
                        cells,
                        digits,
                        eliminations,
                        generalized,
                    };
                    if visit(naked).is_break() {
                        return;
                    }
                }
            }
        }
    }
}

/// For each of `digits`, its candidates in the cells that see every one of `cells` that
/// holds it, in cell order.
fn seen_by_all_holding(board: &Board, cells: &[Cell], digits: Digits) -> Vec<Elimination> {
    let masks = board.geometry().masks();
    let mut removed: [Digits; 81] = [0; 81];
    for digit in digits_of(digits) {
        let holding = cells
            .iter()
            .filter(|&&cell| board.has(cell, digit))
            .fold(0, |mask: CellMask, &cell| mask | 1 << cell);
        for cell in cells_of(masks.seen_by_all(holding)) {
            if board.has(cell, digit) {
                removed[cell] |= bit(digit);
            }
        }
    }
    (0..81)
        .filter(|&cell| removed[cell] != 0)
        .map(|cell| Elimination {
            cell,
            digits: removed[cell],
        })
        .collect()
}

/// The first hidden set of `degree` digits (2 to 4) that removes a candidate, searched in
/// houses with more than twice `degree` empty cells.
pub fn hidden_set(board: &Board, degree: u32) -> Option<Step> {
    let mut found = None;
    for_each_hidden_set(board, degree, false, |hidden| {
        if hidden.eliminations.is_empty() {
            return ControlFlow::Continue(());
        }
        found = Some(hidden.step(board, None));
        ControlFlow::Break(())
    });
    found
}

/// The first hidden set of `degree` digits (2 or 3) that leaves a hidden single of
/// another digit in its house, searched in houses with more than `degree` empty cells.
pub fn direct_hidden_set(board: &Board, degree: u32) -> Option<Step> {
    let mut found = None;
    for_each_hidden_set(board, degree, true, |hidden| {
        match hidden.following_single(board) {
            Some(single) => {
                found = Some(hidden.step(board, Some(single)));
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        }
    });
    found
}

/// Calls `visit` with every hidden set of `degree` digits in the reference's scan order
/// (in houses with more than `degree` empty cells when `direct`, else more than twice
/// `degree`), until it breaks.
pub fn for_each_hidden_set<'a>(
    board: &'a Board,
    degree: u32,
    direct: bool,
    mut visit: impl FnMut(HiddenSet<'a>) -> ControlFlow<()>,
) {
    let geometry = board.geometry();
    let size = board.size() as u32;
    let minimum = if direct { degree } else { 2 * degree } as usize;
    for kind in SCAN_ORDER {
        // A house of fewer cells than digits need not hold every digit: no hidden sets.
        for house in geometry
            .houses_of(kind)
            .iter()
            .filter(|house| house.cells.len() == size as usize)
        {
            if board.empty_count(house) <= minimum {
                continue;
            }
            let places = board.digit_positions(house);
            for digits in combinations(degree, size) {
                let Some(positions) = common_tuple(ones(digits).map(|index| places[index]), degree)
                else {
                    continue;
                };
                let cells = cells_at(house, positions);
                let eliminations: Vec<Elimination> = cells
                    .iter()
                    .filter_map(|&cell| {
                        let others = board.candidates(cell) & !digits;
                        (others != 0).then_some(Elimination {
                            cell,
                            digits: others,
                        })
                    })
                    .collect();
                let hidden = HiddenSet {
                    house,
                    positions,
                    cells,
                    digits,
                    eliminations,
                };
                if visit(hidden).is_break() {
                    return;
                }
            }
        }
    }
}

/// The union of `sets` if every set has two members or more and the union has exactly
/// `degree` members (Sudoku Explainer's common tuple).
fn common_tuple(sets: impl Iterator<Item = u32>, degree: u32) -> Option<u32> {
    let mut union = 0;
    for set in sets {
        if set.count_ones() <= 1 {
            return None;
        }
        union |= set;
    }
    (union.count_ones() == degree).then_some(union)
}

/// Cells of a house that hold as many candidates between them as they are.
pub struct NakedSet<'a> {
    house: &'a House,
    cells: Vec<usize>,
    digits: Digits,
    /// What it removes, in house order (as the reference inserts them).
    pub eliminations: Vec<Elimination>,
    /// Whether it removes from every cell that sees the set's cells of a digit.
    generalized: bool,
}

impl NakedSet<'_> {
    /// The other candidates of its cells that `source` had: they had to go for the set
    /// to form (the reference's rule parents, for chains that use the set).
    pub fn rule_parents(&self, source: &Board) -> Vec<(usize, u8)> {
        self.cells
            .iter()
            .flat_map(|&cell| {
                digits_of(source.candidates(cell) & !self.digits).map(move |digit| (cell, digit))
            })
            .collect()
    }

    /// The set as a step.
    pub fn step(&self, board: &Board) -> Step {
        let (technique, difficulty) = match (self.digits.count_ones(), self.generalized) {
            (2, false) => (Technique::NakedPair, 3.0),
            (3, false) => (Technique::NakedTriple, 3.6),
            (_, false) => (Technique::NakedQuad, 5.0),
            (2, true) => (Technique::GeneralizedNakedPair, 3.0),
            (3, true) => (Technique::GeneralizedNakedTriple, 3.6),
            (_, true) => (Technique::GeneralizedNakedQuad, 5.0),
        };
        let size = board.size();
        let mut step = Step::new(technique, difficulty);
        let house = HouseRef {
            kind: self.house.kind,
            index: self.house.index,
        };
        step.text = format!(
            "{}: {} in {} hold {} => {}",
            technique.name(),
            cells_name(&self.cells, size),
            house_name(house),
            digits_name(self.digits),
            eliminations_text(&self.eliminations, size)
        );
        step.cells = self.cells.clone();
        step.houses.push(house);
        step.eliminations = self.eliminations.clone();
        step
    }
}

/// Digits confined to the same cells of a house.
pub struct HiddenSet<'a> {
    house: &'a House,
    /// The cells' positions in the house.
    positions: u32,
    cells: Vec<usize>,
    digits: Digits,
    /// What it removes, in house order (as the reference inserts them).
    pub eliminations: Vec<Elimination>,
}

impl HiddenSet<'_> {
    /// The set's digits that `source` had in the house's other cells: they had to go for
    /// the set to form (the reference's rule parents, for chains that use the set).
    pub fn rule_parents(&self, source: &Board) -> Vec<(usize, u8)> {
        ones(!self.positions & ((1 << self.house.cells.len()) - 1))
            .flat_map(|position| {
                let cell = self.house.cells[position];
                digits_of(source.candidates(cell) & self.digits).map(move |digit| (cell, digit))
            })
            .collect()
    }

    /// The hidden single of another digit (the smallest) that the set leaves in its
    /// house: a digit with two places or more there, all but one of them in the set.
    fn following_single(&self, board: &Board) -> Option<Placement> {
        let positions = self.positions;
        (1..=board.size() as u8)
            .filter(|&digit| self.digits & bit(digit) == 0)
            .find_map(|digit| {
                let places = board.positions(self.house, digit);
                let outside = places & !positions;
                (places.count_ones() > 1 && outside.count_ones() == 1).then(|| Placement {
                    cell: self.house.cells[outside.trailing_zeros() as usize],
                    digit,
                })
            })
    }

    /// The set as a step: its removals, or (direct) the single it leaves.
    pub fn step(&self, board: &Board, single: Option<Placement>) -> Step {
        let (technique, difficulty) = match (single.is_some(), self.digits.count_ones()) {
            (true, 2) => (Technique::DirectHiddenPair, 2.0),
            (true, _) => (Technique::DirectHiddenTriple, 2.5),
            (false, 2) => (Technique::HiddenPair, 3.4),
            (false, 3) => (Technique::HiddenTriple, 4.0),
            (false, _) => (Technique::HiddenQuad, 5.4),
        };
        let size = board.size();
        let mut step = Step::new(technique, difficulty);
        let house = HouseRef {
            kind: self.house.kind,
            index: self.house.index,
        };
        let mut text = format!(
            "{}: {} in {} only in {}",
            technique.name(),
            digits_name(self.digits),
            house_name(house),
            cells_name(&self.cells, size),
        );
        if single.is_none() {
            text.push_str(" => ");
            text.push_str(&eliminations_text(&self.eliminations, size));
        }
        if let Some(single) = single {
            text.push_str(&format!(
                ", so {}={}",
                cell_name(single.cell, size),
                digit_name(single.digit)
            ));
        }
        step.text = text;
        step.cells = self.cells.clone();
        step.houses.push(house);
        // A direct step only places its single, as the reference applies it.
        match single {
            Some(single) => step.placements.push(single),
            None => step.eliminations = self.eliminations.clone(),
        }
        step
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn empty_board() -> Board {
        Board::from_grid(&Grid::empty(9).unwrap())
    }

    #[test]
    fn a_naked_pair_clears_its_digits_from_the_rest_of_the_house() {
        let mut board = empty_board();
        // r1c1 and r1c2 (box 1) keep only 1 and 2.
        for cell in [0, 1] {
            board.eliminate(cell, !(bit(1) | bit(2)));
        }
        let step = naked_set(&board, 2).unwrap();
        assert_eq!(step.technique, Technique::NakedPair);
        assert_eq!(step.cells, [0, 1]);
        assert_eq!(step.houses[0].kind, crate::logic::board::HouseKind::Box);
        assert_eq!(step.eliminations.len(), 7);
        assert!(
            step.eliminations
                .iter()
                .all(|e| e.digits == bit(1) | bit(2))
        );
        assert_eq!(naked_set(&empty_board(), 2), None);
    }

    #[test]
    fn a_hidden_pair_clears_the_other_candidates_of_its_cells() {
        let mut board = empty_board();
        // In box 1, digits 1 and 2 may go only in r1c1 and r1c2.
        for cell in [2, 9, 10, 11, 18, 19, 20] {
            board.eliminate(cell, bit(1) | bit(2));
        }
        let step = hidden_set(&board, 2).unwrap();
        assert_eq!(step.technique, Technique::HiddenPair);
        assert_eq!(step.cells, [0, 1]);
        assert_eq!(step.eliminations[0].digits, !(bit(1) | bit(2)) & 0x1ff);
        // On its own it places nothing: no direct variant.
        assert_eq!(direct_hidden_set(&board, 2), None);
    }

    #[test]
    fn a_direct_hidden_pair_places_the_single_it_leaves() {
        let mut board = empty_board();
        for cell in [2, 9, 10, 11, 18, 19, 20] {
            board.eliminate(cell, bit(1) | bit(2));
        }
        // Digit 3 may go only in r1c1 and r3c3 of box 1: without r1c1, r3c3 is left.
        for cell in [1, 2, 9, 10, 11, 18, 19] {
            board.eliminate(cell, bit(3));
        }
        let step = direct_hidden_set(&board, 2).unwrap();
        assert_eq!(step.technique, Technique::DirectHiddenPair);
        assert_eq!(step.placements, [Placement { cell: 20, digit: 3 }]);
        assert_eq!(step.difficulty, 2.0);
    }
}
