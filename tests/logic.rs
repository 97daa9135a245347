//! The logical solver against the reference and against itself: ratings that agree with
//! Sukaku Explainer's `serate` on puzzles it rated and this project never tuned on, paths
//! that replay to the solution on every size, hints that only ever say true things, and
//! ratings that do not depend on how many threads compute them.

mod common;

use proptest::prelude::*;
use sudoku_engine::grid::Grid;
use sudoku_engine::logic::board::{Board, digits_of};
use sudoku_engine::logic::step::{Step, round_rating};
use sudoku_engine::logic::{self, Hint};
use sudoku_engine::solver::Cancellation;

use common::{read_data, read_puzzles};

/// The puzzles of a file of reference ratings (`puzzle<TAB>se<TAB>...`, a header line).
fn rated(relative: &str) -> Vec<(Grid, f64)> {
    read_data(relative)
        .lines()
        .skip(1)
        .map(|line| {
            let mut fields = line.split('\t');
            let grid = Grid::parse_symbols(fields.next().unwrap()).unwrap();
            let se = fields.next().unwrap().parse().unwrap();
            (grid, se)
        })
        .collect()
}

/// Spearman's rank correlation of two equally long series (ties get their mean rank).
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    fn ranks(values: &[f64]) -> Vec<f64> {
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by(|&x, &y| values[x].total_cmp(&values[y]));
        let mut ranks = vec![0.0; values.len()];
        let mut start = 0;
        while start < order.len() {
            let mut end = start;
            while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
                end += 1;
            }
            let mean = (start + end) as f64 / 2.0;
            for &index in &order[start..=end] {
                ranks[index] = mean;
            }
            start = end + 1;
        }
        ranks
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let mean = (a.len() as f64 - 1.0) / 2.0;
    let covariance: f64 = ra
        .iter()
        .zip(&rb)
        .map(|(x, y)| (x - mean) * (y - mean))
        .sum();
    let spread = |r: &[f64]| r.iter().map(|x| (x - mean).powi(2)).sum::<f64>().sqrt();
    covariance / (spread(&ra) * spread(&rb))
}

#[test]
fn ratings_agree_with_the_reference_on_puzzles_never_tuned_on() {
    let puzzles = rated("9x9/se-rated/se-rated-heldout.tsv");
    assert!(puzzles.len() >= 500, "the held-out set is there");
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for (grid, se) in &puzzles {
        let rating = logic::rate(grid, &Cancellation::none()).expect("a proper puzzle");
        ours.push(round_rating(rating.er));
        theirs.push(*se);
    }
    let count = puzzles.len() as f64;
    let exact = ours
        .iter()
        .zip(&theirs)
        .filter(|(a, b)| (*a - *b).abs() < 0.05)
        .count();
    let close = ours
        .iter()
        .zip(&theirs)
        .filter(|(a, b)| (*a - *b).abs() < 0.55)
        .count();
    let correlation = spearman(&ours, &theirs);
    let report =
        format!("exact {exact}/{count}, within 0.5 {close}/{count}, Spearman {correlation:.4}");
    assert!(exact as f64 >= 0.80 * count, "{report}");
    assert!(close as f64 >= 0.95 * count, "{report}");
    assert!(correlation >= 0.95, "{report}");
}

/// Replays `steps` from `puzzle`: every placement is the solution's digit, no elimination
/// removes it, and the steps finish the grid.
fn assert_replays(puzzle: &Grid, solution: &Grid, steps: &[Step]) {
    let mut board = Board::from_grid(puzzle);
    for (number, step) in steps.iter().enumerate() {
        assert_true(step, solution, number);
        step.apply(&mut board);
    }
    assert_eq!(board.to_grid(), *solution, "the steps finish the grid");
}

/// Asserts that `step` (number `number` of a path) places only the solution's digits and
/// removes none of them.
fn assert_true(step: &Step, solution: &Grid, number: usize) {
    for placement in &step.placements {
        assert_eq!(
            solution.cells()[placement.cell],
            placement.digit,
            "step {number} places a wrong digit: {}",
            step.text
        );
    }
    for elimination in &step.eliminations {
        let digit = solution.cells()[elimination.cell];
        assert!(
            !digits_of(elimination.digits).any(|removed| removed == digit),
            "step {number} removes the solution's digit: {}",
            step.text
        );
    }
}

