//! Reading variant puzzles: f-puzzles documents (the object, its lz-string text, or a link
//! that carries it) and the native form (a grid and `rules`), both into one [`Puzzle`],
//! with one set of shape checks and one typed error that names the bad field's path.

mod fpuzzles;
mod link;
mod lz_string;
mod native;

use serde_json::Value;
use thiserror::Error;

use super::model::{Cell, Constraint, Origin, Puzzle, Rule};

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

/// The sizes a variant grid may have.
const SIZES: std::ops::RangeInclusive<usize> = 3..=16;

/// A puzzle being read: its size, regions and the constraints so far, each checked as it
/// is added.
struct Reader {
    size: usize,
    givens: Vec<Option<u8>>,
    regions: Vec<Option<usize>>,
    constraints: Vec<Constraint>,
}

impl Reader {
    /// An empty grid of `size` (checked) with f-puzzles' default regions.
    fn new(size: usize, path: &str) -> Result<Reader, VariantInputError> {
        if !SIZES.contains(&size) {
            return Err(malformed(
                path,
                format!("the size must be 3 to 16, not {size}"),
            ));
        }
        let height = (1..=size)
            .filter(|h| size.is_multiple_of(*h) && h * h <= size)
            .max()
            .unwrap_or(1);
        let width = size / height;
        let regions = (0..size * size)
            .map(|cell| Some((cell / size / height) * height + (cell % size) / width))
            .collect();
        Ok(Reader {
            size,
            givens: vec![None; size * size],
            regions,
            constraints: Vec::new(),
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

    /// Checks that `cells` hold no cell twice.
    fn distinct(&self, cells: &[Cell], path: &str) -> Result<(), VariantInputError> {
        for (index, cell) in cells.iter().enumerate() {
            if cells[..index].contains(cell) {
                let name = format!("R{}C{}", cell.row + 1, cell.col + 1);
                return Err(malformed(
                    &format!("{path}[{index}]"),
                    format!("{name} is listed twice"),
                ));
            }
        }
        Ok(())
    }

    /// Checks a line: at least two cells, none twice, each a neighbour of the one before
    /// (diagonal steps count).
    fn line(&self, cells: &[Cell], path: &str) -> Result<(), VariantInputError> {
        if cells.len() < 2 {
            return Err(malformed(path, "a line needs at least two cells"));
        }
        self.distinct(cells, path)?;
        for (index, pair) in cells.windows(2).enumerate() {
            if pair[0].row.abs_diff(pair[1].row) > 1 || pair[0].col.abs_diff(pair[1].col) > 1 {
                return Err(malformed(
                    &format!("{path}[{}]", index + 1),
                    "a line's cells must each neighbour the one before (diagonal steps count)",
                ));
            }
        }
        Ok(())
    }

    /// Checks a killer cage: no more cells than digits, and a sum that its cells can make.
    fn cage(&self, cells: &[Cell], sum: Option<u32>, path: &str) -> Result<(), VariantInputError> {
        self.distinct(cells, &format!("{path}.cells"))?;
        if cells.is_empty() || cells.len() > self.size {
            return Err(malformed(
                &format!("{path}.cells"),
                format!("a cage holds 1 to {} cells", self.size),
            ));
        }
        if let Some(sum) = sum {
            let count = cells.len() as u32;
            let size = self.size as u32;
            let lowest = count * (count + 1) / 2;
            let highest = count * (2 * size - count + 1) / 2;
            if !(lowest..=highest).contains(&sum) {
                return Err(malformed(
                    &format!("{path}.value"),
                    format!(
                        "{count} different digits add up to {lowest} to {highest}, never {sum}"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Checks that two cells are orthogonal neighbours.
    fn pair(&self, cells: [Cell; 2], path: &str) -> Result<(), VariantInputError> {
        let apart = cells[0].row.abs_diff(cells[1].row) + cells[0].col.abs_diff(cells[1].col);
        if apart != 1 {
            return Err(malformed(path, "a dot joins two orthogonal neighbours"));
        }
        Ok(())
    }

    /// Checks that each region that exists has `size` cells.
    fn check_regions(&self, path: &str) -> Result<(), VariantInputError> {
        let mut counts = std::collections::BTreeMap::new();
        for region in self.regions.iter().flatten() {
            *counts.entry(*region).or_insert(0usize) += 1;
        }
        match counts.iter().find(|&(_, &count)| count != self.size) {
            Some((region, count)) => Err(malformed(
                path,
                format!(
                    "region {region} has {count} cells; every region has {}",
                    self.size
                ),
            )),
            None => Ok(()),
        }
    }

    /// Adds a rule stated as `kind`, the `index`th of the input.
    fn add(&mut self, kind: &str, index: usize, rule: Rule) {
        self.constraints.push(Constraint {
            origin: Origin {
                kind: kind.to_owned(),
                index,
            },
            rule,
        });
    }

    /// The groups of cells at the same place in their regions (disjoint groups).
    fn disjoint_groups(&self) -> Vec<Vec<Cell>> {
        let mut seen = std::collections::BTreeMap::<usize, usize>::new();
        let mut groups: Vec<Vec<Cell>> = vec![Vec::new(); self.size];
        for cell in 0..self.size * self.size {
            if let Some(region) = self.regions[cell] {
                let place = seen.entry(region).or_insert(0);
                if *place < self.size {
                    groups[*place].push(Cell {
                        row: cell / self.size,
                        col: cell % self.size,
                    });
                }
                *place += 1;
            }
        }
        groups
    }

    /// The whole row or column next to an outside clue at (`row`, `col`) (row or column 0
    /// or `size + 1`), read from the clue.
    fn read_from_clue(
        &self,
        row: usize,
        col: usize,
        path: &str,
    ) -> Result<Vec<Cell>, VariantInputError> {
        let size = self.size;
        let at = |row, col| Cell { row, col };
        let inside = |x: usize| (1..=size).contains(&x);
        let cells: Vec<Cell> = match (row, col) {
            (0, c) if inside(c) => (0..size).map(|r| at(r, c - 1)).collect(),
            (r, c) if r == size + 1 && inside(c) => (0..size).rev().map(|r| at(r, c - 1)).collect(),
            (r, 0) if inside(r) => (0..size).map(|c| at(r - 1, c)).collect(),
            (r, c) if c == size + 1 && inside(r) => (0..size).rev().map(|c| at(r - 1, c)).collect(),
            _ => {
                return Err(malformed(
                    path,
                    "an outside clue stands just outside the grid, beside a row or column",
                ));
            }
        };
        Ok(cells)
    }

    /// The finished puzzle.
    fn finish(self, path: &str) -> Result<Puzzle, VariantInputError> {
        self.check_regions(path)?;
        Ok(Puzzle {
            size: self.size,
            givens: self.givens,
            regions: self.regions,
            constraints: self.constraints,
        })
    }
}
