//! The implications other techniques add to a dynamic chain from level 1 on: when the
//! chain stalls, locking, hidden pairs, naked pairs and X-Wings (and, from level 2, whole
//! chain searches) run on the chain's working board, and what they remove joins the chain.
//! Each such removal names as parents the chain's own removals the pattern relies on (the
//! reference's "rule parents"), and a nested chain adds its complexity to the chain's.
//!
//! The first technique that finds anything wins; all of its patterns count, in its scan
//! order, and each pattern's removals in the order the reference's `HashMap` yields them.

use std::ops::ControlFlow;

use super::Mode;
use super::graph::{
    Arena, Cause, Key, NestedChain, NodeId, PotentialSet, cell_of, digit_of, is_on, key,
};
use super::hints::{ChainHint, HintShape, targets};
use super::search::Search;
use crate::logic::board::{Board, Cell, digits_of};
use crate::logic::fish::for_each_fish;
use crate::logic::generalized::for_each_locking;
use crate::logic::intersections::for_each_lock;
use crate::logic::step::Elimination;
use crate::logic::subsets::{for_each_hidden_set, for_each_naked_set};

/// A removal found on the working board, before it joins the chain.
struct Found {
    /// The chain's removals it relies on, as (cell, digit).
    parents: Vec<(Cell, u8)>,
    /// What it removes, in the reference's insertion order.
    removals: Vec<Elimination>,
    /// The nested chain it comes from.
    nested: Option<NestedChain>,
}

/// The potentials that turn off on the working board of `search` by the techniques of its
/// level, the first technique that finds any; `offs` is what the chain turned off since
/// it started from the search's board.
pub fn potentials(search: &mut Search<'_>, offs: &PotentialSet) -> Vec<NodeId> {
    let source = &search.base().clone();
    let current = search.work();
    for rule in 0..4 {
        let found = simple_rule(rule, source, &current);
        let nodes = join(&mut search.arena, offs, found);
        if !nodes.is_empty() {
            return nodes;
        }
    }
    for mode in nested_modes(search.mode) {
        let found = nested_rule(mode, source, &current, search.cancel());
        let nodes = join(&mut search.arena, offs, found);
        if !nodes.is_empty() {
            return nodes;
        }
    }
    Vec::new()
}

/// The chain searches that help a dynamic search of `mode`, after the simple rules.
fn nested_modes(mode: Mode) -> Vec<Mode> {
    match mode.level {
        0 | 1 => Vec::new(),
        2 => vec![Mode::FORCING_CHAINS_AND_CYCLES],
        3 => vec![Mode::FORCING_CHAINS_AND_CYCLES, Mode::MULTIPLE],
        _ => vec![Mode::dynamic(mode.nesting_limit, 0)],
    }
}

/// The patterns of simple rule `rule` (locking, hidden pairs, naked pairs, X-Wings) on
/// `current`.
fn simple_rule(rule: usize, source: &Board, current: &Board) -> Vec<Found> {
    let mut found = Vec::new();
    let mut keep = |parents, removals| {
        found.push(Found {
            parents,
            removals,
            nested: None,
        });
        ControlFlow::Continue(())
    };
    // Where cells see more than their houses, the reference uses the generalized forms
    // of locking and naked pairs.
    let generalized = current
        .geometry()
        .mode()
        .is_some_and(|mode| mode.generalized());
    match rule {
        0 if generalized => for_each_locking(current, |lock| {
            let parents = lock.rule_parents(source, current);
            keep(parents, lock.eliminations)
        }),
        0 => for_each_lock(current, |lock| {
            let removals = lock.eliminations(current);
            if removals.is_empty() {
                return ControlFlow::Continue(());
            }
            keep(lock.rule_parents(source, current), removals)
        }),
        1 => for_each_hidden_set(current, 2, false, |hidden| {
            if hidden.eliminations.is_empty() {
                return ControlFlow::Continue(());
            }
            keep(hidden.rule_parents(source), hidden.eliminations)
        }),
        2 => for_each_naked_set(current, 2, generalized, |naked| {
            let parents = naked.rule_parents(source);
            keep(parents, naked.eliminations)
        }),
        _ => for_each_fish(current, 2, |fish| {
            let parents = fish.rule_parents(source, current);
            keep(parents, fish.eliminations)
        }),
    }
    found
}

/// The hints of a chain search in `mode` on `current`, sorted as the reference sorts
/// them and without two of the same removals.
fn nested_rule(
    mode: Mode,
    source: &Board,
    current: &Board,
    cancel: &crate::solver::Cancellation,
) -> Vec<Found> {
    let mut search = Search::new(mode, current, cancel);
    search.run();
    let mut order: Vec<usize> = (0..search.hints.len()).collect();
    // A stable sort: equal hints keep the order they were found in.
    order.sort_by(|&a, &b| {
        let (a, b) = (&search.hints[a], &search.hints[b]);
        (a.difficulty, a.complexity, a.sort_key)
            .partial_cmp(&(b.difficulty, b.complexity, b.sort_key))
            .expect("difficulties are numbers")
    });
    let mut found: Vec<Found> = Vec::new();
    let mut seen: Vec<Vec<(Cell, u32)>> = Vec::new();
    for index in order {
        let hint = search.hints[index].clone();
        let mut removable = hint.removable.clone();
        removable.sort_unstable();
        if seen.contains(&removable) {
            continue;
        }
        seen.push(removable);
        let parents = rule_parents(&search.arena, &hint, source, current);
        let nested = NestedChain {
            complexity: hint.complexity,
            fingerprint: fingerprint(&mut search.arena, &hint),
        };
        found.push(Found {
            parents,
            removals: hint
                .removable
                .iter()
                .map(|&(cell, digits)| Elimination { cell, digits })
                .collect(),
            nested: Some(nested),
        });
    }
    found
}

