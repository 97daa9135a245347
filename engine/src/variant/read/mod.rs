//! Reading variant puzzles: f-puzzles documents (the object, its lz-string text, or a link
//! that carries it) and the native form (a grid and `rules`), both into one [`Puzzle`],
//! with one typed error that names the bad field's path. The readers check JSON shapes
//! and names; what a rule's cells and values must be, [`Puzzle::new`] checks, once for
//! both forms, and its error is turned into the path of the field as the input wrote it.

mod fpuzzles;
mod link;
mod native;

use serde_json::{Map, Value};
use thiserror::Error;

use super::model::{Constraint, ModelError, Origin, Place, Puzzle, Rule};

pub use fpuzzles::{parse_fpuzzles, parse_fpuzzles_value};
pub use native::parse_native;

/// The largest document or link read, in bytes: far above any real puzzle.
pub const MAX_DOCUMENT_BYTES: usize = 512 * 1024;

/// Why a variant puzzle cannot be read; each names the path of the bad field.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VariantInputError {
    /// A field is missing, of the wrong type, or breaks a rule's shape.
    #[error("{path}: {message}")]
    Malformed {
        /// The JSON path of the bad field.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// A link or text that cannot be turned into an f-puzzles document.
    #[error("{path}: {message}")]
    Link {
        /// The field that held the link.
        path: String,
        /// Why it cannot be read.
        message: String,
    },
    /// A constraint this service does not know: ignoring it would give a wrong answer.
    #[error(
        "{path}: `{name}` is a constraint this service does not know; ignoring it would give wrong answers"
    )]
    UnsupportedConstraint {
        /// Where it stands.
        path: String,
        /// Its name.
        name: String,
    },
    /// The document is larger than 512 KiB.
    #[error("{path}: the document is larger than {MAX_DOCUMENT_BYTES} bytes")]
    TooLarge {
        /// The field that held it.
        path: String,
    },
}

impl VariantInputError {
    /// The JSON path of the bad field.
    pub fn path(&self) -> &str {
        match self {
            Self::Malformed { path, .. }
            | Self::Link { path, .. }
            | Self::UnsupportedConstraint { path, .. }
            | Self::TooLarge { path } => path,
        }
    }
}

/// A [`VariantInputError::Malformed`] at `path`.
fn malformed(path: &str, message: impl Into<String>) -> VariantInputError {
    VariantInputError::Malformed {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Each item of the JSON list `value`, read by `item` with its own path (`path[i]`);
/// `expected` says what the list should hold when `value` is not a list.
fn list<T>(
    value: &Value,
    path: &str,
    expected: &str,
    mut item: impl FnMut(&Value, &str) -> Result<T, VariantInputError>,
) -> Result<Vec<T>, VariantInputError> {
    let items = value.as_array().ok_or_else(|| malformed(path, expected))?;
    items
        .iter()
        .enumerate()
        .map(|(index, value)| item(value, &format!("{path}[{index}]")))
        .collect()
}

/// The fields of one JSON object of a rule, read with their paths.
struct Fields<'a> {
    fields: &'a Map<String, Value>,
    path: &'a str,
    size: usize,
}

impl Fields<'_> {
    /// The path of the field `key`.
    fn path_of(&self, key: &str) -> String {
        format!("{}.{key}", self.path)
    }

    /// A field that is there and not `null`.
    fn get(&self, key: &str) -> Result<&Value, VariantInputError> {
        self.fields
            .get(key)
            .filter(|value| !value.is_null())
            .ok_or_else(|| malformed(&self.path_of(key), "missing"))
    }
}

/// How an input form names a rule's fields: the model's name of a field (`"cells"`,
/// `"lines"`, …) and, when the input wrote one line without a list of lines, that the
/// model's line 0 is the field itself.
pub(super) struct FieldNames {
    /// The input's name for each model field that it names differently.
    pub renamed: &'static [(&'static str, &'static str)],
    /// The input's field that held a rule's only line, when it held no list of lines.
    pub one_line: Option<&'static str>,
}

impl FieldNames {
    /// Fields named as the model names them.
    pub(super) const SAME: FieldNames = FieldNames {
        renamed: &[],
        one_line: None,
    };

    /// The path of a model field (and item) under a rule at `path`.
    fn path(&self, path: &str, field: &str, item: Option<usize>) -> String {
        if let (Some(key), "lines", Some(0)) = (self.one_line, field, item) {
            return format!("{path}.{key}");
        }
        let name = self
            .renamed
            .iter()
            .find(|(model, _)| *model == field)
            .map_or(field, |(_, input)| input);
        match item {
            Some(item) => format!("{path}.{name}[{item}]"),
            None => format!("{path}.{name}"),
        }
    }
}

/// A puzzle being read: its size, givens, regions and rules, each rule with the path and
/// field names of the input that stated it.
struct Reader {
    size: usize,
    givens: Vec<Option<u8>>,
    /// `None` for the default boxes.
    regions: Option<Vec<Option<usize>>>,
    constraints: Vec<Constraint>,
    sources: Vec<(String, FieldNames)>,
}

impl Reader {
    /// An empty grid of `size` (checked) with f-puzzles' default regions.
    fn new(size: usize, path: &str) -> Result<Reader, VariantInputError> {
        if !super::model::SIZES.contains(&size) {
            return Err(malformed(
                path,
                format!("the size must be 3 to 16, not {size}"),
            ));
        }
        Ok(Reader {
            size,
            givens: vec![None; size * size],
            regions: None,
            constraints: Vec::new(),
            sources: Vec::new(),
        })
    }

    /// A digit of the grid, at `path`.
    fn digit(&self, value: i64, path: &str) -> Result<u8, VariantInputError> {
        match u8::try_from(value) {
            Ok(digit) if (1..=self.size).contains(&usize::from(digit)) => Ok(digit),
            _ => Err(malformed(
                path,
                format!(
                    "{value} is not a digit of a {0}×{0} grid: 1 to {0}",
                    self.size
                ),
            )),
        }
    }

    /// The regions being read, starting from the default boxes.
    fn regions_mut(&mut self) -> &mut Vec<Option<usize>> {
        let size = self.size;
        self.regions
            .get_or_insert_with(|| super::model::default_regions(size))
    }

    /// Adds a rule stated as `kind`, the `index`th of the input, at `path`, whose fields
    /// the input names as `names` says.
    fn add(&mut self, kind: &str, index: usize, path: String, names: FieldNames, rule: Rule) {
        self.constraints.push(Constraint {
            origin: Origin {
                kind: kind.to_owned(),
                index,
            },
            rule,
        });
        self.sources.push((path, names));
    }

    /// The finished puzzle; a rule that breaks the model is named by its path, and the
    /// regions by `regions_path`.
    fn finish(self, regions_path: &str) -> Result<Puzzle, VariantInputError> {
        let Reader {
            size,
            givens,
            regions,
            constraints,
            sources,
        } = self;
        Puzzle::new(size, givens, regions, constraints).map_err(|error| {
            let ModelError {
                place,
                field,
                message,
            } = error;
            let path = match place {
                Place::Constraint(index) => {
                    let (path, names) = &sources[index];
                    match field {
                        Some((field, item)) => names.path(path, field, item),
                        None => path.clone(),
                    }
                }
                Place::Size | Place::Given(_) | Place::Regions => regions_path.to_owned(),
            };
            malformed(&path, message)
        })
    }
}
