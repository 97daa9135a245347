//! The native form: a grid of N² symbols and `rules`, a JSON array of constraints named in
//! snake_case with 0-based `{"row", "col"}` cells.

use serde_json::{Map, Value};

use super::{FieldNames, Fields, Reader, VariantInputError, list, malformed};
use crate::grid::is_symbol_of;
use crate::variant::forms::{self, LINES, NEGATIVES};
use crate::variant::model::{Cell, Diagonal, Direction, Indexer, Outside, Puzzle, Relation, Rule};

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
    ("arrow", &["circle", "line", "lines"]),
    ("difference", &["cells", "value"]),
    ("ratio", &["cells", "value"]),
    ("xv", &["cells", "value"]),
    ("sum", &["cells", "value"]),
    ("negative", &["relation"]),
    ("odd", &["cell"]),
    ("even", &["cell"]),
    ("minimum", &["cell"]),
    ("maximum", &["cell"]),
    ("candidates", &["cell", "digits"]),
    ("quadruple", &["cells", "digits"]),
    ("little_killer", &["clue", "direction", "sum"]),
    ("sandwich", &["clue", "sum"]),
    ("x_sum", &["clue", "sum"]),
    ("skyscraper", &["clue", "visible"]),
    ("clone", &["cells", "clones"]),
    ("row_indexer", &["cells"]),
    ("column_indexer", &["cells"]),
    ("box_indexer", &["cells"]),
];

/// The fields of a line kind besides `kind`.
const LINE_FIELDS: &[&str] = &["cells", "lines", "difference"];

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
    let mut regions_path = "rules".to_owned();
    for (index, rule) in rules.iter().enumerate() {
        let path = format!("rules[{index}]");
        let fields = rule
            .as_object()
            .ok_or_else(|| malformed(&path, "a rule is an object with a `kind`"))?;
        let kind = fields
            .get("kind")
            .and_then(Value::as_str)
            .ok_or_else(|| malformed(&format!("{path}.kind"), "missing"))?;
        let line = LINES.iter().position(|names| names.native == kind);
        let allowed = match KINDS.iter().find(|(name, _)| *name == kind) {
            Some((_, allowed)) => *allowed,
            None if line.is_some() => LINE_FIELDS,
            None => {
                return Err(VariantInputError::UnsupportedConstraint {
                    path: format!("{path}.kind"),
                    name: kind.to_owned(),
                });
            }
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
        let fields = RuleFields(Fields {
            fields,
            path: &path,
            size,
        });
        if kind == "regions" {
            read_regions(&mut reader, &fields)?;
            regions_path = fields.path_of("layout");
            continue;
        }
        let (rule, names) = match line {
            Some(line) => fields.line_rule(line)?,
            None => (read_rule(kind, &fields)?, FieldNames::SAME),
        };
        reader.add(kind, index, path.clone(), names, rule);
    }
    reader.finish(&regions_path)
}

/// The fields of one native rule object, read with their paths.
struct RuleFields<'a>(Fields<'a>);

impl<'a> std::ops::Deref for RuleFields<'a> {
    type Target = Fields<'a>;

    fn deref(&self) -> &Fields<'a> {
        &self.0
    }
}

