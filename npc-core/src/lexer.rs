//! Lexer (ruling X1): turns script text into tokens with their line and column.
//!
//! Errors do not stop the lexer: each is recorded and a best-effort token takes
//! the bad text's place, so the parser can go on and every error gets reported.

use crate::error::{LoadError, LoadErrorKind, MessageArg, MessageId};

/// A comparison operator (G2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub(crate) fn holds(self, left: i64, right: i64) -> bool {
        match self {
            CmpOp::Eq => left == right,
            CmpOp::Ne => left != right,
            CmpOp::Lt => left < right,
            CmpOp::Le => left <= right,
            CmpOp::Gt => left > right,
            CmpOp::Ge => left >= right,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TokenKind {
    Word(String),
    /// `None` when the literal did not fit 32 bits (already reported).
    Int(Option<i32>),
    Str(String),
    /// `$tag`.
    Call(String),
    Op(CmpOp),
    LBrace,
    RBrace,
    Eof,
}

impl TokenKind {
    /// How a token is named in "expected X, found Y" messages: a `token-*` phrase.
    pub(crate) fn describe(&self) -> MessageArg {
        match self {
            TokenKind::Word(word) => {
                MessageArg::phrase(MessageId::TokenWord, [("word", word.as_str().into())])
            }
            TokenKind::Int(Some(value)) => {
                MessageArg::phrase(MessageId::TokenInteger, [("value", (*value).into())])
            }
            TokenKind::Int(None) => MessageArg::phrase(MessageId::TokenLargeInteger, []),
            TokenKind::Str(_) => MessageArg::phrase(MessageId::TokenString, []),
            TokenKind::Call(tag) => {
                MessageArg::phrase(MessageId::TokenCall, [("tag", tag.as_str().into())])
            }
            TokenKind::Op(op) => {
                MessageArg::phrase(MessageId::TokenOperator, [("operator", op.symbol().into())])
            }
            TokenKind::LBrace => MessageArg::phrase(MessageId::TokenOpenBrace, []),
            TokenKind::RBrace => MessageArg::phrase(MessageId::TokenCloseBrace, []),
            TokenKind::Eof => MessageArg::phrase(MessageId::TokenEnd, []),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub line: u32,
    pub column: u32,
}

struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    column: u32,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let next = self.chars.next()?;
        if next == '\n' {
            self.line = self.line.saturating_add(1);
            self.column = 1;
        } else {
            self.column = self.column.saturating_add(1);
        }
        Some(next)
    }

    /// Looks one character past `peek` without consuming.
    fn peek_second(&self) -> Option<char> {
        let mut ahead = self.chars.clone();
        ahead.next();
        ahead.next()
    }
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Splits `source` into tokens; the last token is always `Eof`. Stops early
/// once `errors` holds more than `error_cap` errors (they would not be shown).
pub(crate) fn tokenize(source: &str, error_cap: usize, errors: &mut Vec<LoadError>) -> Vec<Token> {
    let mut cursor = Cursor {
        chars: source.chars().peekable(),
        line: 1,
        column: 1,
    };
    let mut tokens = Vec::new();
    while errors.len() <= error_cap {
        let Some(c) = cursor.peek() else { break };
        let line = cursor.line;
        let column = cursor.column;
        let syntax_error = |id: MessageId, args: Vec<(&'static str, MessageArg)>| {
            LoadError::said(LoadErrorKind::Syntax, line, column, id, args)
        };
        if c.is_whitespace() || c == ';' {
            cursor.bump();
            continue;
        }
        if c == '/' && cursor.peek_second() == Some('/') {
            while cursor.peek().is_some_and(|c| c != '\n') {
                cursor.bump();
            }
            continue;
        }
        if c == '/' && cursor.peek_second() == Some('*') {
            cursor.bump();
            cursor.bump();
            let mut closed = false;
            while let Some(c) = cursor.bump() {
                if c == '*' && cursor.peek() == Some('/') {
                    cursor.bump();
                    closed = true;
                    break;
                }
            }
            if !closed {
                errors.push(syntax_error(MessageId::UnterminatedComment, vec![]));
            }
            continue;
        }
        let kind = if is_word_start(c) {
            TokenKind::Word(take_word(&mut cursor))
        } else if c.is_ascii_digit()
            || ((c == '+' || c == '-') && cursor.peek_second().is_some_and(|d| d.is_ascii_digit()))
        {
            let text = take_integer(&mut cursor);
            match text.parse::<i32>() {
                Ok(value) => TokenKind::Int(Some(value)),
                Err(_) => {
                    errors.push(syntax_error(
                        MessageId::IntegerTooLarge,
                        vec![("integer", text.into())],
                    ));
                    TokenKind::Int(None)
                }
            }
        } else if c == '"' {
            cursor.bump();
            TokenKind::Str(take_string(&mut cursor, line, column, errors))
        } else if c == '$' {
            cursor.bump();
            if cursor.peek().is_some_and(is_word_start) {
                TokenKind::Call(take_word(&mut cursor))
            } else {
                errors.push(syntax_error(MessageId::CallWithoutTag, vec![]));
                continue;
            }
        } else if c == '{' {
            cursor.bump();
            TokenKind::LBrace
        } else if c == '}' {
            cursor.bump();
            TokenKind::RBrace
        } else if let Some(op) = take_operator(&mut cursor) {
            TokenKind::Op(op)
        } else {
            cursor.bump();
            errors.push(syntax_error(
                MessageId::UnexpectedCharacter,
                vec![("character", c.into())],
            ));
            continue;
        };
        tokens.push(Token { kind, line, column });
    }
    tokens.push(Token {
        kind: TokenKind::Eof,
        line: cursor.line,
        column: cursor.column,
    });
    tokens
}

fn take_word(cursor: &mut Cursor<'_>) -> String {
    let mut word = String::new();
    while let Some(c) = cursor.peek().filter(|&c| is_word_char(c)) {
        word.push(c);
        cursor.bump();
    }
    word
}

fn take_integer(cursor: &mut Cursor<'_>) -> String {
    let mut text = String::new();
    if let Some(sign) = cursor.peek().filter(|&c| c == '+' || c == '-') {
        text.push(sign);
        cursor.bump();
    }
    while let Some(c) = cursor.peek().filter(char::is_ascii_digit) {
        text.push(c);
        cursor.bump();
    }
    text
}

fn take_operator(cursor: &mut Cursor<'_>) -> Option<CmpOp> {
    let first = cursor.peek()?;
    let second = cursor.peek_second();
    let (op, width) = match (first, second) {
        ('!', Some('=')) => (CmpOp::Ne, 2),
        ('<', Some('=')) => (CmpOp::Le, 2),
        ('>', Some('=')) => (CmpOp::Ge, 2),
        ('<', _) => (CmpOp::Lt, 1),
        ('>', _) => (CmpOp::Gt, 1),
        ('=', _) => (CmpOp::Eq, 1),
        _ => return None,
    };
    for _ in 0..width {
        cursor.bump();
    }
    Some(op)
}

/// Reads a string body after its opening quote. Strings stay on one line; an
/// unterminated one is reported at the line where it opens (B1).
fn take_string(
    cursor: &mut Cursor<'_>,
    line: u32,
    column: u32,
    errors: &mut Vec<LoadError>,
) -> String {
    let mut text = String::new();
    loop {
        match cursor.peek() {
            None | Some('\n') => {
                errors.push(LoadError::said(
                    LoadErrorKind::Syntax,
                    line,
                    column,
                    MessageId::UnterminatedString,
                    [],
                ));
                return text;
            }
            Some('"') => {
                cursor.bump();
                return text;
            }
            Some('\\') => {
                let escape_line = cursor.line;
                let escape_column = cursor.column;
                cursor.bump();
                match cursor.peek() {
                    Some(escaped @ ('"' | '\\')) => {
                        text.push(escaped);
                        cursor.bump();
                    }
                    other => {
                        let (id, args) = match other {
                            None | Some('\n') => (MessageId::EscapeAtEndOfLine, vec![]),
                            Some(c) => (MessageId::UnknownEscape, vec![("character", c.into())]),
                        };
                        errors.push(LoadError::said(
                            LoadErrorKind::Syntax,
                            escape_line,
                            escape_column,
                            id,
                            args,
                        ));
                        text.push('\\');
                    }
                }
            }
            Some(c) => {
                text.push(c);
                cursor.bump();
            }
        }
    }
}
