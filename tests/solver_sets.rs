//! The solver on published puzzle sets (see `tests/data/README.md` for their sources):
//! tdoku's test puzzles with their exact solution counts, the classic hard 9×9 lists and
//! 10,000 hard puzzles with published solutions (solved, valid, givens kept and unique, in
//! both search orders), 10,000 puzzles with several solutions, the 16×16 and 25×25 grids,
//! the Baekjoon 2239 and 2580 samples, empty grids of every size, sparse 16×16 and 25×25
//! puzzles that must be solved, and 16×16 and 25×25 grids whose solutions must be counted,
//! within the service's default time limit, a uniqueness check that gives up past its
//! node budget, and the variant puzzles rated by Sukaku Explainer, each unique under its
//! rules.

mod common;

use std::time::{Duration, Instant};

use common::{Failures, ORDERS, Puzzle, assert_solves, read_data, read_puzzles, solution_error};
use sudoku_engine::grid::Grid;
use sudoku_engine::solver::{self, Cancellation, Order, Outcome, SolveOptions};
use sudoku_engine::text_format::{self, Layout};
use sudoku_engine::validate::validate;
use sudoku_engine::variant::{self, VariantSolveOptions, parse_native};

/// What a solve of `puzzle` in `order` with `limit` says, as `(count, solution)`, or why
/// it did not end in `Solved`.
fn solved(puzzle: &Puzzle, order: Order, limit: u64) -> Result<(u64, Grid), String> {
    match common::solve(&puzzle.grid, order, limit) {
        Outcome::Solved { solution, count } => Ok((count, solution)),
        other => Err(format!("{order:?} with limit {limit}: {other:?}")),
    }
}

/// Checks that every puzzle of `file` (there must be `expected` of them) has exactly one
/// solution in both orders, that the solution keeps the givens and breaks no rule, that
/// both orders and both limits agree on it, and, where the file gives a solution after the
/// grid, that it is that one.
fn check_unique_set(puzzles: &[Puzzle], file: &str, expected: usize) {
    assert_eq!(puzzles.len(), expected, "{file}: number of puzzles");
    let mut failures = Failures::default();
    for puzzle in puzzles {
        failures.check(puzzle, unique_set_failure(puzzle));
    }
    failures.assert_none(file);
}

fn unique_set_failure(puzzle: &Puzzle) -> Option<String> {
    let mut solutions = Vec::new();
    for order in ORDERS {
        let (count, solution) = match solved(puzzle, order, 2) {
            Ok(found) => found,
            Err(error) => return Some(error),
        };
        if count != 1 {
            return Some(format!("{order:?}: {count} solutions, expected 1"));
        }
        if let Some(error) = solution_error(&puzzle.grid, &solution) {
            return Some(format!("{order:?}: {error}"));
        }
        solutions.push(solution);
    }
    if solutions[0] != solutions[1] {
        return Some(format!(
            "the orders disagree on the only solution: {} and {}",
            solutions[0].to_symbols(),
            solutions[1].to_symbols()
        ));
    }
    match solved(puzzle, Order::Fastest, 1) {
        Ok((1, solution)) if solution == solutions[0] => {}
        other => return Some(format!("limit 1 gives {other:?}")),
    }
    let published = puzzle.fields.first()?;
    let published = Grid::parse_symbols(published).expect("published solutions are grids");
    (published != solutions[0]).then(|| {
        format!(
            "found {}, the file gives {}",
            solutions[0].to_symbols(),
            published.to_symbols()
        )
    })
}

#[test]
fn tdoku_test_puzzles_have_their_stated_solution_counts() {
    let file = "9x9/tdoku_test_puzzles.txt";
    let puzzles = read_puzzles(file);
    let stated: Vec<u64> = puzzles
        .iter()
        .map(|p| p.fields[0].parse().expect("a solution count"))
        .collect();
    // The file's make-up as published: 18 unique puzzles given with their solution,
    // 10 without a solution, 15 with an exact number of solutions from 3 to 847.
    assert_eq!(puzzles.len(), 43);
    assert_eq!(stated.iter().filter(|&&n| n == 0).count(), 10);
    let with_solution = puzzles.iter().filter(|p| p.fields.len() == 2).count();
    assert_eq!(with_solution, 18);
    assert!(
        puzzles
            .iter()
            .all(|p| (p.fields.len() == 2) == (p.fields[0] == "1"))
    );
    assert_eq!(stated.iter().filter(|&&n| n >= 3).count(), 15);
    assert_eq!(stated.iter().max(), Some(&847));

    let mut failures = Failures::default();
    for (puzzle, &count) in puzzles.iter().zip(&stated) {
        failures.check(puzzle, stated_count_failure(puzzle, count));
    }
    failures.assert_none(file);
}

