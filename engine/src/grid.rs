//! The `Grid` type: an N×N Sudoku with square boxes, and its two notations.
//!
//! A grid is stored row-major as one byte per cell, `0` for a blank and `1..=N` for a
//! digit. Parsing checks the shape and the range of every value, never the rules: a grid
//! whose givens clash is still a `Grid` (see [`crate::validate`] for the rules).

use std::fmt;

use thiserror::Error;

/// The grid sizes the service accepts: N×N grids whose boxes are √N×√N.
pub const SUPPORTED_SIZES: [usize; 4] = [4, 9, 16, 25];

/// Whether `line` of a grid written on several lines only draws it, as grids copied from
/// the forums have: a border between bands (`------+-------+------`) or a spacer
/// (`|       |       |`), of `-`, `=`, `+`, `|` and whitespace alone.
pub fn is_border_line(line: &str) -> bool {
    let drawing = ['-', '=', '+', '|'];
    // The first character tells a line of symbols at once.
    line.trim_start().starts_with(drawing)
        && line
            .chars()
            .all(|c| drawing.contains(&c) || c.is_whitespace())
}

/// The cell at `row` and `col` (0-based) in the `r1c1` notation of players, counted from 1.
pub fn cell_name(row: usize, col: usize) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// Whether `c` only lays out the symbols of a grid: whitespace, or the `|` between boxes.
pub fn is_layout(c: char) -> bool {
    c.is_whitespace() || c == '|'
}

/// An N×N Sudoku grid with N in [`SUPPORTED_SIZES`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    size: usize,
    cells: Vec<u8>,
}

/// Why a grid could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GridError {
    /// The string notation held a number of symbols that is no supported N².
    #[error(
        "grid has {found} cell{}; expected 16, 81, 256 or 625 (a 4×4, 9×9, 16×16 or 25×25 grid)",
        if *found == 1 { "" } else { "s" }
    )]
    Length {
        /// How many symbols were seen (whitespace and drawing not counted).
        found: usize,
    },
    /// Text of no supported length with a character in it that is no symbol: most likely
    /// not a grid at all (a heading, a name), so the character says more than the count.
    #[error(
        "not a grid: {found} character{} (whitespace and grid lines aside) where 16, 81, 256 or 625 symbols are expected, and {symbol:?} at position {position} is none; symbols are 1-9, A-P for 10 to 25, and 0 or . for blanks",
        if *found == 1 { "" } else { "s" }
    )]
    NotAGrid {
        /// The first character that is no symbol.
        symbol: char,
        /// Its 1-based position among the characters that are not whitespace.
        position: usize,
        /// How many characters that are not whitespace the text has.
        found: usize,
    },
    /// A character that is neither a digit, a letter for 10 and up, nor a blank.
    #[error(
        "invalid symbol {symbol:?} at {}; use 1-9, A-P for 10 to 25, and 0 or . for blanks",
        cell_name(*row, *col)
    )]
    Symbol {
        /// The offending character.
        symbol: char,
        /// 0-based row of the cell.
        row: usize,
        /// 0-based column of the cell.
        col: usize,
    },
    /// A symbol whose value does not fit the grid's size (a `G` in a 9×9 grid).
    #[error(
        "symbol {symbol:?} (value {value}) at {} is out of range for a {size}×{size} grid ({}, or 0 or . for a blank)",
        cell_name(*row, *col),
        symbols_up_to(*size)
    )]
    SymbolOutOfRange {
        /// The symbol seen.
        symbol: char,
        /// Its value.
        value: u8,
        /// 0-based row of the cell.
        row: usize,
        /// 0-based column of the cell.
        col: usize,
        /// The grid's N.
        size: usize,
    },
    /// A value that does not fit the grid's size (a 10 in a 9×9 grid's rows).
    #[error(
        "value {value} at {} is out of range for a {size}×{size} grid (1-{size}, or a blank)",
        cell_name(*row, *col)
    )]
    ValueOutOfRange {
        /// The value seen.
        value: i64,
        /// 0-based row of the cell.
        row: usize,
        /// 0-based column of the cell.
        col: usize,
        /// The grid's N.
        size: usize,
    },
    /// The rows notation had a number of rows that is no supported N.
    #[error(
        "grid has {found} row{}; expected 4, 9, 16 or 25",
        if *found == 1 { "" } else { "s" }
    )]
    RowCount {
        /// How many rows were seen.
        found: usize,
    },
    /// A row of the rows notation whose length differs from the number of rows.
    #[error("row {} has {found} cells; expected {expected}", row + 1)]
    RowLength {
        /// 0-based index of the row.
        row: usize,
        /// Its length.
        found: usize,
        /// N, the number of rows.
        expected: usize,
    },
}

