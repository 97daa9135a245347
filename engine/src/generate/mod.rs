//! Proper puzzles from a seed: a random full grid, givens removed an orbit of the chosen
//! symmetry at a time while the solution stays the only one, and for 9×9 a band of
//! ratings met by rating candidates, adding givens back to those rated too hard.
//!
//! - `drawn`: variant puzzles whose rules (regions, cages, lines, dots) are drawn too;
//! - `options`: what to generate, checked, and why a combination is refused;
//! - `order`: either kind of request (givens alone, or drawn rules too), made alike;
//! - `random`: the seeded stream every choice comes from;
//! - `symmetry`: the symmetries and the orbits of cells they tie together.

pub mod drawn;
mod options;
mod order;
mod random;
mod symmetry;

use std::hash::{BuildHasher, RandomState};

pub use options::{
    GenerateOption, GenerateOptions, InvalidOptions, MAX_COUNT, MAX_SEED, RATING_RANGE,
};
pub use order::{Made, Order};
pub use symmetry::Symmetry;

use self::random::Random;
use crate::grid::{Grid, box_side};
use crate::logic::board::{Board, digits_of};
use crate::logic::modes::VariantMode;
use crate::logic::step::round_rating;
use crate::logic::{self, LogicError};
use crate::solver::{self, Cancellation, Outcome, SolveOptions, Stopped};
use crate::variant::{self, VariantSolveOptions};

/// A generated puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// The puzzle: its givens.
    pub puzzle: Grid,
    /// Its one solution.
    pub solution: Grid,
    /// Its rating (ER, one decimal) for 9×9 puzzles.
    pub rating: Option<f64>,
    /// The seed that makes this puzzle alone.
    pub seed: u64,
}

/// The seeds of `count` puzzles asked for with `seed`: `seed` itself, then numbers drawn
/// from its stream, so each puzzle can be made again alone from its own seed.
pub fn puzzle_seeds(seed: u64, count: usize) -> Vec<u64> {
    let mut random = Random::new(seed);
    std::iter::once(seed)
        .chain(std::iter::repeat_with(move || random.next_u64() & MAX_SEED))
        .take(count)
        .collect()
}

/// A seed for a request that brought none: random (from the process's hash keys and the
/// clock).
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos());
    RandomState::new().hash_one(nanos) & MAX_SEED
}

/// The puzzle of `seed` under `options`. The same options and seed give the same puzzle on
/// every machine and thread; it changes only when this generator, the solver's choice of
/// first solution or the rating model does, or (on 16×16) the number of search nodes a
/// uniqueness check takes, which decides whether a grid is given up.
pub fn generate(
    options: &GenerateOptions,
    seed: u64,
    cancel: &Cancellation,
) -> Result<Generated, Stopped> {
    let cancel = &cancel.starting_now();
    let mut random = Random::new(seed);
    let orbits = options.symmetry.orbits(options.size);
    let mode = options.mode;
    loop {
        let solution = if mode.is_classic() {
            full_grid(options.size, &mut random, cancel)?
        } else {
            full_grid_in_mode(mode, &mut random, cancel)?
        };
        // In a variant mode, where minimal puzzles are often far harder than the band, a
        // given stays when removing it would rate the puzzle above the band.
        let ceiling = match options.band {
            Some((_, highest)) if !mode.is_classic() && !options.minimal => Some(highest),
            _ => None,
        };
        let Some((mut puzzle, mut removed)) =
            remove_givens(mode, ceiling, &solution, &orbits, &mut random, cancel)?
        else {
            continue;
        };
        if options.size != 9 {
            return Ok(Generated {
                puzzle: grid(options.size, puzzle),
                solution,
                rating: None,
                seed,
            });
        }
        let mut rating = rate(mode, &puzzle, cancel)?;
        let Some((lowest, highest)) = options.band else {
            if let Some(rating) = rating {
                return Ok(found(options.size, puzzle, solution, rating, seed));
            }
            continue;
        };
        if !options.minimal {
            // Too hard: givens come back, an orbit at a time, until the rating falls.
            random.shuffle(&mut removed);
            while rating.is_some_and(|rating| rating > highest) {
                let Some(orbit) = removed.pop() else { break };
                for &cell in &orbits[orbit] {
                    puzzle[cell] = solution.cells()[cell];
                }
                rating = rate(mode, &puzzle, cancel)?;
            }
        }
        if let Some(rating) = rating.filter(|&rating| (lowest..=highest).contains(&rating)) {
            return Ok(found(options.size, puzzle, solution, rating, seed));
        }
    }
}