fn stated_count_failure(puzzle: &Puzzle, stated: u64) -> Option<String> {
    let mut first_solutions = Vec::new();
    for order in ORDERS {
        let outcome = common::solve(&puzzle.grid, order, stated + 1);
        let solution = match (stated, outcome) {
            (0, Outcome::Unsolvable) => continue,
            (_, Outcome::Solved { solution, count }) if count == stated => solution,
            (_, other) => {
                return Some(format!(
                    "{order:?} with limit {}: {other:?}, expected {stated} solutions",
                    stated + 1
                ));
            }
        };
        if let Some(error) = solution_error(&puzzle.grid, &solution) {
            return Some(format!("{order:?}: {error}"));
        }
        if let Some(published) = puzzle.fields.get(1)
            && solution.to_symbols() != *published
        {
            return Some(format!(
                "{order:?}: found {}, the file gives {published}",
                solution.to_symbols()
            ));
        }
        // A limit equal to the count stops at exactly that many.
        match common::solve(&puzzle.grid, order, stated) {
            Outcome::Solved { count, .. } if count == stated => {}
            other => return Some(format!("{order:?} with limit {stated}: {other:?}")),
        }
        first_solutions.push(solution);
    }
    if let [fastest, lexicographic] = first_solutions.as_slice() {
        if lexicographic.to_symbols() > fastest.to_symbols() {
            return Some(format!(
                "lexicographic solution {} is greater than the fastest {}",
                lexicographic.to_symbols(),
                fastest.to_symbols()
            ));
        }
        // The smallest solution does not depend on how many solutions are counted.
        match solved(puzzle, Order::Lexicographic, 1) {
            Ok((1, solution)) if solution == *lexicographic => {}
            other => return Some(format!("Lexicographic with limit 1: {other:?}")),
        }
    }
    None
}

#[test]
fn norvig_top95_has_one_solution_each() {
    let file = "9x9/top95.txt";
    check_unique_set(&read_puzzles(file), file, 95);
}

#[test]
fn norvig_hardest_has_one_solution_each() {
    let file = "9x9/hardest.txt";
    check_unique_set(&read_puzzles(file), file, 11);
}

#[test]
fn project_euler_easy50_has_one_solution_each() {
    let file = "9x9/easy50.txt";
    // The file has CRLF line ends; make sure the reader saw them, not a converted copy.
    assert!(read_data(file).contains("\r\n"));
    check_unique_set(&read_puzzles(file), file, 50);
}

#[test]
fn plb_hard20_has_one_solution_each() {
    let file = "9x9/plb_hard20_named.txt";
    check_unique_set(&read_puzzles(file), file, 20);
}

#[test]
fn forum_hardest_1106_has_one_solution_each() {
    let file = "9x9/forum_hardest_1106.txt";
    check_unique_set(&read_puzzles(file), file, 375);
}

#[test]
fn hard10000_solutions_match_the_published_ones() {
    let file = "9x9/hard10000_with_solutions.txt";
    let text = read_data(file);
    let (count, rest) = text.split_once('\n').expect("a count line");
    let count: usize = count.trim().parse().expect("the first line is the count");
    let puzzles = common::parse_puzzles(file, rest, 2);
    assert!(
        puzzles.iter().all(|p| p.fields.len() == 1),
        "every line has a solution"
    );
    check_unique_set(&puzzles, file, count);
}

