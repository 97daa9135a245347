//! The `sudoku-service solve` and `validate` subcommands, run as the real binary: the
//! Baekjoon 2239 and 2580 samples answered byte for byte, a puzzle file mixing comments,
//! CRLF, malformed and unsolvable lines answered one line per puzzle in input order with
//! the right exit status, identical output on one and two threads, `--unique` verdicts, and
//! 16×16 and 25×25 puzzles, and `validate` on grids with and without a repeated digit.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::thread;

use common::{Puzzle, assert_solves, read_data, read_puzzles};
use sudoku_engine::grid::Grid;

/// What one run of the binary gave.
struct Run {
    success: bool,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `sudoku-service <args>` with `input` on stdin.
fn run(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-service"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_owned();
    // Write from another thread so a large input cannot deadlock against a full stdout pipe.
    let writer = thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the binary runs");
    match writer.join().expect("the writer thread") {
        // A run that fails before reading its input closes stdin early.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("stdin is written"),
    }
    Run {
        success: output.status.success(),
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Replaces the symbol at `index` of a one-line puzzle.
fn with_symbol(puzzle: &str, index: usize, symbol: char) -> String {
    puzzle
        .chars()
        .enumerate()
        .map(|(i, c)| if i == index { symbol } else { c })
        .collect()
}

/// Checks that an answer line is a solution of `puzzle`, and returns what follows it.
fn assert_answer_solves<'a>(puzzle: &Puzzle, answer: &'a str) -> &'a str {
    let (solution, rest) = answer.split_at(answer.find(' ').unwrap_or(answer.len()));
    let solution = Grid::parse_symbols(solution)
        .unwrap_or_else(|e| panic!("line {}: answer {answer:?} is not a grid: {e}", puzzle.line));
    assert_solves(&puzzle.grid, &solution);
    rest.trim_start()
}

#[test]
fn baekjoon_2239_sample_gives_the_expected_output() {
    let result = run(&["solve", "--lexicographic"], &read_data("boj/2239.in"));
    assert_eq!(result.stdout, read_data("boj/2239.out"));
    assert!(result.success, "stderr: {}", result.stderr);
}

#[test]
fn baekjoon_2580_sample_gives_the_expected_output_in_its_spaced_layout() {
    let result = run(&["solve"], &read_data("boj/2580.in"));
    assert_eq!(result.stdout, read_data("boj/2580.out"));
    assert!(result.success, "stderr: {}", result.stderr);
}

#[test]
fn the_baekjoon_2580_sample_joined_on_one_line_is_one_puzzle() {
    let one_line = read_data("boj/2580.in")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let result = run(&["solve"], &format!("{one_line}\n"));
    let solution: String = read_data("boj/2580.out").split_whitespace().collect();
    assert_eq!(result.stdout, format!("{solution}\n"));
    assert!(result.success, "stderr: {}", result.stderr);
}

#[test]
fn a_block_whose_givens_clash_fails_with_the_conflict_on_stderr() {
    let input = read_data("boj/2239.in").replacen("103000509", "113000509", 1);
    let result = run(&["solve", "--lexicographic"], &input);
    assert!(!result.success);
    assert_eq!(result.stdout, "");
    assert!(
        result.stderr.contains("row 1 has 1 at r1c1 r1c2"),
        "stderr: {}",
        result.stderr
    );
}

#[test]
fn a_mixed_puzzle_file_gets_one_answer_per_puzzle_in_input_order() {
    let top95 = read_puzzles("9x9/top95.txt");
    let easy50 = read_puzzles("9x9/easy50.txt");
    let tdoku = read_puzzles("9x9/tdoku_test_puzzles.txt");
    let unsolvable = tdoku
        .iter()
        .find(|p| p.fields[0] == "0")
        .expect("tdoku's file has unsolvable puzzles");
    // Row 2, column 5 (counted from 0) of the second puzzle holds an `x`: r3c6.
    let bad_symbol = with_symbol(&top95[1].text, 2 * 9 + 5, 'x');
    let input = format!(
        "# a comment line, not a puzzle\n\
         {}\r\n\
         \n\
         {bad_symbol}\n\
         {}\n\
         {}:0\n\
         {}\tEuler 1\n",
        top95[0].text,
        &top95[2].text[..80],
        unsolvable.text,
        easy50[0].text,
    );
    let result = run(&["solve", "--threads", "2"], &input);
    let lines: Vec<&str> = result.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "stdout: {}", result.stdout);
    assert_eq!(assert_answer_solves(&top95[0], lines[0]), "");
    // Each names its line of the input, comment and blank lines counted.
    assert!(lines[1].starts_with("invalid: line 4: "), "{}", lines[1]);
    for part in ["'x'", "r3c6"] {
        assert!(lines[1].contains(part), "{:?} lacks {part}", lines[1]);
    }
    assert!(lines[2].starts_with("invalid: line 5: "), "{}", lines[2]);
    assert!(lines[2].contains("80"), "{:?} names the length", lines[2]);
    assert_eq!(lines[3], "unsolvable");
    assert_eq!(assert_answer_solves(&easy50[0], lines[4]), "");
    assert!(!result.success);
    assert_ne!(result.code, Some(0));
    for part in ["5 puzzles", "2 solved", "1 unsolvable", "2 invalid"] {
        assert!(result.stderr.contains(part), "summary: {}", result.stderr);
    }
}

