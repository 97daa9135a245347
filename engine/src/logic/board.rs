//! The state a person solves on: each cell's digit, or the candidates it may still take.
//!
//! A [`Board`] holds, row-major, one digit per cell (`0` while empty) and one candidate
//! mask per cell (bit `d - 1` set when digit `d` is still possible; `0` once the cell is
//! filled). Houses are numbered as Sudoku Explainer scans them: the N boxes first, then
//! the N rows, then the N columns; a box lists its cells row by row. The techniques read
//! and change nothing but this state, so a step found on one board applies to any copy.
//!
//! A variant puzzle's board has the [`Geometry`] of its rules ([`Geometry::of_puzzle`]):
//! its regions in place of the boxes (a boxless puzzle has none), then its rows and
//! columns, then the houses its rules add (diagonals, extra regions, disjoint groups), and
//! each cell's peers include the cells anti-knight and anti-king make it see. Rules that
//! forbid pairs of digits between neighbours (nonconsecutive, kropki and XV negatives)
//! are no peers: they are steps of their own.

use std::sync::{Arc, OnceLock};

use super::cell_masks::CellMasks;
use super::modes::VariantMode;
use crate::grid::{Grid, SUPPORTED_SIZES, box_side};

/// The largest N of an N×N board.
pub const MAX_SIZE: usize = 25;

/// A cell's index, row-major: `row * N + col`.
pub type Cell = usize;

/// A set of digits: bit `d - 1` stands for digit `d`.
pub type Digits = u32;

/// The kinds of house: the three Sudoku Explainer numbers, in its order, then those of
/// variant rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HouseKind {
    /// A √N×√N box.
    Box,
    /// A row.
    Row,
    /// A column.
    Column,
    /// A region of a variant puzzle (its boxes, or the irregular regions it draws).
    Region,
    /// A main diagonal whose digits do not repeat.
    Diagonal,
    /// An extra region of a variant puzzle.
    ExtraRegion,
    /// The cells at one place of every region (disjoint groups).
    DisjointGroup,
}

/// How many kinds of house there are.
const KINDS: usize = 7;

/// A house of a board: its kind, its index within the kind, and its cells in scan order
/// (row by row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct House {
    /// Box, row or column.
    pub kind: HouseKind,
    /// 0-based index among the houses of its kind.
    pub index: usize,
    /// Its cells, row by row: N of them, but for an extra region or a disjoint group,
    /// which may have fewer.
    pub cells: Vec<Cell>,
}

/// The fixed shape of an N×N board: its houses and which houses each cell lies in.
#[derive(Debug)]
pub struct Geometry {
    /// N.
    pub size: usize,
    /// √N, the side of a box.
    pub box_side: usize,
    /// Boxes 0..N, then rows N..2N, then columns 2N..3N (a variant puzzle's: its regions,
    /// rows, columns, then the houses of its rules).
    pub houses: Vec<House>,
    /// The houses of each kind: `houses[ranges[kind]]`.
    ranges: [std::ops::Range<usize>; KINDS],
    /// For each cell, the index in `houses` of its box, row and column ([`NO_HOUSE`] for
    /// a cell in no region).
    pub cell_houses: Vec<[usize; 3]>,
    /// For each cell, the other cells it sees, in row-major order.
    pub peers: Vec<Vec<Cell>>,
    /// For each cell, its index within its box, row and column.
    pub position_in: Vec<[usize; 3]>,
    /// Whether cells see each other by more than their box, row and column.
    more_peers: bool,
    /// The Sukaku Explainer mode of a 9×9 board with boxes: classic Sudoku, or the
    /// variant mode it is rated in (`None` for other sizes and other rules).
    mode: Option<VariantMode>,
}

/// The box of a cell in no region.
pub const NO_HOUSE: usize = usize::MAX;

