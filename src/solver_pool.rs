//! Running CPU-heavy work (solving, rating, explaining, generating) under one bound: at most
//! `concurrency` cores' worth of it, whatever thread it runs on, behind a bounded wait
//! queue, and never for longer than its time limit.
//!
//! A solver slot is a core: `slots` has one permit per solver. Every run starts with a
//! **quick attempt** of at most [`QUICK_ATTEMPT`], inline on the calling async worker:
//! nearly every 9×9 grid is solved within it, and the hand-off to a blocking thread (tens
//! of microseconds) would cost more than the solve. Only work that outlasts its attempt is
//! **admitted**: `admission` has one permit per solver and per queue place, and a run that
//! finds none is refused with [`PoolError::Overloaded`] at once. It then starts again on a
//! blocking thread that holds its admission and a slot until it returns, so a slot frees
//! only when the work has really stopped, even if the caller was answered (time limit) or
//! went away before.
//!
//! Quick attempts come first, and never wait for long work. At most one per solver runs at
//! once (`quick_lane`); one that finds a free slot holds it, and one that finds every slot
//! held by long work runs beside it on **borrowed time**: its time is added to `debt`, and
//! long work pays the debt back by pausing when it next polls its [`Cancellation`] (every
//! millisecond or so), so that solving uses no more than `concurrency` cores over any
//! stretch longer than a pause. A cheap request is thus answered at once even when every
//! solver is busy and the queue is full, and a refusal costs no wake-up of the long work:
//! the work that pays pauses once per [`MIN_PAUSE`] of debt, not once per attempt. At most
//! [`QUICK_QUEUE_PER_SOLVER`] quick attempts per solver wait for the lane at once; beyond
//! that a run skips its quick attempt and goes to admission.
//!
//! An attempt that fails while the long lane is full is wasted: its run is refused. Three
//! rules keep a flood of such requests cheap. [`Effort::Heavy`] work (ratings,
//! explanations, generation), which often outlasts an attempt, gets one only on a free
//! solver and never borrows time, so it is refused at once when the lane is full. Light
//! work (solves, hints) gets a shorter attempt,
//! [`QUICK_ATTEMPT_WHEN_FULL`], enough for an easy grid. And the attempts of a full lane
//! that fail may take at most [`WASTE_SHARE`] of one solver's time, after a burst of
//! [`WASTE_BURST`]: beyond that, light work too is refused without an attempt until the
//! budget has grown back.
//!
//! [`SolverPool::occupancy`] says how many runs hold a solver (read off `slots`) and how
//! many admitted runs wait for one (counted only on the way through a wait), so a run
//! that does not wait updates no shared count.
//!
//! The work polls a [`Cancellation`] with the run's deadline and, on a blocking thread, a
//! flag that a drop guard raises when the caller's future is dropped, so a timed-out or
//! abandoned run stops burning CPU within milliseconds.

use std::num::NonZeroU64;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use sudoku_engine::solver::{Cancellation, Stopped};

/// How long the quick attempt of a run may take on the async worker that serves the
/// request. Of the 48,766 hardest 9×9 puzzles of the forum list, 99.9% solve within
/// 0.15 ms (0.21 ms proving uniqueness); an async worker held this long still answers
/// other requests within a fraction of a millisecond.
pub const QUICK_ATTEMPT: Duration = Duration::from_micros(250);

/// The quick attempt of light work that finds the long lane full, and so will be refused
/// if its attempt runs out: enough for an easy grid (singles finish a 9×9 one in about
/// 10 µs), and a fifth of the cost of each refusal in a flood of hard requests.
pub const QUICK_ATTEMPT_WHEN_FULL: Duration = Duration::from_micros(50);

/// Quick attempts per solver that may wait for the quick lane at once: each holds it for
/// at most [`QUICK_ATTEMPT`], so the last of them waits about 16 ms.
pub const QUICK_QUEUE_PER_SOLVER: usize = 64;

