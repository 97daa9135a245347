//! The next step from where a player is: their digits and, if they keep them, their pencil
//! marks. Mistakes come first: a digit that differs from the solution, or a mark that
//! removed the solution's digit, is reported instead of a step built on it.

use super::board::{Board, Digits, bit};
use super::path;
use super::rating::solution_digit;
use super::step::{Step, cell_name};
use super::{LogicError, unique_solution};
use crate::grid::Grid;
use crate::solver::{Cancellation, Stopped};

/// What a player got wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MistakeKind {
    /// A digit in the cell that is not the solution's.
    WrongDigit,
    /// The cell's pencil marks lack the solution's digit.
    RemovedCandidate,
}

/// One mistake: the cell, and the digit concerned (the wrong digit, or the solution's
/// digit the marks removed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mistake {
    /// The cell (row-major index).
    pub cell: usize,
    /// The digit.
    pub digit: u8,
    /// What is wrong with it.
    pub kind: MistakeKind,
}

/// The answer to a player who asks for help.
#[derive(Debug, Clone, PartialEq)]
pub enum Hint {
    /// The easiest step from the player's state.
    Step(Box<Step>),
    /// The player's digits or marks contradict the solution.
    Mistakes(Vec<Mistake>),
    /// The grid is finished and correct.
    Solved,
    /// No step applies to the player's state (variant puzzles, whose logic never guesses).
    Stalled,
}

/// The hint for a player of `puzzle` (its givens, with exactly one solution) who has
/// filled in `grid` and, where an entry is not `None`, kept `marks` (the candidates they
/// left in each cell, row-major).
///
/// The board the step is found on keeps, in each empty cell, the player's marks (where
/// given) among the candidates the grid's digits leave: marks that a placed digit already
/// rules out are no reason to stop.
pub fn hint(
    puzzle: &Grid,
    grid: &Grid,
    marks: Option<&[Option<Digits>]>,
    cancel: &Cancellation,
) -> Result<Hint, LogicError> {
    if grid.size() != puzzle.size() {
        return Err(LogicError::Mismatch(format!(
            "the grid is {0}×{0} but the puzzle is {1}×{1}",
            grid.size(),
            puzzle.size()
        )));
    }
    if let Some(cell) = (0..puzzle.cells().len())
        .find(|&cell| puzzle.cells()[cell] != 0 && grid.cells()[cell] != puzzle.cells()[cell])
    {
        return Err(LogicError::Mismatch(format!(
            "the grid changes the given at {}",
            cell_name(cell, puzzle.size())
        )));
    }
    if let Some(marks) = marks.filter(|marks| marks.len() != puzzle.cells().len()) {
        return Err(LogicError::Mismatch(format!(
            "candidates has {} entr{}; expected one per cell ({})",
            marks.len(),
            if marks.len() == 1 { "y" } else { "ies" },
            puzzle.cells().len()
        )));
    }
    let cancel = &cancel.starting_now();
    let solution = unique_solution(puzzle, cancel)?;
    let mistakes = mistakes(grid.cells(), solution.cells(), marks);
    if !mistakes.is_empty() {
        return Ok(Hint::Mistakes(mistakes));
    }
    if grid.is_complete() {
        return Ok(Hint::Solved);
    }
    let board = player_board(grid, marks);
    let step = path::next_step(&board, cancel);
    if cancel.is_cancelled() {
        return Err(LogicError::Stopped(Stopped));
    }
    let step = step.unwrap_or_else(|| solution_digit(&board, &solution));
    Ok(Hint::Step(Box::new(step)))
}

/// Where the player's digits (row-major, 0 for an empty cell) differ from the solution,
/// else where their marks lack the solution's digit.
pub(super) fn mistakes(
    grid: &[u8],
    solution: &[u8],
    marks: Option<&[Option<Digits>]>,
) -> Vec<Mistake> {
    let wrong: Vec<Mistake> = (0..grid.len())
        .filter(|&cell| grid[cell] != 0 && grid[cell] != solution[cell])
        .map(|cell| Mistake {
            cell,
            digit: grid[cell],
            kind: MistakeKind::WrongDigit,
        })
        .collect();
    if !wrong.is_empty() {
        return wrong;
    }
    let Some(marks) = marks else {
        return Vec::new();
    };
    (0..grid.len())
        .filter(|&cell| grid[cell] == 0)
        .filter_map(|cell| {
            let digit = solution[cell];
            let kept = marks[cell]?;
            (kept & bit(digit) == 0).then_some(Mistake {
                cell,
                digit,
                kind: MistakeKind::RemovedCandidate,
            })
        })
        .collect()
}

/// The board of the player's state (see [`hint`]).
fn player_board(grid: &Grid, marks: Option<&[Option<Digits>]>) -> Board {
    let implied = Board::from_grid(grid);
    let candidates = (0..grid.cells().len())
        .map(|cell| {
            let mark = marks.and_then(|marks| marks[cell]);
            implied.candidates(cell) & mark.unwrap_or(Digits::MAX)
        })
        .collect();
    Board::with_candidates(grid, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::step::Placement;
    use crate::logic::technique::Technique;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn grid(symbols: &str) -> Grid {
        Grid::parse_symbols(symbols).unwrap()
    }

    fn ask(player: &str, marks: Option<&[Option<Digits>]>) -> Result<Hint, LogicError> {
        hint(&grid(PUZZLE), &grid(player), marks, &Cancellation::none())
    }

    #[test]
    fn a_fresh_puzzle_gets_its_first_step() {
        let Ok(Hint::Step(step)) = ask(PUZZLE, None) else {
            panic!("a step")
        };
        assert_eq!(step.technique, Technique::HiddenSingleBox);
        let Placement { cell, digit } = step.placements[0];
        assert_eq!(SOLUTION.as_bytes()[cell] - b'0', digit);
    }

    #[test]
    fn a_wrong_digit_is_reported_instead_of_a_step() {
        let mut player = PUZZLE.to_owned();
        player.replace_range(2..3, "1"); // the solution has 4 there
        assert_eq!(
            ask(&player, None),
            Ok(Hint::Mistakes(vec![Mistake {
                cell: 2,
                digit: 1,
                kind: MistakeKind::WrongDigit
            }]))
        );
    }

    #[test]
    fn marks_without_the_solution_digit_are_reported() {
        let mut marks: Vec<Option<Digits>> = vec![None; 81];
        marks[2] = Some(bit(1) | bit(2)); // r1c3 is 4
        assert_eq!(
            ask(PUZZLE, Some(&marks)),
            Ok(Hint::Mistakes(vec![Mistake {
                cell: 2,
                digit: 4,
                kind: MistakeKind::RemovedCandidate
            }]))
        );
    }

    #[test]
    fn a_finished_grid_is_solved_and_changed_givens_are_refused() {
        assert_eq!(ask(SOLUTION, None), Ok(Hint::Solved));
        let mut player = PUZZLE.to_owned();
        player.replace_range(0..1, ".");
        assert!(matches!(ask(&player, None), Err(LogicError::Mismatch(_))));
    }

    #[test]
    fn marks_for_another_number_of_cells_are_refused() {
        let one = vec![None; 1];
        let Err(LogicError::Mismatch(detail)) = ask(PUZZLE, Some(&one)) else {
            panic!("one entry of pencil marks was taken for a 9×9 grid");
        };
        assert!(detail.starts_with("candidates has 1 entry;"), "{detail}");
    }
}
