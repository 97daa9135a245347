//! The rule model: a variant puzzle as its setter drew it, whatever form it came in.
//!
//! A [`Puzzle`] is made only by [`Puzzle::new`], which checks every cell, line and value
//! against the grid, so that the search never meets a rule it cannot apply. Rules keep
//! what was drawn (a diagonal, a thermometer's branches, an outside clue and the way it
//! points), not what the solver makes of them, so that a puzzle can be written back in
//! either input form exactly as it was read. A rule list is a set: global rules (a
//! diagonal, anti-knight, a negative rule, …) count once however often they are stated,
//! and no rule's meaning depends on where it stands in the list.

use std::fmt;

use serde::Serialize;

/// A cell, 0-based: `row` and `col` are below the grid's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Cell {
    /// The row, from 0 at the top.
    pub row: usize,
    /// The column, from 0 at the left.
    pub col: usize,
}

/// A place just outside the grid where an outside clue is written, 0-based like a cell:
/// its row or column is -1 or the grid's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Outside {
    /// The row: -1 above the grid, the size below it.
    pub row: i32,
    /// The column: -1 left of the grid, the size right of it.
    pub col: i32,
}

/// A variant puzzle: a square grid of `size` (3 to 16), its givens, its regions and its
/// rules. Classic Sudoku of that size is the puzzle with default regions and no rules.
///
/// Two puzzles are equal when they have the same size, givens, regions and rules,
/// whatever the order of the rules and wherever the input stated them ([`Origin`]).
#[derive(Debug, Clone)]
pub struct Puzzle {
    size: usize,
    givens: Vec<Option<u8>>,
    regions: Vec<Option<usize>>,
    constraints: Vec<Constraint>,
}

/// One rule of a puzzle and where the input stated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// Where the input stated this rule.
    pub origin: Origin,
    /// What the rule requires.
    pub rule: Rule,
}

/// Where a constraint came from: the kind as the input named it (`"killercage"` in
/// f-puzzles, `"killer_cage"` in the native form) and its index among the input's
/// constraints of that form (the position in the f-puzzles array of that kind, or in the
/// native `rules` array).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// The kind's name in the input.
    pub kind: String,
    /// The position in the input.
    pub index: usize,
}

/// Which main diagonal a diagonal rule covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Diagonal {
    /// From the top left to the bottom right (f-puzzles' `diagonal-`).
    Down,
    /// From the bottom left to the top right (f-puzzles' `diagonal+`).
    Up,
}

/// The way a little killer clue points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Up and to the left.
    UpLeft,
    /// Up and to the right.
    UpRight,
    /// Down and to the left.
    DownLeft,
    /// Down and to the right.
    DownRight,
}

impl Direction {
    /// Every direction.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];

    /// The step in rows and columns.
    pub fn step(self) -> (i32, i32) {
        match self {
            Direction::UpLeft => (-1, -1),
            Direction::UpRight => (-1, 1),
            Direction::DownLeft => (1, -1),
            Direction::DownRight => (1, 1),
        }
    }
}

/// The relation that a dot states between two orthogonal neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// The digits differ by exactly this much (a white kropki dot, 1 unless it says).
    Difference(u32),
    /// One digit is this many times the other (a black kropki dot, 2 unless it says).
    Ratio(u32),
    /// The digits add up to 10 (an X of an XV puzzle).
    X,
    /// The digits add up to 5 (a V of an XV puzzle).
    V,
    /// The digits add up to this (a sum dot).
    Sum(u32),
}

impl Relation {
    /// Whether digits `a` and `b` stand in this relation.
    pub fn holds(self, a: u32, b: u32) -> bool {
        match self {
            Relation::Difference(difference) => a.abs_diff(b) == difference,
            Relation::Ratio(ratio) => a * ratio == b || b * ratio == a,
            Relation::X => a + b == 10,
            Relation::V => a + b == 5,
            Relation::Sum(sum) => a + b == sum,
        }
    }
}

/// Which dots a negative rule says are all drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NegativeKind {
    /// Every white kropki dot is drawn.
    Difference,
    /// Every black kropki dot is drawn.
    Ratio,
    /// Every X and every V is drawn.
    Xv,
    /// Every sum dot is drawn.
    Sum,
}

