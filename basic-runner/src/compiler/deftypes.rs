//! Which `DEF` types can reach each statement.
//!
//! GW-BASIC types a name without a type sign by its `DEF` table when the
//! statement runs, and `DEFINT`/`DEFSNG`/`DEFDBL`/`DEFSTR`, `CLEAR` and `RUN`
//! change that table when they run. This pass follows every way control can
//! go from statement to statement (jumps, subroutines and their returns,
//! loops, error handlers and `RESUME`), over-approximating where the target
//! depends on the run (a `RETURN` goes back after every `GOSUB`), and gives
//! each statement, per letter, the set of types it can meet there. A letter
//! with one type is typed when the program is compiled; only a statement that
//! uses a letter with several pays for looking at the table as it runs.

use std::collections::{BTreeMap, HashMap, VecDeque};

use crate::ast::{DefKind, Expr, ExprKind, Line, ResumeKind, Stmt, StmtKind};

/// Per letter (A first), a mask of the types it can have: bit 0 single,
/// bit 1 integer, bit 2 double, bit 3 string (the VM's type codes).
pub(super) type Masks = [u8; 26];

/// The masks at the start and after `CLEAR` or `RUN`: every letter single.
const ALL_SINGLE: Masks = [1; 26];

/// How many edges whose ends depend on the run (`RETURN` to every `GOSUB`,
/// `NEXT` to every `FOR`, errors to every handler) the pass follows; a
/// program with more is typed by `everywhere`, so that loading stays quick.
const MAX_EDGES: usize = 1 << 20;

pub(super) fn code_of(kind: DefKind) -> u8 {
    match kind {
        DefKind::Sng => 0,
        DefKind::Int => 1,
        DefKind::Dbl => 2,
        DefKind::Str => 3,
    }
}

/// The letters (bit 0 is A) a `DEF` statement's ranges name.
pub(super) fn letters_of(ranges: &[(u8, u8)]) -> u32 {
    let mut letters = 0;
    for &(first, last) in ranges {
        for letter in first..=last {
            if let Some(bit) = letter.checked_sub(b'A').filter(|&b| b < 26) {
                letters |= 1 << bit;
            }
        }
    }
    letters
}

/// A statement's identity: its address, stable while the lines are borrowed.
pub(super) fn key(stmt: &Stmt) -> usize {
    std::ptr::from_ref(stmt) as usize
}

/// The masks that can reach each reachable statement, by `key`.
pub(super) fn reaching(lines: &[Line]) -> HashMap<usize, Masks> {
    let mut graph = Graph::default();
    for line in lines {
        graph.line_first.insert(line.number, graph.nodes.len());
        number(&line.stmts, &mut graph.nodes);
    }
    let ends: Vec<usize> = lines
        .iter()
        .scan(0, |count, line| {
            *count += count_stmts(&line.stmts);
            Some(*count)
        })
        .collect();
    graph.succ = vec![Vec::new(); graph.nodes.len()];
    let mut index = 0;
    for (line, &end) in lines.iter().zip(&ends) {
        let after = (end < graph.nodes.len()).then_some(end);
        graph.link(&line.stmts, &mut index, after);
    }
    graph.solve()
}

fn count_stmts(stmts: &[Stmt]) -> usize {
    stmts
        .iter()
        .map(|stmt| match &stmt.kind {
            StmtKind::If {
                then, otherwise, ..
            } => 1 + count_stmts(then) + count_stmts(otherwise),
            _ => 1,
        })
        .sum()
}

/// The statements in the order `link` meets them: each before what its
/// `THEN` and `ELSE` hold.
fn number<'a>(stmts: &'a [Stmt], nodes: &mut Vec<&'a Stmt>) {
    for stmt in stmts {
        nodes.push(stmt);
        if let StmtKind::If {
            then, otherwise, ..
        } = &stmt.kind
        {
            number(then, nodes);
            number(otherwise, nodes);
        }
    }
}

