//! What each variant input means, each held against a source independent of the engine:
//! the peer's count of a small puzzle (dclamage/SudokuVariantSolverJS, recorded in
//! `tests/data/variants/meanings.json`) and a brute-force count made here, by filling in
//! every grid and keeping those that the rule, written out in plain words below, allows.
//! Where the service reads an input otherwise than the peer (docs/design.md, "Reading
//! variant input"), the test holds the service's reading and the peer's count stays in the
//! fixture beside it, so the difference shows.

use axum::Router;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{app, post_json};

/// The fixture's entry `name`: an f-puzzles document, the peer's count of its solutions
/// (`null` where the peer never finished) and a note.
fn entry(name: &str) -> Value {
    let path = format!(
        "{}/tests/data/variants/meanings.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the fixture is readable");
    let entries: Vec<Value> = serde_json::from_str(&text).expect("the fixture is JSON");
    entries
        .into_iter()
        .find(|entry| entry["name"] == name)
        .unwrap_or_else(|| panic!("no entry {name:?} in the fixture"))
}

/// The peer's recorded count of an entry, `None` where it never finished.
fn peer_count(entry: &Value) -> Option<usize> {
    entry["peer_count"].as_u64().map(|count| count as usize)
}

/// The service's count of every solution of the `/solve` request `body`; 0 when it
/// answers that there is none.
async fn service_count(app: &Router, body: &Value) -> usize {
    let mut body = body.clone();
    body["max_solutions"] = json!(1000);
    let answer = post_json(app, "/solve", &body).await;
    if answer.status == StatusCode::UNPROCESSABLE_ENTITY {
        answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
        return 0;
    }
    assert_eq!(answer.status, StatusCode::OK, "{body}: {}", answer.text());
    let answer = answer.json();
    assert_eq!(answer["solution_count_exact"], true, "{answer}");
    answer["solution_count"].as_u64().unwrap() as usize
}

/// Asserts that the service counts `expected` solutions (the brute force's count) of the
/// fixture's `entry`, and that the peer did too where it finished.
async fn agrees(app: &Router, entry: &Value, expected: usize) {
    let name = &entry["name"];
    let body = json!({ "fpuzzles": entry["fpuzzles"] });
    assert_eq!(
        service_count(app, &body).await,
        expected,
        "{name}: the service"
    );
    if let Some(peer) = peer_count(entry) {
        assert_eq!(peer, expected, "{name}: the peer");
    }
}

/// Asserts that the service refuses `fpuzzles` as `invalid_puzzle`, naming `path`.
async fn refused(app: &Router, fpuzzles: &Value, path: &str) {
    let answer = post_json(app, "/solve", &json!({ "fpuzzles": fpuzzles })).await;
    let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle");
    assert_eq!(problem["path"], path, "{problem}");
}

/// A finished grid of the brute force.
struct Grid {
    size: usize,
    /// Row by row.
    digits: Vec<u8>,
}

impl Grid {
    /// The digit of the cell that f-puzzles names `name` (`R1C2`).
    fn at(&self, name: &str) -> u8 {
        self.digits[index(name, self.size)]
    }

    /// The digits of the cells named, in the order named.
    fn along(&self, names: &[&str]) -> Vec<u8> {
        names.iter().map(|name| self.at(name)).collect()
    }
}

/// The place, row by row, of the cell named `R<row>C<col>` (1-based) on a grid of `size`.
fn index(name: &str, size: usize) -> usize {
    let (row, col) = name
        .strip_prefix('R')
        .and_then(|rest| rest.split_once('C'))
        .unwrap_or_else(|| panic!("{name} is no cell name"));
    let (row, col): (usize, usize) = (row.parse().unwrap(), col.parse().unwrap());
    (row - 1) * size + col - 1
}

/// f-puzzles' default boxes: as many rows as the largest divisor of `size` up to its
/// square root, and as wide as the rest (2×2 on 4×4, 3×3 on 9×9).
fn default_box(size: usize, cell: usize) -> usize {
    let height = (1..=size)
        .filter(|&h| h * h <= size && size.is_multiple_of(h))
        .max()
        .unwrap();
    let width = size / height;
    let (row, col) = (cell / size, cell % size);
    row / height * height + col / width
}

