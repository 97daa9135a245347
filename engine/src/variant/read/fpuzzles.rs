//! f-puzzles documents: `size`, `grid` (cells with `value`, `given`, `region`,
//! `givenPencilMarks`), and the constraint arrays and flags named as f-puzzles names them.

use serde_json::{Map, Value};

use super::link::document_text;
use super::{FieldNames, Fields, Reader, VariantInputError, list, malformed};
use crate::variant::forms::{self, LINES, NEGATIVES};
use crate::variant::model::{Cell, Diagonal, Direction, Indexer, Outside, Puzzle, Relation, Rule};

/// Fields with no rule: metadata, drawings, and page or solver settings.
const IGNORED: &[&str] = &[
    "title",
    "author",
    "ruleset",
    "solution",
    "cage",
    "line",
    "rectangle",
    "circle",
    "text",
    "highlightConflicts",
    "successMessage",
    "disabledlogic",
    "truecandidatesoptions",
    "fogofwar",
    "foglight",
    "onlyUseLatestGrid",
];

/// The arrays of constraints read here besides the line kinds of [`LINES`].
const ARRAYS: &[&str] = &[
    "killercage",
    "arrow",
    "difference",
    "ratio",
    "xv",
    "sum",
    "quadruple",
    "clone",
    "extraregion",
    "odd",
    "even",
    "minimum",
    "maximum",
    "littlekillersum",
    "sandwichsum",
    "xsum",
    "skyscraper",
    "rowindexer",
    "columnindexer",
    "boxindexer",
];

/// The flags read here, and the rule each stands for when true.
const FLAGS: &[(&str, Rule)] = &[
    ("diagonal+", Rule::Diagonal(Diagonal::Up)),
    ("diagonal-", Rule::Diagonal(Diagonal::Down)),
    ("antiknight", Rule::AntiKnight),
    ("antiking", Rule::AntiKing),
    ("disjointgroups", Rule::DisjointGroups),
    ("nonconsecutive", Rule::NonConsecutive),
];

/// How f-puzzles names the fields that it names differently from the model.
const RENAMED: &[(&str, &[(&str, &str)])] = &[
    ("arrow", &[("circle", "cells")]),
    ("clone", &[("clones", "cloneCells")]),
    ("quadruple", &[("digits", "values")]),
    ("littlekillersum", &[("clue", "cell"), ("sum", "value")]),
    ("sandwichsum", &[("clue", "cell"), ("sum", "value")]),
    ("xsum", &[("clue", "cell"), ("sum", "value")]),
    ("skyscraper", &[("clue", "cell"), ("visible", "value")]),
    ("killercage", &[("sum", "value")]),
    ("extraregion", &[]),
];

/// Reads an f-puzzles document from what a user pastes: the JSON object, its lz-string
/// text, an f-puzzles link or a SudokuPad link that carries it.
pub fn parse_fpuzzles(pasted: &str) -> Result<Puzzle, VariantInputError> {
    let json = document_text(pasted, "fpuzzles")?;
    let document: Value = serde_json::from_str(&json).map_err(|error| {
        malformed(
            "fpuzzles",
            format!("not an f-puzzles JSON document: {error}"),
        )
    })?;
    parse_fpuzzles_value(&document)
}

/// Reads an f-puzzles document given as a JSON object.
pub fn parse_fpuzzles_value(document: &Value) -> Result<Puzzle, VariantInputError> {
    let Some(fields) = document.as_object() else {
        return Err(malformed(
            "fpuzzles",
            "an f-puzzles document is a JSON object",
        ));
    };
    let size = fields.get("size").and_then(Value::as_u64).ok_or_else(|| {
        malformed(
            "fpuzzles.size",
            "the grid's size is a whole number, 3 to 16",
        )
    })?;
    let mut reader = Reader::new(usize::try_from(size).unwrap_or(usize::MAX), "fpuzzles.size")?;
    read_grid(&mut reader, fields)?;
    for (name, value) in fields {
        if name == "size" || name == "grid" || IGNORED.contains(&name.as_str()) {
            continue;
        }
        read_field(&mut reader, name, value)?;
    }
    reader.finish("fpuzzles.grid")
}