/// The share of one solver's time that failed attempts of a full long lane may take.
pub const WASTE_SHARE: f64 = 0.0625;

/// How much of failed attempts a full long lane allows at once, after a quiet spell.
pub const WASTE_BURST: Duration = Duration::from_millis(1);

/// The least debt that long work pauses for: one pause (a sleep and a wake-up of its
/// thread) pays for many refused attempts, not one each.
pub const MIN_PAUSE: Duration = Duration::from_micros(500);

/// The niceness of the threads that run long work (0 is the default, 19 the lowest).
const SOLVER_NICENESS: libc::c_int = 10;

/// The longest single pause, so that a run paying a large debt still notices within
/// milliseconds that it is cancelled.
const MAX_PAUSE: Duration = Duration::from_millis(5);

/// How likely work is to end within a quick attempt, which decides whether it gets one
/// when the long lane is full (and its failure would be a refusal).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    /// Usually done within an attempt (a solve, a hint): tried even when the lane is full.
    Light,
    /// Often longer than an attempt (a rating, an explanation, a generation): tried only
    /// on a free solver, so refused at once, without an attempt, when the lane is full.
    Heavy,
}

/// Why a run of work did not give a result.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PoolError {
    /// Every solver is busy and the wait queue is full; nothing was run beyond the quick
    /// attempt.
    #[error("every solver is busy and the wait queue is full")]
    Overloaded {
        /// When a retry has a fair chance: the pool's time limit in whole seconds, rounded
        /// up, by which every solve running or waiting now has ended.
        retry_after: Duration,
    },
    /// The time limit passed before the work finished (waiting for a solver included).
    #[error("the work did not finish within {} ms", limit.as_millis())]
    TimedOut {
        /// The limit that applied.
        limit: Duration,
        /// How much of it went waiting for a solver, which other runs held.
        waited: Duration,
    },
    /// The work panicked on its blocking thread.
    #[error("the work panicked: {0}")]
    Panicked(String),
}

/// The sizes of a pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolLimits {
    /// Runs of the work at once: the number of cores solving may use.
    pub concurrency: usize,
    /// Runs that may wait for a solver before new ones are refused.
    pub queue_length: usize,
    /// The longest a solve may take (see [`SolverPool::limit_for`]); other work, such as
    /// generating, may be run with a limit of its own.
    pub time_limit: Duration,
}

/// Runs of a pool at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occupancy {
    /// Runs that hold a solver slot.
    pub running: usize,
    /// Admitted runs that wait for a slot (quick attempts, which wait a fraction of a
    /// millisecond, are not counted).
    pub waiting: usize,
}

/// The bounded pool every CPU-heavy request goes through; cheap to clone.
#[derive(Clone)]
pub struct SolverPool(Arc<Bounds>);

struct Bounds {
    admission: Arc<Semaphore>,
    slots: Arc<Semaphore>,
    /// One permit per solver: the quick attempts that may run at once.
    quick_lane: Arc<Semaphore>,
    time_limit: Duration,
    /// The permits of `slots` when nothing runs.
    concurrency: usize,
    /// Admitted runs waiting for a permit of `slots`.
    waiting: AtomicUsize,
    /// Quick attempts waiting for a permit of `quick_lane`.
    quick_waiting: AtomicUsize,
    /// Nanoseconds that quick attempts ran beside long work holding every slot, less what
    /// long work has paused for since (below zero when a pause overran).
    debt: AtomicI64,
    /// The budget of failed attempts of a full long lane: nanoseconds since `started` at
    /// which the budget spent so far will have grown back (a virtual clock that each
    /// failure moves on by its time over [`WASTE_SHARE`]).
    waste_paid_until: AtomicU64,
    started: Instant,
}