/// Which line an indexer cell indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Indexer {
    /// f-puzzles' `rowindexer`: the digit v in row r, column c names a row of its column:
    /// row v of column c holds r (counting from 1).
    Row,
    /// f-puzzles' `columnindexer`: the digit v in row r, column c names a column of its
    /// row: column v of row r holds c (counting from 1).
    Column,
    /// The digit v at place p of its region (reading order, from 1) says that place v of
    /// the region holds p.
    Box,
}

/// The rule a line states along its cells (each kind as f-puzzles names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LineKind {
    /// Digits strictly increase from the bulb (the first cell).
    Thermometer,
    /// Digits never decrease from the bulb (the first cell).
    SlowThermometer,
    /// The line reads the same from either end.
    Palindrome,
    /// The line holds a set of different consecutive digits, in any order.
    Renban,
    /// Neighbours on the line differ by at least this much.
    Whispers(u32),
    /// Digits strictly between the two end circles' digits, in value.
    Between,
    /// Each region the line passes through holds the same sum of the line's cells.
    RegionSum,
    /// Every run of three cells holds a low, a middle and a high digit (the digits split
    /// into three groups as the peer splits them).
    Entropic,
    /// Every run of three cells holds digits of three residues modulo 3.
    Modular,
    /// Cells at the same distance from the line's centre add up to the same sum.
    Zipper,
    /// The two ends add up to the sum of the cells between them.
    DoubleArrow,
    /// The end circles differ by at least this much; no cell between them holds a digit
    /// between the ends' digits, inclusive.
    Lockout(u32),
    /// No two digits on the line are equal or consecutive.
    Nabner,
}

/// What a rule requires. Semantics follow f-puzzles and dclamage's solvers; for sizes
/// other than 9, each rule means what it means there.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// The cells of a main diagonal hold different digits.
    Diagonal(Diagonal),
    /// These cells hold different digits (an extra region).
    ExtraRegion(Vec<Cell>),
    /// No two cells a chess knight's move apart hold the same digit.
    AntiKnight,
    /// No two cells a chess king's move apart hold the same digit.
    AntiKing,
    /// The cells at the same place (reading order) of each region hold different digits.
    DisjointGroups,
    /// No two orthogonal neighbours hold consecutive digits, except where a white or black
    /// kropki dot joins them.
    NonConsecutive,
    /// Every dot of a kind is drawn: orthogonal neighbours without a dot of that kind's
    /// family do not stand in the relations it names (see `constraints/pairs.rs`).
    Negative(NegativeKind),
    /// Digits do not repeat and, when `sum` is given, add up to it.
    KillerCage {
        /// The cage's cells.
        cells: Vec<Cell>,
        /// The sum, when the cage shows one.
        sum: Option<u32>,
    },
    /// The digits on each of the arrow's lines add up to the number in its circle. A
    /// circle of one cell holds a digit; a circle of several cells (a pill) reads as a
    /// number, its cells in the order given.
    Arrow {
        /// The circle's cells.
        circle: Vec<Cell>,
        /// The lines as drawn: each may start in the circle, whose cells are not summed.
        lines: Vec<Vec<Cell>>,
    },
    /// Two orthogonal neighbours in the relation.
    Dot {
        /// The two cells.
        cells: [Cell; 2],
        /// The relation the dot states.
        relation: Relation,
    },
    /// The cell holds an odd digit.
    Odd(Cell),
    /// The cell holds an even digit.
    Even(Cell),
    /// The cell's digit is less than each orthogonal neighbour's, except neighbours that
    /// are minimum cells too.
    Minimum(Cell),
    /// The cell's digit is greater than each orthogonal neighbour's, except neighbours
    /// that are maximum cells too.
    Maximum(Cell),
    /// The cell holds one of these digits (f-puzzles' `givenPencilMarks`).
    Candidates {
        /// The cell.
        cell: Cell,
        /// The digits it may hold.
        digits: Vec<u8>,
    },
    /// Each of these digits appears in the (up to 4) cells, as often as it is listed.
    Quadruple {
        /// The cells around the clue.
        cells: Vec<Cell>,
        /// The digits, with repeats.
        digits: Vec<u8>,
    },
    /// Lines of one kind, as one entry drew them (a branching thermometer has several).
    Line {
        /// What each line requires.
        kind: LineKind,
        /// The lines, each in order from its start.
        lines: Vec<Vec<Cell>>,
    },
    /// The cells on the diagonal from the clue, the way it points, add up to the sum.
    LittleKiller {
        /// Where the clue stands.
        clue: Outside,
        /// The way it points.
        direction: Direction,
        /// The sum.
        sum: u32,
    },
    /// The digits between the 1 and the `size` of the row or column beside the clue add
    /// up to the sum.
    Sandwich {
        /// Where the clue stands, beside a row or column.
        clue: Outside,
        /// The sum.
        sum: u32,
    },
    /// The first digit seen from the clue says how many digits from the clue add up to
    /// the sum.
    XSum {
        /// Where the clue stands, beside a row or column.
        clue: Outside,
        /// The sum.
        sum: u32,
    },
    /// Seen from the clue, with higher digits hiding lower ones behind them, this many
    /// digits are visible.
    Skyscraper {
        /// Where the clue stands, beside a row or column.
        clue: Outside,
        /// How many are visible.
        visible: u32,
    },
    /// The cells and their clones hold the same digits, cell for cell.
    Clone {
        /// The original cells.
        cells: Vec<Cell>,
        /// Their clones, in the same order.
        clones: Vec<Cell>,
    },
    /// Indexer cells: each cell's digit gives the position of another digit in its line.
    Indexer {
        /// Which line the cells index.
        indexer: Indexer,
        /// The indexer cells.
        cells: Vec<Cell>,
    },
}