fn grid(size: usize, cells: Vec<u8>) -> Grid {
    Grid::from_cells(size, cells).expect("digits of the grid's size")
}

fn found(size: usize, puzzle: Vec<u8>, solution: Grid, rating: f64, seed: u64) -> Generated {
    Generated {
        puzzle: grid(size, puzzle),
        solution,
        rating: Some(rating),
        seed,
    }
}

/// A random full grid: the boxes on the diagonal (which constrain each other in no way)
/// filled at random, the rest completed by the solver, then the digits relabelled at
/// random so the solver's preferences leave no trace.
fn full_grid(size: usize, random: &mut Random, cancel: &Cancellation) -> Result<Grid, Stopped> {
    let box_size = box_side(size);
    let mut digits: Vec<u8> = (1..=size as u8).collect();
    loop {
        let mut cells = vec![0; size * size];
        for band in 0..box_size {
            random.shuffle(&mut digits);
            for (index, &digit) in digits.iter().enumerate() {
                let row = band * box_size + index / box_size;
                let col = band * box_size + index % box_size;
                cells[row * size + col] = digit;
            }
        }
        let solved = solver::solve(&grid(size, cells), &SolveOptions::default(), cancel);
        match solved.outcome {
            Outcome::Solved { solution, .. } => {
                random.shuffle(&mut digits);
                let relabelled = solution.cells().iter().map(|&d| digits[usize::from(d) - 1]);
                return Ok(grid(size, relabelled.collect()));
            }
            Outcome::Stopped => return Err(Stopped),
            Outcome::Unsolvable => continue,
        }
    }
}

/// A random full 9×9 grid under the rules of a variant `mode`: a few digits placed at
/// random where the rules allow them, the rest completed by the variant solver (a new
/// start when they leave no solution), then, in modes where digits play no part beyond
/// being different, relabelled at random.
fn full_grid_in_mode(
    mode: VariantMode,
    random: &mut Random,
    cancel: &Cancellation,
) -> Result<Grid, Stopped> {
    let mut cells: Vec<usize> = (0..81).collect();
    loop {
        let mut board = Board::of_puzzle(mode.geometry(), vec![0; 81], None);
        random.shuffle(&mut cells);
        for &cell in &cells[..RANDOM_DIGITS] {
            let digits: Vec<u8> = digits_of(board.candidates(cell)).collect();
            if let Some(&digit) = digits.get(random.below(digits.len().max(1))) {
                board.place(cell, digit);
            }
        }
        let puzzle = mode.puzzle(&board.to_grid()).expect("a 9×9 grid");
        let answer = variant::solve(&puzzle, &VariantSolveOptions::default(), cancel)
            .map_err(|_| Stopped)?;
        if cancel.is_cancelled() {
            return Err(Stopped);
        }
        let Some(solution) = answer.solution else {
            continue;
        };
        if mode.nonconsecutive {
            return Ok(grid(9, solution));
        }
        let mut digits: Vec<u8> = (1..=9).collect();
        random.shuffle(&mut digits);
        return Ok(grid(
            9,
            solution
                .iter()
                .map(|&d| digits[usize::from(d) - 1])
                .collect(),
        ));
    }
}

/// From how many givens on a removal is made without checking the band's ceiling.
const UNRATED_GIVENS: usize = 36;

/// How many digits a random full grid of a variant mode starts from.
const RANDOM_DIGITS: usize = 8;

/// A puzzle's cells, and the orbits of givens removed to make it.
type Removal = (Vec<u8>, Vec<usize>);

