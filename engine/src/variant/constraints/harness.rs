//! The property tests every rule of this family and of the outside clues and relations
//! share: soundness against brute force, and completeness on filled cells.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::variant::model::Cell;
use crate::variant::propagate::{Mask, Propagator};

/// A seeded stream.
pub(in crate::variant::constraints) fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A number below `n`.
pub(in crate::variant::constraints) fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Regions of `size` cells: boxes for 4, 6, 9 and 16, rows otherwise.
pub(in crate::variant::constraints) fn regions(size: usize) -> Vec<Option<usize>> {
    let (height, width) = match size {
        4 => (2, 2),
        6 => (2, 3),
        9 => (3, 3),
        16 => (4, 4),
        _ => (1, size),
    };
    (0..size * size)
        .map(|cell| {
            let (row, col) = (cell / size, cell % size);
            Some(row / height * (size / width) + col / width)
        })
        .collect()
}

/// `length` different random cells.
pub(in crate::variant::constraints) fn random_cells(
    rng: &mut ChaCha8Rng,
    size: usize,
    length: usize,
) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Vec::new();
    while cells.len() < length {
        let cell = Cell {
            row: below(rng, size),
            col: below(rng, size),
        };
        if !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    cells
}

/// A path of `length` different cells, each next to the one before (shorter when it
/// gets stuck).
pub(in crate::variant::constraints) fn random_path(
    rng: &mut ChaCha8Rng,
    size: usize,
    length: usize,
) -> Vec<Cell> {
    let mut cells = random_cells(rng, size, 1);
    while cells.len() < length {
        let last = *cells.last().expect("one");
        let next: Vec<Cell> = [(0, 1), (1, 0), (0, -1), (-1, 0)]
            .iter()
            .filter_map(|&(down, right): &(isize, isize)| {
                let row = last.row.checked_add_signed(down)?;
                let col = last.col.checked_add_signed(right)?;
                (row < size && col < size).then_some(Cell { row, col })
            })
            .filter(|cell| !cells.contains(cell))
            .collect();
        if next.is_empty() {
            break;
        }
        cells.push(next[below(rng, next.len())]);
    }
    cells
}

/// Runs every propagator to a fixed point; whether none failed.
fn settle(propagators: &[Box<dyn Propagator>], masks: &mut [Mask]) -> bool {
    loop {
        let before = masks.to_vec();
        for propagator in propagators {
            if propagator.propagate(masks).is_err() {
                return false;
            }
        }
        if masks.contains(&0) {
            return false;
        }
        if before == masks {
            return true;
        }
    }
}

/// What the checks met, so that a test can insist they were not vacuous.
#[derive(Debug, Default, Clone, Copy)]
pub(in crate::variant::constraints) struct Seen {
    /// Trials whose masks some assignment satisfied.
    pub solvable: usize,
    /// Filled cells that satisfy the rule.
    pub kept: usize,
    /// Filled cells that break it.
    pub broken: usize,
}

impl std::ops::AddAssign for Seen {
    fn add_assign(&mut self, other: Seen) {
        self.solvable += other.solvable;
        self.kept += other.kept;
        self.broken += other.broken;
    }
}

impl Seen {
    /// Fails unless the checks met satisfiable masks, and filled cells both keeping
    /// and breaking the rule, at least `least` times each.
    pub(in crate::variant::constraints) fn assert_useful(&self, least: usize) {
        assert!(
            self.solvable >= least && self.kept >= least && self.broken >= least,
            "too few telling cases: {self:?}"
        );
    }
}

