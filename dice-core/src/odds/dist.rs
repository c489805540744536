//! Finite distributions with big integer weights over one denominator.
//!
//! Working with integer weights instead of fractions keeps every step a
//! multiply-add: `3d6` is weights over 216, and only the final figures are
//! reduced. The weights may sum to less than the denominator: the missing
//! mass is the tail that explosions cut off.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::ast::Span;
use crate::error::{Error, ErrorKind};

/// Outcomes in increasing order with their weights over `total`.
#[derive(Debug, Clone)]
pub(crate) struct Dist<K> {
    pub entries: Vec<(K, BigUint)>,
    pub total: BigUint,
}

/// Work left for one exact evaluation; each step of big integer arithmetic
/// or state visited spends one.
pub(crate) struct Budget {
    left: u64,
    limit: u64,
}

impl Budget {
    pub fn new(limit: u64) -> Budget {
        Budget { left: limit, limit }
    }

    /// Spends `steps` of arithmetic on numbers below `size`: a product of
    /// two such numbers costs the square of their length in machine words.
    pub fn spend_on(
        &mut self,
        steps: u64,
        size: &BigUint,
        span: Span,
        cause: &str,
    ) -> Result<(), Error> {
        let words = 1 + size.bits() / 64;
        self.spend(steps.saturating_mul(words * words), span, cause)
    }

    /// Spends `steps`, or fails naming `cause` at `span`.
    pub fn spend(&mut self, steps: u64, span: Span, cause: &str) -> Result<(), Error> {
        if steps <= self.left {
            self.left -= steps;
            return Ok(());
        }
        self.left = 0;
        Err(Error::new(
            ErrorKind::TooComplex,
            span.range(),
            format!(
                "too complex to compute exactly: {cause} needs more than {} steps",
                self.limit
            ),
        ))
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
    pub fn product<K2: Ord + Clone, K3: Ord + Clone>(
        &self,
        other: &Dist<K2>,
        budget: &mut Budget,
        span: Span,
        mut f: impl FnMut(&K, &K2) -> Result<K3, Error>,
    ) -> Result<Dist<K3>, Error> {
        let pairs = (self.len() as u64).saturating_mul(other.len() as u64);
        let size = &self.total * &other.total;
        budget.spend_on(pairs, &size, span, "combining the outcomes")?;
        let mut map = BTreeMap::new();
        for (a, wa) in &self.entries {
            for (b, wb) in &other.entries {
                *map.entry(f(a, b)?).or_insert_with(BigUint::zero) += wa * wb;
            }
        }
        Ok(Dist::from_map(map, &self.total * &other.total))
    }
}

/// `Σ weight_i / weights_total · dist_i`: the distribution of a term whose
/// parameters (dice count, sides, modifier arguments) are themselves random.
pub(crate) fn mix<K: Ord + Clone>(
    parts: Vec<(BigUint, Dist<K>)>,
    weights_total: &BigUint,
) -> Dist<K> {
    let mut common = BigUint::one();
    for (_, dist) in &parts {
        common = common.lcm(&dist.total);
    }
    let mut map: BTreeMap<K, BigUint> = BTreeMap::new();
    for (weight, dist) in parts {
        let factor = weight * (&common / &dist.total);
        for (key, w) in dist.entries {
            *map.entry(key).or_insert_with(BigUint::zero) += &factor * w;
        }
    }
    Dist::from_map(map, weights_total * common)
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
    budget.spend_on(pairs, &(&a.total * &b.total), span, "adding the outcomes")?;
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
        return a
            .product(b, budget, span, |x, y| Ok(x.checked_add(*y)))
            .map(sparse_add_checked);
    }
    let total = &a.total * &b.total;
    if pairs >= KRONECKER_PAIRS {
        let dense = kronecker(a, a_lo, b, b_lo, width as usize, &total);
        return Ok(Some(from_dense(lo, dense, total)));
    }
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
        .zip(lo..)
        .filter(|(weight, _)| !weight.is_zero())
        .map(|(weight, key)| (key, weight))
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
    // Small sums of uniform dice slide a window; larger ones go by binary
    // powers, whose big convolutions are single multiplications.
    if let Some(step) = uniform_run(die).filter(|_| n * die.len() <= 64) {
        return sum_uniform(die, step, n, budget, span);
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

/// `Some(weight)` when every value of a contiguous range has that weight.
fn uniform_run(die: &Dist<i64>) -> Option<BigUint> {
    let (first_key, first_weight) = die.entries.first()?;
    let contiguous = die
        .entries
        .iter()
        .zip(*first_key..)
        .all(|((key, weight), expected)| *key == expected && weight == first_weight);
    contiguous.then(|| first_weight.clone())
}

/// Adds uniform dice one at a time with a sliding window: each die costs
/// two passes over the running sum, whatever its number of faces.
fn sum_uniform(
    die: &Dist<i64>,
    weight: BigUint,
    n: usize,
    budget: &mut Budget,
    span: Span,
) -> Result<Option<Dist<i64>>, Error> {
    let (Some(lo), Some(hi)) = (first(die), last(die)) else {
        return Ok(Some(Dist::point(0)));
    };
    let faces = (hi - lo + 1) as usize;
    let Some(final_lo) = lo.checked_mul(n as i64) else {
        return Ok(None);
    };
    if hi.checked_mul(n as i64).is_none() {
        return Ok(None);
    }
    let final_width = (faces - 1).saturating_mul(n).saturating_add(1);
    budget.spend_on(
        (final_width as u64).saturating_mul(2 * n as u64),
        &die.total.pow(n as u32),
        span,
        "adding this many dice",
    )?;
    // Counts of ways for sums lo*k .. hi*k, offset from lo*k.
    let mut ways = vec![BigUint::one()];
    for _ in 0..n {
        let width = ways.len() + faces - 1;
        let mut prefix = Vec::with_capacity(ways.len() + 1);
        prefix.push(BigUint::zero());
        let mut running = BigUint::zero();
        for w in &ways {
            running += w;
            prefix.push(running.clone());
        }
        let mut next = Vec::with_capacity(width);
        for s in 0..width {
            let high = (s + 1).min(ways.len());
            let low = s.saturating_sub(faces - 1);
            next.push(&prefix[high] - &prefix[low]);
        }
        ways = next;
    }
    let scale = weight.pow(n as u32);
    let ways = if scale.is_one() {
        ways
    } else {
        ways.into_iter().map(|w| w * &scale).collect()
    };
    Ok(Some(from_dense(final_lo, ways, die.total.pow(n as u32))))
}
