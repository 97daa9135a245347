//! Basic fish: when a digit's places in n lines (rows or columns) all lie in n crossing
//! lines, the digit leaves the crossing lines' other cells. X-Wing (2), Swordfish (3),
//! Jellyfish (4).

use super::board::{Board, HouseKind, bit, combinations, ones};
use super::step::{Elimination, HouseRef, Step, digit_name, eliminations_text, house_name};
use super::technique::Technique;

/// The first fish of `degree` lines that removes a candidate: base lines are columns
/// before rows, sets of lines in Sudoku Explainer's order, digits ascending; a digit
/// placed so often that fewer than twice `degree` of its cells are open is skipped.
pub fn fish(board: &Board, degree: u32) -> Option<Step> {
    let geometry = board.geometry();
    let size = board.size();
    for (base_kind, cover_kind) in [
        (HouseKind::Column, HouseKind::Row),
        (HouseKind::Row, HouseKind::Column),
    ] {
        let bases = geometry.houses_of(base_kind);
        let covers = geometry.houses_of(cover_kind);
        for lines in combinations(degree, size as u32) {
            for digit in 1..=size as u8 {
                if board.placed_count(digit) + 2 * degree as usize > size {
                    continue;
                }
                let mut union = 0;
                let mut all_wide = true;
                for line in ones(lines) {
                    let positions = board.positions(&bases[line], digit);
                    all_wide &= positions.count_ones() > 1;
                    union |= positions;
                }
                if !all_wide || union.count_ones() != degree {
                    continue;
                }
                // A base line's position `p` is the cover line of index `p`.
                let eliminations: Vec<Elimination> = ones(union)
                    .flat_map(|cover| {
                        covers[cover]
                            .cells
                            .iter()
                            .enumerate()
                            .filter(move |&(base, _)| lines & 1 << base == 0)
                            .map(|(_, &cell)| cell)
                    })
                    .filter(|&cell| board.has(cell, digit))
                    .map(|cell| Elimination {
                        cell,
                        digits: bit(digit),
                    })
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let mut eliminations = eliminations;
                eliminations.sort_by_key(|elimination| elimination.cell);
                let mut step = Step::new(technique(degree), difficulty(degree));
                step.cells = ones(lines)
                    .flat_map(|line| bases[line].cells.iter().copied())
                    .filter(|&cell| board.has(cell, digit))
                    .collect();
                step.cells.sort_unstable();
                step.houses = ones(lines)
                    .map(|index| HouseRef {
                        kind: base_kind,
                        index,
                    })
                    .chain(ones(union).map(|index| HouseRef {
                        kind: cover_kind,
                        index,
                    }))
                    .collect();
                let names = |refs: &[HouseRef]| -> String {
                    refs.iter()
                        .map(|&house| house_name(house))
                        .collect::<Vec<_>>()
                        .join(",")
                };
                let lines_count = degree as usize;
                step.text = format!(
                    "{}: {} in {} lies in {} => {}",
                    step.technique.name(),
                    digit_name(digit),
                    names(&step.houses[..lines_count]),
                    names(&step.houses[lines_count..]),
                    eliminations_text(&eliminations, size)
                );
                step.eliminations = eliminations;
                return Some(step);
            }
        }
    }
    None
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
}
