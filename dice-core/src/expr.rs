//! [`Expr`]: a parsed expression and everything done with it (roll, odds, render,
//! references, resolve), over the modules that do the work.

use std::sync::Arc;

use rand::Rng;

use crate::ast::{Node, NodeKind};
use crate::parser::Parsed;
use crate::roll::{Story, StoryBox};
use crate::{Error, Limits, Resolver, Roll, eval, parse, resolve};

/// A parsed expression, ready to roll any number of times.
///
/// Cloning is cheap (the tree is shared), and an `Expr` is `Send + Sync`.
#[derive(Clone)]
pub struct Expr {
    inner: Arc<Inner>,
}

struct Inner {
    source: String,
    parsed: Parsed,
}

impl Expr {
    pub(crate) fn from_parsed(source: String, parsed: Parsed) -> Expr {
        Expr {
            inner: Arc::new(Inner { source, parsed }),
        }
    }

    pub(crate) fn root(&self) -> &Node {
        &self.inner.parsed.root
    }

    pub(crate) fn has_refs(&self) -> bool {
        self.inner.parsed.has_refs
    }

    /// The source without its label.
    pub(crate) fn expr_source(&self) -> &str {
        let end = self.inner.parsed.expr_end.min(self.inner.source.len());
        self.inner.source.get(..end).unwrap_or("").trim_end()
    }

    /// Rolls the expression. The result depends only on the expression and
    /// the random numbers `rng` gives, so a seeded `rng` repeats a roll.
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R, limits: &Limits) -> Result<Roll, Error> {
        let mut roll = Roll {
            expr: self.clone(),
            total: 0,
            story: StoryBox::take(),
        };
        roll.total = self.roll_into(rng, limits, &mut roll.story)?;
        Ok(roll)
    }

    fn roll_into<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        limits: &Limits,
        story: &mut Story,
    ) -> Result<i64, Error> {
        story.reset(self.inner.parsed.slots);
        let mut evaluator = eval::Evaluator::new(rng, limits, &self.inner.source, story);
        evaluator.total(self.root())
    }

    /// An endless iterator of totals, for statistics (`--samples`): the same
    /// as calling [`roll`](Expr::roll) repeatedly and keeping the totals, but
    /// with the bookkeeping reused from roll to roll.
    ///
    /// ```
    /// use rand::SeedableRng;
    ///
    /// let expr = dice_core::parse("2d6").unwrap();
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    /// let limits = dice_core::Limits::default();
    /// let totals: Vec<i64> = expr.totals(&mut rng, &limits).take(100).collect::<Result<_, _>>().unwrap();
    /// assert!(totals.iter().all(|total| (2..=12).contains(total)));
    /// ```
    pub fn totals<'a, R: Rng + ?Sized>(
        &'a self,
        rng: &'a mut R,
        limits: &'a Limits,
    ) -> Totals<'a, R> {
        Totals {
            expr: self,
            rng,
            limits,
            story: Story::default(),
        }
    }

    /// The label written after the expression: `"1d20+5 to hit"` gives
    /// `Some("to hit")`.
    pub fn label(&self) -> Option<&str> {
        self.inner.parsed.label.as_deref()
    }

    /// The text this expression was parsed from (after macro expansion, for
    /// a resolved expression).
    pub fn source(&self) -> &str {
        &self.inner.source
    }

    /// The names of the `$macro` references, in order, without repeats.
    pub fn macro_names(&self) -> Vec<String> {
        self.reference_names(true)
    }

    /// The names of the `@FIELD` references, in order, without repeats.
    pub fn field_names(&self) -> Vec<String> {
        self.reference_names(false)
    }

    fn reference_names(&self, macros: bool) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        if !self.has_refs() {
            return names;
        }
        let source = self.source();
        let mut found = Vec::new();
        self.root().walk(&mut |node| match node.kind {
            NodeKind::Macro(name) if macros => found.push(name),
            NodeKind::Field(name) if !macros => found.push(name),
            _ => {}
        });
        found.sort_by_key(|span| span.start);
        for span in found {
            let name = span.text(source);
            if !names.iter().any(|known| known == name) {
                names.push(name.to_string());
            }
        }
        names
    }

    /// Replaces `$macro` and `@FIELD` references using `resolver`. Macros
    /// may use macros and fields; a cycle, an unknown name, or more than
    /// [`Limits::max_macro_expansions`] expansions is an error naming the
    /// macros involved, placed at the reference in this expression.
    pub fn resolve(&self, resolver: &dyn Resolver, limits: &Limits) -> Result<Expr, Error> {
        resolve::resolve(self, resolver, limits)
    }
}

impl std::fmt::Debug for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Expr")
            .field("source", &self.inner.source)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.inner.source)
    }
}

impl std::str::FromStr for Expr {
    type Err = Error;

    fn from_str(input: &str) -> Result<Expr, Error> {
        parse(input)
    }
}

impl PartialEq for Expr {
    fn eq(&self, other: &Expr) -> bool {
        self.inner.source == other.inner.source
    }
}

impl Eq for Expr {}

/// Totals of repeated rolls; see [`Expr::totals`].
pub struct Totals<'a, R: Rng + ?Sized> {
    expr: &'a Expr,
    rng: &'a mut R,
    limits: &'a Limits,
    story: Story,
}

impl<R: Rng + ?Sized> Iterator for Totals<'_, R> {
    type Item = Result<i64, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.expr.roll_into(self.rng, self.limits, &mut self.story))
    }
}
