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
//! and waits for a slot, where it starts again. At most [`QUICK_ATTEMPTS_PER_SOLVER`] quick
//! attempts per solver run at once and each is short, so the extra CPU they take is
//! bounded too; the others wait in their lane's queue, in arrival order.
//!
//! The solver polls a [`Cancellation`] with the request's deadline and a flag that a drop
//! guard raises when the handler's future is dropped, so a timed-out or abandoned solve
//! stops burning CPU within milliseconds.
//!
//! A quick attempt at a 9×9 grid takes microseconds, less than waking a thread for it and
//! handing its result back. So a [`QuickLane`] queues quick attempts, and blocking
//! threads ("drainers") run queued attempts until the queue is empty: under load one
//! wake-up serves many requests. The pool has a lane per connection thread (see
//! [`SolverPool::new`]), and each thread keeps to its own: the threads do not contend for
//! one queue, and a drainer's answers wake one thread, not each in turn. A drainer starts
//! when none is running (the request that starts it first lets the other requests ready
//! on its worker queue theirs), and another when attempts wait in a queue that no drainer
//! has taken from for [`DRAINER_STALLED`], up to the lane's share of the quick attempts:
//! the running drainers are busy with hard grids, or off the CPU. A request that arrives
//! then starts one at once; a watchdog task, armed while attempts wait, covers requests
//! that are all queued already. So an easy grid does not wait long behind hard ones, and
//! one timer serves the lane instead of one per request. A request waits for its attempt
//! without a timer of its own either: the watchdog also answers the attempts whose
//! deadline has passed while they wait, and a drainer that takes one stops it at once.

use std::cell::Cell;
use std::collections::VecDeque;
use std::num::{NonZeroU64, NonZeroUsize};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use metrics::Gauge;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};
use tracing::Span;

use super::Limits;
use super::metrics::{Metrics, SolveOutcome};
use super::problem::ApiError;
use crate::grid::Grid;
use crate::solver::{self, Cancellation, Outcome, SolveOptions, SolveReport};

/// How long a solve may run before it needs a solver slot. Of the 48,766 hardest 9×9
/// puzzles of the forum list, 99.9% solve within 0.15 ms (0.21 ms proving uniqueness, 0.48
/// and 0.76 ms in lexicographic order), so this sends few grids but truly hard (or huge)
/// ones to the slots (more of them in lexicographic order, which then wait for a slot).
/// It is also how long an easy grid waits behind each hard one queued ahead of it in the
/// quick lane, which is what an easy request's p99 is made of while hard grids keep
/// arriving.
const QUICK_ATTEMPT: Duration = Duration::from_micros(500);

/// Quick attempts that may run at once (drainers), per solver slot: enough that hard grids'
/// attempts cannot crowd out easy ones, few enough that their CPU stays bounded.
const QUICK_ATTEMPTS_PER_SOLVER: usize = 4;

/// How long the quick lane's queue may go without a drainer taking from it before another
/// drainer starts (from a request that arrives then, or from the lane's watchdog): far
/// more than an easy grid takes, and more than a hard grid's [`QUICK_ATTEMPT`], so it
/// starts drainers when the running ones are off the CPU, not for every hard grid.
const DRAINER_STALLED: Duration = Duration::from_millis(1);

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
    quick_lanes: Arc<[Arc<QuickLane>]>,
    admission: Arc<Semaphore>,
    slots: Arc<Semaphore>,
    solve_timeout: Duration,
    metrics: Metrics,
}

