//! `/rate`, `/explain` and `/hint` through the router: their answers, and each error code.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{CLASSIC, CLASSIC_SOLUTION, app, post_json, post_ok};

/// A 9×9 puzzle whose path needs forcing chains (SE 7.2 by the reference).
const CHAINS: &str =
    "46.......9.28.5...3...1..9....9..85.2.......4.58..7....7..3...2...6.27.3.......16";

/// A 9×9 puzzle from the forum's hardest list (SE 11.1, nested forcing chains): rating it
/// takes far longer than a millisecond.
const NESTED: &str =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";

/// A 4×4 puzzle with one solution, and that solution.
const SMALL: &str = "1.....3..4.....2";
const SMALL_SOLUTION: &str = "1324423124133142";

#[tokio::test]
async fn rate_answers_the_ratings_of_a_puzzle() {
    let body = post_ok("/rate", &json!({ "grid": CLASSIC })).await;
    assert_eq!(body["se"], 1.2);
    assert_eq!(body["ed"], 1.2);
    assert_eq!(body["ep"], 1.2);
    assert_eq!(body["level"], "easy");
    assert_eq!(body["hardest"], "hidden_single_box");
    let counted: u64 = body["techniques"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["count"].as_u64().unwrap())
        .sum();
    assert_eq!(Some(counted), body["steps"].as_u64());
    assert!(
        body["model"]
            .as_str()
            .is_some_and(|model| !model.is_empty())
    );
}

#[tokio::test]
async fn a_grid_with_no_blank_cell_rates_zero_with_no_hardest_technique() {
    let body = post_ok("/rate", &json!({ "grid": CLASSIC_SOLUTION })).await;
    assert_eq!(body["se"], 0.0);
    assert_eq!(body["steps"], 0);
    assert_eq!(body["techniques"], json!([]));
    assert!(body.get("hardest").is_none(), "{body}");
}

#[tokio::test]
async fn rate_refuses_what_has_no_rating() {
    let app = app();
    let cases = [
        (json!({ "grid": SMALL }), "unsupported_size"),
        (json!({ "grid": ".".repeat(81) }), "not_unique"),
        (
            json!({ "grid": format!("11{}", ".".repeat(79)) }),
            "unsolvable",
        ),
        (json!({ "grid": "12" }), "invalid_grid"),
        (json!({ "grid": CLASSIC, "level": 3 }), "invalid_request"),
    ];
    for (request, code) in cases {
        post_json(&app, "/rate", &request)
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, code);
    }
}

#[tokio::test]
async fn a_puzzle_whose_givens_clash_is_unsolvable_with_the_clash_named() {
    let app = app();
    let clashing = format!("11{}", ".".repeat(79));
    // No rule is broken, but the last cell of the first row has no digit left.
    let stuck = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    for (path, field) in [("/rate", "grid"), ("/explain", "grid"), ("/hint", "puzzle")] {
        let request = |grid: &str| {
            let mut request = json!({ field: grid });
            if path == "/hint" {
                request["grid"] = json!(grid);
            }
            request
        };
        let problem = post_json(&app, path, &request(&clashing))
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
        let conflicts = problem["conflicts"].as_array().expect("conflicts");
        assert_eq!(conflicts.len(), 2, "{path}: {problem}");
        assert_eq!(
            conflicts[0]["cells"],
            json!([{"row": 0, "col": 0}, {"row": 0, "col": 1}])
        );
        let problem = post_json(&app, path, &request(&stuck))
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
        assert!(problem.get("conflicts").is_none(), "{path}: {problem}");
    }
}

#[tokio::test]
async fn a_rating_past_its_time_limit_is_503() {
    let answer = post_json(&app(), "/rate", &json!({ "grid": NESTED, "timeout_ms": 1 })).await;
    answer.problem(StatusCode::SERVICE_UNAVAILABLE, "solve_timeout");
}

/// Replays the `steps` of an explanation (JSON) on `puzzle` (string notation): each
/// placement is the solution's digit, no elimination removes it, and the steps fill the
/// grid.
fn replay(puzzle: &str, solution: &str, steps: &[Value], size: usize) {
    let solution: Vec<u32> = solution.chars().map(|c| c.to_digit(36).unwrap()).collect();
    let mut grid: Vec<u32> = puzzle
        .chars()
        .map(|c| c.to_digit(36).unwrap_or(0))
        .collect();
    for step in steps {
        for placement in step["placements"].as_array().unwrap() {
            let cell = placement["row"].as_u64().unwrap() as usize * size
                + placement["col"].as_u64().unwrap() as usize;
            assert_eq!(
                placement["digit"].as_u64(),
                Some(u64::from(solution[cell])),
                "{step}"
            );
            grid[cell] = solution[cell];
        }
        for elimination in step["eliminations"].as_array().unwrap() {
            let cell = elimination["row"].as_u64().unwrap() as usize * size
                + elimination["col"].as_u64().unwrap() as usize;
            let digits = elimination["digits"].as_array().unwrap();
            assert!(!digits.contains(&json!(solution[cell])), "{step}");
        }
    }
    assert_eq!(grid, solution, "the steps fill the grid");
}

