//! Unique rectangles and loops (types 1 to 4): closed paths through cells that hold the
//! same two digits, each house visited holding two of them.

use super::{Removals, house_ref, mask_of, restricted};
use crate::logic::board::{Board, Cell, Digits, combinations, digits_of, ones};
#[cfg(doc)]
use crate::logic::cell_masks::CellMasks;
use crate::logic::cell_masks::{CellMask, cells_of, digit_cells, houses_of};
use crate::logic::step::{
    HouseRef, Step, cell_name, cells_name, digits_name, eliminations_text, house_name,
};
use crate::logic::technique::Technique;

/// The first unique rectangle or loop, as the reference sorts them: by difficulty, then
/// by type, the first found winning ties.
pub fn unique_loops(board: &Board) -> Option<Step> {
    if board.size() != 9 {
        return None;
    }
    let mut search = LoopSearch {
        board,
        digit_cells: digit_cells(board),
        pair: 0,
        path: Vec::with_capacity(81),
        on_path: 0,
        visited: [0; 2],
        best: None,
    };
    for cell in 0..81 {
        let candidates = board.candidates(cell);
        if candidates.count_ones() == 2 {
            search.pair = candidates;
            search.extend(cell, 2, 0, None);
        }
    }
    search.best.map(|best| best.step)
}

/// The house index (as [`CellMasks::houses`] numbers them) of a house of `kind` (0 box, 1 row,
/// 2 column) that holds both cells, if they share one.
fn shared_house(a: Cell, b: Cell, kind: usize) -> Option<usize> {
    let house = houses_of(a)[kind];
    (houses_of(b)[kind] == house).then_some(house)
}

/// The members of `digits` picked by `chosen`: bit `i` of `chosen` picks the `i`-th
/// smallest digit of `digits`.
fn pick(digits: Digits, chosen: u32) -> Digits {
    ones(digits)
        .enumerate()
        .filter(|&(rank, _)| chosen & 1 << rank != 0)
        .fold(0, |picked, (_, index)| picked | 1 << index)
}

/// The difficulty of a unique loop of `length` cells before its type adds anything:
/// 4.5, plus 0.1 for 6 cells, 0.2 for 8, and 0.5 for 10 or more (two of the reference's
/// increments add up there), summed in the reference's order.
fn loop_difficulty(length: usize) -> f64 {
    let mut difficulty = 4.5;
    if length >= 10 {
        difficulty += 0.3;
    }
    if length >= 8 {
        difficulty += 0.2;
    } else if length >= 6 {
        difficulty += 0.1;
    }
    difficulty
}

/// The houses of `cell` (its box, row and column, then the houses of the board's rules),
/// as indexes of [`CellMasks::houses`].
fn houses_with_rules(board: &Board, cell: Cell) -> impl Iterator<Item = usize> + '_ {
    let rules = &board.geometry().masks().rule_houses[cell];
    houses_of(cell).into_iter().chain(rules.iter().copied())
}

/// The best unique loop hint so far, with the keys the reference sorts on.
struct Best {
    difficulty: f64,
    kind: u8,
    step: Step,
}

/// A depth-first search for closed paths through cells that hold both digits of `pair`,
/// starting at a cell that holds nothing else, as the reference walks them.
struct LoopSearch<'a> {
    board: &'a Board,
    digit_cells: [CellMask; 9],
    pair: Digits,
    path: Vec<Cell>,
    on_path: CellMask,
    /// The houses of the path's cells at even, then at odd, positions (bits of house
    /// indexes, the houses of a variant mode's rules too). A closed path is a deadly
    /// pattern when every house it visits holds one cell of each parity, so when the two
    /// sides end up equal and no side ever holds a house twice.
    visited: [u64; 2],
    best: Option<Best>,
}

