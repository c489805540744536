//! From text to our own syntax tree: limits first, then pest, then the tree.
//!
//! pest types stay inside this module. The nesting depth is measured with a
//! plain byte scan before pest runs, because pest recurses once per `(` or
//! `{` and 10,000 of them would overflow the stack.

use pest::Parser as _;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;

use crate::ast::Mods;
use crate::ast::{
    Arg, BinOp, Call, Chain, CmpOp, CountKind, Dice, ExplodeMode, Filter, Func, KeepWhich, ModKind,
    Modified, Modifier, Node, NodeKind, RankMode, Series, SeriesItem, Sides, Slot, Span,
};
use crate::error::{Error, ErrorKind};
use crate::limits::Limits;
use crate::reason::{Choice, Phrase, Reason, ReasonId};

#[derive(pest_derive::Parser)]
#[grammar = "dice.pest"]
struct DiceParser;

/// What the parser hands to [`crate::Expr`].
#[derive(Debug)]
pub(crate) struct Parsed {
    pub root: Node,
    /// The label text, trimmed, if any.
    pub label: Option<String>,
    /// End of the expression part of the source (before the label).
    pub expr_end: usize,
    /// Number of pool slots the tree uses.
    pub slots: u32,
    /// Whether `$macro` or `@FIELD` references occur.
    pub has_refs: bool,
}

/// Parses `input` under `limits`; `max_len` is the length bound to apply
/// (the input limit for user text, the resolved limit after macro expansion).
pub(crate) fn parse(input: &str, limits: &Limits, max_len: usize) -> Result<Parsed> {
    // Depth first: 10,000 `(` is reported as too deep, whatever its length.
    check_depth(input, limits.max_depth)?;
    if input.len() > max_len {
        return Err(Error::new(
            ErrorKind::TooLong,
            max_len..input.len(),
            Reason::new(ReasonId::TooLong)
                .with("length", input.len())
                .with("max", max_len),
        ));
    }
    if let Some(parsed) = crate::fast::parse(input) {
        return Ok(parsed);
    }
    pest_parse(input, limits)
}

/// The full grammar, for comparing the two paths in tests.
#[cfg(test)]
pub(crate) fn parse_with_pest(input: &str, limits: &Limits) -> Result<Parsed> {
    check_depth(input, limits.max_depth)?;
    pest_parse(input, limits)
}

/// The full grammar; the caller has checked the nesting depth.
fn pest_parse(input: &str, limits: &Limits) -> Result<Parsed> {
    let mut pairs =
        DiceParser::parse(Rule::main, input).map_err(|error| syntax_error(input, &error))?;
    let Some(main) = pairs.next() else {
        return Err(Error::new(
            ErrorKind::Syntax,
            0..input.len(),
            Reason::new(ReasonId::ExpectedExpression),
        ));
    };
    let mut builder = Builder {
        input,
        max_depth: limits.max_depth,
        slots: 0,
        has_refs: false,
        last_term_is_pool: false,
    };
    let mut root = None;
    let mut label = None;
    let mut expr_end = input.len();
    for pair in main.into_inner() {
        match pair.as_rule() {
            Rule::expr => {
                // pest's span may include whitespace skipped before a label.
                expr_end = pair.as_span().start() + pair.as_str().trim_end().len();
                root = Some(builder.expr(pair)?);
            }
            Rule::label => label = builder.label(pair, expr_end)?,
            _ => {}
        }
    }
    let Some(root) = root else {
        return Err(Error::new(
            ErrorKind::Syntax,
            0..input.len(),
            Reason::new(ReasonId::ExpectedExpression),
        ));
    };
    Ok(Parsed {
        root,
        label,
        expr_end,
        slots: builder.slots,
        has_refs: builder.has_refs,
    })
}

/// Refuses inputs that nest deeper than `max_depth` before pest sees them.
/// The scan stops where a label must begin (a `#`, or a word after an
/// operand at the top level), since labels may hold any text.
fn check_depth(input: &str, max_depth: usize) -> Result<()> {
    let bytes = input.as_bytes();
    // Most rolls (`1d20+5`, `4d6kh3`) open nothing: one quick pass over the
    // bytes spares them the walk below, which skips tags and comments.
    if !bytes.iter().any(|&byte| byte == b'(' || byte == b'{') {
        return Ok(());
    }
    let mut depth = 0usize;
    let mut index = 0;
    let mut previous = b' ';
    while let Some(&byte) = bytes.get(index) {
        match byte {
            b'(' | b'{' => {
                depth += 1;
                if depth > max_depth {
                    return Err(Error::new(
                        ErrorKind::TooDeep,
                        index..index + 1,
                        Reason::new(ReasonId::TooDeep).with("max", max_depth),
                    ));
                }
            }
            b')' | b'}' => depth = depth.saturating_sub(1),
            // A tag may hold any text.
            b'[' => {
                index += bytes[index..]
                    .iter()
                    .position(|&b| b == b']')
                    .unwrap_or(bytes.len() - index);
            }
            b'#' => break,
            // A comment may hold any text.
            b'/' if bytes.get(index + 1) == Some(&b'*') => {
                index += 2 + bytes[index + 2..]
                    .windows(2)
                    .position(|pair| pair == b"*/")
                    .map_or(bytes.len() - index - 2, |end| end + 1);
            }
            b' ' | b'\t' | b'\r' | b'\n' => {
                let next = bytes[index..]
                    .iter()
                    .find(|b| !b.is_ascii_whitespace())
                    .copied();
                let after_operand = previous.is_ascii_alphanumeric() || b")}]%".contains(&previous);
                if depth == 0 && after_operand && next.is_some_and(starts_label) {
                    break;
                }
            }
            _ => {}
        }
        if !byte.is_ascii_whitespace() {
            previous = byte;
        }
        index += 1;
    }
    Ok(())
}

