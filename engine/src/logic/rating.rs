//! Rating and explaining a puzzle: the whole path a person takes from its givens to its
//! solution, and the Sudoku Explainer ratings that path earns (ER, EP, ED).

use std::cmp::Ordering;

use super::board::Board;
use super::modes::VariantMode;
use super::path::{self, Stop};
use super::step::{Placement, Step, round_rating};
use super::technique::Technique;
use super::{LogicError, unique_solution};
use crate::grid::Grid;
use crate::solver::{Cancellation, Stopped};
use crate::variant::Puzzle;

/// The version of the rating model: the reference it reproduces, and this implementation's
/// revision of it. Ratings of the same puzzle only change when it changes.
pub const MODEL: &str = "sukaku-explainer-1.18.1/1";

/// Every rating below 4.0 that a puzzle can have. Each technique rated below 4.0 has one
/// difficulty, so a rating below 4.0 is one of theirs (no puzzle rates 1.6); from 4.0 on,
/// difficulties grow with the size of a pattern, and no rating is ruled out.
pub const RATINGS_BELOW_4: [f64; 15] = [
    1.0, 1.2, 1.5, 1.7, 1.9, 2.0, 2.3, 2.5, 2.6, 2.8, 3.0, 3.2, 3.4, 3.6, 3.8,
];

/// Whether a puzzle of `mode` may be rated from `lowest` to `highest`: some one-decimal
/// rating lies between them, and below 4.0 one of the mode's
/// ([`VariantMode::ratings_below_4`]).
pub fn may_rate_within(mode: VariantMode, lowest: f64, highest: f64) -> bool {
    let within = |rating: f64| (lowest..=highest).contains(&rating);
    // From 4.0 on: the first one-decimal rating at or above the band's start, written as a
    // client writes it (3.1 is `31.0 / 10.0`, not `3.1 * 10.0` rounded up).
    let start = lowest.max(4.0);
    let mut tenths = (start * 10.0).round();
    if tenths / 10.0 < start {
        tenths += 1.0;
    }
    mode.ratings_below_4().into_iter().any(within) || within(tenths / 10.0)
}

/// A difficulty band, named on the one-decimal rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// 1.0–1.5: full houses and hidden singles.
    Easy,
    /// 1.6–2.5: naked singles, direct intersections and hidden pairs and triples.
    Medium,
    /// 2.6–3.9: intersections, pairs, triples, X-Wing, swordfish.
    Hard,
    /// 4.0–5.9: strong links, wings, uniqueness, quads, jellyfish, BUG.
    Expert,
    /// 6.0–8.9: aligned exclusion, cycles, forcing chains, dynamic chains.
    Extreme,
    /// 9.0 and up: nested forcing chains.
    Beyond,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 6] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
        Level::Beyond,
    ];

    /// The level named `id`, or an error that lists the names of the levels puzzles can
    /// be generated in (`beyond` is a level of ratings, too rare to ask for).
    pub fn from_id(id: &str) -> Result<Level, String> {
        let asked_for = Level::ALL
            .into_iter()
            .filter(|&level| level != Level::Beyond);
        let ids = asked_for.map(Level::id).collect::<Vec<_>>().join(", ");
        Level::ALL
            .into_iter()
            .find(|level| level.id() == id)
            .ok_or_else(|| format!("unknown level `{id}`; one of {ids}"))
    }

    /// The level of a rating, on its one-decimal value.
    pub fn of(rating: f64) -> Level {
        let tenths = (round_rating(rating) * 10.0).round() as i64;
        match tenths {
            ..=15 => Level::Easy,
            16..=25 => Level::Medium,
            26..=39 => Level::Hard,
            40..=59 => Level::Expert,
            60..=89 => Level::Extreme,
            _ => Level::Beyond,
        }
    }

    /// The ratings of the band, on the one-decimal scale (the highest band has no top).
    pub fn range(self) -> (f64, f64) {
        match self {
            Level::Easy => (1.0, 1.5),
            Level::Medium => (1.6, 2.5),
            Level::Hard => (2.6, 3.9),
            Level::Expert => (4.0, 5.9),
            Level::Extreme => (6.0, 8.9),
            Level::Beyond => (9.0, f64::INFINITY),
        }
    }

    /// The API's name of the level.
    pub fn id(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
            Level::Beyond => "beyond",
        }
    }
}

