//! The exact walk over the tree, mirroring the roller node by node.
//!
//! Every node is evaluated once per roll and no node is shared, so the
//! values of sibling subtrees are independent and their distributions
//! combine by products. A dice term's random arguments (count, sides,
//! modifier arguments, the faces of `d{...}`) are drawn once for the term,
//! so the term's distribution is a mixture over their joint outcomes.

use std::collections::{BTreeMap, HashMap};

use num_bigint::BigUint;
use num_traits::Zero;
use smallvec::SmallVec;

use super::dist::{self, Budget, Dist, Footprint, Parts};
use super::pool::{self, Elem, PoolMod, Term};
use crate::ast::{
    Arg, BinOp, Dice, Filter, Func, ModKind, Modifier, Node, NodeKind, Series, SeriesItem, Sides,
    Span,
};
use crate::error::{Error, ErrorKind};
use crate::eval::{self, Ratio, Test, missing_argument, overflow, unresolved};
use crate::limits::Limits;
use crate::reason::{Phrase, Reason, ReasonId};

type Result<T> = std::result::Result<T, Error>;

pub(crate) struct Exact<'a> {
    source: &'a str,
    limits: &'a Limits,
    pub budget: Budget,
    /// Values of the random arguments of the terms being computed.
    params: HashMap<*const Node, i64>,
}

