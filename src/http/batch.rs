//! Batches: `POST /solve/batch`, `/validate/batch`, `/rate/batch` and `/explain/batch`.
//!
//! The body is NDJSON, one request per line, each the body its single endpoint takes. The
//! answer is NDJSON too: one line per input line, in input order, each the single
//! endpoint's answer or its problem object, with the input's 1-based `line` first.
//!
//! The body is read as a stream, one line at a time (a line may be as long as a single
//! request's body, and every line held counts against the server's body budget), so
//! memory follows the work in flight, not the batch's size.
//! The lines that have arrived together are answered in groups (see [`LineWork`]), one
//! task per group, through the same solver pool as single requests, at most [`window`]
//! groups at once; answers go out in input order as soon as every line before theirs is
//! answered. Within a group, the answers found at once are sent together, and a line that
//! outlasts its quick attempt first sends the answers before it, so no answer waits for
//! the rest of its group. When the answer is dropped (the client went away), the tasks of
//! the groups left are aborted, which stops their solves.
//!
//! A batch has a total time limit: once it runs out, every line read and not answered
//! gets a `batch_timeout` problem, the rest of the body is left unread (one more
//! `batch_timeout` line, numbered as the next line, says so), and the answer ends.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, post};
use futures_util::stream::FusedStream;
use futures_util::{FutureExt, StreamExt};
use http_body::Body as _;
use http_body_util::BodyExt;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::task::AbortOnDropHandle;

use super::body::{BodyBudget, BufferedBody, declared_length, read_error};
use super::json::{RESPONSE_CAPACITY, check_body_request, parse_line, write_json};
use super::problem::ApiError;
use super::{AppState, Limits};

/// The media type of batch bodies and their answers.
const APPLICATION_NDJSON: &str = "application/x-ndjson";

/// How long the lines of a batch endpoint take, which sets how many one task answers.
#[derive(Debug, Clone, Copy)]
pub enum LineWork {
    /// Microseconds (a solve, a check): the lines of one read from the connection, up to
    /// 256 (more 9×9 lines than 16 KiB holds), are one group, one task and, unless a line
    /// has to wait, one write. Smaller groups cost more in thread wake-ups and system
    /// calls than a line's work, and the next reads' groups spread over the solvers
    /// anyway.
    Light,
    /// Milliseconds and more (a rating, an explanation): a task per line, so that the lines
    /// of one read spread over every solver.
    Heavy,
}

impl LineWork {
    /// The most lines one task answers.
    fn group(self) -> usize {
        match self {
            LineWork::Light => 256,
            LineWork::Heavy => 1,
        }
    }
}

/// The route of a batch endpoint whose lines are answered by `answer`, the work of the
/// single endpoint without its HTTP, which takes about as long as `work` says.
pub fn route<Req, Resp, F, Fut>(answer: F, work: LineWork) -> MethodRouter<AppState>
where
    Req: DeserializeOwned + Send + 'static,
    Resp: Serialize + Send + 'static,
    F: Fn(AppState, Req) -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<Resp, ApiError>> + Send + 'static,
{
    post(move |State(state): State<AppState>, request: Request| {
        answer_batch(state, request, answer, work)
    })
}

/// Groups of lines answered at once by one batch: up to twice the solvers, so they stay
/// busy while an answer waits for a slower group before it, but never more than the pool
/// admits, so a batch alone never gets `overloaded` lines.
fn window(limits: &Limits) -> usize {
    let solvers = limits.solver_concurrency.get();
    solvers + solvers.min(limits.queue_length)
}