/// Whether a word label may start with `byte` (the grammar's `label_stop`).
fn starts_label(byte: u8) -> bool {
    !byte.is_ascii_digit() && !b"+-*/%(){}[],.<>=!&|$@".contains(&byte)
}

fn syntax_error(input: &str, error: &pest::error::Error<Rule>) -> Error {
    let position = match error.location {
        InputLocation::Pos(position) => position,
        InputLocation::Span((start, _)) => start,
    };
    if let Some(explained) = explain_found(input, position) {
        return explained;
    }
    let found = input[position..].chars().next();
    let span = position..position + found.map_or(0, char::len_utf8);
    let expected = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => describe_expected(positives),
        // Our grammar raises no custom errors.
        ErrorVariant::CustomError { .. } => vec![Choice::Phrase(Phrase::ExpectedSomethingElse)],
    };
    let reason = match found {
        Some(c) => Reason::new(ReasonId::Unexpected)
            .with("found", c)
            .with("expected", expected),
        None => Reason::new(ReasonId::ExpectedAtEnd).with("expected", expected),
    };
    Error::new(ErrorKind::Syntax, span, reason)
}

/// Turns the rules pest tried at the failing position into words.
fn describe_expected(rules: &[Rule]) -> Vec<Choice> {
    let mut words: Vec<Choice> = Vec::new();
    let has = |wanted: &[Rule]| rules.iter().any(|rule| wanted.contains(rule));
    let sides = has(&[Rule::percent, Rule::fate]);
    if sides {
        words.push(Choice::Phrase(Phrase::ExpectedSides));
    } else if has(&[
        Rule::expr,
        Rule::operand,
        Rule::term,
        Rule::number,
        Rule::group,
        Rule::series,
        Rule::series_item,
        Rule::call,
        Rule::macro_ref,
        Rule::field_ref,
        Rule::neg,
        Rule::dice_tail,
    ]) && !has(&[Rule::keep_kind, Rule::count_kind, Rule::dice_tail])
    // after a complete number
    {
        words.push(Choice::Phrase(Phrase::ExpectedAValue));
    } else if has(&[Rule::number, Rule::group]) && !has(&[Rule::add, Rule::sub]) {
        words.push(Choice::Phrase(Phrase::ExpectedNumberOrParen));
    }
    if has(&[
        Rule::high,
        Rule::low,
        Rule::odd,
        Rule::even,
        Rule::filter_cmp,
        Rule::filter_group,
        Rule::filter,
        Rule::or_filter,
        Rule::and_filter,
    ]) && !has(&[Rule::add, Rule::rparen])
    {
        words.push(Choice::Phrase(Phrase::ExpectedAFilter));
    }
    if has(&[Rule::rparen]) {
        words.push(Choice::Token("`)`"));
    }
    if has(&[Rule::rbrace]) {
        words.push(Choice::Token("`}`"));
    }
    if has(&[Rule::rbracket]) {
        words.push(Choice::Token("`]`"));
    }
    if has(&[Rule::comma]) {
        words.push(Choice::Token("`,`"));
    }
    if has(&[Rule::or_bar, Rule::and_amp]) {
        words.push(Choice::Token("`&`"));
        words.push(Choice::Token("`|`"));
    }
    let operator = has(&[
        Rule::add,
        Rule::sub,
        Rule::mul,
        Rule::div,
        Rule::rem,
        Rule::le,
        Rule::ge,
        Rule::ne,
        Rule::eq,
        Rule::lt,
        Rule::gt,
    ]);
    if operator {
        words.push(Choice::Phrase(Phrase::ExpectedOperator));
    }
    if has(&[Rule::EOI]) {
        words.push(Choice::Phrase(Phrase::ExpectedEnd));
    }
    if words.is_empty() {
        words.push(Choice::Phrase(Phrase::ExpectedSomethingElse));
    }
    words
}

struct Builder<'a> {
    input: &'a str,
    max_depth: usize,
    slots: u32,
    has_refs: bool,
    /// Whether the rightmost term built so far is dice or a series (for the
    /// `4d6 kh3` hint).
    last_term_is_pool: bool,
}

type Result<T> = std::result::Result<T, Error>;

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let span = pair.as_span();
    Span::new(span.start(), span.end())
}

fn invalid(span: Span, form: ReasonId) -> Error {
    Error::new(ErrorKind::Invalid, span.range(), Reason::new(form))
}

