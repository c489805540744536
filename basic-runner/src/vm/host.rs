//! What the host sees: `PRINT` and its column rules under the output limit,
//! `PRINT USING`, `WIDTH`, `INPUT` assignment, captures and the extension
//! statements (`RECORD`, `RANDOMIZE`, ...).

use crate::capture::{self, Capture};
use crate::code::{Code, InputTarget};
use crate::cp437::{self, Ch};
use crate::error::{ErrorCode, LimitKind};
use crate::limits::Limits;
use crate::number;
use crate::op::{ArgRange, ArrayId, Ext, Slot, TableId, UsingEnd};
use crate::segment;
use crate::using::{self, UsingArg, UsingPlace};

use super::{
    Array, ArrayData, CharacterRecord, Fault, INKEY_PATIENCE, Machine, Output, Res, Vm, arg_in,
    tab_argument,
};

impl<'a> Vm<'a> {
    pub(super) fn check_output(&self) -> Res<()> {
        if self.out.text.len() > self.out.limit {
            return Err(Fault::Limit(LimitKind::OutputPerResume));
        }
        Ok(())
    }

    pub(super) fn newline(&mut self) -> Res<()> {
        self.out.text.push('\n');
        self.m.column = 0;
        self.check_output()
    }

    pub(super) fn put_char(&mut self, code: Ch) {
        // past the last column the screen wraps, but no line break is written:
        // GW-BASIC's output stream (redirected, or PC-BASIC's) has none there
        if self.m.width != 255 && self.m.column >= self.m.width {
            self.m.column = 0;
        }
        self.out.text.push(cp437::to_char(code));
        self.m.column = self.m.column.saturating_add(1);
    }

