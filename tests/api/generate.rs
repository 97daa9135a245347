//! `/generate` through the router: proper puzzles of the size, symmetry and band asked
//! for, the same again from a seed, and each error code.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{app, app_with, limits, post_json, post_ok, solves};
use sudoku_engine::grid::Grid;
use sudoku_engine::solver::{self, Cancellation, Outcome, SolveOptions};

/// How many solutions `puzzle` (string notation) has, counting to 2.
fn solutions(puzzle: &str) -> u64 {
    let grid = Grid::parse_symbols(puzzle).unwrap();
    let options = SolveOptions {
        limit: 2,
        ..SolveOptions::default()
    };
    match solver::solve(&grid, &options, &Cancellation::none()).outcome {
        Outcome::Solved { count, .. } => count,
        _ => 0,
    }
}

async fn generate(request: Value) -> Value {
    post_ok("/generate", &request).await
}

#[tokio::test]
async fn puzzles_are_proper_symmetric_and_in_the_band_asked_for() {
    let body =
        generate(json!({ "level": "hard", "symmetry": "central", "count": 3, "seed": 42 })).await;
    assert!(
        body["model"]
            .as_str()
            .is_some_and(|model| !model.is_empty())
    );
    let puzzles = body["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 3);
    assert_eq!(puzzles[0]["seed"], 42);
    for made in puzzles {
        let puzzle = made["puzzle"].as_str().unwrap();
        assert_eq!(solutions(puzzle), 1);
        assert!(solves(puzzle, made["solution"].as_str().unwrap()));
        assert_eq!(made["level"], "hard");
        assert!((2.6..=3.9).contains(&made["se"].as_f64().unwrap()));
        let givens: Vec<bool> = puzzle.chars().map(|c| c != '.').collect();
        assert_eq!(
            made["givens"],
            givens.iter().filter(|&&given| given).count()
        );
        for cell in 0..81 {
            assert_eq!(
                givens[cell],
                givens[80 - cell],
                "cell {cell} breaks the symmetry"
            );
        }
    }
    // The rater agrees with the rating given.
    let first = &puzzles[0];
    let rated = post_json(&app(), "/rate", &json!({ "grid": first["puzzle"] }))
        .await
        .json();
    assert_eq!(rated["se"], first["se"]);
}

#[tokio::test]
async fn a_puzzle_comes_back_alone_from_its_seed() {
    let request = |seed: Value, count| json!({ "level": "medium", "seed": seed, "count": count });
    let batch = generate(request(json!(7), 3)).await;
    let again = generate(request(json!(7), 3)).await;
    assert_eq!(batch, again);
    let third = &batch["puzzles"][2];
    let alone = generate(request(third["seed"].clone(), 1)).await;
    assert_eq!(alone["puzzles"][0], *third);
}

#[tokio::test]
async fn without_a_seed_the_answer_tells_which_was_used() {
    let body = generate(json!({ "size": 4 })).await;
    let seed = body["puzzles"][0]["seed"].as_u64().unwrap();
    assert!(seed < 1 << 53);
    let again = generate(json!({ "size": 4, "seed": seed })).await;
    assert_eq!(again, body);
}

#[tokio::test]
async fn other_sizes_come_as_rows_without_ratings() {
    let body = generate(json!({ "size": 4, "minimal": true, "notation": "rows", "seed": 1 })).await;
    let made = &body["puzzles"][0];
    assert_eq!(made["puzzle"].as_array().unwrap().len(), 4);
    assert_eq!(made["solution"][0].as_array().unwrap().len(), 4);
    assert!(made.get("se").is_none() && made.get("level").is_none());
}

#[tokio::test]
async fn impossible_requests_are_422() {
    let app = app();
    for request in [
        json!({ "level": "beyond" }),
        json!({ "level": "hard", "se_min": 3.0 }),
        json!({ "se_min": 0.5 }),
        json!({ "se_min": 9.0 }),
        json!({ "se_min": 5.0, "se_max": 4.0 }),
        json!({ "se_min": 3.05, "se_max": 3.05 }),
        json!({ "se_min": 1.6, "se_max": 1.6 }),
        json!({ "size": 16, "level": "easy" }),
        json!({ "size": 8 }),
        json!({ "size": 25 }),
        json!({ "count": 0 }),
        json!({ "count": 101 }),
        json!({ "seed": 1u64 << 53 }),
        json!({ "seed": -1 }),
        json!({ "symmetry": "spiral" }),
        json!({ "level": "nightmare" }),
        json!({ "notation": "columns" }),
        json!({ "minimal": "yes" }),
        json!({ "colour": "red" }),
    ] {
        post_json(&app, "/generate", &request)
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
    }
}

#[tokio::test]
async fn an_unknown_name_gets_the_names_there_are() {
    let app = app();
    for (request, names) in [
        (
            json!({ "level": "Hard" }),
            "level: unknown level `Hard`; one of easy, medium,",
        ),
        (
            json!({ "symmetry": "spiral" }),
            "symmetry: unknown symmetry `spiral`; one of none,",
        ),
    ] {
        let problem = post_json(&app, "/generate", &request)
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.starts_with(names), "{detail}");
    }
}

#[tokio::test]
async fn a_band_not_met_in_time_is_503_and_says_why() {
    let app = app_with(sudoku_service::http::Limits {
        generate_timeout: Duration::from_millis(1),
        ..limits()
    });
    let request = json!({ "level": "extreme", "minimal": true, "count": 100, "seed": 1 });
    let problem = post_json(&app, "/generate", &request)
        .await
        .problem(StatusCode::SERVICE_UNAVAILABLE, "solve_timeout");
    assert!(
        problem["detail"].as_str().unwrap().contains("rare"),
        "{problem}"
    );
    // Without a band, the detail does not blame one.
    let problem = post_json(&app, "/generate", &json!({ "size": 16, "seed": 1 }))
        .await
        .problem(StatusCode::SERVICE_UNAVAILABLE, "solve_timeout");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("no puzzle was found within 1 ms") && !detail.contains("band"),
        "{problem}"
    );
}
