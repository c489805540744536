//! Compiles expressions: every expression leaves one value on the stack and
//! reports its type, so the statement compiler can convert or raise Type
//! mismatch where GW-BASIC does.

use super::*;

impl Compiler {
    pub(super) fn expr(&mut self, expr: &Expr) -> VarTy {
        match &expr.kind {
            ExprKind::Num(value, ty) => {
                self.emit(Op::Num(*value));
                VarTy::Num(*ty)
            }
            ExprKind::Str(bytes) => {
                let id = self.string_const(bytes);
                self.emit(Op::Str(id));
                VarTy::Str
            }
            ExprKind::Var(name) => {
                let (base, ty) = self.type_of(name);
                match ty {
                    VarTy::Str => {
                        let slot = self.str_slot(&base);
                        self.emit(Op::LoadStr(slot));
                    }
                    VarTy::Num(num) => {
                        let slot = self.num_slot(&base, num);
                        self.emit(Op::LoadNum(slot));
                    }
                }
                ty
            }
            ExprKind::Index(name, indices) => {
                for index in indices {
                    self.num_expr(index);
                }
                let (id, ty) = self.array(name);
                let dims = self.dims(indices.len());
                match ty {
                    VarTy::Str => self.emit(Op::LoadElemStr(id, dims)),
                    VarTy::Num(_) => self.emit(Op::LoadElemNum(id, dims)),
                };
                ty
            }
            ExprKind::Unary(UnOp::Neg, operand) => {
                // GW-BASIC's negation leaves a string as it is (`PRINT -A$`)
                let VarTy::Num(ty) = self.expr(operand) else {
                    return VarTy::Str;
                };
                self.emit(Op::Neg);
                // negating makes an integer single (-(-32768) fits), which also
                // sends `10^-3` to the general power as in GW-BASIC
                VarTy::Num(ty.wider(NumTy::Sng))
            }
            ExprKind::Unary(UnOp::Not, operand) => {
                self.num_expr(operand);
                self.emit(Op::Not);
                VarTy::Num(NumTy::Int)
            }
            ExprKind::Binary(op, left, right) => self.binary(*op, left, right),
            ExprKind::Func(func, args) => self.function(*func, args),
            ExprKind::FnCall(name, args) => {
                let (func, result) = self.fn_id(name);
                let mut arg_is_str = Vec::new();
                for arg in args {
                    arg_is_str.push(self.expr(arg) == VarTy::Str);
                }
                let call = self.code.calls.len();
                self.code.calls.push(CallInfo {
                    func,
                    arg_is_str,
                    result_is_str: result == VarTy::Str,
                });
                self.emit(Op::CallFn(TableId(call as u32)));
                result
            }
            ExprKind::Refused(kw) => {
                self.refusals.push((self.current_line, *kw));
                self.emit(Op::Num(0.0));
                VarTy::Num(NumTy::Sng)
            }
        }
    }

    pub(super) fn binary(&mut self, op: BinOp, left: &Expr, right: &Expr) -> VarTy {
        let left_ty = self.expr(left);
        let right_ty = self.expr(right);
        let (l, r) = match (left_ty, right_ty) {
            (VarTy::Str, VarTy::Str) => {
                let string_op = match op {
                    BinOp::Add => Some((Op::Concat, VarTy::Str)),
                    BinOp::Eq => Some((Op::StrEq, VarTy::Num(NumTy::Int))),
                    BinOp::Ne => Some((Op::StrNe, VarTy::Num(NumTy::Int))),
                    BinOp::Lt => Some((Op::StrLt, VarTy::Num(NumTy::Int))),
                    BinOp::Le => Some((Op::StrLe, VarTy::Num(NumTy::Int))),
                    BinOp::Gt => Some((Op::StrGt, VarTy::Num(NumTy::Int))),
                    BinOp::Ge => Some((Op::StrGe, VarTy::Num(NumTy::Int))),
                    _ => None,
                };
                return match string_op {
                    Some((op, ty)) => {
                        self.emit(op);
                        ty
                    }
                    None => VarTy::Num(self.type_mismatch_num()),
                };
            }
            (VarTy::Num(l), VarTy::Num(r)) => (l, r),
            _ => return VarTy::Num(self.type_mismatch_num()),
        };
        let wide = l.wider(r);
        let (code, ty) = match op {
            BinOp::Add => match wide {
                NumTy::Int => (Op::AddInt, NumTy::Int),
                NumTy::Sng => (Op::AddSng, NumTy::Sng),
                NumTy::Dbl => (Op::AddDbl, NumTy::Dbl),
            },
            BinOp::Sub => match wide {
                NumTy::Int => (Op::SubInt, NumTy::Int),
                NumTy::Sng => (Op::SubSng, NumTy::Sng),
                NumTy::Dbl => (Op::SubDbl, NumTy::Dbl),
            },
            BinOp::Mul => match wide {
                NumTy::Dbl => (Op::MulDbl, NumTy::Dbl),
                _ => (Op::MulSng, NumTy::Sng),
            },
            BinOp::Div => match wide {
                NumTy::Dbl => (Op::DivDbl, NumTy::Dbl),
                _ => (Op::DivSng, NumTy::Sng),
            },
            BinOp::Pow if r == NumTy::Int => (Op::PowInt, NumTy::Sng),
            BinOp::Pow => (Op::Pow, NumTy::Sng),
            BinOp::IntDiv => (Op::IntDiv, NumTy::Int),
            BinOp::Mod => (Op::Mod, NumTy::Int),
            BinOp::And => (Op::And, NumTy::Int),
            BinOp::Or => (Op::Or, NumTy::Int),
            BinOp::Xor => (Op::Xor, NumTy::Int),
            BinOp::Eqv => (Op::Eqv, NumTy::Int),
            BinOp::Imp => (Op::Imp, NumTy::Int),
            BinOp::Eq => (Op::Eq, NumTy::Int),
            BinOp::Ne => (Op::Ne, NumTy::Int),
            BinOp::Lt => (Op::Lt, NumTy::Int),
            BinOp::Le => (Op::Le, NumTy::Int),
            BinOp::Gt => (Op::Gt, NumTy::Int),
            BinOp::Ge => (Op::Ge, NumTy::Int),
        };
        self.emit(code);
        VarTy::Num(ty)
    }

