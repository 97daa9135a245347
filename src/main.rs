//! The `sudoku-service` binary: parses the command line and hands over to the library.

use std::io::{self, IsTerminal, Read, Write};
use std::os::fd::AsFd;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use sudoku_engine::grid::Grid;
use sudoku_service::cli::{
    self, EXPECTED_INPUT, EXPECTED_PUZZLE, ExplainArgs, GenerateArgs, InputArgs, RateArgs,
    SolveArgs, Status, ValidateArgs,
};
use sudoku_service::config::ServeConfig;
use sudoku_service::healthcheck::{self, HealthcheckArgs};
use sudoku_service::server::ServerError;
use sudoku_service::{service, telemetry};

/// A fast Sudoku solver: an HTTP/JSON service, and a command line for puzzle files.
///
/// Without a command it runs the service, configured by the flags below or their
/// environment variables.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku-service",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    // `serve`'s flags also work without the word `serve`, since it is the default command.
    #[command(flatten)]
    serve: ServeConfig,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP/JSON service (the default command).
    #[command(after_help = "Example:\n  sudoku-service serve --port 3000 --solver-concurrency 2")]
    Serve(ServeConfig),
    /// Exit 0 when the service's /healthz answers 200, else 1 (a HEALTHCHECK without curl).
    #[command(
        after_help = "Example:\n  sudoku-service healthcheck --url http://127.0.0.1:8080/healthz",
        mut_arg("listen_addr", |arg| arg.help(
            "The address `serve` listens on, which the default URL points at",
        )),
        mut_arg("port", |arg| arg.help(
            "The port `serve` listens on; when set, replaces the port of --listen-addr",
        )),
    )]
    Healthcheck(HealthcheckArgs),
    /// Solve the puzzles of FILE or stdin: one grid a row a line (a Baekjoon 2239/2580 block),
    /// or one puzzle per line.
    #[command(after_help = "Examples:\n  \
        sudoku-service solve puzzles.txt              one solution line per puzzle line\n  \
        sudoku-service solve --lexicographic < 2239.in  the smallest solution of a 9-line block")]
    Solve(SolveArgs),
    /// Check the grids of FILE or stdin against the rules and print each verdict.
    #[command(after_help = "Example:\n  sudoku-service validate puzzles.txt")]
    Validate(ValidateArgs),
    /// Rate the puzzles of FILE or stdin (one per line, or one grid a row a line) on the
    /// Sudoku Explainer scale.
    #[command(after_help = "Examples:\n  \
        sudoku-service rate puzzles.txt          ER/EP/ED, level and hardest technique per line\n  \
        sudoku-service rate --json puzzles.txt   the fields of POST /rate, one object per line")]
    Rate(RateArgs),
    /// Explain the puzzle of FILE or stdin step by step, as a person solves it.
    #[command(
        after_help = "Example:\n  \
        echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 \\\n    \
        | sudoku-service explain",
        mut_arg("file", |arg| arg.help("File of one puzzle; `-` or none reads standard input")),
    )]
    Explain(ExplainArgs),
    /// Generate proper puzzles of a size, symmetry and difficulty band, from a seed, or
    /// variant puzzles with their rules drawn too.
    #[command(after_help = "Examples:\n  \
        sudoku-service generate --level expert --symmetry central --seed 2026 --count 10\n  \
        sudoku-service generate --size 16 --json\n  \
        sudoku-service generate --variant killer --max-givens 0 --level hard --seed 1")]
    Generate(GenerateArgs),
}

/// How long the process waits at exit for solver threads to notice they were cancelled.
const SOLVER_STOP_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

/// The status of a command line that asks for something impossible, as clap exits with.
const USAGE_STATUS: u8 = 2;

