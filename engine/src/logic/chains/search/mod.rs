//! The chain searches of the reference's `Chaining` rule, one mode at a time: static
//! forcing chains and cycles; Nishio; multiple (cell and region) forcing chains; dynamic
//! forcing chains, with advanced implications from level 1 on.
//!
//! Every search collects its hints in the order the reference finds them, all of them or
//! (for a rating) only those that can be the easiest; the caller keeps the first of the
//! smallest (difficulty, complexity, kind) in that order, as the reference's stable sort
//! does. Static searches walk only from and through the potentials where a result can be,
//! as the reachable sets of their graph tell (see `reach`).
//!
//! `unary` has the static forcing chains and cycles, `multiple` the cell, region and
//! dynamic chainings; both walk with [`Search::chaining`].

mod multiple;
mod unary;

use super::Mode;
use super::bitboard::State;
use super::graph::{Arena, Key, NodeId, PotentialSet, cell_of, conjugate, digit_of, is_on};
use super::hints::{ChainHint, HintShape};
use super::implications::{hidden_parents, off_to_on, on_to_off};
use crate::logic::board::{Board, Cell, Digits, bit};
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

    /// The hint of the chains of `shape`, which conclude `conclusion`, with what that
    /// removes; `y` and `x` say which links the chains may use.
    fn concluding_hint(
        &mut self,
        board: &State,
        shape: HintShape,
        conclusion: Key,
        (y, x): (bool, bool),
    ) -> ChainHint {
        let (removable, result) = removals_for(board, conclusion);
        ChainHint::new(shape, self.mode, y, x, removable, result, &mut self.arena)
    }

    fn push_if_worth(&mut self, hint: ChainHint) {
        if !hint.removable.is_empty() {
            if let Some(easiest) = &mut self.easiest {
                *easiest = easiest.min(hint.difficulty);
            }
            self.hints.push(hint);
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