/// Every grid of `size` that keeps `givens` (0 for an open cell) and whose rows, columns
/// and regions (`regions[cell]`, `None` for a cell in none) hold no digit twice.
fn every_grid(size: usize, givens: &[u8], regions: &[Option<usize>]) -> Vec<Grid> {
    let sees = |a: usize, b: usize| {
        a != b
            && (a / size == b / size
                || a % size == b % size
                || (regions[a].is_some() && regions[a] == regions[b]))
    };
    let mut grids = Vec::new();
    let mut digits = givens.to_vec();
    let open: Vec<usize> = (0..size * size).filter(|&cell| givens[cell] == 0).collect();
    fill(size, &open, &mut digits, &sees, &mut grids);
    grids
}

/// Fills the `open` cells in turn with every digit that no cell it sees holds.
fn fill(
    size: usize,
    open: &[usize],
    digits: &mut Vec<u8>,
    sees: &dyn Fn(usize, usize) -> bool,
    grids: &mut Vec<Grid>,
) {
    let Some((&cell, rest)) = open.split_first() else {
        grids.push(Grid {
            size,
            digits: digits.clone(),
        });
        return;
    };
    for digit in 1..=size as u8 {
        if (0..size * size).all(|other| !sees(cell, other) || digits[other] != digit) {
            digits[cell] = digit;
            fill(size, rest, digits, sees, grids);
        }
    }
    digits[cell] = 0;
}

/// Every 4×4 Sudoku with 2×2 boxes: 288 of them.
fn every_4x4() -> Vec<Grid> {
    let boxes: Vec<Option<usize>> = (0..16).map(|cell| Some(default_box(4, cell))).collect();
    let grids = every_grid(4, &[0; 16], &boxes);
    assert_eq!(grids.len(), 288);
    grids
}

