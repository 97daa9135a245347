//! Rules on single cells and small groups: odd, even, pencil-mark candidates, minimum,
//! maximum and quadruple clues.

use std::collections::BTreeSet;

use super::pairs::Pair;
use crate::variant::model::Cell;
use crate::variant::propagate::{Context, Contradiction, Mask, Propagator};

/// A cell that may only hold some digits.
#[derive(Debug)]
struct Restrict {
    cell: [usize; 1],
    allowed: Mask,
}

impl Propagator for Restrict {
    fn cells(&self) -> &[usize] {
        &self.cell
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let mask = masks[self.cell[0]] & self.allowed;
        if mask == 0 {
            return Err(Contradiction);
        }
        masks[self.cell[0]] = mask;
        Ok(())
    }
}

/// The bit of `digit`, or no bit when the grid has no such digit.
fn digit_bit(digit: u32, context: &Context) -> Mask {
    if (1..=context.size as u32).contains(&digit) {
        1 << (digit - 1)
    } else {
        0
    }
}

/// The cell may hold only the digits `keep` accepts.
fn restrict(cell: Cell, context: &Context, keep: impl Fn(u32) -> bool) -> Vec<Box<dyn Propagator>> {
    let allowed = (1..=context.size as u32)
        .filter(|&digit| keep(digit))
        .fold(0, |mask, digit| mask | digit_bit(digit, context));
    vec![Box::new(Restrict {
        cell: [context.index(cell)],
        allowed,
    })]
}

/// The cell holds an odd digit.
pub(super) fn odd(cell: Cell, context: &Context) -> Vec<Box<dyn Propagator>> {
    restrict(cell, context, |digit| digit % 2 == 1)
}

/// The cell holds an even digit.
pub(super) fn even(cell: Cell, context: &Context) -> Vec<Box<dyn Propagator>> {
    restrict(cell, context, |digit| digit % 2 == 0)
}

/// The cell holds one of `digits` (those outside the grid's digits are ignored).
pub(super) fn candidates(cell: Cell, digits: &[u8], context: &Context) -> Vec<Box<dyn Propagator>> {
    restrict(cell, context, |digit| digits.contains(&(digit as u8)))
}

/// The cell is less than each orthogonal neighbour, except neighbours that are minimum
/// cells too (as in the peer).
pub(super) fn minimum(cell: Cell, context: &Context) -> Vec<Box<dyn Propagator>> {
    against_neighbours(cell, context, &context.drawn.minimum, |own, neighbour| {
        own < neighbour
    })
}

/// The cell is greater than each orthogonal neighbour, except neighbours that are maximum
/// cells too (as in the peer).
pub(super) fn maximum(cell: Cell, context: &Context) -> Vec<Box<dyn Propagator>> {
    against_neighbours(cell, context, &context.drawn.maximum, |own, neighbour| {
        own > neighbour
    })
}

/// A pair between `cell` and each orthogonal neighbour not in `marked` (row-major):
/// `allowed(own digit, neighbour's digit)`.
fn against_neighbours(
    cell: Cell,
    context: &Context,
    marked: &BTreeSet<usize>,
    allowed: fn(u32, u32) -> bool,
) -> Vec<Box<dyn Propagator>> {
    let size = context.size;
    let neighbours = [
        (cell.row > 0).then(|| Cell {
            row: cell.row - 1,
            ..cell
        }),
        (cell.row + 1 < size).then(|| Cell {
            row: cell.row + 1,
            ..cell
        }),
        (cell.col > 0).then(|| Cell {
            col: cell.col - 1,
            ..cell
        }),
        (cell.col + 1 < size).then(|| Cell {
            col: cell.col + 1,
            ..cell
        }),
    ];
    neighbours
        .into_iter()
        .flatten()
        .filter(|&neighbour| !marked.contains(&context.index(neighbour)))
        .map(|neighbour| {
            let pair = Pair::new(
                context.index(cell),
                context.index(neighbour),
                context,
                allowed,
            );
            Box::new(pair) as Box<dyn Propagator>
        })
        .collect()
}

/// Cells that must hold some digits at least so many times each.
#[derive(Debug)]
struct Quadruple {
    cells: Vec<usize>,
    /// Each listed digit's bit (0 for a digit the grid does not have) and how many times it
    /// must appear.
    required: Vec<(Mask, usize)>,
    /// The bits of the listed digits.
    listed: Mask,
    /// Whether the listed digits take every cell.
    no_room: bool,
}

