//! Cooperative cancellation: a deadline, a time limit and a flag that the search polls as
//! it goes, and a checkpoint where whoever runs the work may pause it.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What work returns when its [`Cancellation`] stopped it before the end: it was cancelled,
/// or it ran out of time. The solver, the logic and the generator all stop this one way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("stopped before the end: cancelled, or out of time")]
pub struct Stopped;

/// When a solve must give up: at a deadline, after a time limit, when a shared flag is
/// raised, or never.
#[derive(Debug, Clone, Default)]
pub struct Cancellation {
    deadline: Option<Instant>,
    time_limit: Option<Duration>,
    flag: Option<Arc<AtomicBool>>,
    checkpoint: Option<Checkpoint>,
}

/// What the work calls each time it polls its cancellation.
#[derive(Clone)]
struct Checkpoint(Arc<dyn Fn() + Send + Sync>);

impl fmt::Debug for Checkpoint {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("Checkpoint")
    }
}

impl Cancellation {
    /// Never cancels.
    pub fn none() -> Self {
        Self::default()
    }

    /// Also cancels once `deadline` has passed.
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Also cancels once `limit` has passed since the work started: each solve counts it
    /// from its own start, at no cost of a clock reading before it; the logic and the
    /// generator count it from their start (see [`Cancellation::starting_now`]), so that
    /// it covers all the solves they make.
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }

    /// Also cancels once `flag` is set (from any thread).
    pub fn with_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.flag = Some(flag);
        self
    }

    /// Also calls `checkpoint` each time the work polls whether to stop (before it reads
    /// the clock), from the work's own thread: a runner may block there to pause the work
    /// and lend its core to other work for a while.
    pub fn with_checkpoint(mut self, checkpoint: impl Fn() + Send + Sync + 'static) -> Self {
        self.checkpoint = Some(Checkpoint(Arc::new(checkpoint)));
        self
    }

    /// This cancellation for work that starts now: its time limit becomes a deadline, so
    /// that [`Cancellation::is_cancelled`] honours it too.
    pub fn starting_now(&self) -> Cancellation {
        Cancellation {
            deadline: self.deadline_from(Instant::now()),
            time_limit: None,
            ..self.clone()
        }
    }

    /// Whether the work should stop now: the flag is raised, or the deadline has passed. A
    /// time limit counts once [`Cancellation::starting_now`] has made it a deadline.
    pub fn is_cancelled(&self) -> bool {
        self.pass_checkpoint();
        self.stopped_at(self.deadline, Instant::now())
    }

    /// Calls the checkpoint, if there is one.
    fn pass_checkpoint(&self) {
        if let Some(Checkpoint(checkpoint)) = &self.checkpoint {
            checkpoint();
        }
    }

    /// Whether the flag is raised, or `deadline` has passed at `now`.
    fn stopped_at(&self, deadline: Option<Instant>, now: Instant) -> bool {
        let flag_raised = self
            .flag
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed));
        flag_raised || deadline.is_some_and(|end| now >= end)
    }

    /// The deadline of a solve that started at `started`: the earlier of the deadline
    /// and the end of the time limit.
    fn deadline_from(&self, started: Instant) -> Option<Instant> {
        let limit_end = self.time_limit.map(|limit| started + limit);
        match (self.deadline, limit_end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Polls a [`Cancellation`] every `period` search nodes, so that a stop is noticed within
/// a millisecond or two at little cost.
pub(crate) struct StopCheck<'a> {
    cancellation: &'a Cancellation,
    deadline: Option<Instant>,
    period: u32,
    countdown: u32,
    stopped: bool,
}

impl<'a> StopCheck<'a> {
    /// Checks at once, for a solve that started at `started`, and then every `period`
    /// calls.
    pub(crate) fn new(cancellation: &'a Cancellation, period: u32, started: Instant) -> Self {
        let deadline = cancellation.deadline_from(started);
        StopCheck {
            cancellation,
            deadline,
            period,
            countdown: period,
            stopped: cancellation.stopped_at(deadline, started),
        }
    }

    /// Whether the search must stop; once true, stays true.
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.countdown == 0 {
            self.countdown = self.period;
            self.cancellation.pass_checkpoint();
            self.stopped =
                self.stopped || self.cancellation.stopped_at(self.deadline, Instant::now());
        }
        self.countdown -= 1;
        self.stopped
    }

    /// Whether a stop was seen.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }
}
