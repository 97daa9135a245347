//! Sums: killer cages and arrows (with a one-cell circle or a pill).

use super::houses;
use super::sums::shifted_left;
use crate::variant::model::Cell;
use crate::variant::propagate::{Context, Contradiction, Mask, Propagator};

/// Distinct cells that add up to a sum: the digit sets of that many cells that make the
/// sum, kept only while the masks can still hold them.
#[derive(Debug)]
struct KillerSum {
    cells: Vec<usize>,
    /// Every set of `cells.len()` different digits that adds up to the sum.
    combinations: Vec<Mask>,
}

impl KillerSum {
    /// The sets of `count` different digits from `lowest` to `size` that add up to `sum`,
    /// each with `chosen` added.
    fn combinations(
        count: usize,
        sum: u32,
        lowest: u32,
        size: u32,
        chosen: Mask,
        out: &mut Vec<Mask>,
    ) {
        if count == 0 {
            if sum == 0 {
                out.push(chosen);
            }
            return;
        }
        for digit in lowest..=size {
            // The least the other digits can add is digit+1 + … + digit+count-1.
            let rest = count as u32 - 1;
            if digit + rest * digit + rest * (rest + 1) / 2 > sum {
                break;
            }
            Self::combinations(
                count - 1,
                sum - digit,
                digit + 1,
                size,
                chosen | 1 << (digit - 1),
                out,
            );
        }
    }
}

impl Propagator for KillerSum {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn weight(&self) -> usize {
        self.cells.len() + self.combinations.len()
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let union = self
            .cells
            .iter()
            .fold(0, |union, &cell| union | masks[cell]);
        let (mut allowed, mut required): (Mask, Mask) = (0, Mask::MAX);
        for &combination in &self.combinations {
            if combination & !union == 0
                && self
                    .cells
                    .iter()
                    .all(|&cell| masks[cell] & combination != 0)
            {
                allowed |= combination;
                required &= combination;
            }
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        for &cell in &self.cells {
            let mask = masks[cell] & allowed;
            if mask == 0 {
                return Err(Contradiction);
            }
            masks[cell] = mask;
        }
        // A digit every combination needs, which one cell alone can hold, goes there.
        while required != 0 {
            let bit = required & required.wrapping_neg();
            required &= required - 1;
            let mut holders = self.cells.iter().filter(|&&cell| masks[cell] & bit != 0);
            match (holders.next(), holders.next()) {
                (None, _) => return Err(Contradiction),
                (Some(&cell), None) => masks[cell] = bit,
                _ => {}
            }
        }
        Ok(())
    }
}

/// What the digits of a [`LineSum`]'s line add up to.
#[derive(Debug)]
enum Total {
    /// A fixed number.
    Fixed(u64),
    /// The number the circle's cells read (the first `circle_len` cells of
    /// [`LineSum::cells`]), digits written one after the other in decimal.
    Circle,
}

/// Cells whose digits add up to a total: a fixed number, or the number read in a circle
/// or pill. Digits may repeat along the line, except in cells that share a row, a column
/// or a region, which the line reads in groups (see [`Group`]). While the sums stay below
/// 128 (and the line is shorter than 32 cells) the propagator keeps exactly the digits
/// that some choice of the others completes, each group holding different digits (a bit
/// set of reachable sums after each group); above that, it narrows each cell by the least
/// and greatest sums.
#[derive(Debug)]
struct LineSum {
    /// The circle's cells (if any), then the line's.
    cells: Vec<usize>,
    circle_len: usize,
    total: Total,
    /// The line's cells, each in one group.
    groups: Vec<Group>,
    /// Whether the line's sums stay below what is tracked exactly, whatever the masks.
    always_exact: bool,
}

/// Cells of a line that all share a row, a column or a region with one another, so hold
/// different digits (the houses' rule, which the line's sum reads to narrow further).
#[derive(Debug)]
struct Group {
    cells: Vec<usize>,
    /// For two cells or more: each set of that many different digits whose sum the line's
    /// total can reach, with its sum, by increasing sum (walked for three cells or more;
    /// two are summed digit by digit).
    combinations: Vec<(Mask, u32)>,
}

/// The digits x of `mask` that another digit y of `other` brings to a sum x + y in `sums`
/// (as bits).
fn partnered(mask: Mask, other: Mask, sums: u128) -> Mask {
    let mut kept = 0;
    let mut digits = mask;
    while digits != 0 {
        let bit = digits & digits.wrapping_neg();
        digits &= digits - 1;
        // Bit y - 1 of the sums lowered by x + 1 is x + y's.
        if (sums >> (bit.trailing_zeros() + 2)) as Mask & other & !bit != 0 {
            kept |= bit;
        }
    }
    kept
}

/// The most digit sets a [`Group`] keeps: a cell that would take its group past it starts
/// another.
const GROUP_COMBINATIONS: usize = 256;

impl Group {
    /// The sets of `count` different digits from 1 to `size` that add up to `highest` at
    /// most, with their sums, by increasing sum.
    fn combinations(count: usize, highest: u32, size: u32) -> Vec<(Mask, u32)> {
        let mut all = Vec::new();
        let mut sets = Vec::new();
        for sum in 1..=highest {
            KillerSum::combinations(count, sum, 1, size, 0, &mut sets);
            all.extend(sets.drain(..).map(|set| (set, sum)));
            if all.len() > GROUP_COMBINATIONS {
                break;
            }
        }
        all
    }