#[test]
fn a_file_of_solvable_puzzles_exits_with_success() {
    let result = run(&["solve"], &read_data("9x9/easy50.txt"));
    assert!(result.success, "stderr: {}", result.stderr);
    let puzzles = read_puzzles("9x9/easy50.txt");
    let lines: Vec<&str> = result.stdout.lines().collect();
    assert_eq!(lines.len(), puzzles.len());
    for (puzzle, line) in puzzles.iter().zip(lines) {
        assert_eq!(assert_answer_solves(puzzle, line), "");
    }
}

#[test]
fn one_and_two_threads_give_the_same_answers_in_input_order() {
    let files = [
        "9x9/forum_hardest_1106.txt",
        "9x9/tdoku_test_puzzles.txt",
        "9x9/top95.txt",
    ];
    let input: String = files.iter().map(|f| read_data(f)).collect();
    let puzzles: Vec<Puzzle> = files.iter().flat_map(|f| read_puzzles(f)).collect();
    assert!(puzzles.len() > 500);
    for unique in [false, true] {
        let args = |threads| {
            let mut args = vec!["solve", "--threads", threads];
            if unique {
                args.push("--unique");
            }
            args
        };
        let one = run(&args("1"), &input);
        let two = run(&args("2"), &input);
        assert_eq!(one.stdout, two.stdout, "--unique: {unique}");
        assert_eq!(one.code, two.code);
        assert!(!one.success, "tdoku's unsolvable puzzles make the run fail");
        let lines: Vec<&str> = two.stdout.lines().collect();
        assert_eq!(lines.len(), puzzles.len());
        for (puzzle, line) in puzzles.iter().zip(lines) {
            // Only tdoku's lines carry a count; every other puzzle has one solution.
            let count = puzzle.fields.first().map_or("1", String::as_str);
            if count == "0" {
                assert_eq!(line, "unsolvable", "line {}", puzzle.line);
                continue;
            }
            let verdict = assert_answer_solves(puzzle, line);
            let expected = match (unique, count) {
                (false, _) => "",
                (true, "1") => "unique",
                (true, _) => "multiple",
            };
            assert_eq!(verdict, expected, "line {}: {}", puzzle.line, puzzle.text);
        }
    }
}

#[test]
fn sixteen_and_twenty_five_by_twenty_five_puzzles_are_answered_in_letters() {
    // The 16×16 file has no line end after its last puzzle.
    let files = [
        "16x16/16x16-100puzzles-vu-kr.txt",
        "25x25/25x25-grid-1.line.txt",
    ];
    let input = format!("{}\n{}", read_data(files[0]), read_data(files[1]));
    let puzzles: Vec<Puzzle> = files.iter().flat_map(|f| read_puzzles(f)).collect();
    let result = run(&["solve", "--threads", "2"], &input);
    assert!(result.success, "stderr: {}", result.stderr);
    let lines: Vec<&str> = result.stdout.lines().collect();
    assert_eq!(lines.len(), 101);
    for (puzzle, line) in puzzles.iter().zip(lines) {
        assert_eq!(assert_answer_solves(puzzle, line), "");
        assert_eq!(line.len(), puzzle.text.len());
    }
}

#[test]
fn a_16x16_or_25x25_grid_written_a_row_a_line_is_one_puzzle_and_a_short_row_is_named() {
    for file in [
        "16x16/16x16-100puzzles-vu-kr.txt",
        "25x25/25x25-grid-1.line.txt",
    ] {
        let puzzle = &read_puzzles(file)[0];
        let size = (puzzle.text.len() as f64).sqrt() as usize;
        let block: String = (0..size)
            .map(|row| format!("{}\n", &puzzle.text[row * size..(row + 1) * size]))
            .collect();
        let result = run(&["solve"], &block);
        assert!(result.success, "{file}: {}", result.stderr);
        let rows: Vec<&str> = result.stdout.lines().collect();
        assert_eq!(rows.len(), size, "{file}: {}", result.stdout);
        assert_eq!(assert_answer_solves(puzzle, &rows.concat()), "", "{file}");
        // The last symbol of row 3 lost in copying.
        let third_row_end = 3 * (size + 1) - 1;
        let typo = [&block[..third_row_end - 1], &block[third_row_end..]].concat();
        let result = run(&["solve"], &typo);
        assert_eq!(result.code, Some(1), "{file}: {}", result.stdout);
        let named = format!("invalid: line 3 is not a row of the {size}-line block");
        assert!(
            result.stderr.starts_with(&named),
            "{file}: {}",
            result.stderr
        );
        assert!(result.stdout.is_empty(), "{file}: {}", result.stdout);
    }
}

