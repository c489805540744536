//! Pools: one die's explosion chain, sums of many dice, keep and drop by
//! order statistics, counts per die, and the general multiset fallback.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use num_bigint::BigUint;
use num_traits::{One, Zero};
use smallvec::SmallVec;

use super::dist::{self, Budget, Dist, Footprint, HEAP_BLOCK, Table};
use crate::ast::{CmpOp, CountKind, ExplodeMode, KeepWhich, Span};
use crate::error::Error;
use crate::eval::{Test, overflow};
use crate::reason::Phrase;

type Result<T> = std::result::Result<T, Error>;

/// A counted value and the faces it belongs to (`None` for numbers).
pub(crate) type Leaf = (i64, Option<(i64, i64)>);

/// One element of a pool, or the outcome of a whole pool: its value and the
/// dice (and numbers) a count would look at through it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Elem {
    pub value: i64,
    pub leaves: Vec<Leaf>,
}

impl Elem {
    pub fn number(value: i64) -> Elem {
        Elem {
            value,
            leaves: vec![(value, None)],
        }
    }

    pub fn bare(value: i64) -> Elem {
        Elem {
            value,
            leaves: Vec::new(),
        }
    }
}

impl Footprint for Elem {
    fn footprint(&self) -> u64 {
        let leaves = self.leaves.len() as u64 * std::mem::size_of::<Leaf>() as u64;
        let block = if self.leaves.is_empty() {
            0
        } else {
            HEAP_BLOCK
        };
        std::mem::size_of::<Elem>() as u64 + block + leaves
    }
}

/// A pool modifier with its arguments evaluated.
#[derive(Debug, Clone)]
pub(crate) enum PoolMod {
    Keep {
        which: KeepWhich,
        n: Option<i64>,
    },
    Drop {
        highest: bool,
        n: i64,
    },
    /// `k>3` (`keep`) or `p>3`: by each element's own value.
    Select {
        keep: bool,
        op: CmpOp,
        target: i64,
    },
    Count {
        kind: CountKind,
        tests: Vec<Test>,
        /// Test each element's own value, not the dice inside it (a success
        /// comparison after a series: `{4d6}>10`).
        elements: bool,
    },
}

/// A dice term with its count, faces and die modifiers evaluated.
pub(crate) struct Term {
    /// Faces after rerolls, with their weights over `total`.
    pub draws: Vec<(i64, BigUint)>,
    pub total: BigUint,
    pub faces: (i64, i64),
    pub explode: Option<(ExplodeMode, Test)>,
    pub clamps: SmallVec<[(bool, i64); 2]>,
    pub count: usize,
    pub max_explosions: u32,
    pub span: Span,
}

impl Term {
    /// The value a draw counts for: penetration, then the clamps in order.
    fn value_of(&self, raw: i64, extra: bool) -> Result<i64> {
        let penetrates = extra
            && matches!(
                self.explode,
                Some((ExplodeMode::Penetrate | ExplodeMode::CompoundPenetrate, _))
            );
        let mut value = if penetrates {
            raw.checked_sub(1).ok_or_else(|| overflow(self.span))?
        } else {
            raw
        };
        for &(at_least, bound) in &self.clamps {
            value = if at_least {
                value.max(bound)
            } else {
                value.min(bound)
            };
        }
        Ok(value)
    }

    fn explodes(&self, raw: i64) -> bool {
        self.explode
            .as_ref()
            .is_some_and(|(_, test)| test.matches(raw, Some(self.faces)))
    }

    /// How many explosion levels to follow and whether the last one is the
    /// roller's cap (everything stops there) or our cut (the rest is tail).
    /// The cut keeps the neglected mass of the whole pool below 1e-12.
    fn depth(&self) -> (u32, bool) {
        let Some((mode, _)) = &self.explode else {
            return (0, true);
        };
        let cap = if *mode == ExplodeMode::Once {
            self.max_explosions.min(1)
        } else {
            self.max_explosions
        };
        let matching: BigUint = self
            .draws
            .iter()
            .filter(|(raw, _)| self.explodes(*raw))
            .map(|(_, weight)| weight)
            .sum();
        if matching.is_zero() {
            return (0, true);
        }
        if matching == self.total {
            return (cap, true);
        }
        let p = ratio_f64(&matching, &self.total);
        let eps = 1e-12 / self.count.max(1) as f64;
        let levels = (eps.ln() / p.ln()).ceil().max(1.0);
        let cut = (levels as u64).saturating_sub(1);
        if cut >= u64::from(cap) {
            return (cap, true);
        }
        (cut as u32, false)
    }
}

pub(crate) fn ratio_f64(num: &BigUint, den: &BigUint) -> f64 {
    let shift = den.bits().saturating_sub(60);
    let num = (num >> shift).iter_u64_digits().next().unwrap_or(0) as f64;
    let den = (den >> shift).iter_u64_digits().next().unwrap_or(1) as f64;
    num / den
}

