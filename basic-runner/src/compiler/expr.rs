//! Compiles expressions: every expression leaves one value on the stack and
//! reports its type, so the statement compiler can convert or raise Type
//! mismatch where GW-BASIC does.

use super::*;

/// An expression's type as the compiler knows it.
pub(super) enum Typed {
    /// Known when the program is compiled.
    Known(VarTy),
    /// Decided when it runs, by what `VAL` read: the value is on the stack
    /// with its type flag above it (1 for a double), as `ValTyped` pushes them.
    Run,
}

/// Whether the expression's type is decided by a `VAL` when it runs: `VAL`
/// itself, and the arithmetic, negation, `ABS`, `INT`, `FIX` around it, which
/// in GW-BASIC work in the type their operands have (`VAL(A$)+1` is a double
/// when `A$` holds more than 7 digits). Everywhere else the type is known.
fn carries_val(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::Func(Func::Val, args) => args.len() == 1,
        ExprKind::Func(Func::Abs | Func::Int | Func::Fix, args) => {
            matches!(args.as_slice(), [arg] if carries_val(arg))
        }
        ExprKind::Unary(UnOp::Neg, operand) => carries_val(operand),
        ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, left, right) => {
            carries_val(left) || carries_val(right)
        }
        _ => false,
    }
}

impl Compiler {
    /// Compiles an expression to one value of a type known here; a value typed
    /// at run time (`VAL`) is given as a double, which holds a single exactly,
    /// so comparing, converting and storing it is right either way. Where the
    /// type shows (`PRINT`, `STR$`, `WRITE`, `PRINT USING`), callers use
    /// [`Compiler::typed_expr`].
    pub(super) fn expr(&mut self, expr: &Expr) -> VarTy {
        match self.typed_expr(expr) {
            Typed::Known(ty) => ty,
            Typed::Run => {
                self.emit(Op::PopNum);
                VarTy::Num(NumTy::Dbl)
            }
        }
    }

    /// Compiles an expression whose type may be decided when it runs.
    pub(super) fn typed_expr(&mut self, expr: &Expr) -> Typed {
        if !carries_val(expr) {
            return Typed::Known(self.known_expr(expr));
        }
        match &expr.kind {
            ExprKind::Binary(op, left, right) => self.typed_binary(*op, left, right),
            ExprKind::Unary(_, operand) => self.typed_unary(TypedOp::Neg, operand),
            ExprKind::Func(func, args) => match (func, args.as_slice()) {
                (Func::Abs, [arg]) => self.typed_unary(TypedOp::Abs, arg),
                (Func::Int, [arg]) => self.typed_unary(TypedOp::Int, arg),
                (Func::Fix, [arg]) => self.typed_unary(TypedOp::Fix, arg),
                (_, [text]) => {
                    self.val_typed(text);
                    Typed::Run
                }
                _ => Typed::Known(self.known_expr(expr)),
            },
            _ => Typed::Known(self.known_expr(expr)),
        }
    }

    fn typed_unary(&mut self, op: TypedOp, operand: &Expr) -> Typed {
        match self.typed_expr(operand) {
            Typed::Run => {
                self.emit(Op::Call(Builtin::Typed(op)));
                Typed::Run
            }
            // a double (`-(VAL(A$)+1#)`) or a type mismatch
            Typed::Known(ty) => {
                let builtin = match op {
                    TypedOp::Neg => None,
                    TypedOp::Abs => Some(Builtin::Abs),
                    TypedOp::Int => Some(Builtin::Int),
                    _ => Some(Builtin::Fix),
                };
                match (ty, builtin) {
                    (VarTy::Num(_), None) => self.emit(Op::Neg),
                    (VarTy::Num(_), Some(builtin)) => self.emit(Op::Call(builtin)),
                    (VarTy::Str, _) => return Typed::Known(VarTy::Num(self.type_mismatch_num())),
                };
                Typed::Known(ty)
            }
        }
    }