#[test]
fn unique_flag_tells_several_solutions_from_one() {
    let serg = &read_puzzles("9x9/serg_multisolution.txt")[0];
    let top95 = &read_puzzles("9x9/top95.txt")[0];
    let input = format!("{}\n{}\n", serg.text, top95.text);
    let result = run(&["solve", "--unique"], &input);
    assert!(result.success, "stderr: {}", result.stderr);
    let lines: Vec<&str> = result.stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(assert_answer_solves(serg, lines[0]), "multiple");
    assert_eq!(assert_answer_solves(top95, lines[1]), "unique");
}

#[test]
fn thread_counts_outside_1_to_1024_are_rejected_with_the_range() {
    for threads in ["0", "1025", "100000"] {
        let result = run(
            &["solve", "--threads", threads],
            &read_data("9x9/hardest.txt"),
        );
        assert_eq!(result.code, Some(2), "--threads {threads}");
        assert_eq!(result.stdout, "");
        assert!(result.stderr.contains("1..=1024"), "{}", result.stderr);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn threads_that_cannot_start_end_the_run_with_a_message_not_a_panic() {
    use std::os::unix::process::CommandExt;
    // Thread stacks of 1 GiB in an address space of 8 GiB: a few threads start, then one
    // cannot, while the heap still has room.
    let limit = libc::rlimit {
        rlim_cur: 8 << 30,
        rlim_max: 8 << 30,
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-service"));
    command
        .args(["solve", "--threads", "1024"])
        .env("RUST_MIN_STACK", (1u64 << 30).to_string());
    // SAFETY: setrlimit is async-signal-safe and touches only the child being started.
    unsafe {
        command.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let output = command
        .stdin(std::fs::File::open(common::data_path("9x9/top95.txt")).unwrap())
        .output()
        .expect("the binary starts");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot start 1024 worker threads"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn validate_reports_a_repeated_digit_and_fails() {
    // Row 0 of the 2239 sample gets a second 1 next to the first: row 0 and box 0 clash.
    let input = read_data("boj/2239.in").replacen("103000509", "113000509", 1);
    let result = run(&["validate"], &input);
    assert!(!result.success);
    let lines: Vec<&str> = result.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "stdout: {}", result.stdout);
    for conflict in ["row 1 has 1 at r1c1 r1c2", "box 1 has 1 at r1c1 r1c2"] {
        assert!(
            lines[0].contains(conflict),
            "{:?} lacks {conflict}",
            lines[0]
        );
    }
    assert!(!lines[0].contains("column"), "{:?}", lines[0]);
}

#[test]
fn validate_accepts_valid_grids() {
    for (file, verdict) in [("boj/2239.in", "valid"), ("boj/2239.out", "solved")] {
        let result = run(&["validate"], &read_data(file));
        assert!(result.success, "{file}: {}", result.stderr);
        assert_eq!(result.stdout.trim_end(), verdict, "{file}");
    }
    let result = run(&["validate"], &read_data("boj/2580.in"));
    assert!(result.success, "{}", result.stderr);
    assert_eq!(result.stdout.trim_end(), "valid");
}

#[test]
fn validate_answers_each_line_of_a_puzzle_file() {
    let top95 = read_puzzles("9x9/top95.txt");
    // The first puzzle starts `4.....8.5`: a second 4 in column 3 of row 0 clashes in the row.
    let clash = with_symbol(&top95[0].text, 3, '4');
    let input = format!("{}\n{clash}\n\n{}\n12\n", top95[0].text, top95[1].text);
    let result = run(&["validate"], &input);
    assert!(!result.success);
    let lines: Vec<&str> = result.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "stdout: {}", result.stdout);
    assert!(
        lines[3].starts_with("invalid: line 5: grid has 2 cells"),
        "{}",
        lines[3]
    );
    assert_eq!(lines[0], "valid");
    assert!(
        lines[1].contains("row 1 has 4 at r1c1 r1c4"),
        "{:?}",
        lines[1]
    );
    assert_eq!(lines[2], "valid");
}

#[test]
fn a_puzzle_that_outlasts_the_time_limit_answers_timeout_and_fails() {
    // Breaks no rule, has no solution, and keeps the solver busy far beyond the limit.
    let trap = common::pigeonhole_trap(16).to_symbols();
    let input = format!(
        "{trap}\n{}\n",
        read_data("9x9/top95.txt").lines().next().unwrap()
    );
    let run = run(&["solve", "--timeout-ms", "200"], &input);
    assert!(!run.success);
    let answers: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0], "timeout");
    assert_eq!(answers[1].len(), 81, "the next puzzle is still solved");
    assert!(run.stderr.contains("1 timed out"), "{}", run.stderr);
}

