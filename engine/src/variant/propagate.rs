//! The contract between the search and the constraints: each rule compiles into
//! propagators that narrow candidate masks.

use std::fmt::Debug;

/// The digits a cell may still hold: bit `d - 1` for digit `d` (sizes up to 16).
pub(crate) type Mask = u32;

/// A propagator found that no digits satisfy its rule in the current masks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Contradiction;

/// What a propagator may read about the grid besides the masks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context<'a> {
    /// The grid's size: rows, columns and digits.
    pub size: usize,
    /// The region of each cell, row-major, as in [`super::model::Puzzle::regions`].
    pub regions: &'a [Option<usize>],
    /// What the puzzle's rules draw that other rules read.
    pub drawn: &'a super::constraints::Drawn,
}

impl Context<'_> {
    /// The mask of every digit of the grid.
    pub fn all_digits(&self) -> Mask {
        (1 << self.size) - 1
    }

    /// The row-major index of a cell.
    pub fn index(&self, cell: super::model::Cell) -> usize {
        cell.row * self.size + cell.col
    }
}

/// One rule, or part of one, as the search applies it.
///
/// Two promises make the search correct, and the property tests check both:
/// - **sound:** `propagate` never removes a digit that some solution of the rule (with the
///   current masks) puts in that cell;
/// - **complete when filled:** when every cell of `cells` holds a single digit, it returns
///   `Err(Contradiction)` unless those digits satisfy the rule.
pub(crate) trait Propagator: Debug + Send + Sync {
    /// The cells (row-major indices) the rule reads: the search runs it again whenever one
    /// of their masks narrows.
    fn cells(&self) -> &[usize];

    /// What the propagator weighs against [`super::constraints::compiled_limit`]: the
    /// cells it reads, and the entries of any table it keeps.
    fn weight(&self) -> usize {
        self.cells().len()
    }

    /// Whether one call always leaves nothing for a second one to narrow: then the search
    /// does not run it again for the masks it narrowed itself.
    fn idempotent(&self) -> bool {
        false
    }

    /// Whether a cell of it narrowed but still open can let it narrow more: when not (a
    /// rule that only a placed digit moves, as "different digits" in two cells), the
    /// search runs it again only when one of its cells is left with one digit.
    fn wakes_on_open(&self) -> bool {
        true
    }

    /// Removes digits that cannot satisfy the rule. `masks` holds every cell of the grid,
    /// row-major; an empty mask is left for the search to see, or reported as a
    /// contradiction.
    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction>;
}
