//! The syntax tree of a program: lines of statements, every node with its column.

use crate::cp437::Ch;
use crate::error::{ErrorCode, SyntaxProblem};
use crate::lexer::Kw;
use crate::number::NumTy;
use crate::op::{ArgRange, UsingEnd};

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    pub(crate) number: u32,
    pub(crate) stmts: Vec<Stmt>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stmt {
    pub(crate) col: usize,
    pub(crate) kind: StmtKind,
    /// The `Syntax error` of the statement before, which ran up to its bad
    /// token: one statement with it for `RESUME` and `RESUME NEXT`.
    pub(crate) joined: bool,
}

/// A variable or array element written to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LValue {
    pub(crate) col: usize,
    /// Upper-cased, with its type sign if written.
    pub(crate) name: String,
    /// `Some` for an array element.
    pub(crate) indices: Option<Vec<Expr>>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PrintItem {
    Expr(Expr),
    Comma,
    Semi,
    Tab(Expr),
    Spc(Expr),
}

/// Where `RESUME` continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ResumeKind {
    /// `RESUME` or `RESUME 0`: the statement that failed, again.
    Retry,
    /// `RESUME NEXT`: the statement after it.
    Next,
    /// `RESUME n`.
    Line(u32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DefKind {
    Int,
    Sng,
    Dbl,
    Str,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum StmtKind {
    Let(LValue, Expr),
    MidAssign {
        target: LValue,
        start: Expr,
        len: Option<Expr>,
        value: Expr,
    },
    /// `LSET`/`RSET` on a string variable: the value, cut to the variable's
    /// length or padded with blanks, left- or right-justified. `value` is
    /// `None` when the `=` or the value does not parse: GW-BASIC has found the
    /// variable first (its subscripts, and Type mismatch for a number).
    Justify {
        target: LValue,
        value: Option<Expr>,
        right: bool,
    },
    Print(Vec<PrintItem>),
    PrintUsing {
        /// The items of a `PRINT` before its `USING` (`PRINT "A"; USING ...`):
        /// GW-BASIC's PRINT goes to PRINUS where it meets the word.
        before: Vec<PrintItem>,
        format: Expr,
        items: Vec<Expr>,
        /// What follows the last value: the statement's end, a separator,
        /// text (GW-BASIC stops right after the value, `FNSTRF`'s `SNERR`,
        /// BIPRTU.ASM) or a value that does not parse.
        end: UsingEnd,
    },
    Write(Vec<Expr>),
    /// What a `WRITE` whose list breaks has written: each item and its comma.
    WritePartial(Vec<Expr>),
    Input {
        /// The prompt text, with `? ` already appended when it takes one.
        prompt: Vec<Ch>,
        targets: Vec<LValue>,
        /// `INPUT;`: the cursor stays after what the user typed.
        keep_line: bool,
    },
    LineInput {
        prompt: Vec<Ch>,
        target: LValue,
        keep_line: bool,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
        /// Where `RESUME NEXT` goes on after an error of the `IF` itself or
        /// of a branch's first statement: GW-BASIC skips from the `IF`'s
        /// start to the first `:` of its text. The column of the statement
        /// after that `:`; `None` when an `ELSE` (stored after a `:`, and
        /// run as a `REM`) comes first or the line ends.
        resume_col: Option<usize>,
    },
    Goto(u32),
    Gosub(u32),
    Return(Option<u32>),
    On {
        selector: Expr,
        targets: Vec<u32>,
        gosub: bool,
    },
    /// `ON … GOTO/GOSUB` with a list that is not all line numbers: the target of
    /// each selector value (`None`: `Syntax error`), and whether one past the list
    /// fails (a bad item lies in the way) rather than falling through.
    BrokenOn {
        selector: Expr,
        outcomes: Vec<Option<u32>>,
        beyond_fails: bool,
        gosub: bool,
        /// Where the list breaks, and what the load's diagnostic says.
        col: usize,
        problem: SyntaxProblem,
    },
    /// `RETURN` before a bad line number: GW-BASIC has left the subroutine
    /// already; the `Syntax error` follows.
    ReturnPop,
    /// `WHILE` before a condition that does not parse: GW-BASIC has looked
    /// for its `WEND` already (`WHILE without WEND` first).
    WhileScan,
    /// `RESUME` before text that does not parse: `RESUME without error`
    /// outside a handler (GW-BASIC checks `ONEFLG` first), else the
    /// `Syntax error` that follows stops the program, never trapped.
    ResumeBroken,
    For {
        var: String,
        from: Expr,
        to: Expr,
        step: Option<Expr>,
    },
    /// `NEXT` with one variable (or none); `NEXT I, J` becomes two.
    Next(Option<String>),
    While(Expr),
    Wend,
    /// A `WEND` with text after it: GW-BASIC's `WNDSCN` (FIVEO.ASM, `WHILE`)
    /// matches the token whatever follows it, and `WEND` itself is a Syntax
    /// error before it looks at the stack. Marks where the `WHILE` goes when
    /// it is false; the Syntax error that follows it is met there too.
    WendMark,
    Dim(Vec<(String, Vec<Expr>)>),
    Erase(Vec<String>),
    Read(Vec<LValue>),
    /// A `DATA` statement; its items are collected by the compiler.
    Data(Vec<crate::lexer::DataItem>),
    Restore(Option<u32>),
    DefFn {
        name: String,
        params: Vec<String>,
        /// `None` when the body does not parse.
        body: Option<Expr>,
        /// For a body that does not parse: the operands GW-BASIC evaluates
        /// before it meets the bad token, in order (values dropped).
        before_break: Vec<Expr>,
        /// The body's syntax error (a bad token in it or text after it): GW-BASIC
        /// skips the body at `DEF` and raises it at each call, in the caller's line.
        broken: Option<(usize, SyntaxProblem, ErrorCode)>,
    },
    DefType(DefKind, Vec<(u8, u8)>),
    OptionBase(u8),
    Randomize(Option<Expr>),
    Swap(LValue, LValue),
    /// `WIDTH w[, h]`: the screen's width and, if given, its rows.
    Width(Expr, Option<Expr>),
    Run(Option<u32>),
    Record(Vec<(Expr, Expr)>),
    /// `ON ERROR GOTO n` (0 turns trapping off).
    OnErrorGoto(u32),
    Resume(ResumeKind),
    /// `ERROR n`.
    RaiseError(Expr),
    End,
    Stop,
    /// `CLEAR` and the arguments GW-BASIC reads and checks before it clears.
    Clear(Vec<(ArgRange, Expr)>),
    /// `CLS [n]`: the mode, checked, then a page break.
    Cls(Option<Expr>),
    /// A statement that does nothing in a transcript (`REM`, `BEEP`).
    Nothing,
    /// `COLOR`'s and `LOCATE`'s arguments: nothing is coloured or placed in a
    /// chat, but GW-BASIC reads each and checks its range, so one outside it is
    /// still Illegal function call.
    CheckedArgs(Vec<(ArgRange, Expr)>),
    /// `TRON` (true) and `TROFF` (false).
    Trace(bool),
    /// `KEY ON` (true) and `KEY OFF` (false): nothing is drawn, but while the
    /// function-key line shows `LOCATE` may not use the last row.
    KeyLine(bool),
    /// A statement or function the sandbox refuses; the load fails.
    Refused(Kw),
    /// The operands a broken statement evaluates before its bad token, in
    /// order, values dropped (see `ParseError::before`).
    Eval(Vec<Expr>),
    /// The rest of the line did not parse; running into it raises `Syntax error`.
    SyntaxError(SyntaxProblem, ErrorCode),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Expr {
    pub(crate) col: usize,
    pub(crate) kind: ExprKind,
}

impl Expr {
    /// This argument as GW-BASIC reads one in `range`: an integer, checked.
    pub(crate) fn checked(self, range: ArgRange) -> Expr {
        Expr {
            col: self.col,
            kind: ExprKind::Func(Func::Checked(range), vec![self]),
        }
    }

    /// This argument as GW-BASIC reads a string one: `LEN` of it is a Type
    /// mismatch for a number and nothing else, and its value is dropped.
    pub(crate) fn string_checked(self) -> Expr {
        Expr {
            col: self.col,
            kind: ExprKind::Func(Func::Len, vec![self]),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UnOp {
    Neg,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    Pow,
    Mul,
    Div,
    IntDiv,
    Mod,
    Add,
    Sub,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Xor,
    Eqv,
    Imp,
}

/// A built-in function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Func {
    Abs,
    Atn,
    Cos,
    Exp,
    Fix,
    Int,
    Log,
    Rnd,
    Sgn,
    Sin,
    Sqr,
    Tan,
    Cint,
    Csng,
    Cdbl,
    Len,
    Left,
    Right,
    Mid,
    Chr,
    Asc,
    Str,
    Val,
    Instr,
    StringS,
    Space,
    Hex,
    Oct,
    Cvi,
    Cvs,
    Cvd,
    Mki,
    Mks,
    Mkd,
    Pos,
    Fre,
    Timer,
    Err,
    Erl,
    /// `INPUT$(n)` from the keyboard: n keys the user typed, waiting for them.
    InputKeys,
    /// `INKEY$`: the next key typed ahead, or `""`.
    Inkey,
    /// An argument GW-BASIC read and checked before its list broke: made an
    /// integer, checked to be in the range, then dropped (the value is 0).
    /// Only the parser makes it, for a broken list's arguments.
    Checked(ArgRange),
    /// The arguments an `INSTR` whose list broke had read, as GW-BASIC reads
    /// them: a number first is the start, 1-255 at once (`CONINT`), and the
    /// text searched after it must be a string at once (`CHKSTR`); the text
    /// sought is only evaluated (its check waits for the `)`). A string
    /// first is the text searched, and only one more is read. Its value is
    /// a dummy 0. Only the parser makes it.
    InstrRead,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ExprKind {
    Num(f64, NumTy),
    Str(Vec<Ch>),
    Var(String),
    Index(String, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Func(Func, Vec<Expr>),
    /// `FNname(args)`; the name is without `FN`.
    FnCall(String, Vec<Expr>),
    /// What GW-BASIC has done of a user function call whose arguments are
    /// broken, before each argument it read: it has looked the function up
    /// (Undefined user function) and found it a parameter for the argument
    /// (Syntax error unless it has at least this many). Its value is a dummy 0.
    FnDefined(String, usize),
    Refused(Kw),
}