#[test]
fn a_line_whose_givens_clash_says_which_clash() {
    let classic = read_puzzles("9x9/top95.txt")[0].text.clone();
    // Two 9s in row 1: the first cell, and wherever row 1 already has one (or a new one).
    let clash = format!("9{}", &with_symbol(&classic, 8, '9')[1..]);
    let result = run(&["solve"], &format!("{clash}\n{classic}\n"));
    let first = result.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("unsolvable: the givens clash: ") && first.contains("row 1 has 9"),
        "{first}"
    );
    assert!(!result.success);
    for command in ["rate", "explain"] {
        let result = run(&[command], &clash);
        let said = format!("{}{}", result.stdout, result.stderr);
        assert!(
            said.contains("no solution: the givens clash: ") && said.contains("row 1 has 9"),
            "{command}: {said}"
        );
        assert!(!result.success, "{command}");
    }
}

#[test]
fn every_reading_command_takes_a_file_argument_and_dash_for_stdin() {
    let commands: [(&[&str], &str); 4] = [
        (&["solve", "--threads", "1"], "9x9/top95.txt"),
        (&["validate"], "9x9/top95.txt"),
        (&["rate", "--threads", "1"], "9x9/top95.txt"),
        (&["explain"], "boj/2239.in"),
    ];
    for (command, file) in commands {
        let path = common::data_path(file);
        let path = path.to_str().expect("a UTF-8 path");
        let from_file = run(&[command, &[path]].concat(), "");
        let from_stdin = run(&[command, &["-"]].concat(), &read_data(file));
        assert!(from_file.success, "{command:?}: {}", from_file.stderr);
        assert!(!from_file.stdout.is_empty(), "{command:?}");
        assert_eq!(from_file.stdout, from_stdin.stdout, "{command:?}");
    }
    let missing = run(&["solve", "no/such/puzzles.txt"], "");
    assert_eq!(missing.code, Some(1));
    assert!(
        missing.stderr.contains("cannot read no/such/puzzles.txt")
            && !missing.stderr.contains("stdin"),
        "{}",
        missing.stderr
    );
    // A puzzle typed where its file goes is not read as one, but the error says how.
    let puzzle = read_puzzles("9x9/top95.txt")[0].text.clone();
    let typed = run(&["rate", &puzzle], "");
    assert_eq!(typed.code, Some(1));
    assert!(
        typed
            .stderr
            .contains(&format!("echo '{puzzle}' | sudoku-service rate")),
        "{}",
        typed.stderr
    );
}

#[test]
fn a_json_body_piped_to_a_command_is_refused_with_where_it_goes() {
    let puzzle = &read_puzzles("9x9/top95.txt")[0].text;
    for command in ["solve", "validate", "rate", "explain"] {
        for body in [
            format!("{{\"grid\": \"{puzzle}\"}}\n"),
            format!("  [{{\"grid\": \"{puzzle}\"}}]"),
        ] {
            let result = run(&[command], &body);
            assert_eq!(result.code, Some(1), "{command}: {}", result.stderr);
            assert!(result.stdout.is_empty(), "{command}");
            assert!(
                result.stderr.contains("the input is JSON")
                    && result.stderr.contains(&format!("POST /{command}")),
                "{command}: {}",
                result.stderr
            );
        }
    }
}

/// A loopback address whose port the returned listener holds, as `HOST:PORT`.
fn taken_address() -> (std::net::TcpListener, String) {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    (taken, address)
}

#[test]
fn a_port_in_use_is_refused_with_how_to_choose_another() {
    let (_taken, address) = taken_address();
    let result = run(&["serve", "--listen-addr", &address], "");
    assert_eq!(result.code, Some(1));
    assert!(
        result
            .stderr
            .contains(&format!("cannot listen on {address}"))
            && result.stderr.contains("--port or PORT"),
        "{}",
        result.stderr
    );
}

