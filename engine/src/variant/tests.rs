//! The search against brute force: random puzzles with random rules (houses, cages,
//! arrows, dots, negative rules, cell rules), counted by [`solve`] and by enumerating grids
//! that a direct checker of each rule, written here without the propagators, accepts.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use super::model::{Cell, Constraint, Indexer, NegativeKind, Origin, Puzzle, Relation, Rule};
use super::{VariantSolveOptions, check, solve};
use crate::solver::{Cancellation, Order};

struct Random(ChaCha8Rng);

impl Random {
    fn new(seed: u64) -> Self {
        Random(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number below `bound`.
    fn below(&mut self, bound: usize) -> usize {
        (self.0.next_u64() % bound as u64) as usize
    }

    /// A number from `low` to `high`.
    fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn cell(&mut self, size: usize) -> Cell {
        Cell {
            row: self.below(size),
            col: self.below(size),
        }
    }

    /// `count` different cells.
    fn cells(&mut self, size: usize, count: usize) -> Vec<Cell> {
        let mut cells: Vec<Cell> = Vec::new();
        while cells.len() < count {
            let cell = self.cell(size);
            if !cells.contains(&cell) {
                cells.push(cell);
            }
        }
        cells
    }

    /// A cell and its neighbour to the right or below.
    fn orthogonal_pair(&mut self, size: usize) -> [Cell; 2] {
        loop {
            let cell = self.cell(size);
            let other = if self.chance(50) {
                Cell {
                    col: cell.col + 1,
                    ..cell
                }
            } else {
                Cell {
                    row: cell.row + 1,
                    ..cell
                }
            };
            if other.row < size && other.col < size {
                return if self.chance(50) {
                    [cell, other]
                } else {
                    [other, cell]
                };
            }
        }
    }

    /// A path of up to `length` different cells, each a king's move from the one before
    /// (shorter when it gets stuck).
    fn line(&mut self, size: usize, length: usize) -> Vec<Cell> {
        let mut line = vec![self.cell(size)];
        while line.len() < length {
            let last = line[line.len() - 1];
            let steps: Vec<Cell> = (0..9)
                .map(|step| {
                    (
                        last.row as isize + step / 3 - 1,
                        last.col as isize + step % 3 - 1,
                    )
                })
                .filter(|&(r, c)| {
                    (0..size as isize).contains(&r) && (0..size as isize).contains(&c)
                })
                .map(|(r, c)| Cell {
                    row: r as usize,
                    col: c as usize,
                })
                .filter(|cell| !line.contains(cell))
                .collect();
            if steps.is_empty() {
                break;
            }
            line.push(steps[self.below(steps.len())]);
        }
        line
    }

    /// A path as [`Random::line`] draws it, from `low` to `high` cells long.
    fn walk(&mut self, size: usize, low: usize, high: usize) -> Vec<Cell> {
        let length = self.between(low, high);
        self.line(size, length)
    }

    /// A whole diagonal from an edge of the grid to the other, through a random cell.
    fn diagonal(&mut self, size: usize) -> Vec<Cell> {
        let (dr, dc): (isize, isize) = (
            if self.chance(50) { 1 } else { -1 },
            if self.chance(50) { 1 } else { -1 },
        );
        let inside =
            |r: isize, c: isize| (0..size as isize).contains(&r) && (0..size as isize).contains(&c);
        let cell = self.cell(size);
        let (mut r, mut c) = (cell.row as isize, cell.col as isize);
        while inside(r - dr, c - dc) {
            (r, c) = (r - dr, c - dc);
        }
        let mut cells = Vec::new();
        while inside(r, c) {
            cells.push(Cell {
                row: r as usize,
                col: c as usize,
            });
            (r, c) = (r + dr, c + dc);
        }
        cells
    }

    /// A whole row or column, read from a random side.
    fn whole_line(&mut self, size: usize) -> Vec<Cell> {
        let index = self.below(size);
        let mut cells: Vec<Cell> = if self.chance(50) {
            (0..size).map(|col| Cell { row: index, col }).collect()
        } else {
            (0..size).map(|row| Cell { row, col: index }).collect()
        };
        if self.chance(50) {
            cells.reverse();
        }
        cells
    }
}

/// A random rule of every kind; sums and counts are often read from `solution`, a grid of
/// the rows and columns, so that they can hold.
fn random_rule(random: &mut Random, size: usize, solution: &[u8]) -> Rule {
    let digit = |random: &mut Random| random.between(1, size) as u8;
    let digits = |cells: &[Cell]| -> Vec<u32> {
        cells
            .iter()
            .map(|cell| u32::from(solution[cell.row * size + cell.col]))
            .collect()
    };
    let size32 = size as u32;
    match random.below(35) {
        0 => Rule::Distinct {
            cells: {
                let count = random.between(2, size + 1);
                random.cells(size, count)
            },
        },
        1 => Rule::AntiKnight,
        2 => Rule::AntiKing,
        3 => Rule::NonConsecutive,
        4 | 5 => {
            let count = random.between(1, size + 1);
            let cells = random.cells(size, count);
            let sum = match random.below(5) {
                0 => None,
                1 => Some(0),
                _ => Some(random.between(1, cells.len() * size + 1) as u32),
            };
            Rule::KillerCage { cells, sum }
        }
        6 | 7 => {
            let pill = random.chance(30);
            let circle_len = if pill { 2 } else { 1 };
            let line_len = if pill {
                random.between(2, 2 * size)
            } else {
                random.between(0, 3)
            };
            let mut cells = random.cells(size, circle_len + line_len);
            let line = cells.split_off(circle_len);
            Rule::Arrow {
                circle: cells,
                line,
            }
        }
        8 | 9 => {
            let relation = match random.below(3) {
                0 => Relation::Difference(random.between(1, 3) as u32),
                1 => Relation::Ratio(random.between(2, 3) as u32),
                _ => Relation::Sum(random.between(3, 2 * size - 1) as u32),
            };
            Rule::Dot {
                cells: random.orthogonal_pair(size),
                relation,
            }
        }
        10 => Rule::Negative(match random.below(3) {
            0 => NegativeKind::Difference,
            1 => NegativeKind::Ratio,
            _ => NegativeKind::Xv,
        }),
        11 => Rule::Odd(random.cell(size)),
        12 => Rule::Even(random.cell(size)),
        13 => {
            if random.chance(50) {
                Rule::Minimum(random.cell(size))
            } else {
                Rule::Maximum(random.cell(size))
            }
        }
        14 => Rule::Candidates {
            cell: random.cell(size),
            digits: (0..random.between(1, 3))
                .map(|_| random.between(1, size + 1) as u8)
                .collect(),
        },
        15 => {
            let (row, col) = (random.below(size - 1), random.below(size - 1));
            let cells = vec![
                Cell { row, col },
                Cell { row, col: col + 1 },
                Cell { row: row + 1, col },
                Cell {
                    row: row + 1,
                    col: col + 1,
                },
            ];
            let digits = (0..random.between(1, 4)).map(|_| digit(random)).collect();
            Rule::Quadruple { cells, digits }
        }
        16 => Rule::Thermometer(random.walk(size, 2, size)),
        17 => Rule::SlowThermometer(random.walk(size, 2, size + 1)),
        18 => Rule::Palindrome(random.walk(size, 2, 2 * size)),
        19 => Rule::Renban(random.walk(size, 1, size + 1)),
        20 => Rule::Whispers {
            cells: random.walk(size, 2, size + 2),
            difference: random.between(1, size.div_ceil(2)) as u32,
        },
        21 => Rule::Between(random.walk(size, 1, size)),
        22 => Rule::RegionSumLine(random.walk(size, 2, size + 3)),
        23 => Rule::EntropicLine(random.walk(size, 1, size + 2)),
        24 => Rule::ModularLine(random.walk(size, 1, size + 2)),
        25 => Rule::ZipperLine(random.walk(size, 1, size + 3)),
        26 => Rule::DoubleArrow(random.walk(size, 1, size + 1)),
        27 => Rule::Lockout {
            cells: random.walk(size, 1, size),
            difference: random.between(0, size / 2 + 1) as u32,
        },
        28 => Rule::Nabner(random.walk(size, 1, size.div_ceil(2) + 1)),
        29 => {
            let cells = random.diagonal(size);
            let sum = if random.chance(70) {
                digits(&cells).iter().sum()
            } else {
                random.between(1, cells.len() * size) as u32
            };
            Rule::LittleKiller { cells, sum }
        }
        30 => {
            let cells = random.whole_line(size);
            let sum = match sandwich(&digits(&cells), size32) {
                Some(sum) if random.chance(70) => sum,
                _ => random.between(0, size * (size - 1) / 2 - 1) as u32,
            };
            Rule::Sandwich { cells, sum }
        }
        31 => {
            let cells = random.whole_line(size);
            let sum = match x_sum(&digits(&cells)) {
                Some(sum) if random.chance(70) => sum,
                _ => random.between(1, size * (size + 1) / 2) as u32,
            };
            Rule::XSum { cells, sum }
        }
        32 => {
            let cells = random.whole_line(size);
            let visible = if random.chance(70) {
                seen(&digits(&cells))
            } else {
                random.between(1, size) as u32
            };
            Rule::Skyscraper { cells, visible }
        }
        33 => {
            let count = random.between(1, size);
            let (cells, clones) = if random.chance(70) {
                // A shape and its copy moved elsewhere, as drawn in puzzles.
                let cells = random.line(size, count);
                let (dr, dc) = (random.below(size), random.below(size));
                let clones = cells
                    .iter()
                    .map(|cell| Cell {
                        row: (cell.row + dr) % size,
                        col: (cell.col + dc) % size,
                    })
                    .collect();
                (cells, clones)
            } else {
                (random.cells(size, count), random.cells(size, count))
            };
            Rule::Clone { cells, clones }
        }
        _ => {
            let indexer = match random.below(3) {
                0 => Indexer::Row,
                1 => Indexer::Column,
                _ => Indexer::Box,
            };
            let cells = if random.chance(50) {
                random.whole_line(size)
            } else {
                let count = random.between(1, 3);
                random.cells(size, count)
            };
            Rule::Indexer { indexer, cells }
        }
    }
}

/// The sum between the one 1 and the one `size` of `digits`; none unless each is there once.
fn sandwich(digits: &[u32], size: u32) -> Option<u32> {
    let one: Vec<usize> = (0..digits.len()).filter(|&i| digits[i] == 1).collect();
    let top: Vec<usize> = (0..digits.len()).filter(|&i| digits[i] == size).collect();
    match (one.as_slice(), top.as_slice()) {
        (&[a], &[b]) => Some(digits[a.min(b) + 1..a.max(b)].iter().sum()),
        _ => None,
    }
}

/// The sum of the first x digits, x the first digit; none when there are fewer.
fn x_sum(digits: &[u32]) -> Option<u32> {
    let x = *digits.first()? as usize;
    (x <= digits.len()).then(|| digits[..x].iter().sum())
}

/// How many digits are higher than every digit before them.
fn seen(digits: &[u32]) -> u32 {
    let mut highest = 0;
    let mut seen = 0;
    for &digit in digits {
        if digit > highest {
            highest = digit;
            seen += 1;
        }
    }
    seen
}

/// Whether the filled `grid` satisfies `rule`, among the puzzle's `constraints` and with
/// its `regions`: the rules read directly, as the peer states them.
fn satisfied(
    rule: &Rule,
    constraints: &[Constraint],
    grid: &[u8],
    size: usize,
    regions: &[Option<usize>],
) -> bool {
    let at = |cell: Cell| u32::from(grid[cell.row * size + cell.col]);
    let read = |cells: &[Cell]| cells.iter().map(|&cell| at(cell)).collect::<Vec<u32>>();
    let region = |cell: Cell| regions[cell.row * size + cell.col];
    // Cells fewer than three apart on the line are in different classes (every run of
    // three holds all three; a line of two, two of them).
    let three_classes = |cells: &[Cell], class: &dyn Fn(u32) -> u32| {
        let digits = read(cells);
        (0..digits.len())
            .all(|i| (i + 1..digits.len().min(i + 3)).all(|j| class(digits[i]) != class(digits[j])))
    };
    let equal_sums = |sums: &[u32]| sums.windows(2).all(|pair| pair[0] == pair[1]);
    let distinct = |cells: &[Cell]| {
        cells.len() > size
            || cells
                .iter()
                .enumerate()
                .all(|(i, &a)| cells[i + 1..].iter().all(|&b| a == b || at(a) != at(b)))
    };
    let orthogonal_pairs = || {
        (0..size * size).flat_map(move |index| {
            let cell = Cell {
                row: index / size,
                col: index % size,
            };
            let right = Cell {
                col: cell.col + 1,
                ..cell
            };
            let below = Cell {
                row: cell.row + 1,
                ..cell
            };
            [right, below]
                .into_iter()
                .filter(move |other| other.row < size && other.col < size)
                .map(move |other| (cell, other))
        })
    };
    let dots = || {
        constraints
            .iter()
            .filter_map(|constraint| match constraint.rule {
                Rule::Dot { cells, relation } => Some((cells, relation)),
                _ => None,
            })
    };
    let has_dot = |a: Cell, b: Cell, family: &dyn Fn(Relation) -> bool| {
        dots().any(|(cells, relation)| family(relation) && (cells == [a, b] || cells == [b, a]))
    };
    let kropki =
        |relation: Relation| matches!(relation, Relation::Difference(_) | Relation::Ratio(_));
    let xv = |relation: Relation| matches!(relation, Relation::Sum(_));
    let holds = |relation: Relation, a: u32, b: u32| match relation {
        Relation::Difference(difference) => a.abs_diff(b) == difference,
        Relation::Ratio(ratio) => a * ratio == b || b * ratio == a,
        Relation::Sum(sum) => a + b == sum,
    };
    let neighbours = |cell: Cell| {
        [(-1, 0), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .map(move |(dr, dc): (isize, isize)| (cell.row as isize + dr, cell.col as isize + dc))
            .filter(|&(r, c)| (0..size as isize).contains(&r) && (0..size as isize).contains(&c))
            .map(|(r, c)| Cell {
                row: r as usize,
                col: c as usize,
            })
    };
    let chess = |moves: &[(isize, isize)]| {
        (0..size * size).all(|index| {
            let (row, col) = ((index / size) as isize, (index % size) as isize);
            moves.iter().all(|&(dr, dc)| {
                let (r, c) = (row + dr, col + dc);
                !(0..size as isize).contains(&r)
                    || !(0..size as isize).contains(&c)
                    || grid[index] != grid[r as usize * size + c as usize]
            })
        })
    };
    match rule {
        Rule::Distinct { cells } => distinct(cells),
        Rule::AntiKnight => chess(&[
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ]),
        Rule::AntiKing => chess(&[
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
        ]),
        Rule::NonConsecutive => {
            orthogonal_pairs().all(|(a, b)| has_dot(a, b, &kropki) || at(a).abs_diff(at(b)) != 1)
        }
        Rule::KillerCage { cells, sum } => {
            distinct(cells)
                && match sum {
                    Some(sum) if *sum > 0 => {
                        cells.iter().map(|&cell| at(cell)).sum::<u32>() == *sum
                    }
                    _ => true,
                }
        }
        Rule::Arrow { circle, line } => {
            let number: String = circle.iter().map(|&cell| at(cell).to_string()).collect();
            let number: u64 = if number.is_empty() {
                0
            } else {
                number.parse().unwrap()
            };
            line.iter().map(|&cell| u64::from(at(cell))).sum::<u64>() == number
        }
        Rule::Dot { cells, relation } => holds(*relation, at(cells[0]), at(cells[1])),
        Rule::Negative(kind) => {
            let (family, forbidden): (&dyn Fn(Relation) -> bool, Vec<Relation>) = match kind {
                NegativeKind::Difference => (
                    &kropki,
                    dots()
                        .map(|(_, relation)| relation)
                        .filter(|relation| matches!(relation, Relation::Difference(_)))
                        .collect(),
                ),
                NegativeKind::Ratio => (
                    &kropki,
                    dots()
                        .map(|(_, relation)| relation)
                        .filter(|relation| matches!(relation, Relation::Ratio(_)))
                        .chain([Relation::Ratio(2)])
                        .collect(),
                ),
                NegativeKind::Xv => (&xv, vec![Relation::Sum(5), Relation::Sum(10)]),
            };
            orthogonal_pairs().all(|(a, b)| {
                has_dot(a, b, family)
                    || forbidden
                        .iter()
                        .all(|&relation| !holds(relation, at(a), at(b)))
            })
        }
        Rule::Odd(cell) => at(*cell) % 2 == 1,
        Rule::Even(cell) => at(*cell) % 2 == 0,
        Rule::Minimum(cell) | Rule::Maximum(cell) => {
            let minimum = matches!(rule, Rule::Minimum(_));
            neighbours(*cell).all(|other| {
                let same_kind = constraints.iter().any(|constraint| match constraint.rule {
                    Rule::Minimum(marked) => minimum && marked == other,
                    Rule::Maximum(marked) => !minimum && marked == other,
                    _ => false,
                });
                same_kind
                    || if minimum {
                        at(*cell) < at(other)
                    } else {
                        at(*cell) > at(other)
                    }
            })
        }
        Rule::Candidates { cell, digits } => digits.contains(&(at(*cell) as u8)),
        Rule::Quadruple { cells, digits } => digits.iter().all(|&digit| {
            let listed = digits.iter().filter(|&&other| other == digit).count();
            cells
                .iter()
                .filter(|&&cell| at(cell) == u32::from(digit))
                .count()
                >= listed
        }),
        Rule::Thermometer(cells) => read(cells).windows(2).all(|pair| pair[0] < pair[1]),
        Rule::SlowThermometer(cells) => read(cells).windows(2).all(|pair| pair[0] <= pair[1]),
        Rule::Palindrome(cells) => {
            let digits = read(cells);
            digits.iter().eq(digits.iter().rev())
        }
        Rule::Renban(cells) => {
            let mut digits = read(cells);
            digits.sort_unstable();
            digits.windows(2).all(|pair| pair[1] == pair[0] + 1)
        }
        Rule::Whispers { cells, difference } => read(cells)
            .windows(2)
            .all(|pair| pair[0].abs_diff(pair[1]) >= *difference),
        Rule::Between(cells) => {
            let digits = read(cells);
            digits.len() < 3 || {
                let (first, last) = (digits[0], digits[digits.len() - 1]);
                let (low, high) = (first.min(last), first.max(last));
                digits[1..digits.len() - 1]
                    .iter()
                    .all(|&digit| low < digit && digit < high)
            }
        }
        Rule::RegionSumLine(cells) => {
            let mut runs: Vec<(usize, u32)> = Vec::new();
            for &cell in cells {
                let Some(region) = region(cell) else {
                    continue;
                };
                match runs.last_mut() {
                    Some((last, sum)) if *last == region => *sum += at(cell),
                    _ => runs.push((region, at(cell))),
                }
            }
            let sums: Vec<u32> = runs.iter().map(|&(_, sum)| sum).collect();
            equal_sums(&sums)
        }
        Rule::EntropicLine(cells) => {
            let s = size as u32;
            let low = if 2 * (s / 3) + s.div_ceil(3) == s {
                s / 3
            } else {
                s.div_ceil(3)
            };
            three_classes(cells, &|digit| {
                if digit <= low {
                    0
                } else if digit > s - low {
                    2
                } else {
                    1
                }
            })
        }
        Rule::ModularLine(cells) => three_classes(cells, &|digit| digit % 3),
        Rule::ZipperLine(cells) => {
            let digits = read(cells);
            let n = digits.len();
            let mut sums: Vec<u32> = (0..n / 2).map(|i| digits[i] + digits[n - 1 - i]).collect();
            if n % 2 == 1 {
                sums.push(digits[n / 2]);
            }
            equal_sums(&sums)
        }
        Rule::DoubleArrow(cells) => {
            let digits = read(cells);
            let n = digits.len();
            n <= 2 || digits[0] + digits[n - 1] == digits[1..n - 1].iter().sum::<u32>()
        }
        Rule::Lockout { cells, difference } => {
            let digits = read(cells);
            digits.len() < 2 || {
                let (first, last) = (digits[0], digits[digits.len() - 1]);
                let (low, high) = (first.min(last), first.max(last));
                high - low >= *difference
                    && digits[1..digits.len() - 1]
                        .iter()
                        .all(|&digit| digit < low || digit > high)
            }
        }
        Rule::Nabner(cells) => {
            let digits = read(cells);
            (0..digits.len())
                .all(|i| (i + 1..digits.len()).all(|j| digits[i].abs_diff(digits[j]) >= 2))
        }
        Rule::LittleKiller { cells, sum } => read(cells).iter().sum::<u32>() == *sum,
        Rule::Sandwich { cells, sum } => sandwich(&read(cells), size as u32) == Some(*sum),
        Rule::XSum { cells, sum } => x_sum(&read(cells)) == Some(*sum),
        Rule::Skyscraper { cells, visible } => seen(&read(cells)) == *visible,
        Rule::Clone { cells, clones } => read(cells) == read(clones),
        // As the peer reads indexers (dclamage's RowIndexerConstraint and its kin): the
        // digit names a row of the cell's column, a column of its row, or a position of its
        // region, which holds the cell's own row, column or position (counted from 1).
        Rule::Indexer { indexer, cells } => cells.iter().all(|&cell| {
            let digit = at(cell) as usize;
            match indexer {
                Indexer::Row => {
                    at(Cell {
                        row: digit - 1,
                        ..cell
                    }) as usize
                        == cell.row + 1
                }
                Indexer::Column => {
                    at(Cell {
                        col: digit - 1,
                        ..cell
                    }) as usize
                        == cell.col + 1
                }
                Indexer::Box => region(cell).is_none_or(|own| {
                    let members: Vec<Cell> = (0..size * size)
                        .map(|index| Cell {
                            row: index / size,
                            col: index % size,
                        })
                        .filter(|&other| region(other) == Some(own))
                        .collect();
                    let position = members.iter().position(|&other| other == cell).unwrap();
                    at(members[digit - 1]) as usize == position + 1
                }),
            }
        }),
    }
}

/// Whether the filled `grid` keeps every rule of `puzzle` and its givens (rows, columns
/// and regions are the caller's).
fn keeps(puzzle: &Puzzle, grid: &[u8]) -> bool {
    puzzle
        .givens
        .iter()
        .zip(grid)
        .all(|(given, digit)| given.is_none_or(|given| given == *digit))
        && puzzle.constraints.iter().all(|constraint| {
            satisfied(
                &constraint.rule,
                &puzzle.constraints,
                grid,
                puzzle.size,
                &puzzle.regions,
            )
        })
}

/// Every Latin square of `size`, and, when `regions` is given, only those whose regions
/// hold different digits.
fn all_grids(size: usize, regions: Option<&[Option<usize>]>) -> Vec<Vec<u8>> {
    let puzzle = Puzzle {
        size,
        givens: vec![None; size * size],
        regions: regions.map_or_else(|| vec![None; size * size], <[_]>::to_vec),
        constraints: Vec::new(),
    };
    let mut found = Vec::new();
    fill(&mut Vec::new(), &puzzle, &mut found, usize::MAX);
    found
}

/// Counts, up to `limit`, the grids of `puzzle` (rows, columns, regions, givens and rules)
/// by plain backtracking, checking the rules on each filled grid.
fn count_plainly(puzzle: &Puzzle, limit: usize) -> usize {
    let mut found = Vec::new();
    fill(&mut Vec::new(), puzzle, &mut found, limit);
    found.len()
}

/// Fills `grid` on from its length in reading order with the givens and different digits
/// in each row, column and region, and collects (up to `limit`) the filled grids that keep
/// the rules.
fn fill(grid: &mut Vec<u8>, puzzle: &Puzzle, found: &mut Vec<Vec<u8>>, limit: usize) {
    let size = puzzle.size;
    if found.len() >= limit {
        return;
    }
    let index = grid.len();
    if index == size * size {
        if keeps(puzzle, grid) {
            found.push(grid.clone());
        }
        return;
    }
    let (row, col) = (index / size, index % size);
    for digit in 1..=size as u8 {
        if puzzle.givens[index].is_some_and(|given| given != digit) {
            continue;
        }
        let clash = (0..index).any(|other| {
            grid[other] == digit
                && (other / size == row
                    || other % size == col
                    || (puzzle.regions[other].is_some()
                        && puzzle.regions[other] == puzzle.regions[index]))
        });
        if !clash {
            grid.push(digit);
            fill(grid, puzzle, found, limit);
            grid.pop();
        }
    }
}

fn constraint(index: usize, rule: Rule) -> Constraint {
    Constraint {
        origin: Origin {
            kind: "random".into(),
            index,
        },
        rule,
    }
}

fn box_regions(size: usize, width: usize, height: usize) -> Vec<Option<usize>> {
    (0..size * size)
        .map(|cell| Some(cell / size / height * (size / width) + cell % size / width))
        .collect()
}

/// Compares everything [`solve`] says about `puzzle` with `grids`, its solutions found by
/// brute force (in reading order).
fn compare(puzzle: &Puzzle, grids: &[Vec<u8>], cap: u32, context: &str) {
    let options = VariantSolveOptions {
        order: Order::Fastest,
        max_solutions: 1000,
        true_candidates: Some(cap),
    };
    let answer = solve(puzzle, &options, &Cancellation::none()).unwrap();
    assert_eq!(answer.solution_count, grids.len() as u64, "{context}");
    assert!(answer.count_exact, "{context}");
    if let Some(solution) = &answer.solution {
        assert!(
            grids.contains(solution),
            "{context}: {solution:?} is no solution"
        );
    }
    let lexicographic = VariantSolveOptions {
        order: Order::Lexicographic,
        max_solutions: 1,
        true_candidates: None,
    };
    let smallest = solve(puzzle, &lexicographic, &Cancellation::none()).unwrap();
    assert_eq!(smallest.solution.as_ref(), grids.iter().min(), "{context}");
    let cells = puzzle.size * puzzle.size;
    let mut expected = vec![vec![0u32; puzzle.size]; cells];
    for grid in grids {
        for (cell, &digit) in grid.iter().enumerate() {
            expected[cell][usize::from(digit) - 1] += 1;
        }
    }
    let candidates: Vec<Vec<u8>> = expected
        .iter()
        .map(|counts| {
            (1..)
                .zip(counts)
                .filter(|(_, n)| **n > 0)
                .map(|(d, _)| d)
                .collect()
        })
        .collect();
    assert_eq!(answer.true_candidates, Some(candidates), "{context}");
    let counts: Option<Vec<Vec<u32>>> = (cap > 1).then(|| {
        expected
            .iter()
            .map(|counts| {
                counts
                    .iter()
                    .filter(|&&n| n > 0)
                    .map(|&n| n.min(cap))
                    .collect()
            })
            .collect()
    });
    assert_eq!(answer.true_candidate_counts, counts, "{context}");
}

#[test]
fn four_by_four_against_every_grid() {
    let boxes = box_regions(4, 2, 2);
    let none = vec![None; 16];
    let with_boxes = all_grids(4, Some(&boxes));
    let latin = all_grids(4, None);
    assert_eq!((with_boxes.len(), latin.len()), (288, 576));
    let mut random = Random::new(20261128);
    let mut solvable = 0;
    for round in 0..4000 {
        let boxed = random.chance(70);
        let (regions, grids) = if boxed {
            (&boxes, &with_boxes)
        } else {
            (&none, &latin)
        };
        let mut givens = vec![None; 16];
        let source = &grids[random.below(grids.len())];
        for _ in 0..random.below(4) {
            let cell = random.below(16);
            givens[cell] = Some(if random.chance(80) {
                source[cell]
            } else {
                random.between(1, 4) as u8
            });
        }
        let constraints = (0..random.between(1, 4))
            .map(|index| constraint(index, random_rule(&mut random, 4, source)))
            .collect();
        let puzzle = Puzzle {
            size: 4,
            givens,
            regions: regions.clone(),
            constraints,
        };
        let solutions: Vec<Vec<u8>> = grids
            .iter()
            .filter(|grid| keeps(&puzzle, grid))
            .cloned()
            .collect();
        solvable += usize::from(!solutions.is_empty());
        let cap = random.between(1, 4) as u32;
        compare(
            &puzzle,
            &solutions,
            cap,
            &format!("round {round}: {puzzle:?}"),
        );
        if solutions.is_empty() {
            continue;
        }
        // Whatever a solution's givens, no rule is broken by them.
        let mut filled = puzzle.clone();
        filled.givens = solutions[0].iter().map(|&digit| Some(digit)).collect();
        assert_eq!(check(&filled), Vec::new(), "round {round}: {filled:?}");
    }
    assert!(solvable > 1000, "only {solvable} puzzles had a solution");
}

#[test]
fn filled_grids_break_exactly_the_rules_they_break() {
    let boxes = box_regions(4, 2, 2);
    let latin = all_grids(4, None);
    let mut random = Random::new(7);
    for round in 0..3000 {
        let grid = &latin[random.below(latin.len())];
        let constraints: Vec<Constraint> = (0..random.between(1, 4))
            .map(|index| constraint(index, random_rule(&mut random, 4, grid)))
            .collect();
        let puzzle = Puzzle {
            size: 4,
            givens: grid.iter().map(|&digit| Some(digit)).collect(),
            regions: boxes.clone(),
            constraints,
        };
        let broken = check(&puzzle);
        let mut expected: Vec<(String, usize)> = (0..4)
            .filter(|&region| {
                let cells: Vec<usize> = (0..16)
                    .filter(|&cell| boxes[cell] == Some(region))
                    .collect();
                cells
                    .iter()
                    .enumerate()
                    .any(|(i, &a)| cells[i + 1..].iter().any(|&b| grid[a] == grid[b]))
            })
            .map(|region| ("region".to_string(), region))
            .collect();
        expected.extend(
            puzzle
                .constraints
                .iter()
                .filter(|constraint| {
                    !satisfied(&constraint.rule, &puzzle.constraints, grid, 4, &boxes)
                })
                .map(|constraint| (constraint.origin.kind.clone(), constraint.origin.index)),
        );
        let named: Vec<(String, usize)> = broken
            .into_iter()
            .map(|broken| (broken.kind, broken.index))
            .collect();
        assert_eq!(named, expected, "round {round}: {puzzle:?}");
    }
}

/// Six regions of six cells, each connected, drawn at random.
fn irregular_regions(random: &mut Random) -> Vec<Option<usize>> {
    'attempt: loop {
        let mut regions: Vec<Option<usize>> = vec![None; 36];
        for (region, cell) in random.cells(6, 6).into_iter().enumerate() {
            regions[cell.row * 6 + cell.col] = Some(region);
        }
        for _ in 0..30 {
            let growing: Vec<usize> = (0..6)
                .filter(|&region| regions.iter().filter(|&&r| r == Some(region)).count() < 6)
                .collect();
            let region = growing[random.below(growing.len())];
            let frontier: Vec<usize> = (0..36)
                .filter(|&cell| regions[cell].is_none())
                .filter(|&cell| {
                    let (row, col) = (cell / 6, cell % 6);
                    [(0, 1), (2, 1), (1, 0), (1, 2)].iter().any(|&(dr, dc)| {
                        let (r, c) = (row + dr, col + dc);
                        (1..=6).contains(&r)
                            && (1..=6).contains(&c)
                            && regions[(r - 1) * 6 + c - 1] == Some(region)
                    })
                })
                .collect();
            if frontier.is_empty() {
                continue 'attempt;
            }
            regions[frontier[random.below(frontier.len())]] = Some(region);
        }
        return regions;
    }
}

/// A random solution of the rows, columns and regions.
fn random_grid(random: &mut Random, regions: &[Option<usize>]) -> Option<Vec<u8>> {
    fn fill(
        random: &mut Random,
        grid: &mut Vec<u8>,
        regions: &[Option<usize>],
        budget: &mut usize,
    ) -> bool {
        let index = grid.len();
        if index == 36 {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let mut digits: Vec<u8> = (1..=6).collect();
        for i in (1..6).rev() {
            digits.swap(i, random.below(i + 1));
        }
        for digit in digits {
            let clash = (0..index).any(|other| {
                grid[other] == digit
                    && (other / 6 == index / 6
                        || other % 6 == index % 6
                        || regions[other] == regions[index])
            });
            if !clash {
                grid.push(digit);
                if fill(random, grid, regions, budget) {
                    return true;
                }
                grid.pop();
            }
        }
        false
    }
    let mut grid = Vec::new();
    fill(random, &mut grid, regions, &mut 100_000).then_some(grid)
}

#[test]
fn six_by_six_irregular_against_backtracking() {
    let mut random = Random::new(36);
    let mut rounds = 0;
    while rounds < 300 {
        let regions = irregular_regions(&mut random);
        let Some(grid) = random_grid(&mut random, &regions) else {
            continue;
        };
        rounds += 1;
        let mut constraints = Vec::new();
        for index in 0..random.between(1, 5) {
            let rule = random_rule(&mut random, 6, &grid);
            let keep = random.chance(30) || satisfied(&rule, &constraints, &grid, 6, &regions);
            if keep {
                constraints.push(constraint(index, rule));
            }
        }
        let mut givens = vec![None; 36];
        for _ in 0..random.between(12, 20) {
            let cell = random.below(36);
            givens[cell] = Some(grid[cell]);
        }
        let puzzle = Puzzle {
            size: 6,
            givens,
            regions,
            constraints,
        };
        let limit = 200;
        let expected = count_plainly(&puzzle, limit);
        let options = VariantSolveOptions {
            order: if random.chance(50) {
                Order::Fastest
            } else {
                Order::Lexicographic
            },
            max_solutions: limit as u64,
            true_candidates: None,
        };
        let answer = solve(&puzzle, &options, &Cancellation::none()).unwrap();
        assert_eq!(
            answer.solution_count, expected as u64,
            "round {rounds}: {puzzle:?}"
        );
        assert_eq!(
            answer.count_exact,
            expected < limit,
            "round {rounds}: {puzzle:?}"
        );
        if let Some(solution) = answer.solution {
            assert!(keeps(&puzzle, &solution), "round {rounds}: {solution:?}");
        }
    }
}

#[test]
fn a_time_limit_stops_a_count_on_a_large_empty_grid() {
    let killer = Rule::KillerCage {
        cells: vec![
            Cell { row: 0, col: 0 },
            Cell { row: 0, col: 1 },
            Cell { row: 1, col: 0 },
        ],
        sum: Some(40),
    };
    let dot = Rule::Dot {
        cells: [Cell { row: 5, col: 5 }, Cell { row: 5, col: 6 }],
        relation: Relation::Ratio(2),
    };
    let puzzle = Puzzle {
        size: 16,
        givens: vec![None; 256],
        regions: box_regions(16, 4, 4),
        constraints: [Rule::AntiKing, killer, dot]
            .into_iter()
            .enumerate()
            .map(|(index, rule)| constraint(index, rule))
            .collect(),
    };
    let options = VariantSolveOptions {
        max_solutions: u64::MAX,
        ..VariantSolveOptions::default()
    };
    let started = Instant::now();
    let limited = Cancellation::none().with_time_limit(Duration::from_millis(200));
    let answer = solve(&puzzle, &options, &limited).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(answer.solution_count >= 1);
    assert!(!answer.count_exact);
    let solution = answer.solution.unwrap();
    let grid: Vec<u8> = solution.clone();
    assert!(puzzle.constraints.iter().all(|c| satisfied(
        &c.rule,
        &puzzle.constraints,
        &grid,
        16,
        &puzzle.regions
    )));
    // True candidates stop in time too, finished or not.
    let candidates = VariantSolveOptions {
        true_candidates: Some(100),
        ..options
    };
    let started = Instant::now();
    let answer = solve(&puzzle, &candidates, &limited);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(answer.is_err_and(|stopped| stopped == crate::solver::Stopped));
}
