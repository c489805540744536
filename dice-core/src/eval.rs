//! Rolling: one walk over the tree that records every die into a [`Story`].
//!
//! Each node is evaluated exactly once per roll, so every pool has a fixed
//! slot in the story and nothing is hashed or searched. Dice of one term are
//! pushed contiguously; series elements are gathered first (their own nested
//! pools are pushed while they are evaluated) and appended afterwards, so
//! every pool is one range of the item table. Recursion follows the nesting
//! of the input, which the parser bounded by `Limits::max_depth`.

use rand::Rng;
use smallvec::SmallVec;

use crate::ast::{
    Arg, BinOp, CmpOp, CountKind, Dice, ExplodeMode, Filter, Func, KeepWhich, ModKind, Modifier,
    Node, NodeKind, RankMode, Series, SeriesItem, Sides, Slot, Span,
};
use crate::error::{Error, ErrorKind};
use crate::limits::Limits;
use crate::reason::{Reason, ReasonId};
use crate::roll::{Hist, Item, PoolRec, Story, flag};

mod keep;
mod uniform;

use keep::{drop_after, keep_by_selection, keep_fresh, sort_by_value};
use uniform::Uniform;
use uniform::roll_range;

type Result<T> = std::result::Result<T, Error>;

/// What a node evaluates to: a plain number or a pool in the story.
#[derive(Debug, Clone, Copy)]
enum Val {
    Num(i64),
    Pool(Slot),
}

pub(crate) struct Evaluator<'a, R: Rng + ?Sized> {
    rng: &'a mut R,
    limits: &'a Limits,
    source: &'a str,
    story: &'a mut Story,
    dice_rolled: usize,
    /// Custom faces of the dice term being rolled.
    faces: Vec<i64>,
}

/// A filter with its arguments evaluated.
#[derive(Debug, Clone)]
pub(crate) enum Test {
    High,
    Low,
    Odd,
    Even,
    Cmp(CmpOp, i64),
    Any(Vec<Vec<Test>>),
}

impl Test {
    #[inline]
    pub(crate) fn matches(&self, value: i64, faces: Option<(i64, i64)>) -> bool {
        match self {
            Test::High => faces.is_some_and(|(_, high)| value == high),
            Test::Low => faces.is_some_and(|(low, _)| value == low),
            Test::Odd => value % 2 != 0,
            Test::Even => value % 2 == 0,
            Test::Cmp(op, target) => op.test(value, *target),
            Test::Any(alternatives) => alternatives
                .iter()
                .any(|all| all.iter().all(|test| test.matches(value, faces))),
        }
    }
}

/// How the dice of one term are drawn.
#[derive(Debug, Clone, Copy)]
enum Draw {
    /// Uniform over `low..=high`.
    Range(Uniform),
    /// Uniform over the evaluator's `faces` buffer.
    Custom,
    /// `dF.1`: -1, 0, 0, 0, 0, 1.
    FateOne,
}

/// Everything needed to roll one more die of a dice term.
struct DiceTerm<'t> {
    /// Index of the term's first die in the item table (for `u`).
    start: usize,
    draw: Draw,
    /// The faces of `d{...}` (for `Draw::Custom`).
    custom: &'t [i64],
    /// Lowest and highest face.
    faces: (i64, i64),
    rules: &'t DieRules,
    span: Span,
}

/// Die modifiers with their arguments evaluated.
#[derive(Debug, Default)]
struct DieRules {
    explode: Option<(ExplodeMode, Test)>,
    reroll: Option<(bool, Test)>,
    /// `(at_least, bound)` in written order.
    clamps: SmallVec<[(bool, i64); 2]>,
    /// The rarer rules, boxed so that the common terms stay small and fast.
    rare: Option<Box<RareRules>>,
}

/// Die rules that depend on the other dice of the term.
#[derive(Debug, Default)]
struct RareRules {
    /// `u` / `uo`: `(once, condition)`.
    unique: Option<(bool, Option<Test>)>,
    /// `rol1`, `rah2`, `eh1`: `(mode, highest, n)` in written order.
    ranks: Vec<(RankMode, bool, i64)>,
}

