//! Sets of cells of a 9×9 board as 128-bit masks (bit `i` for cell `i`, row-major), with
//! each cell's peers and each house's cells, for the techniques that exist on 9×9 boards
//! only. Intersecting whole sets at once keeps their searches free of allocation: the
//! cells that see every cell of a group are one `&` per cell.

use super::board::{Board, Cell};

/// A set of cells of a 9×9 board: bit `i` for cell `i`.
pub type CellMask = u128;

/// For each cell, the 20 cells that share a house with it.
pub const PEERS: [CellMask; 81] = peers();

/// For each house, numbered as [`super::board::Geometry`] numbers them (boxes 0..9, rows
/// 9..18, columns 18..27), its 9 cells.
pub const HOUSES: [CellMask; 27] = houses();

/// For each cell, the cells of its box, row and column (in [`HouseKind`] order).
///
/// [`HouseKind`]: super::board::HouseKind
pub const CELL_HOUSES: [[CellMask; 3]; 81] = cell_houses();

const fn cell_houses() -> [[CellMask; 3]; 81] {
    let houses = houses();
    let mut cell_houses = [[0; 3]; 81];
    let mut cell = 0;
    while cell < 81 {
        let [box_index, row, column] = houses_of(cell);
        cell_houses[cell] = [houses[box_index], houses[row], houses[column]];
        cell += 1;
    }
    cell_houses
}

/// The index in [`HOUSES`] of the box, row and column of `cell`.
pub const fn houses_of(cell: Cell) -> [usize; 3] {
    let (row, column) = (cell / 9, cell % 9);
    [row / 3 * 3 + column / 3, 9 + row, 18 + column]
}

const fn houses() -> [CellMask; 27] {
    let mut houses = [0; 27];
    let mut cell = 0;
    while cell < 81 {
        let [box_index, row, column] = houses_of(cell);
        houses[box_index] |= 1 << cell;
        houses[row] |= 1 << cell;
        houses[column] |= 1 << cell;
        cell += 1;
    }
    houses
}

const fn peers() -> [CellMask; 81] {
    let houses = houses();
    let mut peers = [0; 81];
    let mut cell = 0;
    while cell < 81 {
        let [box_index, row, column] = houses_of(cell);
        peers[cell] = (houses[box_index] | houses[row] | houses[column]) & !(1 << cell);
        cell += 1;
    }
    peers
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

/// The cells that see every cell of `mask` (none of them included).
pub fn seen_by_all(mask: CellMask) -> CellMask {
    cells_of(mask).fold(!0, |seen, cell| seen & PEERS[cell]) & !mask
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
        for (peers, expected) in PEERS.iter().zip(&geometry.peers) {
            let expected = expected.iter().fold(0, |mask: CellMask, &p| mask | 1 << p);
            assert_eq!(*peers, expected);
        }
        for (index, house) in geometry.houses.iter().enumerate() {
            let expected = house
                .cells
                .iter()
                .fold(0, |mask: CellMask, &c| mask | 1 << c);
            assert_eq!(HOUSES[index], expected);
        }
        assert_eq!(seen_by_all(1 | 1 << 1), (HOUSES[0] | HOUSES[9]) & !0b11);
    }
}
