//! A step of a logical solve, as data: the technique, its difficulty, what it places and
//! removes, the pattern that justifies it, and one line of text in the community's
//! notation. Explain, hint, the rating and the command line all read the same value.

use std::fmt::Write as _;

use super::board::{Board, Cell, Digits, HouseKind, digits_of};
use super::technique::Technique;
use crate::grid;

/// A digit placed in a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The cell (row-major index).
    pub cell: Cell,
    /// The digit.
    pub digit: u8,
}

/// Candidates removed from a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Elimination {
    /// The cell (row-major index).
    pub cell: Cell,
    /// The digits removed.
    pub digits: Digits,
}

impl Elimination {
    /// `digit` removed from each of `cells` that has it as a candidate on `board`.
    pub fn of_digit(
        board: &Board,
        cells: impl IntoIterator<Item = Cell>,
        digit: u8,
    ) -> Vec<Elimination> {
        cells
            .into_iter()
            .filter(|&cell| board.has(cell, digit))
            .map(|cell| Elimination {
                cell,
                digits: super::board::bit(digit),
            })
            .collect()
    }
}

/// A house named by its kind and index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct HouseRef {
    /// Box, row or column.
    pub kind: HouseKind,
    /// 0-based index among the houses of its kind.
    pub index: usize,
}

/// A node of a chain: a candidate taken as true (`on`) or false.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainNode {
    /// The cell (row-major index).
    pub cell: Cell,
    /// The candidate digit.
    pub digit: u8,
    /// Whether the chain takes the candidate as true.
    pub on: bool,
}

/// One step: what a person does next, and why it is right.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// How the step is found.
    pub technique: Technique,
    /// Its difficulty on the Sudoku Explainer scale, as that rater computes it (a double,
    /// with its rounding errors; print it with [`Step::rounded_difficulty`]).
    pub difficulty: f64,
    /// Digits the step places.
    pub placements: Vec<Placement>,
    /// Candidates the step removes.
    pub eliminations: Vec<Elimination>,
    /// The cells that form the pattern.
    pub cells: Vec<Cell>,
    /// The houses that form the pattern.
    pub houses: Vec<HouseRef>,
    /// For chains, the nodes in order.
    pub chain: Vec<ChainNode>,
    /// One line in the community's notation (`r1c2=5`, `r2c4<>7`, `b7`).
    pub text: String,
    /// The variant rule whose own logic the step is, as the input named it.
    pub rule: Option<crate::variant::Origin>,
}

impl Step {
    /// A step of `technique` at `difficulty` with nothing else yet.
    pub fn new(technique: Technique, difficulty: f64) -> Step {
        Step {
            technique,
            difficulty,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cells: Vec::new(),
            houses: Vec::new(),
            chain: Vec::new(),
            text: String::new(),
            rule: None,
        }
    }

    /// The difficulty as Sudoku Explainer prints it: one decimal, rounded half up.
    pub fn rounded_difficulty(&self) -> f64 {
        round_rating(self.difficulty)
    }

    /// Applies the step to `board`: removes its eliminations, then places its digits.
    pub fn apply(&self, board: &mut Board) {
        for elimination in &self.eliminations {
            board.eliminate(elimination.cell, elimination.digits);
        }
        for placement in &self.placements {
            board.place(placement.cell, placement.digit);
        }
    }
}

/// A rating as Sudoku Explainer prints it: `floor((x + 0.05) × 10) / 10`.
pub fn round_rating(difficulty: f64) -> f64 {
    ((difficulty + 0.05) * 10.0).floor() / 10.0
}

/// Cell `cell` of an N×N board in `r1c1` notation.
pub fn cell_name(cell: Cell, size: usize) -> String {
    grid::cell_name(cell / size, cell % size)
}

/// A house in `r1`, `c1`, `b1` notation.
pub fn house_name(house: HouseRef) -> String {
    let number = house.index + 1;
    match house.kind {
        HouseKind::Box => format!("b{number}"),
        HouseKind::Row => format!("r{number}"),
        HouseKind::Column => format!("c{number}"),
        HouseKind::Region => format!("region {number}"),
        HouseKind::Diagonal => format!("diagonal {number}"),
        HouseKind::ExtraRegion => format!("extra region {number}"),
        HouseKind::DisjointGroup => format!("disjoint group {number}"),
    }
}

/// A digit as the grid writes it: `1`-`9`, then `A` for 10 and up.
pub fn digit_name(digit: u8) -> char {
    match digit {
        1..=9 => char::from(b'0' + digit),
        _ => char::from(b'A' + digit - 10),
    }
}

/// `digits` written one after the other (`137`).
pub fn digits_name(digits: Digits) -> String {
    digits_of(digits).map(digit_name).collect()
}

/// The cells written as a list (`r1c2,r3c4`).
pub fn cells_name(cells: &[Cell], size: usize) -> String {
    let mut text = String::new();
    for (index, &cell) in cells.iter().enumerate() {
        if index > 0 {
            text.push(',');
        }
        text.push_str(&cell_name(cell, size));
    }
    text
}

/// The eliminations written as `r1c2<>57, r3c4<>5`.
pub fn eliminations_text(eliminations: &[Elimination], size: usize) -> String {
    let mut text = String::new();
    for (index, elimination) in eliminations.iter().enumerate() {
        if index > 0 {
            text.push_str(", ");
        }
        let _ = write!(
            text,
            "{}<>{}",
            cell_name(elimination.cell, size),
            digits_name(elimination.digits)
        );
    }
    text
}

/// The placements written as `r1c2=5, r3c4=6`.
pub fn placements_text(placements: &[Placement], size: usize) -> String {
    let mut text = String::new();
    for (index, placement) in placements.iter().enumerate() {
        if index > 0 {
            text.push_str(", ");
        }
        let _ = write!(
            text,
            "{}={}",
            cell_name(placement.cell, size),
            digit_name(placement.digit)
        );
    }
    text
}

/// What a step concludes, in words: its placements, then its eliminations.
pub fn conclusion_text(step: &Step, size: usize) -> String {
    match (step.placements.is_empty(), step.eliminations.is_empty()) {
        (false, true) => placements_text(&step.placements, size),
        (true, _) => eliminations_text(&step.eliminations, size),
        (false, false) => format!(
            "{}; {}",
            eliminations_text(&step.eliminations, size),
            placements_text(&step.placements, size)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_round_half_up_to_one_decimal_as_the_reference_prints_them() {
        assert_eq!(round_rating(6.6 + 0.1), 6.7);
        assert_eq!(round_rating(7.05), 7.1);
        assert_eq!(round_rating(1.2), 1.2);
        assert_eq!(round_rating(8.99), 9.0);
    }

    #[test]
    fn cells_digits_and_houses_use_the_community_notation() {
        assert_eq!(cell_name(10, 9), "r2c2");
        assert_eq!(digits_name(0b1000_0101), "138");
        assert_eq!(digit_name(11), 'B');
        let house = HouseRef {
            kind: HouseKind::Box,
            index: 6,
        };
        assert_eq!(house_name(house), "b7");
    }
}
