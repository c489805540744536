//! The virtual machine: runs verified bytecode until the program ends, waits for
//! input, fails, or exhausts its step budget.

use serde::{Deserialize, Serialize};

use crate::capture::{self, Capture};
use crate::code::{Code, InputTarget, Param};
use crate::cp437;
use crate::error::{ErrorCode, LimitKind};
use crate::limits::Limits;
use crate::mbf;
use crate::number::{self, NumTy, SNG_MAX};
use crate::op::*;
use crate::rnd::Rnd;
use crate::using::UsingArg;

/// A finished character handed to the host by the `RECORD` statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharacterRecord {
    /// Field names and values in the order the program gave them.
    pub fields: Vec<(String, String)>,
}

impl CharacterRecord {
    /// The value of a field, by name (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(field, _)| field.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum Frame {
    For {
        var: u32,
        ty: NumTy,
        limit: f64,
        step: f64,
        body: u32,
        /// Where the matching `NEXT` continues (after its variable): GW-BASIC
        /// keeps the text position of the `NEXT` its `FOR` found, and any other
        /// `NEXT` meeting this loop is `NEXT without FOR`. 0 (a snapshot from
        /// before the field) accepts any `NEXT`.
        #[serde(default)]
        exit: u32,
    },
    Gosub {
        ret: u32,
    },
    While {
        start: u32,
    },
    Fn {
        ret: u32,
        saved_nums: Vec<(u32, f64)>,
        saved_strs: Vec<(u32, Vec<u8>)>,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum ArrayData {
    Num(Vec<f64>),
    Str(Vec<Vec<u8>>),
}

/// Serialized by `packed.rs`, compactly.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Array {
    /// The highest index of each dimension.
    pub(crate) bounds: Vec<u16>,
    pub(crate) base: u8,
    pub(crate) data: ArrayData,
}

impl Array {
    fn bytes(&self) -> usize {
        match &self.data {
            ArrayData::Num(values) => values.len() * 8,
            ArrayData::Str(values) => {
                values.len() * 24 + values.iter().map(Vec::len).sum::<usize>()
            }
        }
    }
}

/// GW-BASIC's error 14, for strings past the memory limit.
const OUT_OF_STRING_SPACE: ErrorCode = ErrorCode::Other(14);

/// What fixed the array base, if anything has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub(crate) enum BaseFixed {
    #[default]
    No,
    ByOptionBase,
    ByArray,
}

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
    Internal,
}

impl From<ErrorCode> for Fault {
    fn from(code: ErrorCode) -> Fault {
        Fault::Basic(code)
    }
}

type Res<T> = Result<T, Fault>;

/// The whole state of a running program (everything but the program itself).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Machine {
    pub(crate) pc: u32,
    pub(crate) nums: Vec<f64>,
    pub(crate) strs: Vec<Vec<u8>>,
    pub(crate) arrays: Vec<Option<Array>>,
    pub(crate) num_stack: Vec<f64>,
    pub(crate) str_stack: Vec<Vec<u8>>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) data_ptr: u32,
    pub(crate) active_defs: Vec<Option<u32>>,
    pub(crate) option_base: u8,
    /// Whether the array base is fixed: `OPTION BASE` ran, or an array was
    /// made (which fixes base 0 until `ERASE` removes every array). Another
    /// `OPTION BASE` with a different base is then `Duplicate Definition`.
    #[serde(default)]
    pub(crate) base_fixed: BaseFixed,
    pub(crate) width: u16,
    pub(crate) column: u16,
    pub(crate) rnd: Rnd,
    pub(crate) memory: usize,
    pub(crate) steps: u64,
    pub(crate) records: Vec<CharacterRecord>,
    /// `ON ERROR GOTO`'s handler.
    pub(crate) on_error: Option<u32>,
    /// While a handler runs: where `RESUME` and `RESUME NEXT` continue.
    pub(crate) handling: Option<(u32, u32)>,
    /// `TRON` is on: each line run writes `[N]`.
    #[serde(default)]
    pub(crate) trace: bool,
    /// `ERR` and `ERL`.
    pub(crate) err: u8,
    pub(crate) erl: u32,
    /// The first instruction of the line the host captures at (see `capture.rs`).
    #[serde(default)]
    pub(crate) capture_pc: Option<u32>,
    #[serde(default)]
    pub(crate) captures: Vec<Capture>,
    /// The variables before the last `CLEAR` or `RUN` that wiped live ones.
    #[serde(default)]
    pub(crate) last_alive: Option<Vec<(String, String)>>,
}

/// The output of one step, bounded.
pub(crate) struct Output {
    pub(crate) text: String,
    pub(crate) limit: usize,
}

impl Machine {
    pub(crate) fn new(code: &Code, rnd: Rnd) -> Machine {
        Machine {
            pc: 0,
            nums: vec![0.0; code.num_vars.len()],
            strs: vec![Vec::new(); code.str_vars.len()],
            arrays: vec![None; code.arrays.len()],
            num_stack: Vec::with_capacity(64),
            str_stack: Vec::with_capacity(16),
            frames: Vec::new(),
            data_ptr: 0,
            active_defs: vec![None; code.fn_names.len()],
            option_base: 0,
            base_fixed: BaseFixed::No,
            width: 80,
            column: 0,
            rnd,
            memory: 0,
            steps: 0,
            records: Vec::new(),
            on_error: None,
            handling: None,
            trace: false,
            err: 0,
            erl: 0,
            capture_pc: None,
            captures: Vec::new(),
            last_alive: None,
        }
    }

    /// Keeps the variables before `CLEAR` or `RUN` wipes them, when any is alive.
    fn remember_alive(&mut self, code: &Code) {
        let variables = capture::variables(self, code, true);
        if capture::alive_count(&variables) > 0 {
            self.last_alive = Some(variables);
        }
    }

    /// The line GW-BASIC names for an error at `pc`: inside a user function, the
    /// line that called it.
    pub(crate) fn error_line(&self, code: &Code, pc: u32) -> Option<u32> {
        let caller = self.frames.iter().find_map(|frame| match frame {
            Frame::Fn { ret, .. } => Some(ret.saturating_sub(1)),
            _ => None,
        });
        code.line_of(caller.unwrap_or(pc))
    }

    /// Runs until an event or a fault; `budget` is the number of instructions allowed.
    pub(crate) fn run(
        &mut self,
        code: &Code,
        out: &mut Output,
        limits: &Limits,
        budget: u64,
        budget_limit: LimitKind,
    ) -> Res<Event> {
        let mut vm = Vm {
            m: self,
            code,
            out,
            limits,
        };
        vm.run(budget, budget_limit)
    }

    /// Whether an error now goes to an `ON ERROR` handler.
    pub(crate) fn traps_errors(&self) -> bool {
        self.on_error.is_some() && self.handling.is_none()
    }

    pub(crate) fn clear(&mut self, code: &Code) {
        self.nums.iter_mut().for_each(|n| *n = 0.0);
        self.strs.iter_mut().for_each(Vec::clear);
        self.arrays.iter_mut().for_each(|a| *a = None);
        self.frames.clear();
        self.num_stack.clear();
        self.str_stack.clear();
        self.data_ptr = 0;
        self.active_defs = vec![None; code.fn_names.len()];
        self.option_base = 0;
        self.base_fixed = BaseFixed::No;
        self.memory = 0;
        self.rnd.clear();
        self.on_error = None;
        self.handling = None;
        self.err = 0;
        self.erl = 0;
    }
}

struct Vm<'a> {
    m: &'a mut Machine,
    code: &'a Code,
    out: &'a mut Output,
    limits: &'a Limits,
}

/// The "form" of the wait at a bare `RANDOMIZE` that asks for its seed (no
/// `INPUT` statement has this many forms).
pub(crate) const SEED_PROMPT: u32 = u32::MAX;

/// What GW-BASIC asks at a bare `RANDOMIZE`.
pub(crate) const SEED_PROMPT_TEXT: &[u8] = b"Random number seed (-32768 to 32767)? ";