impl Geometry {
    /// The geometry of an N×N board, N in [`SUPPORTED_SIZES`]; built once per size.
    pub fn of(size: usize) -> &'static Arc<Geometry> {
        static GEOMETRIES: [OnceLock<Arc<Geometry>>; 4] = [const { OnceLock::new() }; 4];
        let slot = SUPPORTED_SIZES
            .iter()
            .position(|&supported| supported == size)
            .expect("boards come from grids of a supported size");
        GEOMETRIES[slot].get_or_init(|| Arc::new(Geometry::build(size)))
    }

    fn build(size: usize) -> Geometry {
        let mut geometry =
            Geometry::from_houses(size, HouseKind::Box, Geometry::boxes(size), Vec::new(), &[]);
        geometry.box_side = box_side(size);
        geometry.mode = (size == 9).then(VariantMode::default);
        geometry
    }

    /// The 9×9 geometry of a Sukaku Explainer variant `mode`: the boxes, rows and
    /// columns, then the `extra` houses of each kind in the given order, and the chess
    /// `moves` that make cells see each other.
    pub fn of_mode(
        mode: VariantMode,
        extra: Vec<(HouseKind, Vec<Cell>)>,
        moves: &[(isize, isize)],
    ) -> Geometry {
        let mut geometry =
            Geometry::from_houses(9, HouseKind::Box, Geometry::boxes(9), extra, moves);
        geometry.box_side = 3;
        geometry.mode = Some(mode);
        geometry
    }

    /// The mode of a 9×9 board with boxes (see [`Geometry::masks`]).
    pub fn mode(&self) -> Option<VariantMode> {
        self.mode
    }

    /// The cells of the houses and peers as masks, for the techniques of 9×9 boards.
    ///
    /// # Panics
    ///
    /// On a geometry with no mode: another size, or rules of no mode.
    pub fn masks(&self) -> &'static CellMasks {
        self.mode.expect("a 9×9 board of a mode").masks()
    }

    /// The √N×√N boxes of an N×N grid, each row by row.
    fn boxes(size: usize) -> Vec<Vec<Cell>> {
        let box_side = box_side(size);
        (0..size)
            .map(|index| {
                let (top, left) = (index / box_side * box_side, index % box_side * box_side);
                (0..size)
                    .map(|k| (top + k / box_side) * size + left + k % box_side)
                    .collect()
            })
            .collect()
    }

    /// The geometry of N×N cells with `regions` (each a list of cells, of kind
    /// `region_kind`), the rows and columns, the `extra` houses of each kind, and the
    /// chess `moves` (row and column steps) that make cells see each other.
    fn from_houses(
        size: usize,
        region_kind: HouseKind,
        regions: Vec<Vec<Cell>>,
        extra: Vec<(HouseKind, Vec<Cell>)>,
        moves: &[(isize, isize)],
    ) -> Geometry {
        let mut houses: Vec<House> = Vec::with_capacity(3 * size + extra.len());
        let mut ranges: [std::ops::Range<usize>; KINDS] = std::array::from_fn(|_| 0..0);
        let mut add = |kind: HouseKind, lists: Vec<Vec<Cell>>, houses: &mut Vec<House>| {
            let start = houses.len();
            houses.extend(lists.into_iter().enumerate().map(|(index, cells)| House {
                kind,
                index,
                cells,
            }));
            ranges[kind as usize] = start..houses.len();
        };
        add(region_kind, regions, &mut houses);
        add(
            HouseKind::Row,
            (0..size)
                .map(|row| (0..size).map(|col| row * size + col).collect())
                .collect(),
            &mut houses,
        );
        add(
            HouseKind::Column,
            (0..size)
                .map(|col| (0..size).map(|row| row * size + col).collect())
                .collect(),
            &mut houses,
        );
        for kind in [
            HouseKind::DisjointGroup,
            HouseKind::ExtraRegion,
            HouseKind::Diagonal,
        ] {
            let lists = extra
                .iter()
                .filter(|(of, _)| *of == kind)
                .map(|(_, cells)| cells.clone())
                .collect();
            add(kind, lists, &mut houses);
        }
        let cells = size * size;
        let mut cell_houses = vec![[NO_HOUSE; 3]; cells];
        let mut position_in = vec![[0; 3]; cells];
        for (house_index, house) in houses
            .iter()
            .enumerate()
            .take(ranges[HouseKind::Column as usize].end)
        {
            let kind = match house.kind {
                HouseKind::Row => 1,
                HouseKind::Column => 2,
                _ => 0,
            };
            for (position, &cell) in house.cells.iter().enumerate() {
                cell_houses[cell][kind] = house_index;
                position_in[cell][kind] = position;
            }
        }
        let more_peers = !extra.is_empty() || !moves.is_empty();
        let mut seen = vec![vec![false; cells]; cells];
        for house in &houses {
            for &a in &house.cells {
                for &b in &house.cells {
                    seen[a][b] = true;
                }
            }
        }
        // Each move is taken both ways, so each cell marks all the cells it sees.
        for (cell, sees) in seen.iter_mut().enumerate() {
            let (row, col) = ((cell / size) as isize, (cell % size) as isize);
            for &(down, right) in moves {
                for (r, c) in [(row + down, col + right), (row - down, col - right)] {
                    if (0..size as isize).contains(&r) && (0..size as isize).contains(&c) {
                        sees[r as usize * size + c as usize] = true;
                    }
                }
            }
        }
        let peers = (0..cells)
            .map(|cell| {
                (0..cells)
                    .filter(|&other| other != cell && seen[cell][other])
                    .collect()
            })
            .collect();
        Geometry {
            size,
            box_side: 0,
            houses,
            ranges,
            cell_houses,
            peers,
            position_in,
            more_peers,
            mode: None,
        }
    }

    /// The geometry of a variant puzzle (see the module docs).
    pub fn of_puzzle(puzzle: &crate::variant::Puzzle) -> Arc<Geometry> {
        use crate::variant::model::{Diagonal, Rule};
        let size = puzzle.size();
        let mut regions: std::collections::BTreeMap<usize, Vec<Cell>> = Default::default();
        for (cell, region) in puzzle.regions().iter().enumerate() {
            if let Some(region) = region {
                regions.entry(*region).or_default().push(cell);
            }
        }
        let regions: Vec<Vec<Cell>> = regions.into_values().collect();
        let mut extra = Vec::new();
        let mut moves: Vec<(isize, isize)> = Vec::new();
        for constraint in puzzle.constraints() {
            match &constraint.rule {
                Rule::Diagonal(diagonal) => {
                    let cells = (0..size)
                        .map(|i| match diagonal {
                            Diagonal::Down => i * size + i,
                            Diagonal::Up => (size - 1 - i) * size + i,
                        })
                        .collect::<Vec<Cell>>();
                    let mut cells = cells;
                    cells.sort_unstable();
                    extra.push((HouseKind::Diagonal, cells));
                }
                Rule::ExtraRegion(cells) if cells.len() <= size => {
                    let mut cells: Vec<Cell> = cells
                        .iter()
                        .map(|cell| cell.row * size + cell.col)
                        .collect();
                    cells.sort_unstable();
                    extra.push((HouseKind::ExtraRegion, cells));
                }
                Rule::DisjointGroups => {
                    let full: Vec<&Vec<Cell>> = regions
                        .iter()
                        .filter(|region| region.len() == size)
                        .collect();
                    for place in 0..size {
                        let mut group: Vec<Cell> =
                            full.iter().map(|region| region[place]).collect();
                        group.sort_unstable();
                        extra.push((HouseKind::DisjointGroup, group));
                    }
                }
                Rule::AntiKnight => moves.extend([(1, 2), (2, 1), (1, -2), (2, -1)]),
                Rule::AntiKing => moves.extend([(1, 1), (1, -1)]),
                _ => {}
            }
        }
        Arc::new(Geometry::from_houses(
            size,
            HouseKind::Region,
            regions,
            extra,
            &moves,
        ))
    }

    /// The houses of one kind, in index order.
    pub fn houses_of(&self, kind: HouseKind) -> &[House] {
        &self.houses[self.ranges[kind as usize].clone()]
    }

    /// The box (or region), row or column of `kind` that holds `cell`, if any.
    pub fn house_of(&self, cell: Cell, kind: HouseKind) -> Option<&House> {
        let slot = match kind {
            HouseKind::Row => 1,
            HouseKind::Column => 2,
            _ => 0,
        };
        self.houses.get(self.cell_houses[cell][slot])
    }

    /// The house of `kind` that holds `cell`, if any: its box (or region), row or
    /// column, or the first house of a rule's kind (a mode's disjoint groups and windows
    /// each share no cell with another house of their kind).
    pub fn kind_house_of(&self, cell: Cell, kind: HouseKind) -> Option<&House> {
        match kind {
            HouseKind::Box | HouseKind::Region | HouseKind::Row | HouseKind::Column => {
                self.house_of(cell, kind)
            }
            _ => self
                .houses_of(kind)
                .iter()
                .find(|house| house.cells.contains(&cell)),
        }
    }

    /// Whether two cells see each other: they share a house, or a rule makes them.
    pub fn sees(&self, a: Cell, b: Cell) -> bool {
        if self.more_peers {
            return self.peers[a].binary_search(&b).is_ok();
        }
        a != b
            && (0..3).any(|kind| {
                self.cell_houses[a][kind] == self.cell_houses[b][kind]
                    && self.cell_houses[a][kind] != NO_HOUSE
            })
    }

    /// All digits of an N×N board.
    pub fn all_digits(&self) -> Digits {
        (1u32 << self.size) - 1
    }
}

