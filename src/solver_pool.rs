//! Running CPU-heavy work (solving, rating, explaining, generating) under one bound: at most
//! `concurrency` runs at once, whatever thread they run on, behind a bounded wait queue,
//! and never for longer than their time limit.
//!
//! A solver slot is a core: `slots` has one permit per solver, and nothing runs the work
//! without one. Every run starts with a **quick attempt** of at most [`QUICK_ATTEMPT`],
//! inline on the calling async worker while it holds a slot: nearly every 9×9 grid is
//! solved within it, and the hand-off to a blocking thread (tens of microseconds) would
//! cost more than the solve. Only work that outlasts its attempt is **admitted**:
//! `admission` has one permit per solver and per queue place, and a run that finds none
//! is refused with [`PoolError::Overloaded`] at once. It then starts again on a blocking
//! thread that holds its admission and a slot until it returns, so a slot frees only when
//! the work has really stopped, even if the caller was answered (time limit) or went away
//! before.
//!
//! Quick attempts come first: long work, each time it polls its [`Cancellation`] (every
//! millisecond or so), hands its slot over while quick attempts wait for one, and queues
//! for it again behind them (the semaphore is first come, first served). So a cheap
//! request never waits behind expensive ones for more than the quick attempts ahead of
//! it, even when every solver is busy and the queue is full, and solving never uses more
//! than `concurrency` cores. At most [`QUICK_QUEUE_PER_SOLVER`] quick attempts per solver
//! wait at once; beyond that a run skips its quick attempt and goes to admission. A run
//! that finds the long lane full gets a shorter attempt ([`QUICK_ATTEMPT_WHEN_FULL`]), so
//! that a flood of hard requests, each refused once its attempt runs out, costs less.
//!
//! [`SolverPool::occupancy`] says how many runs hold a solver (read off `slots`) and how
//! many admitted runs wait for one (counted only on the way through a wait), so a run
//! that does not wait updates no shared count.
//!
//! The work polls a [`Cancellation`] with the run's deadline and, on a blocking thread, a
//! flag that a drop guard raises when the caller's future is dropped, so a timed-out or
//! abandoned run stops burning CPU within milliseconds.

use std::num::NonZeroU64;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use thiserror::Error;
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use sudoku_engine::solver::{Cancellation, Stopped};

/// How long the quick attempt of a run may take on the async worker that serves the
/// request. Of the 48,766 hardest 9×9 puzzles of the forum list, 99.9% solve within
/// 0.15 ms (0.21 ms proving uniqueness); an async worker held this long still answers
/// other requests within a fraction of a millisecond.
pub const QUICK_ATTEMPT: Duration = Duration::from_micros(250);

/// The quick attempt of a run that finds the long lane full, and so will be refused if
/// its attempt runs out: enough for an easy grid (singles finish a 9×9 one in about
/// 10 µs), and a fifth of the cost of each refusal in a flood of hard requests.
pub const QUICK_ATTEMPT_WHEN_FULL: Duration = Duration::from_micros(50);

/// Quick attempts per solver that may wait for a slot at once: each holds it for at most
/// [`QUICK_ATTEMPT`], so the last of them waits about 16 ms.
pub const QUICK_QUEUE_PER_SOLVER: usize = 64;

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
    time_limit: Duration,
    /// The permits of `slots` when nothing runs.
    concurrency: usize,
    /// Admitted runs waiting for a permit of `slots`.
    waiting: AtomicUsize,
    /// Quick attempts waiting for one: long work lends its slot while there are any.
    quick_waiting: AtomicUsize,
}

