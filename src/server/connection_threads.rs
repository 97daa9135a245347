//! The threads that serve connections: one per core, each with a single-threaded runtime,
//! and every connection served start to finish on the thread it was handed to.
//!
//! A work-stealing runtime lets any worker run any task, so the task of a connection
//! moves between cores, and a worker that finds more work than it can run wakes another
//! to steal it. For this service that costs more than it saves: a connection carries one
//! request at a time, and the solver runs on blocking threads, not on these. With a
//! runtime per thread a connection's data stays in one core's cache, and a solver thread
//! handing back a result wakes only the thread whose connection waits for it. (Pingora's
//! "no steal" runtimes and actix-web's workers are built the same way.)
//!
//! A new connection goes to the thread that serves the fewest, so a few long-lived
//! connections (a client's pool) spread over the threads.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use hyper_util::server::graceful::Watcher;
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// A connection on its way to the thread that will serve it, with the watcher that lets
/// a graceful shutdown wait for it.
type Handover = (std::net::TcpStream, SocketAddr, Watcher);

/// The connection threads; [`ConnectionThreads::stop`] ends them.
pub struct ConnectionThreads {
    threads: Vec<ConnectionThread>,
}

/// One connection thread: where to send it connections, and how many it serves.
struct ConnectionThread {
    handovers: mpsc::UnboundedSender<Handover>,
    open: Arc<AtomicUsize>,
    thread: JoinHandle<()>,
}

impl ConnectionThreads {
    /// Starts `count` threads that serve each connection handed to them with `serve`.
    pub fn start<S, F>(count: NonZeroUsize, serve: S) -> io::Result<Self>
    where
        S: Fn(TcpStream, SocketAddr, Watcher) -> F + Clone + Send + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let threads = (0..count.get())
            .map(|index| ConnectionThread::start(index, serve.clone()))
            .collect::<io::Result<_>>()?;
        Ok(ConnectionThreads { threads })
    }

    /// Hands `stream` to the thread that serves the fewest connections; `watcher` goes
    /// with it to `serve`.
    pub fn hand_over(&self, stream: TcpStream, peer: SocketAddr, watcher: Watcher) {
        let thread = self
            .threads
            .iter()
            .min_by_key(|thread| thread.open.load(Ordering::Relaxed))
            .expect("there is at least one connection thread");
        // A stream moves between runtimes as a std stream: it leaves this runtime's
        // reactor here and joins the thread's there.
        let stream = match stream.into_std() {
            Ok(stream) => stream,
            Err(error) => {
                tracing::warn!(%error, %peer, "cannot hand over a connection");
                return;
            }
        };
        thread.open.fetch_add(1, Ordering::Relaxed);
        if thread.handovers.send((stream, peer, watcher)).is_err() {
            // The thread is gone (it panicked); the connection closes as it drops.
            thread.open.fetch_sub(1, Ordering::Relaxed);
            tracing::error!(%peer, "a connection thread is gone; connection dropped");
        }
    }

    /// Stops the threads: each stops taking connections, drops the ones it still serves,
    /// and ends; this returns once all have ended.
    pub async fn stop(self) {
        let threads: Vec<_> = self
            .threads
            .into_iter()
            .map(|thread| {
                drop(thread.handovers);
                thread.thread
            })
            .collect();
        let joined = tokio::task::spawn_blocking(move || {
            threads.into_iter().all(|thread| thread.join().is_ok())
        })
        .await;
        if !matches!(joined, Ok(true)) {
            tracing::error!("a connection thread panicked");
        }
    }
}

impl ConnectionThread {
    fn start<S, F>(index: usize, serve: S) -> io::Result<Self>
    where
        S: Fn(TcpStream, SocketAddr, Watcher) -> F + Send + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (handovers, mut arrivals) = mpsc::unbounded_channel::<Handover>();
        let open = Arc::new(AtomicUsize::new(0));
        let served = Arc::clone(&open);
        let thread = std::thread::Builder::new()
            .name(format!("connections-{index}"))
            .spawn(move || {
                runtime.block_on(async move {
                    while let Some((stream, peer, watcher)) = arrivals.recv().await {
                        let open = OpenConnection(Arc::clone(&served));
                        match TcpStream::from_std(stream) {
                            Ok(stream) => {
                                let connection = serve(stream, peer, watcher);
                                tokio::spawn(async move {
                                    let _open = open;
                                    connection.await;
                                });
                            }
                            Err(error) => {
                                tracing::warn!(%error, %peer, "cannot take over a connection");
                            }
                        }
                    }
                });
                // Dropping the runtime here drops the connections still open.
            })?;
        Ok(ConnectionThread {
            handovers,
            open,
            thread,
        })
    }
}

/// Counts a connection as open on its thread until it is dropped.
struct OpenConnection(Arc<AtomicUsize>);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::Duration;

    use hyper_util::server::graceful::GracefulShutdown;
    use tokio::io::AsyncReadExt;
    use tokio::net::TcpListener;

    use super::*;

    #[tokio::test]
    async fn connections_spread_over_the_threads_and_stop_drops_them() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (served_by, mut names) = mpsc::unbounded_channel();
        let serve = move |mut stream: TcpStream, _peer, watcher: Watcher| {
            let served_by = served_by.clone();
            async move {
                let _watched = watcher;
                served_by
                    .send(std::thread::current().name().map(str::to_owned))
                    .unwrap();
                // Open until the client closes it or the thread drops it.
                let _ = stream.read(&mut [0u8; 1]).await;
            }
        };
        let threads = ConnectionThreads::start(NonZeroUsize::new(2).unwrap(), serve).unwrap();
        let graceful = GracefulShutdown::new();

        let mut clients = Vec::new();
        let mut served = HashMap::<_, usize>::new();
        for _ in 0..4 {
            let client = TcpStream::connect(addr).await.unwrap();
            let (stream, peer) = listener.accept().await.unwrap();
            threads.hand_over(stream, peer, graceful.watcher());
            *served.entry(names.recv().await.unwrap()).or_default() += 1;
            clients.push(client);
        }
        assert_eq!(served.len(), 2, "both threads serve: {served:?}");
        assert!(served.values().all(|&count| count == 2), "{served:?}");

        threads.stop().await;
        for mut client in clients {
            // A bound against a hang, not a timing claim.
            let read = tokio::time::timeout(Duration::from_secs(10), client.read(&mut [0u8; 1]))
                .await
                .expect("a stopped thread closes its connections");
            assert!(matches!(read, Ok(0) | Err(_)), "closed, not {read:?}");
        }
    }
}
