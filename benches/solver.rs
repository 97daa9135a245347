//! Solver throughput on published puzzle sets, in puzzles per second (one thread, no
//! cancellation; see `tests/data/README.md` for the files and their sources):
//!
//! - 9×9, first solution in the fastest order (limit 1): the first 5,000 17-clue puzzles,
//!   the first 2,000 of the forum's hardest (2019, SE 11+), and Norvig's top95;
//! - 9×9, deciding uniqueness (limit 2) on the same three sets;
//! - 9×9, the smallest solution (lexicographic order) of the 17-clue excerpt;
//! - the 100 puzzles of the 16×16 set, and the 25×25 grid (fastest order, limit 1).
//!
//! Each iteration solves a whole set. `cargo bench --bench solver` takes a few minutes;
//! add `-- --quick` for a rough figure, or a filter such as `-- 9x9` for one part.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use sudoku_engine::grid::Grid;
use sudoku_engine::solver::{Cancellation, Order, Outcome, SolveOptions, solve};

/// The 9×9 sets: benchmark name and file.
const NINE_BY_NINE: [(&str, &str); 3] = [
    ("sudoku17_first5000", "9x9/sudoku17_first5000.txt"),
    (
        "forum_hardest_1905_first2000",
        "9x9/forum_hardest_1905_11plus_first2000.txt",
    ),
    ("top95", "9x9/top95.txt"),
];

fn grids(file: &str) -> Vec<Grid> {
    common::read_puzzles(file)
        .into_iter()
        .map(|p| p.grid)
        .collect()
}

/// Solves every grid once; a benchmark of a solver that fails its data would mean nothing.
fn check_all_solved(name: &str, grids: &[Grid], options: &SolveOptions) {
    for grid in grids {
        let outcome = solve(grid, options, &Cancellation::none()).outcome;
        assert!(
            matches!(outcome, Outcome::Solved { .. }),
            "{name}: {grid:?} gave {outcome:?}"
        );
    }
}

/// Adds one benchmark to `group` that solves all of `grids` per iteration.
fn bench_set(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    grids: &[Grid],
    options: SolveOptions,
) {
    check_all_solved(name, grids, &options);
    group.throughput(Throughput::Elements(grids.len() as u64));
    group.bench_function(name, |b| {
        b.iter(|| {
            let cancel = Cancellation::none();
            for grid in grids {
                black_box(solve(black_box(grid), &options, &cancel));
            }
        });
    });
}

fn nine_by_nine(c: &mut Criterion) {
    let sets: Vec<(&str, Vec<Grid>)> = NINE_BY_NINE
        .iter()
        .map(|&(name, file)| (name, grids(file)))
        .collect();
    for (group_name, limit) in [("9x9 first solution", 1), ("9x9 uniqueness", 2)] {
        let mut group = c.benchmark_group(group_name);
        group.sampling_mode(SamplingMode::Flat);
        for (name, grids) in &sets {
            let options = SolveOptions {
                order: Order::Fastest,
                limit,
            };
            bench_set(&mut group, name, grids, options);
        }
        group.finish();
    }
    let mut group = c.benchmark_group("9x9 lexicographic");
    group.sampling_mode(SamplingMode::Flat);
    let options = SolveOptions {
        order: Order::Lexicographic,
        limit: 1,
    };
    bench_set(&mut group, sets[0].0, &sets[0].1, options);
    group.finish();
}

fn larger_grids(c: &mut Criterion) {
    let options = SolveOptions::default();
    for (group_name, name, file) in [
        ("16x16", "vu_kr_100", "16x16/16x16-100puzzles-vu-kr.txt"),
        ("25x25", "grid_1", "25x25/25x25-grid-1.line.txt"),
    ] {
        let mut group = c.benchmark_group(group_name);
        group.sampling_mode(SamplingMode::Flat);
        if group_name == "16x16" {
            // About half a second per pass over the set: room for ten samples.
            group.measurement_time(Duration::from_secs(6));
        }
        bench_set(&mut group, name, &grids(file), options);
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = nine_by_nine, larger_grids
}
criterion_main!(benches);
