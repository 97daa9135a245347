//! Every way a request can fail, and how each failure is written: an RFC 9457
//! `application/problem+json` body with a stable machine-readable `code`.
//!
//! Handlers, extractors, fallbacks and the panic catcher all end in an [`ApiError`], so no
//! error leaves the server as plain text or an empty body.

use axum::http::header::{ACCEPT_ENCODING, CONNECTION, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use thiserror::Error;

use crate::solver_pool::PoolError;
use sudoku_engine::generate::Order;
use sudoku_engine::grid::GridError;
use sudoku_engine::validate::Conflict;
use sudoku_engine::variant::VariantInputError;

/// The media type of every error body (RFC 9457).
pub const PROBLEM_JSON: &str = "application/problem+json";

/// A failed request; its `Display` is the problem's `detail`.
#[derive(Debug, Error)]
pub enum ApiError {
    /// The body is not JSON at all.
    #[error("{0}")]
    InvalidJson(String),
    /// The body is JSON of the wrong shape: a missing or unknown field, a bad option value.
    #[error("{0}")]
    InvalidRequest(String),
    /// The grid is malformed: its length, a symbol, a value or a row.
    #[error(transparent)]
    InvalidGrid(#[from] GridError),
    /// One of the request's grids is malformed (where a request has two, as `/hint`).
    #[error("in `{field}`: {error}")]
    InvalidGridField {
        /// The request's field that holds the grid.
        field: &'static str,
        /// What is wrong with it.
        error: GridError,
    },
    /// The givens break a rule, so the grid cannot be solved.
    #[error("the givens break the rules in {}; see `conflicts`", places(.0.len()))]
    ConflictingGivens(Vec<Conflict>),
    /// The grid follows the rules but has no solution.
    #[error("the grid has no solution")]
    Unsolvable,
    /// The puzzle has no solution because its givens break a rule (where the contract
    /// says `unsolvable` rather than `conflicting_givens`: `/rate`, `/explain`, `/hint`).
    #[error("the puzzle has no solution: its givens break the rules in {}; see `conflicts`",
        places(.0.len()))]
    UnsolvableGivens(Vec<Conflict>),
    /// The puzzle has more than one solution, so it has no logical path.
    #[error("the puzzle has more than one solution")]
    NotUnique,
    /// Ratings exist for 9×9 puzzles only.
    #[error("ratings exist for 9×9 puzzles only; this one is {size}×{size}")]
    UnsupportedSize {
        /// The puzzle's N.
        size: usize,
    },
    /// No technique applies to the puzzle.
    #[error("no technique applies to this puzzle")]
    BeyondTechniques,
    /// The solver did not finish within the request's time limit.
    #[error(
        "the solver did not finish within {timeout_ms} ms, the lower of the request's \
         `timeout_ms` and the server's limit (`SOLVE_TIMEOUT_MS`){}",
        spent_waiting(*waited_ms)
    )]
    SolveTimeout {
        /// The limit that applied, in milliseconds.
        timeout_ms: u128,
        /// How much of it went waiting for a solver, in milliseconds.
        waited_ms: u128,
    },
    /// Not every puzzle asked for was found within the generation time limit.
    #[error("{}", generate_timeout(*timeout_ms, *waited_ms, *made, *count, order))]
    GenerateTimeout {
        /// The limit that applied, in milliseconds.
        timeout_ms: u128,
        /// How much of it went waiting for a solver, in milliseconds.
        waited_ms: u128,
        /// The puzzles made by then.
        made: usize,
        /// The puzzles asked for.
        count: usize,
        /// What was asked for.
        order: Order,
    },
    /// Every solver is busy and the wait queue is full, or the server holds as many
    /// request bodies as its budget allows.
    #[error("{what}; retry in {retry_after_secs} s")]
    Overloaded {
        /// What is full.
        what: &'static str,
        /// How long the client should wait before retrying.
        retry_after_secs: u64,
    },
    /// The request body is larger than the server accepts.
    #[error("the request body is larger than the limit of {limit} bytes")]
    PayloadTooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A batch line is longer than the body of a single request may be.
    #[error("the line is longer than the limit of {limit} bytes, a single request's body limit")]
    LineTooLong {
        /// The limit, in bytes.
        limit: usize,
    },
    /// A batch has more lines than the server takes in one request.
    #[error("the batch has more than {limit} lines; send the rest in another request")]
    TooManyLines {
        /// The most lines a batch may have.
        limit: usize,
    },
    /// The whole body did not arrive within the time limit for reading it.
    #[error("the request body did not arrive within {} ms", timeout.as_millis())]
    RequestTimeout {
        /// The limit that applied.
        timeout: std::time::Duration,
    },
    /// A batch ran out of its total time limit before this line was answered.
    #[error(
        "the batch's time limit of {} ms ran out before this line was answered; the batch ends with the lines read by then",
        limit.as_millis()
    )]
    BatchTimeout {
        /// The limit that applied.
        limit: std::time::Duration,
    },
    /// A batch body arrived more slowly than the server's minimum rate.
    #[error("the request body arrived more slowly than {bytes_per_sec} bytes/s")]
    BodyTooSlow {
        /// The minimum rate, in bytes per second.
        bytes_per_sec: u32,
    },
    /// The request's headers are larger than the server accepts.
    #[error("the request headers are larger than the limit of {limit} bytes")]
    HeadersTooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The request breaks HTTP's framing rules (a missing or repeated `Host`, say).
    #[error("{0}")]
    BadRequest(String),
    /// The request uses an HTTP feature the server does not implement.
    #[error("{0}")]
    NotImplemented(String),
    /// The request did not say it carries the media type the endpoint reads.
    #[error("expected a body with `Content-Type: {expected}`")]
    UnsupportedMediaType {
        /// The media type the endpoint reads.
        expected: &'static str,
    },
    /// The body is declared in a character set other than UTF-8.
    #[error("`charset={charset}` is not supported; send the body in UTF-8")]
    UnsupportedCharset {
        /// The request's character set.
        charset: String,
    },
    /// The body is encoded (compressed), which the server does not undo.
    #[error("`Content-Encoding: {encoding}` is not supported; send the body uncompressed")]
    UnsupportedEncoding {
        /// The request's content coding.
        encoding: String,
    },
    /// No route has this path.
    #[error("no such endpoint: {path}; {}", match .suggestion {
        Some(route) => format!("did you mean {route}?"),
        None => "/openapi.yaml lists every endpoint".to_owned(),
    })]
    NotFound {
        /// The path that was asked for.
        path: String,
        /// The route it differs from only in case or a trailing `/`, if any.
        suggestion: Option<&'static str>,
    },
    /// The path exists but not for this method.
    #[error("{method} is not allowed on {path}; the Allow header lists what is")]
    MethodNotAllowed {
        /// The method that was used.
        method: Method,
        /// The path that was asked for.
        path: String,
    },
    /// The server is shutting down: `/readyz` asks for no new work.
    #[error("the server is shutting down")]
    Draining,
    /// Variant rules (or a size or regions) with no rating scale: the kinds of them.
    #[error(
        "no rating scale exists for {}: ratings exist for classic 9×9 puzzles and for \
         Sukaku Explainer's variant modes (two diagonals, windoku, disjoint groups, \
         anti-knight, anti-king, non-consecutive, and their combinations)",
        .0.join(", ")
    )]
    NoScale(Vec<&'static str>),
    /// A variant puzzle that cannot be read: its `path` names the bad field.
    #[error("{0}")]
    InvalidPuzzle(#[from] VariantInputError),
    /// A variant puzzle whose rules compile to more than the limit for its size.
    #[error(
        "the puzzle's rules are too many or too large: they compile to more than {limit},          the limit for a {size}×{size} grid (cells read by its checks and entries of their          tables, 200 per cell of the grid)"
    )]
    TooManyRules {
        /// The grid's size.
        size: usize,
        /// The limit for that size.
        limit: usize,
    },
    /// A bug; the cause is logged, never sent.
    #[error("the server hit an unexpected error; it has been logged")]
    Internal {
        /// What went wrong, for the log only.
        cause: String,
    },
}