impl SolverPool {
    /// A pool with the concurrency, queue length and time limit of `limits`, for requests
    /// served on `threads` threads: each thread queues its quick attempts in a lane of its
    /// own, as long as every lane can have two drainers within the bound on quick attempts
    /// (a second for when the first is stuck on hard grids or off the CPU); beyond that,
    /// threads share lanes.
    pub fn new(limits: &Limits, metrics: Metrics, threads: NonZeroUsize) -> Self {
        let solvers = limits.solver_concurrency.get();
        let quick_attempts = solvers * QUICK_ATTEMPTS_PER_SOLVER;
        let lanes = threads.get().min(quick_attempts / 2).max(1);
        SolverPool {
            quick_lanes: (0..lanes)
                .map(|lane| {
                    // The lanes share the quick attempts out, the first ones one more each.
                    let drainers =
                        quick_attempts / lanes + usize::from(lane < quick_attempts % lanes);
                    Arc::new(QuickLane::new(drainers, metrics.clone()))
                })
                .collect(),
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
        let now = Instant::now();
        let deadline = now + timeout;

        // One flag for both runs: raised if this future is dropped (the client went away)
        // mid-solve; after a finished solve raising it is harmless.
        let abandoned = Arc::new(AtomicBool::new(false));
        let _cancel_on_drop = CancelOnDrop(Arc::clone(&abandoned));
        let run = |grid| Run {
            grid,
            options,
            deadline,
            abandoned: Arc::clone(&abandoned),
            span: Span::current(),
        };

        let first = self.quick_lane().attempt(run(grid), now).await?;
        let (report, earlier) = match first.retry {
            // Few grids outlast their quick attempt, so the wait for a slot is boxed: the
            // future of every other solve stays small.
            Some(grid) => {
                let second = Box::pin(self.retry_in_slot(run(grid), first.report.elapsed, timeout));
                (second.await?.report, Some(first.report))
            }
            None => (first.report, None),
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
            Outcome::Cancelled => Err(timed_out(timeout)),
        }
    }

    /// The quick lane of the calling thread.
    fn quick_lane(&self) -> &Arc<QuickLane> {
        &self.quick_lanes[thread_lane() % self.quick_lanes.len()]
    }

    /// Runs a grid that outlasted its quick attempt (which took `first_elapsed`) again in a
    /// solver slot, once it is admitted and a slot frees up before the deadline: 503
    /// `overloaded` when the wait queue is full, and a timeout (counted in the metrics)
    /// when no slot frees up in time.
    async fn retry_in_slot(
        &self,
        run: Run,
        first_elapsed: Duration,
        timeout: Duration,
    ) -> Result<Attempt, ApiError> {
        let _admitted = Arc::clone(&self.admission)
            .try_acquire_owned()
            .map_err(|_| ApiError::Overloaded {
                retry_after_secs: self.retry_after_secs(),
            })?;
        let slot = {
            let _waiting = GaugeGuard::raise(self.metrics.queue_depth());
            acquire_until(&self.slots, run.deadline).await
        };
        let Some(slot) = slot else {
            self.metrics
                .observe_solve(SolveOutcome::TimedOut, first_elapsed);
            return Err(timed_out(timeout));
        };
        self.in_slot(run, slot).await
    }

    /// Runs `run` in a solver slot, on a blocking thread of its own; the slot's permit
    /// is held until the thread is done.
    async fn in_slot(&self, run: Run, slot: OwnedSemaphorePermit) -> Result<Attempt, ApiError> {
        let metrics = self.metrics.clone();
        tokio::task::spawn_blocking(move || {
            // The permit lives in this closure, so it is held until the thread is free.
            let _slot = SlotInUse::take(slot, metrics.slots_in_use());
            run.execute(&metrics, Lane::Slot)
        })
        .await
        .map_err(|error| solver_failed(&error))
    }

    /// A retry hint for turned-away requests: by then every running solve has hit its limit.
    fn retry_after_secs(&self) -> u64 {
        self.solve_timeout.as_secs_f64().ceil().max(1.0) as u64
    }
}

thread_local! {
    /// The quick lane number of the calling thread, if it took one.
    static LANE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Gives the calling thread quick lane number `lane` (a pool takes it modulo its lanes):
/// a server's connection thread `index` takes number `index` as it starts, so its threads
/// get a lane each.
pub(crate) fn take_quick_lane(lane: usize) {
    LANE.with(|number| number.set(Some(lane)));
}

/// The quick lane number of the calling thread: the one it took, or the first lane.
fn thread_lane() -> usize {
    LANE.with(Cell::get).unwrap_or(0)
}

/// Waits for a permit of `semaphore` until `deadline`; `None` when the deadline came first.
async fn acquire_until(
    semaphore: &Arc<Semaphore>,
    deadline: Instant,
) -> Option<OwnedSemaphorePermit> {
    // A free permit needs no timer. The timer's future is boxed, so the futures that await
    // this one stay small, and the allocation is paid only when no permit is free.
    if let Ok(permit) = Arc::clone(semaphore).try_acquire_owned() {
        return Some(permit);
    }
    let permit = tokio::time::timeout_at(deadline.into(), Arc::clone(semaphore).acquire_owned());
    Box::pin(permit)
        .await
        .ok()
        .map(|permit| permit.expect("the pool's semaphores are never closed"))
}

/// The answer when a solve ran out of its `timeout`.
fn timed_out(timeout: Duration) -> ApiError {
    ApiError::SolveTimeout {
        timeout_ms: timeout.as_millis(),
    }
}

/// The answer when a solver thread failed (panicked).
fn solver_failed(error: &dyn std::fmt::Display) -> ApiError {
    ApiError::Internal {
        cause: format!("solver thread failed: {error}"),
    }
}

/// Where a run of the solver goes: a quick attempt, taken from the queue at `taken`, or a
/// solver slot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lane {
    Quick { taken: Instant },
    Slot,
}

/// One run of the solver, and the grid back when the run stopped only because its budget
/// ran out, for a solver slot to take it from there.
struct Attempt {
    report: SolveReport,
    retry: Option<Grid>,
}

/// One run of the solver: the grid, the request's deadline, and its cancel flag.
struct Run {
    grid: Grid,
    options: SolveOptions,
    deadline: Instant,
    abandoned: Arc<AtomicBool>,
    span: Span,
}

impl Run {
    /// Solves on the calling (blocking) thread until the deadline; a quick attempt also
    /// stops [`QUICK_ATTEMPT`] after a drainer took it, so waiting for a thread does not
    /// eat into it.
    fn execute(self, metrics: &Metrics, lane: Lane) -> Attempt {
        let cancel = Cancellation::none().with_flag(Arc::clone(&self.abandoned));
        let (cutoff, cancel) = match lane {
            Lane::Quick { taken } => {
                let cutoff = self.deadline.min(taken + QUICK_ATTEMPT);
                (cutoff, cancel.with_deadline(cutoff))
            }
            // A solve in a slot is a long one: it lets quick attempts run first.
            Lane::Slot => (
                self.deadline,
                cancel.with_deadline(self.deadline).yielding(),
            ),
        };
        let (report, out_of_budget) = self.span.in_scope(|| {
            let report = solver::solve(&self.grid, &self.options, &cancel);
            let abandoned = self.abandoned.load(Ordering::Relaxed);
            let outcome = outcome_label(&report, abandoned);
            let out_of_budget =
                report.outcome == Outcome::Cancelled && !abandoned && cutoff < self.deadline;
            // A run that only used up its budget is not the request's outcome.
            if !out_of_budget {
                metrics.observe_solve(outcome, report.elapsed);
            }
            tracing::debug!(
                ?outcome,
                out_of_budget,
                elapsed = ?report.elapsed,
                guesses = report.guesses,
                in_slot = lane == Lane::Slot,
                "solve attempt finished"
            );
            (report, out_of_budget)
        });
        Attempt {
            report,
            retry: out_of_budget.then_some(self.grid),
        }
    }
}

/// The queue of quick attempts and the blocking threads that drain it.
struct QuickLane {
    queue: Mutex<QuickQueue>,
    max_drainers: usize,
    metrics: Metrics,
}

/// Quick attempts waiting for a drainer, how many drainers are running, when the queue
/// last moved, and whether a watchdog looks after it.
#[derive(Default)]
struct QuickQueue {
    jobs: VecDeque<QuickJob>,
    drainers: usize,
    /// When a drainer last took a job or was claimed; `None` before the first.
    moved: Option<Instant>,
    /// A watchdog task is armed (see [`QuickLane::watch`]).
    watched: bool,
}

/// What queueing an attempt asks of the request that queued it.
#[derive(Debug, PartialEq, Eq)]
enum Queued {
    /// Start a drainer (already counted).
    NewDrainer,
    /// Arm the lane's watchdog: the attempt waits behind running drainers.
    NewWatchdog,
    /// Just wait: a watchdog is armed already.
    Wait,
}

/// What the watchdog does after a look at the queue.
#[derive(Debug, PartialEq, Eq)]
enum Look {
    /// Start a drainer (already counted), and look again later.
    NewDrainer,
    /// Look again later.
    Again,
    /// Stop: nothing waits (the watchdog is disarmed).
    Stop,
}

impl QuickQueue {
    /// Queues `job` at `now`. A drainer starts when none is running, or when the queue has
    /// not moved for [`DRAINER_STALLED`]; otherwise the job waits, under the watchdog.
    fn push(&mut self, job: QuickJob, max_drainers: usize, now: Instant) -> Queued {
        self.jobs.push_back(job);
        if self.drainers == 0 || self.may_add_drainer(max_drainers, now) {
            self.claim_drainer(now);
            Queued::NewDrainer
        } else if !std::mem::replace(&mut self.watched, true) {
            Queued::NewWatchdog
        } else {
            Queued::Wait
        }
    }

