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

/// The most cells whose sums [`small_supports`] tracks.
pub(super) const SMALL_CELLS: usize = 32;

/// The sums (below 128, as bits) `sums` reach once a digit of `digits` is added.
pub(super) fn shifted_left(sums: u128, mut digits: Mask) -> u128 {
    let mut reached = 0;
    while digits != 0 {
        reached |= sums << (digits.trailing_zeros() + 1);
        digits &= digits - 1;
    }
    reached
}

/// The sums from which adding a digit of `digits` reaches one of `sums` (as bits).
fn shifted_right(sums: u128, mut digits: Mask) -> u128 {
    let mut reached = 0;
    while digits != 0 {
        reached |= sums >> (digits.trailing_zeros() + 1);
        digits &= digits - 1;
    }
    reached
}

/// [`sum_supports`] on the stack, for at most [`SMALL_CELLS`] masks whose highest digits
/// add up to less than 128: the digits of each mask that some choice of the others
/// completes to a sum in `targets` (as bits), written to `keep`; false when no target is
/// reached.
pub(super) fn small_supports(masks: &[Mask], targets: u128, keep: &mut [Mask]) -> bool {
    let mut prefix = [0u128; SMALL_CELLS + 1];
    prefix[0] = 1;
    for (i, &mask) in masks.iter().enumerate() {
        prefix[i + 1] = shifted_left(prefix[i], mask);
    }
    if prefix[masks.len()] & targets == 0 {
        return false;
    }
    // after: the sums of the cells before i from which cells i.. reach a target.
    let mut after = targets;
    for i in (0..masks.len()).rev() {
        let mut kept = 0;
        let mut digits = masks[i];
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            if (prefix[i] << (bit.trailing_zeros() + 1)) & after != 0 {
                kept |= bit;
            }
        }
        keep[i] = kept;
        after = shifted_right(after, kept);
    }
    true
}

/// Groups of cells (repeats allowed within a group) that all add up to the same sum, or
/// to a fixed one. Exact when no cell is in two groups.
#[derive(Debug)]
pub(super) struct EqualSums {
    cells: Vec<usize>,
    groups: Vec<Vec<usize>>,
    fixed: Option<usize>,
    most: usize,
    /// Whether every sum stays below 128, for [`EqualSums::propagate_small`].
    small: bool,
}

impl EqualSums {
    /// The groups; `fixed`, the sum they must reach if it is given.
    pub(super) fn new(groups: Vec<Vec<usize>>, fixed: Option<u32>, size: usize) -> EqualSums {
        let longest = groups.iter().map(Vec::len).max().unwrap_or(0);
        EqualSums {
            cells: sorted_distinct(groups.iter().flatten().copied()),
            most: longest * size,
            small: longest * size < 128 && longest <= SMALL_CELLS,
            groups,
            fixed: fixed.map(|sum| sum as usize),
        }
    }

    /// [`Propagator::propagate`] with the sums as bits of a `u128`, on the stack.
    fn propagate_small(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let mut targets = match self.fixed {
            Some(sum) if sum < 128 => 1 << sum,
            Some(_) => 0,
            None => u128::MAX,
        };
        for group in &self.groups {
            let mut reach = 1;
            for &cell in group {
                reach = shifted_left(reach, masks[cell]);
            }
            targets &= reach;
        }
        if targets == 0 {
            return Err(Contradiction);
        }
        let (mut line, mut keep) = ([0; SMALL_CELLS], [0; SMALL_CELLS]);
        for group in &self.groups {
            for (mask, &cell) in line.iter_mut().zip(group) {
                *mask = masks[cell];
            }
            if !small_supports(&line[..group.len()], targets, &mut keep) {
                return Err(Contradiction);
            }
            for (&kept, &cell) in keep.iter().zip(group) {
                masks[cell] &= kept;
                if masks[cell] == 0 {
                    return Err(Contradiction);
                }
            }
        }
        Ok(())
    }
}

impl Propagator for EqualSums {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        if self.small {
            self.propagate_small(masks)
        } else {
            self.propagate_wide(masks)
        }
    }
}

impl EqualSums {
    /// [`Propagator::propagate`] with sums of any size.
    fn propagate_wide(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
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

#[cfg(test)]
mod tests {
    use super::super::harness::{below, rng};
    use super::*;
    use rand_chacha::rand_core::RngCore;

    #[test]
    fn small_equal_sums_narrow_as_wide_ones() {
        let mut rng = rng(25);
        for size in [4, 6, 9] {
            let all: Mask = (1 << size) - 1;
            for _ in 0..300 {
                let groups: Vec<Vec<usize>> = (0..2 + below(&mut rng, 2))
                    .map(|_| {
                        (0..1 + below(&mut rng, 4))
                            .map(|_| below(&mut rng, size * size))
                            .collect()
                    })
                    .collect();
                let fixed = (below(&mut rng, 2) == 0).then(|| below(&mut rng, 4 * size) as u32);
                let sums = EqualSums::new(groups, fixed, size);
                assert!(sums.small);
                let masks: Vec<Mask> = (0..size * size)
                    .map(|_| match rng.next_u32() & rng.next_u32() & all {
                        0 => all,
                        mask => mask,
                    })
                    .collect();
                let (mut small, mut wide) = (masks.clone(), masks);
                let small = sums.propagate_small(&mut small).map(|()| small);
                let wide = sums.propagate_wide(&mut wide).map(|()| wide);
                // Both exact when no cell is in two groups.
                let distinct = sorted_distinct(sums.groups.iter().flatten().copied()).len()
                    == sums.groups.iter().map(Vec::len).sum::<usize>();
                if distinct {
                    assert_eq!(small, wide);
                }
            }
        }
    }
}
