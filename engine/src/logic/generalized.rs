//! Generalized intersections: Sukaku Explainer's form of pointing and claiming for
//! variant modes, where a cell may see cells outside its houses. A digit's places in a
//! house (two to six of them) all see some cells outside the house: those cells lose it.

use super::board::{Board, HouseKind};
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

/// The first generalized intersection that removes a candidate: house kinds in the
/// reference's order, then digits, then houses.
pub fn locking(board: &Board) -> Option<Step> {
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
                let technique = Technique::GeneralizedIntersection;
                let mut step = Step::new(technique, 2.9);
                let house = HouseRef {
                    kind,
                    index: house.index,
                };
                step.text = format!(
                    "{}: {} in {} hold every {} => {}",
                    technique.name(),
                    cells_name(&cells, 9),
                    house_name(house),
                    digit_name(digit),
                    eliminations_text(&eliminations, 9)
                );
                step.cells = cells;
                step.houses.push(house);
                step.eliminations = eliminations;
                return Some(step);
            }
        }
    }
    None
}