/// What one die brings to the pool, with its explosion chain folded by
/// `push` (a sum, a count, or a list of the elements it adds).
pub(crate) fn chain<K: Ord + Clone + Footprint>(
    term: &Term,
    start: K,
    budget: &mut Budget,
    mut push: impl FnMut(&K, i64) -> Result<K>,
) -> Result<Dist<K>> {
    let (depth, capped) = term.depth();
    if term.explode.is_none() {
        // A copy of the faces, with keys like `start`.
        let entry = start.footprint() + dist::weight_bytes(&term.total);
        let bytes = (term.draws.len() as u64).saturating_mul(entry);
        budget.allocate(bytes, term.span, Phrase::CauseFaces)?;
        return single_draw(term, &start, &mut push);
    }
    let cause = Phrase::CauseExplosions;
    let span = term.span;
    let deepest = term.total.pow(depth + 1);
    let mut result: Table<K> = Table::new(&deepest);
    let mut current: Vec<(K, BigUint)> = vec![(start, BigUint::one())];
    for level in 0..=depth {
        let size = term.total.pow(level + 1);
        if level > 0 {
            // Every chain ended so far is rescaled to this level's total.
            budget.spend_on(result.len() as u64, &size, span, cause)?;
            for weight in result.weights_mut() {
                *weight *= &term.total;
            }
        }
        let terminal = level == depth && capped;
        // Keys (lists of values, sums) grow by one value per level.
        let key_bytes = current.first().map_or(0, |(key, _)| key.footprint()) + 8;
        let pairs = (current.len() as u64).saturating_mul(term.draws.len() as u64);
        let table_len = pairs.saturating_add(result.len() as u64);
        budget.spend_on_entries(pairs, &size, key_bytes, table_len, span, cause)?;
        let mut next: Table<K> = Table::new(&deepest);
        for (key, weight) in &current {
            for (raw, draw_weight) in &term.draws {
                let continues = !terminal && term.explodes(*raw);
                if continues && level == depth {
                    // Cut: this mass is the reported tail.
                    continue;
                }
                let pushed = push(key, term.value_of(*raw, level > 0)?)?;
                let target = if continues { &mut next } else { &mut result };
                target.add(pushed, weight * draw_weight, budget, span, cause)?;
            }
        }
        current = next.into_entries().collect();
        if current.is_empty() {
            // Nothing explodes further; the levels not walked are implied.
            return Ok(result.into_dist(size));
        }
    }
    Ok(result.into_dist(deepest))
}

/// A die that does not explode: one value per face, usually in order.
fn single_draw<K: Ord + Clone>(
    term: &Term,
    start: &K,
    push: &mut impl FnMut(&K, i64) -> Result<K>,
) -> Result<Dist<K>> {
    let mut entries = Vec::with_capacity(term.draws.len());
    for (raw, weight) in &term.draws {
        entries.push((push(start, term.value_of(*raw, false)?)?, weight.clone()));
    }
    if !entries.windows(2).all(|pair| pair[0].0 < pair[1].0) {
        let mut map: BTreeMap<K, BigUint> = BTreeMap::new();
        for (key, weight) in entries {
            *map.entry(key).or_insert_with(BigUint::zero) += weight;
        }
        return Ok(Dist::from_map(map, term.total.clone()));
    }
    Ok(Dist {
        entries,
        total: term.total.clone(),
    })
}

/// Drops the keeps and drops written after the last count: a counted pool's
/// value is its count, which they no longer change.
pub(crate) fn effective(mods: &[PoolMod]) -> &[PoolMod] {
    let last_count = mods
        .iter()
        .rposition(|m| matches!(m, PoolMod::Count { .. }));
    match last_count {
        Some(index) => &mods[..=index],
        None => mods,
    }
}

fn counted(mods: &[PoolMod]) -> bool {
    mods.iter().any(|m| matches!(m, PoolMod::Count { .. }))
}

/// How many tests of a count a value matches, times the count's sign.
fn count_weight(kind: CountKind, tests: &[Test], leaf: Leaf, span: Span) -> Result<i64> {
    let matches = tests
        .iter()
        .filter(|test| test.matches(leaf.0, leaf.1))
        .count() as i64;
    matches
        .checked_mul(kind.weight())
        .ok_or_else(|| overflow(span))
}

