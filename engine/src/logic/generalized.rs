//! Generalized intersections: Sukaku Explainer's form of pointing and claiming for
//! variant modes, where a cell may see cells outside its houses. A digit's places in a
//! house (two to six of them) all see some cells outside the house: those cells lose it.

use std::ops::ControlFlow;

use super::board::{Board, Cell, House, HouseKind};
use super::cell_masks::{CellMask, cells_of};
use super::singles::cells_at;
use super::step::{
    Elimination, HouseRef, Step, cells_name, digit_name, eliminations_text, house_name,
};
use super::technique::Technique;

/// The kinds of house in the reference's order for generalized intersections (rows
/// before columns, unlike singles and subsets).
const ORDER: [HouseKind; 6] = [
    HouseKind::Box,
    HouseKind::Row,
    HouseKind::Column,
    HouseKind::DisjointGroup,
    HouseKind::ExtraRegion,
    HouseKind::Diagonal,
];

/// A digit's places in a house, and what they remove.
pub struct GeneralizedLock<'a> {
    house: &'a House,
    digit: u8,
    cells: Vec<Cell>,
    /// The digit's candidates in the cells that see all its places.
    pub eliminations: Vec<Elimination>,
}

impl GeneralizedLock<'_> {
    /// The digit's other places in the house that `source` had and `current` lacks: they
    /// had to go for the lock to form (the rule parents of chains that use it).
    pub fn rule_parents(&self, source: &Board, current: &Board) -> Vec<(Cell, u8)> {
        self.house
            .cells
            .iter()
            .filter(|&&cell| source.has(cell, self.digit) && !current.has(cell, self.digit))
            .map(|&cell| (cell, self.digit))
            .collect()
    }

    fn step(&self) -> Step {
        let technique = Technique::GeneralizedIntersection;
        let mut step = Step::new(technique, 2.9);
        let house = HouseRef {
            kind: self.house.kind,
            index: self.house.index,
        };
        step.text = format!(
            "{}: {} in {} hold every {} => {}",
            technique.name(),
            cells_name(&self.cells, 9),
            house_name(house),
            digit_name(self.digit),
            eliminations_text(&self.eliminations, 9)
        );
        step.cells = self.cells.clone();
        step.houses.push(house);
        step.eliminations = self.eliminations.clone();
        step
    }
}

/// The first generalized intersection that removes a candidate.
pub fn locking(board: &Board) -> Option<Step> {
    let mut found = None;
    for_each_locking(board, |lock| {
        found = Some(lock.step());
        ControlFlow::Break(())
    });
    found
}

/// Calls `visit` with every generalized intersection that removes a candidate, in the
/// reference's order (house kinds, then digits, then houses), until it breaks.
pub fn for_each_locking<'a>(
    board: &'a Board,
    mut visit: impl FnMut(GeneralizedLock<'a>) -> ControlFlow<()>,
) {
    let geometry = board.geometry();
    let masks = geometry.masks();
    for kind in ORDER {
        let houses = geometry.houses_of(kind);
        for digit in 1..=9u8 {
            for house in houses {
                let positions = board.positions(house, digit);
                if !(2..=6).contains(&positions.count_ones()) {
                    continue;
                }
                let cells = cells_at(house, positions);
                let places = cells.iter().fold(0, |mask: CellMask, &c| mask | 1 << c);
                let seeing = cells_of(masks.seen_by_all(places));
                let eliminations = Elimination::of_digit(board, seeing, digit);
                if eliminations.is_empty() {
                    continue;
                }
                let lock = GeneralizedLock {
                    house,
                    digit,
                    cells,
                    eliminations,
                };
                if visit(lock).is_break() {
                    return;
                }
            }
        }
    }
}