impl Grid {
    /// An empty grid of side `size`; `None` unless `size` is in [`SUPPORTED_SIZES`].
    pub fn empty(size: usize) -> Option<Grid> {
        SUPPORTED_SIZES.contains(&size).then(|| Grid {
            size,
            cells: vec![0; size * size],
        })
    }

    /// Builds a grid from row-major cells (`0` blank); every value must be in `0..=size`.
    pub fn from_cells(size: usize, cells: Vec<u8>) -> Result<Grid, GridError> {
        if !SUPPORTED_SIZES.contains(&size) || cells.len() != size * size {
            return Err(GridError::Length { found: cells.len() });
        }
        if let Some(index) = cells.iter().position(|&v| usize::from(v) > size) {
            return Err(GridError::ValueOutOfRange {
                value: i64::from(cells[index]),
                row: index / size,
                col: index % size,
                size,
            });
        }
        Ok(Grid { size, cells })
    }

    /// Parses the string notation: N² symbols, `0` or `.` for blanks, `1`-`9` then
    /// `A`.. (case-insensitive) for 10 and up. Whitespace anywhere is ignored, and so is
    /// the drawing of a grid written on several lines as on the forums: `|` between boxes,
    /// and the lines between bands ([`is_border_line`]). A one-line text is all symbols,
    /// so a `-` for a blank there is named as the stray symbol it is.
    pub fn parse_symbols(text: &str) -> Result<Grid, GridError> {
        if let Some(grid) = Self::from_plain_symbols(text.as_bytes()) {
            return Ok(grid);
        }
        let drawn = text.trim().contains('\n');
        Self::from_symbols(
            text.lines()
                .filter(|line| !(drawn && is_border_line(line)))
                .flat_map(str::chars)
                .filter(|&c| !is_layout(c)),
        )
    }

    /// The fast path of [`Grid::parse_symbols`]: N² valid symbols and nothing else, a table
    /// lookup each. `None` sends anything else (whitespace, an error to name) the long way.
    fn from_plain_symbols(text: &[u8]) -> Option<Grid> {
        let size = SUPPORTED_SIZES.into_iter().find(|n| n * n == text.len())?;
        let mut largest = 0;
        let cells: Vec<u8> = text
            .iter()
            .map(|&byte| {
                let value = SYMBOL_VALUES[usize::from(byte)];
                largest = largest.max(value);
                value
            })
            .collect();
        (usize::from(largest) <= size).then_some(Grid { size, cells })
    }

    /// Reads a grid from its symbols, whitespace and drawing already left out.
    fn from_symbols(symbols: impl Iterator<Item = char> + Clone) -> Result<Grid, GridError> {
        let found = symbols.clone().count();
        let Some(size) = SUPPORTED_SIZES.into_iter().find(|n| n * n == found) else {
            let stray = symbols
                .enumerate()
                .find(|&(_, symbol)| symbol_value(symbol).is_none());
            return Err(match stray {
                Some((index, symbol)) => GridError::NotAGrid {
                    symbol,
                    position: index + 1,
                    found,
                },
                None => GridError::Length { found },
            });
        };
        let mut cells = Vec::with_capacity(found);
        for (index, symbol) in symbols.enumerate() {
            // Row and column are worked out only for an error, off the common path.
            let value = symbol_value(symbol).ok_or_else(|| GridError::Symbol {
                symbol,
                row: index / size,
                col: index % size,
            })?;
            if usize::from(value) > size {
                return Err(GridError::SymbolOutOfRange {
                    symbol,
                    value,
                    row: index / size,
                    col: index % size,
                    size,
                });
            }
            cells.push(value);
        }
        Ok(Grid { size, cells })
    }

    /// Reads the rows notation: N rows of N values, `0` or `None` for blanks.
    pub fn from_rows(rows: &[Vec<Option<i64>>]) -> Result<Grid, GridError> {
        let size = rows.len();
        if !SUPPORTED_SIZES.contains(&size) {
            return Err(GridError::RowCount { found: size });
        }
        let mut cells = Vec::with_capacity(size * size);
        for (row, values) in rows.iter().enumerate() {
            if values.len() != size {
                return Err(GridError::RowLength {
                    row,
                    found: values.len(),
                    expected: size,
                });
            }
            for (col, value) in values.iter().enumerate() {
                let value = value.unwrap_or(0);
                match u8::try_from(value) {
                    Ok(v) if usize::from(v) <= size => cells.push(v),
                    _ => {
                        return Err(GridError::ValueOutOfRange {
                            value,
                            row,
                            col,
                            size,
                        });
                    }
                }
            }
        }
        Ok(Grid { size, cells })
    }

