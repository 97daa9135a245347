//! The one hand-written HTTP/1.1 client of the tests: bytes on a plain TCP connection, so
//! a test can send what a well-behaved client never would (a stalled head, a half-closed
//! socket, a missing `Host`) and read exactly what the server answers.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::Duration;

/// How long a read waits before the test calls the server hung: a bound against a hang,
/// not a timing claim.
const HANG_GUARD: Duration = Duration::from_secs(30);

/// A response as read off the wire.
#[derive(Debug, Clone)]
pub struct RawResponse {
    /// The status code.
    pub status: u16,
    /// The head, as text (status line and headers).
    pub head: String,
    /// The body, as text.
    pub body: String,
}

impl RawResponse {
    /// The value of header `name` (case-insensitive), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }
}

/// One client connection.
pub struct RawConnection {
    stream: TcpStream,
    /// Bytes read past the last response.
    pending: Vec<u8>,
}

impl RawConnection {
    /// Connects to `addr`.
    pub fn open(addr: SocketAddr) -> Self {
        Self::try_open(addr).expect("the server accepts")
    }

    /// Connects to `addr`, or says why not (nothing listens yet, say).
    pub fn try_open(addr: SocketAddr) -> std::io::Result<Self> {
        let stream = TcpStream::connect(addr)?;
        stream.set_read_timeout(Some(HANG_GUARD))?;
        Ok(RawConnection {
            stream,
            pending: Vec::new(),
        })
    }

    /// Sends `bytes` as they are.
    pub fn send(&mut self, bytes: impl AsRef<[u8]>) -> &mut Self {
        self.stream
            .write_all(bytes.as_ref())
            .expect("the server reads");
        self
    }

    /// Shuts the write side down (a half-close): the server reads the end of the stream.
    pub fn shutdown_write(&mut self) -> &mut Self {
        self.stream.shutdown(Shutdown::Write).unwrap();
        self
    }

    /// Reads one response; `None` when the connection ends (closed or reset) first.
    pub fn response(&mut self) -> Option<RawResponse> {
        let head_end = loop {
            if let Some(end) = find(&self.pending, b"\r\n\r\n") {
                break end;
            }
            if !self.fill() {
                return None;
            }
        };
        let head = String::from_utf8_lossy(&self.pending[..head_end]).into_owned();
        let status = head.split(' ').nth(1)?.parse().ok()?;
        let mut response = RawResponse {
            status,
            head,
            body: String::new(),
        };
        let length: usize = response.header("content-length").map_or(0, |length| {
            length.parse().expect("a numeric Content-Length")
        });
        let body_start = head_end + 4;
        while self.pending.len() < body_start + length {
            if !self.fill() {
                return None;
            }
        }
        response.body =
            String::from_utf8_lossy(&self.pending[body_start..body_start + length]).into_owned();
        self.pending.drain(..body_start + length);
        Some(response)
    }

    /// Reads until `needle` has arrived, and returns all that was read as text (from the
    /// end of the last response read with [`RawConnection::response`]); panics when the
    /// connection ends first.
    pub fn read_until(&mut self, needle: &str) -> String {
        while find(&self.pending, needle.as_bytes()).is_none() {
            assert!(
                self.fill(),
                "the connection ended before {needle:?} arrived"
            );
        }
        String::from_utf8_lossy(&self.pending).into_owned()
    }

    /// Waits until the server closes the connection (or resets it); `true` if it did,
    /// `false` if it sent more data first.
    pub fn closed_by_server(&mut self) -> bool {
        self.pending.clear();
        !self.fill()
    }

    /// Reads until the server closes the connection (or resets it), and returns what it
    /// sent from the end of the last response read.
    pub fn read_until_closed(&mut self) -> Vec<u8> {
        while self.fill() {}
        std::mem::take(&mut self.pending)
    }

    /// Reads more from the stream; `false` at its end or on a reset.
    fn fill(&mut self) -> bool {
        let mut buffer = [0; 4096];
        match self.stream.read(&mut buffer) {
            Ok(0) => false,
            Ok(read) => {
                self.pending.extend_from_slice(&buffer[..read]);
                true
            }
            Err(error) if error.kind() == ErrorKind::WouldBlock => {
                panic!("the server neither answered nor closed within {HANG_GUARD:?}")
            }
            Err(_) => false,
        }
    }
}

/// The head of a request with `body`: `Host`, a JSON content type and `Content-Length`.
pub fn request_bytes(method: &str, path: &str, body: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// One request on a connection of its own; `None` when the connection ended without an
/// answer.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> Option<RawResponse> {
    RawConnection::open(addr)
        .send(request_bytes(method, path, body))
        .response()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}
