//! sudoku-service: a fast Sudoku solver as an HTTP microservice and a command line.
//!
//! The pure domain knows nothing of HTTP or terminals, and data flows one way:
//! text or JSON → [`grid::Grid`] → [`solver::solve`] / [`validate::validate`] → answer.
//!
//! - [`grid`]: the `Grid` type for 4×4, 9×9, 16×16 and 25×25, and its two notations.
//! - [`solver`]: options, cancellation, outcomes, and the two search engines (a bitboard
//!   engine for 9×9 and a mask-per-cell engine for every size).
//! - [`validate`]: which digits repeat in which rows, columns and boxes.
//! - [`text_format`]: the plain-text layouts of the command line (Baekjoon blocks, one
//!   puzzle per line).
//! - [`cli`]: the `solve` and `validate` subcommands.

pub mod cli;
pub mod grid;
pub mod solver;
pub mod text_format;
pub mod validate;