    /// The sums the group's cells can make, as bits.
    fn sums(&self, masks: &[Mask]) -> u128 {
        match self.cells[..] {
            [cell] => return shifted_left(1, masks[cell]),
            [first, second] => {
                // Digit x (bit x - 1) of the first with each other digit y of the second:
                // y's bit raised by x + 1 is x + y's.
                let (a, b) = (masks[first], masks[second]);
                let mut sums = 0;
                let mut digits = a;
                while digits != 0 {
                    let bit = digits & digits.wrapping_neg();
                    digits &= digits - 1;
                    sums |= u128::from(b & !bit) << (bit.trailing_zeros() + 2);
                }
                return sums;
            }
            _ => {}
        }
        let union = self
            .cells
            .iter()
            .fold(0, |union, &cell| union | masks[cell]);
        let mut sums = 0;
        for &(combination, sum) in &self.combinations {
            if combination & !union == 0
                && sums & 1 << sum == 0
                && self.assign(masks, 0, combination, &mut [0; 16], &mut None)
            {
                sums |= 1 << sum;
            }
        }
        sums
    }

    /// Narrows the cells to the digits of the sets whose sums are in `sums`; false when
    /// a cell keeps none.
    fn keep(&self, masks: &mut [Mask], sums: u128) -> bool {
        match self.cells[..] {
            [cell] => {
                masks[cell] &= (sums >> 1) as Mask;
                return masks[cell] != 0;
            }
            [first, second] => {
                let (a, b) = (masks[first], masks[second]);
                masks[first] = partnered(a, b, sums);
                masks[second] = partnered(b, a, sums);
                return masks[first] != 0 && masks[second] != 0;
            }
            _ => {}
        }
        let union = self
            .cells
            .iter()
            .fold(0, |union, &cell| union | masks[cell]);
        let mut kept = [0; 16];
        for &(combination, sum) in &self.combinations {
            if combination & !union == 0 && sums & 1 << sum != 0 {
                self.assign(masks, 0, combination, &mut [0; 16], &mut Some(&mut kept));
            }
        }
        for (&cell, &kept) in self.cells.iter().zip(&kept) {
            masks[cell] &= kept;
        }
        self.cells.iter().all(|&cell| masks[cell] != 0)
    }

