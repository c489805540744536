//! A hand-written parser for the most common expressions, beside pest.
//!
//! pest spends a few microseconds on even `4d6kh3`, because every rule it
//! tries is tracked for error messages; a chat bot parses short expressions
//! like that all day. This parser accepts a strict subset of the grammar in
//! `dice.pest` (numbers, `NdM`, `d%`, `dF`, `(e)dM`, keep, drop and plain
//! explosions, `+ - * / %`, unary minus, parentheses, whitespace) and builds
//! exactly the tree the pest path builds; on anything else, including every
//! error, it gives up and pest parses the input. A property test checks that
//! both paths agree wherever this one accepts.

use crate::ast::{
    Arg, BinOp, CmpOp, Dice, ExplodeMode, Filter, KeepWhich, ModKind, Modifier, Node, NodeKind,
    Sides, Slot, Span,
};
use crate::parser::{Parsed, climb, merge_die_modifiers};

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
    if parser.at != parser.bytes.len() {
        return None;
    }
    Some(Parsed {
        root,
        label: None,
        expr_end,
        slots: parser.slots,
        has_refs: false,
    })
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

    fn expr(&mut self) -> Option<Node> {
        let first = self.operand()?;
        let mut operands = Vec::new();
        let mut ops = Vec::new();
        loop {
            let save = self.at;
            self.skip_space();
            let op = match self.peek() {
                Some(b'+') => BinOp::Add,
                Some(b'-') => BinOp::Sub,
                Some(b'*') => BinOp::Mul,
                Some(b'/') => BinOp::Div,
                Some(b'%') => BinOp::Rem,
                _ => {
                    self.at = save;
                    break;
                }
            };
            self.at += 1;
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
        let mut negs: Vec<u32> = Vec::new();
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
            b'F' | b'f' => {
                self.at += 1;
                Sides::Fate
            }
            b'0'..=b'9' => {
                let (value, span) = self.number()?;
                Sides::Count(Arg::Lit(value, span))
            }
            _ => return None,
        };
        let mods = merge_die_modifiers(self.modifiers()?).ok()?;
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
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
        let value = text.parse::<i64>().ok()?;
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
            Some(b'0'..=b'9') => {
                let (value, span) = self.number()?;
                Some(Some(Arg::Lit(value, span)))
            }
            // `k(...)` and friends take the pest path.
            Some(b'(') => None,
            _ => Some(None),
        }
    }

    fn modifiers(&mut self) -> Option<Vec<Modifier>> {
        let mut mods = Vec::new();
        loop {
            let start = self.at;
            let kind = match (self.peek(), self.peek_at(1)) {
                (Some(b'k'), second) => {
                    let (which, len) = match second {
                        Some(b'h') => (KeepWhich::Highest, 2),
                        Some(b'l') => (KeepWhich::Lowest, 2),
                        Some(b'e' | b'o') => return None,
                        _ => (KeepWhich::Highest, 1),
                    };
                    self.at += len;
                    ModKind::Keep {
                        which,
                        n: self.optional_number()?,
                    }
                }
                (Some(b'd'), second) => {
                    let (highest, len) = match second {
                        Some(b'h') => (true, 2),
                        Some(b'l') => (false, 2),
                        Some(b'f') => return None,
                        _ => (false, 1),
                    };
                    self.at += len;
                    ModKind::Drop {
                        highest,
                        n: self.optional_number()?,
                    }
                }
                (Some(b'!'), second) => {
                    let (mode, len) = match second {
                        Some(b'!') => (ExplodeMode::Compound, 2),
                        Some(b'p') => (ExplodeMode::Penetrate, 2),
                        _ => (ExplodeMode::Standard, 1),
                    };
                    self.at += len;
                    let cond = match self.peek() {
                        Some(b'0'..=b'9') => {
                            let (value, span) = self.number()?;
                            Some(Filter::Cmp(CmpOp::Eq, Arg::Lit(value, span)))
                        }
                        Some(b'h' | b'l' | b'o' | b'e' | b'(' | b'<' | b'>' | b'=' | b'!') => {
                            return None;
                        }
                        _ => None,
                    };
                    ModKind::Explode { mode, cond }
                }
                (Some(b), _) if b.is_ascii_alphabetic() || b"<>=[{".contains(&b) => return None,
                _ => return Some(mods),
            };
            mods.push(Modifier {
                kind,
                span: Span::new(start, self.at),
            });
        }
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
            " 2d6 + 3 ",
            "-d4 - -2",
            "4D6k3",
            "2d20kl",
            "4d6d1",
            "4d6dh1dl1",
            "3d6!!",
            "3d6!p5",
            "1d6!6!5",
            "4dF",
            "d%",
            "(1d4)d6",
            "7 / 2 % 3 * 4",
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
            "1d20+5 to hit",
            "{1,2}",
            "4d6cs>=5",
            "4d6kh(2)",
            "4dF!h",
            "1d6!>=5",
            "1d20 >= 10",
            "4d6ke",
            "4d6df",
            "2d6[fire]",
            "99999999999999999999",
            "(1",
            "1d20 # x",
            "max(1, 2)",
            "$m",
            "3kh1",
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
            "!", "!!", "!p", "+", "-", "*", "/", "%", "(", ")", " ", "dF", "d%", "0",
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
            input in "[0-9dDkhlpfFeo!%()+*/ -]{1,24}"
        ) {
            let (fast, slow) = both(&input);
            if let Some(fast) = fast {
                prop_assert_eq!(Some(fast), slow.ok(), "{}", input);
            }
        }
    }
}
