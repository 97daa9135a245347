//! The native form of a puzzle.

use serde_json::{Map, Value, json};

use super::{native_cell, native_outside};
use crate::grid::value_symbol;
use crate::variant::forms::line_names;
use crate::variant::model::{
    Cell, Diagonal, Direction, Indexer, NegativeKind, Puzzle, Relation, Rule,
};

/// `{"grid": …, "rules": […]}`: the givens as symbols (`.` for an open cell), the regions
/// as a `regions` rule when they are not the default boxes, then every rule.
pub(super) fn document(puzzle: &Puzzle) -> Value {
    let grid: String = puzzle
        .givens()
        .iter()
        .map(|given| given.map_or('.', value_symbol))
        .collect();
    let mut rules = Vec::new();
    if !puzzle.has_default_regions() {
        let layout: Vec<&[Option<usize>]> = puzzle.regions().chunks(puzzle.size()).collect();
        rules.push(json!({ "kind": "regions", "layout": layout }));
    }
    rules.extend(
        puzzle
            .constraints()
            .iter()
            .map(|constraint| rule(&constraint.rule)),
    );
    json!({ "grid": grid, "rules": rules })
}

/// A list of cells.
fn cells(cells: &[Cell]) -> Value {
    Value::Array(cells.iter().map(|&cell| native_cell(cell)).collect())
}

/// One rule as a native rule object.
fn rule(rule: &Rule) -> Value {
    let (kind, mut fields) = kind_and_fields(rule);
    fields.insert("kind".into(), json!(kind));
    Value::Object(fields)
}

/// The `kind` of `rule` in the native form.
pub(super) fn kind(rule: &Rule) -> &'static str {
    kind_and_fields(rule).0
}

/// The `kind` of `rule` and its other fields.
fn kind_and_fields(rule: &Rule) -> (&'static str, Map<String, Value>) {
    let mut fields = Map::new();
    let mut set = |key: &str, value: Value| {
        fields.insert(key.to_owned(), value);
    };
    let kind = match rule {
        Rule::Diagonal(diagonal) => {
            let direction = match diagonal {
                Diagonal::Down => "down",
                Diagonal::Up => "up",
            };
            set("direction", json!(direction));
            "diagonal"
        }
        Rule::ExtraRegion(region) => {
            set("cells", cells(region));
            "extra_region"
        }
        Rule::AntiKnight => "anti_knight",
        Rule::AntiKing => "anti_king",
        Rule::DisjointGroups => "disjoint_groups",
        Rule::NonConsecutive => "nonconsecutive",
        Rule::Negative(kind) => {
            let relation = match kind {
                NegativeKind::Difference => "difference",
                NegativeKind::Ratio => "ratio",
                NegativeKind::Xv => "xv",
                NegativeKind::Sum => "sum",
            };
            set("relation", json!(relation));
            "negative"
        }
        Rule::KillerCage { cells: cage, sum } => {
            set("cells", cells(cage));
            if let Some(sum) = sum {
                set("sum", json!(sum));
            }
            "killer_cage"
        }
        Rule::Arrow { circle, lines } => {
            set("circle", cells(circle));
            match lines.as_slice() {
                [line] => set("line", cells(line)),
                lines => set(
                    "lines",
                    Value::Array(lines.iter().map(|line| cells(line)).collect()),
                ),
            }
            "arrow"
        }
        Rule::Dot {
            cells: pair,
            relation,
        } => {
            set("cells", cells(pair));
            match relation {
                Relation::Difference(value) => {
                    set("value", json!(value));
                    "difference"
                }
                Relation::Ratio(value) => {
                    set("value", json!(value));
                    "ratio"
                }
                Relation::X | Relation::V => {
                    set(
                        "value",
                        json!(if *relation == Relation::X { "X" } else { "V" }),
                    );
                    "xv"
                }
                Relation::Sum(value) => {
                    set("value", json!(value));
                    "sum"
                }
            }
        }
        Rule::Odd(cell) | Rule::Even(cell) | Rule::Minimum(cell) | Rule::Maximum(cell) => {
            set("cell", native_cell(*cell));
            match rule {
                Rule::Odd(_) => "odd",
                Rule::Even(_) => "even",
                Rule::Minimum(_) => "minimum",
                _ => "maximum",
            }
        }
        Rule::Candidates { cell, digits } => {
            set("cell", native_cell(*cell));
            set("digits", json!(digits));
            "candidates"
        }
        Rule::Quadruple {
            cells: around,
            digits,
        } => {
            set("cells", cells(around));
            set("digits", json!(digits));
            "quadruple"
        }
        Rule::Line { kind, lines } => {
            let (names, value) = line_names(*kind);
            match lines.as_slice() {
                [line] => set("cells", cells(line)),
                lines => set(
                    "lines",
                    Value::Array(lines.iter().map(|line| cells(line)).collect()),
                ),
            }
            if let Some(difference) = value {
                set("difference", json!(difference));
            }
            names.native
        }
        Rule::LittleKiller {
            clue,
            direction,
            sum,
        } => {
            set("clue", native_outside(*clue));
            let direction = match direction {
                Direction::UpLeft => "up_left",
                Direction::UpRight => "up_right",
                Direction::DownLeft => "down_left",
                Direction::DownRight => "down_right",
            };
            set("direction", json!(direction));
            set("sum", json!(sum));
            "little_killer"
        }
        Rule::Sandwich { clue, sum } => {
            set("clue", native_outside(*clue));
            set("sum", json!(sum));
            "sandwich"
        }
        Rule::XSum { clue, sum } => {
            set("clue", native_outside(*clue));
            set("sum", json!(sum));
            "x_sum"
        }
        Rule::Skyscraper { clue, visible } => {
            set("clue", native_outside(*clue));
            set("visible", json!(visible));
            "skyscraper"
        }
        Rule::Clone {
            cells: originals,
            clones,
        } => {
            set("cells", cells(originals));
            set("clones", cells(clones));
            "clone"
        }
        Rule::Indexer {
            indexer,
            cells: indexers,
        } => {
            set("cells", cells(indexers));
            match indexer {
                Indexer::Row => "row_indexer",
                Indexer::Column => "column_indexer",
                Indexer::Box => "box_indexer",
            }
        }
    };
    (kind, fields)
}
