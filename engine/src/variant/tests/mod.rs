//! The search against brute force: random puzzles with random rules (houses, cages,
//! arrows, dots, negative rules, cell rules), counted by [`solve`] and by enumerating grids
//! that a direct checker of each rule, written here without the propagators, accepts. The
//! solver is asked about each puzzle as drawn or as one of its input documents, written
//! as f-puzzles writes them, and read back; and every puzzle is written and read back as
//! it was.

use std::time::Duration;

mod checker;
mod random;

use checker::{keeps, satisfied};
use random::{Random, irregular_regions, random_grid, random_rule};

use super::model::{Cell, Constraint, Origin, Puzzle, Relation, Rule};
use super::{Broken, VariantError, VariantSolveOptions, check, lz_string, solve};
use crate::solver::{Cancellation, Order};

/// Every Latin square of `size`, and, when `regions` is given, only those whose regions
/// hold different digits.
fn all_grids(size: usize, regions: Option<&[Option<usize>]>) -> Vec<Vec<u8>> {
    let regions = regions.map_or_else(|| vec![None; size * size], <[_]>::to_vec);
    let puzzle = puzzle(size, vec![None; size * size], regions, Vec::new());
    let mut found = Vec::new();
    fill(&mut Vec::new(), &puzzle, &mut found, usize::MAX);
    found
}

/// Counts, up to `limit`, the grids of `puzzle` (rows, columns, regions, givens and rules)
/// by plain backtracking, checking the rules on each filled grid.
fn count_plainly(puzzle: &Puzzle, limit: usize) -> usize {
    let mut found = Vec::new();
    fill(&mut Vec::new(), puzzle, &mut found, limit);
    found.len()
}

/// Fills `grid` on from its length in reading order with the givens and different digits
/// in each row, column and region, and collects (up to `limit`) the filled grids that keep
/// the rules.
fn fill(grid: &mut Vec<u8>, puzzle: &Puzzle, found: &mut Vec<Vec<u8>>, limit: usize) {
    let size = puzzle.size();
    if found.len() >= limit {
        return;
    }
    let index = grid.len();
    if index == size * size {
        if keeps(puzzle, grid) {
            found.push(grid.clone());
        }
        return;
    }
    let (row, col) = (index / size, index % size);
    for digit in 1..=size as u8 {
        if puzzle.givens()[index].is_some_and(|given| given != digit) {
            continue;
        }
        let clash = (0..index).any(|other| {
            grid[other] == digit
                && (other / size == row
                    || other % size == col
                    || (puzzle.regions()[other].is_some()
                        && puzzle.regions()[other] == puzzle.regions()[index]))
        });
        if !clash {
            grid.push(digit);
            fill(grid, puzzle, found, limit);
            grid.pop();
        }
    }
}

/// The rules that a puzzle's givens break.
fn checked(puzzle: &Puzzle) -> Vec<Broken> {
    check(puzzle, &Cancellation::none()).expect("a small puzzle is checked")
}

/// A puzzle that the model accepts, from random draws: candidates on a given cell, or on
/// a cell that has some already, are left out.
fn puzzle(
    size: usize,
    givens: Vec<Option<u8>>,
    regions: Vec<Option<usize>>,
    mut constraints: Vec<Constraint>,
) -> Puzzle {
    let mut marked = vec![false; size * size];
    constraints.retain(|constraint| match constraint.rule {
        Rule::Candidates { cell, .. } => {
            let at = cell.row * size + cell.col;
            givens[at].is_none() && !std::mem::replace(&mut marked[at], true)
        }
        _ => true,
    });
    Puzzle::new(size, givens, Some(regions), constraints).expect("a puzzle of the model")
}

fn constraint(index: usize, rule: Rule) -> Constraint {
    Constraint {
        origin: Origin {
            kind: "random".into(),
            index,
        },
        rule,
    }
}

fn box_regions(size: usize, width: usize, height: usize) -> Vec<Option<usize>> {
    (0..size * size)
        .map(|cell| Some(cell / size / height * (size / width) + cell % size / width))
        .collect()
}

