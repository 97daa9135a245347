//! The chain searches of the reference's `Chaining` rule, one mode at a time: static
//! forcing chains and cycles; Nishio; multiple (cell and region) forcing chains; dynamic
//! forcing chains, with advanced implications from level 1 on.
//!
//! Every search collects its hints in the order the reference finds them, all of them or
//! (for a rating) only those that can be the easiest; the caller keeps the first of the
//! smallest (difficulty, complexity, kind) in that order, as the reference's stable sort
//! does. Static searches walk only from and through the potentials where a result can be,
//! as the reachable sets of their graph tell (see `reach`).

use super::Mode;
use super::bitboard::{Cells, State, cells_of, house, house_index, peers};
use super::graph::{
    Arena, Cause, Key, NodeId, PotentialSet, cell_of, conjugate, digit_of, is_on, key,
};
use super::hints::{ChainHint, HintShape, max_complexity, unary_base};
use super::implications::{Implied, hidden_parents, off_to_on, on_to_off};
use super::reach::Reach;
use crate::logic::board::{Board, Cell, Digits, HouseKind, bit, digits_of};
use crate::solver::Cancellation;

/// A search in one mode over one board.
pub struct Search<'a> {
    pub(super) mode: Mode,
    pub(super) arena: Arena,
    cancel: &'a Cancellation,
    /// The board the search runs on.
    base: Board,
    /// Its candidates, with the removals of the current dynamic chain.
    work: State,
    /// Sets no longer in use, kept to spare their allocation.
    spare_sets: Vec<PotentialSet>,
    /// The hints found so far, in the reference's order.
    pub(super) hints: Vec<ChainHint>,
    /// When only the easiest hint is wanted: the difficulty of the easiest found so far.
    /// Chains that could only be rated harder are then not followed.
    easiest: Option<f64>,
}

/// The sets that a binary chaining from one candidate leaves: what follows from it being
/// true.
struct Outcome {
    on: PotentialSet,
    off: PotentialSet,
}

impl<'a> Search<'a> {
    /// A search in `mode` over `board` that collects every hint.
    pub fn new(mode: Mode, board: &Board, cancel: &'a Cancellation) -> Self {
        Search {
            mode,
            arena: Arena::new(),
            cancel,
            base: board.clone(),
            work: State::of(board),
            spare_sets: Vec::new(),
            hints: Vec::new(),
            easiest: None,
        }
    }

    /// A search in `mode` over `board` for its easiest hint: the hints it collects include
    /// that one, and may leave out harder ones.
    pub fn for_easiest(mode: Mode, board: &Board, cancel: &'a Cancellation) -> Self {
        Search {
            easiest: Some(f64::INFINITY),
            ..Search::new(mode, board, cancel)
        }
    }

    /// The most potentials a cycle and a forcing chain with these links may hold and still
    /// matter: any, unless only the easiest hint is wanted.
    fn unary_limits(&self, y: bool, x: bool) -> (usize, usize) {
        let bound = self.easiest.unwrap_or(f64::INFINITY);
        (
            max_complexity(unary_base(true, y, x), bound),
            max_complexity(unary_base(false, y, x), bound),
        )
    }

    fn set(&mut self) -> PotentialSet {
        self.spare_sets.pop().unwrap_or_default()
    }

    fn copy_of(&mut self, set: &PotentialSet) -> PotentialSet {
        let mut copy = self.set();
        copy.copy_from(set);
        copy
    }

    fn recycle(&mut self, mut set: PotentialSet) {
        set.clear();
        self.spare_sets.push(set);
    }

    /// Runs the search on its board, filling `self.hints`.
    pub fn run(&mut self) {
        let board = State::of(&self.base);
        let board = &board;
        if self.mode.multiple || self.mode.dynamic {
            self.multiple_chains(board);
        } else {
            // Cycles and chains with X-links only, then Y-links only, then both.
            for (y, x) in [(false, true), (true, false), (true, true)] {
                self.unary_chains(board, y, x);
            }
        }
    }

    /// Whether the search should stop (its caller gave up).
    fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    // --- Static forcing chains and cycles -----------------------------------------------