impl Rule {
    /// Whether the rule is global: it covers the whole grid, so stating it twice means
    /// what stating it once does.
    pub fn is_global(&self) -> bool {
        matches!(
            self,
            Rule::Diagonal(_)
                | Rule::AntiKnight
                | Rule::AntiKing
                | Rule::DisjointGroups
                | Rule::NonConsecutive
                | Rule::Negative(_)
        )
    }
}

/// The sizes a variant grid may have.
pub const SIZES: std::ops::RangeInclusive<usize> = 3..=16;

/// Where a puzzle breaks the model, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// The part of the puzzle that is wrong.
    pub place: Place,
    /// The field of a rule that is wrong, by the model's name for it (`"cells"`,
    /// `"lines"`, `"sum"`, …), with the position of the wrong item in it, if any.
    pub field: Option<(&'static str, Option<usize>)>,
    /// What is wrong.
    pub message: String,
}

/// A part of a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The size.
    Size,
    /// The given of a cell (row-major index).
    Given(usize),
    /// The regions.
    Regions,
    /// A constraint, by its position in the list given to [`Puzzle::new`].
    Constraint(usize),
}

impl fmt::Display for ModelError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            Place::Size => write!(formatter, "size")?,
            Place::Given(cell) => write!(formatter, "given {cell}")?,
            Place::Regions => write!(formatter, "regions")?,
            Place::Constraint(index) => write!(formatter, "constraint {index}")?,
        }
        if let Some((field, item)) = self.field {
            write!(formatter, ".{field}")?;
            if let Some(item) = item {
                write!(formatter, "[{item}]")?;
            }
        }
        write!(formatter, ": {}", self.message)
    }
}

impl std::error::Error for ModelError {}