impl<'a, R: Rng + ?Sized> Evaluator<'a, R> {
    pub fn new(
        rng: &'a mut R,
        limits: &'a Limits,
        source: &'a str,
        story: &'a mut Story,
    ) -> Evaluator<'a, R> {
        Evaluator {
            rng,
            limits,
            source,
            story,
            dice_rolled: 0,
            faces: Vec::new(),
        }
    }

    /// Evaluates the whole expression to its total.
    pub fn total(&mut self, root: &Node) -> Result<i64> {
        self.int(root)
    }

    fn eval(&mut self, node: &Node) -> Result<Val> {
        match &node.kind {
            NodeKind::Num(value) => Ok(Val::Num(*value)),
            NodeKind::Dice(dice) => Ok(Val::Pool(self.dice(dice, node.span)?.0)),
            NodeKind::Series(series) => self.series(series, node.span),
            NodeKind::Group(inner) | NodeKind::Tagged(inner, _) => self.eval(inner),
            NodeKind::Modified(modified) => {
                let slot = match self.eval(&modified.base)? {
                    Val::Pool(slot) => slot,
                    Val::Num(value) => {
                        let start = self.story.items.len();
                        self.push_items(&[Item::new(value, flag::NUMBER)], node.span)?;
                        self.fill_pool(modified.slot, start, None, 0, node.span);
                        modified.slot
                    }
                };
                self.pool_modifiers(slot, &modified.mods)?;
                Ok(Val::Pool(slot))
            }
            NodeKind::Neg(inner) => {
                let value = self.int(inner)?;
                value
                    .checked_neg()
                    .map(Val::Num)
                    .ok_or_else(|| overflow(node.span))
            }
            NodeKind::Chain(chain) => {
                let mut acc = self.int(&chain.first)?;
                for (op, operand) in &chain.rest {
                    let right = self.int(operand)?;
                    acc = apply(*op, acc, right, operand.span)?;
                }
                Ok(Val::Num(acc))
            }
            NodeKind::Call(call) => {
                let value = match call.func {
                    Func::Floor | Func::Ceil | Func::Round => {
                        let exact = self.exact(first_arg(&call.args, node.span)?)?;
                        exact.to_int(call.func).ok_or_else(|| overflow(node.span))?
                    }
                    Func::Pow => {
                        let base = self.int(first_arg(&call.args, node.span)?)?;
                        let exponent = match call.args.get(1) {
                            Some(arg) => self.int(arg)?,
                            None => 1,
                        };
                        apply(BinOp::Pow, base, exponent, node.span)?
                    }
                    Func::Abs | Func::Sqrt | Func::Exp | Func::Log | Func::Sign => {
                        let value = self.int(first_arg(&call.args, node.span)?)?;
                        call_one(call.func, value, node.span)?
                    }
                    Func::Min | Func::Max => {
                        let mut best: Option<i64> = None;
                        for arg in &call.args {
                            let value = self.int(arg)?;
                            best = Some(match (best, call.func) {
                                (None, _) => value,
                                (Some(best), Func::Min) => best.min(value),
                                (Some(best), _) => best.max(value),
                            });
                        }
                        best.unwrap_or(0)
                    }
                };
                Ok(Val::Num(value))
            }
            NodeKind::Macro(name) | NodeKind::Field(name) => {
                Err(unresolved(self.source, node, *name))
            }
        }
    }

    fn int(&mut self, node: &Node) -> Result<i64> {
        // A dice term knows its value as it finishes: no pool lookup.
        if let NodeKind::Dice(dice) = &node.kind {
            return Ok(self.dice(dice, node.span)?.1);
        }
        match self.eval(node)? {
            Val::Num(value) => Ok(value),
            Val::Pool(slot) => Ok(self.pool_value(slot)),
        }
    }

    fn pool_value(&self, slot: Slot) -> i64 {
        self.story.pool(slot).map_or(0, |pool| pool.value)
    }

    fn arg(&mut self, arg: &Arg) -> Result<i64> {
        match arg {
            Arg::Lit(value, _) => Ok(*value),
            Arg::Expr(node) => self.int(node),
        }
    }

    /// Exact (fractional) evaluation for the inside of floor, ceil and round.
    fn exact(&mut self, node: &Node) -> Result<Ratio> {
        match &node.kind {
            NodeKind::Group(inner) | NodeKind::Tagged(inner, _) => self.exact(inner),
            NodeKind::Neg(inner) => self.exact(inner)?.neg().ok_or_else(|| overflow(node.span)),
            NodeKind::Chain(chain) => {
                let mut acc = self.exact(&chain.first)?;
                for (op, operand) in &chain.rest {
                    let right = self.exact(operand)?;
                    acc = acc.apply(*op, right).map_err(|kind| match kind {
                        ErrorKind::DivisionByZero => division_by_zero(operand.span),
                        _ => overflow(operand.span),
                    })?;
                }
                Ok(acc)
            }
            NodeKind::Call(call) if matches!(call.func, Func::Abs | Func::Min | Func::Max) => {
                let mut best: Option<Ratio> = None;
                for arg in &call.args {
                    let value = self.exact(arg)?;
                    best = Some(match (best, call.func) {
                        (None, Func::Abs) => value.abs().ok_or_else(|| overflow(node.span))?,
                        (None, _) => value,
                        (Some(best), Func::Min) => best.min(value),
                        (Some(best), _) => best.max(value),
                    });
                }
                Ok(best.unwrap_or(Ratio::int(0)))
            }
            _ => Ok(Ratio::int(self.int(node)?)),
        }
    }

    // ------------------------------------------------------------ pools

    /// Records a pool's items (from `start` to the end of the table) and
    /// its `value` so far.
    fn fill_pool(
        &mut self,
        slot: Slot,
        start: usize,
        faces: Option<(i64, i64)>,
        value: i64,
        span: Span,
    ) {
        let len = self.story.items.len() - start;
        if let Some(pool) = self.story.pools.get_mut(slot as usize) {
            *pool = PoolRec {
                start: start as u32,
                len: len as u32,
                value,
                faces,
                count: 0,
                counted: false,
                order: 0,
                filled: true,
                span,
            };
        }
    }

    /// Refuses to grow the item table past `Limits::max_elements`.
    #[inline]
    fn room_for(&self, more: usize, span: Span) -> Result<()> {
        if self.story.items.len().saturating_add(more) <= self.limits.max_elements {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::TooManyElements,
            span.range(),
            Reason::new(ReasonId::TooManyElements).with("max", self.limits.max_elements),
        ))
    }

    fn push_items(&mut self, items: &[Item], span: Span) -> Result<()> {
        self.room_for(items.len(), span)?;
        self.story.items.extend_from_slice(items);
        Ok(())
    }

    fn series(&mut self, series: &Series, span: Span) -> Result<Val> {
        let mut elements: SmallVec<[Item; 8]> = SmallVec::new();
        for (origin, item) in series.items.iter().enumerate() {
            let origin = origin as u32;
            match item {
                SeriesItem::One(node) => {
                    let mut element = match self.eval(node)? {
                        Val::Num(value) => Item::new(value, flag::NUMBER),
                        Val::Pool(slot) => {
                            let mut element = Item::new(self.pool_value(slot), flag::NESTED);
                            element.link = slot;
                            element
                        }
                    };
                    element.origin = origin;
                    elements.push(element);
                }
                SeriesItem::Range(low, high) => {
                    let from = self.int(low)?;
                    let to = self.int(high)?;
                    if to < from {
                        continue;
                    }
                    let length = i128::from(to) - i128::from(from) + 1;
                    let room = self.limits.max_series_len.saturating_sub(elements.len());
                    if length > room as i128 {
                        return Err(series_too_long(span, self.limits));
                    }
                    for value in from..=to {
                        let mut element = Item::new(value, flag::NUMBER);
                        element.origin = origin;
                        elements.push(element);
                    }
                }
            }
            if elements.len() > self.limits.max_series_len {
                return Err(series_too_long(span, self.limits));
            }
        }
        let start = self.story.items.len();
        self.push_items(&elements, span)?;
        self.fill_pool(series.slot, start, None, 0, span);
        self.pool_modifiers(series.slot, &series.mods)?;
        Ok(Val::Pool(series.slot))
    }

    /// Rolls a dice term; returns its slot and its value.
    fn dice(&mut self, dice: &Dice, span: Span) -> Result<(Slot, i64)> {
        let count = match &dice.count {
            None => 1,
            Some(arg) => {
                let count = self.arg(arg)?;
                check_count(count, arg.span())?;
                count
            }
        };
        let draw = match &dice.sides {
            Sides::Percent => Draw::Range(Uniform::new(1, 100)),
            Sides::Fate => Draw::Range(Uniform::new(-1, 1)),
            Sides::FateOne => Draw::FateOne,
            Sides::Count(arg) => {
                let sides = self.arg(arg)?;
                check_sides(sides, arg.span(), self.limits)?;
                Draw::Range(Uniform::new(1, sides))
            }
            Sides::Faces(node) => {
                let faces_span = node.span;
                let Val::Pool(slot) = self.eval(node)? else {
                    return Err(Error::new(
                        ErrorKind::BadFaces,
                        faces_span.range(),
                        Reason::new(ReasonId::ExpectedFaces),
                    ));
                };
                self.faces.clear();
                if let Some(pool) = self.story.pool(slot) {
                    let items = self.story.pool_items(pool);
                    self.faces.extend(items.iter().map(|item| item.value));
                }
                if self.faces.is_empty() {
                    return Err(Error::new(
                        ErrorKind::BadFaces,
                        faces_span.range(),
                        Reason::new(ReasonId::EmptySeries),
                    ));
                }
                if self.faces.len() as u64 > self.limits.max_faces.max(0) as u64 {
                    return Err(too_many_faces(faces_span, self.limits));
                }
                Draw::Custom
            }
        };
        let faces = match draw {
            Draw::Range(uniform) => (uniform.low, uniform.high()),
            Draw::FateOne => (-1, 1),
            Draw::Custom => (
                self.faces.first().copied().unwrap_or(0),
                self.faces.last().copied().unwrap_or(0),
            ),
        };
        let count = usize::try_from(count).unwrap_or(0);
        if count > self.limits.max_dice.saturating_sub(self.dice_rolled) {
            return Err(too_many_dice(span, self.limits));
        }
        self.room_for(count, span)?;
        let start = self.story.items.len();
        let per_die = dice
            .mods
            .iter()
            .any(|modifier| acts_per_die(&modifier.kind));
        let plain_sum = match draw {
            // The common term (`4d6kh3`, `100d6`): no rules to evaluate,
            // no custom faces to lend out.
            Draw::Range(uniform) if !per_die => {
                self.dice_rolled += count;
                Some(roll_range(self.rng, uniform, count, &mut self.story.items))
            }
            _ => {
                let custom = std::mem::take(&mut self.faces);
                let rolled = if per_die {
                    self.roll_modified_dice(count, draw, &custom, faces, &dice.mods, span)
                        .map(|()| None)
                } else {
                    Ok(Some(self.roll_plain_dice(count, draw, &custom)))
                };
                self.faces = custom;
                rolled?
            }
        };
        let plain_value = match plain_sum {
            Some(sum) => self.plain_value(start, sum, &dice.mods),
            None => None,
        };
        if let Some(value) = plain_value {
            let value = i64::try_from(value).map_err(|_| overflow(span))?;
            self.fill_pool(dice.slot, start, Some(faces), value, span);
            return Ok((dice.slot, value));
        }
        self.fill_pool(dice.slot, start, Some(faces), 0, span);
        self.pool_modifiers(dice.slot, &dice.mods)?;
        Ok((dice.slot, self.pool_value(dice.slot)))
    }

    /// The value of a plain dice term whose dice start at `start` and sum
    /// to `sum`, for the commonest terms: no modifiers (`8d6`), or one keep
    /// of the highest or lowest with a literal count (`4d6kh3`, `2d20kl1`).
    /// `None` leaves the term to `pool_modifiers`. It spares those terms the
    /// general walk: looking up the pool, evaluating the modifiers' arguments
    /// and summing the dice again in `settle`.
    fn plain_value(&mut self, start: usize, sum: i128, mods: &[Modifier]) -> Option<i128> {
        let [modifier] = mods else {
            return mods.is_empty().then_some(sum);
        };
        let ModKind::Keep { which, n } = &modifier.kind else {
            return None;
        };
        let highest = match which {
            KeepWhich::Highest => true,
            KeepWhich::Lowest => false,
            KeepWhich::Even | KeepWhich::Odd => return None,
        };
        let n = match n {
            None => 1,
            Some(Arg::Lit(n, _)) => *n,
            Some(Arg::Expr(_)) => return None,
        };
        let items = self.story.items.get_mut(start..)?;
        keep_fresh(items, highest, n, sum)
    }

    /// Rolls the dice of a term with die modifiers (explosions, rerolls,
    /// clamps, `u`, `rol1`).
    fn roll_modified_dice(
        &mut self,
        count: usize,
        draw: Draw,
        custom: &[i64],
        faces: (i64, i64),
        mods: &[Modifier],
        span: Span,
    ) -> Result<()> {
        let rules = self.die_rules(mods)?;
        // Explosions may add more: a little headroom spares them a regrowth
        // of the table in most rolls.
        let headroom = if rules.explode.is_some() {
            count / 4 + 1
        } else {
            0
        };
        self.story.items.reserve(count + headroom);
        let term = DiceTerm {
            start: self.story.items.len(),
            draw,
            custom,
            faces,
            rules: &rules,
            span,
        };
        self.roll_dice(count, &term)?;
        if let Some(rare) = &rules.rare {
            for &(mode, highest, n) in &rare.ranks {
                self.rank_reroll(&term, mode, highest, n)?;
            }
        }
        Ok(())
    }

    /// The hot path: dice with no story beyond their value, the draw decided
    /// once for the term rather than per die. Returns the dice's sum (wide:
    /// it cannot overflow). The caller has checked `Limits::max_dice` and
    /// `Limits::max_elements` for `count`.
    #[inline]
    fn roll_plain_dice(&mut self, count: usize, draw: Draw, custom: &[i64]) -> i128 {
        self.dice_rolled += count;
        if let Draw::Range(uniform) = draw {
            return roll_range(self.rng, uniform, count, &mut self.story.items);
        }
        let mut sum: i128 = 0;
        let rng = &mut *self.rng;
        self.story.items.extend((0..count).map(|_| {
            let value = draw_one(rng, draw, custom);
            sum += i128::from(value);
            Item::new(value, 0)
        }));
        sum
    }

    fn die_rules(&mut self, mods: &[Modifier]) -> Result<DieRules> {
        let mut rules = DieRules::default();
        for modifier in mods {
            match &modifier.kind {
                ModKind::Explode { mode, cond } => {
                    let test = match cond {
                        Some(filter) => self.test(filter)?,
                        None => Test::High,
                    };
                    rules.explode = Some((*mode, test));
                }
                ModKind::Reroll { once, cond } => {
                    let test = match cond {
                        Some(filter) => self.test(filter)?,
                        None => Test::Low,
                    };
                    rules.reroll = Some((*once, test));
                }
                ModKind::Clamp { at_least, n } => {
                    let bound = self.arg(n)?;
                    rules.clamps.push((*at_least, bound));
                }
                ModKind::Unique { once, cond } => {
                    let test = match cond {
                        Some(filter) => Some(self.test(filter)?),
                        None => None,
                    };
                    rules.rare.get_or_insert_default().unique = Some((*once, test));
                }
                ModKind::RerollRank { mode, highest, n } => {
                    let rare = rules.rare.get_or_insert_default();
                    rare.ranks.push((*mode, *highest, *n));
                }
                _ => {}
            }
        }
        Ok(rules)
    }

    /// Avrae's `rol1` / `ral1` / `eh1` on a term whose dice are all rolled:
    /// the `n` lowest (highest) are rerolled once, or each adds a die; an
    /// explosion selects again among all the dice and goes on while it
    /// selects dice that have not exploded (at most
    /// `Limits::max_explosions_per_die` rounds).
    fn rank_reroll(
        &mut self,
        term: &DiceTerm<'_>,
        mode: RankMode,
        highest: bool,
        n: i64,
    ) -> Result<()> {
        let n = usize::try_from(n).unwrap_or(0);
        let mut rounds = 0;
        loop {
            let mut candidates: SmallVec<[(i64, u32); 8]> = self.story.items[term.start..]
                .iter()
                .zip(term.start as u32..)
                .map(|(item, index)| (item.value, index))
                .collect();
            sort_by_value(&mut candidates, highest);
            candidates.truncate(n);
            if mode == RankMode::Explode {
                let items = &self.story.items;
                candidates.retain(|(_, index)| !items[*index as usize].has(flag::EXPLODED));
                if candidates.is_empty() {
                    return Ok(());
                }
                if rounds >= self.limits.max_explosions_per_die {
                    for &(_, index) in &candidates {
                        self.story.items[index as usize].flags |= flag::CAPPED;
                    }
                    return Ok(());
                }
                rounds += 1;
            }
            self.rank_selected(term, mode, &candidates)?;
            if mode != RankMode::Explode {
                return Ok(());
            }
        }
    }

    fn rank_selected(
        &mut self,
        term: &DiceTerm<'_>,
        mode: RankMode,
        selected: &[(i64, u32)],
    ) -> Result<()> {
        for &(old, index) in selected {
            let index = index as usize;
            if mode != RankMode::Reroll {
                self.story.items[index].flags |= flag::EXPLODED;
                let hist_start = self.story.history.len();
                let (raw, mut flags) = self.physical_roll(term)?;
                flags |= flag::FROM_EXPLOSION;
                let value = self.clamp(raw, term.rules, &mut flags);
                self.push_die(value, flags, hist_start, term.span)?;
                continue;
            }
            // The die keeps its story and adds the reroll to it.
            let item = self.story.items[index];
            let hist_start = self.story.history.len();
            let earlier = self.story.history(&item).to_vec();
            self.story.history.extend(earlier);
            self.story.history.push(Hist::Rerolled(old));
            let (raw, mut flags) = self.physical_roll(term)?;
            let value = self.clamp(raw, term.rules, &mut flags);
            let item = &mut self.story.items[index];
            item.value = value;
            item.flags |= flags | flag::REROLLED;
            item.hist_start = hist_start as u32;
            item.hist_len =
                u16::try_from(self.story.history.len() - hist_start).unwrap_or(u16::MAX);
        }
        Ok(())
    }

    fn roll_dice(&mut self, count: usize, term: &DiceTerm<'_>) -> Result<()> {
        let rules = term.rules;
        let plain = rules.explode.is_none()
            && rules.reroll.is_none()
            && rules.clamps.is_empty()
            && rules.rare.as_ref().is_none_or(|rare| rare.unique.is_none());
        if plain {
            self.roll_plain_dice(count, term.draw, term.custom);
            return Ok(());
        }
        for _ in 0..count {
            self.roll_die(term)?;
        }
        Ok(())
    }

    /// One die of a term with die modifiers, plus any dice its explosions add.
    fn roll_die(&mut self, term: &DiceTerm<'_>) -> Result<()> {
        let (rules, span) = (term.rules, term.span);
        let hist_start = self.story.history.len();
        let (raw, mut flags) = self.physical_roll(term)?;
        let Some((mode, test)) = &rules.explode else {
            let value = self.clamp(raw, rules, &mut flags);
            return self.push_die(value, flags, hist_start, span);
        };
        let max_explosions = self.limits.max_explosions_per_die;
        if matches!(mode, ExplodeMode::Compound | ExplodeMode::CompoundPenetrate) {
            let mut total = self.clamp(raw, rules, &mut flags);
            self.story.history.push(Hist::Part(total));
            let mut last_raw = raw;
            let mut explosions = 0;
            while test.matches(last_raw, Some(term.faces)) {
                flags |= flag::EXPLODED | flag::COMPOUNDED;
                if explosions >= max_explosions {
                    flags |= flag::CAPPED;
                    break;
                }
                explosions += 1;
                let (next_raw, next_flags) = self.physical_roll(term)?;
                flags |= next_flags;
                let mut part = next_raw;
                if *mode == ExplodeMode::CompoundPenetrate {
                    flags |= flag::PENETRATED;
                    part = part.checked_sub(1).ok_or_else(|| overflow(span))?;
                }
                let part = self.clamp(part, rules, &mut flags);
                self.story.history.push(Hist::Part(part));
                total = total.checked_add(part).ok_or_else(|| overflow(span))?;
                last_raw = next_raw;
            }
            if flags & flag::COMPOUNDED == 0 {
                // Nothing compounded: the story is the plain value.
                self.story.history.pop();
            }
            return self.push_die(total, flags, hist_start, span);
        }
        let value = self.clamp(raw, rules, &mut flags);
        self.push_die(value, flags, hist_start, span)?;
        let mut last_raw = raw;
        let mut explosions = 0;
        while test.matches(last_raw, Some(term.faces)) {
            let last = self.story.items.len() - 1;
            if *mode == ExplodeMode::Once && explosions == 1 {
                break;
            }
            self.story.items[last].flags |= flag::EXPLODED;
            if explosions >= max_explosions {
                self.story.items[last].flags |= flag::CAPPED;
                break;
            }
            explosions += 1;
            let hist_start = self.story.history.len();
            let (next_raw, mut next_flags) = self.physical_roll(term)?;
            next_flags |= flag::FROM_EXPLOSION;
            let mut value = next_raw;
            if *mode == ExplodeMode::Penetrate {
                next_flags |= flag::PENETRATED;
                value = value.checked_sub(1).ok_or_else(|| overflow(span))?;
            }
            let value = self.clamp(value, rules, &mut next_flags);
            self.push_die(value, next_flags, hist_start, span)?;
            last_raw = next_raw;
        }
        Ok(())
    }

    /// Draws a die and applies its rerolls; returns the face and flags.
    #[inline(always)]
    fn physical_roll(&mut self, term: &DiceTerm<'_>) -> Result<(i64, u16)> {
        self.count_die(term.span)?;
        let mut raw = draw_one(self.rng, term.draw, term.custom);
        let mut flags = 0;
        if term.rules.reroll.is_none() && term.rules.rare.is_none() {
            // Exploding or clamped dice without rerolls: nothing more to draw.
            return Ok((raw, flags));
        }
        if let Some((once, test)) = &term.rules.reroll {
            let mut rerolls = 0;
            while test.matches(raw, Some(term.faces)) {
                if *once && rerolls == 1 {
                    break;
                }
                let Some(next) = self.reroll(term, raw, &mut flags, &mut rerolls)? else {
                    break;
                };
                raw = next;
            }
        }
        if let Some((once, test)) = term
            .rules
            .rare
            .as_ref()
            .and_then(|rare| rare.unique.as_ref())
        {
            let mut rerolls = 0;
            while self.story.items[term.start..]
                .iter()
                .any(|item| item.value == raw)
                && test
                    .as_ref()
                    .is_none_or(|test| test.matches(raw, Some(term.faces)))
            {
                if *once && rerolls == 1 {
                    break;
                }
                let Some(next) = self.reroll(term, raw, &mut flags, &mut rerolls)? else {
                    break;
                };
                raw = next;
            }
        }
        Ok((raw, flags))
    }

    /// One more draw for a die that rerolls; `None` at the cap, where the
    /// die keeps `raw` and is marked.
    #[inline]
    fn reroll(
        &mut self,
        term: &DiceTerm<'_>,
        raw: i64,
        flags: &mut u16,
        rerolls: &mut u32,
    ) -> Result<Option<i64>> {
        if *rerolls >= self.limits.max_rerolls_per_die {
            *flags |= flag::CAPPED;
            return Ok(None);
        }
        *rerolls += 1;
        *flags |= flag::REROLLED;
        self.story.history.push(Hist::Rerolled(raw));
        self.count_die(term.span)?;
        Ok(Some(draw_one(self.rng, term.draw, term.custom)))
    }

    #[inline]
    fn clamp(&mut self, value: i64, rules: &DieRules, flags: &mut u16) -> i64 {
        let mut clamped = value;
        for &(at_least, bound) in &rules.clamps {
            clamped = if at_least {
                clamped.max(bound)
            } else {
                clamped.min(bound)
            };
        }
        if clamped != value {
            *flags |= flag::CLAMPED;
            self.story.history.push(Hist::Clamped(value));
        }
        clamped
    }

    #[inline]
    fn count_die(&mut self, span: Span) -> Result<()> {
        self.dice_rolled += 1;
        if self.dice_rolled > self.limits.max_dice {
            return Err(too_many_dice(span, self.limits));
        }
        Ok(())
    }

    #[inline(always)]
    fn push_die(&mut self, value: i64, flags: u16, hist_start: usize, span: Span) -> Result<()> {
        self.room_for(1, span)?;
        let mut item = Item::new(value, flags);
        let hist_len = self.story.history.len() - hist_start;
        if hist_len > 0 {
            item.hist_start = hist_start as u32;
            item.hist_len = u16::try_from(hist_len).unwrap_or(u16::MAX);
        }
        self.story.items.push(item);
        Ok(())
    }

    // -------------------------------------------------- pool modifiers

    fn pool_modifiers(&mut self, slot: Slot, mods: &[Modifier]) -> Result<()> {
        for modifier in mods {
            match &modifier.kind {
                ModKind::Keep { which, n } => {
                    let n = match n {
                        Some(arg) => Some(self.arg(arg)?),
                        None => None,
                    };
                    self.keep(slot, *which, n);
                }
                ModKind::Drop { highest, n } => {
                    let n = match n {
                        Some(arg) => self.arg(arg)?,
                        None => 1,
                    };
                    self.drop_dice(slot, *highest, n);
                }
                ModKind::Select { keep, op, n } => {
                    let target = self.arg(n)?;
                    self.select(slot, *keep, *op, target);
                }
                ModKind::Count {
                    kind,
                    filters,
                    elements,
                } => {
                    let mut tests: SmallVec<[Test; 2]> = SmallVec::new();
                    for filter in filters {
                        tests.push(self.test(filter)?);
                    }
                    if tests.is_empty() {
                        tests.push(Test::High);
                    }
                    self.count(slot, *kind, &tests, *elements, modifier.span)?;
                }
                ModKind::Sort { descending } => {
                    if let Some(pool) = self.story.pools.get_mut(slot as usize) {
                        pool.order = if *descending { 2 } else { 1 };
                    }
                }
                ModKind::Explode { .. }
                | ModKind::Reroll { .. }
                | ModKind::Clamp { .. }
                | ModKind::Unique { .. }
                | ModKind::RerollRank { .. } => {}
            }
        }
        self.settle(slot)
    }

    fn test(&mut self, filter: &Filter) -> Result<Test> {
        Ok(match filter {
            Filter::High => Test::High,
            Filter::Low => Test::Low,
            Filter::Odd => Test::Odd,
            Filter::Even => Test::Even,
            Filter::Cmp(op, arg) => Test::Cmp(*op, self.arg(arg)?),
            Filter::Any(alternatives) => {
                let mut tests = Vec::with_capacity(alternatives.len());
                for all in alternatives {
                    let mut conjunction = Vec::with_capacity(all.len());
                    for filter in all {
                        conjunction.push(self.test(filter)?);
                    }
                    tests.push(conjunction);
                }
                Test::Any(tests)
            }
        })
    }

    /// Values and indices (into the item table) of the kept items of a pool.
    fn kept(&self, slot: Slot) -> SmallVec<[(i64, u32); 8]> {
        let mut kept = SmallVec::new();
        let Some(pool) = self.story.pool(slot) else {
            return kept;
        };
        // A plain loop: `filter`/`collect` into a SmallVec cost several
        // times as much for a handful of dice.
        for (item, index) in self.story.pool_items(pool).iter().zip(pool.start..) {
            if item.kept() {
                kept.push((item.value, index));
            }
        }
        kept
    }

    fn keep(&mut self, slot: Slot, which: KeepWhich, n: Option<i64>) {
        if let KeepWhich::Highest | KeepWhich::Lowest = which {
            let highest = which == KeepWhich::Highest;
            let n = n.unwrap_or(1);
            if let Some(pool) = self.story.pool(slot) {
                let (start, len) = (pool.start as usize, pool.len as usize);
                if let Some(items) = self.story.items.get_mut(start..start + len)
                    && keep_by_selection(items, highest, n, false)
                {
                    return;
                }
            }
        }
        let mut candidates = self.kept(slot);
        let items = &mut self.story.items;
        match which {
            KeepWhich::Even | KeepWhich::Odd => {
                let want_odd = which == KeepWhich::Odd;
                candidates.retain(|&mut (value, index)| {
                    let matches = (value % 2 != 0) == want_odd;
                    if !matches {
                        items[index as usize].flags |= flag::DROPPED;
                    }
                    matches
                });
                let Some(n) = n else { return };
                sort_by_value(&mut candidates, true);
                drop_after(&candidates, n, items);
            }
            KeepWhich::Highest | KeepWhich::Lowest => {
                sort_by_value(&mut candidates, which == KeepWhich::Highest);
                drop_after(&candidates, n.unwrap_or(1), items);
            }
        }
    }

    /// `k>3` drops the kept items that fail the comparison, `p>3` those
    /// that pass it.
    fn select(&mut self, slot: Slot, keep: bool, op: CmpOp, target: i64) {
        for (value, index) in self.kept(slot) {
            if op.test(value, target) != keep {
                self.story.items[index as usize].flags |= flag::DROPPED;
            }
        }
    }

    fn drop_dice(&mut self, slot: Slot, highest: bool, n: i64) {
        let mut candidates = self.kept(slot);
        sort_by_value(&mut candidates, highest);
        let n = usize::try_from(n).unwrap_or(0);
        for &(_, index) in candidates.iter().take(n) {
            self.story.items[index as usize].flags |= flag::DROPPED;
        }
    }

    fn count(
        &mut self,
        slot: Slot,
        kind: CountKind,
        tests: &[Test],
        elements: bool,
        span: Span,
    ) -> Result<()> {
        let mut total: i64 = 0;
        for test in tests {
            total = total
                .checked_add(self.count_in(slot, kind, test, elements, 0))
                .ok_or_else(|| overflow(span))?;
        }
        let delta = total
            .checked_mul(kind.weight())
            .ok_or_else(|| overflow(span))?;
        if let Some(pool) = self.story.pools.get_mut(slot as usize) {
            pool.counted = true;
            pool.count = pool
                .count
                .checked_add(delta)
                .ok_or_else(|| overflow(span))?;
        }
        Ok(())
    }

    /// Matches of `test` among the kept items of a pool, marking each match
    /// on the item. Nested pools are recursed into, unless `elements` asks
    /// for the elements' own values (a success comparison after a series).
    fn count_in(
        &mut self,
        slot: Slot,
        kind: CountKind,
        test: &Test,
        elements: bool,
        depth: usize,
    ) -> i64 {
        let Some(pool) = self.story.pool(slot).copied() else {
            return 0;
        };
        let mut matches = 0;
        for index in pool.start..pool.start + pool.len {
            let item = self.story.items[index as usize];
            if !item.kept() {
                continue;
            }
            if item.has(flag::NESTED) && !elements {
                // Nested pools come from nested syntax, so this recursion is
                // bounded by the nesting depth; the guard keeps it so.
                if depth < 256 && item.link != slot {
                    matches += self.count_in(item.link, kind, test, elements, depth + 1);
                }
                continue;
            }
            let faces = if item.has(flag::NUMBER | flag::NESTED) {
                None
            } else {
                pool.faces
            };
            if !test.matches(item.value, faces) {
                continue;
            }
            matches += 1;
            let item = &mut self.story.items[index as usize];
            if kind.marks_failure() {
                item.failures = item.failures.saturating_add(1);
            } else {
                item.successes = item.successes.saturating_add(1);
            }
        }
        matches
    }

    /// Computes a pool's value after its modifiers.
    fn settle(&mut self, slot: Slot) -> Result<()> {
        let Some(pool) = self.story.pool(slot).copied() else {
            return Ok(());
        };
        let value = if pool.counted {
            pool.count
        } else {
            let mut sum: i64 = 0;
            for item in self.story.pool_items(&pool) {
                if item.kept() {
                    sum = sum
                        .checked_add(item.value)
                        .ok_or_else(|| overflow(pool.span))?;
                }
            }
            sum
        };
        if let Some(pool) = self.story.pools.get_mut(slot as usize) {
            pool.value = value;
        }
        Ok(())
    }
}

