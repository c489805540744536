//! Parses expressions: precedence climbing over the binary operators, with
//! the prefixes, atoms and built-in function calls beneath it.

use super::*;

impl Parser {
    // ---- expressions, loosest binding first ----

    // Each parenthesis costs one pass through expr, climb, prefixed, power and
    // atom: their frames are kept small (the rarer branches live in functions of
    // their own) so that MAX_NESTING levels fit a 256 KiB stack even unoptimized.

    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let result = self.climb(0);
        self.depth -= 1;
        result
    }

    /// Goes one nesting level deeper, failing beyond [`MAX_NESTING`]; the caller
    /// steps back out with `self.depth -= 1`.
    fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_NESTING {
            return self.error(SyntaxProblem::NestedTooDeeply);
        }
        self.depth += 1;
        Ok(())
    }

    /// Runs `f` one nesting level deeper, failing beyond [`MAX_NESTING`].
    pub(super) fn nested<T>(&mut self, f: impl FnOnce(&mut Parser) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn binary(&mut self, col: usize, op: BinOp, left: Expr, right: Expr) -> PResult<Expr> {
        if self.operators >= MAX_OPERATORS {
            return self.error(SyntaxProblem::TooComplex);
        }
        self.operators += 1;
        Ok(Expr {
            col,
            kind: ExprKind::Binary(op, Box::new(left), Box::new(right)),
        })
    }

    /// The binary operator at the cursor: the operator, its binding level (0 is
    /// loosest: `IMP`; 9 tightest: `*` and `/`) and how many tokens it takes.
    fn peek_binary(&self) -> Option<(BinOp, u8, usize)> {
        let (op, len) = match (self.peek()?, self.peek_at(1)) {
            (Tok::Kw(Kw::Imp), _) => (BinOp::Imp, 1),
            (Tok::Kw(Kw::Eqv), _) => (BinOp::Eqv, 1),
            (Tok::Kw(Kw::Xor), _) => (BinOp::Xor, 1),
            (Tok::Kw(Kw::Or), _) => (BinOp::Or, 1),
            (Tok::Kw(Kw::And), _) => (BinOp::And, 1),
            (Tok::Lt, Some(Tok::Gt)) | (Tok::Gt, Some(Tok::Lt)) => (BinOp::Ne, 2),
            (Tok::Lt, Some(Tok::Eq)) | (Tok::Eq, Some(Tok::Lt)) => (BinOp::Le, 2),
            (Tok::Gt, Some(Tok::Eq)) | (Tok::Eq, Some(Tok::Gt)) => (BinOp::Ge, 2),
            (Tok::Lt, _) => (BinOp::Lt, 1),
            (Tok::Gt, _) => (BinOp::Gt, 1),
            (Tok::Eq, _) => (BinOp::Eq, 1),
            (Tok::Plus, _) => (BinOp::Add, 1),
            (Tok::Minus, _) => (BinOp::Sub, 1),
            (Tok::Kw(Kw::Mod), _) => (BinOp::Mod, 1),
            (Tok::Backslash, _) => (BinOp::IntDiv, 1),
            (Tok::Star, _) => (BinOp::Mul, 1),
            (Tok::Slash, _) => (BinOp::Div, 1),
            _ => return None,
        };
        let level = match op {
            BinOp::Imp => 0,
            BinOp::Eqv => 1,
            BinOp::Xor => 2,
            BinOp::Or => 3,
            BinOp::And => 4,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => RELATION,
            BinOp::Add | BinOp::Sub => 6,
            BinOp::Mod => 7,
            BinOp::IntDiv => 8,
            BinOp::Mul | BinOp::Div | BinOp::Pow => 9,
        };
        Some((op, level, len))
    }

    /// An expression of operators binding at `min_level` or tighter, by precedence
    /// climbing: a chain of one level is a loop, and the recursion goes one call
    /// deeper only for a tighter level, so a line's parentheses, not its length,
    /// decide the depth (and [`Parser::nested`] bounds those).
    fn climb(&mut self, min_level: u8) -> PResult<Expr> {
        let mut left = self.prefixed(min_level)?;
        while let Some((op, level, len)) = self.peek_binary() {
            if level < min_level {
                break;
            }
            let col = self.col();
            self.pos += len;
            // GW-BASIC has applied the operators before this one that bind as
            // tightly or more: `left` is evaluated when the right operand breaks
            let right = match self.climb(level + 1) {
                Ok(right) => right,
                Err(error) => return Err(error.after(left)),
            };
            left = self.binary(col, op, left, right)?;
        }
        Ok(left)
    }

    /// `NOT` (where an operand of `AND` or looser may stand: it takes a whole
    /// relation), else a signed operand.
    fn prefixed(&mut self, min_level: u8) -> PResult<Expr> {
        match self.peek() {
            Some(Tok::Kw(Kw::Not)) if min_level <= RELATION => self.not(),
            Some(Tok::Minus | Tok::Plus) => self.negation(),
            _ => self.power(),
        }
    }

    /// `NOT` and the relation it applies to.
    fn not(&mut self) -> PResult<Expr> {
        let col = self.col();
        self.pos += 1;
        let operand = self.nested(|parser| parser.climb(RELATION))?;
        Ok(Expr {
            col,
            kind: ExprKind::Unary(UnOp::Not, Box::new(operand)),
        })
    }

    fn negation(&mut self) -> PResult<Expr> {
        match self.peek() {
            Some(Tok::Minus) => {
                let col = self.col();
                self.pos += 1;
                let operand = self.nested(Parser::negation)?;
                Ok(Expr {
                    col,
                    kind: ExprKind::Unary(UnOp::Neg, Box::new(operand)),
                })
            }
            Some(Tok::Plus) => {
                self.pos += 1;
                self.nested(Parser::negation)
            }
            _ => self.power(),
        }
    }

    fn power(&mut self) -> PResult<Expr> {
        let left = self.atom()?;
        if self.peek() != Some(&Tok::Caret) {
            return Ok(left);
        }
        self.powers(left)
    }

    /// The `^ operand` chain after a first operand, left to right.
    fn powers(&mut self, mut left: Expr) -> PResult<Expr> {
        while self.peek() == Some(&Tok::Caret) {
            let col = self.col();
            self.pos += 1;
            // GW-BASIC lets a sign follow ^ (2^-1)
            let right = match self.power_right() {
                Ok(right) => right,
                Err(error) => return Err(error.after(left)),
            };
            left = self.binary(col, BinOp::Pow, left, right)?;
        }
        Ok(left)
    }

    /// The operand after `^`, with its sign.
    fn power_right(&mut self) -> PResult<Expr> {
        match self.peek() {
            Some(Tok::Minus) => {
                let neg_col = self.col();
                self.pos += 1;
                let operand = self.power_operand()?;
                Ok(Expr {
                    col: neg_col,
                    kind: ExprKind::Unary(UnOp::Neg, Box::new(operand)),
                })
            }
            Some(Tok::Plus) => {
                self.pos += 1;
                self.power_operand()
            }
            _ => self.atom(),
        }
    }

    fn power_operand(&mut self) -> PResult<Expr> {
        match self.peek() {
            Some(Tok::Minus | Tok::Plus) => self.negation(),
            _ => self.atom(),
        }
    }

    fn atom(&mut self) -> PResult<Expr> {
        let col = self.col();
        let Some(tok) = self.peek().cloned() else {
            return self.missing_operand();
        };
        let kind = match tok {
            Tok::Num(value, ty) => {
                self.pos += 1;
                ExprKind::Num(value, ty)
            }
            Tok::Str(text) => {
                self.pos += 1;
                ExprKind::Str(text)
            }
            Tok::LParen => {
                self.pos += 1;
                let inner = self.expr()?;
                // the inside is evaluated before the `)` is found missing
                if let Err(error) = self.expect(&Tok::RParen, Expected::Code(")".to_owned())) {
                    return Err(error.after(inner));
                }
                return Ok(inner);
            }
            Tok::Ident(name) => {
                self.pos += 1;
                if self.peek() == Some(&Tok::LParen) {
                    ExprKind::Index(name, self.subscripts()?)
                } else {
                    ExprKind::Var(name)
                }
            }
            Tok::Kw(Kw::InkeyS) => {
                // a key typed ahead of INPUT$ (README, Dialect: INPUT$)
                self.pos += 1;
                ExprKind::Func(Func::Inkey, Vec::new())
            }
            Tok::Kw(Kw::Fn) => {
                self.pos += 1;
                let name = self.name()?;
                let args = if self.peek() == Some(&Tok::LParen) {
                    self.fn_args(col, &name)?
                } else {
                    Vec::new()
                };
                ExprKind::FnCall(name, args)
            }
            // the statement ends where an operand is due
            Tok::Kw(Kw::Else) => return self.missing_operand(),
            Tok::Kw(kw) => {
                self.pos += 1;
                return self.function(col, kw);
            }
            _ => return self.missing_operand(),
        };
        Ok(Expr { col, kind })
    }

    /// A user function's arguments, from its `(`. GW-BASIC reads them one for
    /// each parameter of the function it has found, so a broken list has
    /// looked the function up before each argument it read (the compiler does
    /// the same for a whole list).
    fn fn_args(&mut self, col: usize, name: &str) -> PResult<Vec<Expr>> {
        self.paren_args_then(|error, read, in_argument| {
            broken_fn_args(error, col, name, read, in_argument)
        })
    }

    fn function(&mut self, col: usize, kw: Kw) -> PResult<Expr> {
        let Some((func, min, max)) = builtin_arity(kw) else {
            return self.special_function(col, kw);
        };
        let args = self.paren_args_then(|error, read, in_argument| {
            error.after_all(checked_before_break(func, read, max, in_argument))
        })?;
        if args.len() < min || args.len() > max {
            // the arguments are evaluated before the count is found wrong
            return self
                .error(SyntaxProblem::ArgumentCount {
                    keyword: kw.text().to_owned(),
                    min,
                    max,
                })
                .map_err(|error: ParseError| {
                    error.after_all(checked_before_break(func, args, max, false))
                });
        }
        Ok(Expr {
            col,
            kind: ExprKind::Func(func, args),
        })
    }

    /// Where the `INPUT$` here ends when it names a file (a comma inside its
    /// parentheses, `INPUT$(n, #f)`): past its `)`, or the statement's end.
    fn file_form_end(&self) -> Option<usize> {
        if self.peek() != Some(&Tok::LParen) {
            return None;
        }
        let tokens = self.tokens.get(self.pos..).unwrap_or_default();
        let mut depth = 0usize;
        let mut names_a_file = false;
        for (offset, token) in tokens.iter().enumerate() {
            match &token.tok {
                Tok::LParen => depth += 1,
                Tok::RParen if depth <= 1 => {
                    return names_a_file.then_some(self.pos + offset + 1);
                }
                Tok::RParen => depth -= 1,
                Tok::Comma if depth == 1 => names_a_file = true,
                Tok::Colon => break,
                _ => {}
            }
        }
        names_a_file.then_some(self.pos + tokens.len())
    }

    /// `RND`, the functions without arguments, refused ones and keywords that are
    /// no function at all.
    fn special_function(&mut self, col: usize, kw: Kw) -> PResult<Expr> {
        match kw {
            Kw::Rnd => {
                let args = if self.peek() == Some(&Tok::LParen) {
                    self.paren_args()?
                } else {
                    Vec::new()
                };
                if args.len() > 1 {
                    return self.error(SyntaxProblem::OneArgument("RND".to_owned()));
                }
                Ok(Expr {
                    col,
                    kind: ExprKind::Func(Func::Rnd, args),
                })
            }
            // the keyboard's INPUT$(n); INPUT$(n, #f) reads a file, refused
            // (its `#` is no expression, so it is skipped, not parsed)
            Kw::InputS => {
                if let Some(end) = self.file_form_end() {
                    self.pos = end;
                    return Ok(Expr {
                        col,
                        kind: ExprKind::Refused(kw),
                    });
                }
                self.expect(&Tok::LParen, Expected::Code("(".to_owned()))?;
                let count = self.expr()?;
                self.expect(&Tok::RParen, Expected::Code(")".to_owned()))?;
                Ok(Expr {
                    col,
                    kind: ExprKind::Func(Func::InputKeys, vec![count]),
                })
            }
            Kw::Timer | Kw::Err | Kw::Erl => {
                let func = match kw {
                    Kw::Err => Func::Err,
                    Kw::Erl => Func::Erl,
                    _ => Func::Timer,
                };
                Ok(Expr {
                    col,
                    kind: ExprKind::Func(func, Vec::new()),
                })
            }
            // NOT where an operand belongs (`-NOT 1`, `2 * NOT 0 + 3`) takes, as in
            // GW-BASIC, the relation after it as its operand
            Kw::Not => {
                self.pos -= 1;
                self.not()
            }
            other if is_refused_function(other) => {
                if self.peek() == Some(&Tok::LParen) {
                    self.paren_args()?;
                }
                Ok(Expr {
                    col,
                    kind: ExprKind::Refused(other),
                })
            }
            other => {
                self.pos -= 1;
                self.error(SyntaxProblem::NotInExpression(other.text().to_owned()))
            }
        }
    }
}

