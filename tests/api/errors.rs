//! The error table: every status and `code`, always as problem+json, and a sweep of
//! malformed requests that must each get the right answer and leave the server serving.

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::routing;
use serde_json::json;
use sudoku_service::http::{Metrics, with_layers};

use crate::helpers::{
    app, assert_problem, get, limits, post_chunked, post_json, post_raw, send, spawn_app,
};

/// A malformed request body, and the status and code it must get.
struct Case {
    what: &'static str,
    content_type: &'static str,
    body: Vec<u8>,
    status: StatusCode,
    code: &'static str,
}

fn case(
    what: &'static str,
    body: impl Into<Vec<u8>>,
    status: StatusCode,
    code: &'static str,
) -> Case {
    Case {
        what,
        content_type: "application/json",
        body: body.into(),
        status,
        code,
    }
}

/// Every kind of bad input the sweep sends to `/solve`.
fn malformed_requests() -> Vec<Case> {
    use StatusCode as S;
    let ten_megabytes = format!(r#"{{"grid":"{}"}}"#, ".".repeat(10 * 1024 * 1024));
    let deeply_nested = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let nested_grid = format!(r#"{{"grid":{}{}}}"#, "[".repeat(5_000), "]".repeat(5_000));
    vec![
        case("an empty body", "", S::BAD_REQUEST, "invalid_json"),
        case(
            "a JSON syntax error",
            r#"{"grid": "#,
            S::BAD_REQUEST,
            "invalid_json",
        ),
        case(
            "not JSON at all",
            "grid=53..7",
            S::BAD_REQUEST,
            "invalid_json",
        ),
        case("an array cut off", "[", S::BAD_REQUEST, "invalid_json"),
        case(
            "a wrong type, then cut off",
            r#"{"grid": 5,"#,
            S::BAD_REQUEST,
            "invalid_json",
        ),
        case(
            "a wrong type, then not JSON",
            r#"{"grid": 5 x}"#,
            S::BAD_REQUEST,
            "invalid_json",
        ),
        case(
            "invalid UTF-8",
            b"{\"grid\": \"\xff\xfe\"}".to_vec(),
            S::BAD_REQUEST,
            "invalid_json",
        ),
        case(
            "a JSON array",
            r#"["53..7"]"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "JSON null",
            "null",
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "no grid",
            r#"{"unique": true}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a number as grid",
            r#"{"grid": 5}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "an object as grid",
            r#"{"grid": {}}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a string cell in rows",
            r#"{"grid": [["1"]]}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a fraction in rows",
            r#"{"grid": [[1.5]]}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a string for unique",
            r#"{"grid": "", "unique": "yes"}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "an unknown order",
            r#"{"grid": "", "order": "random"}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a number as order",
            r#"{"grid": "", "order": 5}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "an enum written as an object",
            r#"{"grid": "", "order": {"fastest": null}}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a string for the time limit",
            r#"{"grid": "", "timeout_ms": "100"}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a number for solvable",
            r#"{"grid": "", "solvable": 1}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a zero timeout",
            r#"{"grid": "", "timeout_ms": 0}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a negative timeout",
            r#"{"grid": "", "timeout_ms": -5}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "an unknown field",
            r#"{"grid": "", "grid_size": 9}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "deeply nested arrays",
            deeply_nested,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a deeply nested grid",
            nested_grid,
            S::UNPROCESSABLE_ENTITY,
            "invalid_request",
        ),
        case(
            "a grid of the wrong length",
            r#"{"grid": "123456789"}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_grid",
        ),
        case(
            "an empty string grid",
            r#"{"grid": ""}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_grid",
        ),
        case(
            "a bad symbol",
            r#"{"grid": "12x4............"}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_grid",
        ),
        case(
            "a letter too big for 9×9",
            format!(r#"{{"grid": "A{}"}}"#, ".".repeat(80)),
            S::UNPROCESSABLE_ENTITY,
            "invalid_grid",
        ),
        case(
            "a value out of range",
            r#"{"grid": [[1,2,3,4],[0,0,0,0],[0,0,0,0],[0,0,0,5]]}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_grid",
        ),
        case(
            "a negative value",
            r#"{"grid": [[-1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_grid",
        ),
        case(
            "rows of different lengths",
            r#"{"grid": [[1,2,3,4],[0,0,0],[0,0,0,0],[0,0,0,0]]}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_grid",
        ),
        case(
            "no rows",
            r#"{"grid": []}"#,
            S::UNPROCESSABLE_ENTITY,
            "invalid_grid",
        ),
        case(
            "a 10 MB body",
            ten_megabytes,
            S::PAYLOAD_TOO_LARGE,
            "payload_too_large",
        ),
        Case {
            what: "a JSON syntax error, declared JSON with a charset",
            content_type: "application/json; charset=utf-8",
            body: br#"{"grid": "#.to_vec(),
            status: S::BAD_REQUEST,
            code: "invalid_json",
        },
        Case {
            what: "a body that is not declared JSON",
            content_type: "text/plain",
            body: br#"{"grid": "................"}"#.to_vec(),
            status: S::UNSUPPORTED_MEDIA_TYPE,
            code: "unsupported_media_type",
        },
        Case {
            what: "a JSON body declared in another character set",
            content_type: "application/json; charset=utf-16",
            body: "{}".encode_utf16().flat_map(u16::to_le_bytes).collect(),
            status: S::UNSUPPORTED_MEDIA_TYPE,
            code: "unsupported_media_type",
        },
        Case {
            what: "a body declared as another JSON-based format",
            content_type: "application/problem+json",
            body: br#"{"grid": "................"}"#.to_vec(),
            status: S::UNSUPPORTED_MEDIA_TYPE,
            code: "unsupported_media_type",
        },
    ]
}

#[tokio::test]
async fn every_malformed_request_gets_its_status_and_code_through_the_router() {
    let app = app();
    for case in malformed_requests() {
        let answer = post_raw(&app, "/solve", case.content_type, case.body).await;
        assert_eq!(
            answer.status,
            case.status,
            "{}: {}",
            case.what,
            answer.text()
        );
        assert_problem(&answer.headers, &answer.json(), case.status, case.code);
    }
}

#[tokio::test]
async fn the_real_server_answers_every_malformed_request_and_keeps_serving() {
    let server = spawn_app(limits()).await;
    for case in malformed_requests() {
        let response = server
            .client
            .post(server.url("/validate"))
            .header("content-type", case.content_type)
            .body(case.body)
            .send()
            .await
            .unwrap_or_else(|error| panic!("{}: {error}", case.what));
        let status = response.status();
        let headers = response.headers().clone();
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(status, case.status, "{}: {body}", case.what);
        assert_problem(&headers, &body, case.status, case.code);
    }
    let alive = server
        .client
        .get(server.url("/healthz"))
        .send()
        .await
        .unwrap();
    assert_eq!(alive.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_body_over_the_configured_limit_is_413() {
    let mut limits = limits();
    limits.body_limit_bytes = 100;
    let app = crate::helpers::app_with(limits);
    let fits = json!({ "grid": ".".repeat(81) });
    assert_eq!(
        post_json(&app, "/solve", &fits).await.status,
        StatusCode::OK
    );
    let too_big = json!({ "grid": ".".repeat(81), "order": "lexicographic" });
    let problem = post_json(&app, "/solve", &too_big)
        .await
        .problem(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
    assert!(problem["detail"].as_str().unwrap().contains("100 bytes"));
}

#[tokio::test]
async fn a_body_in_pieces_over_the_limit_is_413() {
    let mut limits = limits();
    limits.body_limit_bytes = 100;
    let server = spawn_app(limits).await;
    let body = json!({ "grid": ".".repeat(81), "order": "lexicographic" }).to_string();
    let (first, second) = body.as_bytes().split_at(60);
    let answer = post_chunked(&server, "/solve", &[first, second]).await;
    assert_eq!(answer.status, 413, "{answer:?}");
    let problem: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(problem["code"], "payload_too_large");
}

#[tokio::test]
async fn a_body_in_pieces_of_exactly_the_limit_is_read_and_one_byte_more_is_413() {
    let mut limits = limits();
    limits.body_limit_bytes = 100;
    let server = spawn_app(limits).await;
    let body = json!({ "grid": ".".repeat(81) }).to_string();
    // JSON allows whitespace before the closing brace: pad the body to the limit.
    let at_limit = format!(
        "{}{}}}",
        &body[..body.len() - 1],
        " ".repeat(100 - body.len())
    );
    assert_eq!(at_limit.len(), 100);
    let (first, second) = at_limit.as_bytes().split_at(50);
    let answer = post_chunked(&server, "/solve", &[first, second]).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let answer = post_chunked(&server, "/solve", &[first, second, b" "]).await;
    assert_eq!(answer.status, 413, "{answer:?}");
}

#[tokio::test]
async fn an_unknown_path_is_404() {
    let answer = get(&app(), "/solver").await;
    let problem = answer.problem(StatusCode::NOT_FOUND, "not_found");
    assert_eq!(
        problem["detail"],
        "no such endpoint: /solver; /openapi.yaml lists every endpoint"
    );
    // A near miss is pointed to the route it misses.
    for near_miss in ["/solve/", "/Solve", "/healthz//", "/SOLVE/BATCH/"] {
        let problem = post_json(&app(), near_miss, &json!({}))
            .await
            .problem(StatusCode::NOT_FOUND, "not_found");
        let detail = problem["detail"].as_str().unwrap();
        let route = near_miss.trim_end_matches('/').to_lowercase();
        assert_eq!(
            detail,
            format!("no such endpoint: {near_miss}; did you mean {route}?")
        );
    }
    post_json(&app(), "/solver", &json!({}))
        .await
        .problem(StatusCode::NOT_FOUND, "not_found");
    // A target with no path at all is named whole.
    let connect = Request::builder()
        .method(Method::CONNECT)
        .uri("example.com:443")
        .body(Body::empty())
        .unwrap();
    let problem = send(&app(), connect)
        .await
        .problem(StatusCode::NOT_FOUND, "not_found");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("no such endpoint: example.com:443;"),
        "{detail}"
    );
}

#[tokio::test]
async fn a_wrong_method_is_405_with_allow() {
    let app = app();
    for (method, path, allowed) in [
        (Method::GET, "/solve", "POST"),
        (Method::PUT, "/validate", "POST"),
        (Method::POST, "/healthz", "GET,HEAD"),
        (Method::DELETE, "/metrics", "GET,HEAD"),
    ] {
        let request = Request::builder()
            .method(method.clone())
            .uri(path)
            .body(Body::empty())
            .unwrap();
        let answer = send(&app, request).await;
        answer.problem(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
        assert_eq!(answer.headers["allow"], allowed, "{method} {path}");
    }
}

async fn panics() -> &'static str {
    panic!("secret: the vault code is 1234")
}

#[tokio::test]
async fn a_panic_is_500_internal_without_its_message_and_the_app_lives_on() {
    let router: Router = with_layers(
        Router::new()
            .route("/panic", routing::get(panics))
            .route("/fine", routing::get(|| async { "fine" })),
        Metrics::new(1),
        &limits(),
    );
    let answer = get(&router, "/panic").await;
    let problem = answer.problem(StatusCode::INTERNAL_SERVER_ERROR, "internal");
    assert!(!answer.text().contains("secret"), "{problem}");
    assert_eq!(get(&router, "/fine").await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_wrong_type_of_option_is_422_naming_the_field() {
    let app = app();
    for (path, body, field) in [
        ("/solve", json!({ "grid": "", "order": 5 }), "order"),
        (
            "/solve",
            json!({ "grid": "", "order": { "fastest": null } }),
            "order",
        ),
        ("/solve", json!({ "grid": "", "unique": "yes" }), "unique"),
        (
            "/solve",
            json!({ "grid": "", "timeout_ms": -1 }),
            "timeout_ms",
        ),
        (
            "/validate",
            json!({ "grid": "", "solvable": 1 }),
            "solvable",
        ),
    ] {
        let problem = post_json(&app, path, &body)
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!("{field}: ")),
            "{body}: {detail}"
        );
    }
}

#[tokio::test]
async fn rows_written_as_strings_are_told_what_a_row_is() {
    let app = app();
    let rows: Vec<&str> = vec!["1.3.", ".2..", "..4.", "4..."];
    let problem = post_json(&app, "/solve", &json!({ "grid": rows }))
        .await
        .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("grid[0]: invalid type: string \"1.3.\", expected a row: an array")
            && detail.contains("as one string"),
        "{detail}"
    );
    // Rows of numbers still read, and a wrong number in one is named where it is.
    let answer = post_json(
        &app,
        "/solve",
        &json!({ "grid": crate::helpers::small_rows() }),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let rows = json!([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1.5]]);
    let problem = post_json(&app, "/solve", &json!({ "grid": rows }))
        .await
        .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.starts_with("grid[3][3]: "), "{detail}");
}

#[tokio::test]
async fn a_syntax_error_says_where_it_is_without_a_field_it_cannot_name() {
    let app = app();
    for body in [r#"{"grid": "1...",}"#, "{"] {
        let answer = post_raw(&app, "/solve", "application/json", body).await;
        let problem = answer.problem(StatusCode::BAD_REQUEST, "invalid_json");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("at line 1 column"), "{body}: {detail}");
        assert!(!detail.starts_with('?'), "{body}: {detail}");
    }
}

#[tokio::test]
async fn a_fault_at_the_start_of_a_line_is_at_column_one_and_an_unknown_field_named_once() {
    let app = app();
    for (body, detail) in [
        (
            r#"["53..7"]"#,
            "invalid type: sequence, expected a JSON object at line 1 column 1",
        ),
        (
            "\n[\"53..7\"]",
            "invalid type: sequence, expected a JSON object at line 2 column 1",
        ),
        (
            r#"{"grid": "", "grid_size": 9}"#,
            "unknown field `grid_size`, expected one of `grid`, `rules`, `fpuzzles`, `unique`, \
             `order`, `timeout_ms`, `max_solutions`, `true_candidates`, \
             `max_solutions_per_candidate` at line 1 column 24",
        ),
    ] {
        let answer = post_raw(&app, "/solve", "application/json", body).await;
        assert_eq!(answer.json()["detail"], detail, "{body}");
    }
}

#[tokio::test]
async fn a_number_of_the_wrong_kind_is_described_without_rust_type_names() {
    let app = app();
    for (path, body, expected) in [
        (
            "/solve",
            json!({ "grid": "", "timeout_ms": 0 }),
            "a whole number of 1 or more",
        ),
        (
            "/generate",
            json!({ "seed": -1 }),
            "a whole number of 0 or more",
        ),
        (
            "/generate",
            json!({ "count": 1.5 }),
            "a whole number of 0 or more",
        ),
        (
            "/solve",
            json!({ "grid": [[1, "x"], [0, 0]] }),
            "a digit of the grid",
        ),
        (
            "/solve",
            json!({ "grid": [[9_223_372_036_854_775_808_u64, 0], [0, 0]] }),
            "a digit of the grid",
        ),
        ("/generate", json!({ "se_min": "high" }), "a number"),
    ] {
        let problem = post_json(&app, path, &body)
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!("expected {expected}")),
            "{body}: {detail}"
        );
        for rust in ["u64", "i64", "f64", "usize"] {
            assert!(!detail.contains(rust), "{body}: {detail}");
        }
    }
}

