//! Exact probability distributions of expressions: [`Expr::odds`].
//!
//! The walk in `exact` follows the roller node by node; `dist` holds
//! distributions as big integer weights over one denominator (reduced to
//! fractions only at the end); `pool` has the algorithms that scale: sums
//! of many dice by convolution, keep and drop by order statistics with
//! binomial counts, counts per die, explosion chains cut where the
//! neglected mass is below 1e-12, and a multiset fallback for the rest.

mod dist;
mod exact;
mod pool;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use crate::error::Error;
use crate::{Expr, Limits};

/// The exact distribution of an expression's total.
///
/// Probabilities are reduced fractions. Where explosions had to be cut
/// (`1d6!` can go on forever), the outcomes listed are exact and the mass
/// beyond the cut, below 1e-12, is [`tail`](Odds::tail); the figures (mean,
/// standard deviation, percentiles) are those of the outcomes listed.
///
/// ```
/// let odds = dice_core::parse("1d20+5").unwrap().odds(&dice_core::Limits::default()).unwrap();
/// assert_eq!(odds.at_least(15).to_string(), "11/20");
/// assert_eq!(odds.mean().to_string(), "31/2");
/// assert_eq!((odds.min(), odds.max()), (6, 25));
/// assert_eq!(odds.percentile(50.0), 15);
/// ```
#[derive(Debug, Clone)]
pub struct Odds {
    outcomes: Vec<(i64, BigRational)>,
    tail: BigRational,
    /// The unreduced weights of `outcomes` over `total`: the figures are
    /// sums of integers with one division at the end, where summing
    /// fractions would take a gcd per outcome.
    weights: Vec<BigUint>,
    total: BigUint,
    mass: BigUint,
}

/// Two distributions are equal when their probabilities are, whatever the
/// denominators they were computed over.
impl PartialEq for Odds {
    fn eq(&self, other: &Odds) -> bool {
        self.outcomes == other.outcomes && self.tail == other.tail
    }
}

impl Expr {
    /// The exact distribution of this expression's total, with the same
    /// semantics as [`roll`](Expr::roll). Resolve macros and fields first.
    /// An expression needing more than [`Limits::max_odds_work`] steps is
    /// an error of kind [`TooComplex`](crate::ErrorKind::TooComplex) naming
    /// the part that made it so.
    pub fn odds(&self, limits: &Limits) -> Result<Odds, Error> {
        self.odds_cancellable(limits, None)
    }

    /// [`odds`](Expr::odds) with a flag the host raises (from another
    /// thread, say at a deadline) when it no longer wants the answer: the
    /// computation reads it every few thousand steps of its work budget and
    /// stops with an error of kind [`Cancelled`](crate::ErrorKind::Cancelled).
    pub fn odds_cancellable(
        &self,
        limits: &Limits,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Result<Odds, Error> {
        let mut exact = exact::Exact::new(self.source(), limits);
        exact.budget.cancel = cancel;
        let dist = exact.value(self.root())?;
        Ok(Odds::from_dist(dist))
    }
}

impl Odds {
    fn from_dist(dist: dist::Dist<i64>) -> Odds {
        let mass: BigUint = dist.entries.iter().map(|(_, w)| w).sum();
        let mut reducer = Reducer::new(&dist.total);
        let tail = reducer.fraction(&(&dist.total - &mass));
        let outcomes = dist
            .entries
            .iter()
            .map(|(value, weight)| (*value, reducer.fraction(weight)))
            .collect();
        let weights = dist.entries.into_iter().map(|(_, w)| w).collect();
        Odds {
            outcomes,
            tail,
            weights,
            total: dist.total,
            mass,
        }
    }

    fn over_total(&self, weight: BigInt) -> BigRational {
        BigRational::new(weight, BigInt::from(self.total.clone()))
    }

    /// `Σ value^power · weight` over the outcomes listed.
    fn moment(&self, power: u32) -> BigInt {
        self.outcomes
            .iter()
            .zip(&self.weights)
            .map(|((value, _), weight)| {
                BigInt::from(*value).pow(power) * BigInt::from(weight.clone())
            })
            .sum()
    }

    /// Every possible total with its probability, in increasing order.
    pub fn outcomes(&self) -> &[(i64, BigRational)] {
        &self.outcomes
    }

    /// The probability cut off with explosions that go deeper than
    /// followed; zero when the distribution is complete.
    pub fn tail(&self) -> &BigRational {
        &self.tail
    }

    /// The lowest possible total.
    pub fn min(&self) -> i64 {
        self.outcomes.first().map_or(0, |(v, _)| *v)
    }

    /// The highest total listed.
    pub fn max(&self) -> i64 {
        self.outcomes.last().map_or(0, |(v, _)| *v)
    }

    /// P(total = value).
    pub fn probability(&self, value: i64) -> BigRational {
        match self.outcomes.binary_search_by_key(&value, |(v, _)| *v) {
            Ok(index) => self.outcomes[index].1.clone(),
            Err(_) => BigRational::zero(),
        }
    }

    /// P(total >= value), counting the tail (cut explosions only go up).
    pub fn at_least(&self, value: i64) -> BigRational {
        let from = self.outcomes.partition_point(|(v, _)| *v < value);
        let listed: BigUint = self.weights[from..].iter().sum();
        self.over_total(BigInt::from(listed + (&self.total - &self.mass)))
    }

    /// P(total <= value), over the outcomes listed.
    pub fn at_most(&self, value: i64) -> BigRational {
        let to = self.outcomes.partition_point(|(v, _)| *v <= value);
        let listed: BigUint = self.weights[..to].iter().sum();
        self.over_total(BigInt::from(listed))
    }

