//! String comparison, concatenation and appending in place.

use crate::cp437::Ch;
use crate::error::ErrorCode;
use crate::op::{Op, Slot};

use super::{Fault, Home, OUT_OF_STRING_SPACE, Res, Vm, truth};

impl<'a> Vm<'a> {
    /// `a$ = a$ + tail` without copying `a$`.
    #[inline(always)]
    pub(super) fn append(&mut self, var: u32, tail: &[Ch]) -> Res<()> {
        let Some(target) = self.m.strs.get(var as usize) else {
            return Err(Fault::Internal);
        };
        let joined = target.len() + tail.len();
        if joined > 255 {
            return Err(ErrorCode::StringTooLong.into());
        }
        if self.m.memory + tail.len() > self.limits.max_memory_bytes {
            return Err(OUT_OF_STRING_SPACE.into());
        }
        // GW-BASIC makes the joined string anew in the string space; the old
        // one is garbage
        // nothing is changed yet: the checking loop can run it again
        self.claim_with(joined, true)?;
        if let Some(target) = self.m.strs.get_mut(var as usize) {
            target.extend_from_slice(tail);
        }
        self.m.memory += tail.len();
        self.set_home(var as usize, Home::Space);
        Ok(())
    }

    /// String comparison and concatenation.
    pub(super) fn string_op(&mut self, op: Op) -> Res<()> {
        match op {
            Op::StrEq | Op::StrNe | Op::StrLt | Op::StrLe | Op::StrGt | Op::StrGe => {
                let b = self.pop_used_str();
                let a = self.pop_used_str();
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
                self.made_string()?;
                self.hand_over_after()?;
            }
            Op::AppendVar(Slot(var), Slot(other)) => {
                if self.m.checking && self.first_str_store(var) {
                    return self.ready_new_str(op);
                }
                let tail = self.m.strs.get(other as usize).cloned().unwrap_or_default();
                self.append(var, &tail)?;
            }
            _ => return Err(Fault::Internal),
        }
        Ok(())
    }
}
