//! Relations between two cells given as tables of digits, and the digit bounds of masks
//! that the line, outside-clue and relation rules share.

use crate::variant::propagate::{Contradiction, Mask, Propagator};

/// The lowest digit of a non-empty mask.
pub(super) fn low(mask: Mask) -> u32 {
    mask.trailing_zeros() + 1
}

/// The highest digit of a non-empty mask.
pub(super) fn high(mask: Mask) -> u32 {
    Mask::BITS - mask.leading_zeros()
}

/// The digits from `from` to `to`, inclusive (empty when `from > to`); digits outside
/// 1..=32 are dropped.
pub(super) fn range(from: u32, to: u32) -> Mask {
    let from = from.max(1);
    let to = to.min(32);
    if from > to {
        return 0;
    }
    let upper = if to == 32 { Mask::MAX } else { (1 << to) - 1 };
    upper & !((1 << (from - 1)) - 1)
}

/// Pairs of cells in a relation, given as a table: for each digit of the first cell, the
/// digits the second may hold. Arc consistency over every pair, to a fixed point: exact
/// for each pair, and a broken pair of filled cells empties a mask.
#[derive(Debug)]
pub(super) struct Pairs {
    cells: Vec<usize>,
    /// The first cell, the second, and the index of their table.
    arcs: Vec<(usize, usize, usize)>,
    /// For each relation: the digits of the second cell allowed by each digit of the
    /// first, then those of the first allowed by each digit of the second.
    tables: Vec<([Mask; 32], [Mask; 32])>,
}

impl Pairs {
    /// No pairs yet.
    pub(super) fn new() -> Pairs {
        Pairs {
            cells: Vec::new(),
            arcs: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// Adds a relation (digits 1 to `size`); its index for [`Pairs::add`].
    pub(super) fn relation(&mut self, size: usize, related: impl Fn(u32, u32) -> bool) -> usize {
        let (mut forward, mut backward) = ([0; 32], [0; 32]);
        for a in 1..=size as u32 {
            for b in 1..=size as u32 {
                if related(a, b) {
                    forward[a as usize - 1] |= 1 << (b - 1);
                    backward[b as usize - 1] |= 1 << (a - 1);
                }
            }
        }
        self.tables.push((forward, backward));
        self.tables.len() - 1
    }

    /// Requires `relation` between the digits of `first` and `second`.
    pub(super) fn add(&mut self, first: usize, second: usize, relation: usize) {
        self.arcs.push((first, second, relation));
        for cell in [first, second] {
            if !self.cells.contains(&cell) {
                self.cells.push(cell);
            }
        }
    }

    /// Whether no pair was added.
    pub(super) fn is_empty(&self) -> bool {
        self.arcs.is_empty()
    }

    /// The propagator, or none when there is no pair.
    pub(super) fn boxed(self) -> Vec<Box<dyn Propagator>> {
        if self.is_empty() {
            Vec::new()
        } else {
            vec![Box::new(self)]
        }
    }
}

/// Each pair of cells holds equal digits (a pair of one cell twice adds nothing).
pub(super) fn equal_pairs(
    pairs: impl IntoIterator<Item = (usize, usize)>,
    size: usize,
) -> Vec<Box<dyn Propagator>> {
    let mut table = Pairs::new();
    let equal = table.relation(size, |a, b| a == b);
    for (a, b) in pairs {
        if a != b {
            table.add(a, b, equal);
        }
    }
    table.boxed()
}

/// The digits of `mask` that some digit of `other` supports through `table`.
fn supported(mask: Mask, other: Mask, table: &[Mask; 32]) -> Mask {
    let mut kept = 0;
    let mut digits = mask;
    while digits != 0 {
        let index = digits.trailing_zeros();
        digits &= digits - 1;
        if table[index as usize] & other != 0 {
            kept |= 1 << index;
        }
    }
    kept
}

impl Propagator for Pairs {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    /// Its arcs are run to a fixed point.
    fn idempotent(&self) -> bool {
        true
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        loop {
            let mut changed = false;
            for &(first, second, relation) in &self.arcs {
                let (forward, backward) = &self.tables[relation];
                let (a, b) = (masks[first], masks[second]);
                let new_a = supported(a, b, forward);
                if new_a == 0 {
                    return Err(Contradiction);
                }
                let new_b = supported(b, new_a, backward);
                if new_b == 0 {
                    return Err(Contradiction);
                }
                if new_a != a || new_b != b {
                    masks[first] = new_a;
                    masks[second] = new_b;
                    changed = true;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}
