//! Multiple and dynamic forcing chains: what follows from every candidate of a cell, or
//! every place of a digit in a house, and holds whichever is true.

use super::Search;
use crate::logic::board::{Cell, digits_of};
use crate::logic::chains::bitboard::{Cells, State, cells_of};
use crate::logic::chains::graph::{Cause, NodeId, PotentialSet, conjugate, is_on, key};
use crate::logic::chains::hints::{ChainHint, HintShape};
use crate::logic::chains::reach::Reach;

/// Multiple and dynamic chains may use both kinds of link.
const BOTH_LINKS: (bool, bool) = (true, true);

/// The sets that a binary chaining from one candidate leaves: what follows from it being
/// true.
struct Outcome {
    on: PotentialSet,
    off: PotentialSet,
}

impl Search<'_> {
    /// Cell and region chainings from every cell with more than two candidates (two or
    /// more when dynamic), in cell order.
    pub(super) fn multiple_chains(&mut self, board: &State) {
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
                    let shape = HintShape::Cell { cell, chains };
                    let hint = self.concluding_hint(board, shape, target_key, BOTH_LINKS);
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
        let from_on = self.assumption(board, p_on, contradiction);
        if !double && !contradiction {
            // Nothing is asked of the candidate being false.
            return from_on;
        }
        let p_off_key = conjugate(self.arena.key(p_on));
        let p_off = self.arena.add(p_off_key, Cause::Assumption, &[]);
        let from_off = self.assumption(board, p_off, contradiction);
        if double {
            for on in from_on.on.iter().collect::<Vec<_>>() {
                if let Some(off) = from_off.on.get(self.arena.key(on)) {
                    let hint = self.binary_hint(board, p_on, on, off, on, false);
                    self.push_if_worth(hint);
                }
            }
            for on in from_on.off.iter().collect::<Vec<_>>() {
                if let Some(off) = from_off.off.get(self.arena.key(on)) {
                    let hint = self.binary_hint(board, p_off, on, off, off, false);
                    self.push_if_worth(hint);
                }
            }
        }
        self.recycle(from_off.on);
        self.recycle(from_off.off);
        from_on
    }

    /// Assumes the potential `p` (a candidate true or false) and returns what follows;
    /// with `contradiction`, a contradiction it leads to is a hint that `p` cannot hold.
    fn assumption(&mut self, board: &State, p: NodeId, contradiction: bool) -> Outcome {
        let mut outcome = Outcome {
            on: self.set(),
            off: self.set(),
        };
        if is_on(self.arena.key(p)) {
            outcome.on.add(&self.arena, p);
        } else {
            outcome.off.add(&self.arena, p);
        }
        let absurd = self.chaining(board, &mut outcome.on, &mut outcome.off);
        if let Some((on, off)) = absurd.filter(|_| contradiction) {
            let hint = self.binary_hint(board, p, on, off, p, true);
            self.push_if_worth(hint);
        }
        outcome
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
        let shape = HintShape::Binary {
            dst_on,
            dst_off,
            absurd,
        };
        self.concluding_hint(board, shape, conclusion, BOTH_LINKS)
    }

    /// Region forcing chains for `digit`, from each house of `cell` where `cell` is the
    /// digit's first place (so each house is met once).
    fn region_chainings(&mut self, board: &State, cell: Cell, digit: u8, outcome: &Outcome) {
        for (house, places) in region_places(board, cell, digit, self.mode.multiple) {
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
                    let (kind, index) = board.house_ref(house);
                    let shape = HintShape::Region {
                        house,
                        kind,
                        index,
                        digit,
                        chains,
                    };
                    let hint = self.concluding_hint(board, shape, target_key, BOTH_LINKS);
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
}

/// The houses of `cell` (with the digit's places in each) whose region chainings for
/// `digit` start from `cell`: where it is the digit's first place, so each house is met
/// once; houses with more than two places only for `multiple` chains.
fn region_places(
    board: &State,
    cell: Cell,
    digit: u8,
    multiple: bool,
) -> impl Iterator<Item = (usize, Cells)> + '_ {
    let digit_places = board.places(digit);
    board.houses_of(cell).filter_map(move |house| {
        let places = digit_places & board.house_cells(house);
        let count = places.count_ones();
        let qualifies = count == 2 || multiple && count > 2;
        (qualifies && places.trailing_zeros() as usize == cell).then_some((house, places))
    })
}
