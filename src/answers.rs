//! The JSON shapes of answers: what `POST /rate`, `/explain`, `/hint` and `/generate`
//! answer, written alike by the HTTP API and by the command line's `--json`, so that a
//! script reads both the same way. Neither front end imports the other: both use these.

use serde::Serialize;

use sudoku_engine::generate::{Made, Order};
use sudoku_engine::grid::value_symbol;
use sudoku_engine::logic::board::{Digits, HouseKind, digits_of};
use sudoku_engine::logic::modes::VariantMode;
use sudoku_engine::logic::step::{Step, round_rating};
use sudoku_engine::logic::technique::Technique;
use sudoku_engine::logic::{
    self, Explanation, Level, LogicError, MODEL, Rating, VariantExplanation,
};
use sudoku_engine::validate::Cell;
use sudoku_engine::variant::Puzzle;

/// A grid as a response gives it, in the notation of the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum GridOutput {
    /// One line of N² symbols, `.` blank.
    Symbols(String),
    /// N rows of N numbers, `0` blank.
    Rows(Vec<Vec<u8>>),
}

/// The answer of `POST /rate`.
#[derive(Debug, Serialize)]
pub struct RateResponse {
    /// ER, one decimal.
    pub se: f64,
    /// ED: the first step's difficulty.
    pub ed: f64,
    /// EP: the hardest step up to the first digit placed.
    pub ep: f64,
    /// The band of `se`.
    pub level: &'static str,
    /// The technique of the step that set `se`; absent when there are no steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardest: Option<&'static str>,
    /// The number of steps.
    pub steps: usize,
    /// The techniques used, easiest first.
    pub techniques: Vec<TechniqueJson>,
    /// The rating model's version (and a variant puzzle's mode).
    pub model: String,
}

/// One row of the histogram of techniques.
#[derive(Debug, Serialize)]
pub struct TechniqueJson {
    /// The technique's id.
    pub technique: &'static str,
    /// How many steps used it.
    pub count: usize,
    /// Its hardest use.
    pub se: f64,
}

/// The answer of `POST /explain`.
#[derive(Debug, Serialize)]
pub struct ExplainResponse {
    /// ER (9×9 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub se: Option<f64>,
    /// The band of `se` (9×9 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
    /// The solution, in the request's notation.
    pub solution: GridOutput,
    /// Every step, in order.
    pub steps: Vec<StepJson>,
    /// The rating model's version.
    pub model: &'static str,
    /// A variant puzzle whose path stops before the end: `true`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stalled: Option<bool>,
    /// With `stalled`, each cell's candidates left, rows of cells (none once placed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<Vec<Vec<u8>>>>,
}

/// The answer of `POST /hint`: a step, the player's mistakes, or that they are done.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum HintResponse {
    /// The easiest step from the player's state.
    Step {
        /// The step.
        step: StepJson,
    },
    /// Where the player's digits or marks contradict the solution.
    Mistakes {
        /// The mistakes.
        mistakes: Vec<MistakeJson>,
    },
    /// No step applies to the player's state (variant puzzles).
    Stalled {
        /// `true`.
        stalled: bool,
        /// Each cell's candidates on the player's board, rows of cells.
        candidates: Vec<Vec<Vec<u8>>>,
    },
    /// The grid is finished and correct.
    Solved {
        /// Always `true`.
        solved: bool,
    },
}

/// A mistake of the player.
#[derive(Debug, Serialize)]
pub struct MistakeJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The wrong digit, or the solution's digit that the marks removed.
    pub digit: u8,
    /// `wrong_digit` or `removed_candidate`.
    pub kind: &'static str,
}

/// A step, as the API writes it (coordinates 0-based).
#[derive(Debug, Serialize)]
pub struct StepJson {
    /// The technique's id.
    pub technique: &'static str,
    /// The step's difficulty, one decimal (9×9 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub se: Option<f64>,
    /// Digits placed.
    pub placements: Vec<PlacementJson>,
    /// Candidates removed.
    pub eliminations: Vec<EliminationJson>,
    /// The cells of the pattern.
    pub cells: Vec<Cell>,
    /// The houses of the pattern.
    pub houses: Vec<HouseJson>,
    /// A chain's nodes, in order (chains only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<ChainNodeJson>,
    /// One line in the community's notation (1-based `r1c1`).
    pub text: String,
    /// The variant rule whose own logic the step is, named as `/validate` names a broken
    /// one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleJson>,
}

/// A variant rule, as the input named it.
#[derive(Debug, Serialize)]
pub struct RuleJson {
    /// Its kind, as the input named it.
    pub kind: String,
    /// Its position among the input's rules of that form.
    pub index: usize,
}

/// A digit placed.
#[derive(Debug, Serialize)]
pub struct PlacementJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The digit.
    pub digit: u8,
}