impl RuleFields<'_> {
    /// Whether a field is absent or `null`.
    fn absent(&self, key: &str) -> bool {
        self.fields.get(key).is_none_or(Value::is_null)
    }

    fn cells(&self, key: &str) -> Result<Vec<Cell>, VariantInputError> {
        cells(self.get(key)?, &self.path_of(key))
    }

    fn cell(&self, key: &str) -> Result<Cell, VariantInputError> {
        cell(self.get(key)?, &self.path_of(key))
    }

    fn number(&self, key: &str) -> Result<u32, VariantInputError> {
        self.get(key)?
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| malformed(&self.path_of(key), "a whole number, 0 or more"))
    }

    fn optional_number(&self, key: &str) -> Result<Option<u32>, VariantInputError> {
        match self.absent(key) {
            true => Ok(None),
            false => self.number(key).map(Some),
        }
    }

    fn digits(&self, key: &str) -> Result<Vec<u8>, VariantInputError> {
        list(
            self.get(key)?,
            &self.path_of(key),
            "a list of digits",
            |digit, path| {
                digit
                    .as_u64()
                    .and_then(|digit| u8::try_from(digit).ok())
                    .ok_or_else(|| malformed(path, "a digit"))
            },
        )
    }

    /// One of the strings `names`, as the value it stands for.
    fn choice<T: Copy>(&self, key: &str, names: &[(&str, T)]) -> Result<T, VariantInputError> {
        let value = self.get(key)?.as_str();
        names
            .iter()
            .find(|(name, _)| Some(*name) == value)
            .map(|&(_, choice)| choice)
            .ok_or_else(|| {
                let listed: Vec<String> =
                    names.iter().map(|(name, _)| format!("`{name}`")).collect();
                malformed(&self.path_of(key), format!("one of {}", listed.join(", ")))
            })
    }

    /// The lines of a rule: the list of lines under `many`, or the one line under `one`;
    /// with how the input names them.
    fn lines(
        &self,
        one: &'static str,
        many: &'static str,
    ) -> Result<(Vec<Vec<Cell>>, Option<&'static str>), VariantInputError> {
        match (self.absent(one), self.absent(many)) {
            (false, true) => Ok((vec![self.cells(one)?], Some(one))),
            (true, false) => {
                let path = self.path_of(many);
                let lines = list(self.get(many)?, &path, "a list of lines", |line, path| {
                    cells(line, path)
                })?;
                Ok((lines, None))
            }
            _ => Err(malformed(
                self.path,
                format!("a line is given as `{one}` (one line) or `{many}` (several)"),
            )),
        }
    }

    /// A rule of the line kind `LINES[line]`.
    fn line_rule(&self, line: usize) -> Result<(Rule, FieldNames), VariantInputError> {
        let (lines, one_line) = self.lines("cells", "lines")?;
        let kind = forms::line_kind(line, self.optional_number("difference")?, self.size);
        let names = FieldNames {
            renamed: &[],
            one_line,
        };
        Ok((Rule::Line { kind, lines }, names))
    }
}

/// The regions of a `regions` rule.
fn read_regions(reader: &mut Reader, fields: &RuleFields) -> Result<(), VariantInputError> {
    let size = reader.size;
    let layout_path = fields.path_of("layout");
    let layout = fields
        .get("layout")?
        .as_array()
        .filter(|rows| rows.len() == size)
        .ok_or_else(|| {
            malformed(
                &layout_path,
                format!("{size} rows of {size} region numbers (null: no region)"),
            )
        })?;
    for (row, numbers) in layout.iter().enumerate() {
        let numbers = numbers
            .as_array()
            .filter(|numbers| numbers.len() == size)
            .ok_or_else(|| {
                malformed(
                    &format!("{layout_path}[{row}]"),
                    format!("{size} region numbers"),
                )
            })?;
        for (col, number) in numbers.iter().enumerate() {
            let region = match number {
                Value::Null => None,
                number => Some(number.as_u64().filter(|&n| n < 1 << 20).ok_or_else(|| {
                    malformed(
                        &format!("{layout_path}[{row}][{col}]"),
                        "a region number, 0 or more, or null",
                    )
                })? as usize),
            };
            reader.regions_mut()[row * size + col] = region;
        }
    }
    Ok(())
}