impl SolverPool {
    /// A pool of `limits.concurrency` solvers (at least one).
    pub fn new(limits: PoolLimits) -> Self {
        let concurrency = limits.concurrency.max(1);
        SolverPool(Arc::new(Bounds {
            admission: Arc::new(Semaphore::new(concurrency + limits.queue_length)),
            slots: Arc::new(Semaphore::new(concurrency)),
            quick_lane: Arc::new(Semaphore::new(concurrency)),
            time_limit: limits.time_limit,
            concurrency,
            waiting: AtomicUsize::new(0),
            quick_waiting: AtomicUsize::new(0),
            debt: AtomicI64::new(0),
            waste_paid_until: AtomicU64::new(0),
            started: Instant::now(),
        }))
    }

    /// How many runs hold a solver and how many wait for one now.
    pub fn occupancy(&self) -> Occupancy {
        let bounds = &self.0;
        Occupancy {
            running: bounds.concurrency - bounds.slots.available_permits(),
            waiting: bounds.waiting.load(Ordering::Relaxed),
        }
    }

    /// The time limit of a solve that asked for `requested_ms` milliseconds: never more
    /// than the pool's.
    pub fn limit_for(&self, requested_ms: Option<NonZeroU64>) -> Duration {
        let limit = self.0.time_limit;
        requested_ms.map_or(limit, |ms| Duration::from_millis(ms.get()).min(limit))
    }

    /// Runs `work` of `effort` within `limit` (see [`SolverPool::limit_for`]). `work`
    /// returns [`Stopped`] when the [`Cancellation`] it was given stopped it; it may be
    /// called twice (the quick attempt, then the run on a blocking thread), so it must not
    /// consume its input.
    pub async fn run<T, W>(&self, limit: Duration, effort: Effort, work: W) -> Result<T, PoolError>
    where
        T: Send + 'static,
        W: Fn(&Cancellation) -> Result<T, Stopped> + Send + 'static,
    {
        let bounds = &self.0;
        let deadline = Instant::now() + limit;
        let mut waited = Duration::ZERO;
        let timed_out = |waited| PoolError::TimedOut { limit, waited };
        let lane_full = bounds.admission.available_permits() == 0;
        let attempt = match effort {
            Effort::Light if !lane_full => Some(QUICK_ATTEMPT),
            Effort::Light if bounds.waste_allowed() => Some(QUICK_ATTEMPT_WHEN_FULL),
            Effort::Heavy if bounds.slots.available_permits() > 0 => Some(QUICK_ATTEMPT),
            _ => None,
        };
        let room_to_wait = bounds.quick_waiting.load(Ordering::Relaxed)
            < QUICK_QUEUE_PER_SOLVER * bounds.concurrency;
        if let Some(attempt) = attempt.filter(|_| room_to_wait) {
            let _quick = bounds
                .wait_for(
                    &bounds.quick_lane,
                    &bounds.quick_waiting,
                    deadline,
                    &mut waited,
                )
                .await
                .ok_or_else(|| timed_out(waited))?;
            let started = Instant::now();
            // Within one poll of this future, so it cannot be abandoned halfway: no flag.
            let may_borrow = effort == Effort::Light;
            match bounds.attempt(&work, attempt, deadline, may_borrow) {
                Some(Ok(result)) => return Ok(result),
                // Charged at most the attempt's length: past it is only the poll's delay,
                // which a slow build stretches.
                Some(Err(Stopped)) if lane_full => bounds.waste(started.elapsed().min(attempt)),
                _ => {}
            }
            if Instant::now() >= deadline {
                return Err(timed_out(waited));
            }
        }

        let admitted = Arc::clone(&bounds.admission)
            .try_acquire_owned()
            .map_err(|_| PoolError::Overloaded {
                retry_after: whole_seconds(bounds.time_limit),
            })?;
        // Raised if this future is dropped (the client went away) while work runs.
        let abandoned = Arc::new(AtomicBool::new(false));
        let _cancel_on_drop = CancelOnDrop(Arc::clone(&abandoned));
        let slot = bounds
            .wait_for(&bounds.slots, &bounds.waiting, deadline, &mut waited)
            .await
            .ok_or_else(|| timed_out(waited))?;
        let payer = Arc::clone(bounds);
        let run = tokio::task::spawn_blocking(move || {
            // The permits live in this closure: they are held until the thread is free.
            let (_admitted, _slot) = (admitted, slot);
            yield_to_the_server();
            let cancel = Cancellation::none()
                .with_flag(abandoned)
                .with_deadline(deadline)
                .with_checkpoint(move || payer.pay_debt());
            work(&cancel)
        });
        match run.await {
            Ok(Ok(result)) => Ok(result),
            Ok(Err(Stopped)) => Err(timed_out(waited)),
            Err(error) => Err(PoolError::Panicked(error.to_string())),
        }
    }
}