/// Die modifiers act while each die is rolled (`die_rules`); the others
/// act on the rolled pool (`pool_modifiers`).
fn acts_per_die(kind: &ModKind) -> bool {
    matches!(
        kind,
        ModKind::Explode { .. }
            | ModKind::Reroll { .. }
            | ModKind::Clamp { .. }
            | ModKind::Unique { .. }
            | ModKind::RerollRank { .. }
    )
}

#[inline(always)]
fn draw_one<R: Rng + ?Sized>(rng: &mut R, draw: Draw, custom: &[i64]) -> i64 {
    match draw {
        Draw::Range(uniform) => uniform.sample(rng),
        Draw::Custom => {
            let index = rng.random_range(0..custom.len().max(1));
            custom.get(index).copied().unwrap_or(0)
        }
        Draw::FateOne => match rng.random_range(1..=6) {
            1 => -1,
            6 => 1,
            _ => 0,
        },
    }
}

fn first_arg(args: &[Node], span: Span) -> Result<&Node> {
    args.first().ok_or_else(|| missing_argument(span))
}

pub(crate) fn apply(op: BinOp, left: i64, right: i64, span: Span) -> Result<i64> {
    let result = match op {
        BinOp::Add => left.checked_add(right),
        BinOp::Sub => left.checked_sub(right),
        BinOp::Mul => left.checked_mul(right),
        BinOp::Div | BinOp::FloorDiv | BinOp::Rem if right == 0 => {
            return Err(division_by_zero(span));
        }
        // Rust's `/` and `%` truncate toward zero, as the seed asks.
        BinOp::Div => left.checked_div(right),
        BinOp::FloorDiv => left.checked_div(right).map(|quotient| {
            let inexact = quotient.wrapping_mul(right) != left;
            quotient - i64::from(inexact && (left < 0) != (right < 0))
        }),
        BinOp::Rem => left.checked_rem(right),
        BinOp::Pow => return power(left, right, span),
        BinOp::Cmp(cmp) => Some(i64::from(cmp.test(left, right))),
    };
    result.ok_or_else(|| overflow(span))
}