impl Puzzle {
    /// A puzzle of `size` with `givens` (row-major, `None` for an open cell), `regions`
    /// (row-major region numbers, `None` for a cell in no region; `None` for f-puzzles'
    /// default boxes) and `constraints`, once each is checked against the grid.
    ///
    /// What means the same is written one way: global rules stated more than once are
    /// kept once, with the origin of the first; a cage sum of 0 is no sum (as f-puzzles
    /// shows it); candidates are sorted. Candidates name the digits of an open cell, once
    /// per cell (f-puzzles has one list per cell, and ignores it on a given).
    pub fn new(
        size: usize,
        givens: Vec<Option<u8>>,
        regions: Option<Vec<Option<usize>>>,
        constraints: Vec<Constraint>,
    ) -> Result<Puzzle, ModelError> {
        if !SIZES.contains(&size) {
            return Err(ModelError {
                place: Place::Size,
                field: None,
                message: format!("the size must be 3 to 16, not {size}"),
            });
        }
        let cells = size * size;
        if givens.len() != cells {
            return Err(ModelError {
                place: Place::Size,
                field: None,
                message: format!(
                    "a {size}×{size} grid has {cells} givens, not {}",
                    givens.len()
                ),
            });
        }
        if let Some(cell) = givens
            .iter()
            .position(|given| given.is_some_and(|digit| !(1..=size).contains(&usize::from(digit))))
        {
            return Err(ModelError {
                place: Place::Given(cell),
                field: None,
                message: format!("a given is a digit from 1 to {size}"),
            });
        }
        let regions = regions.unwrap_or_else(|| default_regions(size));
        check_regions(&regions, size)?;
        let mut kept: Vec<Constraint> = Vec::with_capacity(constraints.len());
        let mut globals: Vec<Rule> = Vec::new();
        let mut marked = vec![false; cells];
        for (index, mut constraint) in constraints.into_iter().enumerate() {
            let wrong = |field, message: &str| ModelError {
                place: Place::Constraint(index),
                field,
                message: message.to_owned(),
            };
            check_rule(&constraint.rule, size)
                .map_err(|(field, message)| wrong(field, &message))?;
            match &mut constraint.rule {
                Rule::KillerCage { sum, .. } if *sum == Some(0) => *sum = None,
                Rule::Candidates { cell, digits } => {
                    let at = cell.row * size + cell.col;
                    if givens[at].is_some() {
                        return Err(wrong(
                            Some(("cell", None)),
                            "the cell is a given; candidates name the digits of an open cell",
                        ));
                    }
                    if std::mem::replace(&mut marked[at], true) {
                        return Err(wrong(
                            Some(("cell", None)),
                            "the cell has candidates already; give each cell one list",
                        ));
                    }
                    digits.sort_unstable();
                    digits.dedup();
                }
                _ => {}
            }
            if constraint.rule.is_global() {
                if globals.contains(&constraint.rule) {
                    continue;
                }
                globals.push(constraint.rule.clone());
            }
            kept.push(constraint);
        }
        Ok(Puzzle {
            size,
            givens,
            regions,
            constraints: kept,
        })
    }

    /// The grid's size: rows, columns and digits.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The given of each cell, row-major, `None` where the cell is open.
    pub fn givens(&self) -> &[Option<u8>] {
        &self.givens
    }

    /// The region of each cell, row-major, `None` for a cell in no region.
    pub fn regions(&self) -> &[Option<usize>] {
        &self.regions
    }

    /// The rules, each with where the input stated it.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Whether the regions are f-puzzles' default boxes for the size.
    pub fn has_default_regions(&self) -> bool {
        self.regions == default_regions(self.size)
    }

    /// The rules, sorted: what makes two puzzles the same.
    fn sorted_rules(&self) -> Vec<&Rule> {
        let mut rules: Vec<&Rule> = self.constraints.iter().map(|c| &c.rule).collect();
        rules.sort_unstable();
        rules
    }
}

impl PartialEq for Puzzle {
    fn eq(&self, other: &Puzzle) -> bool {
        self.size == other.size
            && self.givens == other.givens
            && self.regions == other.regions
            && self.sorted_rules() == other.sorted_rules()
    }
}

impl Eq for Puzzle {}

/// f-puzzles' default regions of a grid of `size`: boxes whose height is the largest
/// factor of the size at most its square root (so 6 has 2×3 boxes, 8 has 2×4, and a
/// prime size has its rows).
pub fn default_regions(size: usize) -> Vec<Option<usize>> {
    let height = (1..=size)
        .filter(|h| size.is_multiple_of(*h) && h * h <= size)
        .max()
        .unwrap_or(1);
    let width = size / height;
    (0..size * size)
        .map(|cell| Some((cell / size / height) * height + (cell % size) / width))
        .collect()
}