/// `limit` in whole seconds, rounded up, and at least one: the unit of `Retry-After`.
fn whole_seconds(limit: Duration) -> Duration {
    let seconds = limit.as_secs() + u64::from(limit.subsec_nanos() > 0);
    Duration::from_secs(seconds.max(1))
}

impl Bounds {
    /// A permit of `semaphore`, waited for until `deadline` (counted in `count` meanwhile,
    /// and the time added to `waited`); `None` when the deadline came first. A free permit
    /// is taken without a timer or a clock reading.
    async fn wait_for(
        &self,
        semaphore: &Arc<Semaphore>,
        count: &AtomicUsize,
        deadline: Instant,
        waited: &mut Duration,
    ) -> Option<OwnedSemaphorePermit> {
        if let Ok(permit) = Arc::clone(semaphore).try_acquire_owned() {
            return Some(permit);
        }
        let _waiting = Waiting::count(count);
        let started = Instant::now();
        let permit = Arc::clone(semaphore).acquire_owned();
        // Boxed: only waits pay for the timer, and every caller's future stays small.
        let permit = Box::pin(tokio::time::timeout_at(deadline.into(), permit))
            .await
            .ok()
            .map(|permit| permit.expect("the pool's semaphores are never closed"));
        *waited += started.elapsed();
        permit
    }

    /// Runs a quick attempt of at most `attempt` (and not past `deadline`) on a free slot,
    /// or, when long work holds every slot and `may_borrow`, on time that it pays back;
    /// `None` when it could not run.
    fn attempt<T>(
        &self,
        work: &impl Fn(&Cancellation) -> Result<T, Stopped>,
        attempt: Duration,
        deadline: Instant,
        may_borrow: bool,
    ) -> Option<Result<T, Stopped>> {
        let free_slot = Arc::clone(&self.slots).try_acquire_owned().ok();
        if free_slot.is_none() && !may_borrow {
            return None;
        }
        let started = Instant::now();
        let result = work(&Cancellation::none().with_deadline((started + attempt).min(deadline)));
        if free_slot.is_none() {
            let borrowed = i64::try_from(started.elapsed().as_nanos()).unwrap_or(i64::MAX);
            self.debt.fetch_add(borrowed, Ordering::Relaxed);
        }
        Some(result)
    }

    /// Whether the budget of failed attempts of a full lane has room for another.
    fn waste_allowed(&self) -> bool {
        let now = self.started.elapsed().as_nanos() as u64;
        self.waste_paid_until.load(Ordering::Relaxed) <= now + WASTE_BURST.as_nanos() as u64
    }

