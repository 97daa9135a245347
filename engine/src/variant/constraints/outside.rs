//! Outside clues: little killers, sandwiches, X-sums and skyscrapers. Each reads the
//! cells of its diagonal, row or column in order from the clue.

use super::sums::{EqualSums, SMALL_CELLS, Sums, prefix_sums, small_supports, sum_supports};
use super::tables::low;
use crate::variant::model::Cell;
use crate::variant::propagate::{Context, Contradiction, Mask, Propagator};

/// The row-major indices of `cells`.
fn indices(cells: &[Cell], context: &Context) -> Vec<usize> {
    cells.iter().map(|&cell| context.index(cell)).collect()
}

/// The digits of the diagonal (repeats allowed) add up to `sum`.
pub(super) fn little_killer(
    cells: &[Cell],
    sum: u32,
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    let cells = indices(cells, context);
    vec![Box::new(EqualSums::new(
        vec![cells],
        Some(sum),
        context.size,
    ))]
}

/// A sandwich: the line holds one 1 and one `size` (the crusts), every other cell another
/// digit, and the digits between the crusts add up to the sum (0 when they touch). Every
/// placement of the crusts is tried, with an exact sum between them: exact.
#[derive(Debug)]
struct Sandwich {
    cells: Vec<usize>,
    sum: usize,
    size: usize,
}

impl Propagator for Sandwich {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let small = self.cells.len() * self.size < 128 && self.cells.len() <= SMALL_CELLS;
        self.narrow(masks, small)
    }
}

impl Sandwich {
    /// [`Propagator::propagate`], with the sums as bits of a `u128` on the stack when
    /// `small` (for lines that add up to less than 128).
    fn narrow(&self, masks: &mut [Mask], small: bool) -> Result<(), Contradiction> {
        let count = self.cells.len();
        let (one, top): (Mask, Mask) = (1, 1 << (self.size - 1));
        let filling = ((1 << self.size) - 1) & !(one | top);
        let line: Vec<Mask> = self.cells.iter().map(|&cell| masks[cell]).collect();
        let inner: Vec<Mask> = line.iter().map(|&mask| mask & filling).collect();
        // Cells that can only be crusts.
        let crusts: Vec<usize> = (0..count).filter(|&i| inner[i] == 0).collect();
        if crusts.len() > 2 {
            return Err(Contradiction);
        }
        let most = count * self.size;
        let target = Sums::single(self.sum, most);
        let small_target = if self.sum < 128 { 1 << self.sum } else { 0 };
        let mut small_kept = [0; SMALL_CELLS];
        let mut keep = vec![0; count];
        for first in 0..count {
            if line[first] & (one | top) == 0 || crusts.iter().any(|&i| i < first) {
                continue;
            }
            let prefix = if small {
                Vec::new()
            } else {
                prefix_sums(&inner[first + 1..], most)
            };
            for second in first + 1..count {
                if crusts.iter().any(|&i| i != first && i != second) {
                    continue;
                }
                let rising = line[first] & one != 0 && line[second] & top != 0;
                let falling = line[first] & top != 0 && line[second] & one != 0;
                if !(rising || falling) {
                    continue;
                }
                let between = second - first - 1;
                let middle = &inner[first + 1..second];
                let wide_kept;
                let kept = if small {
                    if !small_supports(middle, small_target, &mut small_kept) {
                        continue;
                    }
                    &small_kept[..between]
                } else {
                    if !prefix[between].has(self.sum) {
                        continue;
                    }
                    wide_kept = sum_supports(middle, &prefix[..=between], &target);
                    &wide_kept[..]
                };
                keep[first] |= if rising { one } else { 0 } | if falling { top } else { 0 };
                keep[second] |= if rising { top } else { 0 } | if falling { one } else { 0 };
                for (index, keep) in keep.iter_mut().enumerate() {
                    *keep |= if index < first || index > second {
                        inner[index]
                    } else if index > first && index < second {
                        kept[index - first - 1]
                    } else {
                        0
                    };
                }
            }
        }
        if keep.contains(&0) {
            return Err(Contradiction);
        }
        for (&cell, kept) in self.cells.iter().zip(keep) {
            masks[cell] &= kept;
        }
        Ok(())
    }
}

/// The digits between the 1 and the `size` of the row or column add up to `sum`.
pub(super) fn sandwich(cells: &[Cell], sum: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    vec![Box::new(Sandwich {
        cells: indices(cells, context),
        sum: sum as usize,
        size: context.size,
    })]
}

/// An X-sum: the first digit, x, says how many cells from the clue add up to the sum.
/// Each x is tried, with an exact sum of the first x cells.
#[derive(Debug)]
struct XSum {
    cells: Vec<usize>,
    sum: usize,
    size: usize,
}