/// A board: each cell's digit or candidates (see the module docs).
#[derive(Clone)]
pub struct Board {
    geometry: Arc<Geometry>,
    values: Vec<u8>,
    candidates: Vec<Digits>,
}

impl PartialEq for Board {
    /// Boards are equal when their digits and candidates are (a size has one geometry).
    fn eq(&self, other: &Board) -> bool {
        self.values == other.values && self.candidates == other.candidates
    }
}

impl Eq for Board {}

impl std::fmt::Debug for Board {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let symbols: String = self
            .values
            .iter()
            .map(|&value| {
                if value == 0 {
                    '.'
                } else {
                    crate::grid::value_symbol(value)
                }
            })
            .collect();
        write!(formatter, "Board({symbols})")
    }
}

impl Board {
    /// The board of `grid`: its digits, and every other digit a cell's peers do not hold
    /// as its candidates (Sudoku Explainer's start: nothing else is deduced).
    pub fn from_grid(grid: &Grid) -> Board {
        let geometry = Arc::clone(Geometry::of(grid.size()));
        let values = grid.cells().to_vec();
        let mut board = Board {
            geometry,
            candidates: vec![0; values.len()],
            values,
        };
        let geometry = &board.geometry;
        for cell in 0..board.values.len() {
            if board.values[cell] == 0 {
                let taken = geometry.peers[cell]
                    .iter()
                    .filter(|&&peer| board.values[peer] != 0)
                    .fold(0, |taken, &peer| taken | bit(board.values[peer]));
                board.candidates[cell] = geometry.all_digits() & !taken;
            }
        }
        board
    }

