//! The implication graph of a chain search: candidates assumed true or false ("potentials"),
//! each node with the nodes that imply it, and ordered sets of nodes.
//!
//! The reference keeps one Java object per derivation of a potential, so the same potential
//! may appear several times with different parents; sets compare potentials by value
//! (cell, digit, on/off) and remember, per potential, the first node added (what iteration
//! yields) and the last one (what a lookup returns). A chain's length, and with it its
//! difficulty, is the number of distinct potentials reached by walking the parents breadth
//! first, following only the first node met of each potential. All of that is kept here,
//! because each of these details moves ratings.

use crate::logic::board::Cell;

/// A potential packed into 11 bits: `(cell × 9 + digit − 1) × 2 + on`, the reference's
/// hash code, so that ordering by key is the reference's ordering where it matters.
pub type Key = u16;

/// Index of a node in an [`Arena`].
pub type NodeId = u32;

/// The number of distinct keys on a 9×9 board.
pub const KEYS: usize = 81 * 9 * 2;

/// Packs a potential into its key.
pub fn key(cell: Cell, digit: u8, on: bool) -> Key {
    ((cell * 9 + usize::from(digit) - 1) * 2 + usize::from(on)) as Key
}

/// The cell of a key.
pub fn cell_of(key: Key) -> Cell {
    usize::from(key) / 18
}

/// The digit of a key.
pub fn digit_of(key: Key) -> u8 {
    (usize::from(key) / 2 % 9) as u8 + 1
}

/// Whether a key stands for the candidate being true.
pub fn is_on(key: Key) -> bool {
    key & 1 == 1
}

/// The same candidate with the opposite truth value.
pub fn conjugate(key: Key) -> Key {
    key ^ 1
}

/// Why a node follows from its parents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The assumption a search starts from.
    Assumption,
    /// A cell takes one digit: the others go, or the last one stays.
    Cell,
    /// A digit takes one place in the house of this index: the others go, or the last
    /// stays.
    House(u8),
    /// A cell that sees this one (by a chess move) takes the digit: it goes here.
    Sees,
    /// An orthogonal neighbour takes a consecutive digit: it goes here (non-consecutive).
    Neighbour,
    /// Another technique (locking, subsets, fish, a nested chain) on the assumed state.
    Advanced,
}

/// A derived potential.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// The potential.
    pub key: Key,
    /// Why it follows.
    pub cause: Cause,
    /// Its parents: `links[parents_start..parents_start + parents_len]`.
    parents_start: u32,
    parents_len: u32,
    /// The nested chain an advanced node comes from, as an index into `Arena::nested`.
    pub nested: Option<u32>,
    /// A filter of the potentials on its single chain (first parents, itself included):
    /// bit `key % 128` of each. A clear bit proves a potential is not on the chain.
    chain_filter: u128,
}

/// What the rating needs of a chain that a nested search found: its complexity, and a
/// fingerprint that tells equal chains apart from different ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedChain {
    /// The nested chain's own complexity (its nested chains included).
    pub complexity: usize,
    /// Its targets and, for each, the keys of its chain in breadth-first order.
    pub fingerprint: Vec<Key>,
}

/// The extent of an [`Arena`] at one moment.
#[derive(Debug, Clone, Copy)]
pub struct Mark {
    nodes: usize,
    links: usize,
    nested: usize,
}

/// The nodes of one search.
#[derive(Debug, Default)]
pub struct Arena {
    nodes: Vec<Node>,
    links: Vec<NodeId>,
    /// Chains found by nested searches, referred to by advanced nodes.
    pub nested: Vec<NestedChain>,
    /// Scratch space of the ancestor walks: the walk that last saw each key, and the
    /// nodes of the level walked and of the next.
    seen: Vec<u32>,
    walk: u32,
    level: Vec<NodeId>,
    next: Vec<NodeId>,
}

impl Arena {
    /// An empty arena.
    pub fn new() -> Self {
        Arena {
            seen: vec![0; KEYS],
            ..Arena::default()
        }
    }

    /// Adds a node of `key` implied by `parents`.
    pub fn add(&mut self, key: Key, cause: Cause, parents: &[NodeId]) -> NodeId {
        self.add_nested(key, cause, parents, None)
    }

    /// Adds a node that may come from a nested chain.
    pub fn add_nested(
        &mut self,
        key: Key,
        cause: Cause,
        parents: &[NodeId],
        nested: Option<u32>,
    ) -> NodeId {
        let parents_start = self.links.len() as u32;
        self.links.extend_from_slice(parents);
        let inherited = parents
            .first()
            .map_or(0, |&parent| self.nodes[parent as usize].chain_filter);
        self.nodes.push(Node {
            key,
            cause,
            parents_start,
            parents_len: parents.len() as u32,
            nested,
            chain_filter: inherited | 1 << (key % 128),
        });
        (self.nodes.len() - 1) as NodeId
    }

