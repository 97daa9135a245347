//! Configuration of the `serve` and `healthcheck` subcommands: flags that also read
//! environment variables, so the same binary is configured the same way on a laptop
//! (`--port 3000`) and in a container (`PORT=3000`).

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::http::Limits;

/// The longest wait queue accepted: far more waiting solves than any client would wait for.
const MAX_QUEUE_LENGTH: i64 = 1_000_000;

/// Where the server listens; `serve` binds it and `healthcheck` probes it.
#[derive(Debug, Clone, Args)]
pub struct ListenArgs {
    /// Address and port to listen on.
    #[arg(long, env = "LISTEN_ADDR", default_value = "0.0.0.0:8080")]
    pub listen_addr: SocketAddr,
    /// Port to listen on; when set, replaces the port of --listen-addr.
    #[arg(long, env = "PORT")]
    pub port: Option<u16>,
}

impl ListenArgs {
    /// The listen address with `--port` applied.
    pub fn addr(&self) -> SocketAddr {
        let mut addr = self.listen_addr;
        if let Some(port) = self.port {
            addr.set_port(port);
        }
        addr
    }
}

/// Flags of `sudoku-service serve`; each one also reads the environment variable it names.
#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// Where to listen.
    #[command(flatten)]
    pub listen: ListenArgs,
    /// Longest a solve may run, in milliseconds; a request's `timeout_ms` can only lower it.
    #[arg(long, env = "SOLVE_TIMEOUT_MS", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub solve_timeout_ms: u64,
    /// Solves that run at once [default: available cores].
    #[arg(long, env = "SOLVER_CONCURRENCY")]
    pub solver_concurrency: Option<NonZeroUsize>,
    /// Threads that serve connections, each with a runtime of its own [default: available
    /// cores]. Solves run on threads of their own, outside this count.
    #[arg(long, env = "CONNECTION_THREADS")]
    pub connection_threads: Option<NonZeroUsize>,
    /// Solve requests that may wait for a free solver; beyond them, 503 `overloaded`.
    #[arg(long, env = "QUEUE_LENGTH", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(0..=MAX_QUEUE_LENGTH))]
    pub queue_length: u32,
    /// Largest request body accepted, in bytes; larger bodies get 413.
    #[arg(long, env = "BODY_LIMIT_BYTES", default_value_t = 65536)]
    pub body_limit_bytes: usize,
    /// Seconds that in-flight requests get to finish after SIGTERM or SIGINT.
    #[arg(long, env = "SHUTDOWN_GRACE_SECS", default_value_t = 10)]
    pub shutdown_grace_secs: u64,
    /// Log format: `text` for people, `json` for log collectors.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Which logs to write, as a tracing filter (`info`, `debug`, `sudoku_service=debug,info`).
    #[arg(long, env = "RUST_LOG", default_value = "info")]
    pub log_filter: String,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

impl ServeConfig {
    /// The limits the HTTP layer enforces.
    pub fn limits(&self) -> Limits {
        Limits {
            solve_timeout: Duration::from_millis(self.solve_timeout_ms),
            solver_concurrency: self.solver_concurrency.unwrap_or_else(available_cores),
            queue_length: self.queue_length as usize,
            body_limit_bytes: self.body_limit_bytes,
        }
    }

    /// How many threads serve connections.
    pub fn connection_threads(&self) -> NonZeroUsize {
        self.connection_threads.unwrap_or_else(available_cores)
    }

    /// How long in-flight requests may take to finish once shutdown starts.
    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_secs(self.shutdown_grace_secs)
    }
}

/// The cores this process may use (one when the platform cannot tell).
fn available_cores() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_replaces_the_port_of_the_listen_address() {
        let listen = ListenArgs {
            listen_addr: "127.0.0.1:8080".parse().unwrap(),
            port: Some(3000),
        };
        assert_eq!(listen.addr(), "127.0.0.1:3000".parse().unwrap());
        let listen = ListenArgs {
            port: None,
            ..listen
        };
        assert_eq!(listen.addr(), "127.0.0.1:8080".parse().unwrap());
    }
}