    /// Takes out the jobs whose deadline has passed by `now`, for the watchdog to answer:
    /// a drainer could only stop them.
    fn take_expired(&mut self, now: Instant) -> VecDeque<QuickJob> {
        if self.jobs.iter().all(|job| job.run.deadline > now) {
            return VecDeque::new();
        }
        let (expired, waiting) = std::mem::take(&mut self.jobs)
            .into_iter()
            .partition(|job| job.run.deadline <= now);
        self.jobs = waiting;
        expired
    }

    /// The watchdog's look at `now`: another drainer when jobs wait behind a queue that
    /// has not moved for [`DRAINER_STALLED`], and an end to watching once none waits.
    fn look(&mut self, max_drainers: usize, now: Instant) -> Look {
        if self.jobs.is_empty() {
            self.watched = false;
            Look::Stop
        } else if self.may_add_drainer(max_drainers, now) {
            self.claim_drainer(now);
            Look::NewDrainer
        } else {
            Look::Again
        }
    }

    /// When the watchdog should look next, seen from `now` just after a look: when the
    /// queue would count as stalled, or a period on when it does already (then all
    /// drainers run, or the look would have started one).
    fn next_look(&self, now: Instant) -> Instant {
        self.stalls_at()
            .filter(|&stalls| stalls > now)
            .unwrap_or(now + DRAINER_STALLED)
    }

