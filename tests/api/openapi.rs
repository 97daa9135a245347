//! `openapi.yaml` and the server in step: every route documented, every documented
//! operation routed, the file served byte for byte, and every request example answered
//! with the response example of the same name (the batch example too).

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::Value;
use sudoku_service::http::routes;

use crate::helpers::{app, get, post_json, post_raw, send};

const SPEC_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml");

fn spec() -> Value {
    let text = std::fs::read_to_string(SPEC_PATH).expect("openapi.yaml is readable");
    serde_yaml_ng::from_str(&text).expect("openapi.yaml is valid YAML")
}

/// Follows a local `$ref` (`#/components/...`), or returns `value` itself.
fn resolve<'a>(spec: &'a Value, value: &'a Value) -> &'a Value {
    match value.get("$ref").and_then(Value::as_str) {
        Some(reference) => spec
            .pointer(reference.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("dangling $ref {reference}")),
        None => value,
    }
}

#[test]
fn every_route_is_documented() {
    let spec = spec();
    assert_eq!(spec["openapi"], "3.1.0");
    for (method, path) in routes() {
        let operation = &spec["paths"][path][method.as_str().to_lowercase()];
        assert!(
            operation.is_object(),
            "{method} {path} is not in openapi.yaml"
        );
        assert!(
            operation["responses"].is_object(),
            "{method} {path} has no responses"
        );
    }
}

#[test]
fn every_reference_resolves() {
    fn walk(spec: &Value, value: &Value, found: &mut usize) {
        match value {
            Value::Object(members) => {
                if members.contains_key("$ref") {
                    resolve(spec, value);
                    *found += 1;
                }
                members.values().for_each(|v| walk(spec, v, found));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(spec, v, found)),
            _ => {}
        }
    }
    let spec = spec();
    let mut found = 0;
    walk(&spec, &spec, &mut found);
    assert!(found > 50, "only {found} references");
}

#[tokio::test]
async fn every_documented_operation_is_routed() {
    let spec = spec();
    let app = app();
    let routed = routes();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let method: Method = method.to_uppercase().parse().unwrap();
            assert!(
                routed.contains(&(method.clone(), path.as_str())),
                "{method} {path} is documented but not in the route table"
            );
            let request = Request::builder()
                .method(method.clone())
                .uri(path)
                .header("content-type", "application/json")
                .body(Body::from("{}"))
                .unwrap();
            let status = send(&app, request).await.status;
            assert!(
                status != StatusCode::NOT_FOUND && status != StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path}: {status}"
            );
        }
    }
}

#[tokio::test]
async fn openapi_yaml_is_served_byte_for_byte() {
    let answer = get(&app(), "/openapi.yaml").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.headers["content-type"], "application/yaml");
    assert_eq!(answer.body, std::fs::read(SPEC_PATH).unwrap());
}

#[tokio::test]
async fn every_request_example_gets_the_response_example_of_its_name() {
    let spec = spec();
    let app = app();
    let mut checked = 0;
    for path in [
        "/solve",
        "/validate",
        "/rate",
        "/explain",
        "/hint",
        "/generate",
    ] {
        let operation = &spec["paths"][path]["post"];
        let examples = operation["requestBody"]["content"]["application/json"]["examples"]
            .as_object()
            .unwrap();
        for (name, example) in examples {
            let (status, expected) =
                response_example(&spec, operation, name).unwrap_or_else(|| {
                    panic!("{path}: request example {name} has no response example")
                });
            let answer = post_json(&app, path, &example["value"]).await;
            assert_eq!(
                answer.status.as_u16(),
                status,
                "{path} {name}: {}",
                answer.text()
            );
            let mut actual = answer.json();
            // Timings and guess counts vary; their presence and shape do not.
            if let Some(stats) = actual.get_mut("stats") {
                assert!(stats["elapsed_us"].is_u64() && stats["guesses"].is_u64());
                *stats = expected["stats"].clone();
            }
            assert_eq!(actual, expected, "{path} {name}");
            checked += 1;
        }
    }
    assert!(checked >= 21, "only {checked} examples checked");
}

#[tokio::test]
async fn the_batch_example_gets_the_batch_answer_example() {
    let spec = spec();
    let lines = &spec["paths"]["/solve/batch"]["post"]["requestBody"]["content"];
    let body: String = lines["application/x-ndjson"]["example"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    let answers = &spec["components"]["responses"]["BatchAnswers"]["content"];
    let expected = answers["application/x-ndjson"]["example"].as_str().unwrap();
    let answer = post_raw(&app(), "/solve/batch", "application/x-ndjson", body).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let text = answer.text();
    assert_eq!(text.lines().count(), expected.lines().count(), "{text}");
    for (actual, expected) in text.lines().zip(expected.lines()) {
        let mut actual: Value = serde_json::from_str(actual).unwrap();
        let expected: Value = serde_json::from_str(expected).unwrap();
        // Timings vary; their presence does not.
        if let Some(elapsed) = actual.pointer_mut("/stats/elapsed_us") {
            assert!(elapsed.is_u64());
            *elapsed = expected["stats"]["elapsed_us"].clone();
        }
        assert_eq!(actual, expected);
    }
}

/// The response example called `name` of `operation`, with its status.
fn response_example(spec: &Value, operation: &Value, name: &str) -> Option<(u16, Value)> {
    operation["responses"]
        .as_object()?
        .iter()
        .find_map(|(status, response)| {
            let content = resolve(spec, response)["content"].as_object()?;
            content.values().find_map(|media| {
                let example = media["examples"].get(name)?;
                Some((status.parse().ok()?, example["value"].clone()))
            })
        })
}
