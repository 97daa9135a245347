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

/// A connection on its way to the thread that will serve it.
struct Handover {
    stream: std::net::TcpStream,
    peer: SocketAddr,
    /// Lets a graceful shutdown wait for the connection.
    watcher: Watcher,
    /// Counts the connection on its thread from the moment it is handed over.
    open: OpenConnection,
}

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
    /// Starts `count` threads that serve each connection handed to them with `serve`;
    /// each first calls `on_start` with its index (0, 1, …).
    pub fn start<S, F>(count: NonZeroUsize, on_start: fn(usize), serve: S) -> io::Result<Self>
    where
        S: Fn(TcpStream, SocketAddr, Watcher) -> F + Clone + Send + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let threads = (0..count.get())
            .map(|index| ConnectionThread::start(index, on_start, serve.clone()))
            .collect::<io::Result<_>>()?;
        Ok(ConnectionThreads { threads })
    }

    /// Hands `stream` to the running thread that serves the fewest connections; `watcher`
    /// goes with it to `serve`.
    pub fn hand_over(&self, stream: TcpStream, peer: SocketAddr, watcher: Watcher) {
        // A thread whose channel is closed has ended (it panicked): it serves nothing, so it
        // would otherwise get every new connection.
        let Some(thread) = self
            .threads
            .iter()
            .filter(|thread| !thread.handovers.is_closed())
            .min_by_key(|thread| thread.open.load(Ordering::Relaxed))
        else {
            tracing::error!(%peer, "no connection thread is running; connection dropped");
            return;
        };
        // A stream moves between runtimes as a std stream: it leaves this runtime's
        // reactor here and joins the thread's there.
        let stream = match stream.into_std() {
            Ok(stream) => stream,
            Err(error) => {
                tracing::warn!(%error, %peer, "cannot hand over a connection");
                return;
            }
        };
        let handover = Handover {
            stream,
            peer,
            watcher,
            open: OpenConnection::count(&thread.open),
        };
        if thread.handovers.send(handover).is_err() {
            // The thread is gone (it panicked); the connection closes, and stops counting,
            // as the handover drops.
            tracing::error!(%peer, "a connection thread is gone; connection dropped");
        }
    }

    /// Stops the threads: each stops taking connections, drops the ones it still serves,
    /// and ends; this returns once all have ended. A thread's runtime ends only when its
    /// blocking tasks have (solves in a slot, quick-lane drainers), which takes
    /// milliseconds: dropping a request cancels its solve.
    pub async fn stop(self) {
        let threads: Vec<_> = self
            .threads
            .into_iter()
            .map(|thread| {
                drop(thread.handovers);
                thread.thread
            })
            .collect();
        let panicked = tokio::task::spawn_blocking(move || {
            // Every thread is joined, also after one that panicked.
            threads
                .into_iter()
                .map(JoinHandle::join)
                .filter(Result::is_err)
                .count()
        })
        .await;
        match panicked {
            Ok(0) => {}
            Ok(count) => tracing::error!(count, "connection threads panicked"),
            Err(error) => tracing::error!(%error, "cannot join the connection threads"),
        }
    }
}

