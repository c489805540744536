//! A loaded program: source split into numbered lines, parsed, compiled and verified.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use sha2::{Digest, Sha256};

use crate::ast::Line;
use crate::code::{Code, InputTarget};
use crate::compiler;
use crate::error::{Diagnostic, LoadError, LoadErrorDetail, Refusal};
use crate::limits::Limits;
use crate::op::{Slot, Written};
use crate::optimize;
use crate::parser;
use crate::segment;
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
        LoadErrorDetail::LineTooLong {
            chars: length,
            max: MAX_LINE_CHARS,
            source_line: index + 1,
        },
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
        Program::load_inner(source, limits, None)
    }

    /// [`Program::load`] with a flag the host raises (from another thread, at its
    /// deadline) when it no longer wants the program: the load stops at its next
    /// line (read or parsed) or phase with [`LoadErrorKind::Cancelled`].
    ///
    /// [`LoadErrorKind::Cancelled`]: crate::LoadErrorKind::Cancelled
    pub fn load_cancellable(
        source: &str,
        limits: &Limits,
        cancel: &AtomicBool,
    ) -> Result<Program, LoadError> {
        Program::load_inner(source, limits, Some(cancel))
    }

    fn load_inner(
        source: &str,
        limits: &Limits,
        cancel: Option<&AtomicBool>,
    ) -> Result<Program, LoadError> {
        // Every phase is linear in the program (bounded by its size): the flag is read
        // per line and between phases.
        let cancelled = || {
            cancel
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
                .then(|| {
                    LoadError::new(
                        LoadErrorDetail::Cancelled,
                        None,
                        "the load was cancelled".to_string(),
                    )
                })
        };
        if source.len() > limits.max_program_bytes {
            return Err(LoadError::new(
                LoadErrorDetail::TooLarge {
                    bytes: source.len(),
                    limit: limits.max_program_bytes,
                },
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
            if let Some(error) = cancelled() {
                return Err(error);
            }
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
                    LoadErrorDetail::MissingLineNumber {
                        source_line: index + 1,
                    },
                    None,
                    format!("line {} of the source has no line number", index + 1),
                ));
            }
            let number: u32 = match digits.parse() {
                Ok(n) if n <= 65529 => n,
                _ => {
                    return Err(LoadError::new(
                        LoadErrorDetail::BadLineNumber {
                            digits: digits.clone(),
                            source_line: index + 1,
                        },
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
                    LoadErrorDetail::TooManyLines {
                        limit: limits.max_program_lines,
                    },
                    Some(number),
                    format!("program has more than {} lines", limits.max_program_lines),
                ));
            }
        }
        let mut load_overflows = 0;
        let mut parsed: Vec<Line> = Vec::with_capacity(lines.len());
        for (&number, text) in &lines {
            if let Some(error) = cancelled() {
                return Err(error);
            }
            let first_col = starts.get(&number).copied().unwrap_or(1);
            let line = parser::parse_line(text, first_col);
            load_overflows += line.overflows;
            parsed.push(Line {
                number,
                stmts: line.stmts,
            });
        }
        let mut compiled = compiler::compile(&parsed);
        if let Some(error) = cancelled() {
            return Err(error);
        }
        let refusals: Vec<Refusal> = compiled
            .refusals
            .iter()
            .map(|&(line, kw)| Refusal {
                line,
                keyword: kw.text(),
                category: parser::refusal_category(kw),
            })
            .collect();
        if let Some(first) = refusals.first() {
            // Every refused statement is named, so that an author fixes them at once.
            let message = refusals
                .iter()
                .map(|refusal| {
                    format!(
                        "{} is not allowed here ({}) in {}",
                        refusal.keyword,
                        refusal.category.describe(),
                        refusal.line
                    )
                })
                .collect::<Vec<_>>()
                .join("; ");
            let mut error = LoadError::new(
                LoadErrorDetail::Refused {
                    keyword: first.keyword,
                    category: first.category,
                },
                Some(first.line),
                message,
            );
            error.refusals = refusals;
            return Err(error);
        }
        optimize::optimize(&mut compiled.code);
        compiled.code.text_bytes = segment::program_bytes(lines.values());
        let code = &compiled.code;
        let all_scalar_bytes = (0..code.num_vars.len())
            .map(|slot| code.num_var_bytes(slot))
            .chain((0..code.str_vars.len()).map(|slot| code.str_var_bytes(slot)))
            .chain((0..code.fn_names.len()).map(|func| code.fn_entry_bytes(func)))
            .sum();
        compiled.code.all_scalar_bytes = all_scalar_bytes;
        compiled.code.stored_scalars = stored_scalars(&compiled.code);
        compiled.code.stored_strings = stored_strings(&compiled.code);
        if let Err(error) = verify::verify(&compiled.code) {
            let line = compiled.code.line_of(error.pc as u32);
            return Err(LoadError::new(
                LoadErrorDetail::Internal,
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

    /// The program's line numbers, ascending.
    pub fn line_numbers(&self) -> Vec<u32> {
        let mut lines: Vec<u32> = self.code.lines.iter().map(|&(_, line)| line).collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    /// The variables the program gives a value somewhere (assignment, `INPUT`,
    /// `READ`, `FOR`, `SWAP`, `MID$`…): scalars by name with their type sign (`N$`,
    /// `A%`, `X`), arrays by name with `()` (`S()`, `C$()`). Sorted, no repeats.
    pub fn assigned_variables(&self) -> Vec<String> {
        use crate::code::InputTarget;
        use crate::op::{ArrayId, Slot, Written};
        let code = &self.code;
        let num = |Slot(slot): Slot| {
            code.num_vars
                .get(slot as usize)
                .map(|(name, _)| name.clone())
        };
        let str_var = |Slot(slot): Slot| code.str_vars.get(slot as usize).cloned();
        let array = |ArrayId(id): ArrayId| {
            code.arrays
                .get(id as usize)
                .map(|info| format!("{}()", info.name))
        };
        let mut names: Vec<String> = Vec::new();
        for op in &code.ops {
            let name = match op.written() {
                Some(Written::Num(slot)) => num(slot),
                Some(Written::Str(slot)) => str_var(slot),
                Some(Written::Elem(id)) => array(id),
                None => None,
            };
            names.extend(name);
        }
        for info in &code.fors {
            names.extend(num(info.var));
        }
        for form in &code.inputs {
            for target in &form.targets {
                let name = match *target {
                    InputTarget::Num(slot, _) => num(slot),
                    InputTarget::Str(slot) => str_var(slot),
                    InputTarget::ElemNum(id, ..) | InputTarget::ElemStr(id, _) => array(id),
                };
                names.extend(name);
            }
        }
        names.retain(|name| !name.starts_with('~'));
        names.sort();
        names.dedup();
        names
    }

    /// The string variables `INPUT` fills right after a prompt that contains `word`
    /// (case-insensitive), in the program's order: the `INPUT`'s own prompt, or a
    /// string constant `PRINT`ed just before it (`PRINT "NAME";: INPUT N$`). How a
    /// host finds the variable a listing asked the player's name into.
    pub fn inputs_prompted(&self, word: &str) -> Vec<String> {
        use crate::code::InputTarget;
        use crate::op::{ConstId, Ext, Op, TableId};
        let word = word.to_ascii_uppercase();
        let says = |bytes: &[crate::cp437::Ch]| {
            crate::cp437::decode(bytes)
                .to_ascii_uppercase()
                .contains(&word)
        };
        let code = &self.code;
        let mut names = Vec::new();
        for (at, op) in code.ops.iter().enumerate() {
            let Op::Ext(Ext::Input(TableId(form_id))) = *op else {
                continue;
            };
            let Some(form) = code.inputs.get(form_id as usize) else {
                continue;
            };
            // The few instructions before an INPUT (back to an earlier one) print
            // what the player sees just before it.
            let printed = code.ops[at.saturating_sub(4)..at]
                .iter()
                .rev()
                .take_while(|op| !matches!(op, Op::Ext(Ext::Input(_))))
                .any(|op| match *op {
                    Op::Str(ConstId(k)) => {
                        code.strings.get(k as usize).is_some_and(|text| says(text))
                    }
                    _ => false,
                });
            if !says(&form.prompt) && !printed {
                continue;
            }
            for target in &form.targets {
                if let InputTarget::Str(crate::op::Slot(slot)) = *target
                    && let Some(name) = code.str_vars.get(slot as usize)
                    && !names.contains(name)
                {
                    names.push(name.clone());
                }
            }
        }
        names
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

/// The program's string scalars some instruction stores to, each once.
fn stored_strings(code: &Code) -> Vec<u32> {
    let mut slots: Vec<u32> = code
        .ops
        .iter()
        .filter_map(|op| match op.written() {
            Some(Written::Str(Slot(slot))) if code.is_program_str(slot as usize) => Some(slot),
            _ => None,
        })
        .collect();
    slots.sort_unstable();
    slots.dedup();
    slots
}

/// The numeric scalars some instruction or `INPUT` stores to, each once.
fn stored_scalars(code: &Code) -> Vec<u32> {
    let by_ops = code.ops.iter().filter_map(|op| match op.written() {
        Some(Written::Num(Slot(slot))) => Some(slot),
        _ => None,
    });
    let by_input = code.inputs.iter().flat_map(|form| &form.targets);
    let by_input = by_input.filter_map(|target| match target {
        InputTarget::Num(Slot(slot), _) => Some(*slot),
        _ => None,
    });
    let mut slots: Vec<u32> = by_ops.chain(by_input).collect();
    slots.sort_unstable();
    slots.dedup();
    slots
}
