//! The engine for every supported size: one candidate mask per cell.
//!
//! State layout: one `u32` per cell, bit `d - 1` set while digit `d` is still possible.
//! Bit 31 ([`FIXED`]) marks a cell whose single candidate has been placed and struck from
//! its peers. Invariant after [`propagate`] succeeds: every fixed cell's digit is absent
//! from all its peers, no cell is empty, and every unit still has a place for every digit.
//! A guess copies the whole state one level deeper in a buffer sized before the search
//! starts, so backtracking is just going back a level.
//!
//! Large sparse grids make chronological backtracking heavy-tailed: an early wrong guess
//! that no single contradicts can hide below a subtree of millions of nodes. When any one
//! solution will do (fastest order, limit 1), the search therefore restarts from the root
//! with a node budget that doubles each time, and each restart breaks ties between cells
//! and orders digits differently, derived from the restart's number, so the same grid
//! always gets the same answer. The first run is the plain search; the growing budget keeps
//! the search complete, so an unsolvable grid is still proved unsolvable.
//!
//! Counting to two, the question uniqueness asks, would have to walk on past the first
//! solution without restarts, into the same heavy tail. So when a short plain count does
//! not settle it, it is asked as restarting searches instead: find one solution, then, for
//! each cell still open, whether some solution has another digit there. Each cell proved
//! forced joins the root of the questions after it, so they shrink as they go.

use std::sync::OnceLock;
use std::time::Instant;

use super::cancel::StopCheck;
use super::{Cancellation, Flow, Order, Search, Solutions, SolveOptions};
use crate::grid::{Grid, SUPPORTED_SIZES, box_side};

/// Marks a cell whose digit is placed and propagated.
const FIXED: u32 = 1 << 31;

/// Nodes the first run of a restarting search may visit: plenty for ordinary puzzles.
const FIRST_RUN_NODES: u64 = 1 << 10;

/// Salt of [`Engine::mix`] for the choice of cell; digit orders use the depth (< 625).
const CELL_CHOICE_SALT: usize = 1 << 20;

/// How many search nodes pass between two looks at the clock. Nodes of a 25×25 search
/// cost tens of microseconds, so this keeps a cancelled solve under a millisecond.
const STOP_CHECK_PERIOD: u32 = 16;

/// The cells of every unit and the peers of every cell, for one grid size.
struct Topology {
    size: usize,
    /// Every digit's bit set.
    all_digits: u32,
    /// `3 × size` units (rows, columns, boxes) of `size` cells each.
    units: Vec<u16>,
    /// Each cell's peers, `peer_count` per cell.
    peers: Vec<u16>,
    peer_count: usize,
}

impl Topology {
    fn build(size: usize) -> Topology {
        let side = box_side(size);
        let cells = size * size;
        let mut units = Vec::with_capacity(3 * cells);
        for row in 0..size {
            units.extend((0..size).map(|col| row * size + col));
        }
        for col in 0..size {
            units.extend((0..size).map(|row| row * size + col));
        }
        for b in 0..size {
            let (top, left) = (b / side * side, b % side * side);
            units.extend((0..size).map(|i| (top + i / side) * size + left + i % side));
        }
        let peer_count = 2 * (size - 1) + (side - 1) * (side - 1);
        let mut peers = Vec::with_capacity(cells * peer_count);
        for cell in 0..cells {
            let (row, col) = (cell / size, cell % size);
            let is_peer = |other: usize| {
                let (r, c) = (other / size, other % size);
                other != cell
                    && (r == row || c == col || (r / side == row / side && c / side == col / side))
            };
            peers.extend((0..cells).filter(|&other| is_peer(other)));
        }
        debug_assert_eq!(peers.len(), cells * peer_count);
        Topology {
            size,
            all_digits: (1u32 << size) - 1,
            units: units.into_iter().map(|c| c as u16).collect(),
            peers: peers.into_iter().map(|c| c as u16).collect(),
            peer_count,
        }
    }

