//! The compiled program: bytecode and the side tables its instructions index.
//!
//! `compiler` writes a `Code`, `optimize` rewrites it in place, `verify` checks
//! it and `vm` runs it; none of them imports another, all of them import this
//! module and `op`.

use crate::cp437::Ch;
use crate::error::ErrorCode;
use crate::number::NumTy;
use crate::op::*;

/// Where an `INPUT` value goes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum InputTarget {
    Num(Slot, NumTy),
    Str(Slot),
    ElemNum(ArrayId, u8, NumTy),
    ElemStr(ArrayId, u8),
}

impl InputTarget {
    pub(crate) fn dims(&self) -> u32 {
        match self {
            InputTarget::ElemNum(_, d, _) | InputTarget::ElemStr(_, d) => u32::from(*d),
            _ => 0,
        }
    }

    /// What `INPUT` reads for this target (a double's number is read as one).
    pub(crate) fn kind(&self) -> crate::input::Target {
        use crate::input::Target;
        match self {
            InputTarget::Str(_) | InputTarget::ElemStr(..) => Target::Str,
            InputTarget::Num(_, NumTy::Dbl) | InputTarget::ElemNum(_, _, NumTy::Dbl) => Target::Dbl,
            InputTarget::Num(..) | InputTarget::ElemNum(..) => Target::Num,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct InputForm {
    pub(crate) prompt: Vec<Ch>,
    /// `LINE INPUT`: the whole line into one string.
    pub(crate) whole_line: bool,
    /// `INPUT;`: the user's Enter does not end the output line.
    pub(crate) keep_line: bool,
    pub(crate) targets: Vec<InputTarget>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ForInfo {
    pub(crate) var: Slot,
    pub(crate) ty: NumTy,
    /// Where to go when the body is skipped, or the error the `FOR` raises (as
    /// GW-BASIC, which looks for the matching `NEXT` whenever a `FOR` runs), with
    /// the line to name when it is not the `FOR`'s own.
    pub(crate) skip: Result<Pc, (ErrorCode, Option<u32>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WhileInfo {
    pub(crate) start: Pc,
    pub(crate) exit: Result<Pc, ErrorCode>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OnInfo {
    pub(crate) targets: Vec<Option<Pc>>,
    pub(crate) gosub: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Param {
    Num(Slot, NumTy),
    Str(Slot),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DefInfo {
    pub(crate) func: u32,
    /// The parameters as typed where the `DEF` runs (the variables it makes).
    pub(crate) params: Vec<Param>,
    /// The parameters and body as typed by each table the function's calls
    /// can meet (GW-BASIC types them at each call), by `CallInfo::variant`.
    pub(crate) variants: Vec<(Vec<Param>, Pc)>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CallInfo {
    pub(crate) func: u32,
    /// For each argument: is it a string?
    pub(crate) arg_is_str: Vec<bool>,
    pub(crate) result_is_str: bool,
    /// Which of the definition's `variants` the `DEF` types here select.
    pub(crate) variant: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DataEntry {
    pub(crate) line: u32,
    pub(crate) text: Vec<Ch>,
    /// Written in quotes: a string only, `READ` into a number is `Syntax error`.
    pub(crate) quoted: bool,
    /// Text after the closing quote: `Syntax error` for any `READ`.
    pub(crate) stray_after_quote: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ArrayInfo {
    pub(crate) name: String,
    pub(crate) is_str: bool,
}

/// Everything the VM needs to run a program.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Code {
    pub(crate) ops: Vec<Op>,
    /// (first pc, BASIC line), sorted by pc.
    pub(crate) lines: Vec<(u32, u32)>,
    pub(crate) strings: Vec<Vec<Ch>>,
    /// Display name of each numeric slot (with its type sign) and its type.
    pub(crate) num_vars: Vec<(String, NumTy)>,
    pub(crate) str_vars: Vec<String>,
    pub(crate) arrays: Vec<ArrayInfo>,
    pub(crate) fors: Vec<ForInfo>,
    pub(crate) whiles: Vec<WhileInfo>,
    pub(crate) ons: Vec<OnInfo>,
    pub(crate) inputs: Vec<InputForm>,
    pub(crate) fn_names: Vec<String>,
    pub(crate) defs: Vec<DefInfo>,
    pub(crate) calls: Vec<CallInfo>,
    /// For each `Ext::DefCase`: its letters (bit 0 is A) and, for each copy,
    /// their type codes, two bits each, the first letter lowest.
    pub(crate) def_cases: Vec<(u32, Vec<u64>)>,
    pub(crate) data: Vec<DataEntry>,
    /// Constants of fused branches.
    pub(crate) consts: Vec<f64>,
    /// Every statement's code as (start, end, next), for `RESUME` (start) and
    /// `RESUME NEXT` (next: the end, but for an `IF` where the first `:` of
    /// its text is). A branch's first statement has none: it is its `IF`'s.
    pub(crate) stmts: Vec<(u32, u32, u32)>,
    /// Bytes of GW-BASIC's tokenized program text (`segment.rs`).
    pub(crate) text_bytes: usize,
    /// Bytes GW-BASIC's table would hold were every scalar variable made.
    pub(crate) all_scalar_bytes: usize,
    /// The numeric scalars an instruction or an `INPUT` stores to: those a
    /// run can still make (see `dispatch.rs`, `run`).
    pub(crate) stored_scalars: Vec<u32>,
    /// The program's string scalars an instruction stores to (`INPUT`'s are
    /// made outside the run loop, unchecked).
    pub(crate) stored_strings: Vec<u32>,
    /// The `END` placed after the program's last line: running into it is
    /// GW-BASIC's end of the text (`PRGEND`), not an `END` statement.
    pub(crate) text_end: u32,
}

/// The compiler's own variables (`SWAP`'s `~SWAP$`) are named so that no
/// program can name them; GW-BASIC has none of them.
fn is_internal(name: &str) -> bool {
    name.starts_with('~')
}

impl Code {
    /// Bytes of the numeric slot's entry in GW-BASIC's variable table.
    pub(crate) fn num_var_bytes(&self, slot: usize) -> usize {
        match self.num_vars.get(slot) {
            Some((name, ty)) if !is_internal(name) => {
                crate::segment::scalar_bytes(name, crate::segment::num_bytes(*ty))
            }
            _ => 0,
        }
    }

    /// Bytes of the string slot's entry in GW-BASIC's variable table.
    pub(crate) fn str_var_bytes(&self, slot: usize) -> usize {
        match self.str_vars.get(slot) {
            Some(name) if !is_internal(name) => {
                crate::segment::scalar_bytes(name, crate::segment::STR_DESCRIPTOR)
            }
            _ => 0,
        }
    }

    /// Whether the string slot is a variable of the program (not one the
    /// compiler made for itself, like `SWAP`'s `~SWAP$`).
    /// Bytes of a user function's entry, which GW-BASIC makes in its
    /// variable table when the `DEF FN` runs: the name after `FN` and a value
    /// of the function's type (for a string, a descriptor).
    pub(crate) fn fn_entry_bytes(&self, func: usize) -> usize {
        let Some(name) = self.fn_names.get(func) else {
            return 0;
        };
        let name = name.strip_prefix("FN").unwrap_or(name);
        let value = match name.chars().last() {
            Some('$') => crate::segment::STR_DESCRIPTOR,
            Some('%') => crate::segment::num_bytes(NumTy::Int),
            Some('#') => crate::segment::num_bytes(NumTy::Dbl),
            _ => crate::segment::num_bytes(NumTy::Sng),
        };
        crate::segment::scalar_bytes(name, value)
    }

    pub(crate) fn is_program_str(&self, slot: usize) -> bool {
        self.str_vars
            .get(slot)
            .is_some_and(|name| !is_internal(name))
    }

    /// Whether `pc` is its line's first statement (nothing but the line's
    /// markers before it), which GW-BASIC reaches through the line's header.
    pub(crate) fn starts_line(&self, pc: u32) -> bool {
        let index = self.lines.partition_point(|&(start, _)| start <= pc);
        let start = index
            .checked_sub(1)
            .and_then(|i| self.lines.get(i))
            .map_or(0, |&(start, _)| start);
        self.ops
            .get(start as usize..pc as usize)
            .unwrap_or_default()
            .iter()
            .all(|op| matches!(op, Op::Ext(Ext::TraceLine(_) | Ext::LineStart(_))))
    }

    /// The BASIC line whose code holds `pc`.
    pub(crate) fn line_of(&self, pc: u32) -> Option<u32> {
        let index = self.lines.partition_point(|&(start, _)| start <= pc);
        index
            .checked_sub(1)
            .and_then(|i| self.lines.get(i))
            .map(|&(_, line)| line)
    }
}
