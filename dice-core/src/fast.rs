//! A hand-written parser for the most common expressions, beside pest.
//!
//! pest spends a few microseconds on even `4d6kh3`, because every rule it
//! tries is tracked for error messages; a chat bot parses short expressions
//! like that all day. This parser accepts a strict subset of the grammar in
//! `dice.pest`: numbers, dice (`NdM`, `d%`, `dF`, `(e)dM`), series with
//! ranges, every modifier with literal arguments and simple filters, infix
//! arithmetic and comparisons, unary minus, parentheses, whitespace and
//! labels. It builds exactly the tree the pest path builds; on anything else
//! (tags, functions, references, custom faces, parenthesised arguments,
//! filter groups, labels that might be misplaced modifiers) and on every
//! error it gives up, and pest parses the input. A property test checks that
//! both paths agree wherever this one accepts.

use smallvec::SmallVec;

use crate::ast::{
    Arg, BinOp, CmpOp, CountKind, Dice, ExplodeMode, Filter, KeepWhich, ModKind, Modifier, Mods,
    Node, NodeKind, Series, SeriesItem, Sides, Slot, Span,
};
use crate::parser::{Parsed, climb, merge_die_modifiers, needs_merge};

/// Parses `input` if it uses only the common forms; `None` otherwise.
/// The caller has checked the length and nesting depth.
pub(crate) fn parse(input: &str) -> Option<Parsed> {
    let mut parser = Fast {
        bytes: input.as_bytes(),
        at: 0,
        slots: 0,
    };
    parser.skip_space();
    let root = parser.expr()?;
    let expr_end = root.span.end as usize;
    parser.skip_space();
    let label = parser.label(expr_end, ends_with_pool(&root))?;
    Some(Parsed {
        root,
        label,
        expr_end,
        slots: parser.slots,
        has_refs: false,
    })
}

/// Whether the rightmost term is dice or a series (for the `4d6 kh3` hint).
fn ends_with_pool(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Chain(chain) => chain
            .rest
            .last()
            .is_some_and(|(_, last)| ends_with_pool(last)),
        NodeKind::Neg(inner) => ends_with_pool(inner),
        NodeKind::Dice(_) | NodeKind::Series(_) => true,
        _ => false,
    }
}

struct Fast<'a> {
    bytes: &'a [u8],
    at: usize,
    slots: Slot,
}

