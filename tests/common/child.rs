//! The binary as a container runs it: a child process on a free loopback port, with JSON
//! logs read line by line, its metrics, and its CPU time.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::raw_http::request;

const BINARY: &str = env!("CARGO_BIN_EXE_sudoku-service");

/// How long a test waits for the process before calling it hung.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// The service, running as a child process.
pub struct Service {
    child: Child,
    pub addr: SocketAddr,
    logs: mpsc::Receiver<String>,
}

impl Service {
    /// Starts the binary on a free loopback port, with JSON logs, and waits until it listens.
    pub fn start(args: &[&str]) -> Service {
        let mut child = Command::new(BINARY)
            .args([
                "serve",
                "--listen-addr",
                "127.0.0.1:0",
                "--log-format",
                "json",
            ])
            .args(args)
            .env("RUST_LOG", "info")
            .env_remove("PORT")
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let logs = forward_lines(child.stdout.take().unwrap());
        let addr = loop {
            let line = logs
                .recv_timeout(HANG_GUARD)
                .expect("the service logs that it listens");
            let event: Value = serde_json::from_str(&line).expect("log lines are JSON");
            if event["fields"]["message"] == "listening" {
                break event["fields"]["addr"].as_str().unwrap().parse().unwrap();
            }
        };
        Service { child, addr, logs }
    }

    /// Sends `signal` to the process.
    pub fn signal(&self, signal: libc::c_int) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: `kill` has no memory-safety preconditions; the pid is our own child's.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }

    /// Waits for the process to exit, killing it if it hangs.
    pub fn wait(mut self) -> (ExitStatus, Vec<String>) {
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > HANG_GUARD {
                self.child.kill().unwrap();
                panic!("the service did not exit");
            }
            thread::sleep(Duration::from_millis(20));
        };
        (status, self.logs.try_iter().collect())
    }

    /// Waits until a log line contains `text` (lines before it are dropped).
    pub fn wait_for_log(&self, text: &str) {
        loop {
            let line = self
                .logs
                .recv_timeout(HANG_GUARD)
                .unwrap_or_else(|_| panic!("no log line with {text:?}"));
            if line.contains(text) {
                return;
            }
        }
    }

    /// The CPU time the process has used so far, user and system (`/proc/PID/stat`).
    pub fn cpu_time(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("the service runs");
        // The fields after the command name, which is in parentheses and may hold spaces.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        let ticks: u64 = [11, 12]
            .iter()
            .map(|&i| fields[i].parse::<u64>().unwrap())
            .sum();
        // SAFETY: sysconf has no preconditions.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
        Duration::from_secs_f64(ticks as f64 / per_second as f64)
    }

    /// The most memory the process has held resident so far, in bytes (`VmHWM` of
    /// `/proc/PID/status`).
    pub fn peak_rss(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the service runs");
        let kib: u64 = status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| rest.trim().trim_end_matches(" kB").parse().ok())
            .expect("VmHWM in kB");
        kib * 1024
    }

    /// Waits until the metric line starting with `series` shows `value`.
    pub fn wait_for_metric(&self, series: &str, value: &str) {
        let started = Instant::now();
        while started.elapsed() < HANG_GUARD {
            let metrics = request(self.addr, "GET", "/metrics", "").expect("metrics");
            let shown = metrics
                .body
                .lines()
                .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '));
            if shown == Some(value) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        panic!("{series} never showed {value}");
    }
}

impl Drop for Service {
    /// A test that fails leaves no process behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Hands the child's output on line by line, so its pipe never fills up.
fn forward_lines(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}
