//! f-puzzles documents: `size`, `grid` (cells with `value`, `given`, `region`,
//! `givenPencilMarks`), and the constraint arrays and flags named as f-puzzles names them.

use serde_json::{Map, Value};

use super::link::document_text;
use super::{Reader, VariantInputError, list, malformed};
use crate::variant::model::{Cell, Indexer, NegativeKind, Puzzle, Relation, Rule};

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

/// One cell of the grid.
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
        Some(Value::Null) => reader.regions[index] = None,
        Some(region) => {
            let region = number(region, &format!("{path}.region"))?;
            reader.regions[index] =
                Some(usize::try_from(region).unwrap_or(usize::MAX).min(1 << 20));
        }
    }
    if let Some(marks) = cell
        .get("givenPencilMarks")
        .filter(|marks| !marks.is_null())
    {
        let marks_path = format!("{path}.givenPencilMarks");
        let digits = digits(reader, marks, &marks_path)?;
        if !digits.is_empty() {
            reader.add(
                "givenPencilMarks",
                index,
                Rule::Candidates { cell: at, digits },
            );
        }
    }
    match cell.get("parity").and_then(Value::as_str) {
        Some("Odd") => reader.add("parity", index, Rule::Odd(at)),
        Some("Even") => reader.add("parity", index, Rule::Even(at)),
        _ => {}
    }
    Ok(())
}

/// A top-level field `name`: a flag, or an array of constraints.
fn read_field(reader: &mut Reader, name: &str, value: &Value) -> Result<(), VariantInputError> {
    let path = format!("fpuzzles.{name}");
    let flag = || value.as_bool() == Some(true);
    let size = reader.size;
    match name {
        "diagonal+" | "diagonal-" if flag() => {
            let cells = (0..size)
                .map(|i| match name {
                    "diagonal-" => Cell { row: i, col: i },
                    _ => Cell {
                        row: size - 1 - i,
                        col: i,
                    },
                })
                .collect();
            reader.add(name, 0, Rule::Distinct { cells });
        }
        "antiknight" if flag() => reader.add(name, 0, Rule::AntiKnight),
        "antiking" if flag() => reader.add(name, 0, Rule::AntiKing),
        "nonconsecutive" if flag() => reader.add(name, 0, Rule::NonConsecutive),
        "disjointgroups" if flag() => {
            for cells in reader.disjoint_groups() {
                reader.add(name, 0, Rule::Distinct { cells });
            }
        }
        "diagonal+" | "diagonal-" | "antiknight" | "antiking" | "nonconsecutive"
        | "disjointgroups" => {
            if !value.is_boolean() && !value.is_null() {
                return Err(malformed(&path, "a flag is true or false"));
            }
        }
        "negative" => {
            let kinds = value
                .as_array()
                .ok_or_else(|| malformed(&path, "a list of names"))?;
            for (index, kind) in kinds.iter().enumerate() {
                let kind = match kind.as_str() {
                    Some("ratio") => NegativeKind::Ratio,
                    Some("difference") => NegativeKind::Difference,
                    Some("xv") => NegativeKind::Xv,
                    _ => {
                        return Err(VariantInputError::UnsupportedConstraint {
                            path: format!("{path}[{index}]"),
                            name: kind.to_string(),
                        });
                    }
                };
                reader.add(name, index, Rule::Negative(kind));
            }
        }
        _ => {
            let Some(entries) = value.as_array() else {
                if known_array(name) {
                    return Err(malformed(&path, "a list of constraints"));
                }
                return Err(VariantInputError::UnsupportedConstraint {
                    path,
                    name: name.to_owned(),
                });
            };
            if !known_array(name) {
                return Err(VariantInputError::UnsupportedConstraint {
                    path,
                    name: name.to_owned(),
                });
            }
            for (index, entry) in entries.iter().enumerate() {
                let path = format!("{path}[{index}]");
                let entry = entry
                    .as_object()
                    .ok_or_else(|| malformed(&path, "a constraint is an object"))?;
                for rule in read_entry(reader, name, entry, &path)? {
                    reader.add(name, index, rule);
                }
            }
        }
    }
    Ok(())
}

/// Whether `name` is an array of constraints this service reads.
fn known_array(name: &str) -> bool {
    LINE_KINDS.contains(&name)
        || [
            "killercage",
            "arrow",
            "difference",
            "ratio",
            "xv",
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
        ]
        .contains(&name)
}

