//! Checks compiled code before it runs: every jump lands inside the code, every
//! slot and table index exists, and both stacks have the same depth on every path
//! into an instruction and never underflow. The VM relies on this instead of
//! checking at run time.

use crate::code::{Code, Param};
use crate::op::*;

/// A broken invariant: the instruction and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct VerifyError {
    pub(crate) pc: usize,
    pub(crate) message: String,
}

type Depth = (u32, u32);

const MAX_DEPTH: u32 = 10_000;

struct Verifier<'a> {
    code: &'a Code,
    depth: Vec<Option<Depth>>,
    work: Vec<usize>,
}

/// Verifies the code; returns the deepest stack use (numbers, strings).
pub(crate) fn verify(code: &Code) -> Result<Depth, VerifyError> {
    let mut verifier = Verifier {
        code,
        depth: vec![None; code.ops.len()],
        work: Vec::new(),
    };
    verifier.check_tables()?;
    let mut entries = vec![0usize];
    entries.extend(
        code.defs
            .iter()
            .flat_map(|def| def.variants.iter().map(|(_, body)| body.0 as usize)),
    );
    // RESUME may continue at any statement boundary, with empty stacks
    for &(start, _, next) in &code.stmts {
        entries.push(start as usize);
        if (next as usize) < code.ops.len() {
            entries.push(next as usize);
        }
    }
    for entry in entries {
        verifier.reach(entry, (0, 0), entry)?;
    }
    let mut max = (0, 0);
    while let Some(pc) = verifier.work.pop() {
        let depth = verifier.depth.get(pc).copied().flatten().unwrap_or((0, 0));
        let after = verifier.step(pc, depth)?;
        max = (
            max.0.max(after.0).max(depth.0),
            max.1.max(after.1).max(depth.1),
        );
    }
    Ok(max)
}