impl From<PoolError> for ApiError {
    fn from(error: PoolError) -> Self {
        match error {
            PoolError::Overloaded { retry_after } => ApiError::Overloaded {
                what: "every solver is busy and the wait queue is full",
                retry_after_secs: retry_after.as_secs(),
            },
            PoolError::TimedOut { limit, waited } => ApiError::SolveTimeout {
                timeout_ms: limit.as_millis(),
                waited_ms: waited.as_millis(),
            },
            PoolError::Panicked(cause) => ApiError::Internal {
                cause: format!("solver thread failed: {cause}"),
            },
        }
    }
}

/// How much of a time limit went waiting for a solver, when any did: the part of a
/// time-out that says the server was busy, not that the work was too much.
fn spent_waiting(waited_ms: u128) -> String {
    match waited_ms {
        0 => String::new(),
        ms => format!(", {ms} ms of which went waiting for a solver that other requests held"),
    }
}

/// Why a `/generate` asking for `options` ran out of time, and what to change: `made` of
/// `count` puzzles were made within `timeout_ms`, `waited_ms` of which went waiting for a
/// solver.
fn generate_timeout(
    timeout_ms: u128,
    waited_ms: u128,
    made: usize,
    count: usize,
    order: &Order,
) -> String {
    let were = if made == 1 { "was" } else { "were" };
    let outcome = match made {
        0 => format!("no puzzle was found within {timeout_ms} ms"),
        _ => format!("only {made} of {count} puzzles {were} made within {timeout_ms} ms"),
    };
    // Most of the time went waiting: the request is not to blame, the server's load is.
    if waited_ms * 2 >= timeout_ms {
        return format!("{outcome}{}; retry later", spent_waiting(waited_ms));
    }
    if made > 0 {
        return format!("{outcome}; ask for fewer at a time");
    }
    // Only what the request asked for: `minimal` makes a difference with a band alone.
    let banded = order.banded();
    let easier = match order {
        Order::Givens(_) => "widen the band",
        Order::Drawn(_) => "ask for another level",
    };
    let changes = [
        (banded, easier),
        (banded && order.minimal(), "drop `minimal`"),
        (order.symmetric(), "drop the symmetry"),
        (order.capped(), "raise `max_givens`"),
    ];
    let changes: Vec<&str> = changes
        .iter()
        .filter_map(|&(applies, change)| applies.then_some(change))
        .collect();
    let why = if banded {
        "puzzles of a narrow or high band are rare"
    } else {
        "a few seeds take far longer than most"
    };
    let advice = match changes.is_empty() {
        true => "try another seed".to_owned(),
        false => format!("{}, or try another seed", changes.join(", ")),
    };
    format!("{outcome}; {why}, so {advice}")
}

