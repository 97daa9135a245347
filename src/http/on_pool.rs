//! The one way a handler runs engine work on the solver pool: within the request's time
//! limit, with a run that its cancellation stopped answered as a time-out, and every other
//! failure of the work answered as its problem.

use std::num::NonZeroU64;
use std::time::Duration;

use super::AppState;
use super::problem::ApiError;
use crate::solver_pool::Effort;
use sudoku_engine::logic::LogicError;
use sudoku_engine::solver::{Cancellation, Stopped};
use sudoku_engine::variant::VariantError;

/// An engine error as an answer: the problem to send, or [`Stopped`] for a run that its
/// cancellation stopped (which the pool answers as a time-out).
pub(super) trait Failure: Send + 'static {
    /// The problem to send, or that the run was stopped.
    fn into_problem(self) -> Result<ApiError, Stopped>;
}

impl Failure for Stopped {
    fn into_problem(self) -> Result<ApiError, Stopped> {
        Err(self)
    }
}

impl Failure for VariantError {
    fn into_problem(self) -> Result<ApiError, Stopped> {
        match self {
            VariantError::TooLarge { size, limit } => Ok(ApiError::TooManyRules { size, limit }),
            VariantError::Stopped => Err(Stopped),
        }
    }
}

impl Failure for LogicError {
    fn into_problem(self) -> Result<ApiError, Stopped> {
        Ok(match self {
            LogicError::Stopped(stopped) => return Err(stopped),
            LogicError::UnsupportedSize(size) => ApiError::UnsupportedSize { size },
            LogicError::Unsolvable => ApiError::Unsolvable,
            LogicError::ConflictingGivens(conflicts) => ApiError::UnsolvableGivens(conflicts),
            LogicError::NotUnique => ApiError::NotUnique,
            LogicError::Mismatch(detail) => ApiError::InvalidRequest(detail),
            LogicError::BeyondTechniques => ApiError::BeyondTechniques,
            LogicError::TooManyRules { size, limit } => ApiError::TooManyRules { size, limit },
            LogicError::NoScale(rules) => ApiError::NoScale(rules),
        })
    }
}

/// Runs `work` of `effort` on the solver pool within `limit` (see [`time_limit`]). A
/// full pool is `overloaded`, a stopped run `solve_timeout`, and the work's own failures
/// their problems.
pub(super) async fn on_pool<T, E>(
    state: &AppState,
    limit: Duration,
    effort: Effort,
    work: impl Fn(&Cancellation) -> Result<T, E> + Send + 'static,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    E: Failure,
{
    let run = move |cancel: &Cancellation| match work(cancel) {
        Ok(done) => Ok(Ok(done)),
        Err(failure) => failure.into_problem().map(Err),
    };
    state.pool().run(limit, effort, run).await?
}

/// The time limit of a request: the server's, or the lower `timeout_ms` it asked for.
pub(super) fn time_limit(state: &AppState, timeout_ms: Option<NonZeroU64>) -> Duration {
    state.pool().limit_for(timeout_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::logic_error_code;

    /// The command line's JSON lines write a logic failure's code as the API does.
    #[test]
    fn a_logic_failure_has_the_code_that_the_command_line_writes() {
        for error in [
            LogicError::UnsupportedSize(4),
            LogicError::Unsolvable,
            LogicError::ConflictingGivens(Vec::new()),
            LogicError::NotUnique,
            LogicError::Mismatch("the grid is not the puzzle's".into()),
            LogicError::BeyondTechniques,
        ] {
            let code = logic_error_code(&error);
            let problem = error.into_problem().expect("a failure, not a stop");
            assert_eq!(problem.classify().1, code);
        }
        let stopped = ApiError::SolveTimeout {
            timeout_ms: 1,
            waited_ms: 0,
        };
        assert_eq!(
            logic_error_code(&LogicError::Stopped(Stopped)),
            stopped.classify().1
        );
    }
}
