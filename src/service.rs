//! The service put together: the configuration, the HTTP API and the server that serves
//! it, plus the upkeep that runs beside them.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::config::ServeConfig;
use crate::http::{self, AppState};
use crate::server::{self, ServerError};

/// How often histogram samples are folded in (so memory stays flat without scrapes) and
/// free memory is handed back to the system.
const UPKEEP_PERIOD: Duration = Duration::from_secs(1);

/// Hands the allocator's free pages back to the system. glibc's allocator keeps the
/// memory of closed connections in its per-thread arenas, fragmented, for reuse: after
/// 1,000 stalled 60 KB bodies were closed, the process still held 66 of its 67 MiB.
/// `malloc_trim` returns every free page of every arena (the same run: back within 1 MiB
/// of idle; 1,000 stalled heads: within 6 MiB), at the cost of a walk over the heap.
fn return_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases memory the allocator holds free; it takes the
    // allocator's locks like any allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Keeps glibc's allocator to one arena, unless `MALLOC_ARENA_MAX` says otherwise; call it
/// before any thread starts. glibc gives threads that allocate at once arenas of their
/// own (up to eight per core), and `malloc_trim` hands back little of them: after a
/// minute of mixed traffic from three clients, RSS stayed 15 MiB above idle, nearly all of
/// it in five such arenas; with one arena it came back within 2 MiB of idle, and ratings
/// and batches took as long (each thread still keeps a cache of small blocks of its own).
pub fn limit_allocator_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: mallopt only changes the allocator's settings; before threads start,
        // nothing allocates at the same time.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}

/// Binds the configured address and serves until SIGTERM or SIGINT.
pub async fn serve(config: ServeConfig) -> Result<(), ServerError> {
    // Signal handlers first: a SIGTERM that arrives once the address is logged must drain.
    let shutdown = server::shutdown_signal()?;
    let listener = server::bind(config.listen.addr(), config.listen_backlog)?;
    run(listener, &config, shutdown).await;
    Ok(())
}

/// Serves the API on `listener` under `config` until `shutdown` completes, then drains.
pub async fn run(listener: TcpListener, config: &ServeConfig, shutdown: impl Future<Output = ()>) {
    let limits = config.limits();
    let settings = config.server_settings();
    let state = AppState::new(limits);
    match listener.local_addr() {
        Ok(addr) => tracing::info!(
            %addr,
            solve_timeout_ms = limits.solve_timeout.as_millis(),
            solver_concurrency = limits.solver_concurrency.get(),
            queue_length = limits.queue_length,
            max_connections = settings.max_connections,
            body_budget_bytes = limits.body_budget_bytes,
            "listening"
        ),
        Err(error) => tracing::warn!(%error, "listening on an unknown address"),
    }
    let upkeep = tokio::spawn({
        let metrics = state.metrics().clone();
        async move {
            let mut ticks = tokio::time::interval(UPKEEP_PERIOD);
            loop {
                ticks.tick().await;
                metrics.run_upkeep();
                return_free_memory();
            }
        }
    });
    let readiness = state.readiness().clone();
    server::run(
        listener,
        http::app(state.clone()),
        settings,
        Arc::new(state.metrics().clone()),
        shutdown,
        move || readiness.start_draining(),
    )
    .await;
    upkeep.abort();
}
