//! Hostile and unusual clients against the real server, with its timeouts set short so
//! that no test waits long: stalled heads and bodies, clients that never read, half-closes,
//! unfit request ids, broken framing, oversized bodies announced up front, the connection
//! cap, HTTP/2 with prior knowledge, and a drain that `/readyz` reports.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::Request;
use reqwest::StatusCode;
use serde_json::{Value, json};
use sudoku_service::config::ServeConfig;

use crate::helpers::{
    CLASSIC, RawConnection, busy_grid, limits, request_bytes, serve_config, spawn_app,
    spawn_app_with,
};

/// Every server timeout, in milliseconds, for these tests: short, so stalled clients are
/// dealt with at once, yet far above what an honest request on loopback takes.
const SHORT_MS: u64 = 300;

/// The test configuration with every connection timeout at [`SHORT_MS`].
fn short_timeouts() -> ServeConfig {
    let mut config = serve_config(limits());
    config.header_read_timeout_ms = SHORT_MS;
    config.body_read_timeout_ms = SHORT_MS;
    config.idle_timeout_ms = SHORT_MS;
    config.write_timeout_ms = SHORT_MS;
    config
}

/// The series of connections closed for `reason`.
fn closed(reason: &str) -> String {
    format!(r#"sudoku_connections_closed_total{{reason="{reason}"}}"#)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_head_is_closed_at_the_header_timeout_and_counted() {
    let mut config = short_timeouts();
    config.idle_timeout_ms = 60_000;
    let server = spawn_app_with(config);
    let closed_by_server = server
        .blocking(|addr| {
            let mut client = RawConnection::open(addr);
            client.send("POST /solve HTTP/1.1\r\nHost: test\r\nContent-Le");
            client.closed_by_server()
        })
        .await;
    assert!(closed_by_server);
    server.wait_for_metric(&closed("header_timeout"), 1.0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_body_gets_408_and_its_connection_is_closed() {
    let server = spawn_app_with(short_timeouts());
    let (answer, then_closed) = server
        .blocking(|addr| {
            let mut client = RawConnection::open(addr);
            client.send(
                "POST /solve HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
                 Content-Length: 100\r\n\r\n{\"grid\": ",
            );
            let answer = client.response();
            (answer, client.closed_by_server())
        })
        .await;
    let answer = answer.expect("an answer");
    assert_eq!(answer.status, 408, "{answer:?}");
    let problem: Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(problem["code"], "request_timeout");
    assert!(then_closed);
    server.wait_for_metric(&closed("body_timeout"), 1.0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed_at_the_write_timeout() {
    let server = spawn_app_with(short_timeouts());
    // Far more answers than the socket buffers hold (the API description is 25 KB).
    let pipelined = "GET /openapi.yaml HTTP/1.1\r\nHost: test\r\n\r\n".repeat(2000);
    let client = server
        .blocking(move |addr| {
            let mut client = RawConnection::open(addr);
            client.send(pipelined);
            client
        })
        .await;
    server.wait_for_metric(&closed("write_timeout"), 1.0).await;
    drop(client);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http2_client_that_grants_no_window_is_closed_at_the_write_timeout() {
    let server = spawn_app_with(short_timeouts());
    let tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    // The client answers PINGs, but opens no stream's window: no answer's data can flow.
    let (mut client, connection) = h2::client::Builder::new()
        .initial_window_size(0)
        .handshake::<_, Bytes>(tcp)
        .await
        .unwrap();
    let connection = tokio::spawn(connection);
    let request = Request::get(server.url("/openapi.yaml")).body(()).unwrap();
    let (response, _) = client.send_request(request, true).unwrap();
    let response = response.await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    server.wait_for_metric(&closed("write_timeout"), 1.0).await;
    let ended = tokio::time::timeout(Duration::from_secs(30), connection).await;
    assert!(ended.is_ok(), "the server kept the connection open");
    drop(response);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http2_client_that_ignores_the_goodbye_is_closed_after_the_idle_timeout() {
    let server = spawn_app_with(short_timeouts());
    let frames = server
        .blocking(|addr| {
            let mut client = RawConnection::open(addr);
            // The preface and empty SETTINGS; then nothing, not even the ack of a PING.
            client.send(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x04\0\0\0\0\0");
            frame_types(&client.read_until_closed())
        })
        .await;
    const GOAWAY: u8 = 7;
    assert!(frames.contains(&GOAWAY), "frames: {frames:?}");
    server.wait_for_metric(&closed("idle_timeout"), 1.0).await;
}

/// The types of the HTTP/2 frames in `bytes`, which a server sent.
fn frame_types(bytes: &[u8]) -> Vec<u8> {
    let mut types = Vec::new();
    let mut rest = bytes;
    while rest.len() >= 9 {
        let length = usize::from(rest[0]) << 16 | usize::from(rest[1]) << 8 | usize::from(rest[2]);
        types.push(rest[3]);
        rest = &rest[(9 + length).min(rest.len())..];
    }
    types
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_without_requests_is_closed_at_the_idle_timeout() {
    let mut config = short_timeouts();
    config.header_read_timeout_ms = 60_000;
    let server = spawn_app_with(config);
    let (answered, then_closed, silent_closed) = server
        .blocking(|addr| {
            let mut client = RawConnection::open(addr);
            client.send(request_bytes("GET", "/healthz", ""));
            let answered = client.response().map(|answer| answer.status);
            // One that never says a word, not even which protocol it speaks.
            let mut silent = RawConnection::open(addr);
            (
                answered,
                client.closed_by_server(),
                silent.closed_by_server(),
            )
        })
        .await;
    assert_eq!(answered, Some(200));
    assert!(then_closed && silent_closed);
    server.wait_for_metric(&closed("idle_timeout"), 2.0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_half_closes_while_its_request_runs_has_gone_away() {
    let server = spawn_app(limits()).await;
    let body = json!({ "grid": busy_grid() }).to_string();
    let mut connection = server
        .blocking(move |addr| {
            let mut connection = RawConnection::open(addr);
            connection.send(request_bytes("POST", "/solve", &body));
            connection
        })
        .await;
    server
        .wait_for_metric("sudoku_solver_slots_in_use", 1.0)
        .await;
    let answer = server
        .blocking(move |_| connection.shutdown_write().response())
        .await;
    assert!(answer.is_none(), "{answer:?}");
    server
        .wait_for_metric(
            r#"sudoku_http_requests_total{route="/solve",status="499"}"#,
            1.0,
        )
        .await;
    server
        .wait_for_metric("sudoku_solver_slots_in_use", 0.0)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_cut_off_before_its_length_is_a_bad_request_not_bad_json() {
    let server = spawn_app(limits()).await;
    let answer = server
        .blocking(|addr| {
            let head = "POST /solve HTTP/1.1\r\nHost: test\r\n\
                        Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
            RawConnection::open(addr)
                .send(format!("{head}{{\"grid\": "))
                .shutdown_write()
                .response()
        })
        .await
        .expect("an answer after the half-close");
    assert_eq!(answer.status, 400, "{answer:?}");
    assert!(
        answer.body.contains(r#""code":"bad_request""#),
        "{answer:?}"
    );
    assert!(answer.body.contains("cut off before its end"), "{answer:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unfit_request_id_is_replaced_and_a_fit_one_kept() {
    let server = spawn_app(limits()).await;
    let id_of = |sent: String| {
        let request = server.client.get(server.url("/healthz"));
        async move {
            let response = request.header("x-request-id", &sent).send().await.unwrap();
            let echoed = response.headers()["x-request-id"]
                .to_str()
                .unwrap()
                .to_owned();
            (sent, echoed)
        }
    };
    let fit = "a".repeat(128);
    let (sent, echoed) = id_of(fit).await;
    assert_eq!(sent, echoed);
    for unfit in ["b".repeat(129), "with space".into(), String::new()] {
        let (sent, echoed) = id_of(unfit).await;
        assert_ne!(sent, echoed);
        assert_eq!(echoed.len(), 36, "a fresh UUID: {echoed}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_framing_is_strict() {
    let server = spawn_app(limits()).await;
    let statuses = server
        .blocking(|addr| {
            let status = |request: &str| {
                let answer = RawConnection::open(addr).send(request).response();
                let answer = answer.expect("an answer");
                let problem: Value = serde_json::from_str(&answer.body).unwrap_or_default();
                (
                    answer.status,
                    problem["code"].as_str().unwrap_or("").to_owned(),
                )
            };
            [
                status("GET /healthz HTTP/1.1\r\n\r\n"),
                status("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
                status("GET /healthz HTTP/1.0\r\n\r\n"),
                status(
                    "POST /solve HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n\
                     Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
                ),
                status(&format!(
                    "GET /healthz HTTP/1.1\r\nHost: a\r\nx-padding: {}\r\n\r\n",
                    "p".repeat(9000)
                )),
                // 100 header fields, Host among them, are taken; the HTTP layer refuses a
                // 101st with a bare 431, however small the head.
                status(&header_fields(100)),
                status(&header_fields(101)),
                status("GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n"),
                status("GET /healthz HTTP/1.1\r\nHost: user@a\r\n\r\n"),
                status("GET /healthz HTTP/1.1\r\nHost: a:99999999\r\n\r\n"),
                status("GET /healthz HTTP/1.1\r\nHost: a:+80\r\n\r\n"),
                status("GET /healthz HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n"),
                status("GET /healthz HTTP/1.1\r\nHost: \r\n\r\n"),
            ]
        })
        .await;
    let expected = [
        (400, "bad_request"),
        (400, "bad_request"),
        (200, ""),
        (501, "not_implemented"),
        (431, "headers_too_large"),
        (200, ""),
        (431, ""),
        (400, "bad_request"),
        (400, "bad_request"),
        (400, "bad_request"),
        (400, "bad_request"),
        (200, ""),
        (200, ""),
    ];
    assert_eq!(statuses.len(), expected.len());
    for ((status, code), (want_status, want_code)) in statuses.iter().zip(expected) {
        assert_eq!(
            (*status, code.as_str()),
            (want_status, want_code),
            "{statuses:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lowest_header_limit_serves_and_refuses_heads_above_it_with_a_problem() {
    let mut config = serve_config(limits());
    config.header_limit_bytes = 1024;
    let server = spawn_app_with(config);
    let statuses = server
        .blocking(|addr| {
            let status = |padding: usize| {
                let head = format!(
                    "GET /healthz HTTP/1.1\r\nHost: a\r\nx-padding: {}\r\n\r\n",
                    "p".repeat(padding)
                );
                let answer = RawConnection::open(addr).send(head).response();
                let answer = answer.expect("an answer");
                let problem: Value = serde_json::from_str(&answer.body).unwrap_or_default();
                (
                    answer.status,
                    problem["code"].as_str().unwrap_or("").to_owned(),
                )
            };
            [status(500), status(2000)]
        })
        .await;
    assert_eq!(
        statuses,
        [(200, String::new()), (431, "headers_too_large".to_owned())]
    );
}

/// A `GET /healthz` with `count` header fields, `Host` and `count` − 1 short others.
fn header_fields(count: usize) -> String {
    let others: String = (1..count).map(|n| format!("x-{n}: 1\r\n")).collect();
    format!("GET /healthz HTTP/1.1\r\nHost: a\r\n{others}\r\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_announced_with_expect_continue_gets_413_before_any_100() {
    let server = spawn_app(limits()).await;
    let answer = server
        .blocking(|addr| {
            RawConnection::open(addr)
                .send(
                    "POST /solve HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n\
                     Content-Length: 10000000\r\nExpect: 100-continue\r\n\r\n",
                )
                .response()
        })
        .await
        .expect("an answer");
    assert_eq!(answer.status, 413, "{answer:?}");
    assert!(answer.body.contains("payload_too_large"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_the_connection_cap_new_clients_wait_until_a_place_frees_up() {
    let mut config = serve_config(limits());
    config.max_connections = 1;
    let server = spawn_app_with(config);
    let (held_answers, waiting_answer) = server
        .blocking(|addr| {
            let mut held = RawConnection::open(addr);
            held.send(request_bytes("GET", "/healthz", ""));
            let first = held.response().map(|answer| answer.status);
            // The second client's request waits in the backlog...
            let waiting = std::thread::spawn(move || {
                RawConnection::open(addr)
                    .send(request_bytes("GET", "/healthz", ""))
                    .response()
                    .map(|answer| answer.status)
            });
            // ...while the server keeps answering the connection it holds: its open
            // connections are still one.
            held.send(request_bytes("GET", "/metrics", ""));
            let metrics = held.response().expect("the held connection is answered");
            let open = metrics
                .body
                .lines()
                .find_map(|line| line.strip_prefix("sudoku_connections_open "))
                .map(str::to_owned);
            let waited = !waiting.is_finished();
            drop(held);
            ((first, open, waited), waiting.join().unwrap())
        })
        .await;
    assert_eq!(held_answers, (Some(200), Some("1".to_owned()), true));
    assert_eq!(
        waiting_answer,
        Some(200),
        "answered once the first client left"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http2_with_prior_knowledge_is_served() {
    let server = spawn_app(limits()).await;
    let response = server
        .h2
        .post(server.url("/solve"))
        .json(&json!({ "grid": CLASSIC }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.version(), reqwest::Version::HTTP_2);
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_draining_readyz_is_503_and_requests_are_still_served() {
    let mut config = serve_config(limits());
    config.drain_delay_secs = 60;
    let mut server = spawn_app_with(config);
    let ready = server
        .client
        .get(server.url("/readyz"))
        .send()
        .await
        .unwrap();
    assert_eq!(ready.status(), StatusCode::OK);

    server.begin_shutdown();
    // Over a new connection, as a load balancer's probe would come.
    let mut probe = None;
    for _ in 0..500 {
        let answer = server
            .blocking(|addr| {
                crate::common::raw_http::request(addr, "GET", "/readyz", "")
                    .map(|answer| (answer.status, answer.body))
            })
            .await;
        if answer.as_ref().is_some_and(|(status, _)| *status == 503) {
            probe = answer;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (_, body) = probe.expect("/readyz turned 503");
    assert!(body.contains("draining"), "{body}");
    let solved = server.post("/solve", &json!({ "grid": CLASSIC })).await;
    assert_eq!(
        solved.status(),
        StatusCode::OK,
        "still serving during the delay"
    );
}

/// Honest requests, one after another on a kept-alive connection, are not cut short.
#[tokio::test]
async fn the_short_timeouts_leave_honest_requests_alone() {
    let server = spawn_app_with(short_timeouts());
    for _ in 0..3 {
        let solved = server.post("/solve", &json!({ "grid": CLASSIC })).await;
        assert_eq!(solved.status(), StatusCode::OK);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_that_leaves_a_large_body_unread_says_the_connection_closes() {
    let server = spawn_app(limits()).await;
    let solve = json!({ "grid": CLASSIC }).to_string();
    let (refused, closed, kept) = server
        .blocking(move |addr| {
            // Refused before a byte of its body is read: the rest of it is still on the
            // connection, ahead of any next request.
            let large = "x".repeat(60_000);
            let mut client = RawConnection::open(addr);
            client.send(format!(
                "POST /solve HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\n\
                 Content-Length: {}\r\n\r\n{large}",
                large.len()
            ));
            let refused = client.response();
            let closed = client.closed_by_server();
            // A body read whole, no body at all, and a small body that arrived with its
            // head (which hyper skips) leave the connection open.
            let mut client = RawConnection::open(addr);
            let kept = [
                client
                    .send(request_bytes("POST", "/no/such/path", &solve))
                    .response(),
                client
                    .send(request_bytes("POST", "/solve", &solve))
                    .response(),
                client
                    .send("GET /no/such/path HTTP/1.1\r\nHost: test\r\n\r\n")
                    .response(),
                client
                    .send(request_bytes("POST", "/solve", &solve))
                    .response(),
            ];
            (refused, closed, kept)
        })
        .await;
    let refused = refused.expect("an answer before the close");
    assert_eq!(refused.status, 415, "{refused:?}");
    assert_eq!(refused.header("connection"), Some("close"), "{refused:?}");
    assert!(closed);
    let statuses = kept.map(|answer| {
        let answer = answer.expect("an answer on the kept connection");
        assert_eq!(answer.header("connection"), None, "{answer:?}");
        answer.status
    });
    assert_eq!(statuses, [404, 200, 404, 200]);
}
