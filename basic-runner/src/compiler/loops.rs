//! Loops: `FOR` and `NEXT` compiled, and each `FOR`/`WHILE` matched to its
//! `NEXT`/`WEND` by scanning the text forward, as GW-BASIC skips a loop body.

use super::*;

impl Compiler {
    /// Finds each loop's matching `NEXT`/`WEND` by scanning forward in the text.
    pub(super) fn match_loops(&mut self) {
        let events = std::mem::take(&mut self.events);
        for (index, event) in events.iter().enumerate() {
            let event = match event {
                LoopEvent::Copy(inner) => inner.as_ref(),
                event => event,
            };
            match event {
                LoopEvent::For(table, var, for_name) => {
                    let mut depth = 0usize;
                    let mut skip = Err((ErrorCode::ForWithoutNext, None));
                    for (at, later) in events.iter().enumerate().skip(index + 1) {
                        match later {
                            LoopEvent::For(..) => depth += 1,
                            LoopEvent::Next(next_var, after, line, bare_name) => {
                                if depth == 0 {
                                    // of a NEXT in DEF-typed copies, the one of this
                                    // FOR's variable (I% or I!), whose address its
                                    // loop is left from
                                    let copy =
                                        events.iter().skip(at + 1).map_while(|event| match event {
                                            LoopEvent::Copy(inner) => match inner.as_ref() {
                                                LoopEvent::Next(Some(slot), after, ..) => {
                                                    Some((slot, after))
                                                }
                                                _ => None,
                                            },
                                            _ => None,
                                        });
                                    let (next_var, after) =
                                        match copy.into_iter().find(|(slot, _)| *slot == var) {
                                            Some((slot, after)) => (Some(*slot), after),
                                            None => (*next_var, after),
                                        };
                                    // GW-BASIC matches the NEXT when the FOR runs, with
                                    // the DEF types of that moment: a bare name retyped
                                    // by a later DEFINT still matches
                                    let same_name = bare_name.is_some() && bare_name == for_name;
                                    skip = match next_var {
                                        Some(next_var) if next_var != *var && !same_name => {
                                            Err((ErrorCode::NextWithoutFor, Some(*line)))
                                        }
                                        _ => Ok(*after),
                                    };
                                    break;
                                }
                                depth -= 1;
                            }
                            _ => {}
                        }
                    }
                    // a FOR without its NEXT evaluates its values and fails
                    // (at its ForInit) before it assigns: its store only drops
                    // the start value, after an integer's Overflow
                    if skip.is_err()
                        && let Some(&store) = self.for_stores.get(*table)
                    {
                        match self.code.ops.get(store) {
                            Some(Op::StoreInt(_)) => {
                                self.patch(store, Op::Ext(Ext::CheckedArg(ArgRange::Integer)));
                            }
                            Some(Op::StoreNum(_) | Op::StoreSng(_)) => {
                                self.patch(store, Op::PopNum);
                            }
                            _ => {}
                        }
                    }
                    if let Some(info) = self.code.fors.get_mut(*table) {
                        info.skip = skip;
                    }
                }
                LoopEvent::While(table) => {
                    let mut depth = 0usize;
                    let mut exit = Err(ErrorCode::WhileWithoutWend);
                    for later in events.iter().skip(index + 1) {
                        match later {
                            LoopEvent::While(_) => depth += 1,
                            LoopEvent::Wend(after) => {
                                if depth == 0 {
                                    exit = Ok(*after);
                                    break;
                                }
                                depth -= 1;
                            }
                            _ => {}
                        }
                    }
                    if let (Err(error), Some(&check)) = (exit, self.while_checks.get(*table)) {
                        self.patch(check, Op::Raise(error));
                    }
                    if let Some(info) = self.code.whiles.get_mut(*table) {
                        info.exit = exit;
                    }
                }
                _ => {}
            }
        }
    }

    pub(super) fn for_loop(&mut self, var: &str, from: &Expr, to: &Expr, step: Option<&Expr>) {
        let (base, ty) = self.type_of(var);
        // GW-BASIC's loops count in integers or singles: a string or double
        // variable is a type mismatch, raised after the start value is evaluated
        if !matches!(ty, VarTy::Num(NumTy::Int | NumTy::Sng)) {
            if ty != VarTy::Str {
                self.num_expr(from);
                self.emit(Op::PopNum);
            }
            self.emit(Op::Raise(ErrorCode::TypeMismatch));
            // still a FOR when other loops look for their NEXT in the text
            self.events
                .push(LoopEvent::For(usize::MAX, Slot(u32::MAX), None));
            return;
        }
        let VarTy::Num(num_ty) = ty else {
            return;
        };
        let slot = self.num_slot(&base, num_ty);
        let target = LValue {
            col: from.col,
            name: var.to_string(),
            indices: None,
        };
        // GW-BASIC's FOR (GWMAIN.ASM) evaluates the start, limit and step and
        // then looks for the loop's NEXT, before the first NEXT assigns the
        // variable: where the NEXT is missing, the store becomes a drop once
        // the loops are matched, and ForInit raises the table's error
        let table = self.code.fors.len();
        let from_ty = self.expr(from);
        self.for_stores.push(self.pc().0 as usize);
        self.store(&target, from_ty);
        let to_ty = self.num_expr(to);
        self.convert(to_ty, num_ty);
        match step {
            Some(step) => {
                let step_ty = self.num_expr(step);
                self.convert(step_ty, num_ty);
            }
            None => {
                self.emit(Op::Num(1.0));
            }
        }
        self.code.fors.push(ForInfo {
            var: slot,
            ty: num_ty,
            skip: Err((ErrorCode::ForWithoutNext, None)),
        });
        let bare_name = (!var.ends_with(['%', '!', '#', '$'])).then(|| var.to_owned());
        self.events.push(LoopEvent::For(table, slot, bare_name));
        self.emit(Op::ForInit(TableId(table as u32)));
    }

    pub(super) fn next(&mut self, var: Option<&str>) {
        let bare_name = var
            .filter(|var| !var.ends_with(['%', '!', '#', '$']))
            .map(str::to_owned);
        let slot = match var {
            None => {
                self.emit(Op::NextAny);
                None
            }
            Some(var) => {
                let (base, ty) = self.type_of(var);
                let VarTy::Num(num_ty) = ty else {
                    self.emit(Op::Raise(ErrorCode::NextWithoutFor));
                    return;
                };
                let slot = self.num_slot(&base, num_ty);
                self.emit(Op::Next(slot, num_ty));
                Some(slot)
            }
        };
        let after = self.pc();
        self.events
            .push(LoopEvent::Next(slot, after, self.current_line, bare_name));
    }
}
