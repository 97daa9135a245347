//! Variant puzzles over HTTP: the community corpus solved to its published solutions and
//! proved unique (as lz-string text, f-puzzles links and SudokuPad links), counts and true
//! candidates against the classic engines, every bad input a clear 4xx, variant input on
//! the logic endpoints refused, puzzles with drawn rules proper by a count to two, and
//! fuzzed documents, rule sets and generation requests never a 500.

use axum::http::StatusCode;
use serde_json::{Value, json};

use std::time::Duration;

use crate::helpers::{app, app_with, limits, post_json, post_raw};
use sudoku_engine::variant::{self, lz_string};
use sudoku_service::http::Limits;

/// The puzzles of `tests/data/variants/` (CC BY 4.0; titles, authors and licences are in
/// the files), the entries without a puzzle left out.
fn corpus() -> Vec<Value> {
    ["puzzles-ci.json", "lubaf-coloring-book.json"]
        .iter()
        .flat_map(|name| {
            let path = format!("{}/tests/data/variants/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("the corpus is readable");
            let entries: Vec<Value> = serde_json::from_str(&text).expect("the corpus is JSON");
            entries
                .into_iter()
                .filter(|entry| entry["puzzle"].is_string())
        })
        .collect()
}

/// The same puzzle in the forms a request may carry: the lz-string text, an f-puzzles
/// link, a SudokuPad link, chosen by `index` so that the corpus covers all three.
fn pasted(puzzle: &str, index: usize) -> String {
    match index % 3 {
        0 => puzzle.to_owned(),
        1 => format!("https://www.f-puzzles.com/?load={puzzle}"),
        _ => format!("https://sudokupad.app/fpuzzles{puzzle}"),
    }
}

#[tokio::test]
async fn every_corpus_puzzle_is_solved_to_its_published_solution_and_proved_unique() {
    let app = app();
    let corpus = corpus();
    assert!(corpus.len() >= 49, "only {} puzzles", corpus.len());
    for (index, entry) in corpus.iter().enumerate() {
        let title = &entry["title"];
        let puzzle = entry["puzzle"].as_str().unwrap();
        let body = json!({ "fpuzzles": pasted(puzzle, index), "unique": true });
        let answer = post_json(&app, "/solve", &body).await;
        assert_eq!(answer.status, StatusCode::OK, "{title}: {}", answer.text());
        let answer = answer.json();
        assert_eq!(answer["solution"], entry["solution"], "{title}");
        assert_eq!(answer["unique"], true, "{title}");
        let checked = post_json(&app, "/validate", &json!({ "fpuzzles": puzzle })).await;
        assert_eq!(checked.json()["valid"], true, "{title}: {}", checked.text());
    }
}

/// Each corpus puzzle read, written in both forms and as a link, and read back, is the
/// same puzzle, and the link still solves to the published solution. The text written is
/// lz-string's own: compressing the document that f-puzzles compressed gives its text.
#[tokio::test]
async fn every_corpus_puzzle_is_written_and_read_back_as_it_was() {
    let app = app();
    for entry in corpus() {
        let title = &entry["title"];
        let text = entry["puzzle"].as_str().unwrap();
        let puzzle = variant::parse_fpuzzles(text).expect("a corpus puzzle");
        let native = puzzle.to_native();
        let grid = native["grid"].as_str().unwrap();
        assert_eq!(
            variant::parse_native(grid, &native["rules"]),
            Ok(puzzle.clone()),
            "{title}"
        );
        let document = puzzle.to_fpuzzles();
        assert_eq!(
            variant::parse_fpuzzles_value(&document),
            Ok(puzzle.clone()),
            "{title}"
        );
        let link = puzzle.to_fpuzzles_link();
        assert_eq!(
            variant::parse_fpuzzles(&link),
            Ok(puzzle.clone()),
            "{title}"
        );
        let body = json!({ "fpuzzles": link, "unique": true });
        let answer = post_json(&app, "/solve", &body).await.json();
        assert_eq!(answer["solution"], entry["solution"], "{title}: {answer}");
        assert_eq!(answer["unique"], true, "{title}");
        let body = json!({ "grid": grid, "rules": native["rules"] });
        let answer = post_json(&app, "/solve", &body).await.json();
        assert_eq!(answer["solution"], entry["solution"], "{title}: {answer}");
        let original = lz_string::decompress_from_base64(text).expect("lz-string text");
        assert_eq!(lz_string::compress_to_base64(&original), text, "{title}");
    }
}

#[tokio::test]
async fn true_candidates_of_a_unique_puzzle_are_its_solution() {
    let app = app();
    for entry in corpus().iter().take(6) {
        let body = json!({ "fpuzzles": entry["puzzle"], "true_candidates": true });
        let answer = post_json(&app, "/solve", &body).await.json();
        let candidates: String = answer["true_candidates"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|row| row.as_array().unwrap().iter())
            .map(|cell| {
                assert_eq!(cell.as_array().unwrap().len(), 1, "{}", entry["title"]);
                char::from_digit(cell[0].as_u64().unwrap() as u32, 17)
                    .unwrap()
                    .to_ascii_uppercase()
            })
            .collect();
        assert_eq!(candidates, entry["solution"].as_str().unwrap());
    }
}

/// Counts of the variant engine against the classic engine's count of the same grid.
#[tokio::test]
async fn counts_and_true_candidates_agree_with_the_classic_engine() {
    let app = app();
    let grid = "1...............";
    let classic = post_json(
        &app,
        "/solve",
        &json!({ "grid": grid, "max_solutions": 10000 }),
    )
    .await
    .json();
    assert_eq!(classic["solution_count_exact"], true);
    // A rule that every grid keeps (a cage of one cell, any digit) sends the grid to the
    // variant engine.
    let rules = json!([{ "kind": "killer_cage", "cells": [{ "row": 3, "col": 3 }] }]);
    let body = json!({ "grid": grid, "rules": rules, "max_solutions": 10000, "true_candidates": true,
                       "max_solutions_per_candidate": 100 });
    let variant = post_json(&app, "/solve", &body).await;
    assert_eq!(variant.status, StatusCode::OK, "{}", variant.text());
    let variant = variant.json();
    assert_eq!(variant["solution_count"], classic["solution_count"]);
    assert_eq!(variant["solution_count_exact"], true);
    let candidates = &variant["true_candidates"];
    assert_eq!(candidates[0][0], json!([1]));
    assert_eq!(candidates[0][1], json!([2, 3, 4]));
    // Every grid with 1 first: each other digit of the first row stands in a third of them.
    let total = classic["solution_count"].as_u64().unwrap();
    assert_eq!(
        variant["true_candidate_counts"][0][1],
        json!(vec![total / 3; 3])
    );
    let capped = json!({ "grid": "................", "max_solutions": 5 });
    let capped = post_json(&app, "/solve", &capped).await.json();
    assert_eq!(
        (
            capped["solution_count"].clone(),
            capped["solution_count_exact"].clone()
        ),
        (json!(5), json!(false))
    );
}

#[tokio::test]
async fn validate_names_each_broken_constraint() {
    let rules = json!([
        { "kind": "killer_cage", "cells": [{ "row": 0, "col": 0 }, { "row": 0, "col": 1 }], "sum": 7 },
        { "kind": "thermometer", "cells": [{ "row": 1, "col": 1 }, { "row": 1, "col": 0 }] },
    ]);
    let body = json!({ "grid": "12..34..........", "rules": rules });
    let answer = post_json(&app(), "/validate", &body).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let answer = answer.json();
    assert_eq!(answer["valid"], false);
    let broken = answer["broken"].as_array().unwrap();
    let kinds: Vec<(&str, u64)> = broken
        .iter()
        .map(|rule| {
            (
                rule["kind"].as_str().unwrap(),
                rule["index"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(kinds, [("killer_cage", 0), ("thermometer", 1)], "{answer}");
    assert_eq!(
        broken[1]["cells"],
        json!([{ "row": 1, "col": 0 }, { "row": 1, "col": 1 }])
    );
    // The same grid breaks a row of its own once a digit repeats there.
    let body = json!({ "grid": "11..34..........", "rules": [] });
    let classic = post_json(&app(), "/validate", &body).await.json();
    assert_eq!(classic["valid"], false);
}

/// An f-puzzles document of `size` with `extra` fields, no givens.
fn document(size: usize, extra: Value) -> Value {
    let mut document = json!({ "size": size, "grid": vec![vec![json!({}); size]; size] });
    for (key, value) in extra.as_object().unwrap() {
        document[key] = value.clone();
    }
    document
}

#[tokio::test]
async fn bad_variant_input_gets_a_clear_error_with_its_path() {
    let app = app();
    let cage = |cells: Value, value: Value| {
        document(
            9,
            json!({ "killercage": [{ "cells": cells, "value": value }] }),
        )
    };
    let cases = [
        (
            document(9, json!({ "killercage": [{ "cells": ["R10C1"] }] })),
            "invalid_puzzle",
        ),
        (cage(json!(["R1C1", "R1C1"]), json!("3")), "invalid_puzzle"),
        (
            document(
                9,
                json!({ "thermometer": [{ "lines": [["R1C1", "R1C3"]] }] }),
            ),
            "invalid_puzzle",
        ),
        (
            document(9, json!({ "frobnicate": true })),
            "unsupported_constraint",
        ),
        (json!({ "size": 9, "grid": [[{}]] }), "invalid_puzzle"),
        (document(2, json!({})), "invalid_puzzle"),
        (document(17, json!({})), "invalid_puzzle"),
        (json!("https://example.com/?load=N4Ig"), "invalid_puzzle"),
        (
            json!("https://www.f-puzzles.com/?id=abc123"),
            "invalid_puzzle",
        ),
        (json!("https://sudokupad.app/scl1234"), "invalid_puzzle"),
        (json!("this is not lz-string!"), "invalid_puzzle"),
    ];
    for (fpuzzles, code) in cases {
        let answer = post_json(&app, "/solve", &json!({ "fpuzzles": fpuzzles })).await;
        let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, code);
        assert!(problem["path"].is_string(), "{fpuzzles}: {problem}");
    }
    // A sum no digits reach is no malformed puzzle: it has no solution, and the cage is
    // named as broken.
    let impossible = json!({ "fpuzzles": cage(json!(["R1C1", "R1C2"]), json!("30")) });
    let answer = post_json(&app, "/solve", &impossible).await;
    answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
    let answer = post_json(&app, "/validate", &impossible).await.json();
    assert_eq!(answer["broken"][0]["kind"], "killercage", "{answer}");
    let mut regions = document(4, json!({}));
    regions["grid"][0][0]["region"] = json!(1);
    let answer = post_json(&app, "/solve", &json!({ "fpuzzles": regions })).await;
    answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle");
    let both = json!({ "grid": "................", "fpuzzles": document(4, json!({})) });
    let answer = post_json(&app, "/solve", &both).await;
    answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
    let huge = json!({ "fpuzzles": "A".repeat(1 << 20) });
    let answer = post_json(&app, "/solve", &huge).await;
    answer.problem(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large");
}

/// The first puzzle `serate` rates below 4.0 in each held-out file of
/// `variants/se-rated/` (ratings below 4.0 have no chains, and agree exactly), with the
/// file's native rules, the mode's name and the reference's ER, EP and ED.
fn rated_samples() -> Vec<(String, Value, String, [f64; 3])> {
    let folder = format!(
        "{}/tests/data/variants/se-rated",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut samples = Vec::new();
    for entry in std::fs::read_dir(&folder).expect("the rated sets are readable") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(mode) = name.strip_suffix("-heldout.tsv") else {
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let rules: Value = serde_json::from_str(
            text.lines()
                .next()
                .unwrap()
                .split_once("; rules ")
                .unwrap()
                .1,
        )
        .unwrap();
        let row = text
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(|line| line.split('\t').collect::<Vec<_>>())
            .find(|fields| fields[1].parse::<f64>().unwrap() < 4.0)
            .expect("a puzzle rated below 4.0");
        let ratings = [1, 2, 3].map(|i| row[i].parse().unwrap());
        let mode = mode.replace("x-anti-knight", "x+anti-knight");
        samples.push((row[0].to_owned(), rules, mode, ratings));
    }
    assert_eq!(samples.len(), 7, "a held-out file per mode");
    samples
}

#[tokio::test]
async fn rate_gives_the_reference_ratings_of_each_variant_mode_in_both_forms() {
    let app = app();
    for (grid, rules, mode, [er, ep, ed]) in rated_samples() {
        let puzzle = variant::parse_native(&grid, &rules).unwrap();
        for body in [
            json!({ "grid": grid, "rules": rules }),
            json!({ "fpuzzles": puzzle.to_fpuzzles_link() }),
        ] {
            let answer = post_json(&app, "/rate", &body).await;
            assert_eq!(answer.status, StatusCode::OK, "{mode}: {}", answer.text());
            let answer = answer.json();
            assert_eq!(
                [&answer["se"], &answer["ep"], &answer["ed"]],
                [er, ep, ed].map(|r| json!(r)).each_ref(),
                "{mode} {grid}"
            );
            let model = answer["model"].as_str().unwrap();
            assert!(model.ends_with(&format!(" {mode}")), "{model}");
        }
    }
}

#[tokio::test]
async fn rate_and_generate_name_the_rules_that_have_no_rating_scale() {
    let app = app();
    let cage = json!({ "kind": "killer_cage", "cells": [{ "row": 0, "col": 0 }, { "row": 0, "col": 1 }], "sum": 3 });
    let one_diagonal = json!({ "kind": "diagonal", "direction": "down" });
    for (path, body, named) in [
        (
            "/rate",
            json!({ "grid": ".".repeat(81), "rules": [cage] }),
            "killer_cage",
        ),
        (
            "/rate",
            json!({ "grid": ".".repeat(81), "rules": [one_diagonal] }),
            "diagonal",
        ),
        (
            "/generate",
            json!({ "rules": [{ "kind": "anti_king" }, cage] }),
            "killer_cage",
        ),
    ] {
        let answer = post_json(&app, path, &body).await;
        let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "unsupported_rules");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(named), "{path}: {detail}");
    }
    let answer = post_json(
        &app,
        "/generate",
        &json!({ "size": 4, "rules": [{ "kind": "anti_king" }] }),
    )
    .await;
    answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
    let four = json!({ "grid": ".".repeat(16), "rules": [{ "kind": "anti_king" }] });
    let answer = post_json(&app, "/rate", &four).await;
    answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "unsupported_size");
}

/// Each mode's generated puzzles: in the band by the service's own rating, proper by a
/// count to two, carrying their rules and a raw f-puzzles link to the same puzzle, and
/// the same again from the same seed.
#[tokio::test]
async fn generate_makes_each_variant_mode_in_its_band() {
    let app = app();
    for (_, rules, mode, _) in rated_samples() {
        let request =
            json!({ "rules": rules, "se_min": 2.0, "se_max": 3.9, "count": 2, "seed": 11 });
        let answer = post_json(&app, "/generate", &request).await;
        assert_eq!(answer.status, StatusCode::OK, "{mode}: {}", answer.text());
        let answer = answer.json();
        assert!(
            answer["model"].as_str().unwrap().ends_with(&mode),
            "{answer}"
        );
        for made in answer["puzzles"].as_array().unwrap() {
            let se = made["se"].as_f64().unwrap();
            assert!((2.0..=3.9).contains(&se), "{mode}: {made}");
            let link = made["fpuzzles"].as_str().unwrap();
            let text = link
                .strip_prefix("https://www.f-puzzles.com/?load=")
                .unwrap();
            assert!(!text.contains(['&', '%', '#']), "{link}");
            let from_link = variant::parse_fpuzzles(link).unwrap();
            let from_rules =
                variant::parse_native(made["puzzle"].as_str().unwrap(), &made["rules"]).unwrap();
            assert_eq!(from_link, from_rules, "{mode}");
            let count =
                json!({ "grid": made["puzzle"], "rules": made["rules"], "max_solutions": 2 });
            let solved = post_json(&app, "/solve", &count).await.json();
            assert_eq!(solved["solution_count"], 1, "{mode}: {solved}");
            let rated = post_json(&app, "/rate", &json!({ "fpuzzles": link }))
                .await
                .json();
            assert_eq!(rated["se"], made["se"], "{mode}");
        }
        let again = post_json(&app, "/generate", &request).await.json();
        assert_eq!(again["puzzles"], answer["puzzles"], "{mode}: the same seed");
    }
}

/// Every corpus puzzle is explained (to its published solution, or stalled with the
/// candidates left), and hinted from its givens: a step whose placements are the
/// solution's and whose eliminations spare it; with a wrong digit placed, the hint names
/// that digit as the mistake.
#[tokio::test]
async fn every_corpus_puzzle_is_explained_and_hinted() {
    let app = app();
    let mut solved = 0;
    for entry in corpus() {
        let title = &entry["title"];
        let solution: Vec<u32> = entry["solution"]
            .as_str()
            .unwrap()
            .chars()
            .map(|c| c.to_digit(36).unwrap())
            .collect();
        let body = json!({ "fpuzzles": entry["puzzle"] });
        let answer = post_json(&app, "/explain", &body).await;
        assert_eq!(answer.status, StatusCode::OK, "{title}: {}", answer.text());
        let answer = answer.json();
        assert_eq!(answer["solution"], entry["solution"], "{title}");
        match answer["stalled"].as_bool() {
            Some(true) => assert!(answer["candidates"].is_array(), "{title}"),
            _ => solved += 1,
        }
        let puzzle = variant::parse_fpuzzles(entry["puzzle"].as_str().unwrap()).unwrap();
        let size = puzzle.size();
        let givens: String = puzzle
            .givens()
            .iter()
            .map(|given| given.map_or('.', |digit| char::from_digit(u32::from(digit), 36).unwrap()))
            .collect();
        let body = json!({ "fpuzzles": entry["puzzle"], "grid": givens });
        let hint = post_json(&app, "/hint", &body).await;
        assert_eq!(hint.status, StatusCode::OK, "{title}: {}", hint.text());
        let hint = hint.json();
        if let Some(step) = hint.get("step") {
            for placement in step["placements"].as_array().unwrap() {
                let cell = placement["row"].as_u64().unwrap() as usize * size
                    + placement["col"].as_u64().unwrap() as usize;
                assert_eq!(placement["digit"], solution[cell], "{title}: {step}");
            }
            for elimination in step["eliminations"].as_array().unwrap() {
                let cell = elimination["row"].as_u64().unwrap() as usize * size
                    + elimination["col"].as_u64().unwrap() as usize;
                let digits = elimination["digits"].as_array().unwrap();
                assert!(!digits.contains(&json!(solution[cell])), "{title}: {step}");
            }
        } else {
            assert_eq!(hint["stalled"], true, "{title}: {hint}");
        }
        let open = givens.find('.').unwrap();
        let wrong = (solution[open] % size as u32) + 1;
        let mut mistaken = givens.clone();
        mistaken.replace_range(
            open..=open,
            &char::from_digit(wrong, 36).unwrap().to_string(),
        );
        let body = json!({ "fpuzzles": entry["puzzle"], "grid": mistaken });
        let hint = post_json(&app, "/hint", &body).await.json();
        let mistakes = hint["mistakes"]
            .as_array()
            .unwrap_or_else(|| panic!("{title}: {hint}"));
        assert_eq!(mistakes.len(), 1, "{title}: {hint}");
        assert_eq!(mistakes[0]["kind"], "wrong_digit");
        assert_eq!(mistakes[0]["digit"], wrong);
    }
    assert!(solved >= 40, "only {solved} paths ended solved");
}

/// A small deterministic generator (xorshift), so that a failure can be replayed.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A value a careless or hostile client might put anywhere.
    fn hostile(&mut self) -> Value {
        let strings = [
            "R1C1", "R10C1", "R0C3", "R9C9", "X", "V", "15", "-4", "", "UL", "Odd", "1e400",
        ];
        match self.below(8) {
            0 => json!(self.pick(&[-1i64, 0, 1, 2, 3, 9, 10, 16, 17, 45, 1 << 40])),
            1 => json!(self.pick(&strings)),
            2 => Value::Null,
            3 => json!(self.below(2) == 0),
            4 => json!([self.pick(&strings), self.pick(&strings)]),
            5 => json!({ "row": self.below(18) as i64 - 1, "col": self.below(18) as i64 - 1 }),
            6 => json!([[self.pick(&strings), self.pick(&strings)]]),
            _ => json!({}),
        }
    }

    /// `value` with one random change somewhere inside.
    fn mutate(&mut self, value: &mut Value) {
        match value {
            Value::Object(members) if !members.is_empty() && self.below(4) > 0 => {
                let key = members
                    .keys()
                    .nth(self.below(members.len()))
                    .unwrap()
                    .clone();
                match self.below(6) {
                    0 => {
                        members.remove(&key);
                    }
                    1 => {
                        members.insert(key, self.hostile());
                    }
                    _ => self.mutate(members.get_mut(&key).unwrap()),
                }
            }
            Value::Array(items) if !items.is_empty() && self.below(4) > 0 => {
                let index = self.below(items.len());
                match self.below(6) {
                    0 => {
                        items.remove(index);
                    }
                    1 => {
                        let copy = items[index].clone();
                        items.push(copy);
                    }
                    _ => self.mutate(&mut items[index]),
                }
            }
            _ => *value = self.hostile(),
        }
    }
}

/// The native rule kinds, with fields a rule of each might carry.
const NATIVE_KINDS: [&str; 41] = [
    "regions",
    "diagonal",
    "extra_region",
    "anti_knight",
    "anti_king",
    "disjoint_groups",
    "nonconsecutive",
    "killer_cage",
    "arrow",
    "difference",
    "ratio",
    "xv",
    "sum",
    "negative",
    "odd",
    "even",
    "minimum",
    "maximum",
    "candidates",
    "quadruple",
    "thermometer",
    "slow_thermometer",
    "palindrome",
    "renban",
    "whispers",
    "between_line",
    "region_sum_line",
    "entropic_line",
    "modular_line",
    "zipper_line",
    "double_arrow",
    "lockout",
    "nabner",
    "little_killer",
    "sandwich",
    "x_sum",
    "skyscraper",
    "clone",
    "row_indexer",
    "column_indexer",
    "box_indexer",
];

/// A native rule of a random kind on a 4×4 or 6×6 grid, with plausible fields, some wrong.
fn native_rule(random: &mut Random, size: usize) -> Value {
    let cell =
        |random: &mut Random| json!({ "row": random.below(size), "col": random.below(size) });
    let start = (random.below(size), random.below(size));
    let line: Vec<Value> = (0..2 + random.below(3))
        .map(|step| json!({ "row": (start.0 + step).min(size - 1), "col": start.1 }))
        .collect();
    let mut rule = json!({ "kind": random.pick(&NATIVE_KINDS) });
    let edge = [-1, size as i64];
    let clue = json!({ "row": random.pick(&edge), "col": random.below(size) });
    let fields: [(&str, Value); 13] = [
        ("cells", json!(line)),
        ("cell", cell(random)),
        ("sum", json!(random.below(30))),
        (
            "value",
            json!(
                random
                    .pick(&[json!(1), json!(2), json!("X"), json!("V")])
                    .clone()
            ),
        ),
        ("difference", json!(random.below(5))),
        (
            "digits",
            json!([1 + random.below(size), 1 + random.below(size)]),
        ),
        ("circle", json!([cell(random)])),
        ("line", json!(line)),
        ("lines", json!([line.clone(), line])),
        ("clue", clue),
        (
            "relation",
            json!(random.pick(&["difference", "ratio", "xv", "sum"])),
        ),
        ("visible", json!(1 + random.below(size))),
        (
            "direction",
            json!(random.pick(&["down", "up", "up_left", "down_right"])),
        ),
    ];
    for (name, value) in fields {
        if random.below(3) == 0 {
            rule[name] = value;
        }
    }
    rule
}

/// `body` with one of its lists (the native `rules`, or an f-puzzles array of
/// constraints or `negative`) holding one of its items hundreds of times.
fn repeated(random: &mut Random, mut body: Value) -> Value {
    let lists: Vec<String> = match &body {
        Value::Object(members) if members.contains_key("rules") => vec!["rules".into()],
        Value::Object(members) => match members.get("fpuzzles") {
            Some(Value::String(text)) => match variant::parse_fpuzzles(text) {
                Ok(puzzle) => {
                    body["fpuzzles"] = puzzle.to_fpuzzles();
                    body["fpuzzles"]["negative"] = json!(["ratio"]);
                    let document = body["fpuzzles"].as_object().unwrap();
                    document
                        .iter()
                        .filter(|(_, value)| value.is_array())
                        .map(|(key, _)| format!("fpuzzles.{key}"))
                        .collect()
                }
                Err(_) => Vec::new(),
            },
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let Some(list) = lists.get(random.below(lists.len().max(1))) else {
        return body;
    };
    let target = list
        .split('.')
        .fold(&mut body, |value, key| &mut value[key]);
    if let Value::Array(items) = target
        && !items.is_empty()
    {
        let item = items[random.below(items.len())].clone();
        let times = 100 + random.below(900);
        items.extend(std::iter::repeat_n(item, times));
    }
    body
}

/// Fuzzed f-puzzles documents (mutations of the corpus) and native rule sets, some with a
/// rule repeated hundreds of times, get 200, a 4xx, or a 503 at their time limit, on
/// `/solve`, `/validate`, their batches, `/explain` and `/hint`: never a 500, a panic or a
/// hang past the limit.
#[tokio::test]
async fn fuzzed_documents_and_rule_sets_never_get_a_500() {
    let app = app();
    let documents: Vec<Value> = corpus()
        .iter()
        .map(|entry| {
            let body = json!({ "fpuzzles": entry["puzzle"], "max_solutions": 2 });
            body
        })
        .collect();
    // The same puzzles as f-puzzles links.
    let mut links = Vec::new();
    for document in &documents {
        let link = format!(
            "https://www.f-puzzles.com/?load={}",
            document["fpuzzles"].as_str().unwrap()
        );
        links.push(json!({ "fpuzzles": link }));
    }
    let mut random = Random(0x5eed_1234_abcd_ef01);
    let mut statuses = std::collections::BTreeMap::new();
    let mut cases = 0;
    for round in 0..20_000 {
        let body = if round % 2 == 0 {
            let size = 4 + 2 * random.below(2);
            let rules: Vec<Value> = (0..1 + random.below(3))
                .map(|_| native_rule(&mut random, size))
                .collect();
            let mut body =
                json!({ "grid": ".".repeat(size * size), "rules": rules, "timeout_ms": 50 });
            if random.below(4) == 0 {
                random.mutate(&mut body);
            }
            body
        } else {
            let mut body = random.pick(&documents).clone();
            body["timeout_ms"] = json!(50);
            if random.below(8) == 0 {
                body = random.pick(&links).clone();
            }
            for _ in 0..1 + random.below(3) {
                random.mutate(&mut body);
            }
            body
        };
        let body = if random.below(20) == 0 {
            repeated(&mut random, body)
        } else {
            body
        };
        let path = *random.pick(&[
            "/solve",
            "/solve",
            "/validate",
            "/rate",
            "/solve/batch",
            "/validate/batch",
        ]);
        let started = std::time::Instant::now();
        let answer = if path.ends_with("/batch") {
            let line = body.to_string();
            let lines = format!("{line}\n{line}\n");
            post_raw(&app, path, "application/x-ndjson", lines).await
        } else {
            post_json(&app, path, &body).await
        };
        let took = started.elapsed();
        // Far beyond the 50 ms asked and any scheduling delay: a hang, not a slow machine.
        assert!(took < Duration::from_secs(5), "{path} {body}: {took:?}");
        let statuses_seen: Vec<u16> = if path.ends_with("/batch") {
            assert_eq!(answer.status, StatusCode::OK, "{path} {body}");
            answer
                .text()
                .lines()
                .map(|line| {
                    let line: Value = serde_json::from_str(line).expect("NDJSON");
                    line["status"].as_u64().map_or(200, |status| status as u16)
                })
                .collect()
        } else {
            vec![answer.status.as_u16()]
        };
        for status in statuses_seen {
            assert!(
                matches!(status, 200 | 400 | 413 | 422 | 503),
                "{path} {body}: {status} {}",
                answer.text()
            );
            *statuses.entry(status).or_insert(0) += 1;
        }
        cases += 1;
    }
    assert!(cases >= 20_000);
    assert!(
        statuses.get(&200).is_some_and(|&ok| ok > 200),
        "{statuses:?}"
    );
    assert!(
        statuses.get(&422).is_some_and(|&bad| bad > 1000),
        "{statuses:?}"
    );
}

/// Mutated rule sets of every mode, asked to be generated or rated, get an answer or a
/// clear error, never a 500.
#[tokio::test]
async fn fuzzed_variant_modes_to_generate_and_rate_never_get_a_500() {
    let app = app();
    let mut random = Random(44);
    let samples = rated_samples();
    for case in 0..400 {
        let (grid, rules, _, _) = random.pick(&samples).clone();
        let mut rules = rules;
        if case % 4 != 0 {
            random.mutate(&mut rules);
        }
        let band = random.pick(&[(2.0, 3.9), (1.0, 1.5), (4.0, 5.9), (3.05, 3.15)]);
        let (path, body) = if case % 2 == 0 {
            let body = json!({ "rules": rules, "se_min": band.0, "se_max": band.1, "seed": case });
            ("/generate", body)
        } else {
            (
                "/rate",
                json!({ "grid": grid, "rules": rules, "timeout_ms": 200 }),
            )
        };
        let answer = post_json(&app, path, &body).await;
        assert!(
            matches!(answer.status.as_u16(), 200 | 400 | 413 | 422 | 503),
            "{path} {body}: {} {}",
            answer.status,
            answer.text()
        );
    }
}

/// The kinds of drawn rules, each with the request fields that ask for it, 200 puzzles of
/// every kind in all.
fn drawn_requests() -> Vec<(&'static str, Value)> {
    vec![
        ("jigsaw", json!({ "variant": "jigsaw" })),
        ("jigsaw 6×6", json!({ "variant": "jigsaw", "size": 6 })),
        ("killer", json!({ "variant": "killer" })),
        (
            "killer, no givens",
            json!({ "variant": "killer", "max_givens": 0 }),
        ),
        ("thermometer", json!({ "variant": "thermometer" })),
        ("arrow", json!({ "variant": "arrow" })),
        ("kropki", json!({ "variant": "kropki" })),
    ]
}

/// The f-puzzles document behind a generated puzzle's link.
fn linked_document(made: &Value) -> Value {
    let link = made["fpuzzles"].as_str().unwrap();
    let text = link
        .strip_prefix("https://www.f-puzzles.com/?load=")
        .unwrap();
    let json = lz_string::decompress_from_base64(text).unwrap();
    serde_json::from_str(&json).unwrap()
}

/// 200 puzzles of every kind whose rules are drawn, sent back through `/solve` as their
/// f-puzzles link with `max_solutions: 2`: each has exactly one solution, the one the
/// generator gave, and carries its level. The document behind a link is the whole
/// puzzle: a jigsaw's regions on its cells, and no given with `max_givens: 0`.
#[tokio::test]
async fn every_puzzle_with_drawn_rules_is_proper_by_a_count_to_two() {
    let app = app();
    for (name, request) in drawn_requests() {
        let per_kind = if name.starts_with("killer") || name.starts_with("jigsaw") {
            100
        } else {
            200
        };
        let mut made_all = Vec::new();
        for seed in 0..per_kind / 20 {
            let mut request = request.clone();
            request["count"] = json!(20);
            request["seed"] = json!(seed);
            let answer = post_json(&app, "/generate", &request).await;
            assert_eq!(answer.status, StatusCode::OK, "{name}: {}", answer.text());
            let answer = answer.json();
            assert!(
                answer["model"]
                    .as_str()
                    .unwrap()
                    .starts_with("variant-logic/1")
            );
            made_all.extend(answer["puzzles"].as_array().unwrap().clone());
        }
        assert_eq!(made_all.len(), per_kind);
        for made in &made_all {
            let count = json!({ "fpuzzles": made["fpuzzles"], "max_solutions": 2 });
            let solved = post_json(&app, "/solve", &count).await.json();
            assert_eq!(solved["solution_count"], 1, "{name}: {made}");
            assert_eq!(solved["solution_count_exact"], true, "{name}: {made}");
            assert_eq!(solved["solution"], made["solution"], "{name}");
            assert!(
                ["easy", "medium", "hard"].contains(&made["level"].as_str().unwrap()),
                "{name}: {made}"
            );
            let document = linked_document(made);
            let cells: Vec<&Value> = document["grid"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|row| row.as_array().unwrap())
                .collect();
            let givens = cells.iter().filter(|cell| cell["given"] == true).count();
            assert_eq!(givens, made["givens"].as_u64().unwrap() as usize, "{name}");
            if name.starts_with("jigsaw") {
                assert!(cells.iter().all(|cell| cell["region"].is_u64()), "{name}");
            }
            if request["max_givens"] == 0 {
                assert_eq!(givens, 0, "{name}: {made}");
            }
        }
    }
}

/// Each level asked for is the level of the puzzle's path, the same puzzle comes back
/// from its seed, and what cannot be made is refused with the field to change.
#[tokio::test]
async fn drawn_rules_come_in_the_level_asked_for_and_impossible_requests_are_refused() {
    let app = app();
    for (kind, level) in [
        ("killer", "expert"),
        ("jigsaw", "medium"),
        ("arrow", "hard"),
        ("kropki", "easy"),
        ("thermometer", "extreme"),
    ] {
        let request = json!({ "variant": kind, "level": level, "seed": 3, "count": 2 });
        let answer = post_json(&app, "/generate", &request).await.json();
        for made in answer["puzzles"].as_array().unwrap() {
            assert_eq!(made["level"], level, "{kind}: {made}");
            let explained =
                post_json(&app, "/explain", &json!({ "fpuzzles": made["fpuzzles"] })).await;
            assert_eq!(
                explained.status,
                StatusCode::OK,
                "{kind}: {}",
                explained.text()
            );
            let explained = explained.json();
            assert!(explained.get("stalled").is_none(), "{kind}: {explained}");
            assert_eq!(explained["solution"], made["solution"], "{kind}");
        }
        let again = post_json(&app, "/generate", &request).await.json();
        assert_eq!(again["puzzles"], answer["puzzles"], "{kind}: the same seed");
    }
    for (body, field) in [
        (json!({ "max_givens": 3 }), "max_givens"),
        (json!({ "variant": "sandwich" }), "variant"),
        (json!({ "variant": "jigsaw", "size": 12 }), "size"),
        (
            json!({ "variant": "jigsaw", "max_givens": 5 }),
            "max_givens",
        ),
        (json!({ "variant": "killer", "se_min": 2.0 }), "se_min"),
        (json!({ "variant": "killer", "level": "beyond" }), "beyond"),
        (
            json!({ "variant": "killer", "rules": [{ "kind": "anti_knight" }] }),
            "rules",
        ),
    ] {
        let answer = post_json(&app, "/generate", &body).await;
        let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(field), "{body}: {detail}");
    }
}

/// Fuzzed requests for drawn rules get a puzzle, a 4xx, or the documented 503 of a
/// generation out of time, never a 500.
#[tokio::test]
async fn fuzzed_drawn_rule_requests_to_generate_never_get_a_500() {
    let app = app_with(Limits {
        generate_timeout: Duration::from_millis(300),
        ..limits()
    });
    let mut random = Random(45);
    let kinds = [
        "jigsaw",
        "killer",
        "thermometer",
        "arrow",
        "kropki",
        "x",
        "",
    ];
    for case in 0..300 {
        let mut body = json!({
            "variant": random.pick(&kinds),
            "size": random.pick(&[4, 5, 6, 7, 8, 9, 3, 10, 16]),
            "seed": case,
        });
        if random.below(2) == 0 {
            body["level"] = json!(random.pick(&["easy", "medium", "hard", "expert", "extreme"]));
        }
        if random.below(2) == 0 {
            body["max_givens"] = json!(random.pick(&[0, 1, 5, 8, 20, 81]));
        }
        if random.below(4) == 0 {
            body["symmetry"] = json!(random.pick(&["central", "diagonal", "none"]));
        }
        if random.below(4) == 0 {
            body["minimal"] = json!(true);
        }
        if random.below(3) == 0 {
            random.mutate(&mut body);
        }
        let answer = post_json(&app, "/generate", &body).await;
        assert!(
            matches!(answer.status.as_u16(), 200 | 400 | 413 | 422 | 503),
            "{body}: {} {}",
            answer.status,
            answer.text()
        );
    }
}
