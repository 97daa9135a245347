//! Writing a puzzle back in either input form, as it was read: the native form (a grid
//! and `rules`, which is also how a [`Puzzle`] serialises) and an f-puzzles document,
//! with its lz-string text and link.

mod fpuzzles;
mod native;

use serde::{Serialize, Serializer};
use serde_json::{Value, json};

use super::lz_string::compress_to_base64;
use super::model::{Cell, Outside, Puzzle};

impl Puzzle {
    /// The puzzle in the native form: `{"grid": …, "rules": […]}`, as `POST /solve` takes
    /// it.
    pub fn to_native(&self) -> Value {
        native::document(self)
    }

    /// The puzzle as an f-puzzles document.
    pub fn to_fpuzzles(&self) -> Value {
        fpuzzles::document(self)
    }

    /// The f-puzzles document as lz-string text, as f-puzzles puts it after `?load=`.
    pub fn to_fpuzzles_text(&self) -> String {
        compress_to_base64(&self.to_fpuzzles().to_string())
    }

    /// A link that opens the puzzle on f-puzzles.
    pub fn to_fpuzzles_link(&self) -> String {
        format!(
            "https://www.f-puzzles.com/?load={}",
            self.to_fpuzzles_text()
        )
    }
}

impl super::model::Rule {
    /// The rule's `kind` in the native form (`killer_cage`, `diagonal`, …).
    pub fn kind(&self) -> &'static str {
        native::kind(self)
    }
}

impl Serialize for Puzzle {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_native().serialize(serializer)
    }
}

/// A 0-based cell as the native form writes it.
fn native_cell(cell: Cell) -> Value {
    json!({ "row": cell.row, "col": cell.col })
}

/// An outside clue's place as the native form writes it.
fn native_outside(clue: Outside) -> Value {
    json!({ "row": clue.row, "col": clue.col })
}

/// A cell as f-puzzles names it (`R1C1`); outside clues too, from row or column 0.
fn cell_name(row: i64, col: i64) -> Value {
    Value::String(format!("R{}C{}", row + 1, col + 1))
}
