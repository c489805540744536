//! The virtual machine: runs verified bytecode until the program ends, waits for
//! input, fails, or exhausts its step budget.

mod builtins;
mod control;
mod cost;
mod dispatch;
mod host;
mod machine;
mod numbers;
mod space;
mod strings;
mod variables;

pub(crate) use control::trap_at_pc;
pub(crate) use host::{assign_input, ready_line_input, write_text};
pub use machine::CharacterRecord;
pub(crate) use machine::{Array, ArrayData, BaseFixed, Frame, Home, Machine};

use crate::code::Code;
use crate::cp437::Ch;
use crate::error::{ErrorCode, LimitKind};
use crate::limits::Limits;
use crate::number;

/// GW-BASIC's error 14, for strings past the memory limit.
const OUT_OF_STRING_SPACE: ErrorCode = ErrorCode::Other(14);

/// Why the machine stopped running.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Event {
    /// Waiting at an `INPUT` (the pc stays on it).
    Input(u32),
    End,
    /// `STOP` (the pc is after it).
    Stop,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Fault {
    Basic(ErrorCode),
    /// An error reported at another line than the running one (a bad `DATA` item).
    BasicAtLine(ErrorCode, u32),
    Limit(LimitKind),
    /// The host raised the session's cancel flag.
    Cancelled,
    /// Not an error: `INPUT$` or a polled `INKEY$` waits for keys, the pc on
    /// its `Ext::AwaitKeys`/`Ext::AwaitKey` (the run ends with
    /// `Event::Input(KEYS_WAIT)`). Raised from the slow path, so that the
    /// run loop's own match has no arm for it.
    AwaitKeys,
    Internal,
    /// Not an error: the run goes on in the other of the two loops
    /// (`dispatch.rs`, `run`): at this instruction, the one that raised it
    /// done, or where `RESUME_NEXT` or `RESUME_AGAIN` say. A plain number, not
    /// an enum of its own, which changed how every instruction's result is
    /// returned and slowed the loop.
    Retune(u32),
}

/// `Fault::Retune`: on after the instruction that raised it, which is done.
const RESUME_NEXT: u32 = u32::MAX - 1;
/// `Fault::Retune`: the instruction that raised it again; it stopped before
/// changing anything.
const RESUME_AGAIN: u32 = u32::MAX;

impl From<ErrorCode> for Fault {
    fn from(code: ErrorCode) -> Fault {
        Fault::Basic(code)
    }
}

type Res<T> = Result<T, Fault>;

/// The output of one step, bounded.
pub(crate) struct Output {
    pub(crate) text: String,
    pub(crate) limit: usize,
}

/// A machine running its code for one step: the state, the program, the step's
/// output and the limits it runs under.
struct Vm<'a> {
    m: &'a mut Machine,
    code: &'a Code,
    out: &'a mut Output,
    limits: &'a Limits,
}

/// The "form" of the wait at a bare `RANDOMIZE` that asks for its seed (no
/// `INPUT` statement has this many forms).
pub(crate) const SEED_PROMPT: u32 = u32::MAX;
/// The form of `Event::Input` for `INPUT$`: the session waits for a line
/// whose characters are keys typed (an empty line is the Enter key).
pub(crate) const KEYS_WAIT: u32 = u32::MAX - 1;
/// How many times in a row `INKEY$` answers `""` before it waits for a line:
/// a chat has no key to press meanwhile, so a loop that polls for a key
/// (`IF INKEY$ = "" THEN 100`) would only run into the step limit.
pub(crate) const INKEY_PATIENCE: u32 = 256;

/// What GW-BASIC asks at a bare `RANDOMIZE`.
pub(crate) const SEED_PROMPT_TEXT: &[u8] = b"Random number seed (-32768 to 32767)? ";

/// The seed typed at the `RANDOMIZE` prompt: one number (blank is 0), rounded to
/// an integer. `None` asks again; a number out of range is `Overflow`.
pub(crate) fn typed_seed(line: &[Ch]) -> Option<Res<i16>> {
    let entries = match crate::input::parse(line, &[crate::input::Target::Num]) {
        Ok(entries) => entries,
        // the seed is made an integer after it is read: too large either way
        Err(crate::input::Redo::Overflow) => return Some(Err(ErrorCode::Overflow.into())),
        // as before the `&` reader's own Overflow was told apart (its
        // RANDOMIZE path was not read)
        Err(crate::input::Redo::Retype | crate::input::Redo::RadixOverflow) => return None,
    };
    let value = match entries.first() {
        Some(crate::input::Entry::Num(value)) => *value,
        _ => 0.0,
    };
    Some(cint(value).and_then(|seed| i16::try_from(seed).map_err(|_| ErrorCode::Overflow.into())))
}

fn truth(condition: bool) -> f64 {
    if condition { -1.0 } else { 0.0 }
}

