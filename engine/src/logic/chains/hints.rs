//! What a chain search finds, and how the reference rates it: the shape of the chains, what
//! they remove, their complexity (the potentials they hold, nested chains included), and
//! the difficulty that follows from both.

use super::Mode;
use super::graph::{Arena, Key, NodeId, cell_of, digit_of, is_on};
use crate::logic::board::{Cell, Digits, HouseKind};
use crate::logic::step::{
    ChainNode, Elimination, HouseRef, Placement, Step, cell_name, digit_name, eliminations_text,
    house_name,
};
use crate::logic::technique::Technique;

/// The chains of a hint.
#[derive(Debug, Clone)]
pub enum HintShape {
    /// A loop through `dst_on`'s candidate, and the same loop walked back.
    Cycle { dst_on: NodeId, dst_off: NodeId },
    /// One chain from an assumption to its own contradiction.
    Forcing { target: NodeId },
    /// A candidate true and false: a contradiction of one (`absurd`), or the same
    /// conclusion from both.
    Binary {
        dst_on: NodeId,
        dst_off: NodeId,
        absurd: bool,
    },
    /// Every candidate of a cell leads to the same conclusion.
    Cell { cell: Cell, chains: Vec<NodeId> },
    /// Every place of a digit in a house leads to the same conclusion.
    Region {
        /// The house's index in the board's numbering.
        house: usize,
        kind: HouseKind,
        index: usize,
        digit: u8,
        chains: Vec<NodeId>,
    },
}

/// A hint of a chain search, rated.
#[derive(Debug, Clone)]
pub struct ChainHint {
    /// Its chains.
    pub shape: HintShape,
    /// The search it comes from.
    pub mode: Mode,
    /// Whether it uses cell links (Y) and house links (X).
    pub y: bool,
    pub x: bool,
    /// The candidates it removes, by cell.
    pub removable: Vec<(Cell, Digits)>,
    /// The candidate it proves true, which a step then places.
    pub result: Option<Key>,
    /// The number of potentials its chains hold, nested chains included.
    pub complexity: usize,
    /// Its difficulty, as the reference computes it.
    pub difficulty: f64,
    /// The reference's tie-break between kinds of hint of equal difficulty and complexity.
    pub sort_key: u8,
}

impl ChainHint {
    /// Rates a hint of `shape` found by a search in `mode`.
    pub fn new(
        shape: HintShape,
        mode: Mode,
        y: bool,
        x: bool,
        removable: Vec<(Cell, Digits)>,
        result: Option<Key>,
        arena: &mut Arena,
    ) -> ChainHint {
        let targets = targets(&shape);
        let flat = match &shape {
            // A cycle counts once: its reversed walk holds the same potentials.
            HintShape::Cycle { dst_on, .. } => arena.ancestor_count(*dst_on),
            _ => targets.iter().map(|&t| arena.ancestor_count(t)).sum(),
        };
        let complexity = flat + arena.nested_complexity(&targets);
        let (base, sort_key) = match &shape {
            HintShape::Cycle { .. } | HintShape::Forcing { .. } => {
                let cycle = matches!(shape, HintShape::Cycle { .. });
                let base = unary_base(cycle, y, x);
                (
                    base,
                    if x && y {
                        4
                    } else if y {
                        3
                    } else {
                        2
                    },
                )
            }
            HintShape::Binary { absurd, .. } => (mode.difficulty(), if *absurd { 7 } else { 1 }),
            HintShape::Cell { .. } => (mode.difficulty(), 5),
            HintShape::Region { .. } => (mode.difficulty(), 6),
        };
        ChainHint {
            shape,
            mode,
            y,
            x,
            removable,
            result,
            complexity,
            difficulty: base + length_difficulty(complexity),
            sort_key,
        }
    }

    /// Whether this hint sorts before `other` in the reference's order (difficulty, then
    /// complexity, then kind); equal hints keep the order they were found in.
    pub fn sorts_before(&self, other: &ChainHint) -> bool {
        (self.difficulty, self.complexity, self.sort_key)
            < (other.difficulty, other.complexity, other.sort_key)
    }

    /// The technique this hint is an instance of.
    pub fn technique(&self) -> Technique {
        let mode = self.mode;
        match &self.shape {
            HintShape::Cycle { .. } => match (self.x, self.y) {
                (true, false) => Technique::XCycle,
                (false, true) => Technique::YCycle,
                _ => Technique::XyCycle,
            },
            HintShape::Forcing { .. } if !self.y => Technique::ForcingXChain,
            HintShape::Forcing { .. } => Technique::ForcingChain,
            _ if mode.level >= 2 => Technique::NestedForcingChain,
            _ if mode.level == 1 => Technique::DynamicForcingChainPlus,
            HintShape::Binary { .. } if mode.nishio => Technique::NishioForcingChain,
            HintShape::Binary { absurd: true, .. } => Technique::DynamicContradictionChain,
            HintShape::Binary { .. } => Technique::DynamicDoubleChain,
            HintShape::Cell { .. } if mode.dynamic => Technique::DynamicCellForcingChain,
            HintShape::Cell { .. } => Technique::CellForcingChain,
            HintShape::Region { .. } if mode.dynamic => Technique::DynamicRegionForcingChain,
            HintShape::Region { .. } => Technique::RegionForcingChain,
        }
    }

