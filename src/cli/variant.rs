//! `solve` on a file of variant puzzles: one f-puzzles document or link a line (the JSON
//! object, its lz-string text, an f-puzzles or SudokuPad link), each answered with its
//! solution in the string notation, in input order.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::batch::{self, LineForm, Tally};
use super::{SolveArgs, Status, verdict, worker_threads};
use sudoku_engine::grid::{is_symbol_of, value_symbol};
use sudoku_engine::text_format;
use sudoku_engine::variant::{self, VariantError, VariantSolveOptions};

/// Whether `input` holds variant puzzles: its first line is an f-puzzles object, a link
/// that carries one, or lz-string text (a header line, or a grid with a typo, leaves it a
/// file of grids, whose bad line is answered with an error).
pub(super) fn holds_variants(input: &str) -> bool {
    text_format::numbered_content_lines(input)
        .next()
        .is_some_and(|(_, line)| {
            let line = line.trim();
            let lz_char =
                |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '-' | '$');
            let lz_text = line.len() > 81
                && line.chars().all(lz_char)
                && !line.chars().all(|c| is_symbol_of(c, 25));
            line.starts_with('{') || line.contains("://") || lz_text
        })
}

/// Solves every variant puzzle line of `input`: one answer line each on `out`, in input
/// order, and a summary on `err`.
pub(super) fn solve(
    args: &SolveArgs,
    input: &str,
    out: &mut impl Write,
    err: &mut impl Write,
) -> io::Result<Status> {
    let options = VariantSolveOptions {
        order: args.options().order,
        max_solutions: args.options().limit,
        true_candidates: None,
        max_guesses: None,
    };
    let started = Instant::now();
    let answer =
        |line: usize, text: &str, stop: &Arc<AtomicBool>, tally: &mut Tally, out: &mut Vec<u8>| {
            let written = solve_line(line, text, &options, args, stop, tally, out);
            written.expect("writing to a Vec cannot fail");
        };
    let threads = worker_threads(args.threads);
    let show_progress = io::stderr().is_terminal();
    let tally = batch::answer_lines(
        input,
        LineForm::Whole,
        &answer,
        batch::RATE_CHUNK_BYTES,
        threads,
        show_progress,
        out,
    )?;
    let summary = || tally.summary(started.elapsed(), args.unique);
    super::lines_status(&tally, summary, err)
}

/// Solves the variant puzzle of input line `line`, counts how it ended and writes its
/// answer (without a line end).
fn solve_line(
    line: usize,
    text: &str,
    options: &VariantSolveOptions,
    args: &SolveArgs,
    stop: &Arc<AtomicBool>,
    tally: &mut Tally,
    out: &mut Vec<u8>,
) -> io::Result<()> {
    let puzzle = match variant::parse_fpuzzles(text) {
        Ok(puzzle) => puzzle,
        Err(error) => {
            tally.invalid += 1;
            return write!(out, "invalid: line {line}: {error}");
        }
    };
    let solved = variant::solve(&puzzle, options, &args.cancellation(Arc::clone(stop)));
    // With `--unique`, one solution found before the time ran out decides nothing.
    let undecided = |count: u64, exact: bool| options.max_solutions >= 2 && count < 2 && !exact;
    match solved {
        Ok(answer) if undecided(answer.solution_count, answer.count_exact) => {
            tally.timed_out += 1;
            write!(out, "timeout")
        }
        Ok(answer) => match answer.solution {
            Some(solution) => {
                tally.solved += 1;
                out.extend(solution.iter().map(|&digit| value_symbol(digit) as u8));
                if options.max_solutions >= 2 {
                    let count = answer.solution_count;
                    tally.multiple += usize::from(count > 1);
                    write!(out, " {}", verdict::uniqueness(count))?;
                }
                Ok(())
            }
            None => {
                tally.unsolvable += 1;
                write!(out, "unsolvable")
            }
        },
        Err(VariantError::Stopped) => {
            tally.timed_out += 1;
            write!(out, "timeout")
        }
        Err(too_large @ VariantError::TooLarge { .. }) => {
            tally.invalid += 1;
            write!(out, "invalid: line {line}: {too_large}")
        }
    }
}
