//! What the logical solver reads of the variant engine: each rule's propagators on their
//! own (a rule's own step), and all of them together from one placed digit (the general
//! steps, one propagation deep), on a board's candidate masks.

use super::constraints::{Drawn, compile_rule};
use super::model::{Origin, Puzzle, Rule};
pub(crate) use super::propagate::Propagator;
use super::propagate::{Context, Mask};
use super::propagation::Propagation;
use crate::solver::{Cancellation, Stopped};

/// One rule's propagators, and where the input stated it.
pub(crate) struct RuleLogic {
    /// Where the input stated the rule.
    pub origin: Origin,
    /// Its kind, for naming its steps.
    pub rule: Rule,
    /// Its propagators.
    pub propagators: Vec<Box<dyn Propagator>>,
}

/// The propagators of each rule of `puzzle` that is not a house or a "sees" rule (the
/// board's geometry holds those), in the puzzle's order.
pub(crate) fn rule_logic(puzzle: &Puzzle) -> Vec<RuleLogic> {
    let drawn = Drawn::of(puzzle.constraints(), puzzle.size());
    let context = Context {
        size: puzzle.size(),
        regions: puzzle.regions(),
        drawn: &drawn,
    };
    puzzle
        .constraints()
        .iter()
        .filter(|constraint| !in_the_geometry(&constraint.rule))
        .map(|constraint| RuleLogic {
            origin: constraint.origin.clone(),
            rule: constraint.rule.clone(),
            propagators: compile_rule(&constraint.rule, &context),
        })
        .collect()
}

/// Whether the board's geometry holds a rule: its houses and the cells it makes see each
/// other.
fn in_the_geometry(rule: &Rule) -> bool {
    matches!(
        rule,
        Rule::Diagonal(_)
            | Rule::ExtraRegion(_)
            | Rule::DisjointGroups
            | Rule::AntiKnight
            | Rule::AntiKing
    )
}

/// Runs `propagators` to a fixed point on `masks`, each in turn, polling `cancellation`
/// between passes: `Ok(None)` at the fixed point, `Ok(Some(index))` when the propagator at
/// `index` finds a contradiction or empties a mask.
pub(crate) fn settle(
    propagators: &[Box<dyn Propagator>],
    masks: &mut [Mask],
    cancellation: &Cancellation,
) -> Result<Option<usize>, Stopped> {
    loop {
        if cancellation.is_cancelled() {
            return Err(Stopped);
        }
        let mut changed = false;
        for (index, propagator) in propagators.iter().enumerate() {
            let cells = propagator.cells();
            let before: Vec<Mask> = cells.iter().map(|&cell| masks[cell]).collect();
            if propagator.propagate(masks).is_err() || cells.iter().any(|&cell| masks[cell] == 0) {
                return Ok(Some(index));
            }
            changed |= cells
                .iter()
                .zip(&before)
                .any(|(&cell, &mask)| masks[cell] != mask);
        }
        if !changed {
            return Ok(None);
        }
    }
}

/// The consequences of placing one digit: every rule run to a fixed point.
pub(crate) struct Consequences<'a> {
    propagation: Propagation<'a>,
}

impl<'a> Consequences<'a> {
    /// The consequences under `propagators` (every rule of a puzzle of `size`).
    pub(crate) fn new(propagators: &'a [Box<dyn Propagator>], size: usize) -> Self {
        Consequences {
            propagation: Propagation::new(propagators, size),
        }
    }

    /// The masks once `digit` is placed in `cell` of `masks` and every rule has run to a
    /// fixed point; `None` when that is a contradiction.
    pub(crate) fn of_placing(
        &mut self,
        masks: &[Mask],
        cell: usize,
        digit: u8,
    ) -> Option<Vec<Mask>> {
        let mut after = masks.to_vec();
        let bit = 1 << (digit - 1);
        if after[cell] & bit == 0 {
            return None;
        }
        after[cell] = bit;
        self.propagation.push_all();
        self.propagation.run(&mut after).then_some(after)
    }
}