impl Builder<'_> {
    fn next_slot(&mut self) -> Slot {
        let slot = self.slots;
        self.slots += 1;
        slot
    }

    fn expr(&mut self, pair: Pair<'_, Rule>) -> Result<Node> {
        let span = span_of(&pair);
        let mut operands = Vec::new();
        let mut ops = Vec::new();
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::operand => operands.push(self.operand(item)?),
                rule => ops.push(bin_op(rule)),
            }
        }
        check_power_runs(&ops, self.max_depth, span)?;
        let mut operands = operands.into_iter();
        let mut ops = ops.into_iter().peekable();
        let Some(first) = operands.next() else {
            return Err(Error::new(
                ErrorKind::Syntax,
                span.range(),
                Reason::new(ReasonId::ExpectedExpression),
            ));
        };
        Ok(climb(first, &mut operands, &mut ops, 0))
    }

    fn operand(&mut self, pair: Pair<'_, Rule>) -> Result<Node> {
        let span = span_of(&pair);
        let mut negs = Vec::new();
        let mut node = None;
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::neg => negs.push(span_of(&item)),
                Rule::pos => {}
                Rule::term => node = Some(self.term(item)?),
                Rule::tag => {
                    let Some(inner) = node.take() else { continue };
                    let tag_span = item
                        .into_inner()
                        .find(|p| p.as_rule() == Rule::tag_text)
                        .map(|p| span_of(&p))
                        .unwrap_or_default();
                    let span = Span {
                        start: inner.span.start,
                        end: tag_span.end + 1,
                    };
                    node = Some(Node {
                        kind: NodeKind::Tagged(Box::new(inner), tag_span),
                        span,
                    });
                }
                _ => {}
            }
        }
        let Some(mut node) = node else {
            return Err(Error::new(
                ErrorKind::Syntax,
                span.range(),
                Reason::new(ReasonId::ExpectedValue),
            ));
        };
        // Each sign is a level of the tree, like a parenthesis.
        if let Some(&too_deep) = negs.get(self.max_depth) {
            return Err(Error::new(
                ErrorKind::TooDeep,
                too_deep.range(),
                Reason::new(ReasonId::TooManyMinus).with("max", self.max_depth),
            ));
        }
        for neg in negs.into_iter().rev() {
            let span = Span {
                start: neg.start,
                end: node.span.end,
            };
            node = Node {
                kind: NodeKind::Neg(Box::new(node)),
                span,
            };
        }
        Ok(node)
    }

    fn term(&mut self, pair: Pair<'_, Rule>) -> Result<Node> {
        let span = span_of(&pair);
        let mut items = pair.into_inner().peekable();
        let Some(first) = items.next() else {
            return Err(Error::new(
                ErrorKind::Syntax,
                span.range(),
                Reason::new(ReasonId::ExpectedValue),
            ));
        };
        match first.as_rule() {
            Rule::group if is_set(&first) => {
                let body_span = span_of(&first);
                if items.peek().is_some_and(|p| p.as_rule() == Rule::dice_tail) {
                    return Err(invalid(body_span, ReasonId::SetAsCount));
                }
                let series_items = self.set_items(first)?;
                self.series_term(series_items, body_span, true, items, span)
            }
            Rule::number | Rule::group => {
                let lead = self.lead(first)?;
                if let Some(tail) = items.next_if(|p| p.as_rule() == Rule::dice_tail) {
                    let count = match lead.kind {
                        NodeKind::Num(value) => Arg::Lit(value, lead.span),
                        _ => Arg::Expr(Box::new(lead)),
                    };
                    let node = self.dice(Some(count), tail, items, span)?;
                    self.last_term_is_pool = true;
                    return Ok(node);
                }
                self.last_term_is_pool = false;
                self.modified(lead, items, span)
            }
            Rule::dice_tail => {
                let node = self.dice(None, first, items, span)?;
                self.last_term_is_pool = true;
                Ok(node)
            }
            Rule::series => {
                let body_span = span_of(&first);
                let series_items = self.series_items(first)?;
                self.series_term(series_items, body_span, false, items, span)
            }
            _ => {
                let base = self.lead(first)?;
                self.last_term_is_pool = false;
                self.modified(base, items, span)
            }
        }
    }

    /// A series `{...}` or a set `(a, b)` with its modifiers.
    fn series_term<'i>(
        &mut self,
        series_items: Vec<SeriesItem>,
        body_span: Span,
        parenthesised: bool,
        items: impl Iterator<Item = Pair<'i, Rule>>,
        span: Span,
    ) -> Result<Node> {
        let mods = self.modifiers(items)?;
        self.last_term_is_pool = true;
        Ok(Node {
            kind: NodeKind::Series(Box::new(Series {
                items: series_items,
                body_span,
                parenthesised,
                mods,
                slot: self.next_slot(),
            })),
            span,
        })
    }

    /// A number, group, call or reference without modifiers.
    fn lead(&mut self, pair: Pair<'_, Rule>) -> Result<Node> {
        let span = span_of(&pair);
        match pair.as_rule() {
            Rule::number => Ok(Node {
                kind: NodeKind::Num(self.number(&pair)?),
                span,
            }),
            Rule::group => Ok(Node {
                kind: NodeKind::Group(Box::new(self.group_inner(pair)?)),
                span,
            }),
            Rule::call => self.call(pair),
            Rule::macro_ref => {
                self.has_refs = true;
                Ok(Node {
                    kind: NodeKind::Macro(Span::new(span.start as usize + 1, span.end as usize)),
                    span,
                })
            }
            Rule::field_ref => {
                self.has_refs = true;
                Ok(Node {
                    kind: NodeKind::Field(Span::new(span.start as usize + 1, span.end as usize)),
                    span,
                })
            }
            _ => Err(Error::new(
                ErrorKind::Syntax,
                span.range(),
                Reason::new(ReasonId::ExpectedValue),
            )),
        }
    }

    fn number(&self, pair: &Pair<'_, Rule>) -> Result<i64> {
        pair.as_str().parse::<i64>().map_err(|_| {
            Error::new(
                ErrorKind::NumberTooLarge,
                span_of(pair).range(),
                Reason::new(ReasonId::NumberTooLarge).with("number", pair.as_str()),
            )
        })
    }

    fn group_inner(&mut self, pair: Pair<'_, Rule>) -> Result<Node> {
        let span = span_of(&pair);
        if is_set(&pair) {
            return Err(invalid(span, ReasonId::SetHere));
        }
        for item in pair.into_inner() {
            if item.as_rule() == Rule::expr {
                return self.expr(item);
            }
        }
        Err(Error::new(
            ErrorKind::Syntax,
            span.range(),
            Reason::new(ReasonId::ExpectedValue),
        ))
    }

    fn arg(&mut self, pair: Pair<'_, Rule>) -> Result<Arg> {
        let span = span_of(&pair);
        match pair.as_rule() {
            Rule::number => Ok(Arg::Lit(self.number(&pair)?, span)),
            _ => {
                let inner = self.group_inner(pair)?;
                Ok(Arg::Expr(Box::new(Node {
                    kind: NodeKind::Group(Box::new(inner)),
                    span,
                })))
            }
        }
    }

    fn call(&mut self, pair: Pair<'_, Rule>) -> Result<Node> {
        let span = span_of(&pair);
        let mut func = Func::Abs;
        let mut args = Vec::new();
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::func_name => {
                    func = Func::ALL
                        .into_iter()
                        .find(|f| f.name() == item.as_str())
                        .unwrap_or(Func::Abs);
                }
                Rule::expr => args.push(self.expr(item)?),
                _ => {}
            }
        }
        let wanted = match func {
            Func::Min | Func::Max => None,
            Func::Pow => Some(2),
            _ => Some(1),
        };
        if let Some(wanted) = wanted
            && args.len() != wanted
        {
            let form = if wanted == 1 {
                ReasonId::TakesOne
            } else {
                ReasonId::TakesTwo
            };
            let reason = Reason::new(form).with("func", func.name());
            return Err(Error::new(ErrorKind::Invalid, span.range(), reason));
        }
        if args.is_empty() {
            let reason = Reason::new(ReasonId::NeedsArgument).with("func", func.name());
            return Err(Error::new(ErrorKind::Invalid, span.range(), reason));
        }
        Ok(Node {
            kind: NodeKind::Call(Box::new(Call { func, args })),
            span,
        })
    }

    fn modified<'i>(
        &mut self,
        base: Node,
        items: impl Iterator<Item = Pair<'i, Rule>>,
        span: Span,
    ) -> Result<Node> {
        let mods = self.modifiers(items)?;
        if mods.is_empty() {
            return Ok(base);
        }
        Ok(Node {
            kind: NodeKind::Modified(Box::new(Modified {
                base,
                mods,
                slot: self.next_slot(),
            })),
            span,
        })
    }

    fn dice<'i>(
        &mut self,
        count: Option<Arg>,
        tail: Pair<'i, Rule>,
        items: impl Iterator<Item = Pair<'i, Rule>>,
        span: Span,
    ) -> Result<Node> {
        let mut sides = Sides::Percent;
        for item in tail.into_inner() {
            sides = match item.as_rule() {
                Rule::percent => Sides::Percent,
                Rule::fate if item.as_str().ends_with(".1") => Sides::FateOne,
                Rule::fate => Sides::Fate,
                Rule::number | Rule::group => Sides::Count(self.arg(item)?),
                Rule::series => {
                    let body_span = span_of(&item);
                    let series_items = self.series_items(item)?;
                    Sides::Faces(Box::new(Node {
                        kind: NodeKind::Series(Box::new(Series {
                            items: series_items,
                            body_span,
                            parenthesised: false,
                            mods: Mods::new(),
                            slot: self.next_slot(),
                        })),
                        span: body_span,
                    }))
                }
                _ => continue,
            };
        }
        let mods = merge_die_modifiers(self.modifiers(items)?)?;
        Ok(Node {
            kind: NodeKind::Dice(Box::new(Dice {
                count,
                sides,
                mods,
                slot: self.next_slot(),
            })),
            span,
        })
    }

    /// The elements of an Avrae set `(a, b, ...)`: one each, no ranges.
    fn set_items(&mut self, pair: Pair<'_, Rule>) -> Result<Vec<SeriesItem>> {
        let mut items = Vec::new();
        for item in pair.into_inner() {
            match item.as_rule() {
                Rule::expr => items.push(SeriesItem::One(self.expr(item)?)),
                Rule::set_tail => {
                    for element in item.into_inner() {
                        if element.as_rule() == Rule::expr {
                            items.push(SeriesItem::One(self.expr(element)?));
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(items)
    }

    fn series_items(&mut self, pair: Pair<'_, Rule>) -> Result<Vec<SeriesItem>> {
        let mut items = Vec::new();
        for item in pair.into_inner() {
            if item.as_rule() != Rule::series_item {
                continue;
            }
            let mut ends = Vec::with_capacity(2);
            for part in item.into_inner() {
                if part.as_rule() == Rule::expr {
                    ends.push(self.expr(part)?);
                }
            }
            let mut ends = ends.into_iter();
            match (ends.next(), ends.next()) {
                (Some(low), Some(high)) => items.push(SeriesItem::Range(low, high)),
                (Some(one), None) => items.push(SeriesItem::One(one)),
                _ => {}
            }
        }
        Ok(items)
    }

    fn modifiers<'i>(&mut self, items: impl Iterator<Item = Pair<'i, Rule>>) -> Result<Mods> {
        let mut mods = Mods::new();
        for item in items {
            mods.push(self.modifier(item)?);
        }
        Ok(mods)
    }

    fn modifier(&mut self, pair: Pair<'_, Rule>) -> Result<Modifier> {
        let span = span_of(&pair);
        let rule = pair.as_rule();
        let mut parts = pair.into_inner();
        let head = parts.next();
        // Modifier letters may be upper case (`4d6KH3`).
        let head_lower = head
            .as_ref()
            .map_or(String::new(), |p| p.as_str().to_ascii_lowercase());
        let head_text = head_lower.as_str();
        let kind = match rule {
            Rule::keep => {
                let which = match head_text {
                    "kl" => KeepWhich::Lowest,
                    "ke" => KeepWhich::Even,
                    "ko" => KeepWhich::Odd,
                    _ => KeepWhich::Highest,
                };
                let n = parts.next().map(|p| self.arg(p)).transpose()?;
                ModKind::Keep { which, n }
            }
            Rule::select => {
                let keep = head_text == "k";
                let op = parts.next().map(|p| cmp_op(p.as_rule()));
                let (Some(op), Some(n)) = (op, parts.next()) else {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        span.range(),
                        Reason::new(ReasonId::CompareNumber)
                            .with("written", span.text(self.input).trim_end())
                            .with("modifier", head_text),
                    ));
                };
                ModKind::Select {
                    keep,
                    op,
                    n: self.arg(n)?,
                }
            }
            Rule::drop | Rule::set_drop | Rule::series_drop => {
                let highest = matches!(head_text, "dh" | "ph");
                let n = parts.next().map(|p| self.arg(p)).transpose()?;
                ModKind::Drop { highest, n }
            }
            Rule::count => {
                let kind = match head_text {
                    "cf" => CountKind::Failures,
                    "ss" => CountKind::SubtractSuccesses,
                    "sf" | "df" => CountKind::SubtractFailures,
                    _ => CountKind::Successes,
                };
                let mut filters = Vec::new();
                for part in parts {
                    filters.push(self.filter(part)?);
                }
                ModKind::Count {
                    kind,
                    filters,
                    elements: false,
                }
            }
            Rule::success => {
                let Some(inner) = head else {
                    return Err(invalid(span, ReasonId::ExpectedTarget));
                };
                self.success(inner)?
            }
            Rule::sort => ModKind::Sort {
                descending: head_text == "sd",
            },
            Rule::explode => {
                let mode = match head_text {
                    "!!p" => ExplodeMode::CompoundPenetrate,
                    "!!" => ExplodeMode::Compound,
                    "!p" => ExplodeMode::Penetrate,
                    "xo" => ExplodeMode::Once,
                    _ => ExplodeMode::Standard,
                };
                let cond = parts.next().map(|p| self.filter(p)).transpose()?;
                ModKind::Explode { mode, cond }
            }
            Rule::reroll_add => {
                let Some(filter) = head else {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        span.range(),
                        Reason::new(ReasonId::RaCondition),
                    ));
                };
                ModKind::Explode {
                    mode: ExplodeMode::Once,
                    cond: Some(self.filter(filter)?),
                }
            }
            Rule::reroll => {
                let once = head_text == "ro";
                let cond = parts.next().map(|p| self.filter(p)).transpose()?;
                ModKind::Reroll { once, cond }
            }
            Rule::unique => {
                let once = head_text == "uo";
                let cond = parts.next().map(|p| self.filter(p)).transpose()?;
                ModKind::Unique { once, cond }
            }
            Rule::rank_reroll => {
                let highest = parts
                    .next()
                    .is_some_and(|p| p.as_str().eq_ignore_ascii_case("h"));
                let Some(number) = parts.next() else {
                    return Err(invalid(span, ReasonId::ExpectedDiceCount));
                };
                let n = self.number(&number)?;
                let mode = match head_text {
                    "ro" => RankMode::Reroll,
                    "ra" => RankMode::Add,
                    "e" | "!" | "x" => RankMode::Explode,
                    _ => return Err(rank_refused(span, self.input, head_text)),
                };
                ModKind::RerollRank { mode, highest, n }
            }
            Rule::clamp => {
                let at_least = matches!(head_text, "min" | "mi");
                let Some(n) = parts.next() else {
                    return Err(invalid(span, ReasonId::MinMaxNumber));
                };
                let n = if n.as_rule() == Rule::signed_number {
                    Arg::Lit(self.number(&n)?, span_of(&n))
                } else {
                    self.arg(n)?
                };
                ModKind::Clamp { at_least, n }
            }
            _ => return Err(invalid(span, ReasonId::UnknownModifierBare)),
        };
        Ok(Modifier { kind, span })
    }

    /// `6d10>=8`, `t8`, `f1`.
    fn success(&mut self, pair: Pair<'_, Rule>) -> Result<ModKind> {
        let span = span_of(&pair);
        let rule = pair.as_rule();
        let mut parts = pair.into_inner();
        match rule {
            Rule::target | Rule::failure_target => {
                let Some(value) = parts.next() else {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        span.range(),
                        Reason::new(ReasonId::ExpectedNumber),
                    ));
                };
                let (kind, op) = if rule == Rule::target {
                    (CountKind::Successes, CmpOp::Ge)
                } else {
                    (CountKind::SubtractFailures, CmpOp::Le)
                };
                let filter = if value.as_rule() == Rule::filter_cmp {
                    self.filter(value)?
                } else {
                    Filter::Cmp(op, self.arg(value)?)
                };
                Ok(ModKind::Count {
                    kind,
                    filters: vec![filter],
                    elements: true,
                })
            }
            _ => {
                let (Some(op), Some(value)) = (parts.next(), parts.next()) else {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        span.range(),
                        Reason::new(ReasonId::ExpectedComparison),
                    ));
                };
                let op = cmp_op(op.as_rule());
                Ok(ModKind::Count {
                    kind: CountKind::Successes,
                    filters: vec![Filter::Cmp(op, self.arg(value)?)],
                    elements: true,
                })
            }
        }
    }

    fn filter(&mut self, pair: Pair<'_, Rule>) -> Result<Filter> {
        let span = span_of(&pair);
        let pair = if pair.as_rule() == Rule::filter {
            match pair.into_inner().next() {
                Some(inner) => inner,
                None => return Err(invalid(span, ReasonId::ExpectedFilter)),
            }
        } else {
            pair
        };
        match pair.as_rule() {
            Rule::high => Ok(Filter::High),
            Rule::low => Ok(Filter::Low),
            Rule::odd => Ok(Filter::Odd),
            Rule::even => Ok(Filter::Even),
            Rule::number => Ok(Filter::Cmp(CmpOp::Eq, Arg::Lit(self.number(&pair)?, span))),
            Rule::filter_cmp => {
                let mut parts = pair.into_inner();
                let (Some(op), Some(value)) = (parts.next(), parts.next()) else {
                    return Err(invalid(span, ReasonId::ExpectedComparison));
                };
                Ok(Filter::Cmp(cmp_op(op.as_rule()), self.arg(value)?))
            }
            Rule::filter_group => {
                let mut alternatives = Vec::new();
                let or_filter = pair.into_inner().find(|p| p.as_rule() == Rule::or_filter);
                for and_filter in or_filter.into_iter().flat_map(Pair::into_inner) {
                    if and_filter.as_rule() != Rule::and_filter {
                        continue;
                    }
                    let mut all = Vec::new();
                    for filter in and_filter.into_inner() {
                        if filter.as_rule() == Rule::filter {
                            all.push(self.filter(filter)?);
                        }
                    }
                    alternatives.push(all);
                }
                Ok(Filter::Any(alternatives))
            }
            _ => Err(invalid(span, ReasonId::ExpectedFilter)),
        }
    }

    fn label(&mut self, pair: Pair<'_, Rule>, expr_end: usize) -> Result<Option<String>> {
        let span = span_of(&pair);
        let Some(kind) = pair.into_inner().next() else {
            return Ok(None);
        };
        let hashed = matches!(kind.as_rule(), Rule::hash_label | Rule::slash_label);
        let text = kind
            .into_inner()
            .find(|p| p.as_rule() == Rule::label_text)
            .map_or("", |p| p.as_str())
            .trim();
        if !hashed && span.start as usize == expr_end {
            return Err(self.glued_label_error(expr_end));
        }
        let first_word = text.split_whitespace().next().unwrap_or("");
        if !hashed && let Some(times) = roll20_repeat(first_word) {
            return Err(Error::new(
                ErrorKind::Syntax,
                span.start as usize..span.start as usize + first_word.len(),
                Reason::new(ReasonId::RepeatWord)
                    .with("times", times)
                    .with("word", first_word),
            ));
        }
        if !hashed && self.last_term_is_pool {
            // The label was not depth-checked: check before pest recurses.
            let looks_like_modifiers = first_word.chars().any(|c| !c.is_ascii_alphabetic())
                && check_depth(first_word, self.max_depth).is_ok()
                && DiceParser::parse(Rule::modifier_word, first_word).is_ok();
            if looks_like_modifiers {
                return Err(Error::new(
                    ErrorKind::Syntax,
                    span.start as usize..span.start as usize + first_word.len(),
                    Reason::new(ReasonId::ModifierSpace).with(
                        "fixed",
                        format!(
                            "{}{first_word}",
                            Span::new(0, expr_end).text(self.input).trim_end()
                        ),
                    ),
                ));
            }
        }
        Ok((!text.is_empty()).then(|| text.to_string()))
    }
}

