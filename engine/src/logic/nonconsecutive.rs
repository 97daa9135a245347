//! The non-consecutive mode's own steps.

use super::board::Board;
use super::step::Step;

/// The first forcing cell.
pub fn forcing_cell(_board: &Board) -> Option<Step> {
    None
}

/// The first locked digit.
pub fn locked(_board: &Board) -> Option<Step> {
    None
}