/// The removals (candidates `source` had and `current` lacks) that the chains of `hint`
/// rely on: for every "on" node that a cell or a house forced, the candidates that had to
/// go from that cell, or that digit's places that had to go from that house.
fn rule_parents(
    arena: &Arena,
    hint: &ChainHint,
    source: &Board,
    current: &Board,
) -> Vec<(Cell, u8)> {
    let geometry = current.geometry();
    let mut result: Vec<(Cell, u8)> = Vec::new();
    let mut add = |cell: Cell, digit: u8| {
        if source.has(cell, digit) && !current.has(cell, digit) && !result.contains(&(cell, digit))
        {
            result.push((cell, digit));
        }
    };
    for target in targets(&hint.shape) {
        let mut done: Vec<Key> = Vec::new();
        let mut level = vec![target];
        while !level.is_empty() {
            let mut next = Vec::new();
            for node in level {
                let node_data = *arena.node(node);
                if done.contains(&node_data.key) {
                    continue;
                }
                done.push(node_data.key);
                let cause = match (node_data.cause, &hint.shape) {
                    (Cause::Assumption, HintShape::Cell { .. }) => Some(Cause::Cell),
                    (Cause::Assumption, HintShape::Region { house, .. }) => {
                        Some(Cause::House(*house as u8))
                    }
                    (Cause::Assumption, _) => None,
                    (cause, _) => Some(cause),
                };
                let (cell, digit) = (cell_of(node_data.key), digit_of(node_data.key));
                if is_on(node_data.key) {
                    match cause {
                        Some(Cause::Cell) => {
                            for other in 1..=9 {
                                add(cell, other);
                            }
                        }
                        Some(Cause::House(house)) => {
                            for &other in &geometry.houses[usize::from(house)].cells {
                                add(other, digit);
                            }
                        }
                        _ => {}
                    }
                }
                next.extend_from_slice(arena.parents(node));
            }
            level = next;
        }
    }
    result
}

/// What tells two nested chains apart: their targets, and each target's chain.
fn fingerprint(arena: &mut Arena, hint: &ChainHint) -> Vec<Key> {
    let mut keys = Vec::new();
    for target in targets(&hint.shape) {
        keys.push(arena.key(target));
        let chain = arena.chain(target);
        keys.extend(chain.iter().map(|&node| arena.key(node)));
        keys.push(Key::MAX);
    }
    keys
}

/// Adds the removals of `found` to the arena as "off" nodes whose parents are the chain's
/// nodes of their rule parents; patterns that rely on none of the chain's removals are
/// left out (they hold without the chain).
fn join(arena: &mut Arena, offs: &PotentialSet, found: Vec<Found>) -> Vec<NodeId> {
    let mut nodes = Vec::new();
    for pattern in found {
        if pattern.parents.is_empty() {
            continue;
        }
        let parents: Vec<NodeId> = pattern
            .parents
            .iter()
            .filter_map(|&(cell, digit)| offs.get(key(cell, digit, false)))
            .collect();
        let nested = pattern.nested.map(|chain| {
            arena.nested.push(chain);
            (arena.nested.len() - 1) as u32
        });
        for elimination in java_hash_order(pattern.removals) {
            for digit in digits_of(elimination.digits) {
                let off = key(elimination.cell, digit, false);
                nodes.push(arena.add_nested(off, Cause::Advanced, &parents, nested));
            }
        }
    }
    nodes
}

/// `removals` (inserted in this order into a Java `HashMap` keyed by cell, whose hash is
/// the cell's index) in the order that map yields them: by bucket (the index modulo the
/// table's size, which doubles from 16 as entries pass three quarters of it), and in
/// insertion order within a bucket.
fn java_hash_order(mut removals: Vec<Elimination>) -> Vec<Elimination> {
    let mut capacity = 16;
    while removals.len() > capacity * 3 / 4 {
        capacity *= 2;
    }
    removals.sort_by_key(|removal| removal.cell & (capacity - 1));
    removals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removals_come_out_in_the_order_a_java_hash_map_yields_them() {
        let removal = |cell| Elimination { cell, digits: 1 };
        let cells =
            |removals: Vec<Elimination>| -> Vec<Cell> { removals.iter().map(|r| r.cell).collect() };
        // Column 1's cells, inserted top to bottom: buckets of 16.
        let column: Vec<Elimination> = (0..9).map(|row| removal(row * 9)).collect();
        assert_eq!(
            cells(java_hash_order(column)),
            [0, 18, 36, 54, 72, 9, 27, 45, 63]
        );
        // Thirteen entries: the table has grown to 32.
        let many: Vec<Elimination> = (0..13).map(|k| removal(k * 5)).collect();
        assert_eq!(
            cells(java_hash_order(many)),
            [0, 35, 5, 40, 10, 45, 15, 50, 20, 55, 25, 60, 30]
        );
    }

    #[test]
    fn levels_add_nested_searches() {
        assert!(nested_modes(Mode::dynamic(1, 0)).is_empty());
        assert_eq!(nested_modes(Mode::dynamic(3, 0)).len(), 2);
        assert_eq!(nested_modes(Mode::dynamic(4, 2)), [Mode::dynamic(2, 0)]);
    }
}