impl Builder<'_> {
    /// Text glued to the expression is not a label: report why the
    /// expression could not go on.
    fn glued_label_error(&self, label_start: usize) -> Error {
        let Err(error) = DiceParser::parse(Rule::main_no_label, self.input) else {
            return Error::new(
                ErrorKind::Syntax,
                label_start..label_start + 1,
                Reason::new(ReasonId::LabelSpace),
            );
        };
        let error = syntax_error(self.input, &error);
        let rest = &self.input[label_start..];
        let word_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        // Letters glued to dice that no modifier took, even when a modifier
        // read their first letter (`2d6fire`: `f` needs a number).
        let in_word = (label_start..=label_start + word_len).contains(&error.start());
        if self.last_term_is_pool
            && in_word
            && let Some(unknown) = unknown_modifier(self.input, label_start, &rest[..word_len])
        {
            return unknown;
        }
        if error.start() != label_start {
            return error;
        }
        let span = error.span();
        let reason = Reason::new(ReasonId::LabelSpaceAfter).with("inner", error.reason().clone());
        Error::new(ErrorKind::Syntax, span, reason)
    }
}

/// Trigonometric functions other rollers offer; refused with their own reason.
const TRIGONOMETRY: [&str; 9] = [
    "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
];

/// Modifier spellings, for suggesting the nearest to an unknown one.
const MODIFIERS: [&str; 35] = [
    "k", "kh", "kl", "ke", "ko", "d", "dh", "dl", "p", "ph", "pl", "c", "cs", "cf", "ss", "sf",
    "df", "t", "f", "s", "sa", "sd", "x", "xo", "e", "ra", "r", "ro", "rr", "u", "uo", "min",
    "max", "mi", "ma",
];

