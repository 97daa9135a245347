//! JSON bodies: the extractor, which reads the body as axum's `Json` does, with every
//! rejection turned into an [`ApiError`] and the body required to be a JSON object, and
//! the response body.

use std::error::Error as _;
use std::fmt;
use std::marker::PhantomData;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::AppState;
use super::problem::ApiError;

/// The media type of JSON bodies, as clients nearly always send it.
const APPLICATION_JSON: &str = "application/json";

/// Room for the API's usual answers (a 9×9 solution and its stats take about 140 bytes),
/// so writing one does not grow the buffer.
const RESPONSE_CAPACITY: usize = 256;

/// A JSON body: as an extractor, a request body read into `T`, whose failures answer in
/// the API's error format; as a response, `T` written as `application/json`.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        // The plain media type skips parsing the header as a MIME type, and its body is read
        // here; axum's extractor checks and reads every other spelling (parameters, `+json`
        // suffixes) the same as before.
        let plain_json = request
            .headers()
            .get(CONTENT_TYPE)
            .is_some_and(|value| value.as_bytes() == APPLICATION_JSON.as_bytes());
        let limit = state.limits().body_limit_bytes;
        let read = if plain_json {
            let body = read_body(request.into_body(), limit).await?;
            Json::<Object<T>>::from_bytes(&body)
        } else {
            // Boxed: the rare path's future would double the size of every request's.
            Box::pin(Json::<Object<T>>::from_request(request, state)).await
        };
        match read {
            Ok(Json(Object(value))) => Ok(ApiJson(value)),
            Err(rejection) => Err(rejection_to_problem(rejection, limit)),
        }
    }
}

/// Reads a request body of at most `limit` bytes (`Limits::body_limit_bytes`, the same
/// number the router's `DefaultBodyLimit` gives axum's extractors), rejecting a piece that
/// would pass the limit before storing it. A small body comes as one piece, which is taken
/// as it is, without the limit wrapper and the list of pieces that axum's extractor builds.
async fn read_body(mut body: Body, limit: usize) -> Result<Bytes, ApiError> {
    let mut first = Bytes::new();
    let mut joined: Option<Vec<u8>> = None;
    let mut length = 0;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| {
            ApiError::InvalidJson(format!("cannot read the request body: {error}"))
        })?;
        // Trailers carry no JSON, and an empty piece adds nothing.
        let Ok(data) = frame.into_data() else {
            continue;
        };
        if data.is_empty() {
            continue;
        }
        length += data.len();
        if length > limit {
            return Err(ApiError::PayloadTooLarge { limit });
        }
        match &mut joined {
            None if first.is_empty() => first = data,
            None => {
                let mut buffer = Vec::with_capacity(length);
                buffer.extend_from_slice(&first);
                buffer.extend_from_slice(&data);
                joined = Some(buffer);
            }
            Some(buffer) => buffer.extend_from_slice(&data),
        }
    }
    Ok(joined.map_or(first, Bytes::from))
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(RESPONSE_CAPACITY);
        match serde_json::to_writer(&mut body, &self.0) {
            Ok(()) => (
                [(CONTENT_TYPE, HeaderValue::from_static(APPLICATION_JSON))],
                body,
            )
                .into_response(),
            Err(error) => ApiError::Internal {
                cause: format!("could not write the answer as JSON: {error}"),
            }
            .into_response(),
        }
    }
}

/// Maps axum's rejection by its status, so a rejection kind added by a later axum still
/// lands in the right class.
fn rejection_to_problem(rejection: JsonRejection, body_limit_bytes: usize) -> ApiError {
    match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge {
            limit: body_limit_bytes,
        },
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ApiError::UnsupportedMediaType,
        StatusCode::UNPROCESSABLE_ENTITY => ApiError::InvalidRequest(serde_message(&rejection)),
        // Syntax errors and bodies that could not be read at all.
        _ => ApiError::InvalidJson(serde_message(&rejection)),
    }
}

/// serde's own message (`grid: invalid type: …`, with the path to the culprit), without
/// the generic sentence axum puts in front of it.
fn serde_message(rejection: &JsonRejection) -> String {
    rejection
        .source()
        .map_or_else(|| rejection.body_text(), ToString::to_string)
}

/// `T` read from a JSON object only. serde's derived structs also accept an array of
/// their fields in order, which would make `["53..7…"]` a valid solve request.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ObjectVisitor(PhantomData))
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
    type Value = Object<T>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(Object)
    }
}