/// Removes the orbits of givens from `solution` in a random order, each one only if the
/// solution stays unique. One pass leaves a minimal puzzle: an orbit that could not go
/// could not go later either, with fewer givens around it. Returns the puzzle's cells and
/// the orbits removed, or `None` when a check was too long to decide (another full grid is
/// then quicker than waiting).
fn remove_givens(
    mode: VariantMode,
    ceiling: Option<f64>,
    solution: &Grid,
    orbits: &[Vec<usize>],
    random: &mut Random,
    cancel: &Cancellation,
) -> Result<Option<Removal>, Stopped> {
    let mut cells = solution.cells().to_vec();
    let mut order: Vec<usize> = (0..orbits.len()).collect();
    random.shuffle(&mut order);
    let mut removed = Vec::new();
    for orbit in order {
        for &cell in &orbits[orbit] {
            cells[cell] = 0;
        }
        let unique = stays_unique(mode, solution, &cells, &orbits[orbit], cancel)?;
        // Puzzles with many givens left are easy: the rating is checked once they are few
        // (a puzzle that still ends above the band gets givens back, as in classic Sudoku).
        let rated = cells.iter().filter(|&&digit| digit != 0).count() < UNRATED_GIVENS;
        let within = match (unique, ceiling) {
            (Some(true), Some(ceiling)) if rated => {
                Some(rates_within(mode, &cells, ceiling, cancel)?)
            }
            (unique, _) => unique,
        };
        match within {
            Some(true) => removed.push(orbit),
            Some(false) => {
                for &cell in &orbits[orbit] {
                    cells[cell] = solution.cells()[cell];
                }
            }
            None => return Ok(None),
        }
    }
    Ok(Some((cells, removed)))
}

/// Whether the puzzle of `cells`, whose only solution was `solution` until the givens of
/// `orbit` were removed, still has only that one. The 9×9 engine counts solutions faster
/// than the any-size engine answers anything; on other sizes, the question is whether
/// a solution differs from `solution` in one of the orbit's cells (another solution that
/// agreed on them would have solved the puzzle before too), a search about half the size
/// of counting on 16×16, and one that gives up (`None`) after [`CHECK_NODES`].
fn stays_unique(
    mode: VariantMode,
    solution: &Grid,
    cells: &[u8],
    orbit: &[usize],
    cancel: &Cancellation,
) -> Result<Option<bool>, Stopped> {
    let puzzle = grid(solution.size(), cells.to_vec());
    if !mode.is_classic() {
        let options = VariantSolveOptions {
            max_solutions: 2,
            ..VariantSolveOptions::default()
        };
        let puzzle = mode.puzzle(&puzzle).expect("a 9×9 grid");
        let answer = variant::solve(&puzzle, &options, cancel).map_err(|_| Stopped)?;
        return match (answer.solution_count, answer.count_exact) {
            (1, true) => Ok(Some(true)),
            (1, false) => Err(Stopped),
            _ => Ok(Some(false)),
        };
    }
    if solution.size() == 9 {
        let options = SolveOptions {
            limit: 2,
            ..SolveOptions::default()
        };
        return match solver::solve(&puzzle, &options, cancel).outcome {
            Outcome::Solved { count, .. } => Ok(Some(count == 1)),
            Outcome::Unsolvable => Ok(Some(false)),
            Outcome::Stopped => Err(Stopped),
        };
    }
    for &cell in orbit {
        let digit = solution.cells()[cell];
        match solver::has_solution_without(&puzzle, cell, digit, CHECK_NODES, cancel) {
            Some(true) => return Ok(Some(false)),
            Some(false) => {}
            None if cancel.is_cancelled() => return Err(Stopped),
            None => return Ok(None),
        }
    }
    Ok(Some(true))
}

/// The search nodes a uniqueness check on a 16×16 (or 4×4) puzzle may take before the
/// grid is given up for another (the search's restarts stop once their budgets reach it:
/// 523,264 nodes, about a second). Nearly every check takes far fewer, while a few near
/// the end of a removal take many seconds, where a whole puzzle takes a fraction of one.
const CHECK_NODES: u64 = 1 << 18;

/// Whether the proper 9×9 puzzle of `cells` in `mode` rates `ceiling` or less, found
/// without searching for harder steps.
fn rates_within(
    mode: VariantMode,
    cells: &[u8],
    ceiling: f64,
    cancel: &Cancellation,
) -> Result<bool, Stopped> {
    let mut board = Board::of_puzzle(mode.geometry(), cells.to_vec(), None);
    logic::path::stays_within(&mut board, ceiling, cancel).ok_or(Stopped)
}

