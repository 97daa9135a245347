//! The propagators run to a fixed point: a queue of the propagators that read a narrowed
//! cell, and the implications that probing the root learned, replayed whenever a cell is
//! left with one digit. A propagator is not queued by what it narrowed itself when it is
//! idempotent, and one that only a placed digit moves (a "different digits" pair) is not
//! queued while the cell stays open. Each contradiction a propagator finds is counted on
//! the cells it reads, for the search to branch where the conflicts are.

use super::propagate::{Mask, Propagator};

/// The propagators and the queue that runs them to a fixed point.
pub(super) struct Propagation<'a> {
    propagators: &'a [Box<dyn Propagator>],
    /// The propagators reading cell `c` are `watchers[watch_start[c]..watch_start[c + 1]]`,
    /// those that a narrowing leaving it open may wake before `open_end[c]`.
    watch_start: Vec<usize>,
    open_end: Vec<usize>,
    watchers: Vec<u32>,
    /// A ring of queued propagators, each at most once.
    queue: Vec<u32>,
    head: usize,
    queued_count: usize,
    queued: Vec<bool>,
    /// The masks of a propagator's cells before it runs.
    before: Vec<Mask>,
    /// What placing each digit in each cell (at `cell * size + digit - 1`) is known to
    /// remove elsewhere: `(cell, digits)` pairs learned by probing the root.
    pub(super) implications: Vec<Vec<(u32, Mask)>>,
    /// Cells narrowed to one digit whose implications are still to apply.
    placed: Vec<usize>,
    size: usize,
    /// For each cell, one plus the number of propagators that read it, plus the
    /// contradictions each of them found: where the conflicts are, for the search to
    /// branch there first.
    pub(super) conflicts: Vec<u32>,
}

impl<'a> Propagation<'a> {
    pub(super) fn new(propagators: &'a [Box<dyn Propagator>], size: usize) -> Self {
        let cells = size * size;
        let mut counts = vec![0usize; cells + 1];
        for propagator in propagators {
            for &cell in propagator.cells() {
                counts[cell + 1] += 1;
            }
        }
        for cell in 0..cells {
            counts[cell + 1] += counts[cell];
        }
        let watch_start = counts.clone();
        let mut watchers = vec![0; counts[cells]];
        for (index, propagator) in propagators.iter().enumerate() {
            for &cell in propagator.cells() {
                watchers[counts[cell]] = index as u32;
                counts[cell] += 1;
            }
        }
        // Each cell's watchers woken by any narrowing first, then those woken only when it
        // is left with one digit.
        let mut open_end = vec![0; cells];
        for cell in 0..cells {
            let range = &mut watchers[watch_start[cell]..watch_start[cell + 1]];
            range.sort_by_key(|&index| !propagators[index as usize].wakes_on_open());
            let open = range
                .iter()
                .filter(|&&index| propagators[index as usize].wakes_on_open())
                .count();
            open_end[cell] = watch_start[cell] + open;
        }
        let widest = propagators
            .iter()
            .map(|p| p.cells().len())
            .max()
            .unwrap_or(0);
        let conflicts = watch_start
            .windows(2)
            .map(|range| (range[1] - range[0]) as u32 + 1)
            .collect();
        Propagation {
            conflicts,
            propagators,
            watch_start,
            open_end,
            watchers,
            queue: vec![0; propagators.len()],
            head: 0,
            queued_count: 0,
            queued: vec![false; propagators.len()],
            before: vec![0; widest],
            implications: Vec::new(),
            placed: Vec::new(),
            size,
        }
    }

    fn push(&mut self, propagator: u32) {
        if !self.queued[propagator as usize] {
            self.queued[propagator as usize] = true;
            let mut slot = self.head + self.queued_count;
            if slot >= self.queue.len() {
                slot -= self.queue.len();
            }
            self.queue[slot] = propagator;
            self.queued_count += 1;
        }
    }

    /// Queues every propagator.
    pub(super) fn push_all(&mut self) {
        for propagator in 0..self.propagators.len() {
            self.push(propagator as u32);
        }
    }

    /// Queues the propagators that read `cell`, now narrowed to `mask` (those woken only by
    /// a single digit when it holds one), and its implications when it holds one digit.
    pub(super) fn narrowed(&mut self, cell: usize, mask: Mask) {
        debug_assert_ne!(mask, 0, "an empty cell is a contradiction, not a narrowing");
        let open = is_open(mask);
        let end = if open {
            self.open_end[cell]
        } else {
            self.watch_start[cell + 1]
        };
        for index in self.watch_start[cell]..end {
            self.push(self.watchers[index]);
        }
        if !self.implications.is_empty() && !open {
            self.placed.push(cell);
        }
    }

    /// Applies the implications of the placed cells, and of those they place; false when
    /// one empties a mask.
    fn imply(&mut self, masks: &mut [Mask]) -> bool {
        while let Some(cell) = self.placed.pop() {
            let candidate = cell * self.size + masks[cell].trailing_zeros() as usize;
            for index in 0..self.implications[candidate].len() {
                let (other, removed) = self.implications[candidate][index];
                let other = other as usize;
                let mask = masks[other] & !removed;
                if mask != masks[other] {
                    if mask == 0 {
                        return false;
                    }
                    masks[other] = mask;
                    self.narrowed(other, mask);
                }
            }
        }
        true
    }

    fn pop(&mut self) -> Option<usize> {
        if self.queued_count == 0 {
            return None;
        }
        let propagator = self.queue[self.head] as usize;
        self.head += 1;
        if self.head == self.queue.len() {
            self.head = 0;
        }
        self.queued_count -= 1;
        self.queued[propagator] = false;
        Some(propagator)
    }

    /// Runs the queued propagators, and those they queue, until none is left; false (with
    /// the queue emptied) when one finds a contradiction or empties a mask.
    pub(super) fn run(&mut self, masks: &mut [Mask]) -> bool {
        let propagators = self.propagators;
        loop {
            if !self.imply(masks) {
                self.placed.clear();
                while self.pop().is_some() {}
                return false;
            }
            let Some(index) = self.pop() else {
                return true;
            };
            let propagator = &propagators[index];
            let cells = propagator.cells();
            for (before, &cell) in self.before.iter_mut().zip(cells) {
                *before = masks[cell];
            }
            let mut consistent = propagator.propagate(masks).is_ok();
            // One that reaches its own fixed point is not queued again by what it narrowed:
            // it counts as queued meanwhile.
            let idempotent = propagator.idempotent();
            self.queued[index] = idempotent;
            if consistent {
                for (i, &cell) in cells.iter().enumerate() {
                    let mask = masks[cell];
                    if mask != self.before[i] {
                        if mask == 0 {
                            consistent = false;
                            break;
                        }
                        self.narrowed(cell, mask);
                    }
                }
            }
            if idempotent {
                self.queued[index] = false;
            }
            if !consistent {
                for &cell in cells {
                    self.conflicts[cell] = self.conflicts[cell].saturating_add(1);
                }
                self.placed.clear();
                while self.pop().is_some() {}
                return false;
            }
        }
    }
}

/// Whether a mask holds more than one digit.
pub(super) fn is_open(mask: Mask) -> bool {
    mask & mask.wrapping_sub(1) != 0
}