/// Candidates removed from one cell.
#[derive(Debug, Serialize)]
pub struct EliminationJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The digits removed.
    pub digits: Vec<u8>,
}

/// A house of a pattern.
#[derive(Debug, Serialize)]
pub struct HouseJson {
    /// `row`, `column` or `box`; for variant puzzles also `region`, `diagonal`,
    /// `extra_region` and `disjoint_group`.
    pub unit: &'static str,
    /// 0-based index among its kind.
    pub index: usize,
}

/// A node of a chain.
#[derive(Debug, Serialize)]
pub struct ChainNodeJson {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The candidate.
    pub digit: u8,
    /// Whether the chain takes it as true.
    pub on: bool,
}

/// One generated puzzle.
#[derive(Debug, Serialize)]
pub struct PuzzleJson {
    /// The givens.
    pub puzzle: GridOutput,
    /// The one solution.
    pub solution: GridOutput,
    /// ER, one decimal (9×9 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub se: Option<f64>,
    /// The band of `se` (9×9 only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
    /// The number of givens.
    pub givens: usize,
    /// The seed that makes this puzzle alone (with `count: 1` and the same options).
    pub seed: u64,
    /// A variant puzzle's rules, in the native form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<serde_json::Value>,
    /// A variant puzzle as an f-puzzles link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fpuzzles: Option<String>,
}

/// The rating model of a puzzle rated in `mode` (classic Sudoku when `None`): [`MODEL`],
/// and for a variant mode its name (`sukaku-explainer-1.18.1/1 x+anti-knight`).
pub fn model(mode: Option<VariantMode>) -> String {
    match mode {
        Some(mode) if !mode.is_classic() => format!("{MODEL} {}", mode.name()),
        _ => MODEL.to_owned(),
    }
}

/// The answer of `/rate` for `rating`, of a puzzle of `mode` (classic when `None`).
pub fn rate_response(rating: &Rating, mode: Option<VariantMode>) -> RateResponse {
    RateResponse {
        se: round_rating(rating.er),
        ed: round_rating(rating.ed),
        ep: round_rating(rating.ep),
        level: rating.level().id(),
        hardest: rating.hardest.map(Technique::id),
        steps: rating.steps,
        techniques: rating
            .techniques
            .iter()
            .map(|used| TechniqueJson {
                technique: used.technique.id(),
                count: used.count,
                se: round_rating(used.difficulty),
            })
            .collect(),
        model: model(mode),
    }
}

/// The answer of `POST /explain` for a variant puzzle of `size`: its steps (not rated),
/// and where it stalled, the candidates left.
pub fn variant_explain_response(
    explanation: &VariantExplanation,
    solution: GridOutput,
    size: usize,
) -> ExplainResponse {
    ExplainResponse {
        se: None,
        level: None,
        solution,
        steps: explanation
            .steps
            .iter()
            .map(|step| step_json(step, size, false))
            .collect(),
        model: MODEL,
        stalled: explanation.stalled.as_ref().map(|_| true),
        candidates: explanation
            .stalled
            .as_ref()
            .map(|candidates| candidates_json(candidates, size)),
    }
}

/// Each cell's candidates as rows of cells, each a list of digits.
pub fn candidates_json(candidates: &[Digits], size: usize) -> Vec<Vec<Vec<u8>>> {
    candidates
        .chunks(size)
        .map(|row| {
            row.iter()
                .map(|&digits| digits_of(digits).collect())
                .collect()
        })
        .collect()
}

/// The answer of `/explain` for `explanation`, its solution written as `solution` (the
/// command line's JSON uses it too).
pub fn explain_response(explanation: &Explanation, solution: GridOutput) -> ExplainResponse {
    let size = explanation.solution.size();
    let rated = explanation.rating.is_some();
    ExplainResponse {
        se: explanation.rating.as_ref().map(|r| round_rating(r.er)),
        level: explanation.rating.as_ref().map(|r| r.level().id()),
        solution,
        steps: explanation
            .steps
            .iter()
            .map(|step| step_json(step, size, rated))
            .collect(),
        model: MODEL,
        stalled: None,
        candidates: None,
    }
}

/// The model that levels puzzles with drawn rules: the variant logic's steps.
pub const VARIANT_LOGIC_MODEL: &str = "variant-logic/1";

/// The model behind the puzzles of `order`: the rating model, with the variant mode's name
/// for puzzles of a mode, or the variant logic with the kind's name for drawn rules
/// (`variant-logic/1 killer`).
pub fn order_model(order: &Order) -> String {
    match order {
        Order::Givens(options) => model(Some(options.mode())),
        Order::Drawn(options) => format!("{VARIANT_LOGIC_MODEL} {}", options.kind().id()),
    }
}

