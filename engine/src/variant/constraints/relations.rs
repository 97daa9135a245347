//! Relations between cells anywhere in the grid: clones and indexers.

use super::lines::Pairs;
use crate::variant::model::{Cell, Indexer};
use crate::variant::propagate::{Context, Contradiction, Mask, Propagator};

/// The cells and their clones hold the same digits, cell for cell.
pub(super) fn clone(
    cells: &[Cell],
    clones: &[Cell],
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    let mut pairs = Pairs::new();
    let equal = pairs.relation(context.size, |a, b| a == b);
    for (&cell, &clone) in cells.iter().zip(clones) {
        let (a, b) = (context.index(cell), context.index(clone));
        if a != b {
            pairs.add(a, b, equal);
        }
    }
    pairs.boxed()
}

/// One indexer cell: when it holds digit d, the cell `targets[d - 1]` (if any) holds
/// `digit`. Each implication is kept exactly.
#[derive(Debug)]
struct Index {
    /// The indexer cell, then the cells it may point at.
    cells: Vec<usize>,
    /// The cell each digit points at.
    targets: Vec<Option<usize>>,
    /// The digit the pointed cell must hold, as a mask.
    digit: Mask,
}

impl Propagator for Index {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let cell = self.cells[0];
        let mut keep = 0;
        let mut digits = masks[cell];
        while digits != 0 {
            let index = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            match self.targets.get(index).copied().flatten() {
                Some(target) if target != cell && masks[target] & self.digit == 0 => {}
                Some(target) if target == cell && self.digit != 1 << index => {}
                _ => keep |= 1 << index,
            }
        }
        if keep == 0 {
            return Err(Contradiction);
        }
        masks[cell] = keep;
        if keep & (keep - 1) == 0
            && let Some(Some(target)) = self.targets.get(keep.trailing_zeros() as usize)
        {
            masks[*target] &= self.digit;
            if masks[*target] == 0 {
                return Err(Contradiction);
            }
        }
        Ok(())
    }
}

/// Indexer cells: a cell's digit gives the position, in its row, column or region, of
/// the digit that is its own position in the other direction (see [`Indexer`]).
pub(super) fn indexer(
    indexer: Indexer,
    cells: &[Cell],
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    let size = context.size;
    let mut propagators: Vec<Box<dyn Propagator>> = Vec::new();
    for &cell in cells {
        let index = context.index(cell);
        let (targets, digit): (Vec<Option<usize>>, usize) = match indexer {
            Indexer::Row => (
                (0..size).map(|col| Some(cell.row * size + col)).collect(),
                cell.col + 1,
            ),
            Indexer::Column => (
                (0..size).map(|row| Some(row * size + cell.col)).collect(),
                cell.row + 1,
            ),
            Indexer::Box => {
                let Some(region) = context.regions[index] else {
                    continue;
                };
                let members: Vec<usize> = (0..size * size)
                    .filter(|&other| context.regions[other] == Some(region))
                    .collect();
                let position = members
                    .iter()
                    .position(|&other| other == index)
                    .expect("in it");
                (members.into_iter().map(Some).collect(), position + 1)
            }
        };
        if digit > size {
            continue;
        }
        let mut read = vec![index];
        read.extend(targets.iter().flatten().filter(|&&target| target != index));
        propagators.push(Box::new(Index {
            cells: read,
            targets,
            digit: 1 << (digit - 1),
        }));
    }
    propagators
}

#[cfg(test)]
mod tests {
    use super::super::lines::harness::{below, check, random_cells, regions, rng};
    use super::*;

    #[test]
    fn clones() {
        let mut rng = rng(31);
        for size in [4, 5, 6, 9] {
            let regions = regions(size);
            let context = Context {
                size,
                regions: &regions,
            };
            for _ in 0..15 {
                let length = 1 + below(&mut rng, 3);
                let cells = random_cells(&mut rng, size, length);
                let clones = random_cells(&mut rng, size, length);
                let propagators = clone(&cells, &clones, &context);
                let pairs: Vec<(usize, usize)> = cells
                    .iter()
                    .zip(&clones)
                    .map(|(&a, &b)| (context.index(a), context.index(b)))
                    .collect();
                let holds = |grid: &[u32]| pairs.iter().all(|&(a, b)| grid[a] == grid[b]);
                let mut read = cells.clone();
                read.extend(&clones);
                check(&mut rng, size, &propagators, &read, &holds, 6);
            }
        }
    }

    #[test]
    fn indexers() {
        let mut rng = rng(32);
        for size in [3, 4, 5] {
            let regions = regions(size);
            let context = Context {
                size,
                regions: &regions,
            };
            for kind in [Indexer::Row, Indexer::Column, Indexer::Box] {
                for _ in 0..10 {
                    let count = 1 + below(&mut rng, 2);
                    let cells = random_cells(&mut rng, size, count);
                    let propagators = indexer(kind, &cells, &context);
                    let holds = |grid: &[u32]| {
                        cells.iter().all(|&cell| {
                            let digit = grid[context.index(cell)] as usize;
                            match kind {
                                Indexer::Row => {
                                    grid[cell.row * size + digit - 1] as usize == cell.col + 1
                                }
                                Indexer::Column => {
                                    grid[(digit - 1) * size + cell.col] as usize == cell.row + 1
                                }
                                Indexer::Box => {
                                    let region = regions[context.index(cell)];
                                    let members: Vec<usize> = (0..size * size)
                                        .filter(|&other| regions[other] == region)
                                        .collect();
                                    let position = members
                                        .iter()
                                        .position(|&other| other == context.index(cell))
                                        .unwrap();
                                    grid[members[digit - 1]] as usize == position + 1
                                }
                            }
                        })
                    };
                    check(&mut rng, size, &propagators, &cells, &holds, 4);
                }
            }
        }
    }
}