/// An f-puzzles document's size, givens (0 for an open cell) and regions (`region`, or the
/// default box where a cell has none).
fn read_grid(document: &Value) -> (usize, Vec<u8>, Vec<Option<usize>>) {
    let size = document["size"].as_u64().unwrap() as usize;
    let cells: Vec<&Value> = document["grid"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .collect();
    let givens = cells
        .iter()
        .map(|cell| match cell["given"] == true {
            true => cell["value"].as_u64().unwrap() as u8,
            false => 0,
        })
        .collect();
    let regions = cells
        .iter()
        .enumerate()
        .map(|(place, cell)| match cell.get("region") {
            Some(region) => Some(region.as_u64().unwrap() as usize),
            None => Some(default_box(size, place)),
        })
        .collect();
    (size, givens, regions)
}

/// Every grid that keeps an f-puzzles document's givens and regions.
fn completions(document: &Value) -> Vec<Grid> {
    let (size, givens, regions) = read_grid(document);
    every_grid(size, &givens, &regions)
}

/// The grid string of an f-puzzles document's givens, for the native form.
fn grid_string(document: &Value) -> String {
    let (_, givens, _) = read_grid(document);
    givens
        .iter()
        .map(|&digit| match digit {
            0 => '.',
            digit => char::from(b'0' + digit),
        })
        .collect()
}

/// Every pair of orthogonal neighbours on a grid of `size`, each once.
fn orthogonal_pairs(size: usize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for cell in 0..size * size {
        if cell % size + 1 < size {
            pairs.push((cell, cell + 1));
        }
        if cell / size + 1 < size {
            pairs.push((cell, cell + size));
        }
    }
    pairs
}

/// How many of `grids` have every pair of orthogonal neighbours `allowed`.
fn with_allowed_neighbours(grids: &[Grid], allowed: impl Fn(u8, u8) -> bool) -> usize {
    grids
        .iter()
        .filter(|grid| {
            orthogonal_pairs(grid.size)
                .iter()
                .all(|&(a, b)| allowed(grid.digits[a], grid.digits[b]))
        })
        .count()
}

/// The two cells named by an f-puzzles dot, as places on a grid of `size`.
fn dot_pair(dot: &Value, size: usize) -> (usize, usize) {
    let cells = dot["cells"].as_array().unwrap();
    let (a, b) = (
        index(cells[0].as_str().unwrap(), size),
        index(cells[1].as_str().unwrap(), size),
    );
    (a.min(b), a.max(b))
}

/// Whether `a` and `b` are in a 1:2 ratio.
fn double(a: u8, b: u8) -> bool {
    a == 2 * b || b == 2 * a
}

/// `negative: ["difference"]` with no white dot drawn: no two orthogonal neighbours differ
/// by 1 (docs/design.md; f-puzzles' negative white-dot rule as dclamage's C# solver reads
/// it). Brute force: 3 of the 7 classic completions. The peer forbids only the values of
/// drawn white dots, so nothing here, and counted all 7.
#[tokio::test]
async fn negative_difference_without_white_dots_forbids_consecutive_neighbours() {
    let app = app();
    let entry = entry("negative difference, no white dot");
    let grids = completions(&entry["fpuzzles"]);
    let expected = with_allowed_neighbours(&grids, |a, b| a.abs_diff(b) != 1);
    assert_eq!((expected, grids.len()), (3, 7));
    let body = json!({ "fpuzzles": entry["fpuzzles"] });
    assert_eq!(service_count(&app, &body).await, expected);
    let rules = json!([{ "kind": "negative", "relation": "difference" }]);
    let native = json!({ "grid": grid_string(&entry["fpuzzles"]), "rules": rules });
    assert_eq!(service_count(&app, &native).await, expected);
    assert_eq!(
        peer_count(&entry),
        Some(grids.len()),
        "the peer forbids nothing"
    );
}

/// `negative: ["ratio"]` with no black dot: no two orthogonal neighbours are in a 1:2 ratio,
/// and the name listed 1000 times means the same as once. Brute force and the peer: 2.
#[tokio::test]
async fn negative_ratio_forbids_a_ratio_of_2_however_often_it_is_named() {
    let app = app();
    let once = entry("negative ratio, no black dot");
    let grids = completions(&once["fpuzzles"]);
    let expected = with_allowed_neighbours(&grids, |a, b| !double(a, b));
    assert!(expected > 0 && expected < grids.len());
    agrees(&app, &once, expected).await;
    let repeated = entry("negative ratio, the name 1000 times");
    assert_eq!(
        repeated["fpuzzles"]["negative"].as_array().unwrap().len(),
        1000
    );
    agrees(&app, &repeated, expected).await;
}

/// `negative: ["xv"]` with no X or V drawn: no two orthogonal neighbours add up to 5 or 10.
/// Brute force and the peer: 8 of the 288 4×4 grids.
#[tokio::test]
async fn negative_xv_forbids_sums_of_5_and_10() {
    let expected = with_allowed_neighbours(&every_4x4(), |a, b| a + b != 5 && a + b != 10);
    assert_eq!(expected, 8);
    agrees(&app(), &entry("negative xv, no marks"), expected).await;
}

/// Sum dots (`sum: [{cells, value}]`): the two cells add up to the value; with
/// `negative: ["sum"]`, no orthogonal pair without a sum dot adds up to a sum dot's value.
/// Brute force and the peer: 26 and 15. A sum dot without a value is refused (the peer
/// reads no value as a sum no digits make: 0 solutions).
#[tokio::test]
async fn sum_dots_and_negative_sum() {
    let app = app();
    let plain = entry("sum dots");
    let document = &plain["fpuzzles"];
    let dots: Vec<((usize, usize), u8)> = document["sum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|dot| {
            let value = dot["value"].as_str().unwrap().parse().unwrap();
            (dot_pair(dot, 9), value)
        })
        .collect();
    let grids = completions(document);
    let dotted = |grid: &&Grid| {
        dots.iter()
            .all(|&((a, b), value)| grid.digits[a] + grid.digits[b] == value)
    };
    let expected = grids.iter().filter(dotted).count();
    assert!(expected > 0 && expected < grids.len());
    agrees(&app, &plain, expected).await;

    let negative = entry("negative sum with sum dots");
    let pairs = orthogonal_pairs(9);
    let no_other_pair = |grid: &&Grid| {
        pairs.iter().all(|&(a, b)| {
            dots.iter().any(|&(pair, _)| pair == (a, b))
                || dots
                    .iter()
                    .all(|&(_, value)| grid.digits[a] + grid.digits[b] != value)
        })
    };
    let expected_negative = grids.iter().filter(dotted).filter(no_other_pair).count();
    assert!(expected_negative > 0 && expected_negative < expected);
    agrees(&app, &negative, expected_negative).await;

    let valueless = entry("sum dot without a value");
    refused(&app, &valueless["fpuzzles"], "fpuzzles.sum[0].value").await;
    assert_eq!(peer_count(&valueless), Some(0));
}