    /// Whether the cells from `index` on can take one digit each of `free`, all
    /// different; with `kept`, every way is tried and the digits each cell takes in one
    /// join it (`chosen` holds the digits of the cells before `index`).
    fn assign(
        &self,
        masks: &[Mask],
        index: usize,
        free: Mask,
        chosen: &mut [Mask; 16],
        kept: &mut Option<&mut [Mask; 16]>,
    ) -> bool {
        let Some(&cell) = self.cells.get(index) else {
            if let Some(kept) = kept {
                for (kept, &chosen) in kept.iter_mut().zip(&chosen[..index]) {
                    *kept |= chosen;
                }
            }
            return true;
        };
        let mut found = false;
        let mut digits = masks[cell] & free;
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            chosen[index] = bit;
            if self.assign(masks, index + 1, free & !bit, chosen, kept) {
                found = true;
                if kept.is_none() {
                    return true;
                }
            }
        }
        found
    }
}

/// Sums a [`LineSum`] tracks exactly, as bits of a `u128`.
const EXACT_SUMS: u64 = 128;

/// The longest line whose sums a [`LineSum`] tracks exactly.
const EXACT_CELLS: usize = 32;

/// The lowest and the highest digit of a non-empty mask.
fn bounds(mask: Mask) -> (u64, u64) {
    (
        u64::from(mask.trailing_zeros() + 1),
        u64::from(Mask::BITS - mask.leading_zeros()),
    )
}

/// `number` with `digit` written after it in decimal.
fn append(number: u64, digit: u64) -> u64 {
    let shift = if digit < 10 { 10 } else { 100 };
    number.saturating_mul(shift).saturating_add(digit)
}

/// The sums the line may reach: a bit set when they fit one, bounds otherwise.
struct Targets {
    exact: bool,
    bits: u128,
    low: u64,
    high: u64,
}

impl Targets {
    fn add(&mut self, value: u64) {
        if self.exact {
            self.bits |= 1 << value;
        }
        self.low = self.low.min(value);
        self.high = self.high.max(value);
    }
}

impl LineSum {
    /// The sum of `cells` (the circle's `circle_len` first, then the line's) to `total`;
    /// with `houses`, the line's cells grouped by the houses they share, otherwise each
    /// alone.
    fn new(
        cells: Vec<usize>,
        circle_len: usize,
        total: Total,
        context: &Context,
        houses: bool,
    ) -> LineSum {
        let size = context.size as u32;
        // The highest total: a fixed one, or the circle's cells all holding `size`.
        let highest = match total {
            Total::Fixed(sum) => sum,
            Total::Circle => (0..circle_len).fold(0, |number, _| append(number, u64::from(size))),
        }
        .min(EXACT_SUMS - 1) as u32;
        let mut groups: Vec<Group> = Vec::new();
        for &cell in &cells[circle_len..] {
            let joined = groups.iter_mut().filter(|_| houses).find_map(|group| {
                if !group.cells.iter().all(|&other| sees(cell, other, context)) {
                    return None;
                }
                let combinations = Group::combinations(group.cells.len() + 1, highest, size);
                (combinations.len() <= GROUP_COMBINATIONS).then_some((group, combinations))
            });
            match joined {
                Some((group, combinations)) => {
                    group.cells.push(cell);
                    group.combinations = combinations;
                }
                None => groups.push(Group {
                    cells: vec![cell],
                    combinations: Vec::new(),
                }),
            }
        }
        let line_len = cells.len() - circle_len;
        LineSum {
            always_exact: (line_len as u64) * u64::from(size) < EXACT_SUMS
                && line_len < EXACT_CELLS,
            cells,
            circle_len,
            total,
            groups,
        }
    }

    fn circle(&self) -> &[usize] {
        &self.cells[..self.circle_len]
    }

    fn line(&self) -> &[usize] {
        &self.cells[self.circle_len..]
    }

