//! Running solves safely: off the async workers, a bounded number at a time, behind a
//! bounded wait queue, and never for longer than the request is willing to wait.
//!
//! Two semaphores keep the limits. `admission` holds one permit per solver plus one per
//! queue place; a request that cannot take one at once is turned away with 503
//! `overloaded`. `slots` holds one permit per solver; its permit is moved into the
//! blocking closure, so a slot frees only when the solver thread itself is done, even if
//! the request was answered (timeout) or abandoned (client gone) before that.
//!
//! Every solve first gets a short attempt ([`QUICK_ATTEMPT`]) outside the solver slots,
//! so an easy puzzle is answered at once even while every slot is busy with a hard one
//! (no head-of-line blocking). Only a grid that outlasts the attempt asks for admission
//! and waits for a slot, where it starts again. Quick attempts have a semaphore of their
//! own ([`QUICK_ATTEMPTS_PER_SOLVER`] per solver) and each is short, so the extra CPU they
//! take is bounded too, and waiting for one takes at most a few milliseconds.
//!
//! The solver polls a [`Cancellation`] with the request's deadline and a flag that a drop
//! guard raises when the handler's future is dropped, so a timed-out or abandoned solve
//! stops burning CPU within milliseconds.

use std::num::NonZeroU64;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use metrics::Gauge;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tracing::Span;

use super::Limits;
use super::metrics::{Metrics, SolveOutcome};
use super::problem::ApiError;
use crate::grid::Grid;
use crate::solver::{self, Cancellation, Outcome, SolveOptions, SolveReport};

/// How long a solve may run before it needs a solver slot: 9×9 puzzles, even the
/// hardest known, take well under a millisecond, so this only sends grids that are truly
/// hard (or huge) to the slots.
const QUICK_ATTEMPT: Duration = Duration::from_millis(2);

/// Quick attempts that may run at once, per solver slot: enough that hard grids' attempts
/// cannot crowd out easy ones, few enough that their CPU stays bounded.
const QUICK_ATTEMPTS_PER_SOLVER: usize = 4;

/// A solve that finished within its time limit and found a solution.
#[derive(Debug)]
pub struct Solved {
    /// The first solution in the requested order.
    pub solution: Grid,
    /// Solutions found, up to the requested limit.
    pub count: u64,
    /// Branches the solver took on guesses.
    pub guesses: u64,
    /// Time spent in the solver.
    pub elapsed: Duration,
}

/// The bounded pool of solver threads that every solving request goes through.
#[derive(Clone)]
pub struct SolverPool {
    quick: Arc<Semaphore>,
    admission: Arc<Semaphore>,
    slots: Arc<Semaphore>,
    solve_timeout: Duration,
    metrics: Metrics,
}

impl SolverPool {
    /// A pool with the concurrency, queue length and time limit of `limits`.
    pub fn new(limits: &Limits, metrics: Metrics) -> Self {
        let solvers = limits.solver_concurrency.get();
        SolverPool {
            quick: Arc::new(Semaphore::new(solvers * QUICK_ATTEMPTS_PER_SOLVER)),
            admission: Arc::new(Semaphore::new(solvers + limits.queue_length)),
            slots: Arc::new(Semaphore::new(solvers)),
            solve_timeout: limits.solve_timeout,
            metrics,
        }
    }

    /// Solves `grid`, within the server's time limit or the lower `timeout_ms` a request
    /// asked for; `Ok(None)` means the grid has no solution.
    ///
    /// The time limit covers the wait for a solver as well as the solve, so a request
    /// never waits longer than it asked for.
    pub async fn solve(
        &self,
        grid: Grid,
        options: SolveOptions,
        timeout_ms: Option<NonZeroU64>,
    ) -> Result<Option<Solved>, ApiError> {
        let timeout = timeout_ms.map_or(self.solve_timeout, |ms| {
            Duration::from_millis(ms.get()).min(self.solve_timeout)
        });
        let deadline = Instant::now() + timeout;
        let timed_out = || ApiError::SolveTimeout {
            timeout_ms: timeout.as_millis(),
        };

        let quick = acquire_until(&self.quick, deadline)
            .await
            .ok_or_else(timed_out)?;
        let first = self
            .run(Lane::Quick(quick), grid.clone(), options, deadline)
            .await?;
        let (report, earlier) = if first.out_of_budget {
            let _admitted = Arc::clone(&self.admission)
                .try_acquire_owned()
                .map_err(|_| ApiError::Overloaded {
                    retry_after_secs: self.retry_after_secs(),
                })?;
            let slot = {
                let _waiting = GaugeGuard::raise(self.metrics.queue_depth());
                acquire_until(&self.slots, deadline).await
            };
            let slot = match slot {
                Some(permit) => permit,
                None => {
                    self.metrics
                        .observe_solve(SolveOutcome::TimedOut, first.report.elapsed);
                    return Err(timed_out());
                }
            };
            let second = self.run(Lane::Slot(slot), grid, options, deadline).await?;
            (second.report, Some(first.report))
        } else {
            (first.report, None)
        };
        // The stats cover the quick attempt too when the solve needed a slot.
        let guesses = report.guesses + earlier.as_ref().map_or(0, |r| r.guesses);
        let elapsed = report.elapsed + earlier.as_ref().map_or(Duration::ZERO, |r| r.elapsed);

        match report.outcome {
            Outcome::Solved { solution, count } => Ok(Some(Solved {
                solution,
                count,
                guesses,
                elapsed,
            })),
            Outcome::Unsolvable => Ok(None),
            Outcome::Cancelled => Err(timed_out()),
        }
    }

