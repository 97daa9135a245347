//! The client's TCP stream as the server uses it: writes that stall are cut off, and the
//! close lingers.
//!
//! **Write timeout.** A client that never reads its answers fills the socket's buffers,
//! and then every write waits. A write (or flush) that has waited for the write timeout
//! fails with `TimedOut`, and the connection ends.
//!
//! **Lingering close** (as nginx and Apache do it). A server may answer before it has read
//! the whole request, as a 413 for an oversized body does. Closing a socket that still has
//! unread data makes the kernel send a reset, and a reset can destroy the answer before
//! the client has read it: the client sees "connection reset" instead of the 413. So when
//! hyper shuts a connection down after its last answer, this stream first sends its FIN,
//! then reads and discards until the client closes too, sends nothing for
//! [`LINGER_IDLE`], or [`LINGER_LIMIT`] has passed.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

/// The longest a connection lingers after its last answer for the client to close: long
/// enough for a client to finish sending an oversized body on a slow link.
const LINGER_LIMIT: Duration = Duration::from_secs(5);

/// How long a lingering connection waits for the client to send more: a client that
/// sends nothing has no data for a reset to destroy, and a stalled or idle connection
/// that is closed should not stay open for long.
const LINGER_IDLE: Duration = Duration::from_millis(250);

/// A client's TCP stream with a write timeout and a lingering close (see the module docs).
pub struct ClientStream {
    stream: TcpStream,
    write_timeout: Duration,
    /// Set while a write waits: when it gives up.
    write_stall: Option<Pin<Box<Sleep>>>,
    /// Set when the lingering starts.
    linger: Option<Linger>,
}

/// When a lingering connection closes: at the limit, or after a read-idle period.
struct Linger {
    limit: Instant,
    timer: Pin<Box<Sleep>>,
}

impl Linger {
    fn start() -> Self {
        let now = Instant::now();
        Linger {
            limit: now + LINGER_LIMIT,
            timer: Box::pin(tokio::time::sleep_until(now + LINGER_IDLE)),
        }
    }

    /// The client sent something: it gets another idle period, within the limit.
    fn extend(&mut self) {
        let until = (Instant::now() + LINGER_IDLE).min(self.limit);
        self.timer.as_mut().reset(until);
    }
}

impl ClientStream {
    /// Wraps `stream`, whose writes may wait at most `write_timeout`.
    pub fn new(stream: TcpStream, write_timeout: Duration) -> Self {
        ClientStream {
            stream,
            write_timeout,
            write_stall: None,
            linger: None,
        }
    }

    /// Passes a write's outcome on, failing it once it has waited for the write timeout.
    fn within_write_timeout<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.write_stall = None;
            return polled;
        }
        let timeout = self.write_timeout;
        let stall = self
            .write_stall
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(stall.as_mut().poll(cx));
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client has not read its answer within the write timeout",
        )))
    }

    /// Reads and discards until the client closes, the stream fails, or the linger ends.
    fn poll_linger(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let linger = self.linger.get_or_insert_with(Linger::start);
        // Checked here as well as by the timer: a client that keeps sending uses up the
        // task's budget in reads, and then the timer is never polled to completion.
        if Instant::now() >= linger.limit {
            return Poll::Ready(());
        }
        let mut scratch = [0u8; 4096];
        loop {
            let mut discard = ReadBuf::new(&mut scratch);
            match Pin::new(&mut self.stream).poll_read(cx, &mut discard) {
                Poll::Ready(Ok(())) if discard.filled().is_empty() => return Poll::Ready(()),
                Poll::Ready(Ok(())) => linger.extend(),
                Poll::Ready(Err(_)) => return Poll::Ready(()),
                Poll::Pending => return linger.timer.as_mut().poll(cx),
            }
        }
    }
}

impl AsyncRead for ClientStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for ClientStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.within_write_timeout(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.within_write_timeout(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.stream).poll_flush(cx);
        self.within_write_timeout(cx, polled)
    }

    /// Sends the FIN, then lingers; lingering never fails the shutdown.
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.linger.is_none() {
            let polled = Pin::new(&mut self.stream).poll_shutdown(cx);
            ready!(self.within_write_timeout(cx, polled))?;
        }
        self.poll_linger(cx).map(Ok)
    }
}