    /// The chance to reach `target`: P(total >= target).
    pub fn chance(&self, target: i64) -> BigRational {
        self.at_least(target)
    }

    /// The mean, exactly.
    pub fn mean(&self) -> BigRational {
        self.over_total(self.moment(1))
    }

    /// The variance, exactly: `Σ p·(v - mean)²` over the outcomes listed,
    /// which with `W` the total, `S0` the listed mass and `S1`, `S2` the
    /// weighted sums of values and squares is
    /// `(S2·W² - 2·S1²·W + S1²·S0) / W³`.
    pub fn variance(&self) -> BigRational {
        let total = BigInt::from(self.total.clone());
        let mass = BigInt::from(self.mass.clone());
        let first = self.moment(1);
        let second = self.moment(2);
        let first_squared = &first * &first;
        let numerator = second * &total * &total - BigInt::from(2) * &first_squared * &total
            + first_squared * mass;
        BigRational::new(numerator, total.pow(3))
    }

    /// The mean as a float.
    pub fn mean_f64(&self) -> f64 {
        self.mean().to_f64().unwrap_or(f64::NAN)
    }

    /// The standard deviation.
    pub fn sd(&self) -> f64 {
        self.variance().to_f64().unwrap_or(f64::NAN).max(0.0).sqrt()
    }

    /// The `p`-th percentile (`p` from 0 to 100): the smallest total `v`
    /// with P(total <= v) >= p/100. The 50th is the median (the lower one
    /// when two totals share it); 0 gives the minimum.
    pub fn percentile(&self, p: f64) -> i64 {
        let wanted =
            BigRational::from_float(p.clamp(0.0, 100.0) / 100.0).unwrap_or_else(BigRational::zero);
        // cumulative / total >= numer / denom, in integers.
        let (Some(numer), Some(denom)) = (wanted.numer().to_biguint(), wanted.denom().to_biguint())
        else {
            return self.min();
        };
        let needed = numer * &self.total;
        let mut cumulative = BigUint::zero();
        for ((value, _), weight) in self.outcomes.iter().zip(&self.weights) {
            cumulative += weight;
            if &cumulative * &denom >= needed {
                return *value;
            }
        }
        self.max()
    }
}

/// A probability as a float.
pub fn to_f64(probability: &BigRational) -> f64 {
    probability.to_f64().unwrap_or(f64::NAN)
}

/// Odd numbers up to this bound are tried as factors of a distribution's
/// denominator; it covers the faces of every common die.
const SMALL_FACTOR_BOUND: u32 = 1024;

/// Reduces weights over one denominator to fractions.
///
/// A big-integer gcd per outcome was most of the time of a large sum
/// (`100d6`: 501 gcds with 6^100). Denominators are products of die sizes,
/// so when the total factors over small numbers, each weight is instead
/// divided by those few factors while they divide it: a handful of
/// one-word divisions, and the reduced denominators are shared.
struct Reducer {
    total: BigUint,
    /// `(factor, exponent)` of `total`, or `None` when a large prime is left
    /// over and the general gcd is needed.
    factors: Option<Vec<(u32, u64)>>,
    denominators: HashMap<Vec<u64>, BigInt>,
}

impl Reducer {
    fn new(total: &BigUint) -> Reducer {
        Reducer {
            total: total.clone(),
            factors: small_factors(total),
            denominators: HashMap::new(),
        }
    }

    fn fraction(&mut self, weight: &BigUint) -> BigRational {
        let Some(factors) = &self.factors else {
            return BigRational::new(
                BigInt::from(weight.clone()),
                BigInt::from(self.total.clone()),
            );
        };
        if weight.is_zero() {
            return BigRational::zero();
        }
        let mut numerator = weight.clone();
        let mut removed = vec![0u64; factors.len()];
        for (&(factor, exponent), taken) in factors.iter().zip(&mut removed) {
            if factor == 2 {
                *taken = numerator.trailing_zeros().unwrap_or(0).min(exponent);
                numerator >>= *taken;
                continue;
            }
            while *taken < exponent && (&numerator % factor).is_zero() {
                numerator /= factor;
                *taken += 1;
            }
        }
        let denominator = self
            .denominators
            .entry(removed)
            .or_insert_with_key(|removed| {
                let mut divisor = BigUint::one();
                for (&(factor, _), &taken) in factors.iter().zip(removed) {
                    divisor *= BigUint::from(factor).pow(taken as u32);
                }
                BigInt::from(&self.total / divisor)
            });
        BigRational::new_raw(BigInt::from(numerator), denominator.clone())
    }
}

/// The prime factorisation of `total` when all its primes are below
/// [`SMALL_FACTOR_BOUND`].
fn small_factors(total: &BigUint) -> Option<Vec<(u32, u64)>> {
    let mut rest = total.clone();
    let mut factors = Vec::new();
    let twos = rest.trailing_zeros()?;
    if twos > 0 {
        factors.push((2, twos));
        rest >>= twos;
    }
    // Odd trial divisors in increasing order: a composite one never divides
    // what is left once its prime factors are removed.
    for factor in (3..SMALL_FACTOR_BOUND).step_by(2) {
        if rest.is_one() {
            break;
        }
        let mut exponent = 0;
        while (&rest % factor).is_zero() {
            rest /= factor;
            exponent += 1;
        }
        if exponent > 0 {
            factors.push((factor, exponent));
        }
    }
    rest.is_one().then_some(factors)
}