/// The cells of `grid`: clues, regions, pencil marks given as rules, parity.
fn read_grid(reader: &mut Reader, fields: &Map<String, Value>) -> Result<(), VariantInputError> {
    let size = reader.size;
    let shape = || {
        malformed(
            "fpuzzles.grid",
            format!("the grid is {size} rows of {size} cell objects"),
        )
    };
    let rows = fields
        .get("grid")
        .and_then(Value::as_array)
        .ok_or_else(shape)?;
    if rows.len() != size {
        return Err(shape());
    }
    for (row, cells) in rows.iter().enumerate() {
        let cells = cells
            .as_array()
            .filter(|cells| cells.len() == size)
            .ok_or_else(|| {
                malformed(
                    &format!("fpuzzles.grid[{row}]"),
                    format!("a row is {size} cell objects"),
                )
            })?;
        for (col, cell) in cells.iter().enumerate() {
            let path = format!("fpuzzles.grid[{row}][{col}]");
            let Some(cell) = cell.as_object() else {
                return Err(malformed(&path, "a cell is an object"));
            };
            read_cell(reader, Cell { row, col }, cell, &path)?;
        }
    }
    Ok(())
}

/// One cell of the grid. Its `givenPencilMarks` are a rule only on a cell that is not a
/// given, as f-puzzles and the peer read them.
fn read_cell(
    reader: &mut Reader,
    at: Cell,
    cell: &Map<String, Value>,
    path: &str,
) -> Result<(), VariantInputError> {
    let index = at.row * reader.size + at.col;
    let given = cell.get("given").and_then(Value::as_bool) == Some(true);
    if let Some(value) = cell.get("value").filter(|_| given) {
        let value = number(value, &format!("{path}.value"))?;
        reader.givens[index] = Some(reader.digit(value, &format!("{path}.value"))?);
    }
    match cell.get("region") {
        None => {}
        Some(Value::Null) => reader.regions_mut()[index] = None,
        Some(region) => {
            let region = number(region, &format!("{path}.region"))?;
            reader.regions_mut()[index] =
                Some(usize::try_from(region).unwrap_or(usize::MAX).min(1 << 20));
        }
    }
    if let Some(marks) = cell
        .get("givenPencilMarks")
        .filter(|marks| !marks.is_null() && !given)
    {
        let marks_path = format!("{path}.givenPencilMarks");
        let digits = list(marks, &marks_path, "a list of digits", |digit, path| {
            reader.digit(number(digit, path)?, path)
        })?;
        if !digits.is_empty() {
            let names = FieldNames {
                renamed: &[("digits", "givenPencilMarks")],
                one_line: None,
            };
            let rule = Rule::Candidates { cell: at, digits };
            reader.add("givenPencilMarks", index, path.to_owned(), names, rule);
        }
    }
    let parity = match cell.get("parity").and_then(Value::as_str) {
        Some("Odd") => Some(Rule::Odd(at)),
        Some("Even") => Some(Rule::Even(at)),
        _ => None,
    };
    if let Some(rule) = parity {
        reader.add("parity", index, path.to_owned(), FieldNames::SAME, rule);
    }
    Ok(())
}

/// A top-level field `name`: a flag, the `negative` list, or an array of constraints.
fn read_field(reader: &mut Reader, name: &str, value: &Value) -> Result<(), VariantInputError> {
    let path = format!("fpuzzles.{name}");
    if let Some((_, rule)) = FLAGS.iter().find(|(flag, _)| *flag == name) {
        match value {
            Value::Bool(true) => reader.add(name, 0, path, FieldNames::SAME, rule.clone()),
            Value::Bool(false) | Value::Null => {}
            _ => return Err(malformed(&path, "a flag is true or false")),
        }
        return Ok(());
    }
    if name == "negative" {
        let kinds = value
            .as_array()
            .ok_or_else(|| malformed(&path, "a list of names"))?;
        for (index, kind) in kinds.iter().enumerate() {
            let Some(&(_, negative)) = NEGATIVES
                .iter()
                .find(|(known, _)| Some(*known) == kind.as_str())
            else {
                return Err(VariantInputError::UnsupportedConstraint {
                    path: format!("{path}[{index}]"),
                    name: kind.to_string(),
                });
            };
            let rule = Rule::Negative(negative);
            reader.add(
                name,
                index,
                format!("{path}[{index}]"),
                FieldNames::SAME,
                rule,
            );
        }
        return Ok(());
    }
    let line = LINES.iter().position(|names| names.fpuzzles == name);
    if line.is_none() && !ARRAYS.contains(&name) {
        return Err(VariantInputError::UnsupportedConstraint {
            path,
            name: name.to_owned(),
        });
    }
    let entries = value
        .as_array()
        .ok_or_else(|| malformed(&path, "a list of constraints"))?;
    let renamed = RENAMED
        .iter()
        .find(|(kind, _)| *kind == name)
        .map_or(&[][..], |(_, renamed)| renamed);
    for (index, entry) in entries.iter().enumerate() {
        let path = format!("{path}[{index}]");
        let entry = entry
            .as_object()
            .ok_or_else(|| malformed(&path, "a constraint is an object"))?;
        let entry = Entry(Fields {
            fields: entry,
            path: &path,
            size: reader.size,
        });
        let rule = match line {
            Some(line) => {
                let kind = forms::line_kind(line, entry.optional_value()?, reader.size);
                Rule::Line {
                    kind,
                    lines: entry.lines()?,
                }
            }
            None => match read_entry(name, &entry)? {
                Some(rule) => rule,
                None => continue,
            },
        };
        let names = FieldNames {
            renamed,
            one_line: None,
        };
        reader.add(name, index, path.clone(), names, rule);
    }
    Ok(())
}

