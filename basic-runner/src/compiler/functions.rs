//! `DEF FN`: each definition's body compiled once for each DEF table its
//! function's calls meet, as GW-BASIC types parameters and body at the call.

use super::*;

impl Compiler {
    pub(super) fn fn_id(&mut self, name: &str) -> (u32, VarTy) {
        let (base, ty) = self.type_of(name);
        let key = (base.clone(), ty);
        if let Some(&id) = self.fn_ids.get(&key) {
            return (id, ty);
        }
        let id = self.code.fn_names.len() as u32;
        self.code.fn_names.push(format!("FN{base}{}", ty.suffix()));
        self.fn_ids.insert(key, id);
        (id, ty)
    }

    /// A user function's call. Out of `known_expr`, whose frame every level
    /// of an expression's recursion takes.
    #[inline(never)]
    pub(super) fn fn_call(&mut self, name: &str, args: &[Expr]) -> VarTy {
        let (func, result) = self.fn_id(name);
        let variant = self.fn_variant(func, name);
        // the entry is made first: the arguments' own calls come after it
        let call = self.code.calls.len();
        self.code.calls.push(CallInfo {
            func,
            arg_is_str: Vec::new(),
            result_is_str: result == VarTy::Str,
            variant,
        });
        let mut arg_is_str = Vec::new();
        for (index, arg) in args.iter().enumerate() {
            // GW-BASIC finds the function, then reads an argument for each of
            // its parameters and coerces it to the parameter's type
            let need = u8::try_from(index + 1).unwrap_or(u8::MAX);
            self.emit(Op::Ext(Ext::FnDefined(func, need)));
            arg_is_str.push(self.expr(arg) == VarTy::Str);
            let index = u8::try_from(index).unwrap_or(u8::MAX);
            self.emit(Op::Ext(Ext::FnArg(TableId(call as u32), index)));
        }
        if let Some(info) = self.code.calls.get_mut(call) {
            info.arg_is_str = arg_is_str;
        }
        self.emit(Op::CallFn(TableId(call as u32)));
        result
    }

    /// What a user function call broken in its arguments has done before
    /// each argument (`ExprKind::FnDefined`), with a dummy value.
    #[inline(never)]
    pub(super) fn fn_lookup(&mut self, name: &str, need: usize) -> VarTy {
        let (func, _) = self.fn_id(name);
        let need = u8::try_from(need).unwrap_or(u8::MAX);
        self.emit(Op::Ext(Ext::FnDefined(func, need)));
        self.emit(Op::Num(0.0));
        VarTy::Num(NumTy::Sng)
    }

    /// Which body of a user function a call here runs: the one compiled for
    /// the types its letters have here (GW-BASIC types the parameters and the
    /// body at each call).
    pub(super) fn fn_variant(&mut self, func: u32, name: &str) -> u32 {
        let letters = self
            .fn_letters
            .get(&deftypes::base(name))
            .copied()
            .unwrap_or(0);
        let touched = letters & self.ambiguous;
        if touched != 0 {
            self.used_ambiguous.set(self.used_ambiguous.get() | touched);
        }
        let mut table = [VarTy::Num(NumTy::Sng); 26];
        for (index, entry) in table.iter_mut().enumerate() {
            if letters & (1 << index) != 0 {
                *entry = self.def_types[index];
            }
        }
        let variants = self.fn_variants.entry(func).or_default();
        match variants.iter().position(|known| *known == table) {
            Some(index) => index as u32,
            None => {
                variants.push(table);
                (variants.len() - 1) as u32
            }
        }
    }

    pub(super) fn def_fn(
        &mut self,
        name: &str,
        params: &[String],
        body: Option<&Expr>,
        before_break: &[Expr],
        broken: Option<ErrorCode>,
    ) {
        let (func, result) = self.fn_id(name);
        // the parameters are typed here only for the variables the DEF makes;
        // a call types them again, so no copy of the DEF is needed for them
        let used = self.used_ambiguous.get();
        let typed_params = self.typed_params(params);
        // the DEF's own table is one its body is compiled for, called or not
        self.fn_variant(func, name);
        self.used_ambiguous.set(used);
        let def = self.code.defs.len();
        self.code.defs.push(DefInfo {
            func,
            params: typed_params,
            variants: Vec::new(),
        });
        self.pending_defs.push(PendingDef {
            def,
            line: self.current_line,
            body: body.cloned(),
            before_break: before_break.to_vec(),
            broken,
            result,
            params: params.to_vec(),
        });
        self.emit(Op::DefFn(TableId(def as u32)));
    }

    /// A function's parameters as variables typed by the DEF table in force.
    pub(super) fn typed_params(&mut self, params: &[String]) -> Vec<Param> {
        params
            .iter()
            .map(|param| {
                let (base, ty) = self.type_of(param);
                match ty {
                    VarTy::Str => Param::Str(self.str_slot(&base)),
                    VarTy::Num(num) => Param::Num(self.num_slot(&base, num), num),
                }
            })
            .collect()
    }

    /// Compiles each definition's body once for each table its function's
    /// calls meet; a body's own calls can add tables, so this goes on until
    /// every definition has all of its function's.
    pub(super) fn compile_defs(&mut self) {
        let pending = std::mem::take(&mut self.pending_defs);
        let mut done = vec![0usize; pending.len()];
        loop {
            let mut compiled = false;
            for (index, def) in pending.iter().enumerate() {
                let Some(func) = self.code.defs.get(def.def).map(|info| info.func) else {
                    continue;
                };
                while let Some(table) = self
                    .fn_variants
                    .get(&func)
                    .and_then(|tables| tables.get(done[index]))
                    .copied()
                {
                    let variant = self.def_body(def, table);
                    if let Some(info) = self.code.defs.get_mut(def.def) {
                        info.variants.push(variant);
                    }
                    done[index] += 1;
                    compiled = true;
                }
            }
            if !compiled {
                break;
            }
        }
    }

    /// One body of a definition, with its parameters, typed by `table`.
    pub(super) fn def_body(&mut self, def: &PendingDef, table: [VarTy; 26]) -> (Vec<Param>, Pc) {
        self.current_line = def.line;
        self.def_types = table;
        self.ambiguous = 0;
        self.used_ambiguous.set(0);
        self.mark_line(def.line);
        let params = self.typed_params(&def.params);
        let body = self.pc();
        let body_ty = match (&def.body, def.broken) {
            (Some(body), None) => Some(self.expr(body)),
            (body, Some(code)) => {
                // what parsed of the body runs before the error
                let ran: Vec<Expr> = body.iter().chain(&def.before_break).cloned().collect();
                self.drop_values(&ran);
                self.emit(Op::Raise(code));
                None
            }
            (None, None) => None,
        };
        let ty = match (body_ty, def.result) {
            (Some(ty), _) => ty,
            // unreachable after the raise; keeps the stack the verifier expects
            (None, VarTy::Num(num)) => {
                self.emit(Op::Num(0.0));
                VarTy::Num(num)
            }
            (None, VarTy::Str) => {
                let empty = self.string_const(&[]);
                self.emit(Op::Str(empty));
                VarTy::Str
            }
        };
        match (def.result, ty) {
            (VarTy::Str, VarTy::Str) => {}
            (VarTy::Num(to), VarTy::Num(from)) => self.convert(from, to),
            (VarTy::Str, VarTy::Num(_)) => self.type_mismatch_str(),
            (VarTy::Num(_), VarTy::Str) => {
                self.type_mismatch_num();
            }
        }
        self.emit(Op::FnReturn);
        (params, body)
    }
}