/// Compares everything [`solve`] says about `puzzle` with `grids`, its solutions found by
/// brute force (in reading order).
fn compare(puzzle: &Puzzle, grids: &[Vec<u8>], cap: u32, context: &str) {
    let options = VariantSolveOptions {
        order: Order::Fastest,
        max_solutions: 1000,
        true_candidates: Some(cap),
        max_guesses: None,
    };
    let answer = solve(puzzle, &options, &Cancellation::none()).unwrap();
    assert_eq!(answer.solution_count, grids.len() as u64, "{context}");
    assert!(answer.count_exact, "{context}");
    if let Some(solution) = &answer.solution {
        assert!(
            grids.contains(solution),
            "{context}: {solution:?} is no solution"
        );
    }
    let lexicographic = VariantSolveOptions {
        order: Order::Lexicographic,
        max_solutions: 1,
        true_candidates: None,
        max_guesses: None,
    };
    let smallest = solve(puzzle, &lexicographic, &Cancellation::none()).unwrap();
    assert_eq!(smallest.solution.as_ref(), grids.iter().min(), "{context}");
    let cells = puzzle.size() * puzzle.size();
    let mut expected = vec![vec![0u32; puzzle.size()]; cells];
    for grid in grids {
        for (cell, &digit) in grid.iter().enumerate() {
            expected[cell][usize::from(digit) - 1] += 1;
        }
    }
    let candidates: Vec<Vec<u8>> = expected
        .iter()
        .map(|counts| {
            (1..)
                .zip(counts)
                .filter(|(_, n)| **n > 0)
                .map(|(d, _)| d)
                .collect()
        })
        .collect();
    assert_eq!(answer.true_candidates, Some(candidates), "{context}");
    let counts: Option<Vec<Vec<u32>>> = (cap > 1).then(|| {
        expected
            .iter()
            .map(|counts| {
                counts
                    .iter()
                    .filter(|&&n| n > 0)
                    .map(|&n| n.min(cap))
                    .collect()
            })
            .collect()
    });
    assert_eq!(answer.true_candidate_counts, counts, "{context}");
}

#[test]
fn four_by_four_against_every_grid() {
    let boxes = box_regions(4, 2, 2);
    let none = vec![None; 16];
    let with_boxes = all_grids(4, Some(&boxes));
    let latin = all_grids(4, None);
    assert_eq!((with_boxes.len(), latin.len()), (288, 576));
    let mut random = Random::new(20261128);
    let mut solvable = 0;
    for round in 0..4000 {
        let boxed = random.chance(70);
        let (regions, grids) = if boxed {
            (&boxes, &with_boxes)
        } else {
            (&none, &latin)
        };
        let mut givens = vec![None; 16];
        let source = &grids[random.below(grids.len())];
        for _ in 0..random.below(4) {
            let cell = random.below(16);
            givens[cell] = Some(if random.chance(80) {
                source[cell]
            } else {
                random.between(1, 4) as u8
            });
        }
        let constraints = (0..random.between(1, 4))
            .map(|index| constraint(index, random_rule(&mut random, 4, source)))
            .collect();
        let puzzle = puzzle(4, givens, regions.clone(), constraints);
        let solutions: Vec<Vec<u8>> = grids
            .iter()
            .filter(|grid| keeps(&puzzle, grid))
            .cloned()
            .collect();
        solvable += usize::from(!solutions.is_empty());
        let cap = random.between(1, 4) as u32;
        // The solver is asked about the puzzle as drawn, or as a document read back.
        let asked = as_a_document(&puzzle, &mut random);
        assert_eq!(asked, puzzle, "round {round}");
        compare(
            &asked,
            &solutions,
            cap,
            &format!("round {round}: {puzzle:?}"),
        );
        if solutions.is_empty() {
            continue;
        }
        // Whatever a solution's givens, no rule is broken by them.
        let givens = solutions[0].iter().map(|&digit| Some(digit)).collect();
        let filled = self::puzzle(4, givens, regions.clone(), puzzle.constraints().to_vec());
        assert_eq!(checked(&filled), Vec::new(), "round {round}: {filled:?}");
    }
    assert!(solvable > 1000, "only {solvable} puzzles had a solution");
}