/// How `/generate` writes `made` for `order`, its grids as rows or strings, and for
/// variant modes and drawn rules with the rules (the command line's JSON lines use it too).
pub fn puzzle_json(made: &Made, order: &Order, rows: bool) -> PuzzleJson {
    match made {
        Made::Givens(made) => {
            let mode = match order {
                Order::Givens(options) => options.mode(),
                Order::Drawn(_) => VariantMode::default(),
            };
            let variant =
                (!mode.is_classic()).then(|| mode.puzzle(&made.puzzle).expect("a 9×9 grid"));
            let size = made.puzzle.size();
            PuzzleJson {
                se: made.rating,
                level: made.rating.map(|rating| Level::of(rating).id()),
                ..grids_json(
                    size,
                    made.puzzle.cells(),
                    made.solution.cells(),
                    made.seed,
                    rows,
                )
            }
            .with_rules(variant.as_ref())
        }
        Made::Drawn(made) => {
            let puzzle = &made.puzzle;
            let givens: Vec<u8> = puzzle.givens().iter().map(|g| g.unwrap_or(0)).collect();
            PuzzleJson {
                level: Some(made.level.id()),
                ..grids_json(puzzle.size(), &givens, &made.solution, made.seed, rows)
            }
            .with_rules(Some(puzzle))
        }
    }
}

/// A puzzle's grids, givens and seed, with no rating or rules.
fn grids_json(size: usize, puzzle: &[u8], solution: &[u8], seed: u64, rows: bool) -> PuzzleJson {
    let render = |cells: &[u8]| match rows {
        true => GridOutput::Rows(cells.chunks(size).map(<[u8]>::to_vec).collect()),
        false => GridOutput::Symbols(cells.iter().map(|&digit| value_symbol(digit)).collect()),
    };
    PuzzleJson {
        puzzle: render(puzzle),
        solution: render(solution),
        se: None,
        level: None,
        givens: puzzle.iter().filter(|&&digit| digit != 0).count(),
        seed,
        rules: None,
        fpuzzles: None,
    }
}

impl PuzzleJson {
    /// The same puzzle with the rules of `variant`, natively and as an f-puzzles link.
    fn with_rules(self, variant: Option<&Puzzle>) -> PuzzleJson {
        PuzzleJson {
            rules: variant.map(|puzzle| puzzle.to_native()["rules"].clone()),
            fpuzzles: variant.map(Puzzle::to_fpuzzles_link),
            ..self
        }
    }
}

/// `step` as the API writes it, on a board of side `size`; `rated` says whether its
/// difficulty is shown (9×9 only).
pub fn step_json(step: &Step, size: usize, rated: bool) -> StepJson {
    let at = |cell: usize| (cell / size, cell % size);
    StepJson {
        technique: step.technique.id(),
        se: rated.then(|| step.rounded_difficulty()),
        placements: step
            .placements
            .iter()
            .map(|placement| {
                let (row, col) = at(placement.cell);
                PlacementJson {
                    row,
                    col,
                    digit: placement.digit,
                }
            })
            .collect(),
        eliminations: step
            .eliminations
            .iter()
            .map(|elimination| {
                let (row, col) = at(elimination.cell);
                EliminationJson {
                    row,
                    col,
                    digits: logic::board::digits_of(elimination.digits).collect(),
                }
            })
            .collect(),
        cells: step
            .cells
            .iter()
            .map(|&cell| {
                let (row, col) = at(cell);
                Cell { row, col }
            })
            .collect(),
        houses: step
            .houses
            .iter()
            .map(|house| HouseJson {
                unit: match house.kind {
                    HouseKind::Row => "row",
                    HouseKind::Column => "column",
                    HouseKind::Box => "box",
                    HouseKind::Region => "region",
                    HouseKind::Diagonal => "diagonal",
                    HouseKind::ExtraRegion => "extra_region",
                    HouseKind::DisjointGroup => "disjoint_group",
                },
                index: house.index,
            })
            .collect(),
        chain: step
            .chain
            .iter()
            .map(|node| {
                let (row, col) = at(node.cell);
                ChainNodeJson {
                    row,
                    col,
                    digit: node.digit,
                    on: node.on,
                }
            })
            .collect(),
        text: step.text.clone(),
        rule: step.rule.as_ref().map(|origin| RuleJson {
            kind: origin.kind.clone(),
            index: origin.index,
        }),
    }
}

/// The `code` of the answer to a logic run that ended in `error`, as the API writes it in
/// its problem and the command line in its JSON lines (a stopped run ran out of time).
pub fn logic_error_code(error: &LogicError) -> &'static str {
    match error {
        LogicError::UnsupportedSize(_) => "unsupported_size",
        LogicError::Unsolvable | LogicError::ConflictingGivens(_) => "unsolvable",
        LogicError::NotUnique => "not_unique",
        LogicError::Mismatch(_) => "invalid_request",
        LogicError::BeyondTechniques => "beyond_techniques",
        LogicError::TooManyRules { .. } => "too_many_rules",
        LogicError::NoScale(_) => "unsupported_rules",
        LogicError::Stopped(_) => "solve_timeout",
    }
}
