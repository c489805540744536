//! Compiles the syntax tree to bytecode.
//!
//! Names become slots, jumps to line numbers become code addresses, and every
//! `FOR`/`WHILE` learns where its matching `NEXT`/`WEND` is, found by scanning
//! the text as GW-BASIC does when it skips a loop body. Type errors and jumps to
//! missing lines compile to an instruction that raises the GW-BASIC error when
//! (and only when) it is reached.

use std::collections::{BTreeMap, HashMap};

use crate::ast::*;
use crate::code::*;
use crate::cp437::Ch;
use crate::error::{Diagnostic, ErrorCode, SyntaxProblem};
use crate::lexer::Kw;
use crate::number::NumTy;
use crate::op::*;

mod copies;
mod deftypes;
mod expr;
mod functions;
mod loops;

use copies::{copyable, falls_through, has_stmt, note_def_keywords, types_after_if};
use expr::Typed;

/// A variable's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum VarTy {
    Num(NumTy),
    Str,
}

impl VarTy {
    fn suffix(self) -> &'static str {
        match self {
            VarTy::Num(NumTy::Int) => "%",
            VarTy::Num(NumTy::Sng) => "",
            VarTy::Num(NumTy::Dbl) => "#",
            VarTy::Str => "$",
        }
    }
}

/// What the compiler reports besides code.
pub(crate) struct Compiled {
    pub(crate) code: Code,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Refused keywords with their lines.
    pub(crate) refusals: Vec<(u32, Kw)>,
}

enum LoopEvent {
    /// A `FOR`'s table, variable, and the name when written without a type sign.
    For(usize, Slot, Option<String>),
    /// A `NEXT`'s variable, the address after it, its line, and the name when
    /// written without a type sign (typed by the `DEF` type when it runs).
    Next(Option<Slot>, Pc, u32, Option<String>),
    While(usize),
    Wend(Pc),
    /// A loop event of a statement's second or later `DEF`-typed copy: the
    /// text holds one `FOR` or `NEXT` there, which the first copy's event
    /// stands for when other loops look for their `NEXT`.
    Copy(Box<LoopEvent>),
}

enum Fixup {
    Jump(usize, u32),
    On(usize, usize, u32),
    Restore(usize, u32),
}

struct PendingDef {
    def: usize,
    line: u32,
    body: Option<Expr>,
    /// What of a body that does not parse runs before its error.
    before_break: Vec<Expr>,
    /// The error the body raises at each call (after evaluating what parsed).
    broken: Option<ErrorCode>,
    result: VarTy,
    params: Vec<String>,
}

struct Compiler {
    code: Code,
    diagnostics: Vec<Diagnostic>,
    refusals: Vec<(u32, Kw)>,
    def_types: [VarTy; 26],
    /// The `DEF` types each reachable statement can meet (`deftypes.rs`).
    reaching: HashMap<usize, deftypes::Masks>,
    /// Whether some statement can meet a letter under two types: the `DEF`
    /// statements then keep the VM's table (`Ext::DefType`).
    dynamic: bool,
    /// The letters the statement being compiled can meet under several
    /// types; `def_types` holds the one of the copy being compiled.
    ambiguous: u32,
    /// The letters of `ambiguous` that the statement named.
    used_ambiguous: std::cell::Cell<u32>,
    /// The types each letter can have at the statement being compiled.
    masks: deftypes::Masks,
    /// A `DEF` keyword that sets each letter, to name in a refusal.
    retyped_by: [Option<Kw>; 26],
    /// For each user function's name, the letters whose types its calls
    /// depend on (`deftypes::function_letters`).
    fn_letters: HashMap<String, u32>,
    /// For each user function, the tables of those letters its calls and
    /// `DEF`s meet: one compiled body each (`CallInfo::variant`).
    fn_variants: HashMap<u32, Vec<[VarTy; 26]>>,
    num_slots: HashMap<(String, NumTy), Slot>,
    str_slots: HashMap<String, Slot>,
    array_ids: HashMap<(String, VarTy), ArrayId>,
    fn_ids: HashMap<(String, VarTy), u32>,
    string_ids: HashMap<Vec<Ch>, ConstId>,
    line_pcs: BTreeMap<u32, Pc>,
    known_lines: std::collections::BTreeSet<u32>,
    fixups: Vec<Fixup>,
    events: Vec<LoopEvent>,
    /// Whether the program has a `TRON`: its lines then start with `TraceLine`.
    traced: bool,
    /// Whether the program has a `RESUME` or `RESUME NEXT`: its lines with a
    /// `READ` or `FOR` then start with `LineStart` (see `Machine::curlin`).
    resumed: bool,
    pending_defs: Vec<PendingDef>,
    current_line: u32,
    /// The current line's statements as compiled: (column, first instruction).
    line_stmts: Vec<(usize, u32)>,
    /// The current line's `IF`s: their entry in `code.stmts` and `resume_col`.
    if_resumes: Vec<(usize, Option<usize>)>,
    /// Where each `FOR` table's store of the start value is (see `for_loop`),
    /// by table.
    for_stores: Vec<usize>,
    /// Where each `WHILE` table's check for its `WEND` is, by table.
    while_checks: Vec<usize>,
}

