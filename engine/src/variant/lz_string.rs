//! lz-string's `compressToBase64` and its decoding: the text f-puzzles puts after
//! `?load=`.

use std::collections::{HashMap, HashSet};

use thiserror::Error;

/// The most UTF-16 units a decoded document may have (and its dictionary hold in all): 25
/// times the largest document of the corpus (9,770 characters), low enough that a few
/// kilobytes of hostile text cannot buy more than a few megabytes of JSON to read.
const MAX_UNITS: usize = 1 << 18;

/// Why a text is not lz-string's base64.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LzError {
    /// A character outside lz-string's base64 alphabet.
    #[error("`{0}` is not a character of lz-string's base64 text")]
    Character(char),
    /// The text ends, or refers to an entry, where no valid text could.
    #[error("the text is not lz-string's compression of anything")]
    Corrupt,
    /// The text decodes to more than the limit.
    #[error("the text decodes to more than {MAX_UNITS} characters")]
    TooLarge,
}

/// The value of a base64 character in lz-string's alphabet.
fn value_of(symbol: u8) -> Option<u32> {
    match symbol {
        b'A'..=b'Z' => Some(u32::from(symbol - b'A')),
        b'a'..=b'z' => Some(u32::from(symbol - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(symbol - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        b'=' => Some(64),
        _ => None,
    }
}

/// Reads the text six bits at a time, high bit first.
struct Bits<'a> {
    text: &'a [u8],
    index: usize,
    value: u32,
    position: u32,
}

impl Bits<'_> {
    fn read(&mut self, count: u32) -> Result<u32, LzError> {
        let mut bits = 0;
        for shift in 0..count {
            if self.position == 0 {
                let &symbol = self.text.get(self.index).ok_or(LzError::Corrupt)?;
                self.value = value_of(symbol).ok_or(LzError::Character(char::from(symbol)))?;
                self.index += 1;
                self.position = 32;
            }
            if self.value & self.position != 0 {
                bits |= 1 << shift;
            }
            self.position >>= 1;
        }
        Ok(bits)
    }
}

/// The text that `compressToBase64` made `text` from.
pub fn decompress_from_base64(text: &str) -> Result<String, LzError> {
    if let Some(bad) = text
        .chars()
        .find(|&c| !c.is_ascii() || value_of(c as u8).is_none())
    {
        return Err(LzError::Character(bad));
    }
    let mut bits = Bits {
        text: text.as_bytes(),
        index: 0,
        value: 0,
        position: 0,
    };
    let mut dictionary: Vec<Vec<u16>> = vec![Vec::new(); 3];
    let mut held = 0usize;
    let mut enlarge_in: u64 = 4;
    let mut width = 3;
    let first = match bits.read(2)? {
        0 => bits.read(8)? as u16,
        1 => bits.read(16)? as u16,
        _ => return Ok(String::new()),
    };
    dictionary.push(vec![first]);
    let mut previous = vec![first];
    let mut result = vec![first];
    loop {
        let mut code = bits.read(width)? as usize;
        match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 })? as u16;
                dictionary.push(vec![unit]);
                code = dictionary.len() - 1;
                enlarge_in -= 1;
            }
            2 => return String::from_utf16(&result).map_err(|_| LzError::Corrupt),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1 << width;
            width += 1;
        }
        let entry = match dictionary.get(code) {
            Some(entry) if code >= 3 => entry.clone(),
            None if code == dictionary.len() => {
                let mut entry = previous.clone();
                entry.push(previous[0]);
                entry
            }
            _ => return Err(LzError::Corrupt),
        };
        result.extend_from_slice(&entry);
        let mut added = previous;
        added.push(entry[0]);
        held += added.len();
        if result.len() > MAX_UNITS || held > MAX_UNITS {
            return Err(LzError::TooLarge);
        }
        dictionary.push(added);
        enlarge_in -= 1;
        previous = entry;
        if enlarge_in == 0 {
            enlarge_in = 1 << width;
            width += 1;
        }
        if width > 24 {
            return Err(LzError::Corrupt);
        }
    }
}

/// Writes bits into lz-string's base64 text, six to a character, low bit of each value
/// first.
struct BitWriter {
    text: String,
    value: u8,
    position: u32,
}

impl BitWriter {
    fn write(&mut self, count: u32, mut value: u32) {
        for _ in 0..count {
            self.value = (self.value << 1) | (value & 1) as u8;
            value >>= 1;
            if self.position == 5 {
                self.text
                    .push(char::from(ALPHABET[usize::from(self.value)]));
                self.value = 0;
                self.position = 0;
            } else {
                self.position += 1;
            }
        }
    }
}

/// lz-string's base64 alphabet.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// lz-string's `compressToBase64` of `text`: what f-puzzles puts after `?load=`.
pub fn compress_to_base64(text: &str) -> String {
    let mut compressor = Compressor {
        dictionary: HashMap::new(),
        to_create: HashSet::new(),
        out: BitWriter {
            text: String::new(),
            value: 0,
            position: 0,
        },
        enlarge_in: 2,
        width: 2,
    };
    let mut w: Vec<u16> = Vec::new();
    for unit in text.encode_utf16() {
        let c = vec![unit];
        if !compressor.dictionary.contains_key(&c) {
            compressor.add(c.clone());
            compressor.to_create.insert(c.clone());
        }
        let mut wc = w.clone();
        wc.push(unit);
        if compressor.dictionary.contains_key(&wc) {
            w = wc;
        } else {
            compressor.emit(&w);
            compressor.add(wc);
            w = c;
        }
    }
    if !w.is_empty() {
        compressor.emit(&w);
    }
    let mut out = compressor.out;
    out.write(compressor.width, 2);
    loop {
        out.write(1, 0);
        if out.position == 0 {
            break;
        }
    }
    let padding = (4 - out.text.len() % 4) % 4;
    out.text.push_str(&"=".repeat(padding));
    out.text
}

/// The state of [`compress_to_base64`].
struct Compressor {
    dictionary: HashMap<Vec<u16>, u32>,
    /// Single units whose entry is still to be written out.
    to_create: HashSet<Vec<u16>>,
    out: BitWriter,
    enlarge_in: u32,
    width: u32,
}

impl Compressor {
    /// Adds an entry with the next code (0 to 2 mean a new 8-bit unit, a new 16-bit unit
    /// and the end).
    fn add(&mut self, entry: Vec<u16>) {
        let code = self.dictionary.len() as u32 + 3;
        self.dictionary.insert(entry, code);
    }

    /// Counts down to the next widening of the codes.
    fn count_down(&mut self) {
        self.enlarge_in -= 1;
        if self.enlarge_in == 0 {
            self.enlarge_in = 1 << self.width;
            self.width += 1;
        }
    }

    /// Writes the code of `w`, writing its unit first when it is new.
    fn emit(&mut self, w: &[u16]) {
        if self.to_create.remove(w) {
            let unit = u32::from(w[0]);
            if unit < 256 {
                self.out.write(self.width, 0);
                self.out.write(8, unit);
            } else {
                self.out.write(self.width, 1);
                self.out.write(16, unit);
            }
            self.count_down();
        } else {
            self.out.write(self.width, self.dictionary[w]);
        }
        self.count_down();
    }
}