/// The rule of one native rule object of `kind` (not a line kind, not `regions`).
fn read_rule(kind: &str, fields: &RuleFields) -> Result<Rule, VariantInputError> {
    Ok(match kind {
        "diagonal" => Rule::Diagonal(fields.choice(
            "direction",
            &[("down", Diagonal::Down), ("up", Diagonal::Up)],
        )?),
        "extra_region" => Rule::ExtraRegion(fields.cells("cells")?),
        "anti_knight" => Rule::AntiKnight,
        "anti_king" => Rule::AntiKing,
        "disjoint_groups" => Rule::DisjointGroups,
        "nonconsecutive" => Rule::NonConsecutive,
        "killer_cage" => Rule::KillerCage {
            cells: fields.cells("cells")?,
            sum: fields.optional_number("sum")?,
        },
        "arrow" => Rule::Arrow {
            circle: fields.cells("circle")?,
            lines: fields.lines("line", "lines")?.0,
        },
        "difference" | "ratio" | "xv" | "sum" => {
            let cells: [Cell; 2] = fields
                .cells("cells")?
                .try_into()
                .map_err(|_| malformed(&fields.path_of("cells"), "a dot joins two cells"))?;
            let relation = match kind {
                "difference" => Relation::Difference(fields.optional_number("value")?.unwrap_or(1)),
                "ratio" => Relation::Ratio(fields.optional_number("value")?.unwrap_or(2)),
                "sum" => Relation::Sum(fields.number("value")?),
                _ => fields.choice("value", &[("X", Relation::X), ("V", Relation::V)])?,
            };
            Rule::Dot { cells, relation }
        }
        "negative" => Rule::Negative(fields.choice("relation", NEGATIVES)?),
        "odd" => Rule::Odd(fields.cell("cell")?),
        "even" => Rule::Even(fields.cell("cell")?),
        "minimum" => Rule::Minimum(fields.cell("cell")?),
        "maximum" => Rule::Maximum(fields.cell("cell")?),
        "candidates" => Rule::Candidates {
            cell: fields.cell("cell")?,
            digits: fields.digits("digits")?,
        },
        "quadruple" => Rule::Quadruple {
            cells: fields.cells("cells")?,
            digits: fields.digits("digits")?,
        },
        "little_killer" => Rule::LittleKiller {
            clue: outside(fields.get("clue")?, &fields.path_of("clue"))?,
            direction: fields.choice(
                "direction",
                &[
                    ("up_left", Direction::UpLeft),
                    ("up_right", Direction::UpRight),
                    ("down_left", Direction::DownLeft),
                    ("down_right", Direction::DownRight),
                ],
            )?,
            sum: fields.number("sum")?,
        },
        "sandwich" | "x_sum" | "skyscraper" => {
            let clue = outside(fields.get("clue")?, &fields.path_of("clue"))?;
            match kind {
                "sandwich" => Rule::Sandwich {
                    clue,
                    sum: fields.number("sum")?,
                },
                "x_sum" => Rule::XSum {
                    clue,
                    sum: fields.number("sum")?,
                },
                _ => Rule::Skyscraper {
                    clue,
                    visible: fields.number("visible")?,
                },
            }
        }
        "clone" => Rule::Clone {
            cells: fields.cells("cells")?,
            clones: fields.cells("clones")?,
        },
        _ => Rule::Indexer {
            indexer: match kind {
                "row_indexer" => Indexer::Row,
                "column_indexer" => Indexer::Column,
                _ => Indexer::Box,
            },
            cells: fields.cells("cells")?,
        },
    })
}

/// A 0-based `{"row", "col"}` pair of whole numbers, each at least `least`.
fn coordinates(value: &Value, path: &str, least: i64) -> Result<(i64, i64), VariantInputError> {
    let coordinate = |key: &str| value.get(key).and_then(Value::as_i64);
    match (
        coordinate("row"),
        coordinate("col"),
        value.as_object().map(Map::len),
    ) {
        (Some(row), Some(col), Some(2))
            if row >= least && col >= least && row < 1 << 20 && col < 1 << 20 =>
        {
            Ok((row, col))
        }
        _ => Err(malformed(
            path,
            match least {
                0 => "a cell is {\"row\": r, \"col\": c}, counting from 0",
                _ => {
                    "an outside clue is {\"row\": r, \"col\": c}, counting from 0: -1 or the size on its side"
                }
            },
        )),
    }
}

/// A 0-based `{"row", "col"}` cell (the model checks that it is inside the grid).
fn cell(value: &Value, path: &str) -> Result<Cell, VariantInputError> {
    let (row, col) = coordinates(value, path, 0)?;
    Ok(Cell {
        row: row as usize,
        col: col as usize,
    })
}

/// A place of an outside clue, 0-based: -1 or the size on its side.
fn outside(value: &Value, path: &str) -> Result<Outside, VariantInputError> {
    let (row, col) = coordinates(value, path, -1)?;
    Ok(Outside {
        row: row as i32,
        col: col as i32,
    })
}

/// A list of cells.
fn cells(value: &Value, path: &str) -> Result<Vec<Cell>, VariantInputError> {
    list(value, path, "a list of cells", cell)
}