#[test]
fn every_path_replays_to_the_solution_on_every_size() {
    let mut puzzles: Vec<Grid> = rated("9x9/se-rated/se-rated-dev.tsv")
        .into_iter()
        .step_by(25)
        .map(|(grid, _)| grid)
        .collect();
    puzzles.extend(
        read_puzzles("16x16/16x16-100puzzles-vu-kr.txt")
            .into_iter()
            .take(5)
            .map(|puzzle| puzzle.grid),
    );
    puzzles.extend(
        read_puzzles("25x25/25x25-grid-1.line.txt")
            .into_iter()
            .map(|p| p.grid),
    );
    puzzles.push(Grid::parse_symbols("1.....3..4.....2").unwrap());
    for puzzle in &puzzles {
        let explanation = logic::explain(puzzle, &Cancellation::none()).expect("one solution");
        assert_replays(puzzle, &explanation.solution, &explanation.steps);
        assert_eq!(explanation.rating.is_some(), puzzle.size() == 9);
        if puzzle.size() == 9 {
            for step in &explanation.steps {
                let rating = round_rating(step.difficulty);
                assert!(
                    rating >= 4.0 || logic::RATINGS_BELOW_4.contains(&rating),
                    "{:?} rates {rating}",
                    step.technique
                );
            }
        }
    }
}

#[test]
fn the_reference_rates_below_4_only_as_the_easy_techniques_do() {
    let reference = [
        rated("9x9/se-rated/se-rated-dev.tsv"),
        rated("9x9/se-rated/se-rated-heldout.tsv"),
    ];
    let below_4: Vec<f64> = reference
        .iter()
        .flatten()
        .map(|&(_, se)| se)
        .filter(|&se| se < 4.0)
        .collect();
    assert!(below_4.len() > 500, "{}", below_4.len());
    for se in below_4 {
        assert!(logic::RATINGS_BELOW_4.contains(&se), "{se}");
    }
}

#[test]
fn the_rating_is_the_hardest_step_and_ep_ed_come_first() {
    for (puzzle, _) in rated("9x9/se-rated/se-rated-dev.tsv")
        .into_iter()
        .step_by(97)
    {
        let explanation = logic::explain(&puzzle, &Cancellation::none()).unwrap();
        let rating = explanation.rating.unwrap();
        let steps = &explanation.steps;
        let hardest = steps.iter().map(|s| s.difficulty).fold(0.0, f64::max);
        assert_eq!(rating.er, hardest);
        assert_eq!(rating.ed, steps[0].difficulty);
        let first_placing = steps.iter().position(|s| !s.placements.is_empty()).unwrap();
        let ep = steps[..=first_placing]
            .iter()
            .map(|s| s.difficulty)
            .fold(0.0, f64::max);
        assert_eq!(rating.ep, ep);
        assert_eq!(rating.steps, steps.len());
    }
}

/// Puzzles of several levels, with their solutions, for the hint properties.
fn hint_puzzles() -> Vec<(Grid, Grid)> {
    rated("9x9/se-rated/se-rated-dev.tsv")
        .into_iter()
        .step_by(175)
        .map(|(puzzle, _)| {
            let solution = logic::explain(&puzzle, &Cancellation::none())
                .unwrap()
                .solution;
            (puzzle, solution)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_hint_on_a_correct_partial_grid_is_a_true_step(
        which in 0usize..10,
        filled in prop::collection::vec(any::<bool>(), 81),
    ) {
        let puzzles = hint_puzzles();
        let (puzzle, solution) = &puzzles[which % puzzles.len()];
        // The player has placed some of the solution's digits.
        let cells: Vec<u8> = (0..81)
            .map(|cell| if filled[cell] { solution.cells()[cell] } else { puzzle.cells()[cell] })
            .collect();
        let grid = Grid::from_cells(9, cells).unwrap();
        match logic::hint(puzzle, &grid, None, &Cancellation::none()).unwrap() {
            Hint::Step(step) => {
                // The step changes the player's grid: it places a digit in an empty cell
                // or removes a candidate that is there.
                let before = Board::from_grid(&grid);
                let progress = step.placements.iter().any(|p| before.value(p.cell) == 0)
                    || step.eliminations.iter().any(|e| before.candidates(e.cell) & e.digits != 0);
                prop_assert!(progress, "no progress: {}", step.text);
                assert_true(&step, solution, 0);
            }
            Hint::Solved => prop_assert_eq!(&grid, solution),
            Hint::Mistakes(mistakes) => prop_assert!(false, "no mistakes here: {mistakes:?}"),
            Hint::Stalled => prop_assert!(false, "a classic hint never stalls"),
        }
    }
}