#[derive(Default)]
struct Graph<'a> {
    nodes: Vec<&'a Stmt>,
    succ: Vec<Vec<usize>>,
    line_first: BTreeMap<u32, usize>,
    /// Where a `RETURN` can go: after each `GOSUB`.
    return_sites: Vec<usize>,
    returns: Vec<usize>,
    /// Each `FOR`'s name (its base, no sign), the `FOR`, and the statement after it.
    for_bodies: Vec<(String, usize, usize)>,
    fors: Vec<(String, usize)>,
    /// Each `NEXT`'s name (`None`: any loop) and the statement after it.
    next_afters: Vec<(Option<String>, usize)>,
    nexts: Vec<(Option<String>, usize)>,
    whiles: Vec<usize>,
    wends: Vec<usize>,
    handlers: Vec<usize>,
    resumes: Vec<usize>,
    /// Statements that can raise an error (into a handler).
    erring: Vec<bool>,
    /// The statement after each in the text, where `RESUME NEXT` goes.
    after: Vec<Option<usize>>,
}

/// A name as `FOR` and `NEXT` match it here: any type sign dropped.
pub(super) fn base(name: &str) -> String {
    name.trim_end_matches(['%', '!', '#', '$']).to_string()
}

impl Graph<'_> {
    fn line(&self, number: u32) -> Option<usize> {
        self.line_first.get(&number).copied()
    }

    fn link(&mut self, stmts: &[Stmt], index: &mut usize, after: Option<usize>) {
        // the index each statement of this list has, and the one after the list
        let mut starts = Vec::with_capacity(stmts.len());
        let mut at = *index;
        for stmt in stmts {
            starts.push(at);
            at += count_stmts(std::slice::from_ref(stmt));
        }
        for (i, stmt) in stmts.iter().enumerate() {
            let me = starts[i];
            let next = starts.get(i + 1).copied().or(after);
            *index = me + 1;
            let mut succ: Vec<usize> = Vec::new();
            let mut erring = true;
            match &stmt.kind {
                StmtKind::If {
                    then, otherwise, ..
                } => {
                    let then_first = (!then.is_empty()).then_some(*index);
                    self.link(then, index, next);
                    let else_first = (!otherwise.is_empty()).then_some(*index);
                    self.link(otherwise, index, next);
                    succ.extend(then_first.or(next));
                    succ.extend(else_first.or(next));
                }
                StmtKind::Goto(line) => {
                    succ.extend(self.line(*line));
                    // only a missing line is an error
                    erring = self.line(*line).is_none();
                }
                StmtKind::Gosub(line) => {
                    succ.extend(self.line(*line));
                    self.return_sites.extend(next);
                }
                StmtKind::Return(Some(line)) => succ.extend(self.line(*line)),
                StmtKind::Return(None) | StmtKind::ReturnPop => self.returns.push(me),
                StmtKind::On { targets, gosub, .. } => {
                    succ.extend(targets.iter().filter_map(|&line| self.line(line)));
                    succ.extend(next);
                    if *gosub {
                        self.return_sites.extend(next);
                    }
                }
                StmtKind::BrokenOn {
                    outcomes, gosub, ..
                } => {
                    succ.extend(
                        outcomes
                            .iter()
                            .flatten()
                            .filter_map(|&line| self.line(line)),
                    );
                    succ.extend(next);
                    if *gosub {
                        self.return_sites.extend(next);
                    }
                }
                StmtKind::For { var, .. } => {
                    succ.extend(next);
                    if let Some(next) = next {
                        self.for_bodies.push((base(var), me, next));
                    }
                    self.fors.push((base(var), me));
                }
                StmtKind::Next(var) => {
                    succ.extend(next);
                    if let Some(next) = next {
                        self.next_afters.push((var.as_deref().map(base), next));
                    }
                    self.nexts.push((var.as_deref().map(base), me));
                }
                StmtKind::While(_) | StmtKind::WhileScan => {
                    succ.extend(next);
                    self.whiles.push(me);
                }
                StmtKind::Wend | StmtKind::WendMark => {
                    succ.extend(next);
                    self.wends.push(me);
                }
                StmtKind::Run(None) => succ.push(0),
                StmtKind::Run(Some(line)) => succ.extend(self.line(*line)),
                StmtKind::OnErrorGoto(line) => {
                    succ.extend(next);
                    self.handlers.extend(self.line(*line));
                    erring = *line != 0 && self.line(*line).is_none();
                }
                StmtKind::Resume(ResumeKind::Line(line)) => succ.extend(self.line(*line)),
                StmtKind::Resume(_) => self.resumes.push(me),
                StmtKind::ResumeBroken | StmtKind::End | StmtKind::Stop => {}
                StmtKind::SyntaxError(..) => {}
                StmtKind::DefType(..) | StmtKind::Nothing | StmtKind::Data(_) => {
                    succ.extend(next);
                    erring = false;
                }
                StmtKind::Clear(arguments) => {
                    succ.extend(next);
                    erring = !arguments.is_empty();
                }
                _ => succ.extend(next),
            }
            if let Some(slot) = self.succ.get_mut(me) {
                *slot = succ;
            }
            if self.erring.len() <= me {
                self.erring.resize(me + 1, false);
                self.after.resize(me + 1, None);
            }
            self.erring[me] = erring;
            self.after[me] = next;
        }
        *index = at;
    }

    /// Adds the edges whose ends depend on the run, then joins the masks
    /// along every edge until nothing changes (each letter's mask only grows,
    /// so this ends).
    fn solve(mut self) -> HashMap<usize, Masks> {
        let count = self.nodes.len();
        self.erring.resize(count, false);
        self.after.resize(count, None);
        let erring = self.erring.iter().filter(|&&e| e).count();
        let resumes = if self.resumes.is_empty() {
            0
        } else {
            1 + self.resumes.len()
        };
        let edges = [
            (self.returns.len(), self.return_sites.len()),
            (self.nexts.len(), self.for_bodies.len()),
            (self.fors.len(), self.nexts.len()),
            (self.wends.len(), self.whiles.len()),
            (erring, self.handlers.len() + resumes),
        ]
        .iter()
        .fold(0usize, |sum, &(a, b)| {
            sum.saturating_add(a.saturating_mul(b))
        });
        if edges > MAX_EDGES {
            return self.everywhere();
        }
        let matches = |loop_name: &str, other: &Option<String>| {
            other.as_deref().is_none_or(|name| name == loop_name)
        };
        for &ret in &self.returns {
            self.succ[ret].extend(self.return_sites.iter().copied());
        }
        // a NEXT loops back to a FOR of its name only when the name has the
        // same type at both (GW-BASIC's NEXT looks for the FOR of that
        // variable, I% or I!): an edge that waits for the masks to agree
        let mut loops: Vec<(usize, usize, usize, u32)> = Vec::new();
        for (name, at) in &self.nexts {
            let letter = name.as_deref().map_or(0, letter_of);
            for (loop_name, for_at, body) in &self.for_bodies {
                if matches(loop_name, name) {
                    loops.push((*at, *for_at, *body, letter));
                }
            }
        }
        for (loop_name, at) in &self.fors {
            // a loop whose body is skipped goes on after its NEXT
            for (name, after) in &self.next_afters {
                if matches(loop_name, name) {
                    self.succ[*at].push(*after);
                }
            }
        }
        // a WHILE that fails goes on after the WEND its text scan finds
        // (GW-BASIC's WNDSCN counts the WHILEs and WENDs between)
        for &at in &self.whiles {
            let mut depth = 0usize;
            for later in at + 1..count {
                match self.nodes[later].kind {
                    StmtKind::While(_) | StmtKind::WhileScan => depth += 1,
                    StmtKind::Wend | StmtKind::WendMark if depth == 0 => {
                        self.succ[at].extend(self.after[later]);
                        break;
                    }
                    StmtKind::Wend | StmtKind::WendMark => depth -= 1,
                    _ => {}
                }
            }
        }
        for &at in &self.wends {
            self.succ[at].extend(self.whiles.iter().copied());
        }
        self.after.resize(count, None);
        let handled = self.handler_letters();
        let mut masks: Vec<Masks> = vec![[0; 26]; count];
        if count == 0 {
            return HashMap::new();
        }
        masks[0] = ALL_SINGLE;
        let mut queue: VecDeque<usize> = VecDeque::from([0]);
        let mut queued = vec![false; count];
        queued[0] = true;
        loop {
            self.propagate(&mut masks, &mut queue, &mut queued, handled);
            // the loops' edges whose NEXT and FOR now share a type
            let mut added = false;
            let mut index = 0;
            while let Some(&(next, for_at, body, letter)) = loops.get(index) {
                let shared = match letter.trailing_zeros() as usize {
                    26.. => true,
                    l => masks[next][l] & masks[for_at][l] != 0,
                };
                if shared && masks[next].iter().any(|&m| m != 0) {
                    self.succ[next].push(body);
                    loops.swap_remove(index);
                    if !queued[next] {
                        queued[next] = true;
                        queue.push_back(next);
                    }
                    added = true;
                } else {
                    index += 1;
                }
            }
            if !added {
                break;
            }
        }
        self.nodes
            .iter()
            .zip(masks)
            .filter(|(_, mask)| mask.iter().any(|&m| m != 0))
            .map(|(stmt, mask)| (key(stmt), mask))
            .collect()
    }

    /// Joins the masks along the edges from the queued statements until
    /// nothing changes (each letter's mask only grows, so this ends).
    fn propagate(
        &self,
        masks: &mut [Masks],
        queue: &mut VecDeque<usize>,
        queued: &mut [bool],
        handled: u32,
    ) {
        let count = masks.len();
        while let Some(at) = queue.pop_front() {
            queued[at] = false;
            let before = masks[at];
            let after = self.transfer(at, before);
            let mut flows: Vec<(usize, Masks)> =
                self.succ[at].iter().map(|&to| (to, after)).collect();
            // an error leaves the statement with the table it met; RESUME
            // comes back to it or the next one with that table, but for the
            // letters a handler's own DEF statements can have changed
            if self.erring[at] {
                flows.extend(self.handlers.iter().map(|&to| (to, before)));
                if !self.resumes.is_empty() {
                    let mut back = before;
                    for &resume in &self.resumes {
                        for (index, mask) in back.iter_mut().enumerate() {
                            if handled & (1 << index) != 0 {
                                *mask |= masks[resume][index];
                            }
                        }
                    }
                    flows.push((at, back));
                    flows.extend(self.after[at].map(|to| (to, back)));
                }
            }
            for (to, table) in flows {
                let Some(target) = masks.get_mut(to) else {
                    continue;
                };
                let mut grew = false;
                for (mask, add) in target.iter_mut().zip(table) {
                    if *mask | add != *mask {
                        *mask |= add;
                        grew = true;
                    }
                }
                if grew && !queued[to] {
                    queued[to] = true;
                    queue.push_back(to);
                }
                // what RESUME brings back depends on the masks at RESUME
                if grew && handled != 0 && self.is_resume(to) {
                    for (node, &erring) in self.erring.iter().enumerate().take(count) {
                        if erring && !queued[node] {
                            queued[node] = true;
                            queue.push_back(node);
                        }
                    }
                }
            }
        }
    }

    /// Every statement with every type some `DEF` statement gives each letter:
    /// sound for any order, for a program whose jumps are too many to follow
    /// (its statements that name a retyped letter are compiled in copies).
    fn everywhere(&self) -> HashMap<usize, Masks> {
        let mut masks = ALL_SINGLE;
        for stmt in &self.nodes {
            if let StmtKind::DefType(kind, ranges) = &stmt.kind {
                let letters = letters_of(ranges);
                for (index, mask) in masks.iter_mut().enumerate() {
                    if letters & (1 << index) != 0 {
                        *mask |= 1 << code_of(*kind);
                    }
                }
            }
        }
        self.nodes.iter().map(|stmt| (key(stmt), masks)).collect()
    }

    /// The letters a `DEF` statement, `CLEAR` or `RUN` can set on the way to a
    /// `RESUME` (those of a handler that retypes before it resumes).
    fn handler_letters(&self) -> u32 {
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        for (from, succ) in self.succ.iter().enumerate() {
            for &to in succ {
                if let Some(list) = preds.get_mut(to) {
                    list.push(from);
                }
            }
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut work: Vec<usize> = self.resumes.clone();
        let mut letters = 0;
        while let Some(at) = work.pop() {
            if std::mem::replace(&mut seen[at], true) {
                continue;
            }
            match self.nodes.get(at).map(|stmt| &stmt.kind) {
                Some(StmtKind::DefType(_, ranges)) => letters |= letters_of(ranges),
                Some(StmtKind::Clear(_) | StmtKind::Run(_)) => letters = (1 << 26) - 1,
                _ => {}
            }
            work.extend(preds[at].iter().copied().filter(|&from| !seen[from]));
        }
        letters
    }

    fn is_resume(&self, at: usize) -> bool {
        matches!(
            self.nodes.get(at).map(|stmt| &stmt.kind),
            Some(StmtKind::Resume(ResumeKind::Retry | ResumeKind::Next))
        )
    }

    fn transfer(&self, at: usize, mut masks: Masks) -> Masks {
        match self.nodes.get(at).map(|stmt| &stmt.kind) {
            Some(StmtKind::DefType(kind, ranges)) => {
                let letters = letters_of(ranges);
                for (index, mask) in masks.iter_mut().enumerate() {
                    if letters & (1 << index) != 0 {
                        *mask = 1 << code_of(*kind);
                    }
                }
                masks
            }
            Some(StmtKind::Clear(_) | StmtKind::Run(_)) => ALL_SINGLE,
            _ => masks,
        }
    }
}

