//! The playground page in a real headless Chromium, against a real server: what a person
//! does on it, read back from the page and compared with what the API answers.
//!
//! These tests need Chromium and ChromeDriver, so they are ignored unless asked for:
//! `apt-get install chromium chromium-driver`, then
//! `cargo test --test api browser -- --include-ignored`. Without a browser they fail;
//! they never pass without one. Each state's screenshot is written to
//! `target/browser-screenshots/`.

use serde_json::{Value, json};

use crate::helpers::{CLASSIC, CLASSIC_SOLUTION, drawn, post_ok, solves};
use crate::webdriver::{Browser, prefix_proxy};

/// A puzzle whose first steps are more than singles, for hints and explanations.
const CHAIN_PUZZLE: &str =
    "46.......9.28.5...3...1..9....9..85.2.......4.58..7....7..3...2...6.27.3.......16";

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn a_pasted_puzzle_is_solved_on_the_board() {
    let browser = Browser::open("solve", 1280, 1000).await;
    browser.visit_playground().await;
    browser.screenshot("empty").await;

    browser.paste(CLASSIC).await;
    assert_eq!(browser.board().await, CLASSIC);
    assert_eq!(browser.cells_with("given").await.len(), 30);

    browser.click("solve").await;
    let board = browser.board().await;
    assert!(
        solves(CLASSIC, &board),
        "the board shows no solution: {board}"
    );
    assert!(browser.text("status").await.starts_with("Solved"));
    let curl = browser.text("curl").await;
    assert!(curl.starts_with("curl --json '{\"grid\":"), "{curl}");
    assert!(curl.ends_with(&browser.server.url("/solve")), "{curl}");
    let answer: Value = serde_json::from_str(&browser.text("answer").await).unwrap();
    assert_eq!(answer["solution"], json!(board));
    browser.screenshot("solved").await;

    // A grid drawn as on the forums loads as its symbols.
    browser.paste(&drawn(CLASSIC)).await;
    assert_eq!(browser.board().await, CLASSIC);

    // A puzzle with no blank cell has nothing to rate, and the page says so.
    browser.paste(CLASSIC_SOLUTION).await;
    browser.click("rate").await;
    let status = browser.text("status").await;
    assert_eq!(status, "Nothing to rate: the puzzle has no blank cell.");
    assert!(browser.console_errors().await.is_empty());
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn a_hint_draws_the_api_step_on_the_board() {
    let browser = Browser::open("hint", 1280, 1000).await;
    browser.visit_playground().await;
    browser.type_into("puzzle-text", CHAIN_PUZZLE).await;
    browser.click("pencil").await;
    browser.click("load").await;
    browser.click("hint").await;

    let expected = post_ok(
        "/hint",
        &json!({ "puzzle": CHAIN_PUZZLE, "grid": CHAIN_PUZZLE }),
    )
    .await;
    let step = &expected["step"];
    assert_eq!(browser.text("status").await, step["text"]);
    assert_eq!(browser.cells_with("pattern").await, cells(&step["cells"]));
    assert_eq!(
        browser.cells_with("placement").await,
        cells(&step["placements"])
    );
    let mut house: Vec<_> = houses(&step["houses"])
        .into_iter()
        .flat_map(|(unit, index)| {
            (0..9).map(move |k| match unit.as_str() {
                "row" => (index, k),
                "column" => (k, index),
                _ => (index / 3 * 3 + k / 3, index % 3 * 3 + k % 3),
            })
        })
        .collect();
    house.sort_unstable();
    house.dedup();
    assert_eq!(browser.cells_with("house").await, house);
    browser.screenshot("step").await;

    // Applying the step places its digit.
    browser.click("apply").await;
    let board = browser.board().await;
    for (row, col) in cells(&step["placements"]) {
        let digit = step["placements"][0]["digit"].as_u64().unwrap().to_string();
        assert_eq!(board[row * 9 + col..][..1], digit);
    }
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn a_wrong_digit_is_pointed_out_by_the_hint() {
    let browser = Browser::open("mistake", 1280, 1000).await;
    browser.visit_playground().await;
    browser.paste(CLASSIC).await;
    // r1c3 is empty in the puzzle: type a digit that is not the solution's there.
    let right = CLASSIC_SOLUTION.as_bytes()[2] - b'0';
    let wrong = right % 9 + 1;
    browser.type_into_cell(0, 2, &wrong.to_string()).await;
    browser.click("hint").await;
    assert_eq!(browser.cells_with("mistake").await, [(0, 2)]);
    assert!(browser.text("status").await.starts_with("r1c3:"));
    browser.screenshot("wrong-digit").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn pencil_marks_are_kept_and_a_removed_true_candidate_is_pointed_out() {
    let browser = Browser::open("marks", 1280, 1000).await;
    browser.visit_playground().await;
    browser.paste(CLASSIC).await;
    browser.click("pencil").await;
    let marks =
        "[...document.querySelectorAll('#board .cell')][2].querySelector('.marks').textContent";
    let before = browser.eval(marks).await;
    // Strike the solution's digit from r1c3's marks, hide the marks and show them again.
    let right = &CLASSIC_SOLUTION[2..3];
    browser.type_into_cell(0, 2, right).await;
    let struck = browser.eval(marks).await;
    assert_eq!(struck, json!(before.as_str().unwrap().replace(right, "")));
    browser.click("pencil").await;
    browser.click("pencil").await;
    assert_eq!(browser.eval(marks).await, struck, "the marks are kept");
    assert_eq!(&browser.board().await[..3], "53.", "a mark is not a digit");

    browser.click("hint").await;
    assert_eq!(browser.cells_with("mistake").await, [(0, 2)]);
    assert!(
        browser
            .text("status")
            .await
            .contains("pencil marks removed")
    );
    browser.screenshot("removed-candidate").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn explain_steps_forwards_and_backwards() {
    let browser = Browser::open("explain", 1280, 1000).await;
    browser.visit_playground().await;
    browser.paste(CHAIN_PUZZLE).await;
    browser.click("explain").await;
    let path = post_ok("/explain", &json!({ "grid": CHAIN_PUZZLE })).await;
    let steps = path["steps"].as_array().unwrap();
    assert_eq!(browser.text("status").await, steps[0]["text"]);
    for _ in 0..3 {
        browser.click("next").await;
    }
    browser.click("previous").await;
    assert_eq!(browser.text("status").await, steps[2]["text"]);
    assert_eq!(
        browser.text("path-count").await,
        format!("Step 3 of {}", steps.len())
    );
    // The board shows the two placements before the step.
    let board = browser.board().await;
    let placed = steps[..2]
        .iter()
        .flat_map(|step| step["placements"].as_array().unwrap())
        .all(|p| {
            let cell = p["row"].as_u64().unwrap() * 9 + p["col"].as_u64().unwrap();
            board[cell as usize..][..1].parse().ok() == p["digit"].as_u64()
        });
    assert!(placed, "{board}");
    browser.screenshot("step-3").await;

    // The first step that removes candidates shows them struck through.
    let first = steps
        .iter()
        .position(|step| !step["eliminations"].as_array().unwrap().is_empty())
        .unwrap();
    for _ in 2..first {
        browser.click("next").await;
    }
    assert_eq!(browser.text("status").await, steps[first]["text"]);
    let struck = "[...document.querySelectorAll('#board .cell')].flatMap((cell, i) => \
        [...cell.querySelectorAll('.marks .eliminated')].map((mark) => \
        ({ row: Math.floor(i / 9), col: i % 9, digit: Number(mark.textContent) })))";
    let expected: Vec<Value> = steps[first]["eliminations"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| {
            let digits = e["digits"].as_array().unwrap().clone();
            digits
                .into_iter()
                .map(move |digit| json!({ "row": e["row"], "col": e["col"], "digit": digit }))
        })
        .collect();
    assert_eq!(browser.eval(struck).await, json!(expected));
    browser.screenshot("eliminations").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn a_seed_generates_the_same_puzzle_twice() {
    let browser = Browser::open("generate", 1280, 1000).await;
    browser.visit_playground().await;
    browser.select("level", "hard").await;
    browser.select("symmetry", "central").await;
    browser.type_into("seed", "2026").await;
    browser.click("generate").await;
    let first = browser.board().await;
    browser.click("clear").await;
    assert_eq!(browser.board().await, ".".repeat(81));
    browser.click("generate").await;
    assert_eq!(browser.board().await, first);

    let expected = post_ok(
        "/generate",
        &json!({ "size": 9, "level": "hard", "symmetry": "central", "seed": 2026 }),
    )
    .await;
    assert_eq!(expected["puzzles"][0]["puzzle"], json!(first));
    assert!(browser.text("status").await.contains("seed 2026"));
    browser.screenshot("hard-central").await;

    browser.click("rate").await;
    let level = &expected["puzzles"][0]["level"];
    assert!(
        browser
            .text("status")
            .await
            .contains(&format!("({})", level.as_str().unwrap()))
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn a_16x16_puzzle_is_generated_and_solved() {
    let browser = Browser::open("sixteen", 1280, 1000).await;
    browser.visit_playground().await;
    browser.select("size", "16").await;
    browser.settle().await;
    assert_eq!(browser.board().await, ".".repeat(256));
    browser.type_into("seed", "7").await;
    browser.click("generate").await;
    let puzzle = browser.board().await;
    let expected = post_ok("/generate", &json!({ "size": 16, "seed": 7 })).await;
    assert_eq!(expected["puzzles"][0]["puzzle"], json!(puzzle));
    browser.screenshot("generated").await;
    browser.click("solve").await;
    let board = browser.board().await;
    assert!(solves(&puzzle, &board), "{board}");
    browser.screenshot("solved").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn malformed_puzzles_get_an_error_in_words() {
    let browser = Browser::open("errors", 1280, 1000).await;
    browser.visit_playground().await;
    browser.type_into("puzzle-text", "12345").await;
    browser.click("load").await;
    assert!(browser.shown("error").await);
    let error = browser.text("error").await;
    assert!(
        error.starts_with("Invalid grid: grid has 5 cells"),
        "{error}"
    );
    assert_eq!(browser.board().await, ".".repeat(81), "the board is kept");
    browser.screenshot("too-short").await;

    // Two 5s in the first row: the board shows the clash, and solving says why it fails.
    let clash = format!("55{}", &CLASSIC[2..]);
    browser.paste(&clash).await;
    assert_eq!(browser.cells_with("conflict").await, [(0, 0), (0, 1)]);
    browser.click("solve").await;
    let error = browser.text("error").await;
    assert!(
        error.starts_with("Conflicting givens: 5 stands twice in row 1: r1c1, r1c2"),
        "{error}"
    );
    assert!(!error.contains("[object"), "{error}");
    browser.screenshot("clash").await;

    // The browser notes each 422 as a network error; the page itself logs none.
    let errors = browser.console_errors().await;
    assert!(errors.iter().any(|(source, _)| source == "network"));
    assert!(
        errors.iter().all(|(source, _)| source == "network"),
        "{errors:#?}"
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn the_keyboard_fills_moves_clears_and_undoes() {
    let browser = Browser::open("keyboard", 1280, 1000).await;
    browser.visit_playground().await;
    // Digits, arrows, Delete and Ctrl+Z (WebDriver key codes).
    const RIGHT: &str = "\u{e014}";
    const DOWN: &str = "\u{e015}";
    const DELETE: &str = "\u{e017}";
    const CONTROL: &str = "\u{e009}";
    browser
        .type_into_cell(0, 0, &format!("5{RIGHT}5{DOWN}7{DELETE}"))
        .await;
    assert_eq!(&browser.board().await[..11], "55.........");
    browser.click("check").await;
    assert_eq!(browser.cells_with("conflict").await, [(0, 0), (0, 1)]);
    browser.screenshot("clash").await;
    browser.type_into_cell(0, 1, &format!("{CONTROL}z")).await;
    assert_eq!(&browser.board().await[..11], "55........7");
    browser.type_into_cell(0, 1, &format!("{CONTROL}zz")).await;
    assert_eq!(&browser.board().await[..11], "5..........");
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn the_page_works_behind_a_path_prefix() {
    let browser = Browser::open("prefix", 1280, 1000).await;
    let proxy = prefix_proxy(&browser.server).await;
    browser.visit(&format!("http://{proxy}/sudoku/")).await;
    browser.paste(CLASSIC).await;
    browser.click("solve").await;
    assert!(solves(CLASSIC, &browser.board().await));
    assert!(
        browser
            .text("curl")
            .await
            .ends_with(&format!("http://{proxy}/sudoku/solve"))
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn the_page_fits_a_phone_screen() {
    let browser = Browser::open("phone", 390, 844).await;
    browser.visit_playground().await;
    browser.paste(CLASSIC).await;
    let fits = "document.documentElement.scrollWidth <= window.innerWidth \
        && document.getElementById('board').getBoundingClientRect().right <= window.innerWidth";
    assert_eq!(browser.eval(fits).await, json!(true));
    // Every control has a name a screen reader can say.
    let named = "[...document.querySelectorAll('input, select, button')].every((control) => \
        control.labels?.length || control.getAttribute('aria-label') || control.textContent.trim())";
    assert_eq!(browser.eval(named).await, json!(true));
    browser.screenshot("classic").await;
    browser.close().await;
}

/// The (row, column) pairs of a list of cells, placements or eliminations.
fn cells(list: &Value) -> Vec<(usize, usize)> {
    let mut cells: Vec<_> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|cell| {
            let at = |key: &str| cell[key].as_u64().unwrap() as usize;
            (at("row"), at("col"))
        })
        .collect();
    cells.sort_unstable();
    cells
}

/// The (unit, index) pairs of a step's houses.
fn houses(list: &Value) -> Vec<(String, usize)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|house| {
            let unit = house["unit"].as_str().unwrap().to_owned();
            (unit, house["index"].as_u64().unwrap() as usize)
        })
        .collect()
}