    /// The hint as a step of a 9×9 solve.
    pub fn to_step(&self, arena: &Arena) -> Step {
        let mut step = Step::new(self.technique(), self.difficulty);
        let mut eliminations: Vec<Elimination> = self
            .removable
            .iter()
            .map(|&(cell, digits)| Elimination { cell, digits })
            .collect();
        eliminations.sort_by_key(|elimination| elimination.cell);
        step.eliminations = eliminations;
        step.placements.extend(self.result.map(|key| Placement {
            cell: cell_of(key),
            digit: digit_of(key),
        }));
        let branches: Vec<Vec<NodeId>> = targets(&self.shape)
            .into_iter()
            .take(match self.shape {
                HintShape::Cycle { .. } => 1,
                _ => usize::MAX,
            })
            .map(|target| arena.path(target))
            .collect();
        for branch in &branches {
            for &node in branch {
                let key = arena.key(node);
                step.chain.push(ChainNode {
                    cell: cell_of(key),
                    digit: digit_of(key),
                    on: is_on(key),
                });
                let cell = cell_of(key);
                if !step.cells.contains(&cell) {
                    step.cells.push(cell);
                }
            }
        }
        if let HintShape::Region { kind, index, .. } = self.shape {
            step.houses.push(HouseRef { kind, index });
        }
        step.text = self.text(arena, &branches, &step);
        step
    }

    fn text(&self, arena: &Arena, branches: &[Vec<NodeId>], step: &Step) -> String {
        let name = self.technique().name();
        let conclusion = if step.placements.is_empty() {
            eliminations_text(&step.eliminations, 9)
        } else {
            let placement = step.placements[0];
            format!(
                "{}={}",
                cell_name(placement.cell, 9),
                digit_name(placement.digit)
            )
        };
        let walk = |branch: &Vec<NodeId>| -> String {
            branch
                .iter()
                .map(|&node| potential_name(arena.key(node)))
                .collect::<Vec<_>>()
                .join(" -> ")
        };
        let chains = match &self.shape {
            HintShape::Cell { cell, .. } => format!("each candidate of {}", cell_name(*cell, 9)),
            HintShape::Region {
                kind, index, digit, ..
            } => format!(
                "each place of {} in {}",
                digit_name(*digit),
                house_name(HouseRef {
                    kind: *kind,
                    index: *index
                })
            ),
            _ => String::new(),
        };
        let walks: Vec<String> = branches.iter().map(walk).collect();
        if chains.is_empty() {
            format!("{name}: {} => {conclusion}", walks.join("; "))
        } else {
            format!("{name}: {chains} ({}) => {conclusion}", walks.join("; "))
        }
    }
}

/// A potential in the community's notation: `r1c2=5` (true) or `r1c2<>5` (false).
fn potential_name(key: Key) -> String {
    let relation = if is_on(key) { "=" } else { "<>" };
    format!(
        "{}{relation}{}",
        cell_name(cell_of(key), 9),
        digit_name(digit_of(key))
    )
}

/// The nodes whose chains make up a hint of `shape`, in the reference's order.
pub fn targets(shape: &HintShape) -> Vec<NodeId> {
    match shape {
        HintShape::Cycle { dst_on, dst_off } => vec![*dst_on, *dst_off],
        HintShape::Forcing { target } => vec![*target],
        HintShape::Binary {
            dst_on, dst_off, ..
        } => vec![*dst_on, *dst_off],
        HintShape::Cell { chains, .. } | HintShape::Region { chains, .. } => chains.clone(),
    }
}

/// The difficulty of a cycle (`cycle`) or a forcing chain from one candidate, before its
/// length counts: chains with both cell (`y`) and house (`x`) links are the hardest.
pub fn unary_base(cycle: bool, y: bool, x: bool) -> f64 {
    match (cycle, x && y) {
        (_, true) => 7.0,
        (true, false) => 6.5,
        (false, false) => 6.6,
    }
}

/// The most potentials a chain rated `base` plus its length may hold and still be rated
/// `bound` or less; `usize::MAX` for an infinite bound.
pub fn max_complexity(base: f64, bound: f64) -> usize {
    if bound.is_infinite() {
        return usize::MAX;
    }
    let mut complexity = 0;
    while base + length_difficulty(complexity + 1) <= bound {
        complexity += 1;
    }
    complexity
}

/// The difficulty the reference adds for a chain of `complexity` potentials: 0.1 for each
/// threshold below `complexity − 2`, the thresholds growing by 3/2 and 4/3 in turn (4, 6,
/// 8, 12, 16, …), summed as doubles in the same order so that the same rounding errors
/// decide the same ties.
pub fn length_difficulty(complexity: usize) -> f64 {
    let length = complexity as i64 - 2;
    let mut added = 0.0;
    let mut ceiling: i64 = 4;
    let mut odd = false;
    while length > ceiling {
        added += 0.1;
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_increment_follows_the_reference_table() {
        let table = [
            (6, 0.0),
            (7, 0.1),
            (8, 0.1),
            (9, 0.2),
            (10, 0.2),
            (11, 0.3),
            (14, 0.3),
            (15, 0.4),
            (19, 0.5),
            (27, 0.6),
            (35, 0.7),
            (51, 0.8),
            (67, 0.9),
            (99, 1.0),
            (131, 1.1),
        ];
        for (complexity, added) in table {
            let got = length_difficulty(complexity);
            assert!((got - added).abs() < 1e-9, "{complexity}: {got}");
        }
        // The doubles' rounding errors are part of the scale.
        assert!(6.6 + length_difficulty(7) < 6.5 + length_difficulty(9));
    }

    #[test]
    fn the_longest_chain_within_a_bound_is_rated_within_it() {
        assert_eq!(max_complexity(7.0, f64::INFINITY), usize::MAX);
        assert_eq!(max_complexity(7.0, 6.9), 0);
        for (base, complexity) in [(7.0, 6), (6.6, 8), (7.0, 14)] {
            let bound = base + length_difficulty(complexity);
            assert_eq!(
                max_complexity(base, bound),
                complexity,
                "{base} {complexity}"
            );
        }
    }
}