#[test]
fn serg_multisolution_puzzles_have_several_solutions() {
    let file = "9x9/serg_multisolution.txt";
    let puzzles = read_puzzles(file);
    assert_eq!(puzzles.len(), 10_000);
    let mut failures = Failures::default();
    for puzzle in &puzzles {
        let failure = (|| {
            let mut found = Vec::new();
            for order in ORDERS {
                let (count, solution) = solved(puzzle, order, 2)?;
                if count != 2 {
                    return Err(format!("{order:?}: {count} solutions, expected 2"));
                }
                if let Some(error) = solution_error(&puzzle.grid, &solution) {
                    return Err(format!("{order:?}: {error}"));
                }
                found.push(solution.to_symbols());
            }
            if found[1] > found[0] {
                return Err(format!(
                    "lexicographic solution {} is greater than the fastest {}",
                    found[1], found[0]
                ));
            }
            Ok(())
        })()
        .err();
        failures.check(puzzle, failure);
    }
    failures.assert_none(file);
}

#[test]
fn sixteen_by_sixteen_set_is_solved() {
    let file = "16x16/16x16-100puzzles-vu-kr.txt";
    let puzzles = read_puzzles(file);
    assert_eq!(puzzles.len(), 100);
    let mut failures = Failures::default();
    for puzzle in &puzzles {
        assert_eq!(puzzle.grid.size(), 16);
        let failure = ORDERS.iter().find_map(|&order| {
            [1, 2]
                .iter()
                .find_map(|&limit| match solved(puzzle, order, limit) {
                    Ok((1, solution)) => solution_error(&puzzle.grid, &solution),
                    Ok((count, _)) => {
                        Some(format!("{order:?} with limit {limit}: {count} solutions"))
                    }
                    Err(error) => Some(error),
                })
        });
        failures.check(puzzle, failure);
    }
    failures.assert_none(file);
}

#[test]
fn a_bounded_check_gives_up_on_a_long_question_that_an_unbounded_one_decides() {
    // For each 16×16 puzzle: is there a solution without its own digit in its first blank?
    // No, since the puzzles are proper; a few of them take long to prove it.
    let none = Cancellation::none();
    let mut gave_up = 0;
    for puzzle in read_puzzles("16x16/16x16-100puzzles-vu-kr.txt") {
        let Ok((_, solution)) = solved(&puzzle, Order::Fastest, 1) else {
            panic!("line {}: no solution", puzzle.line);
        };
        let blank = puzzle.grid.cells().iter().position(|&d| d == 0).unwrap();
        let digit = solution.cells()[blank];
        let check = |nodes| solver::has_solution_without(&puzzle.grid, blank, digit, nodes, &none);
        let bounded = check(1);
        assert_ne!(bounded, Some(true), "line {}", puzzle.line);
        if bounded.is_none() {
            gave_up += 1;
            assert_eq!(check(u64::MAX), Some(false), "line {}", puzzle.line);
        }
    }
    assert!(gave_up > 0, "no question outlasted the smallest budget");
}

#[test]
fn twenty_five_by_twenty_five_grid_is_solved() {
    let puzzles = read_puzzles("25x25/25x25-grid-1.line.txt");
    assert_eq!(puzzles.len(), 1);
    let puzzle = &puzzles[0];
    assert_eq!(puzzle.grid.size(), 25);
    assert_eq!(puzzle.grid.box_size(), 5);
    for order in ORDERS {
        let (_, solution) = solved(puzzle, order, 1).unwrap();
        assert_solves(&puzzle.grid, &solution);
    }
}

#[test]
fn baekjoon_2239_sample_gives_the_smallest_solution() {
    let input = read_data("boj/2239.in");
    let expected = read_data("boj/2239.out");
    assert_eq!(text_format::detect(&input), Ok(Layout::DigitBlock));
    let grid = text_format::parse_block(&input).unwrap();
    assert_eq!(grid, Grid::parse_symbols(&input).unwrap());
    for limit in [1, 2] {
        let Outcome::Solved { solution, .. } = common::solve(&grid, Order::Lexicographic, limit)
        else {
            panic!("the 2239 sample is solvable");
        };
        assert_solves(&grid, &solution);
        let output = text_format::format_grid(&solution, Layout::DigitBlock) + "\n";
        assert_eq!(output, expected, "limit {limit}");
    }
}

