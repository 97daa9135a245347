//! Lines: thermometers, palindromes, renban, whispers, between and lockout lines, region
//! sum, entropic, modular, zipper, double arrow and nabner lines.

use super::sorted_distinct;
use super::sums::EqualSums;
use super::tables::{Pairs, equal_pairs, high, low, range};
use crate::variant::model::{Cell, LineKind};
use crate::variant::propagate::{Context, Contradiction, Mask, Propagator};

/// The row-major indices of `cells`.
fn indices(cells: &[Cell], context: &Context) -> Vec<usize> {
    cells.iter().map(|&cell| context.index(cell)).collect()
}

/// A chain whose digits rise along the line by at least `gap` from cell to cell (1 for a
/// thermometer, 0 for a slow one): least and greatest digits pushed along it both ways,
/// which is exact for such a chain.
#[derive(Debug)]
struct Chain {
    cells: Vec<usize>,
    gap: u32,
    size: u32,
}

impl Propagator for Chain {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let mut least = 1;
        for &cell in &self.cells {
            let mask = masks[cell] & range(least, self.size);
            if mask == 0 {
                return Err(Contradiction);
            }
            masks[cell] = mask;
            least = low(mask) + self.gap;
        }
        let mut most = self.size as i64;
        for &cell in self.cells.iter().rev() {
            let mask = if most < 1 {
                0
            } else {
                masks[cell] & range(1, most as u32)
            };
            if mask == 0 {
                return Err(Contradiction);
            }
            masks[cell] = mask;
            most = i64::from(high(mask)) - i64::from(self.gap);
        }
        Ok(())
    }
}

/// A chain of `line` rising by `gap`, or nothing for a line of one cell.
fn chain(line: &[Cell], gap: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    if line.len() < 2 {
        return Vec::new();
    }
    vec![Box::new(Chain {
        cells: indices(line, context),
        gap,
        size: context.size as u32,
    })]
}

/// Digits strictly increase from the bulb.
fn thermometer(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    chain(line, 1, context)
}

/// Digits never decrease from the bulb.
fn slow_thermometer(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    chain(line, 0, context)
}

/// The line reads the same both ways: the i-th cell from each end hold the same digit.
fn palindrome(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    let cells = indices(line, context);
    let last = cells.len().saturating_sub(1);
    let ends = (0..cells.len() / 2).map(|i| (cells[i], cells[last - i]));
    equal_pairs(ends, context.size)
}

/// Renban: the line's digits are different and consecutive. Each window of as many
/// consecutive digits as cells is kept while every cell can hold one of its digits and
/// the cells together can hold all of them; a cell keeps the digits of the kept windows.
/// Then, to a fixed point: a placed digit is struck from the other cells (naked singles),
/// and a digit of every kept window that only one cell can hold is placed there.
#[derive(Debug)]
struct Renban {
    /// The line, in order.
    line: Vec<usize>,
    /// The cells read.
    cells: Vec<usize>,
    /// The grid's size.
    size: u32,
}

impl Renban {
    /// The digits of the kept windows and those in all of them; `None` when no window is
    /// kept.
    fn windows(&self, line: &[Mask]) -> Option<(Mask, Mask)> {
        let length = line.len() as u32;
        let union = line.iter().fold(0, |union, &mask| union | mask);
        let (mut allowed, mut required) = (0, Mask::MAX);
        for start in 1..=(self.size + 1).saturating_sub(length) {
            let window = range(start, start + length - 1);
            if union & window == window && line.iter().all(|&mask| mask & window != 0) {
                allowed |= window;
                required &= window;
            }
        }
        (allowed != 0).then_some((allowed, required))
    }
}