/// `base ^ exponent` in integers: a negative exponent gives `1 / base^n`
/// truncated toward zero, like `/` (0 unless the base is 1 or -1).
fn power(base: i64, exponent: i64, span: Span) -> Result<i64> {
    if exponent < 0 {
        return match base {
            0 => Err(division_by_zero(span)),
            1 => Ok(1),
            -1 => Ok(if exponent % 2 == 0 { 1 } else { -1 }),
            _ => Ok(0),
        };
    }
    match base {
        0 => return Ok(i64::from(exponent == 0)),
        1 => return Ok(1),
        -1 => return Ok(if exponent % 2 == 0 { 1 } else { -1 }),
        _ => {}
    }
    u32::try_from(exponent)
        .ok()
        .and_then(|exponent| base.checked_pow(exponent))
        .ok_or_else(|| overflow(span))
}

/// The one-argument functions on integers: `abs`, `sign`, and `sqrt`, `exp`,
/// `log` (natural) rounded to the nearest integer, halves away from zero.
pub(crate) fn call_one(func: Func, value: i64, span: Span) -> Result<i64> {
    let outside = |form: ReasonId| {
        let reason = Reason::new(form)
            .with("func", func.name())
            .with("value", value);
        Error::new(ErrorKind::Invalid, span.range(), reason)
    };
    match func {
        Func::Abs => value.checked_abs().ok_or_else(|| overflow(span)),
        Func::Sign => Ok(value.signum()),
        Func::Sqrt => {
            let Ok(value) = u64::try_from(value) else {
                return Err(outside(ReasonId::SqrtNegative));
            };
            let root = value.isqrt();
            // The nearest integer: above `root + 1/2` exactly when
            // value > root^2 + root.
            Ok((root + u64::from(value - root * root > root)) as i64)
        }
        Func::Log => {
            if value < 1 {
                return Err(outside(ReasonId::LogSmall));
            }
            Ok((value as f64).ln().round() as i64)
        }
        Func::Exp => {
            let result = (value as f64).exp().round();
            if result >= 9.2e18 {
                return Err(overflow(span));
            }
            Ok(result as i64)
        }
        _ => Ok(value),
    }
}

