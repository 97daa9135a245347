//! Plain-text puzzle layouts read and written by the command line.
//!
//! Three layouts are recognised on standard input:
//! - a 9-line block of 9 digits, `0` blank (Baekjoon 2239);
//! - a 9-line block of 9 space-separated numbers, `0` blank (Baekjoon 2580);
//! - one puzzle per line in the string notation (Norvig's and tdoku's files), where
//!   blank lines and `#` comments are skipped, `\r\n` endings are fine, and anything after
//!   the grid (a tab, space, `:`, `,` or `;` and what follows) is ignored.

use crate::grid::{Grid, GridError};

/// The layout of a whole input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// 9 lines of 9 digits (Baekjoon 2239).
    DigitBlock,
    /// 9 lines of 9 space-separated numbers (Baekjoon 2580).
    SpacedBlock,
    /// One puzzle per line.
    Lines,
}

/// Whether a byte ends the grid field of a puzzle line.
fn is_field_separator(byte: u8) -> bool {
    matches!(byte, b'\t' | b' ' | b':' | b',' | b';')
}

/// Tells which layout `input` uses: a 9-line block when it has exactly nine content lines
/// of nine digits (packed or spaced), otherwise one puzzle per line.
pub fn detect(input: &str) -> Layout {
    // Ten lines are enough to tell: a long file is never read through here.
    let lines: Vec<&str> = content_lines(input).take(10).collect();
    if lines.len() != 9 {
        return Layout::Lines;
    }
    let is_digits = |s: &str| s.len() == 9 && s.bytes().all(|b| b.is_ascii_digit());
    let is_spaced = |s: &str| {
        let fields: Vec<&str> = s.split_whitespace().collect();
        fields.len() == 9
            && fields
                .iter()
                .all(|f| f.len() == 1 && f.as_bytes()[0].is_ascii_digit())
    };
    if lines.iter().all(|l| is_digits(l)) {
        Layout::DigitBlock
    } else if lines.iter().all(|l| is_spaced(l)) {
        Layout::SpacedBlock
    } else {
        Layout::Lines
    }
}

/// Reads a 9-line block (either block layout) as one grid.
pub fn parse_block(input: &str) -> Result<Grid, GridError> {
    let symbols: String = content_lines(input).collect();
    Grid::parse_symbols(&symbols)
}

/// Writes `grid` in a block layout; [`Layout::Lines`] gives the one-line string notation.
pub fn format_grid(grid: &Grid, layout: Layout) -> String {
    let separator = match layout {
        Layout::DigitBlock => "",
        Layout::SpacedBlock => " ",
        Layout::Lines => return grid.to_symbols(),
    };
    let rows: Vec<String> = grid
        .to_rows()
        .iter()
        .map(|row| {
            let digits: Vec<String> = row.iter().map(u8::to_string).collect();
            digits.join(separator)
        })
        .collect();
    rows.join("\n")
}

/// The puzzles of a line-per-puzzle input: the grid field of each line, without what
/// follows it, skipping blank and `#` comment lines.
pub fn puzzle_lines(input: &str) -> impl Iterator<Item = &str> {
    content_lines(input).map(|line| {
        line.bytes()
            .position(is_field_separator)
            .map_or(line, |end| &line[..end])
    })
}

/// Non-blank, non-comment lines, trimmed.
fn content_lines(input: &str) -> impl Iterator<Item = &str> {
    input
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_fields_and_comments_are_skipped() {
        let input = "# header\r\n\r\n1.3:2:xyz\r\nab\tname here\r\n";
        let puzzles: Vec<&str> = puzzle_lines(input).collect();
        assert_eq!(puzzles, vec!["1.3", "ab"]);
    }

    #[test]
    fn nine_lines_of_81_symbols_are_lines_not_a_block() {
        let input = format!("{}\n", ".".repeat(81)).repeat(9);
        assert_eq!(detect(&input), Layout::Lines);
        let block = "000000000\n".repeat(9);
        assert_eq!(detect(&block), Layout::DigitBlock);
        assert_eq!(
            detect(&"0 0 0 0 0 0 0 0 0\n".repeat(9)),
            Layout::SpacedBlock
        );
    }
}
