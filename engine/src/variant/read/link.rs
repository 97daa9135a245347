//! What a user pastes, turned into f-puzzles JSON text: the JSON itself, its lz-string
//! text, an f-puzzles link (`?load=`), or a SudokuPad link that carries the same text.
//! Nothing is fetched: a link that needs another server is refused with the reason.

use super::{MAX_DOCUMENT_BYTES, VariantInputError};
use crate::variant::lz_string::decompress_from_base64;

/// The f-puzzles JSON text that `pasted` carries; errors are at `path`.
pub(super) fn document_text(pasted: &str, path: &str) -> Result<String, VariantInputError> {
    let refuse = |message: &str| VariantInputError::Link {
        path: path.to_owned(),
        message: message.to_owned(),
    };
    if pasted.len() > MAX_DOCUMENT_BYTES {
        return Err(VariantInputError::TooLarge {
            path: path.to_owned(),
        });
    }
    let text = pasted.trim();
    if text.starts_with('{') {
        return Ok(text.to_owned());
    }
    let payload = match link_parts(text) {
        None => text.to_owned(),
        Some((host, rest)) => payload_of_link(&host, rest).map_err(|why| refuse(&why))?,
    };
    let payload: String = percent_decoded(&payload)
        .ok_or_else(|| refuse("the link's percent-encoding is broken"))?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let json = decompress_from_base64(&payload).map_err(|error| {
        refuse(&format!(
            "not an f-puzzles document, its lz-string text or a link that carries it: {error}"
        ))
    })?;
    if !json.trim_start().starts_with('{') {
        return Err(refuse(
            "the text decodes to something other than an f-puzzles document",
        ));
    }
    Ok(json)
}

/// The lower-case host of a link and what follows it, or `None` for text that is no link.
fn link_parts(text: &str) -> Option<(String, &str)> {
    let rest = match text.split_once("://") {
        Some((scheme, rest))
            if scheme.eq_ignore_ascii_case("https") || scheme.eq_ignore_ascii_case("http") =>
        {
            rest
        }
        Some(_) => return Some((String::new(), "")),
        None if looks_like_host(text) => text,
        None => return None,
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some((rest[..end].to_ascii_lowercase(), &rest[end..]))
}

/// Whether `text` starts with a host name of a site that shares puzzles, written without
/// a scheme.
fn looks_like_host(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [
        "www.f-puzzles.com",
        "f-puzzles.com",
        "sudokupad.app",
        "beta.sudokupad.app",
        "app.crackingthecryptic.com",
    ]
    .iter()
    .any(|host| lower.starts_with(&format!("{host}/")) || lower.starts_with(&format!("{host}?")))
}

/// The payload of a link to `host` with `rest` after the host, or why there is none here.
fn payload_of_link(host: &str, rest: &str) -> Result<String, String> {
    match host {
        "f-puzzles.com" | "www.f-puzzles.com" => {
            let query = rest.split_once('?').map_or("", |(_, query)| query);
            let parameter = |name: &str| {
                query
                    .split('&')
                    .find_map(|pair| pair.strip_prefix(name))
                    .map(str::to_owned)
            };
            if let Some(load) = parameter("load=") {
                return Ok(load);
            }
            if parameter("id=").is_some() {
                return Err("an f-puzzles short link (`?id=`) needs a lookup on f-puzzles' server, which this service never makes; share the puzzle's `?load=` link".into());
            }
            Err("an f-puzzles link carries its puzzle after `?load=`".into())
        }
        "sudokupad.app" | "beta.sudokupad.app" | "app.crackingthecryptic.com" => {
            let path = rest.split(['?', '#']).next().unwrap_or_default();
            let path = path.trim_start_matches('/');
            let path = path.strip_prefix("sudoku/").unwrap_or(path);
            let path = path.strip_prefix("sudoku/").unwrap_or(path);
            if let Some(payload) = path
                .strip_prefix("fpuzzles")
                .or_else(|| path.strip_prefix("fpuz"))
            {
                return Ok(payload.to_owned());
            }
            if ["scl", "ctc", "scf"]
                .iter()
                .any(|prefix| path.starts_with(prefix))
            {
                return Err("this SudokuPad link is in SudokuPad's own format; only links that carry f-puzzles text (`fpuzzles…`, `fpuz…`) are read".into());
            }
            Err("a SudokuPad short link needs a lookup on SudokuPad's server, which this service never makes; share a link that carries f-puzzles text (`fpuzzles…`)".into())
        }
        "" => Err("only https links to f-puzzles and SudokuPad are read".into()),
        other => Err(format!(
            "`{other}` is not f-puzzles or SudokuPad; only their links are read, and nothing is fetched"
        )),
    }
}

/// `text` with `%XX` escapes undone, or `None` when one is broken.
fn percent_decoded(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = bytes.get(index + 1..index + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}