/// Compiles parsed lines (sorted by number) into code.
pub(crate) fn compile(lines: &[Line]) -> Compiled {
    let mut compiler = Compiler {
        code: Code::default(),
        diagnostics: Vec::new(),
        refusals: Vec::new(),
        def_types: [VarTy::Num(NumTy::Sng); 26],
        reaching: deftypes::reaching(lines),
        dynamic: false,
        ambiguous: 0,
        used_ambiguous: std::cell::Cell::new(0),
        masks: [0; 26],
        retyped_by: [None; 26],
        fn_letters: deftypes::function_letters(lines),
        fn_variants: HashMap::new(),
        num_slots: HashMap::new(),
        str_slots: HashMap::new(),
        array_ids: HashMap::new(),
        fn_ids: HashMap::new(),
        string_ids: HashMap::new(),
        line_pcs: BTreeMap::new(),
        known_lines: lines.iter().map(|l| l.number).collect(),
        fixups: Vec::new(),
        events: Vec::new(),
        pending_defs: Vec::new(),
        current_line: 0,
        traced: false,
        resumed: false,
        line_stmts: Vec::new(),
        if_resumes: Vec::new(),
        for_stores: Vec::new(),
        while_checks: Vec::new(),
    };
    // only a program that can turn tracing on pays for marking its lines
    compiler.traced = lines
        .iter()
        .any(|line| has_stmt(&line.stmts, &|kind| matches!(kind, StmtKind::Trace(true))));
    // nor does one without RESUME pay for marking where CURLIN is set again
    compiler.resumed = lines.iter().any(|line| {
        has_stmt(&line.stmts, &|kind| {
            matches!(kind, StmtKind::Resume(ResumeKind::Retry | ResumeKind::Next))
        })
    });
    compiler.dynamic = compiler
        .reaching
        .values()
        .any(|masks| masks.iter().any(|mask| mask.count_ones() > 1));
    for line in lines {
        note_def_keywords(&line.stmts, &mut compiler.retyped_by);
    }
    for line in lines {
        compiler.line(line);
    }
    compiler.code.text_end = compiler.code.ops.len() as u32;
    compiler.emit(Op::End);
    compiler.compile_defs();
    compiler.resolve_fixups();
    compiler.match_loops();
    compiler.code.stmts.sort_unstable();
    Compiled {
        code: compiler.code,
        diagnostics: compiler.diagnostics,
        refusals: compiler.refusals,
    }
}

impl Compiler {
    fn pc(&self) -> Pc {
        Pc(self.code.ops.len() as u32)
    }

    fn emit(&mut self, op: Op) -> usize {
        self.code.ops.push(op);
        self.code.ops.len() - 1
    }

    /// Fills in a jump emitted before its target was known.
    fn patch(&mut self, at: usize, op: Op) {
        if let Some(slot) = self.code.ops.get_mut(at) {
            *slot = op;
        }
    }

    fn mark_line(&mut self, number: u32) {
        let pc = self.code.ops.len() as u32;
        if let Some(last) = self.code.lines.last_mut()
            && last.0 == pc
        {
            last.1 = number;
            return;
        }
        self.code.lines.push((pc, number));
    }

    fn line(&mut self, line: &Line) {
        self.current_line = line.number;
        self.mark_line(line.number);
        self.line_pcs.insert(line.number, self.pc());
        if self.traced {
            self.emit(Op::Ext(Ext::TraceLine(line.number)));
        }
        // the errors GW-BASIC names at another line than the statement's
        // (`READ`'s bad item, `FOR`'s search for its `NEXT`) leave `CURLIN`
        // there after `RESUME`, until a line starts
        if self.resumed
            && has_stmt(&line.stmts, &|kind| {
                matches!(kind, StmtKind::Read(_) | StmtKind::For { .. })
            })
        {
            self.emit(Op::Ext(Ext::LineStart(line.number)));
        }
        self.stmts(&line.stmts, false);
        self.resolve_if_resumes();
    }

    /// The statements after `THEN` or `ELSE`. GW-BASIC's `READ` looks for
    /// `DATA` at the start of a line or after `:`, so a `DATA` right after
    /// `THEN` or `ELSE` is never read (one after a later `:` is).
    /// A branch's first statement is not one of its own for `RESUME`: GW-BASIC
    /// reaches it from the `IF` without passing a `:`, so its errors resume at
    /// the `IF` (see `stmts`).
    fn branch(&mut self, stmts: &[Stmt]) {
        match stmts.split_first() {
            Some((first, rest)) if matches!(first.kind, StmtKind::Data(_)) => {
                self.stmts(rest, false);
            }
            _ => self.stmts(stmts, true),
        }
    }

