//! Each rule of the model compiled into propagators, one file per family of rules.

mod cages;
mod cells;
#[cfg(test)]
mod harness;
mod houses;
mod lines;
mod outside;
mod pairs;
mod relations;
mod sums;
mod tables;

use super::model::{Constraint, Puzzle, Rule};
use super::propagate::{Context, Propagator};

/// The distinct cells of `cells`, sorted (what a propagator reads).
fn sorted_distinct(cells: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut cells: Vec<usize> = cells.into_iter().collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// The propagators of a puzzle's rows, columns, regions and constraints.
pub(crate) fn compile(puzzle: &Puzzle) -> Vec<Box<dyn Propagator>> {
    let context = Context {
        size: puzzle.size,
        regions: &puzzle.regions,
    };
    let mut propagators = houses::classic(&context);
    for constraint in &puzzle.constraints {
        propagators.extend(compile_rule(
            &constraint.rule,
            &puzzle.constraints,
            &context,
        ));
    }
    propagators
}

/// The propagators of one rule among `constraints` (all the puzzle's: the pair rules and
/// minimum and maximum cells depend on which other dots and cells there are).
pub(crate) fn compile_rule(
    rule: &Rule,
    constraints: &[Constraint],
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    match rule {
        Rule::Distinct { cells } => houses::distinct(cells, context),
        Rule::AntiKnight => houses::anti_knight(context),
        Rule::AntiKing => houses::anti_king(context),
        Rule::NonConsecutive => pairs::non_consecutive(constraints, context),
        Rule::Dot { cells, relation } => pairs::dot(*cells, *relation, context),
        Rule::Negative(kind) => pairs::negative(*kind, constraints, context),
        Rule::KillerCage { cells, sum } => cages::killer(cells, *sum, context),
        Rule::Arrow { circle, line } => cages::arrow(circle, line, context),
        Rule::Odd(cell) => cells::odd(*cell, context),
        Rule::Even(cell) => cells::even(*cell, context),
        Rule::Minimum(cell) => cells::minimum(*cell, constraints, context),
        Rule::Maximum(cell) => cells::maximum(*cell, constraints, context),
        Rule::Candidates { cell, digits } => cells::candidates(*cell, digits, context),
        Rule::Quadruple { cells, digits } => cells::quadruple(cells, digits, context),
        Rule::Thermometer(line) => lines::thermometer(line, context),
        Rule::SlowThermometer(line) => lines::slow_thermometer(line, context),
        Rule::Palindrome(line) => lines::palindrome(line, context),
        Rule::Renban(line) => lines::renban(line, context),
        Rule::Whispers { cells, difference } => lines::whispers(cells, *difference, context),
        Rule::Between(line) => lines::between(line, context),
        Rule::RegionSumLine(line) => lines::region_sum(line, context),
        Rule::EntropicLine(line) => lines::entropic(line, context),
        Rule::ModularLine(line) => lines::modular(line, context),
        Rule::ZipperLine(line) => lines::zipper(line, context),
        Rule::DoubleArrow(line) => lines::double_arrow(line, context),
        Rule::Lockout { cells, difference } => lines::lockout(cells, *difference, context),
        Rule::Nabner(line) => lines::nabner(line, context),
        Rule::LittleKiller { cells, sum } => outside::little_killer(cells, *sum, context),
        Rule::Sandwich { cells, sum } => outside::sandwich(cells, *sum, context),
        Rule::XSum { cells, sum } => outside::x_sum(cells, *sum, context),
        Rule::Skyscraper { cells, visible } => outside::skyscraper(cells, *visible, context),
        Rule::Clone { cells, clones } => relations::clone(cells, clones, context),
        Rule::Indexer { indexer, cells } => relations::indexer(*indexer, cells, context),
    }
}
