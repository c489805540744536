//! Finite distributions with big integer weights over one denominator.
//!
//! Working with integer weights instead of fractions keeps every step a
//! multiply-add: `3d6` is weights over 216, and only the final figures are
//! reduced. The weights may sum to less than the denominator: the missing
//! mass is the tail that explosions cut off.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::ast::Span;
use crate::error::{Error, ErrorKind};
use crate::eval::Ratio;
use crate::reason::{Phrase, Reason, ReasonId};

/// Outcomes in increasing order with their weights over `total`.
#[derive(Debug, Clone)]
pub(crate) struct Dist<K> {
    pub entries: Vec<(K, BigUint)>,
    pub total: BigUint,
}

/// Work and memory left for one exact evaluation: each step of big integer
/// arithmetic or state visited spends work, and each table built (maps of
/// outcomes, rows of counts, a die's faces, the parts of a mixture) spends
/// its bytes of memory before it grows. Memory is never given back: what
/// was spent bounds what is held at once, whatever tables are alive.
pub(crate) struct Budget {
    left: u64,
    limit: u64,
    memory_left: u64,
    memory: u64,
    /// The host's cancel flag, read when the work left falls to `next_poll`.
    pub cancel: Option<Arc<AtomicBool>>,
    next_poll: u64,
}

/// Work between two reads of the cancel flag: at the dearest rate measured
/// (800 ns for the entry of a large map, `ENTRY_COST` 2), a few milliseconds.
const POLL_WORK: u64 = 1 << 13;

/// What storing one entry of a map costs in work besides its arithmetic:
/// finding its place and allocating its big integer. Against a step of
/// the sliding window (about a nanosecond), an entry of a large map
/// measured 25 ns (a thousand keys) to 800 ns (millions).
pub(crate) const ENTRY_COST: u64 = 2;

/// What the allocator adds to each heap block (header and rounding).
pub(crate) const HEAP_BLOCK: u64 = 16;

/// What an ordered map adds to each entry (node slack and edges).
const MAP_ENTRY_BYTES: u64 = 16;

/// Bytes a big integer weight below `total` takes: the integer, its heap
/// block and its words.
pub(crate) fn weight_bytes(total: &BigUint) -> u64 {
    24 + HEAP_BLOCK + 8 * total.bits().div_ceil(64)
}

impl Budget {
    pub fn new(limit: u64, memory: u64) -> Budget {
        Budget {
            left: limit,
            limit,
            memory_left: memory,
            memory,
            cancel: None,
            next_poll: limit,
        }
    }

    /// Spends `steps` of arithmetic on numbers below `size`: a product of
    /// two such numbers costs the square of their length in machine words.
    pub fn spend_on(
        &mut self,
        steps: u64,
        size: &BigUint,
        span: Span,
        cause: Phrase,
    ) -> Result<(), Error> {
        let words = 1 + size.bits() / 64;
        self.spend(steps.saturating_mul(words * words), span, cause)
    }

    /// Spends what storing `entries` map entries costs: a product of
    /// numbers below `size` each, the entry's place in a map of up to
    /// `table_len` keys, and building a key of `key_bytes`. Keys longer
    /// than four words (lists of values) are compared word by word at each
    /// of the `log2(table_len)` steps of a lookup.
    pub fn spend_on_entries(
        &mut self,
        entries: u64,
        size: &BigUint,
        key_bytes: u64,
        table_len: u64,
        span: Span,
        cause: Phrase,
    ) -> Result<(), Error> {
        let words = 1 + size.bits() / 64;
        let key_words = key_bytes / 8;
        let comparisons = if key_bytes > 32 {
            key_words.saturating_mul(u64::from(64 - table_len.leading_zeros()))
        } else {
            key_words
        };
        let each = (ENTRY_COST + words * words).saturating_add(comparisons);
        self.spend(entries.saturating_mul(each), span, cause)
    }

    /// Spends `steps`, or fails naming `cause` at `span`.
    pub fn spend(&mut self, steps: u64, span: Span, cause: Phrase) -> Result<(), Error> {
        if self.left <= self.next_poll {
            self.next_poll = self.left.saturating_sub(POLL_WORK);
            if self
                .cancel
                .as_ref()
                .is_some_and(|flag| flag.load(Ordering::Relaxed))
            {
                return Err(Error::new(
                    ErrorKind::Cancelled,
                    span.range(),
                    Reason::new(ReasonId::Cancelled),
                ));
            }
        }
        if steps <= self.left {
            self.left -= steps;
            return Ok(());
        }
        self.left = 0;
        Err(Error::new(
            ErrorKind::TooComplex,
            span.range(),
            Reason::new(ReasonId::TooComplexSteps)
                .with("cause", cause)
                .with("max", self.limit),
        ))
    }