/// `puzzle` itself, or read back from one of its input documents: the native form, the
/// f-puzzles object, or its lz-string text, with what f-puzzles writes in other ways than
/// this service does (numbers as numbers, lower-case X and V, page settings, cosmetic
/// drawings).
fn as_a_document(puzzle: &Puzzle, random: &mut Random) -> Puzzle {
    let read = match random.below(4) {
        0 => return puzzle.clone(),
        1 => {
            let native = puzzle.to_native();
            crate::variant::parse_native(native["grid"].as_str().unwrap(), &native["rules"])
        }
        form => {
            let mut document = puzzle.to_fpuzzles();
            written_otherwise(&mut document, random);
            match form {
                2 => crate::variant::parse_fpuzzles_value(&document),
                _ => crate::variant::parse_fpuzzles(&lz_string::compress_to_base64(
                    &document.to_string(),
                )),
            }
        }
    };
    read.expect("a document written from a puzzle is read")
}

/// An f-puzzles document written as f-puzzles itself may write it.
fn written_otherwise(document: &mut serde_json::Value, random: &mut Random) {
    use serde_json::{Value, json};
    fn visit(value: &mut Value, random: &mut Random) {
        match value {
            Value::String(text) if random.chance(30) => {
                if let Ok(number) = text.parse::<u64>() {
                    *value = json!(number);
                } else if text == "X" || text == "V" {
                    *value = json!(text.to_lowercase());
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| visit(item, random)),
            Value::Object(members) => members.values_mut().for_each(|item| visit(item, random)),
            _ => {}
        }
    }
    visit(document, random);
    if random.chance(50) {
        document["title"] = json!("A puzzle");
        document["highlightConflicts"] = json!(true);
        document["line"] = json!([{ "lines": [["R1C1", "R2C2"]], "outlineC": "#000000" }]);
        document["cage"] = json!([{ "cells": ["R1C1"], "value": "note" }]);
    }
}

#[test]
fn filled_grids_break_exactly_the_rules_they_break() {
    let boxes = box_regions(4, 2, 2);
    let latin = all_grids(4, None);
    let mut random = Random::new(7);
    for round in 0..3000 {
        let grid = &latin[random.below(latin.len())];
        let constraints: Vec<Constraint> = (0..random.between(1, 4))
            .map(|index| constraint(index, random_rule(&mut random, 4, grid)))
            .collect();
        let puzzle = puzzle(
            4,
            grid.iter().map(|&digit| Some(digit)).collect(),
            boxes.clone(),
            constraints,
        );
        let broken = checked(&puzzle);
        let mut expected: Vec<(String, usize)> = (0..4)
            .filter(|&region| {
                let cells: Vec<usize> = (0..16)
                    .filter(|&cell| boxes[cell] == Some(region))
                    .collect();
                cells
                    .iter()
                    .enumerate()
                    .any(|(i, &a)| cells[i + 1..].iter().any(|&b| grid[a] == grid[b]))
            })
            .map(|region| ("region".to_string(), region))
            .collect();
        expected.extend(
            puzzle
                .constraints()
                .iter()
                .filter(|constraint| {
                    !satisfied(&constraint.rule, puzzle.constraints(), grid, 4, &boxes)
                })
                .map(|constraint| (constraint.origin.kind.clone(), constraint.origin.index)),
        );
        let named: Vec<(String, usize)> = broken
            .into_iter()
            .map(|broken| (broken.kind, broken.index))
            .collect();
        assert_eq!(named, expected, "round {round}: {puzzle:?}");
    }
}

#[test]
fn six_by_six_irregular_against_backtracking() {
    let mut random = Random::new(36);
    let mut rounds = 0;
    while rounds < 300 {
        let regions = irregular_regions(&mut random);
        let Some(grid) = random_grid(&mut random, &regions) else {
            continue;
        };
        rounds += 1;
        let mut constraints = Vec::new();
        for index in 0..random.between(1, 5) {
            let rule = random_rule(&mut random, 6, &grid);
            let keep = random.chance(30) || satisfied(&rule, &constraints, &grid, 6, &regions);
            if keep {
                constraints.push(constraint(index, rule));
            }
        }
        let mut givens = vec![None; 36];
        for _ in 0..random.between(12, 20) {
            let cell = random.below(36);
            givens[cell] = Some(grid[cell]);
        }
        let puzzle = puzzle(6, givens, regions, constraints);
        let limit = 200;
        let expected = count_plainly(&puzzle, limit);
        let options = VariantSolveOptions {
            order: if random.chance(50) {
                Order::Fastest
            } else {
                Order::Lexicographic
            },
            max_solutions: limit as u64,
            true_candidates: None,
            max_guesses: None,
        };
        let answer = solve(&puzzle, &options, &Cancellation::none()).unwrap();
        assert_eq!(
            answer.solution_count, expected as u64,
            "round {rounds}: {puzzle:?}"
        );
        assert_eq!(
            answer.count_exact,
            expected < limit,
            "round {rounds}: {puzzle:?}"
        );
        if let Some(solution) = answer.solution {
            assert!(keeps(&puzzle, &solution), "round {rounds}: {solution:?}");
        }
    }
}

#[test]
fn a_time_limit_stops_a_count_on_a_large_empty_grid() {
    let killer = Rule::KillerCage {
        cells: vec![
            Cell { row: 0, col: 0 },
            Cell { row: 0, col: 1 },
            Cell { row: 1, col: 0 },
        ],
        sum: Some(40),
    };
    let dot = Rule::Dot {
        cells: [Cell { row: 5, col: 5 }, Cell { row: 5, col: 6 }],
        relation: Relation::Ratio(2),
    };
    let constraints = [Rule::AntiKing, killer, dot]
        .into_iter()
        .enumerate()
        .map(|(index, rule)| constraint(index, rule))
        .collect();
    let puzzle = puzzle(16, vec![None; 256], box_regions(16, 4, 4), constraints);
    let options = VariantSolveOptions {
        max_solutions: u64::MAX,
        ..VariantSolveOptions::default()
    };
    // Counting every solution of an empty 16×16 grid never ends: only the time limit
    // lets these calls return.
    let limited = Cancellation::none().with_time_limit(Duration::from_millis(200));
    let answer = solve(&puzzle, &options, &limited).unwrap();
    assert!(answer.solution_count >= 1);
    assert!(!answer.count_exact);
    let solution = answer.solution.unwrap();
    let grid: Vec<u8> = solution.clone();
    assert!(puzzle.constraints().iter().all(|c| satisfied(
        &c.rule,
        puzzle.constraints(),
        &grid,
        16,
        puzzle.regions()
    )));
    // True candidates stop in time too, finished or not.
    let candidates = VariantSolveOptions {
        true_candidates: Some(100),
        ..options
    };
    let answer = solve(&puzzle, &candidates, &limited);
    assert_eq!(answer, Err(VariantError::Stopped));
}

#[test]
fn random_puzzles_are_written_and_read_back_as_they_were() {
    let mut random = Random::new(42);
    for round in 0..600 {
        let size = [4, 6, 9][random.below(3)];
        let regions = match size {
            6 if random.chance(50) => irregular_regions(&mut random),
            _ => crate::variant::model::default_regions(size),
        };
        let solution: Vec<u8> = (0..size * size)
            .map(|_| random.between(1, size) as u8)
            .collect();
        let givens = (0..size * size)
            .map(|cell| random.chance(20).then_some(solution[cell]))
            .collect();
        let constraints = (0..random.between(0, 6))
            .map(|index| constraint(index, random_rule(&mut random, size, &solution)))
            .collect();
        let puzzle = puzzle(size, givens, regions, constraints);
        let native = puzzle.to_native();
        let from_native =
            crate::variant::parse_native(native["grid"].as_str().unwrap(), &native["rules"]);
        assert_eq!(from_native.as_ref(), Ok(&puzzle), "round {round}: {native}");
        let document = puzzle.to_fpuzzles();
        let from_document = crate::variant::parse_fpuzzles_value(&document);
        assert_eq!(
            from_document.as_ref(),
            Ok(&puzzle),
            "round {round}: {document}"
        );
        for pasted in [puzzle.to_fpuzzles_text(), puzzle.to_fpuzzles_link()] {
            let from_text = crate::variant::parse_fpuzzles(&pasted);
            assert_eq!(from_text.as_ref(), Ok(&puzzle), "round {round}: {pasted}");
        }
        assert_eq!(serde_json::to_value(&puzzle).unwrap(), native);
    }
}

/// Fails unless every step of `steps` is true of `solution`: it places the solution's
/// digits and removes none of them; and unless a path that ends placed every open
/// cell of `puzzle` by some step.
pub(crate) fn assert_sound(
    puzzle: &Puzzle,
    explanation: &crate::logic::VariantExplanation,
    context: &str,
) {
    let solution = &explanation.solution;
    let mut placed: Vec<bool> = puzzle.givens().iter().map(Option::is_some).collect();
    for step in &explanation.steps {
        for placement in &step.placements {
            assert_eq!(
                solution[placement.cell], placement.digit,
                "{context}: {}",
                step.text
            );
            placed[placement.cell] = true;
        }
        for elimination in &step.eliminations {
            let digit = solution[elimination.cell];
            assert_eq!(
                elimination.digits & (1 << (digit - 1)),
                0,
                "{context}: {}",
                step.text
            );
        }
    }
    if explanation.stalled.is_none() {
        assert!(
            placed.iter().all(|&placed| placed),
            "{context}: a cell never placed"
        );
    }
}

/// Every step of the path of random small puzzles with one solution is true of it, and
/// a path that ends places every cell.
#[test]
fn random_paths_are_sound() {
    let boxes = box_regions(4, 2, 2);
    let grids = all_grids(4, Some(&boxes));
    let mut random = Random::new(4343);
    let mut explained = 0;
    for round in 0..10_000 {
        let source = &grids[random.below(grids.len())];
        let mut givens = vec![None; 16];
        for _ in 0..random.below(10) {
            let cell = random.below(16);
            givens[cell] = Some(source[cell]);
        }
        let constraints = (0..random.between(1, 4))
            .map(|index| constraint(index, random_rule(&mut random, 4, source)))
            .collect();
        let puzzle = puzzle(4, givens, boxes.clone(), constraints);
        let solutions = grids.iter().filter(|grid| keeps(&puzzle, grid)).count();
        if solutions != 1 {
            continue;
        }
        let explanation = crate::logic::explain_variant(&puzzle, &Cancellation::none())
            .expect("a puzzle with one solution is explained");
        assert_sound(&puzzle, &explanation, &format!("round {round}: {puzzle:?}"));
        explained += 1;
    }
    assert!(explained > 400, "only {explained} puzzles had one solution");
}

/// The published puzzles of `tests/data/variants/` (the corpus and the held-out set),
/// each with its title.
pub(crate) fn published_puzzles() -> Vec<(String, Puzzle)> {
    let files = [
        "puzzles-ci.json",
        "lubaf-coloring-book.json",
        "puzzles-heldout.json",
    ];
    let mut puzzles = Vec::new();
    for name in files {
        let path = format!(
            "{}/../tests/data/variants/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).expect("the corpus is readable");
        let entries: Vec<serde_json::Value> = serde_json::from_str(&text).expect("JSON");
        for entry in entries.iter().filter(|entry| entry["puzzle"].is_string()) {
            let puzzle = crate::variant::parse_fpuzzles(entry["puzzle"].as_str().unwrap());
            let title = entry["title"].as_str().unwrap_or_default().to_owned();
            puzzles.push((title, puzzle.expect("a published puzzle is read")));
        }
    }
    puzzles
}