/// The streamed answer to the batch of `request`; 422 (a query string), 415 and 413 (a
/// declared length over the batch limit) before any line is read, so before a `100
/// Continue`.
async fn answer_batch<Req, Resp, F, Fut>(
    state: AppState,
    request: Request,
    answer: F,
    work: LineWork,
) -> Result<Response, ApiError>
where
    Req: DeserializeOwned + Send + 'static,
    Resp: Serialize + Send + 'static,
    F: Fn(AppState, Req) -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<Resp, ApiError>> + Send + 'static,
{
    check_body_request(&request, APPLICATION_NDJSON)?;
    let limits = *state.limits();
    declared_length(&request, limits.batch_body_limit_bytes)?;
    let deadline = Deadline::after(limits.batch_timeout);
    let body_budget = state.body_budget().clone();
    let mut reader = LineReader::new(request.into_body(), body_budget, &limits, deadline);
    // The answer starts once the first line has arrived: hyper sends `100 Continue` when the
    // body is first read, and a client that waits for it (curl does, for large bodies)
    // would take a final status sent before it as the end of the exchange.
    let first = reader.next_line().await;
    let rest = futures_util::stream::unfold(reader, |mut reader| async move {
        let line = reader.next_line().await?;
        Some((line, reader))
    });
    let lines = futures_util::stream::iter(first).chain(rest);
    // The lines that have arrived together are answered in groups, one task each, which
    // sends its answers in pieces; the pieces of each group are read in turn.
    let groups = lines.ready_chunks(work.group()).map(move |group| {
        let (pieces, received) = mpsc::unbounded_channel();
        let task = tokio::spawn(answer_group(state.clone(), group, answer, deadline, pieces));
        Box::pin(group_answers(received, AbortOnDropHandle::new(task)))
    });
    let answers = in_order(Box::pin(groups), window(&limits));
    Ok((
        [(CONTENT_TYPE, HeaderValue::from_static(APPLICATION_NDJSON))],
        Body::from_stream(answers),
    )
        .into_response())
}

/// The end of a batch's time: when it is, and the limit it came from.
#[derive(Debug, Clone, Copy)]
struct Deadline {
    at: Instant,
    limit: Duration,
}

impl Deadline {
    fn after(limit: Duration) -> Self {
        Deadline {
            at: Instant::now() + limit,
            limit,
        }
    }

    /// The problem of a line that the deadline left unanswered.
    fn problem(self) -> ApiError {
        ApiError::BatchTimeout { limit: self.limit }
    }
}

/// The pieces of `groups` (each a stream of pieces) one group after the other, with up to
/// `window` groups taken at once: unlike `flatten`, it goes on taking groups (whose tasks
/// then start) while it waits for a piece of the first.
fn in_order<S, G>(groups: S, window: usize) -> impl futures_util::Stream<Item = G::Item>
where
    S: futures_util::Stream<Item = G> + Unpin,
    G: futures_util::Stream + Unpin,
{
    let mut groups = groups.fuse();
    let mut open = VecDeque::with_capacity(window);
    futures_util::stream::poll_fn(move |cx| {
        loop {
            while open.len() < window && !groups.is_terminated() {
                match groups.poll_next_unpin(cx) {
                    Poll::Ready(Some(group)) => open.push_back(group),
                    _ => break,
                }
            }
            let Some(first) = open.front_mut() else {
                return match groups.is_terminated() {
                    true => Poll::Ready(None),
                    false => Poll::Pending,
                };
            };
            match first.poll_next_unpin(cx) {
                Poll::Ready(None) => {
                    open.pop_front();
                }
                piece => return piece,
            }
        }
    })
}

/// The pieces of answer that the task of a group sends, in order; aborts the task when
/// dropped.
fn group_answers(
    received: mpsc::UnboundedReceiver<Bytes>,
    task: AbortOnDropHandle<()>,
) -> impl futures_util::Stream<Item = Result<Bytes, Infallible>> {
    futures_util::stream::unfold((received, task), |(mut received, task)| async move {
        let piece = received.recv().await?;
        Some((Ok(piece), (received, task)))
    })
}

/// Answers `group`, one numbered line each, in order, and sends the answers to `pieces`:
/// those found at once together, and those before a line that has to wait (for a solver,
/// or on a blocking thread) before it waits. A line still unanswered at `deadline` gets
/// its problem, and so do the lines after it.
async fn answer_group<Req, Resp, F, Fut>(
    state: AppState,
    group: Vec<Line>,
    answer: F,
    deadline: Deadline,
    pieces: mpsc::UnboundedSender<Bytes>,
) where
    Req: DeserializeOwned,
    Resp: Serialize,
    F: Fn(AppState, Req) -> Fut,
    Fut: Future<Output = Result<Resp, ApiError>>,
{
    let mut answers = Vec::with_capacity(group.len() * RESPONSE_CAPACITY);
    let mut timed_out = false;
    for (number, line) in group {
        let answered = match line.and_then(|line| parse_line::<Req>(&line.bytes)) {
            Ok(_) if timed_out => Err(deadline.problem()),
            Ok(request) => {
                let answering = answer(state.clone(), request);
                let answered = answer_line(answering, &mut answers, &pieces, deadline).await;
                timed_out = answered.is_none();
                answered.unwrap_or_else(|| Err(deadline.problem()))
            }
            Err(error) => Err(error),
        };
        push_numbered(&mut answers, number, |out| write_answer(out, answered));
    }
    // The receiver is gone only when the batch's answer is.
    let _ = pieces.send(Bytes::from(answers));
}

