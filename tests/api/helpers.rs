//! What every API test needs: the app through `oneshot`, the real server on a random port,
//! and the grids the tests send.

use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use clap::Parser;
use serde_json::Value;
use sudoku_engine::grid::Grid;
use sudoku_engine::validate::validate;
use sudoku_service::config::{LogFormat, ServeConfig};
use sudoku_service::http::{self, AppState, Limits};
use sudoku_service::service;
use tokio::sync::oneshot;
use tower::ServiceExt;

pub use crate::busy_grid::busy_grid;
pub use crate::common::raw_http::{RawConnection, RawResponse, request_bytes};

/// A solve limit long enough that no test grid but the busy one ever reaches it.
pub const GENEROUS_TIMEOUT: Duration = Duration::from_secs(30);

/// The classic 9×9 puzzle (a unique solution) and its solution.
pub const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
pub const CLASSIC_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// The 9×9 `grid` drawn as on the forums: `53.|.7.|...` rows, `---+---+---` between bands.
pub fn drawn(grid: &str) -> String {
    let mut drawn = String::new();
    for (index, row) in grid.as_bytes().chunks(9).enumerate() {
        let row = std::str::from_utf8(row).unwrap();
        if index == 3 || index == 6 {
            drawn.push_str("---+---+---\n");
        }
        drawn.push_str(&format!("{}|{}|{}\n", &row[..3], &row[3..6], &row[6..]));
    }
    drawn
}

/// A 4×4 puzzle with a unique solution, in rows notation with `null` blanks.
pub fn small_rows() -> Value {
    serde_json::json!([[1, null, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]])
}

/// The smallest solution of an empty 9×9 grid, read row by row.
pub const EMPTY_9X9_LEXICOGRAPHIC: &str =
    "123456789456789123789123456214365897365897214897214365531642978642978531978531642";

/// Limits for tests that do not probe them.
pub fn limits() -> Limits {
    Limits {
        solve_timeout: GENEROUS_TIMEOUT,
        generate_timeout: GENEROUS_TIMEOUT,
        solver_concurrency: NonZeroUsize::new(2).unwrap(),
        queue_length: 16,
        body_limit_bytes: 65536,
        body_read_timeout: GENEROUS_TIMEOUT,
        body_budget_bytes: 32 << 20,
        header_limit_bytes: 8192,
        batch_body_limit_bytes: 16 << 20,
        batch_max_lines: 100_000,
        batch_min_read_rate: 1024,
        batch_timeout: GENEROUS_TIMEOUT,
    }
}

/// The whole app, with fresh state, under `limits`.
pub fn app_with(limits: Limits) -> Router {
    http::app(AppState::new(limits))
}

/// The whole app under the default test [`limits`].
pub fn app() -> Router {
    app_with(limits())
}

/// A response, read whole.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as JSON; panics with the body when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|error| {
            panic!(
                "body is not JSON ({error}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("the body is UTF-8")
    }

    /// Asserts that this is a problem+json error with `status` and `code`, and returns it.
    #[track_caller]
    pub fn problem(&self, status: StatusCode, code: &str) -> Value {
        assert_eq!(
            self.status,
            status,
            "body: {}",
            String::from_utf8_lossy(&self.body)
        );
        assert_problem(&self.headers, &self.json(), status, code)
    }
}

/// Asserts that headers and body form the API's error format for `status` and `code`.
#[track_caller]
pub fn assert_problem(headers: &HeaderMap, body: &Value, status: StatusCode, code: &str) -> Value {
    assert_eq!(
        headers[header::CONTENT_TYPE],
        "application/problem+json",
        "{body}"
    );
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], status.as_u16(), "{body}");
    assert_eq!(body["type"], format!("urn:sudoku-service:problem:{code}"));
    assert!(
        body["title"].as_str().is_some_and(|t| !t.is_empty()),
        "{body}"
    );
    assert!(
        body["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{body}"
    );
    body.clone()
}

