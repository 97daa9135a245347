//! Prometheus metrics: requests by route and status, solves by outcome, and the solver
//! pool's occupancy.
//!
//! Each [`Metrics`] owns its own recorder instead of installing a process-wide one, so
//! every server (and every test) counts only its own traffic.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Duration;

use axum::http::StatusCode;
use metrics::{Counter, Gauge, Histogram, Unit};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};

use crate::server::{CloseReason, ConnectionObserver};
use crate::solver_pool::Occupancy;

const REQUESTS: &str = "sudoku_http_requests_total";
const REQUEST_DURATION: &str = "sudoku_http_request_duration_seconds";
const SOLVES: &str = "sudoku_solves_total";
const SOLVE_DURATION: &str = "sudoku_solve_duration_seconds";
const SLOTS: &str = "sudoku_solver_slots";
const SLOTS_IN_USE: &str = "sudoku_solver_slots_in_use";
const QUEUE_DEPTH: &str = "sudoku_solver_queue_depth";
const CONNECTIONS_OPEN: &str = "sudoku_connections_open";
const CONNECTIONS_CLOSED: &str = "sudoku_connections_closed_total";

/// Histogram buckets in seconds: from an easy 9×9 (well under a millisecond) up to the
/// longest time limits a server is likely to be given.
const DURATION_BUCKETS: [f64; 14] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 2.5, 10.0,
];

/// How a solve on the pool ended, as the `outcome` label says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A solution was found.
    Solved,
    /// No solution exists.
    Unsolvable,
    /// The time limit passed first.
    TimedOut,
    /// The client went away and the solve was stopped.
    Abandoned,
}

impl SolveOutcome {
    /// Every outcome, in declaration order, so `outcome as usize` is its index here.
    const ALL: [SolveOutcome; 4] = [
        Self::Solved,
        Self::Unsolvable,
        Self::TimedOut,
        Self::Abandoned,
    ];

    fn label(self) -> &'static str {
        match self {
            Self::Solved => "solved",
            Self::Unsolvable => "unsolvable",
            Self::TimedOut => "timed_out",
            Self::Abandoned => "abandoned",
        }
    }
}

/// The service's metrics and their Prometheus rendering; cheap to clone (one shared
/// allocation: the request middleware clones it for every request).
#[derive(Clone)]
pub struct Metrics(Arc<Registered>);

/// The recorder, its rendering handle, and the series it records into.
struct Registered {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    /// The solve counter and histogram of each outcome, in [`SolveOutcome::ALL`] order:
    /// registered once, so recording a solve needs no lookup by name and label.
    solves: [Series; SolveOutcome::ALL.len()],
    /// The request series of each status and route met so far, registered on first use.
    /// There are few of both, and finding a series here costs a small fraction of a
    /// lookup by name and labels (which also allocates the label values).
    requests: RwLock<HashMap<u16, HashMap<String, Series>>>,
    /// The solver pool's gauges, set from its occupancy when rendered.
    slots_in_use: Gauge,
    queue_depth: Gauge,
    /// Open connections, and closed ones by reason in [`CloseReason::ALL`] order.
    connections_open: Gauge,
    connections_closed: [Counter; CloseReason::ALL.len()],
}

/// A counter and a duration histogram with the same labels.
struct Series {
    count: Counter,
    duration: Histogram,
}