impl SolverPool {
    /// A pool of `limits.concurrency` solvers (at least one).
    pub fn new(limits: PoolLimits) -> Self {
        let concurrency = limits.concurrency.max(1);
        SolverPool(Arc::new(Bounds {
            admission: Arc::new(Semaphore::new(concurrency + limits.queue_length)),
            slots: Arc::new(Semaphore::new(concurrency)),
            time_limit: limits.time_limit,
            concurrency,
            waiting: AtomicUsize::new(0),
            quick_waiting: AtomicUsize::new(0),
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

    /// Runs `work` within `limit` (see [`SolverPool::limit_for`]). `work` returns
    /// [`Stopped`] when the [`Cancellation`] it was given stopped it; it may be called twice
    /// (the quick attempt, then the run on a blocking thread), so it must not consume its
    /// input.
    pub async fn run<T, W>(&self, limit: Duration, work: W) -> Result<T, PoolError>
    where
        T: Send + 'static,
        W: Fn(&Cancellation) -> Result<T, Stopped> + Send + 'static,
    {
        let bounds = &self.0;
        let deadline = Instant::now() + limit;
        let mut waited = Duration::ZERO;
        let timed_out = |waited| PoolError::TimedOut { limit, waited };
        if bounds.quick_waiting.load(Ordering::Relaxed)
            < QUICK_QUEUE_PER_SOLVER * bounds.concurrency
        {
            let slot = bounds
                .wait_for_slot(Lane::Quick, deadline, &mut waited)
                .await
                .ok_or_else(|| timed_out(waited))?;
            let attempt = match bounds.admission.available_permits() {
                0 => QUICK_ATTEMPT_WHEN_FULL,
                _ => QUICK_ATTEMPT,
            };
            // Within one poll of this future, so it cannot be abandoned halfway: no flag.
            let quick_end = Instant::now() + attempt;
            let quick = work(&Cancellation::none().with_deadline(quick_end.min(deadline)));
            drop(slot);
            if let Ok(result) = quick {
                return Ok(result);
            }
            if quick_end >= deadline {
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
            .wait_for_slot(Lane::Long, deadline, &mut waited)
            .await
            .ok_or_else(|| timed_out(waited))?;
        let lent = LentSlot {
            bounds: Arc::clone(bounds),
            slot: Mutex::new(Some(slot)),
            runtime: Handle::current(),
        };
        let run = tokio::task::spawn_blocking(move || {
            // The permits live in this closure: they are held until the thread is free.
            let _admitted = admitted;
            let cancel = Cancellation::none()
                .with_flag(abandoned)
                .with_deadline(deadline)
                .with_checkpoint(move || lent.lend_to_quick_attempts());
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

/// Which way a run waits for a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lane {
    /// A quick attempt, which long work makes way for.
    Quick,
    /// Admitted work that outlasted its quick attempt.
    Long,
}

impl Bounds {
    /// A slot, waited for until `deadline` (counted as waiting meanwhile, and the time
    /// added to `waited`); `None` when the deadline came first. A free slot is taken
    /// without a timer or a clock reading.
    async fn wait_for_slot(
        &self,
        lane: Lane,
        deadline: Instant,
        waited: &mut Duration,
    ) -> Option<OwnedSemaphorePermit> {
        if let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() {
            return Some(permit);
        }
        // Quick attempts wait apart: the queue is of admitted work.
        let _waiting = Waiting::count(match lane {
            Lane::Quick => &self.quick_waiting,
            Lane::Long => &self.waiting,
        });
        let started = Instant::now();
        let permit = Arc::clone(&self.slots).acquire_owned();
        // Boxed: only waits pay for the timer, and every caller's future stays small.
        let permit = Box::pin(tokio::time::timeout_at(deadline.into(), permit))
            .await
            .ok()
            .map(|permit| permit.expect("the pool's semaphores are never closed"));
        *waited += started.elapsed();
        permit
    }
}

/// The slot of long work on its blocking thread, which it lends to quick attempts.
struct LentSlot {
    bounds: Arc<Bounds>,
    slot: Mutex<Option<OwnedSemaphorePermit>>,
    runtime: Handle,
}

impl LentSlot {
    /// While quick attempts wait for a slot, hands this one over and blocks until it is
    /// this run's turn again, behind them: it joins the queue before it lets go, so that no
    /// run that comes later takes the slot first.
    fn lend_to_quick_attempts(&self) {
        if self.bounds.quick_waiting.load(Ordering::Relaxed) == 0 {
            return;
        }
        let mut slot = self
            .slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let _waiting = Waiting::count(&self.bounds.waiting);
        let again = self.runtime.block_on(async {
            let mut again = pin!(Arc::clone(&self.bounds.slots).acquire_owned());
            let queued = again.as_mut().now_or_never();
            drop(slot.take());
            match queued {
                Some(again) => again,
                None => again.await,
            }
        });
        *slot = Some(again.expect("the pool's semaphores are never closed"));
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
            .run(Duration::from_secs(1), |_| Ok(std::thread::current().id()))
            .await;
        assert_eq!(ran_on, Ok(thread));
    }

    /// Starts `work` on `pool` as a task of its own, with a 10 s limit.
    fn spawn_run(
        pool: &SolverPool,
        work: impl Fn(&Cancellation) -> Result<(), Stopped> + Send + 'static,
    ) -> tokio::task::JoinHandle<Result<(), PoolError>> {
        let pool = pool.clone();
        tokio::spawn(async move { pool.run(Duration::from_secs(10), work).await })
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
            .run(Duration::from_millis(50), {
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
    async fn long_work_pauses_for_quick_attempts_and_never_runs_beside_them() {
        // One solver, held by long work, and a full queue.
        let pool = pool(1, 1);
        let running = Arc::new(AtomicUsize::new(0));
        // Raised while the long work computes, lowered while it polls its cancellation
        // (where it lends its slot).
        let computing = Arc::new(AtomicBool::new(false));
        let long = spawn_run(&pool, {
            let (running, computing) = (Arc::clone(&running), Arc::clone(&computing));
            move |cancel| {
                running.fetch_add(1, Ordering::SeqCst);
                loop {
                    computing.store(true, Ordering::SeqCst);
                    (0..1000).for_each(|_| std::hint::spin_loop());
                    computing.store(false, Ordering::SeqCst);
                    if cancel.is_cancelled() {
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
        for _ in 0..20 {
            let quick = pool.run(Duration::from_secs(10), {
                let computing = Arc::clone(&computing);
                move |_| Ok(computing.load(Ordering::SeqCst))
            });
            let long_was_computing = bounded(quick, "a quick attempt waited for long work")
                .await
                .expect("a quick attempt is served while long work holds the solver");
            assert!(!long_was_computing, "quick and long work ran at once");
        }
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
