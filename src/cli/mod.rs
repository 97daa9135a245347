//! The `solve`, `validate`, `rate`, `explain` and `generate` subcommands: plain-text
//! puzzles from a file or stdin, answers on stdout.
//!
//! A grid written a row a line (a Baekjoon 2239 or 2580 block, a grid drawn as on the
//! forums, a 4×4, 16×16 or 25×25 grid) is answered a row a line; a file with one
//! puzzle per line gets one answer line per puzzle, in input order, and a summary on
//! stderr. The exit status tells whether every puzzle was solved (or valid).

mod batch;
mod generate;
mod rate;
mod variant;
mod verdict;

pub use generate::{GenerateArgs, generate};
pub use rate::{ExplainArgs, RateArgs, explain, rate};

use std::borrow::Cow;
use std::io::{self, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;

use sudoku_engine::grid::Grid;
use sudoku_engine::solver::{self, Cancellation, Order, Outcome, SolveOptions};
use sudoku_engine::text_format::{self, Layout};
use sudoku_engine::validate::validate;

/// The most worker threads `--threads` accepts: far more than any machine has cores, few
/// enough that starting them cannot exhaust the process.
const MAX_THREADS: i64 = 1024;

/// The worker threads of a batch: as many as asked, else one per available core.
fn worker_threads(requested: Option<u16>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
        usize::from,
    )
}

/// What input without a single puzzle gets: an empty answer would look like success.
const NO_PUZZLES: &str =
    "no puzzles in the input: expected one grid a row a line, or one puzzle per line";

/// What the commands that read puzzles expect, for a person typing at a terminal.
pub const EXPECTED_INPUT: &str = "one grid a row a line (for 9×9, 9 lines of 9 digits, 0 or . \
     for a blank, packed, spaced or drawn with |) or one puzzle per line (81 symbols for 9×9)";

/// What `explain` expects, for a person typing at a terminal.
pub const EXPECTED_PUZZLE: &str = "one puzzle: a row a line (for 9×9, 9 lines of 9 digits, 0 \
     or . for a blank, packed, spaced or drawn with |) or one line (81 symbols for 9×9)";

/// Where a command reads its puzzles.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// File of puzzles; `-` or none reads standard input.
    #[arg(value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
}

impl InputArgs {
    /// The file to read, or `None` for standard input.
    pub fn path(&self) -> Option<&std::path::Path> {
        self.file.as_deref().filter(|path| path.as_os_str() != "-")
    }
}

/// `1 puzzle`, `2 puzzles`: a count and its noun.
fn counted(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{count} {noun}s"),
    }
}

/// Flags of `sudoku-service validate`.
#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// Where the grids come from.
    #[command(flatten)]
    pub input: InputArgs,
}

/// Flags of `sudoku-service solve`.
#[derive(Debug, Clone, Args)]
pub struct SolveArgs {
    /// Where the puzzles come from.
    #[command(flatten)]
    pub input: InputArgs,
    /// Return the smallest solution read row by row (Baekjoon 2239) instead of the first found.
    #[arg(long)]
    pub lexicographic: bool,
    /// Also decide whether each solution is the only one.
    #[arg(long)]
    pub unique: bool,
    /// Worker threads for files with one puzzle per line, 1 to 1024 [default: available
    /// cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    pub threads: Option<u16>,
    /// Give up on a puzzle after this many milliseconds and answer `timeout`; 0 for no
    /// limit (over HTTP, `timeout_ms` is at least 1: a client cannot lift the server's
    /// limit). Nearly every grid takes far less; some large grids can take seconds (see
    /// the README).
    #[arg(long, value_name = "MS", default_value_t = 10_000, allow_negative_numbers = true,
          value_parser = parse_milliseconds)]
    pub timeout_ms: u64,
}

impl SolveArgs {
    /// When a solve that starts now must give up, stopping early also once `stop` is set.
    fn cancellation(&self, stop: Arc<AtomicBool>) -> Cancellation {
        let cancellation = Cancellation::none().with_flag(stop);
        match self.timeout_ms {
            0 => cancellation,
            ms => cancellation.with_time_limit(Duration::from_millis(ms)),
        }
    }

    fn options(&self) -> SolveOptions {
        SolveOptions {
            order: if self.lexicographic {
                Order::Lexicographic
            } else {
                Order::Fastest
            },
            limit: if self.unique { 2 } else { 1 },
        }
    }
}

/// How a command ended: whether every puzzle was solved or valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every puzzle was solved (or, for `validate`, valid).
    Success,
    /// At least one puzzle was unsolvable, invalid or broke a rule; details went to stderr.
    Failure,
    /// The flags ask for something impossible, which clap could not tell alone (as with
    /// clap's own errors, the exit status is 2); details went to stderr.
    Usage,
}

