//! The `healthcheck` subcommand: one plain HTTP/1.1 GET of `/healthz`.
//!
//! It is the container's HEALTHCHECK, and the runtime image has neither a shell nor curl,
//! so the binary checks itself. A blocking `TcpStream` with short timeouts is all it
//! takes; no async runtime or HTTP client is started for one request.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use clap::Args;
use thiserror::Error;

use crate::config::ListenArgs;

/// How long connecting, sending and reading may each take; an orchestrator runs the check
/// often, and a server that cannot answer this fast is not healthy.
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// Flags of `sudoku-service healthcheck`.
#[derive(Debug, Clone, Args)]
pub struct HealthcheckArgs {
    /// URL to probe; by default `/healthz` on loopback, at the port `serve` listens on.
    #[arg(
        long,
        env = "HEALTHCHECK_URL",
        help = "URL to probe [default: http://127.0.0.1:<port>/healthz, the port as for `serve`]",
        value_parser = probe_url
    )]
    pub url: Option<String>,
    /// The address `serve` listens on, which the default URL points at.
    #[command(flatten)]
    pub listen: ListenArgs,
}

impl HealthcheckArgs {
    /// The URL to probe: `--url`, or `/healthz` on the address `serve` would listen on.
    pub fn url(&self) -> String {
        if let Some(url) = &self.url {
            return url.clone();
        }
        let listen = self.listen.addr();
        // A wildcard address is not one to connect to; its loopback is.
        let ip = match listen.ip() {
            IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
            ip => ip,
        };
        format!("http://{}/healthz", SocketAddr::new(ip, listen.port()))
    }
}

/// `url` when it is one the probe can take, so that a mistyped one is a usage error (exit
/// status 2), which a container runtime's log tells apart from an unhealthy service.
fn probe_url(url: &str) -> Result<String, String> {
    let port_is_number = |authority: &str| {
        authority
            .rsplit_once(':')
            .is_some_and(|(_, port)| port.parse::<u16>().is_ok())
    };
    match split_url(url) {
        Some((authority, _)) if port_is_number(&authority) && !authority.contains(['?', '#']) => {
            Ok(url.to_owned())
        }
        _ => Err("expected http://host[:port][/path]".to_owned()),
    }
}

/// Why the service is not healthy.
#[derive(Debug, Error)]
pub enum HealthcheckError {
    /// The URL is not of the form `http://host[:port][/path]`.
    #[error("unsupported URL {0:?}; expected http://host[:port][/path]")]
    Url(String),
    /// No connection could be made.
    #[error("cannot connect to {authority}")]
    Connect {
        /// The host and port.
        authority: String,
        /// The last connection error.
        source: io::Error,
    },
    /// The request could not be sent or the answer read.
    #[error("no answer from {url}")]
    Exchange {
        /// The URL probed.
        url: String,
        /// What failed.
        source: io::Error,
    },
    /// The server answered, but not with 200.
    #[error("{url} answered {status_line:?}")]
    Status {
        /// The URL probed.
        url: String,
        /// The response's status line.
        status_line: String,
    },
}

/// Checks that `url` answers a GET with status 200 within [`TIMEOUT`] per step.
pub fn check(url: &str) -> Result<(), HealthcheckError> {
    let (authority, path) = split_url(url).ok_or_else(|| HealthcheckError::Url(url.to_owned()))?;
    let mut stream = connect(&authority)?;
    let exchange_error = |source| HealthcheckError::Exchange {
        url: url.to_owned(),
        source,
    };
    stream
        .set_read_timeout(Some(TIMEOUT))
        .map_err(exchange_error)?;
    stream
        .set_write_timeout(Some(TIMEOUT))
        .map_err(exchange_error)?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nUser-Agent: sudoku-service-healthcheck\r\nConnection: close\r\n\r\n"
    )
    .map_err(exchange_error)?;
    let mut status_line = String::new();
    BufReader::new(stream)
        .read_line(&mut status_line)
        .map_err(exchange_error)?;
    let status_line = status_line.trim_end().to_owned();
    // "HTTP/1.1 200 OK": the second word is the status code.
    if status_line.split(' ').nth(1) == Some("200") {
        Ok(())
    } else {
        Err(HealthcheckError::Status {
            url: url.to_owned(),
            status_line,
        })
    }
}

/// Splits `http://host:port/path` into `host:port` (port 80 when absent) and `/path`.
fn split_url(url: &str) -> Option<(String, &str)> {
    let rest = url.strip_prefix("http://")?;
    let (authority, path) = rest.find('/').map_or((rest, "/"), |at| rest.split_at(at));
    if authority.is_empty() {
        return None;
    }
    // An IPv6 literal has colons of its own; only a colon after its `]` starts a port.
    let has_port = authority
        .rfind(':')
        .is_some_and(|colon| !authority[colon..].contains(']'));
    let authority = if has_port {
        authority.to_owned()
    } else {
        format!("{authority}:80")
    };
    Some((authority, path))
}

/// Connects to the first address of `authority` that answers.
fn connect(authority: &str) -> Result<TcpStream, HealthcheckError> {
    let connect_error = |source| HealthcheckError::Connect {
        authority: authority.to_owned(),
        source,
    };
    let mut last_error = io::Error::new(io::ErrorKind::NotFound, "the host has no address");
    for addr in authority.to_socket_addrs().map_err(connect_error)? {
        match TcpStream::connect_timeout(&addr, TIMEOUT) {
            Ok(stream) => return Ok(stream),
            Err(error) => last_error = error,
        }
    }
    Err(connect_error(last_error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split_into_authority_and_path() {
        assert_eq!(
            split_url("http://127.0.0.1:8080/healthz"),
            Some(("127.0.0.1:8080".into(), "/healthz"))
        );
        assert_eq!(
            split_url("http://localhost"),
            Some(("localhost:80".into(), "/"))
        );
        assert_eq!(
            split_url("http://[::1]/healthz"),
            Some(("[::1]:80".into(), "/healthz"))
        );
        assert_eq!(
            split_url("http://[::1]:9000/x"),
            Some(("[::1]:9000".into(), "/x"))
        );
        assert_eq!(split_url("https://example.com/"), None);
        assert_eq!(split_url("http:///healthz"), None);
    }

    #[test]
    fn the_default_url_points_at_the_serve_port_on_loopback() {
        let args = HealthcheckArgs {
            url: None,
            listen: ListenArgs {
                listen_addr: "0.0.0.0:8080".parse().unwrap(),
                port: Some(9000),
            },
        };
        assert_eq!(args.url(), "http://127.0.0.1:9000/healthz");
        let args = HealthcheckArgs {
            listen: ListenArgs {
                listen_addr: "[::]:8080".parse().unwrap(),
                port: None,
            },
            ..args
        };
        assert_eq!(args.url(), "http://[::1]:8080/healthz");
    }
}