    /// `+ - * /` with an operand typed at run time: each operand known here gets
    /// its type flag, and `Typed` picks single or double arithmetic.
    fn typed_binary(&mut self, op: BinOp, left: &Expr, right: &Expr) -> Typed {
        let mut double = false;
        let mut string = false;
        for operand in [left, right] {
            match self.typed_expr(operand) {
                Typed::Run => {}
                Typed::Known(VarTy::Num(ty)) => {
                    double |= ty == NumTy::Dbl;
                    self.emit(Op::Num(if ty == NumTy::Dbl { 1.0 } else { 0.0 }));
                }
                Typed::Known(VarTy::Str) => string = true,
            }
        }
        if string {
            return Typed::Known(VarTy::Num(self.type_mismatch_num()));
        }
        let op = match op {
            BinOp::Add => TypedOp::Add,
            BinOp::Sub => TypedOp::Sub,
            BinOp::Mul => TypedOp::Mul,
            _ => TypedOp::Div,
        };
        self.emit(Op::Call(Builtin::Typed(op)));
        if !double {
            return Typed::Run;
        }
        // with a double beside it the result is a double whatever VAL read
        self.emit(Op::PopNum);
        Typed::Known(VarTy::Num(NumTy::Dbl))
    }

    /// Hands a value typed at run time (value, then flag) to the instruction
    /// for its type: the flag picks one of two copies of that instruction.
    pub(super) fn by_run_time_type(&mut self, consume: impl Fn(NumTy) -> Op) -> usize {
        let to_single = self.emit(Op::JumpIfFalse(Pc(0)));
        self.emit(consume(NumTy::Dbl));
        let over = self.emit(Op::Jump(Pc(0)));
        let single = self.pc();
        self.patch(to_single, Op::JumpIfFalse(single));
        self.emit(consume(NumTy::Sng));
        let end = self.pc();
        self.patch(over, Op::Jump(end));
        over
    }

    fn known_expr(&mut self, expr: &Expr) -> VarTy {
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
            ExprKind::FnCall(name, args) => self.fn_call(name, args),
            ExprKind::FnDefined(name, need) => self.fn_lookup(name, *need),
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
            Func::InputKeys => {
                let ty = arg(0).map_or(NumTy::Sng, |a| self.num_expr(a));
                self.convert(ty, NumTy::Int);
                self.emit(Op::Ext(Ext::AwaitKeys));
                call(self, Builtin::InputKeys);
                VarTy::Str
            }
            Func::Inkey => {
                self.emit(Op::Ext(Ext::AwaitKey));
                call(self, Builtin::Inkey);
                VarTy::Str
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
            Func::Val => {
                // reached only for a `VAL` with a wrong count of arguments,
                // which the parser refuses; typed like the others
                if let Some(a) = arg(0) {
                    self.val_typed(a);
                }
                self.emit(Op::PopNum);
                VarTy::Num(NumTy::Dbl)
            }
            Func::Len | Func::Asc => {
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
                    _ => (Builtin::Asc, NumTy::Int),
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
                        // the start is checked (`MID$`, BISTRS.ASM) before the
                        // length is read, which only a number cannot tell
                        if !matches!(m.kind, ExprKind::Num(..)) {
                            self.emit(Op::Ext(Ext::CheckTop(ArgRange::Start)));
                        }
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
            Func::Str if arg(0).is_some_and(carries_val) => {
                if let Some(Typed::Run) = arg(0).map(|a| self.typed_expr(a)) {
                    call(self, Builtin::StrTyped);
                } else {
                    // a double beside the VAL (`STR$(VAL(A$)+1#)`) or a mismatch
                    call(self, Builtin::StrDbl);
                }
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
                        // CONINT checks the start before the comma after it
                        self.emit(Op::Ext(Ext::CheckTop(ArgRange::Start)));
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
            Func::InstrRead => {
                self.instr_read(args);
                self.emit(Op::Num(0.0));
                VarTy::Num(NumTy::Int)
            }
            Func::Checked(range) => {
                if let Some(a) = arg(0) {
                    let ty = self.num_expr(a);
                    self.convert(ty, NumTy::Int);
                }
                self.emit(Op::Ext(Ext::CheckedArg(range)));
                self.emit(Op::Num(0.0));
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

    /// The arguments of a broken `INSTR` list, checked as GW-BASIC reads them
    /// (`Func::InstrRead`), their values dropped.
    #[cold]
    #[inline(never)]
    fn instr_read(&mut self, args: &[Expr]) {
        let mut rest = args.iter();
        let Some(first) = rest.next() else {
            return;
        };
        if self.expr(first) == VarTy::Str {
            // the text searched; the text sought is read, checked after `)`
            self.drop_str();
            if let Some(sought) = rest.next() {
                self.drop_values(std::slice::from_ref(sought));
            }
            return;
        }
        self.emit(Op::Ext(Ext::CheckedArg(ArgRange::Start)));
        if let Some(searched) = rest.next() {
            self.str_expr(searched);
            self.drop_str();
        }
        self.drop_values(rest.as_slice());
    }
}
