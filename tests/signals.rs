//! The binary as a container runs it: started as a child process, stopped with SIGTERM or
//! SIGINT. A request in flight is answered, the process exits 0, and a request that
//! outlives the grace period does not keep the process alive. Its log is read too.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "api/busy_grid.rs"]
mod busy_grid;
mod common;

use busy_grid::busy_grid;
use common::raw_http::{RawConnection, RawResponse, request};

const BINARY: &str = env!("CARGO_BIN_EXE_sudoku-service");

/// How long a test waits for the process before calling it hung.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// The service, running as a child process.
struct Service {
    child: Child,
    addr: SocketAddr,
    logs: mpsc::Receiver<String>,
}

impl Service {
    /// Starts the binary on a free loopback port, with JSON logs, and waits until it listens.
    fn start(args: &[&str]) -> Service {
        let mut child = Command::new(BINARY)
            .args([
                "serve",
                "--listen-addr",
                "127.0.0.1:0",
                "--log-format",
                "json",
            ])
            .args(args)
            .env("RUST_LOG", "info")
            .env_remove("PORT")
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let logs = forward_lines(child.stdout.take().unwrap());
        let addr = loop {
            let line = logs
                .recv_timeout(HANG_GUARD)
                .expect("the service logs that it listens");
            let event: Value = serde_json::from_str(&line).expect("log lines are JSON");
            if event["fields"]["message"] == "listening" {
                break event["fields"]["addr"].as_str().unwrap().parse().unwrap();
            }
        };
        Service { child, addr, logs }
    }

    /// Sends `signal` to the process.
    fn signal(&self, signal: libc::c_int) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: `kill` has no memory-safety preconditions; the pid is our own child's.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }

    /// Waits for the process to exit, killing it if it hangs.
    fn wait(mut self) -> (ExitStatus, Vec<String>) {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > HANG_GUARD {
                self.child.kill().unwrap();
                panic!("the service did not exit");
            }
            thread::sleep(Duration::from_millis(20));
        };
        (status, self.logs.try_iter().collect())
    }

    /// Waits until a log line contains `text` (lines before it are dropped).
    fn wait_for_log(&self, text: &str) {
        loop {
            let line = self
                .logs
                .recv_timeout(HANG_GUARD)
                .unwrap_or_else(|_| panic!("no log line with {text:?}"));
            if line.contains(text) {
                return;
            }
        }
    }

    /// Waits until the metric line starting with `series` shows `value`.
    fn wait_for_metric(&self, series: &str, value: &str) {
        let started = Instant::now();
        while started.elapsed() < HANG_GUARD {
            let metrics = request(self.addr, "GET", "/metrics", "").expect("metrics");
            let shown = metrics
                .body
                .lines()
                .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '));
            if shown == Some(value) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        panic!("{series} never showed {value}");
    }
}