/// The rating (ER, one decimal) of a proper 9×9 puzzle of `mode`, or `None` if none
/// applies.
fn rate(mode: VariantMode, cells: &[u8], cancel: &Cancellation) -> Result<Option<f64>, Stopped> {
    let grid = grid(9, cells.to_vec());
    let rated = if mode.is_classic() {
        logic::rate(&grid, cancel)
    } else {
        let puzzle = mode.puzzle(&grid).expect("a 9×9 grid");
        logic::rate_variant(&puzzle, cancel).map(|(rating, _)| rating)
    };
    match rated {
        Ok(rating) => Ok(Some(round_rating(rating.er))),
        Err(LogicError::Stopped(stopped)) => Err(stopped),
        Err(_) => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Level;

    fn options(
        size: usize,
        level: Option<Level>,
        symmetry: Symmetry,
        minimal: bool,
    ) -> GenerateOptions {
        GenerateOptions::new(size, level, None, None, symmetry, minimal).unwrap()
    }

    fn solutions(puzzle: &Grid) -> u64 {
        let options = SolveOptions {
            limit: 2,
            ..SolveOptions::default()
        };
        match solver::solve(puzzle, &options, &Cancellation::none()).outcome {
            Outcome::Solved { count, .. } => count,
            _ => 0,
        }
    }

    /// Asserts that `made` has one solution, `made.solution`, that keeps its givens.
    fn assert_proper(made: &Generated) {
        assert_eq!(solutions(&made.puzzle), 1, "{}", made.puzzle.to_symbols());
        assert!(made.solution.is_complete());
        for (given, digit) in made.puzzle.cells().iter().zip(made.solution.cells()) {
            assert!(*given == 0 || given == digit);
        }
    }

    /// Asserts that removing any given (with its orbit) leaves several solutions.
    fn assert_minimal(made: &Generated, symmetry: Symmetry) {
        let size = made.puzzle.size();
        for orbit in symmetry.orbits(size) {
            if made.puzzle.cells()[orbit[0]] == 0 {
                continue;
            }
            let mut cells = made.puzzle.cells().to_vec();
            for &cell in &orbit {
                cells[cell] = 0;
            }
            assert_eq!(solutions(&grid(size, cells)), 2, "orbit {orbit:?} could go");
        }
    }

    /// Asserts, cell by cell, that a cell is a given exactly when its images are.
    fn assert_symmetric(puzzle: &Grid, symmetry: Symmetry) {
        let size = puzzle.size();
        for row in 0..size {
            for col in 0..size {
                let given = puzzle.get(row, col) != 0;
                for (image_row, image_col) in symmetry.images(size, row, col) {
                    assert_eq!(puzzle.get(image_row, image_col) != 0, given, "{symmetry:?}");
                }
            }
        }
    }

    #[test]
    fn every_symmetry_gives_proper_minimal_symmetric_puzzles() {
        for (seed, symmetry) in Symmetry::ALL.into_iter().enumerate() {
            let options = options(9, None, symmetry, true);
            let made = generate(&options, seed as u64, &Cancellation::none()).unwrap();
            assert_proper(&made);
            assert_minimal(&made, symmetry);
            assert_symmetric(&made.puzzle, symmetry);
            assert!(made.rating.is_some());
        }
    }

    #[test]
    fn other_sizes_get_proper_minimal_puzzles_without_ratings() {
        for (size, symmetry) in [
            (4, Symmetry::None),
            (4, Symmetry::Rotational),
            (16, Symmetry::Central),
        ] {
            let made = generate(
                &options(size, None, symmetry, true),
                3,
                &Cancellation::none(),
            )
            .unwrap();
            assert_proper(&made);
            assert_minimal(&made, symmetry);
            assert_symmetric(&made.puzzle, symmetry);
            assert_eq!(made.rating, None);
        }
    }

    #[test]
    fn a_seed_makes_the_same_puzzle_and_another_seed_another() {
        let options = options(9, Some(Level::Hard), Symmetry::Central, false);
        let make = |seed| generate(&options, seed, &Cancellation::none()).unwrap();
        assert_eq!(make(11), make(11));
        assert_ne!(make(11).puzzle, make(12).puzzle);
    }

    #[test]
    fn puzzles_land_in_the_band_asked_for_and_the_rater_agrees() {
        let cancel = Cancellation::none();
        for (seed, level) in [Level::Easy, Level::Medium, Level::Hard, Level::Expert]
            .into_iter()
            .enumerate()
        {
            for minimal in [false, true] {
                let made = generate(
                    &options(9, Some(level), Symmetry::None, minimal),
                    seed as u64,
                    &cancel,
                )
                .unwrap();
                assert_proper(&made);
                let rating = logic::rate(&made.puzzle, &cancel).unwrap();
                assert_eq!(Some(round_rating(rating.er)), made.rating);
                assert_eq!(Level::of(rating.er), level, "{}", made.puzzle.to_symbols());
            }
        }
        let ranged =
            GenerateOptions::new(9, None, Some(3.0), Some(3.4), Symmetry::None, false).unwrap();
        let made = generate(&ranged, 5, &cancel).unwrap();
        assert!((3.0..=3.4).contains(&made.rating.unwrap()));
    }

    #[test]
    fn each_puzzle_of_a_request_comes_back_alone_from_its_seed() {
        let seeds = puzzle_seeds(99, 4);
        assert_eq!(seeds[0], 99);
        assert_eq!(seeds, puzzle_seeds(99, 4));
        assert!(seeds.iter().all(|&seed| seed <= MAX_SEED));
        assert_eq!(puzzle_seeds(99, 2), seeds[..2]);
    }

    #[test]
    fn impossible_requests_are_refused() {
        let new = |size, level, se_min, se_max| {
            GenerateOptions::new(size, level, se_min, se_max, Symmetry::None, false)
        };
        let refused = |result: Result<GenerateOptions, InvalidOptions>| result.is_err();
        assert!(refused(new(8, None, None, None)));
        assert!(refused(new(25, None, None, None)));
        assert!(refused(new(9, Some(Level::Beyond), None, None)));
        assert!(refused(new(9, Some(Level::Hard), Some(3.0), None)));
        let too_low = new(9, None, Some(0.5), None).unwrap_err();
        let named = |option| match option {
            GenerateOption::SeMin => "se_min",
            _ => "another option",
        };
        let text = too_low.describe(named);
        assert!(
            text.starts_with("se_min must") && text.ends_with("ratings start at 1.0"),
            "{text}"
        );
        assert!(refused(new(9, None, None, Some(9.5))));
        assert!(refused(new(9, None, Some(5.0), Some(4.0))));
        assert!(refused(new(9, None, Some(3.05), Some(3.05))));
        assert!(refused(new(9, None, Some(3.01), Some(3.09))));
        assert!(refused(new(
            9,
            None,
            Some(3.1000000001),
            Some(3.1000000001)
        )));
        for tenths in 10..=89 {
            // Every rating a puzzle can have, as a client would write it, is a band of its
            // own; below 4.0 the others are refused.
            let rating: f64 = format!("{}.{}", tenths / 10, tenths % 10).parse().unwrap();
            let possible = tenths >= 40 || crate::logic::RATINGS_BELOW_4.contains(&rating);
            assert_eq!(
                refused(new(9, None, Some(rating), Some(rating))),
                !possible,
                "{rating}"
            );
        }
        assert!(!refused(new(9, None, Some(3.15), Some(3.25))));
        assert!(refused(new(9, None, Some(3.05), Some(3.15))));
        assert!(refused(new(9, None, Some(4.05), Some(4.05))));
        assert!(!refused(new(9, None, Some(4.05), Some(4.1))));
        assert!(refused(new(16, Some(Level::Easy), None, None)));
        assert!(!refused(new(9, None, Some(8.9), None)));
        assert!(refused(new(9, None, Some(9.0), None)));
    }

    #[test]
    fn a_cancelled_generation_stops() {
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let cancel = Cancellation::none().with_flag(flag);
        let options = options(9, Some(Level::Extreme), Symmetry::None, true);
        assert_eq!(generate(&options, 1, &cancel), Err(Stopped));
    }
}