/// Letters glued to dice that no modifier reads (`None` for a known
/// modifier that cannot stand there, like `d` after a series).
fn unknown_modifier(input: &str, start: usize, word: &str) -> Option<Error> {
    if word.is_empty() {
        return None;
    }
    let span = start..start + word.len();
    if word.eq_ignore_ascii_case("adv") || word.eq_ignore_ascii_case("dis") {
        let form = if word.eq_ignore_ascii_case("adv") {
            ReasonId::UnknownModifierAdvantage
        } else {
            ReasonId::UnknownModifierDisadvantage
        };
        let reason = Reason::new(form).with("word", word);
        return Some(Error::new(ErrorKind::Syntax, span, reason));
    }
    let expr = input[..start].trim();
    let reason = match nearest(word, &MODIFIERS) {
        Some((_, 0)) => return None,
        Some((near, distance)) if distance <= 1 || word.len() <= 2 => {
            Reason::new(ReasonId::UnknownModifierNear)
                .with("word", word)
                .with("near", near)
        }
        _ => Reason::new(ReasonId::UnknownModifierLabel)
            .with("word", word)
            .with("fixed", format!("{expr} {}", &input[start..])),
    };
    Some(Error::new(ErrorKind::Syntax, span, reason))
}

/// The known spelling closest to `word` (case ignored) and its edit distance.
fn nearest<'k>(word: &str, known: &[&'k str]) -> Option<(&'k str, usize)> {
    let word = word.to_ascii_lowercase();
    known
        .iter()
        .map(|candidate| (*candidate, edit_distance(&word, candidate)))
        .min_by_key(|(_, distance)| *distance)
}

