//! The greedy path a person takes: at every step, the first technique in Sudoku
//! Explainer's fixed order that finds anything, applied, then back to the start of the
//! order. The order is not sorted by difficulty (a grouped two-link chain at 4.3 comes
//! before an XY-Wing at 4.2), and it is copied exactly, since the pattern found first
//! decides every later state.

use super::board::Board;
use super::chains::{Mode, chain_step};
use super::modes::VariantMode;
use super::step::Step;
use super::{
    aligned, fish, generalized, intersections, nonconsecutive, singles, strong_links, subsets,
    uniqueness, wings,
};
use crate::solver::Cancellation;

/// One technique search, in the reference's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Search {
    HiddenSingle,
    DirectLockedCandidates,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriple,
    LockedCandidates,
    GeneralizedLocking,
    NakedSet(u32),
    GeneralizedNakedSet(u32),
    ForcingCellNc,
    LockedNc,
    Fish(u32),
    HiddenSet(u32),
    StrongLinks(usize),
    XyWing,
    XyzWing,
    UniqueLoops,
    AlsWing(usize),
    Bug,
    AlignedPairExclusion,
    AlignedTripletExclusion,
    Chains(Mode),
}

/// The searches for 9×9 boards, in Sudoku Explainer's order.
const NINE_BY_NINE: &[Search] = &[
    Search::HiddenSingle,
    Search::DirectLockedCandidates,
    Search::DirectHiddenPair,
    Search::NakedSingle,
    Search::DirectHiddenTriple,
    Search::LockedCandidates,
    Search::NakedSet(2),
    Search::Fish(2),
    Search::HiddenSet(2),
    Search::NakedSet(3),
    Search::Fish(3),
    Search::HiddenSet(3),
    Search::StrongLinks(2),
    Search::XyWing,
    Search::XyzWing,
    Search::UniqueLoops,
    Search::NakedSet(4),
    Search::Fish(4),
    Search::HiddenSet(4),
    Search::StrongLinks(3),
    Search::AlsWing(4),
    Search::Bug,
    Search::StrongLinks(4),
    Search::AlsWing(5),
    Search::AlignedPairExclusion,
    Search::AlsWing(6),
    Search::Chains(Mode::FORCING_CHAINS_AND_CYCLES),
    Search::AlsWing(7),
    Search::AlignedTripletExclusion,
    Search::Chains(Mode::NISHIO),
    Search::Chains(Mode::MULTIPLE),
    Search::Chains(Mode::dynamic(0, 0)),
    Search::Chains(Mode::dynamic(1, 0)),
    Search::Chains(Mode::dynamic(2, 0)),
    Search::Chains(Mode::dynamic(3, 0)),
    Search::Chains(Mode::dynamic(4, 0)),
    Search::Chains(Mode::dynamic(4, 1)),
    Search::Chains(Mode::dynamic(4, 2)),
    Search::Chains(Mode::dynamic(4, 3)),
];

/// The searches defined on every size (singles, intersections, subsets, fish), in the same
/// order.
const ANY_SIZE: &[Search] = &[
    Search::HiddenSingle,
    Search::DirectLockedCandidates,
    Search::DirectHiddenPair,
    Search::NakedSingle,
    Search::DirectHiddenTriple,
    Search::LockedCandidates,
    Search::NakedSet(2),
    Search::Fish(2),
    Search::HiddenSet(2),
    Search::NakedSet(3),
    Search::Fish(3),
    Search::HiddenSet(3),
    Search::NakedSet(4),
    Search::Fish(4),
    Search::HiddenSet(4),
];

impl Search {
    /// The lowest difficulty a step of this search can have.
    fn lowest(self) -> f64 {
        match self {
            Search::HiddenSingle => 1.0,
            Search::DirectLockedCandidates => 1.7,
            Search::DirectHiddenPair => 2.0,
            Search::NakedSingle => 2.3,
            Search::ForcingCellNc => 2.4,
            Search::LockedNc | Search::DirectHiddenTriple => 2.5,
            Search::LockedCandidates => 2.6,
            Search::GeneralizedLocking => 2.9,
            Search::NakedSet(2) | Search::GeneralizedNakedSet(2) => 3.0,
            Search::Fish(2) => 3.2,
            Search::HiddenSet(2) => 3.4,
            Search::NakedSet(3) | Search::GeneralizedNakedSet(3) => 3.6,
            Search::Fish(3) => 3.8,
            Search::HiddenSet(3) | Search::StrongLinks(_) => 4.0,
            Search::XyWing => 4.2,
            Search::XyzWing => 4.4,
            Search::UniqueLoops => 4.5,
            Search::NakedSet(_) | Search::GeneralizedNakedSet(_) => 5.0,
            Search::Fish(_) => 5.2,
            Search::HiddenSet(_) => 5.4,
            Search::AlsWing(4) => 5.5,
            Search::Bug => 5.6,
            Search::AlsWing(5) | Search::AlignedPairExclusion => 6.2,
            Search::AlsWing(6) => 6.6,
            Search::AlsWing(_) | Search::AlignedTripletExclusion => 7.5,
            Search::Chains(mode) if mode == Mode::FORCING_CHAINS_AND_CYCLES => 6.5,
            Search::Chains(mode) => mode.difficulty(),
        }
    }

