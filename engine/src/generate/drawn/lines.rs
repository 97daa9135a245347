//! Thermometers and arrows drawn along the full grid's digits, and kropki dots wherever
//! two neighbours are consecutive or one is twice the other.

use super::{Draft, DrawnKind, Random};
use crate::variant::model::{LineKind, NegativeKind, Relation, Rule};

/// Tries to draw one line before giving up on it.
const LINE_TRIES: usize = 40;

/// Draws the first lines of a thermometer or arrow puzzle: one for every two digits of
/// the grid's size, on cells no line holds yet.
pub(super) fn draw_lines(draft: &mut Draft, kind: DrawnKind, random: &mut Random) {
    let cells = draft.size * draft.size;
    for _ in 0..draft.size / 2 {
        let starts: Vec<usize> = (0..LINE_TRIES).map(|_| random.below(cells)).collect();
        add_line(draft, kind, &starts, random);
    }
}

/// Adds a line of `kind` through one of `cells` (tried in a random order), or failing
/// that anywhere; false when none fits, or the kind has no lines.
pub(super) fn add_line(
    draft: &mut Draft,
    kind: DrawnKind,
    cells: &[usize],
    random: &mut Random,
) -> bool {
    let mut starts = cells.to_vec();
    random.shuffle(&mut starts);
    let anywhere = (0..LINE_TRIES).map(|_| random.below(draft.size * draft.size));
    let starts: Vec<usize> = starts.into_iter().chain(anywhere).collect();
    for start in starts {
        let rule = match kind {
            DrawnKind::Thermometer => thermometer(draft, start, random),
            DrawnKind::Arrow => arrow(draft, start, random),
            _ => return false,
        };
        if let Some(rule) = rule {
            draft.rules.push(rule);
            return true;
        }
    }
    false
}

/// The cells that lines hold already.
fn on_lines(draft: &Draft) -> Vec<bool> {
    let mut taken = vec![false; draft.size * draft.size];
    for rule in &draft.rules {
        let lines = match rule {
            Rule::Line { lines, .. } | Rule::Arrow { lines, .. } => lines,
            _ => continue,
        };
        for cell in lines.iter().flatten() {
            taken[cell.row * draft.size + cell.col] = true;
        }
    }
    taken
}

/// The cells next to `cell`, diagonals included, that no line holds.
fn free_neighbours(draft: &Draft, taken: &[bool], cell: usize) -> Vec<usize> {
    let size = draft.size as isize;
    let (row, col) = ((cell / draft.size) as isize, (cell % draft.size) as isize);
    (-1..=1)
        .flat_map(|dr| (-1..=1).map(move |dc| (row + dr, col + dc)))
        .filter(|&(r, c)| (r, c) != (row, col) && (0..size).contains(&r) && (0..size).contains(&c))
        .map(|(r, c)| (r * size + c) as usize)
        .filter(|&next| !taken[next])
        .collect()
}

/// A thermometer of 3 to 6 cells through `through`, grown both ways: towards the bulb
/// through smaller digits, towards the tip through larger ones.
fn thermometer(draft: &Draft, through: usize, random: &mut Random) -> Option<Rule> {
    let mut taken = on_lines(draft);
    if taken[through] {
        return None;
    }
    taken[through] = true;
    let target = 3 + random.below(4);
    let mut line = std::collections::VecDeque::from([through]);
    let digit = |cell: usize| draft.solution[cell];
    while line.len() < target {
        let (bulb, tip) = (line[0], line[line.len() - 1]);
        let mut ends: Vec<(usize, bool)> = free_neighbours(draft, &taken, tip)
            .into_iter()
            .filter(|&next| digit(next) > digit(tip))
            .map(|next| (next, true))
            .chain(
                free_neighbours(draft, &taken, bulb)
                    .into_iter()
                    .filter(|&next| digit(next) < digit(bulb))
                    .map(|next| (next, false)),
            )
            .collect();
        if ends.is_empty() {
            break;
        }
        random.shuffle(&mut ends);
        let (next, at_tip) = ends[0];
        taken[next] = true;
        match at_tip {
            true => line.push_back(next),
            false => line.push_front(next),
        }
    }
    (line.len() >= 3).then(|| Rule::Line {
        kind: LineKind::Thermometer,
        lines: vec![line.into_iter().map(|cell| draft.cell(cell)).collect()],
    })
}

/// An arrow whose circle is `circle`: a line of 2 to 4 cells from it, through cells no
/// line holds, whose digits add up to the circle's.
fn arrow(draft: &Draft, circle: usize, random: &mut Random) -> Option<Rule> {
    let mut taken = on_lines(draft);
    if taken[circle] || draft.solution[circle] < 3 {
        return None;
    }
    taken[circle] = true;
    let mut path = Vec::new();
    if !arrow_path(
        draft,
        &mut taken,
        circle,
        u32::from(draft.solution[circle]),
        &mut path,
        random,
    ) {
        return None;
    }
    let line = std::iter::once(circle).chain(path);
    Some(Rule::Arrow {
        circle: vec![draft.cell(circle)],
        lines: vec![line.map(|cell| draft.cell(cell)).collect()],
    })
}

/// Extends `path` from `from` through free cells until its digits add up to `left`, with
/// 2 to 4 cells in all; false when no such path exists.
fn arrow_path(
    draft: &Draft,
    taken: &mut [bool],
    from: usize,
    left: u32,
    path: &mut Vec<usize>,
    random: &mut Random,
) -> bool {
    let mut next = free_neighbours(draft, taken, from);
    random.shuffle(&mut next);
    for cell in next {
        let digit = u32::from(draft.solution[cell]);
        if digit > left || path.len() == 4 {
            continue;
        }
        path.push(cell);
        taken[cell] = true;
        if (digit == left && path.len() >= 2)
            || (digit < left && arrow_path(draft, taken, cell, left - digit, path, random))
        {
            return true;
        }
        path.pop();
        taken[cell] = false;
    }
    false
}

/// Every kropki dot the full grid has: white between consecutive neighbours, black where
/// one is twice the other (black for 1 and 2, which are both), with both negative rules,
/// so that neighbours without a dot are neither.
pub(super) fn draw_dots(draft: &mut Draft) {
    let size = draft.size;
    for cell in 0..size * size {
        let right = (cell % size + 1 < size).then_some(cell + 1);
        let below = (cell + size < size * size).then_some(cell + size);
        for next in [right, below].into_iter().flatten() {
            let (a, b) = (draft.solution[cell], draft.solution[next]);
            let relation = if a == 2 * b || b == 2 * a {
                Relation::Ratio(2)
            } else if a.abs_diff(b) == 1 {
                Relation::Difference(1)
            } else {
                continue;
            };
            draft.rules.push(Rule::Dot {
                cells: [draft.cell(cell), draft.cell(next)],
                relation,
            });
        }
    }
    draft.rules.push(Rule::Negative(NegativeKind::Difference));
    draft.rules.push(Rule::Negative(NegativeKind::Ratio));
}
