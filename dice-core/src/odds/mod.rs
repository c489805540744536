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

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

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
#[derive(Debug, Clone, PartialEq)]
pub struct Odds {
    outcomes: Vec<(i64, BigRational)>,
    tail: BigRational,
}

impl Expr {
    /// The exact distribution of this expression's total, with the same
    /// semantics as [`roll`](Expr::roll). Resolve macros and fields first.
    /// An expression needing more than [`Limits::max_odds_work`] steps is
    /// an error of kind [`TooComplex`](crate::ErrorKind::TooComplex) naming
    /// the part that made it so.
    pub fn odds(&self, limits: &Limits) -> Result<Odds, Error> {
        let mut exact = exact::Exact::new(self.source(), limits);
        let dist = exact.value(self.root())?;
        Ok(Odds::from_dist(dist))
    }
}

fn fraction(weight: &BigUint, total: &BigUint) -> BigRational {
    BigRational::new(BigInt::from(weight.clone()), BigInt::from(total.clone()))
}

impl Odds {
    fn from_dist(dist: dist::Dist<i64>) -> Odds {
        let mass: BigUint = dist.entries.iter().map(|(_, w)| w).sum();
        let tail = fraction(&(&dist.total - &mass), &dist.total);
        let outcomes = dist
            .entries
            .iter()
            .map(|(value, weight)| (*value, fraction(weight, &dist.total)))
            .collect();
        Odds { outcomes, tail }
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
        let listed: BigRational = self.outcomes[from..].iter().map(|(_, p)| p).sum();
        listed + &self.tail
    }

    /// P(total <= value), over the outcomes listed.
    pub fn at_most(&self, value: i64) -> BigRational {
        let to = self.outcomes.partition_point(|(v, _)| *v <= value);
        self.outcomes[..to].iter().map(|(_, p)| p).sum()
    }

    /// The chance to reach `target`: P(total >= target).
    pub fn chance(&self, target: i64) -> BigRational {
        self.at_least(target)
    }

    /// The mean, exactly.
    pub fn mean(&self) -> BigRational {
        self.outcomes
            .iter()
            .map(|(v, p)| p * BigInt::from(*v))
            .sum()
    }

    /// The variance, exactly.
    pub fn variance(&self) -> BigRational {
        let mean = self.mean();
        self.outcomes
            .iter()
            .map(|(v, p)| {
                let deviation = BigRational::from_integer(BigInt::from(*v)) - &mean;
                p * &deviation * &deviation
            })
            .sum()
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
        let mut cumulative = BigRational::zero();
        for (value, probability) in &self.outcomes {
            cumulative += probability;
            if cumulative >= wanted {
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