impl Propagator for Renban {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let mut line: Vec<Mask> = self.line.iter().map(|&cell| masks[cell]).collect();
        loop {
            let (allowed, required) = self.windows(&line).ok_or(Contradiction)?;
            let mut changed = false;
            for mask in &mut line {
                changed |= *mask & !allowed != 0;
                *mask &= allowed;
            }
            for k in 0..line.len() {
                let placed = line[k];
                if placed.is_power_of_two() {
                    for (j, mask) in line.iter_mut().enumerate() {
                        if j != k && *mask & placed != 0 {
                            *mask &= !placed;
                            changed = true;
                        }
                    }
                }
            }
            let mut digits = required;
            while digits != 0 {
                let digit = digits & digits.wrapping_neg();
                digits &= digits - 1;
                let mut holders = (0..line.len()).filter(|&k| line[k] & digit != 0);
                match (holders.next(), holders.next()) {
                    (None, _) => return Err(Contradiction),
                    (Some(k), None) if line[k] != digit => {
                        line[k] = digit;
                        changed = true;
                    }
                    _ => {}
                }
            }
            if line.contains(&0) {
                return Err(Contradiction);
            }
            if !changed {
                break;
            }
        }
        for (&cell, &mask) in self.line.iter().zip(&line) {
            masks[cell] &= mask;
        }
        if self.line.iter().any(|&cell| masks[cell] == 0) {
            return Err(Contradiction);
        }
        Ok(())
    }
}

/// Different consecutive digits in any order (a line longer than the size cannot hold).
/// A cell on the line twice would have to differ from itself, so such a line never holds.
fn renban(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    let line = indices(line, context);
    if line.len() < 2 {
        return Vec::new();
    }
    vec![Box::new(Renban {
        cells: sorted_distinct(line.iter().copied()),
        line,
        size: context.size as u32,
    })]
}

/// Neighbours on the line differ by at least `difference`.
fn whispers(cells: &[Cell], difference: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    let cells = indices(cells, context);
    let mut pairs = Pairs::new();
    let apart = pairs.relation(context.size, |a, b| a.abs_diff(b) >= difference);
    for step in cells.windows(2) {
        pairs.add(step[0], step[1], apart);
    }
    pairs.boxed()
}

/// The two ends of a between or lockout line and the cells between them: for each pair of
/// end digits that `allowed` accepts, the middle cells may hold the digits of
/// `middle(a, b)`. Every pair of end digits is tried, which is exact.
struct Ends {
    cells: Vec<usize>,
    first: usize,
    last: usize,
    middle: Vec<usize>,
    size: u32,
    allowed: fn(u32, u32, u32) -> bool,
    inside: fn(u32, u32, u32) -> Mask,
    /// The parameter of `allowed` and `inside` (the least difference of a lockout).
    value: u32,
    name: &'static str,
}

impl std::fmt::Debug for Ends {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(self.name)
            .field("first", &self.first)
            .field("last", &self.last)
            .field("middle", &self.middle)
            .finish()
    }
}

impl Propagator for Ends {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let (first, last) = (masks[self.first], masks[self.last]);
        let (mut keep_first, mut keep_last) = (0, 0);
        let mut keep: Vec<Mask> = vec![0; self.middle.len()];
        let mut a_digits = first;
        while a_digits != 0 {
            let a = low(a_digits);
            a_digits &= a_digits - 1;
            let mut b_digits = last;
            while b_digits != 0 {
                let b = low(b_digits);
                b_digits &= b_digits - 1;
                // The ends of a loop are one cell, with one digit.
                if (self.first == self.last && a != b) || !(self.allowed)(a, b, self.value) {
                    continue;
                }
                let inside = (self.inside)(a, b, self.value) & range(1, self.size);
                if self.middle.iter().all(|&cell| masks[cell] & inside != 0) {
                    keep_first |= 1 << (a - 1);
                    keep_last |= 1 << (b - 1);
                    for (kept, &cell) in keep.iter_mut().zip(&self.middle) {
                        *kept |= masks[cell] & inside;
                    }
                }
            }
        }
        // A cell may be at two places of the line (a loop): keep what both allow.
        masks[self.first] &= keep_first;
        masks[self.last] &= keep_last;
        for (kept, &cell) in keep.iter().zip(&self.middle) {
            masks[cell] &= *kept;
        }
        if self.cells.iter().any(|&cell| masks[cell] == 0) {
            return Err(Contradiction);
        }
        Ok(())
    }
}

/// The ends of `line` and its middle cells; none for a line of fewer than `least` cells.
#[allow(clippy::too_many_arguments)]
fn ends(
    line: &[Cell],
    least: usize,
    context: &Context,
    allowed: fn(u32, u32, u32) -> bool,
    inside: fn(u32, u32, u32) -> Mask,
    value: u32,
    name: &'static str,
) -> Vec<Box<dyn Propagator>> {
    let cells = indices(line, context);
    if cells.len() < least.max(2) {
        return Vec::new();
    }
    let (first, last) = (cells[0], cells[cells.len() - 1]);
    let middle = cells[1..cells.len() - 1].to_vec();
    vec![Box::new(Ends {
        cells: sorted_distinct(cells.iter().copied()),
        first,
        last,
        middle,
        size: context.size as u32,
        allowed,
        inside,
        value,
        name,
    })]
}

