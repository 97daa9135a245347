//! Clients that go away while their work runs, against the binary as a child process with
//! one solver and time limits of ten minutes: over HTTP/1.1 the client closes its socket
//! (a FIN) or resets it, over HTTP/2 it resets its request's stream or closes the whole
//! connection. For every kind of work (a solve, a rating, an explanation, a hint, a
//! generation, and batches of solves and ratings), the request is then counted with status
//! 499, the solver comes free, and the process has spent a fraction of the CPU that the
//! work would have taken: the work stopped. No clock is read: the CPU time is the
//! process's own, and the work would take minutes (the busy grid, a rare band), or
//! seconds of CPU that the test measures first (the rating of a hard puzzle).

#[path = "api/busy_grid.rs"]
mod busy_grid;
mod common;

use std::net::{SocketAddr, TcpStream};
use std::os::fd::AsRawFd;
use std::time::Duration;

use axum::body::Bytes;
use serde_json::json;
use sudoku_engine::grid::Grid;
use sudoku_engine::logic;
use sudoku_engine::solver::Cancellation;

use busy_grid::busy_grid;
use common::child::Service;
use common::raw_http::request_bytes;

/// A 9×9 puzzle of the forum's hardest list whose rating takes seconds of CPU.
const HARD: &str =
    "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........";

/// The most CPU time the server may spend on a request whose client has gone away, from
/// the request to the solver coming free: the work must cost at least twice this.
const BUDGET: Duration = Duration::from_millis(500);

/// How a client goes away.
#[derive(Debug, Clone, Copy)]
enum Leaving {
    /// HTTP/1.1: the socket is closed (a FIN).
    Close,
    /// HTTP/1.1: the socket is reset (SO_LINGER 0, then closed).
    Reset,
    /// HTTP/2: the request's stream is reset; the connection stays.
    ResetStream,
    /// HTTP/2: the connection is closed.
    CloseConnection,
}

const EVERY_WAY: [Leaving; 4] = [
    Leaving::Close,
    Leaving::Reset,
    Leaving::ResetStream,
    Leaving::CloseConnection,
];

/// A request whose work outlasts [`BUDGET`] many times over.
struct Work {
    path: &'static str,
    content_type: &'static str,
    body: String,
}

impl Work {
    fn json(path: &'static str, body: serde_json::Value) -> Self {
        Work {
            path,
            content_type: "application/json",
            body: body.to_string(),
        }
    }

    fn batch(path: &'static str, lines: usize, grid: &str) -> Self {
        let line = json!({ "grid": grid }).to_string();
        Work {
            path,
            content_type: "application/x-ndjson",
            body: vec![line; lines].join("\n"),
        }
    }
}

/// Sends `work` to a fresh service once for each way of leaving, and checks each time
/// that the request is counted as abandoned and its work stops within [`BUDGET`] of CPU.
async fn abandoned_every_way(work: Work) {
    let service = Service::start(&[
        "--solver-concurrency",
        "1",
        "--solve-timeout-ms",
        "600000",
        "--generate-timeout-ms",
        "600000",
        "--batch-timeout-ms",
        "600000",
    ]);
    let abandoned = format!(
        r#"sudoku_http_requests_total{{route="{}",status="499"}}"#,
        work.path
    );
    for (count, leaving) in (1..).zip(EVERY_WAY) {
        let before = service.cpu_time();
        let client = Client::send(service.addr, &work, leaving).await;
        wait_for_metric(&service, "sudoku_solver_slots_in_use", 1).await;
        client.leave().await;
        wait_for_metric(&service, &abandoned, count).await;
        wait_for_metric(&service, "sudoku_solver_slots_in_use", 0).await;
        let spent = service.cpu_time() - before;
        assert!(
            spent < BUDGET,
            "{} {leaving:?}: {spent:?} of CPU after the client left",
            work.path
        );
    }
}

/// Waits for a metric off the test's async workers.
async fn wait_for_metric(service: &Service, series: &str, value: u32) {
    tokio::task::block_in_place(|| service.wait_for_metric(series, &value.to_string()));
}

/// A client with a request in flight.
enum Client {
    Http1(TcpStream, Leaving),
    Http2Stream(tokio::task::JoinHandle<()>),
    Http2Connection(tokio::task::JoinHandle<()>, tokio::task::JoinHandle<()>),
}

