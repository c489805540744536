//! Control flow and error trapping: `GOSUB`, `ON`, `FOR`/`NEXT`,
//! `WHILE`/`WEND`, user functions, `ON ERROR` and `RESUME`.

use crate::code::{CallInfo, Code, Param};
use crate::cp437::Ch;
use crate::error::ErrorCode;
use crate::limits::Limits;
use crate::mbf;
use crate::number::{self, NumTy};
use crate::op::{Op, Pc, Slot, TableId};

use super::{Fault, Frame, Home, Machine, Output, Res, StackEntry, Vm, arg_in, cint};

impl<'a> Vm<'a> {
    /// `ON ERROR GOTO`: sends a BASIC error to the handler, if one is set and
    /// not already running. Returns where to continue.
    #[cold]
    pub(super) fn trap(&mut self, fault: Fault, pc: usize) -> Option<usize> {
        let (code, line) = match fault {
            Fault::Basic(code) => (code, None),
            Fault::BasicAtLine(code, line) => (code, Some(line)),
            _ => return None,
        };
        // an error inside a READ statement leaves the DATA items where the
        // statement found them (see `Machine::read_mark`)
        if let Some(mark) = self.m.read_mark.take() {
            self.m.data_ptr = mark;
        }
        self.m.read_fault = None;
        self.m.str_ready = None;
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
                saved_homes,
            }) = self.m.frames.pop()
            else {
                break;
            };
            statement_pc = ret.saturating_sub(1);
            // last saved first: a name given twice (`DEF FND(X, X)`) gets
            // back the value it had before the call
            for (slot, value) in saved_nums.into_iter().rev() {
                if let Some(var) = self.m.nums.get_mut(slot as usize) {
                    *var = value;
                }
            }
            for (index, (slot, text)) in saved_strs.into_iter().enumerate().rev() {
                let home = saved_home(&saved_homes, index, &text);
                if let Some(var) = self.m.strs.get_mut(slot as usize) {
                    *var = text;
                }
                self.set_home(slot as usize, home);
            }
        }
        let (resume, next) = self
            .code
            .stmts
            .iter()
            .filter(|&&(start, end, _)| start <= statement_pc && statement_pc < end)
            .max_by_key(|&&(start, _, _)| start)
            .map(|&(start, _, next)| (start, next))
            .unwrap_or((statement_pc, statement_pc + 1));
        self.m.err = code.number();
        self.m.erl = line.unwrap_or(0);
        self.m.handling = Some((resume, next));
        self.m.num_stack.clear();
        self.m.str_stack.clear();
        Some(handler as usize)
    }

    /// `RESUME`: leaves the handler; the stacks start empty at a statement.
    pub(super) fn resume(&mut self) -> Res<(u32, u32)> {
        let Some(points) = self.m.handling.take() else {
            // GW-BASIC's RESUME jumps to REERR when ONEFLG is clear, and ERROR
            // traps it like any other error when ON ERROR has a line (ONELIN
            // set, ONEFLG clear: NTMDCN, GWMAIN.ASM); nothing turns it off
            return Err(ErrorCode::ResumeWithoutError.into());
        };
        // the error is dealt with: ERR reads 0 again (ERL keeps the line)
        self.m.err = 0;
        self.m.num_stack.clear();
        self.m.str_stack.clear();
        Ok(points)
    }

    /// Where `RESUME` or `RESUME NEXT` goes on, with `CURLIN` as GW-BASIC
    /// leaves it there: `ERRLIN` (`RESTXT`), which differs from the line the
    /// statement is in after an error named at another line (a bad `DATA`
    /// item). Going on at a line's first statement passes its header, which
    /// sets `CURLIN` again.
    fn resume_within(&mut self, target: u32) -> usize {
        let held = self.code.line_of(target);
        let erl = self.m.erl;
        self.m.curlin = match held {
            Some(held) if erl != 0 && held != erl && !self.code.starts_line(target) => {
                Some((erl, held))
            }
            _ => None,
        };
        target as usize
    }

    /// Leaves the innermost `GOSUB`, dropping the loops inside it. Without one
    /// the loops are dropped all the same: GW-BASIC's RETURN passes the FOR
    /// and WHILE entries (FNDFOR) and moves the stack and SAVSTK past them
    /// before it finds no GOSUB (RTRNOK), so the error's reset to SAVSTK
    /// (ERESET) keeps them gone and a NEXT after `RESUME NEXT` has no FOR.
    pub(super) fn return_address(&mut self) -> Res<u32> {
        // the usual RETURN finds its GOSUB on top: one pop, as before issue 27
        // (the search below cost BM5-BM7 seven instructions a RETURN)
        if let Some(&Frame::Gosub { ret }) = self.m.frames.last() {
            self.m.frames.pop();
            return Ok(ret);
        }
        self.return_through_loops()
    }

    /// [`Self::return_address`] past loops (or with no `GOSUB` at all).
    #[cold]
    #[inline(never)]
    fn return_through_loops(&mut self) -> Res<u32> {
        for index in (0..self.m.frames.len()).rev() {
            match self.m.frames.get(index) {
                Some(&Frame::Gosub { ret }) => {
                    self.m.frames.truncate(index);
                    return Ok(ret);
                }
                Some(Frame::Fn { .. }) => return Err(Fault::Internal),
                _ => {}
            }
        }
        self.m.frames.clear();
        Err(ErrorCode::ReturnWithoutGosub.into())
    }

    /// The index of the innermost frame matching `wanted`, looking no further
    /// than the innermost `GOSUB` or function call.
    pub(super) fn innermost(&self, wanted: impl Fn(&Frame) -> bool) -> Option<usize> {
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
    pub(super) fn for_init(
        &mut self,
        table: u32,
        limit: f64,
        step: f64,
        pc: &mut usize,
    ) -> Res<()> {
        let Some(info) = self.code.fors.get(table as usize) else {
            return Err(Fault::Internal);
        };
        let skip_to = match info.skip {
            Ok(skip_to) => skip_to,
            Err((code, None)) => return Err(code.into()),
            Err((code, Some(line))) => return Err(Fault::BasicAtLine(code, line)),
        };
        let (var, ty) = (info.var.0, info.ty);
        // GW-BASIC's FOR (GWMAIN.ASM) drops an active loop, and all above it, only
        // when it is this same FOR statement run again (its end-of-FOR text pointer
        // matches); another FOR of the same variable stacks a second loop
        let body = *pc as u32;
        if let Some(index) = self.innermost(
            |f| matches!(f, Frame::For { var: v, body: b, .. } if *v == var && *b == body),
        ) {
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
        self.check_depth(StackEntry::For)?;
        // GW-BASIC's FOR gives a step of 0 the sign 2 (NT0STP, GWMAIN.ASM), which
        // NEXT's test never meets: the loop never ends at NEXT. NEXT ends a STEP 0
        // loop when the variable equals the limit, so the limit kept is one no
        // BASIC number reaches (f64::MAX, far past the double's largest)
        let limit = if step == 0.0 { f64::MAX } else { limit };
        self.m.frames.push(Frame::For {
            var,
            ty: info.ty,
            limit,
            step,
            body,
            exit: skip_to.0,
        });
        Ok(())
    }

    /// `NEXT`: the innermost loop, when it is the one named, takes the fast path.
    #[inline(always)]
    pub(super) fn next(&mut self, var: Option<u32>, pc: &mut usize) -> Res<()> {
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
    // cold paths, kept out of the dispatch loop's machine code
    #[inline(never)]
    pub(super) fn next_checked(&mut self, var: Option<u32>, pc: &mut usize) -> Res<()> {
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
        // the loops inside go only once the NEXT has not failed (a trapped error
        // finds the stack as the statement began)
        self.m.frames.truncate(index + 1);
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

    #[inline(never)]
    pub(super) fn while_op(&mut self, table: u32, pc: &mut usize) -> Res<()> {
        let Some(info) = self.code.whiles.get(table as usize) else {
            return Err(Fault::Internal);
        };
        let condition = self.pop();
        // GW-BASIC looks for the matching WEND at every WHILE, true or not
        let exit = info.exit.map_err(Fault::Basic)?;
        let start = info.start.0;
        let on_top = matches!(self.m.frames.last(), Some(Frame::While { start: s }) if *s == start);
        if condition != 0.0 {
            if !on_top {
                self.check_depth(StackEntry::While)?;
                self.m.frames.push(Frame::While { start });
            }
            return Ok(());
        }
        if on_top {
            self.m.frames.pop();
        }
        *pc = exit.0 as usize;
        Ok(())
    }

    /// A user function call's argument `index`, just read, coerced to its
    /// parameter's type (`Ext::FnArg`). A parameter missing is left to the
    /// lookup before the next argument and to the call.
    pub(super) fn coerce_fn_arg(&mut self, call: u32, index: u8) -> Res<()> {
        let (info, params, _) = self.called(call)?;
        let index = usize::from(index);
        let (Some(param), Some(&is_str)) = (params.get(index), info.arg_is_str.get(index)) else {
            return Ok(());
        };
        match *param {
            Param::Str(_) if is_str => Ok(()),
            Param::Num(_, ty) if !is_str => {
                let value = self.pop();
                let value = self.convert(value, ty)?;
                self.push(value);
                Ok(())
            }
            _ => Err(ErrorCode::TypeMismatch.into()),
        }
    }

    /// A user function call's table entry, and the parameters and body of the
    /// definition in force, compiled for the DEF table at the call.
    fn called(&self, call: u32) -> Res<(&'a CallInfo, &'a [Param], Pc)> {
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
        let (params, body) = def
            .variants
            .get(info.variant as usize)
            .ok_or(Fault::Internal)?;
        Ok((info, params, *body))
    }

    pub(super) fn call_fn(&mut self, call: u32, pc: &mut usize) -> Res<()> {
        let (info, params, body) = self.called(call)?;
        if params.len() != info.arg_is_str.len() {
            return Err(ErrorCode::SyntaxError.into());
        }
        for (param, &is_str) in params.iter().zip(&info.arg_is_str) {
            if matches!(param, Param::Str(_)) != is_str {
                return Err(ErrorCode::TypeMismatch.into());
            }
        }
        // FNDOER finds each parameter with PTRGET, which makes the variable
        // the DEF table names here when it is new (a parameter retyped since
        // the DEF is another variable); it outlives the call
        self.made_fn(info.func as usize, params);
        let n_nums = info.arg_is_str.iter().filter(|s| !**s).count();
        let n_strs = info.arg_is_str.len() - n_nums;
        let (mut num_args, mut str_args) = self.pop_args(n_nums, n_strs)?;
        let mut saved_nums = Vec::new();
        let mut saved_strs = Vec::new();
        let mut saved_homes = Vec::new();
        for param in params {
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
                    saved_homes.push(
                        self.m
                            .str_home
                            .get(slot as usize)
                            .copied()
                            .unwrap_or_default(),
                    );
                    // GW-BASIC keeps parameters apart from its variable table
                    self.store_str_slot(slot as usize, text, Home::Text)?;
                }
            }
        }
        self.check_depth(StackEntry::Fn)?;
        self.m.frames.push(Frame::Fn {
            ret: *pc as u32,
            saved_nums,
            saved_strs,
            saved_homes,
        });
        *pc = body.0 as usize;
        Ok(())
    }

    /// Jumps, subroutines, loops, user functions, `CLEAR`/`RUN` and error
    /// trapping; `pc` is the address after the instruction.
    pub(super) fn control_op(&mut self, op: Op, pc: &mut usize) -> Res<()> {
        match op {
            Op::Gosub(Pc(target)) => {
                self.check_depth(StackEntry::Gosub)?;
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
                    self.check_depth(StackEntry::Gosub)?;
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
                // GW-BASIC's FNDWND: the WHILE entry of this WEND, past FOR
                // entries and WHILEs left by a jump, no further than a GOSUB;
                // WEND drops everything above it (MOV SP,BX), and without one
                // it is an error that leaves the stack as it was (WEERR)
                let here = Ok(Pc(*pc as u32));
                let mut own = None;
                for (index, frame) in self.m.frames.iter().enumerate().rev() {
                    match *frame {
                        Frame::While { start } => {
                            let whiles = &self.code.whiles;
                            if whiles.iter().any(|w| w.start.0 == start && w.exit == here) {
                                own = Some((index, start));
                                break;
                            }
                        }
                        Frame::For { .. } => {}
                        Frame::Gosub { .. } | Frame::Fn { .. } => break,
                    }
                }
                let Some((index, start)) = own else {
                    return Err(ErrorCode::WendWithoutWhile.into());
                };
                self.m.frames.truncate(index + 1);
                *pc = start as usize;
            }
            Op::DefFn(TableId(def)) => {
                let Some(info) = self.code.defs.get(def as usize) else {
                    return Err(Fault::Internal);
                };
                if let Some(active) = self.m.active_defs.get_mut(info.func as usize) {
                    *active = Some(def);
                }
                self.made_fn(info.func as usize, &info.params);
            }
            Op::CallFn(TableId(call)) => self.call_fn(call, pc)?,
            Op::FnReturn => {
                let Some(Frame::Fn {
                    ret,
                    saved_nums,
                    saved_strs,
                    saved_homes,
                }) = self.m.frames.pop()
                else {
                    return Err(Fault::Internal);
                };
                // last saved first, as when an error leaves the function
                for (slot, value) in saved_nums.into_iter().rev() {
                    if let Some(var) = self.m.nums.get_mut(slot as usize) {
                        *var = value;
                    }
                }
                for (index, (slot, text)) in saved_strs.into_iter().enumerate().rev() {
                    let home = saved_home(&saved_homes, index, &text);
                    self.store_str_slot(slot as usize, text, home)?;
                }
                *pc = ret as usize;
            }
            // both unmake every variable: the checking loop takes over after them
            Op::Clear { top, stack } => {
                self.clear_sizes(top, stack)?;
                self.wipe();
                return Err(Fault::Retune(*pc as u32));
            }
            Op::Run(Pc(target)) => {
                self.wipe();
                return Err(Fault::Retune(target));
            }
            Op::OnError(Pc(handler)) => self.m.on_error = Some(handler),
            Op::OnErrorOff => {
                if self.m.handling.is_some() {
                    // inside a handler this stops the program with the trapped error
                    let code = ErrorCode::from_number(self.m.err);
                    return Err(Fault::BasicAtLine(code, self.m.erl));
                }
                self.m.on_error = None;
            }
            Op::Resume => {
                let (again, _) = self.resume()?;
                *pc = self.resume_within(again);
            }
            Op::ResumeNext => {
                let (_, next) = self.resume()?;
                *pc = self.resume_within(next);
            }
            Op::ResumeAt(Pc(target)) => {
                self.resume()?;
                // a jump to a line starts it: `CURLIN` is that line
                self.m.curlin = None;
                *pc = target as usize;
            }
            Op::RaiseNumber => {
                let number = arg_in(self.pop(), 1, 255)?;
                return Err(ErrorCode::from_number(number as u8).into());
            }
            _ => return Err(Fault::Internal),
        }
        Ok(())
    }
}

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

/// Where a parameter's saved string goes back to: where it was, or for a
/// frame from a snapshot without homes, the string space unless it is empty.
fn saved_home(homes: &[Home], index: usize, text: &[Ch]) -> Home {
    match homes.get(index) {
        Some(home) => *home,
        None if text.is_empty() => Home::Text,
        None => Home::Space,
    }
}