/// The value of a dice pool by the fast algorithms, or `None` when only the
/// multiset fallback applies (keep even/odd, explosions with keep).
pub(crate) fn dice_value(
    term: &Term,
    mods: &[PoolMod],
    budget: &mut Budget,
) -> Result<Option<Dist<i64>>> {
    let mods = effective(mods);
    let span = term.span;
    let selects = mods
        .iter()
        .any(|m| matches!(m, PoolMod::Keep { .. } | PoolMod::Drop { .. }));
    let is_counted = counted(mods);
    let by_value = mods.iter().any(|m| matches!(m, PoolMod::Select { .. }));
    let faces = Some(term.faces);
    // What one element adds to the pool when every selection looks at the
    // element alone (no ranks): its count, or its value unless dropped.
    let per_element = |value: i64| -> Result<i64> {
        let mut total: i64 = 0;
        let mut kept = true;
        for m in mods {
            match m {
                PoolMod::Select { keep, op, target } if kept => {
                    kept = op.test(value, *target) == *keep;
                }
                PoolMod::Count { kind, tests, .. } if kept => {
                    let add = count_weight(*kind, tests, (value, faces), span)?;
                    total = total.checked_add(add).ok_or_else(|| overflow(span))?;
                }
                _ => {}
            }
        }
        Ok(match (is_counted, kept) {
            (true, _) => total,
            (false, true) => value,
            (false, false) => 0,
        })
    };
    let compound = matches!(
        term.explode,
        Some((ExplodeMode::Compound | ExplodeMode::CompoundPenetrate, _))
    );
    let sum = |total: &i64, value: i64| total.checked_add(value).ok_or_else(|| overflow(span));
    if !selects {
        let die = if !is_counted && !by_value {
            chain(term, 0, budget, sum)?
        } else if compound {
            chain(term, 0, budget, sum)?.map(|total| per_element(*total))?
        } else {
            chain(term, 0, budget, |total, value| {
                sum(total, per_element(value)?)
            })?
        };
        let pool = dist::sum_iid(&die, term.count, budget, span)?;
        return pool.map(Some).ok_or_else(|| overflow(span));
    }
    let one_element_per_die = term.explode.is_none() || compound;
    let by_rank = mods.iter().all(|m| match m {
        PoolMod::Keep { which, .. } => matches!(which, KeepWhich::Highest | KeepWhich::Lowest),
        PoolMod::Select { .. } => false,
        _ => true,
    });
    if !one_element_per_die {
        if by_rank && !is_counted {
            return exploded_keep(term, mods, budget);
        }
        return Ok(None);
    }
    if !by_rank {
        return Ok(None);
    }
    let die = chain(term, 0, budget, sum)?;
    let plan = RankPlan::new(mods, term.count);
    let contribution = |value: i64, rank: usize| -> Result<i64> {
        if !is_counted {
            return Ok(if plan.kept.contains(&rank) { value } else { 0 });
        }
        let mut total: i64 = 0;
        for (ranks, kind, tests) in &plan.counts {
            if ranks.contains(&rank) {
                let add = count_weight(*kind, tests, (value, faces), span)?;
                total = total.checked_add(add).ok_or_else(|| overflow(span))?;
            }
        }
        Ok(total)
    };
    let relevant = if is_counted {
        plan.counted_span()
    } else {
        plan.kept.clone()
    };
    order_statistics(&die, term.count, relevant, contribution, budget, span).map(Some)
}