#[test]
fn limits_that_could_never_be_met_are_refused_before_listening() {
    // The port is taken, so a server that went on to listen would fail otherwise.
    let (_taken, address) = taken_address();
    for (flags, says) in [
        (
            &["--body-budget-bytes", "5000"][..],
            "--body-budget-bytes (BODY_BUDGET_BYTES) 5000 is below --body-limit-bytes \
             (BODY_LIMIT_BYTES) 65536",
        ),
        (&["--body-limit-bytes", "0"], "--body-limit-bytes"),
        (
            &["--batch-body-limit-bytes", "0"],
            "--batch-body-limit-bytes",
        ),
        (&["--listen-backlog", "0"], "--listen-backlog"),
        (&["--log-filter", "x=y=z"], "--log-filter"),
    ] {
        let args = [&["serve", "--listen-addr", &address][..], flags].concat();
        let result = run(&args, "");
        assert_eq!(result.code, Some(2), "{flags:?}: {}", result.stderr);
        assert!(result.stderr.contains(says), "{flags:?}: {}", result.stderr);
    }
}

#[test]
fn a_block_with_a_malformed_or_missing_line_says_so_instead_of_reading_lines_as_puzzles() {
    let input = read_data("boj/2239.in").replacen("103000509", "10300050", 1);
    for command in ["solve", "validate", "rate", "explain"] {
        let result = run(&[command], &input);
        assert!(!result.success, "{command}");
        assert!(
            result
                .stderr
                .contains("line 1 is not a row of the 9-line block")
                && result.stderr.contains("8 digits instead of 9"),
            "{command}: {}",
            result.stderr
        );
        // A row lost in copying: eight rows, not eight one-line puzzles.
        let short: String = read_data("boj/2239.in")
            .lines()
            .skip(1)
            .map(|row| format!("{row}\n"))
            .collect();
        let result = run(&[command], &short);
        assert!(!result.success, "{command}");
        assert!(
            result
                .stderr
                .contains("8 lines that are rows of a 9-line block, which has 9")
                && result.stdout.is_empty(),
            "{command}: {}{}",
            result.stdout,
            result.stderr
        );
    }
}

#[test]
fn a_byte_order_mark_before_the_first_puzzle_is_no_symbol() {
    let line = read_data("boj/2239.in").lines().collect::<String>();
    for input in [
        format!("\u{feff}{line}\r\n"),
        format!("\u{feff}{}", read_data("boj/2239.in")),
    ] {
        let result = run(&["solve"], &input);
        assert!(result.success, "{}", result.stderr);
    }
}

#[test]
fn dots_are_blanks_in_a_block_too() {
    let dotted = read_data("boj/2239.in").replace('0', ".");
    let result = run(&["solve", "--lexicographic"], &dotted);
    assert_eq!(result.stdout, read_data("boj/2239.out"));
    assert!(result.success, "stderr: {}", result.stderr);
}

#[test]
fn a_block_drawn_as_on_the_forums_is_one_puzzle_for_every_command() {
    // The Baekjoon 2580 sample with `|` between boxes and a line between bands.
    let mut drawn = String::new();
    for (index, row) in read_data("boj/2580.in").lines().enumerate() {
        let symbols: Vec<&str> = row.split_whitespace().collect();
        let boxes: Vec<String> = symbols.chunks(3).map(|part| part.join(" ")).collect();
        if index == 3 || index == 6 {
            drawn.push_str("------+-------+------\n");
        }
        drawn.push_str(&format!("{}\n", boxes.join(" | ")));
    }
    let result = run(&["solve"], &drawn);
    assert_eq!(result.stdout, read_data("boj/2580.out"), "input:\n{drawn}");
    assert!(result.success, "stderr: {}", result.stderr);
    for command in ["validate", "rate", "explain"] {
        let result = run(&[command], &drawn);
        assert!(result.success, "{command}: {}", result.stderr);
        assert!(
            !result.stderr.contains("invalid:"),
            "{command}: {}",
            result.stderr
        );
    }
}

#[test]
fn empty_input_is_an_error() {
    for command in [&["solve"][..], &["validate"][..]] {
        let run = run(command, "# only a comment\n\n");
        assert!(!run.success, "{command:?}");
        assert!(
            run.stderr.contains("no puzzles"),
            "{command:?}: {}",
            run.stderr
        );
    }
}

/// The first `count` puzzles of the reference ratings file, one per line.
fn rated_puzzles(count: usize) -> String {
    read_data("9x9/se-rated/se-rated-dev.tsv")
        .lines()
        .skip(1)
        .step_by(7)
        .take(count)
        .map(|line| format!("{}\n", &line[..81]))
        .collect()
}

#[test]
fn ratings_are_the_same_on_every_thread_count_and_in_input_order() {
    let input = rated_puzzles(120);
    let one = run(&["rate", "--threads", "1"], &input);
    assert!(one.success, "{}", one.stderr);
    assert_eq!(one.stdout.lines().count(), 120);
    for threads in ["2", "3"] {
        let many = run(&["rate", "--threads", threads], &input);
        assert_eq!(many.stdout, one.stdout, "--threads {threads}");
    }
    // JSON lines carry the same ratings.
    let json = run(&["rate", "--json", "--threads", "2"], &input);
    for (text, json) in one.stdout.lines().zip(json.stdout.lines()) {
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        let se = text.split('/').next().unwrap();
        assert_eq!(
            format!("{:.1}", value["se"].as_f64().unwrap()),
            se,
            "{json}"
        );
    }
}

