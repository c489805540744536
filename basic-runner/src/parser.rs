//! Turns the tokens of one line into statements.
//!
//! A statement that does not parse becomes what GW-BASIC runs of it before the
//! bad token (the `partial` of its [`ParseError`], or an `ON`/`GOSUB` that fails
//! inside) and a [`StmtKind::SyntaxError`]; parsing goes on at the next statement,
//! where `RESUME NEXT` continues.

use crate::ast::*;
use crate::cp437::{self, Ch};
use crate::error::{ErrorCode, Expected, RefusalCategory, SyntaxProblem};
use crate::lexer::{self, Kw, Mode, Tok, Token};
use crate::op::{ArgRange, UsingEnd};

mod assign;
mod expr;
mod screen;

/// A parse failure, boxed: a parse result travels up every level of a deep
/// expression, so its error stays one pointer.
pub(crate) type ParseError = Box<ParseFailure>;

/// A parse failure: the column and what was expected.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ParseFailure {
    pub(crate) col: usize,
    /// Boxed: a parse result travels up every level of a deep expression, so
    /// its error stays small.
    pub(crate) problem: Box<SyntaxProblem>,
    /// What the line raises when it runs: `Syntax error`, or `Missing operand`
    /// where an operand was due and the statement ended.
    pub(crate) code: ErrorCode,
    /// What GW-BASIC does of the statement before it meets the bad token (the
    /// items `PRINT` has printed, the arrays `DIM` has made, `RETURN`'s pop).
    pub(crate) partial: Option<Box<StmtKind>>,
    /// The operands GW-BASIC has evaluated, after the partial statement, before
    /// it meets the bad token: it reads a statement left to right, so `A=LOG(0)+`
    /// is Illegal function call and `A=1/0+` divides (and warns) before the
    /// Missing operand. Each is a whole operand or an operation already applied
    /// (one of higher or equal precedence met the next operator); the values
    /// are dropped.
    pub(crate) before: Vec<Expr>,
}

impl ParseFailure {
    fn with_partial(mut self: ParseError, partial: StmtKind) -> ParseError {
        self.partial = Some(Box::new(partial));
        self
    }

    /// The error of a broken operand, after `evaluated` (ran before it).
    pub(crate) fn after(mut self: ParseError, evaluated: Expr) -> ParseError {
        self.before.insert(0, evaluated);
        self
    }

    /// The error of a broken operand, after each of `evaluated` in turn.
    pub(crate) fn after_all(mut self: ParseError, evaluated: Vec<Expr>) -> ParseError {
        self.before.splice(0..0, evaluated);
        self
    }
}

type PResult<T> = Result<T, ParseError>;

/// GW-BASIC's error number for `Missing operand`.
const MISSING_OPERAND: u8 = 22;

/// Parses the statements of a line (the text after the line number). Lines that
/// fail GW-BASIC's keyword rule are retried with crunched keywords.
pub(crate) fn parse_line(text: &[char], first_col: usize) -> ParsedLine {
    let (tokens, overflows) = lexer::tokenize_counting(text, first_col, Mode::GwBasic);
    let (stmts, error) = parse_tokens(tokens, first_col + text.len());
    if error.is_none() {
        return ParsedLine { stmts, overflows };
    }
    let (crunched, crunched_overflows) = lexer::tokenize_counting(text, first_col, Mode::Crunched);
    let (crunched_stmts, crunched_error) = parse_tokens(crunched, first_col + text.len());
    if crunched_error.is_none() {
        return ParsedLine {
            stmts: crunched_stmts,
            overflows: crunched_overflows,
        };
    }
    ParsedLine { stmts, overflows }
}

/// One parsed line: its statements (a broken one as [`StmtKind::SyntaxError`])
/// and how many of its numeric literals GW-BASIC's tokenizer reports as `Overflow`.
pub(crate) struct ParsedLine {
    pub(crate) stmts: Vec<Stmt>,
    pub(crate) overflows: usize,
}

fn parse_tokens(tokens: Vec<Token>, end_col: usize) -> (Vec<Stmt>, Option<ParseError>) {
    let mut parser = Parser {
        tokens,
        pos: 0,
        end_col,
        first_error: None,
        depth: 0,
        operators: 0,
        spliced_colons: Vec::new(),
    };
    let mut stmts = Vec::new();
    parser.statements(&mut stmts, false);
    (stmts, parser.first_error)
}

/// Why a keyword is refused, for the load error.
pub(crate) fn refusal_category(kw: Kw) -> RefusalCategory {
    use Kw::*;
    match kw {
        Open | Close | Field | Get | Put | Kill | Name | Files | Load | Save | Merge | Chain
        | Common | Bload | Bsave | Chdir | Mkdir | Rmdir | Reset | Eof | Loc | Lof | InputS
        | Lprint | Llist | Lpos | Ioctl | IoctlS | Erdev | ErdevS | Com | Out | Inp | Wait
        | Motor => RefusalCategory::FileAndDeviceIo,
        Peek | Poke | Call | Usr | Varptr | VarptrS | Def => RefusalCategory::DirectMemoryAccess,
        Shell | Environ | EnvironS => RefusalCategory::OperatingSystem,
        DateS | TimeS => RefusalCategory::Clock,
        Screen | Pset | Preset | Line | Circle | Draw | Paint | Palette | View | Window | Pmap
        | Point | Pcopy | Csrlin => RefusalCategory::GraphicsAndCursor,
        Sound | Play => RefusalCategory::Sound,
        Pen | Stick | Strig | Key => RefusalCategory::InputDevices,
        Auto | Cont | Delete | Edit | List | New | Renum => RefusalCategory::DirectModeCommands,
        // only ever refused where a name meets two of their types at once
        Defint | Defsng | Defdbl | Defstr => RefusalCategory::RetypedName,
        _ => RefusalCategory::Unsupported,
    }
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    end_col: usize,
    first_error: Option<ParseError>,
    /// Nesting of expressions and `IF`s, bounded so that no line can exhaust the stack.
    depth: usize,
    /// Binary operators parsed so far on the line. A chain `1+1+1…` builds a tree
    /// as deep as it is long, which the compiler walks recursively: the count is
    /// bounded so that the tree's depth is, whatever the line's length.
    operators: usize,
    /// Where `NEXT J, I` put its `: NEXT I` (token positions of the colons): the
    /// `NEXT`s after them are one statement with the first for `RESUME`.
    spliced_colons: Vec<usize>,
}