/// How often one technique was used, and its hardest use.
#[derive(Debug, Clone, PartialEq)]
pub struct TechniqueUse {
    /// The technique.
    pub technique: Technique,
    /// How many steps used it.
    pub count: usize,
    /// The highest difficulty among those steps.
    pub difficulty: f64,
}

/// The Sudoku Explainer ratings of a puzzle and what earned them.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// ER: the difficulty of the hardest step.
    pub er: f64,
    /// EP: the difficulty of the hardest step up to the first digit placed.
    pub ep: f64,
    /// ED: the difficulty of the first step.
    pub ed: f64,
    /// The technique of the first step that reached ER; `None` when there are no steps
    /// (the grid has no blank cell).
    pub hardest: Option<Technique>,
    /// The number of steps.
    pub steps: usize,
    /// The techniques used, easiest first.
    pub techniques: Vec<TechniqueUse>,
}

impl Rating {
    /// The band of ER.
    pub fn level(&self) -> Level {
        Level::of(self.er)
    }

    /// The ratings of `steps`, a path from a puzzle to its solution.
    fn of(steps: &[Step]) -> Rating {
        let mut er = 0.0;
        let mut hardest = None;
        let mut ep = None;
        let mut techniques: Vec<TechniqueUse> = Vec::new();
        for step in steps {
            if step.difficulty > er {
                er = step.difficulty;
                hardest = Some(step.technique);
            }
            if ep.is_none() && !step.placements.is_empty() {
                ep = Some(er);
            }
            match techniques
                .iter_mut()
                .find(|used| used.technique == step.technique)
            {
                Some(used) => {
                    used.count += 1;
                    used.difficulty = used.difficulty.max(step.difficulty);
                }
                None => techniques.push(TechniqueUse {
                    technique: step.technique,
                    count: 1,
                    difficulty: step.difficulty,
                }),
            }
        }
        techniques.sort_by(|a, b| {
            a.difficulty
                .partial_cmp(&b.difficulty)
                .unwrap_or(Ordering::Equal)
                .then(a.technique.cmp(&b.technique))
        });
        Rating {
            er,
            ep: ep.unwrap_or(er),
            ed: steps.first().map_or(0.0, |step| step.difficulty),
            hardest,
            steps: steps.len(),
            techniques,
        }
    }
}

/// A puzzle's solution and the path that reaches it.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The solution.
    pub solution: Grid,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// The ratings of the path (9×9 puzzles only).
    pub rating: Option<Rating>,
}

/// Rates a 9×9 puzzle with exactly one solution.
pub fn rate(puzzle: &Grid, cancel: &Cancellation) -> Result<Rating, LogicError> {
    if puzzle.size() != 9 {
        return Err(LogicError::UnsupportedSize(puzzle.size()));
    }
    let explanation = explain(puzzle, cancel)?;
    Ok(explanation.rating.expect("9×9 paths are rated"))
}

/// Rates a variant puzzle with exactly one solution in its Sukaku Explainer mode, and
/// names the mode; [`LogicError::NoScale`] when it has none.
pub fn rate_variant(
    puzzle: &Puzzle,
    cancel: &Cancellation,
) -> Result<(Rating, VariantMode), LogicError> {
    let (explanation, mode) = explain_in_mode(puzzle, cancel)?;
    Ok((explanation.rating.expect("paths of modes are rated"), mode))
}

