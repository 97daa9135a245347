//! `POST /solve`: both notations, every size, both orders, uniqueness, and the errors that
//! only solving has.

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::{
    CLASSIC, CLASSIC_SOLUTION, EMPTY_9X9_LEXICOGRAPHIC, app, app_with, busy_grid, drawn, limits,
    patterned_puzzle, post_chunked, post_json, post_raw, small_rows, solves, spawn_app,
};

#[tokio::test]
async fn a_string_grid_gets_a_string_solution() {
    let answer = post_json(&app(), "/solve", &json!({ "grid": CLASSIC })).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.headers["content-type"], "application/json");
    let body = answer.json();
    assert_eq!(body["solution"], CLASSIC_SOLUTION);
    assert!(body["stats"]["elapsed_us"].is_u64(), "{body}");
    assert!(body["stats"]["guesses"].is_u64(), "{body}");
    assert!(
        body.get("unique").is_none(),
        "unique only when asked: {body}"
    );
}

#[tokio::test]
async fn every_spelling_of_the_json_media_type_is_read() {
    let app = app();
    let body = json!({ "grid": CLASSIC }).to_string();
    for content_type in [
        "application/json; charset=utf-8",
        "Application/JSON",
        "application/json; charset=UTF8",
        "application/json;charset=\"us-ascii\"",
    ] {
        let answer = post_raw(&app, "/solve", content_type, body.clone()).await;
        assert_eq!(answer.status, StatusCode::OK, "{content_type}");
        assert_eq!(
            answer.json()["solution"],
            CLASSIC_SOLUTION,
            "{content_type}"
        );
    }
}

#[tokio::test]
async fn a_rows_grid_gets_a_rows_solution() {
    let body = post_json(&app(), "/solve", &json!({ "grid": small_rows() }))
        .await
        .json();
    assert_eq!(
        body["solution"],
        json!([[1, 3, 2, 4], [4, 2, 3, 1], [2, 4, 1, 3], [3, 1, 4, 2]])
    );
}

#[tokio::test]
async fn whitespace_and_a_forum_drawing_in_a_string_grid_are_ignored() {
    let block: String = CLASSIC
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
        .collect();
    let app = app();
    for grid in [block, drawn(CLASSIC)] {
        let body = post_json(&app, "/solve", &json!({ "grid": grid }))
            .await
            .json();
        assert_eq!(body["solution"], CLASSIC_SOLUTION, "{grid}");
    }
}

#[tokio::test]
async fn every_size_solves_in_both_notations() {
    let app = app();
    for size in [4, 9, 16, 25] {
        let puzzle = patterned_puzzle(size);
        let answer = post_json(&app, "/solve", &json!({ "grid": puzzle })).await;
        assert_eq!(
            answer.status,
            StatusCode::OK,
            "{size}×{size}: {}",
            answer.text()
        );
        let solution = answer.json()["solution"].as_str().unwrap().to_owned();
        assert!(solves(&puzzle, &solution), "{size}×{size}: {solution}");

        let rows: Vec<Vec<u32>> = puzzle
            .as_bytes()
            .chunks(size)
            .map(|row| {
                row.iter()
                    .map(|&c| char::from(c).to_digit(36).unwrap_or(0))
                    .collect()
            })
            .collect();
        let answer = post_json(&app, "/solve", &json!({ "grid": rows })).await;
        assert_eq!(answer.status, StatusCode::OK, "{size}×{size} rows");
        let solved_rows: Vec<Vec<u32>> =
            serde_json::from_value(answer.json()["solution"].clone()).unwrap();
        let as_symbols: String = solved_rows
            .iter()
            .flatten()
            .map(|&v| char::from_digit(v, 36).unwrap().to_ascii_uppercase())
            .collect();
        assert!(
            solves(&puzzle, &as_symbols),
            "{size}×{size} rows: {as_symbols}"
        );
    }
}

#[tokio::test]
async fn a_published_25x25_puzzle_solves() {
    let puzzle = include_str!("../data/25x25/25x25-grid-1.line.txt").trim();
    let answer = post_json(&app(), "/solve", &json!({ "grid": puzzle })).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let solution = answer.json()["solution"].as_str().unwrap().to_owned();
    assert_eq!(solution.len(), 625);
    assert!(solves(puzzle, &solution), "{solution}");
}