/// Levenshtein distance over bytes (the spellings are ASCII).
fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Errors that name what was written at `position`: a decimal point, a
/// Fate variant we do not have, an unknown function.
fn explain_found(input: &str, position: usize) -> Option<Error> {
    let before = input.get(..position)?;
    let rest = input.get(position..)?;
    let digits_after = |text: &str| text.bytes().take_while(u8::is_ascii_digit).count();
    if let Some(after_point) = rest.strip_prefix('.') {
        let fraction = digits_after(after_point);
        let fate = before.ends_with(['F', 'f']) && before[..before.len() - 1].ends_with(['d', 'D']);
        if fate {
            let span = position - 2..position + 1 + fraction;
            return Some(Error::new(
                ErrorKind::Syntax,
                span,
                Reason::new(ReasonId::FateFraction).with("fraction", &after_point[..fraction]),
            ));
        }
        let whole = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if whole > 0 || fraction > 0 {
            let span = position - whole..position + 1 + fraction;
            let number = &input[span.clone()];
            return Some(Error::new(
                ErrorKind::Syntax,
                span,
                Reason::new(ReasonId::DecimalPoint).with("number", number),
            ));
        }
    }
    let word_len = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
    let glued = before.ends_with(|c: char| c.is_ascii_alphanumeric());
    if word_len > 0 && !glued && rest[word_len..].trim_start().starts_with('(') {
        let word = &rest[..word_len];
        let names: Vec<&str> = Func::ALL.iter().map(|f| f.name()).collect();
        // rpg-dice-roller offers these; on whole numbers they mean nothing,
        // and the nearest name (`cos` -> `abs`) would mislead.
        let trigonometric = TRIGONOMETRY.contains(&word.to_ascii_lowercase().as_str());
        let reason = match nearest(word, &names) {
            _ if trigonometric => Reason::new(ReasonId::Trigonometry)
                .with("word", word)
                .with("names", names.join(", ")),
            Some((near, distance)) if distance <= 2 => Reason::new(ReasonId::UnknownFunctionNear)
                .with("word", word)
                .with("near", near),
            _ => Reason::new(ReasonId::UnknownFunction)
                .with("word", word)
                .with("names", names.join(", ")),
        };
        return Some(Error::new(
            ErrorKind::Syntax,
            position..position + word_len,
            reason,
        ));
    }
    None
}

