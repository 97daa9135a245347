//! Variant input: a request's `grid` with `rules` (the native form) or its `fpuzzles`
//! document, read into the engine's rule model, and the variant answers written in the
//! notations of the API.

use serde_json::Value;

use super::dto::GridInput;
use super::problem::ApiError;
use crate::answers::GridOutput;
use sudoku_engine::grid::{is_symbol_of, value_symbol};
use sudoku_engine::variant::{self, Puzzle};

/// The puzzle of a request.
pub(super) enum Input<'a> {
    /// A classic grid, for the classic engines.
    Classic(&'a GridInput),
    /// A variant puzzle; `rows` when its answers use the rows notation.
    Variant {
        /// The puzzle.
        puzzle: Puzzle,
        /// Whether the request's grid came as rows.
        rows: bool,
    },
}

/// Reads the puzzle of a request from its grid (the field named `grid_field`: `grid`, or
/// `puzzle` for a hint), `rules` and `fpuzzles` fields: a grid with no rules (or an empty
/// list) is classic.
pub(super) fn read<'a>(
    grid_field: &str,
    grid: Option<&'a GridInput>,
    rules: Option<&Value>,
    fpuzzles: Option<&Value>,
) -> Result<Input<'a>, ApiError> {
    let invalid = |detail: String| Err(ApiError::InvalidRequest(detail));
    match (grid, rules, fpuzzles) {
        (Some(_), _, Some(_)) => invalid(format!(
            "`{grid_field}` and `fpuzzles` exclude each other: an f-puzzles document brings its own givens"
        )),
        (None, Some(_), Some(_)) => invalid(format!(
            "`rules` go with a `{grid_field}`: an f-puzzles document brings its own constraints"
        )),
        (None, _, None) => invalid(format!("missing field `{grid_field}` (or `fpuzzles`)")),
        (None, None, Some(document)) => Ok(Input::Variant {
            puzzle: read_fpuzzles(document)?,
            rows: false,
        }),
        (Some(grid), None, None) => Ok(Input::Classic(grid)),
        (Some(grid), Some(rules), None) if rules.as_array().is_some_and(Vec::is_empty) => {
            Ok(Input::Classic(grid))
        }
        (Some(grid), Some(rules), None) => Ok(Input::Variant {
            puzzle: read_native(grid, rules)?,
            rows: matches!(grid, GridInput::Rows(_)),
        }),
    }
}

/// A classic grid as a variant puzzle with nothing added, for what only the variant
/// engine answers (true candidates); sizes above 16 are refused.
pub(super) fn classic_as_variant(grid: &GridInput) -> Result<Puzzle, ApiError> {
    read_native(grid, &Value::Array(Vec::new()))
}

/// The f-puzzles document of a request: the object itself, or text (its lz-string, or a
/// link that carries it).
fn read_fpuzzles(document: &Value) -> Result<Puzzle, ApiError> {
    let parsed = match document {
        Value::String(text) => variant::parse_fpuzzles(text),
        Value::Object(_) => variant::parse_fpuzzles_value(document),
        _ => {
            return Err(ApiError::InvalidRequest(
                "`fpuzzles` must be an f-puzzles object, its lz-string text, or a link".into(),
            ));
        }
    };
    parsed.map_err(ApiError::from)
}

/// A grid with native `rules`.
fn read_native(grid: &GridInput, rules: &Value) -> Result<Puzzle, ApiError> {
    variant::parse_native(&symbols(grid), rules).map_err(ApiError::from)
}

/// A grid's symbols: as sent, or its rows written as symbols (`.` for a blank; a number
/// that is no symbol becomes one that the reader names as wrong).
fn symbols(grid: &GridInput) -> String {
    match grid {
        GridInput::Symbols(text) => text.clone(),
        GridInput::Rows(rows) => rows
            .iter()
            .flatten()
            .map(|value| match value {
                None | Some(0) => '.',
                Some(digit @ 1..=35) => value_symbol(*digit as u8),
                Some(_) => '?',
            })
            .collect(),
    }
}

/// The digits of a player's `grid` of a variant puzzle of `size` (row-major, 0 for a
/// blank), as a string or as rows.
pub(super) fn values(grid: &GridInput, size: usize) -> Result<Vec<u8>, ApiError> {
    let symbols: Vec<char> = symbols(grid)
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '|')
        .collect();
    let wrong = |detail: String| ApiError::InvalidRequest(format!("grid: {detail}"));
    if symbols.len() != size * size {
        return Err(wrong(format!(
            "{} cells; the puzzle is {size}×{size}, {} cells",
            symbols.len(),
            size * size
        )));
    }
    symbols
        .iter()
        .enumerate()
        .map(|(index, &symbol)| match symbol {
            '.' | '0' => Ok(0),
            _ if is_symbol_of(symbol, size) => Ok(symbol.to_digit(36).unwrap_or(0) as u8),
            _ => Err(wrong(format!(
                "{symbol:?} at cell {index} is not a digit of a {size}×{size} grid"
            ))),
        })
        .collect()
}

/// The digits of a solution (row-major) in the notation of the request.
pub(super) fn render(digits: &[u8], size: usize, rows: bool) -> GridOutput {
    match rows {
        true => GridOutput::Rows(as_rows(digits, size)),
        false => GridOutput::Symbols(digits.iter().map(|&digit| value_symbol(digit)).collect()),
    }
}

/// Row-major values per cell as rows of cells.
pub(super) fn as_rows<T: Clone>(cells: &[T], size: usize) -> Vec<Vec<T>> {
    cells.chunks(size).map(<[T]>::to_vec).collect()
}