#[tokio::test]
async fn lexicographic_order_gives_the_smallest_solution() {
    let body = post_json(
        &app(),
        "/solve",
        &json!({ "grid": ".".repeat(81), "order": "lexicographic" }),
    )
    .await
    .json();
    assert_eq!(body["solution"], EMPTY_9X9_LEXICOGRAPHIC);
}

#[tokio::test]
async fn fastest_order_is_deterministic() {
    let app = app();
    let request = json!({ "grid": ".".repeat(81), "order": "fastest" });
    let first = post_json(&app, "/solve", &request).await.json();
    let second = post_json(&app, "/solve", &request).await.json();
    assert_eq!(first["solution"], second["solution"]);
    let solution = first["solution"].as_str().unwrap();
    assert!(solves(&".".repeat(81), solution), "{solution}");
}

#[tokio::test]
async fn unique_says_whether_the_solution_is_the_only_one() {
    let app = app();
    let unique = post_json(&app, "/solve", &json!({ "grid": CLASSIC, "unique": true }))
        .await
        .json();
    assert_eq!(unique["unique"], true);
    assert_eq!(unique["solution"], CLASSIC_SOLUTION);

    let several = post_json(
        &app,
        "/solve",
        &json!({ "grid": ".".repeat(16), "unique": true, "order": "lexicographic" }),
    )
    .await
    .json();
    assert_eq!(several["unique"], false);
    assert_eq!(several["solution"], "1234341221434321");
}

#[tokio::test]
async fn clashing_givens_are_reported_with_their_cells() {
    let answer = post_json(&app(), "/solve", &json!({ "grid": "1..1............" })).await;
    let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "conflicting_givens");
    assert_eq!(
        problem["conflicts"],
        json!([{ "unit": "row", "index": 0, "digit": 1,
                 "cells": [{ "row": 0, "col": 0 }, { "row": 0, "col": 3 }] }])
    );
    // Two 1s in row 0 and box 0: the detail counts both places.
    let answer = post_json(&app(), "/solve", &json!({ "grid": "11.............." })).await;
    let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "conflicting_givens");
    assert_eq!(problem["conflicts"].as_array().unwrap().len(), 2);
    assert!(problem["detail"].as_str().unwrap().contains("in 2 places;"));
}

#[tokio::test]
async fn a_grid_without_solution_is_unsolvable() {
    // Row 0 needs 3 and 4 in columns 2-3, but box 1 already has them in row 1.
    let answer = post_json(&app(), "/solve", &json!({ "grid": "12....34........" })).await;
    let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
    assert!(problem.get("conflicts").is_none());
}

#[tokio::test]
async fn timeout_ms_lowers_the_server_limit() {
    let answer = post_json(
        &app(),
        "/solve",
        &json!({ "grid": busy_grid(), "timeout_ms": 100 }),
    )
    .await;
    let problem = answer.problem(StatusCode::SERVICE_UNAVAILABLE, "solve_timeout");
    assert!(
        problem["detail"].as_str().unwrap().contains("100 ms"),
        "{problem}"
    );
}

#[tokio::test]
async fn timeout_ms_cannot_raise_the_server_limit() {
    let mut limits = limits();
    limits.solve_timeout = std::time::Duration::from_millis(150);
    let answer = post_json(
        &app_with(limits),
        "/solve",
        &json!({ "grid": busy_grid(), "timeout_ms": 5_000 }),
    )
    .await;
    let problem = answer.problem(StatusCode::SERVICE_UNAVAILABLE, "solve_timeout");
    assert!(
        problem["detail"].as_str().unwrap().contains("150 ms"),
        "{problem}"
    );
}

#[tokio::test]
async fn a_body_sent_in_pieces_is_read_whole() {
    let server = spawn_app(limits()).await;
    let body = json!({ "grid": CLASSIC }).to_string();
    let (head, tail) = body.as_bytes().split_at(body.len() / 2);
    let (middle, end) = tail.split_at(1);
    let answer = post_chunked(&server, "/solve", &[head, middle, end]).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let answer: serde_json::Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(answer["solution"], CLASSIC_SOLUTION);
}