    /// N, the number of rows, columns, boxes and digits.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The side of a box, √N.
    pub fn box_size(&self) -> usize {
        box_side(self.size)
    }

    /// Row-major cells, `0` for a blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at (`row`, `col`), `0` for a blank.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size + col]
    }

    /// Whether no cell is blank.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Number of given (non-blank) cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// The string notation on one line, `.` for blanks.
    pub fn to_symbols(&self) -> String {
        let mut symbols = Vec::with_capacity(self.cells.len());
        self.push_symbols(&mut symbols);
        String::from_utf8(symbols).expect("grid symbols are ASCII")
    }

    /// Appends the string notation to `out` as ASCII bytes, as [`Grid::to_symbols`]
    /// writes it.
    pub fn push_symbols(&self, out: &mut Vec<u8>) {
        out.extend(self.cells.iter().map(|&v| value_symbol(v) as u8));
    }

    /// The rows notation, `0` for blanks.
    pub fn to_rows(&self) -> Vec<Vec<u8>> {
        self.cells.chunks(self.size).map(<[u8]>::to_vec).collect()
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_symbols())
    }
}

impl fmt::Display for Grid {
    /// One line of symbols per row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.cells.chunks(self.size) {
            let line: String = row.iter().map(|&v| value_symbol(v)).collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// √N for a supported N.
pub(crate) fn box_side(size: usize) -> usize {
    match size {
        4 => 2,
        9 => 3,
        16 => 4,
        _ => 5,
    }
}

/// [`symbol_value`] for every byte, [`NOT_A_SYMBOL`] where it gives none.
static SYMBOL_VALUES: [u8; 256] = symbol_values();

/// Marks a byte that stands for no value; above every grid size.
const NOT_A_SYMBOL: u8 = u8::MAX;

const fn symbol_values() -> [u8; 256] {
    let mut table = [NOT_A_SYMBOL; 256];
    let mut byte = 0;
    while byte < 256 {
        if let Some(value) = symbol_value(byte as u8 as char) {
            table[byte] = value;
        }
        byte += 1;
    }
    table
}

/// Whether `symbol` stands for a value of a `size`×`size` grid, or for a blank.
pub fn is_symbol_of(symbol: char, size: usize) -> bool {
    symbol_value(symbol).is_some_and(|value| usize::from(value) <= size)
}

/// The value a symbol stands for: blanks are 0, `1`-`9`, then `A`=10 up to `P`=25.
/// Values above the grid's size are rejected by the caller, so it can name them.
const fn symbol_value(symbol: char) -> Option<u8> {
    match symbol {
        '0' | '.' => Some(0),
        '1'..='9' => Some(symbol as u8 - b'0'),
        'a'..='p' | 'A'..='P' => Some(symbol.to_ascii_uppercase() as u8 - b'A' + 10),
        _ => None,
    }
}

/// The symbol written for a value: `.` for a blank, `1`-`9`, then `A`...
pub fn value_symbol(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => char::from(b'0' + value),
        _ => char::from(b'A' + value - 10),
    }
}

