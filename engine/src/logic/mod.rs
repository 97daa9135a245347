//! Solving as a person does: a board of candidates, techniques that each find one kind of
//! step, and the greedy path through them that Sudoku Explainer rates.
//!
//! - `board`: digits and candidates, and the houses of each size;
//! - `step`, `technique`: a step as data, and the techniques' ids;
//! - `singles`, `intersections`, `subsets`, `fish`: the techniques defined on every size;
//! - `strong_links`, `wings`, `uniqueness`, `aligned`: the other techniques of 9×9 boards,
//!   with `cell_masks` for their sets of cells;
//! - `chains`: forcing chains and cycles, static, Nishio, multiple, dynamic and nested;
//! - `path`: the reference's order of techniques, and the path it takes;
//! - `rating`, `hint`: what the service answers: a puzzle's ratings and explanation, and
//!   the next step from a player's state.

mod aligned;
pub mod board;
mod cell_masks;
mod chains;
pub(crate) mod fish;
pub(crate) mod generalized;
pub mod hint;
pub(crate) mod intersections;
pub mod modes;
mod nonconsecutive;
pub mod path;
pub mod rating;
mod singles;
pub mod step;
mod strong_links;
pub(crate) mod subsets;
pub mod technique;
mod uniqueness;
mod variant;
mod wings;

use thiserror::Error;

use crate::grid::Grid;
use crate::solver::{self, Cancellation, Outcome, SolveOptions, Stopped};
use crate::validate::{Conflict, validate};

pub use hint::{Hint, Mistake, MistakeKind, hint};
pub use rating::{
    Explanation, Level, MODEL, RATINGS_BELOW_4, Rating, TechniqueUse, explain, explain_in_mode,
    may_rate_within, rate, rate_variant,
};
pub use variant::{VariantExplanation, explain_variant, hint_variant, level_within};

/// Why a puzzle could not be rated, explained or hinted.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LogicError {
    /// Ratings exist for 9×9 puzzles only.
    #[error("ratings exist for 9×9 puzzles only; this one is {0}×{0}")]
    UnsupportedSize(usize),
    /// The puzzle has no solution, though its givens break no rule.
    #[error("the puzzle has no solution")]
    Unsolvable,
    /// The puzzle has no solution because its givens break these rules.
    #[error("the puzzle has no solution")]
    ConflictingGivens(Vec<Conflict>),
    /// The puzzle has several solutions, so no logical path can decide between them.
    #[error("the puzzle has more than one solution")]
    NotUnique,
    /// A player's grid or marks do not fit the puzzle.
    #[error("{0}")]
    Mismatch(String),
    /// No technique applies to a 9×9 puzzle with one solution (none is known to exist).
    #[error("no technique applies to this puzzle")]
    BeyondTechniques,
    /// A variant puzzle's rules compile to more than the limit for its size.
    #[error("the puzzle's rules compile to more than {limit}, the limit for a {size}×{size} grid")]
    TooManyRules {
        /// The puzzle's size.
        size: usize,
        /// The limit for that size.
        limit: usize,
    },
    /// The puzzle's rules (or its size or regions) have no Sukaku Explainer scale: the
    /// kinds of those rules.
    #[error("no rating scale exists for {}", .0.join(", "))]
    NoScale(Vec<&'static str>),
    /// The work was stopped: cancelled, or out of time.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// The one solution of `puzzle`, or why there is none.
fn unique_solution(puzzle: &Grid, cancel: &Cancellation) -> Result<Grid, LogicError> {
    let verdict = validate(puzzle);
    if !verdict.valid {
        return Err(LogicError::ConflictingGivens(verdict.conflicts));
    }
    let options = SolveOptions {
        limit: 2,
        ..SolveOptions::default()
    };
    match solver::solve(puzzle, &options, cancel).outcome {
        Outcome::Solved { solution, count: 1 } => Ok(solution),
        Outcome::Solved { .. } => Err(LogicError::NotUnique),
        Outcome::Unsolvable => Err(LogicError::Unsolvable),
        Outcome::Stopped => Err(LogicError::Stopped(Stopped)),
    }
}