/// What GW-BASIC has done of a user function call broken in or after its
/// arguments `read`: before each, found the function a parameter for it, and
/// so before the broken one when the break is `in_argument`. Out of the
/// parser's recursion: its frame stays small.
#[cold]
#[inline(never)]
fn broken_fn_args(
    error: ParseError,
    col: usize,
    name: &str,
    read: Vec<Expr>,
    in_argument: bool,
) -> ParseError {
    let lookup = |need: usize| Expr {
        col,
        kind: ExprKind::FnDefined(name.to_owned(), need),
    };
    let mut done = Vec::with_capacity(read.len() * 2);
    let count = read.len();
    for (index, arg) in read.into_iter().enumerate() {
        done.push(lookup(index + 1));
        done.push(arg);
    }
    let error = if in_argument {
        error.after(lookup(count + 1))
    } else {
        error
    };
    error.after_all(done)
}

/// The arguments of a built-in function's list read whole before it broke
/// (and, when `last_has_comma`, the `,` after the last of them), as GW-BASIC
/// has checked them by then. A function of one argument reads it in
/// parentheses and wants the `)` before it looks at it (`PARCHK`). `LEFT$`,
/// `RIGHT$` and `MID$` (`ISFUN`, GWEVAL.ASM) want their string once the `,`
/// after it is read, and read each count as a byte (`GETBYT`), `MID$`'s start
/// not 0, before anything after it; `STRING$` checks its count as a byte at
/// once and its second argument only after the `)` (`STRNG$`; PC-BASIC
/// checks it at once), and `INSTR` checks as its first argument's type says
/// (`Func::InstrRead`). The arguments past the most a function takes are
/// never read.
#[cold]
#[inline(never)]
fn checked_before_break(
    func: Func,
    mut read: Vec<Expr>,
    max: usize,
    last_has_comma: bool,
) -> Vec<Expr> {
    read.truncate(max);
    if func == Func::Instr {
        // which argument is which depends on the first one's type
        let col = read.first().map_or(0, |arg| arg.col);
        return vec![Expr {
            col,
            kind: ExprKind::Func(Func::InstrRead, read),
        }];
    }
    let last = read.len().saturating_sub(1);
    read.into_iter()
        .enumerate()
        .map(|(index, arg)| match (func, index) {
            (Func::Left | Func::Right | Func::Mid, 0) if index < last || last_has_comma => {
                arg.string_checked()
            }
            (Func::Mid, 1) => arg.checked(ArgRange::Start),
            (Func::Left | Func::Right | Func::Mid, 1..) | (Func::StringS, 0) => {
                arg.checked(ArgRange::Byte)
            }
            _ => arg,
        })
        .collect()
}

