//! The `sudoku-service` binary: parses the command line and hands over to the library.

use std::io::{self, Read, Write};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use sudoku_service::cli::{self, SolveArgs, Status};

/// A fast Sudoku solver: an HTTP/JSON service, and a command line for puzzle files.
#[derive(Debug, Parser)]
#[command(name = "sudoku-service", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve the puzzles on stdin: a Baekjoon 2239/2580 block, or one puzzle per line.
    Solve(SolveArgs),
    /// Check the grids on stdin against the rules and print each verdict.
    Validate,
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(Status::Success) => ExitCode::SUCCESS,
        Ok(Status::Failure) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<Status> {
    let mut out = io::stdout().lock();
    let mut err = io::stderr().lock();
    let status = match cli.command {
        Command::Solve(args) => cli::solve(&args, &read_stdin()?, &mut out, &mut err)?,
        Command::Validate => cli::validate_input(&read_stdin()?, &mut out, &mut err)?,
    };
    out.flush()?;
    Ok(status)
}

fn read_stdin() -> anyhow::Result<String> {
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .context("reading standard input (it must be UTF-8 text)")?;
    Ok(input)
}