impl Propagator for XSum {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        if self.size * self.size < 128 {
            self.propagate_small(masks)
        } else {
            self.propagate_wide(masks)
        }
    }
}

impl XSum {
    /// [`Propagator::propagate`] with sums of any size.
    fn propagate_wide(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let line: Vec<Mask> = self.cells.iter().map(|&cell| masks[cell]).collect();
        if line.contains(&0) {
            return Err(Contradiction);
        }
        let mut keep = vec![0; line.len()];
        let mut digits = line[0];
        while digits != 0 {
            let x = low(digits) as usize;
            digits &= digits - 1;
            if x > line.len() {
                break;
            }
            let mut trial = line[..x].to_vec();
            trial[0] = 1 << (x - 1);
            let most = x * self.size;
            let prefix = prefix_sums(&trial, most);
            if !prefix[x].has(self.sum) {
                continue;
            }
            let kept = sum_supports(&trial, &prefix, &Sums::single(self.sum, most));
            if kept.contains(&0) {
                continue;
            }
            for (index, keep) in keep.iter_mut().enumerate() {
                *keep |= if index < x { kept[index] } else { line[index] };
            }
        }
        if keep.contains(&0) {
            return Err(Contradiction);
        }
        for (&cell, kept) in self.cells.iter().zip(keep) {
            masks[cell] &= kept;
        }
        Ok(())
    }

    /// [`Propagator::propagate`] with the sums as bits of a `u128`, on the stack, for
    /// grids whose lines add up to less than 128.
    fn propagate_small(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let length = self.cells.len();
        let (mut keep, mut trial, mut kept) = ([0; 16], [0; 16], [0; 16]);
        let mut digits = masks[self.cells[0]];
        while digits != 0 {
            let x = low(digits) as usize;
            digits &= digits - 1;
            if x > length || self.sum >= 128 {
                break;
            }
            for (mask, &cell) in trial.iter_mut().zip(&self.cells[..x]) {
                *mask = masks[cell];
            }
            trial[0] = 1 << (x - 1);
            if small_supports(&trial[..x], 1 << self.sum, &mut kept) && !kept[..x].contains(&0) {
                for (index, keep) in keep[..length].iter_mut().enumerate() {
                    *keep |= if index < x {
                        kept[index]
                    } else {
                        masks[self.cells[index]]
                    };
                }
            }
        }
        for (&cell, &kept) in self.cells.iter().zip(&keep) {
            masks[cell] &= kept;
            if masks[cell] == 0 {
                return Err(Contradiction);
            }
        }
        Ok(())
    }
}

/// The first digit read from the clue, x, says how many digits from the clue add up to
/// `sum`.
pub(super) fn x_sum(cells: &[Cell], sum: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    vec![Box::new(XSum {
        cells: indices(cells, context),
        sum: sum as usize,
        size: context.size,
    })]
}

/// A skyscraper clue, as the peer states it for a row: read from the clue, each digit is
/// either higher than every digit before it (seen) or lower than the highest of them
/// (hidden), never equal to it; the line reaches `size`; exactly `visible` digits are
/// seen. In a row, which holds each digit once, that is the usual rule. Exact: the
/// (highest digit, number seen) states reachable from the clue meet those from which the
/// far end is reached at (`size`, `visible`).
#[derive(Debug)]
struct Skyscraper {
    cells: Vec<usize>,
    visible: u32,
    size: usize,
}

/// For each highest digit so far (0 before any), the counts seen so far, as bits.
type States = [u32; 17];

impl Propagator for Skyscraper {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let count = self.cells.len();
        let size = self.size;
        if self.visible as usize > count || self.visible == 0 {
            return Err(Contradiction);
        }
        let line: Vec<Mask> = self.cells.iter().map(|&cell| masks[cell]).collect();
        let mut forward: Vec<States> = vec![[0; 17]; count + 1];
        forward[0][0] = 1;
        for index in 0..count {
            let mut next = [0; 17];
            for top in 0..=size {
                let seen = forward[index][top];
                if seen == 0 {
                    continue;
                }
                for digit in 1..=size {
                    if line[index] >> (digit - 1) & 1 == 0 {
                        continue;
                    }
                    if digit > top {
                        next[digit] |= seen << 1;
                    } else if digit < top {
                        next[top] |= seen;
                    }
                }
            }
            forward[index + 1] = next;
        }
        // `backward`: the states after a cell from which the rest reach the count.
        let mut backward: States = [0; 17];
        backward[size] = 1 << self.visible;
        let mut keep = vec![0; count];
        for index in (0..count).rev() {
            let mut before = [0; 17];
            for digit in 1..=size {
                if line[index] >> (digit - 1) & 1 == 0 {
                    continue;
                }
                let mut used = false;
                for top in 0..=size {
                    let after = if digit > top {
                        backward[digit] >> 1
                    } else if digit < top {
                        backward[top]
                    } else {
                        0
                    };
                    before[top] |= after;
                    if forward[index][top] & after != 0 {
                        used = true;
                    }
                }
                if used {
                    keep[index] |= 1 << (digit - 1);
                }
            }
            backward = before;
        }
        if keep.contains(&0) {
            return Err(Contradiction);
        }
        for (&cell, kept) in self.cells.iter().zip(keep) {
            masks[cell] &= kept;
        }
        Ok(())
    }
}