    /// The board of a variant puzzle with the digits `values` (row-major, 0 for an empty
    /// cell), on the puzzle's [`Geometry`]: every digit its peers do not hold is a
    /// candidate of an empty cell, or, with `candidates`, the digits given for it.
    pub fn of_puzzle(
        geometry: Arc<Geometry>,
        values: Vec<u8>,
        candidates: Option<Vec<Digits>>,
    ) -> Board {
        let mut board = Board {
            candidates: vec![0; values.len()],
            values,
            geometry,
        };
        for cell in 0..board.values.len() {
            if board.values[cell] == 0 {
                let taken = board.geometry.peers[cell]
                    .iter()
                    .filter(|&&peer| board.values[peer] != 0)
                    .fold(0, |taken, &peer| taken | bit(board.values[peer]));
                let given = candidates
                    .as_ref()
                    .map_or(board.geometry.all_digits(), |c| c[cell]);
                board.candidates[cell] = given & !taken;
            }
        }
        for cell in 0..board.values.len() {
            if board.values[cell] != 0 {
                board.forbid_consecutive(cell, board.values[cell]);
            }
        }
        board
    }

    /// The digits, row-major, 0 for an empty cell.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// A board with the digits of `grid` and the given candidates for its empty cells.
    pub fn with_candidates(grid: &Grid, candidates: Vec<Digits>) -> Board {
        let board = Board {
            geometry: Arc::clone(Geometry::of(grid.size())),
            values: grid.cells().to_vec(),
            candidates: Vec::new(),
        };
        board.with_candidates_of(candidates)
    }