#[tokio::test]
async fn explain_answers_a_path_that_replays_to_the_solution() {
    let app = app();
    let answer = post_json(&app, "/explain", &json!({ "grid": CHAINS })).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let body = answer.json();
    assert_eq!(body["level"], "extreme");
    let steps = body["steps"].as_array().unwrap();
    assert!(
        steps
            .iter()
            .all(|step| step["se"].is_number() && step["text"].is_string())
    );
    assert!(
        steps
            .iter()
            .any(|step| step["chain"].as_array().is_some_and(|c| !c.is_empty())),
        "a chain step lists its nodes"
    );
    let solution = body["solution"].as_str().unwrap();
    assert_eq!(body["se"], 7.2);
    replay(CHAINS, solution, steps, 9);

    // Other sizes: no ratings.
    let small = post_json(&app, "/explain", &json!({ "grid": SMALL }))
        .await
        .json();
    assert!(
        small.get("se").is_none() && small.get("level").is_none(),
        "{small}"
    );
    assert_eq!(small["solution"], SMALL_SOLUTION);
    let steps = small["steps"].as_array().unwrap();
    assert!(steps.iter().all(|step| step.get("se").is_none()));
    replay(SMALL, SMALL_SOLUTION, steps, 4);
}

#[tokio::test]
async fn explain_refuses_puzzles_without_one_solution() {
    post_json(&app(), "/explain", &json!({ "grid": "................" }))
        .await
        .problem(StatusCode::UNPROCESSABLE_ENTITY, "not_unique");
}

#[tokio::test]
async fn hint_answers_a_step_mistakes_or_solved() {
    let app = app();
    let hint = |grid: String, candidates: Option<Value>| {
        let mut request = json!({ "puzzle": CLASSIC, "grid": grid });
        if let Some(candidates) = candidates {
            request["candidates"] = candidates;
        }
        let app = app.clone();
        async move { post_json(&app, "/hint", &request).await.json() }
    };

    let step = hint(CLASSIC.to_owned(), None).await;
    let placement = &step["step"]["placements"][0];
    let cell = placement["row"].as_u64().unwrap() * 9 + placement["col"].as_u64().unwrap();
    let digit = CLASSIC_SOLUTION.as_bytes()[cell as usize] - b'0';
    assert_eq!(placement["digit"], digit, "{step}");

    let mut wrong = CLASSIC.to_owned();
    wrong.replace_range(2..3, "1");
    let mistakes = hint(wrong, None).await;
    assert_eq!(
        mistakes,
        json!({ "mistakes": [{ "row": 0, "col": 2, "digit": 1, "kind": "wrong_digit" }] })
    );

    let mut marks = vec![Value::Null; 81];
    marks[2] = json!("12");
    let removed = hint(CLASSIC.to_owned(), Some(Value::Array(marks))).await;
    assert_eq!(
        removed["mistakes"][0]["kind"], "removed_candidate",
        "{removed}"
    );

    assert_eq!(
        hint(CLASSIC_SOLUTION.to_owned(), None).await,
        json!({ "solved": true })
    );
}

#[tokio::test]
async fn hint_names_which_of_its_grids_is_malformed() {
    let app = app();
    for (request, field) in [
        (json!({ "puzzle": "1...", "grid": CLASSIC }), "puzzle"),
        (json!({ "puzzle": CLASSIC, "grid": "1..." }), "grid"),
    ] {
        let problem = post_json(&app, "/hint", &request)
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_grid");
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!("in `{field}`: grid has 4 cells")),
            "{detail}"
        );
    }
}

#[tokio::test]
async fn hint_refuses_grids_and_marks_that_do_not_fit_the_puzzle() {
    let app = app();
    let mut changed = CLASSIC.to_owned();
    changed.replace_range(0..1, ".");
    let cases = [
        json!({ "puzzle": CLASSIC, "grid": changed }),
        json!({ "puzzle": CLASSIC, "grid": SMALL }),
        json!({ "puzzle": CLASSIC, "grid": CLASSIC, "candidates": ["1"] }),
        json!({ "puzzle": CLASSIC, "grid": CLASSIC, "candidates": vec![json!("x"); 81] }),
    ];
    for request in cases {
        post_json(&app, "/hint", &request)
            .await
            .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
    }
    post_json(
        &app,
        "/hint",
        &json!({ "puzzle": ".".repeat(81), "grid": ".".repeat(81) }),
    )
    .await
    .problem(StatusCode::UNPROCESSABLE_ENTITY, "not_unique");
}
