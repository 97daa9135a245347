//! Logic for variant puzzles, on the same board and techniques as classic Sudoku: the
//! board knows the puzzle's houses and which cells see which ([`Geometry::of_puzzle`]),
//! so singles, intersections, subsets and fish work on it as they are. Then each rule's
//! own logic (its propagators, run alone: a killer cage's combinations, a thermometer's
//! bounds, a dot's pairs), and two general steps, labelled as such, one propagation deep:
//! cell forcing and contradiction. No step guesses or reads the solution: when none
//! applies, the path stalls and says which candidates are left.
//!
//! The order follows the peer's logical solve: singles, the rules' own logic, pointing
//! and claiming, naked and hidden sets, fish, then cell forcing and contradiction.

use std::sync::Arc;

use super::board::{Board, Digits, Geometry, bit, digits_of};
use super::hint::{Hint, mistakes};
use super::rating::Level;
use super::step::{Elimination, Step, cell_name, digit_name, eliminations_text};
use super::technique::Technique;
use super::{LogicError, fish, intersections, singles, subsets};
use crate::solver::{Cancellation, Stopped};
use crate::variant::deduce::{Consequences, Propagator, RuleLogic, rule_logic, settle};
use crate::variant::model::{LineKind, Rule};
use crate::variant::{self, Puzzle, VariantError, VariantSolveOptions};

/// A variant puzzle's path.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantExplanation {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The puzzle's only solution, row-major.
    pub solution: Vec<u8>,
    /// When no step applies before the end: each cell's candidates left (none once
    /// placed), row-major.
    pub stalled: Option<Vec<Digits>>,
}

/// What the logic of a variant puzzle runs on: the board's geometry, each rule's own
/// propagators, and every rule at once.
struct Rules {
    geometry: Arc<Geometry>,
    own: Vec<RuleLogic>,
    all: Vec<Box<dyn Propagator>>,
}

impl Rules {
    /// The board of `puzzle`'s givens on these rules' geometry.
    fn board_of(&self, puzzle: &Puzzle) -> Board {
        let values = puzzle
            .givens()
            .iter()
            .map(|given| given.unwrap_or(0))
            .collect();
        Board::of_puzzle(Arc::clone(&self.geometry), values, None)
    }

    fn of(puzzle: &Puzzle, cancel: &Cancellation) -> Result<Rules, LogicError> {
        let all = variant::compile(puzzle, cancel).map_err(variant_error)?;
        Ok(Rules {
            geometry: Geometry::of_puzzle(puzzle),
            own: rule_logic(puzzle),
            all,
        })
    }
}

/// A variant error as a logic error.
fn variant_error(error: VariantError) -> LogicError {
    match error {
        VariantError::TooLarge { size, limit } => LogicError::TooManyRules { size, limit },
        VariantError::Stopped => LogicError::Stopped(Stopped),
    }
}

/// The only solution of `puzzle`, or why there is none.
pub(super) fn unique_solution(
    puzzle: &Puzzle,
    cancel: &Cancellation,
) -> Result<Vec<u8>, LogicError> {
    let options = VariantSolveOptions {
        max_solutions: 2,
        ..VariantSolveOptions::default()
    };
    let answer = variant::solve(puzzle, &options, cancel).map_err(variant_error)?;
    match (answer.solution, answer.solution_count, answer.count_exact) {
        (None, _, _) => Err(LogicError::Unsolvable),
        (Some(solution), 1, true) => Ok(solution),
        (Some(_), 1, false) => Err(LogicError::Stopped(Stopped)),
        (Some(_), _, _) => Err(LogicError::NotUnique),
    }
}

