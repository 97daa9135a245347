//! The playground page at `/`: a board that calls the API's own endpoints and shows each
//! call as `curl` and JSON. Plain HTML, CSS and JavaScript embedded in the binary; the page
//! loads nothing from anywhere else, and its links are relative, so it works behind a path
//! prefix.

use axum::http::header::{
    CACHE_CONTROL, CONTENT_LENGTH, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, IF_NONE_MATCH,
    REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// What the page may load and where it may send: its own origin only, no inline script or
/// style, no plugins, no framing.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'";

const PAGE: Asset = Asset::new(
    include_str!("playground/index.html"),
    "text/html; charset=utf-8",
);
const SCRIPT: Asset = Asset::new(
    include_str!("playground/playground.js"),
    "text/javascript; charset=utf-8",
);
const STYLE: Asset = Asset::new(
    include_str!("playground/playground.css"),
    "text/css; charset=utf-8",
);

/// `GET /`: the playground page.
pub async fn page(request: HeaderMap) -> Response {
    PAGE.serve(&request)
}

/// `GET /playground.js`: the page's script.
pub async fn script(request: HeaderMap) -> Response {
    SCRIPT.serve(&request)
}

/// `GET /playground.css`: the page's style sheet.
pub async fn style(request: HeaderMap) -> Response {
    STYLE.serve(&request)
}

/// A file of the page, with the tag that names its content.
struct Asset {
    body: &'static str,
    content_type: &'static str,
    tag: u64,
}

impl Asset {
    const fn new(body: &'static str, content_type: &'static str) -> Self {
        Asset {
            body,
            content_type,
            tag: fnv1a(body.as_bytes()),
        }
    }

    /// The file, or 304 when the request already holds this version. `no-cache` makes
    /// browsers ask each time, so a new release is seen at once, and costs a 304 otherwise.
    fn serve(&self, request: &HeaderMap) -> Response {
        let etag = format!("\"{:016x}\"", self.tag);
        let held = request
            .get_all(IF_NONE_MATCH)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(|tag| tag.trim().trim_start_matches("W/"))
            .any(|tag| tag == etag || tag == "*");
        let headers = [
            (
                ETAG,
                HeaderValue::from_str(&etag).expect("hex digits and quotes"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (CONTENT_SECURITY_POLICY, HeaderValue::from_static(POLICY)),
            (X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            (REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
        ];
        if held {
            // The file's own length: a 304 to HEAD keeps the header, and one of 0 would tell
            // a cache that the file is empty.
            let length = [(CONTENT_LENGTH, HeaderValue::from(self.body.len()))];
            (StatusCode::NOT_MODIFIED, headers, length).into_response()
        } else {
            (headers, [(CONTENT_TYPE, self.content_type)], self.body).into_response()
        }
    }
}

/// The 64-bit FNV-1a hash of `bytes`: a content tag computed at compile time.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut i = 0;
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}