/// The symbols of a grid of `size`, as a person types them: `1-4`, `1-9`, `1-9 and A-G`.
fn symbols_up_to(size: usize) -> String {
    match u8::try_from(size) {
        Ok(size @ 10..) => format!("1-9 and A-{}", value_symbol(size)),
        _ => format!("1-{size}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_stand_for_ten_and_up_in_either_case() {
        let text = "1234567890abcdefG".repeat(16);
        let text: String = text.chars().take(256).collect();
        let grid = Grid::parse_symbols(&text).unwrap();
        assert_eq!(grid.size(), 16);
        assert_eq!(grid.get(0, 10), 10);
        assert_eq!(grid.get(0, 16 - 1), 15);
        assert_eq!(grid.get(1, 0), 16);
        assert_eq!(grid.to_symbols().chars().nth(9), Some('.'));
    }

    #[test]
    fn whitespace_anywhere_reads_like_none() {
        let plain =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let spaced: String = plain
            .chars()
            .enumerate()
            .flat_map(|(i, c)| [c, if i % 9 == 8 { '\n' } else { ' ' }])
            .collect();
        let wide = format!("\u{3000}{spaced}\u{a0}");
        let expected = Grid::parse_symbols(plain).unwrap();
        assert_eq!(expected.get(0, 0), 4);
        assert_eq!(Grid::parse_symbols(&spaced).unwrap(), expected);
        assert_eq!(Grid::parse_symbols(&wide).unwrap(), expected);
        assert_eq!(
            Grid::parse_symbols(&plain.replace('.', "\u{e9}")).unwrap_err(),
            GridError::Symbol {
                symbol: '\u{e9}',
                row: 0,
                col: 1
            }
        );
    }

    #[test]
    fn a_grid_drawn_as_on_the_forums_reads_like_its_symbols() {
        let plain =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let drawn = "\
+-------+-------+-------+
| 4 . . | . . . | 8 . 5 |
| . 3 . | . . . | . . . |
| . . . | 7 . . | . . . |
+-------+-------+-------+
| . 2 . | . . . | . 6 . |
| . . . | . 8 . | 4 . . |
| . . . | . 1 . | . . . |
+-------+-------+-------+
| . . . | 6 . 3 | . 7 . |
| 5 . . | 2 . . | . . . |
| 1 . 4 | . . . | . . . |
+-------+-------+-------+
";
        let expected = Grid::parse_symbols(plain).unwrap();
        for border in [
            "+-------+-------+-------+",
            "------+-------+------",
            "======",
        ] {
            let text = drawn.replace("+-------+-------+-------+", border);
            assert_eq!(Grid::parse_symbols(&text), Ok(expected.clone()), "{text}");
        }
        // Dashes among symbols are no border: a `-` for a blank is named.
        let dashed = plain.replace('.', "-");
        assert!(matches!(
            Grid::parse_symbols(&dashed),
            Err(GridError::Symbol { symbol: '-', .. })
        ));
        assert!(is_border_line(" -----+----- "));
        assert!(is_border_line("|       |       |"));
        assert!(!is_border_line(""));
        assert!(!is_border_line("| 5 3 . |"));
        // One line of dashes is no drawing: the `-` is named.
        assert!(matches!(
            Grid::parse_symbols(&"-".repeat(81)),
            Err(GridError::Symbol { symbol: '-', .. })
        ));
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(
            Grid::parse_symbols("12345678").unwrap_err(),
            GridError::Length { found: 8 }
        );
        assert_eq!(
            Grid::parse_symbols("# 17 clues").unwrap_err(),
            GridError::NotAGrid {
                symbol: '#',
                position: 1,
                found: 8
            }
        );
        let one = Grid::parse_symbols("x").unwrap_err().to_string();
        assert!(
            one.starts_with("not a grid: 1 character (whitespace and grid lines aside)"),
            "{one}"
        );
        let one_row = Grid::from_rows(&[vec![Some(5)]]).unwrap_err().to_string();
        assert!(one_row.starts_with("grid has 1 row;"), "{one_row}");
        let mut text = ".".repeat(81);
        text.replace_range(12..13, "x");
        assert_eq!(
            Grid::parse_symbols(&text).unwrap_err(),
            GridError::Symbol {
                symbol: 'x',
                row: 1,
                col: 3
            }
        );
        text.replace_range(12..13, "A");
        let error = Grid::parse_symbols(&text).unwrap_err();
        assert!(matches!(
            error,
            GridError::SymbolOutOfRange {
                symbol: 'A',
                value: 10,
                row: 1,
                col: 3,
                size: 9
            }
        ));
        assert!(error.to_string().contains("(1-9, or 0 or . for a blank)"));
        let sixteen = format!("{}H", ".".repeat(255));
        let error = Grid::parse_symbols(&sixteen).unwrap_err().to_string();
        assert!(error.contains("(1-9 and A-G, or"), "{error}");
        let error = Grid::parse_symbols("5").unwrap_err().to_string();
        assert!(error.starts_with("grid has 1 cell;"), "{error}");
        let rows = vec![
            vec![Some(0); 4],
            vec![Some(0); 4],
            vec![Some(5); 4],
            vec![None; 3],
        ];
        assert!(matches!(
            Grid::from_rows(&rows).unwrap_err(),
            GridError::ValueOutOfRange {
                value: 5,
                row: 2,
                col: 0,
                size: 4
            }
        ));
    }
}