/// Checks the regions: one per cell, every region of `size` cells.
fn check_regions(regions: &[Option<usize>], size: usize) -> Result<(), ModelError> {
    let wrong = |message: String| ModelError {
        place: Place::Regions,
        field: None,
        message,
    };
    if regions.len() != size * size {
        return Err(wrong(format!(
            "a {size}×{size} grid has {} region numbers, not {}",
            size * size,
            regions.len()
        )));
    }
    let mut counts = std::collections::BTreeMap::new();
    for region in regions.iter().flatten() {
        *counts.entry(*region).or_insert(0usize) += 1;
    }
    match counts.iter().find(|&(_, &count)| count != size) {
        Some((region, count)) => Err(wrong(format!(
            "region {region} has {count} cells; every region holds each of the {size} digits \
             once (a solver that skipped it would answer for another puzzle than the one drawn)"
        ))),
        None => Ok(()),
    }
}

/// A field of a rule that is wrong, and why.
type RuleFault = (Option<(&'static str, Option<usize>)>, String);

/// Checks a rule against a grid of `size`.
fn check_rule(rule: &Rule, size: usize) -> Result<(), RuleFault> {
    let fault = |field: &'static str, item: Option<usize>, message: String| {
        Err((Some((field, item)), message))
    };
    let inside = |field: &'static str, cells: &[Cell]| -> Result<(), RuleFault> {
        match cells
            .iter()
            .position(|cell| cell.row >= size || cell.col >= size)
        {
            Some(item) => fault(
                field,
                Some(item),
                format!("the cell is outside the {size}×{size} grid"),
            ),
            None => Ok(()),
        }
    };
    let one = |cell: &Cell| -> Result<(), RuleFault> {
        match cell.row < size && cell.col < size {
            true => Ok(()),
            false => fault(
                "cell",
                None,
                format!("the cell is outside the {size}×{size} grid"),
            ),
        }
    };
    let distinct = |field: &'static str, cells: &[Cell]| -> Result<(), RuleFault> {
        inside(field, cells)?;
        match (1..cells.len()).find(|&i| cells[..i].contains(&cells[i])) {
            Some(item) => fault(field, Some(item), "the cell is listed twice".into()),
            None => Ok(()),
        }
    };
    let digits = |field: &'static str, digits: &[u8]| -> Result<(), RuleFault> {
        match digits
            .iter()
            .position(|&d| !(1..=size).contains(&usize::from(d)))
        {
            Some(item) => fault(field, Some(item), format!("a digit is 1 to {size}")),
            None => Ok(()),
        }
    };
    match rule {
        Rule::Diagonal(_)
        | Rule::AntiKnight
        | Rule::AntiKing
        | Rule::DisjointGroups
        | Rule::NonConsecutive
        | Rule::Negative(_) => Ok(()),
        Rule::ExtraRegion(cells) => {
            distinct("cells", cells)?;
            if cells.is_empty() {
                return fault("cells", None, "an extra region has cells".into());
            }
            Ok(())
        }
        Rule::KillerCage { cells, .. } => {
            distinct("cells", cells)?;
            if cells.is_empty() {
                return fault("cells", None, "a cage has cells".into());
            }
            Ok(())
        }
        Rule::Arrow { circle, lines } => {
            distinct("circle", circle)?;
            if circle.is_empty() {
                return fault("circle", None, "an arrow has a circle".into());
            }
            check_lines(lines, size)
        }
        Rule::Dot { cells, relation } => {
            inside("cells", cells)?;
            let apart = cells[0].row.abs_diff(cells[1].row) + cells[0].col.abs_diff(cells[1].col);
            if apart != 1 {
                return fault(
                    "cells",
                    None,
                    "a dot joins two orthogonal neighbours".into(),
                );
            }
            match relation {
                Relation::Ratio(0) => fault("relation", None, "a ratio is 1 or more".into()),
                _ => Ok(()),
            }
        }
        Rule::Odd(cell) | Rule::Even(cell) | Rule::Minimum(cell) | Rule::Maximum(cell) => one(cell),
        Rule::Candidates {
            cell,
            digits: marks,
        } => {
            one(cell)?;
            if marks.is_empty() {
                return fault("digits", None, "candidates name at least one digit".into());
            }
            digits("digits", marks)
        }
        Rule::Quadruple {
            cells,
            digits: listed,
        } => {
            distinct("cells", cells)?;
            digits("digits", listed)?;
            if cells.len() > 4 || listed.len() > cells.len() {
                return fault(
                    "digits",
                    None,
                    "a quadruple lists at most as many digits as its (up to 4) cells".into(),
                );
            }
            Ok(())
        }
        Rule::Line { lines, .. } => check_lines(lines, size),
        Rule::LittleKiller {
            clue, direction, ..
        } => {
            if little_killer_cells(*clue, *direction, size).is_empty() {
                return fault(
                    "clue",
                    None,
                    "a little killer clue stands outside the grid and points into it".into(),
                );
            }
            Ok(())
        }
        Rule::Sandwich { clue, .. } | Rule::XSum { clue, .. } | Rule::Skyscraper { clue, .. } => {
            if cells_from_clue(*clue, size).is_none() {
                return fault(
                    "clue",
                    None,
                    "an outside clue stands just outside the grid, beside a row or column".into(),
                );
            }
            Ok(())
        }
        Rule::Clone { cells, clones } => {
            inside("cells", cells)?;
            inside("clones", clones)?;
            if cells.len() != clones.len() {
                return fault(
                    "clones",
                    None,
                    "a clone has as many cells as its original".into(),
                );
            }
            Ok(())
        }
        Rule::Indexer { cells, .. } => inside("cells", cells),
    }
}