    /// A board with this one's shape and digits and the given candidates for its empty
    /// cells.
    pub fn with_candidates_of(&self, candidates: Vec<Digits>) -> Board {
        let candidates = candidates
            .into_iter()
            .zip(&self.values)
            .map(|(digits, &value)| if value == 0 { digits } else { 0 })
            .collect();
        Board {
            geometry: Arc::clone(&self.geometry),
            values: self.values.clone(),
            candidates,
        }
    }

    /// The board's shape.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// N.
    pub fn size(&self) -> usize {
        self.geometry.size
    }

    /// The number of cells, N².
    pub fn cell_count(&self) -> usize {
        self.values.len()
    }

    /// The digit of `cell`, 0 while it is empty.
    pub fn value(&self, cell: Cell) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (none once it is filled).
    pub fn candidates(&self, cell: Cell) -> Digits {
        self.candidates[cell]
    }

    /// Whether `digit` is a candidate of `cell`.
    pub fn has(&self, cell: Cell, digit: u8) -> bool {
        self.candidates[cell] & bit(digit) != 0
    }

    /// Whether every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&value| value != 0)
    }

    /// The cells of `house` that still have `digit` as a candidate, as a mask of positions
    /// within the house (bit `i` for the house's `i`-th cell).
    pub fn positions(&self, house: &House, digit: u8) -> u32 {
        let digit = bit(digit);
        house
            .cells
            .iter()
            .enumerate()
            .filter(|&(_, &cell)| self.candidates[cell] & digit != 0)
            .fold(0, |mask, (position, _)| mask | 1 << position)
    }

    /// For every digit `d` (at index `d - 1`), [`Board::positions`] of `d` in `house`: one
    /// pass over the house for searches that ask about many digits of it.
    pub fn digit_positions(&self, house: &House) -> [u32; MAX_SIZE] {
        let mut positions = [0; MAX_SIZE];
        for (position, &cell) in house.cells.iter().enumerate() {
            for index in ones(self.candidates[cell]) {
                positions[index] |= 1 << position;
            }
        }
        positions
    }

    /// The empty cells of `house`.
    pub fn empty_count(&self, house: &House) -> usize {
        house
            .cells
            .iter()
            .filter(|&&cell| self.values[cell] == 0)
            .count()
    }

    /// How many cells hold `digit`.
    pub fn placed_count(&self, digit: u8) -> usize {
        self.values.iter().filter(|&&value| value == digit).count()
    }

    /// Makes this board a copy of `other` (of the same size), reusing its memory.
    pub fn copy_from(&mut self, other: &Board) {
        self.values.clone_from(&other.values);
        self.candidates.clone_from(&other.candidates);
    }

    /// Removes `digits` from the candidates of `cell`.
    pub fn eliminate(&mut self, cell: Cell, digits: Digits) {
        self.candidates[cell] &= !digits;
    }

    /// Places `digit` in `cell` and removes it from the candidates of the cell's peers
    /// (and, in the non-consecutive mode, the digits next to it from its orthogonal
    /// neighbours).
    pub fn place(&mut self, cell: Cell, digit: u8) {
        self.values[cell] = digit;
        self.candidates[cell] = 0;
        for &peer in &self.geometry.peers[cell] {
            self.candidates[peer] &= !bit(digit);
        }
        self.forbid_consecutive(cell, digit);
    }

    /// In the non-consecutive mode, removes the digits next to `digit` from the
    /// orthogonal neighbours of `cell`.
    fn forbid_consecutive(&mut self, cell: Cell, digit: u8) {
        if self.geometry.mode.is_some_and(|mode| mode.nonconsecutive) {
            let next = bit(digit) << 1 | bit(digit) >> 1;
            for neighbour in orthogonal_neighbours(cell, self.size()) {
                self.candidates[neighbour] &= !next;
            }
        }
    }

    /// The digits as a grid (candidates left out).
    pub fn to_grid(&self) -> Grid {
        Grid::from_cells(self.size(), self.values.clone()).expect("a board keeps its size")
    }
}