/// `x6` (Roll20's "roll 6 times"): the count.
pub(crate) fn roll20_repeat(word: &str) -> Option<&str> {
    let times = word.strip_prefix('x').or_else(|| word.strip_prefix('X'))?;
    (!times.is_empty() && times.bytes().all(|b| b.is_ascii_digit())).then_some(times)
}

/// Whether parentheses hold an Avrae set (a comma after the first element).
/// Empty parentheses `()` are the empty set (Avrae), worth 0.
fn is_set(group: &Pair<'_, Rule>) -> bool {
    if group.as_rule() != Rule::group {
        return false;
    }
    let mut has_expr = false;
    for part in group.clone().into_inner() {
        match part.as_rule() {
            Rule::set_tail => return true,
            Rule::expr => has_expr = true,
            _ => {}
        }
    }
    !has_expr
}

/// Rank selectors other than `ro` and `ra` (`rrl1`, `!h1`).
fn rank_refused(span: Span, input: &str, kind: &str) -> Error {
    let written = span.text(input);
    let reason = if kind.starts_with('r') {
        Reason::new(ReasonId::RerollForever)
            .with("written", written)
            .with("fixed", written.replacen(kind, "ro", 1))
    } else {
        Reason::new(ReasonId::CompoundByValue).with("written", written)
    };
    Error::new(ErrorKind::Invalid, span.range(), reason)
}