/// One entry of an array of constraints, read with its path.
struct Entry<'a>(Fields<'a>);

impl<'a> std::ops::Deref for Entry<'a> {
    type Target = Fields<'a>;

    fn deref(&self) -> &Fields<'a> {
        &self.0
    }
}

impl Entry<'_> {
    fn cells(&self, key: &str) -> Result<Vec<Cell>, VariantInputError> {
        let expected = "a list of cells such as [\"R1C1\", \"R1C2\"]";
        list(self.get(key)?, &self.path_of(key), expected, cell)
    }

    fn cell(&self, key: &str) -> Result<Cell, VariantInputError> {
        cell(self.get(key)?, &self.path_of(key))
    }

    /// The entry's `value` as a whole number; `None` when it is missing, `null` or empty.
    fn optional_value(&self) -> Result<Option<u32>, VariantInputError> {
        let path = self.path_of("value");
        match self.fields.get("value") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
            Some(value) => {
                let value = number(value, &path)?;
                u32::try_from(value)
                    .map(Some)
                    .map_err(|_| malformed(&path, format!("{value} is not a value: 0 or more")))
            }
        }
    }

    /// A cage's sum: its `value` when that is a whole number above 0. f-puzzles shows any
    /// text in a cage's corner (`?` for a sum the solver must find), and a cage with no
    /// number there states no sum, as the peer reads it.
    fn cage_sum(&self) -> Option<u32> {
        let value = self.fields.get("value")?;
        let parsed = match value {
            Value::Number(number) => number.as_u64(),
            Value::String(text) => text.trim().parse().ok(),
            _ => None,
        };
        parsed
            .and_then(|sum| u32::try_from(sum).ok())
            .filter(|&sum| sum > 0)
    }

    /// The entry's `value`, which it must have.
    fn value(&self) -> Result<u32, VariantInputError> {
        self.optional_value()?
            .ok_or_else(|| malformed(&self.path_of("value"), "missing"))
    }

    /// The lines of the entry's `lines` field.
    fn lines(&self) -> Result<Vec<Vec<Cell>>, VariantInputError> {
        let path = self.path_of("lines");
        list(
            self.get("lines")?,
            &path,
            "a list of lines",
            |line, path| {
                list(
                    line,
                    path,
                    "a list of cells such as [\"R1C1\", \"R1C2\"]",
                    cell,
                )
            },
        )
    }

    /// The place of the entry's outside clue (`cell`).
    fn clue(&self) -> Result<Outside, VariantInputError> {
        let path = self.path_of("cell");
        let (row, col) = cell_name(self.get("cell")?, &path)?;
        let n = self.size;
        if row > n + 1 || col > n + 1 {
            return Err(malformed(
                &path,
                "an outside clue stands just outside the grid",
            ));
        }
        Ok(Outside {
            row: row as i32 - 1,
            col: col as i32 - 1,
        })
    }
}

