//! The playground page in a real headless Chromium, against a real server: what a person
//! does on it, read back from the page and compared with what the API answers.
//!
//! These tests need Chromium and ChromeDriver, so they are ignored unless asked for:
//! `apt-get install chromium chromium-driver`, then
//! `cargo test --test api browser -- --include-ignored`. Without a browser they fail;
//! they never pass without one. Each state's screenshot is written to
//! `target/browser-screenshots/`.

use std::collections::BTreeSet;

use serde_json::{Value, json};
use sudoku_engine::variant::lz_string;

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

    // A variant with clues outside the grid keeps them on the screen.
    let x_sums = corpus_puzzle("Aug 24, 2022: X-Sums Sudoku");
    browser
        .visit(&browser.server.url(&format!("/?load={}", x_sums.text)))
        .await;
    let clues_fit = "[...document.querySelectorAll('[data-rule^=\"xsum \"]')].every((clue) => \
        clue.getBoundingClientRect().left >= 0 && clue.getBoundingClientRect().right <= window.innerWidth)";
    assert_eq!(browser.eval(fits).await, json!(true));
    assert_eq!(browser.eval(clues_fit).await, json!(true));
    browser.screenshot("outside-clues").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn every_corpus_rule_is_drawn_where_its_document_puts_it() {
    let browser = Browser::open("corpus", 1280, 1000).await;
    let corpus = variant_corpus();
    assert!(corpus.len() >= 49, "only {} puzzles", corpus.len());
    for puzzle in &corpus {
        let title = &puzzle.title;
        browser
            .visit(&browser.server.url(&format!("/?load={}", puzzle.text)))
            .await;
        // The script draws before the document counts as loaded, and calls nothing.
        let loaded = browser
            .eval("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
            .await;
        assert!(loaded.as_f64().unwrap() < 1000.0, "{title}: {loaded} ms");
        assert_eq!(browser.text("curl").await, "No call yet.", "{title}");
        let puzzle_givens = givens(&puzzle.document);
        assert_eq!(browser.board().await, puzzle_givens, "{title}");
        let size = puzzle.document["size"].as_u64().unwrap() as usize;
        let given_cells: Vec<(usize, usize)> = (puzzle_givens.bytes().enumerate())
            .filter(|(_, symbol)| *symbol != b'.')
            .map(|(cell, _)| (cell / size, cell % size))
            .collect();
        assert_eq!(browser.cells_with("given").await, given_cells, "{title}");

        let drawn = browser.eval(DRAWN_RULES).await;
        let place = |&(row, col): &(f64, f64)| {
            let at = |axis: usize, cells: f64| {
                drawn["origin"][axis].as_f64().unwrap() + cells * drawn["cell"].as_f64().unwrap()
            };
            (at(0, col), at(1, row))
        };
        let expected = rule_places(&puzzle.document);
        let names: BTreeSet<&str> = expected.iter().map(|(name, _)| name.as_str()).collect();
        let shown: BTreeSet<&str> = drawn["rules"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(shown, names, "{title}: the rules drawn");
        for (name, points) in &expected {
            let bounds = &drawn["rules"][name];
            let edge = |k: usize| bounds[k].as_f64().unwrap();
            for (x, y) in points.iter().map(place) {
                let covered = (edge(0) - 1.5..=edge(2) + 1.5).contains(&x)
                    && (edge(1) - 1.5..=edge(3) + 1.5).contains(&y);
                assert!(covered, "{title}: {name} at {bounds} misses ({x}, {y})");
            }
        }
    }
    browser.screenshot("last").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn a_killer_hint_highlights_its_cage() {
    let browser = Browser::open("killer", 1280, 1000).await;
    let killer = corpus_puzzle("Aug. 18, 23: Palindrome Killer");
    browser
        .visit(&browser.server.url(&format!("/?load={}", killer.text)))
        .await;
    // Hints from the player's board, applied until one is the logic of a cage.
    let mut rule = Value::Null;
    for _ in 0..10 {
        let grid = browser.board().await;
        let expected = post_ok("/hint", &json!({ "fpuzzles": killer.text, "grid": grid })).await;
        browser.click("hint").await;
        let shown: Value = serde_json::from_str(&browser.text("answer").await).unwrap();
        assert_eq!(shown, expected);
        rule = expected["step"]["rule"].clone();
        if rule["kind"] == "killercage" {
            break;
        }
        browser.click("apply").await;
    }
    assert_eq!(rule["kind"], "killercage", "no cage step in ten hints");
    let highlighted =
        "[...document.querySelectorAll('.rule-highlight')].map((e) => e.dataset.rule)";
    let cage = format!("killercage {}", rule["index"]);
    assert_eq!(browser.eval(highlighted).await, json!([cage]));
    browser.screenshot("cage-hint").await;
    browser.click("apply").await;
    assert_eq!(browser.eval(highlighted).await, json!([]));

    // The path of an explanation highlights each step's rule too.
    browser.click("explain").await;
    let path = post_ok("/explain", &json!({ "fpuzzles": killer.text })).await;
    let first = &path["steps"][0]["rule"];
    let name = format!("{} {}", first["kind"].as_str().unwrap(), first["index"]);
    assert_eq!(browser.eval(highlighted).await, json!([name]));

    // The rater has no scale for killers: its answer, in words.
    browser.click("rate").await;
    let error = browser.text("error").await;
    assert!(error.starts_with("Unsupported rules: "), "{error}");
    let errors = browser.console_errors().await;
    assert!(
        errors.iter().all(|(source, _)| source == "network"),
        "{errors:#?}"
    );
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn a_generated_jigsaw_is_drawn_and_solved() {
    let browser = Browser::open("jigsaw", 1280, 1000).await;
    browser.visit_playground().await;
    browser.select("variant", "jigsaw").await;
    browser.select("level", "easy").await;
    browser.type_into("seed", "7").await;
    browser.click("generate").await;
    let expected = post_ok(
        "/generate",
        &json!({ "variant": "jigsaw", "size": 9, "level": "easy", "seed": 7 }),
    )
    .await;
    let generated = &expected["puzzles"][0];
    assert_eq!(json!(browser.board().await), generated["puzzle"]);

    // The borders drawn are those between the generated regions.
    let layout: Vec<Vec<u64>> = generated["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|rule| rule["kind"] == "regions")
        .map(|rule| serde_json::from_value(rule["layout"].clone()).unwrap())
        .expect("a jigsaw's rules give its regions");
    let drawn_borders: BTreeSet<[u64; 4]> =
        serde_json::from_value(browser.eval(REGION_BORDERS).await).unwrap();
    assert_eq!(drawn_borders, region_borders(&layout));
    browser.screenshot("generated").await;

    browser.click("solve").await;
    let board = browser.board().await;
    let link = generated["fpuzzles"].as_str().unwrap();
    let solved = post_ok("/solve", &json!({ "fpuzzles": link })).await;
    assert_eq!(json!(board), solved["solution"]);
    assert_eq!(json!(board), generated["solution"]);
    let curl = browser.text("curl").await;
    assert!(curl.starts_with("curl --json '{\"fpuzzles\":"), "{curl}");
    // Each row, column and region holds each digit once.
    let digits: Vec<u64> = board.bytes().map(|b| u64::from(b - b'0')).collect();
    let mut houses: Vec<Vec<usize>> = (0..9)
        .flat_map(|k| {
            [
                (0..9).map(|i| k * 9 + i).collect(),
                (0..9).map(|i| i * 9 + k).collect(),
            ]
        })
        .collect();
    houses.extend((0..9).map(|region| {
        (0..81)
            .filter(|&cell| layout[cell / 9][cell % 9] == region)
            .collect::<Vec<_>>()
    }));
    for house in houses {
        let held: BTreeSet<u64> = house.iter().map(|&cell| digits[cell]).collect();
        assert_eq!(held, (1..=9).collect(), "{house:?} of {board}");
    }
    browser.screenshot("solved").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn true_candidates_are_the_engines() {
    let browser = Browser::open("true-candidates", 1280, 1000).await;
    browser.visit_playground().await;
    // The classic puzzle without its first six givens: 64 solutions.
    let mut several: Vec<u8> = CLASSIC.bytes().collect();
    several
        .iter_mut()
        .filter(|symbol| **symbol != b'.')
        .take(6)
        .for_each(|symbol| *symbol = b'.');
    let several = String::from_utf8(several).unwrap();
    browser.paste(&several).await;
    browser.click("true-candidates").await;
    let expected = post_ok(
        "/solve",
        &json!({ "grid": several, "true_candidates": true }),
    )
    .await;
    assert_eq!(
        browser.eval(MARKS).await,
        shown_candidates(&expected, &several)
    );
    browser.screenshot("classic").await;
    browser.click("true-candidates").await;
    assert_eq!(browser.eval(MARKS).await, json!(vec![""; 81]));

    // A variant pasted as its JSON, six of its givens taken out.
    let mut document = corpus_puzzle("Nov. 10, 2023: Odd/Even/Diag").document;
    let cells = document["grid"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .flat_map(|row| row.as_array_mut().unwrap());
    for cell in cells.filter(|cell| cell["given"] == true).take(6) {
        *cell = json!({});
    }
    let pasted = document.to_string();
    browser.paste(&pasted).await;
    browser.click("true-candidates").await;
    let puzzle = givens(&document);
    let expected = post_ok(
        "/solve",
        &json!({ "fpuzzles": pasted, "true_candidates": true }),
    )
    .await;
    assert_eq!(
        browser.eval(MARKS).await,
        shown_candidates(&expected, &puzzle)
    );
    let curl = browser.text("curl").await;
    assert!(curl.contains("\"true_candidates\":true"), "{curl}");
    browser.screenshot("variant").await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "needs Chromium: apt-get install chromium chromium-driver, then --include-ignored"]
async fn a_link_loads_with_its_plus_raw_or_percent_encoded() {
    let browser = Browser::open("links", 1280, 1000).await;
    let puzzle = variant_corpus()
        .into_iter()
        .find(|puzzle| puzzle.text.contains('+'))
        .expect("a puzzle whose lz-string text holds a plus");
    let rules = "[...document.querySelectorAll('[data-rule]')].map((e) => e.dataset.rule)";
    browser
        .visit(&browser.server.url(&format!("/?load={}", puzzle.text)))
        .await;
    let board = browser.board().await;
    assert_eq!(board, givens(&puzzle.document));
    let drawn = browser.eval(rules).await;
    assert!(!drawn.as_array().unwrap().is_empty());
    let encoded = puzzle.text.replace('+', "%2B");
    browser
        .visit(&browser.server.url(&format!("/?load={encoded}")))
        .await;
    assert_eq!(browser.board().await, board);
    assert_eq!(browser.eval(rules).await, drawn);

    // Pasted links load the same puzzle, and what was pasted is what the API reads.
    for link in [
        format!("https://www.f-puzzles.com/?load={}", puzzle.text),
        format!("https://sudokupad.app/fpuzzles{}", puzzle.text),
    ] {
        browser.visit_playground().await;
        browser.paste(&link).await;
        assert_eq!(browser.board().await, board, "{link}");
        assert_eq!(browser.eval(rules).await, drawn, "{link}");
        let curl = browser.text("curl").await;
        let sent = json!({ "fpuzzles": link }).to_string();
        assert!(curl.starts_with(&format!("curl --json '{sent}'")), "{curl}");
        assert!(curl.ends_with("/validate"), "{curl}");
    }

    // A link the readers refuse: their reason, in words, and the board is kept.
    browser
        .paste("https://sudokupad.app/sclN4IgzglgXgpiBcBOANCA")
        .await;
    let error = browser.text("error").await;
    assert!(
        error.starts_with("Invalid puzzle: fpuzzles: this SudokuPad link"),
        "{error}"
    );
    assert_eq!(browser.board().await, board);
    let errors = browser.console_errors().await;
    assert!(
        errors.iter().all(|(source, _)| source == "network"),
        "{errors:#?}"
    );
    browser.close().await;
}

/// Each rule drawn on the page (`data-rule`) with its bounding box (left, top, right,
/// bottom), and the place of the board: the top-left corner of its first cell and a
/// cell's width, so that a point given in cells is `origin + cells × cell`.
const DRAWN_RULES: &str = "(() => {
    const cells = [...document.querySelectorAll('#board .cell')];
    const first = cells[0].getBoundingClientRect();
    const last = cells[cells.length - 1].getBoundingClientRect();
    const rules = {};
    document.querySelectorAll('[data-rule]').forEach((element) => {
        const box = element.getBoundingClientRect();
        rules[element.dataset.rule] = [box.left, box.top, box.right, box.bottom];
    });
    return { origin: [first.left, first.top], cell: (last.right - first.left) / Math.sqrt(cells.length), rules };
})()";

/// The region borders drawn, each [x1, y1, x2, y2] in cells from the top-left corner.
const REGION_BORDERS: &str = "(() => {
    const path = document.querySelector('#board .region-borders');
    const unit = path.ownerSVGElement.viewBox.baseVal.width / Math.sqrt(document.querySelectorAll('#board .cell').length);
    return path.getAttribute('d').split('M').filter(Boolean).map((segment) => segment.split(/[ L]/).map((n) => Math.round(Number(n) / unit)));
})()";

/// The marks shown in each cell, row by row.
const MARKS: &str = "[...document.querySelectorAll('#board .cell')].map((cell) => cell.querySelector('.marks').textContent)";

/// A puzzle of the variant corpus.
struct CorpusPuzzle {
    title: String,
    /// Its f-puzzles document as lz-string text, as f-puzzles puts it after `?load=`.
    text: String,
    document: Value,
}

/// The puzzles of `tests/data/variants/puzzles-ci.json` and `lubaf-coloring-book.json`
/// (CC BY 4.0; titles, authors and licences are in the files), with their documents.
fn variant_corpus() -> Vec<CorpusPuzzle> {
    ["puzzles-ci.json", "lubaf-coloring-book.json"]
        .iter()
        .flat_map(|name| {
            let path = format!("{}/tests/data/variants/{name}", env!("CARGO_MANIFEST_DIR"));
            let entries: Vec<Value> =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            entries.into_iter().filter_map(|entry| {
                let text = entry["puzzle"].as_str()?.to_owned();
                let json = lz_string::decompress_from_base64(&text).unwrap();
                Some(CorpusPuzzle {
                    title: entry["title"].as_str().unwrap_or_default().to_owned(),
                    text,
                    document: serde_json::from_str(&json).unwrap(),
                })
            })
        })
        .collect()
}

/// The corpus puzzle titled `title`.
fn corpus_puzzle(title: &str) -> CorpusPuzzle {
    variant_corpus()
        .into_iter()
        .find(|puzzle| puzzle.title == title)
        .unwrap_or_else(|| panic!("no corpus puzzle {title}"))
}

/// The givens of an f-puzzles document as the board shows them, `.` for a blank.
fn givens(document: &Value) -> String {
    let cells = document["grid"].as_array().unwrap().iter();
    cells
        .flat_map(|row| row.as_array().unwrap())
        .map(|cell| match (&cell["given"], &cell["value"]) {
            (Value::Bool(true), Value::Number(digit)) => digit.to_string(),
            _ => ".".to_owned(),
        })
        .collect()
}

/// `(row, col)` of a cell name (`R1C1` is (0, 0); outside clues stand at -1 or the size).
fn cell_at(name: &Value) -> (f64, f64) {
    let name = name.as_str().unwrap().to_ascii_uppercase();
    let (row, col) = name[1..].split_once('C').unwrap();
    (
        row.parse::<f64>().unwrap() - 1.0,
        col.parse::<f64>().unwrap() - 1.0,
    )
}

/// The line kinds f-puzzles names.
const LINES: [&str; 13] = [
    "thermometer",
    "slowthermometer",
    "palindrome",
    "renban",
    "whispers",
    "betweenline",
    "regionsumline",
    "entropicline",
    "modularline",
    "zipperline",
    "doublearrow",
    "lockout",
    "nabner",
];

/// Each rule of an f-puzzles document by its `data-rule` name, with the points (in cells,
/// from the top-left corner) its drawing must cover: the centres of its cells (of its
/// circle and lines for an arrow, of both sets for a clone), the point between its cells
/// for a dot or a quadruple, and an outside clue's place. A rule the legend lists has none.
fn rule_places(document: &Value) -> Vec<(String, Vec<(f64, f64)>)> {
    let size = document["size"].as_u64().unwrap() as usize;
    let centre = |(row, col): (f64, f64)| (row + 0.5, col + 0.5);
    let list = |cells: &Value| -> Vec<(f64, f64)> {
        let names = cells.as_array().map(Vec::as_slice).unwrap_or_default();
        names.iter().map(|name| centre(cell_at(name))).collect()
    };
    let lines = |entry: &Value| -> Vec<(f64, f64)> {
        let lines = entry["lines"].as_array().unwrap();
        lines.iter().flat_map(list).collect()
    };
    let between = |points: Vec<(f64, f64)>| {
        let n = points.len() as f64;
        let (rows, cols): (Vec<f64>, Vec<f64>) = points.into_iter().unzip();
        vec![(rows.iter().sum::<f64>() / n, cols.iter().sum::<f64>() / n)]
    };
    let diagonal = |up: bool| -> Vec<(f64, f64)> {
        (0..size)
            .map(|i| centre(((if up { size - 1 - i } else { i }) as f64, i as f64)))
            .collect()
    };
    let mut places = Vec::new();
    for (key, value) in document.as_object().unwrap() {
        let key = key.as_str();
        if value == &json!(true) {
            let points = match key {
                "diagonal+" => diagonal(true),
                "diagonal-" => diagonal(false),
                _ => Vec::new(),
            };
            places.push((format!("{key} 0"), points));
            continue;
        }
        let Some(entries) = value.as_array() else {
            continue;
        };
        for (index, entry) in entries.iter().enumerate() {
            let points = match key {
                "negative" => Vec::new(),
                "killercage" | "extraregion" | "rowindexer" | "columnindexer" | "boxindexer" => {
                    list(&entry["cells"])
                }
                "clone" => [list(&entry["cells"]), list(&entry["cloneCells"])].concat(),
                "arrow" => [list(&entry["cells"]), lines(entry)].concat(),
                "difference" | "ratio" | "xv" | "sum" | "quadruple" => {
                    between(list(&entry["cells"]))
                }
                "odd" | "even" | "minimum" | "maximum" | "littlekillersum" | "sandwichsum"
                | "xsum" | "skyscraper" => vec![centre(cell_at(&entry["cell"]))],
                _ if LINES.contains(&key) => lines(entry),
                _ => break, // not a rule: the solution, or a drawing with no meaning
            };
            places.push((format!("{key} {index}"), points));
        }
    }
    places
}

/// The borders between cells of different regions of `layout`, as [`REGION_BORDERS`]
/// gives them.
fn region_borders(layout: &[Vec<u64>]) -> BTreeSet<[u64; 4]> {
    let size = layout.len();
    let mut borders = BTreeSet::new();
    for row in 0..size {
        for col in 0..size {
            let (r, c) = (row as u64, col as u64);
            if col + 1 < size && layout[row][col] != layout[row][col + 1] {
                borders.insert([c + 1, r, c + 1, r + 1]);
            }
            if row + 1 < size && layout[row][col] != layout[row + 1][col] {
                borders.insert([c, r + 1, c + 1, r + 1]);
            }
        }
    }
    borders
}

/// The marks the page must show for the true candidates of an answer of `/solve`: each
/// empty cell of `puzzle` its digits, a given none.
fn shown_candidates(answer: &Value, puzzle: &str) -> Value {
    let cells = answer["true_candidates"].as_array().unwrap().iter();
    let candidates = cells.flat_map(|row| row.as_array().unwrap());
    let marks: Vec<String> = candidates
        .zip(puzzle.chars())
        .map(|(digits, symbol)| match symbol {
            '.' => digits
                .as_array()
                .unwrap()
                .iter()
                .map(Value::to_string)
                .collect(),
            _ => String::new(),
        })
        .collect();
    json!(marks)
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
