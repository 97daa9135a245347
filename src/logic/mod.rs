//! Solving as a person does: a board of candidates, techniques that each find one kind of
//! step, and the greedy path through them that Sudoku Explainer rates.
//!
//! - `board`: digits and candidates, and the houses of each size;
//! - `step`, `technique`: a step as data, and the techniques' ids;
//! - `singles`, `intersections`, `subsets`, `fish`: the techniques defined on every size;
//! - `strong_links`, `wings`, `uniqueness`, `aligned`: the other techniques of 9×9 boards;
//! - `chains`: forcing chains and cycles, static, Nishio, multiple, dynamic and nested;
//! - `path`: the reference's order of techniques, and the path it takes.

mod aligned;
pub mod board;
mod chains;
pub(crate) mod fish;
pub(crate) mod intersections;
pub mod path;
mod singles;
pub mod step;
mod strong_links;
pub(crate) mod subsets;
pub mod technique;
mod uniqueness;
mod wings;