impl Fast<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.at + offset).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.at += 1;
        }
    }

    /// The label after the expression: `Some(None)` when there is none,
    /// `None` when pest should decide (glued text, a first word that may be
    /// modifiers, tags).
    fn label(&self, expr_end: usize, after_pool: bool) -> Option<Option<String>> {
        let rest = &self.bytes[self.at..];
        let Some(&first) = rest.first() else {
            return Some(None);
        };
        let text = std::str::from_utf8(rest).ok()?;
        if first == b'#' {
            let label = text[1..].trim();
            return Some((!label.is_empty()).then(|| label.to_string()));
        }
        let stops = b"+-*/%(){}[],.<>=!&|$@^";
        if self.at == expr_end || first.is_ascii_digit() || stops.contains(&first) {
            return None;
        }
        let first_word = text.split_whitespace().next().unwrap_or("");
        if after_pool && !first_word.bytes().all(|b| b.is_ascii_alphabetic()) {
            return None;
        }
        if crate::parser::roll20_repeat(first_word).is_some() {
            // `x6`: pest's path says to use `repeat:6`.
            return None;
        }
        Some(Some(text.trim().to_string()))
    }

    fn expr(&mut self) -> Option<Node> {
        let first = self.operand()?;
        let mut operands: SmallVec<[Node; 4]> = SmallVec::new();
        let mut ops: SmallVec<[BinOp; 4]> = SmallVec::new();
        loop {
            let save = self.at;
            self.skip_space();
            let (op, len) = match (self.peek(), self.peek_at(1)) {
                (Some(b'+'), _) => (BinOp::Add, 1),
                (Some(b'-'), _) => (BinOp::Sub, 1),
                // `**`, `//` and `/*` (powers, floor division, comments): pest's path.
                (Some(b'*'), Some(b'*')) | (Some(b'/'), Some(b'/' | b'*')) => return None,
                (Some(b'*'), _) => (BinOp::Mul, 1),
                (Some(b'/'), _) => (BinOp::Div, 1),
                (Some(b'%'), _) => (BinOp::Rem, 1),
                (Some(b'!'), Some(b'=')) => (BinOp::Cmp(CmpOp::Ne), 2),
                (Some(b'<' | b'>' | b'='), _) => {
                    let (op, len) = self.cmp_op()?;
                    (BinOp::Cmp(op), len)
                }
                _ => {
                    self.at = save;
                    break;
                }
            };
            self.at += len;
            self.skip_space();
            ops.push(op);
            operands.push(self.operand()?);
        }
        if ops.is_empty() {
            return Some(first);
        }
        let mut operands = operands.into_iter();
        let mut ops = ops.into_iter().peekable();
        Some(climb(first, &mut operands, &mut ops, 0))
    }

    fn operand(&mut self) -> Option<Node> {
        let mut negs: SmallVec<[u32; 8]> = SmallVec::new();
        while self.peek() == Some(b'-') {
            if negs.len() == 8 {
                // Long runs of signs get pest's path and its depth check.
                return None;
            }
            negs.push(self.at as u32);
            self.at += 1;
            self.skip_space();
        }
        let mut node = self.term()?;
        for start in negs.into_iter().rev() {
            let span = Span {
                start,
                end: node.span.end,
            };
            node = Node {
                kind: NodeKind::Neg(Box::new(node)),
                span,
            };
        }
        Some(node)
    }

    fn term(&mut self) -> Option<Node> {
        let start = self.at;
        let lead = match self.peek()? {
            b'0'..=b'9' => Some(self.number_node()?),
            b'(' => Some(self.group()?),
            b'{' => return self.series(),
            b'd' | b'D' => None,
            _ => return None,
        };
        if !matches!(self.peek(), Some(b'd' | b'D')) {
            // A number or group on its own; value modifiers go to pest.
            let lead = lead?;
            if self
                .peek()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'{')
            {
                return None;
            }
            return Some(lead);
        }
        let count = lead.map(|lead| match lead.kind {
            NodeKind::Num(value) => Arg::Lit(value, lead.span),
            _ => Arg::Expr(Box::new(lead)),
        });
        self.at += 1;
        let sides = match self.peek()? {
            b'%' => {
                self.at += 1;
                Sides::Percent
            }
            // `dF.1` and `dF.2` take pest's path.
            b'F' | b'f' if self.peek_at(1) != Some(b'.') => {
                self.at += 1;
                Sides::Fate
            }
            b'0'..=b'9' => {
                let (value, span) = self.number()?;
                Sides::Count(Arg::Lit(value, span))
            }
            _ => return None,
        };
        let mut mods = self.modifiers(true)?;
        if needs_merge(&mods) {
            mods = merge_die_modifiers(mods).ok()?;
        }
        let slot = self.slots;
        self.slots += 1;
        Some(Node {
            kind: NodeKind::Dice(Box::new(Dice {
                count,
                sides,
                mods,
                slot,
            })),
            span: Span::new(start, self.at),
        })
    }

    fn number(&mut self) -> Option<(i64, Span)> {
        let start = self.at;
        let mut value: i64 = 0;
        while let Some(digit @ b'0'..=b'9') = self.peek() {
            // Overflow leaves the number to pest, which reports it.
            value = value
                .checked_mul(10)?
                .checked_add(i64::from(digit - b'0'))?;
            self.at += 1;
        }
        Some((value, Span::new(start, self.at)))
    }

    fn number_node(&mut self) -> Option<Node> {
        let (value, span) = self.number()?;
        Some(Node {
            kind: NodeKind::Num(value),
            span,
        })
    }

    fn group(&mut self) -> Option<Node> {
        let start = self.at;
        self.at += 1;
        self.skip_space();
        let inner = self.expr()?;
        self.skip_space();
        if self.peek() != Some(b')') {
            return None;
        }
        self.at += 1;
        Some(Node {
            kind: NodeKind::Group(Box::new(inner)),
            span: Span::new(start, self.at),
        })
    }

    fn optional_number(&mut self) -> Option<Option<Arg>> {
        match self.peek() {
            Some(b'0'..=b'9') => Some(Some(self.literal()?)),
            // `k(...)` and friends take the pest path.
            Some(b'(') => None,
            _ => Some(None),
        }
    }

    fn literal(&mut self) -> Option<Arg> {
        if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        let (value, span) = self.number()?;
        Some(Arg::Lit(value, span))
    }

    /// `{a, b..c}` and its modifiers.
    fn series(&mut self) -> Option<Node> {
        let start = self.at;
        self.at += 1;
        self.skip_space();
        let mut items = Vec::new();
        if self.peek() != Some(b'}') {
            loop {
                let low = self.expr()?;
                self.skip_space();
                let item = if self.peek() == Some(b'.') && self.peek_at(1) == Some(b'.') {
                    self.at += 2;
                    self.skip_space();
                    SeriesItem::Range(low, self.expr()?)
                } else {
                    SeriesItem::One(low)
                };
                items.push(item);
                self.skip_space();
                match self.peek()? {
                    b',' => {
                        self.at += 1;
                        self.skip_space();
                    }
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        self.at += 1;
        let body_span = Span::new(start, self.at);
        let mods = self.modifiers(false)?;
        let slot = self.slots;
        self.slots += 1;
        Some(Node {
            kind: NodeKind::Series(Box::new(Series {
                items,
                body_span,
                parenthesised: false,
                mods,
                slot,
            })),
            span: Span::new(start, self.at),
        })
    }

    /// `<=`, `>=`, `<>`, `==`, `=`, `<`, `>` and their length.
    fn cmp_op(&self) -> Option<(CmpOp, usize)> {
        Some(match (self.peek()?, self.peek_at(1)) {
            (b'<', Some(b'=')) => (CmpOp::Le, 2),
            (b'>', Some(b'=')) => (CmpOp::Ge, 2),
            (b'<', Some(b'>')) => (CmpOp::Ne, 2),
            (b'=', Some(b'=')) => (CmpOp::Eq, 2),
            (b'=', _) => (CmpOp::Eq, 1),
            (b'<', _) => (CmpOp::Lt, 1),
            (b'>', _) => (CmpOp::Gt, 1),
            _ => return None,
        })
    }

    /// One filter: `h`, `l`, `o`, `e`, `N` or `op N`; `Ok(None)` when none
    /// starts here; `Err(())` when only pest can tell.
    fn filter(&mut self) -> Result<Option<Filter>, ()> {
        let filter = match self.peek().map(|b| b.to_ascii_lowercase()) {
            Some(b'h') => Filter::High,
            Some(b'l') => Filter::Low,
            Some(b'o') => Filter::Odd,
            Some(b'e') => Filter::Even,
            Some(b'0'..=b'9') => {
                let value = self.literal().ok_or(())?;
                return Ok(Some(Filter::Cmp(CmpOp::Eq, value)));
            }
            Some(b'<' | b'>' | b'=' | b'!') => {
                let (op, len) = match (self.peek(), self.peek_at(1)) {
                    (Some(b'!'), Some(b'=')) => (CmpOp::Ne, 2),
                    (Some(b'!'), _) => return Ok(None),
                    _ => self.cmp_op().ok_or(())?,
                };
                self.at += len;
                let value = self.literal().ok_or(())?;
                return Ok(Some(Filter::Cmp(op, value)));
            }
            Some(b'(') => return Err(()),
            _ => return Ok(None),
        };
        self.at += 1;
        Ok(Some(filter))
    }

    /// Modifiers after dice (`dice`) or a series, in the order of the
    /// grammar's alternatives, so the same spelling wins.
    fn modifiers(&mut self, dice: bool) -> Option<Mods> {
        let mut mods = Mods::new();
        loop {
            let start = self.at;
            let Some(kind) = self.modifier(dice)? else {
                return Some(mods);
            };
            mods.push(Modifier {
                kind,
                span: Span::new(start, self.at),
            });
        }
    }

    fn modifier(&mut self, dice: bool) -> Option<Option<ModKind>> {
        // Modifier letters may be upper case (`4d6KH3`), as in the grammar.
        let (Some(first), second) = (self.peek(), self.peek_at(1)) else {
            return Some(None);
        };
        let first = first.to_ascii_lowercase();
        let second = second.map(|b| b.to_ascii_lowercase());
        let third = self.peek_at(2).map(|b| b.to_ascii_lowercase());
        let kind = match (first, second) {
            (b'!' | b'x' | b'e', _) if dice => {
                let (mode, len) = match (first, second) {
                    (b'!', Some(b'!')) if third == Some(b'p') => {
                        (ExplodeMode::CompoundPenetrate, 3)
                    }
                    (b'!', Some(b'!')) => (ExplodeMode::Compound, 2),
                    (b'!', Some(b'p')) => (ExplodeMode::Penetrate, 2),
                    (b'x', Some(b'o')) => (ExplodeMode::Once, 2),
                    _ => (ExplodeMode::Standard, 1),
                };
                self.at += len;
                let cond = self.filter().ok()?;
                ModKind::Explode { mode, cond }
            }
            (b'r', Some(b'a')) if dice => {
                self.at += 2;
                // Without a condition pest reports the error.
                let cond = self.filter().ok()??;
                ModKind::Explode {
                    mode: ExplodeMode::Once,
                    cond: Some(cond),
                }
            }
            (b'r', _) if dice => {
                let (once, len) = match second {
                    Some(b'r') => (false, 2),
                    Some(b'o') => (true, 2),
                    _ => (false, 1),
                };
                self.at += len;
                let cond = self.filter().ok()?;
                ModKind::Reroll { once, cond }
            }
            (b'm', _) if dice => {
                let (at_least, len) = match (second, third) {
                    (Some(b'i'), Some(b'n')) => (true, 3),
                    (Some(b'a'), Some(b'x')) => (false, 3),
                    (Some(b'i'), _) => (true, 2),
                    (Some(b'a'), _) => (false, 2),
                    _ => return None,
                };
                self.at += len;
                ModKind::Clamp {
                    at_least,
                    n: self.literal()?,
                }
            }
            // Avrae's `k>3` and `p<3` (keep or drop by comparison): pest's path.
            (b'k' | b'p', Some(b'<' | b'>' | b'=')) => return None,
            (b'k', _) => {
                let (which, len) = match second {
                    Some(b'h') => (KeepWhich::Highest, 2),
                    Some(b'l') => (KeepWhich::Lowest, 2),
                    Some(b'e') => (KeepWhich::Even, 2),
                    Some(b'o') => (KeepWhich::Odd, 2),
                    _ => (KeepWhich::Highest, 1),
                };
                self.at += len;
                ModKind::Keep {
                    which,
                    n: self.optional_number()?,
                }
            }
            (b'c', _) | (b's', Some(b's' | b'f')) | (b'd', Some(b'f')) => {
                let (kind, len) = match (first, second) {
                    (b'c', Some(b's')) => (CountKind::Successes, 2),
                    (b'c', Some(b'f')) => (CountKind::Failures, 2),
                    (b'c', _) => (CountKind::Successes, 1),
                    (b's', Some(b's')) => (CountKind::SubtractSuccesses, 2),
                    _ => (CountKind::SubtractFailures, 2),
                };
                self.at += len;
                let mut filters = Vec::new();
                while let Some(filter) = self.filter().ok()? {
                    filters.push(filter);
                }
                ModKind::Count {
                    kind,
                    filters,
                    elements: false,
                }
            }
            (b'd' | b'p', _) if dice => {
                let (highest, len) = match second {
                    Some(b'h') => (true, 2),
                    Some(b'l') => (false, 2),
                    _ => (false, 1),
                };
                self.at += len;
                ModKind::Drop {
                    highest,
                    n: self.optional_number()?,
                }
            }
            (b't' | b'f', _) => {
                self.at += 1;
                let (kind, op) = if first == b't' {
                    (CountKind::Successes, CmpOp::Ge)
                } else {
                    (CountKind::SubtractFailures, CmpOp::Le)
                };
                let filter = match self.peek() {
                    Some(b'<' | b'>' | b'=' | b'!') => self.filter().ok()??,
                    _ => Filter::Cmp(op, self.literal()?),
                };
                ModKind::Count {
                    kind,
                    filters: vec![filter],
                    elements: true,
                }
            }
            (b'<' | b'>' | b'=', _) => {
                let (op, len) = self.cmp_op()?;
                self.at += len;
                let value = self.literal()?;
                if matches!(self.peek(), Some(b'd' | b'D')) {
                    // `2d6>1d6` compares totals: pest's path.
                    return None;
                }
                ModKind::Count {
                    kind: CountKind::Successes,
                    filters: vec![Filter::Cmp(op, value)],
                    elements: true,
                }
            }
            (b's', _) => {
                let len = if matches!(second, Some(b'a' | b'd')) {
                    2
                } else {
                    1
                };
                self.at += len;
                ModKind::Sort {
                    descending: second == Some(b'd'),
                }
            }
            (b, _) if b.is_ascii_alphabetic() || b"[{$@#!".contains(&b) => return None,
            _ => return Some(None),
        };
        Some(Some(kind))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::limits::Limits;

    /// Both paths on one input: the fast one (if it accepts) and pest.
    fn both(input: &str) -> (Option<String>, Result<String, String>) {
        let fast = super::parse(input).map(|parsed| format!("{parsed:?}"));
        let limits = Limits::default();
        let slow = crate::parser::parse_with_pest(input, &limits)
            .map(|parsed| format!("{parsed:?}"))
            .map_err(|error| error.to_string());
        (fast, slow)
    }

    #[test]
    fn the_common_forms_take_the_fast_path_and_agree_with_pest() {
        let cases = [
            "1d20+5",
            "4d6kh3",
            "8d6",
            "100d6",
            "10d10!",
            "(1d20+3)*2-1d4",
            "{d6,d8,d10}kh2cs>=5",
            " 2d6 + 3 ",
            "-d4 - -2",
            "4D6k3",
            "4d6KH3",
            "1D20RO1",
            "10D10CS>=8SF1",
            "2d20kl",
            "4d6d1",
            "4d6dh1dl1",
            "3d6!!",
            "3d6!p5",
            "2d6!!p>4",
            "1d6!6!5",
            "4dF",
            "d%",
            "(1d4)d6",
            "7 / 2 % 3 * 4",
            "{1..4, 7}kl2",
            "{}",
            "{ {1,2} , 3 .. 5 }sd",
            "10d10cs>=8sf1",
            "4d6cs>=4=6",
            "6d10>=8f1",
            "6d10t8",
            "6d10t>7f<2",
            "3d6>3f=1",
            "4d6ke",
            "4d6ko2",
            "4d6r<3",
            "4d6ro1",
            "1d20ra1",
            "4d6ra<3",
            "4d6ra>=5ra1",
            "4d6rah",
            "4d6rr",
            "1d10x10",
            "1d10xo",
            "1d20e20",
            "4d6min2max5",
            "4d6mi2ma5",
            "8d6p2ph1pl1",
            "4d6df",
            "1d20 >= 10",
            "1 != 2 <> 3 == 4 = 5 < 6 > 7 <= 8",
            "1d6!=3",
            "1d6cs!=3",
            "4d6!h",
            "4d6cseo",
            "1d20+5 to hit",
            "1d20+6 dex save",
            "1d20 # a (b) [c] 1+2",
            "1d20+5#hit",
            "2d6 #",
            "(4d6) kh3",
            "1d20 dex +2",
        ];
        for input in cases {
            let (fast, slow) = both(input);
            assert!(fast.is_some(), "{input} should take the fast path");
            assert_eq!(fast, slow.ok(), "{input}");
        }
    }

    #[test]
    fn everything_else_is_left_to_pest() {
        for input in [
            "",
            "2d",
            "4d6 kh3",
            "4d6 r2 fire",
            "1d20 h\u{e9}roic",
            "4d6kh(2)",
            "1d6cs(>1|6)",
            "2d6[fire]",
            "99999999999999999999",
            "(1",
            "1d20 [x]",
            "max(1, 2)",
            "$m",
            "@STR",
            "3kh1",
            "d{1,2}",
            "2d6>1d6",
            "{1,2}d6",
            "1d6!!!",
            "1d20+5to hit",
            "4d6mi",
            "4d6k>3",
            "2d20p<5",
            "4d6k<>3",
            "(1d20, 1d20)kh1",
            "(2d6,)",
            "4d6ra",
            "4d6ra(1|2)",
            "2^3",
            "2**3",
            "15 // 2",
            "3d6 // fire",
            "1 /* c */ + 2",
            "+1",
            "()",
            "4dF.1",
            "4d6u",
            "1d6rol1",
            "4d20min-12",
            "1d20 **bold**",
            "3d6 x6",
            "5 x2",
        ] {
            assert_eq!(
                super::parse(input).map(|p| format!("{p:?}")),
                None,
                "{input}"
            );
        }
    }

    fn token() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "1", "20", "4", "d", "D", "6", "d6", "4d6", "kh", "kl", "k", "3", "d1", "dh", "dl",
            "!", "!!", "!p", "+", "-", "*", "/", "%", "(", ")", " ", "dF", "d%", "0", "{", "}",
            ",", "..", "cs", "cf", "c", "ss", "sf", "df", ">=", "<=", "<>", "=", "==", "!=", "<",
            ">", "h", "l", "o", "e", "x", "xo", "r", "ro", "rr", "min", "max", "mi", "ma", "t",
            "f", "s", "sa", "sd", "ke", "ko", "p", "ph", "pl", "ra", "k>", "p<", " to hit", " dex",
            "#", " # x", " kh3", " ☄", "^", "**", "//", "/*", "*/", "u", "uo", "!!p", "dF.1",
            "dF.2", "rol1", "ral2", "min-12", "()", " **b**", "sqrt(", "x6", " x6", "KH", "RO",
            "D", "CS", "X", "U", "MIN", "H", "L", "E", "SF", "T", "F", "!P",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn token_soup_parses_the_same_on_both_paths(tokens in prop::collection::vec(token(), 1..12)) {
            let input = tokens.concat();
            let (fast, slow) = both(&input);
            if let Some(fast) = fast {
                prop_assert_eq!(Some(fast), slow.ok(), "{}", input);
            }
        }

        #[test]
        fn wherever_the_fast_path_accepts_it_builds_the_pest_tree(
            input in "[0-9dDkKhHlLpPfFeEoOsScrRtTxXmMaAij!%(){},.<>=+*/^ -]{1,24}"
        ) {
            let (fast, slow) = both(&input);
            if let Some(fast) = fast {
                prop_assert_eq!(Some(fast), slow.ok(), "{}", input);
            }
        }
    }
}