/// A negative number of dice is a mistake to show, not an empty roll.
#[inline]
pub(crate) fn check_count(count: i64, span: Span) -> Result<()> {
    if count >= 0 {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::Invalid,
        span.range(),
        Reason::new(ReasonId::NegativeCount).with("count", count),
    ))
}

/// The argument a function call lacks (the parser lets none through).
pub(crate) fn missing_argument(span: Span) -> Error {
    Error::new(
        ErrorKind::Invalid,
        span.range(),
        Reason::new(ReasonId::MissingArgument),
    )
}

/// A `$macro` or `@FIELD` (`node`, named `name`) left in an expression being
/// rolled.
pub(crate) fn unresolved(source: &str, node: &Node, name: Span) -> Error {
    let form = match node.kind {
        NodeKind::Field(_) => ReasonId::UnresolvedField,
        _ => ReasonId::UnresolvedMacro,
    };
    let reason = Reason::new(form).with("name", name.text(source));
    Error::new(ErrorKind::Unresolved, node.span.range(), reason)
}

#[cold]
pub(crate) fn overflow(span: Span) -> Error {
    Error::new(
        ErrorKind::Overflow,
        span.range(),
        Reason::new(ReasonId::Overflow),
    )
}

pub(crate) fn division_by_zero(span: Span) -> Error {
    Error::new(
        ErrorKind::DivisionByZero,
        span.range(),
        Reason::new(ReasonId::DivisionByZero),
    )
}

