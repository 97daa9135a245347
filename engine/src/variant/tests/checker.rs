//! The rules read directly, as the peer states them, without the propagators: the
//! tests' judge of whether a filled grid keeps a puzzle.

use crate::variant::model::{
    Cell, Constraint, Diagonal, Indexer, LineKind, NegativeKind, Outside, Puzzle, Relation, Rule,
    cells_from_clue, little_killer_cells,
};

/// The sum between the one 1 and the one `size` of `digits`; none unless each is there once.
pub(super) fn sandwich(digits: &[u32], size: u32) -> Option<u32> {
    let one: Vec<usize> = (0..digits.len()).filter(|&i| digits[i] == 1).collect();
    let top: Vec<usize> = (0..digits.len()).filter(|&i| digits[i] == size).collect();
    match (one.as_slice(), top.as_slice()) {
        (&[a], &[b]) => Some(digits[a.min(b) + 1..a.max(b)].iter().sum()),
        _ => None,
    }
}

/// The sum of the first x digits, x the first digit; none when there are fewer.
pub(super) fn x_sum(digits: &[u32]) -> Option<u32> {
    let x = *digits.first()? as usize;
    (x <= digits.len()).then(|| digits[..x].iter().sum())
}

/// How many digits are higher than every digit before them.
pub(super) fn seen(digits: &[u32]) -> u32 {
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
pub(super) fn satisfied(
    rule: &Rule,
    constraints: &[Constraint],
    grid: &[u8],
    size: usize,
    regions: &[Option<usize>],
) -> bool {
    let at = |cell: Cell| u32::from(grid[cell.row * size + cell.col]);
    let read = |cells: &[Cell]| cells.iter().map(|&cell| at(cell)).collect::<Vec<u32>>();
    let region = |cell: Cell| regions[cell.row * size + cell.col];
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
    let xv = |relation: Relation| matches!(relation, Relation::X | Relation::V);
    let sum_dot = |relation: Relation| matches!(relation, Relation::Sum(_));
    let holds = |relation: Relation, a: u32, b: u32| match relation {
        Relation::Difference(difference) => a.abs_diff(b) == difference,
        Relation::Ratio(ratio) => a * ratio == b || b * ratio == a,
        Relation::X => a + b == 10,
        Relation::V => a + b == 5,
        Relation::Sum(sum) => a + b == sum,
    };
    let cells_of = |index: usize| Cell {
        row: index / size,
        col: index % size,
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
        Rule::Diagonal(diagonal) => distinct(
            &(0..size)
                .map(|i| match diagonal {
                    Diagonal::Down => Cell { row: i, col: i },
                    Diagonal::Up => Cell {
                        row: size - 1 - i,
                        col: i,
                    },
                })
                .collect::<Vec<Cell>>(),
        ),
        Rule::ExtraRegion(cells) => distinct(cells),
        Rule::DisjointGroups => (0..size).all(|place| {
            let mut group = Vec::new();
            let mut numbers: Vec<usize> = regions.iter().flatten().copied().collect();
            numbers.sort_unstable();
            numbers.dedup();
            for number in numbers {
                let members: Vec<usize> = (0..size * size)
                    .filter(|&index| regions[index] == Some(number))
                    .collect();
                if members.len() == size {
                    group.push(cells_of(members[place]));
                }
            }
            distinct(&group)
        }),
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
        Rule::Arrow { circle, lines } => {
            let number: String = circle.iter().map(|&cell| at(cell).to_string()).collect();
            let number: u64 = number.parse().unwrap();
            lines.iter().all(|line| {
                let shaft = line.iter().skip_while(|cell| circle.contains(cell));
                shaft.map(|&cell| u64::from(at(cell))).sum::<u64>() == number
            })
        }
        Rule::Dot { cells, relation } => holds(*relation, at(cells[0]), at(cells[1])),
        Rule::Negative(kind) => {
            let (family, forbidden): (&dyn Fn(Relation) -> bool, Vec<Relation>) = match kind {
                NegativeKind::Difference => (
                    &kropki,
                    dots()
                        .map(|(_, relation)| relation)
                        .filter(|relation| matches!(relation, Relation::Difference(_)))
                        .chain([Relation::Difference(1)])
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
                NegativeKind::Xv => (&xv, vec![Relation::V, Relation::X]),
                NegativeKind::Sum => (
                    &sum_dot,
                    dots()
                        .map(|(_, relation)| relation)
                        .filter(|&relation| sum_dot(relation))
                        .collect(),
                ),
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
        Rule::Line { kind, lines } => lines
            .iter()
            .all(|cells| on_line(*kind, cells, &read, &region, size)),
        Rule::LittleKiller {
            clue,
            direction,
            sum,
        } => {
            read(&little_killer_cells(*clue, *direction, size))
                .iter()
                .sum::<u32>()
                == *sum
        }
        Rule::Sandwich { clue, sum } => {
            sandwich(&read(&from_clue(*clue, size)), size as u32) == Some(*sum)
        }
        Rule::XSum { clue, sum } => x_sum(&read(&from_clue(*clue, size))) == Some(*sum),
        Rule::Skyscraper { clue, visible } => seen(&read(&from_clue(*clue, size))) == *visible,
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

/// Whether the digits on one line of `kind` keep it: `read` gives the digits of cells,
/// `region` their regions.
fn on_line(
    kind: LineKind,
    cells: &[Cell],
    read: &dyn Fn(&[Cell]) -> Vec<u32>,
    region: &dyn Fn(Cell) -> Option<usize>,
    size: usize,
) -> bool {
    let at = |cell: Cell| read(&[cell])[0];
    // Cells fewer than three apart on the line are in different classes (every run of
    // three holds all three; a line of two, two of them).
    let three_classes = |cells: &[Cell], class: &dyn Fn(u32) -> u32| {
        let digits = read(cells);
        (0..digits.len())
            .all(|i| (i + 1..digits.len().min(i + 3)).all(|j| class(digits[i]) != class(digits[j])))
    };
    let equal_sums = |sums: &[u32]| sums.windows(2).all(|pair| pair[0] == pair[1]);
    match kind {
        LineKind::Thermometer => read(cells).windows(2).all(|pair| pair[0] < pair[1]),
        LineKind::SlowThermometer => read(cells).windows(2).all(|pair| pair[0] <= pair[1]),
        LineKind::Palindrome => {
            let digits = read(cells);
            digits.iter().eq(digits.iter().rev())
        }
        LineKind::Renban => {
            let mut digits = read(cells);
            digits.sort_unstable();
            digits.windows(2).all(|pair| pair[1] == pair[0] + 1)
        }
        LineKind::Whispers(difference) => read(cells)
            .windows(2)
            .all(|pair| pair[0].abs_diff(pair[1]) >= difference),
        LineKind::Between => {
            let digits = read(cells);
            digits.len() < 3 || {
                let (first, last) = (digits[0], digits[digits.len() - 1]);
                let (low, high) = (first.min(last), first.max(last));
                digits[1..digits.len() - 1]
                    .iter()
                    .all(|&digit| low < digit && digit < high)
            }
        }
        LineKind::RegionSum => {
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
        LineKind::Entropic => {
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
        LineKind::Modular => three_classes(cells, &|digit| digit % 3),
        LineKind::Zipper => {
            let digits = read(cells);
            let n = digits.len();
            let mut sums: Vec<u32> = (0..n / 2).map(|i| digits[i] + digits[n - 1 - i]).collect();
            if n % 2 == 1 {
                sums.push(digits[n / 2]);
            }
            equal_sums(&sums)
        }
        LineKind::DoubleArrow => {
            let digits = read(cells);
            let n = digits.len();
            n <= 2 || digits[0] + digits[n - 1] == digits[1..n - 1].iter().sum::<u32>()
        }
        LineKind::Lockout(difference) => {
            let digits = read(cells);
            digits.len() < 2 || {
                let (first, last) = (digits[0], digits[digits.len() - 1]);
                let (low, high) = (first.min(last), first.max(last));
                high - low >= difference
                    && digits[1..digits.len() - 1]
                        .iter()
                        .all(|&digit| digit < low || digit > high)
            }
        }
        LineKind::Nabner => {
            let digits = read(cells);
            (0..digits.len())
                .all(|i| (i + 1..digits.len()).all(|j| digits[i].abs_diff(digits[j]) >= 2))
        }
    }
}

/// The cells of the row or column beside an outside clue, read from it.
fn from_clue(clue: Outside, size: usize) -> Vec<Cell> {
    cells_from_clue(clue, size).expect("a clue beside a row or column")
}

/// Whether the filled `grid` keeps every rule of `puzzle` and its givens (rows, columns
/// and regions are the caller's).
pub(super) fn keeps(puzzle: &Puzzle, grid: &[u8]) -> bool {
    puzzle
        .givens()
        .iter()
        .zip(grid)
        .all(|(given, digit)| given.is_none_or(|given| given == *digit))
        && puzzle.constraints().iter().all(|constraint| {
            satisfied(
                &constraint.rule,
                puzzle.constraints(),
                grid,
                puzzle.size(),
                puzzle.regions(),
            )
        })
}