impl ConnectionThread {
    fn start<S, F>(index: usize, on_start: fn(usize), serve: S) -> io::Result<Self>
    where
        S: Fn(TcpStream, SocketAddr, Watcher) -> F + Send + 'static,
        F: Future<Output = ()> + Send + 'static,
    {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (handovers, mut arrivals) = mpsc::unbounded_channel::<Handover>();
        let thread = std::thread::Builder::new()
            .name(format!("connections-{index}"))
            .spawn(move || {
                on_start(index);
                runtime.block_on(async move {
                    while let Some(Handover {
                        stream,
                        peer,
                        watcher,
                        open,
                    }) = arrivals.recv().await
                    {
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
            open: Arc::default(),
            thread,
        })
    }
}

/// Counts a connection as open on its thread until it is dropped.
struct OpenConnection(Arc<AtomicUsize>);

impl OpenConnection {
    /// Counts one more connection in `open`.
    fn count(open: &Arc<AtomicUsize>) -> Self {
        open.fetch_add(1, Ordering::Relaxed);
        OpenConnection(Arc::clone(open))
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use hyper_util::server::graceful::GracefulShutdown;
    use tokio::io::AsyncReadExt;
    use tokio::net::TcpListener;

    use super::*;
    use crate::test_support::{bounded, eventually};

    /// What the test server reports: which thread took a connection, and which closed.
    #[derive(Debug, PartialEq)]
    enum Event {
        Served(Option<String>),
        Closed(Option<String>),
    }

    fn thread_name() -> Option<String> {
        std::thread::current().name().map(str::to_owned)
    }

    /// Connection threads whose connections report to `events` and stay open until the
    /// client closes them; the first connection panics the thread it lands on if
    /// `panic_first` is set.
    fn start_threads(events: mpsc::UnboundedSender<Event>, panic_first: bool) -> ConnectionThreads {
        let panic_next = Arc::new(AtomicBool::new(panic_first));
        let serve = move |mut stream: TcpStream, _peer, watcher: Watcher| {
            assert!(
                !panic_next.swap(false, Ordering::Relaxed),
                "a connection thread ends"
            );
            let events = events.clone();
            async move {
                let _watched = watcher;
                events.send(Event::Served(thread_name())).unwrap();
                let _ = stream.read(&mut [0u8; 1]).await;
                events.send(Event::Closed(thread_name())).unwrap();
            }
        };
        ConnectionThreads::start(NonZeroUsize::new(2).unwrap(), |_| {}, serve).unwrap()
    }

    /// A listener, two connection threads (see [`start_threads`]), their events, and a
    /// graceful shutdown to watch the connections.
    async fn set_up(
        panic_first: bool,
    ) -> (
        TcpListener,
        mpsc::UnboundedReceiver<Event>,
        ConnectionThreads,
        GracefulShutdown,
    ) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let (sender, events) = mpsc::unbounded_channel();
        let threads = start_threads(sender, panic_first);
        (listener, events, threads, GracefulShutdown::new())
    }

    /// Connects a client to `listener` and hands the server's end to `threads`.
    async fn connect(
        listener: &TcpListener,
        threads: &ConnectionThreads,
        graceful: &GracefulShutdown,
    ) -> TcpStream {
        let client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        let (stream, peer) = listener.accept().await.unwrap();
        threads.hand_over(stream, peer, graceful.watcher());
        client
    }

    /// The next event.
    async fn next(events: &mut mpsc::UnboundedReceiver<Event>) -> Event {
        bounded(events.recv(), "an event")
            .await
            .expect("the threads hold a sender")
    }

    #[tokio::test]
    async fn a_connection_goes_to_the_thread_serving_the_fewest_and_stop_drops_them() {
        let (listener, mut events, threads, graceful) = set_up(false).await;

        let first = connect(&listener, &threads, &graceful).await;
        let Event::Served(first_thread) = next(&mut events).await else {
            panic!("served first")
        };
        let second = connect(&listener, &threads, &graceful).await;
        let Event::Served(second_thread) = next(&mut events).await else {
            panic!("served second")
        };
        assert_ne!(first_thread, second_thread, "one connection each");

        // The second thread now serves none, the first one: the next goes to the second
        // (where taking turns would send it to the first).
        drop(second);
        assert_eq!(
            next(&mut events).await,
            Event::Closed(second_thread.clone())
        );
        // The count drops when the connection's task ends, just after it reports.
        eventually(
            || {
                let open = threads
                    .threads
                    .iter()
                    .map(|t| t.open.load(Ordering::Relaxed));
                open.sum::<usize>() == 1
            },
            "the closed connection stops counting",
        )
        .await;
        let third = connect(&listener, &threads, &graceful).await;
        assert_eq!(next(&mut events).await, Event::Served(second_thread));

        bounded(threads.stop(), "the threads stop").await;
        for mut client in [first, third] {
            let read = client.read(&mut [0u8; 1]).await;
            assert!(matches!(read, Ok(0) | Err(_)), "closed, not {read:?}");
        }
    }

    #[tokio::test]
    async fn a_thread_that_has_ended_gets_no_connections() {
        let (listener, mut events, threads, graceful) = set_up(true).await;

        let _lost = connect(&listener, &threads, &graceful).await;
        eventually(
            || threads.threads.iter().any(|t| t.handovers.is_closed()),
            "the first thread ends",
        )
        .await;

        let mut clients = Vec::new();
        for _ in 0..2 {
            clients.push(connect(&listener, &threads, &graceful).await);
            assert!(
                matches!(next(&mut events).await, Event::Served(Some(_))),
                "served by the thread that runs"
            );
        }
    }
}
