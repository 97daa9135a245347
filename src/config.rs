//! Configuration of the `serve` and `healthcheck` subcommands: flags that also read
//! environment variables, so the same binary is configured the same way on a laptop
//! (`--port 3000`) and in a container (`PORT=3000`).

use std::net::{SocketAddr, ToSocketAddrs};
use std::num::NonZeroUsize;
use std::time::Duration;

use clap::builder::RangedU64ValueParser;
use clap::{Args, ValueEnum};

use crate::http::Limits;
use crate::server::ServerSettings;

/// The longest wait queue accepted: far more waiting solves than any client would wait for.
const MAX_QUEUE_LENGTH: i64 = 1_000_000;

/// Where the server listens; `serve` binds it and `healthcheck` probes it.
#[derive(Debug, Clone, Args)]
pub struct ListenArgs {
    /// Address and port to listen on: an IP address, or a host name such as `localhost`
    /// (its first address), and a port.
    #[arg(long, env = "LISTEN_ADDR", default_value = "0.0.0.0:8080",
          value_parser = parse_listen_addr)]
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
    /// Longest a solve may run, in milliseconds, waiting for a solver included; a
    /// request's `timeout_ms` can only lower it.
    #[arg(long, env = "SOLVE_TIMEOUT_MS", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub solve_timeout_ms: u64,
    /// Longest a `POST /generate` may run, in milliseconds, waiting for a solver included:
    /// puzzles of a rare band take longer to find than a solve.
    #[arg(long, env = "GENERATE_TIMEOUT_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub generate_timeout_ms: u64,
    /// Solves that run at once: the cores solving may use, at least 1 [default: available
    /// cores].
    #[arg(long, env = "SOLVER_CONCURRENCY", value_parser = parse_at_least_one)]
    pub solver_concurrency: Option<NonZeroUsize>,
    /// Solve requests that may wait for a free solver; beyond them, 503 `overloaded`.
    #[arg(long, env = "QUEUE_LENGTH", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(0..=MAX_QUEUE_LENGTH))]
    pub queue_length: u32,
    /// Largest request body accepted, in bytes; larger bodies get 413.
    #[arg(long, env = "BODY_LIMIT_BYTES", default_value_t = 65536,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub body_limit_bytes: usize,
    /// Request body bytes all requests together may hold in memory, at least
    /// --body-limit-bytes; a body that finds no room within 0.1 s gets 503 `overloaded`.
    #[arg(long, env = "BODY_BUDGET_BYTES", default_value_t = 16 * 1024 * 1024)]
    pub body_budget_bytes: usize,
    /// Largest request head (request line and headers) accepted, in bytes; larger ones
    /// get 431.
    #[arg(long, env = "HEADER_LIMIT_BYTES", default_value_t = 8192,
          value_parser = clap::value_parser!(u32).range(1024..=1_048_576))]
    pub header_limit_bytes: u32,
    /// Connections open at once; more wait in the listen backlog.
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = 2048,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Connections the kernel may hold waiting to be accepted (the listen backlog).
    #[arg(long, env = "LISTEN_BACKLOG", default_value_t = 1024,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub listen_backlog: u32,
    /// Longest wait for a request's complete head, in milliseconds, counted from when the
    /// connection starts waiting for it (on a kept-alive HTTP/1.1 connection: from the
    /// previous answer).
    #[arg(long, env = "HEADER_READ_TIMEOUT_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_read_timeout_ms: u64,
    /// Longest a whole request body may take to arrive, in milliseconds; then 408. A
    /// batch body, read as a stream, gets this long before its minimum rate applies.
    #[arg(long, env = "BODY_READ_TIMEOUT_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub body_read_timeout_ms: u64,
    /// Longest a connection may stay open with no request in flight, in milliseconds; then
    /// it is asked to close, and closed after a write timeout more with none.
    #[arg(long, env = "IDLE_TIMEOUT_MS", default_value_t = 30_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_ms: u64,
    /// Longest a write may wait for a client that does not read its answer (over HTTP/2,
    /// also for a flow-control window), in milliseconds; then the connection is closed.
    #[arg(long, env = "WRITE_TIMEOUT_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub write_timeout_ms: u64,
    /// Largest body of a batch (`POST /solve/batch` and the like), in bytes; a larger
    /// declared length gets 413, and a streamed body ends with a `payload_too_large` line.
    #[arg(long, env = "BATCH_BODY_LIMIT_BYTES", default_value_t = 16 * 1024 * 1024,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub batch_body_limit_bytes: usize,
    /// Most lines a batch may have; the answer ends with a `payload_too_large` line where
    /// a line beyond them starts.
    #[arg(long, env = "BATCH_MAX_LINES", default_value_t = 100_000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub batch_max_lines: u32,
    /// Slowest average rate at which a batch body may arrive, in bytes per second, once
    /// --body-read-timeout-ms has passed (time spent answering does not count); a slower
    /// batch ends with a `request_timeout` line.
    #[arg(long, env = "BATCH_MIN_READ_RATE", default_value_t = 1024,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub batch_min_read_rate: u32,
    /// Longest a whole batch may take, in milliseconds, from when it starts to its last
    /// answer; the lines not answered by then get a `batch_timeout` line, and the answer
    /// ends.
    #[arg(long, env = "BATCH_TIMEOUT_MS", default_value_t = 180_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub batch_timeout_ms: u64,
    /// Seconds the server keeps serving after SIGTERM or SIGINT with `/readyz` at 503, so
    /// load balancers stop sending before the listener closes.
    #[arg(long, env = "DRAIN_DELAY_SECS", default_value_t = 0)]
    pub drain_delay_secs: u64,
    /// Seconds that open requests get to finish once the listener has closed.
    #[arg(long, env = "SHUTDOWN_GRACE_SECS", default_value_t = 5)]
    pub shutdown_grace_secs: u64,
    /// Log format: `text` for people, `json` for log collectors.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Which logs to write, as a tracing filter (`info`, `debug`, `sudoku_service=debug,info`).
    #[arg(long, env = "RUST_LOG", default_value = "info",
          value_parser = crate::telemetry::parse_filter)]
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
    /// Why these flags cannot go together, if they cannot: the budget must hold a batch line
    /// of the largest size (a line counts whole against it, where a body's first 4 KiB do
    /// not), or such a line would get 503 `overloaded` even on an idle server.
    pub fn check(&self) -> Result<(), String> {
        let (budget, limit) = (self.body_budget_bytes, self.body_limit_bytes);
        if budget < limit {
            return Err(format!(
                "--body-budget-bytes (BODY_BUDGET_BYTES) {budget} is below --body-limit-bytes \
                 (BODY_LIMIT_BYTES) {limit}: a batch line of the largest size could never be held; \
                 raise the budget or lower the limit"
            ));
        }
        Ok(())
    }

    /// The limits the HTTP layer enforces.
    pub fn limits(&self) -> Limits {
        Limits {
            solve_timeout: Duration::from_millis(self.solve_timeout_ms),
            generate_timeout: Duration::from_millis(self.generate_timeout_ms),
            solver_concurrency: self.solver_concurrency.unwrap_or_else(available_cores),
            queue_length: self.queue_length as usize,
            body_limit_bytes: self.body_limit_bytes,
            body_read_timeout: Duration::from_millis(self.body_read_timeout_ms),
            body_budget_bytes: self.body_budget_bytes,
            header_limit_bytes: self.header_limit_bytes as usize,
            batch_body_limit_bytes: self.batch_body_limit_bytes,
            batch_max_lines: self.batch_max_lines as usize,
            batch_min_read_rate: self.batch_min_read_rate,
            batch_timeout: Duration::from_millis(self.batch_timeout_ms),
        }
    }

    /// How the server treats connections.
    pub fn server_settings(&self) -> ServerSettings {
        ServerSettings {
            max_connections: self.max_connections as usize,
            header_read_timeout: Duration::from_millis(self.header_read_timeout_ms),
            idle_timeout: Duration::from_millis(self.idle_timeout_ms),
            write_timeout: Duration::from_millis(self.write_timeout_ms),
            header_limit_bytes: self.header_limit_bytes as usize,
            drain_delay: Duration::from_secs(self.drain_delay_secs),
            shutdown_grace: Duration::from_secs(self.shutdown_grace_secs),
        }
    }
}

