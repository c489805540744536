//! DEF-typed copies: a statement naming a letter that `deftypes.rs` finds can
//! reach it with several types is compiled once per type, each copy picked at
//! run time by the VM's DEF table; a statement with one type per letter is
//! compiled once, as before, and costs nothing more.

use super::*;

/// The `DEF` type table for the statement after an `IF` in the text's order,
/// each branch's table with whether that branch can go on into it. Only a
/// statement nothing reaches keeps the text's table (`enter` gives every
/// other the types `deftypes.rs` finds reach it), so this matters for code
/// that never runs: a branch that ends in a jump leaves the lines after the
/// `IF` the table of the path that reaches them, and when both paths go on
/// with different tables the branch's own wins.
pub(super) fn types_after_if(
    before: [VarTy; 26],
    then: ([VarTy; 26], bool),
    otherwise: ([VarTy; 26], bool),
) -> [VarTy; 26] {
    match (then, otherwise) {
        ((_, false), (table, true)) | ((table, true), (_, false)) => table,
        ((_, false), (_, false)) => before,
        ((then, true), (otherwise, true)) if otherwise == before => then,
        (_, (otherwise, true)) => otherwise,
    }
}

/// Records, for each letter, a `DEF` keyword that sets it.
pub(super) fn note_def_keywords(stmts: &[Stmt], retyped_by: &mut [Option<Kw>; 26]) {
    for stmt in stmts {
        match &stmt.kind {
            StmtKind::If {
                then, otherwise, ..
            } => {
                note_def_keywords(then, retyped_by);
                note_def_keywords(otherwise, retyped_by);
            }
            StmtKind::DefType(kind, ranges) => {
                let letters = deftypes::letters_of(ranges);
                let kw = match kind {
                    DefKind::Int => Kw::Defint,
                    DefKind::Sng => Kw::Defsng,
                    DefKind::Dbl => Kw::Defdbl,
                    DefKind::Str => Kw::Defstr,
                };
                // DEFSNG names a letter only when nothing else retypes it
                for (index, entry) in retyped_by.iter_mut().enumerate() {
                    if letters & (1 << index) != 0 && (entry.is_none() || *kind != DefKind::Sng) {
                        *entry = Some(kw);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The type a `DEF` type code (`deftypes.rs`) stands for.
fn ty_of_code(code: u32) -> VarTy {
    match code {
        1 => VarTy::Num(NumTy::Int),
        2 => VarTy::Num(NumTy::Dbl),
        3 => VarTy::Str,
        _ => VarTy::Num(NumTy::Sng),
    }
}

/// How many copies of one statement the compiler makes for the ways its
/// letters can be typed (each a whole copy of its code); more are refused.
const MAX_COPIES: usize = 64;

/// Whether a statement that names a letter of several types can be compiled
/// once for each and pick its copy as it runs: one that holds no other
/// statements nor jumps (a `DEF FN` copy defines the function of the name as
/// typed there, `FNA%` or `FNA!`, as GW-BASIC's; a `FOR` copy runs the loop
/// of `I%` or `I!`, and a `NEXT` copy looks for that variable's loop).
pub(super) fn copyable(kind: &StmtKind) -> bool {
    matches!(
        kind,
        StmtKind::Let(..)
            | StmtKind::MidAssign { .. }
            | StmtKind::Justify { .. }
            | StmtKind::Print(_)
            | StmtKind::PrintUsing { .. }
            | StmtKind::Write(_)
            | StmtKind::WritePartial(_)
            | StmtKind::Input { .. }
            | StmtKind::LineInput { .. }
            | StmtKind::Dim(_)
            | StmtKind::Erase(_)
            | StmtKind::Read(_)
            | StmtKind::Swap(..)
            | StmtKind::Randomize(_)
            | StmtKind::Width(..)
            | StmtKind::CheckedArgs(_)
            | StmtKind::Cls(_)
            | StmtKind::RaiseError(_)
            | StmtKind::Record(_)
            | StmtKind::DefFn { .. }
            | StmtKind::For { .. }
            | StmtKind::Next(_)
            | StmtKind::Clear(_)
    )
}

/// Whether the statement after these can run next: not when one of them
/// always leaves (a jump, `RUN`, `RETURN`, an end).
pub(super) fn falls_through(stmts: &[Stmt]) -> bool {
    // what follows a jump in a branch runs only after RESUME NEXT, if ever
    !stmts.iter().any(|stmt| {
        matches!(
            stmt.kind,
            StmtKind::Goto(_)
                | StmtKind::Run(_)
                | StmtKind::Return(_)
                | StmtKind::End
                | StmtKind::Stop
                | StmtKind::Resume(_)
        )
    })
}

/// Whether a statement, or one inside an `IF`, is of a kind `pred` picks.
pub(super) fn has_stmt(stmts: &[Stmt], pred: &dyn Fn(&StmtKind) -> bool) -> bool {
    stmts.iter().any(|stmt| match &stmt.kind {
        StmtKind::If {
            then, otherwise, ..
        } => has_stmt(then, pred) || has_stmt(otherwise, pred),
        kind => pred(kind),
    })
}

impl Compiler {
    /// Sets the `DEF` types for a statement from what can reach it: a letter
    /// with one type has it; one with several is `ambiguous`, typed for now
    /// as the first. A statement nothing reaches keeps the text's types.
    pub(super) fn enter(&mut self, stmt: &Stmt) {
        self.ambiguous = 0;
        self.used_ambiguous.set(0);
        self.masks = [0; 26];
        let Some(masks) = self.reaching.get(&deftypes::key(stmt)).copied() else {
            return;
        };
        self.masks = masks;
        for (index, &mask) in masks.iter().enumerate() {
            if mask.count_ones() > 1 {
                self.ambiguous |= 1 << index;
            }
            if let Some(entry) = self.def_types.get_mut(index) {
                *entry = ty_of_code(mask.trailing_zeros());
            }
        }
    }

    /// Refuses the statement just compiled when it named a letter whose type
    /// depends on the run and could not be compiled in copies.
    pub(super) fn settled(&mut self) {
        let used = self.used_ambiguous.replace(0);
        if used == 0 {
            return;
        }
        let letter = used.trailing_zeros() as usize;
        let kw = self
            .retyped_by
            .get(letter)
            .copied()
            .flatten()
            .unwrap_or(Kw::Defint);
        if !self.refusals.contains(&(self.current_line, kw)) {
            self.refusals.push((self.current_line, kw));
        }
    }

    /// A condition or selector (one number on the stack) compiled in copies
    /// when it names letters whose type depends on the run.
    pub(super) fn num_copies(&mut self, expr: &Expr, to_single: bool) {
        let mut compile = |compiler: &mut Compiler| {
            let ty = compiler.num_expr(expr);
            if to_single {
                compiler.convert(ty, NumTy::Sng);
            }
        };
        if self.ambiguous == 0 {
            compile(self);
            return;
        }
        let outer = self.used_ambiguous.replace(0);
        let types = self.def_types;
        self.copies(&mut compile);
        self.def_types = types;
        self.used_ambiguous.set(self.used_ambiguous.get() | outer);
    }

    /// Code that names letters whose type depends on the run: one copy for
    /// each way they can be typed there, picked by the VM's table.
    pub(super) fn copies(&mut self, compile: &mut dyn FnMut(&mut Compiler)) {
        let masks = self.masks;
        let case_at = self.emit(Op::Ext(Ext::DefCase(TableId(0))));
        let on = self.emit(Op::On(TableId(0)));
        let first = self.pc();
        compile(self);
        let used = self.used_ambiguous.replace(0);
        if used == 0 {
            // it named none of them after all
            self.patch(case_at, Op::Jump(first));
            self.patch(on, Op::Jump(first));
            return;
        }
        let letters: Vec<usize> = (0..26).filter(|l| used & (1 << l) != 0).collect();
        // every combination of the letters' possible types, the first (each
        // letter's lowest) being the copy compiled above
        let mut combos: Vec<Vec<u32>> = vec![Vec::new()];
        for &letter in &letters {
            let mask = u32::from(masks.get(letter).copied().unwrap_or(1));
            combos = combos
                .into_iter()
                .flat_map(|combo| {
                    (0..4)
                        .filter(move |code| mask & (1 << code) != 0)
                        .map(move |code| {
                            let mut longer = combo.clone();
                            longer.push(code);
                            longer
                        })
                })
                .collect();
        }
        if combos.len() > MAX_COPIES {
            self.used_ambiguous.set(used);
            self.settled();
            return;
        }
        let mut targets = vec![Some(first)];
        let mut exits = Vec::new();
        for combo in combos.iter().skip(1) {
            exits.push(self.emit(Op::Jump(Pc(0))));
            targets.push(Some(self.pc()));
            for (&letter, &code) in letters.iter().zip(combo) {
                if let Some(entry) = self.def_types.get_mut(letter) {
                    *entry = ty_of_code(code);
                }
            }
            let events = self.events.len();
            compile(self);
            self.used_ambiguous.set(0);
            // one FOR or NEXT in the text, however many copies
            for event in self.events.iter_mut().skip(events) {
                let inner = std::mem::replace(event, LoopEvent::While(usize::MAX));
                *event = LoopEvent::Copy(Box::new(inner));
            }
        }
        let end = self.pc();
        for exit in exits {
            self.patch(exit, Op::Jump(end));
        }
        let packed = combos
            .iter()
            .map(|combo| {
                combo
                    .iter()
                    .rev()
                    .fold(0u64, |packed, &code| (packed << 2) | u64::from(code))
            })
            .collect();
        let case = TableId(self.code.def_cases.len() as u32);
        self.code.def_cases.push((used, packed));
        let table = TableId(self.code.ons.len() as u32);
        self.code.ons.push(OnInfo {
            targets,
            gosub: false,
        });
        self.patch(case_at, Op::Ext(Ext::DefCase(case)));
        self.patch(on, Op::On(table));
    }
}