#[test]
fn baekjoon_2580_sample_is_solved_in_its_spaced_layout() {
    let input = read_data("boj/2580.in");
    let expected = read_data("boj/2580.out");
    assert_eq!(text_format::detect(&input), Ok(Layout::SpacedBlock));
    let grid = text_format::parse_block(&input).unwrap();
    assert_eq!(grid, Grid::parse_symbols(&input).unwrap());
    for order in ORDERS {
        let Outcome::Solved { solution, count } = common::solve(&grid, order, 2) else {
            panic!("the 2580 sample is solvable");
        };
        assert_eq!(count, 1, "the 2580 sample has one solution");
        let output = text_format::format_grid(&solution, Layout::SpacedBlock) + "\n";
        assert_eq!(output, expected, "{order:?}");
    }
}

#[test]
fn empty_nine_by_nine_gives_the_smallest_grid_in_lexicographic_order() {
    let empty = Grid::empty(9).unwrap();
    let Outcome::Solved { solution, count } = common::solve(&empty, Order::Lexicographic, 2) else {
        panic!("the empty grid is solvable");
    };
    assert_eq!(count, 2);
    assert_eq!(
        solution.to_symbols(),
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    );
}

#[test]
fn empty_grids_of_every_size_are_solved() {
    for size in [4, 9, 16, 25] {
        let empty = Grid::empty(size).unwrap();
        assert_eq!(empty.givens(), 0);
        // Row-major search fills the empty 25×25 grid only after tens of seconds of
        // backtracking, too slow for this suite; it is solved in the fastest order.
        let orders: &[Order] = if size == 25 { &ORDERS[..1] } else { &ORDERS };
        for &order in orders {
            let Outcome::Solved { solution, count } = common::solve(&empty, order, 2) else {
                panic!("the empty {size}×{size} grid is solvable in {order:?} order");
            };
            assert_eq!(count, 2, "{size}×{size} {order:?}");
            assert_solves(&empty, &solution);
            if order == Order::Lexicographic {
                // The smallest grid starts with the digits in order.
                let first_row: Vec<u8> = (1..=size as u8).collect();
                assert_eq!(solution.to_rows()[0], first_row, "{size}×{size}");
            }
        }
    }
}

/// Sparse puzzles made from a valid solved grid (the pattern grid with relabelled digits
/// and shuffled rows, columns, bands and stacks) by blanking most cells, each with that
/// solved grid: so each has a solution. Rare as they are among random sparse grids, the
/// fastest order ran for 37 s on the first and for minutes on the others.
const SPARSE_PUZZLES_16: [(&str, &str); 2] = [
    (
        concat!(
            "................",
            "9...............",
            "................",
            "................",
            "................",
            "................",
            "........5.......",
            "................",
            "1...............",
            "...........1....",
            "................",
            "................",
            "................",
            "..........8.....",
            ".......6........",
            "................",
        ),
        concat!(
            "C7EA2169GD4B83F5",
            "9126GD4BF3587ACE",
            "F853E7AC2169BDG4",
            "BDG4F358CAE71692",
            "5F38AC7E6912GB4D",
            "ECA769124BDGF853",
            "29614BDG583FC7EA",
            "GB4D583FE7AC9126",
            "1692B4GD85F3AE7C",
            "83F5CAE79621D4BG",
            "7ACE9621B4GD358F",
            "D4BG85F37ECA6219",
            "358F7ECA12964GDB",
            "6219DGB43F85ECA7",
            "AE7C1296DGB45F38",
            "4GDB3F85AC7E2961",
        ),
    ),
    (
        concat!(
            ".......9.C..4...",
            "................",
            ".....45.........",
            "......E.......2.",
            ".....D8.....2...",
            ".......F...4....",
            ".D...9..2.......",
            "...6.........4..",
            ".A..........7..2",
            "...........C....",
            "65....C........9",
            "1....5...9......",
            "...........D....",
            "A..........9....",
            "....4...C.......",
            ".B.9............",
        ),
        concat!(
            "D6FEB1A98C2745G3",
            "G435C8726FDE1A9B",
            "28C7345G1B9A6EDF",
            "91BAF6ED43G5872C",
            "39547D8CGEF621BA",
            "B2A1EG6F9534D8C7",
            "CD7859432AB1G6FE",
            "FGE6A21BD7C89435",
            "4A9BDEF85G637C12",
            "8EDF9AB4721C536G",
            "65G327C1ED8FAB49",
            "172CG536A94BEF8D",
            "E36G1C2AF87DB954",
            "AC1263GEB459FD78",
            "7F8D4B95C1A23GE6",
            "5B498FD736EGC2A1",
        ),
    ),
];

