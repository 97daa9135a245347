//! Operations endpoints and request ids: liveness, readiness (and draining), metrics.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use sudoku_service::http::{self, AppState};

use crate::helpers::{
    CLASSIC, app, busy_grid, get, limits, metric_value, one_solver, post_json, send, spawn_app,
};

#[tokio::test]
async fn healthz_says_ok() {
    let answer = get(&app(), "/healthz").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json(), json!({ "status": "ok" }));
}

#[tokio::test]
async fn readyz_turns_503_draining_once_shutdown_starts() {
    let state = AppState::new(limits());
    let app = http::app(state.clone());
    let ready = get(&app, "/readyz").await;
    assert_eq!(ready.status, StatusCode::OK);
    assert_eq!(ready.json(), json!({ "status": "ready" }));

    state.readiness().start_draining();
    get(&app, "/readyz")
        .await
        .problem(StatusCode::SERVICE_UNAVAILABLE, "draining");
    // Liveness is not readiness: a draining server is still alive.
    assert_eq!(get(&app, "/healthz").await.status, StatusCode::OK);
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status_and_solves_by_outcome() {
    let app = app();
    post_json(&app, "/solve", &json!({ "grid": CLASSIC })).await;
    post_json(&app, "/solve", &json!({ "grid": "12....34........" })).await;
    post_json(&app, "/solve", &json!({ "grid": "oops" })).await;
    get(&app, "/nowhere").await;

    let answer = get(&app, "/metrics").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(
        answer.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = answer.text();
    for (series, value) in [
        (
            r#"sudoku_http_requests_total{route="/solve",status="200"}"#,
            1.0,
        ),
        (
            r#"sudoku_http_requests_total{route="/solve",status="422"}"#,
            2.0,
        ),
        (
            r#"sudoku_http_requests_total{route="unmatched",status="404"}"#,
            1.0,
        ),
        (r#"sudoku_solves_total{outcome="solved"}"#, 1.0),
        (r#"sudoku_solves_total{outcome="unsolvable"}"#, 1.0),
        (
            r#"sudoku_solve_duration_seconds_count{outcome="solved"}"#,
            1.0,
        ),
        (
            r#"sudoku_http_request_duration_seconds_count{route="/solve",status="200"}"#,
            1.0,
        ),
        ("sudoku_solver_slots", 2.0),
        ("sudoku_solver_slots_in_use", 0.0),
        ("sudoku_solver_queue_depth", 0.0),
    ] {
        assert_eq!(metric_value(&text, series), value, "{series} in\n{text}");
    }
    assert!(text.contains("# TYPE sudoku_solve_duration_seconds histogram"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operations_endpoints_answer_while_every_solver_is_busy() {
    let server = spawn_app(one_solver(0, crate::helpers::GENEROUS_TIMEOUT)).await;
    let busy = tokio::spawn({
        let (client, url) = (server.client.clone(), server.url("/solve"));
        async move {
            client
                .post(url)
                .json(&json!({ "grid": busy_grid() }))
                .send()
                .await
        }
    });
    server
        .wait_for_metric("sudoku_solver_slots_in_use", 1.0)
        .await;
    for path in ["/healthz", "/readyz", "/metrics", "/openapi.yaml"] {
        let response = server.client.get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    // Dropping the client's request cancels the solve (see `limits`).
    busy.abort();
}

#[tokio::test]
async fn every_response_carries_a_request_id_and_a_given_one_is_kept() {
    let app = app();
    let made_up = get(&app, "/healthz").await;
    let id = made_up.headers["x-request-id"].to_str().unwrap();
    assert_eq!(id.len(), 36, "a UUID: {id}");

    let request = Request::builder()
        .uri("/nowhere")
        .header("x-request-id", "trace-me-42")
        .body(Body::empty())
        .unwrap();
    let kept = send(&app, request).await;
    assert_eq!(kept.status, StatusCode::NOT_FOUND);
    assert_eq!(kept.headers["x-request-id"], "trace-me-42");
}
