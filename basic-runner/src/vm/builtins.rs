//! The built-in functions (`SIN`, `LEFT$`, `INSTR`, ...).

use crate::cp437::{self, Ch};
use crate::error::ErrorCode;
use crate::mbf::functions;
use crate::number::{self, NumTy};
use crate::op::{Arith, Builtin, Slot, TypedOp};

use super::{Fault, Res, Vm, arg_in, cint, cost, frqint_word};

impl<'a> Vm<'a> {
    pub(super) fn builtin(&mut self, builtin: Builtin) -> Res<()> {
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
            Builtin::Sin | Builtin::Cos | Builtin::Atn | Builtin::Exp => {
                let x = self.pop_single_arg()?;
                let r = match builtin {
                    Builtin::Sin => functions::sin(x),
                    Builtin::Cos => functions::cos(x),
                    Builtin::Atn => functions::atn(x),
                    _ => functions::exp(x),
                };
                let r = self.single(r)?;
                self.push(r);
            }
            Builtin::Tan => {
                // GW-BASIC's TAN is its SIN divided by its COS
                let x = self.pop_single_arg()?;
                let sine = self.single(functions::sin(x))?;
                let cosine = self.single(functions::cos(x))?;
                let r = self.divide(sine, cosine, NumTy::Sng)?;
                self.push(r);
            }
            Builtin::Log => {
                let x = self.pop_single_arg()?;
                if x <= 0.0 {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                }
                let r = self.single(functions::log(x))?;
                self.push(r);
            }
            Builtin::Sqr => {
                let x = self.pop_single_arg()?;
                if x < 0.0 {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                }
                self.push(functions::sqr(x));
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
                let s = self.pop_used_str();
                self.push(s.len() as f64);
            }
            Builtin::LenOf(Slot(slot)) => {
                let len = self.m.strs.get(slot as usize).map_or(0, Vec::len);
                self.push(len as f64);
            }
            Builtin::LeftOf(Slot(slot)) | Builtin::RightOf(Slot(slot)) => {
                let n = arg_in(self.pop(), 0, 255)? as usize;
                let s = self
                    .m
                    .strs
                    .get(slot as usize)
                    .map_or(&[][..], Vec::as_slice);
                let n = n.min(s.len());
                let piece = if matches!(builtin, Builtin::LeftOf(_)) {
                    s.get(..n)
                } else {
                    s.get(s.len() - n..)
                };
                let piece = piece.unwrap_or_default().to_vec();
                self.m.str_stack.push(piece);
            }
            Builtin::Mid2Of(Slot(slot)) | Builtin::Mid3Of(Slot(slot)) => {
                let len = matches!(builtin, Builtin::Mid3Of(_)).then(|| self.pop());
                let (start, len) = mid_arguments(self.pop(), len)?;
                let s = self
                    .m
                    .strs
                    .get(slot as usize)
                    .map_or(&[][..], Vec::as_slice);
                let rest = s.get(start.min(s.len())..).unwrap_or_default();
                let piece = rest.get(..len.min(rest.len())).unwrap_or_default().to_vec();
                self.m.str_stack.push(piece);
            }
            Builtin::Asc => {
                let s = self.pop_used_str();
                let first = *s
                    .first()
                    .ok_or(Fault::Basic(ErrorCode::IllegalFunctionCall))?;
                // a character code page 437 lacks gives its Unicode code point
                let code = if first >= cp437::WIDE {
                    first - cp437::WIDE
                } else {
                    first
                };
                self.push(f64::from(code));
            }
            Builtin::ValTyped => {
                let s = self.pop_used_str();
                let bytes = cp437::to_bytes(&s);
                match number::val_radix_fault(&bytes) {
                    Some(number::RadixFault::Overflow) => return Err(ErrorCode::Overflow.into()),
                    Some(number::RadixFault::Digit) => {
                        return Err(ErrorCode::SyntaxError.into());
                    }
                    None => {}
                }
                let (value, double) = number::parse_val_typed(&bytes);
                let value = if double {
                    self.dbl(value)?
                } else {
                    self.sng(value)?
                };
                self.push(value);
                self.push(if double { 1.0 } else { 0.0 });
            }
            Builtin::Typed(op) => self.typed(op)?,
            Builtin::ToSpace => {
                self.copy_into_space()?;
                self.hand_over_after()?;
            }
            Builtin::Moving => self.moving(),
            Builtin::StrTyped => {
                let ty = typed(self.pop());
                let x = self.pop();
                let text = number::format_str(x, ty);
                self.m.str_stack.push(cp437::from_bytes(text.as_bytes()));
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
                let len = (builtin == Builtin::Mid3).then(|| self.pop());
                let (start, len) = mid_arguments(self.pop(), len)?;
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
                self.m.str_stack.push(vec![code as Ch]);
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
                self.m.str_stack.push(cp437::from_bytes(text.as_bytes()));
            }
            Builtin::Instr2 | Builtin::Instr3 => {
                let needle = self.pop_used_str();
                let hay = self.pop_used_str();
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
                    self.charge(cost::search(hay.len() + 1 - start, needle.len()));
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
                self.m.str_stack.push(vec![code as Ch; n]);
            }
            Builtin::StringStr => {
                let s = self.pop_str();
                let n = arg_in(self.pop(), 0, 255)? as usize;
                // GW-BASIC's STRNG$ (BISTRS.ASM) takes the character with ASC's
                // own code (ASC2), which refuses an empty string: Illegal function
                // call, even for a count of 0 (PC-BASIC returns "")
                let first = *s
                    .first()
                    .ok_or(Fault::Basic(ErrorCode::IllegalFunctionCall))?;
                self.m.str_stack.push(vec![first; n]);
            }
            Builtin::InputKeys => {
                // Ext::AwaitKeys waited until n were typed
                let n = arg_in(self.pop(), 1, 255)? as usize;
                let taken = self.m.keys.drain(..n.min(self.m.keys.len())).collect();
                self.m.str_stack.push(taken);
            }
            Builtin::Inkey => {
                let key = if self.m.keys.is_empty() {
                    self.m.inkey_misses = self.m.inkey_misses.saturating_add(1);
                    Vec::new()
                } else {
                    self.m.inkey_misses = 0;
                    vec![self.m.keys.remove(0)]
                };
                self.m.str_stack.push(key);
            }
            Builtin::Space => {
                let n = arg_in(self.pop(), 0, 255)? as usize;
                self.m.str_stack.push(vec![Ch::from(b' '); n]);
            }
            Builtin::Hex | Builtin::Oct => {
                let unsigned = frqint_word(self.pop())?;
                let text = if builtin == Builtin::Hex {
                    format!("{unsigned:X}")
                } else {
                    format!("{unsigned:o}")
                };
                self.m.str_stack.push(cp437::from_bytes(text.as_bytes()));
            }
            Builtin::Cv(ty) => {
                let bytes = self.pop_used_str();
                let value = number::from_mbf_bytes(&cp437::to_bytes(&bytes), ty)
                    .ok_or(Fault::Basic(ErrorCode::IllegalFunctionCall))?;
                self.push(value);
            }
            Builtin::Mk(ty) => {
                let value = self.pop();
                self.m
                    .str_stack
                    .push(cp437::from_bytes(&number::mbf_bytes(value, ty)));
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
                let free = self.free_bytes(false);
                self.push(free as f64);
            }
            Builtin::FreStr => {
                self.pop_used_str();
                let free = self.free_bytes(true);
                self.push(free as f64);
            }
            Builtin::Lset | Builtin::Rset => {
                let value = self.pop_str();
                let mut target = self.pop_str();
                let target_len = target.len();
                // LSETA copies from the value's start, so both cut on the right
                let copied = value.len().min(target_len);
                let blanks = target_len - copied;
                target.clear();
                if builtin == Builtin::Rset {
                    target.resize(blanks, Ch::from(b' '));
                }
                target.extend_from_slice(&value[..copied]);
                target.resize(target_len, Ch::from(b' '));
                self.m.str_stack.push(target);
                // written in place: the variable takes it back without a copy
                self.m.last_temp = Some((self.m.str_stack.len() - 1, target_len));
            }
            Builtin::MidSet2 | Builtin::MidSet3 | Builtin::MidSetSame2 | Builtin::MidSetSame3 => {
                let replacement = self.pop_str();
                let three = matches!(builtin, Builtin::MidSet3 | Builtin::MidSetSame3);
                let len = three.then(|| self.pop());
                let (start, len) = mid_arguments(self.pop(), len)?;
                let mut target = self.pop_str();
                let target_len = target.len();
                // GW-BASIC's LHSMID does nothing for a length of 0, before it
                // looks at the position against the string's length
                if start >= target.len() && len != 0 {
                    return Err(ErrorCode::IllegalFunctionCall.into());
                }
                let count = len
                    .min(replacement.len())
                    .min(target.len().saturating_sub(start));
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
                // changed in place: the variable takes it back without a copy
                self.m.last_temp = Some((self.m.str_stack.len() - 1, target_len));
            }
        }
        if builtin.makes_string() {
            self.made_string()?;
            self.hand_over_after()?;
        }
        Ok(())
    }
}