    /// Writes characters (BASIC's, or the bytes of ASCII text) to the screen,
    /// counting columns as the screen wraps them.
    pub(super) fn write_raw<C: Copy + Into<Ch>>(&mut self, codes: &[C]) -> Res<()> {
        for &code in codes {
            let code: Ch = code.into();
            match code {
                0x0A | 0x0D => {
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
                        self.put_char(Ch::from(b' '));
                    }
                }
                0 | 7 | 8 | 11 | 28..=31 => {}
                _ => self.put_char(code),
            }
        }
        self.check_output()
    }

    /// Writes a `PRINT` item: an item that does not fit on the rest of the line
    /// starts a new line, as GW-BASIC does.
    pub(super) fn write_item<C: Copy + Into<Ch>>(&mut self, codes: &[C]) -> Res<()> {
        let width = usize::from(self.m.width);
        // A full line leaves the cursor on its last column (GW-BASIC wraps only when
        // the next character comes): there, an item of one character still fits
        // and a longer one starts a new line.
        let column = usize::from(self.m.column).min(width.saturating_sub(1));
        if width != 255 && column != 0 {
            let line_end = codes
                .iter()
                .position(|&c| matches!(c.into(), 0x0A | 0x0D))
                .unwrap_or(codes.len());
            let has_newline = line_end < codes.len();
            let visible = codes
                .get(..line_end)
                .unwrap_or_default()
                .iter()
                .filter(|&&c| c.into() >= 32)
                .count();
            if !has_newline && column + visible > width {
                self.newline()?;
            }
        }
        self.write_raw(codes)
    }

    pub(super) fn spaces(&mut self, count: usize) -> Res<()> {
        for _ in 0..count {
            self.put_char(Ch::from(b' '));
        }
        self.check_output()
    }

    /// Scans the `PRINT USING` format on top of the string stack to the next
    /// field (`using::scan`), printing the text on the way.
    fn using_scan(&mut self, more: bool) -> Res<()> {
        // the format stays on the stack: taken off for the scan, not copied
        let format = self.m.str_stack.pop().ok_or(Fault::Internal)?;
        let mut pieces = Vec::new();
        let result = using::scan(&format, &mut self.m.using, more, &mut pieces);
        self.m.str_stack.push(format);
        for piece in pieces {
            self.write_item(&piece)?;
        }
        Ok(result?)
    }

    /// Prints a `PRINT USING` value in the field the last scan found.
    fn using_value(&mut self, arg: &UsingArg) -> Res<()> {
        let piece = using::value(&mut self.m.using, arg)?;
        self.write_item(&piece)
    }

    /// `WIDTH`: the line length `PRINT` wraps at.
    pub(super) fn set_width(&mut self) -> Res<()> {
        let width = arg_in(self.pop(), 1, 255)?;
        // GW-BASIC's screen has 40 or 80 columns; any other width is refused there
        // (PC-BASIC: `WIDTH 20` is error 5), so a program behaves as it did.
        if width != 40 && width != 80 {
            return Err(ErrorCode::IllegalFunctionCall.into());
        }
        // GW-BASIC's WIDTH (GWWID, GWSTS.ASM) calls the screen's SWIDTH only
        // when the width changes, and a new width clears the screen
        if self.m.width != width as u16 {
            self.m.width = width as u16;
            self.clear_screen()?;
        }
        Ok(())
    }

    /// Clears the screen, the cursor going home: the page break (`CHR$(12)`)
    /// the host shows as a new message, for `CLS` and a new `WIDTH` alike.
    fn clear_screen(&mut self) -> Res<()> {
        self.write_raw(&[12u8])
    }

    /// Takes a capture at `pc` (the first instruction of the host's capture line);
    /// captures and records together are bounded by `max_records`.
    pub(super) fn capture(&mut self, pc: usize) -> Res<()> {
        if self.m.records.len() + self.m.captures.len() >= self.limits.max_records {
            return Err(Fault::Limit(LimitKind::Records));
        }
        let line = self.code.line_of(pc as u32).unwrap_or(0);
        let variables = capture::variables(self.m, self.code, true);
        self.m.captures.push(Capture { line, variables });
        Ok(())
    }

    /// The bounds of an argument range that is a plain interval; `None` for
    /// the ranges checked their own way (`Unused`, `CLEAR`'s sizes).
    fn arg_bounds(&self, range: ArgRange) -> Option<(i32, i32)> {
        Some(match range {
            ArgRange::Byte => (0, 255),
            ArgRange::Start => (1, 255),
            ArgRange::Rows => (25, 25),
            ArgRange::Foreground => (0, 31),
            ArgRange::Background => (0, 15),
            // the function-key line, while it shows, takes the last row
            ArgRange::Row => (1, if self.m.key_line { 24 } else { 25 }),
            ArgRange::Column => (1, i32::from(self.m.width)),
            ArgRange::Cursor => (0, 1),
            ArgRange::ScanLine => (0, 31),
            ArgRange::ClearDummy => (0, i32::from(i16::MAX)),
            ArgRange::ClsMode => (0, 2),
            ArgRange::Integer => (i32::from(i16::MIN), i32::from(i16::MAX)),
            ArgRange::Unused | ArgRange::MemorySize | ArgRange::StackSize => return None,
        })
    }

    pub(super) fn ext(&mut self, ext: Ext) -> Res<()> {
        match ext {
            Ext::PrintNum(ty) => {
                let value = self.pop();
                let text = number::format_print(value, ty);
                self.write_item(text.as_bytes())?;
            }
            Ext::CheckTop(range) => {
                // checked where it stands: the value stays for what follows
                let (min, max) = self.arg_bounds(range).ok_or(Fault::Internal)?;
                let value = self.m.num_stack.last().copied().unwrap_or(0.0);
                super::arg_in(value, min, max)?;
            }
            Ext::CheckedArg(range) => {
                let value = self.pop();
                if let Some((min, max)) = self.arg_bounds(range) {
                    super::arg_in(value, min, max)?;
                } else if range == ArgRange::Unused {
                    super::arg_in(value, 0, 255)?;
                    return Err(ErrorCode::IllegalFunctionCall.into());
                } else {
                    // GETMPM: 0 is refused; a top past MAXMEM too (CLEAR,
                    // BIMISC.ASM); the word stays for Op::Clear
                    let word = super::frqint_word(value)?;
                    let past_top =
                        range == ArgRange::MemorySize && usize::from(word) > segment::SEGMENT_TOP;
                    if word == 0 || past_top {
                        return Err(ErrorCode::IllegalFunctionCall.into());
                    }
                    self.push(f64::from(word));
                }
            }
            Ext::PrintTyped => {
                let ty = super::builtins::typed(self.pop());
                let value = self.pop();
                let text = number::format_print(value, ty);
                self.write_item(text.as_bytes())?;
            }
            Ext::PrintStr => {
                let text = self.pop_used_str();
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
                // TABER: TAB(n) goes to column n (1-based), reduced modulo the width;
                // at it already, nowhere; past it, to that column of the next line.
                // The column TABER reads (SCNGPS, GIOSCN.ASM) is at most the last
                // one, so after a line filled to the width TAB(width) does nothing
                let n = tab_argument(self.pop())?;
                let width = self.m.width;
                let target = n.saturating_sub(1).checked_rem(width).unwrap_or(0);
                let column = self.m.column.min(width.saturating_sub(1));
                if target >= column {
                    self.spaces(usize::from(target - column))?;
                } else {
                    self.newline()?;
                    self.spaces(usize::from(target))?;
                }
            }
            Ext::PrintSpc => {
                let n = tab_argument(self.pop())?;
                let count = n.checked_rem(self.m.width).unwrap_or(0);
                self.spaces(usize::from(count))?;
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
                let text = self.pop_used_str();
                let mut quoted = Vec::with_capacity(text.len() + 2);
                quoted.push(Ch::from(b'"'));
                quoted.extend_from_slice(&text);
                quoted.push(Ch::from(b'"'));
                self.write_item(&quoted)?;
            }
            Ext::WriteComma => self.write_raw(b",")?,
            Ext::Cls => self.clear_screen()?,
            Ext::Trace(on) => self.m.trace = on,
            Ext::KeyLine(on) => self.m.key_line = on,
            Ext::TraceLine(line) => {
                if self.m.trace {
                    self.write_raw(format!("[{line}]").as_bytes())?;
                }
            }
            // only the held line's own start ends what RESUME left: a
            // subroutine's line passes its header while GW-BASIC's GOSUB keeps
            // the CURLIN its RETURN restores
            Ext::LineStart(line) => {
                if self.m.curlin.is_some_and(|(_, held)| held == line) {
                    self.m.curlin = None;
                }
            }
            Ext::DefType(code, letters) => {
                for (index, entry) in self.m.def_types.iter_mut().enumerate() {
                    if letters & (1 << index) != 0 {
                        *entry = code;
                    }
                }
            }
            Ext::FnDefined(func, need) => {
                let def = self
                    .m
                    .active_defs
                    .get(func as usize)
                    .copied()
                    .flatten()
                    .ok_or(Fault::Basic(ErrorCode::UndefinedUserFunction))?;
                let def = self.code.defs.get(def as usize).ok_or(Fault::Internal)?;
                let params = def.variants.first().map_or(0, |(params, _)| params.len());
                if params < usize::from(need) {
                    return Err(ErrorCode::SyntaxError.into());
                }
            }
            Ext::FnArg(TableId(call), index) => self.coerce_fn_arg(call, index)?,
            Ext::SwapMake(Slot(slot), is_str, second) => {
                if self.make_for_swap(slot, is_str)? && second {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                }
            }
            Ext::DefCase(TableId(table)) => {
                let (letters, combos) = self
                    .code
                    .def_cases
                    .get(table as usize)
                    .ok_or(Fault::Internal)?;
                let mut now = 0u64;
                let mut shift = 0;
                for (index, &code) in self.m.def_types.iter().enumerate() {
                    if letters & (1 << index) != 0 {
                        now |= u64::from(code & 3) << shift;
                        shift += 2;
                    }
                }
                let case = combos
                    .iter()
                    .position(|&combo| combo == now)
                    .map_or(0, |at| at + 1);
                self.push(case as f64);
            }
            Ext::UsingBegin => {
                if self.m.str_stack.last().is_none_or(Vec::is_empty) {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                }
                self.m.using = UsingPlace::default();
            }
            Ext::UsingScan => self.using_scan(true)?,
            Ext::UsingNum(ty) => {
                let value = self.pop();
                self.using_value(&UsingArg::Num(value, ty))?;
            }
            Ext::UsingStr => {
                let text = self.pop_used_str();
                self.using_value(&UsingArg::Str(text))?;
            }
            Ext::UsingEnd(end) => {
                match end {
                    UsingEnd::Line | UsingEnd::Stay => self.using_scan(false)?,
                    UsingEnd::Broken => self.using_scan(true)?,
                    UsingEnd::Cut | UsingEnd::FormatOnly => {}
                }
                self.pop_str();
                if end == UsingEnd::Line {
                    self.ext(Ext::PrintNewline)?;
                }
            }
            Ext::Input(_) => return Err(Fault::Internal),
            Ext::Rnd => {
                let value = self.m.rnd.next();
                self.push(value);
            }
            Ext::RndArg => {
                let arg = self.pop_single_arg()?;
                let value = self.m.rnd.with_arg(arg);
                self.push(value);
            }
            Ext::Randomize(ty) => {
                let value = self.pop();
                let mbf = number::mbf_bytes(value, ty);
                self.m.rnd.randomize(&mbf, value);
            }
            Ext::RandomizeDefault => self.m.rnd.randomize_default(),
            // with the keys there (or a bad count, which `InputKeys` refuses)
            // the run goes on
            Ext::AwaitKeys if self.keys_short() => return Err(Fault::AwaitKeys),
            Ext::AwaitKey if self.m.keys.is_empty() && self.m.inkey_misses >= INKEY_PATIENCE => {
                return Err(Fault::AwaitKeys);
            }
            Ext::AwaitKeys | Ext::AwaitKey => {}
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
pub(crate) fn write_text<C: Copy + Into<Ch>>(m: &mut Machine, out: &mut Output, codes: &[C]) {
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
    let _ = vm.write_raw(codes);
}

/// `LINE INPUT` into a simple string variable makes the variable before it
/// reads the line: without room for a new one, Out of memory (7).
pub(crate) fn ready_line_input(
    m: &mut Machine,
    code: &Code,
    limits: &Limits,
    form: &crate::code::InputForm,
    out: &mut Output,
) -> Result<(), Fault> {
    let [InputTarget::Str(Slot(slot))] = form.targets.as_slice() else {
        return Ok(());
    };
    if !form.whole_line {
        return Ok(());
    }
    let mut vm = Vm {
        m,
        code,
        out,
        limits,
    };
    vm.make_str_scalar(*slot)
}

/// Assigns parsed input to the targets of a form; indices are on the number stack.
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
                vm.make_scalar(*slot)?;
                if let Some(var) = vm.m.nums.get_mut(*slot as usize) {
                    *var = value;
                }
                vm.made_num(*slot, value);
            }
            (InputTarget::Str(Slot(slot)), crate::input::Entry::Str(text)) => {
                // the variable first (INPUT's second pass and LINE INPUT call
                // PTRGET before they take the string), then the typed line,
                // copied into the string space
                vm.make_str_scalar(*slot)?;
                let home = vm.copied(text.len())?;
                vm.store_str_slot(*slot as usize, text, home)?;
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
                let home = vm.copied(text.len())?;
                vm.store_str_elem(*arr as usize, index, text, home)?;
            }
            _ => return Err(Fault::Internal),
        }
    }
    Ok(())
}