/// A built-in function's operation and its least and most arguments.
fn builtin_arity(kw: Kw) -> Option<(Func, usize, usize)> {
    let arity = match kw {
        Kw::Abs => (Func::Abs, 1, 1),
        Kw::Atn => (Func::Atn, 1, 1),
        Kw::Cos => (Func::Cos, 1, 1),
        Kw::Exp => (Func::Exp, 1, 1),
        Kw::Fix => (Func::Fix, 1, 1),
        Kw::Int => (Func::Int, 1, 1),
        Kw::Log => (Func::Log, 1, 1),
        Kw::Sgn => (Func::Sgn, 1, 1),
        Kw::Sin => (Func::Sin, 1, 1),
        Kw::Sqr => (Func::Sqr, 1, 1),
        Kw::Tan => (Func::Tan, 1, 1),
        Kw::Cint => (Func::Cint, 1, 1),
        Kw::Csng => (Func::Csng, 1, 1),
        Kw::Cdbl => (Func::Cdbl, 1, 1),
        Kw::Len => (Func::Len, 1, 1),
        Kw::LeftS => (Func::Left, 2, 2),
        Kw::RightS => (Func::Right, 2, 2),
        Kw::MidS => (Func::Mid, 2, 3),
        Kw::ChrS => (Func::Chr, 1, 1),
        Kw::Asc => (Func::Asc, 1, 1),
        Kw::StrS => (Func::Str, 1, 1),
        Kw::Val => (Func::Val, 1, 1),
        Kw::Instr => (Func::Instr, 2, 3),
        Kw::StringS => (Func::StringS, 2, 2),
        Kw::SpaceS => (Func::Space, 1, 1),
        Kw::HexS => (Func::Hex, 1, 1),
        Kw::Cvi => (Func::Cvi, 1, 1),
        Kw::Cvs => (Func::Cvs, 1, 1),
        Kw::Cvd => (Func::Cvd, 1, 1),
        Kw::MkiS => (Func::Mki, 1, 1),
        Kw::MksS => (Func::Mks, 1, 1),
        Kw::MkdS => (Func::Mkd, 1, 1),
        Kw::OctS => (Func::Oct, 1, 1),
        Kw::Pos => (Func::Pos, 1, 1),
        Kw::Fre => (Func::Fre, 1, 1),
        _ => return None,
    };
    Some(arity)
}

fn is_refused_function(kw: Kw) -> bool {
    use Kw::*;
    matches!(
        kw,
        Peek | Usr
            | Varptr
            | VarptrS
            | InputS
            | Eof
            | Loc
            | Lof
            | Lpos
            | IoctlS
            | ErdevS
            | Erdev
            | Inp
            | EnvironS
            | DateS
            | TimeS
            | Screen
            | Point
            | Pmap
            | Csrlin
            | Pen
            | Stick
            | Strig
            | Play
    )
}
