//! The playground page's files as HTTP serves them: types, a strict policy, relative links
//! and revalidation. What the page does is in `browser`.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};

use crate::helpers::{app, get, send};

#[tokio::test]
async fn the_page_is_served_with_a_strict_policy_and_relative_links() {
    let page = get(&app(), "/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(
        page.headers[header::CONTENT_TYPE],
        "text/html; charset=utf-8"
    );
    let policy = page.headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap();
    for directive in [
        "default-src 'none'",
        "script-src 'self'",
        "connect-src 'self'",
    ] {
        assert!(policy.contains(directive), "{policy}");
    }
    assert!(!policy.contains("unsafe"), "{policy}");
    assert_eq!(page.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");

    // Every file the page links to is relative (so a path prefix is kept) and served.
    let html = page.text();
    assert!(!html.contains("<script>") && !html.contains("style="));
    let links: Vec<&str> = html
        .split(['"'])
        .skip(1)
        .step_by(2)
        .filter(|value| {
            value.ends_with(".js") || value.ends_with(".css") || value.ends_with(".yaml")
        })
        .collect();
    assert_eq!(links, ["playground.css", "playground.js", "openapi.yaml"]);
    for (link, content_type) in [
        ("playground.css", "text/css; charset=utf-8"),
        ("playground.js", "text/javascript; charset=utf-8"),
    ] {
        let file = get(&app(), &format!("/{link}")).await;
        assert_eq!(file.status, StatusCode::OK, "{link}");
        assert_eq!(file.headers[header::CONTENT_TYPE], content_type);
        assert!(file.body.len() > 1000, "{link}");
    }
}

#[tokio::test]
async fn a_client_holding_the_current_version_gets_304() {
    for path in ["/", "/playground.js", "/playground.css"] {
        let first = get(&app(), path).await;
        assert_eq!(first.headers[header::CACHE_CONTROL], "no-cache");
        let tag = first.headers[header::ETAG].to_str().unwrap().to_owned();
        let revalidate = |held: String, method: Method| {
            Request::builder()
                .method(method)
                .uri(path)
                .header(header::IF_NONE_MATCH, held)
                .body(Body::empty())
                .unwrap()
        };
        for method in [Method::GET, Method::HEAD] {
            let held = send(&app(), revalidate(format!("\"old\", W/{tag}"), method)).await;
            assert_eq!(held.status, StatusCode::NOT_MODIFIED, "{path}");
            assert!(held.body.is_empty());
            assert_eq!(held.headers[header::ETAG], tag.as_str());
            // A length, which a 304 to HEAD keeps, must be the file's, or a cache would
            // take the file for empty.
            if let Some(length) = held.headers.get(header::CONTENT_LENGTH) {
                assert_eq!(length.to_str().unwrap(), first.body.len().to_string());
            }
        }
        let stale = send(&app(), revalidate("\"old\"".into(), Method::GET)).await;
        assert_eq!(stale.status, StatusCode::OK, "{path}");
        assert_eq!(stale.body, first.body);
    }
}