/// Seen from the clue, higher digits hiding lower ones, `visible` digits are seen (the
/// rule on the line alone is stated on the propagator: the line reaches `size`, and no
/// digit equals the highest before it).
pub(super) fn skyscraper(
    cells: &[Cell],
    visible: u32,
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    vec![Box::new(Skyscraper {
        cells: indices(cells, context),
        visible,
        size: context.size,
    })]
}

#[cfg(test)]
mod tests {
    use super::super::harness::{Seen, below, check, random_cells, regions, rng};
    use super::*;
    use crate::variant::constraints::NOTHING_DRAWN;
    use rand_chacha::ChaCha8Rng;

    /// A whole row or column read from a random side.
    fn random_line(rng: &mut ChaCha8Rng, size: usize) -> Vec<Cell> {
        let fixed = below(rng, size);
        let in_row = below(rng, 2) == 0;
        let mut cells: Vec<Cell> = (0..size)
            .map(|i| {
                if in_row {
                    Cell { row: fixed, col: i }
                } else {
                    Cell { row: i, col: fixed }
                }
            })
            .collect();
        if below(rng, 2) == 0 {
            cells.reverse();
        }
        cells
    }

    /// The digits 1 to `size` in a random order.
    fn permutation(rng: &mut ChaCha8Rng, size: usize) -> Vec<u32> {
        let mut digits: Vec<u32> = (1..=size as u32).collect();
        for i in (1..size).rev() {
            digits.swap(i, below(rng, i + 1));
        }
        digits
    }

    /// The sandwich sum of digits (the sum between the one 1 and the one `size`).
    fn sandwich_of(digits: &[u32], size: usize) -> Option<u32> {
        let ones: Vec<usize> = (0..digits.len()).filter(|&i| digits[i] == 1).collect();
        let tops: Vec<usize> = (0..digits.len())
            .filter(|&i| digits[i] == size as u32)
            .collect();
        let (&[one], &[top]) = (&ones[..], &tops[..]) else {
            return None;
        };
        Some(digits[one.min(top) + 1..one.max(top)].iter().sum())
    }

    /// The X-sum of digits: the first `digits[0]` of them added up.
    fn x_sum_of(digits: &[u32]) -> Option<u32> {
        let x = digits[0] as usize;
        (x <= digits.len()).then(|| digits[..x].iter().sum())
    }

    /// How many skyscrapers are seen, when the digits reach `size` and none equals the
    /// highest before it.
    fn skyscrapers_of(digits: &[u32], size: usize) -> Option<u32> {
        let (mut top, mut seen) = (0, 0);
        for &digit in digits {
            if digit == top {
                return None;
            }
            if digit > top {
                top = digit;
                seen += 1;
            }
        }
        (top == size as u32).then_some(seen)
    }

    /// Compiles a clue of a value on its cells.
    type Build<'a> = dyn Fn(&[Cell], u32, &Context) -> Vec<Box<dyn Propagator>> + 'a;

    /// Runs random clues of each size through `check`: the cells from `line`, the value
    /// from `value` (given the cells' count); what the checks met.
    fn clues(
        seed: u64,
        sizes: &[usize],
        line: &dyn Fn(&mut ChaCha8Rng, usize) -> Vec<Cell>,
        value: &dyn Fn(&mut ChaCha8Rng, usize, usize) -> u32,
        build: &Build<'_>,
        holds: &dyn Fn(&[u32], u32, usize) -> bool,
    ) -> Seen {
        let mut rng = rng(seed);
        let mut seen = Seen::default();
        for &size in sizes {
            let regions = regions(size);
            let context = Context {
                size,
                regions: &regions,
                drawn: &NOTHING_DRAWN,
            };
            for _ in 0..15 {
                let cells = line(&mut rng, size);
                let value = value(&mut rng, size, cells.len());
                let propagators = build(&cells, value, &context);
                let indices: Vec<usize> = cells.iter().map(|&cell| context.index(cell)).collect();
                let holds = |grid: &[u32]| {
                    let digits: Vec<u32> = indices.iter().map(|&cell| grid[cell]).collect();
                    holds(&digits, value, size)
                };
                seen += check(&mut rng, size, &propagators, &cells, &holds, 6, true);
            }
        }
        seen
    }

