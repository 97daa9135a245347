//! The non-consecutive mode's own steps, as Sukaku Explainer finds them: orthogonal
//! neighbours hold no consecutive digits (9 and 1 are not consecutive).

use super::board::{Board, Cell, Digits, HouseKind, bit, digits_of, orthogonal_neighbours};
use super::singles::cells_at;
use super::step::{
    Elimination, HouseRef, Step, cell_name, cells_name, digit_name, eliminations_text, house_name,
};
use super::technique::Technique;

/// The first forcing cell, in cell order: a cell whose two or three candidates all
/// forbid some digits to its orthogonal neighbours, which lose them. `{v, v+1}` forbids
/// both, `{v, v+2}` and `{v, v+1, v+2}` forbid `v+1`.
pub fn forcing_cell(board: &Board) -> Option<Step> {
    (0..81).find_map(|cell| {
        let candidates = board.candidates(cell);
        let count = candidates.count_ones();
        if !(2..=3).contains(&count) {
            return None;
        }
        let (low, high) = (candidates.trailing_zeros(), 31 - candidates.leading_zeros());
        let forbidden: Digits = match (count, high - low) {
            (2, 1) => candidates,
            (_, 2) => 1 << (low + 1),
            _ => return None,
        };
        let neighbours: Vec<Cell> = orthogonal_neighbours(cell, 9).collect();
        let eliminations = removals(board, &neighbours, forbidden);
        if eliminations.is_empty() {
            return None;
        }
        let technique = Technique::NonconsecutiveForcingCell;
        let mut step = Step::new(technique, 2.4);
        step.text = format!(
            "{}: {} is one of {:?} => {}",
            technique.name(),
            cell_name(cell, 9),
            digits_of(candidates).collect::<Vec<_>>(),
            eliminations_text(&eliminations, 9)
        );
        step.cells.push(cell);
        step.eliminations = eliminations;
        Some(step)
    })
}

/// The house kinds the locked digit is looked for in, in the reference's order (windows
/// are the first four houses of their kind: the shaded ones).
const LOCKED_ORDER: [HouseKind; 4] = [
    HouseKind::ExtraRegion,
    HouseKind::Column,
    HouseKind::Row,
    HouseKind::Box,
];

/// The first locked digit: a digit whose places in a house (at most five in a box or
/// window, three in a line) all touch the same cells, or are them: the digits next to it
/// leave those cells. Digits first, then house kinds, then houses.
pub fn locked(board: &Board) -> Option<Step> {
    let geometry = board.geometry();
    for digit in 1..=9u8 {
        for kind in LOCKED_ORDER {
            let houses = geometry.houses_of(kind);
            let (houses, most) = match kind {
                HouseKind::ExtraRegion => (&houses[..houses.len().min(4)], 5),
                HouseKind::Box => (houses, 5),
                _ => (houses, 3),
            };
            for house in houses {
                let positions = board.positions(house, digit);
                if positions == 0 || positions.count_ones() > most {
                    continue;
                }
                let places = cells_at(house, positions);
                let forbidden = (bit(digit) << 1 | bit(digit) >> 1) & 0x1ff;
                let touched: Vec<Cell> = (0..81)
                    .filter(|&cell| {
                        places.iter().all(|&place| {
                            place == cell || orthogonal_neighbours(place, 9).any(|n| n == cell)
                        })
                    })
                    .collect();
                let eliminations = removals(board, &touched, forbidden);
                if eliminations.is_empty() {
                    continue;
                }
                let technique = Technique::NonconsecutiveLockedDigit;
                let mut step = Step::new(technique, 2.5);
                let house = HouseRef {
                    kind,
                    index: house.index,
                };
                step.text = format!(
                    "{}: {} in {} is in {} => {}",
                    technique.name(),
                    digit_name(digit),
                    house_name(house),
                    cells_name(&places, 9),
                    eliminations_text(&eliminations, 9)
                );
                step.cells = places;
                step.houses.push(house);
                step.eliminations = eliminations;
                return Some(step);
            }
        }
    }
    None
}

/// The candidates among `digits` of `cells`, in the given order.
fn removals(board: &Board, cells: &[Cell], digits: Digits) -> Vec<Elimination> {
    cells
        .iter()
        .filter_map(|&cell| {
            let digits = board.candidates(cell) & digits;
            (digits != 0).then_some(Elimination { cell, digits })
        })
        .collect()
}
