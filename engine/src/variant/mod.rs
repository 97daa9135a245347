//! Variant Sudoku: the rule sets setters exchange as f-puzzles JSON and SudokuPad links
//! (killer cages, irregular regions, diagonals, thermometers, arrows, kropki dots, …),
//! solved, counted, checked, with true candidates.
//!
//! Data flows one way: input (f-puzzles JSON, a link, or the native rules) → [`Puzzle`] →
//! [`solve`] or [`check()`]. Classic Sudoku is the rule set with nothing added, but classic
//! grids keep their own faster engines in [`crate::solver`].

mod check;
mod constraints;
pub(crate) mod deduce;
mod forms;
pub mod lz_string;
pub mod model;
mod propagate;
mod propagation;
mod read;
mod search;
#[cfg(test)]
pub(crate) mod tests;
mod write;

pub use check::{Broken, check};
pub(crate) use constraints::compile;
pub use constraints::{VariantError, compiled_limit};
pub use model::{Cell, Constraint, ModelError, Origin, Puzzle, Rule};
pub use read::{VariantInputError, parse_fpuzzles, parse_fpuzzles_value, parse_native};
pub use search::{VariantAnswer, VariantSolveOptions, solve};