/// The letter (bit 0 is A) that types a name without a type sign; 0 for one
/// with a sign.
pub(super) fn letter_of(name: &str) -> u32 {
    if name.ends_with(['%', '!', '#', '$']) {
        return 0;
    }
    match name.bytes().next() {
        Some(first @ b'A'..=b'Z') => 1 << (first - b'A'),
        _ => 0,
    }
}

/// The letters typing the names an expression reads, and the functions it calls.
fn expr_letters(expr: &Expr, letters: &mut u32, calls: &mut Vec<String>) {
    // an explicit stack: an expression's depth follows its text
    let mut work = vec![expr];
    while let Some(expr) = work.pop() {
        match &expr.kind {
            ExprKind::Var(name) => *letters |= letter_of(name),
            ExprKind::Index(name, args) => {
                *letters |= letter_of(name);
                work.extend(args);
            }
            ExprKind::FnCall(name, args) => {
                *letters |= letter_of(name);
                calls.push(base(name));
                work.extend(args);
            }
            ExprKind::Unary(_, operand) => work.push(operand),
            ExprKind::Binary(_, left, right) => {
                work.push(left);
                work.push(right);
            }
            ExprKind::Func(_, args) => work.extend(args),
            ExprKind::FnDefined(name, _) => *letters |= letter_of(name),
            ExprKind::Num(..) | ExprKind::Str(_) | ExprKind::Refused(_) => {}
        }
    }
}