/// Checks the lines of a rule: at least one, each of at least one cell inside the grid,
/// each cell a neighbour of the one before (diagonal steps count). A line may come back
/// to a cell it has passed (a loop).
fn check_lines(lines: &[Vec<Cell>], size: usize) -> Result<(), RuleFault> {
    if lines.is_empty() {
        return Err((Some(("lines", None)), "a line rule has lines".into()));
    }
    for (item, line) in lines.iter().enumerate() {
        let wrong = |message: &str| Err((Some(("lines", Some(item))), message.to_owned()));
        if line.is_empty() {
            return wrong("a line has cells");
        }
        if line.iter().any(|cell| cell.row >= size || cell.col >= size) {
            return wrong("a cell of the line is outside the grid");
        }
        let steps = line.windows(2).all(|pair| {
            pair[0] != pair[1]
                && pair[0].row.abs_diff(pair[1].row) <= 1
                && pair[0].col.abs_diff(pair[1].col) <= 1
        });
        if !steps {
            return wrong("a line's cells each neighbour the one before (diagonal steps count)");
        }
    }
    Ok(())
}

/// The cells of the row or column beside an outside clue, read from the clue; `None`
/// when the clue stands nowhere beside one.
pub fn cells_from_clue(clue: Outside, size: usize) -> Option<Vec<Cell>> {
    let n = size as i32;
    let inside = |x: i32| (0..n).contains(&x);
    let at = |row: i32, col: i32| Cell {
        row: row as usize,
        col: col as usize,
    };
    let cells = match (clue.row, clue.col) {
        (-1, c) if inside(c) => (0..n).map(|r| at(r, c)).collect(),
        (r, c) if r == n && inside(c) => (0..n).rev().map(|r| at(r, c)).collect(),
        (r, -1) if inside(r) => (0..n).map(|c| at(r, c)).collect(),
        (r, c) if c == n && inside(r) => (0..n).rev().map(|c| at(r, c)).collect(),
        _ => return None,
    };
    Some(cells)
}

