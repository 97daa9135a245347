//! The search for variant puzzles: one candidate mask per cell, the propagators run to a
//! fixed point, and depth-first branching.
//!
//! Propagation (`propagation.rs`) is driven by a queue of propagators: whenever a mask
//! narrows, every propagator that reads that cell is queued again (the one that narrowed
//! it too, unless it is idempotent: a propagator need not reach its own fixed point). A
//! guess copies the masks one level deeper in a buffer sized before the search starts, so
//! backtracking is going back a level and nothing is allocated per node.
//!
//! The search branches on the open cell whose count of candidates, squared, is least for
//! its weight (for [`Order::Lexicographic`], the first open cell in reading order) and
//! tries its digits in increasing order. A cell's weight is how many propagators read it
//! plus how many contradictions they have found so far (dom/wdeg, with the candidates
//! squared): a search learns where its conflicts are and branches there first, which on
//! given-less puzzles with a dozen lines can take a hundredth of the guesses. Squaring the
//! candidates keeps a cell of two candidates ahead of a busier cell of many: with plain
//! dom/wdeg, the weights alone sometimes led a search into a tree twenty times larger.
//! The weights are kept from one run to the next, so a search that starts again after
//! probing, and each question of true candidates, starts from what the runs before it
//! learned.
//!
//! A search that takes more than a few guesses per cell starts again on a probed root:
//! each digit of each open cell is placed on a copy and propagated. One that fails leaves
//! the root; one that holds is remembered with what it removed, and propagation applies
//! that again whenever the digit is placed below. On the community puzzles this turns
//! thousands of guesses into none or a few hundred, for a few milliseconds at the root;
//! grids that propagation leaves nearly empty, whose first solutions come at once, are
//! not held up by it. True candidates probe before anything else: probing is their first
//! step.
//!
//! True candidates: the count tallies the digits of each solution it finds, and when it
//! visits every solution (a unique puzzle, say) that tally is the answer. Otherwise a
//! first search lists solutions up to a budget, each confirming its digits; then each
//! candidate not yet confirmed (or not yet counted up to the cap) is fixed and searched for
//! on its own. A refuted candidate leaves the root, which is
//! propagated again, so the questions after it shrink.

use std::ops::ControlFlow;
use std::time::Instant;

use super::constraints::{VariantError, compile};
use super::model::Puzzle;
use super::propagate::{Mask, Propagator};
use super::propagation::{Propagation, is_open};
use crate::solver::{Cancellation, Order, StopCheck, Stopped};

/// Search nodes between two looks at the cancellation; a node costs a microsecond or a few,
/// so a stop is seen well within a millisecond.
const POLL_PERIOD: u32 = 64;

/// Solutions the first search of true candidates lists before asking about candidates one
/// by one: puzzles with fewer solutions are settled by that one search. Tests list only a
/// few, so that the small grids they compare with brute force take both ways.
const LISTED_SOLUTIONS: u32 = if cfg!(test) { 3 } else { 4096 };

/// What to search for in a variant puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VariantSolveOptions {
    /// Which solution to report first.
    pub order: Order,
    /// Stop counting solutions once this many are found (at least 1; 2 decides
    /// uniqueness).
    pub max_solutions: u64,
    /// Also find the digits each cell holds in some solution; with a cap above 1
    /// (at most 100), also count each one's solutions up to the cap.
    pub true_candidates: Option<u32>,
    /// Give up after this many guesses (without true candidates): the answer then has no
    /// solution and `count_exact: false`. A budget that, unlike a time limit, stops the
    /// same search at the same place on every machine.
    pub max_guesses: Option<u64>,
}

impl Default for VariantSolveOptions {
    fn default() -> Self {
        VariantSolveOptions {
            order: Order::Fastest,
            max_solutions: 1,
            true_candidates: None,
            max_guesses: None,
        }
    }
}