#[tokio::test]
async fn the_words_a_client_sent_are_quoted_as_they_are() {
    let sent = "expected u64 at line ";
    let problem = post_json(&app(), "/generate", &json!({ "seed": sent }))
        .await
        .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains(&format!("string \"{sent}\"")), "{detail}");
    assert!(
        detail.contains("expected a whole number of 0 or more at line 1"),
        "{detail}"
    );
}

#[tokio::test]
async fn a_compressed_body_is_refused_by_its_encoding_and_a_byte_order_mark_is_ignored() {
    let app = app();
    let body = format!(r#"{{"grid": "{}"}}"#, crate::helpers::CLASSIC);
    let post = |path: &str, content_type: &str, encoding: Option<&str>, body: Vec<u8>| {
        let mut request = Request::post(path).header("content-type", content_type);
        if let Some(encoding) = encoding {
            request = request.header("content-encoding", encoding);
        }
        request.body(Body::from(body)).unwrap()
    };
    for (path, content_type) in [
        ("/solve", "application/json"),
        ("/solve/batch", "application/x-ndjson"),
    ] {
        let gzip = post(path, content_type, Some("gzip"), body.clone().into_bytes());
        let answer = send(&app, gzip).await;
        assert_eq!(answer.headers["accept-encoding"], "identity");
        let problem = answer.problem(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("Content-Encoding: gzip"), "{detail}");
        let identity = post(
            path,
            content_type,
            Some("identity"),
            body.clone().into_bytes(),
        );
        assert_eq!(send(&app, identity).await.status, StatusCode::OK, "{path}");
        let marked = [b"\xEF\xBB\xBF".as_slice(), body.as_bytes()].concat();
        let answer = send(&app, post(path, content_type, None, marked)).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert!(
            answer.text().contains("solution"),
            "{path}: {}",
            answer.text()
        );
    }
}

#[tokio::test]
async fn a_query_string_on_a_post_is_refused_not_ignored() {
    // Each would be answered, without its query's field, if the query were ignored.
    let cases = [
        ("/generate?level=expert", "application/json", "{}"),
        (
            "/solve?unique=true",
            "application/json",
            r#"{"grid": "................"}"#,
        ),
        (
            "/solve/batch?unique=true",
            "application/x-ndjson",
            r#"{"grid": "................"}"#,
        ),
    ];
    for (path, content_type, body) in cases {
        let problem = post_raw(&app(), path, content_type, body)
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
        let query = path.split_once('?').unwrap().1;
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!("the query string `?{query}` is not read")),
            "{path}: {detail}"
        );
    }
    // A long query is shown cut, and an empty one is no query.
    let long = format!("/solve?{}", "x".repeat(500));
    let problem = post_json(&app(), &long, &json!({"grid": "................"}))
        .await
        .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.len() < 200 && detail.contains("x...`"), "{detail}");
    let answer = post_json(&app(), "/solve?", &json!({"grid": "................"})).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
}