/// Keep and drop after standard explosions, when the exploding faces all
/// count at least as high as the others (or all at most as high): without
/// this, every multiset of an exploded pool is listed, which is refused
/// for rolls as common as `6d10!kh3`.
///
/// Each die is a chain of exploding draws ended by one draw that does not
/// explode (or, at the roller's cap, by any draw; at our cut, the rest is
/// tail). So the pool is `t` dice over the exploding faces and `m` over the
/// others, with `(t, m)` from the chains alone; given `(t, m)` the two
/// groups are independent, and sorted they stand one above the other: the
/// kept ranks split into an order statistic of each group.
fn exploded_keep(term: &Term, mods: &[PoolMod], budget: &mut Budget) -> Result<Option<Dist<i64>>> {
    let span = term.span;
    // `xo` and `ra` are the same chains, capped at one level.
    if !matches!(
        term.explode,
        Some((ExplodeMode::Standard | ExplodeMode::Once, _))
    ) {
        return Ok(None);
    }
    let mut exploding = Vec::new();
    let mut stopping = Vec::new();
    for (raw, weight) in &term.draws {
        let value = term.value_of(*raw, false)?;
        if term.explodes(*raw) {
            exploding.push((value, weight.clone()));
        } else {
            stopping.push((value, weight.clone()));
        }
    }
    let (Some(explode_low), Some(explode_high)) = (
        exploding.iter().map(|(v, _)| *v).min(),
        exploding.iter().map(|(v, _)| *v).max(),
    ) else {
        return Ok(None);
    };
    // With every face exploding, the stopping group is empty: any order.
    let stop_low = stopping
        .iter()
        .map(|(v, _)| *v)
        .min()
        .unwrap_or(explode_high);
    let stop_high = stopping
        .iter()
        .map(|(v, _)| *v)
        .max()
        .unwrap_or(explode_low);
    let exploding_on_top = if explode_low >= stop_high {
        true
    } else if explode_high <= stop_low {
        false
    } else {
        return Ok(None);
    };
    let group = |mut draws: Vec<(i64, BigUint)>| -> Dist<i64> {
        let mut map: BTreeMap<i64, BigUint> = BTreeMap::new();
        for (value, weight) in draws.drain(..) {
            *map.entry(value).or_insert_with(BigUint::zero) += weight;
        }
        // Over the whole die's total: a group of `t` dice then weighs
        // `P(all of them in this group)` over `total^t`.
        Dist::from_map(map, term.total.clone())
    };
    let exploding = group(exploding);
    let stopping = group(stopping);
    let (depth, capped) = term.depth();
    let depth = depth as usize;
    // A chain is `j` exploding draws then a stopping one, or at the cap
    // `depth + 1` exploding draws. Over the chains' common denominator
    // `total^(depth + 1)`, a pool of `n` dice weighs its draws times
    // `total^(count·(depth + 1) - n)` for the levels not drawn: only the
    // number of ways to reach each `(t, m)` is left to count.
    let mut chain_shapes: Vec<(usize, usize)> = (0..=depth).map(|j| (j, 1)).collect();
    if capped {
        chain_shapes.push((depth + 1, 0));
    }
    let mut shapes: BTreeMap<(usize, usize), BigUint> = BTreeMap::new();
    shapes.insert((0, 0), BigUint::one());
    for _ in 0..term.count {
        let largest = shapes.values().max().cloned().unwrap_or_default();
        budget.spend_on(
            (shapes.len() as u64).saturating_mul(chain_shapes.len() as u64),
            &largest,
            span,
            Phrase::CauseExplosions,
        )?;
        let mut next: BTreeMap<(usize, usize), BigUint> = BTreeMap::new();
        for ((t, m), ways) in &shapes {
            for (dt, dm) in &chain_shapes {
                *next.entry((t + dt, m + dm)).or_insert_with(BigUint::zero) += ways;
            }
        }
        shapes = next;
    }
    let (top, bottom) = if exploding_on_top {
        (&exploding, &stopping)
    } else {
        (&stopping, &exploding)
    };
    let all_dice = term.count * (depth + 1);
    let overall = term.total.pow(all_dice as u32);
    // Different pool sizes often ask for the same order statistic.
    let mut known: HashMap<(bool, usize, usize, usize), Dist<i64>> = HashMap::new();
    let mut statistic = |upper: bool,
                         dice: usize,
                         ranks: std::ops::Range<usize>,
                         budget: &mut Budget|
     -> Result<Dist<i64>> {
        let key = (upper, dice, ranks.start, ranks.end);
        if let Some(found) = known.get(&key) {
            return Ok(found.clone());
        }
        let die = if upper { top } else { bottom };
        if let [(value, weight)] = die.entries.as_slice() {
            // One face (`!` explodes on the highest only): no ranks to sort.
            let sum = value
                .checked_mul(ranks.len() as i64)
                .ok_or_else(|| overflow(span))?;
            let found = Dist {
                entries: vec![(sum, weight.pow(dice as u32))],
                total: die.total.pow(dice as u32),
            };
            known.insert(key, found.clone());
            return Ok(found);
        }
        if ranks == (0..dice) {
            // Every die kept: a plain sum, without sorting.
            let found = dist::sum_iid(die, dice, budget, span)?.ok_or_else(|| overflow(span))?;
            known.insert(key, found.clone());
            return Ok(found);
        }
        let kept = ranks.clone();
        let contribution =
            move |value: i64, rank: usize| Ok(if kept.contains(&rank) { value } else { 0 });
        let found = order_statistics(die, dice, ranks, contribution, budget, span)?;
        known.insert(key, found.clone());
        Ok(found)
    };
    let mut result: Table<i64> = Table::new(&overall);
    for ((t, m), ways) in shapes {
        let n = t + m;
        let kept = RankPlan::new(mods, n).kept;
        let above = if exploding_on_top { t } else { m };
        // Every face explodes: only the chains the cap ended can happen.
        if (top.entries.is_empty() && above > 0) || (bottom.entries.is_empty() && n > above) {
            continue;
        }
        let top_ranks = kept.start.min(above)..kept.end.min(above);
        let bottom_ranks = kept.start.max(above) - above..kept.end.max(above) - above;
        let high = statistic(true, above, top_ranks, budget)?;
        let low = statistic(false, n - above, bottom_ranks, budget)?;
        let both = dist::add(&high, &low, budget, span)?.ok_or_else(|| overflow(span))?;
        let factor = ways * term.total.pow((all_dice - n) as u32);
        budget.spend_on(both.len() as u64, &overall, span, Phrase::CauseExplosions)?;
        for (sum, weight) in both.entries {
            let cause = Phrase::CauseExplosions;
            result.add(sum, weight * &factor, budget, span, cause)?;
        }
    }
    Ok(Some(result.into_dist(overall)))
}

/// Keeps and drops of a pool of `n` single dice as ranges of ranks (0 is the
/// highest die), and the ranks each count looked at.
struct RankPlan<'m> {
    kept: std::ops::Range<usize>,
    counts: Vec<(std::ops::Range<usize>, CountKind, &'m [Test])>,
}

