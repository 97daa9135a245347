//! The `generate` subcommand: proper puzzles on stdout, one per line (or one JSON object
//! per line), made on every core and written in the order of their seeds.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget};
use serde::Serialize;
use serde_json::json;

use super::batch::{in_order_on_threads, puzzle_bar};
use super::rate::{WorkerArgs, cancellation};
use super::{Status, worker_threads};
use crate::answers::{PuzzleJson, order_model, puzzle_json};
use sudoku_engine::generate::drawn::{DrawnKind, DrawnOptions};
use sudoku_engine::generate::{
    self, GenerateOption, GenerateOptions, MAX_SEED, Made, Order, Symmetry,
};
use sudoku_engine::logic::Level;
use sudoku_engine::logic::modes::VariantMode;
use sudoku_engine::solver::Stopped;

/// Flags of `sudoku-service generate`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// N: 4, 9 or 16.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// A difficulty band (9×9): easy, medium, hard, expert or extreme.
    #[arg(long, value_parser = parse_level, conflicts_with_all = ["se_min", "se_max"])]
    pub level: Option<Level>,
    /// The lowest rating wanted (9×9), 1.0 to 8.9.
    #[arg(long, value_name = "SE", allow_negative_numbers = true)]
    pub se_min: Option<f64>,
    /// The highest rating wanted (9×9), 1.0 to 8.9.
    #[arg(long, value_name = "SE", allow_negative_numbers = true)]
    pub se_max: Option<f64>,
    /// The symmetry of the givens: none, central, rotational, diagonal, antidiagonal,
    /// horizontal or vertical.
    #[arg(long, value_parser = Symmetry::from_id, default_value = "none")]
    pub symmetry: Symmetry,
    /// The seed, 0 to 2^53 − 1 [default: a random one, told on stderr].
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// No given (or orbit of givens) can be removed without losing uniqueness.
    #[arg(long)]
    pub minimal: bool,
    /// Make puzzles of this Sukaku Explainer variant mode (9×9): its rules joined by `+`
    /// from x, windoku, disjoint-groups, anti-knight, anti-king, nonconsecutive.
    #[arg(long, value_name = "MODE", value_parser = super::rate::parse_mode)]
    pub mode: Option<VariantMode>,
    /// Make puzzles whose rules are drawn too: jigsaw, killer, thermometer, arrow or
    /// kropki (4×4 to 9×9; --level is the variant logic's).
    #[arg(long, value_name = "KIND", value_parser = DrawnKind::from_id, conflicts_with_all = ["se_min", "se_max", "mode"])]
    pub variant: Option<DrawnKind>,
    /// The most givens, with --variant (0: the rules alone decide).
    #[arg(long, value_name = "N", requires = "variant")]
    pub max_givens: Option<usize>,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub count: u32,
    /// Write one JSON object per puzzle (the fields of a puzzle of `POST /generate`, and
    /// `model`) instead of the puzzle alone.
    #[arg(long)]
    pub json: bool,
    /// Threads and the time limit per puzzle.
    #[command(flatten)]
    pub workers: WorkerArgs,
}

/// A seed, 0 to 2^53 − 1; any other number, a negative one too, is told the range.
fn parse_seed(text: &str) -> Result<u64, String> {
    text.parse()
        .ok()
        .filter(|&seed| seed <= MAX_SEED)
        .ok_or_else(|| format!("`{text}` is not a seed: 0 to {MAX_SEED} (2^53 − 1)"))
}

/// A level's name, in any case.
fn parse_level(text: &str) -> Result<Level, String> {
    Level::from_id(&text.to_ascii_lowercase())
}

/// How this command names a generation option: as its flag.
fn flag(option: GenerateOption) -> &'static str {
    match option {
        GenerateOption::Size => "--size",
        GenerateOption::Level => "--level",
        GenerateOption::SeMin => "--se-min",
        GenerateOption::SeMax => "--se-max",
        GenerateOption::MaxGivens => "--max-givens",
    }
}

/// Generates the puzzles `args` ask for on `out`, in the order of their seeds, and a
/// summary on `err`.
pub fn generate(
    args: &GenerateArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Status> {
    let order = match args.variant {
        Some(kind) => DrawnOptions::new(
            kind,
            args.size,
            args.level,
            args.max_givens,
            args.symmetry,
            args.minimal,
        )
        .map(Order::Drawn),
        None => GenerateOptions::new(
            args.size,
            args.level,
            args.se_min,
            args.se_max,
            args.symmetry,
            args.minimal,
        )
        .and_then(|options| options.in_mode(args.mode.unwrap_or_default()))
        .map(Order::Givens),
    };
    let order = match order {
        Ok(order) => order,
        Err(error) => {
            writeln!(err, "error: {}", error.describe(flag))?;
            return Ok(Status::Usage);
        }
    };
    let seed = args.seed.unwrap_or_else(generate::fresh_seed);
    let seeds = generate::puzzle_seeds(seed, args.count as usize);
    let started = Instant::now();
    let progress = progress_bar(seeds.len());
    let stop = Arc::new(AtomicBool::new(false));
    let mut failed = 0;
    let written = in_order_on_threads(
        seeds.len(),
        worker_threads(args.workers.threads).min(seeds.len()),
        &stop,
        |index| {
            let cancel = cancellation(args.workers.timeout_ms, Arc::clone(&stop));
            (index, order.make(seeds[index], &cancel))
        },
        |(index, made)| {
            failed += usize::from(made.is_err());
            progress.inc(1);
            writeln!(out, "{}", line(&made, &order, seeds[index], args))
        },
    );
    progress.finish_and_clear();
    written.and_then(|()| out.flush())?;
    writeln!(
        err,
        "{} from seed {seed}: {} generated, {failed} timed out in {:.3} s",
        super::counted(seeds.len(), "puzzle"),
        seeds.len() - failed,
        started.elapsed().as_secs_f64()
    )?;
    Ok(if failed == 0 {
        Status::Success
    } else {
        Status::Failure
    })
}

/// A puzzle's JSON line: the fields of a puzzle of `/generate`, in its order, and the
/// model that rated it.
#[derive(Serialize)]
struct PuzzleLine {
    #[serde(flatten)]
    puzzle: PuzzleJson,
    model: String,
}

/// The answer line of one puzzle.
fn line(made: &Result<Made, Stopped>, order: &Order, seed: u64, args: &GenerateArgs) -> String {
    let timed_out = || {
        let limit = args.workers.timeout_ms;
        format!("no puzzle found within {limit} ms (--timeout-ms)")
    };
    match (made, args.json) {
        (Ok(Made::Givens(made)), false) => made.puzzle.to_symbols(),
        (Ok(Made::Drawn(made)), false) => made.puzzle.to_fpuzzles_link(),
        (Ok(made), true) => {
            let line = PuzzleLine {
                puzzle: puzzle_json(made, order, false),
                model: order_model(order),
            };
            serde_json::to_string(&line).expect("a puzzle is written as JSON")
        }
        (Err(Stopped), false) => format!("error: seed {seed}: {}", timed_out()),
        (Err(Stopped), true) => {
            json!({ "error": timed_out(), "code": "solve_timeout", "seed": seed }).to_string()
        }
    }
}

/// A progress bar on stderr for runs of more than one puzzle, when a person watches.
fn progress_bar(puzzles: usize) -> ProgressBar {
    if puzzles < 2 || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    puzzle_bar(ProgressBar::with_draw_target(
        Some(puzzles as u64),
        ProgressDrawTarget::stderr(),
    ))
}
