//! How arrays are written into a snapshot: their elements as one deflated,
//! base64-encoded block instead of a JSON list, so that a session that fills its
//! memory limit is a few hundred kilobytes to a few megabytes of text, not tens.
//!
//! Numbers are little-endian 16-bit integers, singles or doubles, the narrowest
//! that holds every element of the array exactly (untouched elements are 0,
//! which deflate folds away); strings are a 2-byte length and their bytes. Snapshot version 1 wrote `"data": {"Num": [..]}`;
//! that form is still read.

use std::io::{Read, Write};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cp437::{self, Ch};
use crate::vm::{Array, ArrayData};

/// The most bytes one array may unpack to, whatever its bounds claim: sixteen
/// times the default memory limit, so an edited snapshot cannot make a restore
/// allocate without end.
const MAX_UNPACKED_BYTES: usize = 256 * 1024 * 1024;

/// Set in a packed string's length when its characters take four bytes each.
const WIDE_STRING: u16 = 0x8000;

/// Deflate's fastest level: snapshots are written after every answer, and the
/// elements of a BASIC array (zeros, singles) compress about as well at level 1.
const LEVEL: u32 = 1;

#[derive(Serialize)]
struct PackedOut<'a> {
    bounds: &'a [u16],
    base: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    nums: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    strs: Option<String>,
}

#[derive(Deserialize)]
struct PackedIn {
    bounds: Vec<u16>,
    base: u8,
    #[serde(default)]
    nums: Option<String>,
    #[serde(default)]
    strs: Option<String>,
    /// Version 1's plain list.
    #[serde(default)]
    data: Option<ArrayData>,
}

impl Serialize for Array {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (nums, strs) = match &self.data {
            ArrayData::Num(values) => (Some(pack(&num_bytes(values))), None),
            ArrayData::Str(values) => (None, Some(pack(&str_bytes(values)))),
        };
        PackedOut {
            bounds: &self.bounds,
            base: self.base,
            nums,
            strs,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Array {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let packed = PackedIn::deserialize(deserializer)?;
        let elements = packed
            .bounds
            .iter()
            .try_fold(1usize, |acc, &bound| {
                acc.checked_mul((usize::from(bound) + 1).checked_sub(usize::from(packed.base))?)
            })
            .filter(|&n| n <= MAX_UNPACKED_BYTES / 8)
            .ok_or_else(|| D::Error::custom("array bounds out of range"))?;
        let data = match (packed.nums, packed.strs, packed.data) {
            (Some(text), None, None) => {
                let bytes = unpack(&text, 1 + elements * 8).map_err(D::Error::custom)?;
                ArrayData::Num(nums_from(&bytes, elements).map_err(D::Error::custom)?)
            }
            (None, Some(text), None) => {
                let bytes = unpack(&text, elements * (2 + 4 * 255)).map_err(D::Error::custom)?;
                ArrayData::Str(strs_from(&bytes, elements).map_err(D::Error::custom)?)
            }
            (None, None, Some(data)) => data,
            _ => {
                return Err(D::Error::custom(
                    "an array needs exactly one of nums, strs, data",
                ));
            }
        };
        Ok(Array {
            bounds: packed.bounds,
            base: packed.base,
            data,
        })
    }
}

/// The elements in the narrowest form that holds each exactly, behind a byte
/// that says which: 2 for 16-bit integers (`%` arrays, counters), 4 for singles
/// (the default type), 8 for doubles.
fn num_bytes(values: &[f64]) -> Vec<u8> {
    let fits_int = |v: &f64| {
        v.fract() == 0.0 && (-32768.0..=32767.0).contains(v) && !(*v == 0.0 && v.is_sign_negative())
    };
    let fits_single = |v: &f64| f64::from(*v as f32).to_bits() == v.to_bits();
    if values.iter().all(fits_int) {
        let mut bytes = vec![2u8];
        bytes.extend(values.iter().flat_map(|&v| (v as i16).to_le_bytes()));
        bytes
    } else if values.iter().all(fits_single) {
        let mut bytes = vec![4u8];
        bytes.extend(values.iter().flat_map(|&v| (v as f32).to_le_bytes()));
        bytes
    } else {
        let mut bytes = vec![8u8];
        bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
        bytes
    }
}

/// Each string as its length in two bytes and its code page 437 bytes; a
/// string holding a character past code page 437 has [`WIDE_STRING`] set in its
/// length and four bytes a character.
fn str_bytes(values: &[Vec<Ch>]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for value in values {
        // BASIC strings hold at most 255 characters; the length is kept in two anyway
        let len = value.len().min(usize::from(!WIDE_STRING));
        let value = value.get(..len).unwrap_or(value);
        let wide = value.iter().any(|&c| c > 255);
        let flag = if wide { WIDE_STRING } else { 0 };
        bytes.extend_from_slice(&(len as u16 | flag).to_le_bytes());
        for &c in value {
            if wide {
                bytes.extend_from_slice(&c.to_le_bytes());
            } else {
                bytes.push(c as u8);
            }
        }
    }
    bytes
}

fn pack(bytes: &[u8]) -> String {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::new(LEVEL));
    // writing into a Vec cannot fail
    let compressed = encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .unwrap_or_default();
    BASE64.encode(compressed)
}

/// Decodes and inflates at most `limit` bytes (a longer stream is an error).
fn unpack(text: &str, limit: usize) -> Result<Vec<u8>, String> {
    let compressed = BASE64
        .decode(text)
        .map_err(|e| format!("array data: {e}"))?;
    let limit = limit.min(MAX_UNPACKED_BYTES);
    let mut bytes = Vec::new();
    DeflateDecoder::new(compressed.as_slice())
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("array data: {e}"))?;
    if bytes.len() > limit {
        return Err("array data longer than its bounds".to_string());
    }
    Ok(bytes)
}

fn nums_from(bytes: &[u8], elements: usize) -> Result<Vec<f64>, String> {
    let Some((&width, body)) = bytes.split_first() else {
        return Err("array data is empty".to_string());
    };
    let width = usize::from(width);
    if !matches!(width, 2 | 4 | 8) || body.len() != elements * width {
        return Err("array data does not fit its bounds".to_string());
    }
    Ok(body
        .chunks_exact(width)
        .map(|chunk| match *chunk {
            [a, b] => f64::from(i16::from_le_bytes([a, b])),
            [a, b, c, d] => f64::from(f32::from_le_bytes([a, b, c, d])),
            [a, b, c, d, e, f, g, h] => f64::from_le_bytes([a, b, c, d, e, f, g, h]),
            _ => 0.0,
        })
        .collect())
}

fn strs_from(bytes: &[u8], elements: usize) -> Result<Vec<Vec<Ch>>, String> {
    let mut values = Vec::with_capacity(elements.min(bytes.len() / 2));
    let mut rest = bytes;
    while let [low, high, tail @ ..] = rest {
        let len = u16::from_le_bytes([*low, *high]);
        let wide = len & WIDE_STRING != 0;
        let len = usize::from(len & !WIDE_STRING);
        let size = if wide { len * 4 } else { len };
        let (value, tail) = tail.split_at_checked(size).ok_or("array data cut short")?;
        values.push(if wide {
            value
                .chunks_exact(4)
                .map(|c| Ch::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        } else {
            cp437::from_bytes(value)
        });
        rest = tail;
    }
    if !rest.is_empty() || values.len() != elements {
        return Err("array data does not fit its bounds".to_string());
    }
    Ok(values)
}