    /// Takes `wasted`, the time of a failed attempt of a full lane, from the budget.
    fn waste(&self, wasted: Duration) {
        let now = self.started.elapsed().as_nanos() as u64;
        let cost = (wasted.as_nanos() as f64 / WASTE_SHARE) as u64;
        let _ = self
            .waste_paid_until
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |until| {
                Some(until.max(now) + cost)
            });
    }

    /// Called by long work each time it polls its cancellation: pauses the calling thread
    /// for the debt of quick attempts, once it has reached [`MIN_PAUSE`].
    fn pay_debt(&self) {
        let owed = self.debt.load(Ordering::Relaxed);
        if owed < MIN_PAUSE.as_nanos() as i64 {
            return;
        }
        let pause = Duration::from_nanos(owed.unsigned_abs()).min(MAX_PAUSE);
        let started = Instant::now();
        std::thread::sleep(pause);
        let paused = i64::try_from(started.elapsed().as_nanos()).unwrap_or(i64::MAX);
        self.debt.fetch_sub(paused, Ordering::Relaxed);
    }
}

/// Lowers the calling thread's priority (once per thread): a blocking thread runs only
/// long work, and the async workers that answer requests come first when both want a core.
fn yield_to_the_server() {
    thread_local!(static LOWERED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
    if !LOWERED.replace(true) {
        // SAFETY: gettid and setpriority take no pointers; raising one's own niceness
        // needs no privilege, and a failure leaves the priority as it was.
        unsafe {
            let thread = libc::gettid() as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, thread, SOLVER_NICENESS);
        }
    }
}

