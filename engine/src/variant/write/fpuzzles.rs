//! The f-puzzles document of a puzzle.

use serde_json::{Map, Value, json};

use super::cell_name;
use crate::variant::forms::{NEGATIVES, line_names};
use crate::variant::model::{
    Cell, Diagonal, Direction, Indexer, Puzzle, Relation, Rule, little_killer_cells,
};

/// The document: `size`, `grid` (givens, regions when they are not the default boxes,
/// pencil marks given as rules), then each flag, `negative`, and the arrays of
/// constraints, each rule an entry in the order of the puzzle's rules.
pub(super) fn document(puzzle: &Puzzle) -> Value {
    let size = puzzle.size();
    let mut grid: Vec<Vec<Map<String, Value>>> = vec![vec![Map::new(); size]; size];
    for (index, given) in puzzle.givens().iter().enumerate() {
        if let Some(digit) = given {
            let cell = &mut grid[index / size][index % size];
            cell.insert("value".into(), json!(digit));
            cell.insert("given".into(), json!(true));
        }
    }
    if !puzzle.has_default_regions() {
        for (index, region) in puzzle.regions().iter().enumerate() {
            grid[index / size][index % size].insert("region".into(), json!(region));
        }
    }
    let mut document = Map::new();
    document.insert("size".into(), json!(size));
    let mut negative = Vec::new();
    let mut arrays: Map<String, Value> = Map::new();
    for constraint in puzzle.constraints() {
        match entry(&constraint.rule, size) {
            Entry::Flag(name) => {
                document.insert(name.into(), json!(true));
            }
            Entry::Negative(name) => negative.push(name),
            Entry::PencilMarks(cell, digits) => {
                grid[cell.row][cell.col].insert("givenPencilMarks".into(), digits);
            }
            Entry::In(name, entry) => {
                if let Value::Array(list) = arrays.entry(name).or_insert_with(|| json!([])) {
                    list.push(entry);
                }
            }
        }
    }
    document.insert("grid".into(), json!(grid));
    if !negative.is_empty() {
        document.insert("negative".into(), json!(negative));
    }
    document.extend(arrays);
    Value::Object(document)
}

/// Where a rule goes in the document.
enum Entry {
    /// A flag set to true.
    Flag(&'static str),
    /// A name in the `negative` list.
    Negative(&'static str),
    /// A cell's `givenPencilMarks`.
    PencilMarks(Cell, Value),
    /// An entry of the array of that name.
    In(&'static str, Value),
}

/// A cell's name.
fn name(cell: Cell) -> Value {
    cell_name(cell.row as i64, cell.col as i64)
}

/// A list of cells' names.
fn names(cells: &[Cell]) -> Value {
    Value::Array(cells.iter().map(|&cell| name(cell)).collect())
}

/// A list of lines.
fn lines(lines: &[Vec<Cell>]) -> Value {
    Value::Array(lines.iter().map(|line| names(line)).collect())
}

/// A rule's place in the document.
fn entry(rule: &Rule, size: usize) -> Entry {
    let value = |value: u32| json!(value.to_string());
    let (array, entry) = match rule {
        Rule::Diagonal(Diagonal::Up) => return Entry::Flag("diagonal+"),
        Rule::Diagonal(Diagonal::Down) => return Entry::Flag("diagonal-"),
        Rule::AntiKnight => return Entry::Flag("antiknight"),
        Rule::AntiKing => return Entry::Flag("antiking"),
        Rule::DisjointGroups => return Entry::Flag("disjointgroups"),
        Rule::NonConsecutive => return Entry::Flag("nonconsecutive"),
        Rule::Negative(kind) => {
            let named = NEGATIVES.iter().find(|(_, known)| known == kind);
            return Entry::Negative(named.map_or("", |(name, _)| name));
        }
        Rule::Candidates { cell, digits } => return Entry::PencilMarks(*cell, json!(digits)),
        Rule::ExtraRegion(cells) => ("extraregion", json!({ "cells": names(cells) })),
        Rule::KillerCage { cells, sum } => {
            let mut entry = json!({ "cells": names(cells) });
            if let Some(sum) = sum {
                entry["value"] = value(*sum);
            }
            ("killercage", entry)
        }
        Rule::Arrow {
            circle,
            lines: drawn,
        } => (
            "arrow",
            json!({ "cells": names(circle), "lines": lines(drawn) }),
        ),
        Rule::Dot { cells, relation } => {
            let (array, shown) = match *relation {
                Relation::Difference(difference) => ("difference", value(difference)),
                Relation::Ratio(ratio) => ("ratio", value(ratio)),
                Relation::X => ("xv", json!("X")),
                Relation::V => ("xv", json!("V")),
                Relation::Sum(sum) => ("sum", value(sum)),
            };
            (array, json!({ "cells": names(cells), "value": shown }))
        }
        Rule::Odd(cell) => ("odd", json!({ "cell": name(*cell) })),
        Rule::Even(cell) => ("even", json!({ "cell": name(*cell) })),
        Rule::Minimum(cell) => ("minimum", json!({ "cell": name(*cell) })),
        Rule::Maximum(cell) => ("maximum", json!({ "cell": name(*cell) })),
        Rule::Quadruple { cells, digits } => (
            "quadruple",
            json!({ "cells": names(cells), "values": digits }),
        ),
        Rule::Line { kind, lines: drawn } => {
            let (line_names, shown) = line_names(*kind);
            let mut entry = json!({ "lines": lines(drawn) });
            if let Some(shown) = shown {
                entry["value"] = value(shown);
            }
            (line_names.fpuzzles, entry)
        }
        Rule::LittleKiller {
            clue,
            direction,
            sum,
        } => {
            let cells = little_killer_cells(*clue, *direction, size);
            let direction = match direction {
                Direction::UpLeft => "UL",
                Direction::UpRight => "UR",
                Direction::DownLeft => "DL",
                Direction::DownRight => "DR",
            };
            (
                "littlekillersum",
                json!({
                    "cell": cell_name(i64::from(clue.row), i64::from(clue.col)),
                    "cells": names(&cells),
                    "direction": direction,
                    "value": value(*sum),
                }),
            )
        }
        Rule::Sandwich { clue, sum: shown }
        | Rule::XSum { clue, sum: shown }
        | Rule::Skyscraper {
            clue,
            visible: shown,
        } => {
            let array = match rule {
                Rule::Sandwich { .. } => "sandwichsum",
                Rule::XSum { .. } => "xsum",
                _ => "skyscraper",
            };
            let cell = cell_name(i64::from(clue.row), i64::from(clue.col));
            (array, json!({ "cell": cell, "value": value(*shown) }))
        }
        Rule::Clone { cells, clones } => (
            "clone",
            json!({ "cells": names(cells), "cloneCells": names(clones) }),
        ),
        Rule::Indexer { indexer, cells } => {
            let array = match indexer {
                Indexer::Row => "rowindexer",
                Indexer::Column => "columnindexer",
                Indexer::Box => "boxindexer",
            };
            (array, json!({ "cells": names(cells) }))
        }
    };
    Entry::In(array, entry)
}
