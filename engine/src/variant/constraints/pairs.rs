//! Rules between two cells: kropki dots, XV and sum dots, non-consecutive, and the
//! negative rules (every dot of a kind is drawn, so pairs without one are not in its
//! relation).
//!
//! The pairs a negative rule covers follow the peer: the orthogonal pairs without a dot of
//! the same family (white and black kropki dots are one family, XV and sum dots another).
//! Non-consecutive also skips every pair with a kropki dot. The relations forbidden are
//! those of the drawn dots: for "no white dot", every drawn white dot's difference (none
//! when no white dot is drawn); for "no black dot", ratio 2 and every drawn black dot's
//! ratio; for "no X or V", sums 5 and 10.

use std::collections::HashSet;

use crate::variant::model::{Cell, NegativeKind, Relation};
use crate::variant::propagate::{Context, Contradiction, Mask, Propagator};

/// Two cells whose digits stand in a relation, kept arc consistent: every digit left in one
/// cell has a partner left in the other.
#[derive(Debug)]
pub(super) struct Pair {
    cells: [usize; 2],
    /// Whether the relation is "different digits": only a placed digit then narrows.
    different: bool,
    /// For each digit `d` of the first cell (at `d - 1`), the second cell's digits that go
    /// with it.
    forward: [Mask; 16],
    /// For each digit of the second cell, the first cell's digits that go with it.
    backward: [Mask; 16],
}

impl Pair {
    /// The pair of cells `first` and `second` (row-major indices), where `allowed(a, b)`
    /// says whether digit `a` in the first goes with digit `b` in the second.
    pub(super) fn new(
        first: usize,
        second: usize,
        context: &Context,
        allowed: impl Fn(u32, u32) -> bool,
    ) -> Pair {
        let mut forward = [0; 16];
        let mut backward = [0; 16];
        let size = context.size as u32;
        for a in 1..=size {
            for b in 1..=size {
                if allowed(a, b) {
                    forward[a as usize - 1] |= 1 << (b - 1);
                    backward[b as usize - 1] |= 1 << (a - 1);
                }
            }
        }
        let all: Mask = (1 << size) - 1;
        let different = (0..size).all(|a| {
            let digit = 1 << a;
            forward[a as usize] == all & !digit && backward[a as usize] == all & !digit
        });
        Pair {
            cells: [first, second],
            different,
            forward,
            backward,
        }
    }

    /// Whether the relation holds for every pair of digits (then it adds nothing).
    fn allows_everything(&self, context: &Context) -> bool {
        self.forward[..context.size]
            .iter()
            .all(|&mask| mask == context.all_digits())
    }
}

/// The digits that some digit of `mask` allows, by `table`.
fn partners(mut mask: Mask, table: &[Mask; 16]) -> Mask {
    let mut partners = 0;
    while mask != 0 {
        partners |= table[mask.trailing_zeros() as usize];
        mask &= mask - 1;
    }
    partners
}

impl Propagator for Pair {
    fn cells(&self) -> &[usize] {
        &self.cells
    }

    /// A digit kept in the first cell has a partner kept in the second, and the other way.
    fn idempotent(&self) -> bool {
        true
    }

    /// A digit has a different partner in any cell of two digits or more.
    fn wakes_on_open(&self) -> bool {
        !self.different
    }

    fn propagate(&self, masks: &mut [Mask]) -> Result<(), Contradiction> {
        let [first, second] = self.cells;
        let second_mask = masks[second] & partners(masks[first], &self.forward);
        let first_mask = masks[first] & partners(second_mask, &self.backward);
        if first_mask == 0 || second_mask == 0 {
            return Err(Contradiction);
        }
        masks[first] = first_mask;
        masks[second] = second_mask;
        Ok(())
    }
}

/// No two orthogonal neighbours hold consecutive digits, except where a kropki dot (white
/// or black) stands between them.
pub(super) fn non_consecutive(context: &Context) -> Vec<Box<dyn Propagator>> {
    let dotted = dotted_pairs(context, is_kropki);
    forbid_between_undotted(&dotted, &[Relation::Difference(1)], context)
}

/// The two cells of a dot stand in its relation.
pub(super) fn dot(
    cells: [Cell; 2],
    relation: Relation,
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    let [first, second] = cells.map(|cell| context.index(cell));
    vec![Box::new(Pair::new(first, second, context, |a, b| {
        relation.holds(a, b)
    }))]
}

/// Orthogonal neighbours without a dot of `kind`'s family are not in the relations of that
/// kind (see the module doc).
pub(super) fn negative(kind: NegativeKind, context: &Context) -> Vec<Box<dyn Propagator>> {
    let drawn = context.drawn.dots.iter().map(|&(_, relation)| relation);
    let (family, relations): (fn(Relation) -> bool, Vec<Relation>) = match kind {
        NegativeKind::Difference => (
            is_kropki,
            std::iter::once(Relation::Difference(1))
                .chain(drawn.filter(|relation| matches!(relation, Relation::Difference(_))))
                .collect(),
        ),
        NegativeKind::Ratio => (
            is_kropki,
            std::iter::once(Relation::Ratio(2))
                .chain(drawn.filter(|relation| matches!(relation, Relation::Ratio(_))))
                .collect(),
        ),
        NegativeKind::Xv => (is_xv, vec![Relation::V, Relation::X]),
        NegativeKind::Sum => (is_sum, drawn.filter(|relation| is_sum(*relation)).collect()),
    };
    let mut forbidden = Vec::new();
    for relation in relations {
        if !forbidden.contains(&relation) {
            forbidden.push(relation);
        }
    }
    let dotted = dotted_pairs(context, family);
    forbid_between_undotted(&dotted, &forbidden, context)
}