/// Checks both promises of `propagators` for a rule that `holds` decides on the whole
/// grid's digits (0 in cells the rule does not read), over `trials` trials of random
/// masks on the cells read (`extra` and the propagators' cells), each holding a
/// satisfying assignment when one turns up at random, with every assignment within
/// them tried. Run to a fixed point, the propagators must keep every digit of a
/// satisfying assignment, add none, and (when `exact`) keep no other digit; one call
/// of each on filled cells must fail exactly when the rule is broken.
pub(in crate::variant::constraints) fn check(
    rng: &mut ChaCha8Rng,
    size: usize,
    propagators: &[Box<dyn Propagator>],
    extra: &[Cell],
    holds: &dyn Fn(&[u32]) -> bool,
    trials: usize,
    exact: bool,
) -> Seen {
    let mut cells: Vec<usize> = extra
        .iter()
        .map(|&cell| cell.row * size + cell.col)
        .collect();
    for propagator in propagators {
        cells.extend(propagator.cells());
    }
    cells.sort_unstable();
    cells.dedup();
    let all: Mask = (1 << size) - 1;
    let mut seen = Seen::default();
    let mut digits = vec![0u32; size * size];
    for _ in 0..trials {
        let planted = (0..2000).find_map(|_| {
            for &cell in &cells {
                digits[cell] = below(rng, size) as u32 + 1;
            }
            holds(&digits).then(|| digits.clone())
        });
        // Random masks around the planted digits, narrowed until the assignments are
        // few enough to try.
        let mut masks = vec![all; size * size];
        let mut fixed = vec![0 as Mask; size * size];
        for &cell in &cells {
            if let Some(planted) = &planted {
                fixed[cell] = 1 << (planted[cell] - 1);
            }
            masks[cell] = ((rng.next_u64() | rng.next_u64()) as Mask & all) | fixed[cell];
            if masks[cell] == 0 {
                masks[cell] = all;
            }
        }
        let count = |masks: &[Mask]| {
            cells
                .iter()
                .map(|&cell| masks[cell].count_ones() as f64)
                .product::<f64>()
        };
        while count(&masks) > 20_000.0 {
            let cell = cells[below(rng, cells.len())];
            let spare = masks[cell] & !fixed[cell];
            if masks[cell].count_ones() > 1 && spare != 0 {
                let digits: Vec<u32> = (0..32).filter(|d| spare >> d & 1 != 0).collect();
                masks[cell] &= !(1 << digits[below(rng, digits.len())]);
            }
        }
        // Brute force: which digits some satisfying assignment uses.
        let mut support = vec![0 as Mask; size * size];
        let mut found: Option<Vec<u32>> = None;
        let choices: Vec<Vec<u32>> = cells
            .iter()
            .map(|&cell| {
                (1..=size as u32)
                    .filter(|d| masks[cell] >> (d - 1) & 1 != 0)
                    .collect()
            })
            .collect();
        let mut position = vec![0usize; cells.len()];
        'outer: loop {
            for (index, &cell) in cells.iter().enumerate() {
                digits[cell] = choices[index][position[index]];
            }
            if holds(&digits) {
                for &cell in &cells {
                    support[cell] |= 1 << (digits[cell] - 1);
                }
                if found.is_none() || below(rng, 4) == 0 {
                    found = Some(digits.clone());
                }
            }
            for index in 0..cells.len() {
                position[index] += 1;
                if position[index] < choices[index].len() {
                    continue 'outer;
                }
                position[index] = 0;
            }
            break;
        }
        let mut narrowed = masks.clone();
        let fine = settle(propagators, &mut narrowed);
        for &cell in &cells {
            assert_eq!(
                narrowed[cell] & !masks[cell],
                0,
                "cell {cell} gained digits"
            );
        }
        match &found {
            None => assert!(!exact || !fine, "exact, yet kept unsatisfiable {masks:?}"),
            Some(_) => {
                seen.solvable += 1;
                assert!(fine, "failed though satisfiable: {masks:?}");
                for &cell in &cells {
                    assert_eq!(
                        support[cell] & !narrowed[cell],
                        0,
                        "cell {cell} lost a supported digit: {masks:?} -> {narrowed:?}"
                    );
                    if exact {
                        assert_eq!(
                            narrowed[cell], support[cell],
                            "cell {cell} kept unsupported digits: {masks:?} -> {narrowed:?}"
                        );
                    }
                }
            }
        }
        // Completeness: a satisfying filling, the same with one cell changed, and a
        // random one.
        let mut fillings: Vec<Vec<u32>> = found.into_iter().collect();
        if let Some(found) = fillings.first() {
            let mut changed = found.clone();
            changed[cells[below(rng, cells.len())]] = below(rng, size) as u32 + 1;
            fillings.push(changed);
        }
        let mut random = vec![0u32; size * size];
        for &cell in &cells {
            random[cell] = below(rng, size) as u32 + 1;
        }
        fillings.push(random);
        for filling in fillings {
            let mut filled = vec![all; size * size];
            for &cell in &cells {
                filled[cell] = 1 << (filling[cell] - 1);
            }
            let fine = propagators
                .iter()
                .all(|propagator| propagator.propagate(&mut filled.clone()).is_ok());
            let holds = holds(&filling);
            assert_eq!(fine, holds, "filled {filling:?}");
            if holds {
                seen.kept += 1;
            } else {
                seen.broken += 1;
            }
        }
    }
    seen
}
