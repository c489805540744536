//! Splits one program line into tokens.
//!
//! Keywords are recognised the way GW-BASIC's tokenizer does: a run of name
//! characters (letters, digits, `.`) is a keyword only when the whole run is one,
//! so `TOTAL` is a variable. Old listings crunched keywords into names
//! (`FORI=1TO10`, `IFX>5THEN100`); such a line is a syntax error for GW-BASIC's rule,
//! and the parser then retries it in [`Mode::Crunched`], where keywords are found
//! anywhere, as Microsoft's earlier BASICs found them.

use crate::cp437::{self, Ch};
use crate::number::{self, NumTy};

macro_rules! keywords {
    ($($variant:ident = $text:literal,)*) => {
        /// A reserved word of GW-BASIC.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub(crate) enum Kw { $($variant,)* }

        const KEYWORDS: &[(&str, Kw)] = &[$(($text, Kw::$variant),)*];

        impl Kw {
            pub(crate) fn text(self) -> &'static str {
                match self { $(Kw::$variant => $text,)* }
            }
        }
    };
}

keywords! {
    Abs = "ABS", And = "AND", Asc = "ASC", Atn = "ATN", Auto = "AUTO", Beep = "BEEP",
    Bload = "BLOAD", Bsave = "BSAVE", Call = "CALL", Cdbl = "CDBL", Chain = "CHAIN",
    Chdir = "CHDIR", ChrS = "CHR$", Cint = "CINT", Circle = "CIRCLE", Clear = "CLEAR",
    Close = "CLOSE", Cls = "CLS", Color = "COLOR", Com = "COM", Common = "COMMON",
    Cont = "CONT", Cos = "COS", Csng = "CSNG", Csrlin = "CSRLIN", Cvd = "CVD", Cvi = "CVI",
    Cvs = "CVS", Data = "DATA", DateS = "DATE$", Def = "DEF", Defdbl = "DEFDBL",
    Defint = "DEFINT", Defsng = "DEFSNG", Defstr = "DEFSTR", Delete = "DELETE", Dim = "DIM",
    Draw = "DRAW", Edit = "EDIT", Else = "ELSE", End = "END", Environ = "ENVIRON",
    EnvironS = "ENVIRON$", Eof = "EOF", Eqv = "EQV", Erase = "ERASE", Erdev = "ERDEV",
    ErdevS = "ERDEV$", Erl = "ERL", Err = "ERR", Error = "ERROR", Exp = "EXP",
    Field = "FIELD", Files = "FILES", Fix = "FIX", Fn = "FN", For = "FOR", Fre = "FRE",
    Get = "GET", Gosub = "GOSUB", Goto = "GOTO", HexS = "HEX$", If = "IF", Imp = "IMP",
    InkeyS = "INKEY$", Inp = "INP", Input = "INPUT", InputS = "INPUT$", Instr = "INSTR",
    Int = "INT", Ioctl = "IOCTL", IoctlS = "IOCTL$", Key = "KEY", Kill = "KILL",
    LeftS = "LEFT$", Len = "LEN", Let = "LET", Line = "LINE", List = "LIST", Llist = "LLIST",
    Load = "LOAD", Loc = "LOC", Locate = "LOCATE", Lof = "LOF", Log = "LOG", Lpos = "LPOS",
    Lprint = "LPRINT", Lset = "LSET", Merge = "MERGE", MidS = "MID$", MkdS = "MKD$",
    Mkdir = "MKDIR", MkiS = "MKI$", MksS = "MKS$", Mod = "MOD", Motor = "MOTOR",
    Name = "NAME", New = "NEW", Next = "NEXT", Not = "NOT", OctS = "OCT$", Off = "OFF",
    On = "ON", Open = "OPEN", Option = "OPTION", Or = "OR", Out = "OUT", Paint = "PAINT",
    Palette = "PALETTE", Pcopy = "PCOPY", Peek = "PEEK", Pen = "PEN", Play = "PLAY",
    Pmap = "PMAP", Point = "POINT", Poke = "POKE", Pos = "POS", Preset = "PRESET",
    Print = "PRINT", Pset = "PSET", Put = "PUT", Randomize = "RANDOMIZE", Read = "READ",
    Rem = "REM", Renum = "RENUM", Reset = "RESET", Restore = "RESTORE", Resume = "RESUME",
    Return = "RETURN", RightS = "RIGHT$", Rmdir = "RMDIR", Rnd = "RND", Rset = "RSET",
    Run = "RUN", Save = "SAVE", Screen = "SCREEN", Sgn = "SGN", Shell = "SHELL", Sin = "SIN",
    Sound = "SOUND", SpaceS = "SPACE$", Spc = "SPC", Sqr = "SQR", Step = "STEP",
    Stick = "STICK", Stop = "STOP", StrS = "STR$", Strig = "STRIG", StringS = "STRING$",
    Swap = "SWAP", System = "SYSTEM", Tab = "TAB", Tan = "TAN", Then = "THEN",
    TimeS = "TIME$", Timer = "TIMER", To = "TO", Troff = "TROFF", Tron = "TRON",
    Using = "USING", Usr = "USR", Val = "VAL", Varptr = "VARPTR", VarptrS = "VARPTR$",
    View = "VIEW", Wait = "WAIT", Wend = "WEND", While = "WHILE", Width = "WIDTH",
    Window = "WINDOW", Write = "WRITE", Xor = "XOR",
}

