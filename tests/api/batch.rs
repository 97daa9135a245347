//! The NDJSON batch endpoints: one answer per line in input order, each the single
//! endpoint's answer or its problem; per-line errors; the batch limits and its total time
//! limit; answers streamed before the body has all arrived and before the rest of their
//! group; and a client that goes away cancelling what is left.

use axum::http::StatusCode;
use serde_json::{Value, json};
use sudoku_service::http::Limits;

use crate::helpers::{
    CLASSIC, RawConnection, app, app_with, busy_grid, limits, one_solver, post_json, post_raw,
    serve_config, small_rows, spawn_app, spawn_app_with,
};

const NDJSON: &str = "application/x-ndjson";

/// The lines of an NDJSON answer, as JSON.
fn lines(body: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(body).expect("UTF-8");
    assert!(text.is_empty() || text.ends_with('\n'), "{text}");
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// POSTs `body` to the batch endpoint `path` of a fresh app under `limits`; expects 200
/// and NDJSON, and returns the answer's lines.
async fn batch_with(limits: Limits, path: &str, body: &str) -> Vec<Value> {
    let answer = post_raw(&app_with(limits), path, NDJSON, body.to_owned()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    assert_eq!(answer.headers["content-type"], NDJSON);
    lines(&answer.body)
}

/// `value` without its `line` member.
fn without_line(mut value: Value) -> Value {
    value.as_object_mut().expect("an object").remove("line");
    value
}

/// `value` without the members that differ between two runs (a solve's timing).
fn stable(mut value: Value) -> Value {
    if let Some(stats) = value.get_mut("stats").and_then(Value::as_object_mut) {
        stats.remove("elapsed_us");
    }
    value
}

#[tokio::test]
async fn every_line_gets_what_its_single_endpoint_answers_in_input_order() {
    let requests = [
        ("/solve", json!({ "grid": CLASSIC, "unique": true })),
        ("/solve", json!({ "grid": small_rows() })),
        ("/solve", json!({ "grid": "12" })),
        ("/solve", json!({ "grid": format!("55{}", &CLASSIC[2..]) })),
        ("/validate", json!({ "grid": CLASSIC, "solvable": true })),
        ("/validate", json!({ "grid": [[1, 1], [0, 0]] })),
        ("/rate", json!({ "grid": CLASSIC })),
        ("/rate", json!({ "grid": small_rows() })),
        ("/explain", json!({ "grid": CLASSIC })),
        ("/explain", json!({ "grid": "..." })),
    ];
    for (path, request) in requests {
        let single = post_json(&app(), path, &request).await;
        let body = format!("{request}\n");
        let answers = batch_with(limits(), &format!("{path}/batch"), &body).await;
        assert_eq!(answers.len(), 1, "{path} {request}");
        assert_eq!(answers[0]["line"], 1);
        assert_eq!(
            stable(without_line(answers[0].clone())),
            stable(single.json()),
            "{path} {request}"
        );
    }
}

#[tokio::test]
async fn bad_lines_are_answered_alone_and_blank_lines_keep_their_numbers() {
    let body = format!(
        "{}\nnot json\n\n{{\"grid\": \"12\"}}\r\n{{\"grid\": \"{CLASSIC}\", \"nope\": 1}}\n{}",
        json!({ "grid": CLASSIC }),
        // The last line needs no newline.
        json!({ "grid": small_rows() }),
    );
    let answers = batch_with(limits(), "/solve/batch", &body).await;
    let numbers: Vec<_> = answers
        .iter()
        .map(|a| a["line"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 4, 5, 6], "line 3 is blank: {answers:?}");
    assert!(answers[0]["solution"].is_string(), "{}", answers[0]);
    assert_eq!(answers[1]["code"], "invalid_json");
    assert_eq!(answers[1]["status"], 400);
    // A position within the line is a column alone: `line` says which line.
    let not_json = answers[1]["detail"].as_str().unwrap();
    assert!(
        not_json.starts_with(
            "expected JSON (a word outside quotes can only be true, false or null) at column 2"
        ),
        "{not_json}"
    );
    assert_eq!(answers[2]["code"], "invalid_grid");
    assert_eq!(answers[3]["code"], "invalid_request");
    let unknown_field = answers[3]["detail"].as_str().unwrap();
    assert!(
        unknown_field.starts_with("unknown field `nope`")
            && unknown_field.ends_with(" at column 100"),
        "{unknown_field}"
    );
    assert!(answers[4]["solution"].is_array(), "{}", answers[4]);
}

#[tokio::test]
async fn a_batch_sent_without_line_ends_as_an_array_or_as_puzzle_text_says_so() {
    let line = json!({ "grid": CLASSIC });
    // A file of puzzles sent as it is.
    let answers = batch_with(limits(), "/solve/batch", &format!("{CLASSIC}\n# a comment")).await;
    for answer in &answers {
        let detail = answer["detail"].as_str().unwrap();
        assert!(detail.contains("jq -Rc '{grid: .}'"), "{detail}");
    }
    // What `curl -d` makes of a file of lines.
    let answers = batch_with(limits(), "/solve/batch", &format!("{line}{line}")).await;
    assert_eq!(answers.len(), 1, "{answers:?}");
    let detail = answers[0]["detail"].as_str().unwrap();
    assert!(detail.contains("--data-binary"), "{detail}");
    let array = "one JSON object per line, not an array";
    let answers = batch_with(limits(), "/solve/batch", &format!("[{line}, {line}]")).await;
    let detail = answers[0]["detail"].as_str().unwrap();
    assert!(detail.ends_with(array), "{detail}");
    // A pretty-printed array: each line but the last object is part of the array.
    let body = format!("[\n  {line},\n  {line}\n]\n{line} junk");
    let answers = batch_with(limits(), "/solve/batch", &body).await;
    let details: Vec<&str> = answers
        .iter()
        .map(|answer| answer["detail"].as_str().unwrap_or("solved"))
        .collect();
    assert!(
        details[0].ends_with(array) && details[1].ends_with(array),
        "{details:?}"
    );
    assert_eq!(details[2], "solved");
    assert!(details[3].ends_with(array), "{details:?}");
    // Other bad lines get no hint.
    assert!(
        details[4].starts_with("trailing characters at column"),
        "{details:?}"
    );
    assert!(!details[4].contains("curl"), "{details:?}");
}

#[tokio::test]
async fn many_lines_come_back_in_input_order() {
    // Puzzles that differ, so an answer out of place would not match its line.
    let puzzles: Vec<String> = (0..200)
        .map(|k| {
            let mut grid = crate::helpers::CLASSIC_SOLUTION.as_bytes().to_vec();
            grid[k % 81] = b'.';
            grid[(k * 7 + 3) % 81] = b'.';
            String::from_utf8(grid).unwrap()
        })
        .collect();
    let body: String = puzzles
        .iter()
        .map(|grid| format!("{}\n", json!({ "grid": grid })))
        .collect();
    let answers = batch_with(limits(), "/solve/batch", &body).await;
    assert_eq!(answers.len(), puzzles.len());
    for (index, (answer, puzzle)) in answers.iter().zip(&puzzles).enumerate() {
        assert_eq!(answer["line"], index + 1);
        let solution = answer["solution"].as_str().unwrap();
        assert!(
            puzzle
                .bytes()
                .zip(solution.bytes())
                .all(|(given, cell)| given == b'.' || given == cell),
            "line {} is not the answer to its puzzle",
            index + 1
        );
    }
}

#[tokio::test]
async fn lines_beyond_the_limit_end_the_answer_with_a_problem_line() {
    let limits = Limits {
        batch_max_lines: 2,
        ..limits()
    };
    let line = format!("{}\n", json!({ "grid": CLASSIC }));
    let answers = batch_with(limits, "/solve/batch", &line.repeat(4)).await;
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert!(answers[1]["solution"].is_string());
    assert_eq!(answers[2]["line"], 3);
    assert_eq!(answers[2]["code"], "payload_too_large");
    assert_eq!(answers[2]["status"], 413);
}

#[tokio::test]
async fn a_batch_alone_never_overloads_a_pool_without_a_queue() {
    // Line 1 and line 65 (the first of the second group) each hold the only solver until
    // their limit: a second group answered meanwhile would find no place.
    let busy = format!("{}\n", json!({ "grid": busy_grid() }));
    let easy = format!("{}\n", json!({ "grid": CLASSIC }));
    let body = [busy.clone(), easy.repeat(63), busy, easy].concat();
    let limits = one_solver(0, std::time::Duration::from_millis(100));
    let answers = batch_with(limits, "/solve/batch", &body).await;
    assert_eq!(answers.len(), 66);
    for (index, answer) in answers.iter().enumerate() {
        let expected = match index {
            0 | 64 => "solve_timeout",
            _ => "",
        };
        assert_eq!(answer["code"].as_str().unwrap_or(""), expected, "{answer}");
    }
}

#[tokio::test]
async fn a_line_longer_than_a_single_body_is_refused_alone() {
    let limits = Limits {
        body_limit_bytes: 200,
        ..limits()
    };
    let long = json!({ "grid": CLASSIC, "padding": "x".repeat(300) });
    // A line of the limit exactly, whose CRLF line end does not count.
    let grid = json!({ "grid": CLASSIC }).to_string();
    let at_limit = format!("{}{grid}", " ".repeat(200 - grid.len()));
    let body = format!("{long}\n{at_limit}\r\n");
    let answers = batch_with(limits, "/solve/batch", &body).await;
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[0]["code"], "payload_too_large");
    assert_eq!(
        answers[0]["detail"],
        "the line is longer than the limit of 200 bytes, a single request's body limit"
    );
    assert!(answers[1]["solution"].is_string(), "{}", answers[1]);
}

#[tokio::test]
async fn a_body_over_the_batch_limit_is_answered_up_to_the_limit() {
    let line = format!("{}\n", json!({ "grid": CLASSIC }));
    let limits = Limits {
        batch_body_limit_bytes: 2 * line.len() + 10,
        ..limits()
    };
    // Sent as a stream of unknown length, so the limit is found while reading.
    let pieces = vec![Ok::<_, std::io::Error>(line.repeat(4))];
    let body = axum::body::Body::from_stream(futures_util::stream::iter(pieces));
    let answer = post_raw(&app_with(limits), "/solve/batch", NDJSON, body).await;
    let answers = lines(&answer.body);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert!(answers[1]["solution"].is_string());
    assert_eq!(answers[2]["code"], "payload_too_large");
}

#[tokio::test]
async fn a_declared_length_over_the_limit_and_a_wrong_type_are_refused_at_once() {
    let limits = Limits {
        batch_body_limit_bytes: 100,
        ..limits()
    };
    let answer = post_raw(&app_with(limits), "/solve/batch", NDJSON, "x".repeat(101)).await;
    answer.problem(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
    let answer = post_raw(&app(), "/solve/batch", "application/json", "{}").await;
    let problem = answer.problem(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type");
    assert!(problem["detail"].as_str().unwrap().contains(NDJSON));
}

/// Starts a chunked `POST /solve/batch` on a connection of its own, its first chunk
/// `line`, and leaves the body open.
fn open_chunked_batch(addr: std::net::SocketAddr, line: &str) -> RawConnection {
    let mut client = RawConnection::open(addr);
    client.send(format!(
        "POST /solve/batch HTTP/1.1\r\nHost: test\r\nContent-Type: {NDJSON}\r\n\
         Transfer-Encoding: chunked\r\n\r\n{:x}\r\n{line}\r\n",
        line.len()
    ));
    client
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_stream_before_the_body_has_all_arrived() {
    let server = spawn_app(limits()).await;
    let line = format!("{}\n", json!({ "grid": CLASSIC }));
    let (first, rest) = server
        .blocking(move |addr| {
            let mut client = open_chunked_batch(addr, &line);
            // The first answer arrives while the body is still open.
            let first = client.read_until("\"line\":1,");
            client.send(format!("{:x}\r\n{line}\r\n0\r\n\r\n", line.len()));
            (first, client.read_until("\"line\":2,"))
        })
        .await;
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    assert!(!first.contains("\"line\":2"), "{first}");
    assert!(rest.contains("\"solution\""), "{rest}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_body_slower_than_the_minimum_rate_ends_with_a_timeout_line() {
    let mut config = serve_config(limits());
    config.body_read_timeout_ms = 100;
    let server = spawn_app_with(config);
    let line = format!("{}\n", json!({ "grid": CLASSIC }));
    let answer = server
        .blocking(move |addr| {
            // Then nothing more.
            open_chunked_batch(addr, &line).read_until("request_timeout")
        })
        .await;
    let solved = answer.find("\"line\":1,").expect("line 1 is answered");
    let timed_out = answer.find("\"line\":2,").expect("a line 2 ends the batch");
    assert!(solved < timed_out, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_cancels_the_lines_left() {
    const IN_USE: &str = "sudoku_solver_slots_in_use";
    let server = spawn_app(one_solver(4, crate::helpers::GENEROUS_TIMEOUT)).await;
    let answered = r#"sudoku_http_requests_total{route="/solve/batch",status="200"}"#;
    let gone = r#"sudoku_http_requests_total{route="/solve/batch",status="499"}"#;
    // Over HTTP/2, where a dropped response resets its stream and the server sees it at
    // once (over HTTP/1.1 it sees it when it next writes an answer).
    let send = |grid: Value, lines: usize| {
        let line = format!("{}\n", json!({ "grid": grid }));
        let request = server.h2.post(server.url("/solve/batch"));
        request
            .header("content-type", NDJSON)
            .body(line.repeat(lines))
            .send()
    };
    // A batch read to its end is counted as answered.
    let whole = send(json!(CLASSIC), 2).await.expect("an answer");
    assert_eq!(lines(&whole.bytes().await.unwrap()).len(), 2);
    server.wait_for_metric(answered, 1.0).await;
    assert_eq!(server.metric(gone).await, 0.0);
    let answer = send(json!(busy_grid()), 3)
        .await
        .expect("the answer starts at once");
    assert_eq!(answer.status(), StatusCode::OK);
    server.wait_for_metric(IN_USE, 1.0).await;
    drop(answer);
    // Long before the 30 s limit, the solver is free again.
    server.wait_for_metric(IN_USE, 0.0).await;
    let abandoned = server
        .metric(r#"sudoku_solves_total{outcome="abandoned"}"#)
        .await;
    assert!(abandoned >= 1.0, "{abandoned}");
    // The batch is logged and counted when it ends, not when its answer started.
    server.wait_for_metric(gone, 1.0).await;
    assert_eq!(server.metric(answered).await, 1.0);
    let easy = server.post("/solve", &json!({ "grid": CLASSIC })).await;
    assert_eq!(easy.status(), StatusCode::OK);
}

/// A 9×9 puzzle of the forum's hardest list: rating it takes seconds.
const HARD: &str =
    "........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_out_of_time_answers_the_lines_left_with_batch_timeout_and_ends() {
    let limits = Limits {
        batch_timeout: std::time::Duration::from_millis(300),
        ..one_solver(4, crate::helpers::GENEROUS_TIMEOUT)
    };
    // One read, so one group: the busy grid holds the lines after it until the limit.
    let body = [
        json!(CLASSIC),
        json!(busy_grid()),
        json!(CLASSIC),
        json!(CLASSIC),
    ]
    .map(|grid| json!({ "grid": grid }).to_string())
    .join("\n");
    let answers = batch_with(limits, "/solve/batch", &body).await;
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert!(answers[0]["solution"].is_string(), "{}", answers[0]);
    for answer in &answers[1..] {
        assert_eq!(answer["code"], "batch_timeout", "{answer}");
        assert_eq!(answer["status"], 503, "{answer}");
        assert!(
            answer["detail"].as_str().unwrap().contains("300 ms"),
            "{answer}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_out_of_time_reads_no_more_of_its_body_and_says_where_it_stopped() {
    let mut config = serve_config(limits());
    config.batch_timeout_ms = 200;
    let server = spawn_app_with(config);
    let line = format!("{}\n", json!({ "grid": CLASSIC }));
    let answer = server
        .blocking(move |addr| {
            // The body stays open: the batch ends at its limit all the same.
            let mut client = open_chunked_batch(addr, &line);
            let answer = client.read_until("batch_timeout");
            (answer, client.read_until("0\r\n\r\n"))
        })
        .await;
    let (timed_out, end) = answer;
    assert!(timed_out.contains("\"line\":1,\"solution\""), "{timed_out}");
    assert!(timed_out.contains("{\"line\":2,"), "{timed_out}");
    assert!(end.ends_with("0\r\n\r\n"), "the answer ends: {end}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_goes_out_before_the_rest_of_its_group_is_answered() {
    const IN_USE: &str = "sudoku_solver_slots_in_use";
    let server = spawn_app(one_solver(4, crate::helpers::GENEROUS_TIMEOUT)).await;
    // Sent whole, so the lines arrive together and make one group; each busy line takes
    // its whole limit.
    let line = format!("{}\n", json!({ "grid": busy_grid(), "timeout_ms": 1000 }));
    let body = line.repeat(5);
    let first = server
        .blocking(move |addr| {
            let mut client = RawConnection::open(addr);
            client.send(format!(
                "POST /solve/batch HTTP/1.1\r\nHost: test\r\nContent-Type: {NDJSON}\r\n\
                 Content-Length: {}\r\n\r\n{body}",
                body.len()
            ));
            // The connection stays open: a client that leaves cancels the batch.
            (client.read_until("\"line\":1,"), client)
        })
        .await;
    let (first, _client) = first;
    assert!(first.contains("solve_timeout"), "{first}");
    // The lines after it are still being worked on.
    assert_eq!(server.metric(IN_USE).await, 1.0);
    assert!(!first.contains("\"line\":2,"), "{first}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_easy_solve_is_answered_while_a_batch_of_ratings_holds_the_solvers() {
    const IN_USE: &str = "sudoku_solver_slots_in_use";
    let server = spawn_app(limits()).await;
    let line = format!("{}\n", json!({ "grid": HARD }));
    let batch = server
        .h2
        .post(server.url("/rate/batch"))
        .header("content-type", NDJSON)
        .body(line.repeat(200))
        .send();
    let batch = tokio::spawn(batch);
    server.wait_for_metric(IN_USE, 2.0).await;
    let easy = server
        .post("/solve", &json!({ "grid": CLASSIC, "timeout_ms": 5000 }))
        .await;
    assert_eq!(easy.status(), StatusCode::OK);
    batch.abort();
}
