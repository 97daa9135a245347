//! Houses and chess rules: rows, columns, regions, extra regions and diagonals (all
//! different), anti-knight and anti-king (no repeat a move apart).

use std::collections::BTreeMap;

use super::pairs::Pair;
use super::sorted_distinct;
use crate::variant::model::{Cell, Diagonal};
use crate::variant::propagate::{Context, Contradiction, Mask, Propagator};

/// Cells that hold different digits. A cell that holds one digit strikes it from the
/// others (naked singles); a house of `size` cells also places each digit that only one
/// cell can hold (hidden singles) and fails when a digit has no place. A smaller house
/// fails when its cells together hold fewer digits than it has cells.
#[derive(Debug)]
pub(super) struct AllDifferent {
    cells: Vec<usize>,
    /// Every digit of the grid when the house has `size` cells, otherwise 0.
    full: Mask,
}

impl AllDifferent {
    /// The house of `cells`: distinct row-major indices, at most `size` of them.
    pub(super) fn new(cells: Vec<usize>, context: &Context) -> AllDifferent {
        debug_assert!(cells.len() <= context.size);
        let full = if cells.len() == context.size {
            context.all_digits()
        } else {
            0
        };
        AllDifferent { cells, full }
    }

    /// One pass of naked and hidden singles; whether it narrowed a mask.
    fn pass(&self, masks: &mut [Mask]) -> Result<bool, Contradiction> {
        let mut singles: Mask = 0;
        let mut open = false;
        for &cell in &self.cells {
            let mask = masks[cell];
            if mask & mask.wrapping_sub(1) == 0 {
                if mask == 0 || singles & mask != 0 {
                    return Err(Contradiction);
                }
                singles |= mask;
            } else {
                open = true;
            }
        }
        if !open {
            return Ok(false);
        }
        let mut changed = false;
        let (mut once, mut twice): (Mask, Mask) = (0, 0);
        for &cell in &self.cells {
            let mut mask = masks[cell];
            if mask & mask.wrapping_sub(1) != 0 {
                mask &= !singles;
                if mask == 0 {
                    return Err(Contradiction);
                }
                if mask != masks[cell] {
                    masks[cell] = mask;
                    changed = true;
                }
            }
            twice |= once & mask;
            once |= mask;
        }
        if self.full == 0 {
            if (once.count_ones() as usize) < self.cells.len() {
                return Err(Contradiction);
            }
            return Ok(changed);
        }
        if once != self.full {
            return Err(Contradiction);
        }
        let hidden = once & !twice & !singles;
        if hidden != 0 {
            for &cell in &self.cells {
                let mask = masks[cell] & hidden;
                if mask != 0 {
                    if mask & (mask - 1) != 0 {
                        return Err(Contradiction);
                    }
                    masks[cell] = mask;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }
}

impl Propagator for AllDifferent {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    /// Its passes are run to a fixed point.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        while self.pass(masks)? {}
        Ok(())
    }
}

/// The rows, the columns and the regions of `size` cells.
pub(super) fn classic(context: &Context) -> Vec<Box<dyn Propagator>> {
    let size = context.size;
    let mut houses: Vec<Vec<usize>> = Vec::with_capacity(3 * size);
    houses.extend((0..size).map(|row| (0..size).map(|col| row * size + col).collect()));
    houses.extend((0..size).map(|col| (0..size).map(|row| row * size + col).collect()));
    houses.extend(regions(context).into_values());
    houses
        .into_iter()
        .map(|cells| Box::new(AllDifferent::new(cells, context)) as Box<dyn Propagator>)
        .collect()
}

/// The cells of each region that has exactly `size` cells, by region number.
fn regions(context: &Context) -> BTreeMap<usize, Vec<usize>> {
    let mut regions: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (cell, region) in context.regions.iter().enumerate() {
        if let Some(region) = region {
            regions.entry(*region).or_default().push(cell);
        }
    }
    regions.retain(|_, cells| cells.len() == context.size);
    regions
}

/// Different digits in `cells`. As in the peer, a list of more than `size` cells (which
/// could never be all different) is not a house and adds nothing.
pub(super) fn distinct(cells: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    let mut indices: Vec<usize> = cells.iter().map(|&cell| context.index(cell)).collect();
    indices.sort_unstable();
    indices.dedup();
    if indices.len() < 2 || indices.len() > context.size {
        return Vec::new();
    }
    vec![Box::new(AllDifferent::new(indices, context))]
}

/// Different digits on a main diagonal.
pub(super) fn diagonal(diagonal: Diagonal, context: &Context) -> Vec<Box<dyn Propagator>> {
    let size = context.size;
    let cells: Vec<usize> = (0..size)
        .map(|i| match diagonal {
            Diagonal::Down => i * size + i,
            Diagonal::Up => (size - 1 - i) * size + i,
        })
        .collect();
    vec![Box::new(AllDifferent::new(sorted_distinct(cells), context))]
}

/// Different digits in the cells at the same place (reading order) of each region of
/// `size` cells: the regions of the whole puzzle, whatever the order of its rules.
pub(super) fn disjoint_groups(context: &Context) -> Vec<Box<dyn Propagator>> {
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); context.size];
    for cells in regions(context).into_values() {
        for (place, cell) in cells.into_iter().enumerate() {
            groups[place].push(cell);
        }
    }
    groups
        .into_iter()
        .filter(|group| group.len() >= 2)
        .map(|group| Box::new(AllDifferent::new(group, context)) as Box<dyn Propagator>)
        .collect()
}