/// Whether `text` (upper case) is a reserved word.
pub(crate) fn is_keyword(text: &str) -> bool {
    keyword(text).is_some()
}

fn keyword(text: &str) -> Option<Kw> {
    KEYWORDS
        .iter()
        .find(|(name, _)| *name == text)
        .map(|&(_, kw)| kw)
}

/// How keywords are told from names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// GW-BASIC's rule: a keyword must stand apart from names.
    GwBasic,
    /// Keywords are found anywhere, even glued to names (`FORI=1TO10`).
    Crunched,
}

/// One item of a `DATA` statement.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DataItem {
    pub(crate) text: Vec<Ch>,
    pub(crate) quoted: bool,
    /// Something other than blanks stands between the closing quote and the
    /// next comma: GW-BASIC's `READ` stops there with `Syntax error`.
    pub(crate) stray_after_quote: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Num(f64, NumTy),
    Str(Vec<Ch>),
    /// A name, upper-cased, with its type sign (`$ % ! #`) if it has one.
    Ident(String),
    Kw(Kw),
    Plus,
    Minus,
    Star,
    Slash,
    Backslash,
    Caret,
    Eq,
    Lt,
    Gt,
    LParen,
    RParen,
    Comma,
    Semi,
    Colon,
    Hash,
    /// `REM` or `'`: the rest of the line is a comment.
    Rem,
    /// `DATA` with its items; the statement ends with it.
    Data(Vec<DataItem>),
    /// A character no statement uses.
    Other(char),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    /// 1-based column in characters.
    pub(crate) col: usize,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '.'
}

/// Tokenizes the statement part of one line (after the line number).
#[cfg(test)]
pub(crate) fn tokenize(text: &[char], first_col: usize, mode: Mode) -> Vec<Token> {
    tokenize_counting(text, first_col, mode).0
}

/// Tokenizes the statement part of one line (after the line number), counting
/// the numeric literals beyond their type's range.
pub(crate) fn tokenize_counting(
    text: &[char],
    first_col: usize,
    mode: Mode,
) -> (Vec<Token>, usize) {
    let mut lexer = Lexer {
        chars: text,
        pos: 0,
        first_col,
        mode,
        out: Vec::new(),
        overflows: 0,
        data_unread: false,
    };
    lexer.run();
    (lexer.out, lexer.overflows)
}