/// One more in a count for as long as it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn count(waiting: &'a AtomicUsize) -> Self {
        waiting.fetch_add(1, Ordering::Relaxed);
        Waiting(waiting)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Raises the cancel flag when dropped.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::test_support::{bounded, eventually};
    use std::sync::atomic::AtomicU64;

    fn pool(concurrency: usize, queue_length: usize) -> SolverPool {
        let limits = PoolLimits {
            concurrency,
            queue_length,
            time_limit: Duration::from_secs(10),
        };
        SolverPool::new(limits)
    }

    #[test]
    fn retry_after_is_in_whole_seconds_rounded_up() {
        let seconds = |ms| whole_seconds(Duration::from_millis(ms)).as_secs();
        assert_eq!(
            [seconds(0), seconds(5), seconds(1500), seconds(2000)],
            [1, 1, 2, 2]
        );
    }

    /// Work that runs until cancelled, counting the runs in progress in `running`.
    fn endless(running: Arc<AtomicUsize>) -> impl Fn(&Cancellation) -> Result<(), Stopped> + Send {
        move |cancel| {
            running.fetch_add(1, Ordering::SeqCst);
            while !cancel.is_cancelled() {
                std::hint::spin_loop();
            }
            running.fetch_sub(1, Ordering::SeqCst);
            Err(Stopped)
        }
    }

    #[tokio::test]
    async fn quick_work_is_done_inline_within_its_attempt() {
        let pool = pool(1, 0);
        let thread = std::thread::current().id();
        let ran_on = pool
            .run(Duration::from_secs(1), Effort::Light, |_| {
                Ok(std::thread::current().id())
            })
            .await;
        assert_eq!(ran_on, Ok(thread));
    }

    /// Starts `work` on `pool` as a task of its own, with a 10 s limit.
    fn spawn_run(
        pool: &SolverPool,
        work: impl Fn(&Cancellation) -> Result<(), Stopped> + Send + 'static,
    ) -> tokio::task::JoinHandle<Result<(), PoolError>> {
        let pool = pool.clone();
        tokio::spawn(async move { pool.run(Duration::from_secs(10), Effort::Light, work).await })
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn admission_bounds_the_work_past_its_quick_attempt() {
        // Two solvers and one queue place: three runs are admitted.
        let pool = pool(2, 1);
        let running = Arc::new(AtomicUsize::new(0));
        let runs: Vec<_> = (0..3)
            .map(|_| spawn_run(&pool, endless(Arc::clone(&running))))
            .collect();
        let two_run_one_waits = Occupancy {
            running: 2,
            waiting: 1,
        };
        eventually(
            || running.load(Ordering::SeqCst) == 2 && pool.occupancy() == two_run_one_waits,
            "two long runs never held both solvers with a third waiting",
        )
        .await;
        // A fourth gets its quick attempt, and is refused once that runs out; it is told
        // to retry once the runs it found have hit the pool's limit, whatever it asked.
        let attempts = Arc::new(AtomicUsize::new(0));
        let refused = pool
            .run(Duration::from_millis(50), Effort::Light, {
                let attempts = Arc::clone(&attempts);
                move |cancel| -> Result<(), Stopped> {
                    attempts.fetch_add(1, Ordering::SeqCst);
                    while !cancel.is_cancelled() {}
                    Err(Stopped)
                }
            })
            .await;
        assert!(
            matches!(refused, Err(PoolError::Overloaded { retry_after }) if retry_after == Duration::from_secs(10)),
            "{refused:?}"
        );
        assert_eq!(
            attempts.load(Ordering::SeqCst),
            1,
            "only the quick attempt ran"
        );
        // Heavy work gets no attempt at all while the long lane is full.
        let heavy = pool
            .run(Duration::from_millis(50), Effort::Heavy, {
                let attempts = Arc::clone(&attempts);
                move |_| -> Result<(), Stopped> {
                    attempts.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                }
            })
            .await;
        assert!(
            matches!(heavy, Err(PoolError::Overloaded { .. })),
            "{heavy:?}"
        );
        assert_eq!(attempts.load(Ordering::SeqCst), 1, "heavy work was tried");

        // Dropping the callers stops their work: the slots come back.
        runs.iter().for_each(tokio::task::JoinHandle::abort);
        let idle = Occupancy {
            running: 0,
            waiting: 0,
        };
        eventually(
            || running.load(Ordering::SeqCst) == 0 && pool.occupancy() == idle,
            "abandoned work kept running",
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn quick_attempts_run_beside_long_work_which_pauses_as_long_as_they_ran() {
        // One solver, held by long work, and a full queue.
        let pool = pool(1, 1);
        let running = Arc::new(AtomicUsize::new(0));
        // The nanoseconds the long work spent polling its cancellation, where it pauses.
        let polling = Arc::new(AtomicU64::new(0));
        let long = spawn_run(&pool, {
            let (running, polling) = (Arc::clone(&running), Arc::clone(&polling));
            move |cancel| {
                running.fetch_add(1, Ordering::SeqCst);
                loop {
                    (0..1000).for_each(|_| std::hint::spin_loop());
                    let poll = Instant::now();
                    let cancelled = cancel.is_cancelled();
                    polling.fetch_add(poll.elapsed().as_nanos() as u64, Ordering::SeqCst);
                    if cancelled {
                        break;
                    }
                }
                running.fetch_sub(1, Ordering::SeqCst);
                Err(Stopped)
            }
        });
        let queued = spawn_run(&pool, endless(Arc::clone(&running)));
        eventually(
            || pool.0.admission.available_permits() == 0 && pool.occupancy().waiting == 1,
            "the long runs never filled the solver and the queue",
        )
        .await;
        let polled_before = polling.load(Ordering::SeqCst);
        let mut borrowed = Duration::ZERO;
        for _ in 0..40 {
            // Light work that runs its whole attempt, and succeeds.
            let quick = pool.run(Duration::from_secs(10), Effort::Light, |cancel| {
                let started = Instant::now();
                while !cancel.is_cancelled() {}
                Ok(started.elapsed())
            });
            let ran = bounded(quick, "a quick attempt waited for long work")
                .await
                .expect("a quick attempt is served while long work holds the solver");
            borrowed += ran;
        }
        // The long work pays back all but less than one pause of what it lent.
        let owed = borrowed.saturating_sub(MIN_PAUSE).as_nanos() as u64;
        eventually(
            || polling.load(Ordering::SeqCst) - polled_before >= owed,
            "long work did not pause for the quick attempts beside it",
        )
        .await;
        assert!(!long.is_finished() && !queued.is_finished());
        long.abort();
        queued.abort();
        eventually(
            || running.load(Ordering::SeqCst) == 0,
            "abandoned work kept running",
        )
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn failed_attempts_of_a_full_lane_keep_within_their_budget() {
        let pool = pool(1, 0);
        let running = Arc::new(AtomicUsize::new(0));
        let long = spawn_run(&pool, endless(Arc::clone(&running)));
        eventually(
            || running.load(Ordering::SeqCst) == 1,
            "the long run never started",
        )
        .await;
        // Light work that never ends within its attempt, refused each time.
        let (attempts, spent) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicU64::new(0)));
        let started = Instant::now();
        for _ in 0..200 {
            let refused = pool
                .run(Duration::from_secs(10), Effort::Light, {
                    let (attempts, spent) = (Arc::clone(&attempts), Arc::clone(&spent));
                    move |cancel| -> Result<(), Stopped> {
                        attempts.fetch_add(1, Ordering::SeqCst);
                        let started = Instant::now();
                        while !cancel.is_cancelled() {}
                        spent.fetch_add(started.elapsed().as_nanos() as u64, Ordering::SeqCst);
                        Err(Stopped)
                    }
                })
                .await;
            assert!(
                matches!(refused, Err(PoolError::Overloaded { .. })),
                "{refused:?}"
            );
        }
        // The attempts' time is the burst and the share of the time since, and one more
        // attempt that started just within it.
        let allowed = WASTE_BURST.as_secs_f64()
            + started.elapsed().as_secs_f64() * WASTE_SHARE
            + QUICK_ATTEMPT.as_secs_f64();
        let spent = Duration::from_nanos(spent.load(Ordering::SeqCst));
        assert!(spent.as_secs_f64() <= allowed, "{spent:?} of attempts");
        assert!(
            attempts.load(Ordering::SeqCst) < 200,
            "every refusal had an attempt"
        );
        long.abort();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_time_limit_covers_the_wait_and_the_work() {
        let pool = pool(1, 4);
        let running = Arc::new(AtomicUsize::new(0));
        let limit = Duration::from_millis(50);
        let first = pool.run(limit, Effort::Light, endless(Arc::clone(&running)));
        let second = pool.run(limit, Effort::Light, endless(Arc::clone(&running)));
        let (first, second) = bounded(
            async { tokio::join!(first, second) },
            "a run outlived its time limit",
        )
        .await;
        for result in [first, second] {
            assert!(
                matches!(result, Err(PoolError::TimedOut { limit: l, .. }) if l == limit),
                "{result:?}"
            );
        }
        assert_eq!(running.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn a_request_may_lower_the_time_limit_but_never_raise_it() {
        let pool = pool(1, 0);
        let ms = |ms| NonZeroU64::new(ms);
        assert_eq!(pool.limit_for(ms(5)), Duration::from_millis(5));
        assert_eq!(pool.limit_for(None), Duration::from_secs(10));
        assert_eq!(pool.limit_for(ms(60_000)), Duration::from_secs(10));
    }

    #[tokio::test]
    async fn work_that_panics_on_its_thread_is_an_error_and_frees_its_slot() {
        let pool = pool(1, 0);
        let calls = Arc::new(AtomicUsize::new(0));
        let result = pool
            .run(Duration::from_secs(1), Effort::Light, {
                let calls = Arc::clone(&calls);
                move |cancel| -> Result<(), Stopped> {
                    // The quick attempt runs out of time; the run on its thread panics.
                    if calls.fetch_add(1, Ordering::SeqCst) == 0 {
                        while !cancel.is_cancelled() {}
                        return Err(Stopped);
                    }
                    panic!("a bug")
                }
            })
            .await;
        assert!(matches!(result, Err(PoolError::Panicked(_))), "{result:?}");
        assert_eq!(pool.0.slots.available_permits(), 1);
        assert_eq!(pool.0.admission.available_permits(), 1);
    }
}
