//! Running CPU-heavy work (solving, rating, explaining, generating) under one bound: at most
//! `concurrency` runs at once, whatever thread they run on, behind a bounded wait queue,
//! and never for longer than their time limit.
//!
//! Three semaphores keep the limits:
//!
//! - `admission` has one permit per solver and per queue place. A run takes one before
//!   anything else and keeps it to the end; when none is left the run is refused with
//!   [`PoolError::Overloaded`] at once, before any solver work.
//! - `slots` has one permit per solver: nothing runs the work without one.
//! - `long_slots` has one permit fewer than `slots` (but at least one): a run that
//!   outlasts its quick attempt needs one of these besides its slot, so with two solvers
//!   or more a slot always stays for quick attempts, and an easy grid does not wait behind
//!   hard ones.
//!
//! Every run starts with a quick attempt of at most [`QUICK_ATTEMPT`], inline on the
//! calling async worker while it holds a slot: nearly every 9×9 grid is solved within
//! it, and the hand-off to a blocking thread (tens of microseconds) would cost more than
//! the solve. Work that outlasts the attempt starts again on a blocking thread that holds
//! both its permits until it returns, so a slot frees only when the work has really
//! stopped, even if the caller was answered (time limit) or went away before.
//!
//! [`SolverPool::occupancy`] says how many runs hold a solver (read off `slots`) and how
//! many wait for one (counted only on the way through a wait), so a run that does not wait
//! updates no shared count.
//!
//! The work polls a [`Cancellation`] with the run's deadline and, on a blocking thread, a
//! flag that a drop guard raises when the caller's future is dropped, so a timed-out or
//! abandoned run stops burning CPU within milliseconds.

use std::num::NonZeroU64;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::solver::Cancellation;

/// How long the quick attempt of a run may take on the async worker that serves the
/// request. Of the 48,766 hardest 9×9 puzzles of the forum list, 99.9% solve within
/// 0.15 ms (0.21 ms proving uniqueness); an async worker held this long still answers
/// other requests within a fraction of a millisecond.
pub const QUICK_ATTEMPT: Duration = Duration::from_micros(250);

/// Why a run of work did not give a result.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PoolError {
    /// Every solver is busy and the wait queue is full; nothing was run.
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
    /// Runs admitted that wait for a slot.
    pub waiting: usize,
}

/// The bounded pool every CPU-heavy request goes through; cheap to clone.
#[derive(Clone)]
pub struct SolverPool(Arc<Bounds>);

struct Bounds {
    admission: Arc<Semaphore>,
    slots: Arc<Semaphore>,
    long_slots: Arc<Semaphore>,
    time_limit: Duration,
    /// The permits of `slots` when nothing runs.
    concurrency: usize,
    /// Runs waiting for a permit of `slots` or `long_slots`.
    waiting: AtomicUsize,
}