/// A killer cage of more than N cells may repeat digits and keeps its sum; an extra region
/// of more than N cells states nothing. Brute force and the peer on 4×4: a 5-cell cage of 14
/// leaves 72 grids (no repeats would leave none: 5 cells, 4 digits); a 5-cell extra region
/// leaves all 288.
#[tokio::test]
async fn cages_and_extra_regions_of_more_than_n_cells() {
    let app = app();
    let grids = every_4x4();
    let cage = ["R1C1", "R1C2", "R1C3", "R1C4", "R2C1"];
    let expected = grids
        .iter()
        .filter(|grid| grid.along(&cage).iter().sum::<u8>() == 14)
        .count();
    assert_eq!(expected, 72);
    let killer = entry("killer cage of 5 cells on 4x4, value 14");
    assert_eq!(killer["fpuzzles"]["killercage"][0]["cells"], json!(cage));
    agrees(&app, &killer, expected).await;
    let extra = entry("extra region of 5 cells on 4x4");
    agrees(&app, &extra, grids.len()).await;
}

/// A cage whose value is `0`, empty or not a number (`?`) has no sum, but its digits still
/// do not repeat. Brute force and the peer: R1C1 ≠ R2C3 in 144 of the 288 4×4 grids.
#[tokio::test]
async fn a_cage_without_a_number_has_no_sum_but_no_repeats() {
    let app = app();
    let expected = every_4x4()
        .iter()
        .filter(|grid| grid.at("R1C1") != grid.at("R2C3"))
        .count();
    assert_eq!(expected, 144);
    for value in ["\"0\"", "\"\"", "\"?\""] {
        let cage = entry(&format!("killer cage value {value}"));
        agrees(&app, &cage, expected).await;
    }
}

/// Lines that come back to a cell are read as drawn, cell after cell. A whispers loop
/// adds its closing pair (28 grids, 42 without it); a renban loop holds one cell twice
/// among digits that all differ, and a thermometer loop puts a cell above itself: no
/// solution (the peer never finishes counting either); a palindrome loop P Q R P makes
/// Q = R (72). Brute force on 4×4, and the peer where it finished.
#[tokio::test]
async fn lines_that_come_back_to_a_cell() {
    let app = app();
    let grids = every_4x4();
    let count = |keep: &dyn Fn(&Grid) -> bool| grids.iter().filter(|grid| keep(grid)).count();

    let whispers = entry("whispers loop");
    let line = ["R2C2", "R2C3", "R3C3", "R3C2", "R2C2"];
    assert_eq!(whispers["fpuzzles"]["whispers"][0]["lines"][0], json!(line));
    // Neighbours along the line differ by at least 2, half of 4 (no `value` given).
    let whispering = |cells: &[&str], grid: &Grid| {
        grid.along(cells)
            .windows(2)
            .all(|pair| pair[0].abs_diff(pair[1]) >= 2)
    };
    let expected = count(&|grid| whispering(&line, grid));
    assert_eq!(
        (expected, count(&|grid| whispering(&line[..4], grid))),
        (28, 42)
    );
    agrees(&app, &whispers, expected).await;

    let renban = entry("renban loop");
    let line = ["R1C1", "R1C2", "R2C2", "R1C1"];
    assert_eq!(renban["fpuzzles"]["renban"][0]["lines"][0], json!(line));
    // All different, and a run of consecutive digits.
    let expected = count(&|grid| {
        let mut digits = grid.along(&line);
        digits.sort_unstable();
        digits.windows(2).all(|pair| pair[1] == pair[0] + 1)
    });
    assert_eq!(expected, 0);
    agrees(&app, &renban, expected).await;

    let palindrome = entry("palindrome loop");
    let line = ["R2C3", "R2C2", "R3C3", "R2C3"];
    assert_eq!(
        palindrome["fpuzzles"]["palindrome"][0]["lines"][0],
        json!(line)
    );
    let expected = count(&|grid| {
        let digits = grid.along(&line);
        digits.iter().eq(digits.iter().rev())
    });
    assert_eq!(expected, 72);
    agrees(&app, &palindrome, expected).await;

    let thermometer = entry("thermometer loop");
    let line = ["R1C1", "R1C2", "R2C2", "R1C1"];
    assert_eq!(
        thermometer["fpuzzles"]["thermometer"][0]["lines"][0],
        json!(line)
    );
    let expected = count(&|grid| grid.along(&line).windows(2).all(|pair| pair[0] < pair[1]));
    assert_eq!(expected, 0);
    agrees(&app, &thermometer, expected).await;
}

/// A little killer with an empty value is no clue (all 288 4×4 grids); the same clue with
/// 10 makes its diagonal add up to 10 (64). Brute force and the peer.
#[tokio::test]
async fn a_little_killer_without_a_value_is_no_clue() {
    let app = app();
    let grids = every_4x4();
    agrees(
        &app,
        &entry("little killer with an empty value"),
        grids.len(),
    )
    .await;
    let diagonal = ["R1C1", "R2C2", "R3C3", "R4C4"];
    let expected = grids
        .iter()
        .filter(|grid| grid.along(&diagonal).iter().sum::<u8>() == 10)
        .count();
    assert_eq!(expected, 64);
    agrees(&app, &entry("little killer of 10"), expected).await;
}

