//! Sums of groups of cells: which totals their digits can reach, which digits reach a
//! target, and groups held to one sum (region sum lines, and the outside clues).

use super::sorted_distinct;
use super::tables::low;
use crate::variant::propagate::{Contradiction, Mask, Propagator};

/// A set of sums, as bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Sums(Vec<u64>);

impl Sums {
    /// No sum, with room for sums up to `most`.
    pub(super) fn empty(most: usize) -> Sums {
        Sums(vec![0; most / 64 + 1])
    }

    /// Only `sum` (none when it is beyond `most`).
    pub(super) fn single(sum: usize, most: usize) -> Sums {
        let mut sums = Sums::empty(most);
        if sum <= most {
            sums.0[sum / 64] |= 1 << (sum % 64);
        }
        sums
    }

    /// Whether `sum` is in the set.
    pub(super) fn has(&self, sum: usize) -> bool {
        self.0
            .get(sum / 64)
            .is_some_and(|word| word >> (sum % 64) & 1 != 0)
    }

    /// Whether the set is empty.
    pub(super) fn is_empty(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }

    /// Keeps the sums also in `other`.
    pub(super) fn and(&mut self, other: &Sums) {
        for (word, other) in self.0.iter_mut().zip(&other.0) {
            *word &= other;
        }
    }

    /// Adds every sum of `other` raised by `by` (those beyond the room are dropped).
    fn or_raised(&mut self, other: &Sums, by: usize) {
        let (words, bits) = (by / 64, by % 64);
        let length = self.0.len();
        for index in (words..length).rev() {
            let from = index - words;
            let mut word = other.0[from] << bits;
            if bits != 0 && from > 0 {
                word |= other.0[from - 1] >> (64 - bits);
            }
            self.0[index] |= word;
        }
    }

    /// Adds every sum of `other` lowered by `by` (those below zero are dropped).
    fn or_lowered(&mut self, other: &Sums, by: usize) {
        let (words, bits) = (by / 64, by % 64);
        let length = self.0.len();
        for index in 0..length.saturating_sub(words) {
            let from = index + words;
            let mut word = other.0[from] >> bits;
            if bits != 0 && from + 1 < length {
                word |= other.0[from + 1] << (64 - bits);
            }
            self.0[index] |= word;
        }
    }

    /// Whether some sum of `self` raised by `by` is in `other`.
    fn meets_raised(&self, other: &Sums, by: usize) -> bool {
        let (words, bits) = (by / 64, by % 64);
        let length = self.0.len().min(other.0.len());
        (words..length).any(|index| {
            let from = index - words;
            let mut word = self.0[from] << bits;
            if bits != 0 && from > 0 {
                word |= self.0[from - 1] >> (64 - bits);
            }
            word & other.0[index] != 0
        })
    }
}

/// The sums that cells of these masks (repeats allowed) can make, after each prefix: the
/// first is {0}, the last the sums of all of them. Room for sums up to `most`.
pub(super) fn prefix_sums(masks: &[Mask], most: usize) -> Vec<Sums> {
    let mut sums = Vec::with_capacity(masks.len() + 1);
    sums.push(Sums::single(0, most));
    for &mask in masks {
        let before = sums.last().expect("one at least");
        let mut after = Sums::empty(most);
        let mut digits = mask;
        while digits != 0 {
            let digit = low(digits);
            digits &= digits - 1;
            after.or_raised(before, digit as usize);
        }
        sums.push(after);
    }
    sums
}

/// The digits of each mask that some choice of the others (from `prefix`, as
/// [`prefix_sums`] made it) completes to a sum in `targets`.
pub(super) fn sum_supports(masks: &[Mask], prefix: &[Sums], targets: &Sums) -> Vec<Mask> {
    let most = 64 * targets.0.len() - 1;
    let mut keep = vec![0; masks.len()];
    // `rest`: what the cells before the current one must add up to, with those after it.
    let mut rest = targets.clone();
    let mut before = Sums::empty(most);
    for index in (0..masks.len()).rev() {
        let mut digits = masks[index];
        before.0.fill(0);
        while digits != 0 {
            let digit = low(digits);
            digits &= digits - 1;
            if prefix[index].meets_raised(&rest, digit as usize) {
                keep[index] |= 1 << (digit - 1);
                before.or_lowered(&rest, digit as usize);
            }
        }
        std::mem::swap(&mut rest, &mut before);
    }
    keep
}

/// Groups of cells (repeats allowed within a group) that all add up to the same sum, or
/// to a fixed one. Exact when no cell is in two groups.
#[derive(Debug)]
pub(super) struct EqualSums {
    cells: Vec<usize>,
    groups: Vec<Vec<usize>>,
    fixed: Option<usize>,
    most: usize,
}

impl EqualSums {
    /// The groups; `fixed`, the sum they must reach if it is given.
    pub(super) fn new(groups: Vec<Vec<usize>>, fixed: Option<u32>, size: usize) -> EqualSums {
        let longest = groups.iter().map(Vec::len).max().unwrap_or(0);
        EqualSums {
            cells: sorted_distinct(groups.iter().flatten().copied()),
            most: longest * size,
            groups,
            fixed: fixed.map(|sum| sum as usize),
        }
    }
}

impl Propagator for EqualSums {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let mut targets = match self.fixed {
            Some(sum) => Sums::single(sum, self.most),
            None => {
                let mut all = Sums::empty(self.most);
                all.0.iter_mut().for_each(|word| *word = u64::MAX);
                all
            }
        };
        let mut all_masks = Vec::with_capacity(self.groups.len());
        let mut all_prefixes = Vec::with_capacity(self.groups.len());
        for group in &self.groups {
            let group_masks: Vec<Mask> = group.iter().map(|&cell| masks[cell]).collect();
            if group_masks.contains(&0) {
                return Err(Contradiction);
            }
            let prefix = prefix_sums(&group_masks, self.most);
            targets.and(prefix.last().expect("one at least"));
            all_masks.push(group_masks);
            all_prefixes.push(prefix);
        }
        if targets.is_empty() {
            return Err(Contradiction);
        }
        for ((group, group_masks), prefix) in self.groups.iter().zip(&all_masks).zip(&all_prefixes)
        {
            let keep = sum_supports(group_masks, prefix, &targets);
            for (&cell, &kept) in group.iter().zip(&keep) {
                let mask = masks[cell] & kept;
                if mask == 0 {
                    return Err(Contradiction);
                }
                masks[cell] = mask;
            }
        }
        Ok(())
    }
}