/// The outcome of `answering`, a line's answer: at once if it can, or else once the
/// `answers` before it have been sent to `pieces`; `None` when `deadline` came first. A
/// panic is that line's problem alone.
async fn answer_line<Resp>(
    answering: impl Future<Output = Result<Resp, ApiError>>,
    answers: &mut Vec<u8>,
    pieces: &mpsc::UnboundedSender<Bytes>,
    deadline: Deadline,
) -> Option<Result<Resp, ApiError>> {
    let mut answering = pin!(AssertUnwindSafe(answering).catch_unwind());
    let answered = match answering.as_mut().now_or_never() {
        Some(answered) => answered,
        None => {
            if !answers.is_empty() {
                let _ = pieces.send(Bytes::from(std::mem::take(answers)));
            }
            tokio::time::timeout_at(deadline.at, answering).await.ok()?
        }
    };
    Some(answered.unwrap_or_else(|panic| Err(ApiError::from_panic("a batch line", &*panic))))
}

/// Appends `answered` as JSON to `out`: the answer, or the problem it is.
fn write_answer<Resp: Serialize>(out: &mut Vec<u8>, answered: Result<Resp, ApiError>) {
    let start = out.len();
    if let Err(error) = answered.and_then(|response| write_json(out, &response)) {
        out.truncate(start);
        out.extend_from_slice(&error.problem_json());
    }
}

/// Appends the JSON object that `write_object` appends to `out`, with `"line": number` as
/// its first member, and a newline. The object is written in place, not copied.
fn push_numbered(out: &mut Vec<u8>, number: usize, write_object: impl FnOnce(&mut Vec<u8>)) {
    write!(out, "{{\"line\":{number}").expect("writing to a Vec cannot fail");
    let object = out.len();
    write_object(out);
    // `{"a":1}` joins as `,"a":1}`; `{}` (or nothing) adds only a `}`.
    if out.len() > object + 2 {
        out[object] = b',';
    } else {
        out.truncate(object);
        out.push(b'}');
    }
    out.push(b'\n');
}

/// A line of the batch: its 1-based number, and its bytes or the problem it is.
type Line = (usize, Result<BufferedBody, ApiError>);

/// Splits a streamed body into lines, under the batch's limits.
struct LineReader {
    body: Body,
    budget: BodyBudget,
    /// The part of the last frame not split into lines yet.
    pending: Bytes,
    /// The line being read.
    line: BufferedBody,
    /// Why the line being read cannot be answered (it is over the limit, or the budget
    /// has no room for it); the rest of it is skipped.
    broken: Option<ApiError>,
    /// Lines seen, blank ones included.
    number: usize,
    /// Lines handed out.
    handed_out: usize,
    /// Body bytes received.
    received: usize,
    /// Time spent waiting for the client's bytes.
    waited: Duration,
    /// Whether the batch has ended.
    finished: bool,
    limits: Limits,
    /// When the batch's time runs out: no body is read after it.
    deadline: Deadline,
}

impl LineReader {
    fn new(body: Body, budget: BodyBudget, limits: &Limits, deadline: Deadline) -> Self {
        LineReader {
            body,
            budget,
            pending: Bytes::new(),
            line: BufferedBody::counted(),
            broken: None,
            number: 0,
            handed_out: 0,
            received: 0,
            waited: Duration::ZERO,
            finished: false,
            limits: *limits,
            deadline,
        }
    }

