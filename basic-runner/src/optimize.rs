//! Fuses common instruction sequences into superinstructions, so the VM
//! dispatches once where it would dispatch four or five times:
//! `K = K + 1` becomes one `Update`, `IF K < 1000 THEN 300` one `BranchVarK`.
//! Sequences are fused only where no jump lands inside them; every address in
//! the code and its tables is then relocated.

use crate::code::Code;
use crate::op::*;

/// A rewrite rule: given the code and a position, maybe a fused instruction and
/// how many instructions it replaces.
type Rule = fn(&[Op], usize, &mut Vec<f64>) -> Option<(usize, Op)>;

/// Runs every fusion over the code.
pub(crate) fn optimize(code: &mut Code) {
    let rules: [Rule; 10] = [
        drop_jumps_to_next,
        fuse_appends,
        fuse_operands,
        fuse_updates,
        fuse_loads,
        fuse_sets,
        fuse_for_constants,
        fuse_compares,
        fuse_branch_over_jump,
        fuse_var_const_branch,
    ];
    for rule in rules {
        rewrite(code, rule);
    }
}

/// A jump to the next instruction goes: that instruction takes its place.
fn drop_jumps_to_next(ops: &[Op], at: usize, _: &mut Vec<f64>) -> Option<(usize, Op)> {
    let next = ops.get(at + 1)?;
    is_jump_to_next(ops, at).then_some((2, *next))
}

fn is_jump_to_next(ops: &[Op], at: usize) -> bool {
    matches!(ops.get(at), Some(Op::Jump(Pc(target))) if *target as usize == at + 1)
}

fn fuse_appends(ops: &[Op], at: usize, _: &mut Vec<f64>) -> Option<(usize, Op)> {
    let (Op::LoadStr(var), Op::Concat, Op::StoreStr(store)) =
        (ops.get(at)?, ops.get(at + 2)?, ops.get(at + 3)?)
    else {
        return None;
    };
    if var != store {
        return None;
    }
    match ops.get(at + 1)? {
        Op::Str(k) => Some((4, Op::AppendConst(*var, *k))),
        Op::LoadStr(other) => Some((4, Op::AppendVar(*var, *other))),
        _ => None,
    }
}

fn fuse_operands(ops: &[Op], at: usize, _: &mut Vec<f64>) -> Option<(usize, Op)> {
    let arith = Arith::of(ops.get(at + 1)?)?;
    match ops.get(at)? {
        Op::Num(k) => Some((2, Op::ArithK(arith, *k))),
        Op::LoadNum(slot) => Some((2, Op::ArithV(arith, *slot))),
        _ => None,
    }
}

fn fuse_updates(ops: &[Op], at: usize, _: &mut Vec<f64>) -> Option<(usize, Op)> {
    let (Op::LoadNum(var), Op::ArithK(arith, k)) = (ops.get(at)?, ops.get(at + 1)?) else {
        return None;
    };
    match ops.get(at + 2)? {
        Op::StoreNum(store) if store == var => Some((3, Op::Update(*var, *arith, *k))),
        Op::StoreInt(store) if store == var => Some((3, Op::UpdateInt(*var, *arith, *k))),
        _ => None,
    }
}

fn fuse_loads(ops: &[Op], at: usize, _: &mut Vec<f64>) -> Option<(usize, Op)> {
    let (Op::LoadNum(var), Op::ArithK(arith, k)) = (ops.get(at)?, ops.get(at + 1)?) else {
        return None;
    };
    Some((2, Op::LoadArithK(*var, *arith, *k)))
}

fn fuse_sets(ops: &[Op], at: usize, _: &mut Vec<f64>) -> Option<(usize, Op)> {
    let (Op::Num(k), Op::StoreNum(var)) = (ops.get(at)?, ops.get(at + 1)?) else {
        return None;
    };
    Some((2, Op::SetNum(*var, *k)))
}

fn fuse_for_constants(ops: &[Op], at: usize, consts: &mut Vec<f64>) -> Option<(usize, Op)> {
    let (Op::Num(limit), Op::Num(step), Op::ForInit(table)) =
        (ops.get(at)?, ops.get(at + 1)?, ops.get(at + 2)?)
    else {
        return None;
    };
    let index = consts.len() as u32;
    consts.push(*limit);
    consts.push(*step);
    Some((
        3,
        Op::ForConst {
            table: *table,
            limit: index,
            step: index + 1,
        },
    ))
}

fn fuse_compares(ops: &[Op], at: usize, _: &mut Vec<f64>) -> Option<(usize, Op)> {
    let cmp = Cmp::of(ops.get(at)?)?;
    let Op::JumpIfFalse(target) = ops.get(at + 1)? else {
        return None;
    };
    Some((2, Op::Branch(cmp, false, *target)))
}