    /// Spends `bytes` of memory for a table about to grow, or fails naming
    /// `cause` at `span`: a refused expression never allocated more than
    /// the bound.
    pub fn allocate(&mut self, bytes: u64, span: Span, cause: Phrase) -> Result<(), Error> {
        if bytes <= self.memory_left {
            self.memory_left -= bytes;
            return Ok(());
        }
        self.memory_left = 0;
        Err(Error::new(
            ErrorKind::TooComplex,
            span.range(),
            Reason::new(ReasonId::TooComplexMemory)
                .with("cause", cause)
                .with("max", self.memory.div_ceil(1 << 20)),
        ))
    }
}

/// Bytes an outcome's key holds, itself and what it owns on the heap: the
/// memory budget counts them, since a list of values can weigh far more
/// than its weight.
pub(crate) trait Footprint {
    fn footprint(&self) -> u64;
}

impl Footprint for i64 {
    fn footprint(&self) -> u64 {
        8
    }
}

impl Footprint for Option<i64> {
    fn footprint(&self) -> u64 {
        16
    }
}

impl Footprint for (usize, usize) {
    fn footprint(&self) -> u64 {
        16
    }
}

impl Footprint for Ratio {
    fn footprint(&self) -> u64 {
        std::mem::size_of::<Ratio>() as u64
    }
}

impl<T: Footprint> Footprint for Vec<T> {
    fn footprint(&self) -> u64 {
        let owned: u64 = self.iter().map(Footprint::footprint).sum();
        let block = if self.is_empty() { 0 } else { HEAP_BLOCK };
        24 + block + owned
    }
}

/// A map of outcomes being built, counted against the memory budget as it
/// grows (each new key with a weight as wide as `total`).
pub(crate) struct Table<K> {
    map: BTreeMap<K, BigUint>,
    per_entry: u64,
}

impl<K: Ord + Clone + Footprint> Table<K> {
    /// A table whose weights stay below `total`.
    pub fn new(total: &BigUint) -> Table<K> {
        Table {
            map: BTreeMap::new(),
            per_entry: weight_bytes(total) + MAP_ENTRY_BYTES,
        }
    }

    /// Adds `weight` to `key`'s; a new key is first checked against the
    /// memory bound. The lookup is charged by the table's size: past the
    /// processor's caches each level of the tree is a miss (25 ns an entry
    /// at a thousand keys, 500 at a million).
    pub fn add(
        &mut self,
        key: K,
        weight: BigUint,
        budget: &mut Budget,
        span: Span,
        cause: Phrase,
    ) -> Result<(), Error> {
        let depth = u64::from(usize::BITS - self.map.len().leading_zeros());
        budget.spend(depth / 4, span, cause)?;
        match self.map.entry(key) {
            Entry::Occupied(mut entry) => *entry.get_mut() += weight,
            Entry::Vacant(entry) => {
                budget.allocate(entry.key().footprint() + self.per_entry, span, cause)?;
                entry.insert(weight);
            }
        }
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// The weights, to rescale them all.
    pub fn weights_mut(&mut self) -> impl Iterator<Item = &mut BigUint> {
        self.map.values_mut()
    }

    pub fn into_entries(self) -> impl Iterator<Item = (K, BigUint)> {
        self.map.into_iter()
    }

    pub fn into_dist(self, total: BigUint) -> Dist<K> {
        Dist::from_map(self.map, total)
    }
}

/// The parts of a mixture, kept until they are mixed (their memory was
/// spent by whatever built them).
pub(crate) struct Parts<K> {
    parts: Vec<(BigUint, Dist<K>)>,
}

impl<K: Ord + Clone + Footprint> Parts<K> {
    pub fn new() -> Parts<K> {
        Parts { parts: Vec::new() }
    }

    pub fn push(&mut self, weight: BigUint, part: Dist<K>) {
        self.parts.push((weight, part));
    }

