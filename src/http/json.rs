//! JSON bodies: the extractor, which reads the body under the server's limits (see
//! `body`) and parses it as a JSON object, with every failure an [`ApiError`]; and the
//! response body.

use std::fmt;
use std::marker::PhantomData;

use axum::extract::{FromRequest, Request};
use axum::http::header::{CONTENT_ENCODING, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::AppState;
use super::body::read_whole;
use super::problem::ApiError;

/// The media type of JSON bodies.
const APPLICATION_JSON: &str = "application/json";

/// Room for the API's usual answers (a 9×9 solution and its stats take about 140 bytes),
/// so writing one does not grow the buffer.
pub(super) const RESPONSE_CAPACITY: usize = 256;

/// A JSON body: as an extractor, a request body read into `T`, whose failures answer in
/// the API's error format; as a response, `T` written as `application/json`.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        check_body_request(&request, APPLICATION_JSON)?;
        let limits = state.limits();
        let body = read_whole(
            request,
            state.body_budget(),
            limits.body_limit_bytes,
            limits.body_read_timeout,
        )
        .await?;
        parse(&body.bytes).map(ApiJson)
    }
}

/// 422 when the request has a query string: its fields go in the body, and one sent in
/// the query instead would be ignored without a word. Then [`check_body_headers`].
pub(super) fn check_body_request(
    request: &Request,
    expected: &'static str,
) -> Result<(), ApiError> {
    if let Some(query) = request.uri().query().filter(|query| !query.is_empty()) {
        // Enough to recognise it: the head may be kilobytes long.
        let shown: String = query.chars().take(QUERY_SHOWN).collect();
        let cut = if shown.len() < query.len() { "..." } else { "" };
        return Err(ApiError::InvalidRequest(format!(
            "the query string `?{shown}{cut}` is not read: send the request's fields in its \
             JSON body (/openapi.yaml lists them)"
        )));
    }
    check_body_headers(request.headers(), expected)
}

/// The characters of a refused query string that its error repeats.
const QUERY_SHOWN: usize = 60;

/// 415 unless the request's `Content-Type` is `expected` (in any case, with or without
/// parameters, but with no `charset` other than UTF-8) and its body is not encoded. Only
/// the exact type: `+json` types such as `application/problem+json` name other formats,
/// and the API reads none of them; a compressed body would only fail as JSON that is not.
fn check_body_headers(headers: &HeaderMap, expected: &'static str) -> Result<(), ApiError> {
    let content_type = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    let mut parts = content_type.unwrap_or_default().split(';');
    let declared = parts
        .next()
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(expected));
    if !declared {
        return Err(ApiError::UnsupportedMediaType { expected });
    }
    // JSON is UTF-8 (RFC 8259); ASCII is a part of it. `utf8` is a name of UTF-8 too
    // (the WHATWG Encoding Standard's labels), common in the wild.
    let charset = parts
        .filter_map(|parameter| parameter.split_once('='))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("charset"))
        .map(|(_, value)| value.trim().trim_matches('"'));
    if let Some(charset) = charset.filter(|charset| {
        !["utf-8", "utf8", "us-ascii"]
            .iter()
            .any(|ok| charset.eq_ignore_ascii_case(ok))
    }) {
        return Err(ApiError::UnsupportedCharset {
            charset: charset.to_owned(),
        });
    }
    let encoding = headers
        .get_all(CONTENT_ENCODING)
        .iter()
        .flat_map(|value| value.to_str().unwrap_or("?").split(','))
        .map(str::trim)
        .find(|coding| !coding.is_empty() && !coding.eq_ignore_ascii_case("identity"));
    match encoding {
        Some(encoding) => Err(ApiError::UnsupportedEncoding {
            encoding: encoding.to_owned(),
        }),
        None => Ok(()),
    }
}

/// `bytes` as a JSON object of type `T`: 400 `invalid_json` when it is not JSON, 422
/// `invalid_request` (naming the field) when it is JSON of the wrong shape.
pub(super) fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    parse_at(bytes, Position::LineAndColumn)
}

/// A batch line as a JSON object of type `T`, read as [`parse`] reads a body; the
/// position of an error is given as a column alone, since the answer's `line` says which
/// line it is. The problem with a line that looks like part of a whole batch sent another
/// way says so (see [`batch_shape_hint`]).
pub(super) fn parse_line<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    parse_at(bytes, Position::Column).map_err(|error| match (error, batch_shape_hint(bytes)) {
        (ApiError::InvalidJson(detail), Some(hint)) => {
            ApiError::InvalidJson(format!("{detail}: {hint}"))
        }
        (ApiError::InvalidRequest(detail), Some(hint)) => {
            ApiError::InvalidRequest(format!("{detail}: {hint}"))
        }
        (error, _) => error,
    })
}