    /// Compiles `stmts` and notes each one's code for `RESUME`: where it
    /// starts, ends and where `RESUME NEXT` goes on. GW-BASIC notes a
    /// statement's start when it reaches it past a `:` or a line's start
    /// (`NEWSTT`'s `SAVTXT`), and `RESUME NEXT` skips from there to the next
    /// `:`. So the first statement of a branch (`first_in_branch`) takes its
    /// `IF`'s, and an `IF` goes on after the first `:` of its text, found once
    /// its line is compiled.
    fn stmts(&mut self, stmts: &[Stmt], first_in_branch: bool) {
        let mut previous_pushed = false;
        let mut belongs_to_if = first_in_branch;
        for (index, stmt) in stmts.iter().enumerate() {
            belongs_to_if &= index == 0 || stmt.joined;
            let start = self.pc().0;
            self.line_stmts.push((stmt.col, start));
            self.enter(stmt);
            // IF nests statements in statements: compiled past stmt's large
            // frame, to keep each level's stack small
            match &stmt.kind {
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                    ..
                } => self.if_stmt(cond, then, otherwise),
                kind if self.ambiguous != 0 && copyable(kind) => {
                    self.copies(&mut |compiler| compiler.stmt(stmt));
                }
                _ => {
                    self.stmt(stmt);
                    self.settled();
                }
            }
            let end = self.pc().0;
            if end <= start || belongs_to_if {
                previous_pushed = false;
                continue;
            }
            // the partial statement and its syntax error are one statement, as
            // in GW-BASIC's text: RESUME NEXT after either goes on past both
            match self.code.stmts.last_mut() {
                Some(last) if stmt.joined && previous_pushed && last.1 == start => {
                    last.1 = end;
                    last.2 = end;
                }
                _ => self.code.stmts.push((start, end, end)),
            }
            if let StmtKind::If { resume_col, .. } = stmt.kind {
                self.if_resumes
                    .push((self.code.stmts.len() - 1, resume_col));
            }
            previous_pushed = true;
        }
    }

    /// Where `RESUME NEXT` goes on after an error of each `IF` of the line
    /// just compiled: the statement its `resume_col` names (or the first
    /// after it, an empty one having no code), else the line's end.
    fn resolve_if_resumes(&mut self) {
        let line_end = self.pc().0;
        for (entry, resume_col) in std::mem::take(&mut self.if_resumes) {
            let next = resume_col
                .and_then(|col| {
                    self.line_stmts
                        .iter()
                        .find(|&&(stmt_col, _)| stmt_col >= col)
                        .map(|&(_, pc)| pc)
                })
                .unwrap_or(line_end);
            if let Some(span) = self.code.stmts.get_mut(entry) {
                span.2 = next;
            }
        }
        self.line_stmts.clear();
    }

    fn if_stmt(&mut self, cond: &Expr, then: &[Stmt], otherwise: &[Stmt]) {
        self.num_copies(cond, false);
        self.settled();
        let before = self.def_types;
        let branch = self.emit(Op::JumpIfFalse(Pc(0)));
        self.branch(then);
        let after_then = self.def_types;
        let after_else = if otherwise.is_empty() {
            let end = self.pc();
            self.patch(branch, Op::JumpIfFalse(end));
            before
        } else {
            let skip = self.emit(Op::Jump(Pc(0)));
            let else_pc = self.pc();
            self.patch(branch, Op::JumpIfFalse(else_pc));
            // the ELSE runs when THEN did not, with the table from before it
            self.def_types = before;
            self.branch(otherwise);
            let end = self.pc();
            self.patch(skip, Op::Jump(end));
            self.def_types
        };
        self.def_types = types_after_if(
            before,
            (after_then, falls_through(then)),
            (after_else, otherwise.is_empty() || falls_through(otherwise)),
        );
    }

    // ---- names and types ----

    fn type_of(&self, name: &str) -> (String, VarTy) {
        let ty = match name.chars().last() {
            Some('$') => Some(VarTy::Str),
            Some('%') => Some(VarTy::Num(NumTy::Int)),
            Some('!') => Some(VarTy::Num(NumTy::Sng)),
            Some('#') => Some(VarTy::Num(NumTy::Dbl)),
            _ => None,
        };
        match ty {
            Some(ty) => (name[..name.len() - 1].to_string(), ty),
            None => {
                let letter = name.bytes().next().unwrap_or(b'A');
                let index = usize::from(letter.saturating_sub(b'A')).min(25);
                if self.ambiguous & (1 << index) != 0 {
                    self.used_ambiguous
                        .set(self.used_ambiguous.get() | (1 << index));
                }
                let ty = self
                    .def_types
                    .get(index)
                    .copied()
                    .unwrap_or(VarTy::Num(NumTy::Sng));
                (name.to_string(), ty)
            }
        }
    }

    fn num_slot(&mut self, base: &str, ty: NumTy) -> Slot {
        if let Some(&slot) = self.num_slots.get(&(base.to_string(), ty)) {
            return slot;
        }
        let slot = Slot(self.code.num_vars.len() as u32);
        let display = format!("{base}{}", VarTy::Num(ty).suffix());
        self.code.num_vars.push((display, ty));
        self.num_slots.insert((base.to_string(), ty), slot);
        slot
    }

    fn str_slot(&mut self, base: &str) -> Slot {
        if let Some(&slot) = self.str_slots.get(base) {
            return slot;
        }
        let slot = Slot(self.code.str_vars.len() as u32);
        self.code.str_vars.push(format!("{base}$"));
        self.str_slots.insert(base.to_string(), slot);
        slot
    }

    fn array(&mut self, name: &str) -> (ArrayId, VarTy) {
        let (base, ty) = self.type_of(name);
        let key = (base.clone(), ty);
        if let Some(&id) = self.array_ids.get(&key) {
            return (id, ty);
        }
        let id = ArrayId(self.code.arrays.len() as u32);
        self.code.arrays.push(ArrayInfo {
            name: format!("{base}{}", ty.suffix()),
            is_str: ty == VarTy::Str,
        });
        self.array_ids.insert(key, id);
        (id, ty)
    }

    fn string_const(&mut self, bytes: &[Ch]) -> ConstId {
        if let Some(&id) = self.string_ids.get(bytes) {
            return id;
        }
        let id = ConstId(self.code.strings.len() as u32);
        self.code.strings.push(bytes.to_vec());
        self.string_ids.insert(bytes.to_vec(), id);
        id
    }

    fn dims(&self, count: usize) -> u8 {
        u8::try_from(count).unwrap_or(u8::MAX)
    }

    // ---- errors ----

    fn type_mismatch_num(&mut self) -> NumTy {
        self.emit(Op::Raise(ErrorCode::TypeMismatch));
        self.emit(Op::Num(0.0));
        NumTy::Sng
    }

    fn type_mismatch_str(&mut self) {
        self.emit(Op::Raise(ErrorCode::TypeMismatch));
        let empty = self.string_const(&[]);
        self.emit(Op::Str(empty));
    }

    fn num_expr(&mut self, expr: &Expr) -> NumTy {
        match self.expr(expr) {
            VarTy::Num(ty) => ty,
            VarTy::Str => self.type_mismatch_num(),
        }
    }

    fn str_expr(&mut self, expr: &Expr) {
        if let VarTy::Num(_) = self.expr(expr) {
            self.type_mismatch_str();
        }
    }

    /// Converts the number on the stack to `to`, for an argument or a loop bound.
    fn convert(&mut self, from: NumTy, to: NumTy) {
        match (from, to) {
            (_, NumTy::Int) if from != NumTy::Int => {
                self.emit(Op::ToInt);
            }
            (NumTy::Dbl, NumTy::Sng) => {
                self.emit(Op::ToSng);
            }
            _ => {}
        }
    }

    // ---- jumps ----

    fn jump_to_line(&mut self, line: u32, make: fn(Pc) -> Op) {
        if !self.known_lines.contains(&line) {
            self.emit(Op::Raise(ErrorCode::UndefinedLineNumber));
            return;
        }
        let at = self.emit(make(Pc(0)));
        self.fixups.push(Fixup::Jump(at, line));
    }

    fn resolve_fixups(&mut self) {
        let fixups = std::mem::take(&mut self.fixups);
        for fixup in fixups {
            match fixup {
                Fixup::Jump(at, line) => {
                    let target = self.line_pcs.get(&line).copied().unwrap_or(Pc(0));
                    if let Some(op) = self.code.ops.get_mut(at) {
                        *op = match *op {
                            Op::Jump(_) => Op::Jump(target),
                            Op::Gosub(_) => Op::Gosub(target),
                            Op::ReturnTo(_) => Op::ReturnTo(target),
                            Op::Run(_) => Op::Run(target),
                            Op::OnError(_) => Op::OnError(target),
                            Op::ResumeAt(_) => Op::ResumeAt(target),
                            other => other,
                        };
                    }
                }
                Fixup::On(table, index, line) => {
                    let target = self.line_pcs.get(&line).copied();
                    if let Some(slot) = self
                        .code
                        .ons
                        .get_mut(table)
                        .and_then(|on| on.targets.get_mut(index))
                    {
                        *slot = target;
                    }
                }
                Fixup::Restore(at, line) => {
                    let index = self
                        .code
                        .data
                        .iter()
                        .position(|entry| entry.line >= line)
                        .unwrap_or(self.code.data.len());
                    if let Some(op) = self.code.ops.get_mut(at) {
                        *op = Op::Restore(index as u32);
                    }
                }
            }
        }
    }

    // ---- statements ----

    /// Drop the string on top of the string stack.
    fn drop_str(&mut self) {
        self.emit(Op::Call(Builtin::Len));
        self.emit(Op::PopNum);
    }

    /// Evaluates each expression for its errors and effects and drops its value.
    fn drop_values(&mut self, exprs: &[Expr]) {
        for expr in exprs {
            if self.expr(expr) == VarTy::Str {
                self.drop_str();
            } else {
                self.emit(Op::PopNum);
            }
        }
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match &stmt.kind {
            StmtKind::Let(target, value) => {
                self.push_indices(target);
                // GW-BASIC finds the element (PTRGET) before it works out the
                // value, so a bad subscript beats the value's own error
                // (`M(11)=1/0` is Subscript out of range); a value that cannot
                // fail leaves the check to the store, off the common path
                if let Some(indices) = &target.indices
                    && !matches!(
                        value.kind,
                        ExprKind::Num(..) | ExprKind::Str(_) | ExprKind::Var(_)
                    )
                {
                    let (id, _) = self.array(&target.name);
                    let dims = self.dims(indices.len());
                    self.emit(Op::CheckElem(id, dims));
                }
                // a value typed at run time (`VAL`) arrives as a double, exact
                // either way; the store gives it the variable's type
                let ty = self.expr(value);
                self.store(target, ty);
            }
            StmtKind::MidAssign {
                target,
                start,
                len,
                value,
            } => self.mid_assign(target, start, len.as_ref(), value),
            StmtKind::Justify {
                target,
                value,
                right,
            } => self.justify(target, value.as_ref(), *right),
            StmtKind::Print(items) => self.print(items),
            StmtKind::PrintUsing {
                before,
                format,
                items,
                end,
            } => {
                self.print_items(before);
                // GW-BASIC scans the format to a value's field before it
                // evaluates the value, and prints each value as it comes
                self.str_expr(format);
                if *end != UsingEnd::FormatOnly {
                    self.emit(Op::Ext(Ext::UsingBegin));
                }
                for item in items {
                    self.emit(Op::Ext(Ext::UsingScan));
                    match self.typed_expr(item) {
                        Typed::Known(VarTy::Num(ty)) => {
                            self.emit(Op::Ext(Ext::UsingNum(ty)));
                        }
                        Typed::Known(VarTy::Str) => {
                            self.emit(Op::Ext(Ext::UsingStr));
                        }
                        Typed::Run => {
                            self.by_run_time_type(|ty| Op::Ext(Ext::UsingNum(ty)));
                        }
                    }
                }
                self.emit(Op::Ext(Ext::UsingEnd(*end)));
            }
            StmtKind::Write(exprs) => {
                for (index, expr) in exprs.iter().enumerate() {
                    if index > 0 {
                        self.emit(Op::Ext(Ext::WriteComma));
                    }
                    match self.typed_expr(expr) {
                        Typed::Known(VarTy::Num(ty)) => self.emit(Op::Ext(Ext::WriteNum(ty))),
                        Typed::Known(VarTy::Str) => self.emit(Op::Ext(Ext::WriteStr)),
                        Typed::Run => self.by_run_time_type(|ty| Op::Ext(Ext::WriteNum(ty))),
                    };
                }
                self.emit(Op::Ext(Ext::WriteNewline));
            }
            StmtKind::WritePartial(exprs) => {
                for expr in exprs {
                    match self.typed_expr(expr) {
                        Typed::Known(VarTy::Num(ty)) => self.emit(Op::Ext(Ext::WriteNum(ty))),
                        Typed::Known(VarTy::Str) => self.emit(Op::Ext(Ext::WriteStr)),
                        Typed::Run => self.by_run_time_type(|ty| Op::Ext(Ext::WriteNum(ty))),
                    };
                    self.emit(Op::Ext(Ext::WriteComma));
                }
            }
            StmtKind::Input {
                prompt,
                targets,
                keep_line,
                // no targets: the partial INPUT before a bad variable, which takes
                // the line whole and assigns nothing
            } => self.input(prompt, targets, targets.is_empty(), *keep_line),
            StmtKind::LineInput {
                prompt,
                target,
                keep_line,
            } => {
                let (_, ty) = self.type_of(&target.name);
                if ty != VarTy::Str {
                    self.emit(Op::Raise(ErrorCode::TypeMismatch));
                    return;
                }
                self.input(prompt, std::slice::from_ref(target), true, *keep_line);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
                ..
            } => self.if_stmt(cond, then, otherwise),
            StmtKind::Goto(line) => self.jump_to_line(*line, Op::Jump),
            StmtKind::Gosub(line) => self.jump_to_line(*line, Op::Gosub),
            StmtKind::Return(None) => {
                self.emit(Op::Return);
            }
            StmtKind::Return(Some(line)) if !self.known_lines.contains(line) => {
                // GW-BASIC's RETURN leaves the subroutine (SAVSTK moves with
                // it, RTRNOK) before GOTO looks for the line, so the error's
                // stack reset (ERESET) keeps the GOSUB gone
                self.leave_subroutine_here();
                self.emit(Op::Raise(ErrorCode::UndefinedLineNumber));
            }
            StmtKind::Return(Some(line)) => self.jump_to_line(*line, Op::ReturnTo),
            StmtKind::On {
                selector,
                targets,
                gosub,
            } => {
                self.num_copies(selector, true);
                let table = self.code.ons.len();
                self.code.ons.push(OnInfo {
                    targets: vec![None; targets.len()],
                    gosub: *gosub,
                });
                for (index, &line) in targets.iter().enumerate() {
                    self.fixups.push(Fixup::On(table, index, line));
                }
                self.emit(Op::On(TableId(table as u32)));
            }
            StmtKind::For {
                var,
                from,
                to,
                step,
            } => self.for_loop(var, from, to, step.as_ref()),
            StmtKind::Next(var) => self.next(var.as_deref()),
            StmtKind::While(cond) => {
                // WEND loops back to the condition, past the scan
                let table = self.while_scan();
                self.num_copies(cond, false);
                self.emit(Op::While(TableId(table as u32)));
            }
            // a WHILE whose condition does not parse looks for its WEND first
            StmtKind::WhileScan => {
                self.while_scan();
            }
            StmtKind::Wend => {
                self.emit(Op::Wend);
                let after = self.pc();
                self.events.push(LoopEvent::Wend(after));
            }
            // a false WHILE lands on the Syntax error raised next, as GW-BASIC's
            // NEWSTT meets the text after the WEND token
            StmtKind::WendMark => {
                let at = self.pc();
                self.events.push(LoopEvent::Wend(at));
            }
            StmtKind::Dim(arrays) => {
                for (name, bounds) in arrays {
                    if bounds.is_empty() {
                        continue;
                    }
                    let (id, _) = self.array(name);
                    for bound in bounds {
                        self.num_expr(bound);
                    }
                    let dims = self.dims(bounds.len());
                    self.emit(Op::Dim(id, dims));
                }
            }
            StmtKind::Erase(names) => {
                for name in names {
                    let (id, _) = self.array(name);
                    self.emit(Op::Erase(id));
                }
            }
            StmtKind::Read(targets) => {
                self.emit(Op::ReadBegin);
                for (index, target) in targets.iter().enumerate() {
                    self.push_indices(target);
                    let (_, ty) = self.type_of(&target.name);
                    match ty {
                        VarTy::Str => self.emit(Op::ReadStr),
                        VarTy::Num(num) => self.emit(Op::ReadNum(num == NumTy::Dbl)),
                    };
                    let value_ty = match ty {
                        VarTy::Str => VarTy::Str,
                        VarTy::Num(_) => VarTy::Num(NumTy::Dbl),
                    };
                    self.store(target, value_ty);
                    self.emit(Op::ReadCheck(index + 1 == targets.len()));
                }
            }
            StmtKind::Data(items) => {
                for item in items {
                    self.code.data.push(DataEntry {
                        line: self.current_line,
                        text: item.text.clone(),
                        quoted: item.quoted,
                        stray_after_quote: item.stray_after_quote,
                    });
                }
            }
            StmtKind::Restore(None) => {
                self.emit(Op::Restore(0));
            }
            StmtKind::Restore(Some(line)) => {
                if !self.known_lines.contains(line) {
                    self.emit(Op::Raise(ErrorCode::UndefinedLineNumber));
                    return;
                }
                let at = self.emit(Op::Restore(0));
                self.fixups.push(Fixup::Restore(at, *line));
            }
            StmtKind::DefFn {
                name,
                params,
                body,
                before_break,
                broken,
            } => {
                if let Some((col, problem, _)) = broken {
                    self.diagnose(*col, problem);
                }
                let raises = broken.as_ref().map(|(_, _, code)| *code);
                self.def_fn(name, params, body.as_ref(), before_break, raises);
            }
            StmtKind::DefType(kind, ranges) => {
                if self.dynamic {
                    let letters = deftypes::letters_of(ranges);
                    self.emit(Op::Ext(Ext::DefType(deftypes::code_of(*kind), letters)));
                }
                let ty = match kind {
                    DefKind::Int => VarTy::Num(NumTy::Int),
                    DefKind::Sng => VarTy::Num(NumTy::Sng),
                    DefKind::Dbl => VarTy::Num(NumTy::Dbl),
                    DefKind::Str => VarTy::Str,
                };
                for &(first, last) in ranges {
                    for letter in first..=last {
                        if let Some(entry) = self
                            .def_types
                            .get_mut(usize::from(letter.saturating_sub(b'A')))
                        {
                            *entry = ty;
                        }
                    }
                }
            }
            StmtKind::OptionBase(base) => {
                self.emit(Op::OptionBase(*base));
            }
            StmtKind::Randomize(None) => {
                self.emit(Op::Ext(Ext::RandomizeDefault));
            }
            StmtKind::Randomize(Some(seed)) => {
                // GW-BASIC refuses a string seed as an illegal call, not a type mismatch
                let ty = match self.typed_expr(seed) {
                    Typed::Known(VarTy::Num(ty)) => ty,
                    Typed::Known(VarTy::Str) => {
                        self.emit(Op::Raise(ErrorCode::IllegalFunctionCall));
                        self.emit(Op::Num(0.0));
                        NumTy::Sng
                    }
                    Typed::Run => {
                        self.by_run_time_type(|ty| Op::Ext(Ext::Randomize(ty)));
                        return;
                    }
                };
                self.emit(Op::Ext(Ext::Randomize(ty)));
            }
            StmtKind::Swap(first, second) => self.swap(first, second),
            StmtKind::CheckedArgs(arguments) => {
                for (range, argument) in arguments {
                    let ty = self.num_expr(argument);
                    self.convert(ty, NumTy::Int);
                    self.emit(Op::Ext(Ext::CheckedArg(*range)));
                }
            }
            StmtKind::Width(width, height) => {
                let ty = self.num_expr(width);
                self.convert(ty, NumTy::Int);
                // both are read before the screen is changed
                if let Some(height) = height {
                    let ty = self.num_expr(height);
                    self.convert(ty, NumTy::Int);
                    self.emit(Op::Ext(Ext::CheckedArg(ArgRange::Rows)));
                }
                self.emit(Op::Width);
            }
            StmtKind::Run(None) => {
                self.emit(Op::Run(Pc(0)));
            }
            StmtKind::Run(Some(line)) => self.jump_to_line(*line, Op::Run),
            StmtKind::Record(fields) => {
                for (name, value) in fields {
                    self.str_expr(name);
                    let plain = |ty| match ty {
                        NumTy::Dbl => Op::Call(Builtin::PlainDbl),
                        _ => Op::Call(Builtin::PlainSng),
                    };
                    match self.typed_expr(value) {
                        Typed::Known(VarTy::Num(ty)) => self.emit(plain(ty)),
                        Typed::Known(VarTy::Str) => 0,
                        Typed::Run => self.by_run_time_type(plain),
                    };
                }
                self.emit(Op::Ext(Ext::Record(fields.len() as u32)));
            }
            StmtKind::OnErrorGoto(0) => {
                self.emit(Op::OnErrorOff);
            }
            StmtKind::OnErrorGoto(line) => self.jump_to_line(*line, Op::OnError),
            StmtKind::Resume(ResumeKind::Retry) => {
                self.emit(Op::Resume);
            }
            StmtKind::Resume(ResumeKind::Next) => {
                self.emit(Op::ResumeNext);
            }
            StmtKind::Resume(ResumeKind::Line(line)) if !self.known_lines.contains(line) => {
                // GOTO2's USERR comes while ONEFLG is still set
                self.resume_then_fail();
                self.emit(Op::Raise(ErrorCode::UndefinedLineNumber));
            }
            // the Syntax error follows
            StmtKind::ResumeBroken => self.resume_then_fail(),
            StmtKind::Resume(ResumeKind::Line(line)) => self.jump_to_line(*line, Op::ResumeAt),
            StmtKind::RaiseError(number) => {
                self.num_expr(number);
                self.emit(Op::RaiseNumber);
            }
            StmtKind::End => {
                self.emit(Op::End);
            }
            StmtKind::Stop => {
                self.emit(Op::Stop);
            }
            StmtKind::Clear(arguments) => {
                for (range, argument) in arguments {
                    let ty = self.num_expr(argument);
                    // a size is read as POKE's address, not made an integer
                    if *range == ArgRange::ClearDummy {
                        self.convert(ty, NumTy::Int);
                    }
                    self.emit(Op::Ext(Ext::CheckedArg(*range)));
                }
                let given = |wanted| arguments.iter().any(|(range, _)| *range == wanted);
                self.emit(Op::Clear {
                    top: given(ArgRange::MemorySize),
                    stack: given(ArgRange::StackSize),
                });
                // GW-BASIC's CLEARC (BIMISC.ASM, LOPDFT) sets every letter's
                // default type back to single: here for the text that follows
                self.def_types = [VarTy::Num(NumTy::Sng); 26];
            }
            StmtKind::Cls(mode) => {
                if let Some(mode) = mode {
                    let ty = self.num_expr(mode);
                    self.convert(ty, NumTy::Int);
                    self.emit(Op::Ext(Ext::CheckedArg(ArgRange::ClsMode)));
                }
                self.emit(Op::Ext(Ext::Cls));
            }
            StmtKind::Nothing => {}
            StmtKind::Eval(operands) => self.drop_values(operands),
            StmtKind::Trace(on) => {
                self.emit(Op::Ext(Ext::Trace(*on)));
            }
            StmtKind::KeyLine(on) => {
                self.emit(Op::Ext(Ext::KeyLine(*on)));
            }
            StmtKind::Refused(kw) => self.refusals.push((self.current_line, *kw)),
            StmtKind::SyntaxError(problem, code) => {
                self.diagnose(stmt.col, problem);
                self.emit(Op::Raise(*code));
            }
            StmtKind::BrokenOn {
                selector,
                outcomes,
                beyond_fails,
                gosub,
                col,
                problem,
            } => {
                self.diagnose(*col, problem);
                self.broken_on(selector, outcomes, *beyond_fails, *gosub);
            }
            // leave the subroutine; the Syntax error follows
            StmtKind::ReturnPop => self.leave_subroutine_here(),
        }
    }

    /// GW-BASIC's WHILE looks for its WEND (WNDSCN, FIVEO.ASM) before it
    /// works out the condition: a jump to the next instruction here, made
    /// `WHILE without WEND` once the loops are matched. The table's `start`
    /// is after it, where `WEND` comes back to. Returns the table.
    fn while_scan(&mut self) -> usize {
        let check = self.pc();
        let check = self.emit(Op::Jump(Pc(check.0 + 1)));
        let table = self.code.whiles.len();
        self.code.whiles.push(WhileInfo {
            start: self.pc(),
            exit: Err(ErrorCode::WhileWithoutWend),
        });
        self.while_checks.push(check);
        self.events.push(LoopEvent::While(table));
        table
    }

    /// A `RESUME` whose error GW-BASIC meets with ONEFLG still set, after
    /// `RESUME` checked it (REERR: `RESUME without error`): leave the
    /// handler and turn trapping off, so that the error raised next stops
    /// the program as GW-BASIC's NOTRAP does.
    fn resume_then_fail(&mut self) {
        let off = Pc(self.pc().0 + 1);
        self.emit(Op::ResumeAt(off));
        self.emit(Op::OnErrorOff);
    }

    /// `RETURN` that goes on at the next instruction: GW-BASIC's RETURN
    /// leaves the subroutine before it reads a line number after it.
    fn leave_subroutine_here(&mut self) {
        let next = Pc(self.pc().0 + 1);
        self.emit(Op::ReturnTo(next));
    }

    /// A syntax error for the load's list: the first of each line only, as the
    /// line is what GW-BASIC would report when it runs.
    fn diagnose(&mut self, column: usize, problem: &SyntaxProblem) {
        if self
            .diagnostics
            .last()
            .is_some_and(|last| last.line == self.current_line)
        {
            return;
        }
        self.diagnostics.push(Diagnostic {
            line: self.current_line,
            column,
            problem: problem.clone(),
        });
    }

    /// An `ON` with a broken list: a table whose broken entries lead to a
    /// `Syntax error` inside the statement (so `RESUME NEXT` goes on after it), and
    /// for `GOSUB` small trampolines, so that no frame is pushed before the error.
    fn broken_on(
        &mut self,
        selector: &Expr,
        outcomes: &[Option<u32>],
        beyond_fails: bool,
        gosub: bool,
    ) {
        let ty = self.num_expr(selector);
        self.convert(ty, NumTy::Sng);
        let table = self.code.ons.len();
        // a selector past the list walks over the bad item: every value up to
        // ON's 255 then fails
        let count = if beyond_fails { 255 } else { outcomes.len() };
        self.code.ons.push(OnInfo {
            targets: vec![None; count],
            gosub: false,
        });
        self.emit(Op::On(TableId(table as u32)));
        // 0 walks the whole list as a selector past it does: over a bad item
        // it runs into the stub's Syntax error, else it falls through
        let mut to_end = Vec::new();
        if !beyond_fails {
            to_end.push(self.emit(Op::Jump(Pc(0))));
        }
        let stub = self.pc();
        self.emit(Op::Raise(ErrorCode::SyntaxError));
        for index in 0..count {
            let target = match outcomes.get(index).copied().flatten() {
                None => Some(stub),
                Some(line) if !gosub => {
                    self.fixups.push(Fixup::On(table, index, line));
                    continue;
                }
                Some(line) => {
                    let trampoline = self.pc();
                    self.jump_to_line(line, Op::Gosub);
                    to_end.push(self.emit(Op::Jump(Pc(0))));
                    Some(trampoline)
                }
            };
            if let Some(slot) = self
                .code
                .ons
                .get_mut(table)
                .and_then(|on| on.targets.get_mut(index))
            {
                *slot = target;
            }
        }
        let end = self.pc();
        for at in to_end {
            self.patch(at, Op::Jump(end));
        }
    }

    fn push_indices(&mut self, target: &LValue) {
        if let Some(indices) = &target.indices {
            for index in indices {
                self.num_expr(index);
            }
        }
    }

    /// Stores the value on the stack (of type `value`) into the target, whose
    /// indices were pushed before the value.
    fn store(&mut self, target: &LValue, value: VarTy) {
        let (base, ty) = self.type_of(&target.name);
        match (ty, value) {
            (VarTy::Str, VarTy::Str) => match &target.indices {
                None => {
                    let slot = self.str_slot(&base);
                    self.emit(Op::StoreStr(slot));
                }
                Some(indices) => {
                    let (id, _) = self.array(&target.name);
                    let dims = self.dims(indices.len());
                    self.emit(Op::StoreElemStr(id, dims));
                }
            },
            (VarTy::Num(to), VarTy::Num(from)) => match &target.indices {
                None => {
                    let slot = self.num_slot(&base, to);
                    let op = match (to, from) {
                        (NumTy::Int, _) => Op::StoreInt(slot),
                        (NumTy::Sng, NumTy::Dbl) => Op::StoreSng(slot),
                        _ => Op::StoreNum(slot),
                    };
                    self.emit(op);
                }
                Some(indices) => {
                    let (id, _) = self.array(&target.name);
                    let dims = self.dims(indices.len());
                    self.emit(Op::StoreElemNum(id, dims, to));
                }
            },
            _ => {
                self.emit(Op::Raise(ErrorCode::TypeMismatch));
            }
        }
    }

    /// Pushes the current value of a target (its indices are evaluated again).
    fn load(&mut self, target: &LValue) -> VarTy {
        let expr = Expr {
            col: target.col,
            kind: match &target.indices {
                None => ExprKind::Var(target.name.clone()),
                Some(indices) => ExprKind::Index(target.name.clone(), indices.clone()),
            },
        };
        self.expr(&expr)
    }

    fn mid_assign(&mut self, target: &LValue, start: &Expr, len: Option<&Expr>, value: &Expr) {
        let (_, ty) = self.type_of(&target.name);
        if ty != VarTy::Str {
            self.emit(Op::Raise(ErrorCode::TypeMismatch));
            return;
        }
        self.push_indices(target);
        self.load(target);
        self.emit(Op::Call(Builtin::ToSpace));
        self.num_expr(start);
        if let Some(len) = len {
            self.num_expr(len);
        }
        self.str_expr(value);
        // `MID$(A$, n) = A$`: GW-BASIC copies byte by byte within the one string
        let same = target.indices.is_none()
            && matches!(&value.kind, ExprKind::Var(name) if *name == target.name);
        let op = match (len.is_some(), same) {
            (true, false) => Builtin::MidSet3,
            (false, false) => Builtin::MidSet2,
            (true, true) => Builtin::MidSetSame3,
            (false, true) => Builtin::MidSetSame2,
        };
        self.emit(Op::Call(op));
        self.store(target, VarTy::Str);
    }

    /// `LSET`/`RSET` (DSKCOM.ASM's `LSETA`): the variable is found
    /// (`PTRGET`, subscripts first) and must be a string (`FRCSTR`) before the
    /// value is read. A variable whose string is in the program text gets its
    /// own room, as for `MID$`: GW-BASIC never writes into its program.
    fn justify(&mut self, target: &LValue, value: Option<&Expr>, right: bool) {
        let (_, ty) = self.type_of(&target.name);
        if ty != VarTy::Str {
            self.load(target);
            self.emit(Op::PopNum);
            self.emit(Op::Raise(ErrorCode::TypeMismatch));
            return;
        }
        let Some(value) = value else {
            // the `=` or the value does not parse: only the lookup has run
            self.load(target);
            self.drop_str();
            return;
        };
        self.push_indices(target);
        self.load(target);
        self.emit(Op::Call(Builtin::ToSpace));
        self.str_expr(value);
        self.emit(Op::Call(if right { Builtin::Rset } else { Builtin::Lset }));
        self.store(target, VarTy::Str);
    }

    fn swap(&mut self, first: &LValue, second: &LValue) {
        let (_, first_ty) = self.type_of(&first.name);
        let (_, second_ty) = self.type_of(&second.name);
        if first_ty != second_ty {
            self.emit(Op::Raise(ErrorCode::TypeMismatch));
            return;
        }
        let temp = LValue {
            col: first.col,
            name: match first_ty {
                VarTy::Str => "~SWAP$".to_string(),
                VarTy::Num(NumTy::Int) => "~SWAP%".to_string(),
                VarTy::Num(NumTy::Sng) => "~SWAP!".to_string(),
                VarTy::Num(NumTy::Dbl) => "~SWAP#".to_string(),
            },
            indices: None,
        };
        // GW-BASIC's SWAP finds (and makes) its first variable, then its
        // second: making that one moves the arrays, which leaves the first's
        // address stale, so a new second scalar is Illegal function call
        // (SWAP, GWMAIN.ASM), once made
        if let Some(first) = self.scalar_slot(first) {
            self.emit(Op::Ext(Ext::SwapMake(first.0, first.1, false)));
        }
        // strings change places without a copy: no string space is taken
        let moving = |compiler: &mut Self, ty: VarTy| {
            if ty == VarTy::Str {
                compiler.emit(Op::Call(Builtin::Moving));
            }
            ty
        };
        let ty = self.load(first);
        let ty = moving(self, ty);
        self.store(&temp, ty);
        if let Some(second) = self.scalar_slot(second) {
            self.emit(Op::Ext(Ext::SwapMake(second.0, second.1, true)));
        }
        self.push_indices(first);
        let ty = self.load(second);
        let ty = moving(self, ty);
        self.store(first, ty);
        self.push_indices(second);
        let ty = self.load(&temp);
        let ty = moving(self, ty);
        self.store(second, ty);
    }

    /// A plain variable's slot and whether it is a string; `None` for an
    /// array element.
    fn scalar_slot(&mut self, target: &LValue) -> Option<(Slot, bool)> {
        if target.indices.is_some() {
            return None;
        }
        let (base, ty) = self.type_of(&target.name);
        Some(match ty {
            VarTy::Str => (self.str_slot(&base), true),
            VarTy::Num(num) => (self.num_slot(&base, num), false),
        })
    }

    /// `VAL(text)` typed at run time: pushes the value and its type flag.
    fn val_typed(&mut self, text: &Expr) {
        self.str_expr(text);
        self.emit(Op::Call(Builtin::ValTyped));
    }

    fn print(&mut self, items: &[PrintItem]) {
        self.print_items(items);
        let ends_line = !matches!(
            items.last(),
            Some(PrintItem::Comma | PrintItem::Semi | PrintItem::Tab(_) | PrintItem::Spc(_))
        );
        if ends_line {
            self.emit(Op::Ext(Ext::PrintNewline));
        }
    }

    /// A `PRINT`'s items, without the line end.
    fn print_items(&mut self, items: &[PrintItem]) {
        for item in items {
            match item {
                PrintItem::Expr(expr) => {
                    match self.typed_expr(expr) {
                        Typed::Known(VarTy::Num(ty)) => self.emit(Op::Ext(Ext::PrintNum(ty))),
                        Typed::Known(VarTy::Str) => self.emit(Op::Ext(Ext::PrintStr)),
                        Typed::Run => self.emit(Op::Ext(Ext::PrintTyped)),
                    };
                }
                PrintItem::Comma => {
                    self.emit(Op::Ext(Ext::PrintComma));
                }
                PrintItem::Semi => {}
                PrintItem::Tab(expr) => {
                    // rounded to a word by the handler, as FRQINT does (not CINT)
                    self.num_expr(expr);
                    self.emit(Op::Ext(Ext::PrintTab));
                }
                PrintItem::Spc(expr) => {
                    // rounded to a word by the handler, as FRQINT does (not CINT)
                    self.num_expr(expr);
                    self.emit(Op::Ext(Ext::PrintSpc));
                }
            }
        }
    }

    fn input(&mut self, prompt: &[Ch], targets: &[LValue], whole_line: bool, keep_line: bool) {
        let mut form_targets = Vec::new();
        for target in targets {
            self.push_indices(target);
            let (base, ty) = self.type_of(&target.name);
            let resolved = match (&target.indices, ty) {
                (None, VarTy::Str) => InputTarget::Str(self.str_slot(&base)),
                (None, VarTy::Num(num)) => InputTarget::Num(self.num_slot(&base, num), num),
                (Some(indices), VarTy::Str) => {
                    let (id, _) = self.array(&target.name);
                    InputTarget::ElemStr(id, self.dims(indices.len()))
                }
                (Some(indices), VarTy::Num(num)) => {
                    let (id, _) = self.array(&target.name);
                    InputTarget::ElemNum(id, self.dims(indices.len()), num)
                }
            };
            form_targets.push(resolved);
        }
        let id = self.code.inputs.len();
        self.code.inputs.push(InputForm {
            prompt: prompt.to_vec(),
            whole_line,
            keep_line,
            targets: form_targets,
        });
        self.emit(Op::Ext(Ext::Input(TableId(id as u32))));
    }
}