    /// `Σ weight_i / weights_total · dist_i`: the distribution of a term
    /// whose parameters (dice count, sides, modifier arguments) are
    /// themselves random.
    pub fn mix(
        self,
        weights_total: &BigUint,
        budget: &mut Budget,
        span: Span,
    ) -> Result<Dist<K>, Error> {
        let cause = Phrase::CauseMixing;
        let mut common = BigUint::one();
        for (_, dist) in &self.parts {
            // A gcd and a division on numbers as wide as the common total.
            budget.spend_on(1, &common, span, cause)?;
            common = common.lcm(&dist.total);
        }
        let total = weights_total * &common;
        let mut table = Table::new(&total);
        for (weight, dist) in self.parts {
            // One operand of each product is a part's weight, one word or
            // a few: linear in the common total's words.
            let words = (1 + total.bits() / 64).saturating_mul(1 + dist.total.bits() / 64);
            let key_bytes = dist.entries.first().map_or(0, |(key, _)| key.footprint());
            let each = (ENTRY_COST + words).saturating_add(key_bytes / 8);
            budget.spend((dist.len() as u64).saturating_mul(each), span, cause)?;
            let factor = weight * (&common / &dist.total);
            for (key, w) in dist.entries {
                table.add(key, &factor * w, budget, span, cause)?;
            }
        }
        Ok(table.into_dist(total))
    }
}

impl<K: Ord + Clone> Dist<K> {
    pub fn point(key: K) -> Dist<K> {
        Dist {
            entries: vec![(key, BigUint::one())],
            total: BigUint::one(),
        }
    }