const SPARSE_PUZZLE_25: (&str, &str) = (
    concat!(
        "6........N...............",
        "...P....M...2......A.....",
        ".................B.......",
        ".....1.DA................",
        ".......8.................",
        ".........................",
        ".........................",
        "...............P.........",
        ".......I.................",
        "..8.......3..............",
        "........7................",
        ".....K...................",
        "D........................",
        "..H..........A...........",
        "8...NO..................4",
        "..................D......",
        "...D.....................",
        "..........7..............",
        "..........D.9........H...",
        "...............5.........",
        "......D..........C.......",
        "...............7.........",
        ".......H........F....N...",
        "3...H.....I...C...6......",
        "..4......................",
    ),
    concat!(
        "643H2PCGIN1ADOLK85JEBM97F",
        "ICNPGF97MBH6243ODL1A5EK8J",
        "AOL1DH4263JE8K597BFMNICGP",
        "EK5J81ODALFM79BCGNPI3642H",
        "M9BF7JK8E5PIGCN423H6LAOD1",
        "9FDBM5JEK2NCIP8H6734GO1AL",
        "O1GLA3H6475KEJ2FMDB98CPIN",
        "KJ25EL1AOGB9MFDPI8NC74H63",
        "4H736NPIC8LOA1GJE25KD9FMB",
        "CP8NIBFM9D346H71AGLO2KJE5",
        "GIPCL9M37F4256HAB1ODJ8ENK",
        "7MF93KEN8JCGLIP65H421DABO",
        "DA1OB4652HK8NEJM3F97PGILC",
        "26H45CILGPODBA1ENJK8F7M39",
        "8EJKNOABD1973MFILPCGH2654",
        "1LIGO734HM2JK56B9ADFEPNC8",
        "FBAD925KJ68PCNE34M7HI1LOG",
        "PNE8CDB9FA7H43MLOIG16J5K2",
        "J562KGLO1IDF9BANCE8PMH347",
        "H3M748NCPEG1OLI5K62JAFB9D",
        "N8KEPADFBOM3H79G1CIL452J6",
        "BDOAF62J54ENP8K7H9M3CLG1I",
        "LGCI1M7H3965J24DFOABKN8PE",
        "379MHE8PNKIL1GC2J465OBDFA",
        "5246JIG1LCABFDO8PKEN937HM",
    ),
);

/// Line 2 of the 16×16 set with 20 of its givens blanked, so it has several solutions.
/// Counting them to two went on for over 20 minutes when the search after the first
/// solution could not restart.
const SEVERAL_SOLUTIONS_16: &str = concat!(
    "...83A..C7.54..B",
    "C......G..D..F..",
    ".A..C.......3.5.",
    "..9E..26.....C..",
    ".3..AB.5D..47...",
    "7.C.....5....1..",
    "E.1...3.....6...",
    ".......7...6D.3A",
    "...D1...94......",
    ".............917",
    ".7A....4....8B.E",
    "9...G...B.7...D.",
    "..3.....69..E8..",
    ".6.4..9.......G.",
    "..2..C..G.F...AD",
    "D..GE..A..3.5...",
);

/// The HTTP service's default time limit for one solve.
const SERVICE_TIME_LIMIT: Duration = Duration::from_secs(2);

/// Checks that `puzzle` is `source` with cells blanked, and that the fastest order solves
/// it before the service's default time limit cancels it.
fn check_solved_within_the_service_limit(puzzle: &str, source: &str) {
    let puzzle = Grid::parse_symbols(puzzle).unwrap();
    let source = Grid::parse_symbols(source).unwrap();
    assert!(validate(&source).solved, "the source grid is a solution");
    assert_solves(&puzzle, &source);
    let cancel = Cancellation::none().with_deadline(Instant::now() + SERVICE_TIME_LIMIT);
    let report = solver::solve(&puzzle, &SolveOptions::default(), &cancel);
    match report.outcome {
        Outcome::Solved { solution, .. } => assert_solves(&puzzle, &solution),
        other => panic!(
            "{} givens, {}×{}: {other:?} after {} guesses (a solution exists: {source:?})",
            puzzle.givens(),
            puzzle.size(),
            puzzle.size(),
            report.guesses
        ),
    }
}

