//! Variant input that no request can turn into gigabytes: the binary as a child process,
//! with `SOLVE_TIMEOUT_MS=2000`, gets f-puzzles documents whose `negative` list repeats
//! `"ratio"` thousands of times (a few kilobytes of lz-string text that decode to
//! hundreds), the same rule repeated in the native form, rule sets past the compiled
//! limit, batches of such lines and several at once. Each gets its answer or its 4xx, and
//! the process's peak resident memory (`VmHWM`) stays within the bounds that
//! `docs/operations.md` states. How long each takes is measured by
//! `benches/service/bombs.py`, not here.

mod common;

use std::net::SocketAddr;
use std::thread;

use serde_json::{Value, json};
use sudoku_engine::variant::lz_string::compress_to_base64;

use common::child::Service;
use common::raw_http::{RawConnection, RawResponse, request};

const MIB: u64 = 1024 * 1024;

/// An f-puzzles document of an empty 16×16 grid whose `negative` list names `"ratio"`
/// `repeats` times, as lz-string text.
fn repeated_negative(repeats: usize) -> String {
    let document = json!({
        "size": 16,
        "grid": vec![vec![json!({}); 16]; 16],
        "negative": vec!["ratio"; repeats],
    });
    compress_to_base64(&document.to_string())
}

/// POSTs a JSON body; the answer.
fn post(service: &Service, path: &str, body: &Value) -> RawResponse {
    request(service.addr, "POST", path, &body.to_string()).expect("an answer")
}

/// POSTs NDJSON lines to a batch endpoint at `addr`; the answer's lines, read to the end
/// of its chunked body.
fn post_batch(addr: SocketAddr, path: &str, lines: &[Value]) -> String {
    let body: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-ndjson\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let answer = RawConnection::open(addr)
        .send(head)
        .send(body)
        .read_until_closed();
    let answer = String::from_utf8(answer).expect("UTF-8");
    let (head, mut chunks) = answer.split_once("\r\n\r\n").expect("a head");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let mut body = String::new();
    while let Some((size, rest)) = chunks.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        body.push_str(&rest[..size]);
        chunks = rest[size..].trim_start_matches("\r\n");
        if size == 0 {
            break;
        }
    }
    body
}

/// The status of each line of a batch's answer.
fn line_statuses(answer: &str) -> Vec<u64> {
    answer
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).expect("NDJSON");
            line["status"].as_u64().unwrap_or(200)
        })
        .collect()
}

fn start() -> Service {
    Service::start(&["--solve-timeout-ms", "2000"])
}

#[test]
fn repeated_rules_count_once_and_memory_stays_bounded() {
    let service = start();
    // 100,000 repeats decode to more text than a document may have.
    for (repeats, read) in [(2_000, true), (20_000, true), (100_000, false)] {
        let text = repeated_negative(repeats);
        assert!(
            text.len() < 8 * 1024,
            "{repeats} repeats take {} bytes",
            text.len()
        );
        let body = json!({ "fpuzzles": text, "unique": true });
        let answer = post(&service, "/solve", &body);
        let checked = post(&service, "/validate", &json!({ "fpuzzles": text }));
        if read {
            assert!(
                matches!(answer.status, 200 | 503),
                "{repeats}: {}",
                answer.body
            );
            assert_eq!(checked.status, 200, "{repeats}: {}", checked.body);
        } else {
            for answer in [answer, checked] {
                assert_eq!(answer.status, 422, "{repeats}: {}", answer.body);
                assert!(
                    answer.body.contains("decodes to more than"),
                    "{}",
                    answer.body
                );
            }
        }
    }
    let rules = vec![json!({ "kind": "negative", "relation": "ratio" }); 1_400];
    let native = json!({ "grid": ".".repeat(256), "rules": rules });
    let answer = post(&service, "/solve", &native);
    assert!(matches!(answer.status, 200 | 503), "{}", answer.body);
    assert!(
        service.peak_rss() < 128 * MIB,
        "{} MiB",
        service.peak_rss() / MIB
    );

    // A batch of ten such lines, then four at once.
    let line = json!({ "fpuzzles": repeated_negative(20_000) });
    let answer = post_batch(service.addr, "/solve/batch", &vec![line.clone(); 10]);
    let statuses = line_statuses(&answer);
    assert_eq!(statuses.len(), 10, "{answer}");
    assert!(
        statuses.iter().all(|status| matches!(status, 200 | 503)),
        "{statuses:?}"
    );
    assert!(
        service.peak_rss() < 128 * MIB,
        "{} MiB",
        service.peak_rss() / MIB
    );
    let addr = service.addr;
    thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let answer = post_batch(addr, "/solve/batch", &vec![line.clone(); 10]);
                assert_eq!(line_statuses(&answer).len(), 10, "{answer}");
            });
        }
    });
    assert!(
        service.peak_rss() < 256 * MIB,
        "{} MiB",
        service.peak_rss() / MIB
    );
}

#[test]
fn rules_past_the_compiled_limit_get_too_many_rules() {
    let service = start();
    // A thousand cages of eight cells on a 16×16 grid, each with a sum that hundreds of
    // sets of digits reach: past 200 per cell after the first hundred.
    let cage = |index: usize| {
        let row = index % 16 + 1;
        let cells: Vec<String> = (1..=8).map(|col| format!("R{row}C{col}")).collect();
        json!({ "cells": cells, "value": "68" })
    };
    let document = json!({
        "size": 16,
        "grid": vec![vec![json!({}); 16]; 16],
        "killercage": (0..1_000).map(cage).collect::<Vec<Value>>(),
    });
    let body = json!({ "fpuzzles": compress_to_base64(&document.to_string()) });
    for path in ["/solve", "/validate"] {
        let answer = post(&service, path, &body);
        assert_eq!(answer.status, 422, "{path}: {}", answer.body);
        let problem: Value = serde_json::from_str(&answer.body).unwrap();
        assert_eq!(problem["code"], "too_many_rules");
        assert!(
            problem["detail"].as_str().unwrap().contains("51200"),
            "{problem}"
        );
    }
    let answer = post_batch(service.addr, "/validate/batch", &[body.clone(), body]);
    assert_eq!(line_statuses(&answer), [422, 422]);
    assert!(
        service.peak_rss() < 128 * MIB,
        "{} MiB",
        service.peak_rss() / MIB
    );
    // The server is as it was: a small puzzle is solved.
    let health = request(service.addr, "GET", "/healthz", "").expect("an answer");
    assert_eq!(health.status, 200);
}
