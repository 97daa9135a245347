//! Logging for the server: one `tracing` subscriber, set up once at start, writing text
//! for people or JSON for log collectors. Request spans (with their request id) come from
//! the HTTP middleware; this module only decides where and how events are written.

use std::io::IsTerminal;

use thiserror::Error;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::filter::ParseError;
use tracing_subscriber::util::{SubscriberInitExt, TryInitError};

use crate::config::LogFormat;

/// Why logging could not be set up.
#[derive(Debug, Error)]
pub enum TelemetryError {
    /// The log filter is not a valid `tracing` filter directive.
    #[error("invalid log filter {filter:?}")]
    Filter {
        /// The filter as given.
        filter: String,
        /// What the parser objected to.
        source: ParseError,
    },
    /// A global subscriber was already installed.
    #[error("logging was already set up")]
    AlreadySet(#[from] TryInitError),
}

/// `text` if it is a valid `tracing` filter, or what is wrong with it: the check of
/// `--log-filter` when the command line is read.
pub fn parse_filter(text: &str) -> Result<String, ParseError> {
    EnvFilter::try_new(text).map(|_| text.to_owned())
}

/// Installs the global subscriber: events matching `filter`, written to stdout in `format`.
pub fn init(format: LogFormat, filter: &str) -> Result<(), TelemetryError> {
    let env_filter = EnvFilter::try_new(filter).map_err(|source| TelemetryError::Filter {
        filter: filter.to_owned(),
        source,
    })?;
    let builder = tracing_subscriber::fmt().with_env_filter(env_filter);
    match format {
        // Colours only for a terminal: escape codes would garble a log file.
        LogFormat::Text => builder
            .with_ansi(std::io::stdout().is_terminal())
            .finish()
            .try_init()?,
        // The current span carries the request id, so every line can be joined to its request.
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .finish()
            .try_init()?,
    }
    Ok(())
}
