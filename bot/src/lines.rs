//! Reading lines with a bound: a line longer than allowed is cut where the bound
//! is reached and the rest of it is skipped without being held, so that a 100 MB
//! line on stdin costs a buffer, not 100 MB (`tavern basic`, `tavern npc play`, the
//! console).

use std::io::{BufRead, ErrorKind};

/// One line read by [`read_line`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The line without its `\n` (and `\r`), at most the bound's bytes.
    pub bytes: Vec<u8>,
    /// The line was longer than the bound; `bytes` is its beginning.
    pub cut: bool,
}

/// Reads one line of at most `max_bytes` bytes; `None` at the end of the input.
pub fn read_line(reader: &mut impl BufRead, max_bytes: usize) -> std::io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut cut = false;
    let mut read_any = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            break;
        }
        read_any = true;
        let (chunk, ends_line) = match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => (&buffer[..end], true),
            None => (buffer, false),
        };
        let room = max_bytes.saturating_sub(bytes.len());
        if chunk.len() > room {
            cut = true;
        }
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len() + usize::from(ends_line);
        reader.consume(used);
        if ends_line {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\r') && !cut {
        bytes.pop();
    }
    Ok(Some(Line { bytes, cut }))
}
