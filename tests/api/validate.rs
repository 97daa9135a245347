//! `POST /validate`: the verdict on the rules for every well-formed grid, and on request
//! whether the grid can be solved.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{
    CLASSIC, CLASSIC_SOLUTION, app, app_with, busy_grid, limits, post_json, post_ok, small_rows,
};

async fn verdict(request: Value) -> Value {
    post_ok("/validate", &request).await
}

#[tokio::test]
async fn a_puzzle_that_follows_the_rules_is_valid_but_not_complete() {
    let body = verdict(json!({ "grid": CLASSIC })).await;
    assert_eq!(
        body,
        json!({ "valid": true, "complete": false, "solved": false, "conflicts": [] })
    );
}

#[tokio::test]
async fn a_finished_grid_is_solved() {
    let body = verdict(json!({ "grid": CLASSIC_SOLUTION })).await;
    assert_eq!(body["solved"], true);
    assert_eq!(body["complete"], true);
}

#[tokio::test]
async fn conflicts_name_the_unit_the_digit_and_every_cell() {
    // Rows notation: a 2 twice in column 1 (rows 0 and 3), and a 4 twice in box 3.
    let grid = json!([[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0], [0, 2, 0, 4]]);
    let body = verdict(json!({ "grid": grid })).await;
    assert_eq!(body["valid"], false);
    assert_eq!(
        body["conflicts"],
        json!([
            { "unit": "column", "index": 1, "digit": 2,
              "cells": [{ "row": 0, "col": 1 }, { "row": 3, "col": 1 }] },
            { "unit": "box", "index": 3, "digit": 4,
              "cells": [{ "row": 2, "col": 2 }, { "row": 3, "col": 3 }] },
        ])
    );
}

#[tokio::test]
async fn solvable_runs_the_solver_only_when_asked() {
    let plain = verdict(json!({ "grid": small_rows() })).await;
    assert!(plain.get("solvable").is_none() && plain.get("unique").is_none());

    let unique = verdict(json!({ "grid": small_rows(), "solvable": true })).await;
    assert_eq!(
        (&unique["solvable"], &unique["unique"]),
        (&json!(true), &json!(true))
    );

    let several = verdict(json!({ "grid": ".".repeat(16), "solvable": true })).await;
    assert_eq!(
        (&several["solvable"], &several["unique"]),
        (&json!(true), &json!(false))
    );

    let clashing = verdict(json!({ "grid": "1..1............", "solvable": true })).await;
    assert_eq!(clashing["valid"], false);
    assert_eq!(clashing["solvable"], false);

    let unsolvable = verdict(json!({ "grid": "12....34........", "solvable": true })).await;
    assert_eq!(unsolvable["valid"], true);
    assert_eq!(unsolvable["solvable"], false);
    assert_eq!(unsolvable["unique"], false);
}

#[tokio::test]
async fn a_malformed_grid_is_the_only_422() {
    let answer = post_json(&app(), "/validate", &json!({ "grid": "12345" })).await;
    let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_grid");
    assert!(
        problem["detail"].as_str().unwrap().contains('5'),
        "{problem}"
    );
}

#[tokio::test]
async fn solvable_is_held_to_the_solve_time_limit() {
    let mut limits = limits();
    limits.solve_timeout = std::time::Duration::from_millis(100);
    let answer = post_json(
        &app_with(limits),
        "/validate",
        &json!({ "grid": busy_grid(), "solvable": true }),
    )
    .await;
    answer.problem(StatusCode::SERVICE_UNAVAILABLE, "solve_timeout");
}