    fn of(size: usize) -> &'static Topology {
        static TOPOLOGIES: [OnceLock<Topology>; SUPPORTED_SIZES.len()] =
            [const { OnceLock::new() }; SUPPORTED_SIZES.len()];
        let index = SUPPORTED_SIZES
            .iter()
            .position(|&n| n == size)
            .expect("grid sizes are checked when a grid is built");
        TOPOLOGIES[index].get_or_init(|| Topology::build(size))
    }

    fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }

    fn units(&self) -> impl Iterator<Item = &[u16]> {
        self.units.chunks_exact(self.size)
    }
}

/// Searches `grid` for up to `options.limit` solutions; a limit of two is counted by
/// restarting searches (see the module doc).
pub(super) fn search(
    grid: &Grid,
    options: &SolveOptions,
    cancel: &Cancellation,
    started: Instant,
) -> Search {
    if options.limit != 2 {
        return search_within(grid, &[], options, cancel, started, u64::MAX);
    }
    let first_only = SolveOptions {
        limit: 1,
        ..*options
    };
    let mut engine = Engine::new(grid, options, cancel, started, u64::MAX);
    if engine.propagate_root() {
        // Most grids are counted by a short plain search, often sooner than by questions
        // (a second solution close to the first can be far from a question's first try).
        engine.nodes_left = COUNT_ON_NODES;
        engine.search(0);
        if engine.out_of_nodes && !engine.stop.stopped() {
            // `first_only` stops at the first solution; once a question has found one
            // more, the count of two stops it too.
            engine.options = &first_only;
            engine.solutions = Solutions::new(&first_only);
            engine.nodes_left = u64::MAX;
            engine.out_of_nodes = false;
            engine.run();
            if let Some(first) = engine.solutions.first.clone() {
                // The searches never write the root level.
                let mut root = engine.level(0).to_vec();
                engine.options = &ANY_SOLUTION;
                engine.count_second(&mut root, &first);
            }
        }
    }
    engine.finish(grid.size())
}

/// Nodes the plain count to two may visit before uniqueness is asked as questions.
const COUNT_ON_NODES: u64 = 1 << 14;

/// Searches `grid` for up to `options.limit` solutions, with the digits of `ruled_out`
/// (cell, digit) struck from their cells before the search; a restarting search (fastest
/// order, limit 1) gives up, as cancelled, once the node budgets of its runs add up to
/// `node_cap` or more.
pub(super) fn search_within(
    grid: &Grid,
    ruled_out: &[(usize, u8)],
    options: &SolveOptions,
    cancel: &Cancellation,
    started: Instant,
    node_cap: u64,
) -> Search {
    let mut engine = Engine::new(grid, options, cancel, started, node_cap);
    let possible = ruled_out
        .iter()
        .all(|&(cell, digit)| engine.strike_at_root(cell, 1 << (digit - 1)));
    if possible && engine.propagate_root() {
        engine.run();
    }
    engine.finish(grid.size())
}

/// What the questions after a first solution ask for: any solution, with restarts.
const ANY_SOLUTION: SolveOptions = SolveOptions {
    order: Order::Fastest,
    limit: 1,
};

/// The search state: one level of cell masks per guess depth, reused across branches.
struct Engine<'a> {
    topology: &'static Topology,
    cells: usize,
    states: Vec<u32>,
    queue: Vec<u16>,
    options: &'a SolveOptions,
    stop: StopCheck<'a>,
    guesses: u64,
    solutions: Solutions,
    /// Nodes this run may still visit.
    nodes_left: u64,
    /// Whether this run stopped because `nodes_left` ran out.
    out_of_nodes: bool,
    /// Nodes all the runs of a restarting search may visit together.
    node_cap: u64,
    /// Which restart this is: 0 is the plain search, others break ties differently.
    variant: usize,
}

impl<'a> Engine<'a> {
    /// An engine for `grid` with its givens placed at the root, not yet propagated.
    fn new(
        grid: &Grid,
        options: &'a SolveOptions,
        cancel: &'a Cancellation,
        started: Instant,
        node_cap: u64,
    ) -> Self {
        let topology = Topology::of(grid.size());
        let cells = grid.cells().len();
        let levels = cells - grid.givens() + 1;
        let mut engine = Engine {
            topology,
            cells,
            states: vec![topology.all_digits; levels * cells],
            queue: Vec::with_capacity(cells),
            options,
            stop: StopCheck::new(cancel, STOP_CHECK_PERIOD, started),
            guesses: 0,
            solutions: Solutions::new(options),
            nodes_left: u64::MAX,
            out_of_nodes: false,
            node_cap,
            variant: 0,
        };
        for (cell, &value) in grid.cells().iter().enumerate() {
            if value != 0 {
                fix(
                    &mut engine.states[..cells],
                    &mut engine.queue,
                    cell,
                    1 << (value - 1),
                );
            }
        }
        engine
    }