/// The middle cells hold digits strictly between the ends' digits (either end may be the
/// lower one). As in the peer, a line of two cells states nothing.
fn between(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    ends(
        line,
        3,
        context,
        |_, _, _| true,
        |a, b, _| range(a.min(b) + 1, a.max(b).saturating_sub(1)),
        0,
        "Between",
    )
}

/// The ends differ by at least `difference`; the middle cells hold no digit from the
/// lower end to the higher, inclusive.
fn lockout(cells: &[Cell], difference: u32, context: &Context) -> Vec<Box<dyn Propagator>> {
    ends(
        cells,
        2,
        context,
        |a, b, difference| a.abs_diff(b) >= difference,
        |a, b, _| !range(a.min(b), a.max(b)),
        difference,
        "Lockout",
    )
}

/// Equal sums of `groups`, or nothing when fewer than two groups have cells.
fn equal_sums(groups: Vec<Vec<usize>>, context: &Context) -> Vec<Box<dyn Propagator>> {
    let groups: Vec<Vec<usize>> = groups
        .into_iter()
        .filter(|group| !group.is_empty())
        .collect();
    if groups.len() < 2 {
        return Vec::new();
    }
    vec![Box::new(EqualSums::new(groups, None, context.size))]
}

/// The line's runs of cells in one region (a region entered again starts a new run;
/// cells in no region are skipped, as in the peer) all add up to the same sum.
fn region_sum(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut current: Option<usize> = None;
    for &cell in line {
        let index = context.index(cell);
        let Some(region) = context.regions[index] else {
            continue;
        };
        if current != Some(region) {
            groups.push(Vec::new());
            current = Some(region);
        }
        groups.last_mut().expect("pushed").push(index);
    }
    equal_sums(groups, context)
}

/// Splits `size` digits into low, middle and high as the peer does: when
/// 2·⌊size/3⌋ + ⌈size/3⌉ = size the low and high groups have ⌊size/3⌋ digits, otherwise
/// ⌈size/3⌉; the middle group has the rest. The group (0, 1, 2) of `digit`.
pub(super) fn entropy(digit: u32, size: u32) -> u32 {
    let (floor, ceil) = (size / 3, size.div_ceil(3));
    let outer = if 2 * floor + ceil == size {
        floor
    } else {
        ceil
    };
    let middle = size - 2 * outer;
    if digit <= outer {
        0
    } else if digit <= outer + middle {
        1
    } else {
        2
    }
}

/// A line whose positions differ modulo 3 exactly when their digits are of different
/// classes (of three): the positions of each residue share one class, and the residues
/// take different classes. Every way to give the residues classes is tried, which is
/// exact: each cell then holds any digit of its residue's class.
#[derive(Debug)]
struct Classes {
    /// The line, in order.
    line: Vec<usize>,
    /// The cells read.
    cells: Vec<usize>,
    /// The digits of each class.
    classes: [Mask; 3],
}

/// The orders of three classes.
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

impl Propagator for Classes {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let residues = self.line.len().min(3);
        // `fits[r]`: the classes that every cell at a position ≡ r can hold, as bits.
        let mut fits = [0u8; 3];
        for (residue, fit) in fits.iter_mut().enumerate().take(residues) {
            for (class, &digits) in self.classes.iter().enumerate() {
                let positions = self.line.iter().skip(residue).step_by(3);
                if positions.clone().all(|&cell| masks[cell] & digits != 0) {
                    *fit |= 1 << class;
                }
            }
        }
        let mut kept = [0u8; 3];
        for order in ORDERS {
            if (0..residues).all(|residue| fits[residue] >> order[residue] & 1 != 0) {
                for residue in 0..residues {
                    kept[residue] |= 1 << order[residue];
                }
            }
        }
        for (position, &cell) in self.line.iter().enumerate() {
            let allowed = (0..3)
                .filter(|&class| kept[position % 3] >> class & 1 != 0)
                .fold(0, |allowed, class| allowed | self.classes[class]);
            masks[cell] &= allowed;
            if masks[cell] == 0 {
                return Err(Contradiction);
            }
        }
        Ok(())
    }
}

