//! Sukaku Explainer's variant modes: the 9×9 rule sets it rates on its classic scale
//! (diagonals, windoku, disjoint groups, anti-knight, anti-king, non-consecutive, and any
//! combination of them), which puzzles are in one, and the board each mode rates on.

use std::sync::{Arc, OnceLock};

use super::board::{Cell, Geometry, HouseKind};
use super::cell_masks::CellMasks;
use super::rating::RATINGS_BELOW_4;
use crate::grid::Grid;
use crate::variant::model::{Cell as GridCell, Diagonal, Rule};
use crate::variant::{Constraint, ModelError, Origin, Puzzle};

/// One of Sukaku Explainer's variant modes: the rules it adds to classic Sudoku. No rule
/// at all is classic Sudoku.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VariantMode {
    /// Both main diagonals (`--isX=1`).
    pub diagonals: bool,
    /// Windoku's four windows (`--isWindows=1`).
    pub windows: bool,
    /// Disjoint groups (`--isDG=1`).
    pub disjoint_groups: bool,
    /// Anti-knight (`--isAntiKnight=1`).
    pub anti_knight: bool,
    /// Anti-king: diagonal neighbours (`--isAntiKing=1`).
    pub anti_king: bool,
    /// Orthogonal neighbours hold no consecutive digits, 9 and 1 not being consecutive
    /// (`--isNC=1`).
    pub nonconsecutive: bool,
}

/// The top-left cells (0-based row and column) of windoku's four windows.
const WINDOW_CORNERS: [(usize, usize); 4] = [(1, 1), (1, 5), (5, 1), (5, 5)];

/// The cells of a 3×3 block whose top-left cell is at `(top, left)`, row by row.
fn block(top: usize, left: usize) -> Vec<GridCell> {
    (0..9)
        .map(|k| GridCell {
            row: top + k / 3,
            col: left + k % 3,
        })
        .collect()
}

