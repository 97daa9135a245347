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

use std::collections::BTreeSet;

use super::model::{
    Cell, Constraint, Puzzle, Relation, Rule, cells_from_clue, little_killer_cells,
};
use super::propagate::{Context, Propagator};
use crate::solver::{Cancellation, Stopped};

/// The distinct cells of `cells`, sorted (what a propagator reads).
fn sorted_distinct(cells: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut cells: Vec<usize> = cells.into_iter().collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// What some rules read of the others: the dots drawn and the minimum and maximum cells.
#[derive(Debug)]
pub(crate) struct Drawn {
    /// Each dot's pair of cells (row-major, smaller first) and relation.
    pub(crate) dots: Vec<((usize, usize), Relation)>,
    /// The minimum cells (row-major).
    pub(crate) minimum: BTreeSet<usize>,
    /// The maximum cells (row-major).
    pub(crate) maximum: BTreeSet<usize>,
}

/// Nothing drawn: for propagators built alone, in tests.
#[cfg(test)]
pub(crate) static NOTHING_DRAWN: Drawn = Drawn {
    dots: Vec::new(),
    minimum: BTreeSet::new(),
    maximum: BTreeSet::new(),
};

impl Drawn {
    /// What `constraints` draw on a grid of `size`.
    pub(crate) fn of(constraints: &[Constraint], size: usize) -> Drawn {
        let index = |cell: Cell| cell.row * size + cell.col;
        let mut drawn = Drawn {
            dots: Vec::new(),
            minimum: BTreeSet::new(),
            maximum: BTreeSet::new(),
        };
        for constraint in constraints {
            match constraint.rule {
                Rule::Dot { cells, relation } => {
                    let [a, b] = cells.map(index);
                    drawn.dots.push(((a.min(b), a.max(b)), relation));
                }
                Rule::Minimum(cell) => {
                    drawn.minimum.insert(index(cell));
                }
                Rule::Maximum(cell) => {
                    drawn.maximum.insert(index(cell));
                }
                _ => {}
            }
        }
        drawn
    }
}

/// Why a variant puzzle was not solved or checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// Its propagators would weigh more than [`compiled_limit`] allows.
    #[error("the puzzle's rules compile to more than {limit}, the limit for a {size}×{size} grid")]
    TooLarge {
        /// The puzzle's size.
        size: usize,
        /// The limit for that size.
        limit: usize,
    },
    /// The cancellation stopped it.
    #[error("stopped before the end: cancelled, or out of time")]
    Stopped,
}

impl From<Stopped> for VariantError {
    fn from(Stopped: Stopped) -> Self {
        VariantError::Stopped
    }
}

/// The most that the propagators of a puzzle of `size` may weigh in all (cells read, and
/// table entries): 200 per cell of the grid, nearly
/// twenty times what the heaviest published puzzle here needs (`Endless Knight`, 10 a cell).
/// It bounds the memory of a compiled puzzle and the time of each propagation.
pub fn compiled_limit(size: usize) -> usize {
    200 * size * size
}

/// The propagators of a puzzle's rows, columns, regions and rules, within
/// [`compiled_limit`], stopped by `cancellation` between rules.
pub(crate) fn compile(
    puzzle: &Puzzle,
    cancellation: &Cancellation,
) -> Result<Vec<Box<dyn Propagator>>, VariantError> {
    let drawn = Drawn::of(puzzle.constraints(), puzzle.size());
    let context = Context {
        size: puzzle.size(),
        regions: puzzle.regions(),
        drawn: &drawn,
    };
    let limit = compiled_limit(puzzle.size());
    let mut propagators = houses::classic(&context);
    let mut weight: usize = propagators.iter().map(|p| p.weight()).sum();
    for constraint in puzzle.constraints() {
        if cancellation.is_cancelled() {
            return Err(VariantError::Stopped);
        }
        let compiled = compile_for_search(&constraint.rule, &context);
        weight += compiled.iter().map(|p| p.weight()).sum::<usize>();
        if weight > limit {
            return Err(VariantError::TooLarge {
                size: puzzle.size(),
                limit,
            });
        }
        propagators.extend(compiled);
    }
    Ok(propagators)
}

