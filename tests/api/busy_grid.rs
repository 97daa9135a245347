//! The grid that keeps a solver busy for minutes, for tests of time limits, overload,
//! disconnects and shutdown. Shared with `tests/signals.rs`.

/// A 16×16 grid that follows the rules, has no solution, and keeps the solver busy until
/// it is cancelled: row 0's first twelve cells (boxes 0-2) can hold only the digits 1-11,
/// because boxes 0-2 hold 12-16 in their rows 1-3. Singles propagation never sees that
/// twelve cells are left with eleven digits.
pub fn busy_grid() -> String {
    let mut cells = vec!['.'; 256];
    for grid_box in 0..3 {
        for k in 0..5 {
            // Digit 12 + k: a different row of rows 1-3 in each box, so no row repeats it;
            // the two digits that share a row in a box take different columns.
            let row = 1 + (grid_box + k) % 3;
            let col = 4 * grid_box + k % 4;
            cells[row * 16 + col] = char::from(b'C' + k as u8); // C = 12, ..., G = 16
        }
    }
    cells.into_iter().collect()
}