#[cold]
pub(crate) fn too_many_dice(span: Span, limits: &Limits) -> Error {
    Error::new(
        ErrorKind::TooManyDice,
        span.range(),
        Reason::new(ReasonId::TooManyDice).with("max", limits.max_dice),
    )
}

/// A die of `NdM` or `d(e)` needs between one and `max_faces` faces.
#[inline]
pub(crate) fn check_sides(sides: i64, span: Span, limits: &Limits) -> Result<()> {
    if sides < 1 {
        return Err(Error::new(
            ErrorKind::BadFaces,
            span.range(),
            Reason::new(ReasonId::NoFaces).with("sides", sides),
        ));
    }
    if sides > limits.max_faces {
        return Err(too_many_faces(span, limits));
    }
    Ok(())
}

pub(crate) fn too_many_faces(span: Span, limits: &Limits) -> Error {
    Error::new(
        ErrorKind::BadFaces,
        span.range(),
        Reason::new(ReasonId::TooManyFaces).with("max", limits.max_faces),
    )
}

pub(crate) fn series_too_long(span: Span, limits: &Limits) -> Error {
    Error::new(
        ErrorKind::TooManyElements,
        span.range(),
        Reason::new(ReasonId::SeriesTooLong).with("max", limits.max_series_len),
    )
}

