//! The `rate` and `explain` subcommands: Sudoku Explainer ratings of a file of puzzles,
//! and the steps of one puzzle, for people or as JSON.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;

use super::batch::{self, Tally};
use super::{InputArgs, MAX_THREADS, NO_PUZZLES, Status, lines_status, worker_threads};
use crate::answers::{
    GridOutput, explain_response, logic_error_code, rate_response, variant_explain_response,
};
use sudoku_engine::grid::{Grid, value_symbol};
use sudoku_engine::logic::modes::VariantMode;
use sudoku_engine::logic::step::round_rating;
use sudoku_engine::logic::technique::Technique;
use sudoku_engine::logic::{self, LogicError, Rating};
use sudoku_engine::solver::Cancellation;
use sudoku_engine::text_format::{self, Layout};
use sudoku_engine::variant;

/// Flags of `sudoku-service rate`.
#[derive(Debug, Clone, Args)]
pub struct RateArgs {
    /// Where the puzzles come from.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write one JSON object per puzzle (the fields of `POST /rate`) instead of a line of
    /// text.
    #[arg(long)]
    pub json: bool,
    /// Rate every grid in this Sukaku Explainer variant mode: its rules joined by `+`
    /// from x, windoku, disjoint-groups, anti-knight, anti-king, nonconsecutive (as
    /// `serate --isX=1 --isAntiKnight=1` rates `x+anti-knight`).
    #[arg(long, value_name = "MODE", value_parser = parse_mode)]
    pub mode: Option<VariantMode>,
    /// Threads and the time limit per puzzle.
    #[command(flatten)]
    pub workers: WorkerArgs,
}

/// The variant mode named `text`.
pub(super) fn parse_mode(text: &str) -> Result<VariantMode, String> {
    VariantMode::from_name(text).ok_or_else(|| {
        format!(
            "unknown mode `{text}`: rules joined by `+` from x, windoku, disjoint-groups, \
             anti-knight, anti-king, nonconsecutive"
        )
    })
}

/// The flags of commands that work through many puzzles: on how many threads, and how
/// long each puzzle may take.
#[derive(Debug, Clone, Args)]
pub struct WorkerArgs {
    /// Worker threads, 1 to 1024 [default: available cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    pub threads: Option<u16>,
    /// Give up on a puzzle after this many milliseconds; 0 for no limit (over HTTP,
    /// `timeout_ms` is at least 1).
    #[arg(long, value_name = "MS", default_value_t = 60_000, allow_negative_numbers = true,
          value_parser = super::parse_milliseconds)]
    pub timeout_ms: u64,
}

/// Flags of `sudoku-service explain`.
#[derive(Debug, Clone, Args)]
pub struct ExplainArgs {
    /// Where the puzzle comes from.
    #[command(flatten)]
    pub input: InputArgs,
    /// Write the answer of `POST /explain` as JSON instead of the steps as text.
    #[arg(long)]
    pub json: bool,
    /// Give up after this many milliseconds; 0 for no limit (over HTTP,
    /// `timeout_ms` is at least 1).
    #[arg(long, value_name = "MS", default_value_t = 60_000, allow_negative_numbers = true,
          value_parser = super::parse_milliseconds)]
    pub timeout_ms: u64,
}

/// When work that starts now must stop: at the time limit from now (`0`: none), counted
/// over the whole of it (a rating's many searches included), or once `stop` is raised.
pub(super) fn cancellation(timeout_ms: u64, stop: Arc<AtomicBool>) -> Cancellation {
    let cancellation = Cancellation::none().with_flag(stop);
    match timeout_ms {
        0 => cancellation,
        ms => cancellation.with_deadline(Instant::now() + Duration::from_millis(ms)),
    }
}