    /// Runs one solve on a blocking thread until `deadline`; a quick attempt also stops
    /// after [`QUICK_ATTEMPT`] from the moment its thread starts (so waiting for a thread
    /// does not eat into it). The lane's permit is held until the thread is done.
    async fn run(
        &self,
        lane: Lane,
        grid: Grid,
        options: SolveOptions,
        deadline: Instant,
    ) -> Result<Attempt, ApiError> {
        let abandoned = Arc::new(AtomicBool::new(false));
        // Raises the flag if this future is dropped (the client went away) mid-solve; after
        // a finished solve raising it is harmless.
        let _cancel_on_drop = CancelOnDrop(Arc::clone(&abandoned));
        let metrics = self.metrics.clone();
        let span = Span::current();
        tokio::task::spawn_blocking(move || {
            // The permit lives in this closure, so it is held until the thread is free.
            let cancel = Cancellation::none().with_flag(Arc::clone(&abandoned));
            let (_quick_permit, slot, cutoff, cancel) = match lane {
                Lane::Quick(permit) => {
                    let cutoff = deadline.min(Instant::now() + QUICK_ATTEMPT);
                    (Some(permit), None, cutoff, cancel.with_deadline(cutoff))
                }
                // A solve in a slot is a long one: it lets quick attempts run first.
                Lane::Slot(permit) => (
                    None,
                    Some(SlotInUse::take(permit, metrics.slots_in_use())),
                    deadline,
                    cancel.with_deadline(deadline).yielding(),
                ),
            };
            span.in_scope(|| {
                let report = solver::solve(&grid, &options, &cancel);
                let abandoned = abandoned.load(Ordering::Relaxed);
                let outcome = outcome_label(&report, abandoned);
                let out_of_budget =
                    report.outcome == Outcome::Cancelled && !abandoned && cutoff < deadline;
                // A run that only used up its budget is not the request's outcome.
                if !out_of_budget {
                    metrics.observe_solve(outcome, report.elapsed);
                }
                tracing::debug!(
                    ?outcome,
                    out_of_budget,
                    elapsed = ?report.elapsed,
                    guesses = report.guesses,
                    in_slot = slot.is_some(),
                    "solve attempt finished"
                );
                Attempt {
                    report,
                    out_of_budget,
                }
            })
        })
        .await
        .map_err(|error| ApiError::Internal {
            cause: format!("solver thread failed: {error}"),
        })
    }

    /// A retry hint for turned-away requests: by then every running solve has hit its limit.
    fn retry_after_secs(&self) -> u64 {
        self.solve_timeout.as_secs_f64().ceil().max(1.0) as u64
    }
}

/// Waits for a permit of `semaphore` until `deadline`; `None` when the deadline came first.
async fn acquire_until(
    semaphore: &Arc<Semaphore>,
    deadline: Instant,
) -> Option<OwnedSemaphorePermit> {
    let permit = tokio::time::timeout_at(deadline.into(), Arc::clone(semaphore).acquire_owned());
    permit
        .await
        .ok()
        .map(|permit| permit.expect("the pool's semaphores are never closed"))
}

/// Where a run of the solver goes: a quick attempt, or a solver slot.
enum Lane {
    Quick(OwnedSemaphorePermit),
    Slot(OwnedSemaphorePermit),
}

/// One run of the solver, and whether it stopped only because its budget ran out.
struct Attempt {
    report: SolveReport,
    out_of_budget: bool,
}

/// How a solve ended, for the metrics.
fn outcome_label(report: &SolveReport, abandoned: bool) -> SolveOutcome {
    match report.outcome {
        Outcome::Solved { .. } => SolveOutcome::Solved,
        Outcome::Unsolvable => SolveOutcome::Unsolvable,
        Outcome::Cancelled if abandoned => SolveOutcome::Abandoned,
        Outcome::Cancelled => SolveOutcome::TimedOut,
    }
}

/// Raises the cancel flag when dropped.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Adds one to a gauge for as long as it lives.
struct GaugeGuard(Gauge);

impl GaugeGuard {
    fn raise(gauge: Gauge) -> Self {
        gauge.increment(1.0);
        GaugeGuard(gauge)
    }
}

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        self.0.decrement(1.0);
    }
}

/// A solver slot held by a running solve, counted in the slots-in-use gauge.
struct SlotInUse {
    _permit: OwnedSemaphorePermit,
    _counted: GaugeGuard,
}

impl SlotInUse {
    fn take(permit: OwnedSemaphorePermit, in_use: Gauge) -> Self {
        SlotInUse {
            _permit: permit,
            _counted: GaugeGuard::raise(in_use),
        }
    }
}