    #[test]
    fn little_killer_promises() {
        clues(
            21,
            &[4, 5, 6, 9],
            &|rng, size| {
                let length = 1 + below(rng, 5);
                random_cells(rng, size, length)
            },
            &|rng, size, length| (0..length).map(|_| below(rng, size) as u32 + 1).sum(),
            &little_killer,
            &|d, sum, _| d.iter().sum::<u32>() == sum,
        )
        .assert_useful(20);
    }

    #[test]
    fn sandwich_promises() {
        clues(
            22,
            &[3, 4, 5, 6],
            &random_line,
            &|rng, size, _| match below(rng, 4) {
                0 => below(rng, size * size) as u32,
                _ => sandwich_of(&permutation(rng, size), size).unwrap(),
            },
            &sandwich,
            &|d, sum, size| sandwich_of(d, size) == Some(sum),
        )
        .assert_useful(20);
    }

    #[test]
    fn x_sum_promises() {
        clues(
            23,
            &[3, 4, 5, 6],
            &random_line,
            &|rng, size, _| match below(rng, 4) {
                0 => below(rng, size * size) as u32 + 1,
                _ => x_sum_of(&permutation(rng, size)).unwrap(),
            },
            &x_sum,
            &|d, sum, _| x_sum_of(d) == Some(sum),
        )
        .assert_useful(20);
    }

    #[test]
    fn skyscraper_promises() {
        clues(
            24,
            &[3, 4, 5, 6],
            &random_line,
            &|rng, size, _| match below(rng, 4) {
                0 => below(rng, size + 1) as u32,
                _ => skyscrapers_of(&permutation(rng, size), size).unwrap(),
            },
            &skyscraper,
            &|d, visible, size| skyscrapers_of(d, size) == Some(visible),
        )
        .assert_useful(20);
    }

    #[test]
    fn skyscraper_of_one_is_the_tallest_first() {
        let regions = regions(9);
        let context = Context {
            size: 9,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let row: Vec<Cell> = (0..9).map(|col| Cell { row: 0, col }).collect();
        let mut masks = vec![0b1_1111_1111; 81];
        skyscraper(&row, 1, &context)[0]
            .propagate(&mut masks)
            .unwrap();
        assert_eq!(masks[0], 0b1_0000_0000);
        assert!(masks[1..9].iter().all(|&mask| mask == 0b0_1111_1111));
    }

    /// Random masks, mostly narrow, on a grid of `size`.
    fn random_masks(rng: &mut ChaCha8Rng, size: usize) -> Vec<Mask> {
        use rand_chacha::rand_core::RngCore;
        let all: Mask = (1 << size) - 1;
        (0..size * size)
            .map(|_| {
                match (rng.next_u32() & rng.next_u32() | rng.next_u32() & rng.next_u32()) & all {
                    0 => all,
                    mask => mask,
                }
            })
            .collect()
    }

    /// Runs `narrow(cells, sum, size, masks, small)` on random lines, sums and masks of
    /// small grids, with the small-grid table and the wide form: both narrow alike.
    fn small_and_wide_agree(
        seed: u64,
        narrow: impl Fn(Vec<usize>, usize, usize, &mut [Mask], bool) -> Result<(), Contradiction>,
    ) {
        let mut rng = rng(seed);
        for size in [4, 6, 9] {
            for _ in 0..300 {
                let cells: Vec<usize> = random_line(&mut rng, size)
                    .iter()
                    .map(|cell| cell.row * size + cell.col)
                    .collect();
                let sum = below(&mut rng, size * size / 2);
                let masks = random_masks(&mut rng, size);
                let (mut small, mut wide) = (masks.clone(), masks);
                let small = narrow(cells.clone(), sum, size, &mut small, true).map(|()| small);
                let wide = narrow(cells, sum, size, &mut wide, false).map(|()| wide);
                assert_eq!(small, wide);
            }
        }
    }

    #[test]
    fn small_x_sums_narrow_as_wide_ones() {
        small_and_wide_agree(24, |cells, sum, size, masks, small| {
            let x_sum = XSum { cells, sum, size };
            if small {
                x_sum.propagate_small(masks)
            } else {
                x_sum.propagate_wide(masks)
            }
        });
    }

    #[test]
    fn small_sandwiches_narrow_as_wide_ones() {
        small_and_wide_agree(26, |cells, sum, size, masks, small| {
            Sandwich { cells, sum, size }.narrow(masks, small)
        });
    }
}