/// The orthogonal neighbours of `cell` on an N×N board, in Sukaku Explainer's order:
/// above, below, right, left.
pub fn orthogonal_neighbours(cell: Cell, size: usize) -> impl Iterator<Item = Cell> {
    let (row, col) = (cell / size, cell % size);
    [
        (row > 0).then(|| cell - size),
        (row + 1 < size).then(|| cell + size),
        (col + 1 < size).then(|| cell + 1),
        (col > 0).then(|| cell - 1),
    ]
    .into_iter()
    .flatten()
}

/// The set holding only `digit`.
pub fn bit(digit: u8) -> Digits {
    1 << (digit - 1)
}

/// The digits of `digits`, in ascending order.
pub fn digits_of(digits: Digits) -> impl Iterator<Item = u8> {
    ones(digits).map(|index| index as u8 + 1)
}

/// The indexes of the set bits of `mask`, in ascending order.
pub fn ones(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let index = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            index
        })
    })
}

/// Every set of `count` of the numbers `0..n` as a mask, in the order Sudoku Explainer
/// enumerates them: by increasing value of the mask (so by the largest member first).
pub fn combinations(count: u32, n: u32) -> impl Iterator<Item = u32> {
    let mut next = (count <= n).then(|| (1u32 << count) - 1);
    std::iter::from_fn(move || {
        let current = next?;
        if current == 0 {
            next = None;
            return Some(0);
        }
        // Gosper's hack: the next larger number with the same count of ones.
        let smallest = current & current.wrapping_neg();
        let ripple = current + smallest;
        let following = (((current ^ ripple) >> 2) / smallest) | ripple;
        next = (following < 1 << n).then_some(following);
        Some(current)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_come_in_increasing_mask_order() {
        let pairs: Vec<u32> = combinations(2, 4).collect();
        assert_eq!(pairs, [0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
        assert_eq!(combinations(3, 9).count(), 84);
        assert_eq!(combinations(4, 3).count(), 0);
    }

    #[test]
    fn a_board_starts_with_every_digit_its_peers_leave() {
        let grid = Grid::parse_symbols(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let board = Board::from_grid(&grid);
        // r1c3 sees 5, 3, 7 (row), 8 (column), 6, 9, 8 (box): 1, 2, 4 are left.
        assert_eq!(board.candidates(2), bit(1) | bit(2) | bit(4));
        assert_eq!(board.candidates(0), 0);
        let geometry = board.geometry();
        assert_eq!(
            geometry.houses[4].cells,
            [30, 31, 32, 39, 40, 41, 48, 49, 50]
        );
        assert_eq!(geometry.peers[0].len(), 20);
        assert_eq!(Geometry::of(16).peers[0].len(), 39);
    }
}