/// `IF c THEN 300` compiles to "jump past the GOTO unless c; GOTO 300".
fn fuse_branch_over_jump(ops: &[Op], at: usize, _: &mut Vec<f64>) -> Option<(usize, Op)> {
    let (Op::Branch(cmp, false, skip), Op::Jump(target)) = (ops.get(at)?, ops.get(at + 1)?) else {
        return None;
    };
    (skip.0 as usize == at + 2).then_some((2, Op::Branch(*cmp, true, *target)))
}

fn fuse_var_const_branch(ops: &[Op], at: usize, consts: &mut Vec<f64>) -> Option<(usize, Op)> {
    let (Op::LoadNum(var), Op::Num(k), Op::Branch(cmp, when, target)) =
        (ops.get(at)?, ops.get(at + 1)?, ops.get(at + 2)?)
    else {
        return None;
    };
    let index = consts.len() as u32;
    consts.push(*k);
    Some((
        3,
        Op::BranchVarK {
            var: *var,
            k: index,
            cmp: *cmp,
            when: *when,
            target: *target,
        },
    ))
}

/// Marks every address control can arrive at other than by falling through.
fn entry_points(code: &Code) -> Vec<bool> {
    let len = code.ops.len();
    let mut entry = vec![false; len + 1];
    let mut mark = |pc: Pc| {
        if let Some(slot) = entry.get_mut(pc.0 as usize) {
            *slot = true;
        }
    };
    for (pc, op) in code.ops.iter().enumerate() {
        if let Some(target) = op.target() {
            mark(target);
        }
        if op.resumes_after() {
            mark(Pc(pc as u32 + 1));
        }
    }
    for info in &code.fors {
        if let Ok(skip) = info.skip {
            mark(skip);
        }
    }
    for info in &code.whiles {
        mark(info.start);
        if let Ok(exit) = info.exit {
            mark(exit);
        }
    }
    for on in &code.ons {
        on.targets.iter().flatten().for_each(|&pc| mark(pc));
    }
    for def in &code.defs {
        def.variants.iter().for_each(|&(_, body)| mark(body));
    }
    for &(start, _) in &code.lines {
        mark(Pc(start));
    }
    for &(start, end, next) in &code.stmts {
        mark(Pc(start));
        mark(Pc(end));
        mark(Pc(next));
    }
    entry
}

fn rewrite(code: &mut Code, rule: Rule) {
    let entry = entry_points(code);
    let old = std::mem::take(&mut code.ops);
    let mut new_ops = Vec::with_capacity(old.len());
    let mut map = vec![0u32; old.len() + 1];
    let mut at = 0;
    while at < old.len() {
        let fused = rule(&old, at, &mut code.consts).filter(|(len, _)| {
            // a jump to the next instruction makes that instruction an entry by
            // itself; dropping the jump leaves the instruction, and every jump to
            // it, as it was
            (*len == 2 && is_jump_to_next(&old, at))
                || (at + 1..at + len).all(|inner| !entry.get(inner).copied().unwrap_or(true))
        });
        let new_pc = new_ops.len() as u32;
        match fused {
            Some((len, op)) => {
                for slot in map.iter_mut().skip(at).take(len) {
                    *slot = new_pc;
                }
                new_ops.push(op);
                at += len;
            }
            None => {
                if let Some(slot) = map.get_mut(at) {
                    *slot = new_pc;
                }
                if let Some(op) = old.get(at) {
                    new_ops.push(*op);
                }
                at += 1;
            }
        }
    }
    if let Some(last) = map.last_mut() {
        *last = new_ops.len() as u32;
    }
    let relocate = |pc: &mut Pc| {
        pc.0 = map.get(pc.0 as usize).copied().unwrap_or(pc.0);
    };
    for op in &mut new_ops {
        if let Some(target) = op.target_mut() {
            relocate(target);
        }
    }
    for info in &mut code.fors {
        if let Ok(skip) = &mut info.skip {
            relocate(skip);
        }
    }
    for info in &mut code.whiles {
        relocate(&mut info.start);
        if let Ok(exit) = &mut info.exit {
            relocate(exit);
        }
    }
    for on in &mut code.ons {
        on.targets.iter_mut().flatten().for_each(relocate);
    }
    for def in &mut code.defs {
        def.variants.iter_mut().for_each(|(_, body)| relocate(body));
    }
    for (start, _) in &mut code.lines {
        *start = map.get(*start as usize).copied().unwrap_or(*start);
    }
    for (start, end, next) in &mut code.stmts {
        *start = map.get(*start as usize).copied().unwrap_or(*start);
        *end = map.get(*end as usize).copied().unwrap_or(*end);
        *next = map.get(*next as usize).copied().unwrap_or(*next);
    }
    code.text_end = map
        .get(code.text_end as usize)
        .copied()
        .unwrap_or(code.text_end);
    code.ops = new_ops;
}