impl<'m> RankPlan<'m> {
    fn new(mods: &'m [PoolMod], n: usize) -> RankPlan<'m> {
        let (mut low, mut high) = (0usize, n);
        let mut counts = Vec::new();
        let size = |k: i64| usize::try_from(k).unwrap_or(0);
        for m in mods {
            match m {
                PoolMod::Keep { which, n } => {
                    let k = size(n.unwrap_or(1)).min(high - low);
                    if *which == KeepWhich::Highest {
                        high = low + k;
                    } else {
                        low = high - k;
                    }
                }
                PoolMod::Drop { highest, n } => {
                    let k = size(*n).min(high - low);
                    if *highest {
                        low += k;
                    } else {
                        high -= k;
                    }
                }
                PoolMod::Count { kind, tests, .. } => {
                    counts.push((low..high, *kind, tests.as_slice()));
                }
                // A selection by value is not a range of ranks: `dice_value`
                // leaves such pools to the multiset path before planning.
                PoolMod::Select { .. } => {}
            }
        }
        RankPlan {
            kept: low..high,
            counts,
        }
    }

    fn counted_span(&self) -> std::ops::Range<usize> {
        let low = self.counts.iter().map(|c| c.0.start).min().unwrap_or(0);
        let high = self.counts.iter().map(|c| c.0.end).max().unwrap_or(0);
        low..high.max(low)
    }
}

/// The sum of `contribution(value, rank)` over `n` independent dice sorted
/// from highest (rank 0) to lowest, without enumerating rolls: outcomes are
/// visited one at a time, and each takes some of the dice left, weighted by
/// binomial counts. Only ranks in `relevant` may contribute; the sweep
/// starts from the nearer end and stops as soon as they are all placed.
/// Partial sums live in dense rows when their range is compact (nearly
/// always), with counts in machine words while `faces^n` fits; else in maps.
pub(crate) fn order_statistics(
    die: &Dist<i64>,
    n: usize,
    relevant: std::ops::Range<usize>,
    contribution: impl Fn(i64, usize) -> Result<i64>,
    budget: &mut Budget,
    span: Span,
) -> Result<Dist<i64>> {
    let total = die.total.pow(n as u32);
    let mass: BigUint = die.entries.iter().map(|(_, w)| w).sum();
    if relevant.is_empty() || die.entries.is_empty() {
        return Ok(Dist {
            entries: vec![(0, mass.pow(n as u32))],
            total,
        });
    }
    let descending = relevant.end <= n - relevant.start;
    let mut outcomes: Vec<(i64, &BigUint)> = die.entries.iter().map(|(v, w)| (*v, w)).collect();
    if descending {
        outcomes.reverse();
    }
    // Positions in sweep order that matter: 0..needed.
    let needed = if descending {
        relevant.end
    } else {
        n - relevant.start
    };
    let rank_of = |position: usize| {
        if descending {
            position
        } else {
            n - 1 - position
        }
    };
    budget.spend_on(
        (needed as u64).saturating_mul(n as u64 + 1),
        &total,
        span,
        Phrase::CauseKeeping,
    )?;
    // What each outcome adds at each position: a row per outcome, which
    // for a million faces is most of the memory.
    let prefix_cells = (outcomes.len() as u64).saturating_mul(needed as u64 + 1);
    budget.spend(prefix_cells, span, Phrase::CauseKeeping)?;
    budget.allocate(
        prefix_cells
            .saturating_mul(8)
            .saturating_add(outcomes.len() as u64 * (24 + HEAP_BLOCK)),
        span,
        Phrase::CauseKeeping,
    )?;
    let mut prefixes = Vec::with_capacity(outcomes.len());
    for &(value, _) in &outcomes {
        prefixes.push(prefix_contributions(
            value,
            needed,
            &rank_of,
            &contribution,
            span,
        )?);
    }
    if let Some(window) = SumWindow::new(&prefixes, needed) {
        budget.spend(window.cells(), span, Phrase::CauseKeeping)?;
        let cell_bytes = match total.bits() {
            0..=64 => 8,
            65..=128 => 16,
            _ => dist::weight_bytes(&total),
        };
        budget.allocate(
            window.cells().saturating_mul(cell_bytes),
            span,
            Phrase::CauseKeeping,
        )?;
        let sweep = Sweep {
            outcomes: &outcomes,
            prefixes: &prefixes,
            window,
            n,
            needed,
            total: &total,
            span,
        };
        // Counts are at most `total`: machine words when it fits in one or
        // two, no allocation per step. Each step is checked all the same.
        let fast = if total.bits() <= 64 {
            sweep.run::<u64>(budget)?
        } else if total.bits() <= 128 {
            sweep.run::<u128>(budget)?
        } else {
            None
        };
        return match fast {
            Some(dist) => Ok(dist),
            None => Ok(sweep
                .run::<BigUint>(budget)?
                .expect("big integers do not overflow")),
        };
    }
    // Rows C(left, ·) for the dice that can still be left to place.
    let binomials: Vec<Vec<BigUint>> = (0..=n)
        .map(|left| {
            if left + needed > n {
                binomial_row(left)
            } else {
                Vec::new()
            }
        })
        .collect();
    let mut below: Vec<BigUint> = vec![BigUint::zero(); outcomes.len()];
    let mut running = BigUint::zero();
    for (index, (_, weight)) in outcomes.iter().enumerate().rev() {
        below[index] = running.clone();
        running += *weight;
    }
    // A sum and its count, with the hash table's slack.
    let entry_bytes = 8 + dist::weight_bytes(&total) + 16;
    let mut states: Vec<HashMap<i64, BigUint>> = vec![HashMap::new(); needed];
    states[0].insert(0, BigUint::one());
    let mut finished: HashMap<i64, BigUint> = HashMap::new();
    let last_index = outcomes.len() - 1;
    for (index, &(_, weight)) in outcomes.iter().enumerate() {
        let prefix = &prefixes[index];
        let at = |position: usize| prefix[position.min(needed)];
        let mut powers = vec![BigUint::one()];
        let mut next_states: Vec<HashMap<i64, BigUint>> = vec![HashMap::new(); needed];
        for (placed, layer) in states.iter().enumerate() {
            if layer.is_empty() {
                continue;
            }
            let left = n - placed;
            budget.spend_on(
                (layer.len() as u64).saturating_mul(left as u64 + 1),
                &total,
                span,
                Phrase::CauseKeeping,
            )?;
            while powers.len() <= left {
                let next = powers[powers.len() - 1].clone() * weight;
                powers.push(next);
            }
            let takes = if index == last_index {
                left..=left
            } else {
                0..=left
            };
            for take in takes {
                let now = placed + take;
                let gained = at(now) - at(placed);
                let mut factor = &binomials[left][take] * &powers[take];
                if now >= needed {
                    // Every relevant rank is placed: the rest only need to
                    // fall below this outcome.
                    factor *= below[index].pow((n - now) as u32);
                }
                if factor.is_zero() {
                    continue;
                }
                let target = if now >= needed {
                    &mut finished
                } else {
                    &mut next_states[now]
                };
                for (sum, ways) in layer {
                    let key = sum.checked_add(gained).ok_or_else(|| overflow(span))?;
                    match target.entry(key) {
                        Entry::Occupied(mut entry) => *entry.get_mut() += ways * &factor,
                        Entry::Vacant(entry) => {
                            budget.allocate(entry_bytes, span, Phrase::CauseKeeping)?;
                            entry.insert(ways * &factor);
                        }
                    }
                }
            }
        }
        states = next_states;
    }
    Ok(Dist::from_map(finished.into_iter().collect(), total))
}

/// `prefix[p]`: what sweep positions `0..p` add if they all show `value`.
fn prefix_contributions(
    value: i64,
    needed: usize,
    rank_of: &impl Fn(usize) -> usize,
    contribution: &impl Fn(i64, usize) -> Result<i64>,
    span: Span,
) -> Result<Vec<i64>> {
    let mut prefix = Vec::with_capacity(needed + 1);
    prefix.push(0i64);
    for position in 0..needed {
        let add = contribution(value, rank_of(position))?;
        let next = prefix[position]
            .checked_add(add)
            .ok_or_else(|| overflow(span))?;
        prefix.push(next);
    }
    Ok(prefix)
}

/// Above this many cells (sums times layers) the sweep keeps its partial
/// sums in maps: dense rows would be mostly empty.
const MAX_DENSE_CELLS: u64 = 1 << 18;

/// The range every partial sum of the sweep lies in, so that layers are
/// dense rows indexed by sum.
struct SumWindow {
    low: i64,
    width: usize,
    cells: u64,
}

impl SumWindow {
    fn new(prefixes: &[Vec<i64>], needed: usize) -> Option<SumWindow> {
        // A partial sum over positions 0..p takes each position's
        // contribution from some outcome: it lies between the prefix sums
        // of the smallest and of the largest contributions.
        let (mut low, mut high) = (0i128, 0i128);
        let (mut least, mut most) = (0i128, 0i128);
        for position in 0..needed {
            let adds = prefixes
                .iter()
                .map(|prefix| i128::from(prefix[position + 1]) - i128::from(prefix[position]));
            least += adds.clone().min()?;
            most += adds.max()?;
            low = low.min(least);
            high = high.max(most);
        }
        let width = u64::try_from(high - low + 1).ok()?;
        let cells = width.checked_mul(needed as u64 + 1)?;
        if cells > MAX_DENSE_CELLS {
            return None;
        }
        Some(SumWindow {
            low: i64::try_from(low).ok()?,
            width: width as usize,
            cells,
        })
    }

