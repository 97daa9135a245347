//! The 9×9 engine (temporarily the any-size engine).

use super::{Cancellation, Search, SolveOptions};
use crate::grid::Grid;

/// Searches a 9×9 `grid` for up to `options.limit` solutions.
pub(super) fn search(grid: &Grid, options: &SolveOptions, cancel: &Cancellation) -> Search {
    super::any_size::search(grid, options, cancel)
}