/// What a pool is made of, under its modifiers.
enum Source<'n> {
    Dice(&'n Dice, Span),
    Series(&'n Series, Span),
    /// A plain value with modifiers: a pool of one number.
    Single(&'n Node, Span),
}

impl<'a> Exact<'a> {
    pub fn new(source: &'a str, limits: &'a Limits) -> Exact<'a> {
        Exact {
            source,
            limits,
            budget: Budget::new(limits.max_odds_work, limits.max_odds_memory),
            params: HashMap::new(),
        }
    }

    pub fn value(&mut self, node: &Node) -> Result<Dist<i64>> {
        match &node.kind {
            NodeKind::Num(value) => Ok(Dist::point(*value)),
            NodeKind::Dice(_) | NodeKind::Series(_) | NodeKind::Modified(_) => {
                let states = self.pool(node, false)?;
                Ok(values(states))
            }
            NodeKind::Group(inner) | NodeKind::Tagged(inner, _) => self.value(inner),
            NodeKind::Neg(inner) => self
                .value(inner)?
                .map(|v| v.checked_neg().ok_or_else(|| overflow(node.span))),
            NodeKind::Chain(chain) => {
                let mut acc = self.value(&chain.first)?;
                for (op, operand) in &chain.rest {
                    let right = self.value(operand)?;
                    acc = self.binary(*op, &acc, &right, operand.span)?;
                }
                Ok(acc)
            }
            NodeKind::Call(call) => {
                let first = call
                    .args
                    .first()
                    .ok_or_else(|| missing_argument(node.span))?;
                match call.func {
                    Func::Floor | Func::Ceil | Func::Round => self
                        .exact(first)?
                        .map(|r| r.to_int(call.func).ok_or_else(|| overflow(node.span))),
                    Func::Abs | Func::Sqrt | Func::Exp | Func::Log | Func::Sign => self
                        .value(first)?
                        .map(|v| eval::call_one(call.func, *v, node.span)),
                    Func::Pow => {
                        let base = self.value(first)?;
                        let exponent = match call.args.get(1) {
                            Some(arg) => self.value(arg)?,
                            None => Dist::point(1),
                        };
                        self.binary(BinOp::Pow, &base, &exponent, node.span)
                    }
                    Func::Min | Func::Max => {
                        let mut best = self.value(first)?;
                        for arg in &call.args[1..] {
                            let next = self.value(arg)?;
                            let max = call.func == Func::Max;
                            best = best.product(&next, &mut self.budget, node.span, |a, b| {
                                Ok(if max { *a.max(b) } else { *a.min(b) })
                            })?;
                        }
                        Ok(best)
                    }
                }
            }
            NodeKind::Macro(name) | NodeKind::Field(name) => {
                Err(unresolved(self.source, node, *name))
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &Dist<i64>, b: &Dist<i64>, span: Span) -> Result<Dist<i64>> {
        let sum = match op {
            BinOp::Add => dist::add(a, b, &mut self.budget, span)?,
            BinOp::Sub => {
                let negated = b.map(|v| v.checked_neg().ok_or_else(|| overflow(span)))?;
                dist::add(a, &negated, &mut self.budget, span)?
            }
            _ => {
                return a.product(b, &mut self.budget, span, |x, y| {
                    eval::apply(op, *x, *y, span)
                });
            }
        };
        sum.ok_or_else(|| overflow(span))
    }

    /// Exact fractions inside floor, ceil and round, as the roller does.
    fn exact(&mut self, node: &Node) -> Result<Dist<Ratio>> {
        match &node.kind {
            NodeKind::Group(inner) | NodeKind::Tagged(inner, _) => self.exact(inner),
            NodeKind::Neg(inner) => self
                .exact(inner)?
                .map(|r| r.neg().ok_or_else(|| overflow(node.span))),
            NodeKind::Chain(chain) => {
                let mut acc = self.exact(&chain.first)?;
                for (op, operand) in &chain.rest {
                    let right = self.exact(operand)?;
                    let span = operand.span;
                    acc = acc.product(&right, &mut self.budget, span, |a, b| {
                        a.apply(*op, *b).map_err(|kind| match kind {
                            ErrorKind::DivisionByZero => eval::division_by_zero(span),
                            _ => overflow(span),
                        })
                    })?;
                }
                Ok(acc)
            }
            NodeKind::Call(call) if matches!(call.func, Func::Abs | Func::Min | Func::Max) => {
                let mut best: Option<Dist<Ratio>> = None;
                for arg in &call.args {
                    let value = self.exact(arg)?;
                    best = Some(match best {
                        None if call.func == Func::Abs => {
                            value.map(|r| r.abs().ok_or_else(|| overflow(node.span)))?
                        }
                        None => value,
                        Some(best) => {
                            let max = call.func == Func::Max;
                            best.product(&value, &mut self.budget, node.span, |a, b| {
                                Ok(if max {
                                    Ratio::max(*a, *b)
                                } else {
                                    Ratio::min(*a, *b)
                                })
                            })?
                        }
                    });
                }
                Ok(best.unwrap_or_else(|| Dist::point(Ratio::int(0))))
            }
            _ => self.value(node)?.map(|v| Ok(Ratio::int(*v))),
        }
    }

    // ------------------------------------------------------------ pools

    /// The outcomes of a pool: its value, and with `want_leaves` the kept
    /// dice and numbers a count of an enclosing series would look at.
    fn pool(&mut self, node: &Node, want_leaves: bool) -> Result<Dist<Elem>> {
        let mut mods = Vec::new();
        match unwrap_pool(node, &mut mods) {
            Source::Dice(dice, span) => self.dice_pool(dice, span, &mods, want_leaves),
            Source::Series(series, span) => self.series_pool(series, span, &mods, want_leaves),
            Source::Single(base, span) => {
                let base = self.value(base)?;
                let args = mod_args(&mods);
                self.with_params(&args, span, |this| {
                    let mods = this.pool_mods(&mods);
                    base.map(|v| pool::apply_mods(&[Elem::number(*v)], &mods, want_leaves, span))
                })
            }
        }
    }

    /// Evaluates `args` once each and mixes what `compute` gives for every
    /// joint outcome of their values.
    fn with_params<K: Ord + Clone + Footprint>(
        &mut self,
        args: &[&Node],
        span: Span,
        mut compute: impl FnMut(&mut Self) -> Result<Dist<K>>,
    ) -> Result<Dist<K>> {
        if args.is_empty() {
            return compute(self);
        }
        let mut joint: Dist<Vec<i64>> = Dist::point(Vec::new());
        for arg in args {
            let values = self.value(arg)?;
            joint = joint.product(&values, &mut self.budget, span, |list, v| {
                let mut list = list.clone();
                list.push(*v);
                Ok(list)
            })?;
        }
        let mut parts = Parts::new();
        for (values, weight) in &joint.entries {
            for (arg, value) in args.iter().zip(values) {
                self.params.insert(*arg as *const Node, *value);
            }
            let part = compute(self)?;
            parts.push(weight.clone(), part);
        }
        parts.mix(&joint.total, &mut self.budget, span)
    }

    fn arg(&self, arg: &Arg) -> i64 {
        match arg {
            Arg::Lit(value, _) => *value,
            Arg::Expr(node) => self
                .params
                .get(&(node.as_ref() as *const Node))
                .copied()
                .unwrap_or(0),
        }
    }

    fn test(&self, filter: &Filter) -> Test {
        match filter {
            Filter::High => Test::High,
            Filter::Low => Test::Low,
            Filter::Odd => Test::Odd,
            Filter::Even => Test::Even,
            Filter::Cmp(op, arg) => Test::Cmp(*op, self.arg(arg)),
            Filter::Any(alternatives) => Test::Any(
                alternatives
                    .iter()
                    .map(|all| all.iter().map(|f| self.test(f)).collect())
                    .collect(),
            ),
        }
    }

    fn pool_mods(&self, mods: &[&Modifier]) -> Vec<PoolMod> {
        let mut resolved = Vec::with_capacity(mods.len());
        for modifier in mods {
            match &modifier.kind {
                ModKind::Keep { which, n } => resolved.push(PoolMod::Keep {
                    which: *which,
                    n: n.as_ref().map(|arg| self.arg(arg)),
                }),
                ModKind::Drop { highest, n } => resolved.push(PoolMod::Drop {
                    highest: *highest,
                    n: n.as_ref().map_or(1, |arg| self.arg(arg)),
                }),
                ModKind::Select { keep, op, n } => resolved.push(PoolMod::Select {
                    keep: *keep,
                    op: *op,
                    target: self.arg(n),
                }),
                ModKind::Count {
                    kind,
                    filters,
                    elements,
                } => {
                    let mut tests: Vec<Test> = filters.iter().map(|f| self.test(f)).collect();
                    if tests.is_empty() {
                        tests.push(Test::High);
                    }
                    resolved.push(PoolMod::Count {
                        kind: *kind,
                        tests,
                        elements: *elements,
                    });
                }
                _ => {}
            }
        }
        resolved
    }

    fn dice_pool(
        &mut self,
        dice: &Dice,
        span: Span,
        mods: &[&Modifier],
        want_leaves: bool,
    ) -> Result<Dist<Elem>> {
        let faces = match &dice.sides {
            Sides::Faces(node) => Some(self.faces(node)?),
            _ => None,
        };
        let mut args: Vec<&Node> = Vec::new();
        if let Some(Arg::Expr(node)) = &dice.count {
            args.push(node);
        }
        if let Sides::Count(Arg::Expr(node)) = &dice.sides {
            args.push(node);
        }
        args.extend(mod_args(mods));
        self.with_params(&args, span, |this| match &faces {
            None => this.dice_term(dice, span, mods, None, want_leaves),
            Some(faces) => {
                let mut parts = Parts::new();
                for (list, weight) in &faces.entries {
                    let part = this.dice_term(dice, span, mods, Some(list), want_leaves)?;
                    parts.push(weight.clone(), part);
                }
                parts.mix(&faces.total, &mut this.budget, span)
            }
        })
    }

    /// The face lists a `d{...}` can have: its elements' values in order.
    fn faces(&mut self, node: &Node) -> Result<Dist<Vec<i64>>> {
        let NodeKind::Series(series) = &node.kind else {
            return Err(Error::new(
                ErrorKind::BadFaces,
                node.span.range(),
                Reason::new(ReasonId::ExpectedFaces),
            ));
        };
        let mut lists: Dist<Vec<i64>> = Dist::point(Vec::new());
        for group in self.series_groups(series, node.span, false)? {
            lists = lists.product(&group, &mut self.budget, node.span, |a, b| {
                let mut list = a.clone();
                list.extend(b.iter().map(|e| e.value));
                Ok(list)
            })?;
        }
        Ok(lists)
    }

    fn dice_term(
        &mut self,
        dice: &Dice,
        span: Span,
        mods: &[&Modifier],
        custom: Option<&[i64]>,
        want_leaves: bool,
    ) -> Result<Dist<Elem>> {
        let count = dice.count.as_ref().map_or(1, |arg| self.arg(arg));
        if let Some(arg) = &dice.count {
            eval::check_count(count, arg.span())?;
        }
        let (raws, faces): (Vec<(i64, u64)>, (i64, i64)) = match (&dice.sides, custom) {
            (Sides::Percent, _) => (uniform(1, 100), (1, 100)),
            (Sides::Fate, _) => (uniform(-1, 1), (-1, 1)),
            (Sides::FateOne, _) => (vec![(-1, 1), (0, 4), (1, 1)], (-1, 1)),
            (Sides::Count(arg), _) => {
                let sides = self.arg(arg);
                eval::check_sides(sides, arg.span(), self.limits)?;
                self.budget.spend(sides as u64, span, Phrase::CauseFaces)?;
                (uniform(1, sides), (1, sides))
            }
            (Sides::Faces(node), custom) => {
                let list = custom.unwrap_or(&[]);
                let (Some(first), Some(last)) = (list.first(), list.last()) else {
                    return Err(Error::new(
                        ErrorKind::BadFaces,
                        node.span.range(),
                        Reason::new(ReasonId::EmptySeries),
                    ));
                };
                if list.len() as u64 > self.limits.max_faces.max(0) as u64 {
                    return Err(eval::too_many_faces(node.span, self.limits));
                }
                let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
                for face in list {
                    *counts.entry(*face).or_insert(0) += 1;
                }
                (counts.into_iter().collect(), (*first, *last))
            }
        };
        let count = usize::try_from(count).unwrap_or(0);
        if count > self.limits.max_dice {
            return Err(eval::too_many_dice(span, self.limits));
        }
        if count == 0 {
            // Nothing is rolled: no table of faces (`0d1000000` would
            // build a million of them for a sure 0).
            let mods = self.pool_mods(mods);
            return Ok(Dist::point(pool::apply_mods(
                &[],
                &mods,
                want_leaves,
                span,
            )?));
        }
        let mut explode = None;
        let mut reroll = None;
        let mut clamps: SmallVec<[(bool, i64); 2]> = SmallVec::new();
        for modifier in &dice.mods {
            match &modifier.kind {
                ModKind::Explode { mode, cond } => {
                    explode = Some((*mode, cond.as_ref().map_or(Test::High, |f| self.test(f))));
                }
                ModKind::Reroll { once, cond } => {
                    reroll = Some((*once, cond.as_ref().map_or(Test::Low, |f| self.test(f))));
                }
                ModKind::Clamp { at_least, n } => clamps.push((*at_least, self.arg(n))),
                ModKind::Unique { .. } | ModKind::RerollRank { .. } => {
                    return Err(Error::new(
                        ErrorKind::Unsupported,
                        modifier.span.range(),
                        Reason::new(ReasonId::Unsupported),
                    ));
                }
                _ => {}
            }
        }
        // The die's faces with their weights, a table as large as its sides.
        let face_bytes = 8 + dist::weight_bytes(&BigUint::from(raws.len() as u64).pow(2));
        self.budget.allocate(
            (raws.len() as u64).saturating_mul(face_bytes),
            span,
            Phrase::CauseFaces,
        )?;
        let (draws, total) = self.rerolled(&raws, faces, reroll);
        let term = Term {
            draws,
            total,
            faces,
            explode,
            clamps,
            count,
            max_explosions: self.limits.max_explosions_per_die,
            span,
        };
        let mods = self.pool_mods(mods);
        if !want_leaves && let Some(values) = pool::dice_value(&term, &mods, &mut self.budget)? {
            return Ok(bare(values));
        }
        pool::dice_states(&term, &mods, want_leaves, &mut self.budget)
    }

    /// One die's faces after `ro` (reroll once) or `rr` (reroll while the
    /// condition holds: the faces that fail it, in proportion).
    fn rerolled(
        &self,
        raws: &[(i64, u64)],
        faces: (i64, i64),
        reroll: Option<(bool, Test)>,
    ) -> (Vec<(i64, BigUint)>, BigUint) {
        let total: u64 = raws.iter().map(|(_, w)| w).sum();
        let plain = || {
            let draws = raws.iter().map(|(v, w)| (*v, BigUint::from(*w))).collect();
            (draws, BigUint::from(total))
        };
        let Some((once, test)) = reroll else {
            return plain();
        };
        if self.limits.max_rerolls_per_die == 0 {
            return plain();
        }
        let matches = |v: i64| test.matches(v, Some(faces));
        let matching: u64 = raws
            .iter()
            .filter(|(v, _)| matches(*v))
            .map(|(_, w)| w)
            .sum();
        if matching == 0 {
            return plain();
        }
        if once {
            let draws = raws
                .iter()
                .map(|&(v, w)| {
                    let kept = if matches(v) {
                        0
                    } else {
                        u128::from(w) * u128::from(total)
                    };
                    (
                        v,
                        BigUint::from(kept + u128::from(matching) * u128::from(w)),
                    )
                })
                .collect();
            return (draws, BigUint::from(u128::from(total) * u128::from(total)));
        }
        if matching == total {
            // Every face rerolls until the cap; the last draw stays.
            return plain();
        }
        let draws = raws
            .iter()
            .filter(|(v, _)| !matches(*v))
            .map(|(v, w)| (*v, BigUint::from(*w)))
            .collect();
        (draws, BigUint::from(total - matching))
    }

    /// The outcomes of each element of a series, as lists (a range is one
    /// group of many numbers).
    fn series_groups(
        &mut self,
        series: &Series,
        span: Span,
        want_leaves: bool,
    ) -> Result<Vec<Dist<Vec<Elem>>>> {
        let mut groups = Vec::with_capacity(series.items.len());
        let max_len = self.limits.max_series_len;
        for item in &series.items {
            let group = match item {
                SeriesItem::One(node) if is_pool(node) => {
                    let pool = self.pool(node, want_leaves)?;
                    // Each outcome becomes a list of one element: a new table.
                    let entry = pool
                        .entries
                        .first()
                        .map_or(0, |(e, _)| vec![e.clone()].footprint());
                    let entry = entry + dist::weight_bytes(&pool.total) + 16;
                    self.budget.allocate(
                        (pool.len() as u64).saturating_mul(entry),
                        span,
                        Phrase::CauseSeries,
                    )?;
                    pool.map(|e| Ok(vec![e.clone()]))?
                }
                SeriesItem::One(node) => self.value(node)?.map(|v| Ok(vec![Elem::number(*v)]))?,
                SeriesItem::Range(low, high) => {
                    let low = self.value(low)?;
                    let high = self.value(high)?;
                    // Every pair of bounds lists its numbers: charge them all
                    // before listing any (a list can be 10,000 elements long).
                    let cause = Phrase::CauseSeries;
                    let mut elements: u64 = 0;
                    for (from, _) in &low.entries {
                        self.budget.spend(high.len() as u64, span, cause)?;
                        for (to, _) in &high.entries {
                            let length = (i128::from(*to) - i128::from(*from) + 1)
                                .clamp(0, max_len as i128 + 1);
                            elements = elements.saturating_add(length as u64);
                        }
                    }
                    let element_bytes = Elem::number(0).footprint();
                    self.budget.spend(elements, span, cause)?;
                    self.budget
                        .allocate(elements.saturating_mul(element_bytes), span, cause)?;
                    low.product(&high, &mut self.budget, span, |from, to| {
                        if to < from {
                            return Ok(Vec::new());
                        }
                        let length = i128::from(*to) - i128::from(*from) + 1;
                        if length > max_len as i128 {
                            return Err(eval::series_too_long(span, self.limits));
                        }
                        Ok((*from..=*to).map(Elem::number).collect())
                    })?
                }
            };
            groups.push(group);
        }
        Ok(groups)
    }

    fn series_pool(
        &mut self,
        series: &Series,
        span: Span,
        mods: &[&Modifier],
        want_leaves: bool,
    ) -> Result<Dist<Elem>> {
        let args = mod_args(mods);
        let counts = mods.iter().any(|m| matches!(m.kind, ModKind::Count { .. }));
        let groups = self.series_groups(series, span, want_leaves || counts)?;
        let selects = mods.iter().any(|m| {
            matches!(
                m.kind,
                ModKind::Keep { .. } | ModKind::Drop { .. } | ModKind::Select { .. }
            )
        });
        let max_len = self.limits.max_series_len;
        if !want_leaves && !counts && !selects {
            // A sum of independent elements.
            let mut total: Dist<i64> = Dist::point(0);
            for group in &groups {
                let sums = group.map(|list| {
                    list.iter()
                        .try_fold(0i64, |acc, e| acc.checked_add(e.value))
                        .ok_or_else(|| overflow(span))
                })?;
                total = dist::add(&total, &sums, &mut self.budget, span)?
                    .ok_or_else(|| overflow(span))?;
            }
            return Ok(bare(total));
        }
        let mut lists: Dist<Vec<Elem>> = Dist::point(Vec::new());
        for group in &groups {
            let pairs = lists.len() as u64 * group.len() as u64;
            self.budget.spend(
                pairs.saturating_mul(max_len.min(groups.len()) as u64),
                span,
                Phrase::CauseSeries,
            )?;
            lists = lists.product(group, &mut self.budget, span, |a, b| {
                if a.len() + b.len() > max_len {
                    return Err(eval::series_too_long(span, self.limits));
                }
                let mut list = a.clone();
                list.extend_from_slice(b);
                Ok(list)
            })?;
        }
        self.with_params(&args, span, |this| {
            let resolved = this.pool_mods(mods);
            lists.map(|list| pool::apply_mods(list, &resolved, want_leaves, span))
        })
    }
}

fn uniform(low: i64, high: i64) -> Vec<(i64, u64)> {
    (low..=high).map(|v| (v, 1)).collect()
}

fn bare(values: Dist<i64>) -> Dist<Elem> {
    Dist {
        entries: values
            .entries
            .into_iter()
            .map(|(v, w)| (Elem::bare(v), w))
            .collect(),
        total: values.total,
    }
}

/// Pool values; without leaves, distinct outcomes have distinct values.
fn values(states: Dist<Elem>) -> Dist<i64> {
    if states
        .entries
        .windows(2)
        .all(|pair| pair[0].0.value < pair[1].0.value)
    {
        return Dist {
            entries: states
                .entries
                .into_iter()
                .map(|(e, w)| (e.value, w))
                .collect(),
            total: states.total,
        };
    }
    let mut map: BTreeMap<i64, BigUint> = BTreeMap::new();
    for (elem, weight) in states.entries {
        *map.entry(elem.value).or_insert_with(BigUint::zero) += weight;
    }
    Dist::from_map(map, states.total)
}

pub(crate) fn is_pool(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Dice(_) | NodeKind::Series(_) | NodeKind::Modified(_) => true,
        NodeKind::Group(inner) | NodeKind::Tagged(inner, _) => is_pool(inner),
        _ => false,
    }
}

/// The pool under a node and all modifiers that apply to it, in order:
/// `(4d6)kh3` keeps among the four dice.
fn unwrap_pool<'n>(node: &'n Node, mods: &mut Vec<&'n Modifier>) -> Source<'n> {
    match &node.kind {
        NodeKind::Dice(dice) => {
            let outer = std::mem::take(mods);
            mods.extend(dice.mods.iter());
            mods.extend(outer);
            Source::Dice(dice, node.span)
        }
        NodeKind::Series(series) => {
            let outer = std::mem::take(mods);
            mods.extend(series.mods.iter());
            mods.extend(outer);
            Source::Series(series, node.span)
        }
        NodeKind::Group(inner) | NodeKind::Tagged(inner, _) => unwrap_pool(inner, mods),
        NodeKind::Modified(modified) => {
            let outer = std::mem::take(mods);
            mods.extend(modified.mods.iter());
            mods.extend(outer);
            if is_pool(&modified.base) {
                unwrap_pool(&modified.base, mods)
            } else {
                Source::Single(&modified.base, node.span)
            }
        }
        _ => Source::Single(node, node.span),
    }
}

/// The expressions among modifier arguments, evaluated once per term.
fn mod_args<'n>(mods: &[&'n Modifier]) -> Vec<&'n Node> {
    let mut args = Vec::new();
    for modifier in mods {
        match &modifier.kind {
            ModKind::Keep { n: Some(arg), .. } | ModKind::Drop { n: Some(arg), .. } => {
                push_arg(arg, &mut args);
            }
            ModKind::Clamp { n, .. } | ModKind::Select { n, .. } => push_arg(n, &mut args),
            ModKind::Count { filters, .. } => {
                for filter in filters {
                    filter_args(filter, &mut args);
                }
            }
            ModKind::Explode {
                cond: Some(filter), ..
            }
            | ModKind::Reroll {
                cond: Some(filter), ..
            } => filter_args(filter, &mut args),
            _ => {}
        }
    }
    args
}

fn push_arg<'n>(arg: &'n Arg, args: &mut Vec<&'n Node>) {
    if let Arg::Expr(node) = arg {
        args.push(node);
    }
}

fn filter_args<'n>(filter: &'n Filter, args: &mut Vec<&'n Node>) {
    match filter {
        Filter::Cmp(_, arg) => push_arg(arg, args),
        Filter::Any(alternatives) => {
            for filter in alternatives.iter().flatten() {
                filter_args(filter, args);
            }
        }
        _ => {}
    }
}
