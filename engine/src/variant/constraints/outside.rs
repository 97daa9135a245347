//! Outside clues: little killers, sandwiches, X-sums and skyscrapers. Each reads the
//! cells of its diagonal, row or column in order from the clue.

use super::lines::{EqualSums, Sums, low, prefix_sums, sum_supports};
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

/// The masks of each cell that keep the cells between `from` and `to` (exclusive) adding
/// up to `sum`, given `masks` for the line; `None` when they cannot.
fn between_sum(
    masks: &[Mask],
    from: usize,
    to: usize,
    sum: usize,
    size: usize,
) -> Option<Vec<Mask>> {
    let middle = &masks[from + 1..to];
    let most = middle.len() * size;
    let prefix = prefix_sums(middle, most);
    let targets = Sums::single(sum, most);
    let keep = sum_supports(middle, &prefix, &targets);
    if keep.contains(&0) || !prefix.last().expect("one at least").has(sum) {
        return None;
    }
    let mut out = masks.to_vec();
    out[from + 1..to].copy_from_slice(&keep);
    Some(out)
}

/// A sandwich: the line holds one 1 and one `size` (the crusts), every other cell another
/// digit, and the digits between the crusts add up to the sum (0 when they touch). Every
/// placement of the crusts is tried, with an exact sum between them.
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
        let count = self.cells.len();
        let (one, top): (Mask, Mask) = (1, 1 << (self.size - 1));
        let filling = ((1 << self.size) - 1) & !(one | top);
        let line: Vec<Mask> = self.cells.iter().map(|&cell| masks[cell]).collect();
        let mut keep = vec![0; count];
        for first in 0..count {
            for second in first + 1..count {
                for (a, b) in [(one, top), (top, one)] {
                    if line[first] & a == 0 || line[second] & b == 0 {
                        continue;
                    }
                    let mut trial: Vec<Mask> = line.iter().map(|&mask| mask & filling).collect();
                    trial[first] = a;
                    trial[second] = b;
                    if trial.contains(&0) {
                        continue;
                    }
                    if let Some(kept) = between_sum(&trial, first, second, self.sum, self.size) {
                        for (keep, kept) in keep.iter_mut().zip(kept) {
                            *keep |= kept;
                        }
                    }
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

/// A skyscraper clue: a digit is visible when it is greater than every digit before it;
/// exactly `visible` are. Exact: the (highest digit, number seen) states reachable from
/// the clue meet those from which the far end can be reached with the right count.
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
                    } else {
                        next[top] |= seen;
                    }
                }
            }
            forward[index + 1] = next;
        }
        // `backward`: the states after a cell from which the rest reach the count.
        let mut backward: States = [1 << self.visible; 17];
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
                    } else {
                        backward[top]
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

/// Seen from the clue, higher digits hiding lower ones, `visible` digits are seen.
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
    use super::super::lines::harness::{below, check, random_cells, regions, rng};
    use super::*;

    /// A whole row or column read from a random side.
    fn random_line(rng: &mut rand_chacha::ChaCha8Rng, size: usize) -> Vec<Cell> {
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

    /// Compiles a clue of a value on its cells.
    type Build<'a> = dyn Fn(&[Cell], u32, &Context) -> Vec<Box<dyn Propagator>> + 'a;

    /// Runs random clues of each size through `check`.
    fn clues(
        seed: u64,
        sizes: &[usize],
        line: &dyn Fn(&mut rand_chacha::ChaCha8Rng, usize) -> Vec<Cell>,
        value: &dyn Fn(&mut rand_chacha::ChaCha8Rng, usize) -> u32,
        build: &Build<'_>,
        holds: &dyn Fn(&[u32], u32, usize) -> bool,
    ) {
        let mut rng = rng(seed);
        for &size in sizes {
            let regions = regions(size);
            let context = Context {
                size,
                regions: &regions,
            };
            for _ in 0..15 {
                let cells = line(&mut rng, size);
                let value = value(&mut rng, size);
                let propagators = build(&cells, value, &context);
                let indices: Vec<usize> = cells.iter().map(|&cell| context.index(cell)).collect();
                let holds = |grid: &[u32]| {
                    let digits: Vec<u32> = indices.iter().map(|&cell| grid[cell]).collect();
                    holds(&digits, value, size)
                };
                check(&mut rng, size, &propagators, &cells, &holds, 6);
            }
        }
    }

    #[test]
    fn little_killers() {
        clues(
            21,
            &[4, 5, 6, 9],
            &|rng, size| {
                let length = 1 + below(rng, 5);
                random_cells(rng, size, length)
            },
            &|rng, size| below(rng, 3 * size) as u32 + 1,
            &little_killer,
            &|d, sum, _| d.iter().sum::<u32>() == sum,
        );
    }

    #[test]
    fn sandwiches() {
        clues(
            22,
            &[3, 4, 5, 6],
            &random_line,
            &|rng, size| below(rng, size * (size + 1) / 2) as u32,
            &sandwich,
            &|d, sum, size| {
                let ones: Vec<usize> = (0..d.len()).filter(|&i| d[i] == 1).collect();
                let tops: Vec<usize> = (0..d.len()).filter(|&i| d[i] == size as u32).collect();
                ones.len() == 1 && tops.len() == 1 && {
                    let (a, b) = (ones[0].min(tops[0]), ones[0].max(tops[0]));
                    d[a + 1..b].iter().sum::<u32>() == sum
                }
            },
        );
    }

    #[test]
    fn x_sums() {
        clues(
            23,
            &[3, 4, 5, 6],
            &random_line,
            &|rng, size| below(rng, size * (size + 1) / 2) as u32 + 1,
            &x_sum,
            &|d, sum, _| d[..d[0] as usize].iter().sum::<u32>() == sum,
        );
    }

    #[test]
    fn skyscrapers() {
        clues(
            24,
            &[3, 4, 5, 6],
            &random_line,
            &|rng, size| below(rng, size + 1) as u32,
            &skyscraper,
            &|d, visible, _| {
                let mut top = 0;
                let mut seen = 0;
                for &x in d {
                    if x > top {
                        top = x;
                        seen += 1;
                    }
                }
                seen == visible
            },
        );
    }
}
