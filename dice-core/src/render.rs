//! Breakdowns: the expression written again with every pool's dice shown.
//!
//! Arithmetic is written with single spaces around operators; dice terms
//! and modifiers are written as typed, with their parenthesised parts (which
//! may hold dice of their own) rendered in place. A breakdown longer than the
//! budget is written again with fewer dice per pool, then without dice, then
//! as the shortened expression; the total always stays.

use std::fmt::Write as _;

use crate::ast::{Arg, Dice, Filter, ModKind, Modifier, Node, NodeKind, Series, SeriesItem, Span};
use crate::roll::{Hist, Item, PoolRec, Roll, Story, flag};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Markdown,
    Plain,
}

pub(crate) fn render(roll: &Roll, style: Style, budget: usize) -> String {
    let source = roll.expr.source();
    let root = roll.expr.root();
    let total = roll.total;
    // A label takes at most half the budget.
    let label = roll.label().map(|label| clip(label, budget / 2));
    for max_items in [usize::MAX, 20, 10, 5, 2, 0] {
        let mut writer = Writer {
            source,
            story: &roll.story,
            style,
            max_items,
            out: String::new(),
        };
        writer.label(label.as_deref());
        writer.node(root);
        writer.total(total);
        if writer.out.chars().count() <= budget {
            return writer.out;
        }
    }
    shortened(roll, style, budget)
}

/// The last resort: the label (clipped to half the budget), as much of the
/// expression as fits, then the total.
fn shortened(roll: &Roll, style: Style, budget: usize) -> String {
    let mut tail = Writer {
        source: "",
        story: &roll.story,
        style,
        max_items: 0,
        out: String::new(),
    };
    tail.total(roll.total);
    let tail_len = tail.out.chars().count();
    let label = roll
        .label()
        .map(|label| clip(label, budget.saturating_sub(tail_len) / 2));
    let mut head = Writer {
        source: "",
        story: &roll.story,
        style,
        max_items: 0,
        out: String::new(),
    };
    head.label(label.as_deref());
    let fixed = head.out.chars().count() + tail_len + 1;
    if fixed > budget {
        // Not even that fits: the total alone.
        return tail.out.trim_start_matches(" = ").to_string();
    }
    let room = budget - fixed;
    let mut out = head.out;
    let mut used = 0;
    let mut cut = false;
    for c in roll.expr.expr_source().chars() {
        let escaped = style == Style::Markdown && is_markdown_special(c);
        let width = if escaped { 2 } else { 1 };
        if used + width > room {
            cut = true;
            break;
        }
        if escaped {
            out.push('\\');
        }
        out.push(c);
        used += width;
    }
    out.truncate(out.trim_end().len());
    if cut {
        out.push('…');
    }
    out.push_str(&tail.out);
    out
}

/// At most `max` characters of `text`, ending in `…` when cut.
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut clipped: String = text.chars().take(max.saturating_sub(1)).collect();
    clipped.push('…');
    clipped
}

fn is_markdown_special(c: char) -> bool {
    matches!(c, '\\' | '*' | '_' | '~' | '`' | '|' | '[' | ']')
}

fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_markdown_special(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

struct Writer<'a> {
    source: &'a str,
    story: &'a Story,
    style: Style,
    max_items: usize,
    out: String,
}