#[test]
fn a_grid_with_no_blank_cell_rates_zero_and_names_no_technique() {
    let solved = run(&["solve"], &rated_puzzles(1)).stdout;
    let rated = run(&["rate"], &solved);
    assert!(rated.success, "{}", rated.stderr);
    assert_eq!(rated.stdout, "0.0/0.0/0.0 easy -\n");
    let explained = run(&["explain"], &solved);
    assert!(explained.success, "{}", explained.stderr);
    assert!(
        explained
            .stdout
            .contains("hardest step: none (no blank cell)"),
        "{}",
        explained.stdout
    );
}

#[test]
fn a_puzzle_that_cannot_be_rated_gets_an_error_line_and_the_run_goes_on() {
    let input = format!("{}\n{}\n12\n", ".".repeat(81), rated_puzzles(1).trim());
    let result = run(&["rate", "--json"], &input);
    assert!(!result.success);
    let lines: Vec<serde_json::Value> = result
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines[0]["code"], "not_unique");
    assert!(lines[0]["error"].is_string());
    assert!(lines[1]["se"].is_number());
    assert_eq!(lines[2]["code"], "invalid_grid");
    assert!(result.stderr.contains("1 rated"), "{}", result.stderr);
    // As text, a grid that cannot be read names its line.
    let text = run(&["rate"], &input).stdout;
    let third = text.lines().nth(2).unwrap_or_default();
    assert!(
        third.starts_with("error: line 3: grid has 2 cells"),
        "{text}"
    );
}

#[test]
fn explain_json_writes_what_rate_json_writes_for_a_puzzle_it_cannot_explain() {
    for (input, code) in [
        ("12\n".to_owned(), "invalid_grid"),
        (format!("{}\n", ".".repeat(81)), "not_unique"),
        ("# a comment only\n".to_owned(), "invalid_grid"),
        (
            format!("{0}\n{0}\n", rated_puzzles(1).trim()),
            "invalid_request",
        ),
    ] {
        let explained = run(&["explain", "--json"], &input);
        assert_eq!(explained.code, Some(1), "{input}: {}", explained.stderr);
        let value: serde_json::Value = serde_json::from_str(&explained.stdout).unwrap();
        assert_eq!(value["code"], code, "{input}");
        // The message without the prefix the terminal gets.
        let error = value["error"].as_str().unwrap();
        assert!(
            explained.stderr.ends_with(&format!(": {error}\n")),
            "{input}: {error}"
        );
        if code != "invalid_request" {
            let rated = run(&["rate", "--json"], &input);
            let rated: serde_json::Value = match rated.stdout.lines().next() {
                Some(line) => serde_json::from_str(line).unwrap(),
                // `rate` says that a file holds no puzzle on stderr alone.
                None => continue,
            };
            assert_eq!(rated, value, "{input}");
        }
    }
}

#[test]
fn explain_prints_each_step_and_the_rating() {
    let puzzle =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let result = run(&["explain"], puzzle);
    assert!(result.success, "{}", result.stderr);
    let lines: Vec<&str> = result.stdout.lines().collect();
    assert!(
        lines[0].starts_with("  1. [1.2] Hidden single:"),
        "{}",
        lines[0]
    );
    assert!(
        result.stdout.contains("rating 1.2/1.2/1.2 (easy"),
        "{}",
        result.stdout
    );
    let json = run(&["explain", "--json"], puzzle);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["se"], 1.2);
    assert_eq!(value["steps"].as_array().unwrap().len(), lines.len() - 2);
    let two = run(&["explain"], &format!("{puzzle}\n{puzzle}\n"));
    assert!(
        !two.success && two.stderr.contains("one puzzle"),
        "{}",
        two.stderr
    );
}

#[test]
fn generated_puzzles_are_the_same_on_every_thread_count() {
    let args = |threads| {
        [
            "generate",
            "--level",
            "expert",
            "--symmetry",
            "diagonal",
            "--seed",
            "2026",
            "--count",
            "12",
            "--threads",
            threads,
        ]
    };
    let one = run(&args("1"), "");
    assert!(one.success, "{}", one.stderr);
    assert!(one.stderr.contains("12 generated"), "{}", one.stderr);
    let puzzles: Vec<&str> = one.stdout.lines().collect();
    assert_eq!(puzzles.len(), 12);
    for threads in ["2", "5"] {
        assert_eq!(
            run(&args(threads), "").stdout,
            one.stdout,
            "--threads {threads}"
        );
    }
    // Each one is proper, and rated expert by the `rate` command.
    let rated = run(&["rate", "--json"], &one.stdout);
    assert!(rated.success, "{}", rated.stderr);
    for (puzzle, rating) in puzzles.iter().zip(rated.stdout.lines()) {
        let rating: serde_json::Value = serde_json::from_str(rating).unwrap();
        assert_eq!(rating["level"], "expert", "{puzzle}");
    }
}