    pub fn from_map(map: BTreeMap<K, BigUint>, total: BigUint) -> Dist<K> {
        Dist {
            entries: map.into_iter().filter(|(_, w)| !w.is_zero()).collect(),
            total,
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn map<K2: Ord + Clone>(
        &self,
        mut f: impl FnMut(&K) -> Result<K2, Error>,
    ) -> Result<Dist<K2>, Error> {
        let mut map = BTreeMap::new();
        for (key, weight) in &self.entries {
            *map.entry(f(key)?).or_insert_with(BigUint::zero) += weight;
        }
        Ok(Dist::from_map(map, self.total.clone()))
    }

    /// The distribution of `f(a, b)` for independent `a` and `b`.
    pub fn product<K2: Ord + Clone + Footprint, K3: Ord + Clone + Footprint>(
        &self,
        other: &Dist<K2>,
        budget: &mut Budget,
        span: Span,
        mut f: impl FnMut(&K, &K2) -> Result<K3, Error>,
    ) -> Result<Dist<K3>, Error>
    where
        K: Footprint,
    {
        let cause = Phrase::CauseCombining;
        let pairs = (self.len() as u64).saturating_mul(other.len() as u64);
        let size = &self.total * &other.total;
        // A key of the result is about as large as a key of each side.
        let key_bytes = self.entries.first().map_or(0, |(key, _)| key.footprint())
            + other.entries.first().map_or(0, |(key, _)| key.footprint());
        budget.spend_on_entries(pairs, &size, key_bytes, pairs, span, cause)?;
        let mut table = Table::new(&size);
        for (a, wa) in &self.entries {
            for (b, wb) in &other.entries {
                table.add(f(a, b)?, wa * wb, budget, span, cause)?;
            }
        }
        Ok(table.into_dist(size))
    }
}

/// `a + b` for independent integer distributions; dense when the result's
/// range is compact, as dice sums are. `None` on 64-bit overflow.
pub(crate) fn add(
    a: &Dist<i64>,
    b: &Dist<i64>,
    budget: &mut Budget,
    span: Span,
) -> Result<Option<Dist<i64>>, Error> {
    let pairs = (a.len() as u64).saturating_mul(b.len() as u64);
    let total = &a.total * &b.total;
    let (Some(a_lo), Some(a_hi), Some(b_lo), Some(b_hi)) = (first(a), last(a), first(b), last(b))
    else {
        return Ok(Some(Dist {
            entries: Vec::new(),
            total: &a.total * &b.total,
        }));
    };
    let (Some(lo), Some(hi)) = (a_lo.checked_add(b_lo), a_hi.checked_add(b_hi)) else {
        return Ok(None);
    };
    let width = i128::from(hi) - i128::from(lo) + 1;
    if width > (pairs as i128).saturating_mul(4).saturating_add(64) {
        budget.spend_on(pairs, &total, span, Phrase::CauseAdding)?;
        return a
            .product(b, budget, span, |x, y| Ok(x.checked_add(*y)))
            .map(sparse_add_checked);
    }
    if pairs >= KRONECKER_PAIRS {
        budget.spend(
            kronecker_cost(a_hi - a_lo, b_hi - b_lo, total.bits()),
            span,
            Phrase::CauseAdding,
        )?;
        budget.allocate(
            kronecker_bytes(a_hi - a_lo, b_hi - b_lo, width as u64, &total),
            span,
            Phrase::CauseAdding,
        )?;
        let dense = kronecker(a, a_lo, b, b_lo, width as usize, &total);
        return Ok(Some(from_dense(lo, dense, total)));
    }
    budget.spend_on(pairs, &total, span, Phrase::CauseAdding)?;
    budget.allocate(
        (width as u64).saturating_mul(weight_bytes(&total)),
        span,
        Phrase::CauseAdding,
    )?;
    let mut dense = vec![BigUint::zero(); width as usize];
    for (x, wx) in &a.entries {
        for (y, wy) in &b.entries {
            dense[(x + y - lo) as usize] += wx * wy;
        }
    }
    Ok(Some(from_dense(lo, dense, total)))
}

/// From this many pairs on, one big multiplication beats pairwise products.
const KRONECKER_PAIRS: u64 = 400;

/// The work of [`kronecker`] in word products: Karatsuba's `m · n^0.585`
/// for numbers of `m >= n` words (num-bigint's Toom-3 does better on the
/// largest), plus packing and unpacking.
fn kronecker_cost(a_range: i64, b_range: i64, total_bits: u64) -> u64 {
    let slot_words = total_bits.saturating_add(1).div_ceil(64) as f64;
    let a_words = (a_range as f64 + 1.0) * slot_words;
    let b_words = (b_range as f64 + 1.0) * slot_words;
    let (short, long) = (a_words.min(b_words), a_words.max(b_words));
    let cost = long * short.powf(0.585) + 2.0 * (a_words + b_words);
    if cost >= u64::MAX as f64 {
        return u64::MAX;
    }
    cost as u64
}

/// The memory of [`kronecker`]: both packed operands, their product and
/// its copy as digits (32-bit words each), and the weights unpacked.
fn kronecker_bytes(a_range: i64, b_range: i64, width: u64, total: &BigUint) -> u64 {
    let slot = (total.bits() + 1).div_ceil(32);
    let packed = (a_range as u64 + b_range as u64 + 2).saturating_mul(slot * 4);
    packed
        .saturating_mul(3)
        .saturating_add(width.saturating_mul(weight_bytes(total)))
}

/// Convolution by one multiplication (Kronecker substitution): each
/// distribution becomes one integer with a weight every `slot` 32-bit words,
/// wide enough that no coefficient of the product (each at most
/// `total`) spills into the next, and num-bigint's Karatsuba/Toom-3 does the
/// rest.
fn kronecker(
    a: &Dist<i64>,
    a_lo: i64,
    b: &Dist<i64>,
    b_lo: i64,
    width: usize,
    total: &BigUint,
) -> Vec<BigUint> {
    let slot = (total.bits() as usize + 1).div_ceil(32);
    let pack = |dist: &Dist<i64>, lo: i64| {
        let span = dist
            .entries
            .last()
            .map_or(0, |(v, _)| (v - lo) as usize + 1);
        let mut words = vec![0u32; span * slot];
        for (value, weight) in &dist.entries {
            let at = (value - lo) as usize * slot;
            for (offset, digit) in weight.iter_u32_digits().enumerate() {
                words[at + offset] = digit;
            }
        }
        BigUint::new(words)
    };
    let product = pack(a, a_lo) * pack(b, b_lo);
    let words = product.to_u32_digits();
    let mut dense = Vec::with_capacity(width);
    for index in 0..width {
        let start = (index * slot).min(words.len());
        let end = (start + slot).min(words.len());
        dense.push(BigUint::from_slice(&words[start..end]));
    }
    dense
}

fn sparse_add_checked(dist: Dist<Option<i64>>) -> Option<Dist<i64>> {
    let mut entries = Vec::with_capacity(dist.entries.len());
    for (key, weight) in dist.entries {
        entries.push((key?, weight));
    }
    Some(Dist {
        entries,
        total: dist.total,
    })
}

fn first(dist: &Dist<i64>) -> Option<i64> {
    dist.entries.first().map(|(key, _)| *key)
}

fn last(dist: &Dist<i64>) -> Option<i64> {
    dist.entries.last().map(|(key, _)| *key)
}

pub(crate) fn from_dense(lo: i64, dense: Vec<BigUint>, total: BigUint) -> Dist<i64> {
    let entries = dense
        .into_iter()
        .enumerate()
        .filter(|(_, weight)| !weight.is_zero())
        // Within the row's range, which ends at most at i64::MAX: an open
        // range `lo..` would step past it after yielding its last value.
        .map(|(offset, weight)| (lo + offset as i64, weight))
        .collect();
    Dist { entries, total }
}

/// The sum of `n` independent copies of `die`.
pub(crate) fn sum_iid(
    die: &Dist<i64>,
    n: usize,
    budget: &mut Budget,
    span: Span,
) -> Result<Option<Dist<i64>>, Error> {
    if n == 0 {
        return Ok(Some(Dist::point(0)));
    }
    if n == 1 {
        return Ok(Some(die.clone()));
    }
    // Uniform dice slide a window unless binary powers, whose big
    // convolutions are single multiplications, would be cheaper (the
    // largest pools of small dice). A step of the window measured two to four times
    // faster than one of the multiplications (100d6, 200d10, 500d6).
    if let (Some(step), Some(lo), Some(hi)) = (uniform_run(die), first(die), last(die)) {
        let faces = (hi - lo + 1) as u64;
        let sliding = sliding_cost(faces, n as u64);
        let powering = powering_cost(hi - lo, die.total.bits(), n);
        if sliding <= powering.saturating_mul(3) {
            return sum_uniform(die, step, n, sliding, budget, span);
        }
    }
    // Binary powers: log n convolutions of growing size.
    let mut result: Option<Dist<i64>> = None;
    let mut power = die.clone();
    let mut left = n;
    loop {
        if left & 1 == 1 {
            result = Some(match result {
                None => power.clone(),
                Some(acc) => match add(&acc, &power, budget, span)? {
                    Some(sum) => sum,
                    None => return Ok(None),
                },
            });
        }
        left >>= 1;
        if left == 0 {
            return Ok(result);
        }
        power = match add(&power, &power, budget, span)? {
            Some(square) => square,
            None => return Ok(None),
        };
    }
}

/// What a total listed costs besides its arithmetic, in budget steps.
const COST_PER_TOTAL: u64 = 64;

/// The work of [`sum_uniform`] in word operations: three per count of the
/// first half of every row, on numbers as wide as `faces^dice`.
fn sliding_cost(faces: u64, n: u64) -> u64 {
    let mut cost: u64 = 0;
    for dice in 1..=n {
        let half = (faces - 1).saturating_mul(dice) / 2 + 1;
        let words = sliding_words(faces, dice);
        cost = cost.saturating_add(half.saturating_mul(words).saturating_mul(3));
    }
    cost
}

/// Words enough for `faces^dice`, which has `floor(dice·log2(faces)) + 1`
/// bits; one more absorbs the float's rounding.
fn sliding_words(faces: u64, dice: u64) -> u64 {
    let bits = (dice as f64 * (faces as f64).log2()).floor() as u64 + 2;
    bits.div_ceil(64)
}

/// What binary powering charges, by [`kronecker_cost`] for every
/// convolution: `range` is the die's highest value less its lowest, and
/// `bits` the size of its total.
fn powering_cost(range: i64, bits: u64, n: usize) -> u64 {
    let mut cost: u64 = 0;
    let mut result: Option<(i64, u64)> = None;
    let mut power = (range, bits);
    let mut left = n;
    loop {
        if left & 1 == 1 {
            result = Some(match result {
                None => power,
                Some((acc_range, acc_bits)) => {
                    let bits = acc_bits.saturating_add(power.1);
                    cost = cost.saturating_add(kronecker_cost(acc_range, power.0, bits));
                    (acc_range.saturating_add(power.0), bits)
                }
            });
        }
        left >>= 1;
        if left == 0 {
            return cost;
        }
        let bits = power.1.saturating_mul(2);
        cost = cost.saturating_add(kronecker_cost(power.0, power.0, bits));
        power = (power.0.saturating_mul(2), bits);
    }
}

/// `Some(weight)` when every value of a contiguous range has that weight.
fn uniform_run(die: &Dist<i64>) -> Option<BigUint> {
    let (first_key, first_weight) = die.entries.first()?;
    let contiguous = die
        .entries
        .iter()
        .enumerate()
        .all(|(offset, (key, weight))| {
            i128::from(*key) == i128::from(*first_key) + offset as i128 && weight == first_weight
        });
    contiguous.then(|| first_weight.clone())
}

/// Adds uniform dice one at a time with a sliding window over counts of
/// ways, `ways_n[k] = ways_n[k-1] + ways_{n-1}[k] - ways_{n-1}[k-faces]`,
/// kept in machine words of a fixed width per row (the width of
/// `faces^n`) rather than big integers: no allocation per count, and only
/// the first half of each row is computed, the rest being its mirror.
fn sum_uniform(
    die: &Dist<i64>,
    weight: BigUint,
    n: usize,
    cost: u64,
    budget: &mut Budget,
    span: Span,
) -> Result<Option<Dist<i64>>, Error> {
    let (Some(lo), Some(hi)) = (first(die), last(die)) else {
        return Ok(Some(Dist::point(0)));
    };
    let faces = (hi - lo + 1) as usize;
    let (Some(final_lo), Some(_)) = (lo.checked_mul(n as i64), hi.checked_mul(n as i64)) else {
        return Ok(None);
    };
    // Each total listed also becomes a big integer and a reduced fraction:
    // without this, two dice of a million faces would pass for cheap.
    let totals = ((faces - 1) as u64)
        .saturating_mul(n as u64)
        .saturating_add(1);
    budget.spend(
        cost.saturating_add(totals.saturating_mul(COST_PER_TOTAL)),
        span,
        Phrase::CauseAddingDice,
    )?;
    // Two half rows of the widest counts, then a big integer per total.
    let widest = sliding_words(faces as u64, n as u64);
    let rows = totals.div_ceil(2).saturating_mul(widest * 8 * 2);
    let weights = totals.saturating_mul(weight_bytes(&die.total.pow(n as u32)));
    budget.allocate(rows.saturating_add(weights), span, Phrase::CauseAddingDice)?;
    // `row` holds the first half of the current row, `stride` words a count.
    let mut row: Vec<u64> = vec![1];
    let mut stride = 1usize;
    let mut width = 1usize;
    for dice in 1..=n {
        let previous = HalfRow {
            words: &row,
            stride,
            width,
        };
        width = (faces - 1) * dice + 1;
        let next_stride = sliding_words(faces as u64, dice as u64) as usize;
        let half = (width - 1) / 2;
        let mut next = vec![0u64; (half + 1) * next_stride];
        for k in 0..=half {
            let (done, rest) = next.split_at_mut(k * next_stride);
            let before = if k > 0 {
                &done[(k - 1) * next_stride..]
            } else {
                &[]
            };
            let leaving = k.checked_sub(faces).map_or(&[][..], |at| previous.get(at));
            slide(&mut rest[..next_stride], before, previous.get(k), leaving);
        }
        row = next;
        stride = next_stride;
    }
    let last = HalfRow {
        words: &row,
        stride,
        width,
    };
    let scale = weight.pow(n as u32);
    let ways = (0..width)
        .map(|k| {
            let digits: Vec<u32> = last
                .get(k)
                .iter()
                .flat_map(|word| [*word as u32, (*word >> 32) as u32])
                .collect();
            let count = BigUint::new(digits);
            if scale.is_one() {
                count
            } else {
                count * &scale
            }
        })
        .collect();
    Ok(Some(from_dense(final_lo, ways, die.total.pow(n as u32))))
}

/// The first half of a symmetric row of counts, each `stride` words.
struct HalfRow<'r> {
    words: &'r [u64],
    stride: usize,
    width: usize,
}

impl HalfRow<'_> {
    /// The count at `k`, empty (zero) beyond the row.
    fn get(&self, k: usize) -> &[u64] {
        if k >= self.width {
            return &[];
        }
        let at = k.min(self.width - 1 - k);
        &self.words[at * self.stride..(at + 1) * self.stride]
    }
}

/// `target = before + entering - leaving` over little-endian words, in one
/// pass; shorter operands are zero-extended, and the result is known to be
/// a count that fits.
fn slide(target: &mut [u64], before: &[u64], entering: &[u64], leaving: &[u64]) {
    if let [slot] = target {
        // One word: the counts fit, so wrapping steps cannot go wrong.
        let first = |value: &[u64]| value.first().copied().unwrap_or(0);
        *slot = first(before)
            .wrapping_add(first(entering))
            .wrapping_sub(first(leaving));
        return;
    }
    let word = |value: &[u64], index: usize| i128::from(value.get(index).copied().unwrap_or(0));
    let mut carry: i128 = 0;
    for (index, slot) in target.iter_mut().enumerate() {
        let sum = carry + word(before, index) + word(entering, index) - word(leaving, index);
        *slot = sum as u64;
        carry = sum >> 64;
    }
}