impl Writer<'_> {
    fn text(&mut self, text: &str) {
        match self.style {
            Style::Markdown => self.out.push_str(&escape_markdown(text)),
            Style::Plain => self.out.push_str(text),
        }
    }

    fn label(&mut self, label: Option<&str>) {
        let Some(label) = label else { return };
        match self.style {
            Style::Markdown => {
                self.out.push('*');
                self.text(label);
                self.out.push_str("*: ");
            }
            Style::Plain => {
                self.out.push_str(label);
                self.out.push_str(": ");
            }
        }
    }

    fn total(&mut self, total: i64) {
        match self.style {
            Style::Markdown => {
                let _ = write!(self.out, " = **{total}**");
            }
            Style::Plain => {
                let _ = write!(self.out, " = {total}");
            }
        }
    }

    fn node(&mut self, node: &Node) {
        match &node.kind {
            NodeKind::Num(value) => {
                let _ = write!(self.out, "{value}");
            }
            NodeKind::Dice(dice) => self.dice(dice, node.span),
            NodeKind::Series(series) => self.series(series, node.span),
            NodeKind::Group(inner) => {
                self.out.push('(');
                self.node(inner);
                self.out.push(')');
            }
            NodeKind::Modified(modified) => {
                self.node(&modified.base);
                self.modifiers(&modified.mods, modified.base.span.end, node.span.end);
                if let Some(pool) = self.story.pool(modified.slot) {
                    let pool = *pool;
                    self.pool_items(&pool);
                }
            }
            NodeKind::Neg(inner) => {
                self.out.push('-');
                self.node(inner);
            }
            NodeKind::Chain(chain) => {
                self.node(&chain.first);
                for (op, operand) in &chain.rest {
                    self.out.push(' ');
                    self.text(op.symbol());
                    self.out.push(' ');
                    self.node(operand);
                }
            }
            NodeKind::Call(call) => {
                self.out.push_str(call.func.name());
                self.out.push('(');
                for (index, arg) in call.args.iter().enumerate() {
                    if index > 0 {
                        self.out.push_str(", ");
                    }
                    self.node(arg);
                }
                self.out.push(')');
            }
            NodeKind::Tagged(inner, tag) => {
                self.node(inner);
                self.out.push_str(" [");
                self.text(tag.text(self.source));
                self.out.push(']');
            }
            NodeKind::Macro(_) | NodeKind::Field(_) => self.text(node.span.text(self.source)),
        }
    }

    /// Writes `source[span]` with the spans of `holes` rendered as nodes.
    fn with_holes(&mut self, span: Span, holes: &mut Vec<&Node>) {
        holes.sort_by_key(|node| node.span.start);
        let mut at = span.start;
        for hole in holes.iter() {
            if hole.span.start < at || hole.span.end > span.end {
                continue;
            }
            self.text(Span::new(at as usize, hole.span.start as usize).text(self.source));
            self.node(hole);
            at = hole.span.end;
        }
        self.text(Span::new(at as usize, span.end as usize).text(self.source));
    }

    fn dice(&mut self, dice: &Dice, span: Span) {
        let mut holes = Vec::new();
        if let Some(Arg::Expr(node)) = &dice.count {
            holes.push(node.as_ref());
        }
        match &dice.sides {
            crate::ast::Sides::Count(Arg::Expr(node)) | crate::ast::Sides::Faces(node) => {
                holes.push(node.as_ref());
            }
            _ => {}
        }
        for modifier in &dice.mods {
            modifier_holes(modifier, &mut holes);
        }
        self.with_holes(span, &mut holes);
        if let Some(pool) = self.story.pool(dice.slot) {
            let pool = *pool;
            self.pool_items(&pool);
        }
    }

    fn modifiers(&mut self, mods: &[Modifier], start: u32, end: u32) {
        let mut holes = Vec::new();
        for modifier in mods {
            modifier_holes(modifier, &mut holes);
        }
        self.with_holes(Span { start, end }, &mut holes);
    }

    /// ` (6, 5, 3, ~~1~~)` after a dice term or modified value.
    fn pool_items(&mut self, pool: &PoolRec) {
        let items = self.story.pool_items(pool);
        let mut order: Vec<usize> = (0..items.len()).collect();
        match pool.order {
            1 => order.sort_by_key(|&i| items[i].value),
            2 => order.sort_by_key(|&i| std::cmp::Reverse(items[i].value)),
            _ => {}
        }
        self.out.push_str(" (");
        if self.max_items == 0 && !items.is_empty() {
            self.out.push('…');
        } else {
            for (shown, &index) in order.iter().enumerate() {
                if shown > 0 {
                    self.out.push_str(", ");
                }
                if shown >= self.max_items {
                    let _ = write!(self.out, "… {} more", order.len() - shown);
                    break;
                }
                self.item(&items[index], pool.faces);
            }
        }
        self.out.push(')');
    }

    fn item(&mut self, item: &Item, faces: Option<(i64, i64)>) {
        let dropped = !item.kept();
        if dropped {
            self.out.push_str(self.strike());
        }
        if item.has(flag::COMPOUNDED) {
            self.compound(item, faces);
        } else {
            for entry in self.story.history(item) {
                if let Hist::Rerolled(old) | Hist::Clamped(old) = *entry {
                    self.struck(old);
                    self.out.push('→');
                }
            }
            self.value(item.value, if item.is_die() { faces } else { None });
            if item.has(flag::EXPLODED) {
                self.out.push('!');
            }
        }
        if item.has(flag::CAPPED) {
            self.out.push('…');
        }
        self.close_marks(item, dropped);
    }

    /// Success and failure marks, then the end of the strike-through.
    fn close_marks(&mut self, item: &Item, dropped: bool) {
        for _ in 0..item.successes {
            self.out.push('✓');
        }
        for _ in 0..item.failures {
            self.out.push('✗');
        }
        if dropped {
            self.out.push_str(self.strike());
        }
    }

    fn strike(&self) -> &'static str {
        match self.style {
            Style::Markdown => "~~",
            Style::Plain => "~",
        }
    }

    /// `6!+6!+3`: the parts of a compounded die.
    fn compound(&mut self, item: &Item, faces: Option<(i64, i64)>) {
        let history = self.story.history(item);
        let parts = history
            .iter()
            .filter(|entry| matches!(entry, Hist::Part(_)))
            .count();
        let mut part = 0;
        for entry in history {
            match *entry {
                Hist::Rerolled(old) => {
                    self.struck(old);
                    self.out.push('→');
                }
                Hist::Part(value) => {
                    part += 1;
                    self.value(value, faces);
                    if part < parts {
                        self.out.push_str("!+");
                    } else if item.has(flag::CAPPED) {
                        self.out.push('!');
                    }
                }
                Hist::Clamped(_) => {}
            }
        }
    }

    fn struck(&mut self, value: i64) {
        match self.style {
            Style::Markdown => {
                let _ = write!(self.out, "~~{value}~~");
            }
            Style::Plain => {
                let _ = write!(self.out, "{value}");
            }
        }
    }

    fn value(&mut self, value: i64, faces: Option<(i64, i64)>) {
        let (highest, lowest) = match faces {
            Some((low, high)) => (value == high, value == low),
            None => (false, false),
        };
        match self.style {
            Style::Markdown if highest => {
                let _ = write!(self.out, "**{value}**");
            }
            Style::Markdown if lowest => {
                let _ = write!(self.out, "__{value}__");
            }
            _ => {
                let _ = write!(self.out, "{value}");
            }
        }
    }

    fn series(&mut self, series: &Series, span: Span) {
        let Some(pool) = self.story.pool(series.slot).copied() else {
            self.text(span.text(self.source));
            return;
        };
        let items = self.story.pool_items(&pool);
        let (open, close) = if series.parenthesised {
            ('(', ')')
        } else {
            ('{', '}')
        };
        self.out.push(open);
        // Items are in element order; each names the element it came from.
        for (shown, item) in items.iter().enumerate() {
            if shown > 0 {
                self.out.push_str(", ");
            }
            if shown >= self.max_items {
                self.out.push('…');
                break;
            }
            match series.items.get(item.origin as usize) {
                Some(SeriesItem::One(node)) => self.element(item, node),
                _ => self.item(item, None),
            }
        }
        if series.parenthesised && series.items.len() == 1 {
            // `(2d6,)` is a set; without the comma it would read as parentheses.
            self.out.push(',');
        }
        self.out.push(close);
        self.modifiers(&series.mods, series.body_span.end, span.end);
    }

    /// A series element written as its expression, with its marks.
    fn element(&mut self, item: &Item, node: &Node) {
        let dropped = !item.kept();
        if dropped {
            self.out.push_str(self.strike());
        }
        self.node(node);
        self.close_marks(item, dropped);
    }
}

fn modifier_holes<'a>(modifier: &'a Modifier, holes: &mut Vec<&'a Node>) {
    let mut arg = |arg: &'a Arg| {
        if let Arg::Expr(node) = arg {
            holes.push(node.as_ref());
        }
    };
    match &modifier.kind {
        ModKind::Keep { n: Some(n), .. } | ModKind::Drop { n: Some(n), .. } => arg(n),
        ModKind::Clamp { n, .. } | ModKind::Select { n, .. } => arg(n),
        ModKind::Count { filters, .. } => {
            for filter in filters {
                filter_holes(filter, holes);
            }
        }
        ModKind::Explode {
            cond: Some(filter), ..
        }
        | ModKind::Reroll {
            cond: Some(filter), ..
        } => filter_holes(filter, holes),
        _ => {}
    }
}

fn filter_holes<'a>(filter: &'a Filter, holes: &mut Vec<&'a Node>) {
    match filter {
        Filter::Cmp(_, Arg::Expr(node)) => holes.push(node.as_ref()),
        Filter::Any(alternatives) => {
            for filter in alternatives.iter().flatten() {
                filter_holes(filter, holes);
            }
        }
        _ => {}
    }
}