/// The line's cells in `classes` (none for a line of one cell, which says nothing).
fn three_classes(
    line: &[Cell],
    context: &Context,
    class: impl Fn(u32) -> usize,
) -> Vec<Box<dyn Propagator>> {
    let line = indices(line, context);
    if line.len() < 2 {
        return Vec::new();
    }
    let mut classes = [0; 3];
    for digit in 1..=context.size as u32 {
        classes[class(digit)] |= 1 << (digit - 1);
    }
    vec![Box::new(Classes {
        cells: sorted_distinct(line.iter().copied()),
        line,
        classes,
    })]
}

/// Every run of three cells holds a low, a middle and a high digit ([`entropy`]); a line of
/// two cells holds two of the groups (as in the peer, which keeps cells whose positions
/// differ modulo 3 in different groups).
fn entropic(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    let size = context.size as u32;
    three_classes(line, context, |digit| entropy(digit, size) as usize)
}

/// Every run of three cells holds digits of the three residues modulo 3; a line of two
/// cells holds two residues.
fn modular(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    three_classes(line, context, |digit| (digit % 3) as usize)
}

/// Cells at the same distance from the centre add up to the same sum; on a line of odd
/// length, the centre cell holds that sum.
fn zipper(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    let cells = indices(line, context);
    let half = cells.len() / 2;
    let mut groups: Vec<Vec<usize>> = (0..half)
        .map(|i| vec![cells[i], cells[cells.len() - 1 - i]])
        .collect();
    if cells.len() % 2 == 1 {
        groups.push(vec![cells[half]]);
    }
    equal_sums(groups, context)
}

/// The two ends add up to the sum of the cells between them (nothing on a line of two).
fn double_arrow(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    let cells = indices(line, context);
    if cells.len() <= 2 {
        return Vec::new();
    }
    let ends = vec![cells[0], cells[cells.len() - 1]];
    let middle = cells[1..cells.len() - 1].to_vec();
    equal_sums(vec![ends, middle], context)
}

/// The most digits of `mask` no two of which are equal or consecutive (taken greedily
/// from the lowest, which is optimal).
fn spread(mask: Mask) -> usize {
    let (mut count, mut rest) = (0, mask);
    while rest != 0 {
        let digit = rest & rest.wrapping_neg();
        count += 1;
        rest &= !(digit | digit << 1);
    }
    count
}

/// A nabner line: no two cells hold equal or consecutive digits. A digit stays in a cell
/// while every other cell keeps a digit away from it and the other cells together still
/// have room for that many digits pairwise apart; a placed digit strikes itself and its
/// neighbours from the other cells. Sound, and complete when filled; not exact.
#[derive(Debug)]
struct Nabner {
    /// The line, in order.
    line: Vec<usize>,
    /// The cells read.
    cells: Vec<usize>,
    /// Every digit of the grid.
    all: Mask,
}

impl Nabner {
    /// `digits` and their neighbours.
    fn near(&self, digits: Mask) -> Mask {
        (digits | digits << 1 | digits >> 1) & self.all
    }
}

impl Propagator for Nabner {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        if self.cells.len() < self.line.len() {
            // A cell twice on the line equals itself.
            return Err(Contradiction);
        }
        let mut line: Vec<Mask> = self.line.iter().map(|&cell| masks[cell]).collect();
        let others = line.len() - 1;
        loop {
            let mut changed = false;
            for k in 0..line.len() {
                if line[k].is_power_of_two() {
                    let near = self.near(line[k]);
                    for (j, mask) in line.iter_mut().enumerate() {
                        if j != k && *mask & near != 0 {
                            *mask &= !near;
                            changed = true;
                        }
                    }
                }
            }
            for k in 0..line.len() {
                let mut kept = 0;
                let mut digits = line[k];
                while digits != 0 {
                    let digit = digits & digits.wrapping_neg();
                    digits &= digits - 1;
                    let away = !self.near(digit);
                    let mut union = 0;
                    let each = line.iter().enumerate().all(|(j, &mask)| {
                        union |= if j == k { 0 } else { mask & away };
                        j == k || mask & away != 0
                    });
                    if each && spread(union) >= others {
                        kept |= digit;
                    }
                }
                changed |= kept != line[k];
                line[k] = kept;
            }
            if line.contains(&0) {
                return Err(Contradiction);
            }
            if !changed {
                break;
            }
        }
        for (&cell, &mask) in self.line.iter().zip(&line) {
            masks[cell] = mask;
        }
        Ok(())
    }
}