/// Rates every puzzle line of `input` (or the one puzzle of a block): one answer
/// line each on `out`, in input order, and a summary on `err`.
pub fn rate(
    args: &RateArgs,
    input: &str,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Status> {
    let block = match block_puzzle(input) {
        Ok(block) => block.map(|puzzle| puzzle.to_symbols()),
        Err(error) => {
            writeln!(err, "invalid: {error}")?;
            return Ok(Status::Failure);
        }
    };
    let input = block.as_deref().unwrap_or(input);
    let fpuzzles = args.mode.is_none() && super::variant::holds_variants(input);
    let answer = |line: usize,
                  puzzle: &str,
                  stop: &Arc<AtomicBool>,
                  tally: &mut Tally,
                  text: &mut Vec<u8>| {
        let cancel = cancellation(args.workers.timeout_ms, Arc::clone(stop));
        let rated = rate_line(puzzle, args.mode, fpuzzles, &cancel);
        match &rated {
            Ok(_) => tally.solved += 1,
            Err(
                Unrated::Unreadable(_)
                | Unrated::Logic(LogicError::UnsupportedSize(_) | LogicError::NoScale(_)),
            ) => tally.invalid += 1,
            Err(Unrated::Logic(LogicError::Stopped(_))) => tally.timed_out += 1,
            Err(Unrated::Logic(_)) => tally.unsolvable += 1,
        }
        let line = match (&rated, args.json) {
            (Ok((rating, _)), false) => rating_line(rating),
            (Ok((rating, mode)), true) => {
                serde_json::to_string(&rate_response(rating, *mode)).expect("JSON")
            }
            // A grid that cannot be read is a typo to find in the input.
            (Err(Unrated::Unreadable(error)), false) => format!("error: line {line}: {error}"),
            (Err(Unrated::Logic(error)), false) => {
                format!("error: {}", error_text(error, args.workers.timeout_ms))
            }
            (Err(Unrated::Unreadable(error)), true) => {
                json!({ "error": error.to_string(), "code": "invalid_grid" }).to_string()
            }
            (Err(Unrated::Logic(error)), true) => {
                let message = error_text(error, args.workers.timeout_ms);
                json!({ "error": message, "code": logic_error_code(error) }).to_string()
            }
        };
        text.extend_from_slice(line.as_bytes());
    };
    let started = Instant::now();
    let threads = worker_threads(args.workers.threads);
    let chunk_bytes = batch::RATE_CHUNK_BYTES;
    let form = if fpuzzles {
        batch::LineForm::Whole
    } else {
        batch::LineForm::Grid
    };
    let tally = batch::answer_lines(
        input,
        form,
        &answer,
        chunk_bytes,
        threads,
        err_is_terminal(),
        out,
    )?;
    lines_status(&tally, || summary(&tally, started.elapsed()), err)
}

/// The rating of a puzzle `line` within `cancel`, and its variant mode: a grid rated in
/// `mode` (classic when `None`), or with `fpuzzles`, an f-puzzles document or link.
fn rate_line(
    line: &str,
    mode: Option<VariantMode>,
    fpuzzles: bool,
    cancel: &Cancellation,
) -> Result<(Rating, Option<VariantMode>), Unrated> {
    let puzzle = if fpuzzles {
        variant::parse_fpuzzles(line).map_err(|error| Unrated::Unreadable(error.to_string()))?
    } else {
        let grid =
            Grid::parse_symbols(line).map_err(|error| Unrated::Unreadable(error.to_string()))?;
        let Some(mode) = mode else {
            let rating = logic::rate(&grid, cancel).map_err(Unrated::Logic)?;
            return Ok((rating, None));
        };
        mode.puzzle(&grid)
            .map_err(|error| Unrated::Unreadable(error.to_string()))?
    };
    let (rating, mode) = logic::rate_variant(&puzzle, cancel).map_err(Unrated::Logic)?;
    Ok((rating, Some(mode)))
}

/// Why a puzzle line has no rating.
enum Unrated {
    /// The line is not a puzzle.
    Unreadable(String),
    /// The logic could not rate it.
    Logic(LogicError),
}

/// The one puzzle of `input` when it is a block (`None` when it holds a puzzle a line), or
/// why it cannot be read.
fn block_puzzle(input: &str) -> Result<Option<Grid>, String> {
    match text_format::detect(input).map_err(|error| error.to_string())? {
        Layout::Lines => Ok(None),
        Layout::DigitBlock | Layout::SpacedBlock => text_format::parse_block(input)
            .map(Some)
            .map_err(|error| error.to_string()),
    }
}

fn err_is_terminal() -> bool {
    io::stderr().is_terminal()
}

/// Why `explain` has no explanation: the prefix of its line on the terminal (`invalid`
/// or `error`), what to say, and the error code that goes with it.
type Failure = (&'static str, String, &'static str);

/// The one puzzle of `input` (a line, or a block), or why there is none.
fn one_puzzle(input: &str) -> Result<Grid, Failure> {
    let invalid = |error: String| ("invalid", error, "invalid_grid");
    if let Some(puzzle) = block_puzzle(input).map_err(invalid)? {
        return Ok(puzzle);
    }
    let mut lines = text_format::puzzle_lines(input);
    match (lines.next(), lines.next()) {
        (Some((_, line)), None) => {
            Grid::parse_symbols(&line).map_err(|error| invalid(error.to_string()))
        }
        (None, _) => Err(("error", NO_PUZZLES.to_owned(), "invalid_grid")),
        (Some(_), Some(_)) => Err((
            "error",
            "explain takes one puzzle; rate a file of puzzles with `rate`".to_owned(),
            "invalid_request",
        )),
    }
}

/// `ER/EP/ED level hardest`, as `serate` prints the three ratings (`-` for the hardest
/// technique of a grid with no blank cell).
fn rating_line(rating: &Rating) -> String {
    format!(
        "{} {} {}",
        three_ratings(rating),
        rating.level().id(),
        rating.hardest.map_or("-", Technique::id)
    )
}

/// `ER/EP/ED`, one decimal each.
fn three_ratings(rating: &Rating) -> String {
    let [er, ep, ed] = [rating.er, rating.ep, rating.ed].map(round_rating);
    format!("{er:.1}/{ep:.1}/{ed:.1}")
}

/// What the command line says of `error`: a time-out names the flag that set its limit,
/// and a puzzle without a solution the givens that clash, if they do.
fn error_text(error: &LogicError, timeout_ms: u64) -> String {
    match error {
        LogicError::Stopped(_) => format!("timed out after {timeout_ms} ms (--timeout-ms)"),
        LogicError::ConflictingGivens(conflicts) => {
            format!("{error}: {}", super::verdict::clash_text(conflicts))
        }
        error => error.to_string(),
    }
}

/// The summary line of a rating run.
fn summary(tally: &Tally, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let total = tally.total();
    format!(
        "{}: {} rated, {} without exactly one solution, {} timed out, {} invalid in {seconds:.3} s",
        super::counted(total, "puzzle"),
        tally.solved,
        tally.unsolvable,
        tally.timed_out,
        tally.invalid,
    )
}

/// Explains the variant puzzle of the first line of `input` (an f-puzzles document or
/// link, as `solve` reads them): its steps on `out`, for people or as JSON, and where it
/// stalls, how many candidates are left.
fn explain_variant(
    args: &ExplainArgs,
    input: &str,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Status> {
    let line = text_format::numbered_content_lines(input)
        .next()
        .map_or("", |(_, line)| line);
    let puzzle = match variant::parse_fpuzzles(line) {
        Ok(puzzle) => puzzle,
        Err(error) => {
            writeln!(err, "error: {error}")?;
            return Ok(Status::Failure);
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let explanation = match logic::explain_variant(&puzzle, &cancellation(args.timeout_ms, stop)) {
        Ok(explanation) => explanation,
        Err(error) => {
            let message = error_text(&error, args.timeout_ms);
            writeln!(err, "error: {message}")?;
            if args.json {
                let code = logic_error_code(&error);
                writeln!(out, "{}", json!({ "error": message, "code": code }))?;
            }
            return Ok(Status::Failure);
        }
    };
    let symbols: String = explanation
        .solution
        .iter()
        .map(|&digit| value_symbol(digit))
        .collect();
    if args.json {
        let body =
            variant_explain_response(&explanation, GridOutput::Symbols(symbols), puzzle.size());
        writeln!(out, "{}", serde_json::to_string(&body).expect("JSON"))?;
        return Ok(Status::Success);
    }
    for (number, step) in explanation.steps.iter().enumerate() {
        writeln!(out, "{:>3}. {}", number + 1, step.text)?;
    }
    if let Some(candidates) = &explanation.stalled {
        let left: u32 = candidates.iter().map(|digits| digits.count_ones()).sum();
        writeln!(out, "stalled: no step applies; {left} candidates left")?;
    }
    writeln!(out, "solution {symbols}")?;
    Ok(Status::Success)
}

/// Explains the one puzzle of `input` (a line, or a block): its steps on `out`,
/// for people or as JSON.
pub fn explain(
    args: &ExplainArgs,
    input: &str,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Status> {
    if super::variant::holds_variants(input) {
        return explain_variant(args, input, out, err);
    }
    let explained = one_puzzle(input).and_then(|puzzle| {
        let stop = Arc::new(AtomicBool::new(false));
        logic::explain(&puzzle, &cancellation(args.timeout_ms, stop)).map_err(|error| {
            let message = error_text(&error, args.timeout_ms);
            ("error", message, logic_error_code(&error))
        })
    });
    let explanation = match explained {
        Ok(explanation) => explanation,
        Err((prefix, message, code)) => {
            writeln!(err, "{prefix}: {message}")?;
            // What `rate --json` writes for a puzzle it cannot rate, so a script reads a
            // failure the same way from both.
            if args.json {
                writeln!(out, "{}", json!({ "error": message, "code": code }))?;
            }
            return Ok(Status::Failure);
        }
    };
    if args.json {
        let solution = GridOutput::Symbols(explanation.solution.to_symbols());
        let body = explain_response(&explanation, solution);
        writeln!(out, "{}", serde_json::to_string(&body).expect("JSON"))?;
        return Ok(Status::Success);
    }
    for (number, step) in explanation.steps.iter().enumerate() {
        match &explanation.rating {
            Some(_) => writeln!(
                out,
                "{:>3}. [{:.1}] {}",
                number + 1,
                step.rounded_difficulty(),
                step.text
            )?,
            None => writeln!(out, "{:>3}. {}", number + 1, step.text)?,
        }
    }
    if let Some(rating) = &explanation.rating {
        writeln!(
            out,
            "rating {} ({}; ER/EP/ED), hardest step: {}",
            three_ratings(rating),
            rating.level().id(),
            rating
                .hardest
                .map_or("none (no blank cell)", Technique::name)
        )?;
    }
    writeln!(out, "solution {}", explanation.solution.to_symbols())?;
    Ok(Status::Success)
}
