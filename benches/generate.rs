//! Generates puzzles on one thread, one at a time (seeds 0, 1, 2, ...), and prints per
//! target the median, 90th percentile and mean time per puzzle: no difficulty, each level
//! of 9×9, and unique minimal 16×16. `--range MIN MAX` times a band of ratings alone,
//! `--variants` the puzzles whose rules are drawn too (9×9 jigsaw, killer with no givens,
//! thermometer, arrow, kropki), `--count N` sets the puzzles per target (100) and
//! `--first S` the first seed (0), for seeds no setting was tuned on.
//!
//! ```sh
//! cargo bench --bench generate
//! cargo bench --bench generate -- --range 1.2 3.4 --count 50
//! cargo bench --bench generate -- --variants --first 100
//! ```

use std::time::Instant;

use sudoku_engine::generate::drawn::{DrawnKind, DrawnOptions, generate_drawn};
use sudoku_engine::generate::{GenerateOptions, Symmetry, generate};
use sudoku_engine::logic::Level;
use sudoku_engine::solver::Cancellation;

fn main() {
    // Cargo passes `--bench`; the rest is ours.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let value = |flag: &str, at: usize| -> Option<String> {
        let index = args.iter().position(|arg| arg == flag)?;
        Some(
            args.get(index + at)
                .expect("a value after the flag")
                .clone(),
        )
    };
    let count: u64 = value("--count", 1).map_or(100, |n| n.parse().expect("a count"));
    let first: u64 = value("--first", 1).map_or(0, |n| n.parse().expect("a seed"));
    let targets: Vec<(String, Target)> = match value("--range", 1) {
        Some(low) => {
            let high = value("--range", 2).expect("two bounds");
            let parse = |text: &str| Some(text.parse::<f64>().expect("a rating"));
            vec![(
                format!("SE {low}-{high}"),
                options(9, None, parse(&low), parse(&high), false),
            )]
        }
        None if args.iter().any(|arg| arg == "--variants") => DrawnKind::ALL
            .into_iter()
            .map(|kind| {
                let max_givens = (kind == DrawnKind::Killer).then_some(0);
                let options = DrawnOptions::new(kind, 9, None, max_givens, Symmetry::None, false)
                    .expect("valid");
                let name = match max_givens {
                    Some(_) => format!("{} 0 givens", kind.id()),
                    None => kind.id().to_owned(),
                };
                (name, Target::Drawn(options))
            })
            .collect(),
        None => {
            let mut targets = vec![("9x9 any".to_owned(), options(9, None, None, None, false))];
            for level in &Level::ALL[..5] {
                let options = options(9, Some(*level), None, None, false);
                targets.push((format!("9x9 {}", level.id()), options));
            }
            targets.push((
                "16x16 minimal".to_owned(),
                options(16, None, None, None, true),
            ));
            targets
        }
    };
    println!(
        "{:<16} {:>6} {:>10} {:>10} {:>10}",
        "target", "count", "median ms", "p90 ms", "mean ms"
    );
    for (name, options) in targets {
        let mut times: Vec<f64> = (first..first + count)
            .map(|seed| {
                let started = Instant::now();
                let cancel = Cancellation::none();
                match &options {
                    Target::Classic(options) => {
                        generate(options, seed, &cancel).expect("a puzzle");
                    }
                    Target::Drawn(options) => {
                        generate_drawn(options, seed, &cancel).expect("a puzzle");
                    }
                }
                started.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let n = times.len();
        let mean = times.iter().sum::<f64>() / n as f64;
        println!(
            "{name:<16} {n:>6} {:>10.2} {:>10.2} {mean:>10.2}",
            times[n / 2],
            times[n * 9 / 10]
        );
    }
}

/// What one row of the table generates.
enum Target {
    /// Classic puzzles.
    Classic(GenerateOptions),
    /// Puzzles whose rules are drawn too.
    Drawn(DrawnOptions),
}

fn options(
    size: usize,
    level: Option<Level>,
    se_min: Option<f64>,
    se_max: Option<f64>,
    minimal: bool,
) -> Target {
    let options = GenerateOptions::new(size, level, se_min, se_max, Symmetry::None, minimal);
    Target::Classic(options.expect("valid"))
}