/// The seed typed at the `RANDOMIZE` prompt: one number (blank is 0), rounded to
/// an integer. `None` asks again; a number out of range is `Overflow`.
pub(crate) fn typed_seed(line: &[u8]) -> Option<Res<i16>> {
    let entries = crate::input::parse(line, &[false])?;
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

/// `TAB` and `SPC` read their argument as a 16-bit word: -5 is 65531.
fn unsigned_word(value: f64) -> Res<i64> {
    let rounded = value.round();
    if !(-32768.0..=65535.0).contains(&rounded) {
        return Err(ErrorCode::Overflow.into());
    }
    let n = rounded as i64;
    Ok(if n < 0 { n + 65536 } else { n })
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
    #[inline(always)]
    fn pop(&mut self) -> f64 {
        self.m.num_stack.pop().unwrap_or(0.0)
    }

    #[inline(always)]
    fn push(&mut self, value: f64) {
        self.m.num_stack.push(value);
    }

    fn pop_str(&mut self) -> Vec<u8> {
        self.m.str_stack.pop().unwrap_or_default()
    }

    /// Pops the right operand and replaces the left one with the result.
    #[inline(always)]
    fn arith_stack(&mut self, op: Arith) -> Res<()> {
        let b = self.pop();
        let a = self.m.num_stack.last().copied().unwrap_or(0.0);
        self.arith(op, a, b).map(|r| self.set_top(r))
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

    /// Rounds to single precision; out of range is GW-BASIC's soft "Overflow".
    #[inline(always)]
    fn sng(&mut self, value: f64) -> Res<f64> {
        let rounded = f64::from(value as f32);
        // an exact result goes on without waiting for the conversion, which keeps
        // counting loops off the conversion's latency
        if rounded == value && value.abs() <= SNG_MAX {
            return Ok(value);
        }
        if value.abs() <= SNG_MAX {
            return Ok(rounded);
        }
        self.soft_error(ErrorCode::Overflow)?;
        Ok(if value < 0.0 { -SNG_MAX } else { SNG_MAX })
    }

    /// A single-precision result; an overflow is GW-BASIC's soft "Overflow".
    #[inline(always)]
    fn single(&mut self, result: Result<f64, mbf::Overflow>) -> Res<f64> {
        match result {
            Ok(value) => Ok(value),
            Err(mbf::Overflow(max)) => {
                self.soft_error(ErrorCode::Overflow)?;
                Ok(max)
            }
        }
    }

    #[inline(always)]
    fn dbl(&mut self, value: f64) -> Res<f64> {
        if value.abs() <= number::DBL_MAX {
            return Ok(value);
        }
        self.soft_error(ErrorCode::Overflow)?;
        Ok(if value < 0.0 {
            -number::DBL_MAX
        } else {
            number::DBL_MAX
        })
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

    /// Room for one more `GOSUB`, `FOR`, `WHILE` or `FN` level. The nesting
    /// limit stands for GW-BASIC's stack: past it is `Out of memory`, which
    /// (as in GW-BASIC) also clears the loop and `GOSUB` stack; function
    /// frames stay for the error handler to unwind.
    fn check_depth(&mut self) -> Res<()> {
        if self.m.frames.len() >= self.limits.max_stack_depth {
            self.m
                .frames
                .retain(|frame| matches!(frame, Frame::Fn { .. }));
            return Err(ErrorCode::OutOfMemory.into());
        }
        Ok(())
    }

    fn run(&mut self, budget: u64, budget_limit: LimitKind) -> Res<Event> {
        let ops = &self.code.ops;
        let mut pc = self.m.pc as usize;
        let mut remaining = budget;
        let capture_at = self.m.capture_pc.map_or(usize::MAX, |at| at as usize);
        let result = loop {
            let Some(&op) = ops.get(pc) else {
                break Ok(Event::End);
            };
            if pc == capture_at
                && let Err(fault) = self.capture(pc)
            {
                break Err(fault);
            }
            if remaining == 0 {
                break Err(Fault::Limit(budget_limit));
            }
            remaining -= 1;
            pc += 1;
            let outcome: Res<()> = match op {
                Op::Num(value) => {
                    self.push(value);
                    Ok(())
                }
                Op::LoadNum(Slot(slot)) => {
                    let value = self.m.nums.get(slot as usize).copied().unwrap_or(0.0);
                    self.push(value);
                    Ok(())
                }
                Op::StoreNum(Slot(slot)) => {
                    let value = self.pop();
                    if let Some(var) = self.m.nums.get_mut(slot as usize) {
                        *var = value;
                    }
                    Ok(())
                }
                Op::StoreSng(Slot(slot)) => {
                    let value = self.pop();
                    self.sng(value).map(|value| {
                        if let Some(var) = self.m.nums.get_mut(slot as usize) {
                            *var = value;
                        }
                    })
                }
                Op::StoreInt(Slot(slot)) => {
                    let value = self.pop();
                    cint(value).map(|value| {
                        if let Some(var) = self.m.nums.get_mut(slot as usize) {
                            *var = f64::from(value);
                        }
                    })
                }
                Op::AddInt => self.arith_stack(Arith::AddInt),
                Op::SubInt => self.arith_stack(Arith::SubInt),
                Op::AddSng => self.arith_stack(Arith::AddSng),
                Op::SubSng => self.arith_stack(Arith::SubSng),
                Op::MulSng => self.arith_stack(Arith::MulSng),
                Op::DivSng => self.arith_stack(Arith::DivSng),
                Op::AddDbl => self.arith_stack(Arith::AddDbl),
                Op::SubDbl => self.arith_stack(Arith::SubDbl),
                Op::MulDbl => self.arith_stack(Arith::MulDbl),
                Op::DivDbl => self.arith_stack(Arith::DivDbl),
                Op::Eq => {
                    self.binary(|a, b| truth(a == b));
                    Ok(())
                }
                Op::Ne => {
                    self.binary(|a, b| truth(a != b));
                    Ok(())
                }
                Op::Lt => {
                    self.binary(|a, b| truth(a < b));
                    Ok(())
                }
                Op::Le => {
                    self.binary(|a, b| truth(a <= b));
                    Ok(())
                }
                Op::Gt => {
                    self.binary(|a, b| truth(a > b));
                    Ok(())
                }
                Op::Ge => {
                    self.binary(|a, b| truth(a >= b));
                    Ok(())
                }
                Op::Jump(Pc(target)) => {
                    pc = target as usize;
                    Ok(())
                }
                Op::JumpIfFalse(Pc(target)) => {
                    if self.pop() == 0.0 {
                        pc = target as usize;
                    }
                    Ok(())
                }
                Op::Next(Slot(var), _) => self.next(Some(var), &mut pc),
                Op::Update(Slot(var), op, k) => {
                    let value = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
                    self.arith(op, value, k).map(|r| {
                        if let Some(slot) = self.m.nums.get_mut(var as usize) {
                            *slot = r;
                        }
                    })
                }
                Op::AppendConst(Slot(var), ConstId(k)) => {
                    let code = self.code;
                    let tail = code.strings.get(k as usize).map_or(&[][..], Vec::as_slice);
                    self.append(var, tail)
                }
                Op::ArithK(op, k) => {
                    let a = self.m.num_stack.last().copied().unwrap_or(0.0);
                    self.arith(op, a, k).map(|r| self.set_top(r))
                }
                Op::ArithV(op, Slot(var)) => {
                    let b = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
                    let a = self.m.num_stack.last().copied().unwrap_or(0.0);
                    self.arith(op, a, b).map(|r| self.set_top(r))
                }
                Op::LoadArithK(Slot(var), op, k) => {
                    let a = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
                    self.arith(op, a, k).map(|r| self.push(r))
                }
                Op::SetNum(Slot(var), k) => {
                    if let Some(slot) = self.m.nums.get_mut(var as usize) {
                        *slot = k;
                    }
                    Ok(())
                }
                Op::Branch(cmp, when, Pc(target)) => {
                    let b = self.pop();
                    let a = self.pop();
                    if cmp.holds(a, b) == when {
                        pc = target as usize;
                    }
                    Ok(())
                }
                Op::BranchVarK {
                    var: Slot(var),
                    k,
                    cmp,
                    when,
                    target: Pc(target),
                } => {
                    let a = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
                    let b = self.code.consts.get(k as usize).copied().unwrap_or(0.0);
                    if cmp.holds(a, b) == when {
                        pc = target as usize;
                    }
                    Ok(())
                }
                Op::End => break Ok(Event::End),
                Op::Stop => break Ok(Event::Stop),
                Op::Ext(Ext::Input(TableId(form))) => {
                    pc -= 1;
                    break Ok(Event::Input(form));
                }
                Op::Ext(Ext::RandomizeDefault) if self.m.rnd.asks_for_seed() => {
                    pc -= 1;
                    break Ok(Event::Input(SEED_PROMPT));
                }
                Op::Raise(code) => Err(Fault::Basic(code)),
                other => {
                    let before = pc;
                    let outcome = self.slow(other, &mut pc);
                    if outcome.is_err() {
                        pc = before;
                    }
                    outcome
                }
            };
            if let Err(fault) = outcome {
                // errors name the instruction that raised them
                pc -= 1;
                if let Some(handler) = self.trap(fault, pc) {
                    pc = handler;
                    continue;
                }
                break Err(fault);
            }
        };
        self.m.steps = self.m.steps.saturating_add(budget - remaining);
        self.m.pc = pc as u32;
        result
    }

    /// `ON ERROR GOTO`: sends a BASIC error to the handler, if one is set and
    /// not already running. Returns where to continue.
    #[cold]
    fn trap(&mut self, fault: Fault, pc: usize) -> Option<usize> {
        let (code, line) = match fault {
            Fault::Basic(code) => (code, None),
            Fault::BasicAtLine(code, line) => (code, Some(line)),
            _ => return None,
        };
        let handler = self.m.on_error?;
        if self.m.handling.is_some() {
            return None;
        }
        let line = line.or_else(|| self.m.error_line(self.code, pc as u32));
        // an error inside a user function belongs to the statement that called it
        let mut statement_pc = pc as u32;
        while let Some(Frame::Fn { .. }) = self.m.frames.last() {
            let Some(Frame::Fn {
                ret,
                saved_nums,
                saved_strs,
            }) = self.m.frames.pop()
            else {
                break;
            };
            statement_pc = ret.saturating_sub(1);
            for (slot, value) in saved_nums {
                if let Some(var) = self.m.nums.get_mut(slot as usize) {
                    *var = value;
                }
            }
            for (slot, text) in saved_strs {
                if let Some(var) = self.m.strs.get_mut(slot as usize) {
                    *var = text;
                }
            }
        }
        let (resume, next) = self
            .code
            .stmts
            .iter()
            .filter(|&&(start, end)| start <= statement_pc && statement_pc < end)
            .max_by_key(|&&(start, _)| start)
            .copied()
            .unwrap_or((statement_pc, statement_pc + 1));
        self.m.err = code.number();
        self.m.erl = line.unwrap_or(0);
        self.m.handling = Some((resume, next));
        self.m.num_stack.clear();
        self.m.str_stack.clear();
        Some(handler as usize)
    }

    /// `RESUME`: leaves the handler; the stacks start empty at a statement.
    fn resume(&mut self) -> Res<(u32, u32)> {
        let Some(points) = self.m.handling.take() else {
            // GW-BASIC turns the handler off first, so this error is never trapped
            self.m.on_error = None;
            return Err(ErrorCode::ResumeWithoutError.into());
        };
        // the error is dealt with: ERR reads 0 again (ERL keeps the line)
        self.m.err = 0;
        self.m.num_stack.clear();
        self.m.str_stack.clear();
        Ok(points)
    }

    #[inline(always)]
    fn arith(&mut self, op: Arith, a: f64, b: f64) -> Res<f64> {
        match op {
            Arith::AddInt => Ok(a + b),
            Arith::SubInt => Ok(a - b),
            Arith::AddSng => self.single(mbf::add(a, b)),
            Arith::SubSng => self.single(mbf::sub(a, b)),
            Arith::MulSng => self.single(mbf::mul(a, b)),
            Arith::DivSng => self.divide(a, b, NumTy::Sng),
            Arith::AddDbl => self.dbl(a + b),
            Arith::SubDbl => self.dbl(a - b),
            Arith::MulDbl => self.dbl(a * b),
            Arith::DivDbl => self.divide(a, b, NumTy::Dbl),
        }
    }

    fn divide(&mut self, a: f64, b: f64, ty: NumTy) -> Res<f64> {
        if b == 0.0 {
            self.soft_error(ErrorCode::DivisionByZero)?;
            return Ok(if a < 0.0 { -ty.max() } else { ty.max() });
        }
        match ty {
            NumTy::Dbl => self.dbl(a / b),
            _ => self.single(mbf::div(a, b)),
        }
    }

    /// The instructions off the hot path.
    fn slow(&mut self, op: Op, pc: &mut usize) -> Res<()> {
        match op {
            Op::Str(ConstId(id)) => {
                let text = self
                    .code
                    .strings
                    .get(id as usize)
                    .cloned()
                    .unwrap_or_default();
                self.m.str_stack.push(text);
            }
            Op::PopNum => {
                self.pop();
            }
            Op::LoadStr(Slot(slot)) => {
                let text = self.m.strs.get(slot as usize).cloned().unwrap_or_default();
                self.m.str_stack.push(text);
            }
            Op::StoreStr(Slot(slot)) => {
                let text = self.pop_str();
                self.store_str_slot(slot as usize, text)?;
            }
            Op::LoadElemNum(ArrayId(arr), dims) => {
                let index = self.element(arr, dims)?;
                let value = match self.m.arrays.get(arr as usize) {
                    Some(Some(Array {
                        data: ArrayData::Num(values),
                        ..
                    })) => values.get(index).copied().unwrap_or(0.0),
                    _ => return Err(Fault::Internal),
                };
                self.push(value);
            }
            Op::LoadElemStr(ArrayId(arr), dims) => {
                let index = self.element(arr, dims)?;
                let text = match self.m.arrays.get(arr as usize) {
                    Some(Some(Array {
                        data: ArrayData::Str(values),
                        ..
                    })) => values.get(index).cloned().unwrap_or_default(),
                    _ => return Err(Fault::Internal),
                };
                self.m.str_stack.push(text);
            }
            Op::StoreElemNum(ArrayId(arr), dims, ty) => {
                let value = self.pop();
                let value = self.convert(value, ty)?;
                let index = self.element(arr, dims)?;
                match self.m.arrays.get_mut(arr as usize) {
                    Some(Some(Array {
                        data: ArrayData::Num(values),
                        ..
                    })) => {
                        if let Some(slot) = values.get_mut(index) {
                            *slot = value;
                        }
                    }
                    _ => return Err(Fault::Internal),
                }
            }
            Op::StoreElemStr(ArrayId(arr), dims) => {
                let text = self.pop_str();
                let index = self.element(arr, dims)?;
                self.store_str_elem(arr as usize, index, text)?;
            }
            Op::Dim(ArrayId(arr), dims) => self.dim(arr, dims)?,
            Op::Erase(ArrayId(arr)) => {
                let Some(entry) = self.m.arrays.get_mut(arr as usize) else {
                    return Err(Fault::Internal);
                };
                let Some(array) = entry.take() else {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                };
                self.m.memory = self.m.memory.saturating_sub(array.bytes());
                if self.m.base_fixed == BaseFixed::ByArray
                    && self.m.arrays.iter().all(Option::is_none)
                {
                    self.m.base_fixed = BaseFixed::No;
                }
            }
            Op::Pow => {
                let b = self.pop();
                let a = self.pop();
                let r = self.power(a, b)?;
                self.push(r);
            }
            Op::PowInt => {
                let b = self.pop();
                let a = self.pop();
                let r = self.power_int(a, b)?;
                self.push(r);
            }
            Op::Neg => self.binary_unary(|a| -a),
            Op::IntDiv | Op::Mod => {
                let b = cint(self.pop())?;
                let a = cint(self.pop())?;
                if b == 0 {
                    self.soft_error(ErrorCode::DivisionByZero)?;
                    self.push(if a < 0 { -SNG_MAX } else { SNG_MAX });
                } else if op == Op::IntDiv {
                    self.push(f64::from(a / b));
                } else {
                    self.push(f64::from(a % b));
                }
            }
            Op::Not => {
                let a = cint(self.pop())?;
                self.push(f64::from(!a));
            }
            Op::And | Op::Or | Op::Xor | Op::Eqv | Op::Imp => {
                let b = cint(self.pop())? as i16;
                let a = cint(self.pop())? as i16;
                let r = match op {
                    Op::And => a & b,
                    Op::Or => a | b,
                    Op::Xor => a ^ b,
                    Op::Eqv => !(a ^ b),
                    _ => !a | b,
                };
                self.push(f64::from(r));
            }
            Op::StrEq | Op::StrNe | Op::StrLt | Op::StrLe | Op::StrGt | Op::StrGe => {
                let b = self.pop_str();
                let a = self.pop_str();
                let r = match op {
                    Op::StrEq => a == b,
                    Op::StrNe => a != b,
                    Op::StrLt => a < b,
                    Op::StrLe => a <= b,
                    Op::StrGt => a > b,
                    _ => a >= b,
                };
                self.push(truth(r));
            }
            Op::Concat => {
                let b = self.pop_str();
                let Some(a) = self.m.str_stack.last_mut() else {
                    return Err(Fault::Internal);
                };
                if a.len() + b.len() > 255 {
                    return Err(ErrorCode::StringTooLong.into());
                }
                a.extend_from_slice(&b);
            }
            Op::ToSng => {
                let value = self.pop();
                let value = self.sng(value)?;
                self.push(value);
            }
            Op::ToInt => {
                let value = cint(self.pop())?;
                self.push(f64::from(value));
            }
            Op::Call(builtin) => self.builtin(builtin)?,
            Op::Gosub(Pc(target)) => {
                self.check_depth()?;
                self.m.frames.push(Frame::Gosub { ret: *pc as u32 });
                *pc = target as usize;
            }
            Op::Return => *pc = self.return_address()? as usize,
            Op::ReturnTo(Pc(target)) => {
                self.return_address()?;
                *pc = target as usize;
            }
            Op::On(TableId(table)) => {
                let selector = arg_in(self.pop(), 0, 255)?;
                let Some(on) = self.code.ons.get(table as usize) else {
                    return Err(Fault::Internal);
                };
                if selector == 0 || selector as usize > on.targets.len() {
                    return Ok(());
                }
                let target = on
                    .targets
                    .get(selector as usize - 1)
                    .copied()
                    .flatten()
                    .ok_or(Fault::Basic(ErrorCode::UndefinedLineNumber))?;
                if on.gosub {
                    self.check_depth()?;
                    self.m.frames.push(Frame::Gosub { ret: *pc as u32 });
                }
                *pc = target.0 as usize;
            }
            Op::ForInit(TableId(table)) => {
                let step = self.pop();
                let limit = self.pop();
                self.for_init(table, limit, step, pc)?;
            }
            Op::ForConst {
                table: TableId(table),
                limit,
                step,
            } => {
                let code = self.code;
                let limit = code.consts.get(limit as usize).copied().unwrap_or(0.0);
                let step = code.consts.get(step as usize).copied().unwrap_or(0.0);
                self.for_init(table, limit, step, pc)?;
            }
            Op::NextAny => self.next(None, pc)?,
            Op::While(TableId(table)) => self.while_op(table, pc)?,
            Op::Wend => {
                // a WHILE left by a jump stays on the stack until a WEND finds it is
                // not its own: GW-BASIC drops it then, and with none left it is an error
                let here = Ok(Pc(*pc as u32));
                loop {
                    let position = self.innermost(|frame| matches!(frame, Frame::While { .. }));
                    let Some(index) = position else {
                        return Err(ErrorCode::WendWithoutWhile.into());
                    };
                    let Some(&Frame::While { start }) = self.m.frames.get(index) else {
                        return Err(Fault::Internal);
                    };
                    let own = self
                        .code
                        .whiles
                        .iter()
                        .any(|w| w.start.0 == start && w.exit == here);
                    if own {
                        self.m.frames.truncate(index + 1);
                        *pc = start as usize;
                        break;
                    }
                    self.m.frames.truncate(index);
                }
            }
            Op::DefFn(TableId(def)) => {
                let Some(info) = self.code.defs.get(def as usize) else {
                    return Err(Fault::Internal);
                };
                if let Some(active) = self.m.active_defs.get_mut(info.func as usize) {
                    *active = Some(def);
                }
            }
            Op::CallFn(TableId(call)) => self.call_fn(call, pc)?,
            Op::FnReturn => {
                let Some(Frame::Fn {
                    ret,
                    saved_nums,
                    saved_strs,
                }) = self.m.frames.pop()
                else {
                    return Err(Fault::Internal);
                };
                for (slot, value) in saved_nums {
                    if let Some(var) = self.m.nums.get_mut(slot as usize) {
                        *var = value;
                    }
                }
                for (slot, text) in saved_strs {
                    self.store_str_slot(slot as usize, text)?;
                }
                *pc = ret as usize;
            }
            // a DATA item that is a syntax error is not consumed: a READ after
            // RESUME NEXT meets it again, as in GW-BASIC
            Op::ReadNum => {
                let entry = self.current_data()?;
                let syntax_error = Fault::BasicAtLine(ErrorCode::SyntaxError, entry.line);
                if entry.quoted {
                    return Err(syntax_error);
                }
                let value = number::parse_strict(&entry.text).ok_or(syntax_error)?;
                self.m.data_ptr += 1;
                self.push(value);
            }
            Op::ReadStr => {
                let entry = self.current_data()?;
                if entry.stray_after_quote {
                    return Err(Fault::BasicAtLine(ErrorCode::SyntaxError, entry.line));
                }
                self.m.data_ptr += 1;
                self.m.str_stack.push(entry.text.clone());
            }
            Op::Restore(index) => self.m.data_ptr = index,
            Op::OptionBase(base) => {
                if self.m.base_fixed != BaseFixed::No && base != self.m.option_base {
                    return Err(ErrorCode::DuplicateDefinition.into());
                }
                self.m.option_base = base;
                self.m.base_fixed = BaseFixed::ByOptionBase;
            }
            Op::Width => {
                let width = arg_in(self.pop(), 1, 255)?;
                self.m.width = width as u16;
            }
            Op::Clear => {
                self.m.remember_alive(self.code);
                self.m.clear(self.code);
            }
            Op::Run(Pc(target)) => {
                self.m.remember_alive(self.code);
                self.m.clear(self.code);
                *pc = target as usize;
            }
            Op::Ext(ext) => self.ext(ext)?,
            Op::OnError(Pc(handler)) => self.m.on_error = Some(handler),
            Op::OnErrorOff => {
                if self.m.handling.is_some() {
                    // inside a handler this stops the program with the trapped error
                    let code = ErrorCode::from_number(self.m.err);
                    return Err(Fault::BasicAtLine(code, self.m.erl));
                }
                self.m.on_error = None;
            }
            Op::Resume => *pc = self.resume()?.0 as usize,
            Op::ResumeNext => *pc = self.resume()?.1 as usize,
            Op::ResumeAt(Pc(target)) => {
                self.resume()?;
                *pc = target as usize;
            }
            Op::RaiseNumber => {
                let number = arg_in(self.pop(), 1, 255)?;
                return Err(ErrorCode::from_number(number as u8).into());
            }
            Op::AppendVar(Slot(var), Slot(other)) => {
                let tail = self.m.strs.get(other as usize).cloned().unwrap_or_default();
                self.append(var, &tail)?;
            }
            Op::UpdateInt(Slot(var), op, k) => {
                let value = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
                let r = cint(self.arith(op, value, k)?)?;
                if let Some(slot) = self.m.nums.get_mut(var as usize) {
                    *slot = f64::from(r);
                }
            }
            // handled on the hot path
            Op::Num(_)
            | Op::LoadNum(_)
            | Op::StoreNum(_)
            | Op::StoreSng(_)
            | Op::StoreInt(_)
            | Op::AddInt
            | Op::SubInt
            | Op::AddSng
            | Op::SubSng
            | Op::MulSng
            | Op::DivSng
            | Op::AddDbl
            | Op::SubDbl
            | Op::MulDbl
            | Op::DivDbl
            | Op::Eq
            | Op::Ne
            | Op::Lt
            | Op::Le
            | Op::Gt
            | Op::Ge
            | Op::Jump(_)
            | Op::JumpIfFalse(_)
            | Op::Next(..)
            | Op::Update(..)
            | Op::ArithK(..)
            | Op::ArithV(..)
            | Op::Branch(..)
            | Op::BranchVarK { .. }
            | Op::AppendConst(..)
            | Op::LoadArithK(..)
            | Op::SetNum(..)
            | Op::End
            | Op::Stop
            | Op::Raise(_) => return Err(Fault::Internal),
        }
        Ok(())
    }

    fn binary_unary(&mut self, f: impl FnOnce(f64) -> f64) {
        if let Some(a) = self.m.num_stack.last_mut() {
            *a = f(*a);
        }
    }

    fn convert(&mut self, value: f64, ty: NumTy) -> Res<f64> {
        match ty {
            NumTy::Int => cint(value).map(f64::from),
            NumTy::Sng => self.sng(value),
            NumTy::Dbl => Ok(value),
        }
    }

    /// `a$ = a$ + tail` without copying `a$`.
    #[inline(always)]
    fn append(&mut self, var: u32, tail: &[u8]) -> Res<()> {
        let Some(target) = self.m.strs.get_mut(var as usize) else {
            return Err(Fault::Internal);
        };
        if target.len() + tail.len() > 255 {
            return Err(ErrorCode::StringTooLong.into());
        }
        if self.m.memory + tail.len() > self.limits.max_memory_bytes {
            return Err(OUT_OF_STRING_SPACE.into());
        }
        target.extend_from_slice(tail);
        self.m.memory += tail.len();
        Ok(())
    }

    fn store_str_slot(&mut self, slot: usize, text: Vec<u8>) -> Res<()> {
        let old_len = self.m.strs.get(slot).map_or(0, Vec::len);
        if text.len() > old_len {
            self.check_memory(text.len() - old_len, OUT_OF_STRING_SPACE)?;
        }
        self.m.memory = (self.m.memory + text.len()).saturating_sub(old_len);
        if let Some(var) = self.m.strs.get_mut(slot) {
            *var = text;
        }
        Ok(())
    }

    fn store_str_elem(&mut self, arr: usize, index: usize, text: Vec<u8>) -> Res<()> {
        let Some(Some(Array {
            data: ArrayData::Str(values),
            ..
        })) = self.m.arrays.get_mut(arr)
        else {
            return Err(Fault::Internal);
        };
        let Some(slot) = values.get_mut(index) else {
            return Err(Fault::Internal);
        };
        let old_len = slot.len();
        if text.len() > old_len
            && self.m.memory.saturating_add(text.len() - old_len) > self.limits.max_memory_bytes
        {
            return Err(OUT_OF_STRING_SPACE.into());
        }
        self.m.memory = (self.m.memory + text.len()).saturating_sub(old_len);
        *slot = text;
        Ok(())
    }

    fn dim(&mut self, arr: u32, dims: u8) -> Res<()> {
        let count = usize::from(dims);
        let start = self.m.num_stack.len().saturating_sub(count);
        let raw: Vec<f64> = self.m.num_stack.split_off(start);
        let mut bounds = Vec::with_capacity(count);
        for value in raw {
            let bound = cint(value)?;
            if bound < 0 {
                return Err(ErrorCode::IllegalFunctionCall.into());
            }
            if bound < i32::from(self.m.option_base) {
                return Err(ErrorCode::SubscriptOutOfRange.into());
            }
            bounds.push(bound as u16);
        }
        if matches!(self.m.arrays.get(arr as usize), Some(Some(_))) {
            return Err(ErrorCode::DuplicateDefinition.into());
        }
        self.create_array(arr, bounds)
    }

    fn create_array(&mut self, arr: u32, bounds: Vec<u16>) -> Res<()> {
        let base = self.m.option_base;
        let mut elements: usize = 1;
        for &bound in &bounds {
            let size = usize::from(bound) + 1 - usize::from(base);
            elements = elements
                .checked_mul(size)
                .ok_or(Fault::Basic(ErrorCode::OutOfMemory))?;
        }
        let is_str = self
            .code
            .arrays
            .get(arr as usize)
            .ok_or(Fault::Internal)?
            .is_str;
        let bytes = elements.saturating_mul(if is_str { 24 } else { 8 });
        self.check_memory(bytes, ErrorCode::OutOfMemory)?;
        let data = if is_str {
            ArrayData::Str(vec![Vec::new(); elements])
        } else {
            ArrayData::Num(vec![0.0; elements])
        };
        self.m.memory += bytes;
        let Some(entry) = self.m.arrays.get_mut(arr as usize) else {
            return Err(Fault::Internal);
        };
        *entry = Some(Array { bounds, base, data });
        if self.m.base_fixed == BaseFixed::No {
            self.m.base_fixed = BaseFixed::ByArray;
        }
        Ok(())
    }

    /// Pops `dims` indices and returns the flat element index, dimensioning the
    /// array (0..10 in each dimension) on its first use.
    fn element(&mut self, arr: u32, dims: u8) -> Res<usize> {
        let count = usize::from(dims);
        let start = self
            .m
            .num_stack
            .len()
            .checked_sub(count)
            .ok_or(Fault::Internal)?;
        if matches!(self.m.arrays.get(arr as usize), Some(None)) {
            self.create_array(arr, vec![10; count])?;
        }
        let Some(Some(array)) = self.m.arrays.get(arr as usize) else {
            return Err(Fault::Internal);
        };
        if array.bounds.len() != count {
            self.m.num_stack.truncate(start);
            return Err(ErrorCode::SubscriptOutOfRange.into());
        }
        let base = i32::from(array.base);
        let mut flat: usize = 0;
        let indices = self.m.num_stack.get(start..).unwrap_or_default();
        for (&value, &bound) in indices.iter().zip(&array.bounds) {
            let index = cint(value)?;
            if index < base || index > i32::from(bound) {
                // GW-BASIC takes a negative subscript for an illegal argument
                return Err(if index < 0 {
                    ErrorCode::IllegalFunctionCall.into()
                } else {
                    ErrorCode::SubscriptOutOfRange.into()
                });
            }
            let size = usize::from(bound) + 1 - array.base as usize;
            flat = flat * size + (index - base) as usize;
        }
        self.m.num_stack.truncate(start);
        Ok(flat)
    }

    fn power(&mut self, a: f64, b: f64) -> Res<f64> {
        if a == 0.0 && b < 0.0 {
            self.soft_error(ErrorCode::DivisionByZero)?;
            return Ok(SNG_MAX);
        }
        if a < 0.0 && b.fract() != 0.0 {
            return Err(ErrorCode::IllegalFunctionCall.into());
        }
        let r = a.powf(b);
        if !r.is_finite() {
            self.soft_error(ErrorCode::Overflow)?;
            return Ok(SNG_MAX);
        }
        self.single(mbf::truncate(r))
    }

    /// `^` with an integer exponent: GW-BASIC's repeated squaring in single
    /// precision, and one division for a negative exponent.
    fn power_int(&mut self, base: f64, exponent: f64) -> Res<f64> {
        let exponent = exponent as i32;
        match mbf::powi(base, exponent.unsigned_abs()) {
            Ok(power) if exponent < 0 => self.divide(1.0, power, NumTy::Sng),
            result => self.single(result),
        }
    }

    fn return_address(&mut self) -> Res<u32> {
        while let Some(frame) = self.m.frames.pop() {
            match frame {
                Frame::Gosub { ret } => return Ok(ret),
                Frame::Fn { .. } => return Err(Fault::Internal),
                _ => {}
            }
        }
        Err(ErrorCode::ReturnWithoutGosub.into())
    }

    /// The index of the innermost frame matching `wanted`, looking no further
    /// than the innermost `GOSUB` or function call.
    fn innermost(&self, wanted: impl Fn(&Frame) -> bool) -> Option<usize> {
        for (index, frame) in self.m.frames.iter().enumerate().rev() {
            if wanted(frame) {
                return Some(index);
            }
            if matches!(frame, Frame::Gosub { .. } | Frame::Fn { .. }) {
                return None;
            }
        }
        None
    }

    #[inline]
    fn for_init(&mut self, table: u32, limit: f64, step: f64, pc: &mut usize) -> Res<()> {
        let Some(info) = self.code.fors.get(table as usize) else {
            return Err(Fault::Internal);
        };
        let skip_to = match info.skip {
            Ok(skip_to) => skip_to,
            Err((code, None)) => return Err(code.into()),
            Err((code, Some(line))) => return Err(Fault::BasicAtLine(code, line)),
        };
        let (var, ty) = (info.var.0, info.ty);
        if let Some(index) = self.innermost(|f| matches!(f, Frame::For { var: v, .. } if *v == var))
        {
            self.m.frames.truncate(index);
        }
        let value = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
        let skip = (step > 0.0 && value > limit) || (step < 0.0 && value < limit);
        if skip {
            // GW-BASIC runs the matching NEXT once, so the variable ends one step on
            let next = match ty {
                NumTy::Sng => self.single(mbf::add(value, step))?,
                NumTy::Dbl => self.dbl(value + step)?,
                NumTy::Int => f64::from(cint(value + step)?),
            };
            if let Some(slot) = self.m.nums.get_mut(var as usize) {
                *slot = next;
            }
            *pc = skip_to.0 as usize;
            return Ok(());
        }
        self.check_depth()?;
        self.m.frames.push(Frame::For {
            var,
            ty: info.ty,
            limit,
            step,
            body: *pc as u32,
            exit: skip_to.0,
        });
        Ok(())
    }

    /// `NEXT`: the innermost loop, when it is the one named, takes the fast path.
    #[inline(always)]
    fn next(&mut self, var: Option<u32>, pc: &mut usize) -> Res<()> {
        if let Some(&Frame::For {
            var: loop_var,
            ty: loop_ty,
            limit,
            step,
            body,
            exit,
        }) = self.m.frames.last()
            && var.is_none_or(|v| v == loop_var)
            && exit == *pc as u32
            && let Some(slot) = self.m.nums.get_mut(loop_var as usize)
        {
            let sum = *slot + step;
            let value = match loop_ty {
                NumTy::Sng => match mbf::add(*slot, step) {
                    Ok(value) => value,
                    Err(_) => return self.next_checked(var, pc),
                },
                NumTy::Dbl if sum.abs() <= number::DBL_MAX => sum,
                NumTy::Int if (-32768.0..=32767.0).contains(&sum) => sum,
                _ => return self.next_checked(var, pc),
            };
            *slot = value;
            let more = if step > 0.0 {
                value <= limit
            } else if step < 0.0 {
                value >= limit
            } else {
                value != limit
            };
            if more {
                *pc = body as usize;
            } else {
                self.m.frames.pop();
            }
            return Ok(());
        }
        self.next_checked(var, pc)
    }

    /// `NEXT` that searches the loop stack and reports overflow.
    fn next_checked(&mut self, var: Option<u32>, pc: &mut usize) -> Res<()> {
        let top = self.m.frames.len().wrapping_sub(1);
        let index = match (var, self.m.frames.last()) {
            (Some(v), Some(Frame::For { var: top_var, .. })) if *top_var == v => top,
            (None, Some(Frame::For { .. })) => top,
            (None, _) => return Err(ErrorCode::NextWithoutFor.into()),
            (Some(v), _) => {
                let found = self.innermost(|f| matches!(f, Frame::For { var: fv, .. } if *fv == v));
                let Some(index) = found else {
                    return Err(ErrorCode::NextWithoutFor.into());
                };
                self.m.frames.truncate(index + 1);
                index
            }
        };
        let Some(&Frame::For {
            var,
            ty,
            limit,
            step,
            body,
            exit,
        }) = self.m.frames.get(index)
        else {
            return Err(ErrorCode::NextWithoutFor.into());
        };
        if exit != 0 && exit != *pc as u32 {
            return Err(ErrorCode::NextWithoutFor.into());
        }
        let Some(&current) = self.m.nums.get(var as usize) else {
            return Err(Fault::Internal);
        };
        let sum = current + step;
        let value = match ty {
            NumTy::Sng => self.single(mbf::add(current, step))?,
            NumTy::Int if (-32768.0..=32767.0).contains(&sum) => sum,
            NumTy::Int => return Err(ErrorCode::Overflow.into()),
            NumTy::Dbl => sum,
        };
        if let Some(slot) = self.m.nums.get_mut(var as usize) {
            *slot = value;
        }
        let more = if step > 0.0 {
            value <= limit
        } else if step < 0.0 {
            value >= limit
        } else {
            value != limit
        };
        if more {
            *pc = body as usize;
        } else {
            self.m.frames.truncate(index);
        }
        Ok(())
    }

    fn while_op(&mut self, table: u32, pc: &mut usize) -> Res<()> {
        let Some(info) = self.code.whiles.get(table as usize) else {
            return Err(Fault::Internal);
        };
        let condition = self.pop();
        let start = info.start.0;
        let on_top = matches!(self.m.frames.last(), Some(Frame::While { start: s }) if *s == start);
        if condition != 0.0 {
            if !on_top {
                self.check_depth()?;
                self.m.frames.push(Frame::While { start });
            }
            return Ok(());
        }
        if on_top {
            self.m.frames.pop();
        }
        *pc = info.exit.map_err(Fault::Basic)?.0 as usize;
        Ok(())
    }

    fn call_fn(&mut self, call: u32, pc: &mut usize) -> Res<()> {
        let code = self.code;
        let info = code.calls.get(call as usize).ok_or(Fault::Internal)?;
        let def = self
            .m
            .active_defs
            .get(info.func as usize)
            .copied()
            .flatten()
            .ok_or(Fault::Basic(ErrorCode::UndefinedUserFunction))?;
        let def = code.defs.get(def as usize).ok_or(Fault::Internal)?;
        if def.params.len() != info.arg_is_str.len() {
            return Err(ErrorCode::SyntaxError.into());
        }
        for (param, &is_str) in def.params.iter().zip(&info.arg_is_str) {
            if matches!(param, Param::Str(_)) != is_str {
                return Err(ErrorCode::TypeMismatch.into());
            }
        }
        let n_nums = info.arg_is_str.iter().filter(|s| !**s).count();
        let n_strs = info.arg_is_str.len() - n_nums;
        let nums_start = self
            .m
            .num_stack
            .len()
            .checked_sub(n_nums)
            .ok_or(Fault::Internal)?;
        let strs_start = self
            .m
            .str_stack
            .len()
            .checked_sub(n_strs)
            .ok_or(Fault::Internal)?;
        let mut num_args = self.m.num_stack.split_off(nums_start).into_iter();
        let mut str_args = self.m.str_stack.split_off(strs_start).into_iter();
        let mut saved_nums = Vec::new();
        let mut saved_strs = Vec::new();
        for param in &def.params {
            match *param {
                Param::Num(Slot(slot), ty) => {
                    let value = num_args.next().unwrap_or(0.0);
                    let value = self.convert(value, ty)?;
                    let old = self.m.nums.get(slot as usize).copied().unwrap_or(0.0);
                    saved_nums.push((slot, old));
                    if let Some(var) = self.m.nums.get_mut(slot as usize) {
                        *var = value;
                    }
                }
                Param::Str(Slot(slot)) => {
                    let text = str_args.next().unwrap_or_default();
                    let old = self.m.strs.get(slot as usize).cloned().unwrap_or_default();
                    saved_strs.push((slot, old));
                    self.store_str_slot(slot as usize, text)?;
                }
            }
        }
        self.check_depth()?;
        self.m.frames.push(Frame::Fn {
            ret: *pc as u32,
            saved_nums,
            saved_strs,
        });
        *pc = def.body.0 as usize;
        Ok(())
    }

    /// The DATA item the next `READ` takes; the caller moves past it once read.
    fn current_data(&self) -> Res<&'a crate::code::DataEntry> {
        let code: &'a Code = self.code;
        code.data
            .get(self.m.data_ptr as usize)
            .ok_or(Fault::Basic(ErrorCode::OutOfData))
    }

    fn builtin(&mut self, builtin: Builtin) -> Res<()> {
        match builtin {
            Builtin::Abs => self.binary_unary(f64::abs),
            Builtin::Sgn => self.binary_unary(|a| {
                if a > 0.0 {
                    1.0
                } else if a < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            }),
            Builtin::Int => self.binary_unary(f64::floor),
            Builtin::Fix => self.binary_unary(f64::trunc),
            Builtin::Sin | Builtin::Cos | Builtin::Tan | Builtin::Atn => {
                let x = self.pop();
                // past this an argument has no digits left below the period, and
                // GW-BASIC's SIN, COS and TAN give the values at 0
                let huge = x.abs() >= 5e16;
                let r = match builtin {
                    Builtin::Sin | Builtin::Tan if huge => 0.0,
                    Builtin::Cos if huge => 1.0,
                    Builtin::Sin => x.sin(),
                    Builtin::Cos => x.cos(),
                    Builtin::Tan => x.tan(),
                    _ => x.atan(),
                };
                let r = self.single(mbf::truncate(r))?;
                self.push(r);
            }
            Builtin::Exp => {
                let x = self.pop();
                let r = self.single(mbf::truncate(x.exp()))?;
                self.push(r);
            }
            Builtin::Log => {
                let x = self.pop();
                if x <= 0.0 {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                }
                let r = self.single(mbf::truncate(x.ln()))?;
                self.push(r);
            }
            Builtin::Sqr => {
                let x = self.pop();
                if x < 0.0 {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                }
                let r = self.single(mbf::truncate(x.sqrt()))?;
                self.push(r);
            }
            Builtin::Cint => {
                let x = cint(self.pop())?;
                self.push(f64::from(x));
            }
            Builtin::Csng => {
                let x = self.pop();
                let r = self.sng(x)?;
                self.push(r);
            }
            Builtin::Len => {
                let s = self.pop_str();
                self.push(s.len() as f64);
            }
            Builtin::Asc => {
                let s = self.pop_str();
                let first = s
                    .first()
                    .ok_or(Fault::Basic(ErrorCode::IllegalFunctionCall))?;
                self.push(f64::from(*first));
            }
            Builtin::Val => {
                let s = self.pop_str();
                let value = number::parse_val(&s);
                let value = self.sng(value)?;
                self.push(value);
            }
            Builtin::Left | Builtin::Right => {
                let n = arg_in(self.pop(), 0, 255)? as usize;
                let mut s = self.pop_str();
                let n = n.min(s.len());
                if builtin == Builtin::Left {
                    s.truncate(n);
                } else {
                    s.drain(..s.len() - n);
                }
                self.m.str_stack.push(s);
            }
            Builtin::Mid2 | Builtin::Mid3 => {
                let len = if builtin == Builtin::Mid3 {
                    arg_in(self.pop(), 0, 255)? as usize
                } else {
                    255
                };
                let start = arg_in(self.pop(), 1, 255)? as usize - 1;
                let s = self.pop_str();
                let piece = s
                    .get(start.min(s.len())..)
                    .unwrap_or_default()
                    .iter()
                    .take(len)
                    .copied()
                    .collect();
                self.m.str_stack.push(piece);
            }
            Builtin::Chr => {
                let code = arg_in(self.pop(), 0, 255)?;
                self.m.str_stack.push(vec![code as u8]);
            }
            Builtin::StrSng | Builtin::StrDbl | Builtin::PlainSng | Builtin::PlainDbl => {
                let x = self.pop();
                let ty = match builtin {
                    Builtin::StrDbl | Builtin::PlainDbl => NumTy::Dbl,
                    _ => NumTy::Sng,
                };
                let text = match builtin {
                    Builtin::StrSng | Builtin::StrDbl => number::format_str(x, ty),
                    _ => number::format_plain(x, ty),
                };
                self.m.str_stack.push(text.into_bytes());
            }
            Builtin::Instr2 | Builtin::Instr3 => {
                let needle = self.pop_str();
                let hay = self.pop_str();
                let start = if builtin == Builtin::Instr3 {
                    arg_in(self.pop(), 1, 255)? as usize
                } else {
                    1
                };
                let found = if start > hay.len() {
                    0
                } else if needle.is_empty() {
                    start
                } else {
                    hay.get(start - 1..)
                        .unwrap_or_default()
                        .windows(needle.len())
                        .position(|w| w == needle.as_slice())
                        .map_or(0, |p| p + start)
                };
                self.push(found as f64);
            }
            Builtin::StringCode => {
                let code = arg_in(self.pop(), 0, 255)?;
                let n = arg_in(self.pop(), 0, 255)? as usize;
                self.m.str_stack.push(vec![code as u8; n]);
            }
            Builtin::StringStr => {
                let s = self.pop_str();
                let n = arg_in(self.pop(), 0, 255)? as usize;
                // of an empty string there is nothing to repeat: the result is empty
                let repeated = s.first().map_or_else(Vec::new, |&first| vec![first; n]);
                self.m.str_stack.push(repeated);
            }
            Builtin::Space => {
                let n = arg_in(self.pop(), 0, 255)? as usize;
                self.m.str_stack.push(vec![b' '; n]);
            }
            Builtin::Hex | Builtin::Oct => {
                let value = self.pop().round();
                if !(-32768.0..=65535.0).contains(&value) {
                    return Err(ErrorCode::Overflow.into());
                }
                let unsigned = if value < 0.0 { value + 65536.0 } else { value } as u32;
                let text = if builtin == Builtin::Hex {
                    format!("{unsigned:X}")
                } else {
                    format!("{unsigned:o}")
                };
                self.m.str_stack.push(text.into_bytes());
            }
            Builtin::Cv(ty) => {
                let bytes = self.pop_str();
                let value = number::from_mbf_bytes(&bytes, ty)
                    .ok_or(Fault::Basic(ErrorCode::IllegalFunctionCall))?;
                self.push(value);
            }
            Builtin::Mk(ty) => {
                let value = self.pop();
                self.m.str_stack.push(number::mbf_bytes(value, ty));
            }
            Builtin::Err => self.push(f64::from(self.m.err)),
            Builtin::Erl => self.push(f64::from(self.m.erl)),
            Builtin::Pos => {
                self.pop();
                // a line filled to its last column leaves the cursor waiting to
                // wrap, and GW-BASIC's POS already reports the next line's column 1
                let column = if self.m.width != 255 && self.m.column >= self.m.width {
                    0
                } else {
                    self.m.column
                };
                self.push(f64::from(column) + 1.0);
            }
            Builtin::Fre => {
                self.pop();
                let free = self.limits.max_memory_bytes.saturating_sub(self.m.memory);
                self.push(free as f64);
            }
            Builtin::MidSet2 | Builtin::MidSet3 | Builtin::MidSetSame2 | Builtin::MidSetSame3 => {
                let replacement = self.pop_str();
                let len = if matches!(builtin, Builtin::MidSet3 | Builtin::MidSetSame3) {
                    arg_in(self.pop(), 0, 255)? as usize
                } else {
                    255
                };
                let start = arg_in(self.pop(), 1, 255)? as usize - 1;
                let mut target = self.pop_str();
                if start >= target.len() {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                }
                let count = len.min(replacement.len()).min(target.len() - start);
                let same = matches!(builtin, Builtin::MidSetSame2 | Builtin::MidSetSame3);
                for offset in 0..count {
                    let byte = if same {
                        target.get(offset)
                    } else {
                        replacement.get(offset)
                    };
                    if let (Some(&byte), true) = (byte, start + offset < target.len()) {
                        target[start + offset] = byte;
                    }
                }
                self.m.str_stack.push(target);
            }
        }
        Ok(())
    }

    // ---- output ----

    fn check_output(&self) -> Res<()> {
        if self.out.text.len() > self.out.limit {
            return Err(Fault::Limit(LimitKind::OutputPerResume));
        }
        Ok(())
    }

    fn newline(&mut self) -> Res<()> {
        self.out.text.push('\n');
        self.m.column = 0;
        self.check_output()
    }

    fn put_char(&mut self, byte: u8) {
        // past the last column the screen wraps, but no line break is written:
        // GW-BASIC's output stream (redirected, or PC-BASIC's) has none there
        if self.m.width != 255 && self.m.column >= self.m.width {
            self.m.column = 0;
        }
        self.out.text.push(cp437::to_char(byte));
        self.m.column = self.m.column.saturating_add(1);
    }

    /// Writes bytes to the screen, counting columns as the screen wraps them.
    fn write_raw(&mut self, bytes: &[u8]) -> Res<()> {
        for &byte in bytes {
            match byte {
                b'\n' | b'\r' => {
                    self.out.text.push('\n');
                    self.m.column = 0;
                }
                12 => {
                    self.out.text.push('\x0c');
                    self.m.column = 0;
                }
                9 => {
                    let spaces = 8 - self.m.column % 8;
                    for _ in 0..spaces {
                        self.put_char(b' ');
                    }
                }
                0 | 7 | 8 | 11 | 28..=31 => {}
                _ => self.put_char(byte),
            }
        }
        self.check_output()
    }

    /// Writes a `PRINT` item: an item that does not fit on the rest of the line
    /// starts a new line, as GW-BASIC does.
    fn write_item(&mut self, bytes: &[u8]) -> Res<()> {
        let width = usize::from(self.m.width);
        // A full line leaves the cursor on its last column (GW-BASIC wraps only when
        // the next character comes): there, an item of one character still fits
        // and a longer one starts a new line.
        let column = usize::from(self.m.column).min(width.saturating_sub(1));
        if width != 255 && column != 0 {
            let line_end = bytes
                .iter()
                .position(|&b| b == b'\n' || b == b'\r')
                .unwrap_or(bytes.len());
            let has_newline = line_end < bytes.len();
            let visible = bytes
                .get(..line_end)
                .unwrap_or_default()
                .iter()
                .filter(|&&b| b >= 32)
                .count();
            if !has_newline && column + visible > width {
                self.newline()?;
            }
        }
        self.write_raw(bytes)
    }

    fn spaces(&mut self, count: usize) -> Res<()> {
        for _ in 0..count {
            self.put_char(b' ');
        }
        self.check_output()
    }

    fn print_using(&mut self, table: u32) -> Res<()> {
        let code = self.code;
        let info = code.usings.get(table as usize).ok_or(Fault::Internal)?;
        let n_strs = info.args.iter().filter(|a| a.is_none()).count();
        let n_nums = info.args.len() - n_strs;
        let nums_start = self
            .m
            .num_stack
            .len()
            .checked_sub(n_nums)
            .ok_or(Fault::Internal)?;
        let strs_start = self
            .m
            .str_stack
            .len()
            .checked_sub(n_strs)
            .ok_or(Fault::Internal)?;
        let mut nums = self.m.num_stack.split_off(nums_start).into_iter();
        let mut strs = self.m.str_stack.split_off(strs_start).into_iter();
        let format = self.pop_str();
        let args: Vec<UsingArg> = info
            .args
            .iter()
            .map(|arg| match arg {
                Some(ty) => UsingArg::Num(nums.next().unwrap_or(0.0), *ty),
                None => UsingArg::Str(strs.next().unwrap_or_default()),
            })
            .collect();
        let pieces = crate::using::format(&format, &args)?;
        for piece in pieces {
            self.write_item(&piece)?;
        }
        if info.newline {
            self.ext(Ext::PrintNewline)?;
        }
        Ok(())
    }

    /// Takes a capture at `pc` (the first instruction of the host's capture line);
    /// captures and records together are bounded by `max_records`.
    fn capture(&mut self, pc: usize) -> Res<()> {
        if self.m.records.len() + self.m.captures.len() >= self.limits.max_records {
            return Err(Fault::Limit(LimitKind::Records));
        }
        let line = self.code.line_of(pc as u32).unwrap_or(0);
        let variables = capture::variables(self.m, self.code, true);
        self.m.captures.push(Capture { line, variables });
        Ok(())
    }

    fn ext(&mut self, ext: Ext) -> Res<()> {
        match ext {
            Ext::PrintNum(ty) => {
                let value = self.pop();
                let text = number::format_print(value, ty);
                self.write_item(text.as_bytes())?;
            }
            Ext::PrintStr => {
                let text = self.pop_str();
                self.write_item(&text)?;
            }
            Ext::PrintComma => {
                let width = usize::from(self.m.width);
                let column = usize::from(self.m.column);
                let next_zone = column / 14 + 1;
                if next_zone >= width / 14 && width >= 14 && width != 255 {
                    self.newline()?;
                } else {
                    self.spaces(next_zone * 14 - column)?;
                }
            }
            Ext::PrintTab => {
                let n = unsigned_word(self.pop())?;
                let width = i64::from(self.m.width);
                let target = (n - 1).max(0) % width + 1;
                let column = i64::from(self.m.column) + 1;
                if target < column {
                    self.newline()?;
                    self.spaces((target - 1) as usize)?;
                } else {
                    self.spaces((target - column) as usize)?;
                }
            }
            Ext::PrintSpc => {
                let n = unsigned_word(self.pop())?;
                let count = n.max(0) % i64::from(self.m.width);
                self.spaces(count as usize)?;
            }
            Ext::PrintNewline => {
                // the cursor sits past the last column after a full line; GW-BASIC's
                // line break then moves it down twice
                if self.m.width != 255 && self.m.column >= self.m.width {
                    self.newline()?;
                }
                self.newline()?;
            }
            Ext::WriteNewline => self.newline()?,
            Ext::WriteNum(ty) => {
                let value = self.pop();
                let text = number::format_plain(value, ty);
                self.write_item(text.as_bytes())?;
            }
            Ext::WriteStr => {
                let text = self.pop_str();
                let mut quoted = Vec::with_capacity(text.len() + 2);
                quoted.push(b'"');
                quoted.extend_from_slice(&text);
                quoted.push(b'"');
                self.write_item(&quoted)?;
            }
            Ext::WriteComma => self.write_raw(b",")?,
            Ext::Cls => self.write_raw(&[12])?,
            Ext::Trace(on) => self.m.trace = on,
            Ext::TraceLine(line) => {
                if self.m.trace {
                    self.write_raw(format!("[{line}]").as_bytes())?;
                }
            }
            Ext::Using(TableId(table)) => self.print_using(table)?,
            Ext::Input(_) => return Err(Fault::Internal),
            Ext::Rnd => {
                let value = self.m.rnd.next();
                self.push(value);
            }
            Ext::RndArg => {
                let arg = self.pop();
                let value = self.m.rnd.with_arg(arg);
                self.push(value);
            }
            Ext::Randomize(ty) => {
                let value = self.pop();
                let mbf = number::mbf_bytes(value, ty);
                self.m.rnd.randomize(&mbf, value);
            }
            Ext::RandomizeDefault => self.m.rnd.randomize_default(),
            Ext::Timer => {
                let value = self.m.rnd.timer();
                self.push(value);
            }
            Ext::Record(count) => {
                if self.m.records.len() + self.m.captures.len() >= self.limits.max_records {
                    return Err(Fault::Limit(LimitKind::Records));
                }
                let count = count as usize * 2;
                let start = self
                    .m
                    .str_stack
                    .len()
                    .checked_sub(count)
                    .ok_or(Fault::Internal)?;
                let texts = self.m.str_stack.split_off(start);
                let fields = texts
                    .chunks(2)
                    .map(|pair| {
                        let name = pair.first().map(|n| cp437::decode(n)).unwrap_or_default();
                        let value = pair.get(1).map(|v| cp437::decode(v)).unwrap_or_default();
                        (name, value)
                    })
                    .collect();
                self.m.records.push(CharacterRecord { fields });
            }
        }
        Ok(())
    }
}

/// Writes text for the session (prompts and `?Redo from start`) with the VM's
/// column rules.
pub(crate) fn write_text(m: &mut Machine, out: &mut Output, bytes: &[u8]) {
    let limits = Limits {
        max_output_bytes_per_resume: usize::MAX,
        ..Limits::default()
    };
    let code = Code::default();
    let mut vm = Vm {
        m,
        code: &code,
        out,
        limits: &limits,
    };
    // output beyond the limit is caught by the next instruction that writes
    let _ = vm.write_raw(bytes);
}

/// Assigns parsed input to the targets of a form; indices are on the number stack.
/// Sends a fault raised outside the run loop (assigning `INPUT`) at the
/// machine's pc to the `ON ERROR` handler; returns the handler's address.
pub(crate) fn trap_at_pc(
    m: &mut Machine,
    code: &Code,
    limits: &Limits,
    out: &mut Output,
    fault: Fault,
) -> Option<u32> {
    let pc = m.pc as usize;
    let mut vm = Vm {
        m,
        code,
        out,
        limits,
    };
    vm.trap(fault, pc).map(|handler| handler as u32)
}

pub(crate) fn assign_input(
    m: &mut Machine,
    code: &Code,
    limits: &Limits,
    form: &crate::code::InputForm,
    values: Vec<crate::input::Entry>,
    out: &mut Output,
) -> Result<(), Fault> {
    let total_dims: usize = form.targets.iter().map(|t| t.dims() as usize).sum();
    let start = m
        .num_stack
        .len()
        .checked_sub(total_dims)
        .ok_or(Fault::Internal)?;
    let indices = m.num_stack.split_off(start);
    // an entry too large for its variable prints GW-BASIC's "Overflow" here
    let mut vm = Vm {
        m,
        code,
        out,
        limits,
    };
    let mut index_iter = indices.into_iter();
    for (target, value) in form.targets.iter().zip(values) {
        for _ in 0..target.dims() {
            let index = index_iter.next().unwrap_or(0.0);
            vm.push(index);
        }
        match (target, value) {
            (InputTarget::Num(Slot(slot), ty), crate::input::Entry::Num(value)) => {
                let value = vm.convert(value, *ty)?;
                if let Some(var) = vm.m.nums.get_mut(*slot as usize) {
                    *var = value;
                }
            }
            (InputTarget::Str(Slot(slot)), crate::input::Entry::Str(text)) => {
                vm.store_str_slot(*slot as usize, text)?;
            }
            (InputTarget::ElemNum(ArrayId(arr), dims, ty), crate::input::Entry::Num(value)) => {
                let value = vm.convert(value, *ty)?;
                let index = vm.element(*arr, *dims)?;
                if let Some(Some(Array {
                    data: ArrayData::Num(values),
                    ..
                })) = vm.m.arrays.get_mut(*arr as usize)
                    && let Some(slot) = values.get_mut(index)
                {
                    *slot = value;
                }
            }
            (InputTarget::ElemStr(ArrayId(arr), dims), crate::input::Entry::Str(text)) => {
                let index = vm.element(*arr, *dims)?;
                vm.store_str_elem(*arr as usize, index, text)?;
            }
            _ => return Err(Fault::Internal),
        }
    }
    Ok(())
}
