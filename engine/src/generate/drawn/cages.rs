//! Killer cages: grown over the full grid from random cells, no digit twice in a cage,
//! and for puzzles that the cages alone decide, grown small and then merged while the
//! logic still solves the puzzle within its level.

use super::regions::orthogonal_neighbours;
use super::{Draft, Random};
use crate::logic::Level;
use crate::solver::{Cancellation, Stopped};
use crate::variant::model::Rule;

/// The largest cage on a grid of `size`.
fn largest_cage(size: usize) -> usize {
    size.div_ceil(2) + 1
}

/// Covers the grid with cages of 2 to `largest` cells, in the draft's rules.
pub(super) fn draw_cages(draft: &mut Draft, random: &mut Random) {
    let cages = grow_cages(draft, largest_cage(draft.size), random);
    set_cages(draft, &cages);
}

/// A puzzle of cages and no givens: cages of two to four cells, then neighbouring cages
/// merged, each merge kept while the logic solves the puzzle within `ceiling`, and with
/// `enough`, no longer once the puzzle is of `ceiling` (merges then only make the cages
/// larger, and each check slower). Returns the puzzle's level, or `None` when the small
/// cages leave a cell alone or the logic stalled.
pub(super) fn cages_alone(
    draft: &mut Draft,
    ceiling: Level,
    enough: bool,
    random: &mut Random,
    cancel: &Cancellation,
) -> Result<Option<Level>, Stopped> {
    draft.givens.iter_mut().for_each(|given| *given = None);
    let mut cages = grow_cages(draft, 3, random);
    // A cage of one cell would be a given in all but name.
    if cages.iter().any(|cage| cage.len() == 1) {
        return Ok(None);
    }
    set_cages(draft, &cages);
    let Some(mut level) = draft.level_within(ceiling, cancel)? else {
        return Ok(None);
    };
    let size = draft.size;
    let mut pairs: Vec<(usize, usize)> = (0..size * size)
        .flat_map(|cell| {
            orthogonal_neighbours(cell, size)
                .into_iter()
                .filter(move |&next| next > cell)
                .map(move |next| (cell, next))
        })
        .collect();
    random.shuffle(&mut pairs);
    for (a, b) in pairs {
        if enough && level == ceiling {
            break;
        }
        let owner =
            |cell: usize, cages: &[Vec<usize>]| cages.iter().position(|cage| cage.contains(&cell));
        let (Some(first), Some(second)) = (owner(a, &cages), owner(b, &cages)) else {
            continue;
        };
        if first == second
            || cages[first].len() + cages[second].len() > largest_cage(size)
            || cages[first].iter().any(|&x| {
                cages[second]
                    .iter()
                    .any(|&y| draft.solution[x] == draft.solution[y])
            })
        {
            continue;
        }
        let mut merged = cages.clone();
        let moved = merged.swap_remove(second.max(first));
        merged[second.min(first)].extend(moved);
        set_cages(draft, &merged);
        match draft.level_within(ceiling, cancel)? {
            Some(harder) => {
                cages = merged;
                level = harder;
            }
            None => set_cages(draft, &cages),
        }
    }
    Ok(Some(level))
}

/// Cages over the whole grid: from each cell no cage holds yet, in a random order, a cage
/// grows to a random size of 2 to `largest` cells through orthogonal neighbours whose
/// digits it lacks. A cell left alone joins a neighbouring cage that lacks its digit (one
/// cell past `largest` if need be), or, rarely, stays a cage of one.
fn grow_cages(draft: &Draft, largest: usize, random: &mut Random) -> Vec<Vec<usize>> {
    let size = draft.size;
    let digit = |cell: usize| draft.solution[cell];
    let mut owner: Vec<Option<usize>> = vec![None; size * size];
    let mut cages: Vec<Vec<usize>> = Vec::new();
    let mut order: Vec<usize> = (0..size * size).collect();
    random.shuffle(&mut order);
    for start in order {
        if owner[start].is_some() {
            continue;
        }
        let target = 2 + random.below(largest - 1);
        let mut cage = vec![start];
        owner[start] = Some(cages.len());
        while cage.len() < target {
            let open: Vec<usize> = cage
                .iter()
                .flat_map(|&cell| orthogonal_neighbours(cell, size))
                .filter(|&next| owner[next].is_none())
                .filter(|&next| cage.iter().all(|&cell| digit(cell) != digit(next)))
                .collect();
            let Some(&next) = open.get(random.below(open.len().max(1))) else {
                break;
            };
            owner[next] = Some(cages.len());
            cage.push(next);
        }
        cages.push(cage);
    }
    // Cages of one cell join a neighbour when one can take them.
    for alone in (0..cages.len()).rev() {
        let [cell] = cages[alone][..] else { continue };
        let joined = orthogonal_neighbours(cell, size)
            .into_iter()
            .find_map(|next| {
                let cage = owner[next]?;
                let fits = cages[cage].len() <= largest
                    && cages[cage]
                        .iter()
                        .all(|&member| digit(member) != digit(cell));
                fits.then_some(cage)
            });
        if let Some(cage) = joined {
            cages[cage].push(cell);
            cages[alone].clear();
            owner[cell] = Some(cage);
        }
    }
    cages.retain(|cage| !cage.is_empty());
    cages
}

/// Makes `cages`, with their sums, the draft's rules.
fn set_cages(draft: &mut Draft, cages: &[Vec<usize>]) {
    draft.rules = cages
        .iter()
        .map(|cage| {
            let mut cells: Vec<usize> = cage.clone();
            cells.sort_unstable();
            Rule::KillerCage {
                sum: Some(
                    cells
                        .iter()
                        .map(|&cell| u32::from(draft.solution[cell]))
                        .sum(),
                ),
                cells: cells.into_iter().map(|cell| draft.cell(cell)).collect(),
            }
        })
        .collect();
}