/// How many binary operators a line may hold. A line of GW-BASIC's 255 characters
/// has at most 127, so no valid line meets the bound; it is a second fence behind
/// the line length for everything that walks the tree.
const MAX_OPERATORS: usize = 255;

/// How many arguments or subscripts one pair of parentheses may hold: GW-BASIC's
/// 255 dimensions (the instructions count them in a byte).
const MAX_ARGUMENTS: usize = 255;

/// One item of an `ON … GOTO` list.
enum OnItem {
    Line(u32),
    /// Nothing between two commas (at this column).
    Empty(usize),
    /// Something that is no line number (at this column): text after a line
    /// number (which a selected item still jumps to, as GW-BASIC reads the
    /// number and goes) or no number at all.
    Bad(usize, Option<u32>),
}

/// The binding level of relations, the operand of `NOT`.
const RELATION: u8 = 5;

/// How deeply expressions and `IF`s may nest; deeper lines are syntax errors. The
/// bound keeps parsing and compiling within a 256 KiB thread stack even in an
/// unoptimized build (`tests/hostile.rs` loads the deepest lines on one).
const MAX_NESTING: usize = 32;

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, offset: usize) -> Option<&Tok> {
        self.tokens.get(self.pos + offset).map(|t| &t.tok)
    }

    fn col(&self) -> usize {
        self.tokens.get(self.pos).map_or(self.end_col, |t| t.col)
    }

    fn advance(&mut self) -> Option<Tok> {
        let tok = self.tokens.get(self.pos).map(|t| t.tok.clone());
        if tok.is_some() {
            self.pos += 1;
        }
        tok
    }

    fn error<T>(&self, problem: SyntaxProblem) -> PResult<T> {
        Err(Box::new(ParseFailure {
            col: self.col(),
            problem: Box::new(problem),
            code: ErrorCode::SyntaxError,
            partial: None,
            before: Vec::new(),
        }))
    }

    /// An operand is due: GW-BASIC says `Missing operand` when the statement ends there.
    fn missing_operand<T>(&self) -> PResult<T> {
        let ended = matches!(self.peek(), None | Some(Tok::Colon | Tok::Kw(Kw::Else)));
        let code = if ended {
            ErrorCode::Other(MISSING_OPERAND)
        } else {
            ErrorCode::SyntaxError
        };
        Err(Box::new(ParseFailure {
            col: self.col(),
            problem: Box::new(SyntaxProblem::Expected(Expected::Expression)),
            code,
            partial: None,
            before: Vec::new(),
        }))
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, kw: Kw) -> bool {
        self.eat(&Tok::Kw(kw))
    }

    fn expect(&mut self, tok: &Tok, what: Expected) -> PResult<()> {
        if self.eat(tok) {
            Ok(())
        } else {
            self.error(SyntaxProblem::Expected(what))
        }
    }

    fn expect_kw(&mut self, kw: Kw) -> PResult<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            self.error(SyntaxProblem::Expected(Expected::Code(
                kw.text().to_owned(),
            )))
        }
    }

    /// End of a statement: `:`, `ELSE`, a comment or the end of the line.
    fn at_stmt_end(&self) -> bool {
        matches!(
            self.peek(),
            None | Some(Tok::Colon | Tok::Kw(Kw::Else) | Tok::Rem)
        )
    }

    fn expect_stmt_end(&self) -> PResult<()> {
        if self.at_stmt_end() {
            Ok(())
        } else {
            self.error(SyntaxProblem::Expected(Expected::EndOfStatement))
        }
    }

    /// `RESUME`, `RESUME NEXT`, `RESUME n` (0 is `RESUME`), nothing after.
    fn resume_statement(&mut self) -> PResult<StmtKind> {
        let kind = if self.at_stmt_end() {
            ResumeKind::Retry
        } else if self.eat_kw(Kw::Next) {
            ResumeKind::Next
        } else {
            match self.line_number()? {
                0 => ResumeKind::Retry,
                line => ResumeKind::Line(line),
            }
        };
        self.expect_stmt_end()?;
        Ok(StmtKind::Resume(kind))
    }

    /// Parses statements up to the end of the line, or up to `ELSE` inside an `IF`.
    /// A statement that does not parse becomes a [`StmtKind::SyntaxError`] (after
    /// its partial statement), so it raises only when execution reaches it.
    fn statements(&mut self, out: &mut Vec<Stmt>, in_if: bool) {
        let mut spliced = false;
        loop {
            match self.peek() {
                None => return,
                Some(Tok::Rem) => {
                    self.pos = self.tokens.len();
                    return;
                }
                Some(Tok::Colon) => {
                    spliced = self.spliced_colons.contains(&self.pos);
                    self.pos += 1;
                    continue;
                }
                Some(Tok::Kw(Kw::Else)) => {
                    if !in_if {
                        // ELSE reached by running into it skips the rest of the line
                        self.pos = self.tokens.len();
                    }
                    return;
                }
                Some(_) => {}
            }
            let col = self.col();
            let parsed = self.statement().and_then(|kind| {
                if matches!(kind, StmtKind::If { .. }) {
                    return Ok(kind);
                }
                match self.expect_stmt_end() {
                    Ok(()) => Ok(kind),
                    // GOSUB jumps without looking past its line number, and the
                    // RETURN skips the rest of the statement as DATA does
                    // (GWMAIN.ASM, RETURN into DATAH): text there is never read
                    Err(_) if matches!(kind, StmtKind::Gosub(_)) => {
                        self.skip_to_stmt_end();
                        Ok(kind)
                    }
                    Err(error) if acts_before_end_check(&kind) => {
                        Err(error.with_partial(cut_using(kind)))
                    }
                    Err(error) if matches!(kind, StmtKind::Wend) => {
                        Err(error.with_partial(StmtKind::WendMark))
                    }
                    Err(error) => Err(error),
                }
            });
            let joined_next = std::mem::take(&mut spliced);
            match parsed {
                Ok(kind) => out.push(Stmt {
                    col,
                    kind,
                    joined: joined_next,
                }),
                Err(mut error) => {
                    let partial = error.partial.take();
                    let mut joined = partial.is_some();
                    if let Some(partial) = partial {
                        out.push(Stmt {
                            col,
                            kind: *partial,
                            joined: false,
                        });
                    }
                    let before = std::mem::take(&mut error.before);
                    if !before.is_empty() {
                        out.push(Stmt {
                            col,
                            kind: StmtKind::Eval(before),
                            joined,
                        });
                        joined = true;
                    }
                    out.push(Stmt {
                        col: error.col,
                        kind: StmtKind::SyntaxError((*error.problem).clone(), error.code),
                        joined,
                    });
                    if self.first_error.is_none() {
                        self.first_error = Some(error);
                    }
                    // GW-BASIC finds the error only when it runs the statement, and
                    // RESUME NEXT goes on with the statement after it: parse on
                    self.skip_to_stmt_end();
                }
            }
        }
    }

    fn statement(&mut self) -> PResult<StmtKind> {
        let Some(tok) = self.peek().cloned() else {
            return Ok(StmtKind::Nothing);
        };
        match tok {
            Tok::Data(items) => {
                self.pos += 1;
                Ok(StmtKind::Data(items))
            }
            Tok::Ident(name) => {
                if name == "RECORD" && !matches!(self.peek_at(1), Some(Tok::Eq | Tok::LParen)) {
                    self.pos += 1;
                    return self.record();
                }
                self.assignment()
            }
            // IF nests statements in statements: dispatched here, past the large
            // frame of keyword_statement, to keep each level's stack small
            Tok::Kw(Kw::If) => {
                self.pos += 1;
                self.nested(Parser::if_statement)
            }
            Tok::Kw(kw) => {
                self.pos += 1;
                self.keyword_statement(kw)
            }
            _ => self.error(SyntaxProblem::Expected(Expected::Statement)),
        }
    }

    fn skip_to_stmt_end(&mut self) {
        while !self.at_stmt_end() {
            self.pos += 1;
        }
    }

    fn refuse(&mut self, kw: Kw) -> PResult<StmtKind> {
        self.skip_to_stmt_end();
        Ok(StmtKind::Refused(kw))
    }

    fn keyword_statement(&mut self, kw: Kw) -> PResult<StmtKind> {
        match kw {
            Kw::Let => self.assignment(),
            Kw::MidS => self.mid_assignment(),
            Kw::Lset => self.justify(false),
            Kw::Rset => self.justify(true),
            Kw::Print => self.print(),
            Kw::Write => {
                if self.peek() == Some(&Tok::Hash) {
                    return self.refuse(Kw::Write);
                }
                let mut exprs = Vec::new();
                if !self.at_stmt_end() {
                    exprs.push(self.expr()?);
                    // `;` separates the items as `,` does (PC-BASIC takes both, as
                    // GW-BASIC does); the output has a comma between them either way
                    while self.eat(&Tok::Comma) || self.eat(&Tok::Semi) {
                        match self.expr() {
                            Ok(expr) => exprs.push(expr),
                            // GW-BASIC has written the items before, each with its comma
                            Err(error) => {
                                return Err(error.with_partial(StmtKind::WritePartial(exprs)));
                            }
                        }
                    }
                }
                // text after an item: the items are written, each with its comma,
                // before the Syntax error, as PC-BASIC does
                if let Err(error) = self.expect_stmt_end() {
                    return Err(error.with_partial(StmtKind::WritePartial(exprs)));
                }
                Ok(StmtKind::Write(exprs))
            }
            Kw::Input => self.input(),
            Kw::Line => {
                if self.eat_kw(Kw::Input) {
                    self.line_input()
                } else {
                    self.refuse(Kw::Line)
                }
            }
            Kw::Goto => Ok(StmtKind::Goto(self.line_number()?)),
            // GW-BASIC's GOSUB pushes its entry before GOTO2 finds no line
            // number, but the error puts the stack back as the statement found
            // it (ERESET: SP from SAVSTK, which GOSUB leaves alone): a plain
            // Syntax error
            Kw::Gosub => Ok(StmtKind::Gosub(self.line_number()?)),
            Kw::Return => {
                if self.at_stmt_end() {
                    Ok(StmtKind::Return(None))
                } else {
                    // GW-BASIC leaves the subroutine before it reads the line
                    // number, so a bad one complains after the return
                    let line = self
                        .line_number()
                        .map_err(|error| error.with_partial(StmtKind::ReturnPop))?;
                    Ok(StmtKind::Return(Some(line)))
                }
            }
            Kw::On => self.on_statement(),
            Kw::For => self.for_statement(),
            Kw::Next => self.next_statement(),
            Kw::While => {
                let cond = self
                    .expr()
                    .map_err(|error| error.with_partial(StmtKind::WhileScan))?;
                Ok(StmtKind::While(cond))
            }
            Kw::Wend => Ok(StmtKind::Wend),
            Kw::Dim => {
                let mut arrays = Vec::new();
                loop {
                    match self.dim_item() {
                        Ok(array) => arrays.push(array),
                        // the arrays before the bad one are made
                        Err(error) if !arrays.is_empty() => {
                            return Err(error.with_partial(StmtKind::Dim(arrays)));
                        }
                        Err(error) => return Err(error),
                    }
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                Ok(StmtKind::Dim(arrays))
            }
            // the names before a bad one are erased, the variables before one read
            Kw::Erase => {
                let mut names = vec![self.name()?];
                while self.eat(&Tok::Comma) {
                    match self.name() {
                        Ok(name) => names.push(name),
                        Err(error) => return Err(error.with_partial(StmtKind::Erase(names))),
                    }
                }
                Ok(StmtKind::Erase(names))
            }
            Kw::Read => {
                let mut targets = vec![self.lvalue()?];
                while self.eat(&Tok::Comma) {
                    match self.lvalue() {
                        Ok(target) => targets.push(target),
                        Err(error) => return Err(error.with_partial(StmtKind::Read(targets))),
                    }
                }
                Ok(StmtKind::Read(targets))
            }
            Kw::Restore => {
                if self.at_stmt_end() {
                    return Ok(StmtKind::Restore(None));
                }
                if matches!(self.peek(), Some(Tok::Num(..))) {
                    return Ok(StmtKind::Restore(Some(self.line_number()?)));
                }
                // GW-BASIC reads a line number that is not there as line 0:
                // Undefined line number, unless the program has a line 0
                match self.line_number() {
                    Ok(line) => Ok(StmtKind::Restore(Some(line))),
                    Err(error) => Err(error.with_partial(StmtKind::Restore(Some(0)))),
                }
            }
            Kw::Def => self.def_statement(),
            Kw::Defint => self.def_type(DefKind::Int),
            Kw::Defsng => self.def_type(DefKind::Sng),
            Kw::Defdbl => self.def_type(DefKind::Dbl),
            Kw::Defstr => self.def_type(DefKind::Str),
            Kw::Option => {
                match self.advance() {
                    Some(Tok::Ident(word)) if word == "BASE" => {}
                    _ => {
                        return self
                            .error(SyntaxProblem::Expected(Expected::Code("BASE".to_owned())));
                    }
                }
                match self.advance() {
                    Some(Tok::Num(value, _)) if value == 0.0 || value == 1.0 => {
                        Ok(StmtKind::OptionBase(value as u8))
                    }
                    _ => self.error(SyntaxProblem::Expected(Expected::Either(
                        "0".to_owned(),
                        "1".to_owned(),
                    ))),
                }
            }
            Kw::Randomize => {
                if self.at_stmt_end() {
                    Ok(StmtKind::Randomize(None))
                } else {
                    Ok(StmtKind::Randomize(Some(self.expr()?)))
                }
            }
            Kw::Swap => {
                let first = self.lvalue()?;
                self.expect(&Tok::Comma, Expected::Code(",".to_owned()))?;
                let second = self.lvalue()?;
                Ok(StmtKind::Swap(first, second))
            }
            Kw::Width => {
                if matches!(self.peek(), Some(Tok::Str(_) | Tok::Hash)) {
                    return self.refuse(Kw::Width);
                }
                let width = self.expr()?;
                self.scnint_end(&[(ArgRange::Byte, width.clone())])?;
                let mut height = None;
                if self.eat(&Tok::Comma) && !self.at_stmt_end() {
                    let rows = self.expr()?;
                    self.scnint_end(&[
                        (ArgRange::Byte, width.clone()),
                        (ArgRange::Byte, rows.clone()),
                    ])?;
                    height = Some(rows);
                }
                Ok(StmtKind::Width(width, height))
            }
            Kw::Run => {
                if self.at_stmt_end() {
                    Ok(StmtKind::Run(None))
                } else if matches!(self.peek(), Some(Tok::Num(..))) {
                    Ok(StmtKind::Run(Some(self.line_number()?)))
                } else {
                    self.refuse(Kw::Run)
                }
            }
            Kw::End | Kw::System => Ok(StmtKind::End),
            Kw::Stop => Ok(StmtKind::Stop),
            Kw::Clear => self.clear_arguments(),
            Kw::Cls => self.cls_argument(),
            Kw::Tron => Ok(StmtKind::Trace(true)),
            Kw::Troff => Ok(StmtKind::Trace(false)),
            // screen colours, the cursor and the speaker mean nothing in a chat
            Kw::Color => self.color_arguments(),
            Kw::Locate => self.locate_arguments(),
            // BEEP takes nothing: anything after it is a Syntax error
            Kw::Beep => Ok(StmtKind::Nothing),
            Kw::Key => {
                if let Some(Tok::Kw(switch @ (Kw::Off | Kw::On))) = self.peek() {
                    let on = *switch == Kw::On;
                    self.pos += 1;
                    Ok(StmtKind::KeyLine(on))
                } else {
                    self.refuse(Kw::Key)
                }
            }
            // the number is evaluated before the text after it is found bad
            Kw::Error => {
                let number = self.expr()?;
                self.expect_stmt_end()
                    .map_err(|error| error.after(number.clone()))?;
                Ok(StmtKind::RaiseError(number))
            }
            // GW-BASIC's RESUME checks ONEFLG before it reads anything
            // (REERR), and meets bad text with ONEFLG still set
            Kw::Resume => self
                .resume_statement()
                .map_err(|error| error.with_partial(StmtKind::ResumeBroken)),
            Kw::Lprint => self.refuse(kw),
            other => {
                if is_refused_statement(other) {
                    self.refuse(other)
                } else {
                    self.error(SyntaxProblem::CannotStartStatement(other.text().to_owned()))
                }
            }
        }
    }

    fn dim_item(&mut self) -> PResult<(String, Vec<Expr>)> {
        let name = self.name()?;
        let indices = if self.peek() == Some(&Tok::LParen) {
            self.subscripts()?
        } else {
            Vec::new()
        };
        Ok((name, indices))
    }

    fn record(&mut self) -> PResult<StmtKind> {
        let mut fields = Vec::new();
        loop {
            let name = self.expr()?;
            self.expect(&Tok::Comma, Expected::CommaAndFieldValue)?;
            let value = self.expr()?;
            fields.push((name, value));
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        Ok(StmtKind::Record(fields))
    }

    fn print(&mut self) -> PResult<StmtKind> {
        if self.peek() == Some(&Tok::Hash) {
            return self.refuse(Kw::Print);
        }
        let mut items = Vec::new();
        while !self.at_stmt_end() {
            // GW-BASIC's PRINT goes to PRINUS (BIPRTU.ASM) wherever it meets
            // USING, after the items before it: `PRINT "A"; USING "#"; 5`
            if self.eat_kw(Kw::Using) {
                return self.print_using(items);
            }
            match self.print_item() {
                Ok(item) => items.push(item),
                // GW-BASIC has printed the items before the bad one, and no line end
                Err(error) => return Err(printed_before(error, items)),
            }
        }
        Ok(StmtKind::Print(items))
    }

    fn print_item(&mut self) -> PResult<PrintItem> {
        match self.peek() {
            Some(Tok::Semi) => {
                self.pos += 1;
                Ok(PrintItem::Semi)
            }
            Some(Tok::Comma) => {
                self.pos += 1;
                Ok(PrintItem::Comma)
            }
            Some(Tok::Kw(Kw::Tab)) if self.peek_at(1) == Some(&Tok::LParen) => {
                self.pos += 2;
                let expr = self.expr()?;
                self.expect(&Tok::RParen, Expected::Code(")".to_owned()))?;
                Ok(PrintItem::Tab(expr))
            }
            Some(Tok::Kw(Kw::Spc)) if self.peek_at(1) == Some(&Tok::LParen) => {
                self.pos += 2;
                let expr = self.expr()?;
                self.expect(&Tok::RParen, Expected::Code(")".to_owned()))?;
                Ok(PrintItem::Spc(expr))
            }
            _ => Ok(PrintItem::Expr(self.expr()?)),
        }
    }

    /// `PRINT USING format; values`, separated by `;` or `,`; a trailing
    /// separator keeps the line open.
    fn print_using(&mut self, before: Vec<PrintItem>) -> PResult<StmtKind> {
        // the items before USING are printed whatever goes wrong after it
        let format = match self.expr() {
            Ok(format) => format,
            Err(error) => return Err(printed_before(error, before)),
        };
        if !self.eat(&Tok::Semi) && !self.eat(&Tok::Comma) {
            // the format is evaluated and must be a string before the `;`
            // is looked for (Type mismatch first)
            let evaluated = StmtKind::PrintUsing {
                before,
                format,
                items: Vec::new(),
                end: UsingEnd::FormatOnly,
            };
            return self
                .error(SyntaxProblem::Expected(Expected::SemicolonAfterUsingFormat))
                .map_err(|error: ParseError| error.with_partial(evaluated));
        }
        let mut items = Vec::new();
        let mut end = UsingEnd::Line;
        while !self.at_stmt_end() {
            match self.expr() {
                Ok(item) => items.push(item),
                // the values before have been printed and the format scanned
                // to the field of the broken one
                Err(error) => {
                    let partial = StmtKind::PrintUsing {
                        before,
                        format,
                        items,
                        end: UsingEnd::Broken,
                    };
                    return Err(error.with_partial(partial));
                }
            }
            end = UsingEnd::Line;
            if self.eat(&Tok::Semi) || self.eat(&Tok::Comma) {
                end = UsingEnd::Stay;
            } else {
                break;
            }
        }
        if items.is_empty() {
            // GW-BASIC scans the format to its first field and reads the
            // first value where the statement ends: `Missing operand` (error
            // 22), as PC-BASIC says, not `Syntax error`
            return Err(Box::new(ParseFailure {
                col: self.col(),
                problem: Box::new(SyntaxProblem::Expected(Expected::ValueToPrint)),
                code: ErrorCode::Other(MISSING_OPERAND),
                partial: Some(Box::new(StmtKind::PrintUsing {
                    before,
                    format,
                    items,
                    end: UsingEnd::Broken,
                })),
                before: Vec::new(),
            }));
        }
        Ok(StmtKind::PrintUsing {
            before,
            format,
            items,
            end,
        })
    }

    /// `INPUT [;] ["prompt" ; | ,] targets`: the prompt gets `? ` after `;` or when absent.
    fn prompt(&mut self) -> PResult<Vec<Ch>> {
        if let Some(Tok::Str(text)) = self.peek().cloned() {
            self.pos += 1;
            let mut prompt = text;
            match self.advance() {
                Some(Tok::Semi) => prompt.extend(cp437::from_bytes(b"? ")),
                Some(Tok::Comma) => {}
                _ => {
                    self.pos = self.pos.saturating_sub(1);
                    return self.error(SyntaxProblem::Expected(Expected::SeparatorAfterPrompt));
                }
            }
            return Ok(prompt);
        }
        Ok(cp437::from_bytes(b"? "))
    }

    fn input(&mut self) -> PResult<StmtKind> {
        if self.peek() == Some(&Tok::Hash) {
            return self.refuse(Kw::Input);
        }
        // `INPUT;` keeps the cursor on the line after what the user typed
        let keep_line = self.eat(&Tok::Semi);
        let prompt = self.prompt()?;
        // GW-BASIC reads the variables after the typed line: a bad one is a
        // Syntax error once the line is in, with nothing assigned
        let read_only = |error: ParseError, prompt: Vec<Ch>| {
            error.with_partial(StmtKind::Input {
                prompt,
                targets: Vec::new(),
                keep_line,
            })
        };
        let mut targets = match self.lvalue() {
            Ok(target) => vec![target],
            Err(error) => return Err(read_only(error, prompt)),
        };
        while self.eat(&Tok::Comma) {
            match self.lvalue() {
                Ok(target) => targets.push(target),
                Err(error) => return Err(read_only(error, prompt)),
            }
        }
        Ok(StmtKind::Input {
            prompt,
            targets,
            keep_line,
        })
    }

    fn line_input(&mut self) -> PResult<StmtKind> {
        if self.peek() == Some(&Tok::Hash) {
            return self.refuse(Kw::Input);
        }
        let keep_line = self.eat(&Tok::Semi);
        let mut prompt = Vec::new();
        if let Some(Tok::Str(text)) = self.peek().cloned() {
            self.pos += 1;
            prompt = text;
            if !self.eat(&Tok::Semi) && !self.eat(&Tok::Comma) {
                return self.error(SyntaxProblem::Expected(Expected::SemicolonAfterPrompt));
            }
        }
        let target = self.lvalue()?;
        Ok(StmtKind::LineInput {
            prompt,
            target,
            keep_line,
        })
    }

    fn branch(&mut self) -> PResult<Vec<Stmt>> {
        let col = self.col();
        if matches!(self.peek(), Some(Tok::Num(..))) {
            let line = self.line_number()?;
            let mut stmts = vec![Stmt {
                col,
                kind: StmtKind::Goto(line),
                joined: false,
            }];
            self.skip_after_branch_line();
            if self.peek() == Some(&Tok::Colon) {
                // never run after the jump, but `RESUME NEXT` after an error
                // of the IF goes on after the first `:` of its text
                self.statements(&mut stmts, true);
            }
            return Ok(stmts);
        }
        let mut stmts = Vec::new();
        self.statements(&mut stmts, true);
        Ok(stmts)
    }

    /// What follows a branch's line number (`IF c THEN 10 X`, `IF c GOTO 10 X`)
    /// is never run: GW-BASIC jumps when the branch is taken without reading
    /// past the number, and otherwise scans for ELSE or the end of the line.
    /// Skipped up to a `:`, after which statements are (see `branch`).
    fn skip_after_branch_line(&mut self) {
        while !matches!(self.peek(), None | Some(Tok::Kw(Kw::Else) | Tok::Colon)) {
            self.pos += 1;
        }
    }

    fn if_statement(&mut self) -> PResult<StmtKind> {
        let resume_col = self.after_first_colon();
        let cond = self.expr()?;
        self.eat(&Tok::Comma);
        // GW-BASIC's IFS (GWMAIN.ASM) takes GOTO where THEN goes and then
        // reads both the same way (DOCOND): a line number is a jump, anything
        // else statements, so `IF X GOTO : PRINT` prints when X is true
        let then = if self.eat_kw(Kw::Then) || self.eat_kw(Kw::Goto) {
            self.branch()?
        } else {
            // the condition is evaluated before THEN is looked for
            return self
                .error(SyntaxProblem::Expected(Expected::Either(
                    "THEN".to_owned(),
                    "GOTO".to_owned(),
                )))
                .map_err(|error: ParseError| error.after(cond));
        };
        let otherwise = if self.eat_kw(Kw::Else) {
            self.branch()?
        } else {
            Vec::new()
        };
        Ok(StmtKind::If {
            cond,
            then,
            otherwise,
            resume_col,
        })
    }

    /// The column of the statement after the first `:` from here on in the
    /// line's text (see `StmtKind::If`'s `resume_col`); the colons a `NEXT`
    /// list's trailing comma splices in are not in the text.
    fn after_first_colon(&self) -> Option<usize> {
        let rest = self.tokens.get(self.pos..)?;
        let at = rest.iter().enumerate().position(|(offset, token)| {
            matches!(token.tok, Tok::Kw(Kw::Else) | Tok::Rem)
                || (token.tok == Tok::Colon && !self.spliced_colons.contains(&(self.pos + offset)))
        })?;
        if rest.get(at)?.tok != Tok::Colon {
            return None;
        }
        rest.get(at + 1).map(|token| token.col)
    }

    fn on_statement(&mut self) -> PResult<StmtKind> {
        if self.eat_kw(Kw::Error) {
            self.expect_kw(Kw::Goto)?;
            return Ok(StmtKind::OnErrorGoto(self.line_number()?));
        }
        if matches!(
            self.peek(),
            Some(Tok::Kw(
                Kw::Key | Kw::Timer | Kw::Com | Kw::Pen | Kw::Play | Kw::Strig
            ))
        ) {
            return self.refuse(Kw::On);
        }
        let selector = self.expr()?;
        let gosub = if self.eat_kw(Kw::Goto) {
            false
        } else if self.eat_kw(Kw::Gosub) {
            true
        } else {
            return Ok(self.on_without_jump(selector));
        };
        let start_col = self.col();
        let items = self.on_items();
        let lines: Option<Vec<u32>> = items
            .iter()
            .map(|item| match item {
                OnItem::Line(line) => Some(*line),
                _ => None,
            })
            .collect();
        if let Some(targets) = lines {
            return Ok(StmtKind::On {
                selector,
                targets,
                gosub,
            });
        }
        Ok(self.broken_on(selector, &items, gosub, start_col))
    }

    /// `ON x` followed by neither GOTO nor GOSUB (`ON x THEN`): GW-BASIC evaluates
    /// `x` first, so a value outside 0-255 is Illegal function call (and one past
    /// an integer Overflow) before the Syntax error every other value gets. It
    /// runs as an ON whose every item, 0 included, is past its (empty) list.
    fn on_without_jump(&mut self, selector: Expr) -> StmtKind {
        let col = self.col();
        let problem =
            SyntaxProblem::Expected(Expected::Either("GOTO".to_owned(), "GOSUB".to_owned()));
        self.first_error.get_or_insert(Box::new(ParseFailure {
            col,
            problem: Box::new(problem.clone()),
            code: ErrorCode::SyntaxError,
            partial: None,
            before: Vec::new(),
        }));
        while !self.at_stmt_end() {
            self.pos += 1;
        }
        StmtKind::BrokenOn {
            selector,
            outcomes: Vec::new(),
            beyond_fails: true,
            gosub: false,
            col,
            problem,
        }
    }

    /// The comma-separated items of an `ON` list, up to the statement's end.
    fn on_items(&mut self) -> Vec<OnItem> {
        let mut items = Vec::new();
        loop {
            let start = self.pos;
            let col = self.col();
            let leading = self.line_number().ok();
            let whole = self.peek() == Some(&Tok::Comma) || self.at_stmt_end();
            let item = match leading {
                Some(line) if whole => OnItem::Line(line),
                _ => {
                    self.pos = start;
                    while !self.at_stmt_end() && self.peek() != Some(&Tok::Comma) {
                        self.pos += 1;
                    }
                    if self.pos == start {
                        OnItem::Empty(col)
                    } else {
                        OnItem::Bad(col, leading)
                    }
                }
            };
            items.push(item);
            if !self.eat(&Tok::Comma) {
                return items;
            }
        }
    }

    /// An `ON` whose list is broken, as GW-BASIC runs it: it walks the list to the
    /// selected item, so an item before the broken one jumps, a selected item
    /// that starts with a line number jumps there whatever follows it, passing
    /// a bad item (or selecting an empty one or one without a number) is
    /// `Syntax error`, and a selector of 0 walks the whole list as one past it
    /// does (GW-BASIC counts it down from 256).
    fn broken_on(&mut self, selector: Expr, items: &[OnItem], gosub: bool, col: usize) -> StmtKind {
        let mut outcomes = Vec::with_capacity(items.len());
        let mut passed_bad = false;
        for item in items {
            outcomes.push(match item {
                OnItem::Line(line) | OnItem::Bad(_, Some(line)) if !passed_bad => Some(*line),
                _ => None,
            });
            passed_bad |= matches!(item, OnItem::Bad(..));
        }
        let error_col = items
            .iter()
            .find_map(|item| match item {
                OnItem::Empty(col) | OnItem::Bad(col, _) => Some(*col),
                OnItem::Line(_) => None,
            })
            .unwrap_or(col);
        let problem = SyntaxProblem::Expected(Expected::LineNumber);
        self.first_error.get_or_insert(Box::new(ParseFailure {
            col: error_col,
            problem: Box::new(problem.clone()),
            code: ErrorCode::SyntaxError,
            partial: None,
            before: Vec::new(),
        }));
        StmtKind::BrokenOn {
            selector,
            outcomes,
            beyond_fails: passed_bad,
            gosub,
            col: error_col,
            problem,
        }
    }

    /// `FOR v = a TO b [STEP c]`. GW-BASIC's FOR (GWMAIN.ASM) evaluates `a`
    /// and converts it to the variable's type (kept for the first NEXT, which
    /// assigns it), then reads `TO` and evaluates `b` and `c`, and only then
    /// finds a bad token (`SYNCHR TO`, or the end check before it looks for the
    /// NEXT): a broken FOR has evaluated what came before its break and
    /// assigned nothing.
    fn for_statement(&mut self) -> PResult<StmtKind> {
        let var = self.name()?;
        self.expect(&Tok::Eq, Expected::Code("=".to_owned()))?;
        let from = self.expr()?;
        // a loop's values are made the loop's type as they are read: integers
        // for `I%` (CINT: Overflow past one), singles otherwise, so a string is
        // Type mismatch before what breaks the statement after it
        let converted = |expr: &Expr| {
            let func = if var.ends_with('%') {
                Func::Cint
            } else {
                Func::Csng
            };
            Expr {
                col: expr.col,
                kind: ExprKind::Func(func, vec![expr.clone()]),
            }
        };
        if let Err(error) = self.expect_kw(Kw::To) {
            return Err(error.after(converted(&from)));
        }
        let to = match self.expr() {
            Ok(to) => to,
            Err(error) => return Err(error.after(converted(&from))),
        };
        let step = if self.eat_kw(Kw::Step) {
            match self.expr() {
                Ok(step) => Some(step),
                Err(error) => {
                    return Err(error.after_all(vec![converted(&from), converted(&to)]));
                }
            }
        } else {
            None
        };
        if let Err(error) = self.expect_stmt_end() {
            let mut evaluated = vec![converted(&from), converted(&to)];
            evaluated.extend(step.as_ref().map(converted));
            return Err(error.after_all(evaluated));
        }
        Ok(StmtKind::For {
            var,
            from,
            to,
            step,
        })
    }

    fn next_statement(&mut self) -> PResult<StmtKind> {
        if self.at_stmt_end() {
            return Ok(StmtKind::Next(None));
        }
        let first = self.name()?;
        // NEXT I, J is NEXT I : NEXT J, one statement for RESUME as in GW-BASIC;
        // the caller sees the first, the rest follow
        let mut rest = Vec::new();
        // a comma with no name after it (`NEXT I,`) is a NEXT of its own that
        // fails when it runs, after the ones before it ran
        let mut broken = false;
        while self.eat(&Tok::Comma) {
            let at = self.pos;
            match self.name() {
                Ok(name) => rest.push(name),
                Err(_) => {
                    self.pos = at;
                    broken = true;
                    break;
                }
            }
        }
        if rest.is_empty() && !broken {
            return Ok(StmtKind::Next(Some(first)));
        }
        // splice the extra NEXTs back as a colon-separated run, and the broken
        // one as a bare NEXT that meets what follows
        let col = self.col();
        let mut extra: Vec<Token> = Vec::new();
        let names = rest.into_iter().map(Some).chain(broken.then_some(None));
        for name in names {
            self.spliced_colons.push(self.pos + extra.len());
            let tokens = [
                Some(Tok::Colon),
                Some(Tok::Kw(Kw::Next)),
                name.map(Tok::Ident),
            ];
            extra.extend(tokens.into_iter().flatten().map(|tok| Token { tok, col }));
        }
        let tail = self.tokens.split_off(self.pos);
        self.tokens.extend(extra);
        self.tokens.extend(tail);
        Ok(StmtKind::Next(Some(first)))
    }

    fn def_statement(&mut self) -> PResult<StmtKind> {
        if !self.eat_kw(Kw::Fn) {
            if let Some(Tok::Kw(Kw::Usr)) | Some(Tok::Ident(_)) = self.peek() {
                return self.refuse(Kw::Def);
            }
            return self.error(SyntaxProblem::Expected(Expected::Code("FN".to_owned())));
        }
        let name = self.name()?;
        let mut params = Vec::new();
        if self.eat(&Tok::LParen) && !self.eat(&Tok::RParen) {
            loop {
                params.push(self.name()?);
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(
                    &Tok::Comma,
                    Expected::Either(",".to_owned(), ")".to_owned()),
                )?;
            }
        }
        self.expect(&Tok::Eq, Expected::Code("=".to_owned()))?;
        // GW-BASIC stores where the body starts and skips the rest of the
        // statement: the body is read only when the function is called
        let mut before_break = Vec::new();
        let (body, broken) = match self.expr() {
            Ok(body) if self.at_stmt_end() => (Some(body), None),
            Ok(body) => {
                let problem = SyntaxProblem::Expected(Expected::EndOfStatement);
                (
                    Some(body),
                    Some((self.col(), problem, ErrorCode::SyntaxError)),
                )
            }
            // what GW-BASIC evaluates of the body before the bad token, as for
            // any broken statement (`ParseFailure::before`)
            Err(error) => {
                let error = *error;
                before_break = error.before;
                (None, Some((error.col, *error.problem, error.code)))
            }
        };
        self.skip_to_stmt_end();
        Ok(StmtKind::DefFn {
            name,
            params,
            body,
            before_break,
            broken,
        })
    }

    fn def_type(&mut self, kind: DefKind) -> PResult<StmtKind> {
        let mut ranges = Vec::new();
        loop {
            let first = self.letter()?;
            let last = if self.eat(&Tok::Minus) {
                self.letter()?
            } else {
                first
            };
            ranges.push((first.min(last), first.max(last)));
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        Ok(StmtKind::DefType(kind, ranges))
    }

    fn letter(&mut self) -> PResult<u8> {
        match self.peek() {
            Some(Tok::Ident(name)) if name.len() == 1 => {
                let letter = name.as_bytes().first().copied().unwrap_or(b'A');
                self.pos += 1;
                Ok(letter)
            }
            _ => self.error(SyntaxProblem::Expected(Expected::Letter)),
        }
    }

    fn line_number(&mut self) -> PResult<u32> {
        match self.peek() {
            Some(&Tok::Num(value, _))
                if (0.0..=65529.0).contains(&value) && value.fract() == 0.0 =>
            {
                self.pos += 1;
                Ok(value as u32)
            }
            _ => self.error(SyntaxProblem::Expected(Expected::LineNumber)),
        }
    }

    fn name(&mut self) -> PResult<String> {
        match self.peek() {
            Some(Tok::Ident(name)) => {
                let name = name.clone();
                self.pos += 1;
                Ok(name)
            }
            _ => self.error(SyntaxProblem::Expected(Expected::VariableName)),
        }
    }

    fn lvalue(&mut self) -> PResult<LValue> {
        let col = self.col();
        let name = self.name()?;
        let indices = if self.peek() == Some(&Tok::LParen) {
            Some(self.subscripts()?)
        } else {
            None
        };
        Ok(LValue { col, name, indices })
    }

    fn paren_args(&mut self) -> PResult<Vec<Expr>> {
        // the arguments before a broken one are evaluated
        self.paren_args_then(|error, read, _| error.after_all(read))
    }

    /// An array's subscripts. GW-BASIC makes each an integer as it reads it
    /// (`INTIDX`), so a broken list's subscripts before the break can be
    /// Overflow or Type mismatch first.
    pub(super) fn subscripts(&mut self) -> PResult<Vec<Expr>> {
        self.paren_args_then(|error, read, _| {
            let checked = read
                .into_iter()
                .map(|index| index.checked(ArgRange::Integer))
                .collect();
            error.after_all(checked)
        })
    }

    /// `(a, b, ...)`. A broken list's error is `broken`'s, given the arguments
    /// read whole and whether the break is inside an argument (not at `)`).
    pub(super) fn paren_args_then(
        &mut self,
        broken: impl Fn(ParseError, Vec<Expr>, bool) -> ParseError,
    ) -> PResult<Vec<Expr>> {
        self.expect(&Tok::LParen, Expected::Code("(".to_owned()))?;
        let mut args = Vec::new();
        loop {
            match self.expr() {
                Ok(arg) => args.push(arg),
                Err(error) => return Err(broken(error, args, true)),
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
            if args.len() >= MAX_ARGUMENTS {
                return self.error(SyntaxProblem::TooManySubscripts(MAX_ARGUMENTS));
            }
        }
        if let Err(error) = self.expect(&Tok::RParen, Expected::Code(")".to_owned())) {
            return Err(broken(error, args, false));
        }
        Ok(args)
    }
}

fn is_refused_statement(kw: Kw) -> bool {
    use Kw::*;
    matches!(
        kw,
        Open | Close
            | Field
            | Get
            | Put
            | Kill
            | Name
            | Files
            | Load
            | Save
            | Merge
            | Chain
            | Common
            | Bload
            | Bsave
            | Chdir
            | Mkdir
            | Rmdir
            | Reset
            | Ioctl
            | Com
            | Out
            | Wait
            | Motor
            | Poke
            | Call
            | Shell
            | Environ
            | DateS
            | TimeS
            | Screen
            | Pset
            | Preset
            | Circle
            | Draw
            | Paint
            | Palette
            | View
            | Window
            | Pcopy
            | Sound
            | Play
            | Pen
            | Strig
            | Auto
            | Cont
            | Delete
            | Edit
            | List
            | New
            | Renum
            | Llist
            | Timer
            | Usr
    )
}

/// Whether GW-BASIC does a statement before it looks for the end of it, so that
/// text after a complete statement is a syntax error only once the statement
/// has run: `SWAP A,B C` swaps, `READ P,Q X` reads, and `GOTO 50 X` jumps and
/// never sees the `X` (PC-BASIC agrees); `NEXT I X` counts and loops back, and
/// meets the `X` only when the loop is done; `OPTION BASE 1 X` checks for
/// arrays (Duplicate Definition) and sets the base before it reads on; `TRON X`
/// traces. Other statements (`FOR`, `END`, …)
/// check first and do nothing.
fn acts_before_end_check(kind: &StmtKind) -> bool {
    matches!(
        kind,
        StmtKind::Swap(..)
            | StmtKind::Read(_)
            | StmtKind::Goto(_)
            | StmtKind::Input { .. }
            | StmtKind::LineInput { .. }
            | StmtKind::Restore(_)
            | StmtKind::Return(Some(_))
            | StmtKind::Next(Some(_))
            | StmtKind::OptionBase(_)
            // TON and TOFF (BIMISC.ASM) set the trace flag and return: NEWSTT
            // meets the text after them
            | StmtKind::Trace(_)
            // the same for these: LET stores what FRMEVL read (GWMAIN.ASM),
            // DIM and ERASE do their arrays and return at a character that is
            // not a comma (BIMISC.ASM's ERASE), DEFINT sets the letters first
            // (DEFCON), MID$ assigns (LHSMID, BISTRS.ASM), ON ERROR GOTO sets
            // the handler that then traps the error (RESTRP), RANDOMIZE seeds
            // (RANDOM, GWMAIN.ASM: FRMEVL, FRCINT, STRNDS, RET), and WHILE
            // tests: false, it goes past its WEND and never sees the text
            | StmtKind::Let(..)
            | StmtKind::Dim(_)
            | StmtKind::Erase(_)
            | StmtKind::DefType(..)
            | StmtKind::MidAssign { .. }
            | StmtKind::OnErrorGoto(_)
            | StmtKind::Randomize(Some(_))
            | StmtKind::While(_)
            // RUN n clears and jumps as GOTO does (CONRUN, GWMAIN.ASM)
            | StmtKind::Run(Some(_))
            // PRINT USING prints each value as it scans and ends the line
            // when no separator follows (BIPRTU.ASM)
            | StmtKind::PrintUsing { .. }
            // LSET and RSET justify and return to NEWSTT (DSKCOM.ASM's LSETA)
            | StmtKind::Justify { value: Some(_), .. }
    )
}

/// The error of a `PRINT` broken after `items`: GW-BASIC has printed them,
/// and no line end.
fn printed_before(error: ParseError, mut items: Vec<PrintItem>) -> ParseError {
    if items.is_empty() {
        return error;
    }
    if !matches!(items.last(), Some(PrintItem::Semi | PrintItem::Comma)) {
        items.push(PrintItem::Semi);
    }
    error.with_partial(StmtKind::Print(items))
}

/// A `PRINT USING` that text follows prints its values and stops right after
/// the last one: GW-BASIC's `FNSTRF` (BIPRTU.ASM) meets the text where it looks
/// for `;` or `,` and raises the Syntax error there, before any more of the
/// format or the line's end. Other statements are as they are.
fn cut_using(kind: StmtKind) -> StmtKind {
    match kind {
        StmtKind::PrintUsing {
            before,
            format,
            items,
            ..
        } => StmtKind::PrintUsing {
            before,
            format,
            items,
            end: UsingEnd::Cut,
        },
        other => other,
    }
}
