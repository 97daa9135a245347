//! Answering a file of one puzzle per line on several threads (solving or rating each), in
//! input order.
//!
//! The input is cut at line ends into chunks of a size that suits the work (see
//! [`SOLVE_CHUNK_BYTES`] and [`RATE_CHUNK_BYTES`]); workers take chunks
//! from a shared counter, split them into puzzle lines themselves, and send each chunk's
//! answers to the writing thread, which puts them back in order and writes each as soon
//! as all before it are written. With one worker, the calling thread solves and writes
//! itself.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use sudoku_engine::text_format;

/// Bytes of input a worker takes at a time when solving (about 250 lines of 9×9 grids):
/// large enough to keep the channel quiet, small enough to balance hard puzzles across
/// threads. Cutting by bytes takes a few hundred short scans, so workers start at once
/// instead of after a serial split of the whole input into lines.
pub(super) const SOLVE_CHUNK_BYTES: usize = 20 * 1024;

/// Bytes of input a worker takes at a time when rating: every puzzle line is a chunk of its
/// own (a blank line joins the next).
/// A rating takes from a tenth of a millisecond to seconds, far more than handing out a
/// line, and chunks of many lines would leave the hardest puzzles of a file, wherever
/// they cluster, to one thread while the others wait.
pub(super) const RATE_CHUNK_BYTES: usize = 1;

/// Inputs shorter than this finish too fast for a progress bar to help.
const PROGRESS_BAR_MIN_PUZZLES: usize = 2_000;

/// Counts of how the puzzles of a batch ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Tally {
    /// Answered: solved, or rated.
    pub(super) solved: usize,
    /// Solved, with several solutions.
    pub(super) multiple: usize,
    /// Without an answer: no solution (or, when rating, not exactly one).
    pub(super) unsolvable: usize,
    pub(super) timed_out: usize,
    pub(super) invalid: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.solved += other.solved;
        self.multiple += other.multiple;
        self.unsolvable += other.unsolvable;
        self.timed_out += other.timed_out;
        self.invalid += other.invalid;
    }

    /// Puzzles of every outcome.
    pub(super) fn total(&self) -> usize {
        self.solved + self.unsolvable + self.timed_out + self.invalid
    }

    /// Whether the batch had no puzzle at all.
    pub(super) fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Whether every puzzle of the batch was solved.
    pub(super) fn all_solved(&self) -> bool {
        self.solved == self.total()
    }

    /// The summary line of a solve, written to stderr.
    pub(super) fn summary(&self, elapsed: Duration, unique: bool) -> String {
        let seconds = elapsed.as_secs_f64();
        let rate = self.total() as f64 / seconds.max(1e-9);
        let multiple = if unique {
            format!(", {} with several solutions", self.multiple)
        } else {
            String::new()
        };
        format!(
            "{}: {} solved{multiple}, {} unsolvable, {} timed out, {} invalid in {seconds:.3} s ({rate:.0} puzzles/s)",
            super::counted(self.total(), "puzzle"),
            self.solved,
            self.unsolvable,
            self.timed_out,
            self.invalid,
        )
    }
}

/// How one puzzle line is answered, given its 1-based number in the input (for its error
/// to name) and its puzzle: it counts how the puzzle ended and writes its answer (without a
/// line end); the flag is raised when the run is abandoned, and long work should stop then.
pub(super) type Answer<'a> =
    dyn Fn(usize, &str, &Arc<AtomicBool>, &mut Tally, &mut Vec<u8>) + Sync + 'a;

/// How a command reads a line of its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LineForm {
    /// A grid: its first field, or the symbols of a spaced line.
    Grid,
    /// The whole line, trimmed (an f-puzzles document or link).
    Whole,
}

