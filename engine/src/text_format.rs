//! Plain-text puzzle layouts read and written by the command line.
//!
//! Four layouts are recognised on standard input:
//! - a 9-line block of 9 digits, `0` or `.` blank (Baekjoon 2239), also in groups of three
//!   or drawn as on the forums, with `|` between boxes and border lines between bands;
//! - a 9-line block of 9 space-separated numbers, `0` or `.` blank (Baekjoon 2580);
//! - a 4×4, 16×16 or 25×25 grid a row a line;
//! - one puzzle per line in the string notation (Norvig's and tdoku's files), where
//!   blank lines and `#` comments are skipped, `\r\n` endings are fine, and anything after
//!   the grid (a tab, space, `:`, `,` or `;` and what follows) is ignored; a line that
//!   starts with single symbols separated by spaces (a spaced block joined on one line)
//!   has them for its grid.

use std::borrow::Cow;

use crate::grid::{Grid, GridError, is_border_line, is_layout, is_symbol_of};

/// The layout of a whole input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// N lines of N symbols, written back packed: 9 lines of 9 digits (Baekjoon 2239), read
    /// packed, in groups or drawn with `|`; or a 4×4, 16×16 or 25×25 grid a row a line.
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

/// Lines that look like a block, yet are not one: most likely a typo, which reading the
/// lines as one-line puzzles would hide.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlockError {
    /// N lines make the block of an N×N grid but for one line that is not a row of it.
    #[error(
        "line {line} is not a row of the {size}-line block the other lines make: {reason} \
         ({})",
        row_rule(*size)
    )]
    NotARow {
        /// The line's 1-based number in the input.
        line: usize,
        /// The grid's size: 9, 16 or 25.
        size: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// Every line is a row of a block, but there are not nine of them.
    #[error(
        "{rows} lines that are rows of a 9-line block, which has 9 (each 9 digits, 0 or . \
         for a blank); several puzzles go one per line"
    )]
    RowCount {
        /// The lines, all of them rows.
        rows: usize,
    },
}

/// Content lines enough to tell a block (25 lines at most), a block a few rows off, and a
/// file of puzzles apart: a long file is never read through here.
const LINES_TO_TELL: usize = 25 + 1;

/// What a row of a block of `size` lines (9, 16 or 25) is, for an error.
fn row_rule(size: usize) -> String {
    match size {
        9 => "each row is 9 digits, 0 or . for a blank, packed, spaced or between |".to_owned(),
        _ => {
            let last = char::from(b'A' + (size - 10) as u8);
            format!("each row is {size} symbols, 1-9 and A-{last}, 0 or . for a blank")
        }
    }
}

/// The symbols of a row of a block: its characters but whitespace and `|`.
fn row_symbols(line: &str) -> impl Iterator<Item = char> + '_ {
    line.chars().filter(|&c| !is_layout(c))
}

/// Whether `line` is a row of a `size`×`size` grid: `size` symbols of that grid (blanks
/// `0` or `.`), packed (Baekjoon 2239), space-separated (Baekjoon 2580), in groups, or
/// between `|` as drawn on the forums.
fn is_row(line: &str, size: usize) -> bool {
    row_symbols(line).count() == size && row_symbols(line).all(|c| is_symbol_of(c, size))
}

/// The fields of a row: what whitespace separates, `|` aside.
fn row_fields(line: &str) -> Vec<&str> {
    line.split(is_layout)
        .filter(|field| !field.is_empty())
        .collect()
}

/// Whether the row `line` is written as Baekjoon 2580 writes it: single symbols, spaced.
fn is_spaced_row(line: &str) -> bool {
    is_row(line, 9) && row_fields(line).len() == 9
}

/// What keeps `line` from being a row of a block.
fn row_problem(line: &str) -> String {
    let symbols: Vec<char> = row_symbols(line).collect();
    let fields = row_fields(line);
    let singles = fields.iter().filter(|field| field.len() == 1).count();
    // A number of several digits, in a row whose other fields are single symbols.
    let number = fields
        .iter()
        .find(|field| field.len() > 1 && field.bytes().all(|b| b.is_ascii_digit()));
    if let Some(symbol) = symbols.iter().find(|&&c| !is_symbol_of(c, 9)) {
        format!("{symbol:?} is not a digit in {line:?}")
    } else if let Some(number) = number.filter(|_| fields.len() > 1 && singles + 1 == fields.len())
    {
        format!("{number:?} is not a single digit in {line:?}")
    } else {
        format!("{} digits instead of 9 in {line:?}", symbols.len())
    }
}

