//! sudoku-service: the Sudoku engine ([`sudoku_engine`]) as an HTTP microservice and a
//! command line.
//!
//! The engine knows nothing of HTTP or terminals; this crate sits on top, and data flows
//! one way: a request or a file → the engine → an answer.
//!
//! - [`cli`]: the `solve`, `validate`, `rate`, `explain` and `generate` subcommands.
//! - [`answers`]: the JSON shapes of answers, which the API and the command line's
//!   `--json` lines both write.
//! - [`solver_pool`]: CPU-heavy work run under one bound (concurrency, queue, time limit),
//!   quick work first, cancelled when its caller goes away.
//! - [`http`]: the HTTP/JSON API as an axum `Router`: routes, errors as RFC 9457 problems,
//!   request bodies under the server's limits, metrics, and the middleware around it all.
//! - [`server`]: serving any router on a listener (HTTP/1.1 and HTTP/2) with timeouts and
//!   a connection cap, and draining it on shutdown; it knows nothing of Sudoku.
//! - [`service`]: the two put together under a [`config::ServeConfig`].
//! - [`config`]: the `serve` flags and the environment variables they read.
//! - [`telemetry`]: logging, as text or JSON.
//! - [`healthcheck`]: the `healthcheck` subcommand, the container's probe.

pub mod answers;
pub mod cli;
pub mod config;
pub mod healthcheck;
pub mod http;
pub mod server;
pub mod service;
pub mod solver_pool;
pub mod telemetry;
#[cfg(test)]
mod test_support;