/// The propagators of one rule as the search runs them, beside the houses: an arrow's
/// line then also holds different digits in cells that share a house (see
/// [`cages::arrow_with_houses`]); every other rule as [`compile_rule`] has it.
fn compile_for_search(rule: &Rule, context: &Context) -> Vec<Box<dyn Propagator>> {
    match rule {
        Rule::Arrow { circle, lines } => arrow_lines(circle, lines, context, true),
        rule => compile_rule(rule, context),
    }
}

/// An arrow's propagators, one for each line drawn from its circle (the line's cells in
/// the circle are not summed); read with the houses when `houses`.
fn arrow_lines(
    circle: &[Cell],
    lines: &[Vec<Cell>],
    context: &Context,
    houses: bool,
) -> Vec<Box<dyn Propagator>> {
    let arrow = if houses {
        cages::arrow_with_houses
    } else {
        cages::arrow
    };
    lines
        .iter()
        .flat_map(|line| {
            let shaft: Vec<Cell> = line
                .iter()
                .skip_while(|cell| circle.contains(cell))
                .copied()
                .collect();
            arrow(circle, &shaft, context)
        })
        .collect()
}

/// The propagators of one rule (the pair rules and minimum and maximum cells read what
/// the others draw from the context).
pub(crate) fn compile_rule(rule: &Rule, context: &Context) -> Vec<Box<dyn Propagator>> {
    let size = context.size;
    match rule {
        Rule::Diagonal(diagonal) => houses::diagonal(*diagonal, context),
        Rule::ExtraRegion(cells) => houses::distinct(cells, context),
        Rule::AntiKnight => houses::anti_knight(context),
        Rule::AntiKing => houses::anti_king(context),
        Rule::DisjointGroups => houses::disjoint_groups(context),
        Rule::NonConsecutive => pairs::non_consecutive(context),
        Rule::Dot { cells, relation } => pairs::dot(*cells, *relation, context),
        Rule::Negative(kind) => pairs::negative(*kind, context),
        Rule::KillerCage { cells, sum } => cages::killer(cells, *sum, context),
        Rule::Arrow { circle, lines } => arrow_lines(circle, lines, context, false),
        Rule::Odd(cell) => cells::odd(*cell, context),
        Rule::Even(cell) => cells::even(*cell, context),
        Rule::Minimum(cell) => cells::minimum(*cell, context),
        Rule::Maximum(cell) => cells::maximum(*cell, context),
        Rule::Candidates { cell, digits } => cells::candidates(*cell, digits, context),
        Rule::Quadruple { cells, digits } => cells::quadruple(cells, digits, context),
        Rule::Line { kind, lines } => lines
            .iter()
            .flat_map(|line| lines::line(*kind, line, context))
            .collect(),
        Rule::LittleKiller {
            clue,
            direction,
            sum,
        } => outside::little_killer(&little_killer_cells(*clue, *direction, size), *sum, context),
        Rule::Sandwich { clue, sum } => outside::sandwich(
            &cells_from_clue(*clue, size).unwrap_or_default(),
            *sum,
            context,
        ),
        Rule::XSum { clue, sum } => outside::x_sum(
            &cells_from_clue(*clue, size).unwrap_or_default(),
            *sum,
            context,
        ),
        Rule::Skyscraper { clue, visible } => outside::skyscraper(
            &cells_from_clue(*clue, size).unwrap_or_default(),
            *visible,
            context,
        ),
        Rule::Clone { cells, clones } => relations::clone(cells, clones, context),
        Rule::Indexer { indexer, cells } => relations::indexer(*indexer, cells, context),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::tests::published_puzzles;

    /// The limit leaves room for far heavier rule sets than published puzzles use: every
    /// puzzle of the corpus and of the held-out set weighs under a tenth of it.
    #[test]
    fn published_puzzles_weigh_a_small_part_of_the_limit() {
        for (title, puzzle) in published_puzzles() {
            let compiled = compile(&puzzle, &Cancellation::none()).unwrap();
            let weight: usize = compiled.iter().map(|p| p.weight()).sum();
            let limit = compiled_limit(puzzle.size());
            assert!(weight * 10 <= limit, "{title}: {weight} of {limit}");
        }
    }
}
