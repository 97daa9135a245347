//! Forcing chains and cycles, as the reference's `Chaining` rule searches and rates them.
//!
//! - `graph`: potentials, the nodes that derive them, and the reference's sets;
//! - `implications`: the direct consequences of one potential;
//! - `search`: the searches of each mode;
//! - `advanced`: the implications of other techniques, used from level 1 on;
//! - `hints`: what a search finds, rated, and as a step.

mod advanced;
mod bitboard;
mod graph;
mod hints;
mod implications;
mod search;

use self::search::Search;
use super::board::Board;
use super::step::Step;
use crate::solver::Cancellation;

/// What a chain search looks for (the reference's `Chaining` settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// Cell and region forcing chains (multiple branches).
    pub multiple: bool,
    /// Chains that remember what they removed (dynamic).
    pub dynamic: bool,
    /// Single-digit contradictions only (Nishio).
    pub nishio: bool,
    /// How many levels of other techniques (and nested chains) help the chains along.
    pub level: u8,
    /// For level 4 and up: the level of the nested dynamic chains.
    pub nesting_limit: u8,
}

impl Mode {
    /// Static forcing chains and cycles (X, Y and XY).
    pub const FORCING_CHAINS_AND_CYCLES: Mode = Mode::new(false, false, false, 0, 0);
    /// Nishio forcing chains.
    pub const NISHIO: Mode = Mode::new(false, true, true, 0, 0);
    /// Static cell and region forcing chains.
    pub const MULTIPLE: Mode = Mode::new(true, false, false, 0, 0);

    const fn new(
        multiple: bool,
        dynamic: bool,
        nishio: bool,
        level: u8,
        nesting_limit: u8,
    ) -> Mode {
        Mode {
            multiple,
            dynamic,
            nishio,
            level,
            nesting_limit,
        }
    }

    /// Dynamic forcing chains helped by techniques of `level` (0: none; 1: locking,
    /// subsets and X-Wings; 2: also forcing chains; 3: also multiple ones; 4: also dynamic
    /// ones of `nesting_limit`).
    pub const fn dynamic(level: u8, nesting_limit: u8) -> Mode {
        Mode::new(true, true, false, level, nesting_limit)
    }

    /// The base difficulty of multi-chain hints of this mode.
    pub fn difficulty(self) -> f64 {
        if self.level > 0 {
            8.5 + 0.5 * f64::from(self.level)
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }
}

/// The easiest hint of a chain search in `mode` on `board` (the first of the smallest
/// difficulty, complexity and kind, in the order found), as a step.
pub fn chain_step(board: &Board, mode: Mode, cancel: &Cancellation) -> Option<Step> {
    let mut search = Search::new(mode, board, cancel);
    search.run();
    let best =
        search
            .hints
            .iter()
            .fold(None, |best: Option<&hints::ChainHint>, hint| match best {
                Some(best) if !hint.sorts_before(best) => Some(best),
                _ => Some(hint),
            })?;
    Some(best.to_step(&search.arena))
}