/// Answers every puzzle line of `input` (read as `form`) with `answer` on `threads`
/// workers, which take chunks of about `chunk_bytes` at a time, and writes one answer line
/// per puzzle to `out`, in input order.
pub(super) fn answer_lines(
    input: &str,
    form: LineForm,
    answer: &Answer<'_>,
    chunk_bytes: usize,
    threads: usize,
    show_progress: bool,
    out: &mut impl Write,
) -> io::Result<Tally> {
    let chunks = numbered(cut_at_line_ends(input, chunk_bytes));
    let mut sink = Sink {
        out,
        progress: progress_bar(input, show_progress),
        total: Tally::default(),
    };
    // Raised when the output is gone: workers stop taking chunks and cut running solves.
    let abandoned = Arc::new(AtomicBool::new(false));
    let written = if threads <= 1 {
        // One worker: the calling thread solves and writes, with no hand-off between threads.
        chunks.iter().try_for_each(|&chunk| {
            let (text, tally) = answer_chunk(chunk, form, answer, &abandoned);
            sink.write(&text, tally)
        })
    } else {
        answer_chunks_in_parallel(&chunks, form, answer, threads, &abandoned, &mut sink)
    };
    sink.progress.finish_and_clear();
    written.and_then(|()| sink.out.flush())?;
    Ok(sink.total)
}

/// `pieces` of an input, each with the 1-based number of its first line.
fn numbered(pieces: Vec<&str>) -> Vec<(usize, &str)> {
    let mut first_line = 1;
    pieces
        .into_iter()
        .map(|piece| {
            let numbered = (first_line, piece);
            first_line += memchr::memchr_iter(b'\n', piece.as_bytes()).count();
            numbered
        })
        .collect()
}

/// `input` cut into pieces of whole lines: each piece but the last ends just after the
/// first line end at or past `size` bytes (a nonzero size).
fn cut_at_line_ends(input: &str, size: usize) -> Vec<&str> {
    debug_assert!(size > 0, "pieces need a size");
    let mut pieces = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let end = rest.as_bytes().get(size..).map_or(rest.len(), |after| {
            after
                .iter()
                .position(|&byte| byte == b'\n')
                .map_or(rest.len(), |line_end| size + line_end + 1)
        });
        // A cut just after a `\n` is a character boundary.
        let (piece, tail) = rest.split_at(end);
        pieces.push(piece);
        rest = tail;
    }
    pieces
}

/// Answers `chunks` on `threads` workers; the calling thread writes their answers in order.
fn answer_chunks_in_parallel(
    chunks: &[(usize, &str)],
    form: LineForm,
    answer: &Answer<'_>,
    threads: usize,
    abandoned: &Arc<AtomicBool>,
    sink: &mut Sink<impl Write>,
) -> io::Result<()> {
    in_order_on_threads(
        chunks.len(),
        threads,
        abandoned,
        |index| answer_chunk(chunks[index], form, answer, abandoned),
        |(text, tally)| sink.write(&text, tally),
    )
}

/// Runs `work` on `0..count` on `threads` workers, which take the next index from a shared
/// counter, and hands each result to `write` on the calling thread in index order, as soon
/// as those before it are written. `stop` is raised when writing fails or ends, and the
/// workers take no more work once it is.
pub(super) fn in_order_on_threads<T: Send>(
    count: usize,
    threads: usize,
    stop: &Arc<AtomicBool>,
    work: impl Fn(usize) -> T + Sync,
    mut write: impl FnMut(T) -> io::Result<()>,
) -> io::Result<()> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, T)>();
    thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            let started = thread::Builder::new().spawn_scoped(scope, move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count || sender.send((index, work(index))).is_err() {
                        break;
                    }
                }
            });
            if let Err(error) = started {
                // The workers that did start see the flag and stop.
                stop.store(true, Ordering::Relaxed);
                return Err(io::Error::new(
                    error.kind(),
                    format!("cannot start {threads} worker threads: {error}"),
                ));
            }
        }
        drop(sender);
        // Results come in any order; each is written once those before it are.
        let mut early = BTreeMap::new();
        let mut next_to_write = 0;
        let written = receiver.into_iter().try_for_each(|(index, result)| {
            early.insert(index, result);
            while let Some(result) = early.remove(&next_to_write) {
                write(result)?;
                next_to_write += 1;
            }
            Ok(())
        });
        stop.store(true, Ordering::Relaxed);
        written
    })
}

/// Where answers go: the output, the progress bar and the running tally.
struct Sink<'a, W: Write> {
    out: &'a mut W,
    progress: ProgressBar,
    total: Tally,
}

