//! HTTP's framing rules that hyper leaves to the service: exactly one valid `Host` over
//! HTTP/1.1, no transfer coding but `chunked`, and a head within the server's limit. A
//! tower layer refuses a request that breaks one, before any route sees it, with the answer
//! its caller makes of the [`FramingViolation`].

use std::task::{Context, Poll};

use axum::extract::Request;
use axum::http::header::{HOST, TRANSFER_ENCODING};
use axum::http::uri::Authority;
use axum::http::{HeaderValue, Version};
use axum::response::Response;
use futures_util::future::{Either, Ready, ready};
use thiserror::Error;
use tower::{Layer, Service};

/// A framing rule that a request breaks; its `Display` says which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum FramingViolation {
    /// An HTTP/1.1 request without exactly one `Host` (400).
    #[error("an HTTP/1.1 request needs exactly one Host header")]
    HostCount,
    /// A `Host` that is not a host and an optional port (400).
    #[error("the Host header must be a host name or address and an optional port")]
    BadHost,
    /// A transfer coding other than `chunked`, which the server does not decode (501).
    #[error("the only transfer coding accepted is chunked")]
    TransferCoding,
    /// A request line and headers larger than the limit, in bytes (431).
    #[error("the request headers are larger than the limit of {0} bytes")]
    HeadTooLarge(usize),
}

/// The rule `request` breaks, if any, with heads limited to `header_limit` bytes.
fn violation<B>(request: &axum::http::Request<B>, header_limit: usize) -> Option<FramingViolation> {
    let headers = request.headers();
    if request.version() == Version::HTTP_11 && headers.get_all(HOST).iter().count() != 1 {
        return Some(FramingViolation::HostCount);
    }
    if !headers.get_all(HOST).iter().all(is_host) {
        return Some(FramingViolation::BadHost);
    }
    let other_coding = headers.get_all(TRANSFER_ENCODING).iter().any(|value| {
        value.to_str().map_or(true, |codings| {
            codings
                .split(',')
                .any(|coding| !coding.trim().eq_ignore_ascii_case("chunked"))
        })
    });
    if other_coding {
        return Some(FramingViolation::TransferCoding);
    }
    // The request line and each header line as sent, with their separators.
    let target = request.uri().path_and_query();
    let head = request.method().as_str().len()
        + target.map_or(0, |target| target.as_str().len())
        + headers
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len() + 4)
            .sum::<usize>();
    (head > header_limit).then_some(FramingViolation::HeadTooLarge(header_limit))
}

/// Whether `value` is a `Host` header's value: empty (a target with no authority), or a
/// host and optional port, without user information (RFC 9112, section 3.2).
fn is_host(value: &HeaderValue) -> bool {
    let Ok(text) = value.to_str() else {
        return false;
    };
    // The port, if any: after the last `:` that is not inside an IPv6 address.
    let port = match text.rsplit_once(':') {
        Some((_, port)) if !port.contains(']') => port,
        _ => "",
    };
    text.is_empty()
        || (text.parse::<Authority>().is_ok()
            && !text.contains('@')
            && (port.is_empty()
                || port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok()))
}

/// Refuses requests that break a framing rule with `refuse`'s answer; passes the rest on.
#[derive(Clone, Copy)]
pub struct FramingLayer {
    header_limit: usize,
    refuse: fn(FramingViolation) -> Response,
}

impl FramingLayer {
    /// Holds heads to `header_limit` bytes and answers a violation with `refuse`.
    pub fn new(header_limit: usize, refuse: fn(FramingViolation) -> Response) -> Self {
        FramingLayer {
            header_limit,
            refuse,
        }
    }
}

impl<S> Layer<S> for FramingLayer {
    type Service = Framing<S>;

    fn layer(&self, inner: S) -> Framing<S> {
        Framing {
            inner,
            layer: *self,
        }
    }
}

/// The service of [`FramingLayer`].
#[derive(Clone)]
pub struct Framing<S> {
    inner: S,
    layer: FramingLayer,
}

impl<S> Service<Request> for Framing<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Either<Ready<Result<Response, S::Error>>, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        match violation(&request, self.layer.header_limit) {
            Some(broken) => Either::Left(ready(Ok((self.layer.refuse)(broken)))),
            None => Either::Right(self.inner.call(request)),
        }
    }
}