impl LoopSearch<'_> {
    /// Whether a hint of this difficulty and type would sort before the best so far
    /// (the reference's sort is stable, so the first of equal hints stays first).
    fn beats(&self, difficulty: f64, kind: u8) -> bool {
        self.best.as_ref().is_none_or(|best| {
            difficulty < best.difficulty || (difficulty == best.difficulty && kind < best.kind)
        })
    }

    /// Adds `cell` to the path and follows every house but the one it came through.
    /// `allowed_extra` counts the cells with more candidates than the pair the path may
    /// still take, and `extra` gathers their other candidates: a path goes on through such
    /// a cell while that budget lasts, or while they all share one extra digit (type 2).
    /// The reference walks every such path; this search skips those that cannot close
    /// into a deadly pattern (a house twice on one side) or into a loop that would sort
    /// before the best so far (too long), which finds the same loops in the same order.
    fn extend(&mut self, cell: Cell, allowed_extra: i32, extra: Digits, came_by: Option<usize>) {
        let side = self.path.len() % 2;
        let board = self.board;
        let houses = houses_with_rules(board, cell).fold(0u64, |bits, house| bits | 1 << house);
        // A deadly loop has an even length: its first and last cells share a house.
        let shortest = (self.path.len() + 2) & !1;
        if self.visited[side] & houses != 0 || !self.beats(loop_difficulty(shortest), 1) {
            return;
        }
        let geometry = self.board.geometry();
        self.path.push(cell);
        self.on_path |= 1 << cell;
        self.visited[side] |= houses;
        'houses: for house in houses_with_rules(board, cell).filter(|&h| Some(h) != came_by) {
            for &next in &geometry.houses[house].cells {
                if next == self.path[0] && self.path.len() >= 4 {
                    self.examine_loop();
                    if !self.beats(loop_difficulty(self.path.len()), 1) {
                        break 'houses;
                    }
                } else if self.on_path & 1 << next == 0 {
                    let candidates = self.board.candidates(next);
                    if candidates & self.pair != self.pair {
                        continue;
                    }
                    let next_extra = (extra | candidates) & !self.pair;
                    let widened = candidates.count_ones() > 2;
                    // A loop through an earlier bivalue cell was found from there already,
                    // with the same hints, which sort first.
                    if !widened && next < self.path[0] {
                        continue;
                    }
                    if !widened || next_extra.count_ones() == 1 || allowed_extra > 0 {
                        let allowed = allowed_extra - i32::from(widened);
                        self.extend(next, allowed, next_extra, Some(house));
                    }
                }
            }
        }
        self.path.pop();
        self.on_path &= !(1 << cell);
        self.visited[side] &= !houses;
    }

    /// Offers the hints of the closed path, in the reference's order of types.
    fn examine_loop(&mut self) {
        if self.visited[0] != self.visited[1]
            || self
                .path
                .iter()
                .any(|&cell| restricted(self.board, cell, self.pair))
        {
            return;
        }
        let extras: Vec<Cell> = (self.path.iter().copied())
            .filter(|&cell| self.board.candidates(cell).count_ones() > 2)
            .collect();
        match extras[..] {
            [] => {}
            [rescue] => self.type1(rescue),
            [c1, c2] => {
                let others = (self.board.candidates(c1) | self.board.candidates(c2)) & !self.pair;
                if others.count_ones() == 1 {
                    self.type2(&extras);
                } else if others.count_ones() >= 2 {
                    self.type3(c1, c2);
                }
                self.type4(c1, c2);
            }
            _ => self.type2(&extras),
        }
    }

    /// Keeps the hint if it sorts before the best so far and removes something.
    fn offer(
        &mut self,
        difficulty: f64,
        kind: u8,
        removals: &Removals,
        houses: Vec<HouseRef>,
        detail: impl FnOnce() -> String,
    ) {
        if removals.is_empty() || !self.beats(difficulty, kind) {
            return;
        }
        let rectangle = self.path.len() == 4;
        let technique = match (rectangle, kind) {
            (true, 1) => Technique::UniqueRectangleType1,
            (true, 2) => Technique::UniqueRectangleType2,
            (true, 3) => Technique::UniqueRectangleType3,
            (true, _) => Technique::UniqueRectangleType4,
            (false, 1) => Technique::UniqueLoopType1,
            (false, 2) => Technique::UniqueLoopType2,
            (false, 3) => Technique::UniqueLoopType3,
            (false, _) => Technique::UniqueLoopType4,
        };
        let mut step = Step::new(technique, difficulty);
        step.eliminations = removals.eliminations();
        step.text = format!(
            "{}: {} on {}{} => {}",
            technique.name(),
            cells_name(&self.path, 9),
            digits_name(self.pair),
            detail(),
            eliminations_text(&step.eliminations, 9)
        );
        step.cells = self.path.clone();
        step.houses = houses;
        self.best = Some(Best {
            difficulty,
            kind,
            step,
        });
    }

    /// Type 1: one cell has more than the pair; it cannot be either digit of the pair.
    fn type1(&mut self, rescue: Cell) {
        let mut removals = Removals::default();
        removals.add(self.pair, 1 << rescue);
        let difficulty = loop_difficulty(self.path.len());
        self.offer(difficulty, 1, &removals, Vec::new(), || {
            format!(", only {} can break it", cell_name(rescue, 9))
        });
    }

    /// Type 2: the cells with more than the pair all have one extra digit, which must go
    /// in one of them: it leaves the cells that see them all.
    fn type2(&mut self, extras: &[Cell]) {
        let digits = extras
            .iter()
            .fold(0, |digits, &cell| digits | self.board.candidates(cell))
            & !self.pair;
        let digit = digits.trailing_zeros() as usize;
        let seeing = self.board.geometry().masks().seen_by_all(mask_of(extras));
        let mut removals = Removals::default();
        removals.add(1 << digit, seeing & self.digit_cells[digit]);
        let difficulty = loop_difficulty(self.path.len());
        self.offer(difficulty, 2, &removals, Vec::new(), || {
            format!(", extra {} in {}", digit + 1, cells_name(extras, 9))
        });
    }

    /// Type 3: the two cells with more than the pair share a house, and their extra
    /// digits, with other cells of that house, form a naked set (or the pair, with other
    /// digits, a hidden set), which clears the rest of the house. Sets from 2 to 7 digits,
    /// smallest first; boxes, rows, then columns.
    fn type3(&mut self, c1: Cell, c2: Cell) {
        let base = loop_difficulty(self.path.len());
        for degree in 2..=7u32 {
            for kind in 0..3 {
                let Some(house) = shared_house(c1, c2, kind) else {
                    continue;
                };
                let empty = self.board.empty_count(&self.board.geometry().houses[house]);
                let naked = base + f64::from(degree - 1) * 0.1;
                if 2 * degree as usize <= empty && self.beats(naked, 3) {
                    self.naked_sets(c1, c2, house, degree, naked);
                }
                // The hidden set's cells other than the loop's two number degree - 1.
                let hidden = base + (f64::from(degree - 1) - 1.0) * 0.1;
                if 2 * (degree as usize) < empty && self.beats(hidden, 3) {
                    self.hidden_sets(c1, c2, house, degree, hidden);
                }
            }
        }
    }

    /// Naked sets of `degree` cells of `house`: `c1` stands for both loop cells with their
    /// extra digits, the others are taken as they are.
    fn naked_sets(&mut self, c1: Cell, c2: Cell, house: usize, degree: u32, difficulty: f64) {
        let board = self.board;
        let geometry = board.geometry();
        let cells = &geometry.houses[house].cells;
        let [p1, p2] = [c1, c2].map(|cell| geometry.position_in[cell][house / 9]);
        let extra = (board.candidates(c1) | board.candidates(c2)) & !self.pair;
        if degree < extra.count_ones() {
            return;
        }
        // The extra digits both loop cells hold need no other cell of the set.
        let shared = extra & board.candidates(c1) & board.candidates(c2);
        for positions in combinations(degree, 9) {
            if positions & 1 << p1 == 0 || positions & 1 << p2 != 0 {
                continue;
            }
            let others: Vec<Cell> = ones(positions & !(1 << p1)).map(|p| cells[p]).collect();
            let others_digits = others
                .iter()
                .fold(0, |digits, &cell| digits | board.candidates(cell));
            let all_wide = extra.count_ones() >= 2
                && others
                    .iter()
                    .all(|&cell| board.candidates(cell).count_ones() >= 2);
            let digits = extra | others_digits;
            if (shared | others_digits).count_ones() != degree
                || !all_wide
                || digits.count_ones() != degree
            {
                continue;
            }
            let members = mask_of(&others) | 1 << c1 | 1 << c2;
            let mut removals = Removals::default();
            for cell in cells_of(board.geometry().masks().houses[house] & !members) {
                removals.add(board.candidates(cell) & digits, 1 << cell);
            }
            self.offer(difficulty, 3, &removals, vec![house_ref(house)], || {
                format!(
                    ", {} with {} form a naked set {} in {}",
                    cells_name(&[c1, c2], 9),
                    cells_name(&others, 9),
                    digits_name(digits),
                    house_name(house_ref(house))
                )
            });
        }
    }

    /// Hidden sets of `degree` digits of `house`, the pair among them: `c1` stands for
    /// both loop cells, and the other cells of the set lose their other candidates.
    fn hidden_sets(&mut self, c1: Cell, c2: Cell, house: usize, degree: u32, difficulty: f64) {
        let board = self.board;
        let geometry = board.geometry();
        let cells = &geometry.houses[house].cells;
        let [p1, p2] = [c1, c2].map(|cell| geometry.position_in[cell][house / 9]);
        let extra = (board.candidates(c1) | board.candidates(c2)) & !self.pair;
        let rest = geometry.all_digits() & !self.pair & !extra;
        let rest_count = rest.count_ones();
        // The reference enumerates nothing when there is nothing to choose from.
        if degree - 2 > rest_count || rest_count == 0 {
            return;
        }
        for chosen in combinations(degree - 2, rest_count) {
            let digits = pick(rest, chosen) | self.pair;
            let mut positions = 0;
            let mut everywhere = true;
            for digit in digits_of(digits) {
                let places = board.positions(&geometry.houses[house], digit) & !(1 << p2);
                everywhere &= places != 0;
                positions |= places;
            }
            if !everywhere || positions.count_ones() != degree {
                continue;
            }
            let set_cells: Vec<Cell> = ones(positions & !(1 << p1) & !(1 << p2))
                .map(|p| cells[p])
                .collect();
            let mut removals = Removals::default();
            for &cell in &set_cells {
                removals.add(board.candidates(cell) & !digits, 1 << cell);
            }
            self.offer(difficulty, 3, &removals, vec![house_ref(house)], || {
                format!(
                    ", {} with {} form a hidden set {} in {}",
                    cells_name(&[c1, c2], 9),
                    cells_name(&set_cells, 9),
                    digits_name(digits),
                    house_name(house_ref(house))
                )
            });
        }
    }

    /// Type 4: the two cells with more than the pair share a house where one digit of the
    /// pair has no other place; the other digit of the pair leaves both cells. The first
    /// digit of the pair is tried first; the last shared house found is shown.
    fn type4(&mut self, c1: Cell, c2: Cell) {
        let difficulty = loop_difficulty(self.path.len());
        if !self.beats(difficulty, 4) {
            return;
        }
        let [low, high] = [self.pair.trailing_zeros(), 31 - self.pair.leading_zeros()];
        let mut locked = [None; 2];
        for kind in 0..3 {
            let Some(house) = shared_house(c1, c2, kind) else {
                continue;
            };
            let others = self.board.geometry().masks().houses[house] & !(1 << c1) & !(1 << c2);
            for (slot, digit) in locked.iter_mut().zip([low, high]) {
                if others & self.digit_cells[digit as usize] == 0 {
                    *slot = Some(house);
                }
            }
        }
        let (house, lock, remove) = match locked {
            [Some(house), _] => (house, low, high),
            [None, Some(house)] => (house, high, low),
            [None, None] => return,
        };
        let mut removals = Removals::default();
        removals.add(1 << remove, 1 << c1 | 1 << c2);
        self.offer(difficulty, 4, &removals, vec![house_ref(house)], || {
            format!(
                ", {} locked in {} for {}",
                lock + 1,
                house_name(house_ref(house)),
                cells_name(&[c1, c2], 9)
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::board::bit;
    use crate::logic::step::Elimination;
    use crate::logic::uniqueness::testing::*;

    #[test]
    fn loop_difficulties_add_up_as_the_reference_adds_them() {
        assert_eq!(loop_difficulty(4), 4.5);
        assert_eq!(loop_difficulty(6), 4.5 + 0.1);
        assert_eq!(loop_difficulty(8), 4.5 + 0.2);
        assert_eq!(loop_difficulty(10), 4.5 + 0.3 + 0.2);
        assert_eq!(loop_difficulty(14), loop_difficulty(10));
    }

    #[test]
    fn a_rectangle_with_one_extra_cell_is_type_1() {
        let mut board = empty_board();
        keep(&mut board, &[0, 3, 9], &[1, 2]);
        keep(&mut board, &[12], &[1, 2, 3]);
        let step = unique_loops(&board).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangleType1);
        assert_eq!(step.difficulty, 4.5);
        assert_eq!(step.eliminations, eliminations(&[(12, &[1, 2])]));
        // The loop is walked from its first bivalue cell, through the box first.
        assert_eq!(step.cells, [0, 9, 12, 3]);
    }

    #[test]
    fn four_cells_of_one_box_are_no_rectangle() {
        let mut board = empty_board();
        keep(&mut board, &[0, 1, 9], &[1, 2]);
        keep(&mut board, &[10], &[1, 2, 3]);
        assert_eq!(unique_loops(&board), None);
    }

    #[test]
    fn extra_cells_sharing_one_digit_are_type_2() {
        let mut board = empty_board();
        keep(&mut board, &[0, 9], &[1, 2]);
        keep(&mut board, &[3, 12], &[1, 2, 3]);
        let step = unique_loops(&board).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangleType2);
        assert_eq!(step.difficulty, 4.5);
        // 3 leaves column 4 and box 2 but the two extra cells.
        let mut cells: Vec<Cell> = [4, 5, 13, 14, 21, 22, 23, 30, 39, 48, 57, 66, 75].into();
        cells.sort_unstable();
        let expected: Vec<Elimination> = cells
            .iter()
            .map(|&cell| Elimination {
                cell,
                digits: bit(3),
            })
            .collect();
        assert_eq!(step.eliminations, expected);
    }

    #[test]
    fn extra_digits_in_a_naked_pair_are_type_3() {
        let mut board = empty_board();
        keep(&mut board, &[9, 12], &[1, 2]);
        keep(&mut board, &[0], &[1, 2, 3]);
        keep(&mut board, &[3], &[1, 2, 4]);
        // r1c7 holds 3 and 4: with r1c1 or r1c4 it is a naked pair of row 1.
        keep(&mut board, &[6], &[3, 4]);
        let step = unique_loops(&board).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangleType3);
        assert_eq!(step.difficulty, 4.5 + 0.1);
        let others: Vec<(Cell, &[u8])> =
            [1, 2, 4, 5, 7, 8].map(|cell| (cell, &[3u8, 4][..])).into();
        assert_eq!(step.eliminations, eliminations(&others));
    }

    #[test]
    fn the_pair_in_a_hidden_pair_is_type_3() {
        let mut board = empty_board();
        keep(&mut board, &[9, 12], &[1, 2]);
        keep(&mut board, &[0], &[1, 2, 3]);
        keep(&mut board, &[3], &[1, 2, 4]);
        // In row 1, 1 and 2 are left in r1c1, r1c4 and r1c7 only.
        for cell in [1, 2, 4, 5, 7, 8] {
            board.eliminate(cell, digits(&[1, 2]));
        }
        let step = unique_loops(&board).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangleType3);
        assert_eq!(step.difficulty, 4.5);
        assert_eq!(
            step.eliminations,
            eliminations(&[(6, &[3, 4, 5, 6, 7, 8, 9])])
        );
    }

    #[test]
    fn a_digit_of_the_pair_locked_in_the_extra_cells_is_type_4() {
        let mut board = empty_board();
        keep(&mut board, &[9, 12], &[1, 2]);
        keep(&mut board, &[0], &[1, 2, 3]);
        keep(&mut board, &[3], &[1, 2, 4]);
        for cell in [1, 2, 4, 5, 6, 7, 8] {
            board.eliminate(cell, bit(1));
        }
        let step = unique_loops(&board).unwrap();
        assert_eq!(step.technique, Technique::UniqueRectangleType4);
        assert_eq!(step.difficulty, 4.5);
        assert_eq!(step.eliminations, eliminations(&[(0, &[2]), (3, &[2])]));
    }

    #[test]
    fn a_loop_of_six_cells_is_rated_above_a_rectangle() {
        let mut board = empty_board();
        // r1c1, r1c2, r4c2, r4c3, r7c3, r7c1: boxes 1, 4 and 7 hold two cells each.
        let cells = [0, 1, 28, 29, 56, 54];
        for cell in (0..81).filter(|cell| !cells.contains(cell)) {
            board.eliminate(cell, bit(1));
        }
        keep(&mut board, &cells[..5], &[1, 2]);
        keep(&mut board, &[54], &[1, 2, 3]);
        let step = unique_loops(&board).unwrap();
        assert_eq!(step.technique, Technique::UniqueLoopType1);
        assert_eq!(step.difficulty, 4.5 + 0.1);
        assert_eq!(step.eliminations, eliminations(&[(54, &[1, 2])]));
        // Without the extra candidate, the loop is deadly as it stands: nothing to do.
        board.eliminate(54, bit(3));
        assert_eq!(unique_loops(&board), None);
    }

    #[test]
    fn a_loop_of_ten_cells_adds_half_a_point() {
        // From a reference path, one step before its Unique Loop 10 type 2.
        let mut board = board_of(
            "76.125.841.24685.7854...126681......27..1....4.568.27154.....1.9178.64.232..41..9",
        );
        for (cell, list) in [(34, &[5][..]), (42, &[3, 9]), (43, &[5]), (60, &[3])] {
            board.eliminate(cell, digits(list));
        }
        let step = unique_loops(&board).unwrap();
        assert_eq!(step.technique, Technique::UniqueLoopType2);
        assert_eq!(step.cells.len(), 10);
        assert_eq!(step.difficulty, 4.5 + 0.3 + 0.2);
        assert_eq!(step.eliminations, eliminations(&[(32, &[4]), (43, &[4])]));
    }
}