impl SolverPool {
    /// A pool of `limits.concurrency` solvers (at least one).
    pub fn new(limits: PoolLimits) -> Self {
        let concurrency = limits.concurrency.max(1);
        SolverPool(Arc::new(Bounds {
            admission: Arc::new(Semaphore::new(concurrency + limits.queue_length)),
            slots: Arc::new(Semaphore::new(concurrency)),
            long_slots: Arc::new(Semaphore::new((concurrency - 1).max(1))),
            time_limit: limits.time_limit,
            concurrency,
            waiting: AtomicUsize::new(0),
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

    /// Runs `work` within `limit` (see [`SolverPool::limit_for`]). `work` returns `None`
    /// when the [`Cancellation`] it was given stopped it; it may be called twice (the quick
    /// attempt, then the run on a blocking thread), so it must not consume its input.
    pub async fn run<T, W>(&self, limit: Duration, work: W) -> Result<T, PoolError>
    where
        T: Send + 'static,
        W: Fn(&Cancellation) -> Option<T> + Send + 'static,
    {
        let bounds = &self.0;
        let deadline = Instant::now() + limit;
        let _admitted = Arc::clone(&bounds.admission)
            .try_acquire_owned()
            .map_err(|_| PoolError::Overloaded {
                retry_after: whole_seconds(bounds.time_limit),
            })?;
        let mut waited = Duration::ZERO;
        let timed_out = |waited| PoolError::TimedOut { limit, waited };
        let slot = bounds
            .wait_for(&bounds.slots, deadline, &mut waited)
            .await
            .ok_or_else(|| timed_out(waited))?;
        // Within one poll of this future, so it cannot be abandoned halfway: no flag.
        let quick_end = Instant::now() + QUICK_ATTEMPT;
        let quick = work(&Cancellation::none().with_deadline(quick_end.min(deadline)));
        if let Some(result) = quick {
            return Ok(result);
        }
        drop(slot);
        if quick_end >= deadline {
            return Err(timed_out(waited));
        }

        // Raised if this future is dropped (the client went away) while work runs.
        let abandoned = Arc::new(AtomicBool::new(false));
        let _cancel_on_drop = CancelOnDrop(Arc::clone(&abandoned));
        let cancel = Cancellation::none().with_flag(abandoned);
        let long_slot = bounds
            .wait_for(&bounds.long_slots, deadline, &mut waited)
            .await;
        let slot = bounds.wait_for(&bounds.slots, deadline, &mut waited).await;
        let (Some(long_slot), Some(slot)) = (long_slot, slot) else {
            return Err(timed_out(waited));
        };
        let run = tokio::task::spawn_blocking(move || {
            // The permits live in this closure: they are held until the thread is free.
            let _permits = (long_slot, slot);
            work(&cancel.with_deadline(deadline))
        });
        match run.await {
            Ok(Some(result)) => Ok(result),
            Ok(None) => Err(timed_out(waited)),
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
    /// A permit of `semaphore`, waited for until `deadline` (counted as waiting meanwhile,
    /// and the time added to `waited`); `None` when the deadline came first. A free permit
    /// is taken without a timer or a clock reading.
    async fn wait_for(
        &self,
        semaphore: &Arc<Semaphore>,
        deadline: Instant,
        waited: &mut Duration,
    ) -> Option<OwnedSemaphorePermit> {
        if let Ok(permit) = Arc::clone(semaphore).try_acquire_owned() {
            return Some(permit);
        }
        let _waiting = Waiting::count(&self.waiting);
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
    fn endless(running: Arc<AtomicUsize>) -> impl Fn(&Cancellation) -> Option<()> + Send {
        move |cancel| {
            running.fetch_add(1, Ordering::SeqCst);
            while !cancel.is_cancelled() {
                std::hint::spin_loop();
            }
            running.fetch_sub(1, Ordering::SeqCst);
            None
        }
    }

    #[tokio::test]
    async fn quick_work_is_done_inline_within_its_attempt() {
        let pool = pool(1, 0);
        let thread = std::thread::current().id();
        let ran_on = pool
            .run(Duration::from_secs(1), |_| {
                Some(std::thread::current().id())
            })
            .await;
        assert_eq!(ran_on, Ok(thread));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn long_work_leaves_a_slot_for_quick_attempts_and_admission_is_bounded() {
        // Two solvers and no queue: two runs are admitted.
        let pool = pool(2, 0);
        let running = Arc::new(AtomicUsize::new(0));
        let long = tokio::spawn({
            let (pool, running) = (pool.clone(), Arc::clone(&running));
            async move { pool.run(Duration::from_secs(10), endless(running)).await }
        });
        eventually(
            || running.load(Ordering::SeqCst) == 1 && pool.0.long_slots.available_permits() == 0,
            "the long run never started on its blocking thread",
        )
        .await;
        // A second long run is admitted, and waits for the only long slot.
        let waiting = tokio::spawn({
            let (pool, running) = (pool.clone(), Arc::clone(&running));
            async move { pool.run(Duration::from_secs(10), endless(running)).await }
        });
        let one_runs_one_waits = Occupancy {
            running: 1,
            waiting: 1,
        };
        eventually(
            || pool.0.admission.available_permits() == 0 && pool.occupancy() == one_runs_one_waits,
            "the second run was never admitted to wait",
        )
        .await;
        // A third is refused at once, and its work never runs; it is told to retry once
        // the runs it found have hit the pool's limit, whatever limit it asked for.
        let refused = pool.run(Duration::from_millis(5), |_| -> Option<()> {
            panic!("a refused run must not run")
        });
        assert!(matches!(
            refused.await,
            Err(PoolError::Overloaded { retry_after }) if retry_after == Duration::from_secs(10)
        ));
        assert_eq!(running.load(Ordering::SeqCst), 1, "the second run waits");

        // Dropping the callers stops their work: the slots come back.
        long.abort();
        waiting.abort();
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
    async fn the_time_limit_covers_the_wait_and_the_work() {
        let pool = pool(1, 4);
        let running = Arc::new(AtomicUsize::new(0));
        let limit = Duration::from_millis(50);
        let first = pool.run(limit, endless(Arc::clone(&running)));
        let second = pool.run(limit, endless(Arc::clone(&running)));
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
            .run(Duration::from_secs(1), {
                let calls = Arc::clone(&calls);
                move |cancel| -> Option<()> {
                    // The quick attempt runs out of time; the run on its thread panics.
                    if calls.fetch_add(1, Ordering::SeqCst) == 0 {
                        while !cancel.is_cancelled() {}
                        return None;
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