/// The kinds drawn as lines, a rule per line.
const LINE_KINDS: &[&str] = &[
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

/// The rules of one entry of the array `name`.
fn read_entry(
    reader: &Reader,
    name: &str,
    entry: &Map<String, Value>,
    path: &str,
) -> Result<Vec<Rule>, VariantInputError> {
    let field = |key: &str| entry.get(key).filter(|value| !value.is_null());
    let cells_of = |key: &str| -> Result<Vec<Cell>, VariantInputError> {
        let key_path = format!("{path}.{key}");
        let value = field(key).ok_or_else(|| malformed(&key_path, "missing"))?;
        cells(reader, value, &key_path)
    };
    let one_cell = |key: &str| -> Result<Cell, VariantInputError> {
        let key_path = format!("{path}.{key}");
        let value = field(key).ok_or_else(|| malformed(&key_path, "missing"))?;
        cell(reader, value, &key_path)
    };
    let value_of = |default: Option<i64>| -> Result<Option<u32>, VariantInputError> {
        let key_path = format!("{path}.value");
        match field("value").filter(|value| value.as_str() != Some("")) {
            None => Ok(default.map(|value| value as u32)),
            Some(value) => {
                let value = number(value, &key_path)?;
                u32::try_from(value)
                    .map(Some)
                    .map_err(|_| malformed(&key_path, format!("{value} is not a value: 0 or more")))
            }
        }
    };
    let size = reader.size as u32;
    if LINE_KINDS.contains(&name) {
        let mut rules = Vec::new();
        for line in lines(reader, field("lines"), path)? {
            rules.push(match name {
                "thermometer" => Rule::Thermometer(line),
                "slowthermometer" => Rule::SlowThermometer(line),
                "palindrome" => Rule::Palindrome(line),
                "renban" => Rule::Renban(line),
                "whispers" => Rule::Whispers {
                    cells: line,
                    difference: value_of(Some(i64::from(size.div_ceil(2))))?.unwrap_or(0),
                },
                "betweenline" => Rule::Between(line),
                "regionsumline" => Rule::RegionSumLine(line),
                "entropicline" => Rule::EntropicLine(line),
                "modularline" => Rule::ModularLine(line),
                "zipperline" => Rule::ZipperLine(line),
                "doublearrow" => Rule::DoubleArrow(line),
                "lockout" => Rule::Lockout {
                    cells: line,
                    difference: value_of(Some(i64::from(size / 2)))?.unwrap_or(0),
                },
                _ => Rule::Nabner(line),
            });
        }
        return Ok(rules);
    }
    let rule = match name {
        "killercage" => {
            let cells = cells_of("cells")?;
            let sum = value_of(None)?;
            reader.cage(&cells, sum, path)?;
            Rule::KillerCage { cells, sum }
        }
        "arrow" => {
            let circle = cells_of("cells")?;
            reader.distinct(&circle, &format!("{path}.cells"))?;
            let mut rules = Vec::new();
            for whole in lines(reader, field("lines"), path)? {
                // The line starts in the circle.
                rules.push(Rule::Arrow {
                    circle: circle.clone(),
                    line: whole[1..].to_vec(),
                });
            }
            return Ok(rules);
        }
        "difference" | "ratio" | "xv" => {
            let cells = cells_of("cells")?;
            let pair: [Cell; 2] = cells
                .try_into()
                .map_err(|_| malformed(&format!("{path}.cells"), "a dot joins two cells"))?;
            reader.pair(pair, &format!("{path}.cells"))?;
            let relation = match name {
                "difference" => Relation::Difference(value_of(Some(1))?.unwrap_or(1)),
                "ratio" => Relation::Ratio(value_of(Some(2))?.unwrap_or(2)),
                _ => match field("value").and_then(Value::as_str) {
                    Some("X" | "x") => Relation::Sum(10),
                    Some("V" | "v") => Relation::Sum(5),
                    _ => {
                        return Err(malformed(
                            &format!("{path}.value"),
                            "an XV clue is `X` or `V`",
                        ));
                    }
                },
            };
            Rule::Dot {
                cells: pair,
                relation,
            }
        }
        "quadruple" => {
            let cells = cells_of("cells")?;
            reader.distinct(&cells, &format!("{path}.cells"))?;
            let values_path = format!("{path}.values");
            let digits = digits(
                reader,
                field("values").ok_or_else(|| malformed(&values_path, "missing"))?,
                &values_path,
            )?;
            if cells.len() > 4 || digits.len() > cells.len() {
                return Err(malformed(
                    path,
                    "a quadruple lists at most as many digits as its (up to 4) cells",
                ));
            }
            Rule::Quadruple { cells, digits }
        }
        "clone" => {
            let cells = cells_of("cells")?;
            let clones = cells_of("cloneCells")?;
            if cells.len() != clones.len() {
                return Err(malformed(
                    &format!("{path}.cloneCells"),
                    "a clone has as many cells as its original",
                ));
            }
            Rule::Clone { cells, clones }
        }
        "extraregion" => {
            let cells = cells_of("cells")?;
            reader.distinct(&cells, &format!("{path}.cells"))?;
            if cells.len() > reader.size {
                return Err(malformed(
                    &format!("{path}.cells"),
                    "an extra region holds at most one cell per digit",
                ));
            }
            Rule::Distinct { cells }
        }
        "odd" => Rule::Odd(one_cell("cell")?),
        "even" => Rule::Even(one_cell("cell")?),
        "minimum" => Rule::Minimum(one_cell("cell")?),
        "maximum" => Rule::Maximum(one_cell("cell")?),
        "littlekillersum" => {
            let (row, col) = outside_cell(reader, field("cell"), &format!("{path}.cell"))?;
            let (step_row, step_col): (i64, i64) = match field("direction").and_then(Value::as_str)
            {
                Some("UL") => (-1, -1),
                Some("UR") => (-1, 1),
                Some("DL") => (1, -1),
                Some("DR") => (1, 1),
                _ => {
                    return Err(malformed(
                        &format!("{path}.direction"),
                        "one of UL, UR, DL, DR",
                    ));
                }
            };
            let n = reader.size as i64;
            let (mut r, mut c) = (row as i64 + step_row, col as i64 + step_col);
            let mut cells = Vec::new();
            while (1..=n).contains(&r) && (1..=n).contains(&c) {
                cells.push(Cell {
                    row: (r - 1) as usize,
                    col: (c - 1) as usize,
                });
                r += step_row;
                c += step_col;
            }
            if cells.is_empty() {
                return Err(malformed(
                    &format!("{path}.direction"),
                    "the diagonal from the clue holds no cell",
                ));
            }
            let sum =
                value_of(None)?.ok_or_else(|| malformed(&format!("{path}.value"), "missing"))?;
            Rule::LittleKiller { cells, sum }
        }
        "sandwichsum" | "xsum" | "skyscraper" => {
            let (row, col) = outside_cell(reader, field("cell"), &format!("{path}.cell"))?;
            let cells = reader.read_from_clue(row, col, &format!("{path}.cell"))?;
            let value =
                value_of(None)?.ok_or_else(|| malformed(&format!("{path}.value"), "missing"))?;
            match name {
                "sandwichsum" => Rule::Sandwich { cells, sum: value },
                "xsum" => Rule::XSum { cells, sum: value },
                _ => Rule::Skyscraper {
                    cells,
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
            cells: cells_of("cells")?,
        },
    };
    Ok(vec![rule])
}

/// The checked lines of an entry's `lines` field (`value`), at `path`.
fn lines(
    reader: &Reader,
    value: Option<&Value>,
    path: &str,
) -> Result<Vec<Vec<Cell>>, VariantInputError> {
    let list = value
        .and_then(Value::as_array)
        .ok_or_else(|| malformed(&format!("{path}.lines"), "a list of lines"))?;
    list.iter()
        .enumerate()
        .map(|(index, line)| {
            let line_path = format!("{path}.lines[{index}]");
            let line = cells(reader, line, &line_path)?;
            reader.line(&line, &line_path)?;
            Ok(line)
        })
        .collect()
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

/// A list of digits of the grid.
fn digits(reader: &Reader, value: &Value, path: &str) -> Result<Vec<u8>, VariantInputError> {
    list(value, path, "a list of digits", |digit, path| {
        reader.digit(number(digit, path)?, path)
    })
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
    Ok((row, col))
}

/// A cell of the grid, named `R1C1`.
fn cell(reader: &Reader, value: &Value, path: &str) -> Result<Cell, VariantInputError> {
    let (row, col) = cell_name(value, path)?;
    let size = reader.size;
    if !(1..=size).contains(&row) || !(1..=size).contains(&col) {
        return Err(malformed(
            path,
            format!("{value} is outside the {size}×{size} grid"),
        ));
    }
    Ok(Cell {
        row: row - 1,
        col: col - 1,
    })
}

/// A list of cells of the grid.
fn cells(reader: &Reader, value: &Value, path: &str) -> Result<Vec<Cell>, VariantInputError> {
    let expected = "a list of cells such as [\"R1C1\", \"R1C2\"]";
    list(value, path, expected, |item, path| cell(reader, item, path))
}

/// The place of an outside clue (row and column 0 to size + 1, 1-based as written).
fn outside_cell(
    reader: &Reader,
    value: Option<&Value>,
    path: &str,
) -> Result<(usize, usize), VariantInputError> {
    let value = value.ok_or_else(|| malformed(path, "missing"))?;
    let (row, col) = cell_name(value, path)?;
    let edge = [0, reader.size + 1];
    let beside = (edge.contains(&row) || edge.contains(&col))
        && row <= reader.size + 1
        && col <= reader.size + 1;
    if !beside {
        return Err(malformed(path, format!("{value} is not beside the grid")));
    }
    Ok((row, col))
}