    /// The next line that is not blank; `None` after the last one, or after a problem
    /// that ends the batch (too many lines, too many bytes, too slow, cut off, out of
    /// time).
    async fn next_line(&mut self) -> Option<Line> {
        while !self.finished {
            if let Some(end) = memchr::memchr(b'\n', &self.pending) {
                let piece = self.pending.split_to(end + 1);
                // A CRLF line end is no part of the line, so it does not count against
                // the line's limit.
                let line = &piece[..end];
                self.extend_line(line.strip_suffix(b"\r").unwrap_or(line))
                    .await;
                if let Some(line) = self.complete_line() {
                    return Some(line);
                }
            } else if !self.pending.is_empty() {
                let piece = std::mem::take(&mut self.pending);
                self.extend_line(&piece).await;
            } else {
                match self.next_frame().await {
                    Ok(Some(frame)) => self.pending = frame,
                    // The last line needs no newline.
                    Ok(None) => {
                        self.finished = true;
                        return self.complete_line();
                    }
                    Err(error) => {
                        self.finished = true;
                        return Some((self.number + 1, Err(error)));
                    }
                }
            }
        }
        None
    }

    /// Adds `piece` to the line being read, unless the line is broken already.
    async fn extend_line(&mut self, piece: &[u8]) {
        if self.broken.is_some() {
            return;
        }
        let limit = self.limits.body_limit_bytes;
        if self.line.bytes.len() + piece.len() > limit {
            self.broken = Some(ApiError::LineTooLong { limit });
        } else if let Err(error) = self.line.append(piece, &self.budget).await {
            self.broken = Some(error);
        }
        if self.broken.is_some() {
            self.line = BufferedBody::counted();
        }
    }

    /// Ends the line being read: `None` when it is blank, which gets no answer.
    fn complete_line(&mut self) -> Option<Line> {
        let line = std::mem::replace(&mut self.line, BufferedBody::counted());
        let broken = self.broken.take();
        self.number += 1;
        if broken.is_none() && line.bytes.trim_ascii().is_empty() {
            return None;
        }
        let limit = self.limits.batch_max_lines;
        if self.handed_out == limit {
            self.finished = true;
            return Some((self.number, Err(ApiError::TooManyLines { limit })));
        }
        self.handed_out += 1;
        Some((self.number, broken.map_or(Ok(line), Err)))
    }

    /// The next piece of the body; `None` at its end. The client must keep up a minimum
    /// average rate once the grace period has passed, counting only the time spent
    /// waiting for it (not the time its answers take), and no piece is read once the
    /// batch's time has run out.
    async fn next_frame(&mut self) -> Result<Option<Bytes>, ApiError> {
        let body_limit = self.limits.batch_body_limit_bytes;
        let min_rate = self.limits.batch_min_read_rate;
        // The last frame was cut at the limit: more would go over.
        if self.received > body_limit {
            return Err(ApiError::PayloadTooLarge { limit: body_limit });
        }
        loop {
            let earned = Duration::from_secs_f64(self.received as f64 / f64::from(min_rate));
            let allowed = (self.limits.body_read_timeout + earned).saturating_sub(self.waited);
            let started = Instant::now();
            let left = self.deadline.at.saturating_duration_since(started);
            if left.is_zero() {
                return match self.body.is_end_stream() {
                    true => Ok(None),
                    false => Err(self.deadline.problem()),
                };
            }
            let frame = tokio::time::timeout(allowed.min(left), self.body.frame()).await;
            self.waited += started.elapsed();
            let frame = frame.map_err(|_| match Instant::now() >= self.deadline.at {
                true => self.deadline.problem(),
                false => ApiError::BodyTooSlow {
                    bytes_per_sec: min_rate,
                },
            })?;
            let Some(frame) = frame else { return Ok(None) };
            let frame = frame.map_err(|error| read_error(&error, body_limit))?;
            // Trailers carry no lines.
            let Ok(mut data) = frame.into_data() else {
                continue;
            };
            self.received += data.len();
            if self.received > body_limit {
                // The bytes within the limit are still answered.
                data.truncate(data.len() - (self.received - body_limit));
            }
            return Ok(Some(data));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_number_comes_first_in_every_object() {
        let mut out = Vec::new();
        push_numbered(&mut out, 7, |out| out.extend_from_slice(br#"{"a":1}"#));
        push_numbered(&mut out, 12, |out| out.extend_from_slice(b"{}"));
        push_numbered(&mut out, 13, |_| {});
        assert_eq!(out, b"{\"line\":7,\"a\":1}\n{\"line\":12}\n{\"line\":13}\n");
    }
}
