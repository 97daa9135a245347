//! The binary as a container runs it: started as a child process, stopped with SIGTERM or
//! SIGINT. A request in flight is answered, the process exits 0, and a request that
//! outlives the grace period does not keep the process alive. Its log is read too.

use std::net::TcpStream;
use std::thread;

use serde_json::{Value, json};

#[path = "api/busy_grid.rs"]
mod busy_grid;
mod common;

use busy_grid::busy_grid;
use common::child::Service;
use common::raw_http::{RawConnection, RawResponse, request};

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