#[test]
fn sparse_16x16_puzzles_are_solved_within_the_service_time_limit() {
    for (puzzle, source) in SPARSE_PUZZLES_16 {
        check_solved_within_the_service_limit(puzzle, source);
    }
}

#[test]
fn a_sparse_25x25_puzzle_is_solved_within_the_service_time_limit() {
    check_solved_within_the_service_limit(SPARSE_PUZZLE_25.0, SPARSE_PUZZLE_25.1);
}

/// The 25×25 grid of `tests/data` with 21 of its givens blanked, so it has several
/// solutions. Asking cell by cell for a second solution took seconds here, where a short
/// plain count finds one at once.
const SEVERAL_SOLUTIONS_25: &str = concat!(
    ".6J.2DH...EB8.GKO...4P9.I",
    ".ED...K8.6.2...3B.......H",
    "..1.3.IO.G...A...9.F.LE..",
    ".B...1M.A....D.C..L8.N5K3",
    "54C.A.F.P....1.6EM.....7.",
    "1IH.....O..4..8...P.L....",
    "N7LB....JD.....OI..C.18..",
    "A...9...M.D.....K8.37.OH.",
    "..K.P5.4.1.9L.....D...J..",
    ".53.MAB.GN..P6.....JE.IC4",
    "....KO1..HP.F.9..6....2.A",
    "....I.L.F3M.EJ..1.....76C",
    "4.8...2.E..L6...3.....N.1",
    "2AB.....I..D3.5L9.8.G....",
    "69E....B..2.C.4A..FNI....",
    "MLP.O8.....EN..J..3HD.4A.",
    "..F...P.....2H.D.B.4N.6..",
    ".G..N7..DL....3.6...C...2",
    "..72.3..6C.....9A....JKGP",
    "....6.5...9G.7..P.....F8B",
    ".......14M.5....8.J...LIN",
    "L2A5.63..KI8....M.NE.....",
    "..6..P.N...71..2.CA.H.B..",
    "H.......CE...N.I.34...A2.",
    "8.N71..G2BJ.OME...K65.3D.",
);

/// Checks that `puzzle` is the grid of `file` at `index` with `blanked` givens blanked,
/// and that each of `orders` finds two solutions before the service's default time limit.
fn check_counted_within_the_service_limit(
    puzzle: &str,
    (file, index, blanked): (&str, usize, usize),
    orders: &[Order],
) {
    let puzzle = Grid::parse_symbols(puzzle).unwrap();
    let source = &read_puzzles(file)[index];
    let kept = puzzle.cells().iter().zip(source.grid.cells());
    assert!(kept.into_iter().all(|(&p, &s)| p == 0 || p == s));
    assert_eq!(source.grid.givens() - puzzle.givens(), blanked);
    for &order in orders {
        let cancel = Cancellation::none().with_deadline(Instant::now() + SERVICE_TIME_LIMIT);
        let options = SolveOptions { order, limit: 2 };
        match solver::solve(&puzzle, &options, &cancel).outcome {
            Outcome::Solved { solution, count } => {
                assert_eq!(count, 2, "{order:?}");
                assert_solves(&puzzle, &solution);
            }
            other => panic!("{order:?}: {other:?}"),
        }
    }
}

#[test]
fn a_sparse_16x16_grid_with_several_solutions_is_counted_within_the_service_time_limit() {
    let source = ("16x16/16x16-100puzzles-vu-kr.txt", 1, 20);
    check_counted_within_the_service_limit(SEVERAL_SOLUTIONS_16, source, &ORDERS);
}

