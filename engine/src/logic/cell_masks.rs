//! Sets of cells of a 9×9 board as 128-bit masks (bit `i` for cell `i`, row-major), with
//! each cell's peers and each house's cells, for the techniques that exist on 9×9 boards
//! only. Intersecting whole sets at once keeps their searches free of allocation: the
//! cells that see every cell of a group are one `&` per cell.

use super::board::{Board, Cell, Geometry, HouseKind};

/// A set of cells of a 9×9 board: bit `i` for cell `i`.
pub type CellMask = u128;

/// The cells of a 9×9 board's houses and peers in one mode (classic Sudoku or one of
/// Sukaku Explainer's variant modes), as masks.
#[derive(Debug, PartialEq, Eq)]
pub struct CellMasks {
    /// For each cell, the cells it sees (20 in classic Sudoku).
    pub peers: [CellMask; 81],
    /// For each house, numbered as [`Geometry`] numbers them (boxes 0..9, rows 9..18,
    /// columns 18..27, then the houses of the mode's rules), its cells.
    pub houses: Vec<CellMask>,
    /// For each cell, the cells of its box, row and column (in [`HouseKind`] order).
    pub cell_houses: [[CellMask; 3]; 81],
    /// For each cell, the indexes in `houses` of the houses of the mode's rules that hold
    /// it (disjoint groups, windows, diagonals), in house order.
    pub rule_houses: Vec<Vec<usize>>,
    /// For each house, its kind and its index among the houses of its kind.
    pub house_refs: Vec<(HouseKind, usize)>,
    /// For each cell, the cells it sees by a chess move (anti-knight, anti-king) alone,
    /// sharing no house with it.
    pub chess_peers: [CellMask; 81],
    /// Whether orthogonal neighbours may not hold consecutive digits.
    pub nonconsecutive: bool,
    /// Whether cells see by their box, row and column alone, with no rule beyond: the
    /// chains' implications then take their quickest path.
    pub classic: bool,
}

impl CellMasks {
    /// The masks of `geometry`, a 9×9 geometry with boxes.
    pub fn of(geometry: &Geometry, nonconsecutive: bool) -> CellMasks {
        let mask = |cells: &[Cell]| cells.iter().fold(0, |mask: CellMask, &c| mask | 1 << c);
        let houses: Vec<CellMask> = geometry.houses.iter().map(|h| mask(&h.cells)).collect();
        let all_houses = &houses;
        let mut rule_houses = vec![Vec::new(); 81];
        for (index, house) in geometry.houses.iter().enumerate().skip(27) {
            for &cell in &house.cells {
                rule_houses[cell].push(index);
            }
        }
        let peers: [CellMask; 81] = std::array::from_fn(|cell| mask(&geometry.peers[cell]));
        let chess_peers = std::array::from_fn(|cell| {
            let houses = geometry.cell_houses[cell].iter().chain(&rule_houses[cell]);
            peers[cell] & !houses.fold(0, |cells, &house| cells | all_houses[house])
        });
        let classic = geometry.houses.len() == 27
            && !nonconsecutive
            && peers.iter().all(|peers| peers.count_ones() == 20);
        CellMasks {
            peers,
            chess_peers,
            cell_houses: std::array::from_fn(|cell| {
                geometry.cell_houses[cell].map(|house| houses[house])
            }),
            houses,
            rule_houses,
            house_refs: geometry.houses.iter().map(|h| (h.kind, h.index)).collect(),
            classic,
            nonconsecutive,
        }
    }

    /// The cells that see every cell of `mask` (none of them included).
    pub fn seen_by_all(&self, mask: CellMask) -> CellMask {
        cells_of(mask).fold(!0, |seen, cell| seen & self.peers[cell]) & !mask
    }
}

/// The index in [`CellMasks::houses`] of the box, row and column of `cell`.
pub const fn houses_of(cell: Cell) -> [usize; 3] {
    let (row, column) = (cell / 9, cell % 9);
    [row / 3 * 3 + column / 3, 9 + row, 18 + column]
}

/// The cells of `mask`, in ascending order.
pub fn cells_of(mut mask: CellMask) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let cell = mask.trailing_zeros() as Cell;
            mask &= mask - 1;
            cell
        })
    })
}

/// For each digit 1 to 9 (at index `digit - 1`), the cells of a 9×9 `board` that still
/// have it as a candidate.
pub fn digit_cells(board: &Board) -> [CellMask; 9] {
    let mut masks = [0; 9];
    for cell in 0..81 {
        let mut candidates = board.candidates(cell);
        while candidates != 0 {
            masks[candidates.trailing_zeros() as usize] |= 1 << cell;
            candidates &= candidates - 1;
        }
    }
    masks
}

/// A 9×9 board from pencil marks, one string per row of nine space-separated cells: the
/// candidates of an empty cell, or `=` and the digit of a filled one (tests replay the
/// reference's states this way).
#[cfg(test)]
pub fn board_from_marks(rows: [&str; 9]) -> Board {
    let mut symbols = String::new();
    let mut candidates = Vec::new();
    for cell in rows.iter().flat_map(|row| row.split_whitespace()) {
        let digits = cell.strip_prefix('=');
        symbols.push_str(digits.unwrap_or("."));
        let marks = cell.bytes().filter(u8::is_ascii_digit);
        let mask = marks.fold(0, |mask, digit| mask | super::board::bit(digit - b'0'));
        candidates.push(if digits.is_some() { 0 } else { mask });
    }
    let grid = crate::grid::Grid::parse_symbols(&symbols).expect("81 cells");
    Board::with_candidates(&grid, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peers_and_houses_match_the_board_geometry() {
        let geometry = super::super::board::Geometry::of(9);
        let masks = geometry.masks();
        assert_eq!(masks.peers[0].count_ones(), 20);
        for (cell, houses) in masks.cell_houses.iter().enumerate() {
            for (kind, &house) in houses_of(cell).iter().enumerate() {
                assert_eq!(houses[kind], masks.houses[house]);
                assert_eq!(geometry.cell_houses[cell][kind], house);
            }
        }
        assert_eq!(
            masks.seen_by_all(1 | 1 << 1),
            (masks.houses[0] | masks.houses[9]) & !0b11
        );
    }
}