/// Runs `solve` on the whole of `input`, answers on `out`, diagnostics on `err`.
pub fn solve(
    args: &SolveArgs,
    input: &str,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Status> {
    if variant::holds_variants(input) {
        return variant::solve(args, input, out, err);
    }
    let options = args.options();
    let layout = match text_format::detect(input) {
        Ok(layout) => layout,
        Err(error) => {
            writeln!(err, "invalid: {error}")?;
            return Ok(Status::Failure);
        }
    };
    if layout == Layout::Lines {
        let threads = worker_threads(args.threads);
        let started = Instant::now();
        let solve = |line: usize,
                     puzzle: &str,
                     stop: &Arc<AtomicBool>,
                     tally: &mut batch::Tally,
                     text: &mut Vec<u8>| {
            solve_line(line, puzzle, &options, args, stop, tally, text);
        };
        let chunk_bytes = batch::SOLVE_CHUNK_BYTES;
        let show_progress = io::stderr().is_terminal();
        let tally = batch::answer_lines(
            input,
            batch::LineForm::Grid,
            &solve,
            chunk_bytes,
            threads,
            show_progress,
            out,
        )?;
        let summary = || tally.summary(started.elapsed(), args.unique);
        return lines_status(&tally, summary, err);
    }
    let grid = match text_format::parse_block(input) {
        Ok(grid) => grid,
        Err(error) => {
            writeln!(err, "invalid: {error}")?;
            return Ok(Status::Failure);
        }
    };
    if let Some(clashes) = verdict::clashes(&grid) {
        writeln!(err, "unsolvable: {clashes}")?;
        return Ok(Status::Failure);
    }
    let cancellation = args.cancellation(Arc::new(AtomicBool::new(false)));
    match solver::solve(&grid, &options, &cancellation).outcome {
        Outcome::Solved { solution, count } => {
            writeln!(out, "{}", text_format::format_grid(&solution, layout))?;
            if args.unique {
                writeln!(err, "{}", verdict::uniqueness(count))?;
            }
            Ok(Status::Success)
        }
        Outcome::Unsolvable => {
            writeln!(err, "unsolvable: the grid has no solution")?;
            Ok(Status::Failure)
        }
        Outcome::Stopped => {
            writeln!(err, "timeout: no answer within {} ms", args.timeout_ms)?;
            Ok(Status::Failure)
        }
    }
}

/// Ends a run over puzzle lines: its `summary` on `err`, and whether every puzzle was
/// answered (a run without a puzzle fails).
fn lines_status(
    tally: &batch::Tally,
    summary: impl FnOnce() -> String,
    err: &mut impl Write,
) -> io::Result<Status> {
    if tally.is_empty() {
        writeln!(err, "error: {NO_PUZZLES}")?;
        return Ok(Status::Failure);
    }
    writeln!(err, "{}", summary())?;
    Ok(if tally.all_solved() {
        Status::Success
    } else {
        Status::Failure
    })
}

/// Solves the puzzle of input line `line`, counts how it ended and writes its answer
/// (without a line end).
fn solve_line(
    line: usize,
    puzzle: &str,
    options: &SolveOptions,
    args: &SolveArgs,
    stop: &Arc<AtomicBool>,
    tally: &mut batch::Tally,
    out: &mut Vec<u8>,
) {
    let grid = match Grid::parse_symbols(puzzle) {
        Ok(grid) => grid,
        Err(error) => {
            tally.invalid += 1;
            write!(out, "invalid: line {line}: {error}").expect("writing to a Vec cannot fail");
            return;
        }
    };
    match solver::solve(&grid, options, &args.cancellation(Arc::clone(stop))).outcome {
        Outcome::Solved { solution, count } => {
            tally.solved += 1;
            solution.push_symbols(out);
            if options.limit >= 2 {
                tally.multiple += usize::from(count > 1);
                out.push(b' ');
                out.extend_from_slice(verdict::uniqueness(count).as_bytes());
            }
        }
        Outcome::Unsolvable => {
            tally.unsolvable += 1;
            out.extend_from_slice(b"unsolvable");
            if let Some(clashes) = verdict::clashes(&grid) {
                write!(out, ": {clashes}").expect("writing to a Vec cannot fail");
            }
        }
        Outcome::Stopped => {
            tally.timed_out += 1;
            out.extend_from_slice(b"timeout");
        }
    }
}

/// Runs `validate` on the whole of `input`: one verdict line per puzzle on `out`.
pub fn validate_input(
    input: &str,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Status> {
    // Each puzzle with the number of its line; a block's rows are known to be whole.
    let puzzles: Vec<(Option<usize>, Cow<str>)> = match text_format::detect(input) {
        Ok(Layout::Lines) => text_format::puzzle_lines(input)
            .map(|(line, puzzle)| (Some(line), puzzle))
            .collect(),
        Ok(Layout::DigitBlock | Layout::SpacedBlock) => vec![(None, Cow::Borrowed(input))],
        Err(error) => {
            writeln!(err, "invalid: {error}")?;
            return Ok(Status::Failure);
        }
    };
    if puzzles.is_empty() {
        writeln!(err, "error: {NO_PUZZLES}")?;
        return Ok(Status::Failure);
    }
    let mut valid = 0;
    for (line, puzzle) in &puzzles {
        let text = match (text_format::parse_block(puzzle), line) {
            (Ok(grid), _) => {
                let verdict = validate(&grid);
                valid += usize::from(verdict.valid);
                verdict::describe_validation(&verdict)
            }
            (Err(error), Some(line)) => format!("invalid: line {line}: {error}"),
            (Err(error), None) => format!("invalid: {error}"),
        };
        writeln!(out, "{text}")?;
    }
    writeln!(err, "{valid} of {} valid", counted(puzzles.len(), "grid"))?;
    Ok(if valid == puzzles.len() {
        Status::Success
    } else {
        Status::Failure
    })
}

/// A time limit in milliseconds, 0 (no limit) or more: a negative one is named as such,
/// not taken for a flag.
pub(crate) fn parse_milliseconds(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!(
            "`{text}` is not a number of milliseconds: 0 (no limit) to {}",
            u64::MAX
        )
    })
}