/// The path of `puzzle`, which must have exactly one solution, within `cancel`.
pub fn explain_variant(
    puzzle: &Puzzle,
    cancel: &Cancellation,
) -> Result<VariantExplanation, LogicError> {
    let cancel = &cancel.starting_now();
    let solution = unique_solution(puzzle, cancel)?;
    let rules = Rules::of(puzzle, cancel)?;
    let mut board = rules.board_of(puzzle);
    let mut steps = Vec::new();
    while !board.is_solved() {
        let Some(step) = next_step(&board, &rules, Level::Extreme, cancel)? else {
            let candidates = (0..board.cell_count())
                .map(|cell| board.candidates(cell))
                .collect();
            return Ok(VariantExplanation {
                steps,
                solution,
                stalled: Some(candidates),
            });
        };
        step.apply(&mut board);
        steps.push(step);
    }
    Ok(VariantExplanation {
        steps,
        solution,
        stalled: None,
    })
}

/// The hint for a player of `puzzle` who has filled in `grid` (row-major, 0 for an empty
/// cell) and, where an entry is not `None`, kept `marks`: their mistakes against the only
/// solution, else the next step from their state, else `None` when no step applies
/// (the candidates are then those of the player's board).
pub fn hint_variant(
    puzzle: &Puzzle,
    grid: &[u8],
    marks: Option<&[Option<Digits>]>,
    cancel: &Cancellation,
) -> Result<(Hint, Vec<Digits>), LogicError> {
    let cells = puzzle.size() * puzzle.size();
    if grid.len() != cells {
        return Err(LogicError::Mismatch(format!(
            "the grid has {} cells but the puzzle {cells}",
            grid.len()
        )));
    }
    if let Some(cell) =
        (0..cells).find(|&cell| puzzle.givens()[cell].is_some_and(|given| grid[cell] != given))
    {
        return Err(LogicError::Mismatch(format!(
            "the grid changes the given at {}",
            cell_name(cell, puzzle.size())
        )));
    }
    if let Some(marks) = marks.filter(|marks| marks.len() != cells) {
        return Err(LogicError::Mismatch(format!(
            "candidates has {} entries; expected one per cell ({cells})",
            marks.len()
        )));
    }
    let cancel = &cancel.starting_now();
    let solution = unique_solution(puzzle, cancel)?;
    let found = mistakes(grid, &solution, marks);
    if !found.is_empty() {
        return Ok((Hint::Mistakes(found), Vec::new()));
    }
    if grid.iter().all(|&digit| digit != 0) {
        return Ok((Hint::Solved, Vec::new()));
    }
    let rules = Rules::of(puzzle, cancel)?;
    let kept = marks.map(|marks| {
        marks
            .iter()
            .map(|mark| mark.unwrap_or(Digits::MAX))
            .collect::<Vec<Digits>>()
    });
    let board = Board::of_puzzle(Arc::clone(&rules.geometry), grid.to_vec(), kept);
    let candidates = (0..cells).map(|cell| board.candidates(cell)).collect();
    match next_step(&board, &rules, Level::Extreme, cancel)? {
        Some(step) => Ok((Hint::Step(Box::new(step)), candidates)),
        None => Ok((Hint::Stalled, candidates)),
    }
}

/// The level of `puzzle`'s path when steps of `ceiling` or easier solve it from its
/// givens, or `None` when they stall. No solution is counted: steps only remove what no
/// solution holds, so a path that ends solved proves the solution the only one.
pub fn level_within(
    puzzle: &Puzzle,
    ceiling: Level,
    cancel: &Cancellation,
) -> Result<Option<Level>, LogicError> {
    let rules = Rules::of(puzzle, cancel)?;
    let mut board = rules.board_of(puzzle);
    let mut hardest = Level::Easy;
    while !board.is_solved() {
        let Some(step) = next_step(&board, &rules, ceiling, cancel)? else {
            return Ok(None);
        };
        hardest = hardest.max(level_of(step.technique));
        step.apply(&mut board);
    }
    Ok(Some(hardest))
}

/// The level of a step of a variant path: singles and the rules' own logic are easy;
/// intersections and pairs medium; triples, quads and fish hard; cell forcing expert;
/// contradiction extreme.
fn level_of(technique: Technique) -> Level {
    match technique {
        Technique::Pointing
        | Technique::Claiming
        | Technique::NakedPair
        | Technique::HiddenPair => Level::Medium,
        Technique::NakedTriple
        | Technique::HiddenTriple
        | Technique::NakedQuad
        | Technique::HiddenQuad
        | Technique::XWing
        | Technique::Swordfish
        | Technique::Jellyfish => Level::Hard,
        Technique::CellForcing => Level::Expert,
        Technique::Contradiction => Level::Extreme,
        _ => Level::Easy,
    }
}