    /// Walks the circle's numbers from its cell `index` on, after `number`; those the line
    /// can reach (`reachable`) join `targets` and mark their digits in `support`. Whether
    /// any did.
    #[expect(
        clippy::too_many_arguments,
        reason = "one recursive walk; its state is the arguments"
    )]
    fn read_circle(
        &self,
        masks: &[Mask],
        index: usize,
        number: u64,
        reachable: &dyn Fn(u64) -> bool,
        high: u64,
        support: &mut [Mask; 16],
        targets: &mut Targets,
    ) -> bool {
        let Some(&cell) = self.circle().get(index) else {
            if reachable(number) {
                targets.add(number);
                return true;
            }
            return false;
        };
        let remaining = self.circle_len - index - 1;
        let mut found = false;
        let mut digits = masks[cell];
        while digits != 0 {
            let digit = u64::from(digits.trailing_zeros() + 1);
            digits &= digits - 1;
            let next = append(number, digit);
            // Each further cell multiplies the number by ten at least.
            let least = (0..remaining).fold(next, |least, _| least.saturating_mul(10));
            if least > high {
                break;
            }
            if self.read_circle(masks, index + 1, next, reachable, high, support, targets) {
                support[index] |= 1 << (digit - 1);
                found = true;
            }
        }
        found
    }
}

impl Propagator for LineSum {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn weight(&self) -> usize {
        let sets: usize = self
            .groups
            .iter()
            .map(|group| group.combinations.len())
            .sum();
        self.cells.len() + sets
    }

    /// Exact whatever the masks, it is idempotent: what it keeps has support in what it
    /// keeps.
    fn idempotent(&self) -> bool {
        self.always_exact
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let line = self.line();
        let (mut low, mut high) = (0, 0);
        for &cell in line {
            if masks[cell] == 0 {
                return Err(Contradiction);
            }
            let (least, most) = bounds(masks[cell]);
            low += least;
            high += most;
        }
        let exact = high < EXACT_SUMS && line.len() < EXACT_CELLS;
        // prefix[g]: the sums the groups before g can reach; sums[g]: those of group g.
        let mut prefix = [0u128; EXACT_CELLS + 1];
        let mut sums = [0u128; EXACT_CELLS];
        let mut reach = 0;
        if exact {
            prefix[0] = 1;
            for (g, group) in self.groups.iter().enumerate() {
                sums[g] = group.sums(masks);
                prefix[g + 1] = added(prefix[g], sums[g]);
            }
            reach = prefix[self.groups.len()];
        }
        let reachable = |sum: u64| (low..=high).contains(&sum) && (!exact || reach & 1 << sum != 0);
        let mut targets = Targets {
            exact,
            bits: 0,
            low: u64::MAX,
            high: 0,
        };
        match self.total {
            Total::Fixed(sum) => {
                if reachable(sum) {
                    targets.add(sum);
                }
            }
            Total::Circle => {
                let mut support = [0; 16];
                self.read_circle(masks, 0, 0, &reachable, high, &mut support, &mut targets);
                for (&cell, &digits) in self.circle().iter().zip(&support) {
                    masks[cell] &= digits;
                }
            }
        }
        if targets.low > targets.high {
            return Err(Contradiction);
        }
        if exact {
            // after: the sums of the groups before g from which groups g.. reach a target.
            let mut after = targets.bits;
            for (g, group) in self.groups.iter().enumerate().rev() {
                let mut kept = 0;
                let mut each = sums[g];
                while each != 0 {
                    let sum = each.trailing_zeros();
                    each &= each - 1;
                    if (prefix[g] << sum) & after != 0 {
                        kept |= 1 << sum;
                    }
                }
                if !group.keep(masks, kept) {
                    return Err(Contradiction);
                }
                after = lowered(after, kept);
            }
        } else {
            for &cell in line {
                let (least, most) = bounds(masks[cell]);
                let others_low = low - least;
                let others_high = high - most;
                let from = targets.low.saturating_sub(others_high);
                let to = targets.high.saturating_sub(others_low);
                let kept = masks[cell] & digits_between(from, to);
                if kept == 0 {
                    return Err(Contradiction);
                }
                masks[cell] = kept;
            }
        }
        Ok(())
    }
}