/// What a variant solve found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantAnswer {
    /// The first solution's digits, row-major (for [`Order::Lexicographic`], the smallest
    /// read row by row); `None` when there is none.
    pub solution: Option<Vec<u8>>,
    /// Solutions found, at most `max_solutions`.
    pub solution_count: u64,
    /// Whether `solution_count` is every solution: false when counting stopped at
    /// `max_solutions` or at the time limit.
    pub count_exact: bool,
    /// When asked: for each cell, row-major, the sorted digits it holds in some solution.
    pub true_candidates: Option<Vec<Vec<u8>>>,
    /// When asked with a cap above 1: for each cell, and each of its true candidates in the
    /// same order, how many solutions put it there, up to the cap.
    pub true_candidate_counts: Option<Vec<Vec<u32>>>,
    /// Branches taken on a digit that propagation could not deduce, over the whole solve.
    pub guesses: u64,
}

/// Solves `puzzle`: its first solution, how many there are up to `max_solutions`, and the
/// true candidates when asked.
///
/// Givens that break the rules give no solution and a count of 0. When the cancellation
/// stops the search before any solution is found, or before the true candidates are
/// complete, the answer is [`VariantError::Stopped`]; when it stops a count after the
/// first solution, the count found so far comes back with `count_exact: false`. Rules that
/// compile to more than [`super::compiled_limit`] are [`VariantError::TooLarge`].
pub fn solve(
    puzzle: &Puzzle,
    options: &VariantSolveOptions,
    cancellation: &Cancellation,
) -> Result<VariantAnswer, VariantError> {
    let propagators = compile(puzzle, cancellation)?;
    solve_compiled(puzzle, &propagators, options, cancellation).map_err(VariantError::from)
}

/// [`solve`] once the puzzle is compiled into `propagators`.
fn solve_compiled(
    puzzle: &Puzzle,
    propagators: &[Box<dyn Propagator>],
    options: &VariantSolveOptions,
    cancellation: &Cancellation,
) -> Result<VariantAnswer, Stopped> {
    let mut search = Search::new(puzzle, propagators, options.order, cancellation);
    if search.poll.stopped() {
        return Err(Stopped);
    }
    let cells = puzzle.size() * puzzle.size();
    let cap = options.true_candidates.map(|cap| cap.max(1));
    let no_solution = VariantAnswer {
        solution: None,
        solution_count: 0,
        count_exact: true,
        true_candidates: cap.map(|_| vec![Vec::new(); cells]),
        true_candidate_counts: cap.filter(|&cap| cap > 1).map(|_| vec![Vec::new(); cells]),
        guesses: 0,
    };
    let Some(mut root) = search.root(puzzle) else {
        return Ok(no_solution);
    };

    let limit = options.max_solutions.max(1);
    // True candidates probe in any case: before the count, which then gains from it.
    let budget = match cap {
        Some(_) if !search.probe(&mut root)? => return Ok(no_solution),
        Some(_) => u64::MAX,
        None => options
            .max_guesses
            .unwrap_or(cells as u64 * GUESSES_PER_CELL_BEFORE_PROBING),
    };
    // True candidates tally the solutions counted: when the count visits every one, they
    // are the answer, and the puzzle is not searched again. So that a unique puzzle is
    // visited whole, they count to 2 at least (and report no more than asked).
    let mut counted = cap.map(|cap| (vec![0; cells * puzzle.size()], cap));
    let counting = if cap.is_some() { limit.max(2) } else { limit };
    let (mut end, mut solution, mut solution_count) =
        search.count(&root, counting, budget, counted.as_mut());
    if solution_count > limit {
        (end, solution_count) = (End::Enough, limit);
    }
    if end == End::OverBudget && options.max_guesses.is_some() && cap.is_none() {
        return Ok(VariantAnswer {
            count_exact: false,
            ..no_solution
        });
    }
    if end == End::OverBudget {
        // Stopped while probing or counting again: what the most complete count found.
        end = End::Stopped;
        match search.probe(&mut root) {
            Ok(false) => return Ok(no_solution),
            Ok(true) => {
                let again = search.count(&root, limit, u64::MAX, None);
                if again.0 != End::Stopped || again.2 >= solution_count {
                    (end, solution, solution_count) = again;
                }
            }
            Err(Stopped) => {}
        }
    }
    if end == End::Stopped && solution_count == 0 {
        return Err(Stopped);
    }
    let mut answer = VariantAnswer {
        solution,
        solution_count,
        count_exact: end == End::Exhausted,
        true_candidates: None,
        true_candidate_counts: None,
        guesses: 0,
    };
    if let Some(cap) = cap {
        let counts = match counted {
            Some((counts, _)) if end == End::Exhausted => counts,
            _ => search.true_candidates(&mut root, cap)?,
        };
        let per_cell = || counts.chunks_exact(puzzle.size());
        answer.true_candidates = Some(
            per_cell()
                .map(|counts| {
                    (1..)
                        .zip(counts)
                        .filter(|(_, count)| **count > 0)
                        .map(|(digit, _)| digit)
                        .collect()
                })
                .collect(),
        );
        if cap > 1 {
            answer.true_candidate_counts = Some(
                per_cell()
                    .map(|counts| counts.iter().copied().filter(|&count| count > 0).collect())
                    .collect(),
            );
        }
    }
    answer.guesses = search.guesses;
    Ok(answer)
}