/// No two cells of the line hold equal or consecutive digits, so a line longer than
/// ⌈size/2⌉ cannot hold.
fn nabner(line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    let line = indices(line, context);
    if line.len() < 2 {
        return Vec::new();
    }
    vec![Box::new(Nabner {
        cells: sorted_distinct(line.iter().copied()),
        line,
        all: context.all_digits(),
    })]
}

/// The propagators of one line of `kind`.
pub(super) fn line(kind: LineKind, line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    match kind {
        LineKind::Thermometer => thermometer(line, context),
        LineKind::SlowThermometer => slow_thermometer(line, context),
        LineKind::Palindrome => palindrome(line, context),
        LineKind::Renban => renban(line, context),
        LineKind::Whispers(difference) => whispers(line, difference, context),
        LineKind::Between => between(line, context),
        LineKind::RegionSum => region_sum(line, context),
        LineKind::Entropic => entropic(line, context),
        LineKind::Modular => modular(line, context),
        LineKind::Zipper => zipper(line, context),
        LineKind::DoubleArrow => double_arrow(line, context),
        LineKind::Lockout(difference) => lockout(line, difference, context),
        LineKind::Nabner => nabner(line, context),
    }
}

#[cfg(test)]
mod tests {
    use super::super::harness::{Seen, below, check, random_cells, random_path, regions, rng};
    use super::*;
    use crate::variant::constraints::NOTHING_DRAWN;

    /// Compiles a rule on a line.
    type Build<'a> = dyn Fn(&[Cell], &Context) -> Vec<Box<dyn Propagator>> + 'a;

    /// Decides a rule on the line's digits, given the size and the cells' regions.
    type Holds<'a> = dyn Fn(&[u32], usize, &[Option<usize>]) -> bool + 'a;

    /// Runs random lines of each size through `check`; what the checks met.
    fn lines(
        seed: u64,
        lengths: std::ops::RangeInclusive<usize>,
        path: bool,
        exact: bool,
        build: &Build<'_>,
        holds: &Holds<'_>,
    ) -> Seen {
        let mut rng = rng(seed);
        let mut seen = Seen::default();
        for size in [4, 5, 6, 9] {
            let regions = regions(size);
            let context = Context {
                size,
                regions: &regions,
                drawn: &NOTHING_DRAWN,
            };
            for _ in 0..12 {
                let length = lengths.start() + below(&mut rng, lengths.end() - lengths.start() + 1);
                let line = if path {
                    random_path(&mut rng, size, length)
                } else {
                    random_cells(&mut rng, size, length)
                };
                let propagators = build(&line, &context);
                let cells: Vec<usize> = line.iter().map(|&cell| context.index(cell)).collect();
                let regions_ref = &regions;
                let holds = |grid: &[u32]| {
                    let digits: Vec<u32> = cells.iter().map(|&cell| grid[cell]).collect();
                    let regions: Vec<Option<usize>> =
                        cells.iter().map(|&cell| regions_ref[cell]).collect();
                    holds(&digits, size, &regions)
                };
                seen += check(&mut rng, size, &propagators, &line, &holds, 8, exact);
            }
        }
        seen
    }

    /// Whether no two of `classes` in a run of three (or on a line of two) are equal.
    fn three_apart(classes: &[u32]) -> bool {
        classes
            .windows(3.min(classes.len()).max(1))
            .all(|w| (0..w.len()).all(|i| (i + 1..w.len()).all(|j| w[i] != w[j])))
    }

    #[test]
    fn thermometer_promises() {
        lines(1, 1..=6, true, true, &thermometer, &|d, _, _| {
            d.windows(2).all(|w| w[0] < w[1])
        })
        .assert_useful(20);
    }

    #[test]
    fn slow_thermometer_promises() {
        lines(2, 1..=6, true, true, &slow_thermometer, &|d, _, _| {
            d.windows(2).all(|w| w[0] <= w[1])
        })
        .assert_useful(20);
    }