/// Precedence climbing over the flat operand list: comparisons bind loosest,
/// then `+ -`, then `* / %`. Each level becomes one n-ary chain.
pub(crate) fn climb(
    first: Node,
    operands: &mut impl Iterator<Item = Node>,
    ops: &mut std::iter::Peekable<impl Iterator<Item = BinOp>>,
    level: u8,
) -> Node {
    if level > 2 {
        // Powers: right-associative (`2^3^2` is 2^9); the recursion is as
        // deep as a run of `^`, which the builder bounded.
        if ops.peek() != Some(&BinOp::Pow) {
            return first;
        }
        ops.next();
        let Some(next) = operands.next() else {
            return first;
        };
        let exponent = climb(next, operands, ops, level);
        return power(first, exponent);
    }
    let first = climb(first, operands, ops, level + 1);
    let mut rest: smallvec::SmallVec<[(BinOp, Node); 2]> = smallvec::SmallVec::new();
    while let Some(&op) = ops.peek() {
        if precedence(op) != level {
            break;
        }
        ops.next();
        let Some(next) = operands.next() else { break };
        rest.push((op, climb(next, operands, ops, level + 1)));
    }
    if rest.is_empty() {
        return first;
    }
    let span = Span {
        start: first.span.start,
        end: rest
            .last()
            .map_or(first.span.end, |(_, node)| node.span.end),
    };
    Node {
        kind: NodeKind::Chain(Box::new(Chain { first, rest })),
        span,
    }
}

fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Cmp(_) => 0,
        BinOp::Add | BinOp::Sub => 1,
        BinOp::Mul | BinOp::Div | BinOp::FloorDiv | BinOp::Rem => 2,
        BinOp::Pow => 3,
    }
}

/// `base ^ exponent`, with the base's minus signs outside: `-2^2` is -4, as
/// in mathematics and rpg-dice-roller.
fn power(base: Node, exponent: Node) -> Node {
    let base_span = base.span;
    if let NodeKind::Neg(inner) = base.kind {
        let powered = power(*inner, exponent);
        let span = Span {
            start: base_span.start,
            end: powered.span.end,
        };
        return Node {
            kind: NodeKind::Neg(Box::new(powered)),
            span,
        };
    }
    let span = Span {
        start: base_span.start,
        end: exponent.span.end,
    };
    let mut rest = smallvec::SmallVec::new();
    rest.push((BinOp::Pow, exponent));
    Node {
        kind: NodeKind::Chain(Box::new(Chain { first: base, rest })),
        span,
    }
}

/// A run of `^` nests the tree one level per operator: bound it like
/// parentheses.
pub(crate) fn check_power_runs(ops: &[BinOp], max_depth: usize, span: Span) -> Result<()> {
    let mut run = 0;
    for op in ops {
        run = if *op == BinOp::Pow { run + 1 } else { 0 };
        if run > max_depth {
            return Err(Error::new(
                ErrorKind::TooDeep,
                span.range(),
                Reason::new(ReasonId::TooManyPowers).with("max", max_depth),
            ));
        }
    }
    Ok(())
}

fn bin_op(rule: Rule) -> BinOp {
    match rule {
        Rule::add => BinOp::Add,
        Rule::sub => BinOp::Sub,
        Rule::mul => BinOp::Mul,
        Rule::div => BinOp::Div,
        Rule::floor_div => BinOp::FloorDiv,
        Rule::rem => BinOp::Rem,
        Rule::pow => BinOp::Pow,
        other => BinOp::Cmp(cmp_op(other)),
    }
}

fn cmp_op(rule: Rule) -> CmpOp {
    match rule {
        Rule::le => CmpOp::Le,
        Rule::ge => CmpOp::Ge,
        Rule::ne | Rule::ne_pool => CmpOp::Ne,
        Rule::lt => CmpOp::Lt,
        Rule::gt => CmpOp::Gt,
        _ => CmpOp::Eq,
    }
}

/// Several explosions (or rerolls) of the same kind on one dice term match
/// when any of their conditions does (`2d6r1r2`); different kinds clash.
/// Whether `merge_die_modifiers` has anything to merge: two explosions or
/// two rerolls. Checked first by the fast parser, so that the common term
/// does not move its modifiers through the merge and back.
pub(crate) fn needs_merge(mods: &Mods) -> bool {
    let explosions = mods
        .iter()
        .filter(|m| matches!(m.kind, ModKind::Explode { .. }))
        .count();
    let rerolls = mods
        .iter()
        .filter(|m| matches!(m.kind, ModKind::Reroll { .. }))
        .count();
    explosions >= 2 || rerolls >= 2
}

pub(crate) fn merge_die_modifiers(mods: Mods) -> Result<Mods> {
    if !needs_merge(&mods) {
        return Ok(mods);
    }
    let mut merged = Mods::with_capacity(mods.len());
    for modifier in mods {
        let previous = merged.iter_mut().find(|m| {
            matches!(
                (&m.kind, &modifier.kind),
                (ModKind::Explode { .. }, ModKind::Explode { .. })
                    | (ModKind::Reroll { .. }, ModKind::Reroll { .. })
            )
        });
        let Some(previous) = previous else {
            merged.push(modifier);
            continue;
        };
        match (&mut previous.kind, modifier.kind) {
            (
                ModKind::Explode { mode, cond },
                ModKind::Explode {
                    mode: new_mode,
                    cond: new_cond,
                },
            ) if *mode == new_mode => {
                *cond = Some(either(cond.take(), new_cond, Filter::High));
            }
            (
                ModKind::Reroll { once, cond },
                ModKind::Reroll {
                    once: new_once,
                    cond: new_cond,
                },
            ) if *once == new_once => {
                *cond = Some(either(cond.take(), new_cond, Filter::Low));
            }
            _ => {
                return Err(invalid(modifier.span, ReasonId::OneWay));
            }
        }
    }
    Ok(merged)
}

fn either(first: Option<Filter>, second: Option<Filter>, default: Filter) -> Filter {
    let first = first.unwrap_or_else(|| default.clone());
    let second = second.unwrap_or(default);
    let mut alternatives = match first {
        Filter::Any(alternatives) => alternatives,
        other => vec![vec![other]],
    };
    alternatives.push(vec![second]);
    Filter::Any(alternatives)
}
