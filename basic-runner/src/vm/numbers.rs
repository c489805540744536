//! Arithmetic: single precision through `mbf`, double and integer rules,
//! overflow and division by zero as GW-BASIC reports them.

use crate::error::ErrorCode;
use crate::mbf::{
    self,
    functions::{self, PowerFault},
};
use crate::number::{self, NumTy, SNG_MAX};
use crate::op::{Arith, Op, Slot};

use super::{Fault, Res, Vm, cint};

impl<'a> Vm<'a> {
    /// Pops the right operand and replaces the left one with the result.
    #[inline(always)]
    pub(super) fn arith_stack(&mut self, op: Arith) -> Res<()> {
        let b = self.pop();
        let a = self.m.num_stack.last().copied().unwrap_or(0.0);
        self.arith(op, a, b).map(|r| self.set_top(r))
    }

    /// Rounds to single precision; out of range is GW-BASIC's soft "Overflow".
    #[inline(always)]
    pub(super) fn sng(&mut self, value: f64) -> Res<f64> {
        let rounded = f64::from(value as f32);
        // an exact result goes on without waiting for the conversion, which keeps
        // counting loops off the conversion's latency
        if rounded == value && value.abs() <= SNG_MAX {
            return Ok(value);
        }
        if value.abs() <= SNG_MAX {
            // MBF's two lowest binades are subnormal in f32: rounded apart
            if value.abs() < f64::from(f32::MIN_POSITIVE) {
                return Ok(number::round_tiny_single(value));
            }
            return Ok(rounded);
        }
        self.soft_error(ErrorCode::Overflow)?;
        Ok(if value < 0.0 { -SNG_MAX } else { SNG_MAX })
    }

    /// A single-precision result; an overflow is GW-BASIC's soft "Overflow".
    #[inline(always)]
    pub(super) fn single(&mut self, result: Result<f64, mbf::Overflow>) -> Res<f64> {
        match result {
            Ok(value) => Ok(value),
            Err(mbf::Overflow(max)) => {
                self.soft_error(ErrorCode::Overflow)?;
                Ok(max)
            }
        }
    }

    #[inline(always)]
    pub(super) fn dbl(&mut self, value: f64) -> Res<f64> {
        let magnitude = value.abs();
        if magnitude <= number::DBL_MAX {
            // below MBF's smallest a double is 0, as a single is (`$ZERO`)
            if magnitude < number::MBF_SMALLEST {
                return Ok(0.0);
            }
            return Ok(value);
        }
        self.soft_error(ErrorCode::Overflow)?;
        Ok(if value < 0.0 {
            -number::DBL_MAX
        } else {
            number::DBL_MAX
        })
    }

    #[inline(always)]
    pub(super) fn arith(&mut self, op: Arith, a: f64, b: f64) -> Res<f64> {
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

    pub(super) fn divide(&mut self, a: f64, b: f64, ty: NumTy) -> Res<f64> {
        if b == 0.0 {
            self.soft_error(ErrorCode::DivisionByZero)?;
            return Ok(if a < 0.0 { -ty.max() } else { ty.max() });
        }
        match ty {
            NumTy::Dbl => self.dbl(a / b),
            _ => self.single(mbf::div(a, b)),
        }
    }

    pub(super) fn binary_unary(&mut self, f: impl FnOnce(f64) -> f64) {
        if let Some(a) = self.m.num_stack.last_mut() {
            *a = f(*a);
        }
    }

    pub(super) fn convert(&mut self, value: f64, ty: NumTy) -> Res<f64> {
        match ty {
            NumTy::Int => cint(value).map(f64::from),
            NumTy::Sng => self.sng(value),
            NumTy::Dbl => Ok(value),
        }
    }

    /// `^`: both operands single, as GW-BASIC's `$FPWR` takes them (a whole
    /// exponent, also one typed as an integer, multiplies by squaring).
    pub(super) fn power(&mut self, a: f64, b: f64) -> Res<f64> {
        let a = self.sng(a)?;
        let b = self.sng(b)?;
        match functions::power(a, b) {
            Ok(result) => self.single(result),
            Err(PowerFault::IllegalFunctionCall) => Err(ErrorCode::IllegalFunctionCall.into()),
            Err(PowerFault::DivisionByZero(value)) => {
                self.soft_error(ErrorCode::DivisionByZero)?;
                Ok(value)
            }
        }
    }

    /// The number instructions off the hot path: powers, integer and logical
    /// operators, conversions.
    pub(super) fn number_op(&mut self, op: Op) -> Res<()> {
        match op {
            Op::PopNum => {
                self.pop();
            }
            // a whole exponent takes GW-BASIC's squaring path at run time, typed
            // as an integer or not
            Op::Pow | Op::PowInt => {
                let b = self.pop();
                let a = self.pop();
                let r = self.power(a, b)?;
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
                    // -32768 \ -1 is 32768, past an integer: GW-BASIC's IDIV
                    // (MATH1.ASM) floats the dividend and negates it, a single
                    // that only an integer's store or FRCINT finds too big
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
            Op::ToSng => {
                let value = self.pop();
                let value = self.sng(value)?;
                self.push(value);
            }
            Op::ToInt => {
                let value = cint(self.pop())?;
                self.push(f64::from(value));
            }
            Op::UpdateInt(Slot(var), op, k) => {
                let value = self.m.nums.get(var as usize).copied().unwrap_or(0.0);
                let r = cint(self.arith(op, value, k)?)?;
                if self.m.checking {
                    self.make_scalar(var)?;
                }
                if let Some(slot) = self.m.nums.get_mut(var as usize) {
                    *slot = f64::from(r);
                }
                self.made_num(var, f64::from(r));
            }
            _ => return Err(Fault::Internal),
        }
        Ok(())
    }
}
