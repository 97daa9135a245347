//! Aligned exclusion: combinations of candidates in two (or three) cells that every
//! bivalue (or small) cell they all see rules out.

use super::board::Board;
use super::step::Step;

/// The first aligned pair exclusion.
pub fn aligned_pair_exclusion(board: &Board) -> Option<Step> {
    let _ = board;
    None
}

/// The first aligned triplet exclusion.
pub fn aligned_triplet_exclusion(board: &Board) -> Option<Step> {
    let _ = board;
    None
}