#[test]
fn generate_json_lines_carry_the_seed_that_makes_each_puzzle_alone() {
    let result = run(
        &[
            "generate",
            "--size",
            "4",
            "--minimal",
            "--count",
            "3",
            "--seed",
            "5",
            "--json",
        ],
        "",
    );
    assert!(result.success, "{}", result.stderr);
    // The fields of a puzzle of `/generate`, in its order, and then the model.
    for line in result.stdout.lines() {
        assert!(line.starts_with(r#"{"puzzle":""#), "{line}");
        let model = format!(r#","model":"{}"}}"#, sudoku_engine::logic::MODEL);
        assert!(line.ends_with(&model), "{line}");
    }
    let lines: Vec<serde_json::Value> = result
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    let third_seed = lines[2]["seed"].as_u64().unwrap().to_string();
    let alone = run(
        &[
            "generate",
            "--size",
            "4",
            "--minimal",
            "--seed",
            &third_seed,
            "--json",
        ],
        "",
    );
    let alone: serde_json::Value = serde_json::from_str(alone.stdout.trim()).unwrap();
    assert_eq!(alone, lines[2]);
}

#[test]
fn generated_variants_are_links_that_solve_proves_unique_on_every_thread_count() {
    let args = |threads| {
        [
            "generate",
            "--variant",
            "killer",
            "--max-givens",
            "0",
            "--seed",
            "3",
            "--count",
            "4",
            "--threads",
            threads,
        ]
    };
    let one = run(&args("1"), "");
    assert!(one.success, "{}", one.stderr);
    assert_eq!(run(&args("2"), "").stdout, one.stdout);
    let links: Vec<&str> = one.stdout.lines().collect();
    assert_eq!(links.len(), 4);
    assert!(
        links
            .iter()
            .all(|link| link.starts_with("https://www.f-puzzles.com/?load=")),
        "{}",
        one.stdout
    );
    let solved = run(&["solve", "--unique"], &one.stdout);
    assert!(solved.success, "{}", solved.stderr);
    assert_eq!(
        solved.stdout.matches(" unique\n").count(),
        4,
        "{}",
        solved.stdout
    );
}

#[test]
fn generate_refuses_impossible_options_as_a_wrong_command_line() {
    for (args, says) in [
        (&["generate", "--level", "beyond"][..], "too rare"),
        (
            &["generate", "--level", "tough"],
            "one of easy, medium, hard",
        ),
        (
            &["generate", "--symmetry", "spiral"],
            "one of none, central",
        ),
        (
            &["generate", "--size", "16", "--level", "easy"],
            "--level, --se-min and --se-max need --size 9",
        ),
        (
            &["generate", "--se-min", "5.0", "--se-max", "4.0"],
            "--se-min must not be above --se-max",
        ),
        (&["generate", "--se-min", "0.5"], "--se-min"),
        (&["generate", "--size", "7"], "--size"),
        (
            &["generate", "--variant", "jigsaw", "--max-givens", "5"],
            "--max-givens",
        ),
        (&["generate", "--max-givens", "5"], "--variant"),
        (
            &["generate", "--variant", "sandwich"],
            "one of jigsaw, killer",
        ),
    ] {
        let result = run(args, "");
        assert_eq!(result.code, Some(2), "{args:?}: {}", result.stderr);
        assert!(result.stderr.contains(says), "{args:?}: {}", result.stderr);
        assert!(result.stdout.is_empty());
    }
}

#[test]
fn rate_takes_a_nine_line_block_as_one_puzzle() {
    let block = read_data("boj/2239.in");
    let line: String = block.split_whitespace().collect();
    let from_block = run(&["rate"], &block);
    assert!(from_block.success, "{}", from_block.stderr);
    assert_eq!(from_block.stdout, run(&["rate"], &line).stdout);
    assert_eq!(from_block.stdout.lines().count(), 1);
}

#[test]
fn a_rating_stops_at_its_time_limit_however_many_searches_it_runs() {
    // A nested-chain puzzle (SE 11.1) whose rating takes seconds, under a 50 ms limit.
    let puzzle =
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    let result = run(&["rate", "--timeout-ms", "50"], puzzle);
    assert!(!result.success);
    assert_eq!(
        result.stdout,
        "error: timed out after 50 ms (--timeout-ms)\n"
    );
    assert!(result.stderr.contains("1 timed out"), "{}", result.stderr);
    let explained = run(&["explain", "--timeout-ms", "50"], puzzle);
    assert!(!explained.success);
    assert_eq!(
        explained.stderr,
        "error: timed out after 50 ms (--timeout-ms)\n"
    );
}

#[test]
fn a_puzzle_not_found_in_time_says_which_limit_stopped_it() {
    // Puzzles of 8.8 and up are among the rarest: none is found within 5 ms.
    let args = [
        "generate",
        "--se-min",
        "8.8",
        "--timeout-ms",
        "5",
        "--seed",
        "2",
    ];
    let result = run(&args, "");
    assert!(!result.success);
    assert_eq!(
        result.stdout,
        "error: seed 2: no puzzle found within 5 ms (--timeout-ms)\n"
    );
    let json = run(&[&args[..], &["--json"]].concat(), "");
    let line: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(line["code"], "solve_timeout");
    assert_eq!(line["error"], "no puzzle found within 5 ms (--timeout-ms)");
}

#[test]
fn flags_before_their_command_are_told_where_they_go() {
    let refused = run(&["--port", "9000", "serve"], "");
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("put the flags after the command: sudoku-service serve"),
        "{}",
        refused.stderr
    );
}

#[test]
fn negative_numbers_are_named_with_the_range_allowed() {
    for (args, range) in [
        (&["generate", "--seed", "-1"][..], "0 to 9007199254740991"),
        (&["solve", "--timeout-ms", "-5"][..], "0 (no limit) to"),
        (&["rate", "--timeout-ms", "-5"][..], "0 (no limit) to"),
    ] {
        let refused = run(args, "");
        assert_eq!(refused.code, Some(2), "{args:?}: {}", refused.stderr);
        assert!(
            refused.stderr.contains(range),
            "{args:?}: {}",
            refused.stderr
        );
    }
}

#[test]
fn level_names_are_read_in_any_case() {
    let upper = run(&["generate", "--level", "Hard", "--seed", "3"], "");
    let lower = run(&["generate", "--level", "hard", "--seed", "3"], "");
    assert_eq!(upper.code, Some(0), "{}", upper.stderr);
    assert_eq!(upper.stdout, lower.stdout);
}

#[test]
fn solve_answers_a_file_of_variant_puzzles_in_order_with_their_published_solutions() {
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    for name in [
        "variants/puzzles-ci.json",
        "variants/lubaf-coloring-book.json",
    ] {
        let entries: serde_json::Value = serde_json::from_str(&read_data(name)).unwrap();
        for entry in entries.as_array().unwrap() {
            let Some(puzzle) = entry["puzzle"].as_str() else {
                continue;
            };
            // Every form a line may take: lz-string text, an f-puzzles link, a SudokuPad link.
            lines.push(match lines.len() % 3 {
                0 => puzzle.to_owned(),
                1 => format!("https://www.f-puzzles.com/?load={puzzle}"),
                _ => format!("https://sudokupad.app/fpuzzles{puzzle}"),
            });
            expected.push(format!("{} unique", entry["solution"].as_str().unwrap()));
        }
    }
    assert!(lines.len() >= 49);
    let result = run(
        &["solve", "--unique", "--threads", "2"],
        &(lines.join("\n") + "\n"),
    );
    assert!(result.success, "{}", result.stderr);
    assert_eq!(result.stdout.lines().collect::<Vec<_>>(), expected);
    let broken = run(&["solve"], "https://example.com/?load=N4Ig\n");
    assert!(!broken.success);
    assert!(
        broken.stdout.starts_with("invalid: line 1:"),
        "{}",
        broken.stdout
    );
}

#[test]
fn explain_reads_a_variant_puzzle_as_solve_does() {
    let entries: serde_json::Value =
        serde_json::from_str(&read_data("variants/puzzles-ci.json")).unwrap();
    let entry = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|entry| entry["title"] == "Aug 9, 2022: Irregular Sudoku")
        .unwrap();
    let link = format!(
        "https://sudokupad.app/fpuzzles{}\n",
        entry["puzzle"].as_str().unwrap()
    );
    let explained = run(&["explain"], &link);
    assert!(explained.success, "{}", explained.stderr);
    let solution = format!("solution {}", entry["solution"].as_str().unwrap());
    assert_eq!(explained.stdout.lines().last(), Some(solution.as_str()));
    assert!(
        explained.stdout.contains("in region"),
        "{}",
        explained.stdout
    );
    let json = run(&["explain", "--json"], &link);
    let answer: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(answer["solution"], entry["solution"]);
    assert!(answer["steps"].as_array().unwrap().len() > 10);
}
