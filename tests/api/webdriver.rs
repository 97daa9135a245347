//! A real headless Chromium, driven through WebDriver (`chromedriver`), on the playground
//! page of a real server; and a reverse proxy that serves the service under a path prefix.
//!
//! `CHROMEDRIVER` names the driver (default `chromedriver` on the `PATH`), `CHROMIUM` the
//! browser (default: the one the driver finds). Screenshots go to
//! `target/browser-screenshots/`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use tokio::process::{Child, Command};

use crate::helpers::{TestApp, limits, spawn_app};

/// The longest any page action may take before the test gives up: a guard against hangs,
/// far above what any action needs.
const PATIENCE: Duration = Duration::from_secs(60);

/// A browser on the playground of a server of its own.
pub struct Browser {
    /// The WebDriver session.
    pub client: Client,
    /// The server the page talks to.
    pub server: TestApp,
    test: &'static str,
    _driver: Child,
}

impl Browser {
    /// Starts a server, a driver and a browser for the test `test`, at `width`×`height`.
    pub async fn open(test: &'static str, width: u32, height: u32) -> Browser {
        let server = spawn_app(limits()).await;
        let (driver, port) = start_driver().await;
        let mut options = json!({
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                format!("--window-size={width},{height}"),
            ]
        });
        if let Ok(binary) = std::env::var("CHROMIUM") {
            options["binary"] = json!(binary);
        }
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("goog:chromeOptions".into(), options);
        capabilities.insert("goog:loggingPrefs".into(), json!({ "browser": "ALL" }));
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("chromedriver starts a headless Chromium");
        Browser {
            client,
            server,
            test,
            _driver: driver,
        }
    }

    /// Loads the page at `url` and waits until its script has built the board.
    pub async fn visit(&self, url: &str) {
        self.client.goto(url).await.expect("the page loads");
        self.wait_until("document.querySelectorAll('#board input').length > 0")
            .await;
    }

    /// Loads the playground of the test's own server.
    pub async fn visit_playground(&self) {
        self.visit(&self.server.url("/")).await;
    }

    /// The value of the JavaScript expression `expression` on the page.
    pub async fn eval(&self, expression: &str) -> Value {
        self.client
            .execute(&format!("return {expression};"), vec![])
            .await
            .unwrap_or_else(|error| panic!("{expression}: {error}"))
    }

    /// Waits until `condition` (a JavaScript expression) holds on the page.
    pub async fn wait_until(&self, condition: &str) {
        let started = std::time::Instant::now();
        while self.eval(condition).await != json!(true) {
            assert!(started.elapsed() < PATIENCE, "never true: {condition}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Clicks the element with the id `id`, then waits until the API call it makes (if
    /// any) has been answered and drawn.
    pub async fn click(&self, id: &str) {
        self.client
            .find(Locator::Id(id))
            .await
            .unwrap_or_else(|error| panic!("#{id}: {error}"))
            .click()
            .await
            .unwrap_or_else(|error| panic!("clicking #{id}: {error}"));
        self.settle().await;
    }

    /// Waits until no API call is under way.
    pub async fn settle(&self) {
        self.wait_until("!document.body.classList.contains('busy')")
            .await;
    }

    /// Types `keys` into the element with the id `id` (WebDriver key codes included).
    pub async fn type_into(&self, id: &str, keys: &str) {
        let element = self.client.find(Locator::Id(id)).await.unwrap();
        element.send_keys(keys).await.unwrap();
    }

    /// Chooses the option `value` of the select element with the id `id`.
    pub async fn select(&self, id: &str, value: &str) {
        let element = self.client.find(Locator::Id(id)).await.unwrap();
        element.select_by_value(value).await.unwrap();
    }

    /// Types `keys` into the board cell at (`row`, `col`), 0-based.
    pub async fn type_into_cell(&self, row: usize, col: usize, keys: &str) {
        let selector = format!("#board input[data-row='{row}'][data-col='{col}']");
        let cell = self.client.find(Locator::Css(&selector)).await.unwrap();
        cell.send_keys(keys).await.unwrap();
    }

    /// Pastes `text` into the first cell of the board, as a user's paste would.
    pub async fn paste(&self, text: &str) {
        let script = "const data = new DataTransfer(); data.setData('text/plain', arguments[0]); \
            document.querySelector('#board input').dispatchEvent(new ClipboardEvent('paste', \
            { clipboardData: data, bubbles: true, cancelable: true }));";
        self.client
            .execute(script, vec![json!(text)])
            .await
            .unwrap();
        self.settle().await;
    }

    /// The board as one string, row by row, `.` for an empty cell.
    pub async fn board(&self) -> String {
        let board = self
            .eval("[...document.querySelectorAll('#board input')].map((i) => i.value || '.').join('')")
            .await;
        board.as_str().unwrap().to_owned()
    }

    /// The text of the element with the id `id`.
    pub async fn text(&self, id: &str) -> String {
        let text = self
            .eval(&format!("document.getElementById('{id}').textContent"))
            .await;
        text.as_str().unwrap().trim().to_owned()
    }

    /// Whether the element with the id `id` is shown.
    pub async fn shown(&self, id: &str) -> bool {
        self.eval(&format!("!document.getElementById('{id}').hidden"))
            .await
            == json!(true)
    }

    /// The board cells (row, column) that carry the class `class`, in order.
    pub async fn cells_with(&self, class: &str) -> Vec<(usize, usize)> {
        let script = format!(
            "[...document.querySelectorAll('#board .cell.{class} input')]\
             .map((i) => [Number(i.dataset.row), Number(i.dataset.col)])"
        );
        serde_json::from_value(self.eval(&script).await).unwrap()
    }

    /// Saves a screenshot of the page as `target/browser-screenshots/<test>-<state>.png`.
    pub async fn screenshot(&self, state: &str) {
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{}-{state}.png", self.test)), png).unwrap();
    }

    /// The entries the browser logged at the error level since the last call, as
    /// (source, message): `network` for each HTTP error status, `javascript` for an
    /// uncaught exception, `console-api` for `console.error`, `security` for a breach of
    /// the Content-Security-Policy.
    pub async fn console_errors(&self) -> Vec<(String, String)> {
        let log = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .expect("the browser log");
        let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
        log.as_array()
            .expect("a list of entries")
            .iter()
            .filter(|entry| entry["level"] == "SEVERE")
            .map(|entry| (text(&entry["source"]), text(&entry["message"])))
            .collect()
    }

    /// Ends the browser session; panics if the page logged an error.
    pub async fn close(self) {
        let errors = self.console_errors().await;
        self.client.close().await.unwrap();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    }
}

/// Starts `chromedriver` on a free port and waits until it takes sessions.
async fn start_driver() -> (Child, u16) {
    let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .unwrap()
        .port();
    let driver = Command::new(&program)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|error| {
            panic!(
                "{program}: {error}; the browser tests need Chromium and its driver \
                 (Debian: apt-get install chromium chromium-driver)"
            )
        });
    let status = format!("http://127.0.0.1:{port}/status");
    let started = std::time::Instant::now();
    loop {
        let ready = reqwest::get(&status).await.ok();
        if let Some(answer) = ready.filter(|answer| answer.status().is_success()) {
            let body: Value = answer.json().await.unwrap();
            if body["value"]["ready"] == json!(true) {
                return (driver, port);
            }
        }
        assert!(started.elapsed() < PATIENCE, "{program} never became ready");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// ChromeDriver's command for the browser's console log (not part of W3C WebDriver).
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (Method, Option<String>) {
        (Method::POST, Some(json!({ "type": "browser" }).to_string()))
    }
}

/// Serves `upstream` under the path prefix `/sudoku/`, as a reverse proxy in front of the
/// service would (the prefix is stripped before forwarding); gives the proxy's address.
pub async fn prefix_proxy(upstream: &TestApp) -> SocketAddr {
    let app = Router::new()
        .route("/sudoku/", any(forward))
        .route("/sudoku/{*rest}", any(forward))
        .with_state((upstream.client.clone(), upstream.url("")));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

async fn forward(
    State((client, upstream)): State<(reqwest::Client, String)>,
    rest: Option<Path<String>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = rest.map(|Path(rest)| rest).unwrap_or_default();
    let mut request = client.request(method, format!("{upstream}/{path}"));
    for (name, value) in headers.iter().filter(|(name, _)| *name != "host") {
        request = request.header(name, value);
    }
    let Ok(answer) = request.body(body).send().await else {
        return StatusCode::BAD_GATEWAY.into_response();
    };
    let status = answer.status();
    let mut headers = answer.headers().clone();
    headers.remove("transfer-encoding");
    headers.remove("connection");
    let body = answer.bytes().await.unwrap_or_default();
    (status, headers, body).into_response()
}