/// XV marks are `X` or `V` in either case: `x` adds up to 10, `v` to 5 (brute force and the
/// peer: 2). Any other mark is refused with its path (f-puzzles draws only X and V); the
/// peer drops it and counted all 288 4×4 grids.
#[tokio::test]
async fn xv_marks_are_x_or_v_in_either_case() {
    let app = app();
    for mark in ["\"XV\"", "\"5\""] {
        let other = entry(&format!("xv mark {mark}"));
        refused(&app, &other["fpuzzles"], "fpuzzles.xv[0].value").await;
        assert_eq!(peer_count(&other), Some(288), "{mark}");
    }
    let lower = entry("xv marks in lower case");
    let marks = lower["fpuzzles"]["xv"].as_array().unwrap();
    assert_eq!(
        (&marks[0]["value"], &marks[1]["value"]),
        (&json!("x"), &json!("v"))
    );
    let (x, v) = (dot_pair(&marks[0], 9), dot_pair(&marks[1], 9));
    let grids = completions(&lower["fpuzzles"]);
    let expected = grids
        .iter()
        .filter(|grid| {
            grid.digits[x.0] + grid.digits[x.1] == 10 && grid.digits[v.0] + grid.digits[v.1] == 5
        })
        .count();
    assert!(expected > 0 && expected < grids.len());
    agrees(&app, &lower, expected).await;
}

/// Regions that do not have N cells are refused (422 `invalid_puzzle` at `fpuzzles.grid`),
/// in the native form too. The peer drops them and keeps the regions of N cells: here that
/// leaves every 4×4 grid (288, recorded; the brute force of its reading agrees).
#[tokio::test]
async fn regions_without_n_cells_are_refused() {
    let app = app();
    let wrong = entry("regions of 5 and 3 cells");
    refused(&app, &wrong["fpuzzles"], "fpuzzles.grid").await;
    let (_, givens, regions) = read_grid(&wrong["fpuzzles"]);
    let sizes: Vec<usize> = (0..4)
        .map(|region| regions.iter().filter(|&&r| r == Some(region)).count())
        .collect();
    assert_eq!(sizes, [5, 3, 4, 4]);
    let full: Vec<Option<usize>> = regions
        .iter()
        .map(|&region| region.filter(|&r| sizes[r] == 4))
        .collect();
    assert_eq!(
        peer_count(&wrong),
        Some(every_grid(4, &givens, &full).len())
    );
    let layout: Vec<Vec<usize>> = regions
        .chunks(4)
        .map(|row| row.iter().map(|region| region.unwrap()).collect())
        .collect();
    let body =
        json!({ "grid": "................", "rules": [{ "kind": "regions", "layout": layout }] });
    let answer = post_json(&app, "/solve", &body).await;
    let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle");
    assert_eq!(problem["path"], "rules[0].layout", "{problem}");
}

/// `givenPencilMarks` on a given cell are ignored, as f-puzzles ignores them: R1C1 given
/// 1 with marks [2] leaves 72 4×4 grids (brute force and the peer). In the native form a
/// `candidates` rule on a given is refused, and on an open cell it holds (24).
#[tokio::test]
async fn pencil_marks_on_a_given_are_ignored() {
    let app = app();
    let grids = every_4x4();
    let expected = grids.iter().filter(|grid| grid.at("R1C1") == 1).count();
    assert_eq!(expected, 72);
    let marked = entry("given pencil marks on a given");
    assert_eq!(
        marked["fpuzzles"]["grid"][0][0]["givenPencilMarks"],
        json!([2])
    );
    agrees(&app, &marked, expected).await;

    let on_given = json!({ "grid": "1...............", "rules": [
        { "kind": "candidates", "cell": { "row": 0, "col": 0 }, "digits": [2] },
    ] });
    let answer = post_json(&app, "/solve", &on_given).await;
    let problem = answer.problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle");
    assert!(
        problem["path"].as_str().unwrap().starts_with("rules[0]"),
        "{problem}"
    );
    let open = json!({ "grid": "1...............", "rules": [
        { "kind": "candidates", "cell": { "row": 0, "col": 1 }, "digits": [2] },
    ] });
    let expected = grids
        .iter()
        .filter(|grid| grid.at("R1C1") == 1 && grid.at("R1C2") == 2)
        .count();
    assert_eq!(expected, 24);
    assert_eq!(service_count(&app, &open).await, expected);
}