impl Verifier<'_> {
    fn fail<T>(&self, pc: usize, message: impl Into<String>) -> Result<T, VerifyError> {
        Err(VerifyError {
            pc,
            message: message.into(),
        })
    }

    fn reach(&mut self, target: usize, depth: Depth, from: usize) -> Result<(), VerifyError> {
        let Some(slot) = self.depth.get_mut(target) else {
            return self.fail(from, format!("jump to {target} outside the code"));
        };
        match slot {
            None => {
                *slot = Some(depth);
                self.work.push(target);
                Ok(())
            }
            Some(existing) if *existing == depth => Ok(()),
            Some(existing) => {
                let existing = *existing;
                self.fail(
                    from,
                    format!("stack depth {depth:?} meets {existing:?} at {target}"),
                )
            }
        }
    }

    fn check_tables(&self) -> Result<(), VerifyError> {
        let len = self.code.ops.len() as u32;
        let in_code = |pc: Pc| pc.0 < len;
        for info in &self.code.fors {
            if info.var.0 as usize >= self.code.num_vars.len() {
                return self.fail(0, "FOR variable out of range");
            }
            if let Ok(skip) = info.skip
                && skip.0 > len
            {
                return self.fail(0, "FOR skip target outside the code");
            }
        }
        for info in &self.code.whiles {
            if !in_code(info.start) || info.exit.is_ok_and(|exit| exit.0 > len) {
                return self.fail(0, "WHILE target outside the code");
            }
        }
        for on in &self.code.ons {
            if on.targets.iter().flatten().any(|&pc| !in_code(pc)) {
                return self.fail(0, "ON target outside the code");
            }
        }
        for def in &self.code.defs {
            if def.variants.iter().any(|(_, body)| !in_code(*body))
                || def.func as usize >= self.code.fn_names.len()
            {
                return self.fail(0, "DEF FN body outside the code");
            }
            let variants = def.variants.iter().flat_map(|(params, _)| params);
            for param in def.params.iter().chain(variants) {
                let ok = match param {
                    Param::Num(slot, _) => (slot.0 as usize) < self.code.num_vars.len(),
                    Param::Str(slot) => (slot.0 as usize) < self.code.str_vars.len(),
                };
                if !ok {
                    return self.fail(0, "DEF FN parameter out of range");
                }
            }
        }
        for call in &self.code.calls {
            if call.func as usize >= self.code.fn_names.len() {
                return self.fail(0, "FN call to an unknown function");
            }
        }
        Ok(())
    }

    fn check_operands(&self, pc: usize, op: &Op) -> Result<(), VerifyError> {
        let nums = self.code.num_vars.len();
        let strs = self.code.str_vars.len();
        let arrays = self.code.arrays.len();
        let ok = match op {
            Op::LoadNum(s)
            | Op::StoreNum(s)
            | Op::StoreSng(s)
            | Op::StoreInt(s)
            | Op::Next(s, _) => (s.0 as usize) < nums,
            Op::LoadStr(s) | Op::StoreStr(s) => (s.0 as usize) < strs,
            Op::AppendConst(s, c) => {
                (s.0 as usize) < strs && (c.0 as usize) < self.code.strings.len()
            }
            Op::AppendVar(s, t) => (s.0 as usize) < strs && (t.0 as usize) < strs,
            Op::LoadElemNum(a, _) | Op::StoreElemNum(a, _, _) => self
                .code
                .arrays
                .get(a.0 as usize)
                .is_some_and(|info| !info.is_str),
            Op::CheckElem(a, _) => (a.0 as usize) < self.code.arrays.len(),
            Op::LoadElemStr(a, _) | Op::StoreElemStr(a, _) => self
                .code
                .arrays
                .get(a.0 as usize)
                .is_some_and(|info| info.is_str),
            Op::Dim(a, _) | Op::Erase(a) => (a.0 as usize) < arrays,
            Op::Str(c) => (c.0 as usize) < self.code.strings.len(),
            Op::On(t) => (t.0 as usize) < self.code.ons.len(),
            Op::ForInit(t) => (t.0 as usize) < self.code.fors.len(),
            Op::ForConst { table, limit, step } => {
                (table.0 as usize) < self.code.fors.len()
                    && (*limit as usize) < self.code.consts.len()
                    && (*step as usize) < self.code.consts.len()
            }
            Op::While(t) => (t.0 as usize) < self.code.whiles.len(),
            Op::DefFn(t) => (t.0 as usize) < self.code.defs.len(),
            Op::CallFn(t) => (t.0 as usize) < self.code.calls.len(),
            Op::Ext(Ext::Input(t)) => (t.0 as usize) < self.code.inputs.len(),
            Op::Ext(Ext::DefCase(t)) => (t.0 as usize) < self.code.def_cases.len(),
            Op::Ext(Ext::FnDefined(func, _)) => (*func as usize) < self.code.fn_names.len(),
            Op::Ext(Ext::FnArg(t, _)) => (t.0 as usize) < self.code.calls.len(),
            Op::Restore(index) => (*index as usize) <= self.code.data.len(),
            Op::Call(builtin) => builtin.reads().is_none_or(|s| (s.0 as usize) < strs),
            _ => true,
        };
        if ok {
            Ok(())
        } else {
            self.fail(pc, format!("operand out of range in {op:?}"))
        }
    }

    fn step(&mut self, pc: usize, depth: Depth) -> Result<Depth, VerifyError> {
        let Some(op) = self.code.ops.get(pc).copied() else {
            return self.fail(pc, "no instruction");
        };
        self.check_operands(pc, &op)?;
        let mut effect = op.effect();
        match op {
            Op::Ext(Ext::Input(TableId(form))) => {
                let form = self.code.inputs.get(form as usize);
                effect.num_pop = form.map_or(0, |f| f.targets.iter().map(|t| t.dims()).sum());
            }
            Op::CallFn(TableId(call)) => {
                if let Some(call) = self.code.calls.get(call as usize) {
                    let strs = call.arg_is_str.iter().filter(|s| **s).count() as u32;
                    effect.num_pop = call.arg_is_str.len() as u32 - strs;
                    effect.str_pop = strs;
                    if call.result_is_str {
                        effect.str_push = 1;
                    } else {
                        effect.num_push = 1;
                    }
                }
            }
            Op::FnReturn => {
                if depth != (1, 0) && depth != (0, 1) {
                    return self.fail(pc, format!("function returns with depth {depth:?}"));
                }
                return Ok(depth);
            }
            _ => {}
        }
        if depth.0 < effect.num_pop || depth.1 < effect.str_pop {
            return self.fail(pc, format!("stack underflow in {op:?} at depth {depth:?}"));
        }
        let after = (
            depth.0 - effect.num_pop + effect.num_push,
            depth.1 - effect.str_pop + effect.str_push,
        );
        if after.0 > MAX_DEPTH || after.1 > MAX_DEPTH {
            return self.fail(pc, "stack too deep");
        }
        if let Some(target) = op.target() {
            self.reach(target.0 as usize, after, pc)?;
        }
        match op {
            Op::On(TableId(table)) => {
                let targets: Vec<Pc> = self
                    .code
                    .ons
                    .get(table as usize)
                    .map(|on| on.targets.iter().flatten().copied().collect())
                    .unwrap_or_default();
                for target in targets {
                    self.reach(target.0 as usize, after, pc)?;
                }
            }
            Op::ForInit(TableId(table))
            | Op::ForConst {
                table: TableId(table),
                ..
            } => {
                if let Some(Ok(skip)) = self.code.fors.get(table as usize).map(|f| f.skip)
                    && (skip.0 as usize) < self.code.ops.len()
                {
                    self.reach(skip.0 as usize, after, pc)?;
                }
            }
            Op::While(TableId(table)) => {
                if let Some(Ok(exit)) = self.code.whiles.get(table as usize).map(|w| w.exit)
                    && (exit.0 as usize) < self.code.ops.len()
                {
                    self.reach(exit.0 as usize, after, pc)?;
                }
            }
            _ => {}
        }
        if op.falls_through() && pc + 1 < self.code.ops.len() {
            self.reach(pc + 1, after, pc)?;
        }
        Ok(after)
    }
}