    /// Whether another drainer may start at `now`: fewer than `max_drainers` run, and the
    /// queue has not moved for [`DRAINER_STALLED`].
    fn may_add_drainer(&self, max_drainers: usize, now: Instant) -> bool {
        self.drainers < max_drainers && self.stalls_at().is_none_or(|stalls| now >= stalls)
    }

    /// When the queue counts as stalled if nothing moves it; `None` before it first moved.
    fn stalls_at(&self) -> Option<Instant> {
        self.moved.map(|moved| moved + DRAINER_STALLED)
    }

    /// Counts one more drainer, which the caller must start.
    fn claim_drainer(&mut self, now: Instant) {
        self.drainers += 1;
        self.moved = Some(now);
    }

    /// The next job for a drainer at `now`; when there is none, the drainer stops
    /// counting.
    fn take(&mut self, now: Instant) -> Option<QuickJob> {
        let job = self.jobs.pop_front();
        if job.is_some() {
            self.moved = Some(now);
        } else {
            self.drainers -= 1;
        }
        job
    }
}

/// A quick attempt, and where its result goes.
struct QuickJob {
    run: Run,
    reply: oneshot::Sender<Attempt>,
}

impl QuickJob {
    /// Answers a job whose deadline passed while it waited, without solving: stopped
    /// before its first guess, as a drainer would have stopped it.
    fn time_out(self) {
        let report = SolveReport {
            outcome: Outcome::Cancelled,
            guesses: 0,
            elapsed: Duration::ZERO,
        };
        // The request may be gone already; then nobody needs the answer.
        let _ = self.reply.send(Attempt {
            report,
            retry: None,
        });
    }
}

impl QuickLane {
    fn new(max_drainers: usize, metrics: Metrics) -> Self {
        QuickLane {
            queue: Mutex::default(),
            max_drainers,
            metrics,
        }
    }