    /// The arena's extent now, to [`Arena::rollback`] to.
    pub fn mark(&self) -> Mark {
        Mark {
            nodes: self.nodes.len(),
            links: self.links.len(),
            nested: self.nested.len(),
        }
    }

    /// Drops every node (and nested chain) added since `mark`: a search that found
    /// nothing from one start keeps the arena small, so the next start runs in cache.
    pub fn rollback(&mut self, mark: Mark) {
        self.nodes.truncate(mark.nodes);
        self.links.truncate(mark.links);
        self.nested.truncate(mark.nested);
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The key of node `id`.
    pub fn key(&self, id: NodeId) -> Key {
        self.nodes[id as usize].key
    }

    /// The parents of node `id`, in the order they were given.
    pub fn parents(&self, id: NodeId) -> &[NodeId] {
        let node = &self.nodes[id as usize];
        let start = node.parents_start as usize;
        &self.links[start..start + node.parents_len as usize]
    }

    /// The first parent of node `id`: the link a single chain follows back.
    pub fn first_parent(&self, id: NodeId) -> Option<NodeId> {
        self.parents(id).first().copied()
    }

    /// The nodes of the chain that ends at `id`, walking parents breadth first and
    /// visiting each potential once (the reference's `getChain`).
    pub fn chain(&mut self, id: NodeId) -> Vec<NodeId> {
        let mut result = Vec::new();
        self.walk_ancestors(id, |node| result.push(node));
        result
    }

    /// How many distinct potentials the chain ending at `id` holds (the reference's
    /// `getAncestorCount`).
    pub fn ancestor_count(&mut self, id: NodeId) -> usize {
        let mut count = 0;
        self.walk_ancestors(id, |_| count += 1);
        count
    }

    /// Visits the nodes of the chain ending at `id` in breadth-first order, one node per
    /// potential: the first met.
    fn walk_ancestors(&mut self, id: NodeId, mut visit: impl FnMut(NodeId)) {
        self.walk += 1;
        let walk = self.walk;
        let mut level = std::mem::take(&mut self.level);
        let mut next = std::mem::take(&mut self.next);
        level.clear();
        level.push(id);
        while !level.is_empty() {
            for &node in &level {
                let key = usize::from(self.nodes[node as usize].key);
                if self.seen[key] != walk {
                    self.seen[key] = walk;
                    visit(node);
                    next.extend_from_slice(self.parents(node));
                }
            }
            std::mem::swap(&mut level, &mut next);
            next.clear();
        }
        self.level = level;
        self.next = next;
    }

    /// Whether the potential `key` is on the single chain (first parents) that ends at
    /// `id`, `id` itself included.
    pub fn on_chain(&self, id: NodeId, key: Key) -> bool {
        if self.nodes[id as usize].chain_filter & 1 << (key % 128) == 0 {
            return false;
        }
        let mut current = Some(id);
        while let Some(node) = current {
            if self.key(node) == key {
                return true;
            }
            current = self.first_parent(node);
        }
        false
    }

    /// The nodes from the start of the single chain ending at `id` to `id`, following
    /// first parents.
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        let mut current = id;
        while let Some(parent) = self.first_parent(current) {
            path.push(parent);
            current = parent;
        }
        path.reverse();
        path
    }

    /// The complexity of the distinct nested chains that the chains ending at `targets`
    /// use (the reference adds it to a hint's own).
    pub fn nested_complexity(&mut self, targets: &[NodeId]) -> usize {
        if self.nested.is_empty() {
            return 0;
        }
        let mut counted: Vec<u32> = Vec::new();
        let mut total = 0;
        for &target in targets {
            for node in self.chain(target) {
                let Some(nested) = self.nodes[node as usize].nested else {
                    continue;
                };
                let chain = &self.nested[nested as usize];
                if !counted
                    .iter()
                    .any(|&seen| self.nested[seen as usize] == *chain)
                {
                    total += chain.complexity;
                    counted.push(nested);
                }
            }
        }
        total
    }
}

/// An insertion-ordered set of potentials, each with the first node added for it (what
/// iteration yields) and the last (what [`PotentialSet::get`] returns), as the
/// reference's `LinkedSet` behaves.
#[derive(Debug)]
pub struct PotentialSet {
    members: [u64; KEYS.div_ceil(64)],
    entries: Vec<Entry>,
    /// For each member key, its index in `entries`.
    index: Vec<u16>,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    key: Key,
    first: NodeId,
    last: NodeId,
}