    /// Every cell is allocated twice, as current and next layers.
    fn cells(&self) -> u64 {
        self.cells.saturating_mul(2)
    }
}

/// Counts of ways in the dense sweep: machine words with checked steps
/// (`None` on overflow sends the sweep back to big integers), or
/// big integers.
trait Ways: Clone {
    fn nil() -> Self;
    fn is_nil(&self) -> bool;
    fn from_big(big: &BigUint) -> Option<Self>;
    fn into_big(self) -> BigUint;
    fn times(&self, other: &Self) -> Option<Self>;
    /// `self += a · b`.
    fn add_product(&mut self, a: &Self, b: &Self) -> Option<()>;
}

macro_rules! machine_ways {
    ($word:ty) => {
        impl Ways for $word {
            fn nil() -> Self {
                0
            }
            fn is_nil(&self) -> bool {
                *self == 0
            }
            fn from_big(big: &BigUint) -> Option<Self> {
                <$word>::try_from(big).ok()
            }
            fn into_big(self) -> BigUint {
                BigUint::from(self)
            }
            fn times(&self, other: &Self) -> Option<Self> {
                self.checked_mul(*other)
            }
            fn add_product(&mut self, a: &Self, b: &Self) -> Option<()> {
                *self = self.checked_add(a.checked_mul(*b)?)?;
                Some(())
            }
        }
    };
}

machine_ways!(u64);
machine_ways!(u128);

impl Ways for BigUint {
    fn nil() -> Self {
        <BigUint as Zero>::zero()
    }
    fn is_nil(&self) -> bool {
        Zero::is_zero(self)
    }
    fn from_big(big: &BigUint) -> Option<Self> {
        Some(big.clone())
    }
    fn into_big(self) -> BigUint {
        self
    }
    fn times(&self, other: &Self) -> Option<Self> {
        Some(self * other)
    }
    fn add_product(&mut self, a: &Self, b: &Self) -> Option<()> {
        *self += a * b;
        Some(())
    }
}

/// `[1, base, base², …, base^up_to]`.
fn powers<W: Ways>(base: &W, one: &W, up_to: usize) -> Option<Vec<W>> {
    let mut powers = Vec::with_capacity(up_to + 1);
    powers.push(one.clone());
    for k in 0..up_to {
        powers.push(powers[k].times(base)?);
    }
    Some(powers)
}

/// The order-statistics sweep with its partial sums in dense rows over a
/// [`SumWindow`].
struct Sweep<'s> {
    outcomes: &'s [(i64, &'s BigUint)],
    prefixes: &'s [Vec<i64>],
    window: SumWindow,
    n: usize,
    needed: usize,
    total: &'s BigUint,
    span: Span,
}