/// What a batch line that failed to parse looks like it came from: a batch sent as a JSON
/// array (a line that opens or closes one, or ends with a `,`), one whose line ends were
/// taken out (objects back to back, as `curl -d` sends a file), or a file of puzzles sent
/// as it is (a line that is no object at all).
fn batch_shape_hint(bytes: &[u8]) -> Option<&'static str> {
    let line = bytes.trim_ascii();
    let joined =
        line.windows(2).any(|pair| pair == b"}{") || line.windows(3).any(|triple| triple == b"} {");
    if line.starts_with(b"[") || line.ends_with(b",") || line.ends_with(b"]") {
        Some("a batch is one JSON object per line, not an array")
    } else if joined {
        Some(
            "a batch line is one JSON object; were its line ends taken out? (`curl -d` takes \
             them out, `curl --data-binary` keeps them)",
        )
    } else if !line.starts_with(b"{") {
        Some(
            "a batch line is a JSON object such as {\"grid\": \"53..7....\"}; `jq -Rc \
             '{grid: .}' puzzles.txt` makes a batch of a file of puzzles, one per line",
        )
    } else {
        None
    }
}

/// How the position of an error is written.
#[derive(Clone, Copy)]
enum Position {
    /// `at line 2 column 5`, in a body.
    LineAndColumn,
    /// `at column 5`, in a batch line.
    Column,
}

/// [`parse`], with the position of an error written as `position` says.
fn parse_at<T: DeserializeOwned>(bytes: &[u8], position: Position) -> Result<T, ApiError> {
    // A byte-order mark, which editors on some systems write, is not JSON but means no
    // harm: RFC 8259 lets a parser ignore it.
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    // Nearly every body is well formed: read it as it is, and only a failing one again
    // with its path tracked, to name where it fails.
    if let Ok(Object(value)) = serde_json::from_slice(bytes) {
        return Ok(value);
    }
    let mut json = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize(&mut json) {
        // Anything but whitespace after the object is a syntax error.
        Ok(Object(value)) => json
            .end()
            .map(|()| value)
            .map_err(|error| ApiError::InvalidJson(describe(&error, position))),
        Err(error) => {
            let path = error.path().to_string();
            let inner = error.into_inner();
            let reason = describe(&inner, position);
            // `.` is the whole body, `?` a place the parser could not tell; an unknown
            // field's path is the field, which the reason names already.
            let message = if path == "." || path == "?" || reason.starts_with("unknown field") {
                reason
            } else {
                format!("{path}: {reason}")
            };
            if inner.classify() != serde_json::error::Category::Data {
                return Err(ApiError::InvalidJson(message));
            }
            // The shape fails before the syntax would (`[`, `{"grid":5,`): a body that is
            // not JSON at all says so first.
            match serde_json::from_slice::<IgnoredAny>(bytes) {
                Ok(_) => Err(ApiError::InvalidRequest(message)),
                Err(syntax) => Err(ApiError::InvalidJson(describe(&syntax, position))),
            }
        }
    }
}

/// What serde's messages expect, by the Rust types that hold the request's numbers and by
/// the parser's own terms, and the same in a client's words.
const PLAIN_WORDS: [(&str, &str); 6] = [
    (
        "expected a nonzero u64",
        "expected a whole number of 1 or more",
    ),
    ("expected u64", "expected a whole number of 0 or more"),
    ("expected usize", "expected a whole number of 0 or more"),
    (
        "expected i64",
        "expected a digit of the grid (a whole number, 0 or null for a blank)",
    ),
    ("expected f64", "expected a number"),
    (
        "expected ident",
        "expected JSON (a word outside quotes can only be true, false or null)",
    ),
];

/// serde_json's `error` in a client's words: a Rust type it expects (always last, after
/// any text the client sent) in plain words, and its position written as `position` says.
/// serde_json gives the column of the last character it read: 0 when it read none on that
/// line, where the character at fault is in column 1.
fn describe(error: &serde_json::Error, position: Position) -> String {
    let text = error.to_string();
    let (line, column) = (error.line(), error.column().max(1));
    let suffix = format!(" at line {line} column {}", error.column());
    let Some(reason) = text.strip_suffix(&suffix) else {
        // No position: serde_json's message for an error it cannot place.
        return text;
    };
    let reason = PLAIN_WORDS
        .iter()
        .find_map(|(rust, plain)| Some(format!("{}{plain}", reason.strip_suffix(rust)?)))
        .unwrap_or_else(|| reason.to_owned());
    match position {
        Position::LineAndColumn => format!("{reason} at line {line} column {column}"),
        Position::Column => format!("{reason} at column {column}"),
    }
}

/// `value` written as JSON; a value that cannot be is a bug.
pub(super) fn to_json<T: Serialize>(value: &T) -> Result<Vec<u8>, ApiError> {
    let mut body = Vec::with_capacity(RESPONSE_CAPACITY);
    write_json(&mut body, value)?;
    Ok(body)
}

/// Appends `value` as JSON to `out`; a value that cannot be written is a bug, and what
/// was appended of it is left for the caller to take back.
pub(super) fn write_json<T: Serialize>(out: &mut Vec<u8>, value: &T) -> Result<(), ApiError> {
    serde_json::to_writer(out, value).map_err(|error| ApiError::Internal {
        cause: format!("could not write the answer as JSON: {error}"),
    })
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        match to_json(&self.0) {
            Ok(body) => (
                [(CONTENT_TYPE, HeaderValue::from_static(APPLICATION_JSON))],
                body,
            )
                .into_response(),
            Err(error) => error.into_response(),
        }
    }
}

/// `T` read from a JSON object only. serde's derived structs also accept an array of
/// their fields in order, which would make `["53..7…"]` a valid solve request.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = Object<T>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(Object)
    }
}