impl Client {
    async fn send(addr: SocketAddr, work: &Work, leaving: Leaving) -> Client {
        match leaving {
            Leaving::Close | Leaving::Reset => {
                let head = request_bytes("POST", work.path, &work.body)
                    .replace("application/json", work.content_type);
                let mut stream = TcpStream::connect(addr).expect("the service accepts");
                std::io::Write::write_all(&mut stream, head.as_bytes()).unwrap();
                Client::Http1(stream, leaving)
            }
            Leaving::ResetStream | Leaving::CloseConnection => {
                let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
                let (client, connection) = h2::client::handshake(tcp).await.unwrap();
                let connection = tokio::spawn(async move {
                    let _ = connection.await;
                });
                let mut sender = client.clone().ready().await.unwrap();
                let request = axum::http::Request::post(format!("http://{addr}{}", work.path))
                    .header("content-type", work.content_type)
                    .body(())
                    .unwrap();
                let (response, mut body) = sender.send_request(request, false).unwrap();
                body.send_data(Bytes::from(work.body.clone()), true)
                    .unwrap();
                // Dropping the response and the body (when the task is aborted) resets the
                // stream.
                let request = tokio::spawn(async move {
                    let _keep = (client, body);
                    // A batch's head comes first: its answer is read until it ends.
                    if let Ok(response) = response.await {
                        let mut answer = response.into_body();
                        while let Some(Ok(_)) = answer.data().await {}
                    }
                });
                match leaving {
                    Leaving::ResetStream => Client::Http2Stream(request),
                    _ => Client::Http2Connection(connection, request),
                }
            }
        }
    }

    async fn leave(self) {
        match self {
            Client::Http1(stream, leaving) => {
                if let Leaving::Reset = leaving {
                    let linger = libc::linger {
                        l_onoff: 1,
                        l_linger: 0,
                    };
                    // SAFETY: the option is a `linger` of the size given, on an open socket.
                    let set = unsafe {
                        libc::setsockopt(
                            stream.as_raw_fd(),
                            libc::SOL_SOCKET,
                            libc::SO_LINGER,
                            (&raw const linger).cast(),
                            size_of::<libc::linger>() as libc::socklen_t,
                        )
                    };
                    assert_eq!(set, 0);
                }
                drop(stream);
            }
            Client::Http2Stream(request) => request.abort(),
            Client::Http2Connection(connection, request) => {
                // The request's task keeps the stream: only the connection goes.
                connection.abort();
                request
                    .await
                    .expect("the request's task ends with its connection");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solve_stops_when_its_client_goes_away() {
    abandoned_every_way(Work::json("/solve", json!({ "grid": busy_grid() }))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rating_stops_when_its_client_goes_away() {
    // The rating alone, on this thread: it costs far more than the budget.
    let grid = Grid::parse_symbols(HARD).unwrap();
    let started = thread_cpu_time();
    logic::rate(&grid, &Cancellation::none()).expect("the puzzle is rated");
    let cost = thread_cpu_time() - started;
    assert!(cost > 2 * BUDGET, "the rating took only {cost:?}");
    abandoned_every_way(Work::json("/rate", json!({ "grid": HARD }))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_explanation_stops_when_its_client_goes_away() {
    abandoned_every_way(Work::json("/explain", json!({ "grid": busy_grid() }))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_stops_when_its_client_goes_away() {
    let request = json!({ "puzzle": busy_grid(), "grid": busy_grid() });
    abandoned_every_way(Work::json("/hint", request)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generation_stops_when_its_client_goes_away() {
    // A rare band, many minimal puzzles: minutes of work.
    let request = json!({ "level": "extreme", "minimal": true, "count": 100, "seed": 1 });
    abandoned_every_way(Work::json("/generate", request)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_solves_stops_when_its_client_goes_away() {
    abandoned_every_way(Work::batch("/solve/batch", 20, &busy_grid())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_ratings_stops_when_its_client_goes_away() {
    abandoned_every_way(Work::batch("/rate/batch", 20, HARD)).await;
}

/// The CPU time this thread has used.
fn thread_cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec to write to.
    assert_eq!(
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) },
        0
    );
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}