/// The first step the order finds on `board` among the steps of `ceiling` or easier, or
/// `None` when none applies.
fn next_step(
    board: &Board,
    rules: &Rules,
    ceiling: Level,
    cancel: &Cancellation,
) -> Result<Option<Step>, LogicError> {
    let singles = singles::hidden_single(board).or_else(|| singles::naked_single(board));
    if singles.is_some() {
        return Ok(singles);
    }
    if let Some(step) = rule_step(board, rules, cancel)? {
        return Ok(Some(step));
    }
    if cancel.is_cancelled() {
        return Err(LogicError::Stopped(Stopped));
    }
    if ceiling < Level::Medium {
        return Ok(None);
    }
    let largest_set = if ceiling < Level::Hard { 2 } else { 4 };
    let sets = || {
        intersections::locked_candidates(board)
            .or_else(|| {
                (2..=largest_set).find_map(|degree| {
                    subsets::naked_set(board, degree).or_else(|| subsets::hidden_set(board, degree))
                })
            })
            .or_else(|| {
                (2..=4)
                    .filter(|_| ceiling >= Level::Hard)
                    .find_map(|degree| fish::fish(board, degree))
            })
    };
    match sets() {
        Some(step) => Ok(Some(step)),
        None if ceiling >= Level::Expert => forcing_step(board, rules, ceiling, cancel),
        None => Ok(None),
    }
}

/// The candidate masks of `board`: a placed digit's bit, or an empty cell's candidates.
fn masks(board: &Board) -> Vec<Digits> {
    (0..board.cell_count())
        .map(|cell| match board.value(cell) {
            0 => board.candidates(cell),
            digit => bit(digit),
        })
        .collect()
}

/// The first rule whose own logic removes a candidate of `board`.
fn rule_step(
    board: &Board,
    rules: &Rules,
    cancel: &Cancellation,
) -> Result<Option<Step>, LogicError> {
    let before = masks(board);
    for logic in &rules.own {
        let mut after = before.clone();
        if settle(&logic.propagators, &mut after, cancel)?.is_some() {
            // The rule cannot be kept: only a wrong digit of a player's grid does this, and
            // hints look for mistakes first.
            continue;
        }
        let eliminations: Vec<Elimination> = (0..before.len())
            .filter(|&cell| board.value(cell) == 0)
            .filter_map(|cell| {
                let digits = before[cell] & !after[cell];
                (digits != 0).then_some(Elimination { cell, digits })
            })
            .collect();
        if eliminations.is_empty() {
            continue;
        }
        let technique = family(&logic.rule);
        let mut step = Step::new(technique, 0.0);
        step.cells = logic
            .propagators
            .iter()
            .flat_map(|p| p.cells().iter().copied())
            .collect();
        step.cells.sort_unstable();
        step.cells.dedup();
        let size = board.size();
        step.text = format!(
            "[{} {}] {}: {}",
            logic.origin.kind,
            logic.origin.index + 1,
            technique.name(),
            eliminations_text(&eliminations, size)
        );
        step.eliminations = eliminations;
        step.rule = Some(logic.origin.clone());
        return Ok(Some(step));
    }
    Ok(None)
}

