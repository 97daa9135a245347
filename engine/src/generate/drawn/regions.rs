//! Random connected regions, and random full grids within any regions.

use super::Random;
use crate::solver::{Cancellation, Stopped};
use crate::variant::model::{Puzzle, default_regions};
use crate::variant::{self, VariantSolveOptions};

/// Swaps tried per cell of the grid when regions are drawn.
const SWAPS_PER_CELL: usize = 12;

/// Random regions of `size` cells each, every one connected through orthogonal
/// neighbours, as region numbers row-major: f-puzzles' default regions, then cells swapped
/// between neighbouring regions many times over, each swap kept when both regions stay
/// connected.
pub(super) fn random_regions(size: usize, random: &mut Random) -> Vec<usize> {
    let mut regions: Vec<usize> = default_regions(size).into_iter().flatten().collect();
    let cells = size * size;
    for _ in 0..cells * SWAPS_PER_CELL {
        let cell = random.below(cells);
        let neighbours = orthogonal_neighbours(cell, size);
        let other = neighbours[random.below(neighbours.len())];
        let (from, to) = (regions[cell], regions[other]);
        if from == to {
            continue;
        }
        // `cell` joins `other`'s region, and a cell of that region next to `cell`'s region
        // (not `other` itself, unless no other touches it) comes the other way.
        let back: Vec<usize> = (0..cells)
            .filter(|&candidate| regions[candidate] == to && candidate != other)
            .filter(|&candidate| {
                orthogonal_neighbours(candidate, size)
                    .iter()
                    .any(|&next| regions[next] == from && next != cell)
            })
            .collect();
        let Some(&returned) = back.get(random.below(back.len().max(1))) else {
            continue;
        };
        regions[cell] = to;
        regions[returned] = from;
        if !is_connected(&regions, size, from) || !is_connected(&regions, size, to) {
            regions[cell] = from;
            regions[returned] = to;
        }
    }
    regions
}

/// The orthogonal neighbours of `cell` on a grid of `size`.
pub(super) fn orthogonal_neighbours(cell: usize, size: usize) -> Vec<usize> {
    let (row, col) = (cell / size, cell % size);
    let mut neighbours = Vec::with_capacity(4);
    if row > 0 {
        neighbours.push(cell - size);
    }
    if row + 1 < size {
        neighbours.push(cell + size);
    }
    if col > 0 {
        neighbours.push(cell - 1);
    }
    if col + 1 < size {
        neighbours.push(cell + 1);
    }
    neighbours
}

/// Whether the cells of `region` are connected through orthogonal neighbours.
fn is_connected(regions: &[usize], size: usize, region: usize) -> bool {
    let members: Vec<usize> = (0..regions.len())
        .filter(|&cell| regions[cell] == region)
        .collect();
    let mut seen = vec![false; regions.len()];
    let mut stack = vec![members[0]];
    seen[members[0]] = true;
    let mut reached = 1;
    while let Some(cell) = stack.pop() {
        for next in orthogonal_neighbours(cell, size) {
            if regions[next] == region && !seen[next] {
                seen[next] = true;
                reached += 1;
                stack.push(next);
            }
        }
    }
    reached == members.len()
}

/// How many digits a full grid within the default regions starts from, placed at random
/// before the solver completes it.
const RANDOM_DIGITS: usize = 8;

/// The guesses a full grid may take before its regions are given up for others: nearly
/// every grid takes a few dozen, while a few layouts have no full grid, or one that
/// takes the search many seconds to find.
const GRID_GUESSES: u64 = 2_000;

/// A random full grid of `size` within `regions`, row-major, the digits relabelled at
/// random. Within the default regions, a few digits are placed at random where rows,
/// columns and regions allow them, and the variant solver completes the grid; `None` when
/// they leave no solution. Irregular regions are random already, and the solver completes
/// them from an empty grid: placed digits that leave no solution can take it seconds to
/// prove so there.
pub(super) fn full_grid(
    size: usize,
    regions: &[usize],
    random: &mut Random,
    cancel: &Cancellation,
) -> Result<Option<Vec<u8>>, Stopped> {
    let cells = size * size;
    let mut givens: Vec<Option<u8>> = vec![None; cells];
    let irregular = regions.iter().ne(default_regions(size).iter().flatten());
    let placed = if irregular {
        0
    } else {
        RANDOM_DIGITS.min(size)
    };
    for _ in 0..placed {
        let cell = random.below(cells);
        let digit = 1 + random.below(size) as u8;
        let clashes = (0..cells).any(|other| {
            givens[other] == Some(digit)
                && (other / size == cell / size
                    || other % size == cell % size
                    || regions[other] == regions[cell])
        });
        if givens[cell].is_none() && !clashes {
            givens[cell] = Some(digit);
        }
    }
    let regions = regions.iter().map(|&region| Some(region)).collect();
    let puzzle = Puzzle::new(size, givens, Some(regions), Vec::new()).expect("a grid's regions");
    let options = VariantSolveOptions {
        max_guesses: Some(GRID_GUESSES),
        ..VariantSolveOptions::default()
    };
    let answer = variant::solve(&puzzle, &options, cancel).map_err(|_| Stopped)?;
    if cancel.is_cancelled() {
        return Err(Stopped);
    }
    let Some(solution) = answer.solution else {
        return Ok(None);
    };
    let mut digits: Vec<u8> = (1..=size as u8).collect();
    random.shuffle(&mut digits);
    Ok(Some(
        solution
            .iter()
            .map(|&digit| digits[usize::from(digit) - 1])
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_regions_are_connected_and_of_the_grid_s_size() {
        for size in 4..=9 {
            for seed in 0..5 {
                let regions = random_regions(size, &mut Random::new(seed));
                for region in 0..size {
                    let count = regions.iter().filter(|&&r| r == region).count();
                    assert_eq!(count, size, "size {size}, seed {seed}");
                    assert!(is_connected(&regions, size, region));
                }
                let boxes: Vec<usize> = default_regions(size).into_iter().flatten().collect();
                assert_ne!(regions, boxes, "size {size}, seed {seed}");
            }
        }
    }
}