    /// The slot of a plain string variable (`A$`), which a function can read
    /// in place.
    fn str_var(&mut self, expr: &Expr) -> Option<Slot> {
        let ExprKind::Var(name) = &expr.kind else {
            return None;
        };
        let (base, ty) = self.type_of(name);
        (ty == VarTy::Str).then(|| self.str_slot(&base))
    }

    pub(super) fn function(&mut self, func: Func, args: &[Expr]) -> VarTy {
        let arg = |index: usize| args.get(index);
        let call = |compiler: &mut Compiler, builtin: Builtin| {
            compiler.emit(Op::Call(builtin));
        };
        match func {
            Func::Abs | Func::Int | Func::Fix => {
                // like negation, GW-BASIC's ABS and INT pass a string through
                let ty = match arg(0).map(|a| self.expr(a)) {
                    Some(VarTy::Str) if func != Func::Fix => return VarTy::Str,
                    Some(VarTy::Str) => self.type_mismatch_num(),
                    Some(VarTy::Num(ty)) => ty,
                    None => NumTy::Sng,
                };
                let builtin = match func {
                    Func::Abs => Builtin::Abs,
                    Func::Int => Builtin::Int,
                    _ => Builtin::Fix,
                };
                call(self, builtin);
                VarTy::Num(ty)
            }
            Func::Sgn => {
                if let Some(a) = arg(0) {
                    self.num_expr(a);
                }
                call(self, Builtin::Sgn);
                VarTy::Num(NumTy::Int)
            }
            Func::Atn
            | Func::Cos
            | Func::Exp
            | Func::Log
            | Func::Sin
            | Func::Sqr
            | Func::Tan
            | Func::Csng => {
                if let Some(a) = arg(0) {
                    self.num_expr(a);
                }
                let builtin = match func {
                    Func::Atn => Builtin::Atn,
                    Func::Cos => Builtin::Cos,
                    Func::Exp => Builtin::Exp,
                    Func::Log => Builtin::Log,
                    Func::Sin => Builtin::Sin,
                    Func::Sqr => Builtin::Sqr,
                    Func::Tan => Builtin::Tan,
                    _ => Builtin::Csng,
                };
                call(self, builtin);
                VarTy::Num(NumTy::Sng)
            }
            Func::Cint => {
                if let Some(a) = arg(0) {
                    self.num_expr(a);
                }
                call(self, Builtin::Cint);
                VarTy::Num(NumTy::Int)
            }
            Func::Cdbl => {
                if let Some(a) = arg(0) {
                    self.num_expr(a);
                }
                VarTy::Num(NumTy::Dbl)
            }
            Func::Rnd => {
                match arg(0) {
                    Some(a) => {
                        self.num_expr(a);
                        self.emit(Op::Ext(Ext::RndArg));
                    }
                    None => {
                        self.emit(Op::Ext(Ext::Rnd));
                    }
                }
                VarTy::Num(NumTy::Sng)
            }
            Func::Timer => {
                self.emit(Op::Ext(Ext::Timer));
                VarTy::Num(NumTy::Sng)
            }
            Func::Err | Func::Erl => {
                call(
                    self,
                    if func == Func::Err {
                        Builtin::Err
                    } else {
                        Builtin::Erl
                    },
                );
                VarTy::Num(if func == Func::Err {
                    NumTy::Int
                } else {
                    NumTy::Sng
                })
            }
            Func::Len | Func::Asc | Func::Val => {
                if func == Func::Len
                    && let Some(slot) = arg(0).and_then(|a| self.str_var(a))
                {
                    call(self, Builtin::LenOf(slot));
                    return VarTy::Num(NumTy::Int);
                }
                if let Some(a) = arg(0) {
                    self.str_expr(a);
                }
                let (builtin, ty) = match func {
                    Func::Len => (Builtin::Len, NumTy::Int),
                    Func::Asc => (Builtin::Asc, NumTy::Int),
                    _ => (Builtin::Val, NumTy::Sng),
                };
                call(self, builtin);
                VarTy::Num(ty)
            }
            Func::Left | Func::Right => {
                // of a variable, the function reads it in place: no copy of the
                // whole string goes on the stack (the arguments cannot change it)
                let var = arg(0).and_then(|a| self.str_var(a));
                if let (Some(s), Some(n)) = (arg(0), arg(1)) {
                    if var.is_none() {
                        self.str_expr(s);
                    }
                    self.num_expr(n);
                }
                let builtin = match (func, var) {
                    (Func::Left, Some(slot)) => Builtin::LeftOf(slot),
                    (Func::Left, None) => Builtin::Left,
                    (_, Some(slot)) => Builtin::RightOf(slot),
                    (_, None) => Builtin::Right,
                };
                call(self, builtin);
                VarTy::Str
            }
            Func::Mid => {
                let var = arg(0).and_then(|a| self.str_var(a));
                if let (Some(s), Some(n)) = (arg(0), arg(1)) {
                    if var.is_none() {
                        self.str_expr(s);
                    }
                    self.num_expr(n);
                }
                let builtin = match (arg(2), var) {
                    (Some(m), var) => {
                        self.num_expr(m);
                        var.map_or(Builtin::Mid3, Builtin::Mid3Of)
                    }
                    (None, var) => var.map_or(Builtin::Mid2, Builtin::Mid2Of),
                };
                call(self, builtin);
                VarTy::Str
            }
            Func::Cvi | Func::Cvs | Func::Cvd => {
                if let Some(a) = arg(0) {
                    self.str_expr(a);
                }
                let ty = match func {
                    Func::Cvi => NumTy::Int,
                    Func::Cvs => NumTy::Sng,
                    _ => NumTy::Dbl,
                };
                call(self, Builtin::Cv(ty));
                VarTy::Num(ty)
            }
            Func::Mki | Func::Mks | Func::Mkd => {
                let ty = match func {
                    Func::Mki => NumTy::Int,
                    Func::Mks => NumTy::Sng,
                    _ => NumTy::Dbl,
                };
                let from = arg(0).map_or(NumTy::Sng, |a| self.num_expr(a));
                self.convert(from, ty);
                call(self, Builtin::Mk(ty));
                VarTy::Str
            }
            Func::Chr | Func::Space | Func::Hex | Func::Oct | Func::Str => {
                let ty = arg(0).map_or(NumTy::Sng, |a| self.num_expr(a));
                let builtin = match func {
                    Func::Chr => Builtin::Chr,
                    Func::Space => Builtin::Space,
                    Func::Hex => Builtin::Hex,
                    Func::Oct => Builtin::Oct,
                    _ if ty == NumTy::Dbl => Builtin::StrDbl,
                    _ => Builtin::StrSng,
                };
                call(self, builtin);
                VarTy::Str
            }
            Func::Instr => {
                if args.len() == 3 {
                    if let (Some(n), Some(a), Some(b)) = (arg(0), arg(1), arg(2)) {
                        if self.expr(n) == VarTy::Str {
                            // GW-BASIC takes a string first argument for the text
                            // searched, reads the string after it and then wants
                            // `)`: `INSTR(A$, B$, 3)` is `Syntax error` at the comma
                            self.str_expr(a);
                            self.emit(Op::Raise(ErrorCode::SyntaxError));
                            self.emit(Op::Num(0.0));
                            return VarTy::Num(NumTy::Int);
                        }
                        self.str_expr(a);
                        self.str_expr(b);
                    }
                    call(self, Builtin::Instr3);
                } else {
                    if let (Some(a), Some(b)) = (arg(0), arg(1)) {
                        self.str_expr(a);
                        self.str_expr(b);
                    }
                    call(self, Builtin::Instr2);
                }
                VarTy::Num(NumTy::Int)
            }
            Func::StringS => {
                if let Some(n) = arg(0) {
                    self.num_expr(n);
                }
                match arg(1).map(|c| self.expr(c)) {
                    Some(VarTy::Str) => call(self, Builtin::StringStr),
                    _ => call(self, Builtin::StringCode),
                }
                VarTy::Str
            }
            Func::Pos => {
                if let Some(a) = arg(0) {
                    self.num_expr(a);
                }
                call(self, Builtin::Pos);
                VarTy::Num(NumTy::Int)
            }
            Func::Fre => {
                // a string argument asks for a garbage collection first
                let is_str = arg(0).is_some_and(|a| self.expr(a) == VarTy::Str);
                call(
                    self,
                    if is_str {
                        Builtin::FreStr
                    } else {
                        Builtin::Fre
                    },
                );
                VarTy::Num(NumTy::Sng)
            }
        }
    }
}
