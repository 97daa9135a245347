//! Relations between cells anywhere in the grid: clones and indexers.

use super::tables::equal_pairs;
use crate::variant::model::{Cell, Indexer};
use crate::variant::propagate::{Context, Contradiction, Mask, Propagator};

/// The cells and their clones hold the same digits, cell for cell.
pub(super) fn clone(
    cells: &[Cell],
    clones: &[Cell],
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    let pairs = cells.iter().zip(clones);
    let pairs = pairs.map(|(&cell, &clone)| (context.index(cell), context.index(clone)));
    equal_pairs(pairs, context.size)
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

/// Indexer cells, as f-puzzles and the peer read them (rows, columns and positions count
/// from 1; a region's positions are its cells in reading order):
/// - [`Indexer::Row`] (f-puzzles `rowindexer`): a digit v in row r, column c says that
///   row v of column c holds r: the digit names a row.
/// - [`Indexer::Column`] (`columnindexer`): a digit v in row r, column c says that column
///   v of row r holds c: the digit names a column.
/// - [`Indexer::Box`] (`boxindexer`): a digit v at position p of its region says that
///   position v of that region holds p; a cell in no region states nothing.
///
/// Only the indexer cells state anything: the cell a digit points at need not point back.
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
                (0..size).map(|row| Some(row * size + cell.col)).collect(),
                cell.row + 1,
            ),
            Indexer::Column => (
                (0..size).map(|col| Some(cell.row * size + col)).collect(),
                cell.col + 1,
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
    use super::super::harness::{Seen, below, check, random_cells, regions, rng};
    use super::*;
    use crate::variant::constraints::NOTHING_DRAWN;

    #[test]
    fn clone_promises() {
        let mut rng = rng(31);
        let mut seen = Seen::default();
        for size in [4, 5, 6, 9] {
            let regions = regions(size);
            let context = Context {
                size,
                regions: &regions,
                drawn: &NOTHING_DRAWN,
            };
            for _ in 0..15 {
                let length = 1 + below(&mut rng, 3);
                // Clones may overlap their originals, chaining equal cells.
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
                seen += check(&mut rng, size, &propagators, &read, &holds, 6, true);
            }
        }
        seen.assert_useful(20);
    }

    #[test]
    fn indexer_promises() {
        let mut rng = rng(32);
        let mut seen = Seen::default();
        for size in [3, 4, 5, 6] {
            // The regions, one of them (sometimes) dropped: its cells are in no region.
            let mut regions = regions(size);
            let dropped = Some(below(&mut rng, 2 * size));
            for region in &mut regions {
                if *region == dropped {
                    *region = None;
                }
            }
            let context = Context {
                size,
                regions: &regions,
                drawn: &NOTHING_DRAWN,
            };
            for kind in [Indexer::Row, Indexer::Column, Indexer::Box] {
                for _ in 0..10 {
                    let count = 1 + below(&mut rng, 2);
                    let cells = random_cells(&mut rng, size, count);
                    let propagators = indexer(kind, &cells, &context);
                    let holds = |grid: &[u32]| {
                        cells.iter().all(|&cell| {
                            let (row, col) = (cell.row, cell.col);
                            let digit = grid[row * size + col] as usize;
                            match kind {
                                // The digit names a row of the cell's column.
                                Indexer::Row => grid[(digit - 1) * size + col] as usize == row + 1,
                                // The digit names a column of the cell's row.
                                Indexer::Column => grid[row * size + digit - 1] as usize == col + 1,
                                // The digit names a position of the cell's region.
                                Indexer::Box => {
                                    let Some(region) = regions[row * size + col] else {
                                        return true;
                                    };
                                    let members: Vec<usize> = (0..size * size)
                                        .filter(|&other| regions[other] == Some(region))
                                        .collect();
                                    let position = members
                                        .iter()
                                        .position(|&other| other == row * size + col)
                                        .unwrap();
                                    grid[members[digit - 1]] as usize == position + 1
                                }
                            }
                        })
                    };
                    // The cells the indexers may point at are read too.
                    let mut read = cells.clone();
                    for &cell in &cells {
                        read.extend(
                            (0..size * size)
                                .map(|i| Cell {
                                    row: i / size,
                                    col: i % size,
                                })
                                .filter(|other| match kind {
                                    Indexer::Row => other.col == cell.col,
                                    Indexer::Column => other.row == cell.row,
                                    Indexer::Box => {
                                        let region = regions[cell.row * size + cell.col];
                                        region.is_some()
                                            && regions[other.row * size + other.col] == region
                                    }
                                }),
                        );
                    }
                    seen += check(&mut rng, size, &propagators, &read, &holds, 4, false);
                }
            }
        }
        seen.assert_useful(20);
    }

    /// Whether every propagator of `kind` on the cells of `lines` (rows when `rows`)
    /// accepts the filled `grid`.
    fn accepts(kind: Indexer, rows: bool, lines: [usize; 3], grid: &str) -> bool {
        let regions = regions(9);
        let context = Context {
            size: 9,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let cells: Vec<Cell> = lines
            .iter()
            .flat_map(|&line| {
                (0..9).map(move |i| match rows {
                    true => Cell { row: line, col: i },
                    false => Cell { row: i, col: line },
                })
            })
            .collect();
        let mut masks: Vec<Mask> = grid.bytes().map(|b| 1 << (b - b'1')).collect();
        indexer(kind, &cells, &context)
            .iter()
            .all(|propagator| propagator.propagate(&mut masks).is_ok())
    }

    #[test]
    fn indexers_mean_what_f_puzzles_means() {
        // The solutions of Rangsk's "Row Indexing Test" (f-puzzles `rowindexer` in rows 1,
        // 5 and 9) and "Column Indexing Test" (`columnindexer` in columns 1, 5 and 9).
        let row_test = "752681934841539762396724815563498271418267593\
                        927153486184375629275916348639842157";
        let column_test = "158927634632541987974386251897654312361278549\
                           425139876213765498786493125549812763";
        assert!(accepts(Indexer::Row, true, [0, 4, 8], row_test));
        assert!(!accepts(Indexer::Column, true, [0, 4, 8], row_test));
        assert!(accepts(Indexer::Column, false, [0, 4, 8], column_test));
        assert!(!accepts(Indexer::Row, false, [0, 4, 8], column_test));
    }
}
