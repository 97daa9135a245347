//! The names that f-puzzles and the native form give some rules, shared by the readers
//! and the writers.

use super::model::{LineKind, NegativeKind};

/// The names of f-puzzles' `negative` list (the native form's `relation`s), and what each
/// says is all drawn.
pub(crate) const NEGATIVES: &[(&str, NegativeKind)] = &[
    ("difference", NegativeKind::Difference),
    ("ratio", NegativeKind::Ratio),
    ("xv", NegativeKind::Xv),
    ("sum", NegativeKind::Sum),
];

/// A line kind's names: snake_case in the native form, f-puzzles' own in its documents.
pub(crate) struct LineNames {
    /// The native form's `kind`.
    pub native: &'static str,
    /// The f-puzzles array that holds such lines.
    pub fpuzzles: &'static str,
}

/// Every line kind's names, in the order of [`line_kind`]'s index.
pub(crate) const LINES: [LineNames; 13] = [
    names("thermometer", "thermometer"),
    names("slow_thermometer", "slowthermometer"),
    names("palindrome", "palindrome"),
    names("renban", "renban"),
    names("whispers", "whispers"),
    names("between_line", "betweenline"),
    names("region_sum_line", "regionsumline"),
    names("entropic_line", "entropicline"),
    names("modular_line", "modularline"),
    names("zipper_line", "zipperline"),
    names("double_arrow", "doublearrow"),
    names("lockout", "lockout"),
    names("nabner", "nabner"),
];

const fn names(native: &'static str, fpuzzles: &'static str) -> LineNames {
    LineNames { native, fpuzzles }
}

/// The line kind at `index` of [`LINES`], with its value where it has one (`value`, or
/// its default on a grid of `size`: half the size rounded up for whispers, as German
/// whispers are 5 on 9×9, and half rounded down for lockout lines).
pub(crate) fn line_kind(index: usize, value: Option<u32>, size: usize) -> LineKind {
    let size = size as u32;
    match index {
        0 => LineKind::Thermometer,
        1 => LineKind::SlowThermometer,
        2 => LineKind::Palindrome,
        3 => LineKind::Renban,
        4 => LineKind::Whispers(value.unwrap_or(size.div_ceil(2))),
        5 => LineKind::Between,
        6 => LineKind::RegionSum,
        7 => LineKind::Entropic,
        8 => LineKind::Modular,
        9 => LineKind::Zipper,
        10 => LineKind::DoubleArrow,
        11 => LineKind::Lockout(value.unwrap_or(size / 2)),
        _ => LineKind::Nabner,
    }
}

/// The names of a line kind, and its value where it has one.
pub(crate) fn line_names(kind: LineKind) -> (&'static LineNames, Option<u32>) {
    let (index, value) = match kind {
        LineKind::Thermometer => (0, None),
        LineKind::SlowThermometer => (1, None),
        LineKind::Palindrome => (2, None),
        LineKind::Renban => (3, None),
        LineKind::Whispers(difference) => (4, Some(difference)),
        LineKind::Between => (5, None),
        LineKind::RegionSum => (6, None),
        LineKind::Entropic => (7, None),
        LineKind::Modular => (8, None),
        LineKind::Zipper => (9, None),
        LineKind::DoubleArrow => (10, None),
        LineKind::Lockout(difference) => (11, Some(difference)),
        LineKind::Nabner => (12, None),
    };
    (&LINES[index], value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_kind_has_the_names_at_its_index() {
        for (index, expected) in LINES.iter().enumerate() {
            let (names, _) = line_names(line_kind(index, Some(3), 9));
            assert_eq!(names.native, expected.native);
        }
    }
}
