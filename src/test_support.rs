//! Helpers for the unit tests of the async parts.

use std::future::Future;
use std::time::Duration;

/// How long a test waits for something that should happen at once: a bound against a
/// hang, not a timing claim.
const HANG_BOUND: Duration = Duration::from_secs(10);

/// `future`'s output; fails with `failure` if it takes longer than [`HANG_BOUND`].
pub(crate) async fn bounded<F: Future>(future: F, failure: &str) -> F::Output {
    tokio::time::timeout(HANG_BOUND, future)
        .await
        .expect(failure)
}

/// Waits until `done` holds, looking every millisecond; fails with `failure` after
/// [`HANG_BOUND`].
pub(crate) async fn eventually(done: impl Fn() -> bool, failure: &str) {
    let wait = async {
        while !done() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    };
    bounded(wait, failure).await;
}
