//! Singles: full houses, hidden singles and naked singles.

use super::board::{Board, HouseKind, digits_of, ones};
use super::step::{HouseRef, Placement, Step, cell_name, digit_name, house_name};
use super::technique::Technique;

/// The house kinds in Sudoku Explainer's scan order for singles and subsets: boxes, then
/// columns, then rows; a variant board's regions stand where boxes do, and the houses of
/// its rules come last (a classic board has none).
pub const SCAN_ORDER: [HouseKind; 7] = [
    HouseKind::Box,
    HouseKind::Region,
    HouseKind::Column,
    HouseKind::Row,
    HouseKind::DisjointGroup,
    HouseKind::ExtraRegion,
    HouseKind::Diagonal,
];

/// The first full house, else the first hidden single, scanning the houses in
/// [`SCAN_ORDER`] and the digits in ascending order.
pub fn hidden_single(board: &Board) -> Option<Step> {
    let geometry = board.geometry();
    for full_houses_only in [true, false] {
        for kind in SCAN_ORDER {
            // A house of fewer cells than digits need not hold every digit.
            let houses = geometry.houses_of(kind).iter();
            for house in houses.filter(|house| house.cells.len() == board.size()) {
                let alone = board.empty_count(house) == 1;
                if alone != full_houses_only {
                    continue;
                }
                for digit in 1..=board.size() as u8 {
                    let positions = board.positions(house, digit);
                    if positions.count_ones() == 1 {
                        let cell = house.cells[positions.trailing_zeros() as usize];
                        let technique = match (alone, kind) {
                            (true, _) => Technique::FullHouse,
                            (false, HouseKind::Box | HouseKind::Region) => {
                                Technique::HiddenSingleBox
                            }
                            (false, _) => Technique::HiddenSingleLine,
                        };
                        let house = HouseRef {
                            kind,
                            index: house.index,
                        };
                        return Some(single(board, technique, cell, digit, Some(house)));
                    }
                }
            }
        }
    }
    None
}

/// The first cell (row-major) with one candidate left.
pub fn naked_single(board: &Board) -> Option<Step> {
    (0..board.cell_count()).find_map(|cell| {
        let candidates = board.candidates(cell);
        (candidates.count_ones() == 1).then(|| {
            let digit = digits_of(candidates).next().expect("one candidate");
            single(board, Technique::NakedSingle, cell, digit, None)
        })
    })
}

/// The step that places `digit` in `cell` by `technique`, seen in `house` if any.
fn single(
    board: &Board,
    technique: Technique,
    cell: usize,
    digit: u8,
    house: Option<HouseRef>,
) -> Step {
    let difficulty = match technique {
        Technique::FullHouse => 1.0,
        Technique::HiddenSingleBox => 1.2,
        Technique::HiddenSingleLine => 1.5,
        _ => 2.3,
    };
    let mut step = Step::new(technique, difficulty);
    step.placements.push(Placement { cell, digit });
    step.cells.push(cell);
    step.houses.extend(house);
    let size = board.size();
    let placed = format!("{}={}", cell_name(cell, size), digit_name(digit));
    step.text = match house {
        Some(house) => format!("{}: {placed} in {}", technique.name(), house_name(house)),
        None => format!("{}: {placed}", technique.name()),
    };
    step
}

/// The cells of `house` at the positions of `mask`.
pub fn cells_at(house: &super::board::House, mask: u32) -> Vec<usize> {
    ones(mask).map(|position| house.cells[position]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn board(symbols: &str) -> Board {
        Board::from_grid(&Grid::parse_symbols(symbols).unwrap())
    }

    #[test]
    fn a_full_house_comes_before_any_hidden_single() {
        // Row 1 misses only its last digit; box 1 also has hidden singles.
        let board = board(
            "12345678.........................................................................",
        );
        let step = hidden_single(&board).unwrap();
        assert_eq!(step.technique, Technique::FullHouse);
        assert_eq!(step.placements, [Placement { cell: 8, digit: 9 }]);
        assert_eq!(step.difficulty, 1.0);
        assert_eq!(step.text, "Full house: r1c9=9 in r1");
    }

    #[test]
    fn hidden_singles_are_found_in_boxes_before_lines() {
        // Box 1 keeps one place for 1, r1c1; row 1 and column 1 keep several.
        let mut board = Board::from_grid(&Grid::empty(9).unwrap());
        for cell in [1, 2, 9, 10, 11, 18, 19, 20] {
            board.eliminate(cell, super::super::board::bit(1));
        }
        let step = hidden_single(&board).unwrap();
        assert_eq!(step.technique, Technique::HiddenSingleBox);
        assert_eq!(step.placements, [Placement { cell: 0, digit: 1 }]);
        assert_eq!(step.difficulty, 1.2);
    }

    #[test]
    fn a_naked_single_is_the_only_candidate_of_a_cell() {
        let board = board(
            ".23456789........................................................................",
        );
        let step = naked_single(&board).unwrap();
        assert_eq!(step.placements, [Placement { cell: 0, digit: 1 }]);
        assert_eq!(step.difficulty, 2.3);
        let empty = Board::from_grid(&Grid::empty(9).unwrap());
        assert_eq!(naked_single(&empty), None);
        assert_eq!(hidden_single(&empty), None);
    }
}