/// The path Sukaku Explainer takes through a variant puzzle with exactly one solution in
/// its mode (see [`rate_variant`]), rated.
pub fn explain_in_mode(
    puzzle: &Puzzle,
    cancel: &Cancellation,
) -> Result<(Explanation, VariantMode), LogicError> {
    let mode = VariantMode::of(puzzle).map_err(LogicError::NoScale)?;
    let cancel = &cancel.starting_now();
    let solution = super::variant::unique_solution(puzzle, cancel)?;
    let values = puzzle
        .givens()
        .iter()
        .map(|given| given.unwrap_or(0))
        .collect();
    let mut board = Board::of_puzzle(mode.geometry(), values, None);
    match path::solve(&mut board, cancel) {
        (steps, None) => {
            let explanation = Explanation {
                solution: Grid::from_cells(9, solution).expect("a 9×9 solution"),
                rating: Some(Rating::of(&steps)),
                steps,
            };
            Ok((explanation, mode))
        }
        (_, Some(Stop::Stopped)) => Err(LogicError::Stopped(Stopped)),
        (_, Some(Stop::Stuck)) => Err(LogicError::BeyondTechniques),
    }
}

/// The whole path from a puzzle with exactly one solution to that solution. On sizes other
/// than 9×9, where the techniques run out a step places a digit of the solution instead
/// ([`Technique::GuessFreeSolutionDigit`]).
pub fn explain(puzzle: &Grid, cancel: &Cancellation) -> Result<Explanation, LogicError> {
    let cancel = &cancel.starting_now();
    let solution = unique_solution(puzzle, cancel)?;
    let mut board = Board::from_grid(puzzle);
    let mut steps = Vec::new();
    loop {
        let (more, stop) = path::solve(&mut board, cancel);
        steps.extend(more);
        match stop {
            None => break,
            Some(Stop::Stopped) => return Err(LogicError::Stopped(Stopped)),
            Some(Stop::Stuck) if puzzle.size() == 9 => return Err(LogicError::BeyondTechniques),
            Some(Stop::Stuck) => {
                let step = solution_digit(&board, &solution);
                step.apply(&mut board);
                steps.push(step);
            }
        }
    }
    let rating = (puzzle.size() == 9).then(|| Rating::of(&steps));
    Ok(Explanation {
        solution,
        steps,
        rating,
    })
}

/// The step that places the solution's digit in the first empty cell with the fewest
/// candidates: where the techniques defined on every size run out.
pub fn solution_digit(board: &Board, solution: &Grid) -> Step {
    let cell = (0..board.cell_count())
        .filter(|&cell| board.value(cell) == 0)
        .min_by_key(|&cell| board.candidates(cell).count_ones())
        .expect("an unsolved board has an empty cell");
    let digit = solution.cells()[cell];
    let mut step = Step::new(Technique::GuessFreeSolutionDigit, 0.0);
    step.placements.push(Placement { cell, digit });
    step.cells.push(cell);
    let size = board.size();
    step.text = format!(
        "{}: {}={} (no simpler technique applies)",
        Technique::GuessFreeSolutionDigit.name(),
        super::step::cell_name(cell, size),
        super::step::digit_name(digit)
    );
    step
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_bands_of_the_printed_rating() {
        assert_eq!(Level::of(1.5), Level::Easy);
        assert_eq!(Level::of(1.55), Level::Medium, "prints as 1.6");
        assert_eq!(Level::of(2.5), Level::Medium);
        assert_eq!(Level::of(3.9), Level::Hard);
        assert_eq!(Level::of(5.96), Level::Extreme, "prints as 6.0");
        assert_eq!(Level::of(8.9), Level::Extreme);
        assert_eq!(Level::of(9.0), Level::Beyond);
        for level in Level::ALL {
            assert_eq!(Level::of(level.range().0), level);
        }
    }

    #[test]
    fn a_classic_puzzle_is_rated_and_its_path_replays_to_the_solution() {
        let puzzle = Grid::parse_symbols(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap();
        let explanation = explain(&puzzle, &Cancellation::none()).unwrap();
        let rating = explanation.rating.clone().unwrap();
        assert_eq!(round_rating(rating.er), 1.2, "hidden singles in boxes only");
        assert_eq!(rating.level(), Level::Easy);
        assert_eq!(rating.steps, explanation.steps.len());
        let mut board = Board::from_grid(&puzzle);
        for step in &explanation.steps {
            step.apply(&mut board);
        }
        assert_eq!(board.to_grid(), explanation.solution);
        assert_eq!(
            rate(&Grid::empty(4).unwrap(), &Cancellation::none()),
            Err(LogicError::UnsupportedSize(4))
        );
    }
}