/// An exact fraction with a positive denominator, in lowest terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Ratio {
    num: i64,
    den: i64,
}

impl Ratio {
    pub(crate) fn int(value: i64) -> Ratio {
        Ratio { num: value, den: 1 }
    }

    fn from_wide(num: i128, den: i128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let sign = if den < 0 { -1 } else { 1 };
        let divisor = gcd(num.unsigned_abs(), den.unsigned_abs()).max(1) as i128;
        let num = i64::try_from(sign * num / divisor).ok()?;
        let den = i64::try_from(sign * den / divisor).ok()?;
        Some(Ratio { num, den })
    }

    pub(crate) fn neg(self) -> Option<Ratio> {
        Some(Ratio {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    pub(crate) fn abs(self) -> Option<Ratio> {
        Some(Ratio {
            num: self.num.checked_abs()?,
            den: self.den,
        })
    }

    fn cmp_key(self, other: Ratio) -> std::cmp::Ordering {
        (i128::from(self.num) * i128::from(other.den))
            .cmp(&(i128::from(other.num) * i128::from(self.den)))
    }

    pub(crate) fn min(self, other: Ratio) -> Ratio {
        if other.cmp_key(self).is_lt() {
            other
        } else {
            self
        }
    }

    pub(crate) fn max(self, other: Ratio) -> Ratio {
        if other.cmp_key(self).is_gt() {
            other
        } else {
            self
        }
    }

    pub(crate) fn apply(self, op: BinOp, other: Ratio) -> std::result::Result<Ratio, ErrorKind> {
        let (a, b, c, d) = (
            i128::from(self.num),
            i128::from(self.den),
            i128::from(other.num),
            i128::from(other.den),
        );
        let wide = |num: Option<i128>, den: Option<i128>| {
            num.zip(den)
                .and_then(|(num, den)| Ratio::from_wide(num, den))
                .ok_or(ErrorKind::Overflow)
        };
        match op {
            BinOp::Add => wide(
                a.checked_mul(d)
                    .zip(c.checked_mul(b))
                    .and_then(|(x, y)| x.checked_add(y)),
                b.checked_mul(d),
            ),
            BinOp::Sub => wide(
                a.checked_mul(d)
                    .zip(c.checked_mul(b))
                    .and_then(|(x, y)| x.checked_sub(y)),
                b.checked_mul(d),
            ),
            BinOp::Mul => wide(a.checked_mul(c), b.checked_mul(d)),
            BinOp::Div | BinOp::FloorDiv | BinOp::Rem if c == 0 => Err(ErrorKind::DivisionByZero),
            BinOp::Div => wide(a.checked_mul(d), b.checked_mul(c)),
            BinOp::FloorDiv => {
                let quotient = wide(a.checked_mul(d), b.checked_mul(c))?;
                Ok(Ratio::int(quotient.num.div_euclid(quotient.den)))
            }
            BinOp::Pow => {
                // The exponent's whole part (exact exponents are whole
                // unless written as a fraction inside round and friends).
                let exponent = other.num / other.den;
                let (num, den) = if exponent < 0 {
                    if self.num == 0 {
                        return Err(ErrorKind::DivisionByZero);
                    }
                    (self.den, self.num)
                } else {
                    (self.num, self.den)
                };
                let exponent =
                    u32::try_from(exponent.unsigned_abs()).map_err(|_| ErrorKind::Overflow)?;
                wide(
                    i128::from(num).checked_pow(exponent),
                    i128::from(den).checked_pow(exponent),
                )
            }
            BinOp::Rem => {
                // a/b - c/d * trunc((a/b) / (c/d)), the remainder with the
                // sign of the dividend, exactly.
                let quotient = wide(a.checked_mul(d), b.checked_mul(c))?;
                let whole = Ratio::int(quotient.num / quotient.den);
                let product = other.apply(BinOp::Mul, whole)?;
                self.apply(BinOp::Sub, product)
            }
            BinOp::Cmp(cmp) => {
                let ordering = self.cmp_key(other);
                let result = match cmp {
                    CmpOp::Eq => ordering.is_eq(),
                    CmpOp::Ne => ordering.is_ne(),
                    CmpOp::Lt => ordering.is_lt(),
                    CmpOp::Gt => ordering.is_gt(),
                    CmpOp::Le => ordering.is_le(),
                    CmpOp::Ge => ordering.is_ge(),
                };
                Ok(Ratio::int(i64::from(result)))
            }
        }
    }

    /// floor, ceil, or round (halves away from zero).
    pub(crate) fn to_int(self, func: Func) -> Option<i64> {
        let (num, den) = (self.num, self.den);
        let floor = num.div_euclid(den);
        let rem = num.rem_euclid(den);
        match func {
            Func::Floor => Some(floor),
            Func::Ceil => floor.checked_add(i64::from(rem != 0)),
            _ => {
                // Twice the fractional part against the denominator.
                let twice = i128::from(rem) * 2;
                let den = i128::from(den);
                let up = twice > den || (twice == den && num >= 0);
                floor.checked_add(i64::from(up))
            }
        }
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> std::cmp::Ordering {
        self.cmp_key(*other)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
