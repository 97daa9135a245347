//! Basic fish: when a digit's places in n lines (rows or columns) all lie in n crossing
//! lines, the digit leaves the crossing lines' other cells. X-Wing (2), Swordfish (3),
//! Jellyfish (4).

use std::ops::ControlFlow;

use super::board::{Board, HouseKind, MAX_SIZE, combinations, ones};
use super::step::{Elimination, HouseRef, Step, digit_name, eliminations_text, house_name};
use super::technique::Technique;

/// The first fish of `degree` lines that removes a candidate: base lines are columns
/// before rows, sets of lines in Sudoku Explainer's order, digits ascending; a digit
/// placed so often that fewer than twice `degree` of its cells are open is skipped.
pub fn fish(board: &Board, degree: u32) -> Option<Step> {
    let mut found = None;
    for_each_fish(board, degree, |fish| {
        found = Some(fish.step(board));
        ControlFlow::Break(())
    });
    found
}

/// Calls `visit` with every fish of `degree` lines that removes a candidate, in the
/// reference's scan order, until it breaks.
pub fn for_each_fish(board: &Board, degree: u32, mut visit: impl FnMut(Fish) -> ControlFlow<()>) {
    let geometry = board.geometry();
    let size = board.size();
    let placed: Vec<usize> = (1..=size as u8)
        .map(|digit| board.placed_count(digit))
        .collect();
    for (base_kind, cover_kind) in [
        (HouseKind::Column, HouseKind::Row),
        (HouseKind::Row, HouseKind::Column),
    ] {
        let covers = geometry.houses_of(cover_kind);
        let places: Vec<[u32; MAX_SIZE]> = geometry
            .houses_of(base_kind)
            .iter()
            .map(|line| board.digit_positions(line))
            .collect();
        for lines in combinations(degree, size as u32) {
            for digit in 1..=size as u8 {
                if placed[usize::from(digit) - 1] + 2 * degree as usize > size {
                    continue;
                }
                let mut union = 0;
                let mut all_wide = true;
                for line in ones(lines) {
                    let positions = places[line][usize::from(digit) - 1];
                    all_wide &= positions.count_ones() > 1;
                    union |= positions;
                }
                if !all_wide || union.count_ones() != degree {
                    continue;
                }
                // A base line's position `p` is the cover line of index `p`; the
                // removals come cover line by cover line, as the reference lists them.
                let outside = ones(union).flat_map(|cover| {
                    covers[cover]
                        .cells
                        .iter()
                        .enumerate()
                        .filter(move |&(base, _)| lines & 1 << base == 0)
                        .map(|(_, &cell)| cell)
                });
                let eliminations = Elimination::of_digit(board, outside, digit);
                if eliminations.is_empty() {
                    continue;
                }
                let fish = Fish {
                    digit,
                    base_kind,
                    cover_kind,
                    bases: lines,
                    covers: union,
                    eliminations,
                };
                if visit(fish).is_break() {
                    return;
                }
            }
        }
    }
}

/// A digit whose places in some lines all lie in as many crossing lines.
pub struct Fish {
    digit: u8,
    base_kind: HouseKind,
    cover_kind: HouseKind,
    /// The base lines and the cover lines, as masks of line indexes.
    bases: u32,
    covers: u32,
    /// What it removes, cover line by cover line (as the reference inserts them).
    pub eliminations: Vec<Elimination>,
}

impl Fish {
    /// The removals of the digit from the base lines, outside the cover lines, that the
    /// fish relies on: candidates `source` had and `current` lacks (the reference's rule
    /// parents, for chains that use the fish).
    pub fn rule_parents(&self, source: &Board, current: &Board) -> Vec<(usize, u8)> {
        let geometry = current.geometry();
        let bases = geometry.houses_of(self.base_kind);
        ones(self.bases)
            .flat_map(|line| bases[line].cells.iter().enumerate())
            .filter(|&(position, &cell)| {
                self.covers & 1 << position == 0
                    && source.has(cell, self.digit)
                    && !current.has(cell, self.digit)
            })
            .map(|(_, &cell)| (cell, self.digit))
            .collect()
    }

    /// The fish as a step.
    pub fn step(&self, board: &Board) -> Step {
        let degree = self.bases.count_ones();
        let size = board.size();
        let geometry = board.geometry();
        let mut step = Step::new(technique(degree), difficulty(degree));
        step.cells = ones(self.bases)
            .flat_map(|line| {
                geometry.houses_of(self.base_kind)[line]
                    .cells
                    .iter()
                    .copied()
            })
            .filter(|&cell| board.has(cell, self.digit))
            .collect();
        step.cells.sort_unstable();
        step.houses = ones(self.bases)
            .map(|index| HouseRef {
                kind: self.base_kind,
                index,
            })
            .chain(ones(self.covers).map(|index| HouseRef {
                kind: self.cover_kind,
                index,
            }))
            .collect();
        let mut eliminations = self.eliminations.clone();
        eliminations.sort_by_key(|elimination| elimination.cell);
        let names = |refs: &[HouseRef]| -> String {
            refs.iter()
                .map(|&house| house_name(house))
                .collect::<Vec<_>>()
                .join(",")
        };
        let lines = degree as usize;
        step.text = format!(
            "{}: {} in {} lies in {} => {}",
            step.technique.name(),
            digit_name(self.digit),
            names(&step.houses[..lines]),
            names(&step.houses[lines..]),
            eliminations_text(&eliminations, size)
        );
        step.eliminations = eliminations;
        step
    }
}

