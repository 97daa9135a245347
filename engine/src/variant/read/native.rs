//! The native form: a grid of N² symbols and `rules`, a JSON array of constraints named in
//! snake_case with 0-based `{"row", "col"}` cells.

use serde_json::{Map, Value};

use super::{Reader, VariantInputError, list, malformed};
use crate::grid::is_symbol_of;
use crate::variant::model::{Cell, Indexer, NegativeKind, Puzzle, Relation, Rule};

/// Every kind of the native form, and the fields each may have besides `kind`.
const KINDS: &[(&str, &[&str])] = &[
    ("regions", &["layout"]),
    ("diagonal", &["direction"]),
    ("extra_region", &["cells"]),
    ("anti_knight", &[]),
    ("anti_king", &[]),
    ("disjoint_groups", &[]),
    ("nonconsecutive", &[]),
    ("killer_cage", &["cells", "sum"]),
    ("arrow", &["circle", "line"]),
    ("difference", &["cells", "value"]),
    ("ratio", &["cells", "value"]),
    ("xv", &["cells", "value"]),
    ("negative", &["relation"]),
    ("odd", &["cell"]),
    ("even", &["cell"]),
    ("minimum", &["cell"]),
    ("maximum", &["cell"]),
    ("candidates", &["cell", "digits"]),
    ("quadruple", &["cells", "digits"]),
    ("thermometer", &["cells"]),
    ("slow_thermometer", &["cells"]),
    ("palindrome", &["cells"]),
    ("renban", &["cells"]),
    ("whispers", &["cells", "difference"]),
    ("between_line", &["cells"]),
    ("region_sum_line", &["cells"]),
    ("entropic_line", &["cells"]),
    ("modular_line", &["cells"]),
    ("zipper_line", &["cells"]),
    ("double_arrow", &["cells"]),
    ("lockout", &["cells", "difference"]),
    ("nabner", &["cells"]),
    ("little_killer", &["cells", "sum"]),
    ("sandwich", &["side", "index", "sum"]),
    ("x_sum", &["side", "index", "sum"]),
    ("skyscraper", &["side", "index", "visible"]),
    ("clone", &["cells", "clones"]),
    ("row_indexer", &["cells"]),
    ("column_indexer", &["cells"]),
    ("box_indexer", &["cells"]),
];

/// The most rules one puzzle may have.
const MAX_RULES: usize = 10_000;

/// Reads a grid (N² symbols, N from 3 to 16) with native `rules`.
pub fn parse_native(grid: &str, rules: &Value) -> Result<Puzzle, VariantInputError> {
    let symbols: Vec<char> = grid
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '|')
        .collect();
    let size = (3..=16)
        .find(|size| size * size == symbols.len())
        .ok_or_else(|| {
            malformed(
                "grid",
                format!(
                    "a grid with rules has N² symbols for N from 3 to 16, not {}",
                    symbols.len()
                ),
            )
        })?;
    let mut reader = Reader::new(size, "grid")?;
    for (index, &symbol) in symbols.iter().enumerate() {
        if !is_symbol_of(symbol, size) {
            return Err(malformed(
                &format!("grid[{index}]"),
                format!("{symbol:?} is not a symbol of a {size}×{size} grid"),
            ));
        }
        let value = symbol.to_digit(36).filter(|_| symbol != '.').unwrap_or(0);
        reader.givens[index] = (value > 0).then_some(value as u8);
    }
    let rules = rules
        .as_array()
        .ok_or_else(|| malformed("rules", "a list of rules"))?;
    if rules.len() > MAX_RULES {
        return Err(malformed("rules", format!("at most {MAX_RULES} rules")));
    }
    for (index, rule) in rules.iter().enumerate() {
        let path = format!("rules[{index}]");
        let fields = rule
            .as_object()
            .ok_or_else(|| malformed(&path, "a rule is an object with a `kind`"))?;
        let kind = fields
            .get("kind")
            .and_then(Value::as_str)
            .ok_or_else(|| malformed(&format!("{path}.kind"), "missing"))?;
        let Some((kind, allowed)) = KINDS.iter().find(|(name, _)| *name == kind) else {
            return Err(VariantInputError::UnsupportedConstraint {
                path: format!("{path}.kind"),
                name: kind.to_owned(),
            });
        };
        if let Some(unknown) = fields
            .keys()
            .find(|key| *key != "kind" && !allowed.contains(&key.as_str()))
        {
            return Err(malformed(
                &format!("{path}.{unknown}"),
                format!("a `{kind}` rule has no field `{unknown}`"),
            ));
        }
        for rule in read_rule(&mut reader, kind, fields, &path)? {
            reader.add(kind, index, rule);
        }
    }
    reader.finish("rules")
}