fn cint(value: f64) -> Res<i32> {
    number::to_int(value)
        .map(i32::from)
        .ok_or(Fault::Basic(ErrorCode::Overflow))
}

/// `TAB` and `SPC`'s argument as GW-BASIC's `TABER` (GIO86.ASM) reads it:
/// `ADRGET` makes a 16-bit word of it with `FRQINT` (see `frqint_word`: Overflow
/// below -32768 or from 65535.5 up), and a word that is not above 0 taken as
/// signed (0, the negatives, and 32768 to 65535) counts as 0.
fn tab_argument(value: f64) -> Res<u16> {
    let word = frqint_word(value)? as i16;
    Ok(word.max(0) as u16)
}

/// `HEX$` and `OCT$`'s argument as a 16-bit word, as GW-BASIC's `FRQINT`
/// (GWMAIN.ASM) gets it: a positive number of 32768 to under 65536 (the
/// exponent of 2^15) is made single and has 65536 taken off; everything else,
/// and that difference, is rounded by `CINT` (halves away from zero, Overflow
/// outside -32768 to 32767). So 65535.5 is -0.5, which rounds to -1 (`FFFF`),
/// 32767.6 rounds to 32768 and overflows, and -40000 overflows.
fn frqint_word(value: f64) -> Res<u16> {
    let value = if (32768.0..65536.0).contains(&value) {
        f64::from(value as f32) - 65536.0
    } else {
        value
    };
    cint(value).map(|n| n as u16)
}

/// An argument that must lie in `min..=max`, else `Illegal function call`.
fn arg_in(value: f64, min: i32, max: i32) -> Res<i32> {
    let n = cint(value)?;
    if n < min || n > max {
        return Err(ErrorCode::IllegalFunctionCall.into());
    }
    Ok(n)
}

impl<'a> Vm<'a> {
    /// Whether `INPUT$(n)`, n on top, must wait for keys: fewer than n are
    /// typed ahead. A count out of range waits for nothing: `InputKeys`
    /// refuses it first, as GW-BASIC checks it before it reads a key.
    fn keys_short(&self) -> bool {
        let wanted = self.m.num_stack.last().map(|&count| arg_in(count, 1, 255));
        matches!(wanted, Some(Ok(n)) if self.m.keys.len() < n as usize)
    }

    #[inline(always)]
    fn pop(&mut self) -> f64 {
        self.m.num_stack.pop().unwrap_or(0.0)
    }

    #[inline(always)]
    fn push(&mut self, value: f64) {
        self.m.num_stack.push(value);
    }

    /// Takes the top `nums` numbers and `strs` strings off the stacks (the
    /// arguments of a user function or of `PRINT USING`), first pushed first.
    fn pop_args(
        &mut self,
        nums: usize,
        strs: usize,
    ) -> Res<(std::vec::IntoIter<f64>, std::vec::IntoIter<Vec<Ch>>)> {
        let nums_start = self
            .m
            .num_stack
            .len()
            .checked_sub(nums)
            .ok_or(Fault::Internal)?;
        let strs_start = self
            .m
            .str_stack
            .len()
            .checked_sub(strs)
            .ok_or(Fault::Internal)?;
        let nums = self.m.num_stack.split_off(nums_start).into_iter();
        let strs = self.m.str_stack.split_off(strs_start).into_iter();
        Ok((nums, strs))
    }

    fn pop_str(&mut self) -> Vec<Ch> {
        self.m.str_stack.pop().unwrap_or_default()
    }

    #[inline(always)]
    fn set_top(&mut self, value: f64) {
        if let Some(top) = self.m.num_stack.last_mut() {
            *top = value;
        }
    }

    /// Applies `f` to the two numbers on top of the stack, leaving the result.
    #[inline(always)]
    fn binary(&mut self, f: impl FnOnce(f64, f64) -> f64) {
        let b = self.pop();
        if let Some(a) = self.m.num_stack.last_mut() {
            *a = f(*a, b);
        }
    }

    /// Overflow and division by zero print their message and go on, as in GW-BASIC.
    fn soft_error(&mut self, code: ErrorCode) -> Res<()> {
        // with ON ERROR GOTO they are ordinary errors: trapped, or inside the
        // handler fatal
        if self.m.on_error.is_some() {
            return Err(code.into());
        }
        self.write_raw(code.message().as_bytes())?;
        self.newline()
    }

    /// Room for `extra` more bytes of arrays and strings. The memory limit
    /// stands for GW-BASIC's own memory, so running out is its trappable
    /// error: `Out of memory` for arrays, `Out of string space` for strings.
    fn check_memory(&self, extra: usize, code: ErrorCode) -> Res<()> {
        if self.m.memory.saturating_add(extra) > self.limits.max_memory_bytes {
            return Err(code.into());
        }
        Ok(())
    }