impl Series {
    /// Registers the series `count` and `duration` with `labels` in the current recorder.
    fn register(
        count: &'static str,
        duration: &'static str,
        labels: &[(&'static str, String)],
    ) -> Self {
        Series {
            count: metrics::counter!(count, labels),
            duration: metrics::histogram!(duration, labels),
        }
    }

    /// Counts one event that took `elapsed`.
    fn record(&self, elapsed: Duration) {
        self.count.increment(1);
        self.duration.record(elapsed);
    }
}

impl Metrics {
    /// A fresh set of metrics for a pool of `solver_slots` solvers.
    pub fn new(solver_slots: usize) -> Self {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&DURATION_BUCKETS)
            .expect("the bucket list is not empty")
            .build_recorder();
        let describe_and_register = || {
            metrics::describe_counter!(REQUESTS, "HTTP requests answered, by route and status");
            metrics::describe_histogram!(
                REQUEST_DURATION,
                Unit::Seconds,
                "Time to answer an HTTP request, by route and status"
            );
            metrics::describe_counter!(SOLVES, "Solver runs, by outcome");
            metrics::describe_histogram!(
                SOLVE_DURATION,
                Unit::Seconds,
                "Time spent in the solver, by outcome"
            );
            metrics::describe_gauge!(SLOTS, "Solves that may run at once");
            metrics::describe_gauge!(SLOTS_IN_USE, "Solves running now");
            metrics::describe_gauge!(QUEUE_DEPTH, "Solve requests waiting for a solver");
            // The solver count is set once; the pool's gauges are set by each rendering.
            metrics::gauge!(SLOTS).set(solver_slots as f64);
            let slots_in_use = metrics::gauge!(SLOTS_IN_USE);
            let queue_depth = metrics::gauge!(QUEUE_DEPTH);
            let solves = SolveOutcome::ALL.map(|outcome| {
                let labels = [("outcome", outcome.label().to_owned())];
                Series::register(SOLVES, SOLVE_DURATION, &labels)
            });
            metrics::describe_gauge!(CONNECTIONS_OPEN, "Connections open now");
            metrics::describe_counter!(
                CONNECTIONS_CLOSED,
                "Connections closed, by reason (the client, a timeout, shutdown, an error)"
            );
            let connections_open = metrics::gauge!(CONNECTIONS_OPEN);
            connections_open.set(0.0);
            let connections_closed = CloseReason::ALL
                .map(|reason| metrics::counter!(CONNECTIONS_CLOSED, "reason" => reason.label()));
            let connections = (connections_open, connections_closed);
            (solves, slots_in_use, queue_depth, connections)
        };
        let (solves, slots_in_use, queue_depth, (connections_open, connections_closed)) =
            metrics::with_local_recorder(&recorder, describe_and_register);
        let metrics = Metrics(Arc::new(Registered {
            handle: recorder.handle(),
            recorder,
            solves,
            requests: RwLock::default(),
            slots_in_use,
            queue_depth,
            connections_open,
            connections_closed,
        }));
        metrics.run_upkeep();
        metrics
    }

    /// Runs `record` with this set's recorder as the one the `metrics` macros use.
    fn with_recorder<T>(&self, record: impl FnOnce() -> T) -> T {
        metrics::with_local_recorder(&self.0.recorder, record)
    }

    /// Counts one answered request and how long it took.
    pub fn observe_request(&self, route: &str, status: StatusCode, elapsed: Duration) {
        let status = status.as_u16();
        {
            let requests = self
                .0
                .requests
                .read()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some(series) = requests.get(&status).and_then(|routes| routes.get(route)) {
                series.record(elapsed);
                return;
            }
        }
        let mut requests = self
            .0
            .requests
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let series = requests
            .entry(status)
            .or_default()
            .entry(route.to_owned())
            .or_insert_with(|| {
                let labels = [("route", route.to_owned()), ("status", status.to_string())];
                self.with_recorder(|| Series::register(REQUESTS, REQUEST_DURATION, &labels))
            });
        series.record(elapsed);
    }

    /// Counts one solver run and how long it took.
    pub fn observe_solve(&self, outcome: SolveOutcome, elapsed: Duration) {
        self.0.solves[outcome as usize].record(elapsed);
    }

    /// Everything in the Prometheus text exposition format, with the solver pool's
    /// gauges at `pool`.
    pub fn render(&self, pool: Occupancy) -> String {
        self.0.slots_in_use.set(pool.running as f64);
        self.0.queue_depth.set(pool.waiting as f64);
        self.0.handle.render()
    }

    /// Folds recorded samples into the histograms, so memory stays flat between scrapes.
    pub fn run_upkeep(&self) {
        self.0.handle.run_upkeep();
    }
}

impl ConnectionObserver for Metrics {
    fn opened(&self) {
        self.0.connections_open.increment(1.0);
    }

    fn closed(&self, reason: CloseReason) {
        self.0.connections_open.decrement(1.0);
        // `ALL` lists the reasons in declaration order.
        self.0.connections_closed[reason as usize].increment(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDLE: Occupancy = Occupancy {
        running: 0,
        waiting: 0,
    };

    #[test]
    fn each_outcome_counts_in_its_own_series() {
        let metrics = Metrics::new(1);
        // A different count per outcome, so series mixed up by index would show.
        for (index, outcome) in SolveOutcome::ALL.into_iter().enumerate() {
            for _ in 0..=index {
                metrics.observe_solve(outcome, Duration::from_millis(1));
            }
        }
        let text = metrics.render(IDLE);
        for (index, outcome) in SolveOutcome::ALL.into_iter().enumerate() {
            let label = outcome.label();
            for series in ["sudoku_solves_total", "sudoku_solve_duration_seconds_count"] {
                let line = format!(r#"{series}{{outcome="{label}"}} {}"#, index + 1);
                assert!(text.contains(&line), "no `{line}` in:\n{text}");
            }
        }
    }

    #[test]
    fn two_sets_of_metrics_count_separately() {
        let (first, second) = (Metrics::new(2), Metrics::new(2));
        first.observe_solve(SolveOutcome::Solved, Duration::from_millis(1));
        assert!(
            first
                .render(IDLE)
                .contains(r#"sudoku_solves_total{outcome="solved"} 1"#)
        );
        assert!(
            second
                .render(IDLE)
                .contains(r#"sudoku_solves_total{outcome="solved"} 0"#)
        );
    }
}
