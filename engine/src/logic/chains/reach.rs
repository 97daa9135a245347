//! Which potentials a static chain can reach from which, for all of them at once.
//!
//! In a static search the implications of a potential depend on the board alone, not on
//! the chain that reached it, so a breadth-first walk from a potential meets exactly the
//! potentials reachable from it in one fixed graph. A forcing chain exists only where a
//! potential reaches its own conjugate, and runs only through potentials that reach that
//! conjugate; a cycle runs only through potentials that come back to its start; a cell or
//! region chaining concludes only what all of its branches reach. The graph's strongly
//! connected components (Tarjan's algorithm, which completes a component after every
//! component it reaches) give each component its reachable set as a bitset in one pass,
//! so the searches walk, with their nodes and parents, only where a result can be.

use super::bitboard::State;
use super::graph::{KEYS, Key, cell_of, digit_of, is_on};
use super::implications::{Implied, off_to_on, on_to_off};
use crate::logic::board::bit;

/// No node: the key's candidate is not on the board.
const ABSENT: u16 = u16::MAX;

/// The reachable sets of a static implication graph.
pub struct Reach {
    /// The node of each key, `ABSENT` for keys of candidates not on the board.
    node_of: Vec<u16>,
    /// The component of each node.
    component: Vec<u16>,
    /// Per component, the nodes it reaches (its own included), `words` words each.
    reaches: Vec<u64>,
    words: usize,
}

impl Reach {
    /// The graph of `board` with house links, and cell links when `cell_links`: the links
    /// the static searches follow (cycles with X-links among them).
    pub fn of(board: &State, cell_links: bool) -> Reach {
        let mut node_of = vec![ABSENT; KEYS];
        let mut keys: Vec<Key> = Vec::new();
        for key in 0..KEYS as Key {
            if board.candidates(cell_of(key)) & bit(digit_of(key)) != 0 {
                node_of[usize::from(key)] = keys.len() as u16;
                keys.push(key);
            }
        }
        // The edges, node by node: `targets[starts[n]..starts[n + 1]]`.
        let mut starts = Vec::with_capacity(keys.len() + 1);
        let mut targets: Vec<u16> = Vec::new();
        let mut implied: Vec<Implied> = Vec::new();
        for &key in &keys {
            starts.push(targets.len());
            implied.clear();
            if is_on(key) {
                on_to_off(board, key, cell_links, &mut implied);
            } else {
                off_to_on(board, key, cell_links, true, &mut implied);
            }
            targets.extend(implied.iter().map(|next| node_of[usize::from(next.key)]));
        }
        starts.push(targets.len());
        let edges = |node: usize| &targets[starts[node]..starts[node + 1]];
        let words = keys.len().div_ceil(64);
        let mut reach = Reach {
            node_of,
            component: vec![ABSENT; keys.len()],
            reaches: Vec::new(),
            words,
        };
        reach.components(keys.len(), edges);
        reach
    }

    /// Whether a chain from `from` reaches `to`.
    pub fn reaches(&self, from: Key, to: Key) -> bool {
        let (from, to) = (
            self.node_of[usize::from(from)],
            self.node_of[usize::from(to)],
        );
        if from == ABSENT || to == ABSENT {
            return false;
        }
        let component = usize::from(self.component[usize::from(from)]);
        let word = self.reaches[component * self.words + usize::from(to) / 64];
        word & 1 << (to % 64) != 0
    }

    /// Whether `a` and `b` reach each other (both on the board).
    pub fn together(&self, a: Key, b: Key) -> bool {
        let (a, b) = (self.node_of[usize::from(a)], self.node_of[usize::from(b)]);
        a != ABSENT
            && b != ABSENT
            && self.component[usize::from(a)] == self.component[usize::from(b)]
    }

    /// Whether some potential is reachable from every one of `starts` (all of them on the
    /// board).
    pub fn meet(&self, starts: impl IntoIterator<Item = Key>) -> bool {
        let mut common = [!0u64; KEYS.div_ceil(64)];
        for start in starts {
            let node = self.node_of[usize::from(start)];
            if node == ABSENT {
                return false;
            }
            let component = usize::from(self.component[usize::from(node)]);
            let reached = &self.reaches[component * self.words..][..self.words];
            for (word, &reached) in common.iter_mut().zip(reached) {
                *word &= reached;
            }
        }
        common[..self.words].iter().any(|&word| word != 0)
    }

