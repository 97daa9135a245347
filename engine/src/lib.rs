//! sudoku-engine: Sudoku of every size from 4×4 to 25×25, as a library. It solves and
//! counts solutions, checks grids against the rules, solves step by step as a person does
//! and rates that path as Sukaku Explainer does, gives the next step from a player's grid,
//! and makes proper puzzles of a chosen difficulty. It needs no async runtime and knows
//! nothing of HTTP or terminals: the `sudoku-service` crate serves it.
//!
//! Data flows one way: text → [`grid::Grid`] → [`solver::solve`], [`validate::validate`],
//! [`logic::rate`], [`logic::explain`], [`logic::hint()`] or [`generate::generate`] → answer.
//! Every long computation takes a [`solver::Cancellation`] (a deadline, a time limit, a flag
//! raised from another thread), which it polls often enough to stop within a millisecond or
//! two.
//!
//! - [`grid`]: the `Grid` type for 4×4, 9×9, 16×16 and 25×25, and its two notations.
//! - [`solver`]: options, cancellation, outcomes, and the two search engines (a bitboard
//!   engine for 9×9 and a mask-per-cell engine for every size).
//! - [`validate`]: which digits repeat in which rows, columns and boxes.
//! - [`logic`]: solving as a person does, step by step, and the Sudoku Explainer rating.
//! - [`generate`]: proper puzzles of a symmetry and difficulty band, from a seed.
//! - [`text_format`]: plain-text layouts (Baekjoon blocks, one puzzle per line).
//!
//! # Examples
//!
//! Solve a puzzle, and count its solutions up to two to know whether it has only one:
//!
//! ```
//! use sudoku_engine::grid::Grid;
//! use sudoku_engine::solver::{Cancellation, Outcome, SolveOptions, solve};
//!
//! let puzzle = Grid::parse_symbols(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! let counting = SolveOptions { limit: 2, ..SolveOptions::default() };
//! let report = solve(&puzzle, &counting, &Cancellation::none());
//! let Outcome::Solved { solution, count } = report.outcome else { panic!("no solution") };
//! assert_eq!(count, 1, "the puzzle has one solution");
//! assert!(solution.to_string().starts_with("534678912"));
//! # Ok::<(), sudoku_engine::grid::GridError>(())
//! ```
//!
//! Check a grid against the rules:
//!
//! ```
//! use sudoku_engine::grid::Grid;
//! use sudoku_engine::validate::validate;
//!
//! let clashing = Grid::parse_symbols("1..1............")?;
//! let verdict = validate(&clashing);
//! assert!(!verdict.valid);
//! assert_eq!(verdict.conflicts.len(), 1, "two 1s in the first row");
//! # Ok::<(), sudoku_engine::grid::GridError>(())
//! ```
//!
//! Rate a puzzle, explain it step by step, and ask for a hint from a player's grid:
//!
//! ```
//! use sudoku_engine::grid::Grid;
//! use sudoku_engine::logic::{Hint, explain, hint, rate};
//! use sudoku_engine::solver::Cancellation;
//!
//! let puzzle = Grid::parse_symbols(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! let never = Cancellation::none();
//! let rating = rate(&puzzle, &never)?;
//! assert!(rating.er < 2.0, "singles solve it");
//! let explanation = explain(&puzzle, &never)?;
//! assert!(explanation.steps.iter().all(|step| !step.text.is_empty()));
//! let Hint::Step(step) = hint(&puzzle, &puzzle, None, &never)? else { panic!("a step") };
//! assert_eq!(step.placements.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Make a proper 9×9 puzzle rated in the hard band, the same again from its seed, and
//! stop any of these after a time limit:
//!
//! ```
//! use std::time::Duration;
//! use sudoku_engine::generate::{GenerateOptions, Symmetry, generate};
//! use sudoku_engine::logic::Level;
//! use sudoku_engine::solver::Cancellation;
//!
//! let options = GenerateOptions::new(9, Some(Level::Hard), None, None, Symmetry::Central, false)?;
//! let within = Cancellation::none().with_time_limit(Duration::from_secs(30));
//! let made = generate(&options, 7, &within)?;
//! assert_eq!(made.seed, 7);
//! assert_eq!(generate(&options, 7, &within)?.puzzle, made.puzzle);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod generate;
pub mod grid;
pub mod logic;
pub mod solver;
pub mod text_format;
pub mod validate;
pub mod variant;