/// The rule of one entry of the array `name`, or `None` for an entry that states nothing
/// (an outside clue without a value).
fn read_entry(name: &str, entry: &Entry) -> Result<Option<Rule>, VariantInputError> {
    Ok(Some(match name {
        "killercage" => Rule::KillerCage {
            cells: entry.cells("cells")?,
            sum: entry.cage_sum(),
        },
        "arrow" => Rule::Arrow {
            circle: entry.cells("cells")?,
            lines: entry.lines()?,
        },
        "difference" | "ratio" | "xv" | "sum" => {
            let cells: [Cell; 2] = entry
                .cells("cells")?
                .try_into()
                .map_err(|_| malformed(&entry.path_of("cells"), "a dot joins two cells"))?;
            let relation = match name {
                "difference" => Relation::Difference(entry.optional_value()?.unwrap_or(1)),
                "ratio" => Relation::Ratio(entry.optional_value()?.unwrap_or(2)),
                "sum" => Relation::Sum(entry.value()?),
                _ => match entry
                    .get("value")?
                    .as_str()
                    .map(str::to_ascii_uppercase)
                    .as_deref()
                {
                    Some("X") => Relation::X,
                    Some("V") => Relation::V,
                    _ => {
                        return Err(malformed(
                            &entry.path_of("value"),
                            "an XV clue is `X` or `V`, the only marks f-puzzles draws",
                        ));
                    }
                },
            };
            Rule::Dot { cells, relation }
        }
        "quadruple" => {
            let path = entry.path_of("values");
            let digits = list(
                entry.get("values")?,
                &path,
                "a list of digits",
                |digit, path| {
                    let digit = number(digit, path)?;
                    u8::try_from(digit).map_err(|_| malformed(path, "a digit"))
                },
            )?;
            Rule::Quadruple {
                cells: entry.cells("cells")?,
                digits,
            }
        }
        "clone" => Rule::Clone {
            cells: entry.cells("cells")?,
            clones: entry.cells("cloneCells")?,
        },
        "extraregion" => Rule::ExtraRegion(entry.cells("cells")?),
        "odd" => Rule::Odd(entry.cell("cell")?),
        "even" => Rule::Even(entry.cell("cell")?),
        "minimum" => Rule::Minimum(entry.cell("cell")?),
        "maximum" => Rule::Maximum(entry.cell("cell")?),
        "littlekillersum" => {
            let direction = match entry.get("direction")?.as_str() {
                Some("UL") => Direction::UpLeft,
                Some("UR") => Direction::UpRight,
                Some("DL") => Direction::DownLeft,
                Some("DR") => Direction::DownRight,
                _ => {
                    return Err(malformed(
                        &entry.path_of("direction"),
                        "one of UL, UR, DL, DR",
                    ));
                }
            };
            let clue = entry.clue()?;
            let Some(sum) = entry.optional_value()? else {
                return Ok(None);
            };
            Rule::LittleKiller {
                clue,
                direction,
                sum,
            }
        }
        "sandwichsum" | "xsum" | "skyscraper" => {
            let clue = entry.clue()?;
            let Some(value) = entry.optional_value()? else {
                return Ok(None);
            };
            match name {
                "sandwichsum" => Rule::Sandwich { clue, sum: value },
                "xsum" => Rule::XSum { clue, sum: value },
                _ => Rule::Skyscraper {
                    clue,
                    visible: value,
                },
            }
        }
        _ => Rule::Indexer {
            indexer: match name {
                "rowindexer" => Indexer::Row,
                "columnindexer" => Indexer::Column,
                _ => Indexer::Box,
            },
            cells: entry.cells("cells")?,
        },
    }))
}

/// A whole number, written as a number or a string (as real files write values).
fn number(value: &Value, path: &str) -> Result<i64, VariantInputError> {
    let parsed = match value {
        Value::Number(number) => number.as_i64(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    };
    parsed.ok_or_else(|| malformed(path, format!("{value} is not a whole number")))
}

/// `R<row>C<col>`, 1-based, as a pair of numbers.
fn cell_name(value: &Value, path: &str) -> Result<(usize, usize), VariantInputError> {
    let bad = || malformed(path, format!("{value} is not a cell name such as \"R1C1\""));
    let text = value.as_str().ok_or_else(bad)?.to_ascii_uppercase();
    let (row, col) = text
        .strip_prefix('R')
        .and_then(|rest| rest.split_once('C'))
        .ok_or_else(bad)?;
    let row = row.parse::<usize>().map_err(|_| bad())?;
    let col = col.parse::<usize>().map_err(|_| bad())?;
    Ok((row.min(1 << 20), col.min(1 << 20)))
}

/// A cell named `R1C1` (the model checks that it is inside the grid).
fn cell(value: &Value, path: &str) -> Result<Cell, VariantInputError> {
    let (row, col) = cell_name(value, path)?;
    if row == 0 || col == 0 {
        return Err(malformed(path, format!("{value} is outside the grid")));
    }
    Ok(Cell {
        row: row - 1,
        col: col - 1,
    })
}
