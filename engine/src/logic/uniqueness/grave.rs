//! The bivalue universal grave (types 1 to 4): every cell but a few has two candidates
//! and every digit two places in each house; one of the extra digits must be true.

use super::{Removals, house_ref, mask_of, restricted};
use crate::logic::board::{Board, Cell, Digits, bit, combinations, digits_of, ones};
use crate::logic::cell_masks::{CellMask, cells_of, digit_cells, houses_of};
use crate::logic::step::{
    Step, cells_name, digit_name, digits_name, eliminations_text, house_name,
};
use crate::logic::technique::Technique;

/// The first bivalue universal grave step, in the reference's order of types.
pub fn bug(board: &Board) -> Option<Step> {
    if board.size() != 9 {
        return None;
    }
    let grave = Grave::find(board)?;
    if grave.cells.len() == 1 {
        Some(grave.type1())
    } else if grave.values.count_ones() == 1 {
        grave.type2().or_else(|| grave.type4())
    } else if matches!(grave.common, Some(common) if common != 0) {
        grave.type4().or_else(|| grave.type3())
    } else {
        None
    }
}

/// A bivalue universal grave: once the extra digits of its cells (the BUG cells) are set
/// aside, every empty cell has two candidates and every digit two places in each house.
struct Grave<'a> {
    board: &'a Board,
    /// The BUG cells, in the order the scan found them.
    cells: Vec<Cell>,
    /// Each BUG cell's extra digits.
    extra: [Digits; 81],
    /// The extra digits found through a single BUG cell of a house (the reference leaves
    /// out those that only the lkSudoku completion adds).
    values: Digits,
    /// The cells that see every BUG cell, once there is a BUG cell.
    common: Option<CellMask>,
}