/// The sums `sums` reach once one of `by` (sums below 128, as bits) is added.
fn added(sums: u128, mut by: u128) -> u128 {
    let mut reached = 0;
    while by != 0 {
        reached |= sums << by.trailing_zeros();
        by &= by - 1;
    }
    reached
}

/// The sums from which adding one of `by` (as bits) reaches one of `sums`.
fn lowered(sums: u128, mut by: u128) -> u128 {
    let mut reached = 0;
    while by != 0 {
        reached |= sums >> by.trailing_zeros();
        by &= by - 1;
    }
    reached
}

/// The mask of digits `from` to `to` (up to 32).
fn digits_between(from: u64, to: u64) -> Mask {
    let from = from.max(1);
    let to = to.min(u64::from(Mask::BITS));
    if from > to {
        return 0;
    }
    let upto = |digit: u64| {
        if digit >= 32 {
            Mask::MAX
        } else {
            (1 << digit) - 1
        }
    };
    upto(to) & !upto(from - 1)
}

/// Whether two different cells share a row, a column or a region of `size` cells.
fn sees(a: usize, b: usize, context: &Context) -> bool {
    let size = context.size;
    let region = |cell: usize| {
        context.regions[cell].filter(|&region| {
            context
                .regions
                .iter()
                .filter(|&&other| other == Some(region))
                .count()
                == size
        })
    };
    a != b
        && (a / size == b / size
            || a % size == b % size
            || region(a).is_some_and(|house| region(b) == Some(house)))
}

/// Different digits (when the cage has at most `size` cells, as in the peer) adding up to
/// `sum` when one is shown (a sum of 0 shows none, as in the peer).
pub(super) fn killer(
    cells: &[Cell],
    sum: Option<u32>,
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    let mut propagators = houses::distinct(cells, context);
    let Some(sum) = sum.filter(|&sum| sum > 0) else {
        return propagators;
    };
    let indices: Vec<usize> = cells.iter().map(|&cell| context.index(cell)).collect();
    if indices.len() <= context.size {
        let mut combinations = Vec::new();
        let size = context.size as u32;
        KillerSum::combinations(indices.len(), sum, 1, size, 0, &mut combinations);
        propagators.push(Box::new(KillerSum {
            cells: indices,
            combinations,
        }));
    } else {
        propagators.push(Box::new(LineSum::new(
            indices,
            0,
            Total::Fixed(u64::from(sum)),
            context,
            false,
        )));
    }
    propagators
}

/// The arrow's digits add up to the number in its circle: the digit of a one-cell circle,
/// or the digits of a pill written one after the other in decimal (1 and 12 read 112 on a
/// grid of 16), as the peer reads them.
pub(super) fn arrow(circle: &[Cell], line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    arrow_reading(circle, line, context, false)
}

/// The arrow read together with the houses, for the search: the cells of its line that
/// share a row, a column or a region hold different digits, which narrows its sums
/// further (and a filled line that repeats a digit there fails, as its house does).
pub(super) fn arrow_with_houses(
    circle: &[Cell],
    line: &[Cell],
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    arrow_reading(circle, line, context, true)
}