/// The rules of one native rule object.
fn read_rule(
    reader: &mut Reader,
    kind: &str,
    fields: &Map<String, Value>,
    path: &str,
) -> Result<Vec<Rule>, VariantInputError> {
    let size = reader.size;
    let get = |key: &str| {
        let key_path = format!("{path}.{key}");
        fields
            .get(key)
            .filter(|value| !value.is_null())
            .ok_or_else(|| malformed(&key_path, "missing"))
    };
    let cells_of = |key: &str| -> Result<Vec<Cell>, VariantInputError> {
        cells(reader, get(key)?, &format!("{path}.{key}"))
    };
    let cell_of = |key: &str| -> Result<Cell, VariantInputError> {
        cell(reader, get(key)?, &format!("{path}.{key}"))
    };
    let number_of = |key: &str| -> Result<u32, VariantInputError> {
        let key_path = format!("{path}.{key}");
        get(key)?
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| malformed(&key_path, "a whole number, 0 or more"))
    };
    let optional = |key: &str, default: u32| -> Result<u32, VariantInputError> {
        if fields.get(key).is_none_or(Value::is_null) {
            Ok(default)
        } else {
            number_of(key)
        }
    };
    let line_of = |key: &str| -> Result<Vec<Cell>, VariantInputError> {
        let line = cells_of(key)?;
        reader.line(&line, &format!("{path}.{key}"))?;
        Ok(line)
    };
    let rule = match kind {
        "regions" => {
            let layout = get("layout")?
                .as_array()
                .filter(|rows| rows.len() == size)
                .ok_or_else(|| {
                    malformed(
                        &format!("{path}.layout"),
                        format!("{size} rows of {size} region numbers (null: no region)"),
                    )
                })?;
            for (row, numbers) in layout.iter().enumerate() {
                let numbers = numbers
                    .as_array()
                    .filter(|numbers| numbers.len() == size)
                    .ok_or_else(|| {
                        malformed(
                            &format!("{path}.layout[{row}]"),
                            format!("{size} region numbers"),
                        )
                    })?;
                for (col, number) in numbers.iter().enumerate() {
                    reader.regions[row * size + col] = match number {
                        Value::Null => None,
                        number => {
                            Some(number.as_u64().filter(|&n| n < 1 << 20).ok_or_else(|| {
                                malformed(
                                    &format!("{path}.layout[{row}][{col}]"),
                                    "a region number, 0 or more, or null",
                                )
                            })? as usize)
                        }
                    };
                }
            }
            return Ok(Vec::new());
        }
        "diagonal" => {
            let down = match get("direction")?.as_str() {
                Some("down") => true,
                Some("up") => false,
                _ => return Err(malformed(&format!("{path}.direction"), "`down` or `up`")),
            };
            let cells = (0..size)
                .map(|i| Cell {
                    row: if down { i } else { size - 1 - i },
                    col: i,
                })
                .collect();
            Rule::Distinct { cells }
        }
        "extra_region" => {
            let cells = cells_of("cells")?;
            reader.distinct(&cells, &format!("{path}.cells"))?;
            if cells.len() > size {
                return Err(malformed(
                    &format!("{path}.cells"),
                    "an extra region holds at most one cell per digit",
                ));
            }
            Rule::Distinct { cells }
        }
        "anti_knight" => Rule::AntiKnight,
        "anti_king" => Rule::AntiKing,
        "nonconsecutive" => Rule::NonConsecutive,
        "disjoint_groups" => {
            return Ok(reader
                .disjoint_groups()
                .into_iter()
                .map(|cells| Rule::Distinct { cells })
                .collect());
        }
        "killer_cage" => {
            let cells = cells_of("cells")?;
            let sum = if fields.get("sum").is_none_or(Value::is_null) {
                None
            } else {
                Some(number_of("sum")?)
            };
            reader.cage(&cells, sum, path)?;
            Rule::KillerCage { cells, sum }
        }
        "arrow" => {
            let circle = cells_of("circle")?;
            reader.distinct(&circle, &format!("{path}.circle"))?;
            let line = cells_of("line")?;
            reader.distinct(&line, &format!("{path}.line"))?;
            if circle.is_empty() || line.is_empty() {
                return Err(malformed(path, "an arrow has a circle and a line"));
            }
            Rule::Arrow { circle, line }
        }
        "difference" | "ratio" | "xv" => {
            let pair: [Cell; 2] = cells_of("cells")?
                .try_into()
                .map_err(|_| malformed(&format!("{path}.cells"), "a dot joins two cells"))?;
            reader.pair(pair, &format!("{path}.cells"))?;
            let relation = match kind {
                "difference" => Relation::Difference(optional("value", 1)?),
                "ratio" => Relation::Ratio(optional("value", 2)?),
                _ => match get("value")?.as_str() {
                    Some("X") => Relation::Sum(10),
                    Some("V") => Relation::Sum(5),
                    _ => return Err(malformed(&format!("{path}.value"), "`X` or `V`")),
                },
            };
            Rule::Dot {
                cells: pair,
                relation,
            }
        }
        "negative" => Rule::Negative(match get("relation")?.as_str() {
            Some("difference") => NegativeKind::Difference,
            Some("ratio") => NegativeKind::Ratio,
            Some("xv") => NegativeKind::Xv,
            _ => {
                return Err(malformed(
                    &format!("{path}.relation"),
                    "`difference`, `ratio` or `xv`",
                ));
            }
        }),
        "odd" => Rule::Odd(cell_of("cell")?),
        "even" => Rule::Even(cell_of("cell")?),
        "minimum" => Rule::Minimum(cell_of("cell")?),
        "maximum" => Rule::Maximum(cell_of("cell")?),
        "candidates" => Rule::Candidates {
            cell: cell_of("cell")?,
            digits: digits(reader, get("digits")?, &format!("{path}.digits"))?,
        },
        "quadruple" => {
            let cells = cells_of("cells")?;
            reader.distinct(&cells, &format!("{path}.cells"))?;
            let digits = digits(reader, get("digits")?, &format!("{path}.digits"))?;
            if cells.len() > 4 || digits.len() > cells.len() {
                return Err(malformed(
                    path,
                    "a quadruple lists at most as many digits as its (up to 4) cells",
                ));
            }
            Rule::Quadruple { cells, digits }
        }
        "thermometer" => Rule::Thermometer(line_of("cells")?),
        "slow_thermometer" => Rule::SlowThermometer(line_of("cells")?),
        "palindrome" => Rule::Palindrome(line_of("cells")?),
        "renban" => Rule::Renban(line_of("cells")?),
        "whispers" => Rule::Whispers {
            cells: line_of("cells")?,
            difference: optional("difference", size.div_ceil(2) as u32)?,
        },
        "between_line" => Rule::Between(line_of("cells")?),
        "region_sum_line" => Rule::RegionSumLine(line_of("cells")?),
        "entropic_line" => Rule::EntropicLine(line_of("cells")?),
        "modular_line" => Rule::ModularLine(line_of("cells")?),
        "zipper_line" => Rule::ZipperLine(line_of("cells")?),
        "double_arrow" => Rule::DoubleArrow(line_of("cells")?),
        "lockout" => Rule::Lockout {
            cells: line_of("cells")?,
            difference: optional("difference", size as u32 / 2)?,
        },
        "nabner" => Rule::Nabner(line_of("cells")?),
        "little_killer" => {
            let cells = cells_of("cells")?;
            let path_cells = format!("{path}.cells");
            let diagonal = !cells.is_empty()
                && cells.windows(2).all(|pair| {
                    pair[0].row.abs_diff(pair[1].row) == 1
                        && pair[0].col.abs_diff(pair[1].col) == 1
                        && (pair[1].row > pair[0].row) == (cells[1].row > cells[0].row)
                        && (pair[1].col > pair[0].col) == (cells[1].col > cells[0].col)
                });
            if !diagonal {
                return Err(malformed(
                    &path_cells,
                    "a little killer's cells are one diagonal, listed from the clue",
                ));
            }
            Rule::LittleKiller {
                cells,
                sum: number_of("sum")?,
            }
        }
        "sandwich" | "x_sum" | "skyscraper" => {
            let index = number_of("index")? as usize;
            if index >= size {
                return Err(malformed(
                    &format!("{path}.index"),
                    format!("a row or column, 0 to {}", size - 1),
                ));
            }
            let (row, col) = match get("side")?.as_str() {
                Some("top") => (0, index + 1),
                Some("bottom") => (size + 1, index + 1),
                Some("left") => (index + 1, 0),
                Some("right") => (index + 1, size + 1),
                _ => {
                    return Err(malformed(
                        &format!("{path}.side"),
                        "`top`, `bottom`, `left` or `right`",
                    ));
                }
            };
            let cells = reader.read_from_clue(row, col, path)?;
            match kind {
                "sandwich" => Rule::Sandwich {
                    cells,
                    sum: number_of("sum")?,
                },
                "x_sum" => Rule::XSum {
                    cells,
                    sum: number_of("sum")?,
                },
                _ => Rule::Skyscraper {
                    cells,
                    visible: number_of("visible")?,
                },
            }
        }
        "clone" => {
            let cells = cells_of("cells")?;
            let clones = cells_of("clones")?;
            if cells.len() != clones.len() {
                return Err(malformed(
                    &format!("{path}.clones"),
                    "a clone has as many cells as its original",
                ));
            }
            Rule::Clone { cells, clones }
        }
        _ => Rule::Indexer {
            indexer: match kind {
                "row_indexer" => Indexer::Row,
                "column_indexer" => Indexer::Column,
                _ => Indexer::Box,
            },
            cells: cells_of("cells")?,
        },
    };
    Ok(vec![rule])
}