    fn unary_chains(&mut self, board: &State, y: bool, x: bool) {
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
            for peer in cells_of(peers(cell_of(node_key)) & board.places(digit) & !in_cycle) {
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
        let target_key = self.arena.key(target);
        let (removable, result) = removals_for(board, target_key);
        ChainHint::new(
            HintShape::Forcing { target },
            self.mode,
            y,
            x,
            removable,
            result,
            &mut self.arena,
        )
    }

    fn push_if_worth(&mut self, hint: ChainHint) {
        if !hint.removable.is_empty() {
            if let Some(easiest) = &mut self.easiest {
                *easiest = easiest.min(hint.difficulty);
            }
            self.hints.push(hint);
        }
    }

    // --- Multiple and dynamic forcing chains --------------------------------------------

    fn multiple_chains(&mut self, board: &State) {
        // Static chains walk one fixed graph: skip the cells where no chaining can meet.
        let reach = (!self.mode.dynamic).then(|| Reach::of(board, true));
        for cell in 0..81 {
            let count = board.candidates(cell).count_ones();
            if count > 2 || count > 1 && self.mode.dynamic {
                if self.cancelled() {
                    return;
                }
                if reach
                    .as_ref()
                    .is_some_and(|reach| !self.chainings_can_meet(board, cell, reach))
                {
                    continue;
                }
                self.chains_from_cell(board, cell, count);
            }
        }
    }

    /// Whether the chains of some cell or region chaining from `cell` can reach a common
    /// potential; without one, `chains_from_cell` finds nothing.
    fn chainings_can_meet(&self, board: &State, cell: Cell, reach: &Reach) -> bool {
        let digits = || digits_of(board.candidates(cell));
        reach.meet(digits().map(|digit| key(cell, digit, true)))
            || digits().any(|digit| {
                region_places(board, cell, digit, self.mode.multiple).any(|(_, places)| {
                    reach.meet(cells_of(places).map(|place| key(place, digit, true)))
                })
            })
    }

    fn chains_from_cell(&mut self, board: &State, cell: Cell, count: u32) {
        let mark = self.arena.mark();
        let hints_before = self.hints.len();
        let mode = self.mode;
        let mut outcomes: Vec<(u8, Outcome)> = Vec::new();
        let mut cell_on: Option<PotentialSet> = None;
        let mut cell_off: Option<PotentialSet> = None;
        for digit in digits_of(board.candidates(cell)) {
            let p_on = self
                .arena
                .add(key(cell, digit, true), Cause::Assumption, &[]);
            let double = count >= 3 && !mode.nishio && mode.dynamic;
            let contradiction = mode.dynamic || mode.nishio;
            let outcome = self.binary_chaining(board, p_on, double, contradiction);
            if !mode.nishio {
                self.region_chainings(board, cell, digit, &outcome);
            }
            match (&mut cell_on, &mut cell_off) {
                (Some(on), Some(off)) => {
                    on.retain_in(&outcome.on);
                    off.retain_in(&outcome.off);
                }
                _ => {
                    cell_on = Some(self.copy_of(&outcome.on));
                    cell_off = Some(self.copy_of(&outcome.off));
                }
            }
            outcomes.push((digit, outcome));
        }
        if !mode.nishio && (count == 2 || mode.multiple && count > 2) {
            for (common, on) in [(cell_on.as_ref(), true), (cell_off.as_ref(), false)] {
                let Some(common) = common else { continue };
                for target in common.iter().collect::<Vec<_>>() {
                    let target_key = self.arena.key(target);
                    let chains: Vec<NodeId> = outcomes
                        .iter()
                        .filter_map(|(_, outcome)| {
                            if on { &outcome.on } else { &outcome.off }.get(target_key)
                        })
                        .collect();
                    let (removable, result) = removals_for(board, target_key);
                    let hint = ChainHint::new(
                        HintShape::Cell { cell, chains },
                        mode,
                        true,
                        true,
                        removable,
                        result,
                        &mut self.arena,
                    );
                    self.push_if_worth(hint);
                }
            }
        }
        for (_, outcome) in outcomes {
            self.recycle(outcome.on);
            self.recycle(outcome.off);
        }
        for set in [cell_on, cell_off].into_iter().flatten() {
            self.recycle(set);
        }
        if self.hints.len() == hints_before {
            self.arena.rollback(mark);
        }
    }

    /// Assumes `p_on`'s candidate true, then false: contradictions of either, and
    /// (`double`) what follows either way. Returns what follows from it being true.
    fn binary_chaining(
        &mut self,
        board: &State,
        p_on: NodeId,
        double: bool,
        contradiction: bool,
    ) -> Outcome {
        let mut on_to_on = self.set();
        let mut on_to_off = self.set();
        on_to_on.add(&self.arena, p_on);
        let absurd = self.chaining(board, &mut on_to_on, &mut on_to_off);
        if let Some((on, off)) = absurd.filter(|_| contradiction) {
            // The candidate cannot be true.
            let hint = self.binary_hint(board, p_on, on, off, p_on, true);
            self.push_if_worth(hint);
        }
        if !double && !contradiction {
            // Nothing is asked of the candidate being false.
            return Outcome {
                on: on_to_on,
                off: on_to_off,
            };
        }
        let p_off_key = conjugate(self.arena.key(p_on));
        let p_off = self.arena.add(p_off_key, Cause::Assumption, &[]);
        let mut off_to_on = self.set();
        let mut off_to_off = self.set();
        off_to_off.add(&self.arena, p_off);
        let absurd = self.chaining(board, &mut off_to_on, &mut off_to_off);
        if let Some((on, off)) = absurd.filter(|_| contradiction) {
            // The candidate cannot be false.
            let hint = self.binary_hint(board, p_off, on, off, p_off, true);
            self.push_if_worth(hint);
        }
        if double {
            for from_on in on_to_on.iter().collect::<Vec<_>>() {
                if let Some(from_off) = off_to_on.get(self.arena.key(from_on)) {
                    let hint = self.binary_hint(board, p_on, from_on, from_off, from_on, false);
                    self.push_if_worth(hint);
                }
            }
            for from_on in on_to_off.iter().collect::<Vec<_>>() {
                if let Some(from_off) = off_to_off.get(self.arena.key(from_on)) {
                    let hint = self.binary_hint(board, p_off, from_on, from_off, from_off, false);
                    self.push_if_worth(hint);
                }
            }
        }
        self.recycle(off_to_on);
        self.recycle(off_to_off);
        Outcome {
            on: on_to_on,
            off: on_to_off,
        }
    }

    fn binary_hint(
        &mut self,
        board: &State,
        source: NodeId,
        dst_on: NodeId,
        dst_off: NodeId,
        target: NodeId,
        absurd: bool,
    ) -> ChainHint {
        // A contradiction concludes the source's opposite; a double chain, what follows
        // either way.
        let conclusion = if absurd {
            conjugate(self.arena.key(source))
        } else {
            self.arena.key(target)
        };
        let (removable, result) = removals_for(board, conclusion);
        ChainHint::new(
            HintShape::Binary {
                dst_on,
                dst_off,
                absurd,
            },
            self.mode,
            true,
            true,
            removable,
            result,
            &mut self.arena,
        )
    }

    /// Region forcing chains for `digit`, from each house of `cell` where `cell` is the
    /// digit's first place (so each house is met once).
    fn region_chainings(&mut self, board: &State, cell: Cell, digit: u8, outcome: &Outcome) {
        for (kind, places) in region_places(board, cell, digit, self.mode.multiple) {
            let mut region_on = self.copy_of(&outcome.on);
            let mut region_off = self.copy_of(&outcome.off);
            let mut branches: Vec<Outcome> = Vec::new();
            for other in cells_of(places) {
                if other == cell {
                    continue;
                }
                let start = self
                    .arena
                    .add(key(other, digit, true), Cause::Assumption, &[]);
                let mut to_on = self.set();
                let mut to_off = self.set();
                to_on.add(&self.arena, start);
                self.chaining(board, &mut to_on, &mut to_off);
                region_on.retain_in(&to_on);
                region_off.retain_in(&to_off);
                branches.push(Outcome {
                    on: to_on,
                    off: to_off,
                });
            }
            for (common, on) in [(&region_on, true), (&region_off, false)] {
                for target in common.iter().collect::<Vec<_>>() {
                    let target_key = self.arena.key(target);
                    let pick = |outcome: &Outcome| {
                        if on { &outcome.on } else { &outcome.off }.get(target_key)
                    };
                    // Branches in the order of the house's positions: this cell's first.
                    let chains: Vec<NodeId> = std::iter::once(outcome)
                        .chain(branches.iter())
                        .filter_map(pick)
                        .collect();
                    let (removable, result) = removals_for(board, target_key);
                    let hint = ChainHint::new(
                        HintShape::Region {
                            kind,
                            index: house_index(cell, kind),
                            digit,
                            chains,
                        },
                        self.mode,
                        true,
                        true,
                        removable,
                        result,
                        &mut self.arena,
                    );
                    self.push_if_worth(hint);
                }
            }
            for branch in branches {
                self.recycle(branch.on);
                self.recycle(branch.off);
            }
            self.recycle(region_on);
            self.recycle(region_off);
        }
    }

    /// Completes `to_on` and `to_off` with everything that follows from them (the
    /// reference's `doChaining`): every pending "on" is handled before the next "off"; in
    /// a dynamic search each "off" is removed from the working board once its
    /// consequences are taken. Returns the two nodes of the first contradiction met.
    pub(super) fn chaining(
        &mut self,
        board: &State,
        to_on: &mut PotentialSet,
        to_off: &mut PotentialSet,
    ) -> Option<(NodeId, NodeId)> {
        let mode = self.mode;
        self.work = *board;
        let source = mode.dynamic.then_some(board);
        let mut pending_on: std::collections::VecDeque<NodeId> = to_on.iter().collect();
        let mut pending_off: std::collections::VecDeque<NodeId> = to_off.iter().collect();
        let mut derived = Vec::new();
        let mut parents = Vec::new();
        loop {
            if let Some(p) = pending_on.pop_front() {
                derived.clear();
                on_to_off(&self.work, self.arena.key(p), !mode.nishio, &mut derived);
                for &implied in &derived {
                    if let Some(on) = to_on.get(conjugate(implied.key)) {
                        let off = self.arena.add(implied.key, implied.cause, &[p]);
                        return Some((on, off));
                    }
                    if !to_off.contains(implied.key) {
                        let off = self.arena.add(implied.key, implied.cause, &[p]);
                        to_off.add(&self.arena, off);
                        pending_off.push_back(off);
                    }
                }
                continue;
            }
            if let Some(p) = pending_off.pop_front() {
                derived.clear();
                let p_key = self.arena.key(p);
                off_to_on(&self.work, p_key, !mode.nishio, true, &mut derived);
                for &implied in &derived {
                    let contradiction = to_off.get(conjugate(implied.key));
                    if contradiction.is_none() && to_on.contains(implied.key) {
                        continue;
                    }
                    // Hidden parents are read off the board as it was when `p` was taken.
                    parents.clear();
                    parents.push(p);
                    if let Some(source) = source {
                        hidden_parents(&self.work, source, to_off, implied, &mut parents);
                    }
                    let on = self.arena.add(implied.key, implied.cause, &parents);
                    if let Some(off) = contradiction {
                        return Some((on, off));
                    }
                    to_on.add(&self.arena, on);
                    pending_on.push_back(on);
                }
                if mode.dynamic {
                    self.work.remove(cell_of(p_key), digit_of(p_key));
                }
                continue;
            }
            if mode.level > 0 {
                let advanced = super::advanced::potentials(self, to_off);
                let mut added = false;
                for off in advanced {
                    if !to_off.contains(self.arena.key(off)) {
                        to_off.add(&self.arena, off);
                        pending_off.push_back(off);
                        added = true;
                    }
                }
                if added {
                    continue;
                }
            }
            return None;
        }
    }

    /// The board the search runs on.
    pub(super) fn base(&self) -> &Board {
        &self.base
    }

    /// The working board of the chain in progress (with its dynamic removals).
    pub(super) fn work(&self) -> Board {
        self.work.on_board(&self.base)
    }

    /// When the search must give up.
    pub(super) fn cancel(&self) -> &'a Cancellation {
        self.cancel
    }
}

