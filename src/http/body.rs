//! Reading a request body into memory, under three bounds: the body limit (axum's
//! [`DefaultBodyLimit`](axum::extract::DefaultBodyLimit), which the router sets), a time
//! limit for the whole body, and a budget of buffered bytes that all requests share.
//!
//! The budget is what bounds the memory of many clients that each send a body slowly: the
//! first [`BODY_ALLOWANCE`] bytes of a body are the connection's own (bounded by the
//! connection cap, so the small bodies of ordinary requests never wait for the budget),
//! every byte beyond is counted against the budget before it is kept, and the count is
//! given back when the body is dropped. A body that would go over waits [`BUDGET_WAIT`]
//! for others to give bytes back, then gets 503 `overloaded`. Pieces are copied out of
//! hyper's buffers as they arrive, so a connection's read buffer is free again for the
//! next read, and the body's buffer grows exactly with what has arrived.

use std::sync::Arc;
use std::time::Duration;

use axum::RequestExt;
use axum::body::Body;
use axum::extract::Request;
use http_body::Body as _;
use http_body_util::{BodyExt, LengthLimitError};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::problem::ApiError;

/// Bytes of a body that need no room in the budget: more than any single grid takes
/// (a 25×25 grid in rows notation is about 2 KB), so only large bodies compete for it.
pub const BODY_ALLOWANCE: usize = 4096;

/// How long a body may wait for room in the budget before it gets 503 `overloaded`: long
/// enough to ride out a burst of bodies, short enough that a client learns it soon.
const BUDGET_WAIT: Duration = Duration::from_millis(100);

/// The server-wide budget of request body bytes held in memory; cheap to clone.
#[derive(Clone)]
pub struct BodyBudget(Arc<Semaphore>);

impl BodyBudget {
    /// A budget of `bytes` (at most [`Semaphore::MAX_PERMITS`]).
    pub fn new(bytes: usize) -> Self {
        BodyBudget(Arc::new(Semaphore::new(bytes.min(Semaphore::MAX_PERMITS))))
    }

    /// Reserves `bytes`, waiting at most [`BUDGET_WAIT`] for them.
    async fn reserve(&self, bytes: usize) -> Result<OwnedSemaphorePermit, ApiError> {
        let count = u32::try_from(bytes).map_err(|_| overloaded())?;
        if let Ok(permit) = Arc::clone(&self.0).try_acquire_many_owned(count) {
            return Ok(permit);
        }
        tokio::time::timeout(BUDGET_WAIT, Arc::clone(&self.0).acquire_many_owned(count))
            .await
            .map_err(|_| overloaded())?
            .map_err(|_| overloaded())
    }
}

fn overloaded() -> ApiError {
    ApiError::Overloaded {
        what: "the server holds as many request bodies as it has memory for",
        retry_after_secs: 1,
    }
}

/// A request body (or a line of a batch) held in memory, and its share of the budget
/// until it is dropped.
pub struct BufferedBody {
    /// The body's bytes.
    pub bytes: Vec<u8>,
    /// Bytes it may hold without counting them against the budget.
    allowance: usize,
    reserved: Option<OwnedSemaphorePermit>,
}

impl BufferedBody {
    /// An empty line of a batch, every byte of which counts against the budget: a batch
    /// holds many lines at once, and the connection's allowance covers one body.
    pub fn counted() -> Self {
        BufferedBody {
            bytes: Vec::new(),
            allowance: 0,
            reserved: None,
        }
    }

    /// An empty body with room for `capacity` bytes, reserved in `budget` beyond
    /// [`BODY_ALLOWANCE`] at once: growing piece by piece would leave the allocator with a
    /// trail of smaller blocks.
    async fn with_capacity(capacity: usize, budget: &BodyBudget) -> Result<Self, ApiError> {
        let reserved = match capacity.saturating_sub(BODY_ALLOWANCE) {
            0 => None,
            beyond => Some(budget.reserve(beyond).await?),
        };
        Ok(BufferedBody {
            bytes: Vec::with_capacity(capacity),
            allowance: BODY_ALLOWANCE,
            reserved,
        })
    }

    /// Appends `data`, first reserving in `budget` whatever it takes beyond the allowance
    /// and what is reserved already.
    pub async fn append(&mut self, data: &[u8], budget: &BodyBudget) -> Result<(), ApiError> {
        let held = self
            .reserved
            .as_ref()
            .map_or(0, OwnedSemaphorePermit::num_permits);
        let missing = (self.bytes.len() + data.len()).saturating_sub(self.allowance + held);
        if missing > 0 {
            let permit = budget.reserve(missing).await?;
            match &mut self.reserved {
                Some(held) => held.merge(permit),
                None => self.reserved = Some(permit),
            }
        }
        // Exact growth: the capacity stays what the allowance and the budget count.
        self.bytes.reserve_exact(data.len());
        self.bytes.extend_from_slice(data);
        Ok(())
    }
}

/// Reads the body of `request` whole: 413 `payload_too_large` past `limit` (at once when
/// its `Content-Length` says so, before a `100 Continue` goes out), 408 `request_timeout`
/// when it has not all arrived within `timeout`, 503 `overloaded` when the budget has no
/// room for what it holds beyond [`BODY_ALLOWANCE`].
pub async fn read_whole(
    request: Request,
    budget: &BodyBudget,
    limit: usize,
    timeout: Duration,
) -> Result<BufferedBody, ApiError> {
    let declared = declared_length(&request, limit)?;
    let deadline = Instant::now() + timeout;
    let mut body: Body = request.into_limited_body();
    let mut buffered = BufferedBody::with_capacity(declared.unwrap_or(0), budget).await?;
    loop {
        let frame = tokio::time::timeout_at(deadline, body.frame())
            .await
            .map_err(|_| ApiError::RequestTimeout { timeout })?;
        let Some(frame) = frame else { break };
        let frame = frame.map_err(|error| read_error(&error, limit))?;
        // Trailers carry no JSON.
        if let Ok(data) = frame.into_data() {
            buffered.append(&data, budget).await?;
        }
    }
    Ok(buffered)
}

/// The body length that `request` declares (its `Content-Length`), if any: 413 `payload_too_large` at once when
/// it is over `limit`, before the body is read (so before a `100 Continue` goes out).
pub fn declared_length(request: &Request, limit: usize) -> Result<Option<usize>, ApiError> {
    // The body's exact size hint is the `Content-Length` the client sent.
    match request.body().size_hint().exact() {
        Some(length) if length > limit as u64 => Err(ApiError::PayloadTooLarge { limit }),
        // Within the limit, so it fits a usize.
        declared => Ok(declared.map(|length| length as usize)),
    }
}

/// The answer to a body that failed to arrive: over the limit, or not whole (the connection
/// closed or was reset before the body's end, or its chunked framing is broken), which
/// breaks HTTP's framing, not JSON's.
pub fn read_error(error: &axum::Error, limit: usize) -> ApiError {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = cause {
        if current.is::<LengthLimitError>() {
            return ApiError::PayloadTooLarge { limit };
        }
        cause = current.source();
    }
    ApiError::BadRequest(
        "the request body could not be read whole: it was cut off before its end, or its \
         chunked framing is broken"
            .to_owned(),
    )
}