/// An arrow's pill reads as a number, its cells in the order listed: [R1C1, R1C2] is
/// 10·R1C1 + R1C2 and [R1C2, R1C1] is 10·R1C2 + R1C1, which the line's cells outside the
/// pill add up to. Brute force and the peer on 4×4: 6 and 12.
#[tokio::test]
async fn a_pill_reads_its_cells_in_the_order_listed() {
    let app = app();
    let grids = every_4x4();
    let mut counts = Vec::new();
    for name in ["arrow pill R1C1 R1C2", "arrow pill R1C2 R1C1"] {
        let pill = entry(name);
        let arrow = &pill["fpuzzles"]["arrow"][0];
        let circle: Vec<&str> = arrow["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|cell| cell.as_str().unwrap())
            .collect();
        let line: Vec<&str> = arrow["lines"][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|cell| cell.as_str().unwrap())
            .filter(|cell| !circle.contains(cell))
            .collect();
        assert_eq!(line, ["R2C2", "R3C2", "R4C2", "R4C1"]);
        let expected = grids
            .iter()
            .filter(|grid| {
                let number = grid
                    .along(&circle)
                    .iter()
                    .fold(0u32, |number, &digit| number * 10 + u32::from(digit));
                grid.along(&line).iter().map(|&d| u32::from(d)).sum::<u32>() == number
            })
            .count();
        agrees(&app, &pill, expected).await;
        counts.push(expected);
    }
    assert_eq!(counts, [6, 12]);
}

/// Nonconsecutive: no orthogonal neighbours differ by 1, except neighbours joined by a
/// white or black dot (each then keeps its own dot's rule); an X or V does not exempt its
/// pair. Brute force and the peer: 2 with a black dot on R1C1-R1C2 and a white one on
/// R5C5-R5C6 (1 were the black dot not to exempt); none with a V there instead (2 were it
/// to exempt).
#[tokio::test]
async fn nonconsecutive_exempts_white_and_black_dots_but_not_x_or_v() {
    let app = app();
    let dots = entry("nonconsecutive with a black and a white dot");
    let grids = completions(&dots["fpuzzles"]);
    let black = (index("R1C1", 9), index("R1C2", 9));
    let other = (index("R5C5", 9), index("R5C6", 9));
    assert_eq!(dot_pair(&dots["fpuzzles"]["ratio"][0], 9), black);
    assert_eq!(dot_pair(&dots["fpuzzles"]["difference"][0], 9), other);
    let pairs = orthogonal_pairs(9);
    let nonconsecutive_except = |grid: &Grid, exempt: &[(usize, usize)]| {
        pairs
            .iter()
            .filter(|pair| !exempt.contains(pair))
            .all(|&(a, b)| grid.digits[a].abs_diff(grid.digits[b]) != 1)
    };
    let count = |keep: &dyn Fn(&Grid) -> bool| grids.iter().filter(|grid| keep(grid)).count();
    let dotted = |grid: &Grid| {
        double(grid.digits[black.0], grid.digits[black.1])
            && grid.digits[other.0].abs_diff(grid.digits[other.1]) == 1
    };
    let expected = count(&|grid| dotted(grid) && nonconsecutive_except(grid, &[black, other]));
    let black_not_exempt = count(&|grid| dotted(grid) && nonconsecutive_except(grid, &[other]));
    assert_eq!((expected, black_not_exempt), (2, 1));
    agrees(&app, &dots, expected).await;

    let v = entry("nonconsecutive with a black dot and a V");
    assert_eq!(dot_pair(&v["fpuzzles"]["xv"][0], 9), other);
    let with_v = |grid: &Grid| {
        double(grid.digits[black.0], grid.digits[black.1])
            && grid.digits[other.0] + grid.digits[other.1] == 5
    };
    let expected = count(&|grid| with_v(grid) && nonconsecutive_except(grid, &[black]));
    let v_exempt = count(&|grid| with_v(grid) && nonconsecutive_except(grid, &[black, other]));
    assert_eq!((expected, v_exempt), (0, 2));
    agrees(&app, &v, expected).await;
}

/// A minimum cell is below each orthogonal neighbour that is not a minimum too, a maximum
/// above each that is not a maximum too; a minimum beside a maximum is below it. Minimums
/// R1C1, R1C2 and maximums R2C1, R2C2 on 4×4, brute force and the peer: 24 (33 were every
/// marked neighbour exempt, none were no neighbour exempt).
#[tokio::test]
async fn minimum_and_maximum_exempt_neighbours_of_their_own_kind() {
    let minimums = ["R1C1", "R1C2"].map(|name| index(name, 4));
    let maximums = ["R2C1", "R2C2"].map(|name| index(name, 4));
    let neighbours = |cell: usize| {
        orthogonal_pairs(4)
            .into_iter()
            .filter_map(move |(a, b)| match (a == cell, b == cell) {
                (true, _) => Some(b),
                (_, true) => Some(a),
                _ => None,
            })
    };
    // Each marked cell against its neighbours but those in `exempt`.
    let holds = |grid: &Grid, exempt_min: &[usize], exempt_max: &[usize]| {
        minimums.iter().all(|&cell| {
            neighbours(cell)
                .filter(|other| !exempt_min.contains(other))
                .all(|other| grid.digits[cell] < grid.digits[other])
        }) && maximums.iter().all(|&cell| {
            neighbours(cell)
                .filter(|other| !exempt_max.contains(other))
                .all(|other| grid.digits[cell] > grid.digits[other])
        })
    };
    let grids = every_4x4();
    let count = |exempt_min: &[usize], exempt_max: &[usize]| {
        grids
            .iter()
            .filter(|grid| holds(grid, exempt_min, exempt_max))
            .count()
    };
    let marked = [minimums, maximums].concat();
    let expected = count(&minimums, &maximums);
    assert_eq!(
        (expected, count(&marked, &marked), count(&[], &[])),
        (24, 33, 0)
    );
    agrees(&app(), &entry("minimum and maximum"), expected).await;
}

/// Indexers on 4×4, brute force and the peer. Row indexer: a digit v at row r, column c
/// means row v of column c holds r. Column indexer: column v of row r holds c. Box indexer:
/// at place p of its region (reading order), place v of that region holds p. Each count
/// differs from the other readings'.
#[tokio::test]
async fn indexers_name_a_row_a_column_or_a_place_of_the_region() {
    let app = app();
    let grids = every_4x4();
    let row_indexed = |grid: &Grid, cell: usize| {
        let (row, col, digit) = (cell / 4, cell % 4, grid.digits[cell] as usize);
        grid.digits[(digit - 1) * 4 + col] as usize == row + 1
    };
    let column_indexed = |grid: &Grid, cell: usize| {
        let (row, col, digit) = (cell / 4, cell % 4, grid.digits[cell] as usize);
        grid.digits[row * 4 + digit - 1] as usize == col + 1
    };
    let count = |cells: &[usize], indexed: &dyn Fn(&Grid, usize) -> bool| {
        grids
            .iter()
            .filter(|grid| cells.iter().all(|&cell| indexed(grid, cell)))
            .count()
    };
    let column_1 = ["R1C1", "R2C1", "R3C1", "R4C1"].map(|name| index(name, 4));
    let row_1 = ["R1C1", "R1C2", "R1C3", "R1C4"].map(|name| index(name, 4));
    let expected = count(&column_1, &row_indexed);
    assert_eq!((expected, count(&column_1, &column_indexed)), (120, 48));
    agrees(&app, &entry("row indexer down column 1"), expected).await;
    let expected = count(&row_1, &column_indexed);
    assert_eq!((expected, count(&row_1, &row_indexed)), (120, 48));
    agrees(&app, &entry("column indexer along row 1"), expected).await;

    let boxed = entry("box indexer on irregular regions");
    let (_, givens, regions) = read_grid(&boxed["fpuzzles"]);
    let irregular = every_grid(4, &givens, &regions);
    // The cells of each region in reading order, or column by column.
    let places = |by_columns: bool| -> Vec<Vec<usize>> {
        (0..4)
            .map(|region| {
                let mut cells: Vec<usize> = (0..16)
                    .filter(|&cell| regions[cell] == Some(region))
                    .collect();
                if by_columns {
                    cells.sort_by_key(|&cell| (cell % 4, cell / 4));
                }
                cells
            })
            .collect()
    };
    let box_count = |places: &[Vec<usize>]| {
        let cells = ["R1C1", "R2C3"].map(|name| index(name, 4));
        irregular
            .iter()
            .filter(|grid| {
                cells.iter().all(|&cell| {
                    let region = &places[regions[cell].unwrap()];
                    let place = region.iter().position(|&c| c == cell).unwrap() + 1;
                    let named = region[grid.digits[cell] as usize - 1];
                    grid.digits[named] as usize == place
                })
            })
            .count()
    };
    let expected = box_count(&places(false));
    assert_eq!((expected, box_count(&places(true))), (22, 27));
    agrees(&app, &boxed, expected).await;
}

/// Disjoint groups are the cells at the same place (reading order) of their regions: the
/// irregular regions of the document, or of the native `regions` rule wherever it stands in
/// the list. Brute force and the peer: 24 (none were places counted column by column).
#[tokio::test]
async fn disjoint_groups_come_from_the_regions_wherever_they_stand() {
    let app = app();
    let disjoint = entry("disjoint groups on irregular regions");
    let (_, givens, regions) = read_grid(&disjoint["fpuzzles"]);
    let grids = every_grid(4, &givens, &regions);
    let count = |by_columns: bool| {
        grids
            .iter()
            .filter(|grid| {
                let mut groups = vec![Vec::new(); 4];
                for region in 0..4 {
                    let mut cells: Vec<usize> = (0..16)
                        .filter(|&cell| regions[cell] == Some(region))
                        .collect();
                    if by_columns {
                        cells.sort_by_key(|&cell| (cell % 4, cell / 4));
                    }
                    for (place, cell) in cells.into_iter().enumerate() {
                        groups[place].push(grid.digits[cell]);
                    }
                }
                groups.iter_mut().all(|group| {
                    group.sort_unstable();
                    group.windows(2).all(|pair| pair[0] != pair[1])
                })
            })
            .count()
    };
    let expected = count(false);
    assert_eq!((expected, count(true)), (24, 0));
    agrees(&app, &disjoint, expected).await;

    let layout: Vec<Vec<usize>> = regions
        .chunks(4)
        .map(|row| row.iter().map(|region| region.unwrap()).collect())
        .collect();
    let regions_rule = json!({ "kind": "regions", "layout": layout });
    let groups = json!({ "kind": "disjoint_groups" });
    for rules in [json!([groups, regions_rule]), json!([regions_rule, groups])] {
        let body = json!({ "grid": "................", "rules": rules });
        assert_eq!(service_count(&app, &body).await, expected, "{rules}");
    }
}

/// The status and body of the answer to `body` at `path`, without the solver's timings.
async fn answer_without_stats(app: &Router, path: &str, body: &Value) -> (StatusCode, Value) {
    let answer = post_json(app, path, body).await;
    let mut json = answer.json();
    if let Some(fields) = json.as_object_mut() {
        fields.remove("stats");
    }
    (answer.status, json)
}

/// `null` for `fpuzzles` or `rules` (in `/solve` and `/validate`) and for `level` (in
/// `/generate`) is the same as leaving the field out (openapi.yaml): the same answer,
/// solution, count, verdict, generated puzzle or error, as without the field.
#[tokio::test]
async fn null_is_the_same_as_leaving_the_field_out() {
    let app = app();
    let document = entry("minimum and maximum")["fpuzzles"].clone();
    let rules = json!([{ "kind": "diagonal", "direction": "down" }]);
    let counted = |body: Value| {
        let mut body = body;
        body["max_solutions"] = json!(1000);
        body["order"] = json!("lexicographic");
        body
    };
    let cases = [
        (
            "/solve",
            counted(json!({ "grid": "1..............." })),
            200,
        ),
        (
            "/solve",
            counted(json!({ "grid": "1...............", "rules": rules })),
            200,
        ),
        ("/solve", counted(json!({ "fpuzzles": document })), 200),
        ("/solve", json!({}), 422),
        ("/validate", json!({ "grid": "12..34.........." }), 200),
        (
            "/validate",
            json!({ "grid": "12..34..........", "rules": rules }),
            200,
        ),
        (
            "/validate",
            json!({ "fpuzzles": document, "solvable": true }),
            200,
        ),
        ("/generate", json!({ "size": 4, "seed": 7 }), 200),
        ("/generate", json!({ "seed": 7 }), 200),
    ];
    for (path, without, status) in cases {
        let expected = answer_without_stats(&app, path, &without).await;
        assert_eq!(expected.0, status, "{path} {without}: {}", expected.1);
        let fields: &[&str] = match path {
            "/generate" => &["level"],
            _ => &["fpuzzles", "rules"],
        };
        for field in fields.iter().filter(|field| without.get(**field).is_none()) {
            let mut with_null = without.clone();
            with_null[*field] = Value::Null;
            let answer = answer_without_stats(&app, path, &with_null).await;
            assert_eq!(answer, expected, "{path} {with_null}");
        }
    }
}