fn technique(degree: u32) -> Technique {
    match degree {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    }
}

fn difficulty(degree: u32) -> f64 {
    match degree {
        2 => 3.2,
        3 => 3.8,
        _ => 5.2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::logic::board::bit;
    use crate::logic::step::cell_name;

    #[test]
    fn an_x_wing_on_two_columns_clears_its_two_rows() {
        let mut board = Board::from_grid(&Grid::empty(9).unwrap());
        // Digit 5 may go only in rows 1 and 4 of columns 1 and 9.
        for row in [1, 2, 4, 5, 6, 7, 8] {
            board.eliminate(row * 9, bit(5));
            board.eliminate(row * 9 + 8, bit(5));
        }
        let step = fish(&board, 2).unwrap();
        assert_eq!(step.technique, Technique::XWing);
        assert_eq!(step.cells, [0, 8, 27, 35]);
        let removed: Vec<usize> = step.eliminations.iter().map(|e| e.cell).collect();
        assert_eq!(removed, [1, 2, 3, 4, 5, 6, 7, 28, 29, 30, 31, 32, 33, 34]);
        assert_eq!(fish(&board, 3), None, "no swordfish besides");
    }

    /// Asserts that the fish of `degree` where `puzzle`'s path first uses one is the one
    /// Sukaku Explainer's `serate` finds there: on `digit`, through `cells`.
    fn assert_reference_fish(puzzle: &str, degree: u32, digit: u8, cells: &[&str]) {
        let board = crate::logic::path::board_before(puzzle, technique(degree));
        let step = fish(&board, degree).expect("a fish");
        assert!(
            step.text.contains(&format!(": {digit} in c")),
            "{}",
            step.text
        );
        let mut names: Vec<String> = step.cells.iter().map(|&c| cell_name(c, 9)).collect();
        names.sort_unstable();
        let mut expected = cells.to_vec();
        expected.sort_unstable();
        assert_eq!(names, expected, "{}", step.text);
    }

    #[test]
    fn a_swordfish_where_the_reference_finds_one() {
        assert_reference_fish(
            ".6..1..2.29..4..518.......462.4.1.38....3.....4.5.7.1.9..3.2..57.......2.3..8..9.",
            3,
            7,
            &["r3c2", "r3c5", "r3c8", "r5c2", "r5c8", "r7c5", "r7c8"],
        );
    }

    #[test]
    fn a_jellyfish_where_the_reference_finds_one() {
        assert_reference_fish(
            ".....823.6..3.....2.8.197..7.6.3..8...98.16...8..2.9.5..219.3.7.....3..4.136.....",
            4,
            5,
            &[
                "r2c3", "r2c7", "r5c1", "r5c5", "r8c1", "r8c3", "r8c5", "r8c7", "r9c1", "r9c5",
                "r9c7",
            ],
        );
    }

    /// A board where digit 1 lies in columns 1, 4 and 7 in the rows of `rows`.
    fn digit_1_in_three_columns(rows: [&[usize]; 3]) -> Board {
        let mut board = Board::from_grid(&Grid::empty(9).unwrap());
        for (column, keep) in [0, 3, 6].into_iter().zip(rows) {
            for row in (0..9).filter(|row| !keep.contains(row)) {
                board.eliminate(row * 9 + column, bit(1));
            }
        }
        board
    }

    #[test]
    fn three_columns_over_three_rows_are_a_swordfish() {
        let board = digit_1_in_three_columns([&[0, 4], &[4, 8], &[0, 8]]);
        let step = fish(&board, 3).expect("a swordfish");
        assert_eq!(step.technique, Technique::Swordfish);
        assert_eq!(step.cells, [0, 6, 36, 39, 75, 78]);
        // Rows 1, 5 and 9 lose the digit outside the three columns.
        assert_eq!(step.eliminations.len(), 3 * 6);
        assert!(
            step.eliminations
                .iter()
                .all(|e| [0, 4, 8].contains(&(e.cell / 9))
                    && ![0, 3, 6].contains(&(e.cell % 9))
                    && e.digits == bit(1))
        );
    }

    #[test]
    fn three_columns_over_four_rows_are_no_swordfish() {
        let board = digit_1_in_three_columns([&[0, 4], &[4, 8], &[0, 2, 8]]);
        assert_eq!(fish(&board, 3), None);
    }

    #[test]
    fn fish_work_on_other_sizes() {
        let mut board = Board::from_grid(&Grid::empty(16).unwrap());
        // Digit 3 may go only in rows 3 and 8 of columns 1 and 6.
        for row in (0..16).filter(|row| ![2, 7].contains(row)) {
            board.eliminate(row * 16, bit(3));
            board.eliminate(row * 16 + 5, bit(3));
        }
        let step = fish(&board, 2).expect("an X-Wing");
        assert_eq!(step.cells, [32, 37, 112, 117]);
        assert_eq!(step.eliminations.len(), 2 * 14);
        assert!(
            step.eliminations
                .iter()
                .all(|e| [2, 7].contains(&(e.cell / 16))
                    && ![0, 5].contains(&(e.cell % 16))
                    && e.digits == bit(3))
        );
    }
}