impl ApiError {
    /// The HTTP status, the stable `code` and the short `title` of this kind of problem.
    pub(super) fn classify(&self) -> (StatusCode, &'static str, &'static str) {
        match self {
            Self::InvalidJson(_) => (StatusCode::BAD_REQUEST, "invalid_json", "Invalid JSON"),
            Self::InvalidRequest(_) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_request",
                "Invalid request",
            ),
            Self::InvalidGrid(_) | Self::InvalidGridField { .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_grid",
                "Invalid grid",
            ),
            Self::ConflictingGivens(_) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "conflicting_givens",
                "Conflicting givens",
            ),
            Self::Unsolvable | Self::UnsolvableGivens(_) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsolvable",
                "Unsolvable grid",
            ),
            Self::NoScale(_) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsupported_rules",
                "Unsupported rules",
            ),
            Self::InvalidPuzzle(VariantInputError::UnsupportedConstraint { .. }) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsupported_constraint",
                "Unsupported constraint",
            ),
            Self::InvalidPuzzle(VariantInputError::TooLarge { .. }) => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                "Payload too large",
            ),
            Self::InvalidPuzzle(_) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_puzzle",
                "Invalid puzzle",
            ),
            Self::TooManyRules { .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "too_many_rules",
                "Too many rules",
            ),
            Self::NotUnique => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "not_unique",
                "Several solutions",
            ),
            Self::UnsupportedSize { .. } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "unsupported_size",
                "Unsupported size",
            ),
            Self::BeyondTechniques => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "beyond_techniques",
                "Beyond the techniques",
            ),
            Self::SolveTimeout { .. } | Self::GenerateTimeout { .. } => (
                StatusCode::SERVICE_UNAVAILABLE,
                "solve_timeout",
                "Solve timed out",
            ),
            Self::Overloaded { .. } => {
                (StatusCode::SERVICE_UNAVAILABLE, "overloaded", "Overloaded")
            }
            Self::BatchTimeout { .. } => (
                StatusCode::SERVICE_UNAVAILABLE,
                "batch_timeout",
                "Batch timed out",
            ),
            Self::PayloadTooLarge { .. } | Self::LineTooLong { .. } | Self::TooManyLines { .. } => {
                (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "payload_too_large",
                    "Payload too large",
                )
            }
            Self::RequestTimeout { .. } | Self::BodyTooSlow { .. } => (
                StatusCode::REQUEST_TIMEOUT,
                "request_timeout",
                "Request timeout",
            ),
            Self::HeadersTooLarge { .. } => (
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "headers_too_large",
                "Request headers too large",
            ),
            Self::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request", "Bad request"),
            Self::NotImplemented(_) => (
                StatusCode::NOT_IMPLEMENTED,
                "not_implemented",
                "Not implemented",
            ),
            Self::UnsupportedMediaType { .. }
            | Self::UnsupportedCharset { .. }
            | Self::UnsupportedEncoding { .. } => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "Unsupported media type",
            ),
            Self::NotFound { .. } => (StatusCode::NOT_FOUND, "not_found", "Not found"),
            Self::MethodNotAllowed { .. } => (
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "Method not allowed",
            ),
            Self::Draining => (StatusCode::SERVICE_UNAVAILABLE, "draining", "Draining"),
            Self::Internal { .. } => (
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "Internal error",
            ),
        }
    }
}