struct Lexer<'a> {
    chars: &'a [char],
    pos: usize,
    first_col: usize,
    mode: Mode,
    out: Vec<Token>,
    /// Literals beyond their type's range, which GW-BASIC reports at load.
    overflows: usize,
    /// `READ` left a `DATA` statement of this line at a `:` between quotes and
    /// so never reads the rest of the line (see `data_items`).
    data_unread: bool,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.out.push(Token {
            tok,
            col: self.first_col + start,
        });
    }

    fn run(&mut self) {
        while let Some(c) = self.peek() {
            let start = self.pos;
            match c {
                ' ' | '\t' => self.pos += 1,
                '"' => {
                    self.pos += 1;
                    let mut bytes = Vec::new();
                    while let Some(c) = self.peek() {
                        self.pos += 1;
                        if c == '"' {
                            break;
                        }
                        bytes.push(cp437::to_code(c));
                    }
                    self.push(Tok::Str(bytes), start);
                }
                '0'..='9' | '.' => self.number(start),
                '&' => self.radix_number(start),
                '\'' => {
                    self.push(Tok::Rem, start);
                    self.pos = self.chars.len();
                }
                '?' => {
                    self.pos += 1;
                    self.push(Tok::Kw(Kw::Print), start);
                }
                c if c.is_ascii_alphabetic() => self.word(start),
                _ => {
                    self.pos += 1;
                    let tok = match c {
                        '+' => Tok::Plus,
                        '-' => Tok::Minus,
                        '*' => Tok::Star,
                        '/' => Tok::Slash,
                        '\\' => Tok::Backslash,
                        '^' => Tok::Caret,
                        '=' => Tok::Eq,
                        '<' => Tok::Lt,
                        '>' => Tok::Gt,
                        '(' | '[' => Tok::LParen,
                        ')' | ']' => Tok::RParen,
                        ',' => Tok::Comma,
                        ';' => Tok::Semi,
                        ':' => Tok::Colon,
                        '#' => Tok::Hash,
                        other => Tok::Other(other),
                    };
                    self.push(tok, start);
                }
            }
        }
    }

    /// Whether a number here is a line number: after a keyword that takes
    /// one, or a list of them (`ON X GOSUB 10, 20`). GW-BASIC's tokenizer
    /// stores those as line-number constants, digits only (`LINRES`, CRUNCH),
    /// so `GOSUB 90 #` is line 90 and then a `#`.
    fn in_line_numbers(&self) -> bool {
        let last_other = self
            .out
            .iter()
            .rev()
            .find(|token| !matches!(token.tok, Tok::Num(..) | Tok::Comma));
        matches!(
            last_other.map(|token| &token.tok),
            Some(Tok::Kw(
                Kw::Goto
                    | Kw::Gosub
                    | Kw::Then
                    | Kw::Else
                    | Kw::Restore
                    | Kw::Resume
                    | Kw::Run
                    | Kw::Return
            ))
        )
    }

    /// Digits, and while `dot_allowed` one `.`, skipping blanks between them:
    /// GW-BASIC's tokenizer skips blanks inside a number (`1 0` is 10).
    fn digits(&mut self, text: &mut String, mut dot_allowed: bool) {
        while let Some(c) = self.peek() {
            if c.is_ascii_digit() || (c == '.' && dot_allowed) {
                dot_allowed &= c != '.';
                text.push(c);
                self.pos += 1;
            } else if c == ' ' && self.digit_after_blanks(!dot_allowed) {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn number(&mut self, start: usize) {
        let mut text = String::new();
        if self.peek().is_some_and(|c| c.is_ascii_digit()) && self.in_line_numbers() {
            self.digits(&mut text, false);
        } else {
            self.decimal_number(&mut text);
        }
        if text == "." {
            self.push(Tok::Num(0.0, NumTy::Sng), start);
            return;
        }
        let (value, ty, overflow) = number::parse_literal_checked(&text);
        self.overflows += usize::from(overflow);
        self.push(Tok::Num(value, ty), start);
    }

    /// A number's text with its fraction, exponent and type sign.
    fn decimal_number(&mut self, text: &mut String) {
        self.digits(text, true);
        if let Some(e @ ('E' | 'e' | 'D' | 'd')) = self.peek() {
            let (sign_len, sign) = match self.peek_at(1) {
                Some(s @ ('+' | '-')) => (1, Some(s)),
                _ => (0, None),
            };
            if self
                .peek_at(1 + sign_len)
                .is_some_and(|c| c.is_ascii_digit())
            {
                text.push(e.to_ascii_uppercase());
                if let Some(sign) = sign {
                    text.push(sign);
                }
                self.pos += 1 + sign_len;
                while let Some(c) = self.peek().filter(char::is_ascii_digit) {
                    text.push(c);
                    self.pos += 1;
                }
            }
        }
        // the number reader takes `!` and `#` after blanks too (`2 #` is 2#),
        // as PC-BASIC does; `%` only right after the digits
        let mut blanks = 0;
        while self.peek_at(blanks) == Some(' ') {
            blanks += 1;
        }
        match (self.peek(), self.peek_at(blanks)) {
            (Some('%'), _) => {
                text.push('%');
                self.pos += 1;
            }
            (_, Some(suffix @ ('!' | '#'))) => {
                text.push(suffix);
                self.pos += blanks + 1;
            }
            _ => {}
        }
    }

    fn digit_after_blanks(&self, seen_dot: bool) -> bool {
        let mut offset = 0;
        while self.peek_at(offset) == Some(' ') {
            offset += 1;
        }
        self.peek_at(offset)
            .is_some_and(|c| c.is_ascii_digit() || (c == '.' && !seen_dot))
    }

    fn radix_number(&mut self, start: usize) {
        let mut text = String::from("&");
        self.pos += 1;
        if let Some(c @ ('H' | 'h' | 'O' | 'o')) = self.peek() {
            text.push(c.to_ascii_uppercase());
            self.pos += 1;
        }
        let hex = text.ends_with('H');
        while let Some(c) = self.peek() {
            let ok = if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_digit(8)
            };
            if !ok {
                break;
            }
            text.push(c.to_ascii_uppercase());
            self.pos += 1;
        }
        let (value, ty) = number::parse_literal(&text);
        self.push(Tok::Num(value, ty), start);
    }

    fn word(&mut self, start: usize) {
        match self.mode {
            Mode::GwBasic => self.word_gw(start),
            Mode::Crunched => self.word_crunched(start),
        }
    }

    fn after_keyword(&mut self, kw: Kw, start: usize) {
        match kw {
            Kw::Rem => {
                self.push(Tok::Rem, start);
                self.pos = self.chars.len();
            }
            Kw::Data => {
                let items = self.data_items();
                self.push(Tok::Data(items), start);
            }
            _ => self.push(Tok::Kw(kw), start),
        }
    }

    fn word_gw(&mut self, start: usize) {
        let mut end = self.pos;
        while self.chars.get(end).copied().is_some_and(is_name_char) {
            end += 1;
        }
        let run: String = self
            .chars
            .get(self.pos..end)
            .unwrap_or_default()
            .iter()
            .map(char::to_ascii_uppercase)
            .collect();
        if self.chars.get(end) == Some(&'$')
            && let Some(kw) = keyword(&format!("{run}$"))
        {
            self.pos = end + 1;
            self.after_keyword(kw, start);
            return;
        }
        // GW-BASIC's reserved words are "TAB(" and "SPC(" with their
        // parenthesis (IBMRES.ASM): without it glued on, TAB and SPC are names
        let spaced_print_function =
            matches!(run.as_str(), "TAB" | "SPC") && self.chars.get(end) != Some(&'(');
        if let Some(kw) = keyword(&run).filter(|_| !spaced_print_function) {
            self.pos = end;
            if run == "GO" {
                // never a keyword alone; handled below
            } else {
                self.after_keyword(kw, start);
                return;
            }
        }
        if run == "GO" && self.go_to_or_sub(end, start) {
            return;
        }
        if run.starts_with("FN") {
            self.pos += 2;
            self.push(Tok::Kw(Kw::Fn), start);
            return;
        }
        self.pos = end;
        let mut name = run;
        if let Some(sign @ ('$' | '%' | '!' | '#')) = self.peek() {
            name.push(sign);
            self.pos += 1;
        }
        self.push(Tok::Ident(name), start);
    }

    /// `GO TO` (any blanks) and `GO SUB` (one blank) are `GOTO` and `GOSUB`.
    fn go_to_or_sub(&mut self, end: usize, start: usize) -> bool {
        let mut index = end;
        while self.chars.get(index) == Some(&' ') {
            index += 1;
        }
        let rest: String = self
            .chars
            .iter()
            .skip(index)
            .take(3)
            .map(char::to_ascii_uppercase)
            .collect();
        let followed_by_name = |at: usize| self.chars.get(at).copied().is_some_and(is_name_char);
        if rest.starts_with("TO") && !followed_by_name(index + 2) {
            self.pos = index + 2;
            self.push(Tok::Kw(Kw::Goto), start);
            return true;
        }
        if rest == "SUB" && index == end + 1 && !followed_by_name(index + 3) {
            self.pos = index + 3;
            self.push(Tok::Kw(Kw::Gosub), start);
            return true;
        }
        false
    }

    /// The longest keyword starting at `at`, if any.
    fn keyword_at(&self, at: usize) -> Option<(Kw, usize)> {
        let mut best = None;
        let mut text = String::new();
        for (offset, c) in self.chars.iter().skip(at).take(9).enumerate() {
            if !(c.is_ascii_alphabetic() || (*c == '$' && offset > 0)) {
                break;
            }
            text.push(c.to_ascii_uppercase());
            if let Some(kw) = keyword(&text) {
                best = Some((kw, offset + 1));
            }
        }
        best
    }

    fn word_crunched(&mut self, start: usize) {
        if let Some((kw, len)) = self.keyword_at(self.pos) {
            self.pos += len;
            self.after_keyword(kw, start);
            return;
        }
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if !is_name_char(c) {
                break;
            }
            if !name.is_empty() && c.is_ascii_alphabetic() && self.keyword_at(self.pos).is_some() {
                break;
            }
            name.push(c.to_ascii_uppercase());
            self.pos += 1;
        }
        if let Some(sign @ ('$' | '%' | '!' | '#')) = self.peek() {
            name.push(sign);
            self.pos += 1;
        }
        self.push(Tok::Ident(name), start);
    }

    /// Moves to the comma or colon that ends a `DATA` item after its closing
    /// quote; true if anything but blanks stood before it.
    /// Where the `DATA` statement starting at `from` ends, as GW-BASIC's `DATA`
    /// skipper (`DATA`/`REMER`, GWMAIN.ASM) finds it when the statement runs: at
    /// the first `:` or the end of the line, trading terminators at each quote,
    /// so a `:` between quotes does not end it.
    fn data_statement_end(&self, from: usize) -> usize {
        let mut quoted = false;
        let mut at = from;
        while let Some(&c) = self.chars.get(at) {
            match c {
                '"' => quoted = !quoted,
                ':' if !quoted => break,
                _ => {}
            }
            at += 1;
        }
        at
    }

    /// The items of the `DATA` statement starting at the cursor as GW-BASIC's
    /// `READ` takes them, with the cursor left at the statement's end.
    ///
    /// `READ` (GWMAIN.ASM, `SCNVAL`) reads an item starting with a quote up to
    /// the closing quote (`STRLT2` with the quote as terminator), and any other
    /// item with `STRLT2` given `,` and `:` as terminators, which stops at the
    /// first of them whatever quotes the item holds: `AB"C,D` is the two items
    /// `AB"C` and `D`. It takes the next item after a `,` and leaves the
    /// statement at the first `:` it meets, even one the statement skipper sees
    /// between quotes: it then looks for the next statement right after that
    /// `:` (`DATLOP`), in text the cruncher left inside quotes, where no `DATA`
    /// token can stand. So the rest of that line is never read: later `DATA`
    /// statements on it get no items (`data_unread`).
    fn data_items(&mut self) -> Vec<DataItem> {
        let end = self.data_statement_end(self.pos);
        let items = if self.data_unread {
            Vec::new()
        } else {
            let (items, stop) = self.read_view(self.pos);
            // the line's end, or the `:` that really ends this statement, is
            // where READ goes on as the statements are
            self.data_unread = stop < self.chars.len() && stop != end;
            items
        };
        self.pos = end;
        items
    }

    /// `READ`'s items from `at`, and where it stops: the `:` or line end after
    /// the last item.
    fn read_view(&self, mut at: usize) -> (Vec<DataItem>, usize) {
        let mut items = Vec::new();
        loop {
            while self.chars.get(at) == Some(&' ') {
                at += 1;
            }
            let mut text = Vec::new();
            let quoted = self.chars.get(at) == Some(&'"');
            let mut stray_after_quote = false;
            if quoted {
                at += 1;
                while let Some(&c) = self.chars.get(at) {
                    at += 1;
                    if c == '"' {
                        break;
                    }
                    text.push(cp437::to_code(c));
                }
                // after the closing quote only blanks may come before the
                // terminator (`STRDN2`); anything else is `READ`'s Syntax
                // error, at this item whenever it is read
                while let Some(&c) = self.chars.get(at) {
                    if c == ',' || c == ':' {
                        break;
                    }
                    stray_after_quote |= c != ' ';
                    at += 1;
                }
            } else {
                while let Some(&c) = self.chars.get(at) {
                    if c == ',' || c == ':' {
                        break;
                    }
                    text.push(cp437::to_code(c));
                    at += 1;
                }
                while text.last() == Some(&Ch::from(b' ')) {
                    text.pop();
                }
            }
            items.push(DataItem {
                text,
                quoted,
                stray_after_quote,
            });
            match self.chars.get(at) {
                Some(',') => at += 1,
                _ => return (items, at),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str, mode: Mode) -> Vec<Tok> {
        let chars: Vec<char> = text.chars().collect();
        tokenize(&chars, 1, mode)
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    fn ident(name: &str) -> Tok {
        Tok::Ident(name.to_string())
    }

    #[test]
    fn gw_basic_keywords_stand_apart_from_names() {
        assert_eq!(
            toks("FORI=1TO10", Mode::GwBasic),
            vec![
                ident("FORI"),
                Tok::Eq,
                Tok::Num(1.0, NumTy::Int),
                ident("TO10")
            ]
        );
        assert_eq!(
            toks("TOTAL = A$", Mode::GwBasic),
            vec![ident("TOTAL"), Tok::Eq, ident("A$")]
        );
        assert_eq!(
            toks("PRINT LEFT$(A$,1)", Mode::GwBasic)[..3],
            [Tok::Kw(Kw::Print), Tok::Kw(Kw::LeftS), Tok::LParen]
        );
        assert_eq!(
            toks("GO TO 100", Mode::GwBasic),
            vec![Tok::Kw(Kw::Goto), Tok::Num(100.0, NumTy::Int)]
        );
        assert_eq!(
            toks("FNA(X)", Mode::GwBasic)[..2],
            [Tok::Kw(Kw::Fn), ident("A")]
        );
    }

    #[test]
    fn crunched_mode_finds_keywords_inside_names() {
        assert_eq!(
            toks("FORI=1TO10", Mode::Crunched),
            vec![
                Tok::Kw(Kw::For),
                ident("I"),
                Tok::Eq,
                Tok::Num(1.0, NumTy::Int),
                Tok::Kw(Kw::To),
                Tok::Num(10.0, NumTy::Int)
            ]
        );
        assert_eq!(
            toks("IFX>5THEN100", Mode::Crunched),
            vec![
                Tok::Kw(Kw::If),
                ident("X"),
                Tok::Gt,
                Tok::Num(5.0, NumTy::Int),
                Tok::Kw(Kw::Then),
                Tok::Num(100.0, NumTy::Int)
            ]
        );
        assert_eq!(
            toks("PRINTA$", Mode::Crunched),
            vec![Tok::Kw(Kw::Print), ident("A$")]
        );
    }

    #[test]
    fn comments_and_data_keep_their_text() {
        assert_eq!(toks("A=1:REM X:Y", Mode::GwBasic).last(), Some(&Tok::Rem));
        assert_eq!(
            toks("DATA 1, \"A,B\" , C D :PRINT", Mode::GwBasic)[0],
            Tok::Data(vec![
                DataItem {
                    text: cp437::encode("1"),
                    quoted: false,
                    stray_after_quote: false,
                },
                DataItem {
                    text: cp437::encode("A,B"),
                    quoted: true,
                    stray_after_quote: false,
                },
                DataItem {
                    text: cp437::encode("C D"),
                    quoted: false,
                    stray_after_quote: false,
                },
            ])
        );
    }

    /// Each `DATA` statement's items as `READ` takes them, written `text` for an
    /// unquoted item, `"text"` for a quoted one, `!` after a quoted one with
    /// text after its closing quote; and the statements the line holds.
    #[test]
    fn data_items_are_what_read_takes() {
        let cases: &[(&str, &[&[&str]], usize)] = &[
            // an unquoted item ends at the first comma or colon, quotes or not
            ("DATA AB\"C,D\",E", &[&["AB\"C", "D\"", "E"]], 1),
            ("DATA X\"Y\"Z , 5", &[&["X\"Y\"Z", "5"]], 1),
            // READ stops at the colon between quotes; the statement goes on to
            // the colon after them, and the line's later DATA is never read
            ("DATA P\"Q:R\":PRINT 1:DATA 7", &[&["P\"Q"], &[]], 6),
            // a colon that really ends the statement: READ goes on to the next DATA
            ("DATA 1,\"A:B\" :DATA 2", &[&["1", "\"A:B\""], &["2"]], 3),
            // a quoted item starting before the statement's end runs past it
            ("DATA A\"B,\"C:D\"", &[&["A\"B", "\"C:D\""]], 4),
            ("DATA \"AB\"C,D", &[&["\"AB\"!", "D"]], 1),
            ("DATA", &[&[""]], 1),
        ];
        for &(line, expected, tokens) in cases {
            let toks = toks(line, Mode::GwBasic);
            let data: Vec<Vec<String>> = toks
                .iter()
                .filter_map(|tok| match tok {
                    Tok::Data(items) => Some(
                        items
                            .iter()
                            .map(|item| {
                                let text = cp437::decode(&item.text);
                                match (item.quoted, item.stray_after_quote) {
                                    (false, _) => text,
                                    (true, false) => format!("\"{text}\""),
                                    (true, true) => format!("\"{text}\"!"),
                                }
                            })
                            .collect(),
                    ),
                    _ => None,
                })
                .collect();
            assert_eq!(data, expected, "{line}");
            assert_eq!(toks.len(), tokens, "{line}: {toks:?}");
        }
    }
}
