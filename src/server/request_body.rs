//! Request bodies that the app drops before their end.
//!
//! Over HTTP/1.1 the rest of such a body lies on the connection ahead of the next request.
//! Once the answer is out, hyper skips what of it is in its read buffer; when that is the
//! whole body the connection stays open, otherwise hyper closes it. A body larger than the
//! buffer (or of unknown length, chunked) cannot have arrived whole in it, so the answer
//! to its request says `Connection: close`, and a client does not send its next request
//! on a connection about to close: one that does not retry would see that request fail.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use axum::body::Bytes;
use axum::http::header::CONNECTION;
use axum::http::{HeaderValue, Request, Response, Version};
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;

/// A request body that notes whether it was dropped before its end.
pub(super) struct WatchedBody {
    body: Incoming,
    /// Raised when the body is dropped before its end; `None` once it has ended, or for a
    /// body that hyper can skip whole from its read buffer (an empty one among them).
    abandoned: Option<Arc<AtomicBool>>,
}

/// Whether the body of a request was dropped before its end.
pub(super) struct Unread(Option<Arc<AtomicBool>>);

/// `request` with its body watched, and what tells later whether it was left unread, when
/// it may be larger than hyper's read buffer of `read_buffer` bytes.
pub(super) fn watch(
    request: Request<Incoming>,
    read_buffer: usize,
) -> (Request<WatchedBody>, Unread) {
    let (parts, body) = request.into_parts();
    let fits = body
        .size_hint()
        .exact()
        .is_some_and(|length| length <= read_buffer as u64);
    let abandoned = (!fits).then(|| Arc::new(AtomicBool::new(false)));
    let unread = Unread(abandoned.clone());
    (
        Request::from_parts(parts, WatchedBody { body, abandoned }),
        unread,
    )
}

impl Unread {
    /// Marks `response` (to a request of `version`) as the connection's last when the
    /// request's body was dropped before its end on HTTP/1.x; HTTP/2 resets that stream
    /// alone.
    pub(super) fn close_if_left<B>(&self, version: Version, response: &mut Response<B>) {
        let left = self
            .0
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed));
        if left && version <= Version::HTTP_11 {
            let close = HeaderValue::from_static("close");
            response.headers_mut().insert(CONNECTION, close);
        }
    }
}

impl Drop for WatchedBody {
    fn drop(&mut self) {
        if let Some(abandoned) = &self.abandoned {
            abandoned.store(true, Ordering::Relaxed);
        }
    }
}

impl Body for WatchedBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if matches!(polled, Poll::Ready(None)) || self.body.is_end_stream() {
            self.abandoned = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