#[test]
fn a_25x25_grid_with_several_solutions_is_counted_within_the_service_time_limit() {
    // Row by row, the smallest solution of a sparse 25×25 grid takes longer than the limit.
    let source = ("25x25/25x25-grid-1.line.txt", 0, 21);
    check_counted_within_the_service_limit(SEVERAL_SOLUTIONS_25, source, &[Order::Fastest]);
}

/// The rules of a file of `tests/data/variants/se-rated/`: the native JSON after `; rules `
/// on its first line.
fn rated_variant_rules(file: &str, text: &str) -> serde_json::Value {
    let header = text.lines().next().unwrap_or_default();
    let json = header
        .split_once("; rules ")
        .unwrap_or_else(|| panic!("{file}: no rules on the first line"))
        .1;
    serde_json::from_str(json).unwrap_or_else(|error| panic!("{file}: rules: {error}"))
}

/// The files of `variants/se-rated/`, sorted.
fn rated_variant_files() -> Vec<std::path::PathBuf> {
    let folder = common::data_path("variants/se-rated");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .expect("tests/data/variants/se-rated exists")
        .map(|entry| entry.expect("a readable folder").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "tsv"))
        .collect();
    files.sort();
    files
}

/// Variant ratings agree with `serate` on the rated sets of every mode (the held-out sets
/// are for benchmarks): exactly, ER, EP and ED to one decimal, on every puzzle it rates
/// below 4.0, and on at least 95% of each mode's.
#[test]
fn variant_ratings_agree_with_serate_in_every_mode() {
    let mut failures = Vec::new();
    for path in rated_variant_files() {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if file.contains("heldout") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable file");
        let rules = rated_variant_rules(&file, &text);
        let (mut rated, mut agreed) = (0, 0);
        for row in text.lines().filter(|line| !line.starts_with('#')) {
            let fields: Vec<&str> = row.split('\t').collect();
            let expected: Vec<f64> = fields[1..4].iter().map(|f| f.parse().unwrap()).collect();
            let puzzle = parse_native(fields[0], &rules).expect("a puzzle of the mode");
            let cancel =
                Cancellation::none().with_deadline(Instant::now() + Duration::from_secs(20));
            let got = sudoku_engine::logic::rate_variant(&puzzle, &cancel).map(|(rating, _)| {
                [rating.er, rating.ep, rating.ed].map(sudoku_engine::logic::step::round_rating)
            });
            rated += 1;
            if got.as_ref().is_ok_and(|got| got[..] == expected[..]) {
                agreed += 1;
            } else if expected[0] < 4.0 {
                failures.push(format!("{file}: {row}: {got:?}"));
            }
        }
        assert!(
            agreed * 20 >= rated * 19,
            "{file}: {agreed} of {rated} agree"
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every puzzle that the variant ratings are held to (`variants/se-rated/`, rated by
/// Sukaku Explainer's `serate` in its variant modes) has exactly one solution under its
/// file's rules, and ratings that a path can have: ED ≤ EP ≤ ER.
#[test]
fn rated_variant_puzzles_have_one_solution_each_under_their_rules() {
    let files = rated_variant_files();
    assert!(
        files.len() >= 14,
        "a rated file and a held-out file per mode"
    );
    let options = VariantSolveOptions {
        max_solutions: 2,
        ..VariantSolveOptions::default()
    };
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("a readable file");
        let rules = rated_variant_rules(&file, &text);
        let rows: Vec<&str> = text.lines().filter(|line| !line.starts_with('#')).collect();
        assert!(!rows.is_empty(), "{file}: no puzzles");
        for row in rows {
            let fields: Vec<&str> = row.split('\t').collect();
            let [grid, er, ep, ed] = fields[..] else {
                panic!("{file}: not `puzzle ER EP ED`: {row}");
            };
            let rating = |text: &str| -> f64 { text.parse().expect("a rating") };
            assert!(
                rating(ed) <= rating(ep) && rating(ep) <= rating(er),
                "{file}: {row}"
            );
            let puzzle = parse_native(grid, &rules).expect("a puzzle of the mode");
            let answer = variant::solve(&puzzle, &options, &Cancellation::none()).unwrap();
            assert_eq!(
                (answer.solution_count, answer.count_exact),
                (1, true),
                "{file}: {grid}"
            );
        }
    }
}