impl Quadruple {
    /// One pass; whether it narrowed a mask.
    fn pass(&self, masks: &mut [Mask]) -> Result<bool, Contradiction> {
        let mut changed = false;
        for &(bit, count) in &self.required {
            let holders = self
                .cells
                .iter()
                .filter(|&&cell| masks[cell] & bit != 0)
                .count();
            if holders < count {
                return Err(Contradiction);
            }
            if holders == count {
                for &cell in &self.cells {
                    if masks[cell] & bit != 0 && masks[cell] != bit {
                        masks[cell] = bit;
                        changed = true;
                    }
                }
            }
        }
        if self.no_room {
            for &cell in &self.cells {
                let mask = masks[cell] & self.listed;
                if mask == 0 {
                    return Err(Contradiction);
                }
                if mask != masks[cell] {
                    masks[cell] = mask;
                    changed = true;
                }
            }
        }
        Ok(changed)
    }
}

impl Propagator for Quadruple {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        while self.pass(masks)? {}
        Ok(())
    }
}

/// Each of `digits` appears among `cells` at least as often as it is listed.
pub(super) fn quadruple(
    cells: &[Cell],
    digits: &[u8],
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    let mut required: Vec<(Mask, usize)> = Vec::new();
    for &digit in digits {
        let bit = digit_bit(u32::from(digit), context);
        match required
            .iter_mut()
            .find(|(listed, _)| *listed == bit && bit != 0)
        {
            Some((_, count)) => *count += 1,
            None => required.push((bit, 1)),
        }
    }
    let cells: Vec<usize> = cells.iter().map(|&cell| context.index(cell)).collect();
    let listed = required.iter().fold(0, |mask, &(bit, _)| mask | bit);
    let no_room = digits.len() >= cells.len();
    vec![Box::new(Quadruple {
        cells,
        required,
        listed,
        no_room,
    })]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::constraints::{Drawn, NOTHING_DRAWN};
    use crate::variant::model::{Constraint, Origin, Rule};

    fn at(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

    #[test]
    fn parity_and_candidates() {
        let regions = vec![None; 16];
        let context = Context {
            size: 4,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let mut masks = vec![0b1111; 16];
        odd(at(0, 0), &context)[0].propagate(&mut masks).unwrap();
        even(at(0, 1), &context)[0].propagate(&mut masks).unwrap();
        candidates(at(0, 2), &[3, 4, 9], &context)[0]
            .propagate(&mut masks)
            .unwrap();
        assert_eq!(masks[..3], [0b0101, 0b1010, 0b1100]);
        masks[3] = 0b0010;
        assert!(odd(at(0, 3), &context)[0].propagate(&mut masks).is_err());
    }

    #[test]
    fn minimum_skips_minimum_neighbours() {
        let regions = vec![None; 16];
        let context = Context {
            size: 4,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let rule = |cell| Constraint {
            origin: Origin {
                kind: "minimum".into(),
                index: 0,
            },
            rule: Rule::Minimum(cell),
        };
        let drawn = Drawn::of(&[rule(at(0, 0)), rule(at(0, 1))], 4);
        let context = Context {
            drawn: &drawn,
            ..context
        };
        assert_eq!(minimum(at(0, 0), &context).len(), 1);
        assert_eq!(maximum(at(0, 0), &context).len(), 2);
        assert_eq!(minimum(at(1, 1), &context).len(), 3);
    }

    #[test]
    fn quadruple_places_and_fails() {
        let regions = vec![None; 16];
        let context = Context {
            size: 4,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let cells = [at(0, 0), at(0, 1), at(1, 0), at(1, 1)];
        let quad = &quadruple(&cells, &[1, 1, 2], &context)[0];
        let mut masks = vec![0b1111; 16];
        masks[0] = 0b1110;
        masks[1] = 0b1110;
        quad.propagate(&mut masks).unwrap();
        assert_eq!([masks[4], masks[5]], [0b0001, 0b0001]);
        masks[0] = 0b1000;
        masks[1] = 0b1000;
        assert!(quad.propagate(&mut masks).is_err(), "no room for the 2");
        let wrong = &quadruple(&cells, &[7], &context)[0];
        assert!(wrong.propagate(&mut [0b1111; 16]).is_err());
    }
}