/// A 0-based `{"row", "col"}` cell inside the grid.
fn cell(reader: &Reader, value: &Value, path: &str) -> Result<Cell, VariantInputError> {
    let size = reader.size;
    let coordinate = |key: &str| value.get(key).and_then(Value::as_u64);
    match (
        coordinate("row"),
        coordinate("col"),
        value.as_object().map(|fields| fields.len()),
    ) {
        (Some(row), Some(col), Some(2)) if row < size as u64 && col < size as u64 => Ok(Cell {
            row: row as usize,
            col: col as usize,
        }),
        (Some(_), Some(_), Some(2)) => Err(malformed(
            path,
            format!("{value} is outside the {size}×{size} grid (rows and columns count from 0)"),
        )),
        _ => Err(malformed(
            path,
            "a cell is {\"row\": r, \"col\": c}, counting from 0",
        )),
    }
}

/// A list of cells inside the grid.
fn cells(reader: &Reader, value: &Value, path: &str) -> Result<Vec<Cell>, VariantInputError> {
    list(value, path, "a list of cells", |item, path| {
        cell(reader, item, path)
    })
}

/// A list of digits of the grid.
fn digits(reader: &Reader, value: &Value, path: &str) -> Result<Vec<u8>, VariantInputError> {
    list(value, path, "a list of digits", |digit, path| {
        let digit = digit.as_i64().ok_or_else(|| malformed(path, "a digit"))?;
        reader.digit(digit, path)
    })
}