impl VariantMode {
    /// The mode of `puzzle`: a 9×9 grid with the standard boxes whose rules are all of
    /// one mode, or the kinds of the rules that have no Sukaku Explainer scale (a lone
    /// diagonal, extra regions other than windoku's, any other rule), or of the grid when
    /// it is not 9×9 with boxes (`size`, `regions`).
    pub fn of(puzzle: &Puzzle) -> Result<VariantMode, Vec<&'static str>> {
        let mut unrated = Vec::new();
        if puzzle.size() != 9 {
            unrated.push("size");
        } else if !puzzle.has_default_regions() {
            unrated.push("regions");
        }
        let mut mode = VariantMode::default();
        let mut diagonals = Vec::new();
        let mut windows = Vec::new();
        for constraint in puzzle.constraints() {
            match &constraint.rule {
                Rule::Diagonal(diagonal) => diagonals.push(*diagonal),
                Rule::ExtraRegion(cells) => windows.push(cells),
                Rule::DisjointGroups => mode.disjoint_groups = true,
                Rule::AntiKnight => mode.anti_knight = true,
                Rule::AntiKing => mode.anti_king = true,
                Rule::NonConsecutive => mode.nonconsecutive = true,
                other => unrated.push(other.kind()),
            }
        }
        match diagonals.len() {
            0 => {}
            2 => mode.diagonals = true,
            _ => unrated.push("diagonal"),
        }
        if !windows.is_empty() {
            let mut drawn: Vec<Vec<GridCell>> = windows
                .iter()
                .map(|cells| {
                    let mut cells = cells.to_vec();
                    cells.sort_unstable();
                    cells
                })
                .collect();
            drawn.sort_unstable();
            let expected: Vec<Vec<GridCell>> = WINDOW_CORNERS
                .iter()
                .map(|&(top, left)| block(top, left))
                .collect();
            if drawn == expected {
                mode.windows = true;
            } else {
                unrated.push("extra_region");
            }
        }
        unrated.dedup();
        if unrated.is_empty() {
            Ok(mode)
        } else {
            Err(unrated)
        }
    }

    /// Whether the mode is classic Sudoku.
    pub fn is_classic(self) -> bool {
        self == VariantMode::default()
    }

    /// The mode's name in ratings' `model`: its rules joined by `+` (`x+anti-knight`), or
    /// `classic`.
    pub fn name(self) -> String {
        let names: Vec<&str> = self.parts().map(|(name, _)| name).collect();
        if names.is_empty() {
            "classic".to_owned()
        } else {
            names.join("+")
        }
    }

    /// The `serate` flags that rate puzzles of the mode (none for classic Sudoku).
    pub fn flags(self) -> String {
        let flags: Vec<&str> = self.parts().map(|(_, flag)| flag).collect();
        flags.join(" ")
    }

    /// The name and flag of each rule of the mode, in a fixed order.
    fn parts(self) -> impl Iterator<Item = (&'static str, &'static str)> {
        [
            (self.diagonals, "x", "--isX=1"),
            (self.windows, "windoku", "--isWindows=1"),
            (self.disjoint_groups, "disjoint-groups", "--isDG=1"),
            (self.anti_knight, "anti-knight", "--isAntiKnight=1"),
            (self.anti_king, "anti-king", "--isAntiKing=1"),
            (self.nonconsecutive, "nonconsecutive", "--isNC=1"),
        ]
        .into_iter()
        .filter(|(on, _, _)| *on)
        .map(|(_, name, flag)| (name, flag))
    }

    /// The mode named `name` (as [`VariantMode::name`] writes it), if any.
    pub fn from_name(name: &str) -> Option<VariantMode> {
        let mut mode = VariantMode::default();
        if name == "classic" {
            return Some(mode);
        }
        for part in name.split('+') {
            let on = match part {
                "x" => &mut mode.diagonals,
                "windoku" => &mut mode.windows,
                "disjoint-groups" => &mut mode.disjoint_groups,
                "anti-knight" => &mut mode.anti_knight,
                "anti-king" => &mut mode.anti_king,
                "nonconsecutive" => &mut mode.nonconsecutive,
                _ => return None,
            };
            *on = true;
        }
        Some(mode)
    }

    /// The mode's rules, as a puzzle states them.
    pub fn constraints(self) -> Vec<Constraint> {
        let mut rules = Vec::new();
        if self.diagonals {
            rules.extend([Rule::Diagonal(Diagonal::Down), Rule::Diagonal(Diagonal::Up)]);
        }
        if self.windows {
            let windows = WINDOW_CORNERS.map(|(top, left)| Rule::ExtraRegion(block(top, left)));
            rules.extend(windows);
        }
        let flags = [
            (self.disjoint_groups, Rule::DisjointGroups),
            (self.anti_knight, Rule::AntiKnight),
            (self.anti_king, Rule::AntiKing),
            (self.nonconsecutive, Rule::NonConsecutive),
        ];
        rules.extend(
            flags
                .into_iter()
                .filter(|(on, _)| *on)
                .map(|(_, rule)| rule),
        );
        rules
            .into_iter()
            .enumerate()
            .map(|(index, rule)| Constraint {
                origin: Origin {
                    kind: rule.kind().to_owned(),
                    index,
                },
                rule,
            })
            .collect()
    }

    /// The puzzle of `grid`'s givens under the mode's rules; an error for a grid that is
    /// not 9×9.
    pub fn puzzle(self, grid: &Grid) -> Result<Puzzle, ModelError> {
        let givens = grid
            .cells()
            .iter()
            .map(|&value| (value != 0).then_some(value))
            .collect();
        Puzzle::new(grid.size(), givens, None, self.constraints())
    }

    /// Every rating below 4.0 that a puzzle of the mode can have (see
    /// [`RATINGS_BELOW_4`]): generalized intersections (2.9) replace pointing (2.6) and
    /// claiming (2.8) where [`VariantMode::generalized`], and non-consecutive adds its
    /// forcing cells (2.4).
    pub fn ratings_below_4(self) -> Vec<f64> {
        let mut ratings: Vec<f64> = RATINGS_BELOW_4
            .into_iter()
            .filter(|&rating| !(self.generalized() && (rating == 2.6 || rating == 2.8)))
            .collect();
        if self.generalized() {
            ratings.push(2.9);
        }
        if self.nonconsecutive {
            ratings.push(2.4);
        }
        ratings.sort_by(f64::total_cmp);
        ratings
    }

    /// Whether the mode has rules that make cells see more cells than classic Sudoku
    /// (all but non-consecutive): the reference then rates with generalized intersections
    /// and naked sets in place of the classic ones.
    pub fn generalized(self) -> bool {
        self.diagonals || self.windows || self.disjoint_groups || self.anti_knight || self.anti_king
    }

    /// The board's shape in this mode: boxes, rows, columns, then the mode's houses in the
    /// reference's order, and anti-knight and anti-king peers.
    fn build_geometry(self) -> Geometry {
        let mut extra: Vec<(HouseKind, Vec<Cell>)> = Vec::new();
        let index = |cell: GridCell| cell.row * 9 + cell.col;
        if self.diagonals {
            extra.push((HouseKind::Diagonal, (0..9).map(|i| i * 9 + i).collect()));
            extra.push((HouseKind::Diagonal, (0..9).map(|i| i * 9 + 8 - i).collect()));
        }
        if self.windows {
            for (top, left) in WINDOW_CORNERS {
                let cells = block(top, left).into_iter().map(index).collect();
                extra.push((HouseKind::ExtraRegion, cells));
            }
            // The five groups the windows imply: the cells at the same place in each
            // window's gap. The reference lists the two of rows 2–4 and 6–8 column by
            // column.
            let edges = [0, 4, 8];
            let across = |rows: [usize; 3], cols: [usize; 3]| {
                rows.iter()
                    .flat_map(|&r| cols.iter().map(move |&c| r * 9 + c))
                    .collect()
            };
            let down = |rows: [usize; 3], cols: [usize; 3]| {
                cols.iter()
                    .flat_map(|&c| rows.iter().map(move |&r| r * 9 + c))
                    .collect()
            };
            extra.push((HouseKind::ExtraRegion, across(edges, [1, 2, 3])));
            extra.push((HouseKind::ExtraRegion, across(edges, [5, 6, 7])));
            extra.push((HouseKind::ExtraRegion, down([1, 2, 3], edges)));
            extra.push((HouseKind::ExtraRegion, down([5, 6, 7], edges)));
            extra.push((HouseKind::ExtraRegion, across(edges, edges)));
        }
        if self.disjoint_groups {
            for place in 0..9 {
                let cells = (0..9)
                    .map(|b| (b / 3 * 3 + place / 3) * 9 + b % 3 * 3 + place % 3)
                    .collect();
                extra.push((HouseKind::DisjointGroup, cells));
            }
        }
        let mut moves = Vec::new();
        if self.anti_knight {
            moves.extend([(1, 2), (2, 1), (1, -2), (2, -1)]);
        }
        if self.anti_king {
            moves.extend([(1, 1), (1, -1)]);
        }
        Geometry::of_mode(self, extra, &moves)
    }

    /// The mode as six bits, one per rule.
    fn bits(self) -> usize {
        [
            self.diagonals,
            self.windows,
            self.disjoint_groups,
            self.anti_knight,
            self.anti_king,
            self.nonconsecutive,
        ]
        .iter()
        .enumerate()
        .fold(0, |bits, (bit, &on)| bits | usize::from(on) << bit)
    }

    /// The board's shape in this mode: boxes, rows, columns, then the houses of its rules
    /// in the reference's order, and anti-knight and anti-king peers; built once.
    pub fn geometry(self) -> Arc<Geometry> {
        static GEOMETRIES: [OnceLock<Arc<Geometry>>; 64] = [const { OnceLock::new() }; 64];
        if self.is_classic() {
            return Arc::clone(Geometry::of(9));
        }
        Arc::clone(GEOMETRIES[self.bits()].get_or_init(|| Arc::new(self.build_geometry())))
    }

    /// The cells of the mode's houses and peers as masks, built once.
    pub fn masks(self) -> &'static CellMasks {
        static MASKS: [OnceLock<CellMasks>; 64] = [const { OnceLock::new() }; 64];
        MASKS[self.bits()].get_or_init(|| CellMasks::of(&self.geometry(), self.nonconsecutive))
    }
}
