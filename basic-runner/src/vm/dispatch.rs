//! The dispatch loop: the hot instructions inline, the rest sent by group to
//! the modules that run them.

use std::sync::atomic::Ordering;

use crate::error::LimitKind;
use crate::op::{Arith, ConstId, Ext, Op, Pc, Slot, TableId};

use super::{Event, Fault, RESUME_AGAIN, RESUME_NEXT, Res, SEED_PROMPT, Vm, cint, truth};

/// Steps between two reads of the cancel flag: at the dearest rates of
/// `cost.rs`, a fraction of a millisecond.
const POLL_STEPS: u64 = 4096;

impl<'a> Vm<'a> {
    /// Runs until an event, an error or the budget's end.
    ///
    /// GW-BASIC makes a numeric or string variable at its first store and,
    /// with no room left in its segment, raises Out of memory there instead
    /// (`space.rs`, `make_scalar`, `ready_new_str`). Checking for that at
    /// every store would slow every program, so there are two copies of the
    /// loop: the checking one, whose stores test the variable first, runs only
    /// while the segment is so full that a variable some instruction stores
    /// to and not yet made might not fit (`space.rs`, `at_risk`); the plain
    /// one, whose stores are as they always were, the rest of the time. Each
    /// hands over with `Fault::Retune`: the checking one after the numeric
    /// store that made the last such variable or left the segment out of risk
    /// (a string store that makes one goes on in it); the plain one after the
    /// instruction whose string or array put it at risk (or, when it has
    /// changed nothing yet, before it, to be run again), and after a `CLEAR`
    /// or `RUN`, which unmakes every variable.
    pub(super) fn run(&mut self, budget: u64, budget_limit: LimitKind) -> Res<Event> {
        let mut left = budget;
        let mut again = false;
        loop {
            self.count_unmade();
            if std::mem::take(&mut again) {
                // the instruction stopped before its string: it runs again
                // where it is checked (its string will put the segment at risk)
                self.m.checking = self.m.unmade > 0;
            }
            let before = self.m.steps;
            let result = if self.m.checking {
                self.run_loop::<true>(left, budget_limit)
            } else {
                self.run_loop::<false>(left, budget_limit)
            };
            let Err(Fault::Retune(resume)) = result else {
                // outside the loop (INPUT's stores) nothing hands over
                self.m.checking = true;
                return result;
            };
            left = left.saturating_sub(self.m.steps.saturating_sub(before));
            match resume {
                RESUME_NEXT => self.m.pc += 1,
                RESUME_AGAIN => again = true,
                at => self.m.pc = at,
            }
        }
    }

