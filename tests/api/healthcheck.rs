//! The `healthcheck` subcommand, run as the real binary, against a live server and
//! against a port where nothing listens.

use std::process::{Command, Output};

use crate::helpers::{limits, spawn_app};

const BINARY: &str = env!("CARGO_BIN_EXE_sudoku-service");

/// Runs `sudoku-service healthcheck` with `args`, untouched by the caller's environment.
async fn healthcheck(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BINARY);
    command.arg("healthcheck").args(args);
    for variable in ["HEALTHCHECK_URL", "LISTEN_ADDR", "PORT"] {
        command.env_remove(variable);
    }
    command.envs(envs.iter().copied());
    tokio::task::spawn_blocking(move || command.output().expect("the binary runs"))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_server_is_healthy() {
    let server = spawn_app(limits()).await;
    let by_url = healthcheck(&["--url", &server.url("/healthz")], &[]).await;
    assert!(by_url.status.success(), "{by_url:?}");
    assert_eq!(String::from_utf8_lossy(&by_url.stdout), "healthy\n");

    let port = server.addr.port().to_string();
    let by_port = healthcheck(&[], &[("PORT", &port)]).await;
    assert!(by_port.status.success(), "{by_port:?}");

    let by_env = healthcheck(&[], &[("HEALTHCHECK_URL", &server.url("/healthz"))]).await;
    assert!(by_env.status.success(), "{by_env:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_path_that_is_not_200_is_unhealthy() {
    let server = spawn_app(limits()).await;
    let output = healthcheck(&["--url", &server.url("/nowhere")], &[]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("404"));
}

#[tokio::test]
async fn nothing_listening_is_unhealthy_with_one_line_on_stderr() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let output = healthcheck(&["--listen-addr", "127.0.0.1:1", "--port", &port], &[]).await;
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&format!("127.0.0.1:{port}")), "{stderr}");
}

#[tokio::test]
async fn a_url_the_probe_cannot_take_is_a_usage_error_not_an_unhealthy_service() {
    for (args, envs) in [
        (&["--url", "notaurl"][..], &[][..]),
        (&["--url", "https://127.0.0.1:8080/healthz"], &[]),
        (&["--url", "http://127.0.0.1:http/healthz"], &[]),
        (&["--url", "http://127.0.0.1?healthz"], &[]),
        (&[], &[("HEALTHCHECK_URL", "127.0.0.1:8080/healthz")]),
    ] {
        let output = healthcheck(args, envs).await;
        assert_eq!(output.status.code(), Some(2), "{args:?} {envs:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("expected http://host[:port][/path]"),
            "{stderr}"
        );
    }
}