    fn find(self, board: &Board, cancel: &Cancellation) -> Option<Step> {
        match self {
            Search::HiddenSingle => singles::hidden_single(board),
            Search::DirectLockedCandidates => intersections::direct_locked_candidates(board),
            Search::DirectHiddenPair => subsets::direct_hidden_set(board, 2),
            Search::NakedSingle => singles::naked_single(board),
            Search::DirectHiddenTriple => subsets::direct_hidden_set(board, 3),
            Search::LockedCandidates => intersections::locked_candidates(board),
            Search::GeneralizedLocking => generalized::locking(board),
            Search::NakedSet(degree) => subsets::naked_set(board, degree),
            Search::GeneralizedNakedSet(degree) => subsets::generalized_naked_set(board, degree),
            Search::ForcingCellNc => nonconsecutive::forcing_cell(board),
            Search::LockedNc => nonconsecutive::locked(board),
            Search::Fish(degree) => fish::fish(board, degree),
            Search::HiddenSet(degree) => subsets::hidden_set(board, degree),
            Search::StrongLinks(links) => strong_links::strong_links(board, links),
            Search::XyWing => wings::xy_wing(board, false),
            Search::XyzWing => wings::xy_wing(board, true),
            Search::UniqueLoops => uniqueness::unique_loops(board),
            Search::AlsWing(size) => wings::als_wing(board, size),
            Search::Bug => uniqueness::bug(board),
            Search::AlignedPairExclusion => aligned::aligned_pair_exclusion(board),
            Search::AlignedTripletExclusion => aligned::aligned_triplet_exclusion(board),
            Search::Chains(mode) => chain_step(board, mode, cancel),
        }
    }
}

/// Why a path was not finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// No technique applies to the board.
    Stuck,
    /// The cancellation stopped it.
    Stopped,
}

/// The easiest step for `board`: the first technique in the order that finds one. A
/// search that `cancel` stops may miss steps, so its caller checks `cancel` before it
/// trusts the answer.
pub fn next_step(board: &Board, cancel: &Cancellation) -> Option<Step> {
    next_step_within(board, f64::INFINITY, cancel)
}

/// [`next_step`] among the searches whose steps may be as easy as `ceiling`: `None` also
/// when the next step would be harder.
fn next_step_within(board: &Board, ceiling: f64, cancel: &Cancellation) -> Option<Step> {
    let searches: Box<dyn Iterator<Item = Search>> = match board.geometry().mode() {
        Some(mode) if !mode.is_classic() => Box::new(variant_searches(mode)),
        _ if board.size() == 9 => Box::new(NINE_BY_NINE.iter().copied()),
        _ => Box::new(ANY_SIZE.iter().copied()),
    };
    // Checked before each search too, not only inside the chains: a path of hard steps
    // runs dozens of searches of a millisecond or less each.
    searches
        .filter(|search| search.lowest() <= ceiling)
        .take_while(|_| !cancel.is_cancelled())
        .find_map(|search| search.find(board, cancel))
}

/// Whether the path from `board` to its solution (a board of a puzzle with one solution)
/// takes no step harder than `ceiling`, without searching for harder steps; `None` when
/// `cancel` stopped it.
pub fn stays_within(board: &mut Board, ceiling: f64, cancel: &Cancellation) -> Option<bool> {
    while !board.is_solved() {
        let step = next_step_within(board, ceiling, cancel);
        if cancel.is_cancelled() {
            return None;
        }
        match step {
            Some(step) if step.difficulty <= ceiling => step.apply(board),
            _ => return Some(false),
        }
    }
    Some(true)
}

/// The searches of a variant `mode`, in the reference's order: the classic ones, with
/// generalized intersections and naked sets in their places when the mode's rules make
/// cells see more cells, and non-consecutive steps after naked singles.
fn variant_searches(mode: VariantMode) -> impl Iterator<Item = Search> {
    NINE_BY_NINE.iter().flat_map(move |&search| {
        let replaced = match search {
            Search::LockedCandidates if mode.generalized() => Search::GeneralizedLocking,
            Search::NakedSet(degree) if mode.generalized() => Search::GeneralizedNakedSet(degree),
            other => other,
        };
        let nonconsecutive = (search == Search::NakedSingle && mode.nonconsecutive)
            .then_some([Search::ForcingCellNc, Search::LockedNc]);
        std::iter::once(replaced).chain(nonconsecutive.into_iter().flatten())
    })
}

/// Steps from `board` until it is solved, applying each; the steps so far and why it
/// stopped, when it did not reach the end.
pub fn solve(board: &mut Board, cancel: &Cancellation) -> (Vec<Step>, Option<Stop>) {
    let mut steps = Vec::new();
    while !board.is_solved() {
        if cancel.is_cancelled() {
            return (steps, Some(Stop::Stopped));
        }
        let step = next_step(board, cancel);
        if cancel.is_cancelled() {
            return (steps, Some(Stop::Stopped));
        }
        let Some(step) = step else {
            return (steps, Some(Stop::Stuck));
        };
        step.apply(board);
        steps.push(step);
    }
    (steps, None)
}

/// The board of `puzzle` just before the first step of its path that uses `technique`
/// (tests look at the positions where the reference uses a technique this way).
#[cfg(test)]
pub fn board_before(puzzle: &str, technique: super::technique::Technique) -> Board {
    let grid = crate::grid::Grid::parse_symbols(puzzle).expect("a puzzle");
    let mut board = Board::from_grid(&grid);
    while let Some(step) = next_step(&board, &Cancellation::none()) {
        if step.technique == technique {
            return board;
        }
        step.apply(&mut board);
    }
    panic!("the path of {puzzle} never uses {technique:?}")
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    /// Singles and subsets take no `cancel` of their own: the path checks it before each
    /// search, so a stopped rating's last step ends within one search.
    #[test]
    fn a_stopped_search_tries_no_further_technique() {
        let puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let board = Board::from_grid(&crate::grid::Grid::parse_symbols(puzzle).unwrap());
        assert!(next_step(&board, &Cancellation::none()).is_some());
        let stopped = Cancellation::none().with_deadline(Instant::now());
        assert!(next_step(&board, &stopped).is_none());
    }
}
