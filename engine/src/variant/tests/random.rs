//! Random draws for the tests: rules of every kind that a given grid keeps, irregular
//! regions and grids that fill them.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use super::checker::{sandwich, seen, x_sum};
use crate::variant::model::{
    Cell, Diagonal, Direction, Indexer, LineKind, NegativeKind, Outside, Relation, Rule,
    cells_from_clue, little_killer_cells,
};

/// A seeded stream of the draws the tests make.
pub(super) struct Random(ChaCha8Rng);

impl Random {
    pub(super) fn new(seed: u64) -> Self {
        Random(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number below `bound`.
    pub(super) fn below(&mut self, bound: usize) -> usize {
        (self.0.next_u64() % bound as u64) as usize
    }

    /// A number from `low` to `high`.
    pub(super) fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    pub(super) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub(super) fn cell(&mut self, size: usize) -> Cell {
        Cell {
            row: self.below(size),
            col: self.below(size),
        }
    }

    /// `count` different cells.
    pub(super) fn cells(&mut self, size: usize, count: usize) -> Vec<Cell> {
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
    pub(super) fn orthogonal_pair(&mut self, size: usize) -> [Cell; 2] {
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
    pub(super) fn line(&mut self, size: usize, length: usize) -> Vec<Cell> {
        let start = self.cell(size);
        self.line_from(size, start, length)
    }

    /// A path as [`Random::line`] draws it, from `start`.
    fn line_from(&mut self, size: usize, start: Cell, length: usize) -> Vec<Cell> {
        let mut line = vec![start];
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
    pub(super) fn walk(&mut self, size: usize, low: usize, high: usize) -> Vec<Cell> {
        let start = self.cell(size);
        self.walk_from(size, start, low, high)
    }

    /// A path from `start`, from `low` to `high` cells long, each a king's move from the
    /// one before; now and then it comes back to a cell it has passed (a loop).
    pub(super) fn walk_from(
        &mut self,
        size: usize,
        start: Cell,
        low: usize,
        high: usize,
    ) -> Vec<Cell> {
        let length = self.between(low, high);
        let mut line = self.line_from(size, start, length);
        if line.len() >= 4 && self.chance(10) {
            line.push(line[0]);
            if !neighbours(line[line.len() - 2], line[0]) {
                line.pop();
            }
        }
        line
    }

    /// A little killer's clue and direction: just outside the grid, pointing along a
    /// whole diagonal through a random cell.
    pub(super) fn little_killer(&mut self, size: usize) -> (Outside, Direction) {
        let direction = Direction::ALL[self.below(4)];
        let (dr, dc) = direction.step();
        let cell = self.cell(size);
        let (mut r, mut c) = (cell.row as i32, cell.col as i32);
        let inside = |x: i32| (0..size as i32).contains(&x);
        while inside(r - dr) && inside(c - dc) {
            (r, c) = (r - dr, c - dc);
        }
        (
            Outside {
                row: r - dr,
                col: c - dc,
            },
            direction,
        )
    }

    /// An outside clue beside a random row or column.
    pub(super) fn beside(&mut self, size: usize) -> Outside {
        let index = self.below(size) as i32;
        let edge = if self.chance(50) { -1 } else { size as i32 };
        if self.chance(50) {
            Outside {
                row: edge,
                col: index,
            }
        } else {
            Outside {
                row: index,
                col: edge,
            }
        }
    }
}

/// Whether two different cells are a king's move apart.
fn neighbours(a: Cell, b: Cell) -> bool {
    a != b && a.row.abs_diff(b.row) <= 1 && a.col.abs_diff(b.col) <= 1
}

/// A random rule of every kind; sums and counts are often read from `solution`, a grid of
/// the rows and columns, so that they can hold.
pub(super) fn random_rule(random: &mut Random, size: usize, solution: &[u8]) -> Rule {
    let digit = |random: &mut Random| random.between(1, size) as u8;
    let digits = |cells: &[Cell]| -> Vec<u32> {
        cells
            .iter()
            .map(|cell| u32::from(solution[cell.row * size + cell.col]))
            .collect()
    };
    let size32 = size as u32;
    let lines = |random: &mut Random, low: usize, high: usize| -> Vec<Vec<Cell>> {
        let count = if random.chance(20) { 2 } else { 1 };
        (0..count).map(|_| random.walk(size, low, high)).collect()
    };
    let line_rule = |random: &mut Random, kind: LineKind, low: usize, high: usize| Rule::Line {
        kind,
        lines: lines(random, low, high),
    };
    let from_clue = |clue: Outside| digits(&cells_from_clue(clue, size).expect("beside the grid"));
    match random.below(38) {
        0 => Rule::ExtraRegion({
            let count = random.between(2, size + 1);
            random.cells(size, count)
        }),
        1 => Rule::AntiKnight,
        2 => Rule::AntiKing,
        3 => Rule::NonConsecutive,
        4 | 5 => {
            let count = random.between(1, size + 1);
            let cells = random.cells(size, count);
            let sum = match random.below(5) {
                0 => None,
                _ => Some(random.between(1, cells.len() * size + 1) as u32),
            };
            Rule::KillerCage { cells, sum }
        }
        6 | 7 => {
            let pill = random.chance(30);
            let circle = if pill {
                random.line(size, 2)
            } else {
                vec![random.cell(size)]
            };
            let longest = if pill { 2 * size } else { 3 };
            let lines = (0..random.between(1, 2))
                .map(|_| {
                    let mut line = vec![circle[0]];
                    line.extend(
                        random
                            .walk_from(size, circle[0], 1, longest)
                            .into_iter()
                            .skip(1),
                    );
                    line
                })
                .collect();
            Rule::Arrow { circle, lines }
        }
        8 | 9 => {
            let relation = match random.below(5) {
                0 => Relation::Difference(random.between(1, 3) as u32),
                1 => Relation::Ratio(random.between(2, 3) as u32),
                2 => Relation::X,
                3 => Relation::V,
                _ => Relation::Sum(random.between(3, 2 * size - 1) as u32),
            };
            Rule::Dot {
                cells: random.orthogonal_pair(size),
                relation,
            }
        }
        10 => Rule::Negative(match random.below(4) {
            0 => NegativeKind::Difference,
            1 => NegativeKind::Ratio,
            2 => NegativeKind::Xv,
            _ => NegativeKind::Sum,
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
        14 => {
            let mut digits: Vec<u8> = (0..random.between(1, 3)).map(|_| digit(random)).collect();
            digits.sort_unstable();
            digits.dedup();
            Rule::Candidates {
                cell: random.cell(size),
                digits,
            }
        }
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
        16 => line_rule(random, LineKind::Thermometer, 2, size),
        17 => line_rule(random, LineKind::SlowThermometer, 2, size + 1),
        18 => line_rule(random, LineKind::Palindrome, 2, 2 * size),
        19 => line_rule(random, LineKind::Renban, 1, size + 1),
        20 => {
            let difference = random.between(1, size.div_ceil(2)) as u32;
            line_rule(random, LineKind::Whispers(difference), 2, size + 2)
        }
        21 => line_rule(random, LineKind::Between, 1, size),
        22 => line_rule(random, LineKind::RegionSum, 2, size + 3),
        23 => line_rule(random, LineKind::Entropic, 1, size + 2),
        24 => line_rule(random, LineKind::Modular, 1, size + 2),
        25 => line_rule(random, LineKind::Zipper, 1, size + 3),
        26 => line_rule(random, LineKind::DoubleArrow, 1, size + 1),
        27 => {
            let difference = random.between(0, size / 2 + 1) as u32;
            line_rule(random, LineKind::Lockout(difference), 1, size)
        }
        28 => line_rule(random, LineKind::Nabner, 1, size.div_ceil(2) + 1),
        29 => {
            let (clue, direction) = random.little_killer(size);
            let cells = little_killer_cells(clue, direction, size);
            let sum = if random.chance(70) {
                digits(&cells).iter().sum()
            } else {
                random.between(1, cells.len() * size) as u32
            };
            Rule::LittleKiller {
                clue,
                direction,
                sum,
            }
        }
        30 => {
            let clue = random.beside(size);
            let sum = match sandwich(&from_clue(clue), size32) {
                Some(sum) if random.chance(70) => sum,
                _ => random.between(0, size * (size - 1) / 2 - 1) as u32,
            };
            Rule::Sandwich { clue, sum }
        }
        31 => {
            let clue = random.beside(size);
            let sum = match x_sum(&from_clue(clue)) {
                Some(sum) if random.chance(70) => sum,
                _ => random.between(1, size * (size + 1) / 2) as u32,
            };
            Rule::XSum { clue, sum }
        }
        32 => {
            let clue = random.beside(size);
            let visible = if random.chance(70) {
                seen(&from_clue(clue))
            } else {
                random.between(1, size) as u32
            };
            Rule::Skyscraper { clue, visible }
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
        34 => Rule::Diagonal(if random.chance(50) {
            Diagonal::Down
        } else {
            Diagonal::Up
        }),
        35 => Rule::DisjointGroups,
        _ => {
            let indexer = match random.below(3) {
                0 => Indexer::Row,
                1 => Indexer::Column,
                _ => Indexer::Box,
            };
            let cells = if random.chance(50) {
                cells_from_clue(random.beside(size), size).expect("beside the grid")
            } else {
                let count = random.between(1, 3);
                random.cells(size, count)
            };
            Rule::Indexer { indexer, cells }
        }
    }
}

/// Six regions of six cells, each connected, drawn at random.
pub(super) fn irregular_regions(random: &mut Random) -> Vec<Option<usize>> {
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
pub(super) fn random_grid(random: &mut Random, regions: &[Option<usize>]) -> Option<Vec<u8>> {
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