/// The family of steps a rule's own logic belongs to.
fn family(rule: &Rule) -> Technique {
    match rule {
        Rule::KillerCage { .. } => Technique::CageCombinations,
        Rule::Arrow { .. }
        | Rule::Line {
            kind:
                LineKind::Thermometer
                | LineKind::SlowThermometer
                | LineKind::DoubleArrow
                | LineKind::Zipper
                | LineKind::RegionSum,
            ..
        } => Technique::LineBounds,
        Rule::Line {
            kind: LineKind::Palindrome,
            ..
        }
        | Rule::Clone { .. }
        | Rule::Indexer { .. } => Technique::LinkedCells,
        Rule::Line { .. } => Technique::LineRanges,
        Rule::Dot { .. }
        | Rule::Negative(_)
        | Rule::NonConsecutive
        | Rule::Minimum(_)
        | Rule::Maximum(_) => Technique::PairRelations,
        Rule::LittleKiller { .. }
        | Rule::Sandwich { .. }
        | Rule::XSum { .. }
        | Rule::Skyscraper { .. } => Technique::OutsideSums,
        _ => Technique::CellClues,
    }
}

/// Cell forcing, else (with an `extreme` ceiling) contradiction, one propagation of every
/// rule deep.
fn forcing_step(
    board: &Board,
    rules: &Rules,
    ceiling: Level,
    cancel: &Cancellation,
) -> Result<Option<Step>, LogicError> {
    let masks = masks(board);
    let size = board.size();
    let mut consequences = Consequences::new(&rules.all, size);
    let open: Vec<usize> = (0..masks.len())
        .filter(|&cell| board.value(cell) == 0)
        .collect();
    // Cell forcing: what every candidate of a cell removes elsewhere.
    for &cell in &open {
        if cancel.is_cancelled() {
            return Err(LogicError::Stopped(Stopped));
        }
        let mut common: Option<Vec<Digits>> = None;
        for digit in digits_of(masks[cell]) {
            let Some(after) = consequences.of_placing(&masks, cell, digit) else {
                common = None;
                break;
            };
            let removed: Vec<Digits> = masks
                .iter()
                .zip(&after)
                .map(|(&was, &is)| was & !is)
                .collect();
            common = Some(match common {
                None => removed,
                Some(common) => common.iter().zip(&removed).map(|(a, b)| a & b).collect(),
            });
        }
        let Some(common) = common else { continue };
        let eliminations: Vec<Elimination> = open
            .iter()
            .filter(|&&other| other != cell && common[other] != 0)
            .map(|&other| Elimination {
                cell: other,
                digits: common[other],
            })
            .collect();
        if !eliminations.is_empty() {
            let mut step = Step::new(Technique::CellForcing, 0.0);
            step.cells.push(cell);
            step.text = format!(
                "{}: every candidate of {} removes {}",
                Technique::CellForcing.name(),
                cell_name(cell, size),
                eliminations_text(&eliminations, size)
            );
            step.eliminations = eliminations;
            return Ok(Some(step));
        }
    }
    if ceiling < Level::Extreme {
        return Ok(None);
    }
    // Contradiction: a candidate whose consequences break a rule.
    for &cell in &open {
        if cancel.is_cancelled() {
            return Err(LogicError::Stopped(Stopped));
        }
        for digit in digits_of(masks[cell]) {
            if consequences.of_placing(&masks, cell, digit).is_none() {
                let mut step = Step::new(Technique::Contradiction, 0.0);
                step.cells.push(cell);
                step.eliminations.push(Elimination {
                    cell,
                    digits: bit(digit),
                });
                step.text = format!(
                    "{}: {}={} breaks a rule, so {}<>{}",
                    Technique::Contradiction.name(),
                    cell_name(cell, size),
                    digit_name(digit),
                    cell_name(cell, size),
                    digit_name(digit)
                );
                return Ok(Some(step));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::tests::{assert_sound, published_puzzles};

    /// Every step of every published puzzle's path is true of its solution.
    #[test]
    fn every_step_of_every_published_path_is_sound() {
        let mut solved = 0;
        for (title, puzzle) in published_puzzles() {
            // Two of the held-out puzzles take seconds to prove unique: skipped.
            let limit = Cancellation::none().with_time_limit(std::time::Duration::from_secs(3));
            let Ok(explanation) = explain_variant(&puzzle, &limit) else {
                continue;
            };
            assert_sound(&puzzle, &explanation, &title);
            solved += usize::from(explanation.stalled.is_none());
        }
        assert!(solved >= 75, "only {solved} paths end solved");
    }
}