/// Tells which layout `input` uses: a 9-line block when it has exactly nine content lines
/// of nine digits or `.` (border lines aside, `|` aside; the block is written back spaced
/// when most of its rows are), a 4×4, 16×16 or 25×25 grid a row a line,
/// otherwise one puzzle per line. Nine lines of which five or more are rows of a block but
/// some are not are a block with a typo, as are 16 or 25 lines most of which are rows of a
/// grid that size; 5 to 18 lines that are all rows of a 9×9 block are a block with rows
/// missing or too many.
pub fn detect(input: &str) -> Result<Layout, BlockError> {
    let lines: Vec<(usize, &str)> = block_lines(input).take(LINES_TO_TELL).collect();
    if is_other_block(&lines)? {
        return Ok(Layout::DigitBlock);
    }
    if lines.len() != 9 {
        let rows = lines.len();
        if (5..=2 * 9).contains(&rows) && lines.iter().all(|(_, line)| is_row(line, 9)) {
            return Err(BlockError::RowCount { rows });
        }
        return Ok(Layout::Lines);
    }
    let rows = lines.iter().filter(|(_, line)| is_row(line, 9)).count();
    let spaced = lines.iter().filter(|(_, line)| is_spaced_row(line)).count();
    let layout = match spaced > rows - spaced {
        true => Layout::SpacedBlock,
        false => Layout::DigitBlock,
    };
    match lines.iter().find(|(_, line)| !is_row(line, 9)) {
        None => Ok(layout),
        Some(&(line, text)) if rows >= 5 => Err(BlockError::NotARow {
            line,
            size: 9,
            reason: row_problem(text),
        }),
        Some(_) => Ok(Layout::Lines),
    }
}

/// Whether `lines` are the rows of a 4×4, 16×16 or 25×25 grid: N lines of N symbols of
/// that grid (whitespace and `|` aside). Sixteen lines of 16 symbols could also be sixteen
/// 4×4 puzzles, so they are a block only when most lines hold a symbol no 4×4 grid has:
/// one typo in a file of 4×4 puzzles does not make it one grid. Sixteen or 25 lines most
/// of which are rows, but some are not, are a block with a typo.
fn is_other_block(lines: &[(usize, &str)]) -> Result<bool, BlockError> {
    let size = lines.len();
    let beyond_4x4 = |line: &str| row_symbols(line).any(|c| !is_symbol_of(c, 4));
    if ![4, 16, 25].contains(&size)
        || (size == 16 && lines.iter().filter(|(_, line)| beyond_4x4(line)).count() <= size / 2)
    {
        return Ok(false);
    }
    let width = |line: &str| row_symbols(line).count();
    let stray = |line: &str| row_symbols(line).find(|&c| !is_symbol_of(c, size));
    let rows = lines.iter().filter(|(_, line)| is_row(line, size)).count();
    match lines.iter().find(|(_, line)| !is_row(line, size)) {
        None => Ok(true),
        // Four lines are too few to tell a grid with a typo from four short puzzles.
        Some(&(line, text)) if size > 4 && rows > size / 2 => Err(BlockError::NotARow {
            line,
            size,
            reason: match stray(text) {
                Some(symbol) => format!("{symbol:?} is not a symbol of the grid in {text:?}"),
                None => format!("{} symbols instead of {size} in {text:?}", width(text)),
            },
        }),
        Some(_) => Ok(false),
    }
}

/// Reads a block (any block layout) as one grid.
pub fn parse_block(input: &str) -> Result<Grid, GridError> {
    let symbols: String = block_lines(input).map(|(_, line)| line).collect();
    Grid::parse_symbols(&symbols)
}

/// Writes `grid` in a block layout, its symbols a row a line; [`Layout::Lines`] gives the
/// one-line string notation.
pub fn format_grid(grid: &Grid, layout: Layout) -> String {
    let symbols = grid.to_symbols();
    let separator = match layout {
        Layout::DigitBlock => "",
        Layout::SpacedBlock => " ",
        Layout::Lines => return symbols,
    };
    let rows: Vec<String> = symbols
        .as_bytes()
        .chunks(grid.size())
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|&b| char::from(b).to_string()).collect();
            cells.join(separator)
        })
        .collect();
    rows.join("\n")
}

/// The puzzles of a line-per-puzzle input, with their 1-based line numbers: the grid field
/// of each line, without what follows it, skipping blank and `#` comment lines; or the
/// symbols of a spaced line.
pub fn puzzle_lines(input: &str) -> impl Iterator<Item = (usize, Cow<'_, str>)> {
    numbered_content_lines(input).map(|(number, line)| {
        let puzzle = match spaced_symbols(line) {
            Some(symbols) => Cow::Owned(symbols),
            None => Cow::Borrowed(
                line.bytes()
                    .position(is_field_separator)
                    .map_or(line, |end| &line[..end]),
            ),
        };
        (number, puzzle)
    })
}