/// Whether a dot of `relation` is a kropki dot (white or black).
fn is_kropki(relation: Relation) -> bool {
    matches!(relation, Relation::Difference(_) | Relation::Ratio(_))
}

/// Whether a dot of `relation` is an X or a V.
fn is_xv(relation: Relation) -> bool {
    matches!(relation, Relation::X | Relation::V)
}

/// Whether a dot of `relation` is a sum dot.
fn is_sum(relation: Relation) -> bool {
    matches!(relation, Relation::Sum(_))
}

/// The pairs of cells (row-major indices, smaller first) that hold a dot of a relation
/// `family` accepts.
fn dotted_pairs(context: &Context, family: fn(Relation) -> bool) -> HashSet<(usize, usize)> {
    context
        .drawn
        .dots
        .iter()
        .filter(|&&(_, relation)| family(relation))
        .map(|&(pair, _)| pair)
        .collect()
}

/// For every orthogonal pair not in `dotted`: its digits stand in none of `forbidden`.
fn forbid_between_undotted(
    dotted: &HashSet<(usize, usize)>,
    forbidden: &[Relation],
    context: &Context,
) -> Vec<Box<dyn Propagator>> {
    if forbidden.is_empty() {
        return Vec::new();
    }
    let size = context.size;
    let mut propagators: Vec<Box<dyn Propagator>> = Vec::new();
    for cell in 0..size * size {
        let (row, col) = (cell / size, cell % size);
        let right = (col + 1 < size).then_some(cell + 1);
        let below = (row + 1 < size).then_some(cell + size);
        for other in [right, below].into_iter().flatten() {
            if dotted.contains(&(cell, other)) {
                continue;
            }
            let pair = Pair::new(cell, other, context, |a, b| {
                !forbidden.iter().any(|&relation| relation.holds(a, b))
            });
            if !pair.allows_everything(context) {
                propagators.push(Box::new(pair));
            }
        }
    }
    propagators
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::constraints::{Drawn, NOTHING_DRAWN};
    use crate::variant::model::{Constraint, Origin, Rule};

    fn dot_at(cells: [(usize, usize); 2], relation: Relation) -> Constraint {
        Constraint {
            origin: Origin {
                kind: "dot".into(),
                index: 0,
            },
            rule: Rule::Dot {
                cells: cells.map(|(row, col)| Cell { row, col }),
                relation,
            },
        }
    }

    #[test]
    fn a_pair_is_arc_consistent() {
        let regions = vec![None; 81];
        let context = Context {
            size: 9,
            regions: &regions,
            drawn: &NOTHING_DRAWN,
        };
        let pair = &dot(
            [Cell { row: 0, col: 0 }, Cell { row: 0, col: 1 }],
            Relation::Ratio(2),
            &context,
        )[0];
        let mut masks = vec![context.all_digits(); 81];
        masks[0] = 0b1_0000_0100; // 3 or 9: no partner, or 6
        pair.propagate(&mut masks).unwrap();
        assert_eq!(masks[0], 0b0100);
        assert_eq!(masks[1], 0b10_0000);
        masks[1] = 0b1;
        assert!(pair.propagate(&mut masks).is_err());
    }

    #[test]
    fn negative_rules_skip_dotted_pairs_and_use_drawn_values() {
        let regions = vec![None; 16];
        let constraints = [
            dot_at([(0, 0), (0, 1)], Relation::Difference(2)),
            dot_at([(1, 0), (1, 1)], Relation::Ratio(3)),
            dot_at([(2, 0), (2, 1)], Relation::Sum(5)),
            dot_at([(3, 0), (3, 1)], Relation::X),
        ];
        let drawn = Drawn::of(&constraints, 4);
        let context = Context {
            size: 4,
            regions: &regions,
            drawn: &drawn,
        };
        // 24 orthogonal pairs; the two kropki dots take two away, from each family its own.
        assert_eq!(negative(NegativeKind::Difference, &context).len(), 22);
        assert_eq!(non_consecutive(&context).len(), 22);
        assert_eq!(negative(NegativeKind::Xv, &context).len(), 23);
        assert_eq!(negative(NegativeKind::Sum, &context).len(), 23);
        // Without white dots, "no white dot" still forbids a difference of 1.
        let only_black = Drawn::of(&constraints[1..2], 4);
        let context_black = Context {
            drawn: &only_black,
            ..context
        };
        let difference = negative(NegativeKind::Difference, &context_black);
        assert_eq!(difference.len(), 23);
        let mut masks = vec![context.all_digits(); 16];
        masks[0] = 0b0001;
        masks[1] = 0b0010;
        assert!(
            difference
                .iter()
                .find(|p| p.cells() == [0, 1])
                .unwrap()
                .propagate(&mut masks)
                .is_err()
        );
        // Ratios 2 and 3 are forbidden on undotted pairs: 1 beside 3 is not allowed.
        let ratio = negative(NegativeKind::Ratio, &context);
        let mut masks = vec![context.all_digits(); 16];
        masks[4] = 0b0001;
        masks[8] = 0b0100;
        let between = ratio.iter().find(|p| p.cells() == [4, 8]).unwrap();
        assert!(between.propagate(&mut masks).is_err());
    }
}
