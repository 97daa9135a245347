//! The README's `curl --json` examples: each request is sent to the app, and the answer
//! the README shows under it must be what comes back, where `...` stands for what the
//! README leaves out and timings may differ.

use crate::helpers::{app, post_json};

/// One example: the body and path of the request, and the answer as the README shows it
/// (with its status when the command asks curl for the head, `-i`).
#[derive(Debug)]
struct Example {
    body: String,
    path: String,
    status: Option<u16>,
    shown: String,
}

/// Every `curl [-i] --json '…' localhost:8080/…` command of `readme` followed by comment
/// lines that hold its JSON answer (the command may go on over a second line), and with
/// `-i` its status line.
fn curl_examples(readme: &str) -> Vec<Example> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut examples = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let (with_head, rest) = match line.strip_prefix("curl -i --json '") {
            Some(rest) => (true, rest),
            None => match line.strip_prefix("curl --json '") {
                Some(rest) => (false, rest),
                None => continue,
            },
        };
        let mut command = rest.trim_end().to_owned();
        let mut next = index + 1;
        if let Some(head) = command.strip_suffix('\\') {
            command = format!("{head} {}", lines[next].trim());
            next += 1;
        }
        let (body, target) = command.split_once("' ").expect("a quoted body");
        let path = target
            .split_whitespace()
            .find_map(|word| word.strip_prefix("localhost:8080"))
            .expect("a URL on localhost:8080");
        let comments = lines[next..].iter().take_while(|l| l.starts_with('#'));
        let status = with_head.then(|| {
            let status_line = lines[next].strip_prefix("# HTTP/1.1 ");
            let code = status_line.and_then(|rest| rest.split(' ').next()?.parse().ok());
            code.unwrap_or_else(|| panic!("{line}: an `-i` example shows its status line first"))
        });
        let shown: String = comments
            .skip_while(|l| !l.starts_with("# {"))
            .map(|l| l.trim_start_matches('#').trim_start())
            .collect();
        if !shown.is_empty() {
            examples.push(Example {
                body: body.to_owned(),
                path: path.to_owned(),
                status,
                shown,
            });
        }
    }
    examples
}

/// `json` with every `"elapsed_us"` value set to 0: timings differ from run to run.
fn without_timings(json: &str) -> String {
    let key = "\"elapsed_us\":";
    let mut out = String::new();
    let mut rest = json;
    while let Some(at) = rest.find(key) {
        let after = &rest[at + key.len()..];
        out.push_str(&rest[..at + key.len()]);
        out.push('0');
        rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// Whether `actual` is `shown` with each `...` standing for any text.
fn matches_shown(actual: &str, shown: &str) -> bool {
    let pieces: Vec<&str> = shown.split("...").collect();
    if pieces.len() == 1 {
        return actual == shown;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !actual.starts_with(first) || !actual[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

#[tokio::test]
async fn every_curl_example_gets_the_answer_the_readme_shows() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README is readable");
    let examples = curl_examples(&readme);
    assert!(examples.len() >= 10, "only {} examples", examples.len());
    let app = app();
    for example in examples {
        let body =
            serde_json::from_str(&example.body).unwrap_or_else(|e| panic!("{e}: {}", example.body));
        let answer = post_json(&app, &example.path, &body).await;
        if let Some(status) = example.status {
            assert_eq!(answer.status.as_u16(), status, "{}", example.body);
        }
        let actual = without_timings(&answer.text());
        let shown = without_timings(&example.shown);
        assert!(
            matches_shown(&actual, &shown),
            "{} {}\nREADME: {shown}\nactual: {actual}",
            example.path,
            example.body
        );
    }
}

#[test]
fn the_readme_asks_for_the_rust_version_the_manifest_declares() {
    let root = env!("CARGO_MANIFEST_DIR");
    let manifest = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|line| line.strip_prefix("rust-version = \""))
        .and_then(|rest| rest.strip_suffix('"'))
        .expect("Cargo.toml declares its rust-version");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    assert!(
        readme.contains(&format!("You need Rust {version} or newer")),
        "the README's prerequisites name another Rust than {version}"
    );
}

#[test]
fn the_wildcard_stands_for_any_text_and_nothing_else_differs() {
    assert!(matches_shown(r#"{"a":1,"b":2}"#, r#"{"a":1,...}"#));
    assert!(matches_shown(r#"{"a":1,"b":2}"#, r#"{"a":1,"b":2}"#));
    assert!(!matches_shown(r#"{"a":1,"b":2}"#, r#"{"a":1}"#));
    assert!(!matches_shown(r#"{"a":1,"b":2}"#, r#"{"a":2,...}"#));
    assert_eq!(
        without_timings(r#"{"elapsed_us":12,"x":1}"#),
        r#"{"elapsed_us":0,"x":1}"#
    );
}