impl Vm<'_> {
    /// The argument of a single-precision function (`SQR`, `SIN`, `RND`, ...):
    /// GW-BASIC makes a double argument single first, so `TAN(1.5707963267949#)`
    /// is the tangent of 1.570796 and the largest double is `Overflow`.
    pub(super) fn pop_single_arg(&mut self) -> Res<f64> {
        let x = self.pop();
        self.sng(x)
    }
}

impl Vm<'_> {
    /// [`Builtin::Typed`]: single arithmetic when both operands are singles,
    /// double when either is a double, as GW-BASIC's operators pick by type.
    fn typed(&mut self, op: TypedOp) -> Res<()> {
        let unary = match op {
            TypedOp::Neg => Some(std::ops::Neg::neg as fn(f64) -> f64),
            TypedOp::Abs => Some(f64::abs as fn(f64) -> f64),
            TypedOp::Int => Some(f64::floor as fn(f64) -> f64),
            TypedOp::Fix => Some(f64::trunc as fn(f64) -> f64),
            _ => None,
        };
        if let Some(apply) = unary {
            let flag = self.pop();
            self.binary_unary(apply);
            self.push(flag);
            return Ok(());
        }
        let right_flag = self.pop();
        let right = self.pop();
        let left_flag = self.pop();
        let left = self.pop();
        let double = typed(left_flag) == NumTy::Dbl || typed(right_flag) == NumTy::Dbl;
        let arith = match (op, double) {
            (TypedOp::Add, false) => Arith::AddSng,
            (TypedOp::Add, true) => Arith::AddDbl,
            (TypedOp::Sub, false) => Arith::SubSng,
            (TypedOp::Sub, true) => Arith::SubDbl,
            (TypedOp::Mul, false) => Arith::MulSng,
            (TypedOp::Mul, true) => Arith::MulDbl,
            (_, false) => Arith::DivSng,
            (_, true) => Arith::DivDbl,
        };
        let result = self.arith(arith, left, right)?;
        self.push(result);
        self.push(if double { 1.0 } else { 0.0 });
        Ok(())
    }
}

/// The type a `Builtin::ValTyped` flag stands for.
pub(super) fn typed(flag: f64) -> NumTy {
    if flag == 0.0 { NumTy::Sng } else { NumTy::Dbl }
}

/// `MID$`'s start (0-based) and length, checked in GW-BASIC's order: the start
/// as `GETBYT` reads it (Overflow past an integer, Illegal function call past
/// a byte) and not 0, then the length if given (255 if not), so an overflowing
/// start is error 6 even with a length past a byte.
fn mid_arguments(start: f64, len: Option<f64>) -> Res<(usize, usize)> {
    let start = arg_in(start, 1, 255)? as usize - 1;
    let len = match len {
        Some(len) => arg_in(len, 0, 255)? as usize,
        None => 255,
    };
    Ok((start, len))
}