    /// Queues a quick attempt of `run` at `now` (the time the request read for its
    /// deadline) and waits for its result, starting a drainer or the watchdog when
    /// [`QuickQueue::push`] says so.
    async fn attempt(self: &Arc<Self>, run: Run, now: Instant) -> Result<Attempt, ApiError> {
        let (reply, result) = oneshot::channel();
        let job = QuickJob { run, reply };
        // Bound first: a guard in the `match` itself would be held across the yield.
        let queued = self.lock().push(job, self.max_drainers, now);
        match queued {
            Queued::NewDrainer => {
                // Started on drop, so a request dropped while it yields still starts it.
                let _start = StartDrainer(Arc::clone(self));
                // Lets the other requests this worker has ready queue their attempts
                // first, so the drainer finds more than one.
                tokio::task::yield_now().await;
            }
            Queued::NewWatchdog => {
                tokio::spawn(Arc::clone(self).watch());
            }
            Queued::Wait => {}
        }
        result
            .await
            .map_err(|_| solver_failed(&"the solver panicked"))
    }

    /// Looks at the queue every [`DRAINER_STALLED`] while attempts wait, and starts
    /// another drainer when they wait behind a queue that has not moved: requests that are
    /// all queued already (a client with a fixed set of connections) start none
    /// themselves. It also answers the attempts whose deadline has passed, so a request's
    /// time limit covers its wait in the queue. One timer serves the whole lane, not one
    /// per request.
    async fn watch(self: Arc<Self>) {
        loop {
            let now = Instant::now();
            let (expired, look, next_look) = {
                let mut queue = self.lock();
                let expired = queue.take_expired(now);
                (
                    expired,
                    queue.look(self.max_drainers, now),
                    queue.next_look(now),
                )
            };
            expired.into_iter().for_each(QuickJob::time_out);
            match look {
                Look::NewDrainer => self.start_drainer(),
                Look::Again => {}
                Look::Stop => return,
            }
            tokio::time::sleep_until(next_look.into()).await;
        }
    }

    /// Starts a drainer on a blocking thread.
    fn start_drainer(self: &Arc<Self>) {
        let lane = Arc::clone(self);
        tokio::task::spawn_blocking(move || lane.drain());
    }

