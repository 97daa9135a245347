//! The rule model: a variant puzzle as the solver sees it, whatever form it came in.
//!
//! Every cell list here is already resolved and checked by the parser: cells are inside
//! the grid, lines step between neighbours, outside clues are turned into the cells they
//! read, in reading order. Each constraint remembers where it came from ([`Origin`]), so
//! that a broken one can be named as the input named it.

use serde::Serialize;

/// A cell, 0-based: `row` and `col` are below the grid's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Cell {
    /// The row, from 0 at the top.
    pub row: usize,
    /// The column, from 0 at the left.
    pub col: usize,
}

/// A variant puzzle: a square grid of `size` (3 to 16), its clues, its regions and its
/// constraints. Classic Sudoku of that size is the puzzle with default regions and no
/// constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Rows, columns and digits: the grid is `size` × `size` and holds 1 to `size`.
    pub size: usize,
    /// The clue of each cell, row-major, `None` where the cell is open.
    pub givens: Vec<Option<u8>>,
    /// The region of each cell, row-major, `None` for a cell in no region. Every region
    /// that exists has exactly `size` cells.
    pub regions: Vec<Option<usize>>,
    /// The rules added to rows, columns and regions.
    pub constraints: Vec<Constraint>,
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

/// The relation that a dot (or its absence) states between two orthogonal neighbours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// The digits differ by exactly this much (white kropki dot, default 1).
    Difference(u32),
    /// One digit is this many times the other (black kropki dot, default 2).
    Ratio(u32),
    /// The digits add up to this (XV: X is 10, V is 5).
    Sum(u32),
}

/// Which relation the `negative` rule forbids wherever no dot of it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NegativeKind {
    /// No white dot: no two orthogonal neighbours without one differ by any of the drawn
    /// white dots' values (by 1 when none is drawn).
    Difference,
    /// No black dot: no two orthogonal neighbours without one are in any of the drawn black
    /// dots' ratios (2 when none is drawn).
    Ratio,
    /// No X or V: no two orthogonal neighbours without one add up to 5 or 10.
    Xv,
}

/// Which line an indexer cell indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Indexer {
    /// f-puzzles' `rowindexer`: the digit v in row r, column c names a row of its column:
    /// row v of column c holds r (counting from 1).
    Row,
    /// f-puzzles' `columnindexer`: the digit v in row r, column c names a column of its
    /// row: column v of row r holds c (counting from 1).
    Column,
    /// The digit says at which position (reading order) of its region the digit equal to
    /// the cell's own position in that region is.
    Box,
}

/// What a constraint requires. Semantics follow f-puzzles and dclamage's solvers; for
/// sizes other than 9, each rule means what it means there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// These cells hold different digits (an extra region, a diagonal, a disjoint group).
    /// When there are `size` cells, each digit appears once.
    Distinct {
        /// The cells of the house.
        cells: Vec<Cell>,
    },
    /// No two cells a chess knight's move apart hold the same digit.
    AntiKnight,
    /// No two cells a chess king's move apart hold the same digit.
    AntiKing,
    /// No two orthogonal neighbours hold consecutive digits.
    NonConsecutive,
    /// Digits do not repeat and, when `sum` is given, add up to it.
    KillerCage {
        /// The cage's cells.
        cells: Vec<Cell>,
        /// The sum, when the cage shows one.
        sum: Option<u32>,
    },
    /// The digits on the arrow add up to the number in its circle. A circle of one cell
    /// holds a digit; a circle of several cells (a pill) reads as a number, left to right
    /// or top to bottom, as the peer reads it.
    Arrow {
        /// The circle's cells, in reading order.
        circle: Vec<Cell>,
        /// The arrow's cells, without the circle.
        line: Vec<Cell>,
    },
    /// Two orthogonal neighbours in the relation.
    Dot {
        /// The two cells.
        cells: [Cell; 2],
        /// The relation the dot states.
        relation: Relation,
    },
    /// All dots of a kind are drawn: pairs without one are not in that relation.
    Negative(NegativeKind),
    /// The cell holds an odd digit.
    Odd(Cell),
    /// The cell holds an even digit.
    Even(Cell),
    /// The cell's digit is less than each orthogonal neighbour's.
    Minimum(Cell),
    /// The cell's digit is greater than each orthogonal neighbour's.
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
    /// Digits strictly increase from the bulb (the first cell).
    Thermometer(Vec<Cell>),
    /// Digits never decrease from the bulb (the first cell).
    SlowThermometer(Vec<Cell>),
    /// The line reads the same from either end.
    Palindrome(Vec<Cell>),
    /// The line holds a set of different consecutive digits, in any order.
    Renban(Vec<Cell>),
    /// Neighbours on the line differ by at least `difference`.
    Whispers {
        /// The line.
        cells: Vec<Cell>,
        /// The least difference (f-puzzles' `value`; otherwise half the size, rounded up).
        difference: u32,
    },
    /// Digits strictly between the two end circles' digits, in value.
    Between(Vec<Cell>),
    /// Each region the line passes through holds the same sum of the line's cells.
    RegionSumLine(Vec<Cell>),
    /// Every run of three cells on the line holds a low, a middle and a high digit (the
    /// size split into three groups as the peer splits it).
    EntropicLine(Vec<Cell>),
    /// Every run of three cells on the line holds digits of three residues modulo 3.
    ModularLine(Vec<Cell>),
    /// Cells at the same distance from the line's centre add up to the same sum.
    ZipperLine(Vec<Cell>),
    /// The two ends add up to the sum of the cells between them.
    DoubleArrow(Vec<Cell>),
    /// The end circles differ by at least `difference`; no cell between them holds a digit
    /// between the ends' digits, inclusive.
    Lockout {
        /// The line, ends included.
        cells: Vec<Cell>,
        /// The least difference of the ends (f-puzzles' `value`; the peer's default).
        difference: u32,
    },
    /// No two digits on the line are equal or consecutive.
    Nabner(Vec<Cell>),
    /// The cells on the diagonal add up to the sum (a little killer clue), read from the
    /// clue.
    LittleKiller {
        /// The diagonal's cells, starting next to the clue.
        cells: Vec<Cell>,
        /// The sum.
        sum: u32,
    },
    /// The digits between the 1 and the `size` of the row or column add up to the sum.
    Sandwich {
        /// The whole row or column.
        cells: Vec<Cell>,
        /// The sum.
        sum: u32,
    },
    /// The first digit, read from the clue, says how many digits from the clue add up to
    /// the sum.
    XSum {
        /// The whole row or column, starting next to the clue.
        cells: Vec<Cell>,
        /// The sum.
        sum: u32,
    },
    /// Seen from the clue, with higher digits hiding lower ones behind them, this many
    /// digits are visible.
    Skyscraper {
        /// The whole row or column, starting next to the clue.
        cells: Vec<Cell>,
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
