//! Which rules a puzzle's givens already break.

use serde::Serialize;

use std::collections::BTreeMap;

use super::constraints::{Drawn, VariantError, compile_rule, compiled_limit};
use super::deduce::settle;
use super::model::{Cell, Origin, Puzzle, Rule};
use super::propagate::{Context, Mask, Propagator};
use super::search::given_masks;
use crate::solver::Cancellation;

/// A rule that the givens break: a row, a column, a region, or a constraint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Broken {
    /// `"row"`, `"column"`, `"region"`, or the constraint's kind as the input named it.
    pub kind: String,
    /// The house's index (a region's number), or the constraint's index in the input.
    pub index: usize,
    /// The cells of the part of the rule that failed (the whole house, the cage, the two
    /// cells of a pair), in reading order.
    pub cells: Vec<Cell>,
}

/// Every row, column, region and constraint that the givens alone break, in that order.
///
/// A rule is broken when its own propagators, run to a fixed point from the givens (a
/// given holds its digit, an open cell every digit), find a contradiction: the givens
/// leave it no way to be satisfied, whatever the other rules say. The rules compile
/// within [`super::compiled_limit`], and `cancellation` stops the check between rules and
/// between passes.
pub fn check(puzzle: &Puzzle, cancellation: &Cancellation) -> Result<Vec<Broken>, VariantError> {
    let size = puzzle.size();
    let drawn = Drawn::of(puzzle.constraints(), size);
    let context = Context {
        size,
        regions: puzzle.regions(),
        drawn: &drawn,
    };
    let givens = given_masks(puzzle);
    let cell_of = |index: usize| Cell {
        row: index / size,
        col: index % size,
    };
    let mut houses: Vec<(String, usize, Vec<usize>)> = Vec::new();
    houses.extend((0..size).map(|row| {
        (
            "row".into(),
            row,
            (0..size).map(|col| row * size + col).collect(),
        )
    }));
    houses.extend((0..size).map(|col| {
        (
            "column".into(),
            col,
            (0..size).map(|row| row * size + col).collect(),
        )
    }));
    let mut regions: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (cell, region) in puzzle.regions().iter().enumerate() {
        if let Some(region) = *region {
            regions.entry(region).or_default().push(cell);
        }
    }
    houses.extend(
        regions
            .into_iter()
            .map(|(region, cells)| ("region".into(), region, cells)),
    );
    let rules = houses
        .into_iter()
        .map(|(kind, index, cells)| {
            let rule = Rule::ExtraRegion(cells.into_iter().map(cell_of).collect());
            (kind, index, std::borrow::Cow::Owned(rule))
        })
        .chain(puzzle.constraints().iter().map(|constraint| {
            let Origin { kind, index } = &constraint.origin;
            (
                kind.clone(),
                *index,
                std::borrow::Cow::Borrowed(&constraint.rule),
            )
        }));
    let limit = compiled_limit(size);
    let mut weight = 0;
    let mut broken = Vec::new();
    for (kind, index, rule) in rules {
        if cancellation.is_cancelled() {
            return Err(VariantError::Stopped);
        }
        let propagators = compile_rule(&rule, &context);
        weight += propagators.iter().map(|p| p.weight()).sum::<usize>();
        if weight > limit {
            return Err(VariantError::TooLarge { size, limit });
        }
        if let Some(cells) = failing(&propagators, &givens, cancellation)? {
            broken.push(Broken {
                kind,
                index,
                cells: cells.into_iter().map(cell_of).collect(),
            });
        }
    }
    Ok(broken)
}

/// The cells (sorted) of the propagator that finds a contradiction when `propagators` run
/// to a fixed point from `masks`, if one does.
fn failing(
    propagators: &[Box<dyn Propagator>],
    masks: &[Mask],
    cancellation: &Cancellation,
) -> Result<Option<Vec<usize>>, VariantError> {
    let mut masks = masks.to_vec();
    let failed = settle(propagators, &mut masks, cancellation)?;
    Ok(failed.map(|index| {
        let mut cells = propagators[index].cells().to_vec();
        cells.sort_unstable();
        cells.dedup();
        cells
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::model::{Constraint, Origin, Relation};

    fn at(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

    fn puzzle(givens: &str, constraints: Vec<Constraint>) -> Puzzle {
        let givens = givens
            .bytes()
            .map(|byte| (byte != b'.').then(|| byte - b'0'))
            .collect();
        Puzzle::new(4, givens, None, constraints).unwrap()
    }

    fn check(puzzle: &Puzzle) -> Vec<Broken> {
        super::check(puzzle, &Cancellation::none()).unwrap()
    }

    fn named(kind: &str, index: usize, rule: Rule) -> Constraint {
        Constraint {
            origin: Origin {
                kind: kind.into(),
                index,
            },
            rule,
        }
    }

    #[test]
    fn a_clean_grid_breaks_nothing() {
        let cage = named(
            "killercage",
            0,
            Rule::KillerCage {
                cells: vec![at(0, 0), at(0, 1)],
                sum: Some(3),
            },
        );
        assert!(check(&puzzle("1...............", vec![cage])).is_empty());
    }

    #[test]
    fn repeats_and_broken_constraints_are_named() {
        let cage = named(
            "killercage",
            3,
            Rule::KillerCage {
                cells: vec![at(0, 0), at(0, 1)],
                sum: Some(4),
            },
        );
        let dot = named(
            "ratio",
            0,
            Rule::Dot {
                cells: [at(3, 1), at(3, 2)],
                relation: Relation::Ratio(2),
            },
        );
        let broken = check(&puzzle("12..1........13.", vec![cage, dot]));
        let named: Vec<(&str, usize, Vec<Cell>)> = broken
            .iter()
            .map(|broken| (broken.kind.as_str(), broken.index, broken.cells.clone()))
            .collect();
        let column: Vec<Cell> = (0..4).map(|row| at(row, 0)).collect();
        let region = vec![at(0, 0), at(0, 1), at(1, 0), at(1, 1)];
        assert_eq!(
            named,
            vec![
                ("column", 0, column),
                ("region", 0, region),
                ("killercage", 3, vec![at(0, 0), at(0, 1)]),
                ("ratio", 0, vec![at(3, 1), at(3, 2)]),
            ]
        );
    }
}