/// For each user function's name (no type sign), the letters whose `DEF`
/// type changes what a call of it does: those of its parameters and of the
/// names its bodies read, and those of the functions they call.
pub(super) fn function_letters(lines: &[Line]) -> HashMap<String, u32> {
    let mut own: HashMap<String, (u32, Vec<String>)> = HashMap::new();
    let mut nodes = Vec::new();
    for line in lines {
        number(&line.stmts, &mut nodes);
    }
    for stmt in nodes {
        let StmtKind::DefFn {
            name,
            params,
            body,
            before_break,
            ..
        } = &stmt.kind
        else {
            continue;
        };
        let entry = own.entry(base(name)).or_default();
        for param in params {
            entry.0 |= letter_of(param);
        }
        for expr in body.iter().chain(before_break) {
            expr_letters(expr, &mut entry.0, &mut entry.1);
        }
    }
    let mut letters: HashMap<String, u32> = own.iter().map(|(k, v)| (k.clone(), v.0)).collect();
    // what a called function reads counts for its caller; each pass adds
    // bits, so this ends within 26 passes per function
    loop {
        let mut grew = false;
        for (name, (_, calls)) in &own {
            let add = calls
                .iter()
                .filter_map(|called| letters.get(called).copied())
                .fold(0, |all, bits| all | bits);
            if let Some(mine) = letters.get_mut(name)
                && *mine | add != *mine
            {
                *mine |= add;
                grew = true;
            }
        }
        if !grew {
            return letters;
        }
    }
}
