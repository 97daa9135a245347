//! What a request asks to generate, made the same way for either kind: classic puzzles
//! and variant modes, whose givens alone are made, or puzzles whose rules are drawn too.

use super::drawn::{self, DrawnOptions, DrawnPuzzle};
use super::{GenerateOptions, Generated, generate};
use crate::solver::{Cancellation, Stopped};

/// What to generate: puzzles whose givens alone are made (classic, or under the rules of
/// a variant mode), or puzzles whose rules are drawn too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Order {
    /// Givens are made: [`generate`].
    Givens(GenerateOptions),
    /// Rules and givens are made: [`drawn::generate_drawn`].
    Drawn(DrawnOptions),
}

/// A puzzle made for an [`Order`].
#[derive(Debug, Clone, PartialEq)]
pub enum Made {
    /// A puzzle of givens.
    Givens(Generated),
    /// A puzzle with drawn rules.
    Drawn(DrawnPuzzle),
}

impl Order {
    /// The puzzle of `seed`.
    pub fn make(&self, seed: u64, cancel: &Cancellation) -> Result<Made, Stopped> {
        match self {
            Order::Givens(options) => generate(options, seed, cancel).map(Made::Givens),
            Order::Drawn(options) => drawn::generate_drawn(options, seed, cancel).map(Made::Drawn),
        }
    }

    /// Whether the puzzles must be of a band or level.
    pub fn banded(&self) -> bool {
        match self {
            Order::Givens(options) => options.banded(),
            Order::Drawn(options) => options.level().is_some(),
        }
    }

    /// Whether the puzzles must have no given that could go.
    pub fn minimal(&self) -> bool {
        match self {
            Order::Givens(options) => options.minimal(),
            Order::Drawn(options) => options.minimal(),
        }
    }

    /// Whether the givens must have a symmetry.
    pub fn symmetric(&self) -> bool {
        match self {
            Order::Givens(options) => options.symmetric(),
            Order::Drawn(options) => options.symmetric(),
        }
    }

    /// Whether the givens are capped.
    pub fn capped(&self) -> bool {
        matches!(self, Order::Drawn(options) if options.max_givens().is_some())
    }
}
