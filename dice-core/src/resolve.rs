//! Replacing `$macro` and `@FIELD` references.
//!
//! Resolution works on text: each reference is replaced by the macro's
//! expression in parentheses (or the field's number), recursively, and the
//! result is parsed again. So the resolved expression has one source text,
//! every span points into it, and its breakdown shows what was rolled.

use crate::ast::{NodeKind, Span};
use crate::error::{Error, ErrorKind};
use crate::limits::Limits;
use crate::reason::{Reason, ReasonId};
use crate::{Expr, parser};

/// Where macros and character fields come from (the bot's database).
pub trait Resolver {
    /// The text of the macro `name` (without `$`), if there is one.
    fn macro_source(&self, name: &str) -> Option<String>;
    /// The active character's field `name` (without `@`), if there is one.
    fn field(&self, name: &str) -> Option<i64>;
    /// All field names, for the "unknown field; there are: ..." message.
    fn field_names(&self) -> Vec<String>;
}

#[derive(Clone, Copy)]
enum Ref {
    Macro,
    Field,
}

struct State<'a> {
    resolver: &'a dyn Resolver,
    limits: &'a Limits,
    expansions: usize,
    /// Macros being expanded, outermost first, for cycle messages.
    stack: Vec<String>,
}

pub(crate) fn resolve(
    expr: &Expr,
    resolver: &dyn Resolver,
    limits: &Limits,
) -> Result<Expr, Error> {
    if !expr.has_refs() {
        return Ok(expr.clone());
    }
    let mut state = State {
        resolver,
        limits,
        expansions: 0,
        stack: Vec::new(),
    };
    let mut inherited_label = None;
    let text = state.expand(expr, None, &mut inherited_label)?;
    let label = expr.label().map(str::to_string).or(inherited_label);
    let source = match label {
        Some(label) => format!("{text} # {label}"),
        None => text,
    };
    let whole = 0..expr.source().len();
    let parsed = parser::parse(&source, limits, limits.max_resolved_len).map_err(|error| {
        let reason = match error.kind() {
            ErrorKind::TooDeep => {
                Reason::new(ReasonId::ExpandedTooDeep).with("max", limits.max_depth)
            }
            ErrorKind::TooLong => {
                Reason::new(ReasonId::ExpandedTooLong).with("max", limits.max_resolved_len)
            }
            _ => Reason::new(ReasonId::Expanded).with("inner", error.reason().clone()),
        };
        Error::new(error.kind(), whole.clone(), reason)
    })?;
    Ok(Expr::from_parsed(source, parsed))
}

impl State<'_> {
    /// The expression text of `expr` with its references replaced.
    /// `outer` is the span of the reference in the user's input that led
    /// here; errors inside macros are reported there.
    fn expand(
        &mut self,
        expr: &Expr,
        outer: Option<Span>,
        label: &mut Option<String>,
    ) -> Result<String, Error> {
        let source = expr.expr_source();
        let mut refs = Vec::new();
        expr.root().walk(&mut |node| match node.kind {
            NodeKind::Macro(name) => refs.push((Ref::Macro, node.span, name)),
            NodeKind::Field(name) => refs.push((Ref::Field, node.span, name)),
            _ => {}
        });
        refs.sort_by_key(|(_, span, _)| span.start);
        // A lone macro reference lends its label to an unlabeled expression.
        let lone = refs.len() == 1 && refs[0].1 == expr.root().span && outer.is_none();
        let mut out = String::with_capacity(source.len());
        let mut at = 0;
        for (kind, span, name) in refs {
            let here = outer.unwrap_or(span);
            let name = name.text(expr.source());
            out.push_str(source.get(at..span.start as usize).unwrap_or(""));
            at = span.end as usize;
            match kind {
                Ref::Field => out.push_str(&self.field(name, here)?),
                Ref::Macro => {
                    let (text, macro_label) = self.macro_text(name, here)?;
                    if lone {
                        *label = macro_label;
                    }
                    out.push('(');
                    out.push_str(&text);
                    out.push(')');
                }
            }
            if out.len() > self.limits.max_resolved_len {
                return Err(Error::new(
                    ErrorKind::TooLong,
                    here.range(),
                    Reason::new(ReasonId::ExpandedTooLong)
                        .with("max", self.limits.max_resolved_len),
                ));
            }
        }
        out.push_str(source.get(at..).unwrap_or(""));
        Ok(out.trim_end().to_string())
    }

    fn field(&self, name: &str, here: Span) -> Result<String, Error> {
        let Some(value) = self.resolver.field(name) else {
            let mut known = self.resolver.field_names();
            known.sort();
            let reason = if known.is_empty() {
                Reason::new(ReasonId::UnknownFieldNone).with("name", name)
            } else {
                let known: Vec<String> = known.iter().map(|k| format!("@{k}")).collect();
                Reason::new(ReasonId::UnknownField)
                    .with("name", name)
                    .with("known", known.join(", "))
            };
            return Err(Error::new(ErrorKind::UnknownField, here.range(), reason));
        };
        Ok(if value < 0 {
            format!("({value})")
        } else {
            value.to_string()
        })
    }

    fn macro_text(&mut self, name: &str, here: Span) -> Result<(String, Option<String>), Error> {
        if let Some(position) = self.stack.iter().position(|open| open == name) {
            let mut chain: Vec<String> = self.stack[position..]
                .iter()
                .map(|open| format!("${open}"))
                .collect();
            chain.push(format!("${name}"));
            return Err(Error::new(
                ErrorKind::MacroCycle,
                here.range(),
                Reason::new(ReasonId::MacroCycle).with("chain", chain.join(" → ")),
            ));
        }
        self.expansions += 1;
        if self.expansions > self.limits.max_macro_expansions {
            return Err(Error::new(
                ErrorKind::TooManyExpansions,
                here.range(),
                Reason::new(ReasonId::TooManyExpansions)
                    .with("max", self.limits.max_macro_expansions)
                    .with("name", name),
            ));
        }
        let Some(text) = self.resolver.macro_source(name) else {
            return Err(Error::new(
                ErrorKind::UnknownMacro,
                here.range(),
                Reason::new(ReasonId::UnknownMacro).with("name", name),
            ));
        };
        let inner = crate::parse_with(&text, self.limits).map_err(|error| {
            Error::new(
                ErrorKind::BadMacro,
                here.range(),
                Reason::new(ReasonId::BadMacro)
                    .with("name", name)
                    .with("inner", error.reason().clone()),
            )
        })?;
        self.stack.push(name.to_string());
        let mut ignored = None;
        let expanded = self.expand(&inner, Some(here), &mut ignored);
        self.stack.pop();
        Ok((expanded?, inner.label().map(str::to_string)))
    }
}