impl Default for PotentialSet {
    fn default() -> Self {
        PotentialSet {
            members: [0; KEYS.div_ceil(64)],
            entries: Vec::new(),
            index: vec![0; KEYS],
        }
    }
}

impl PotentialSet {
    /// Whether the potential `key` is in the set.
    pub fn contains(&self, key: Key) -> bool {
        self.members[usize::from(key) / 64] & 1 << (key % 64) != 0
    }

    /// Adds `node` for its potential; a potential already there keeps its place and first
    /// node, and `node` becomes the one [`PotentialSet::get`] returns.
    pub fn add(&mut self, arena: &Arena, node: NodeId) {
        let key = arena.key(node);
        if self.contains(key) {
            let index = usize::from(self.index[usize::from(key)]);
            self.entries[index].last = node;
        } else {
            self.members[usize::from(key) / 64] |= 1 << (key % 64);
            self.index[usize::from(key)] = self.entries.len() as u16;
            self.entries.push(Entry {
                key,
                first: node,
                last: node,
            });
        }
    }

    /// The last node added for the potential `key`.
    pub fn get(&self, key: Key) -> Option<NodeId> {
        self.contains(key)
            .then(|| self.entries[usize::from(self.index[usize::from(key)])].last)
    }

    /// The first node of each potential, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.entries.iter().map(|entry| entry.first)
    }

    /// Keeps only the potentials that `other` holds too, in their order here.
    pub fn retain_in(&mut self, other: &PotentialSet) {
        let mut kept = 0;
        for index in 0..self.entries.len() {
            let entry = self.entries[index];
            if other.contains(entry.key) {
                self.index[usize::from(entry.key)] = kept as u16;
                self.entries[kept] = entry;
                kept += 1;
            } else {
                self.members[usize::from(entry.key) / 64] &= !(1 << (entry.key % 64));
            }
        }
        self.entries.truncate(kept);
    }

    /// Makes this set a copy of `other`, writing only the index entries of its members
    /// (a clone would copy the whole index).
    pub fn copy_from(&mut self, other: &PotentialSet) {
        self.members = other.members;
        self.entries.clone_from(&other.entries);
        for (position, entry) in self.entries.iter().enumerate() {
            self.index[usize::from(entry.key)] = position as u16;
        }
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.members = [0; KEYS.div_ceil(64)];
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_pack_and_unpack_a_potential() {
        let k = key(80, 9, true);
        assert_eq!((cell_of(k), digit_of(k), is_on(k)), (80, 9, true));
        assert_eq!(usize::from(k), KEYS - 1);
        assert!(!is_on(conjugate(k)));
    }

    #[test]
    fn a_set_keeps_the_first_node_for_iteration_and_the_last_for_lookup() {
        let mut arena = Arena::new();
        let a = arena.add(key(0, 1, true), Cause::Assumption, &[]);
        let b = arena.add(key(1, 2, false), Cause::Cell, &[a]);
        let b_again = arena.add(key(1, 2, false), Cause::Cell, &[]);
        let mut set = PotentialSet::default();
        set.add(&arena, a);
        set.add(&arena, b);
        set.add(&arena, b_again);
        assert_eq!(set.iter().collect::<Vec<_>>(), [a, b]);
        assert_eq!(set.get(key(1, 2, false)), Some(b_again));
        let mut only_b = PotentialSet::default();
        only_b.add(&arena, b_again);
        set.retain_in(&only_b);
        assert_eq!(set.iter().collect::<Vec<_>>(), [b]);
        assert!(!set.contains(key(0, 1, true)));
    }

    #[test]
    fn the_ancestor_count_follows_the_first_node_met_of_each_potential() {
        let mut arena = Arena::new();
        let start = arena.add(key(0, 1, true), Cause::Assumption, &[]);
        let other = arena.add(key(5, 5, false), Cause::Cell, &[]);
        // A second node of the start potential, with a parent of its own.
        let start_again = arena.add(key(0, 1, true), Cause::Cell, &[other]);
        let off = arena.add(key(1, 1, false), Cause::House(9), &[start_again]);
        let end = arena.add(key(1, 2, true), Cause::Cell, &[off, start]);
        // Level by level: end; off and start (start is met here first, so start_again,
        // one level further, is skipped with its parent): 3 potentials.
        assert_eq!(arena.ancestor_count(end), 3);
        assert_eq!(arena.path(end), [other, start_again, off, end]);
    }
}