    /// Tarjan's algorithm without recursion over `count` nodes: numbers the components
    /// and fills their reachable sets as each completes.
    fn components<'e>(&mut self, count: usize, edges: impl Fn(usize) -> &'e [u16]) {
        const UNSEEN: u32 = u32::MAX;
        let mut order = vec![UNSEEN; count];
        let mut low = vec![0u32; count];
        let mut on_stack = vec![false; count];
        let mut stack: Vec<usize> = Vec::new();
        // The walk: each node with the position of its next edge.
        let mut calls: Vec<(usize, usize)> = Vec::new();
        let mut visited = 0;
        for root in 0..count {
            if order[root] != UNSEEN {
                continue;
            }
            calls.push((root, 0));
            while let Some(&mut (node, ref mut next)) = calls.last_mut() {
                if *next == 0 && order[node] == UNSEEN {
                    order[node] = visited;
                    low[node] = visited;
                    visited += 1;
                    stack.push(node);
                    on_stack[node] = true;
                }
                if let Some(&target) = edges(node).get(*next) {
                    *next += 1;
                    let target = usize::from(target);
                    if order[target] == UNSEEN {
                        calls.push((target, 0));
                    } else if on_stack[target] {
                        low[node] = low[node].min(order[target]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[node]);
                }
                if low[node] == order[node] {
                    self.complete(node, &mut stack, &mut on_stack, &edges);
                }
            }
        }
    }

    /// Pops the component whose root is `root` off `stack`, and records what it reaches:
    /// its own nodes and whatever the components it leads to reach (complete already).
    fn complete<'e>(
        &mut self,
        root: usize,
        stack: &mut Vec<usize>,
        on_stack: &mut [bool],
        edges: &impl Fn(usize) -> &'e [u16],
    ) {
        let component = self.reaches.len() / self.words;
        let start = self.reaches.len();
        self.reaches.resize(start + self.words, 0);
        let split = stack.iter().rposition(|&node| node == root).expect("root");
        for &node in &stack[split..] {
            on_stack[node] = false;
            self.component[node] = component as u16;
            self.reaches[start + node / 64] |= 1 << (node % 64);
        }
        for &node in &stack[split..] {
            for &target in edges(node) {
                let other = usize::from(self.component[usize::from(target)]);
                if other != component {
                    for word in 0..self.words {
                        self.reaches[start + word] |= self.reaches[other * self.words + word];
                    }
                }
            }
        }
        stack.truncate(split);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::logic::board::Board;
    use crate::logic::chains::graph::{conjugate, key};

    /// The keys reachable from `from` by a plain breadth-first walk.
    fn walked(board: &State, cell_links: bool, from: Key) -> Vec<bool> {
        let mut met = vec![false; KEYS];
        let mut pending = vec![from];
        met[usize::from(from)] = true;
        let mut implied = Vec::new();
        while let Some(key) = pending.pop() {
            implied.clear();
            if is_on(key) {
                on_to_off(board, key, cell_links, &mut implied);
            } else {
                off_to_on(board, key, cell_links, true, &mut implied);
            }
            for next in &implied {
                if !met[usize::from(next.key)] {
                    met[usize::from(next.key)] = true;
                    pending.push(next.key);
                }
            }
        }
        met
    }

    #[test]
    fn the_reachable_sets_are_those_a_walk_meets() {
        let puzzle =
            "4..8.2..62.......3....1....1.3.2.4.8.2..8..5...6...9...4..3..8.3..7.8..9.87...63.";
        let board = Board::from_grid(&Grid::parse_symbols(puzzle).unwrap());
        let state = State::of(&board);
        let (mut contradictions, mut cycles, mut meetings) = (0, 0, 0);
        for cell_links in [false, true] {
            let reach = Reach::of(&state, cell_links);
            let present = |key: Key| state.candidates(cell_of(key)) & bit(digit_of(key)) != 0;
            let walks: Vec<Option<Vec<bool>>> = (0..KEYS as Key)
                .map(|from| present(from).then(|| walked(&state, cell_links, from)))
                .collect();
            let met =
                |from: Key, to: Key| walks[usize::from(from)].as_ref().unwrap()[usize::from(to)];
            for from in (0..KEYS as Key).filter(|&key| present(key)) {
                for to in 0..KEYS as Key {
                    assert_eq!(reach.reaches(from, to), met(from, to));
                    if present(to) {
                        let both_ways = met(from, to) && met(to, from);
                        assert_eq!(reach.together(from, to), both_ways);
                        cycles += usize::from(both_ways && to != from);
                    }
                }
                contradictions += usize::from(met(from, conjugate(from)));
            }
            for cell in 0..81 {
                let starts: Vec<Key> = (1..=9)
                    .map(|digit| key(cell, digit, true))
                    .filter(|&start| present(start))
                    .collect();
                if starts.len() < 2 {
                    continue;
                }
                let common = (0..KEYS as Key).any(|to| starts.iter().all(|&from| met(from, to)));
                assert_eq!(reach.meet(starts.iter().copied()), common);
                meetings += usize::from(common);
            }
        }
        assert!(contradictions > 0, "the position has forcing chains");
        assert!(
            cycles > 0 && meetings > 0,
            "and cycles and cell chainings that meet"
        );
    }
}
