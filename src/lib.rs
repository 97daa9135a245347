//! sudoku-service: a fast Sudoku solver as an HTTP microservice and a command line.
//!
//! The pure domain knows nothing of HTTP or terminals, and data flows one way:
//! text or JSON → [`grid::Grid`] → [`solver::solve`] / [`validate::validate`] → answer.
//!
//! - [`grid`]: the `Grid` type for 4×4, 9×9, 16×16 and 25×25, and its two notations.
//! - [`solver`]: options, cancellation, outcomes, and the two search engines (a bitboard
//!   engine for 9×9 and a mask-per-cell engine for every size).
//! - [`validate`]: which digits repeat in which rows, columns and boxes.
//! - [`logic`]: solving as a person does, step by step, and the Sudoku Explainer rating.
//! - [`generate`]: proper puzzles of a symmetry and difficulty band, from a seed.
//! - [`text_format`]: the plain-text layouts of the command line (Baekjoon blocks, one
//!   puzzle per line).
//!
//! The command line and the service sit on top, and the domain knows nothing of them:
//!
//! - [`cli`]: the `solve`, `validate`, `rate`, `explain` and `generate` subcommands; their
//!   `--json` lines are the API's answers, so they borrow those shapes from [`http`].
//! - [`solver_pool`]: CPU-heavy work run under one bound (concurrency, queue, time limit),
//!   cancelled when its caller goes away.
//! - [`http`]: the HTTP/JSON API as an axum `Router`: routes, errors as RFC 9457 problems,
//!   request bodies under the server's limits, metrics, and the middleware around it all.
//! - [`server`]: serving any router on a listener (HTTP/1.1 and HTTP/2) with timeouts and
//!   a connection cap, and draining it on shutdown; it knows nothing of Sudoku.
//! - [`service`]: the two put together under a [`config::ServeConfig`].
//! - [`config`]: the `serve` flags and the environment variables they read.
//! - [`telemetry`]: logging, as text or JSON.
//! - [`healthcheck`]: the `healthcheck` subcommand, the container's probe.

pub mod cli;
pub mod config;
pub mod generate;
pub mod grid;
pub mod healthcheck;
pub mod http;
pub mod logic;
pub mod server;
pub mod service;
pub mod solver;
pub mod solver_pool;
pub mod telemetry;
#[cfg(test)]
mod test_support;
pub mod text_format;
pub mod validate;
