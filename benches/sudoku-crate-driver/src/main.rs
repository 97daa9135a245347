//! Reads one 81-symbol puzzle per line on stdin (`#` lines skipped) and writes
//! `puzzle:count:solution` per line. Argument 1 (the default) finds one solution;
//! argument 2 counts solutions up to 2, which decides uniqueness.

use std::io::{BufRead, Write};

use sudoku::Sudoku;

fn main() {
    let limit: usize = match std::env::args().nth(1) {
        Some(arg) => arg.parse().expect("the argument is a solution limit: 1 or 2"),
        None => 1,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin is UTF-8 text");
        let line = line.trim();
        if line.len() < 81 || line.starts_with('#') {
            continue;
        }
        let puzzle = &line[..81];
        let Ok(sudoku) = Sudoku::from_str_line(puzzle) else {
            writeln!(out, "{puzzle}:err:").expect("stdout is writable");
            continue;
        };
        let solutions = if limit <= 1 {
            sudoku.some_solution().into_iter().collect()
        } else {
            sudoku.solutions_up_to(limit)
        };
        let first = solutions
            .first()
            .map(|s| s.to_str_line().to_string())
            .unwrap_or_default();
        writeln!(out, "{puzzle}:{}:{first}", solutions.len()).expect("stdout is writable");
    }
}
