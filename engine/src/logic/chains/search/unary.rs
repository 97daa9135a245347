//! Static forcing chains and cycles: from one candidate, along the implications of a
//! fixed board, back to itself (a cycle) or to a contradiction (a forcing chain).

use super::Search;
use crate::logic::board::{Cell, Digits, bit, digits_of};
use crate::logic::chains::bitboard::{State, cells_of};
use crate::logic::chains::graph::{
    Cause, Key, NodeId, PotentialSet, cell_of, conjugate, digit_of, is_on, key,
};
use crate::logic::chains::hints::{ChainHint, HintShape, max_complexity, unary_base};
use crate::logic::chains::implications::{Implied, off_to_on, on_to_off};
use crate::logic::chains::reach::Reach;

impl Search<'_> {
    /// The most potentials a cycle and a forcing chain with these links may hold and still
    /// matter: any, unless only the easiest hint is wanted.
    fn unary_limits(&self, y: bool, x: bool) -> (usize, usize) {
        let bound = self.easiest.unwrap_or(f64::INFINITY);
        (
            max_complexity(unary_base(true, y, x), bound),
            max_complexity(unary_base(false, y, x), bound),
        )
    }

    /// Cycles and forcing chains from every candidate of a cell with two or more, along
    /// Y-links (`y`), X-links (`x`) or both.
    pub(super) fn unary_chains(&mut self, board: &State, y: bool, x: bool) {
        // Forcing chains (X-links on) walk only from where one exists.
        let reach = x.then(|| Reach::of(board, y));
        for cell in 0..81 {
            let candidates = board.candidates(cell);
            if candidates.count_ones() < 2 {
                continue;
            }
            if self.cancelled() {
                return;
            }
            for digit in digits_of(candidates) {
                self.unary_chaining(board, cell, digit, y, reach.as_ref());
            }
        }
    }

    /// Cycles through a candidate, and (with X-links, whose graph `reach` is) forcing
    /// chains that make it contradict itself.
    fn unary_chaining(
        &mut self,
        board: &State,
        cell: Cell,
        digit: u8,
        y: bool,
        reach: Option<&Reach>,
    ) {
        let x = reach.is_some();
        if !x && board.candidates(cell).count_ones() > 2 {
            // Y-cycles start only in bivalue cells.
            return;
        }
        let mark = self.arena.mark();
        let hints_before = self.hints.len();
        let source = self
            .arena
            .add(key(cell, digit, true), Cause::Assumption, &[]);
        let (cycle_limit, chain_limit) = self.unary_limits(y, x);
        let cycles = self.cycles(board, source, y, x, cycle_limit, reach);
        let mut chains = Vec::new();
        if let Some(reach) = reach {
            let (on, off) = (key(cell, digit, true), key(cell, digit, false));
            if reach.reaches(on, off) {
                self.forcing_chains(board, y, source, chain_limit, reach, &mut chains);
            }
            if reach.reaches(off, on) {
                let source_off = self.arena.add(off, Cause::Assumption, &[]);
                self.forcing_chains(board, y, source_off, chain_limit, reach, &mut chains);
            }
        }
        for dst_on in cycles {
            let dst_off = self.reversed_cycle(dst_on);
            let hint = self.cycle_hint(board, dst_on, dst_off, y, x);
            self.push_if_worth(hint);
        }
        for target in chains {
            let hint = self.forcing_chain_hint(board, target, y, x);
            self.push_if_worth(hint);
        }
        if self.hints.len() == hints_before {
            self.arena.rollback(mark);
        }
    }

    /// Whether `ancestor`'s potential lies on the single chain (first parents) of `child`,
    /// `child` left out.
    fn is_parent(&self, child: NodeId, ancestor: Key) -> bool {
        self.arena
            .first_parent(child)
            .is_some_and(|parent| self.arena.on_chain(parent, ancestor))
    }

    /// The nodes that close a cycle back to `source` (breadth first, layer by layer), of
    /// cycles of at most `limit` potentials.
    fn cycles(
        &mut self,
        board: &State,
        source: NodeId,
        y: bool,
        x: bool,
        limit: usize,
        reach: Option<&Reach>,
    ) -> Vec<NodeId> {
        // Only potentials that can come back to the source can be on its cycles.
        let source_key = self.arena.key(source);
        let returns = |key: Key| reach.is_none_or(|reach| reach.together(key, source_key));
        let mut to_on = self.set();
        to_on.add(&self.arena, source);
        let mut pending_on = vec![source];
        let mut pending_off: Vec<NodeId> = Vec::new();
        let mut cycles = Vec::new();
        let mut length = 0;
        let mut derived = Vec::new();
        // A cycle closed at depth `length` holds `length` potentials (its end is its start).
        while (!pending_on.is_empty() || !pending_off.is_empty()) && length + 2 <= limit {
            length += 1;
            for p in std::mem::take(&mut pending_on) {
                derived.clear();
                on_to_off(board, self.arena.key(p), y, &mut derived);
                for &implied in &derived {
                    if returns(implied.key) && !self.is_parent(p, implied.key) {
                        let off = self.arena.add(implied.key, implied.cause, &[p]);
                        pending_off.push(off);
                    }
                }
            }
            length += 1;
            for p in std::mem::take(&mut pending_off) {
                derived.clear();
                off_to_on(board, self.arena.key(p), y, x, &mut derived);
                for &implied in &derived {
                    if length >= 4 && implied.key == source_key {
                        cycles.push(self.arena.add(implied.key, implied.cause, &[p]));
                    } else if returns(implied.key) && !to_on.contains(implied.key) {
                        let on = self.arena.add(implied.key, implied.cause, &[p]);
                        pending_on.push(on);
                        to_on.add(&self.arena, on);
                    }
                }
            }
        }
        self.recycle(to_on);
        cycles
    }

    /// Nodes that contradict `source` (its conjugate), found breadth first, of chains of
    /// at most `limit` potentials.
    fn forcing_chains(
        &mut self,
        board: &State,
        y: bool,
        source: NodeId,
        limit: usize,
        reach: &Reach,
        chains: &mut Vec<NodeId>,
    ) {
        let source_key = self.arena.key(source);
        let contradiction = conjugate(source_key);
        // Only potentials that lead to the contradiction can be on its chains.
        let leads = |implied: &Implied| reach.reaches(implied.key, contradiction);
        let mut to_on = self.set();
        let mut to_off = self.set();
        let (mut pending_on, mut pending_off) = if is_on(source_key) {
            to_on.add(&self.arena, source);
            (vec![source], Vec::new())
        } else {
            to_off.add(&self.arena, source);
            (Vec::new(), vec![source])
        };
        let mut derived = Vec::new();
        // The potentials of the chains the layers so far end (the source alone at first).
        let mut length = 1;
        let mut within_limit = |layer: &[NodeId]| {
            length += usize::from(!layer.is_empty());
            length <= limit
        };
        while !pending_on.is_empty() || !pending_off.is_empty() {
            if !within_limit(&pending_on) {
                break;
            }
            for p in std::mem::take(&mut pending_on) {
                derived.clear();
                on_to_off(board, self.arena.key(p), y, &mut derived);
                derived.retain(leads);
                for &implied in &derived {
                    let met = &mut to_off;
                    self.forcing_link(p, implied, contradiction, chains, met, &mut pending_off);
                }
            }
            if !within_limit(&pending_off) {
                break;
            }
            for p in std::mem::take(&mut pending_off) {
                derived.clear();
                off_to_on(board, self.arena.key(p), y, true, &mut derived);
                derived.retain(leads);
                for &implied in &derived {
                    let met = &mut to_on;
                    self.forcing_link(p, implied, contradiction, chains, met, &mut pending_on);
                }
            }
        }
        self.recycle(to_on);
        self.recycle(to_off);
    }

    /// Follows one link of a forcing chain from `p`: a contradiction of the chain's start
    /// is a chain found; a potential not met yet joins `met` and `pending`.
    fn forcing_link(
        &mut self,
        p: NodeId,
        implied: Implied,
        contradiction: Key,
        chains: &mut Vec<NodeId>,
        met: &mut PotentialSet,
        pending: &mut Vec<NodeId>,
    ) {
        let found = implied.key == contradiction
            && !chains
                .iter()
                .any(|&chain| self.arena.key(chain) == implied.key);
        let new = !met.contains(implied.key);
        if !found && !new {
            return;
        }
        let node = self.arena.add(implied.key, implied.cause, &[p]);
        if found {
            chains.push(node);
        }
        if new {
            pending.push(node);
            met.add(&self.arena, node);
        }
    }

    /// The cycle that ends at `dst_on`, walked the other way with every truth value
    /// flipped; returns its start (an off node).
    fn reversed_cycle(&mut self, dst_on: NodeId) -> NodeId {
        let path = self.arena.path(dst_on);
        // path runs from the source to dst_on; the reversed chain starts at the source's
        // flip and each node's parent is the flip of the node after it.
        let mut next: Option<NodeId> = None;
        for &node in path.iter().rev() {
            let original = *self.arena.node(node);
            let parents: Vec<NodeId> = next.into_iter().collect();
            next = Some(
                self.arena
                    .add(conjugate(original.key), original.cause, &parents),
            );
        }
        next.expect("a cycle has nodes")
    }

    fn cycle_hint(
        &mut self,
        board: &State,
        dst_on: NodeId,
        dst_off: NodeId,
        y: bool,
        x: bool,
    ) -> ChainHint {
        let path = self.arena.path(dst_on);
        // The cells of the cycle: every node but the source (which is dst_on's cell too).
        let mut in_cycle: u128 = 0;
        for &node in &path[1..] {
            in_cycle |= 1 << cell_of(self.arena.key(node));
        }
        let mut forward = [0 as Digits; 81];
        let mut backward = [0 as Digits; 81];
        for &node in &path[1..] {
            let node_key = self.arena.key(node);
            let digit = digit_of(node_key);
            for peer in cells_of(board.peers(cell_of(node_key)) & board.places(digit) & !in_cycle) {
                {
                    if is_on(node_key) {
                        forward[peer] |= bit(digit);
                    } else {
                        backward[peer] |= bit(digit);
                    }
                }
            }
        }
        let removable = (0..81)
            .filter_map(|cell| {
                let digits = forward[cell] & backward[cell];
                (digits != 0).then_some((cell, digits))
            })
            .collect();
        ChainHint::new(
            HintShape::Cycle { dst_on, dst_off },
            self.mode,
            y,
            x,
            removable,
            None,
            &mut self.arena,
        )
    }

    fn forcing_chain_hint(&mut self, board: &State, target: NodeId, y: bool, x: bool) -> ChainHint {
        let conclusion = self.arena.key(target);
        self.concluding_hint(board, HintShape::Forcing { target }, conclusion, (y, x))
    }
}