/// `HOST:PORT` as the address to listen on: an IP address as it is, a name resolved to
/// its first address.
fn parse_listen_addr(text: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    let expected = "expected HOST:PORT, such as 0.0.0.0:8080 or localhost:8080";
    let has_port = text
        .rsplit_once(':')
        .is_some_and(|(_, port)| port.parse::<u16>().is_ok());
    if !has_port {
        return Err(format!("{text} has no port; {expected}"));
    }
    match text.to_socket_addrs() {
        Ok(mut addrs) => addrs
            .next()
            .ok_or_else(|| format!("{text} resolves to no address; {expected}")),
        Err(error) => Err(format!("cannot resolve {text} ({error}); {expected}")),
    }
}

/// A count that must be at least 1.
fn parse_at_least_one(text: &str) -> Result<NonZeroUsize, String> {
    let count: usize = text
        .parse()
        .map_err(|_| format!("expected a whole number of at least 1, not {text:?}"))?;
    NonZeroUsize::new(count).ok_or_else(|| "must be at least 1".to_owned())
}

/// The cores this process may use (one when the platform cannot tell).
fn available_cores() -> NonZeroUsize {
    std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses_may_name_a_host_and_counts_say_what_they_need() {
        assert_eq!(
            parse_listen_addr("127.0.0.1:8090"),
            Ok("127.0.0.1:8090".parse().unwrap())
        );
        let local = parse_listen_addr("localhost:8090").unwrap();
        assert!(local.ip().is_loopback() && local.port() == 8090, "{local}");
        for portless in ["localhost", "127.0.0.1", "[::1]", "localhost:http"] {
            let error = parse_listen_addr(portless).unwrap_err();
            assert!(
                error.starts_with(&format!("{portless} has no port"))
                    && error.contains("HOST:PORT"),
                "{error}"
            );
        }
        assert_eq!(
            parse_at_least_one("0"),
            Err("must be at least 1".to_owned())
        );
        assert_eq!(parse_at_least_one("3"), Ok(NonZeroUsize::new(3).unwrap()));
    }

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