/// The digit of a mask that holds one.
fn digit(mask: Mask) -> u8 {
    debug_assert_eq!(mask.count_ones(), 1);
    mask.trailing_zeros() as u8 + 1
}

/// Counts a solution's digit in each cell (at `cell * size + digit - 1`), up to `cap`.
fn tally(counts: &mut [u32], solution: &[Mask], size: usize, cap: u32) {
    for (cell, &mask) in solution.iter().enumerate() {
        let count = &mut counts[cell * size + mask.trailing_zeros() as usize];
        *count = (*count + 1).min(cap);
    }
}

/// The masks of a puzzle's givens: a given holds its digit, an open cell every digit.
pub(super) fn given_masks(puzzle: &Puzzle) -> Vec<Mask> {
    let all: Mask = (1 << puzzle.size()) - 1;
    puzzle
        .givens()
        .iter()
        .map(|given| match given {
            None => all,
            Some(digit) => 1 << (digit - 1),
        })
        .collect()
}

/// Guesses per cell that a search may take before the root is probed: most puzzles that
/// propagation leaves open are settled within a few hundred guesses, for less than
/// probing costs; the others are probed and searched again. Tests allow fewer, so that
/// the small grids they compare with brute force take both ways.
const GUESSES_PER_CELL_BEFORE_PROBING: u64 = if cfg!(test) { 1 } else { 4 };

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// Every solution was visited.
    Exhausted,
    /// The visitor asked to stop.
    Enough,
    /// The cancellation stopped it.
    Stopped,
    /// It took all the guesses of its budget.
    OverBudget,
}

/// A depth-first search over candidate masks.
struct Search<'a> {
    size: usize,
    cells: usize,
    propagation: Propagation<'a>,
    /// One level of masks per depth, `cells` masks each.
    stack: Vec<Mask>,
    lexicographic: bool,
    poll: StopCheck<'a>,
    /// Branches taken on a digit of a cell with several, over every run.
    guesses: u64,
    /// The running search stops once `guesses` reaches this.
    budget: u64,
}

impl<'a> Search<'a> {
    fn new(
        puzzle: &Puzzle,
        propagators: &'a [Box<dyn Propagator>],
        order: Order,
        cancellation: &'a Cancellation,
    ) -> Self {
        let cells = puzzle.size() * puzzle.size();
        Search {
            size: puzzle.size(),
            cells,
            propagation: Propagation::new(propagators, puzzle.size()),
            stack: vec![0; (cells + 1) * cells],
            lexicographic: order == Order::Lexicographic,
            guesses: 0,
            budget: u64::MAX,
            poll: StopCheck::new(cancellation, POLL_PERIOD, Instant::now()),
        }
    }