    // each loop its own function, as the one loop was: inlined into `run`
    // together, both ran slower
    #[inline(never)]
    fn run_loop<const CHECKED: bool>(
        &mut self,
        budget: u64,
        budget_limit: LimitKind,
    ) -> Res<Event> {
        let ops = &self.code.ops;
        let mut pc = self.m.pc as usize;
        let mut remaining = budget;
        // the cancel flag is read at the first step and then every POLL_STEPS,
        // together with the budget's end, so the hot path checks one number
        let mut next_poll = remaining;
        self.m.charged = 0;
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
            if remaining <= next_poll {
                if remaining == 0 {
                    break Err(Fault::Limit(budget_limit));
                }
                if self.cancelled() {
                    break Err(Fault::Cancelled);
                }
                next_poll = remaining.saturating_sub(POLL_STEPS);
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
                Op::StoreNum(Slot(slot)) if CHECKED => {
                    let value = self.pop();
                    self.checked_store(slot, value, pc)
                }
                Op::StoreNum(Slot(slot)) => {
                    let value = self.pop();
                    if let Some(var) = self.m.nums.get_mut(slot as usize) {
                        *var = value;
                    }
                    self.made_num(slot, value);
                    Ok(())
                }
                Op::StoreSng(Slot(slot)) if CHECKED => {
                    let value = self.pop();
                    self.sng(value)
                        .and_then(|value| self.checked_store(slot, value, pc))
                }
                Op::StoreSng(Slot(slot)) => {
                    let value = self.pop();
                    self.sng(value).map(|value| {
                        if let Some(var) = self.m.nums.get_mut(slot as usize) {
                            *var = value;
                        }
                        self.made_num(slot, value);
                    })
                }
                Op::StoreInt(Slot(slot)) if CHECKED => {
                    let value = self.pop();
                    cint(value).and_then(|value| self.checked_store(slot, f64::from(value), pc))
                }
                Op::StoreInt(Slot(slot)) => {
                    let value = self.pop();
                    cint(value).map(|value| {
                        if let Some(var) = self.m.nums.get_mut(slot as usize) {
                            *var = f64::from(value);
                        }
                        self.made_num(slot, f64::from(value));
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
                Op::Update(Slot(var), op, k) if CHECKED => {
                    let value = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
                    self.arith(op, value, k)
                        .and_then(|r| self.checked_store(var, r, pc))
                }
                Op::Update(Slot(var), op, k) => {
                    let value = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
                    self.arith(op, value, k).map(|r| {
                        if let Some(slot) = self.m.nums.get_mut(var as usize) {
                            *slot = r;
                        }
                        self.made_num(var, r);
                    })
                }
                // a string variable's first store, in the checking loop only
                // (`StoreStr` and `AppendVar` test it off the hot path): one
                // arm for all three stores among the others made the plain
                // loop dearer, one before all arms the checking loop
                Op::AppendConst(Slot(var), _) if CHECKED && self.first_str_store(var) => {
                    self.ready_new_str(op)
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
                Op::SetNum(Slot(var), k) if CHECKED => self.checked_store(var, k, pc),
                Op::SetNum(Slot(var), k) => {
                    if let Some(slot) = self.m.nums.get_mut(var as usize) {
                        *slot = k;
                    }
                    self.made_num(var, k);
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
                    // work beyond one step (cost.rs); an instruction that
                    // overdraws the budget ends the run at the next check
                    remaining = remaining.saturating_sub(std::mem::take(&mut self.m.charged));
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

    /// Whether the host no longer wants this run.
    fn cancelled(&self) -> bool {
        self.m
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// The instructions off the hot path.
    fn slow(&mut self, op: Op, pc: &mut usize) -> Res<()> {
        match op {
            Op::PopNum
            | Op::Pow
            | Op::PowInt
            | Op::Neg
            | Op::IntDiv
            | Op::Mod
            | Op::Not
            | Op::And
            | Op::Or
            | Op::Xor
            | Op::Eqv
            | Op::Imp
            | Op::ToSng
            | Op::ToInt
            | Op::UpdateInt(..) => self.number_op(op),
            Op::StrEq
            | Op::StrNe
            | Op::StrLt
            | Op::StrLe
            | Op::StrGt
            | Op::StrGe
            | Op::Concat
            | Op::AppendVar(..) => self.string_op(op),
            Op::Str(..)
            | Op::LoadStr(..)
            | Op::StoreStr(..)
            | Op::LoadElemNum(..)
            | Op::LoadElemStr(..)
            | Op::StoreElemNum(..)
            | Op::StoreElemStr(..)
            | Op::CheckElem(..)
            | Op::Dim(..)
            | Op::Erase(..)
            | Op::ReadBegin
            | Op::ReadNum(..)
            | Op::ReadStr
            | Op::ReadCheck(..)
            | Op::Restore(..)
            | Op::OptionBase(..) => self.variable_op(op),
            Op::Gosub(..)
            | Op::Return
            | Op::ReturnTo(..)
            | Op::On(..)
            | Op::ForInit(..)
            | Op::ForConst { .. }
            | Op::NextAny
            | Op::While(..)
            | Op::Wend
            | Op::DefFn(..)
            | Op::CallFn(..)
            | Op::FnReturn
            | Op::Clear { .. }
            | Op::Run(..)
            | Op::OnError(..)
            | Op::OnErrorOff
            | Op::Resume
            | Op::ResumeNext
            | Op::ResumeAt(..)
            | Op::RaiseNumber => self.control_op(op, pc),
            Op::Call(builtin) => self.builtin(builtin),
            Op::Width => self.set_width(),
            Op::Ext(ext) => self.ext(ext),
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
            | Op::Raise(_) => Err(Fault::Internal),
        }
    }
}