    /// Runs queued attempts until the queue is empty. A panicking attempt drops its reply
    /// (its request answers 500) and the drainer goes on with the next.
    fn drain(&self) {
        loop {
            // Also when the attempt starts: the clock is read once per job.
            let now = Instant::now();
            let Some(QuickJob { run, reply }) = self.lock().take(now) else {
                return;
            };
            let attempt = panic::catch_unwind(AssertUnwindSafe(|| {
                run.execute(&self.metrics, Lane::Quick { taken: now })
            }));
            if let Ok(attempt) = attempt {
                // The request may be gone already; then nobody needs the result.
                let _ = reply.send(attempt);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QuickQueue> {
        // Nothing panics while holding the lock, but a poisoned queue is still consistent.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
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

/// Starts a drainer of the lane when dropped.
struct StartDrainer(Arc<QuickLane>);

impl Drop for StartDrainer {
    fn drop(&mut self) {
        self.0.start_drainer();
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

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;
    use std::sync::atomic::AtomicUsize;
    use std::task::Poll;

    use super::*;
    use crate::test_support::{bounded, eventually};

    fn pool() -> SolverPool {
        pool_for_threads(1, 1)
    }

    /// A pool of `solvers` solvers for requests served on `threads` threads.
    fn pool_for_threads(solvers: usize, threads: usize) -> SolverPool {
        let threads = NonZeroUsize::new(threads).unwrap();
        let limits = Limits {
            solve_timeout: Duration::from_secs(10),
            solver_concurrency: NonZeroUsize::new(solvers).unwrap(),
            queue_length: 1,
            body_limit_bytes: 1 << 16,
        };
        SolverPool::new(&limits, Metrics::new(1), threads)
    }

    fn easy_grid() -> Grid {
        Grid::parse_symbols(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        )
        .unwrap()
    }

    /// A queued attempt of the easy grid, whose reply nobody waits for.
    fn quick_job() -> QuickJob {
        let (reply, _) = oneshot::channel();
        QuickJob {
            run: Run {
                grid: easy_grid(),
                options: SolveOptions::default(),
                deadline: Instant::now(),
                abandoned: Arc::default(),
                span: Span::none(),
            },
            reply,
        }
    }

    #[test]
    fn a_drainer_starts_when_none_runs_or_the_queue_has_not_moved() {
        let mut queue = QuickQueue::default();
        let start = Instant::now();
        let stalled = start + DRAINER_STALLED;
        assert_eq!(
            queue.push(quick_job(), 3, start),
            Queued::NewDrainer,
            "none runs"
        );
        assert_eq!(
            queue.push(quick_job(), 3, start),
            Queued::NewWatchdog,
            "behind a queue that just moved, an attempt waits under the watchdog"
        );
        assert_eq!(
            queue.push(quick_job(), 3, start),
            Queued::Wait,
            "one watchdog"
        );
        assert_eq!(queue.look(3, start), Look::Again);
        assert_eq!(
            queue.next_look(start),
            stalled,
            "the watchdog wakes when it stalls"
        );

        assert_eq!(queue.push(quick_job(), 3, stalled), Queued::NewDrainer);
        assert_eq!(
            queue.look(3, stalled),
            Look::Again,
            "the new drainer moved it"
        );
        let stalled_again = stalled + DRAINER_STALLED;
        assert_eq!(queue.look(3, stalled_again), Look::NewDrainer);
        let much_later = stalled_again + 5 * DRAINER_STALLED;
        assert_eq!(
            queue.push(quick_job(), 3, much_later),
            Queued::Wait,
            "at most 3"
        );
        assert_eq!(queue.look(3, much_later), Look::Again, "at most 3");
        assert_eq!(
            queue.next_look(much_later),
            much_later + DRAINER_STALLED,
            "a stalled queue at the maximum is looked at a period on, not at once"
        );
        assert_eq!(queue.drainers, 3);

        assert!(queue.take(much_later).is_some());
        assert_eq!(
            queue.moved,
            Some(much_later),
            "taking a job moves the queue"
        );
        while queue.take(much_later).is_some() {}
        assert_eq!(queue.drainers, 2, "a drainer that finds none stops");
        assert_eq!(queue.look(3, much_later), Look::Stop, "nothing waits");
        assert!(!queue.watched);

        // Alone behind drainers busy since long ago, an attempt starts another itself.
        let busy_since = much_later + DRAINER_STALLED;
        assert_eq!(queue.push(quick_job(), 3, busy_since), Queued::NewDrainer);
        assert_eq!(queue.drainers, 3);
    }

    #[test]
    fn each_thread_solves_in_a_lane_of_its_own_while_the_drainers_stay_bounded() {
        let pool = pool_for_threads(1, 2);
        let solve_on_a_thread = |lane| {
            let pool = pool.clone();
            std::thread::spawn(move || {
                take_quick_lane(lane);
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                for _ in 0..3 {
                    let solved = runtime.block_on(bounded(
                        pool.solve(easy_grid(), SolveOptions::default(), None),
                        "a solve never came back",
                    ));
                    assert!(matches!(solved, Ok(Some(_))));
                }
            })
        };
        for thread in [solve_on_a_thread(0), solve_on_a_thread(1)] {
            thread.join().unwrap();
        }
        for (lane, queue) in pool.quick_lanes.iter().enumerate() {
            assert!(
                queue.lock().moved.is_some(),
                "nothing queued in lane {lane}"
            );
        }

        // Lanes get two drainers or more, and together no more than the quick attempts:
        // threads share lanes beyond that, and the first lanes take the remainder.
        let drainers = |solvers, threads| {
            let pool = pool_for_threads(solvers, threads);
            let lanes = pool.quick_lanes.iter();
            lanes.map(|lane| lane.max_drainers).collect::<Vec<_>>()
        };
        assert_eq!(drainers(1, 16), [2, 2]);
        assert_eq!(drainers(3, 5), [3, 3, 2, 2, 2]);
        assert_eq!(drainers(2, 1), [8]);
    }

    #[tokio::test]
    async fn a_request_dropped_before_its_drainer_starts_still_starts_it() {
        let pool = pool();
        // One poll queues the attempt and claims the drainer; then the request goes away.
        let mut first = Box::pin(pool.solve(easy_grid(), SolveOptions::default(), None));
        let first_poll = std::future::poll_fn(|cx| Poll::Ready(first.as_mut().poll(cx))).await;
        assert!(first_poll.is_pending(), "the first poll yields");
        drop(first);
        // Had the claimed drainer never started, the attempt would stay queued.
        eventually(
            || {
                let queue = pool.quick_lane().lock();
                queue.jobs.is_empty() && queue.drainers == 0
            },
            "the dropped request's attempt never ran",
        )
        .await;
    }

    /// A run that outlasts any quick attempt (it counts every solution of the empty grid),
    /// with `deadline` and `abandoned`.
    fn endless_run(deadline: Instant, abandoned: Arc<AtomicBool>) -> Run {
        Run {
            grid: Grid::empty(9).unwrap(),
            options: SolveOptions {
                limit: u64::MAX,
                ..SolveOptions::default()
            },
            deadline,
            abandoned,
            span: Span::none(),
        }
    }

    #[tokio::test]
    async fn a_drainer_stops_an_attempt_whose_deadline_has_passed_before_its_first_guess() {
        let lane = Arc::new(QuickLane::new(1, Metrics::new(1)));
        let run = endless_run(Instant::now(), Arc::default());
        let attempt = bounded(
            lane.attempt(run, Instant::now()),
            "the attempt never came back",
        )
        .await
        .unwrap();
        assert_eq!(attempt.report.outcome, Outcome::Cancelled);
        assert_eq!(attempt.report.guesses, 0, "the drainer ran it anyway");
        assert!(
            attempt.retry.is_none(),
            "a run stopped by the request's deadline goes to no solver slot"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_attempt_whose_deadline_passes_while_it_waits_is_answered_before_its_turn() {
        let lane = Arc::new(QuickLane::new(1, Metrics::new(1)));
        // A second of quick attempts (0.5 ms each) for the lane's one drainer.
        let stop_the_long_ones = Arc::new(AtomicBool::new(false));
        let far = Instant::now() + Duration::from_secs(60);
        let long_ones_done = Arc::new(AtomicUsize::new(0));
        let long_ones: Vec<_> = (0..2000)
            .map(|_| {
                let run = endless_run(far, Arc::clone(&stop_the_long_ones));
                let (lane, done) = (Arc::clone(&lane), Arc::clone(&long_ones_done));
                tokio::spawn(async move {
                    let attempt = lane.attempt(run, Instant::now()).await;
                    done.fetch_add(1, Ordering::Relaxed);
                    attempt
                })
            })
            .collect();
        // More than half of them wait ahead of the short attempt, in arrival order.
        eventually(
            || lane.lock().jobs.len() > 1000,
            "the long attempts never queued",
        )
        .await;

        let queued = Instant::now();
        let short = endless_run(queued + Duration::from_millis(5), Arc::default());
        let attempt = bounded(lane.attempt(short, queued), "the attempt never came back")
            .await
            .unwrap();
        let done_before = long_ones_done.load(Ordering::Relaxed);
        stop_the_long_ones.store(true, Ordering::Relaxed);
        assert_eq!(attempt.report.outcome, Outcome::Cancelled);
        assert_eq!(attempt.report.guesses, 0);
        assert!(
            done_before < 1000,
            "the attempt waited for its turn ({done_before} done before it) instead of being \
             answered at its deadline"
        );
        for long_one in long_ones {
            long_one.await.unwrap().unwrap();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn drainers_and_the_watchdog_stop_once_the_attempts_are_done() {
        let pool = pool();
        let solves = (0..32).map(|_| {
            let pool = pool.clone();
            tokio::spawn(
                async move { pool.solve(easy_grid(), SolveOptions::default(), None).await },
            )
        });
        for solve in solves.collect::<Vec<_>>() {
            assert!(matches!(solve.await.unwrap(), Ok(Some(_))));
        }
        // Drainers stop once the queue is empty, and so does the watchdog.
        eventually(
            || {
                let queue = pool.quick_lane().lock();
                queue.drainers == 0 && !queue.watched
            },
            "a drainer or the watchdog kept running",
        )
        .await;
    }
}