/// No repeat a chess knight's move apart.
pub(super) fn anti_knight(context: &Context) -> Vec<Box<dyn Propagator>> {
    chess(context, &[(1, 2), (2, 1), (1, -2), (2, -1)])
}

/// No repeat a chess king's move apart. Orthogonal neighbours share a row or a column,
/// which already keeps them apart, so only diagonal neighbours get a propagator.
pub(super) fn anti_king(context: &Context) -> Vec<Box<dyn Propagator>> {
    chess(context, &[(1, 1), (1, -1)])
}

/// A "different digits" pair for each cell and each of its `moves` (given one way only, so
/// that each pair comes once) that stays inside the grid.
fn chess(context: &Context, moves: &[(isize, isize)]) -> Vec<Box<dyn Propagator>> {
    let size = context.size as isize;
    let mut propagators: Vec<Box<dyn Propagator>> = Vec::new();
    for row in 0..size {
        for col in 0..size {
            for &(down, right) in moves {
                let (to_row, to_col) = (row + down, col + right);
                if (0..size).contains(&to_row) && (0..size).contains(&to_col) {
                    let from = (row * size + col) as usize;
                    let to = (to_row * size + to_col) as usize;
                    propagators.push(Box::new(Pair::new(from, to, context, |a, b| a != b)));
                }
            }
        }
    }
    propagators
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::constraints::NOTHING_DRAWN;

    fn context(size: usize, regions: &[Option<usize>]) -> Context<'_> {
        Context {
            size,
            regions,
            drawn: &NOTHING_DRAWN,
        }
    }

    #[test]
    fn naked_and_hidden_singles() {
        let regions = vec![None; 16];
        let context = context(4, &regions);
        let house = AllDifferent::new(vec![0, 1, 2, 3], &context);
        // Cell 0 holds 1; digit 4 fits only cell 3.
        let mut masks = vec![0b0001, 0b0111, 0b0111, 0b1111];
        house.propagate(&mut masks).unwrap();
        assert_eq!(masks, vec![0b0001, 0b0110, 0b0110, 0b1000]);
    }

    #[test]
    fn repeats_and_missing_digits_fail() {
        let regions = vec![None; 16];
        let context = context(4, &regions);
        let house = AllDifferent::new(vec![0, 1, 2, 3], &context);
        assert!(house.propagate(&mut [1, 1, 0b1110, 0b1110]).is_err());
        assert!(
            house
                .propagate(&mut [0b0111, 0b0111, 0b0111, 0b0111])
                .is_err()
        );
        let small = AllDifferent::new(vec![0, 1, 2], &context);
        assert!(small.propagate(&mut [0b11, 0b11, 0b11, 0b1111]).is_err());
        let mut fine = [0b01, 0b11, 0b111, 0b1111];
        small.propagate(&mut fine).unwrap();
        assert_eq!(fine, [0b001, 0b010, 0b100, 0b1111]);
    }

    #[test]
    fn regions_of_the_wrong_size_are_no_houses() {
        let mut lopsided = vec![Some(0); 16];
        lopsided[15] = Some(1);
        assert!(regions(&context(4, &lopsided)).is_empty());
        let columns: Vec<Option<usize>> = (0..16).map(|cell| Some(cell % 4)).collect();
        let context = context(4, &columns);
        assert_eq!(regions(&context).len(), 4);
        assert_eq!(classic(&context).len(), 12);
    }

    #[test]
    fn chess_pairs() {
        let regions = vec![None; 81];
        let context = context(9, &regions);
        // Each knight move once: 2 × (8 × 7) for each of the two shapes.
        assert_eq!(anti_knight(&context).len(), 4 * 8 * 7);
        assert_eq!(anti_king(&context).len(), 2 * 8 * 8);
        let long = vec![Cell { row: 0, col: 0 }; 3];
        assert!(distinct(&long, &context).is_empty(), "one cell repeated");
    }
}