/// What a conclusion about `target` removes on `board`, and the digit it places: a true
/// candidate removes the cell's other candidates and places it; a false one removes
/// itself.
fn removals_for(board: &State, target: Key) -> (Vec<(Cell, Digits)>, Option<Key>) {
    let (cell, digit) = (cell_of(target), digit_of(target));
    if is_on(target) {
        let others = board.candidates(cell) & !bit(digit);
        let removable = if others == 0 {
            Vec::new()
        } else {
            vec![(cell, others)]
        };
        (removable, Some(target))
    } else {
        (vec![(cell, bit(digit))], None)
    }
}

/// The houses of `cell` (with the digit's places in each) whose region chainings for
/// `digit` start from `cell`: where it is the digit's first place, so each house is met
/// once; houses with more than two places only for `multiple` chains.
fn region_places(
    board: &State,
    cell: Cell,
    digit: u8,
    multiple: bool,
) -> impl Iterator<Item = (HouseKind, Cells)> {
    let digit_places = board.places(digit);
    [HouseKind::Box, HouseKind::Row, HouseKind::Column]
        .into_iter()
        .filter_map(move |kind| {
            let places = digit_places & house(cell, kind);
            let count = places.count_ones();
            let qualifies = count == 2 || multiple && count > 2;
            (qualifies && places.trailing_zeros() as usize == cell).then_some((kind, places))
        })
}