    /// Strikes the digit `bit` from `cell` at the root; `false` if nothing is left there.
    fn strike_at_root(&mut self, cell: usize, bit: u32) -> bool {
        self.states[cell] &= !bit;
        self.states[cell] & !FIXED != 0
    }

    /// Propagates the root state; `false` on a contradiction.
    fn propagate_root(&mut self) -> bool {
        propagate(
            &mut self.states[..self.cells],
            &mut self.queue,
            self.topology,
        )
    }

    /// Searches from the propagated root, restarting when any one solution will do.
    fn run(&mut self) {
        if self.options.order == Order::Fastest && self.options.limit == 1 {
            self.search_with_restarts();
        } else {
            self.search(0);
        }
    }

    /// After the solution `first`, asks for each cell still open in `root` (a propagated
    /// root state that `first` solves) whether a solution has another digit there, until
    /// one does, the search is stopped, or every cell is proved forced; each forced cell
    /// is placed in `root` for the questions after it.
    fn count_second(&mut self, root: &mut [u32], first: &[u8]) {
        for cell in 0..self.cells {
            if root[cell] & FIXED != 0 {
                continue;
            }
            let bit = 1 << (first[cell] - 1);
            self.states[..self.cells].copy_from_slice(root);
            if self.strike_at_root(cell, bit) && self.propagate_root() {
                self.run();
            }
            if self.solutions.count >= 2 || self.stop.stopped() {
                return;
            }
            fix(root, &mut self.queue, cell, bit);
            let consistent = propagate(root, &mut self.queue, self.topology);
            debug_assert!(consistent, "a solution's digit leads to no contradiction");
        }
    }

    /// How the search ended, for a grid of side `size`.
    fn finish(self, size: usize) -> Search {
        Search {
            outcome: self
                .solutions
                .into_outcome(size, self.stop.stopped() || self.out_of_nodes),
            guesses: self.guesses,
        }
    }

    fn level(&self, depth: usize) -> &[u32] {
        &self.states[depth * self.cells..(depth + 1) * self.cells]
    }

    /// Runs the search under a node budget that doubles until it finishes (see the module
    /// doc), or until the budgets of its runs add up to `node_cap` or more (then
    /// `out_of_nodes` stays set); the root state at level 0 is never written, so each run
    /// starts afresh.
    fn search_with_restarts(&mut self) {
        let mut budget = FIRST_RUN_NODES;
        let mut spent: u64 = 0;
        for variant in 0.. {
            self.variant = variant;
            self.nodes_left = budget;
            self.out_of_nodes = false;
            self.search(0);
            spent = spent.saturating_add(budget);
            if !self.out_of_nodes || spent >= self.node_cap {
                return;
            }
            budget = budget.saturating_mul(2);
        }
    }

    fn search(&mut self, depth: usize) -> Flow {
        if self.stop.should_stop() {
            return Flow::Stop;
        }
        if self.nodes_left == 0 {
            self.out_of_nodes = true;
            return Flow::Stop;
        }
        self.nodes_left -= 1;
        let Some(cell) = self.branch_cell(self.level(depth)) else {
            let level = &self.states[depth * self.cells..(depth + 1) * self.cells];
            return self
                .solutions
                .record(|| level.iter().map(|&v| mask_value(v)).collect());
        };
        let candidates = self.level(depth)[cell];
        // Digits from a rotating start, so that restarts try other values first; the plain
        // search (variant 0) goes in ascending order.
        let start = self.mix(depth) % self.topology.size;
        let (from_start, before_start) = (
            candidates >> start << start,
            candidates & ((1 << start) - 1),
        );
        let cells = self.cells;
        for mut digits in [from_start, before_start] {
            while digits != 0 {
                let bit = digits & digits.wrapping_neg();
                digits ^= bit;
                self.guesses += 1;
                let (done, next) = self.states.split_at_mut((depth + 1) * cells);
                let next = &mut next[..cells];
                next.copy_from_slice(&done[depth * cells..]);
                fix(next, &mut self.queue, cell, bit);
                if propagate(next, &mut self.queue, self.topology)
                    && self.search(depth + 1) == Flow::Stop
                {
                    return Flow::Stop;
                }
            }
        }
        Flow::Continue
    }

