//! The JSON shapes of requests and responses, and the two grid notations: a grid comes in
//! as a string or as rows, and its answer goes out in the same notation.

use std::fmt;
use std::num::NonZeroU64;

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::answers::GridOutput;
use sudoku_engine::grid::{Grid, GridError};
use sudoku_engine::solver::Order;
use sudoku_engine::validate::Validation;
use sudoku_engine::variant::Broken;

/// A grid as a request gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GridInput {
    /// N² symbols, `0` or `.` blank, whitespace ignored.
    Symbols(String),
    /// N rows of N numbers, `0` or `null` blank.
    Rows(Vec<Vec<Option<i64>>>),
}

impl GridInput {
    /// Reads the grid, checking its shape and values (not the rules).
    pub fn parse(&self) -> Result<Grid, GridError> {
        match self {
            Self::Symbols(text) => Grid::parse_symbols(text),
            Self::Rows(rows) => Grid::from_rows(rows),
        }
    }

    /// Writes `grid` in the notation this input used.
    pub fn render(&self, grid: &Grid) -> GridOutput {
        match self {
            Self::Symbols(_) => GridOutput::Symbols(grid.to_symbols()),
            Self::Rows(_) => GridOutput::Rows(grid.to_rows()),
        }
    }
}

impl<'de> Deserialize<'de> for GridInput {
    /// Tells the notations apart by JSON type, so a wrong type gets an error that names both
    /// (serde's untagged enums only say that no variant matched).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(GridVisitor)
    }
}

struct GridVisitor;

impl<'de> Visitor<'de> for GridVisitor {
    type Value = GridInput;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a grid: a string of N² symbols, or an array of N rows of N numbers")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<GridInput, E> {
        Ok(GridInput::Symbols(text.to_owned()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<GridInput, A::Error> {
        let mut rows = Vec::new();
        while let Some(Row(row)) = seq.next_element()? {
            rows.push(row);
        }
        Ok(GridInput::Rows(rows))
    }
}

/// A row of the rows notation, a type of its own so that a row of another type (a string,
/// as people write rows) is told what a row is.
struct Row(Vec<Option<i64>>);

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RowVisitor)
    }
}

struct RowVisitor;

impl<'de> Visitor<'de> for RowVisitor {
    type Value = Row;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(
            "a row: an array of N numbers, 0 or null for a blank (rows written as strings go \
             joined, as one string)",
        )
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Row, A::Error> {
        Vec::deserialize(de::value::SeqAccessDeserializer::new(seq)).map(Row)
    }
}

/// Which solution to return, as the API spells it: a string, nothing else.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OrderChoice {
    /// Whichever solution the solver meets first.
    #[default]
    Fastest,
    /// The smallest solution read row by row.
    Lexicographic,
}

impl<'de> Deserialize<'de> for OrderChoice {
    /// Only the names as strings: serde's derived enums also take `{"fastest": null}`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        const NAMES: &[&str] = &["fastest", "lexicographic"];
        match String::deserialize(deserializer)?.as_str() {
            "fastest" => Ok(OrderChoice::Fastest),
            "lexicographic" => Ok(OrderChoice::Lexicographic),
            other => Err(de::Error::unknown_variant(other, NAMES)),
        }
    }
}

impl From<OrderChoice> for Order {
    fn from(choice: OrderChoice) -> Order {
        match choice {
            OrderChoice::Fastest => Order::Fastest,
            OrderChoice::Lexicographic => Order::Lexicographic,
        }
    }
}

/// The body of `POST /solve`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The givens of a classic grid, with or without `rules`.
    pub grid: Option<GridInput>,
    /// Variant constraints, in the native form.
    pub rules: Option<serde_json::Value>,
    /// An f-puzzles document (the object, its lz-string text, or a link), which brings its
    /// own givens.
    pub fpuzzles: Option<serde_json::Value>,
    /// Also decide whether the solution is the only one.
    #[serde(default)]
    pub unique: bool,
    /// Which solution to return when there are several.
    #[serde(default)]
    pub order: OrderChoice,
    /// A time limit below the server's, in milliseconds.
    pub timeout_ms: Option<NonZeroU64>,
    /// Count solutions up to this many (2 to 10,000).
    pub max_solutions: Option<u64>,
    /// Also give the digits each cell holds in some solution.
    #[serde(default)]
    pub true_candidates: bool,
    /// With `true_candidates`, count the solutions of each candidate up to this many (1 to
    /// 100).
    pub max_solutions_per_candidate: Option<u32>,
}

/// The body of `POST /validate`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidateRequest {
    /// The grid to check (blanks are allowed), with or without `rules`.
    pub grid: Option<GridInput>,
    /// Variant constraints, in the native form.
    pub rules: Option<serde_json::Value>,
    /// An f-puzzles document, which brings its own givens.
    pub fpuzzles: Option<serde_json::Value>,
    /// Also run the solver and report `solvable` and `unique`.
    #[serde(default)]
    pub solvable: bool,
}

/// The answer of `POST /solve`.
#[derive(Debug, Serialize)]
pub struct SolveResponse {
    /// The solution, in the request's notation.
    pub solution: GridOutput,
    /// Whether the solution is the only one; present only when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    /// Solutions counted, at most `max_solutions`; present only when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution_count: Option<u64>,
    /// Whether `solution_count` is every solution (false when it stopped at
    /// `max_solutions` or at the time limit); present with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution_count_exact: Option<bool>,
    /// Rows of cells, each the sorted digits it holds in some solution; present only when
    /// asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub true_candidates: Option<Vec<Vec<Vec<u8>>>>,
    /// Rows of cells, each how many solutions (up to `max_solutions_per_candidate`) put
    /// each of its true candidates there, in their order; present when that is above 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub true_candidate_counts: Option<Vec<Vec<Vec<u32>>>>,
    /// What the solve cost.
    pub stats: SolveStats,
}

/// What a solve cost.
#[derive(Debug, Serialize)]
pub struct SolveStats {
    /// Time spent in the solver, in microseconds.
    pub elapsed_us: u128,
    /// Branches taken on values that propagation could not deduce.
    pub guesses: u64,
}

/// The answer of `POST /validate`.
#[derive(Debug, Serialize)]
pub struct ValidateResponse {
    /// The verdict on the rules.
    #[serde(flatten)]
    pub verdict: Validation,
    /// Whether a solution exists; present only when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solvable: Option<bool>,
    /// Whether exactly one solution exists; present only when `solvable` was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unique: Option<bool>,
    /// Every rule the grid breaks, houses included (variant input only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broken: Option<Vec<Broken>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notation_is_told_by_json_type() {
        let text: GridInput = serde_json::from_str(r#""1234""#).unwrap();
        assert_eq!(text, GridInput::Symbols("1234".into()));
        let rows: GridInput = serde_json::from_str("[[1, null], [0, 2]]").unwrap();
        assert_eq!(
            rows,
            GridInput::Rows(vec![vec![Some(1), None], vec![Some(0), Some(2)]])
        );
        let error = serde_json::from_str::<GridInput>("5").unwrap_err();
        assert!(
            error.to_string().contains("a string of N² symbols"),
            "{error}"
        );
    }
}