/// The body of an error response (RFC 9457 members plus `code` and `conflicts`).
#[derive(Serialize)]
struct ProblemDetails<'a> {
    #[serde(rename = "type")]
    kind: String,
    title: &'static str,
    status: u16,
    detail: String,
    code: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    conflicts: Option<&'a [Conflict]>,
    /// Where in a variant puzzle the bad field is, as a JSON path.
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
}

impl ApiError {
    /// The problem object of this error, its cause logged first when it is a bug.
    fn details(&self) -> ProblemDetails<'_> {
        if let Self::Internal { cause } = self {
            tracing::error!(%cause, "internal error");
        }
        let (status, code, title) = self.classify();
        ProblemDetails {
            // A URN rather than a URL: it names the problem type without promising a page.
            kind: format!("urn:sudoku-service:problem:{code}"),
            title,
            status: status.as_u16(),
            detail: self.to_string(),
            code,
            conflicts: match self {
                Self::ConflictingGivens(conflicts) | Self::UnsolvableGivens(conflicts) => {
                    Some(conflicts)
                }
                _ => None,
            },
            path: match self {
                Self::InvalidPuzzle(error) => Some(error.path()),
                _ => None,
            },
        }
    }

    /// The internal error of a panic with `payload`, in `context` (what panicked).
    pub fn from_panic(context: &str, payload: &(dyn std::any::Any + Send)) -> Self {
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(no message)");
        ApiError::Internal {
            cause: format!("{context} panicked: {message}"),
        }
    }

    /// The problem object of this error as JSON, for a line of a batch's answer.
    pub fn problem_json(&self) -> Vec<u8> {
        serde_json::to_vec(&self.details()).expect("problem objects serialize")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, ..) = self.classify();
        let mut response = (status, axum::Json(self.details())).into_response();
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if let Self::Overloaded {
            retry_after_secs, ..
        } = self
        {
            headers.insert(RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
        // The codings the server reads (RFC 9110, section 15.5.16): none.
        if let Self::UnsupportedEncoding { .. } = self {
            headers.insert(ACCEPT_ENCODING, HeaderValue::from_static("identity"));
        }
        // The connection may hold the rest of a body that was not read: start afresh.
        if matches!(
            self,
            Self::RequestTimeout { .. } | Self::BodyTooSlow { .. } | Self::BadRequest(_)
        ) {
            headers.insert(CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }
}

/// `1 place`, `2 places`.
fn places(count: usize) -> String {
    match count {
        1 => "1 place".to_owned(),
        _ => format!("{count} places"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_engine::generate::drawn::{DrawnKind, DrawnOptions};
    use sudoku_engine::generate::{GenerateOptions, Symmetry};
    use sudoku_engine::logic::Level;

    #[test]
    fn a_generation_out_of_time_says_what_to_change() {
        let options = |level, symmetry, minimal| {
            Order::Givens(GenerateOptions::new(9, level, None, None, symmetry, minimal).unwrap())
        };
        let plain = options(None, Symmetry::None, false);
        let detail = |made, count, options| {
            ApiError::GenerateTimeout {
                timeout_ms: 10_000,
                waited_ms: 4_999,
                made,
                count,
                order: options,
            }
            .to_string()
        };
        assert_eq!(
            detail(30, 100, plain),
            "only 30 of 100 puzzles were made within 10000 ms; ask for fewer at a time"
        );
        assert!(detail(1, 2, plain).starts_with("only 1 of 2 puzzles was made"));
        // Only what the request asked for is named.
        assert_eq!(
            detail(0, 1, plain),
            "no puzzle was found within 10000 ms; a few seeds take far longer than most, so \
             try another seed"
        );
        assert_eq!(
            detail(0, 1, options(None, Symmetry::Central, true)),
            "no puzzle was found within 10000 ms; a few seeds take far longer than most, so \
             drop the symmetry, or try another seed"
        );
        assert_eq!(
            detail(0, 1, options(Some(Level::Extreme), Symmetry::Central, true)),
            "no puzzle was found within 10000 ms; puzzles of a narrow or high band are rare, \
             so widen the band, drop `minimal`, drop the symmetry, or try another seed"
        );
        let capped = DrawnOptions::new(
            DrawnKind::Kropki,
            9,
            Some(Level::Expert),
            Some(0),
            Symmetry::None,
            false,
        );
        assert_eq!(
            detail(0, 1, Order::Drawn(capped.unwrap())),
            "no puzzle was found within 10000 ms; puzzles of a narrow or high band are rare, \
             so ask for another level, raise `max_givens`, or try another seed"
        );
        // Half the time or more went waiting for a solver: nothing to change but the time.
        let waited = ApiError::GenerateTimeout {
            timeout_ms: 10_000,
            waited_ms: 5_000,
            made: 0,
            count: 1,
            order: options(Some(Level::Extreme), Symmetry::Central, true),
        };
        assert_eq!(
            waited.to_string(),
            "no puzzle was found within 10000 ms, 5000 ms of which went waiting for a solver \
             that other requests held; retry later"
        );
    }

    #[test]
    fn internal_errors_keep_their_cause_out_of_the_response() {
        let error = ApiError::Internal {
            cause: "secret database password".into(),
        };
        assert!(!error.to_string().contains("secret"));
        let response = error.into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(response.headers()[CONTENT_TYPE], PROBLEM_JSON);
    }
}