    #[test]
    fn palindrome_promises() {
        lines(3, 1..=6, true, true, &palindrome, &|d, _, _| {
            d.iter().eq(d.iter().rev())
        })
        .assert_useful(20);
    }

    #[test]
    fn renban_promises() {
        lines(4, 1..=6, false, false, &renban, &|d, _, _| {
            let mut sorted = d.to_vec();
            sorted.sort_unstable();
            sorted.windows(2).all(|w| w[1] == w[0] + 1)
        })
        .assert_useful(20);
    }

    #[test]
    fn whispers_promises() {
        let mut seen = Seen::default();
        // 2, 3, 3 and 5: the default, half the size rounded up, for 4, 5, 6 and 9.
        for difference in [1, 2, 3, 5, 7] {
            seen += lines(
                5 + u64::from(difference),
                1..=5,
                true,
                true,
                &|line, context| whispers(line, difference, context),
                &|d, _, _| d.windows(2).all(|w| w[0].abs_diff(w[1]) >= difference),
            );
        }
        seen.assert_useful(20);
    }

    #[test]
    fn between_promises() {
        lines(20, 1..=6, true, true, &between, &|d, _, _| {
            let n = d.len();
            n <= 2 || {
                let (a, b) = (d[0].min(d[n - 1]), d[0].max(d[n - 1]));
                d[1..n - 1].iter().all(|&m| a < m && m < b)
            }
        })
        .assert_useful(20);
    }

    #[test]
    fn region_sum_promises() {
        let mut seen = lines(21, 1..=6, true, true, &region_sum, &|d, _, regions| {
            let mut sums: Vec<u32> = Vec::new();
            let mut last = None;
            for (digit, region) in d.iter().zip(regions) {
                if last != Some(*region) {
                    sums.push(0);
                    last = Some(*region);
                }
                *sums.last_mut().unwrap() += digit;
            }
            sums.windows(2).all(|w| w[0] == w[1])
        });
        // Some cells in no region, which the line skips without starting a new segment;
        // and lines that come back to a region they left.
        let mut rng = rng(22);
        for size in [4, 5, 6] {
            let regions: Vec<Option<usize>> = (0..size * size)
                .map(|_| match below(&mut rng, 4) {
                    0 => None,
                    region => Some(region),
                })
                .collect();
            let context = Context {
                size,
                regions: &regions,
                drawn: &NOTHING_DRAWN,
            };
            for _ in 0..15 {
                let length = 2 + below(&mut rng, 5);
                let line = random_cells(&mut rng, size, length);
                let propagators = region_sum(&line, &context);
                let cells: Vec<usize> = line.iter().map(|&cell| context.index(cell)).collect();
                let holds = |grid: &[u32]| {
                    let mut sums: Vec<u32> = Vec::new();
                    let mut last = None;
                    for &cell in &cells {
                        let Some(region) = regions[cell] else {
                            continue;
                        };
                        if last != Some(region) {
                            sums.push(0);
                            last = Some(region);
                        }
                        *sums.last_mut().unwrap() += grid[cell];
                    }
                    sums.windows(2).all(|w| w[0] == w[1])
                };
                seen += check(&mut rng, size, &propagators, &line, &holds, 6, true);
            }
        }
        seen.assert_useful(20);
    }

    #[test]
    fn entropic_promises() {
        // The peer's split, written out for each size.
        let groups = |size: usize| -> [u32; 3] {
            match size {
                4 => [1, 2, 1],
                5 => [2, 1, 2],
                6 => [2, 2, 2],
                _ => [3, 3, 3],
            }
        };
        lines(23, 1..=6, true, true, &entropic, &|d, size, _| {
            let [low, middle, _] = groups(size);
            let classes: Vec<u32> = d
                .iter()
                .map(|&x| u32::from(x > low) + u32::from(x > low + middle))
                .collect();
            three_apart(&classes)
        })
        .assert_useful(20);
        assert_eq!(
            (1..=9).map(|d| entropy(d, 9)).collect::<Vec<_>>(),
            [0, 0, 0, 1, 1, 1, 2, 2, 2]
        );
        assert_eq!(
            (1..=4).map(|d| entropy(d, 4)).collect::<Vec<_>>(),
            [0, 1, 1, 2]
        );
        assert_eq!(
            (1..=5).map(|d| entropy(d, 5)).collect::<Vec<_>>(),
            [0, 0, 1, 2, 2]
        );
        assert_eq!(
            (1..=8).map(|d| entropy(d, 8)).collect::<Vec<_>>(),
            [0, 0, 0, 1, 1, 2, 2, 2]
        );
    }