impl Sweep<'_> {
    /// `None` when a count overflows `W`.
    fn run<W: Ways>(&self, budget: &mut Budget) -> Result<Option<Dist<i64>>> {
        let (n, needed, width) = (self.n, self.needed, self.window.width);
        let one = W::from_big(&BigUint::one()).expect("one fits");
        let mut weights = Vec::with_capacity(self.outcomes.len());
        for (_, weight) in self.outcomes {
            let Some(weight) = W::from_big(weight) else {
                return Ok(None);
            };
            weights.push(weight);
        }
        // Rows C(left, ·) for the dice that can still be left to place.
        let mut binomials: Vec<Vec<W>> = vec![Vec::new(); n + 1];
        for (left, row) in binomials.iter_mut().enumerate() {
            if left + needed > n {
                let Some(converted) = binomial_row(left).iter().map(W::from_big).collect() else {
                    return Ok(None);
                };
                *row = converted;
            }
        }
        // Layer `placed` of `states` is a row of `width` counts by sum;
        // `bounds` its occupied range, if any.
        let mut states = vec![W::nil(); needed * width];
        let mut next = states.clone();
        let mut bounds: Vec<Option<(usize, usize)>> = vec![None; needed];
        let mut next_bounds = bounds.clone();
        let mut finished = vec![W::nil(); width];
        let origin = usize::try_from(-self.window.low).expect("the window holds 0");
        states[origin] = one.clone();
        bounds[0] = Some((origin, origin));
        let mut below = W::nil();
        let mut belows = vec![W::nil(); weights.len()];
        for (index, weight) in weights.iter().enumerate().rev() {
            belows[index] = below.clone();
            let Some(()) = below.add_product(weight, &one) else {
                return Ok(None);
            };
        }
        let last_index = weights.len() - 1;
        for (index, weight) in weights.iter().enumerate() {
            let prefix = &self.prefixes[index];
            let (Some(up), Some(down)) = (powers(weight, &one, n), powers(&belows[index], &one, n))
            else {
                return Ok(None);
            };
            next_bounds.fill(None);
            for placed in 0..needed {
                let Some((from, to)) = bounds[placed] else {
                    continue;
                };
                let left = n - placed;
                let short = needed - placed;
                budget.spend_on(
                    ((to - from + 1) as u64).saturating_mul(short as u64 + 1),
                    self.total,
                    self.span,
                    Phrase::CauseKeeping,
                )?;
                let layer = placed * width;
                // Takes that leave relevant ranks unplaced; on the last
                // outcome they are impossible.
                if index < last_index {
                    for take in 0..short {
                        let now = placed + take;
                        let Some(factor) = binomials[left][take].times(&up[take]) else {
                            return Ok(None);
                        };
                        if factor.is_nil() {
                            continue;
                        }
                        let shift = prefix[now] - prefix[placed];
                        let target = now * width;
                        let start = (from as i64 + shift) as usize;
                        for (offset, ways) in states[layer + from..=layer + to].iter().enumerate() {
                            if ways.is_nil() {
                                continue;
                            }
                            let Some(()) = next[target + start + offset].add_product(ways, &factor)
                            else {
                                return Ok(None);
                            };
                        }
                        let end = start + (to - from);
                        next_bounds[now] = Some(match next_bounds[now] {
                            None => (start, end),
                            Some((low, high)) => (low.min(start), high.max(end)),
                        });
                    }
                }
                // The takes that place every relevant rank share one shift:
                // their factors add up first.
                let mut factor = W::nil();
                for take in short..=left {
                    let Some(part) = binomials[left][take].times(&up[take]) else {
                        return Ok(None);
                    };
                    let Some(()) = factor.add_product(&part, &down[left - take]) else {
                        return Ok(None);
                    };
                }
                if factor.is_nil() {
                    continue;
                }
                let start = (from as i64 + prefix[needed] - prefix[placed]) as usize;
                for (offset, ways) in states[layer + from..=layer + to].iter().enumerate() {
                    let Some(()) = finished[start + offset].add_product(ways, &factor) else {
                        return Ok(None);
                    };
                }
            }
            std::mem::swap(&mut states, &mut next);
            std::mem::swap(&mut bounds, &mut next_bounds);
            for (placed, range) in next_bounds.iter().enumerate() {
                if let Some((from, to)) = range {
                    let layer = placed * width;
                    for ways in &mut next[layer + from..=layer + to] {
                        *ways = W::nil();
                    }
                }
            }
        }
        let entries = finished
            .into_iter()
            .enumerate()
            .filter(|(_, ways)| !ways.is_nil())
            // Offsets within the window, whose sums all fit (see `from_dense`).
            .map(|(offset, ways)| (self.window.low + offset as i64, ways.into_big()))
            .collect();
        Ok(Some(Dist {
            entries,
            total: self.total.clone(),
        }))
    }
}