    /// Room for one more `GOSUB`, `FOR`, `WHILE` or `FN` level on GW-BASIC's
    /// stack: past it is `Out of memory`. Below `safe_frames` levels every
    /// kind fits, so the common case is one comparison.
    fn check_depth(&mut self, kind: StackEntry) -> Res<()> {
        if self.m.frames.len() < self.m.safe_frames {
            return Ok(());
        }
        self.check_stack_bytes(kind)
    }

    /// GW-BASIC's `GETSTK` (BIMISC.ASM) before a stack entry: the entries'
    /// bytes and the entry's own check must leave `2*NUMLEV` bytes (220)
    /// above the stack's bottom, which `CLEAR`'s third value sets (512 bytes
    /// by default). The host's `max_stack_depth` bounds the levels too.
    #[cold]
    #[inline(never)]
    fn check_stack_bytes(&mut self, kind: StackEntry) -> Res<()> {
        let stack = self
            .m
            .segment_sizes
            .map_or(crate::segment::STACK_AT_START, |(_, stack)| {
                usize::from(stack)
            });
        let cap = self.limits.max_stack_depth;
        self.m.safe_frames = StackEntry::safe_frames(stack).min(cap);
        let used: usize = self
            .m
            .frames
            .iter()
            .map(|frame| StackEntry::of(frame).bytes())
            .sum();
        if self.m.frames.len() >= cap || used + kind.room() > stack {
            return Err(self.out_of_memory());
        }
        Ok(())
    }

    /// GW-BASIC's `Out of memory` however the memory ran out (`OMERR`,
    /// BIMISC.ASM): it points `SAVSTK`, the stack error recovery starts from,
    /// at the top, so every `FOR`, `GOSUB` and `WHILE` entry is gone even when
    /// the error is trapped; function frames stay for the handler to unwind.
    /// (`ERROR 7` does not come here: it keeps them, as GW-BASIC's does.)
    #[cold]
    fn out_of_memory(&mut self) -> Fault {
        self.m
            .frames
            .retain(|frame| matches!(frame, Frame::Fn { .. }));
        ErrorCode::OutOfMemory.into()
    }
}

/// A kind of entry on GW-BASIC's stack, for `Vm::check_depth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StackEntry {
    Gosub,
    For,
    While,
    Fn,
}

impl StackEntry {
    const ALL: [StackEntry; 4] = [
        StackEntry::Gosub,
        StackEntry::For,
        StackEntry::While,
        StackEntry::Fn,
    ];

    /// The bytes an entry keeps on the stack: GOSUB's text pointer, line,
    /// event flag and token (GWMAIN.ASM, `GOSUB`); FOR's 19 (`FORSZC`) and a
    /// pad byte; WHILE's 7 (`WHLSIZ`, FIVEO.ASM) and a pad byte; a user
    /// function's saved text pointer, type and parameter block, counted as
    /// one parameter's.
    fn bytes(self) -> usize {
        match self {
            StackEntry::Gosub | StackEntry::While => 8,
            StackEntry::For => 20,
            StackEntry::Fn => 12,
        }
    }

    fn of(frame: &Frame) -> StackEntry {
        match frame {
            Frame::Gosub { .. } => StackEntry::Gosub,
            Frame::For { .. } => StackEntry::For,
            Frame::While { .. } => StackEntry::While,
            Frame::Fn { .. } => StackEntry::Fn,
        }
    }

    /// The bytes that must be free above the entries already on the stack
    /// for this one's `GETSTK` (BIMISC.ASM) to pass: the 220 of `2*NUMLEV`
    /// (OEM.H), 2 for each word asked, its own return address and saved
    /// register (4), the stack's bottom word (`STKINI`'s stopper, 2) and what
    /// the statement has pushed when it asks. GOSUB asks 3 words under
    /// `NEWSTT`'s return address; FOR asks 8; WHILE asks 1 in its condition's
    /// `FRMEVL`, with 6 bytes of its entry, the return address and the
    /// evaluator's precedence word pushed; a user function is counted as a
    /// GOSUB.
    fn room(self) -> usize {
        match self {
            StackEntry::Gosub | StackEntry::Fn => 2 + 2 + 4 + 2 * 3 + 220,
            StackEntry::For => 2 + 4 + 2 * 8 + 220,
            StackEntry::While => 2 + 2 + 6 + 2 + 4 + 2 + 220,
        }
    }

    /// Below how many entries of any kinds another of any kind still fits on
    /// a stack of `stack` bytes.
    fn safe_frames(stack: usize) -> usize {
        let room = StackEntry::ALL
            .map(StackEntry::room)
            .into_iter()
            .max()
            .unwrap_or(0);
        let widest = StackEntry::ALL
            .map(StackEntry::bytes)
            .into_iter()
            .max()
            .unwrap_or(1);
        stack.checked_sub(room).map_or(0, |left| left / widest + 1)
    }
}