    /// A number that differs between restarts and depths, 0 for the plain search.
    fn mix(&self, salt: usize) -> usize {
        if self.variant == 0 {
            return 0;
        }
        let x = (self.variant as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt as u64;
        // One round of a 64-bit multiplicative hash (splitmix64's finaliser).
        let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (x ^ (x >> 31)) as usize
    }

    /// The open cell to branch on, or `None` when every cell is fixed.
    fn branch_cell(&self, state: &[u32]) -> Option<usize> {
        match self.options.order {
            Order::Lexicographic => state.iter().position(|&v| v & FIXED == 0),
            Order::Fastest => {
                let mut best: Option<(u32, usize)> = None;
                // Ties go to the first cell from a start that restarts move.
                let start = self.mix(CELL_CHOICE_SALT) % self.cells;
                let (before, after) = state.split_at(start);
                let cells = after.iter().zip(start..).chain(before.iter().zip(0..));
                for (&v, cell) in cells {
                    if v & FIXED != 0 {
                        continue;
                    }
                    let candidates = v.count_ones();
                    if best.is_none_or(|(fewest, _)| candidates < fewest) {
                        best = Some((candidates, cell));
                        if candidates == 2 {
                            break;
                        }
                    }
                }
                best.map(|(_, cell)| cell)
            }
        }
    }
}

/// Places `bit` in `cell` and queues it for propagation; [`propagate`] finds any clash.
fn fix(state: &mut [u32], queue: &mut Vec<u16>, cell: usize, bit: u32) {
    state[cell] = bit | FIXED;
    queue.push(cell as u16);
}

/// Strikes every placed digit from its peers and places hidden singles until nothing
/// changes. Returns `false` on a contradiction (the queue is then left empty).
fn propagate(state: &mut [u32], queue: &mut Vec<u16>, topology: &Topology) -> bool {
    let consistent = propagate_to_fixed_point(state, queue, topology);
    if !consistent {
        queue.clear();
    }
    consistent
}

fn propagate_to_fixed_point(state: &mut [u32], queue: &mut Vec<u16>, topology: &Topology) -> bool {
    loop {
        while let Some(cell) = queue.pop() {
            let bit = state[usize::from(cell)] & !FIXED;
            for &peer in topology.peers(usize::from(cell)) {
                let peer = usize::from(peer);
                let mask = state[peer];
                if mask & bit == 0 {
                    continue;
                }
                let rest = mask & !bit;
                if mask & FIXED != 0 || rest == 0 {
                    return false;
                }
                if rest & (rest - 1) == 0 {
                    fix(state, queue, peer, rest);
                } else {
                    state[peer] = rest;
                }
            }
        }
        let mut placed_any = false;
        for unit in topology.units() {
            // Bit-parallel count per digit: `once` has the digits seen at least once,
            // `twice` those seen at least twice.
            // `placed` has the digits of fixed cells, which need no placing.
            let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
            for &cell in unit {
                let value = state[usize::from(cell)];
                let mask = value & !FIXED;
                twice |= once & mask;
                once |= mask;
                // All ones when the cell is fixed (bit 31 shifted across), else zero.
                placed |= mask & ((value as i32) >> 31) as u32;
            }
            if once != topology.all_digits {
                return false;
            }
            let mut hidden = once & !twice & !placed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden ^= bit;
                let Some(&cell) = unit.iter().find(|&&c| state[usize::from(c)] & bit != 0) else {
                    return false;
                };
                fix(state, queue, usize::from(cell), bit);
                placed_any = true;
            }
        }
        if !placed_any {
            return true;
        }
    }
}

/// The digit of a fixed cell's mask.
fn mask_value(mask: u32) -> u8 {
    ((mask & !FIXED).trailing_zeros() + 1) as u8
}