    #[test]
    fn modular_promises() {
        lines(24, 1..=6, true, true, &modular, &|d, _, _| {
            three_apart(&d.iter().map(|&x| x % 3).collect::<Vec<_>>())
        })
        .assert_useful(20);
    }

    #[test]
    fn zipper_promises() {
        lines(25, 1..=6, true, true, &zipper, &|d, _, _| {
            let n = d.len();
            let mut sums: Vec<u32> = (0..n / 2).map(|i| d[i] + d[n - 1 - i]).collect();
            if n % 2 == 1 {
                sums.push(d[n / 2]);
            }
            sums.windows(2).all(|w| w[0] == w[1])
        })
        .assert_useful(20);
    }

    #[test]
    fn double_arrow_promises() {
        lines(26, 1..=6, true, true, &double_arrow, &|d, _, _| {
            let n = d.len();
            n <= 2 || d[0] + d[n - 1] == d[1..n - 1].iter().sum::<u32>()
        })
        .assert_useful(20);
    }

    #[test]
    fn lockout_promises() {
        let mut seen = Seen::default();
        // 2, 2, 3 and 4: the peer's difference, half the size rounded down.
        for difference in [0, 1, 2, 3, 4, 6] {
            seen += lines(
                27 + u64::from(difference),
                1..=5,
                true,
                true,
                &|line, context| lockout(line, difference, context),
                &|d, _, _| {
                    let n = d.len();
                    let (a, b) = (d[0].min(d[n - 1]), d[0].max(d[n - 1]));
                    n < 2 || (b - a >= difference && d[1..n - 1].iter().all(|&m| m < a || m > b))
                },
            );
        }
        seen.assert_useful(20);
    }

    #[test]
    fn nabner_promises() {
        lines(40, 1..=6, false, false, &nabner, &|d, _, _| {
            (0..d.len()).all(|i| (i + 1..d.len()).all(|j| d[i].abs_diff(d[j]) >= 2))
        })
        .assert_useful(20);
    }

    #[test]
    fn nabner_counts_room() {
        // Five cells on a 9×9 line need 1, 3, 5, 7 and 9; six cannot fit.
        let regions = vec![None; 81];
        let context = Context {
            size: 9,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let line: Vec<Cell> = (0..5).map(|col| Cell { row: 0, col }).collect();
        let mut masks = vec![0b1_1111_1111; 81];
        nabner(&line, &context)[0].propagate(&mut masks).unwrap();
        assert_eq!(&masks[..5], &[0b1_0101_0101; 5]);
        let line: Vec<Cell> = (0..6).map(|col| Cell { row: 0, col }).collect();
        let mut masks = vec![0b1_1111_1111; 81];
        assert!(nabner(&line, &context)[0].propagate(&mut masks).is_err());
    }

    #[test]
    fn loops_are_read_as_drawn() {
        // Ends in one cell: a between line then cannot hold, a lockout needs 0 difference.
        let regions = vec![None; 16];
        let context = Context {
            size: 4,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let square = [(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)].map(|(row, col)| Cell { row, col });
        let mut masks = vec![0b1111; 16];
        assert!(between(&square, &context)[0].propagate(&mut masks).is_err());
        let mut masks = vec![0b1111; 16];
        assert!(
            lockout(&square, 1, &context)[0]
                .propagate(&mut masks)
                .is_err()
        );
        let mut masks = vec![0b1111; 16];
        masks[0] = 0b0010;
        lockout(&square, 0, &context)[0]
            .propagate(&mut masks)
            .unwrap();
        assert_eq!([masks[1], masks[5], masks[4]], [0b1101; 3]);
    }

    #[test]
    fn thermometer_pushes_bounds() {
        let regions = vec![None; 16];
        let context = Context {
            size: 4,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let line: Vec<Cell> = (0..3).map(|col| Cell { row: 0, col }).collect();
        let propagators = thermometer(&line, &context);
        let mut masks = vec![0b1111; 16];
        propagators[0].propagate(&mut masks).unwrap();
        assert_eq!(&masks[..3], &[0b0011, 0b0110, 0b1100]);
    }
}