/// The status a shell reports for a process ended by SIGPIPE (128 + 13).
const CLOSED_PIPE_STATUS: u8 = 141;

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|error| exit_with_advice(&error));
    match run(cli) {
        Ok(Status::Success) => ExitCode::SUCCESS,
        Ok(Status::Failure) => ExitCode::FAILURE,
        Ok(Status::Usage) => ExitCode::from(USAGE_STATUS),
        // The reader went away (`solve < puzzles.txt | head`): stop quietly, as Unix tools do.
        Err(error) if is_closed_pipe(&error) => ExitCode::from(CLOSED_PIPE_STATUS),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Exits as clap does for `error`, adding where the flags go when they came before the
/// command (`sudoku-service --port 9000 serve`): the service's flags also stand alone, since
/// `serve` is the default command, so clap takes them and then refuses the command.
fn exit_with_advice(error: &clap::Error) -> ! {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match (error.kind(), error.get(ContextKind::InvalidSubcommand)) {
        (ErrorKind::ArgumentConflict, Some(ContextValue::String(command))) => {
            eprint!("{}", error.render());
            eprintln!("\ntip: put the flags after the command: sudoku-service {command} [FLAGS]");
            std::process::exit(error.exit_code());
        }
        _ => error.exit(),
    }
}

fn is_closed_pipe(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<io::Error>()
        .is_some_and(|error| error.kind() == io::ErrorKind::BrokenPipe)
}

fn run(cli: Cli) -> anyhow::Result<Status> {
    let status = match cli.command.unwrap_or(Command::Serve(cli.serve)) {
        Command::Serve(config) => serve(config)?,
        Command::Healthcheck(args) => {
            healthcheck::check(&args.url()).context("unhealthy")?;
            println!("healthy");
            Status::Success
        }
        // Locked per command: the server's log writer needs stdout from other threads.
        Command::Solve(args) => cli::solve(
            &args,
            &read_input(&args.input, "solve", EXPECTED_INPUT)?,
            &mut io::stdout().lock(),
            &mut io::stderr().lock(),
        )?,
        Command::Validate(args) => cli::validate_input(
            &read_input(&args.input, "validate", EXPECTED_INPUT)?,
            &mut io::stdout().lock(),
            &mut io::stderr().lock(),
        )?,
        Command::Rate(args) => cli::rate(
            &args,
            &read_input(&args.input, "rate", EXPECTED_INPUT)?,
            &mut io::stdout().lock(),
            &mut io::stderr().lock(),
        )?,
        Command::Explain(args) => cli::explain(
            &args,
            &read_input(&args.input, "explain", EXPECTED_PUZZLE)?,
            &mut io::stdout().lock(),
            &mut io::stderr().lock(),
        )?,
        Command::Generate(args) => {
            cli::generate(&args, &mut io::stdout().lock(), &mut io::stderr().lock())?
        }
    };
    io::stdout().flush()?;
    Ok(status)
}

/// Runs the service until SIGTERM or SIGINT; a drained shutdown is a success.
fn serve(config: ServeConfig) -> anyhow::Result<Status> {
    if let Err(problem) = config.check() {
        eprintln!("error: {problem}");
        return Ok(Status::Usage);
    }
    service::limit_allocator_arenas();
    telemetry::init(config.log_format, &config.log_filter)?;
    // The runtime exists only for `serve`; the command line needs none.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime
        .block_on(service::serve(config))
        .map_err(with_advice)?;
    // Solves of requests that were dropped stop within milliseconds; don't wait longer.
    runtime.shutdown_timeout(SOLVER_STOP_WAIT);
    Ok(Status::Success)
}

/// `error`, with what to do about it when that is the user's to choose.
fn with_advice(error: ServerError) -> anyhow::Error {
    let port_taken = matches!(&error, ServerError::Bind { source, .. }
        if source.kind() == io::ErrorKind::AddrInUse);
    let error = anyhow::Error::new(error);
    match port_taken {
        true => anyhow::anyhow!(
            "{error:#}; another process listens there: choose a free port with --port or PORT"
        ),
        false => error,
    }
}

/// The whole text of the input file, or of stdin, without the byte-order mark that editors
/// on some systems start a text file with; at a terminal, says first what to type
/// (`expected`) to `command`. JSON, a request body for the service, is refused with
/// where it goes instead.
fn read_input(input: &InputArgs, command: &str, expected: &str) -> anyhow::Result<String> {
    let mut text = read_text(input, command, expected)?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    // No puzzle layout starts with a brace or a bracket: this is a request body for the
    // service, which would otherwise be read as a grid cut at its first `:`.
    if text.trim_start().starts_with(['{', '[']) {
        anyhow::bail!(
            "the input is JSON, but the command line reads puzzles as text: {expected}; \
             JSON goes to the service (POST /{command}, or one object per line to \
             /{command}/batch)"
        );
    }
    Ok(text)
}

/// [`read_input`], the mark kept.
fn read_text(input: &InputArgs, command: &str, expected: &str) -> anyhow::Result<String> {
    if let Some(path) = input.path() {
        let bytes = std::fs::read(path).map_err(|error| {
            let text = path.to_string_lossy();
            // A puzzle typed where its file goes.
            let hint = match Grid::parse_symbols(&text) {
                Ok(_) => {
                    format!("; a puzzle goes on stdin: echo '{text}' | sudoku-service {command}")
                }
                Err(_) => String::new(),
            };
            anyhow::anyhow!("cannot read {text}: {error}{hint}")
        })?;
        return String::from_utf8(bytes)
            .with_context(|| format!("cannot read {}: it is not UTF-8 text", path.display()));
    }
    if io::stdin().is_terminal() {
        eprintln!(
            "reading from the terminal: type {expected}, then Ctrl-D \
             (or give a file: sudoku-service {command} FILE)"
        );
    }
    read_stdin()
}

fn read_stdin() -> anyhow::Result<String> {
    // Read as a `File`, which sizes its buffer from a redirected file's length: one
    // allocation instead of a growing one. Pipes and terminals read as before.
    let mut stdin = io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .map(std::fs::File::from)
        .context("reading standard input")?;
    let mut input = String::new();
    stdin
        .read_to_string(&mut input)
        .context("reading standard input (it must be UTF-8 text)")?;
    Ok(input)
}