/// The symbols `line` starts with, joined, when it starts with at least four single
/// symbols separated by whitespace: a grid written with spaces (what follows, such as a
/// name, is ignored), not a one-cell grid and its trailing fields.
fn spaced_symbols(line: &str) -> Option<String> {
    // The common line, a packed grid, is told at its second byte.
    if !line.as_bytes().get(1)?.is_ascii_whitespace() {
        return None;
    }
    let symbols: Vec<&str> = line
        .split_whitespace()
        .take_while(|field| field.chars().nth(1).is_none())
        .collect();
    (symbols.len() >= 4).then(|| symbols.concat())
}

/// The content lines that may be rows of a block: a grid's drawing (a border between
/// bands, a spacer) aside.
fn block_lines(input: &str) -> impl Iterator<Item = (usize, &str)> {
    numbered_content_lines(input).filter(|(_, line)| !is_border_line(line))
}

/// Lines that are not blank or a `#` comment, trimmed, with their 1-based line numbers.
pub fn numbered_content_lines(input: &str) -> impl Iterator<Item = (usize, &str)> {
    input
        .lines()
        .map(str::trim)
        .enumerate()
        .map(|(index, line)| (index + 1, line))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_fields_and_comments_are_skipped() {
        let input = "# header\r\n\r\n1.3:2:xyz\r\nab\tname here\r\n---\r\n";
        let puzzles: Vec<_> = puzzle_lines(input).collect();
        // A line of dashes is a puzzle line still, which gets its answer (an error).
        assert_eq!(
            puzzles,
            [(3, "1.3".into()), (4, "ab".into()), (5, "---".into())]
        );
    }

    #[test]
    fn a_line_of_spaced_symbols_is_one_grid() {
        let row = "5 3 . . 7 . . . .";
        let input = format!("{row} {row}\n1 2 3\n1\t2 3 4\n6 x 7 8\n{row}\tname 1 2 3 4\n");
        let puzzles: Vec<_> = puzzle_lines(&input).map(|(_, puzzle)| puzzle).collect();
        assert_eq!(
            puzzles,
            ["53..7....53..7....", "1", "1234", "6x78", "53..7...."]
        );
    }

    #[test]
    fn nine_lines_of_81_symbols_are_lines_not_a_block() {
        let input = format!("{}\n", ".".repeat(81)).repeat(9);
        assert_eq!(detect(&input), Ok(Layout::Lines));
        let block = "000000000\n".repeat(9);
        assert_eq!(detect(&block), Ok(Layout::DigitBlock));
        assert_eq!(
            detect(&"0 0 0 0 0 0 0 0 0\n".repeat(9)),
            Ok(Layout::SpacedBlock)
        );
    }

    #[test]
    fn dots_are_blanks_in_both_blocks() {
        let block = "5.3......\n".repeat(9);
        assert_eq!(detect(&block), Ok(Layout::DigitBlock));
        assert_eq!(
            detect(&"5 . 3 . . . . . .\n".repeat(9)),
            Ok(Layout::SpacedBlock)
        );
        assert_eq!(parse_block(&block).unwrap().get(0, 2), 3);
    }

    #[test]
    fn a_block_with_one_bad_line_names_the_line_and_why() {
        let mut lines = ["000000000"; 9];
        lines[3] = "00000000";
        let input = format!("# a comment\n{}\n", lines.join("\n"));
        let not_a_row = |input: &str| match detect(input) {
            Err(BlockError::NotARow { line, reason, .. }) => (line, reason),
            other => panic!("{other:?}"),
        };
        let (line, reason) = not_a_row(&input);
        // Line 5 of the input: the comment is line 1.
        assert_eq!(line, 5);
        assert!(reason.contains("8 digits"), "{reason}");
        lines[3] = "0000x0000";
        let (line, reason) = not_a_row(&lines.join("\n"));
        assert_eq!(line, 4);
        assert!(reason.contains("'x'"), "{reason}");
        lines[3] = "0 0 0 10 0 0 0 0 0";
        let (_, reason) = not_a_row(&lines.join("\n"));
        assert!(
            reason.starts_with("\"10\" is not a single digit"),
            "{reason}"
        );
    }

    #[test]
    fn a_block_with_rows_missing_or_too_many_says_how_many() {
        let row = "530070000";
        for rows in [5, 8, 10, 18] {
            let input = format!("# a comment\n{}\n", vec![row; rows].join("\n"));
            assert_eq!(detect(&input), Err(BlockError::RowCount { rows }));
        }
        // Too few to look like a block, or too many to be one.
        for rows in [1, 4, 19, 40] {
            assert_eq!(detect(&vec![row; rows].join("\n")), Ok(Layout::Lines));
        }
    }

    #[test]
    fn a_block_drawn_as_on_the_forums_or_in_groups_is_one_block() {
        let drawn = "\
5 3 . | . 7 . | . . .
6 . . | 1 9 5 | . . .
. 9 8 | . . . | . 6 .
------+-------+------
8 . . | . 6 . | . . 3
4 . . | 8 . 3 | . . 1
7 . . | . 2 . | . . 6
------+-------+------
. 6 . | . . . | 2 8 .
. . . | 4 1 9 | . . 5
. . . | . 8 . | . 7 9
";
        let grouped = "\
53. .7. ...
6.. 195 ...
.98 ... .6.

8.. .6. ..3
4.. 8.3 ..1
7.. .2. ..6

.6. ... 28.
... 419 ..5
... .8. .79
";
        let expected = Grid::parse_symbols(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        for (input, layout) in [(drawn, Layout::SpacedBlock), (grouped, Layout::DigitBlock)] {
            assert_eq!(detect(input), Ok(layout), "{input}");
            assert_eq!(parse_block(input), Ok(expected.clone()), "{input}");
        }
        // The boxed style: `| 5 3 . | … |` between `+-------+-------+-------+` lines.
        let boxed: String = drawn
            .lines()
            .map(|line| match line.starts_with('-') {
                true => "+-------+-------+-------+\n".to_owned(),
                false => format!("| {line} |\n"),
            })
            .collect();
        assert_eq!(detect(&boxed), Ok(Layout::SpacedBlock));
        assert_eq!(parse_block(&boxed), Ok(expected.clone()));
        // With spacer lines inside the boxes.
        let spaced = boxed.replace("+\n|", "+\n|       |       |       |\n|");
        assert_eq!(detect(&spaced), Ok(Layout::SpacedBlock), "{spaced}");
        assert_eq!(parse_block(&spaced), Ok(expected));
    }

    #[test]
    fn n_lines_of_n_symbols_are_a_block_of_another_size() {
        let rows = |size: usize, row: &str| vec![row; size].join("\n");
        assert_eq!(detect(&rows(4, "1 . | . 4")), Ok(Layout::DigitBlock));
        assert_eq!(detect(&rows(25, &"P".repeat(25))), Ok(Layout::DigitBlock));
        assert_eq!(
            detect(&rows(16, "..G.A...........")),
            Ok(Layout::DigitBlock)
        );
        // Sixteen 4×4 puzzles, one a line, even with a typo in one.
        assert_eq!(detect(&rows(16, "1...2...3...4...")), Ok(Layout::Lines));
        let typo = format!("1...2...3...5...\n{}", rows(15, "1...2...3...4..."));
        assert_eq!(detect(&typo), Ok(Layout::Lines));
        assert_eq!(detect(&rows(15, "..G.A...........")), Ok(Layout::Lines));
        // One row off in a 16×16 or 25×25 grid is named, not read as sixteen puzzles.
        let typo = format!("{}\n..G.A..........\n", rows(15, "..G.A..........."));
        let error = detect(&typo).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 16 is not a row of the 16-line block the other lines make: 15 symbols \
             instead of 16 in \"..G.A..........\" (each row is 16 symbols, 1-9 and A-G, 0 or \
             . for a blank)"
        );
        let typo = format!("{}\n..G.A.....Z.....\n", rows(15, "..G.A..........."));
        assert!(
            detect(&typo)
                .unwrap_err()
                .to_string()
                .contains("'Z' is not a symbol of the grid"),
        );
        // Twenty-five 4×4 puzzles, named: no 25×25 grid, whatever the names' lengths.
        let named: String = (1..=25)
            .map(|n| format!("1234341221434321\tpuzzle-{n}\n"))
            .collect();
        assert_eq!(detect(&named), Ok(Layout::Lines));
        assert_eq!(detect(&named.replace("e-", "e-0")), Ok(Layout::Lines));
        let typo = format!("{}\n{}", "P".repeat(26), rows(24, &"P".repeat(25)));
        assert!(matches!(
            detect(&typo),
            Err(BlockError::NotARow {
                line: 1,
                size: 25,
                ..
            })
        ));
        let grid = Grid::parse_symbols("1234341221434321").unwrap();
        assert_eq!(
            format_grid(&grid, Layout::DigitBlock),
            "1234\n3412\n2143\n4321"
        );
    }

    #[test]
    fn a_block_may_mix_packed_and_spaced_rows_and_takes_the_layout_most_use() {
        let mut lines = ["1 2 3 4 5 6 7 8 9"; 9];
        lines[8] = "123456789";
        assert_eq!(detect(&lines.join("\n")), Ok(Layout::SpacedBlock));
        let block = lines.join("\n");
        assert_eq!(parse_block(&block).unwrap().get(8, 2), 3);
        let mut lines = ["123456789"; 9];
        lines[0] = "1 2 3 4 5 6 7 8 9";
        assert_eq!(detect(&lines.join("\n")), Ok(Layout::DigitBlock));
    }
}