impl<W: Write> Sink<'_, W> {
    /// Writes one chunk's answers and counts them.
    fn write(&mut self, text: &[u8], tally: Tally) -> io::Result<()> {
        self.total.add(tally);
        self.progress.inc(tally.total() as u64);
        self.out.write_all(text)
    }
}

/// The answers to the puzzle lines of `chunk` (UTF-8 text whose first line is line
/// `first_line` of the input), a line each, and how they ended.
fn answer_chunk(
    (first_line, chunk): (usize, &str),
    form: LineForm,
    answer: &Answer<'_>,
    stop: &Arc<AtomicBool>,
) -> (Vec<u8>, Tally) {
    // A start: an answer is about as long as its line (longer with `--unique`, shorter
    // after a trailing field).
    let mut text = Vec::with_capacity(chunk.len());
    let mut tally = Tally::default();
    let lines: Box<dyn Iterator<Item = (usize, Cow<str>)>> = match form {
        LineForm::Grid => Box::new(text_format::puzzle_lines(chunk)),
        LineForm::Whole => Box::new(
            text_format::numbered_content_lines(chunk)
                .map(|(number, line)| (number, Cow::Borrowed(line))),
        ),
    };
    for (number, puzzle) in lines {
        answer(
            first_line + number - 1,
            &puzzle,
            stop,
            &mut tally,
            &mut text,
        );
        text.push(b'\n');
    }
    (text, tally)
}

/// A progress bar over the puzzles of `input`, when `wanted` and there are many.
fn progress_bar(input: &str, wanted: bool) -> ProgressBar {
    if !wanted {
        return ProgressBar::hidden();
    }
    // Counted only for a bar: a batch that shows none never walks the input serially.
    let puzzles = text_format::puzzle_lines(input).count();
    if puzzles < PROGRESS_BAR_MIN_PUZZLES {
        return ProgressBar::hidden();
    }
    puzzle_bar(ProgressBar::new(puzzles as u64))
}

/// `bar` drawn as a bar with the puzzles done, their rate and the time left.
pub(super) fn puzzle_bar(bar: ProgressBar) -> ProgressBar {
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles, {per_sec}, eta {eta}")
            .expect("the progress template is valid"),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_whole_lines_that_join_back_into_the_input() {
        let long_line = "x".repeat(50);
        let input = format!("ab\r\ncd\n{long_line}\nef\ngh");
        for size in [1, 3, 7, 60, 1000] {
            let pieces = cut_at_line_ends(&input, size);
            assert_eq!(pieces.concat(), input, "size {size}");
            let (last, whole) = pieces.split_last().unwrap();
            for piece in whole {
                assert!(piece.ends_with('\n'), "size {size}: {piece:?}");
                assert!(piece.len() >= size, "size {size}: {piece:?}");
            }
            assert!(!last.is_empty());
        }
        assert!(cut_at_line_ends("", 10).is_empty());
    }

    #[test]
    fn rating_hands_out_every_line_on_its_own() {
        let pieces = cut_at_line_ends("1\n23\r\n\n456", RATE_CHUNK_BYTES);
        assert_eq!(pieces, ["1\n", "23\r\n", "\n456"]);
    }

    #[test]
    fn pieces_hold_the_same_puzzle_lines_as_the_whole_input() {
        let input = "# heading é\n\n1.2\r\n  \n#x\nαβγ:tail\n345\n\n6\t7\n89";
        let whole: Vec<_> = text_format::puzzle_lines(input).collect();
        let puzzles: Vec<&str> = whole.iter().map(|(_, puzzle)| puzzle.as_ref()).collect();
        assert_eq!(puzzles, ["1.2", "αβγ", "345", "6", "89"]);
        let numbers: Vec<usize> = whole.iter().map(|&(number, _)| number).collect();
        assert_eq!(numbers, [3, 6, 7, 9, 10]);
        for size in 1..input.len() + 2 {
            let pieces: Vec<_> = numbered(cut_at_line_ends(input, size))
                .into_iter()
                .flat_map(|(first_line, piece)| {
                    text_format::puzzle_lines(piece)
                        .map(move |(number, puzzle)| (first_line + number - 1, puzzle))
                })
                .collect();
            assert_eq!(pieces, whole, "size {size}");
        }
    }
}