    /// The givens' masks with every propagator run to a fixed point; `None` when they
    /// break a rule.
    fn root(&mut self, puzzle: &Puzzle) -> Option<Vec<Mask>> {
        let mut masks = given_masks(puzzle);
        self.propagation.push_all();
        self.propagation.run(&mut masks).then_some(masks)
    }

    /// Counts the solutions below `root` up to `limit`, within `budget` guesses: how the
    /// search ended, the first solution's digits and the count. With `counted`, also
    /// tallies how many put each digit in each cell, up to its cap.
    fn count(
        &mut self,
        root: &[Mask],
        limit: u64,
        budget: u64,
        mut counted: Option<&mut (Vec<u32>, u32)>,
    ) -> (End, Option<Vec<u8>>, u64) {
        let size = self.size;
        let mut solution = None;
        let mut count = 0;
        let end = self.run(root, None, budget, &mut |masks| {
            if solution.is_none() {
                solution = Some(masks.iter().map(|&mask| digit(mask)).collect());
            }
            if let Some((counts, cap)) = counted.as_deref_mut() {
                tally(counts, masks, size, *cap);
            }
            count += 1;
            if count >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (end, solution, count)
    }

    /// Failed-literal probing, in one pass over the cells: each digit of each open cell is
    /// placed on a copy of the root and propagated. A digit that fails leaves the root
    /// (which is propagated again, so the digits after it are probed on a smaller root);
    /// one that holds teaches what it removes elsewhere, which propagation then applies
    /// whenever that digit is placed. False when the root fails. Once done, probing again
    /// does nothing. (Passes again after a refutation cost more than they saved on the
    /// community puzzles, and would make the cost quadratic.)
    fn probe(&mut self, root: &mut [Mask]) -> Result<bool, Stopped> {
        let (cells, size) = (self.cells, self.size);
        let probed = !self.propagation.implications.is_empty();
        if probed || !root.iter().any(|&mask| is_open(mask)) {
            return Ok(true);
        }
        self.propagation.implications = vec![Vec::new(); cells * size];
        for cell in 0..cells {
            let mut digits = root[cell];
            while is_open(root[cell]) && digits != 0 {
                if self.poll.should_stop() {
                    return Err(Stopped);
                }
                let bit = digits & digits.wrapping_neg();
                digits &= digits - 1;
                if root[cell] & bit == 0 {
                    continue;
                }
                let probe = &mut self.stack[cells..2 * cells];
                probe.copy_from_slice(root);
                probe[cell] = bit;
                self.propagation.narrowed(cell, bit);
                if self.propagation.run(probe) {
                    let learned = (0..cells)
                        .filter(|&other| other != cell && probe[other] != root[other])
                        .map(|other| (other as u32, root[other] & !probe[other]))
                        .collect();
                    let candidate = cell * size + bit.trailing_zeros() as usize;
                    self.propagation.implications[candidate] = learned;
                } else {
                    root[cell] &= !bit;
                    self.propagation.narrowed(cell, root[cell]);
                    if !self.propagation.run(root) {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// Visits the solutions below `root` (with `fixed`'s cell narrowed to its mask, if
    /// given) until `visit` breaks, none is left, or the guesses over every run reach
    /// `budget`.
    fn run(
        &mut self,
        root: &[Mask],
        fixed: Option<(usize, Mask)>,
        budget: u64,
        visit: &mut dyn FnMut(&[Mask]) -> ControlFlow<()>,
    ) -> End {
        let cells = self.cells;
        self.budget = budget;
        self.stack[..cells].copy_from_slice(root);
        if let Some((cell, mask)) = fixed {
            let narrowed = self.stack[cell] & mask;
            if narrowed == 0 {
                return End::Exhausted;
            }
            if narrowed != self.stack[cell] {
                self.stack[cell] = narrowed;
                self.propagation.narrowed(cell, narrowed);
                if !self.propagation.run(&mut self.stack[..cells]) {
                    return End::Exhausted;
                }
            }
        }
        match self.descend(0, visit) {
            ControlFlow::Break(end) => end,
            ControlFlow::Continue(()) => End::Exhausted,
        }
    }

    /// Visits the solutions below the propagated masks at `depth`; breaks with why it
    /// stopped before the end.
    fn descend(
        &mut self,
        depth: usize,
        visit: &mut dyn FnMut(&[Mask]) -> ControlFlow<()>,
    ) -> ControlFlow<End> {
        if self.poll.should_stop() {
            return ControlFlow::Break(End::Stopped);
        }
        if self.guesses >= self.budget {
            return ControlFlow::Break(End::OverBudget);
        }
        let cells = self.cells;
        let level = depth * cells;
        let Some(cell) = self.choose(&self.stack[level..level + cells]) else {
            return match visit(&self.stack[level..level + cells]) {
                ControlFlow::Break(()) => ControlFlow::Break(End::Enough),
                ControlFlow::Continue(()) => ControlFlow::Continue(()),
            };
        };
        let mut digits = self.stack[level + cell];
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            let (current, next) = self.stack.split_at_mut(level + cells);
            let next = &mut next[..cells];
            next.copy_from_slice(&current[level..]);
            next[cell] = bit;
            self.guesses += 1;
            self.propagation.narrowed(cell, bit);
            if self.propagation.run(next) {
                self.descend(depth + 1, visit)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The cell to branch on, `None` when every cell holds one digit: the first open cell
    /// for [`Order::Lexicographic`], otherwise the one whose candidates squared divided by
    /// its weight in conflicts is least (the first such in reading order).
    fn choose(&self, masks: &[Mask]) -> Option<usize> {
        if self.lexicographic {
            return masks.iter().position(|&mask| is_open(mask));
        }
        let conflicts = &self.propagation.conflicts;
        let mut best = None;
        let (mut fewest, mut weight) = (u64::MAX, 1u64);
        for (cell, &mask) in masks.iter().enumerate() {
            if is_open(mask) {
                let count = u64::from(mask.count_ones());
                let conflicts = u64::from(conflicts[cell]);
                // count² / conflicts < fewest² / weight, without dividing.
                if best.is_none() || count * count * weight < fewest * fewest * conflicts {
                    best = Some(cell);
                    fewest = count;
                    weight = conflicts;
                }
            }
        }
        best
    }

    /// How many solutions put each digit in each cell (at `cell * size + digit - 1`), up to
    /// `cap`, for a puzzle that has a solution; `root` loses the candidates refuted.
    fn true_candidates(&mut self, root: &mut [Mask], cap: u32) -> Result<Vec<u32>, Stopped> {
        let size = self.size;
        let mut counts = vec![0u32; self.cells * size];
        let mut listed = 0;
        let end = self.run(root, None, u64::MAX, &mut |masks| {
            tally(&mut counts, masks, size, cap);
            listed += 1;
            if listed >= LISTED_SOLUTIONS {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        match end {
            // No budget here: taking it all is as impossible as it is final.
            End::Stopped | End::OverBudget => return Err(Stopped),
            End::Exhausted => return Ok(counts),
            End::Enough => {}
        }
        // Solutions of the whole puzzle, up to the cap, once asked.
        let mut everything: Option<u32> = None;
        for cell in 0..self.cells {
            let mut digits = root[cell];
            while digits != 0 {
                let bit = digits & digits.wrapping_neg();
                digits &= digits - 1;
                let slot = cell * size + bit.trailing_zeros() as usize;
                if counts[slot] >= cap || root[cell] & bit == 0 {
                    continue;
                }
                if let (true, Some(everything)) = (root[cell] == bit, everything) {
                    counts[slot] = everything;
                    continue;
                }
                let mut found = 0;
                let end = self.run(root, Some((cell, bit)), u64::MAX, &mut |masks| {
                    found += 1;
                    if cap == 1 {
                        tally(&mut counts, masks, size, cap);
                    }
                    if found >= cap {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                if end == End::Stopped {
                    return Err(Stopped);
                }
                counts[slot] = counts[slot].max(found);
                if root[cell] == bit {
                    everything = Some(found);
                }
                if found == 0 {
                    root[cell] &= !bit;
                    self.propagation.narrowed(cell, root[cell]);
                    let consistent = self.propagation.run(root);
                    debug_assert!(consistent, "a solution remains");
                }
            }
        }
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::model::{Cell, Constraint, Origin, Rule};

    fn constraint(rule: Rule) -> Constraint {
        Constraint {
            origin: Origin {
                kind: "test".into(),
                index: 0,
            },
            rule,
        }
    }

    fn puzzle(size: usize, givens: &str, constraints: Vec<Constraint>) -> Puzzle {
        let givens = givens
            .bytes()
            .map(|byte| (byte != b'.').then(|| byte - b'0'))
            .collect();
        Puzzle::new(size, givens, None, constraints).unwrap()
    }

    fn classic(size: usize, givens: &str) -> Puzzle {
        puzzle(size, givens, Vec::new())
    }

    #[test]
    fn a_classic_puzzle_has_one_solution() {
        let puzzle = classic(
            9,
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        let options = VariantSolveOptions {
            max_solutions: 2,
            ..VariantSolveOptions::default()
        };
        let answer = solve(&puzzle, &options, &Cancellation::none()).unwrap();
        assert_eq!(answer.solution_count, 1);
        assert!(answer.count_exact);
        let solution: String = answer
            .solution
            .unwrap()
            .iter()
            .map(|d| d.to_string())
            .collect();
        assert_eq!(
            solution,
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
        );
    }

    #[test]
    fn broken_givens_have_no_solution() {
        let puzzle = classic(4, "11..............");
        let options = VariantSolveOptions {
            true_candidates: Some(3),
            ..VariantSolveOptions::default()
        };
        let answer = solve(&puzzle, &options, &Cancellation::none()).unwrap();
        assert_eq!(answer.solution, None);
        assert_eq!(answer.solution_count, 0);
        assert!(answer.count_exact);
        assert_eq!(answer.true_candidates, Some(vec![Vec::new(); 16]));
        assert_eq!(answer.true_candidate_counts, Some(vec![Vec::new(); 16]));
    }

    #[test]
    fn lexicographic_order_gives_the_smallest_solution() {
        let cage = constraint(Rule::KillerCage {
            cells: vec![Cell { row: 0, col: 0 }, Cell { row: 0, col: 1 }],
            sum: Some(17),
        });
        let puzzle = puzzle(9, &".".repeat(81), vec![cage]);
        let options = VariantSolveOptions {
            order: Order::Lexicographic,
            ..VariantSolveOptions::default()
        };
        let answer = solve(&puzzle, &options, &Cancellation::none()).unwrap();
        let solution = answer.solution.unwrap();
        assert_eq!(solution[..9], [8, 9, 1, 2, 3, 4, 5, 6, 7]);
        assert!(!answer.count_exact);
    }

    #[test]
    fn a_raised_flag_stops_before_the_first_solution() {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let puzzle = classic(9, &".".repeat(81));
        let cancellation = Cancellation::none().with_flag(flag);
        let options = VariantSolveOptions::default();
        assert_eq!(
            solve(&puzzle, &options, &cancellation),
            Err(VariantError::Stopped)
        );
    }
}