/// Hands the child's output on line by line, so its pipe never fills up.
fn forward_lines(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

/// Starts a busy solve in the background and returns its eventual response.
fn solve_in_background(
    service: &Service,
    timeout_ms: u64,
) -> thread::JoinHandle<Option<RawResponse>> {
    let addr = service.addr;
    let body = json!({ "grid": busy_grid(), "timeout_ms": timeout_ms }).to_string();
    let in_flight = thread::spawn(move || request(addr, "POST", "/solve", &body));
    service.wait_for_metric("sudoku_solver_slots_in_use", "1");
    in_flight
}

#[test]
fn sigterm_answers_the_request_in_flight_and_exits_0() {
    let service = Service::start(&["--solver-concurrency", "1", "--shutdown-grace-secs", "30"]);
    let in_flight = solve_in_background(&service, 1500);

    service.signal(libc::SIGTERM);
    let response = in_flight.join().unwrap().expect("an answer");
    let answered =
        response.status == 503 && response.body.contains("solve_timeout") || response.status == 200;
    assert!(answered, "the request in flight got: {response:?}");

    let (status, logs) = service.wait();
    assert_eq!(status.code(), Some(0), "{logs:#?}");
    assert!(
        logs.iter().any(|line| line.contains("SIGTERM received")),
        "{logs:#?}"
    );
}

#[test]
fn sigint_stops_an_idle_service_with_exit_0() {
    let service = Service::start(&[]);
    let ready = request(service.addr, "GET", "/readyz", "").expect("an answer");
    assert_eq!(ready.status, 200);
    service.signal(libc::SIGINT);
    let addr = service.addr;
    let (status, logs) = service.wait();
    assert_eq!(status.code(), Some(0), "{logs:#?}");
    assert!(TcpStream::connect(addr).is_err(), "the listener is closed");
}

#[test]
fn every_request_leaves_a_log_line_even_one_that_is_not_valid_http() {
    let service = Service::start(&["--header-limit-bytes", "1024"]);
    let healthy = request(service.addr, "GET", "/healthz", "").expect("an answer");
    assert_eq!(healthy.status, 200);
    let cases = [
        (
            "GET / HTTP/1.1\r\nHost: a\r\nno colon\r\n\r\n".to_owned(),
            400,
        ),
        (
            format!(
                "GET / HTTP/1.1\r\nHost: a\r\nX: {}\r\n\r\n",
                "a".repeat(20_000)
            ),
            431,
        ),
    ];
    for (bytes, status) in cases {
        let answer = RawConnection::open(service.addr).send(bytes).response();
        assert_eq!(answer.map(|answer| answer.status), Some(status));
    }
    service.signal(libc::SIGTERM);
    let (_, logs) = service.wait();
    let events: Vec<Value> = logs
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).expect("log lines are JSON"))
        .collect();
    let answered = events
        .iter()
        .find(|event| event["fields"]["message"] == "answered")
        .expect("the /healthz request is logged");
    assert_eq!(answered["fields"]["status"], 200, "{answered}");
    assert!(answered["fields"]["latency_ms"].is_f64(), "{answered}");
    let rejected: Vec<&Value> = events
        .iter()
        .filter(|event| event["fields"]["message"] == "request is not valid HTTP")
        .collect();
    assert_eq!(rejected.len(), 2, "{logs:#?}");
    for event in rejected {
        let fields = &event["fields"];
        assert!(
            fields["peer"].is_string() && fields["error"].is_string(),
            "{event}"
        );
    }
}

#[test]
fn a_request_longer_than_the_grace_period_does_not_hold_up_the_exit() {
    let service = Service::start(&[
        "--solver-concurrency",
        "1",
        "--solve-timeout-ms",
        "600000",
        "--shutdown-grace-secs",
        "1",
    ]);
    let in_flight = solve_in_background(&service, 600_000);

    service.signal(libc::SIGTERM);
    let (status, logs) = service.wait();
    assert_eq!(status.code(), Some(0), "{logs:#?}");
    assert!(
        logs.iter().any(|line| line.contains("grace period over")),
        "{logs:#?}"
    );
    assert!(
        in_flight.join().unwrap().is_none(),
        "the abandoned request gets no answer"
    );
}

#[test]
fn during_the_drain_delay_readyz_is_503_and_stalled_clients_do_not_hold_up_the_exit() {
    let service = Service::start(&["--drain-delay-secs", "2", "--shutdown-grace-secs", "1"]);
    // A client stalled inside its body holds a request open.
    let mut stalled = RawConnection::open(service.addr);
    stalled.send(
        "POST /solve HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{",
    );
    service.signal(libc::SIGTERM);
    service.wait_for_log("still serving until the drain delay ends");
    let ready = request(service.addr, "GET", "/readyz", "").expect("still serving");
    assert_eq!(ready.status, 503, "{ready:?}");
    assert!(ready.body.contains("draining"), "{ready:?}");

    let (status, logs) = service.wait();
    assert_eq!(status.code(), Some(0), "{logs:#?}");
    assert!(stalled.closed_by_server(), "the stalled client was closed");
}