/// The cells of the diagonal from a little killer clue the way it points: none when the
/// clue is not outside the grid or points past it.
pub fn little_killer_cells(clue: Outside, direction: Direction, size: usize) -> Vec<Cell> {
    let n = size as i32;
    let inside = |x: i32| (0..n).contains(&x);
    let outside = |x: i32| (-1..=n).contains(&x);
    if !(outside(clue.row) && outside(clue.col)) || (inside(clue.row) && inside(clue.col)) {
        return Vec::new();
    }
    let (dr, dc) = direction.step();
    let (mut row, mut col) = (clue.row + dr, clue.col + dc);
    let mut cells = Vec::new();
    while inside(row) && inside(col) {
        cells.push(Cell {
            row: row as usize,
            col: col as usize,
        });
        (row, col) = (row + dr, col + dc);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

    fn with(rule: Rule) -> Result<Puzzle, ModelError> {
        let origin = Origin {
            kind: "test".into(),
            index: 0,
        };
        Puzzle::new(4, vec![None; 16], None, vec![Constraint { origin, rule }])
    }

    /// A hand-built puzzle that breaks the model is an error that says where, never a
    /// puzzle that the search would index out of its grid.
    #[test]
    fn a_puzzle_that_breaks_the_model_is_refused_with_its_place() {
        let size = Puzzle::new(17, vec![None; 289], None, Vec::new()).unwrap_err();
        assert_eq!(size.place, Place::Size);
        let given = Puzzle::new(4, vec![Some(5); 16], None, Vec::new()).unwrap_err();
        assert_eq!(given.place, Place::Given(0));
        let mut lopsided = default_regions(4);
        lopsided[0] = Some(3);
        let regions = Puzzle::new(4, vec![None; 16], Some(lopsided), Vec::new()).unwrap_err();
        assert_eq!(regions.place, Place::Regions);
        let outside = with(Rule::Odd(at(4, 0))).unwrap_err();
        assert_eq!(
            (outside.place, outside.field),
            (Place::Constraint(0), Some(("cell", None)))
        );
        let gap = Rule::Line {
            kind: LineKind::Renban,
            lines: vec![vec![at(0, 0), at(0, 2)]],
        };
        assert_eq!(with(gap).unwrap_err().field, Some(("lines", Some(0))));
        let twice = Rule::KillerCage {
            cells: vec![at(0, 0), at(0, 0)],
            sum: None,
        };
        assert_eq!(with(twice).unwrap_err().field, Some(("cells", Some(1))));
        let inside = Rule::Sandwich {
            clue: Outside { row: 1, col: 1 },
            sum: 3,
        };
        assert_eq!(with(inside).unwrap_err().field, Some(("clue", None)));
        let apart = Rule::Dot {
            cells: [at(0, 0), at(1, 1)],
            relation: Relation::V,
        };
        assert!(with(apart).is_err());
    }

    /// A rule list is a set: global rules stated again count once, and order and origins
    /// do not tell puzzles apart.
    #[test]
    fn global_rules_count_once_and_order_does_not_matter() {
        let constraint = |index, rule| Constraint {
            origin: Origin {
                kind: "test".into(),
                index,
            },
            rule,
        };
        let cage = Rule::KillerCage {
            cells: vec![at(0, 0), at(0, 1)],
            sum: Some(0),
        };
        let rules = vec![
            constraint(0, Rule::AntiKnight),
            constraint(1, cage.clone()),
            constraint(2, Rule::AntiKnight),
            constraint(3, Rule::Negative(NegativeKind::Ratio)),
            constraint(4, Rule::Negative(NegativeKind::Ratio)),
        ];
        let puzzle = Puzzle::new(4, vec![None; 16], None, rules).unwrap();
        assert_eq!(puzzle.constraints().len(), 3);
        let reordered = vec![
            constraint(7, Rule::Negative(NegativeKind::Ratio)),
            constraint(8, cage),
            constraint(9, Rule::AntiKnight),
        ];
        assert_eq!(
            Puzzle::new(4, vec![None; 16], None, reordered).unwrap(),
            puzzle
        );
        // A cage's sum of 0 is no sum.
        assert!(matches!(
            puzzle.constraints()[1].rule,
            Rule::KillerCage { sum: None, .. }
        ));
    }

    #[test]
    fn outside_clues_read_their_row_column_or_diagonal_from_the_clue() {
        let from_below = cells_from_clue(Outside { row: 4, col: 1 }, 4).unwrap();
        assert_eq!(from_below, [at(3, 1), at(2, 1), at(1, 1), at(0, 1)]);
        assert_eq!(cells_from_clue(Outside { row: -1, col: -1 }, 4), None);
        let corner = little_killer_cells(Outside { row: -1, col: -1 }, Direction::DownRight, 4);
        assert_eq!(corner, [at(0, 0), at(1, 1), at(2, 2), at(3, 3)]);
        let short = little_killer_cells(Outside { row: 4, col: 2 }, Direction::UpRight, 4);
        assert_eq!(short, [at(3, 3)]);
        assert!(little_killer_cells(Outside { row: 1, col: 1 }, Direction::UpLeft, 4).is_empty());
    }
}