/// The arrow, its line's cells grouped by the houses they share when `houses`.
fn arrow_reading(
    circle: &[Cell],
    line: &[Cell],
    context: &Context,
    houses: bool,
) -> Vec<Box<dyn Propagator>> {
    let cells = circle
        .iter()
        .chain(line)
        .map(|&cell| context.index(cell))
        .collect();
    vec![Box::new(LineSum::new(
        cells,
        circle.len(),
        Total::Circle,
        context,
        houses,
    ))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::constraints::NOTHING_DRAWN;
    use crate::variant::constraints::harness::{Seen, below, check, random_path, regions, rng};

    fn at(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

    fn bits(digits: &[u32]) -> Mask {
        digits.iter().fold(0, |mask, digit| mask | 1 << (digit - 1))
    }

    #[test]
    fn killer_combinations() {
        let mut found = Vec::new();
        KillerSum::combinations(3, 7, 1, 9, 0, &mut found);
        assert_eq!(found, vec![bits(&[1, 2, 4])]);
        found.clear();
        KillerSum::combinations(2, 10, 1, 9, 0, &mut found);
        assert_eq!(found.len(), 4);
    }

    #[test]
    fn killer_cage_narrows() {
        let regions = vec![None; 81];
        let context = Context {
            size: 9,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let cage = killer(&[at(0, 0), at(0, 1), at(1, 0)], Some(7), &context);
        assert_eq!(cage.len(), 2);
        let mut masks = vec![context.all_digits(); 81];
        masks[0] = bits(&[1, 2]);
        masks[1] = bits(&[1, 2]);
        for propagator in &cage {
            propagator.propagate(&mut masks).unwrap();
        }
        assert_eq!(masks[9], bits(&[4]));
        masks[9] = bits(&[5]);
        assert!(cage[1].propagate(&mut masks).is_err());
    }

    #[test]
    fn arrow_with_one_circle() {
        let regions = vec![None; 81];
        let context = Context {
            size: 9,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let arrow = &arrow(&[at(0, 0)], &[at(1, 1), at(2, 2), at(3, 3)], &context)[0];
        let mut masks = vec![context.all_digits(); 81];
        arrow.propagate(&mut masks).unwrap();
        assert_eq!(masks[0], bits(&[3, 4, 5, 6, 7, 8, 9]));
        assert_eq!(masks[10], bits(&[1, 2, 3, 4, 5, 6, 7]));
        masks[10] = bits(&[5]);
        masks[20] = bits(&[3]);
        arrow.propagate(&mut masks).unwrap();
        assert_eq!(masks[0], bits(&[9]));
        assert_eq!(masks[30], bits(&[1]));
    }

    #[test]
    fn pill_reads_as_a_number() {
        let regions = vec![None; 81];
        let context = Context {
            size: 9,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let line: Vec<Cell> = (1..9).map(|col| at(1, col)).collect();
        let pill = &arrow(&[at(0, 0), at(0, 1)], &line, &context)[0];
        let mut masks = vec![context.all_digits(); 81];
        pill.propagate(&mut masks).unwrap();
        // Eight digits add up to 8 to 72: the pill reads 11 to 72.
        assert_eq!(masks[0], bits(&[1, 2, 3, 4, 5, 6, 7]));
        masks[10..18].fill(bits(&[9]));
        pill.propagate(&mut masks).unwrap();
        assert_eq!([masks[0], masks[1]], [bits(&[7]), bits(&[2])]);
        masks[17] = bits(&[8]);
        assert!(pill.propagate(&mut masks).is_err(), "71 is not 72");
    }

    #[test]
    fn pill_on_a_large_grid() {
        let regions = vec![None; 256];
        let context = Context {
            size: 16,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let line: Vec<Cell> = (0..16).map(|col| at(2, col)).collect();
        let pill = &arrow(&[at(0, 0), at(0, 1)], &line, &context)[0];
        let mut masks = vec![context.all_digits(); 256];
        for (col, digit) in [16u32, 16, 16, 16, 16, 16, 16, 16, 1, 1, 1, 1, 1, 1, 1]
            .iter()
            .enumerate()
        {
            masks[32 + col] = bits(&[*digit]);
        }
        // 135 + the last cell: 136 to 151, which the pill reads as 13 then 6 to 9, 14 then
        // 1 to 9, or 15 then 1.
        pill.propagate(&mut masks).unwrap();
        assert_eq!(masks[0], bits(&[13, 14, 15]));
        masks[0] = bits(&[1]);
        assert!(pill.propagate(&mut masks).is_err());
    }

    #[test]
    fn long_cage_without_distinct_digits() {
        let regions = vec![None; 16];
        let context = Context {
            size: 4,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let cells: Vec<Cell> = (0..5).map(|col| at(col / 4, col % 4)).collect();
        let cage = killer(&cells, Some(6), &context);
        assert_eq!(cage.len(), 1, "five cells on a grid of four repeat digits");
        let mut masks = vec![0b1111; 16];
        cage[0].propagate(&mut masks).unwrap();
        assert_eq!(masks[..5], [0b0011; 5]);
    }

    /// Random arrows (a circle of one or two cells, a line of one to four) checked for
    /// both promises, read alone or with the houses (whose rule the propagator reads
    /// within each of its groups); what the checks met, and how many groups had several
    /// cells.
    fn arrows(seed: u64, houses: bool) -> (Seen, usize) {
        let mut rng = rng(seed);
        let mut seen = Seen::default();
        let mut grouped = 0;
        for size in [4, 6, 9] {
            let regions = regions(size);
            let context = Context {
                size,
                regions: &regions,
                drawn: &NOTHING_DRAWN,
            };
            for _ in 0..16 {
                let circle_len = 1 + below(&mut rng, 2);
                let length = circle_len + 1 + below(&mut rng, 4);
                let path = random_path(&mut rng, size, length);
                if path.len() <= circle_len {
                    continue;
                }
                let (circle, line) = path.split_at(circle_len);
                let cells = path.iter().map(|&cell| context.index(cell)).collect();
                let sum = LineSum::new(cells, circle_len, Total::Circle, &context, houses);
                let groups: Vec<Vec<usize>> =
                    sum.groups.iter().map(|group| group.cells.clone()).collect();
                grouped += groups.iter().filter(|group| group.len() > 1).count();
                let index = |cell: &Cell| context.index(*cell);
                let holds = |grid: &[u32]| {
                    let number = circle.iter().fold(0, |number, cell| {
                        append(number, u64::from(grid[index(cell)]))
                    });
                    let total: u64 = line.iter().map(|cell| u64::from(grid[index(cell)])).sum();
                    let apart = groups.iter().all(|group| {
                        let digits = group
                            .iter()
                            .fold(0u32, |seen, &cell| seen | 1 << grid[cell]);
                        digits.count_ones() as usize == group.len()
                    });
                    total == number && apart
                };
                let propagators: Vec<Box<dyn Propagator>> = vec![Box::new(sum)];
                seen += check(&mut rng, size, &propagators, &path, &holds, 8, true);
            }
        }
        (seen, grouped)
    }

    #[test]
    fn arrow_promises() {
        let (seen, grouped) = arrows(31, false);
        seen.assert_useful(20);
        assert_eq!(grouped, 0);
    }

    #[test]
    fn arrow_with_houses_promises() {
        let (seen, grouped) = arrows(32, true);
        seen.assert_useful(20);
        assert!(grouped >= 10, "only {grouped} groups of several cells");
    }

    #[test]
    fn arrow_with_houses_sums_different_digits() {
        let regions = regions(9);
        let context = Context {
            size: 9,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        // Three cells of one box add up to 6 at least, and hold 6 at most.
        let line = [at(1, 0), at(1, 1), at(2, 1)];
        let mut masks = vec![context.all_digits(); 81];
        arrow_with_houses(&[at(0, 0)], &line, &context)[0]
            .propagate(&mut masks)
            .unwrap();
        assert_eq!(masks[0], bits(&[6, 7, 8, 9]));
        assert_eq!(masks[9], bits(&[1, 2, 3, 4, 5, 6]));
        let mut alone = vec![context.all_digits(); 81];
        arrow(&[at(0, 0)], &line, &context)[0]
            .propagate(&mut alone)
            .unwrap();
        assert_eq!(alone[0], bits(&[3, 4, 5, 6, 7, 8, 9]));
    }
}