fn binomial_row(r: usize) -> Vec<BigUint> {
    let mut row = Vec::with_capacity(r + 1);
    let mut value = BigUint::one();
    row.push(value.clone());
    for k in 1..=r {
        value = value * BigUint::from(r + 1 - k) / BigUint::from(k);
        row.push(value.clone());
    }
    row
}

/// The general way: every multiset of values the pool can show, then the
/// modifiers applied to each exactly as the roller applies them.
pub(crate) fn dice_states(
    term: &Term,
    mods: &[PoolMod],
    want_leaves: bool,
    budget: &mut Budget,
) -> Result<Dist<Elem>> {
    let span = term.span;
    let compound = matches!(
        term.explode,
        Some((ExplodeMode::Compound | ExplodeMode::CompoundPenetrate, _))
    );
    let one_die: Dist<Vec<i64>> = if compound {
        chain(term, 0i64, budget, |total, value| {
            total.checked_add(value).ok_or_else(|| overflow(span))
        })?
        .map(|total| Ok(vec![*total]))?
    } else {
        chain(term, Vec::new(), budget, |values, value| {
            let mut values = values.clone();
            let at = values.partition_point(|known| *known < value);
            values.insert(at, value);
            Ok(values)
        })?
    };
    let mut pool: Dist<Vec<i64>> = Dist::point(Vec::new());
    for placed in 0..term.count {
        // Each pair merges two lists of values; charge for their length.
        budget.spend(
            (pool.len() as u64 * one_die.len() as u64).saturating_mul(placed as u64 + 1),
            span,
            Phrase::CausePool,
        )?;
        pool = pool.product(&one_die, budget, span, |a, b| Ok(merge_sorted(a, b)))?;
    }
    let faces = Some(term.faces);
    pool.map(|values| {
        let elements: Vec<Elem> = values
            .iter()
            .map(|&value| Elem {
                value,
                leaves: vec![(value, faces)],
            })
            .collect();
        apply_mods(&elements, mods, want_leaves, span)
    })
}

fn merge_sorted(a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut merged = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            merged.push(a[i]);
            i += 1;
        } else {
            merged.push(b[j]);
            j += 1;
        }
    }
    merged.extend_from_slice(&a[i..]);
    merged.extend_from_slice(&b[j..]);
    merged
}

/// Applies pool modifiers to one outcome of a pool's elements, in the
/// roller's way: keeps and drops by value (leftmost first among equals),
/// counts over the kept elements' dice at the time they are written.
pub(crate) fn apply_mods(
    elements: &[Elem],
    mods: &[PoolMod],
    want_leaves: bool,
    span: Span,
) -> Result<Elem> {
    let mut kept = vec![true; elements.len()];
    let mut count: i64 = 0;
    let mut is_counted = false;
    let size = |k: i64| usize::try_from(k).unwrap_or(0);
    for m in mods {
        let mut candidates: Vec<(i64, usize)> = (0..elements.len())
            .filter(|&i| kept[i])
            .map(|i| (elements[i].value, i))
            .collect();
        match m {
            PoolMod::Keep { which, n } => {
                let highest = match which {
                    KeepWhich::Even | KeepWhich::Odd => {
                        let want_odd = *which == KeepWhich::Odd;
                        candidates.retain(|&(value, i)| {
                            let matches = (value % 2 != 0) == want_odd;
                            if !matches {
                                kept[i] = false;
                            }
                            matches
                        });
                        let Some(_) = n else { continue };
                        true
                    }
                    KeepWhich::Highest => true,
                    KeepWhich::Lowest => false,
                };
                sort_candidates(&mut candidates, highest);
                for &(_, i) in candidates.iter().skip(size(n.unwrap_or(1))) {
                    kept[i] = false;
                }
            }
            PoolMod::Drop { highest, n } => {
                sort_candidates(&mut candidates, *highest);
                for &(_, i) in candidates.iter().take(size(*n)) {
                    kept[i] = false;
                }
            }
            PoolMod::Select { keep, op, target } => {
                for &(value, i) in &candidates {
                    if op.test(value, *target) != *keep {
                        kept[i] = false;
                    }
                }
            }
            PoolMod::Count {
                kind,
                tests,
                elements: whole,
            } => {
                let mut matches: i64 = 0;
                for test in tests {
                    for &(value, i) in &candidates {
                        if *whole {
                            matches += i64::from(test.matches(value, None));
                            continue;
                        }
                        for leaf in &elements[i].leaves {
                            matches += i64::from(test.matches(leaf.0, leaf.1));
                        }
                    }
                }
                let delta = matches
                    .checked_mul(kind.weight())
                    .ok_or_else(|| overflow(span))?;
                count = count.checked_add(delta).ok_or_else(|| overflow(span))?;
                is_counted = true;
            }
        }
    }
    let mut value: i64 = 0;
    let mut leaves = Vec::new();
    for (element, keep) in elements.iter().zip(&kept) {
        if !keep {
            continue;
        }
        if !is_counted {
            value = value
                .checked_add(element.value)
                .ok_or_else(|| overflow(span))?;
        }
        if want_leaves {
            leaves.extend_from_slice(&element.leaves);
        }
    }
    if is_counted {
        value = count;
    }
    leaves.sort_unstable();
    Ok(Elem { value, leaves })
}

fn sort_candidates(candidates: &mut [(i64, usize)], highest: bool) {
    if highest {
        candidates.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    } else {
        candidates.sort_unstable();
    }
}