/// Sends one request through the router, without a socket, with a `Host` header as every
/// HTTP/1.1 client sends one.
pub async fn send(app: &Router, mut request: Request<Body>) -> Answer {
    if !request.headers().contains_key(header::HOST) {
        let host = header::HeaderValue::from_static("test");
        request.headers_mut().insert(header::HOST, host);
    }
    let response = app.clone().oneshot(request).await.expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("the body can be read")
        .to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

/// POSTs `body` as JSON to `path`.
pub async fn post_json(app: &Router, path: &str, body: &Value) -> Answer {
    post_raw(app, path, "application/json", body.to_string()).await
}

/// POSTs `body` as JSON to `path` of a fresh app, expects 200 and returns the answer.
pub async fn post_ok(path: &str, body: &Value) -> Value {
    let answer = post_json(&app(), path, body).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    answer.json()
}

/// POSTs raw bytes with the given content type.
pub async fn post_raw(
    app: &Router,
    path: &str,
    content_type: &str,
    body: impl Into<Body>,
) -> Answer {
    let request = Request::builder()
        .method(Method::POST)
        .uri(path)
        .header(header::CONTENT_TYPE, content_type)
        .body(body.into())
        .unwrap();
    send(app, request).await
}

/// GETs `path`.
pub async fn get(app: &Router, path: &str) -> Answer {
    let request = Request::builder().uri(path).body(Body::empty()).unwrap();
    send(app, request).await
}

/// The real server, running on a random port on a runtime of its own until dropped.
pub struct TestApp {
    pub addr: SocketAddr,
    /// An HTTP/1.1 client.
    pub client: reqwest::Client,
    /// An HTTP/2 client (prior knowledge, as service meshes use it): dropping one of its
    /// requests resets that request's stream alone, which the server sees at once.
    pub h2: reqwest::Client,
    shutdown: Option<oneshot::Sender<()>>,
}

impl TestApp {
    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// POSTs `body` as JSON to `path`.
    pub async fn post(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .expect("the server answers")
    }

    /// The value of the metric line that starts with `series` (0 when absent).
    pub async fn metric(&self, series: &str) -> f64 {
        let text = self
            .client
            .get(self.url("/metrics"))
            .send()
            .await
            .expect("the server answers")
            .text()
            .await
            .unwrap();
        metric_value(&text, series)
    }

    /// Waits until the metric `series` reaches `value`; panics after a generous bound,
    /// so a broken server fails the test instead of hanging it.
    pub async fn wait_for_metric(&self, series: &str, value: f64) {
        for _ in 0..1000 {
            if self.metric(series).await == value {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("{series} never reached {value}");
    }

    /// Starts the server's shutdown, as SIGTERM would.
    pub fn begin_shutdown(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }

    /// Runs blocking client code (a [`RawConnection`]) off the test's async workers.
    pub async fn blocking<T: Send + 'static>(
        &self,
        client: impl FnOnce(SocketAddr) -> T + Send + 'static,
    ) -> T {
        let addr = self.addr;
        tokio::task::spawn_blocking(move || client(addr))
            .await
            .expect("the client code does not panic")
    }
}

/// POSTs `pieces` to `path` on `server` as one JSON body in chunked transfer encoding, one
/// chunk per piece, so the server reads the body in several parts and without a length up
/// front.
pub async fn post_chunked(server: &TestApp, path: &str, pieces: &[&[u8]]) -> RawResponse {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\n\r\n"
    )
    .into_bytes();
    for piece in pieces {
        request.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        request.extend_from_slice(piece);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"0\r\n\r\n");
    server
        .blocking(move |addr| RawConnection::open(addr).send(&request).response())
        .await
        .expect("the server answers")
}

/// The value of the line of a Prometheus text exposition that starts with `series`.
pub fn metric_value(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |value| value.trim().parse().expect("a number"))
}

/// The server configuration for `limits`, listening on 127.0.0.1:0, with the server's
/// own defaults for everything else.
pub fn serve_config(limits: Limits) -> ServeConfig {
    /// `serve`'s flags alone, to read the server's defaults.
    #[derive(clap::Parser)]
    struct Serve {
        #[command(flatten)]
        config: ServeConfig,
    }
    let mut config = Serve::parse_from(["serve", "--listen-addr", "127.0.0.1:0"]).config;
    config.solve_timeout_ms = limits.solve_timeout.as_millis() as u64;
    config.generate_timeout_ms = limits.generate_timeout.as_millis() as u64;
    config.solver_concurrency = Some(limits.solver_concurrency);
    config.queue_length = u32::try_from(limits.queue_length).expect("test queues are short");
    config.body_limit_bytes = limits.body_limit_bytes;
    config.body_read_timeout_ms = limits.body_read_timeout.as_millis() as u64;
    config.body_budget_bytes = limits.body_budget_bytes;
    config.header_limit_bytes = limits.header_limit_bytes as u32;
    config.log_format = LogFormat::Text;
    config.log_filter = "info".into();
    config
}

/// Starts the real server on 127.0.0.1 with a port of the system's choosing.
pub async fn spawn_app(limits: Limits) -> TestApp {
    spawn_app_with(serve_config(limits))
}

/// Starts the real server under `config` (its listen address is ignored: 127.0.0.1:0),
/// on a runtime of its own, so tests may block on their side without slowing it down.
pub fn spawn_app_with(config: ServeConfig) -> TestApp {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let addr = listener.local_addr().unwrap();
    let (shutdown, stop) = oneshot::channel::<()>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            service::run(listener, &config, async {
                // A dropped sender stops the server as well as a sent message.
                let _ = stop.await;
            })
            .await;
        });
        // Solver threads of abandoned requests stop within milliseconds.
        runtime.shutdown_timeout(Duration::from_secs(1));
    });
    TestApp {
        addr,
        client: reqwest::Client::new(),
        h2: reqwest::Client::builder()
            .http2_prior_knowledge()
            .build()
            .unwrap(),
        shutdown: Some(shutdown),
    }
}

/// Limits with one solver, `queue_length` waiting places and the given time limit.
pub fn one_solver(queue_length: usize, solve_timeout: Duration) -> Limits {
    Limits {
        solve_timeout,
        solver_concurrency: NonZeroUsize::MIN,
        queue_length,
        ..limits()
    }
}

/// An N×N puzzle with a solution: the grid `((r·b + r/b + c) mod N) + 1` (b = √N, a
/// valid Sudoku for every N) with every third cell blanked.
pub fn patterned_puzzle(size: usize) -> String {
    let side = (size as f64).sqrt() as usize;
    let symbol = |value: usize| match value {
        1..=9 => char::from(b'0' + value as u8),
        _ => char::from(b'A' + (value - 10) as u8),
    };
    (0..size * size)
        .map(|cell| {
            let (row, col) = (cell / size, cell % size);
            if (row + col) % 3 == 0 {
                '.'
            } else {
                symbol((row * side + row / side + col) % size + 1)
            }
        })
        .collect()
}

/// Whether `solution` (string notation) is a finished grid that keeps every given of
/// `puzzle`.
pub fn solves(puzzle: &str, solution: &str) -> bool {
    let finished = Grid::parse_symbols(solution).is_ok_and(|grid| validate(&grid).solved);
    let keeps_givens = puzzle.len() == solution.len()
        && puzzle
            .chars()
            .zip(solution.chars())
            .all(|(given, answer)| given == '.' || given.eq_ignore_ascii_case(&answer));
    finished && keeps_givens
}
