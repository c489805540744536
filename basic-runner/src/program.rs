//! A loaded program: source split into numbered lines, parsed, compiled and verified.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use crate::ast::Line;
use crate::compiler::{self, Code};
use crate::error::{Diagnostic, LoadError, LoadErrorKind};
use crate::limits::Limits;
use crate::parser;
use crate::verify;

/// The most characters a program line may have, line number included: GW-BASIC's
/// line buffer. A longer line stops the load with `Line buffer overflow`, as it
/// stops GW-BASIC's `LOAD`. The bound also bounds how deep any syntax tree can
/// grow, so parsing and compiling a line never need more than a small stack.
pub const MAX_LINE_CHARS: usize = 255;

/// Refuses a source line longer than [`MAX_LINE_CHARS`], naming its line number
/// (or, without one, its place in the source).
fn check_line_length(raw: &str, index: usize) -> Result<(), LoadError> {
    let length = raw.chars().count();
    if length <= MAX_LINE_CHARS {
        return Ok(());
    }
    let digits: String = raw
        .trim_start_matches([' ', '\t'])
        .chars()
        .take_while(char::is_ascii_digit)
        .take(6)
        .collect();
    let number = digits.parse::<u32>().ok().filter(|n| *n <= 65529);
    let place = match number {
        Some(number) => format!("in {number}"),
        None => format!("on line {} of the source", index + 1),
    };
    Err(LoadError::new(
        LoadErrorKind::LineTooLong,
        number,
        format!(
            "Line buffer overflow {place}: the line is {length} characters, \
             a line holds at most {MAX_LINE_CHARS}"
        ),
    ))
}

/// A compiled, verified, immutable program. It is `Send + Sync`: share it between
/// sessions with an `Arc`.
#[derive(Debug, Clone)]
pub struct Program {
    pub(crate) code: Code,
    diagnostics: Vec<Diagnostic>,
    hash: String,
    line_count: usize,
    /// Numeric literals beyond their type's range: GW-BASIC prints `Overflow` for
    /// each while it loads the program, and a session starts with those lines.
    load_overflows: usize,
}

impl Program {
    /// Loads a program: every line is compiled; lines that fail to parse become
    /// `Syntax error in N` at run time (see [`Program::diagnostics`]). Refused
    /// statements (file and device I/O, `PEEK`/`POKE`, graphics, sound, …) and the
    /// size limits fail the load.
    pub fn load(source: &str, limits: &Limits) -> Result<Program, LoadError> {
        if source.len() > limits.max_program_bytes {
            return Err(LoadError::new(
                LoadErrorKind::TooLarge,
                None,
                format!(
                    "program is {} bytes; the limit is {}",
                    source.len(),
                    limits.max_program_bytes
                ),
            ));
        }
        let mut lines: BTreeMap<u32, Vec<char>> = BTreeMap::new();
        let mut starts: BTreeMap<u32, usize> = BTreeMap::new();
        for (index, raw) in source.lines().enumerate() {
            let raw = raw.trim_end_matches(['\r', '\u{1a}']);
            check_line_length(raw, index)?;
            let text: Vec<char> = raw
                .chars()
                .map(|c| if c == '\t' { ' ' } else { c })
                .collect();
            let first = text.iter().position(|c| *c != ' ');
            let Some(first) = first else {
                continue;
            };
            let digits: String = text
                .iter()
                .skip(first)
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if digits.is_empty() {
                return Err(LoadError::new(
                    LoadErrorKind::MissingLineNumber,
                    None,
                    format!("line {} of the source has no line number", index + 1),
                ));
            }
            let number: u32 = match digits.parse() {
                Ok(n) if n <= 65529 => n,
                _ => {
                    return Err(LoadError::new(
                        LoadErrorKind::BadLineNumber,
                        None,
                        format!(
                            "line number {digits} on line {} of the source is above 65529",
                            index + 1
                        ),
                    ));
                }
            };
            let mut start = first + digits.len();
            if text.iter().skip(start).all(|c| *c == ' ') {
                // a line number alone deletes that line, as when typed into GW-BASIC
                lines.remove(&number);
                starts.remove(&number);
                continue;
            }
            // GW-BASIC drops the one blank after the line number
            if text.get(start) == Some(&' ') {
                start += 1;
            }
            lines.insert(number, text.get(start..).unwrap_or_default().to_vec());
            starts.insert(number, start + 1);
            if lines.len() > limits.max_program_lines {
                return Err(LoadError::new(
                    LoadErrorKind::TooManyLines,
                    Some(number),
                    format!("program has more than {} lines", limits.max_program_lines),
                ));
            }
        }
        let mut load_overflows = 0;
        let parsed: Vec<Line> = lines
            .iter()
            .map(|(&number, text)| {
                let first_col = starts.get(&number).copied().unwrap_or(1);
                let parsed = parser::parse_line(text, first_col);
                load_overflows += parsed.overflows;
                Line {
                    number,
                    stmts: parsed.stmts,
                }
            })
            .collect();
        let compiled = compiler::compile(&parsed);
        if let Some(&(line, kw)) = compiled.refusals.first() {
            return Err(LoadError::new(
                LoadErrorKind::Refused,
                Some(line),
                format!(
                    "{} is not allowed here ({}) in {line}",
                    kw.text(),
                    parser::refusal_reason(kw)
                ),
            ));
        }
        if let Err(error) = verify::verify(&compiled.code) {
            let line = crate::vm::Machine::line_of(&compiled.code, error.pc as u32);
            return Err(LoadError::new(
                LoadErrorKind::Internal,
                line,
                format!(
                    "internal compiler error: {} (pc {})",
                    error.message, error.pc
                ),
            ));
        }
        let hash = Sha256::digest(source.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Ok(Program {
            code: compiled.code,
            diagnostics: compiled.diagnostics,
            hash,
            line_count: lines.len(),
            load_overflows,
        })
    }

    /// Every syntax error of the program, one per broken line, in line order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The hex SHA-256 digest of the source, which snapshots record.
    pub fn hash(&self) -> String {
        self.hash.clone()
    }

    /// How many numeric literals lie beyond their type's range (`1E39`): GW-BASIC
    /// prints `Overflow` for each when it loads the program and uses the largest
    /// number; a [`crate::Session`]'s output starts with those lines.
    pub fn load_overflows(&self) -> usize {
        self.load_overflows
    }

    /// The number of program lines.
    pub fn line_count(&self) -> usize {
        self.line_count
    }

    /// Whether the program uses the `RECORD` extension statement.
    pub fn uses_records(&self) -> bool {
        self.code
            .ops
            .iter()
            .any(|op| matches!(op, crate::op::Op::Ext(crate::op::Ext::Record(_))))
    }

    /// A listing of the bytecode, one instruction a line, for debugging.
    pub fn disassemble(&self) -> String {
        let mut text = String::new();
        let mut line_iter = self.code.lines.iter().peekable();
        for (pc, op) in self.code.ops.iter().enumerate() {
            while let Some(&&(start, line)) = line_iter.peek() {
                if start as usize > pc {
                    break;
                }
                text.push_str(&format!("{line}:\n"));
                line_iter.next();
            }
            text.push_str(&format!("  {pc:5} {op:?}\n"));
        }
        text
    }
}