impl Grave<'_> {
    /// The grave of `board`, if it is one, scanning houses (boxes, rows, columns) and
    /// digits as the reference does, with its early exits.
    fn find(board: &Board) -> Option<Grave<'_>> {
        let geometry = board.geometry();
        let mut grave = Grave {
            board,
            cells: Vec::new(),
            extra: [0; 81],
            values: 0,
            common: None,
        };
        let mut rest: [Digits; 81] = std::array::from_fn(|cell| board.candidates(cell));
        // lkSudoku's type 2: one digit too many in every house, each time in several cells.
        let mut one_digit_cells: Option<CellMask> = None;
        let mut only_digit = 0;
        let mut one_digit = true;
        for house in &geometry.houses {
            for digit in 1..=9 {
                let positions = board.positions(house, digit);
                if positions.count_ones() == 0 || positions.count_ones() == 2 {
                    continue;
                }
                let wide = ones(positions)
                    .map(|p| house.cells[p])
                    .filter(|&cell| board.candidates(cell).count_ones() >= 3)
                    .fold(0, |mask: CellMask, cell| mask | 1 << cell);
                match &mut one_digit_cells {
                    None => {
                        one_digit_cells = Some(wide);
                        only_digit = digit;
                    }
                    Some(cells) if one_digit => {
                        if only_digit == digit {
                            *cells |= wide;
                        } else {
                            one_digit = false;
                        }
                    }
                    Some(_) => {}
                }
                if wide.count_ones() == 1 {
                    grave.values |= bit(digit);
                    grave.add(wide.trailing_zeros() as Cell, digit, &mut rest)?;
                }
                if wide == 0 {
                    return None;
                }
            }
        }
        if let (true, Some(cells)) = (one_digit, one_digit_cells)
            && cells.count_ones() as usize > grave.cells.len()
        {
            for cell in cells_of(cells & !mask_of(&grave.cells)) {
                grave.add(cell, only_digit, &mut rest)?;
            }
        }
        // A cell whose pair another rule restricts may break the grave's deadliness.
        let free =
            (0..81).all(|cell| board.value(cell) != 0 || !restricted(board, cell, rest[cell]));
        (free && grave.is_grave(&rest)).then_some(grave)
    }

    /// Records `digit` as an extra digit of `cell`, and gives up (as the reference does)
    /// once two BUG cells or more with two extra digits or more have no common peer.
    fn add(&mut self, cell: Cell, digit: u8, rest: &mut [Digits; 81]) -> Option<()> {
        if !self.cells.contains(&cell) {
            self.cells.push(cell);
        }
        self.extra[cell] |= bit(digit);
        rest[cell] &= !bit(digit);
        let peers = self.board.geometry().masks().peers[cell];
        let common = self.common.unwrap_or(!0) & peers & !mask_of(&self.cells);
        self.common = Some(common);
        let hopeless = self.cells.len() > 1 && self.values.count_ones() > 1 && common == 0;
        (!hopeless).then_some(())
    }

    /// Whether the candidates left without the extra digits form the grave.
    fn is_grave(&self, rest: &[Digits; 81]) -> bool {
        let bivalue =
            (0..81).all(|cell| self.board.value(cell) != 0 || rest[cell].count_ones() == 2);
        let mut places = [0 as CellMask; 9];
        for (cell, &digits) in rest.iter().enumerate() {
            for digit in digits_of(digits) {
                places[digit as usize - 1] |= 1 << cell;
            }
        }
        bivalue
            && self.board.geometry().masks().houses[..27]
                .iter()
                .all(|&house| {
                    places
                        .iter()
                        .all(|&cells| matches!((house & cells).count_ones(), 0 | 2))
                })
    }

    /// The step of this grave, with its technique and difficulty.
    fn step(
        &self,
        technique: Technique,
        difficulty: f64,
        removals: &Removals,
        detail: String,
    ) -> Step {
        let mut step = Step::new(technique, difficulty);
        step.eliminations = removals.eliminations();
        step.text = format!(
            "{}: {}{} => {}",
            technique.name(),
            cells_name(&self.cells, 9),
            detail,
            eliminations_text(&step.eliminations, 9)
        );
        step.cells = self.cells.clone();
        step
    }

    /// Type 1: one BUG cell; it must hold an extra digit, so it loses the others.
    fn type1(&self) -> Step {
        let cell = self.cells[0];
        let mut removals = Removals::default();
        removals.add(self.board.candidates(cell) & !self.values, 1 << cell);
        let detail = format!(" must be {}", digits_name(self.values));
        self.step(Technique::BugType1, 5.6, &removals, detail)
    }

    /// Type 2: one extra digit in every BUG cell; one of them holds it, so it leaves the
    /// cells that see them all.
    fn type2(&self) -> Option<Step> {
        let common = self.common.filter(|&common| common != 0)?;
        let digit = self.values.trailing_zeros() as u8 + 1;
        let mut removals = Removals::default();
        removals.add(
            bit(digit),
            common & digit_cells(self.board)[digit as usize - 1],
        );
        let detail = format!(" on {}", digit_name(digit));
        (!removals.is_empty()).then(|| self.step(Technique::BugType2, 5.7, &removals, detail))
    }

    /// Type 3: the BUG cells share a house, and their extra digits, with 1 to 5 other
    /// cells of it, form a naked set; its digits leave the house's other cells. Smallest
    /// sets first; boxes, rows, columns.
    fn type3(&self) -> Option<Step> {
        let common = self.common?;
        let board = self.board;
        let bug_cells = mask_of(&self.cells);
        let houses = &board.geometry().masks().houses;
        for degree in 2..=6u32 {
            for kind in 0..3 {
                let Some(house) = self.shared_house(kind) else {
                    continue;
                };
                // Filled cells count here too, as they do for the reference.
                let region_cells: Vec<Cell> = cells_of(common & houses[house]).collect();
                if region_cells.len() < degree as usize {
                    continue;
                }
                for chosen in combinations(degree - 1, region_cells.len() as u32) {
                    let naked: Vec<Cell> = ones(chosen).map(|i| region_cells[i]).collect();
                    let digits = naked
                        .iter()
                        .fold(0, |digits, &cell| digits | board.candidates(cell));
                    let wide = self.values.count_ones() >= 2
                        && naked
                            .iter()
                            .all(|&cell| board.candidates(cell).count_ones() >= 2);
                    if digits.count_ones() != degree || !wide || self.values & !digits != 0 {
                        continue;
                    }
                    let members = mask_of(&naked) | bug_cells;
                    let mut removals = Removals::default();
                    for cell in cells_of(common & houses[house] & !members) {
                        removals.add(board.candidates(cell) & digits, 1 << cell);
                    }
                    if removals.is_empty() {
                        continue;
                    }
                    let detail = format!(
                        " with {} form a naked set {} in {}",
                        cells_name(&naked, 9),
                        digits_name(digits),
                        house_name(house_ref(house))
                    );
                    let difficulty = 5.7 + f64::from(degree - 1) * 0.1;
                    let mut step = self.step(Technique::BugType3, difficulty, &removals, detail);
                    step.cells.extend(naked);
                    step.houses.push(house_ref(house));
                    return Some(step);
                }
            }
        }
        None
    }

    /// Type 4: two BUG cells in one house that share one digit besides the extra ones;
    /// one of them holds its extra digit, so that digit is locked there and the other
    /// candidate of each cell goes.
    fn type4(&self) -> Option<Step> {
        let [c1, c2] = self.cells[..] else {
            return None;
        };
        let candidates = |cell: Cell| self.board.candidates(cell);
        let shared = candidates(c1) & candidates(c2) & !self.values;
        if shared.count_ones() != 1 {
            return None;
        }
        let house = (0..3).find_map(|kind| self.shared_house(kind))?;
        let mut removals = Removals::default();
        for cell in [c1, c2] {
            removals.add(candidates(cell) & !self.extra[cell] & !shared, 1 << cell);
        }
        let detail = format!(
            " on {} in {}",
            digits_name(shared),
            house_name(house_ref(house))
        );
        let mut step = self.step(Technique::BugType4, 5.7, &removals, detail);
        step.houses.push(house_ref(house));
        Some(step)
    }

    /// The house of `kind` that holds every BUG cell, if there is one.
    fn shared_house(&self, kind: usize) -> Option<usize> {
        let house = houses_of(self.cells[0])[kind];
        (self
            .cells
            .iter()
            .all(|&cell| houses_of(cell)[kind] == house))
        .then_some(house)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::uniqueness::testing::*;

    #[test]
    fn a_single_bug_cell_keeps_its_extra_digit() {
        let board = board_of(
            "98573146227684..3113462.8..59237461886.192.4..41568.29.58.162.3.2..8715661.253.84",
        );
        let step = bug(&board).unwrap();
        assert_eq!(step.technique, Technique::BugType1);
        assert_eq!(step.difficulty, 5.6);
        // r5c7 holds 3, 5 and 7: only 7 breaks the grave; it is placed by a later single.
        assert_eq!(step.eliminations, eliminations(&[(42, &[3, 5])]));
        assert!(step.placements.is_empty());
    }

    #[test]
    fn bug_cells_sharing_an_extra_digit_clear_it_from_their_common_peers() {
        let board = board_of(
            "6517834....3.2.675742569183.76.3.9.1.1597683.3.9.4.7.65643982171.765.3.8.38.1756.",
        );
        let step = bug(&board).unwrap();
        assert_eq!(step.technique, Technique::BugType2);
        assert_eq!(step.difficulty, 5.7);
        assert_eq!(step.eliminations, eliminations(&[(30, &[2]), (32, &[2])]));
    }

    #[test]
    fn bug_extra_digits_in_a_naked_set_are_type_3() {
        let board = board_of(
            "461975328735286941298...576946..7.3258..4..6931.....54823...617174..8295659721483",
        );
        let step = bug(&board).unwrap();
        assert_eq!(step.technique, Technique::BugType3);
        assert_eq!(step.difficulty, 5.7 + 0.1);
        assert_eq!(step.eliminations, eliminations(&[(66, &[3])]));
    }

    #[test]
    fn two_bug_cells_with_a_shared_digit_are_type_4() {
        let board = board_of(
            "268457931354.91.78971...4.519.8.6..382.9....743.5.2.895437298166193..752782165394",
        );
        let step = bug(&board).unwrap();
        assert_eq!(step.technique, Technique::BugType4);
        assert_eq!(step.difficulty, 5.7);
        assert_eq!(step.eliminations, eliminations(&[(40, &[3]), (42, &[5])]));
    }

    #[test]
    fn no_grave_while_a_digit_has_three_places_in_bivalue_cells() {
        assert_eq!(bug(&empty_board()), None);
        // The rectangle board: digit 1 has three places in bivalue cells of column 1.
        let mut board = empty_board();
        keep(&mut board, &[0, 9, 18], &[1, 2]);
        assert_eq!(bug(&board), None);
    }
}
