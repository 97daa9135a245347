//! Rates every puzzle of a file of reference ratings, one thread, one puzzle at a time, and
//! prints per level (of the reference rating) the agreement with the reference and the
//! time per puzzle; `--times FILE` also writes each puzzle's rating and time as TSV.
//!
//! ```sh
//! cargo bench --bench rating                                  # the development set
//! cargo bench --bench rating -- tests/data/9x9/se-rated/se-rated-heldout.tsv
//! ```

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use sudoku_engine::grid::Grid;
use sudoku_engine::logic::step::round_rating;
use sudoku_engine::logic::{Level, rate};
use sudoku_engine::solver::Cancellation;

const DEFAULT_FILE: &str = "tests/data/9x9/se-rated/se-rated-dev.tsv";

/// One puzzle rated: the reference's rating, ours, and how long ours took.
struct Rated {
    reference: f64,
    ours: f64,
    time: Duration,
}

fn main() {
    // Cargo passes `--bench`; the rest is ours: an optional file, `--times OUT`.
    let mut file = DEFAULT_FILE.to_owned();
    let mut times_file = None;
    let mut args = std::env::args().skip(1).filter(|arg| arg != "--bench");
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--times" => times_file = args.next(),
            _ => file = arg,
        }
    }
    let file = file.as_str();
    let text = std::fs::read_to_string(file).unwrap_or_else(|error| panic!("{file}: {error}"));
    let mut rated = Vec::new();
    let mut lines = String::from("puzzle\treference\tours\tmicroseconds\n");
    for line in text.lines().skip(1) {
        let mut fields = line.split('\t');
        let puzzle = fields.next().expect("a puzzle");
        let reference: f64 = fields.next().expect("a rating").parse().expect("a number");
        let grid = Grid::parse_symbols(puzzle).expect("a 9×9 puzzle");
        let started = Instant::now();
        let rating = rate(&grid, &Cancellation::none()).expect("a proper puzzle");
        let time = started.elapsed();
        let ours = round_rating(rating.er);
        let _ = writeln!(lines, "{puzzle}\t{reference}\t{ours}\t{}", time.as_micros());
        rated.push(Rated {
            reference,
            ours,
            time,
        });
    }
    if let Some(times_file) = &times_file {
        std::fs::write(times_file, lines).expect("the times file can be written");
    }
    println!("{file}: {} puzzles", rated.len());
    println!(
        "{:<9} {:>6} {:>7} {:>9} {:>10} {:>10} {:>10}",
        "level", "count", "exact", "within.5", "median ms", "p90 ms", "total s"
    );
    for level in Level::ALL {
        let band: Vec<&Rated> = rated
            .iter()
            .filter(|r| Level::of(r.reference) == level)
            .collect();
        if !band.is_empty() {
            report(level.id(), &band);
        }
    }
    report("all", &rated.iter().collect::<Vec<_>>());
    let below_seven: Vec<&Rated> = rated.iter().filter(|r| r.reference < 7.0).collect();
    report("below 7.0", &below_seven);
}

/// One line of the table: agreement and times of `band`.
fn report(name: &str, band: &[&Rated]) {
    let count = band.len();
    let exact = band
        .iter()
        .filter(|r| (r.ours - r.reference).abs() < 0.05)
        .count();
    let close = band
        .iter()
        .filter(|r| (r.ours - r.reference).abs() < 0.55)
        .count();
    let mut times: Vec<f64> = band.iter().map(|r| r.time.as_secs_f64() * 1e3).collect();
    times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum::<f64>() / 1e3;
    let percent = |n: usize| 100.0 * n as f64 / count as f64;
    println!(
        "{name:<9} {count:>6} {:>6.1}% {:>8.1}% {:>10.2} {:>10.2} {:>10.2}",
        percent(exact),
        percent(close),
        times[count / 2],
        times[count * 9 / 10],
        total
    );
}
