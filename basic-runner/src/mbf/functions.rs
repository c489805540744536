//! `SQR SIN COS TAN ATN EXP LOG` and `^` as GW-BASIC's math pack computes them.
//!
//! GW-BASIC does not call a floating-point library: each function is a short
//! chain of single-precision operations (Hart's polynomial approximations,
//! Horner's rule) whose every step rounds as Microsoft Binary Format rounds, so
//! the last printed digit is the one those steps leave, not the correctly
//! rounded one (`ATN(1)` is `.7853983`, `EXP(1)` `2.718282`, `SQR(2)`
//! `1.414214`). The algorithms and coefficients here are the ones of GW-BASIC's
//! published math pack (MATH1/MATH2, 1983): the steps run on this module's MBF
//! `add`/`mul`/`div`, and `SIN`/`COS` reduce their argument in double precision
//! first, as GW-BASIC does since 1982.

use super::single::{Chain, Single};
use super::{Overflow, add, div, mul, sub, unpack};
use crate::number::SNG_MAX;

/// A single precision constant from its four Microsoft Binary Format bytes
/// (lowest mantissa byte first, the sign in bit 7 of the third, the exponent last).
const fn single(bytes: [u8; 4]) -> f64 {
    let [low, mid, high, exponent] = bytes;
    let sign = (high >> 7) as u64;
    let mantissa = (((high & 0x7F) as u64) << 16) | ((mid as u64) << 8) | low as u64;
    // 0.1m × 2^(e−128) = 1.m × 2^(e−129)
    let biased = exponent as u64 + 1023 - 129;
    f64::from_bits((sign << 63) | (biased << 52) | (mantissa << 29))
}

/// Hart 3341: sin(2πx)/x as a polynomial in x², for 0 ≤ x ≤ 1/4 (highest power first).
const SIN_COEFFICIENTS: [f64; 5] = [
    single([0o373, 0o327, 0o036, 0o206]),
    single([0o145, 0o046, 0o231, 0o207]),
    single([0o130, 0o064, 0o043, 0o207]),
    single([0o341, 0o135, 0o245, 0o206]),
    single([0o333, 0o017, 0o111, 0o203]),
];
/// Hart 4940: atan(x)/x as a polynomial in x², for 0 ≤ x ≤ tan(π/12).
const ATN_COEFFICIENTS: [f64; 4] = [
    single([0o142, 0o065, 0o203, 0o176]),
    single([0o120, 0o044, 0o114, 0o176]),
    single([0o171, 0o251, 0o252, 0o177]),
    single([0o000, 0o000, 0o000, 0o201]),
];
/// Hart 1302: 2^x for 0 ≤ x < 1.
const EXP_COEFFICIENTS: [f64; 7] = [
    single([0o174, 0o210, 0o131, 0o164]),
    single([0o340, 0o227, 0o046, 0o167]),
    single([0o304, 0o035, 0o036, 0o172]),
    single([0o136, 0o120, 0o143, 0o174]),
    single([0o032, 0o376, 0o165, 0o176]),
    single([0o030, 0o162, 0o061, 0o200]),
    single([0o000, 0o000, 0o000, 0o201]),
];
/// Hart 2524: log2(x) = P(x)/Q(x) for 1/2 ≤ x < 1.
const LOG_P: [f64; 4] = [
    single([0o232, 0o367, 0o031, 0o203]),
    single([0o044, 0o143, 0o103, 0o203]),
    single([0o165, 0o315, 0o215, 0o204]),
    single([0o251, 0o177, 0o203, 0o202]),
];
const LOG_Q: [f64; 4] = [
    single([0o000, 0o000, 0o000, 0o201]),
    single([0o342, 0o260, 0o115, 0o203]),
    single([0o012, 0o162, 0o021, 0o203]),
    single([0o364, 0o004, 0o065, 0o177]),
];
const LN_2: f64 = single([0x18, 0x72, 0x31, 0x80]);

/// Constants taken apart once, for the chains of `single`.
const fn taken_apart<const N: usize>(values: [f64; N]) -> [Single; N] {
    let mut singles = [Single::of(0.0); N];
    let mut i = 0;
    while i < N {
        singles[i] = Single::of(values[i]);
        i += 1;
    }
    singles
}
const SIN_SINGLES: [Single; 5] = taken_apart(SIN_COEFFICIENTS);
const LOG_P_SINGLES: [Single; 4] = taken_apart(LOG_P);
const LOG_Q_SINGLES: [Single; 4] = taken_apart(LOG_Q);
const LN_2_SINGLE: Single = Single::of(LN_2);
const LOG2_E: f64 = single([0x3B, 0xAA, 0x38, 0x81]);
const TWO_PI: f64 = single([0xDB, 0x0F, 0x49, 0x83]);
const HALF_PI: f64 = single([0xDB, 0x0F, 0x49, 0x81]);
const SIXTH_PI: f64 = single([0x92, 0x0A, 0x06, 0x80]);
const TAN_TWELFTH_PI: f64 = single([0xA2, 0x30, 0x09, 0x7F]);
const SQRT_3: f64 = single([0xD7, 0xB3, 0x5D, 0x81]);

/// 1/(2π) as the math pack's double: this 56-bit mantissa × 2^-58.
const INV_TWO_PI: u128 = 0xA2_F983_6E4E_440B;
/// The fixed point in which a reduced angle is kept: bits below the period.
const POINT: u32 = 120;
const ONE: u128 = 1 << POINT;
/// A double's mantissa.
const DOUBLE_BITS: u32 = 56;

/// The steps of one function, which GW-BASIC's `$OVFLS` lets go on after an
/// overflow: it reports `Overflow` (once: the math pack sets its once-only mode)
/// and the step's result is the signed largest number.
#[derive(Default)]
struct Steps {
    overflowed: bool,
}

impl Steps {
    fn go(&mut self, step: Result<f64, Overflow>) -> f64 {
        step.unwrap_or_else(|Overflow(max)| {
            self.overflowed = true;
            max
        })
    }

    fn end(self, value: f64) -> Result<f64, Overflow> {
        if self.overflowed {
            Err(Overflow(value))
        } else {
            Ok(value)
        }
    }
}

/// The MBF exponent byte of a single (0 for zero).
fn exponent_byte(x: f64) -> i32 {
    unpack(x).exp
}

/// 2^n for the powers singles and their reductions reach (`powi` loops).
fn pow2(n: i32) -> f64 {
    f64::from_bits(((1023 + n.clamp(-1022, 1023)) as u64) << 52)
}

/// `c0·xⁿ + … + cn` by Horner's rule, each step rounded (`$POLY`).
fn poly(x: f64, coefficients: &[f64]) -> Result<f64, Overflow> {
    let (&first, rest) = coefficients.split_first().unwrap_or((&0.0, &[]));
    rest.iter().try_fold(first, |acc, &c| add(mul(acc, x)?, c))
}

/// `x · P(x²)` (`$POLYX`).
fn poly_odd(x: f64, coefficients: &[f64]) -> Result<f64, Overflow> {
    let p = poly(mul(x, x)?, coefficients)?;
    mul(p, x)
}

/// `v` rounded to `bits` significant bits, halves to even (a double's rounding).
fn round_significant(v: u128, bits: u32) -> u128 {
    let width = 128 - v.leading_zeros();
    if width <= bits {
        return v;
    }
    let drop = width - bits;
    let half = 1u128 << (drop - 1);
    let tail = v & ((1u128 << drop) - 1);
    let kept = v >> drop;
    let up = tail > half || (tail == half && kept & 1 == 1);
    (kept + u128::from(up)) << drop
}

/// The fraction of `x / 2π` (x ≥ 0 a single) as a [`POINT`]-bit fixed point: the
/// product rounded to a double, its integer part dropped (GW-BASIC's `RR`).
fn turns(x: f64) -> u128 {
    let den = unpack(x);
    if den.exp == 0 {
        return 0;
    }
    let product = round_significant(u128::from(den.man >> 8) * INV_TWO_PI, DOUBLE_BITS);
    // the product's last bit is worth 2^(exp − 152 − 58)
    let below_point = 210 - den.exp;
    if below_point <= 0 {
        return 0;
    }
    let below_point = below_point as u32;
    let fraction = if below_point >= 128 {
        product
    } else {
        product & ((1u128 << below_point) - 1)
    };
    if below_point <= POINT {
        fraction << (POINT - below_point)
    } else {
        fraction.checked_shr(below_point - POINT).unwrap_or(0)
    }
}

/// A reduced angle in quarter turns (a fixed point with `POINT + 2` bits below the
/// period, at most 1/4) made single: cut to 24 bits, rounding up when the 25th is
/// set (`$CSD`).
fn to_single(value: u128) -> f64 {
    if value == 0 {
        return 0.0;
    }
    let width = 128 - value.leading_zeros();
    let (mantissa, low_bit) = if width > 24 {
        let shifted = value >> (width - 25);
        ((shifted >> 1) + (shifted & 1), width as i32 - 24)
    } else {
        (value << (24 - width), width as i32 - 24)
    };
    // at most 2^24: a u64 converts in one instruction where a u128 calls a helper
    mantissa as u64 as f64 * pow2(low_bit - POINT as i32 - 2)
}

/// Sine of `fraction` turns (GW-BASIC's `SIN30` onward): the quadrant decides the
/// sign and whether the polynomial runs on the complement.
fn sine_of_turns(fraction: u128) -> Result<f64, Overflow> {
    let (quadrant, angle) = quadrant_and_angle(fraction);
    // (2π·0 is 0, and a sine of 0 keeps its sign)
    if angle == 0.0 {
        return Ok(0.0);
    }
    let sine = sine_of_angle(Single::of(angle))?;
    Ok(if quadrant >= 2 && sine != 0.0 {
        -sine
    } else {
        sine
    })
}

/// The quadrant of `fraction` turns and the angle in turns that the polynomial
/// runs on: the angle within the quadrant, or its complement in odd quadrants.
fn quadrant_and_angle(fraction: u128) -> (u128, f64) {
    let quarters = fraction << 2;
    let quadrant = quarters >> POINT;
    let mut within = quarters & (ONE - 1);
    if quadrant & 1 == 1 {
        within = round_significant(ONE - within, DOUBLE_BITS);
    }
    (quadrant, to_single(within))
}

/// The sine of an angle in turns (2^-122 ≤ angle ≤ 1/4): `2π·x` below 2^-12, else
/// Hart's polynomial `x·P(x²)`, its steps taken apart (`single`) where they stay
/// plain, as they do for every such angle.
fn sine_of_angle(angle: Single) -> Result<f64, Overflow> {
    let x = angle.to_f64();
    if angle.exponent_byte() < 0o164 {
        return mul(x, TWO_PI);
    }
    // every step stays well inside the range: x² ≥ 2^-24, and each sum is a
    // coefficient changed by at most a sixteenth of the one before
    let mut chain = Chain::bounded();
    let sine = sine_steps(&mut chain, angle);
    chain
        .result(sine)
        .map_or_else(|| poly_odd(x, &SIN_COEFFICIENTS), Ok)
}

/// `x·P(x²)` with Hart's sine coefficients (`$POLYX`), each step written out:
/// each then has its constants in the code and its own branch history.
#[inline(always)]
fn sine_steps(chain: &mut Chain, x: Single) -> Single {
    let [c0, c1, c2, c3, c4] = SIN_SINGLES;
    let square = chain.mul(x, x);
    let mut acc = chain.step(c0, square, c1);
    acc = chain.step(acc, square, c2);
    acc = chain.step(acc, square, c3);
    acc = chain.step(acc, square, c4);
    chain.mul(acc, x)
}

/// `SIN(x)` of a single.
pub(crate) fn sin(x: f64) -> Result<f64, Overflow> {
    let taken = Single::of(x);
    // below 2^-9 the sine is the argument itself (zero too)
    if taken.exponent_byte() < 0o167 {
        return Ok(x);
    }
    let Some((quadrant, angle)) = quarter_turns(taken) else {
        return Ok(0.0);
    };
    let sine = sine_of_angle(angle)?;
    // the sign by arithmetic, not a branch: the quadrant of successive
    // arguments is as good as random to the processor
    let negative = ((quadrant >= 2) != taken.is_negative()) & (sine != 0.0);
    Ok(f64::from_bits(sine.to_bits() ^ (u64::from(negative) << 63)))
}

/// `turns` and `sine_of_turns`'s reduction of `|x|` (exponent byte 0o167 or
/// more) in 64-bit words: the quadrant and the angle within it in turns, `None`
/// for an angle of 0. The same numbers: `x / 2π` rounded to 56 bits has at most
/// 57 bits below the point here, and a complement (odd quadrants) at most 56
/// significant bits, which its rounding to a double therefore keeps.
fn quarter_turns(x: Single) -> Option<(u64, Single)> {
    let product = u128::from(x.mantissa()) * INV_TWO_PI;
    // the product has 79 or 80 bits: round it to 56, halves to even
    let cut = 23 + (product >> 79) as u32;
    let kept = (product >> cut) as u64;
    let tail = (product as u64) & ((1 << cut) - 1);
    let rounded = kept + u64::from(tail + (kept & 1) > 1 << (cut - 1));
    // the product's last bit is worth 2^(exp − 152 − 58), the rounded one's 2^cut more
    let below_point = 210 - x.exponent_byte() - cut as i32;
    if below_point <= 0 {
        return None;
    }
    let below_point = below_point as u32;
    let point_mask = if below_point >= 64 {
        u64::MAX
    } else {
        (1 << below_point) - 1
    };
    // quarter turns, with `below_point` bits below their point
    let quarters = (rounded & point_mask) << 2;
    let quadrant = quarters.checked_shr(below_point).unwrap_or(0);
    let mut within = quarters & point_mask;
    if quadrant & 1 == 1 {
        within = (1 << below_point) - within;
    }
    if within == 0 {
        return None;
    }
    // cut to 24 bits, rounding up when the 25th is set (`$CSD`)
    let width = 64 - within.leading_zeros();
    let mantissa = if width > 24 {
        let shifted = within >> (width - 25);
        (shifted >> 1) + (shifted & 1)
    } else {
        within << (24 - width)
    };
    // within × 2^-(below_point + 2) turns = mantissa × 2^(exp − 152)
    let exp = width as i32 + 126 - below_point as i32;
    Some((quadrant, Single::from_parts(mantissa, exp, false)))
}

/// `COS(x)` of a single: the sine a quarter turn further on.
pub(crate) fn cos(x: f64) -> Result<f64, Overflow> {
    let shifted = round_significant(turns(x.abs()) + ONE / 4, DOUBLE_BITS) & (ONE - 1);
    sine_of_turns(shifted)
}

/// `ATN(x)` of a single.
pub(crate) fn atn(x: f64) -> Result<f64, Overflow> {
    let mut t = x.abs();
    // beyond 1, atan(x) = π/2 − atan(1/x)
    let inverted = exponent_byte(t) >= 0o201;
    if inverted {
        t = div(1.0, t)?;
    }
    // beyond tan(π/12), atan(x) = π/6 + atan((x√3 − 1)/(x + √3))
    let shifted = t >= TAN_TWELFTH_PI;
    if shifted {
        let denominator = add(t, SQRT_3)?;
        let numerator = poly(t, &[SQRT_3, -1.0])?;
        t = div(numerator, denominator)?;
    }
    let mut angle = poly_odd(t, &ATN_COEFFICIENTS)?;
    if shifted {
        angle = add(angle, SIXTH_PI)?;
    }
    if inverted {
        angle = sub(HALF_PI, angle)?;
    }
    Ok(if x < 0.0 && angle != 0.0 {
        -angle
    } else {
        angle
    })
}

/// `EXP(x)` of a single: 2^(x·log2 e), the whole power of two apart.
pub(crate) fn exp(x: f64) -> Result<f64, Overflow> {
    let mut steps = Steps::default();
    // a huge negative argument overflows here and still ends in 0
    let y = steps.go(mul(x, LOG2_E));
    let e = exponent_byte(y);
    if e >= 0o210 {
        return if y > 0.0 {
            Err(Overflow(SNG_MAX))
        } else {
            steps.end(0.0)
        };
    }
    if e < 0o150 {
        return Ok(1.0);
    }
    let whole = y.floor();
    if whole >= 127.0 {
        return Err(Overflow(SNG_MAX));
    }
    let fraction = sub(y, whole)?;
    let power = poly(fraction, &EXP_COEFFICIENTS)?;
    mul(power, pow2(whole as i32))
}

/// `LOG(x)` of a single above zero: log2 of the mantissa by a rational
/// approximation, plus the binary exponent, times ln 2.
pub(crate) fn log(x: f64) -> Result<f64, Overflow> {
    if x == 1.0 {
        return Ok(0.0);
    }
    // x is a single above zero: its mantissa as a number in [1/2, 1) and its
    // power of two, straight from its bits
    let taken = Single::of(x);
    let exponent = taken.exponent_byte() - 0o200;
    let m = taken.with_exponent_byte(0o200);
    if let Some(log) = log_chain(m, exponent) {
        return Ok(log);
    }
    let mantissa = m.to_f64();
    let ratio = div(poly(mantissa, &LOG_P)?, poly(mantissa, &LOG_Q)?)?;
    mul(add(f64::from(exponent), ratio)?, LN_2)
}

/// `LOG`'s steps taken apart (`single`); `None` where one leaves the plain singles.
#[inline(always)]
fn log_chain(m: Single, exponent: i32) -> Option<f64> {
    log_chain_in(Chain::bounded(), m, exponent)
}

/// `log_chain` in `chain`. A bounded chain checks P, Q, their ratio and the sum
/// only: for every mantissa in [1/2, 1) the polynomials' steps stay plain (the
/// tests run a chain that checks each step beside it).
#[inline(always)]
fn log_chain_in(mut chain: Chain, m: Single, exponent: i32) -> Option<f64> {
    // P and Q do not wait for each other: the processor runs them side by side
    let [p0, p1, p2, p3] = LOG_P_SINGLES;
    let [_, q1, q2, q3] = LOG_Q_SINGLES;
    let mut p = chain.step(p0, m, p1);
    p = chain.step(p, m, p2);
    p = chain.step(p, m, p3);
    // Q's first coefficient is 1, and 1·m is m
    let mut q = chain.add(m, q1);
    q = chain.step(q, m, q2);
    q = chain.step(q, m, q3);
    let (p, q) = (chain.checked(p), chain.checked(q));
    let ratio = chain.div(p, q);
    let ratio = chain.checked(ratio);
    // 0 + ratio is the ratio itself
    let sum = if exponent == 0 {
        ratio
    } else {
        chain.add(Single::of_int(exponent), ratio)
    };
    let sum = chain.checked(sum);
    let log = chain.mul(sum, LN_2_SINGLE);
    chain.result(log)
}

/// `SQR(x)` of a single not below zero: a bit-by-bit root of the mantissa to 25
/// bits, rounded to 24 by its last bit.
pub(crate) fn sqr(x: f64) -> f64 {
    let den = unpack(x);
    if den.exp == 0 {
        return 0.0;
    }
    // an odd exponent halves the mantissa so that the exponent halves exactly
    let odd = den.exp & 1 == 1;
    let exponent = den.exp / 2 + 0o100 + i32::from(odd);
    let word = if odd { den.man >> 1 } else { den.man };
    let root25 = (u128::from(word) << 18).isqrt();
    let root = (root25 + 1) >> 1;
    // the root of a mantissa in [1/4, 1) lies in [1/2, 1): 24 bits
    root as f64 * pow2(exponent - 128 - 24)
}

/// `x ^ y` of singles the way GW-BASIC's `$FPWR` takes it: a whole exponent
/// below 32768 multiplies by squaring, any other goes through `EXP(y·LOG(x))`,
/// a negative one inverts the power of its magnitude.
pub(crate) fn power(x: f64, y: f64) -> Result<Result<f64, Overflow>, PowerFault> {
    // The common case first, without `fract` (a libm call on the baseline
    // target): a whole exponent from 1 to 32767 of a number other than zero is
    // the squaring alone, an overflow in it the result.
    if x != 0.0 && (1.0..32768.0).contains(&y) {
        let n = y as u32;
        if f64::from(n) == y {
            return Ok(powi(x, n));
        }
    }
    if y == 0.0 {
        return Ok(Ok(1.0));
    }
    if x == 0.0 {
        return if y < 0.0 {
            Err(PowerFault::DivisionByZero(SNG_MAX))
        } else {
            Ok(Ok(0.0))
        };
    }
    let whole = y.fract() == 0.0;
    if x < 0.0 && (exponent_byte(y) >= 0o231 || !whole) {
        return Err(PowerFault::IllegalFunctionCall);
    }
    let magnitude = y.abs();
    let negative = x < 0.0 && magnitude % 2.0 == 1.0;
    let mut steps = Steps::default();
    let power = if whole && magnitude < 32768.0 {
        steps.go(powi(x, magnitude as u32))
    } else {
        let log = steps.go(log(x.abs()));
        let product = steps.go(mul(magnitude, log));
        let r = steps.go(exp(product));
        if negative { -r } else { r }
    };
    if y > 0.0 {
        return Ok(steps.end(power));
    }
    // an underflow inverted is GW-BASIC's Overflow, signed as x^y would be
    if power == 0.0 {
        return Ok(Err(Overflow(if negative { -SNG_MAX } else { SNG_MAX })));
    }
    let inverse = steps.go(div(1.0, power));
    Ok(steps.end(inverse))
}

/// What stops `^` other than an overflow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum PowerFault {
    IllegalFunctionCall,
    /// Zero to a negative power: the value to go on with.
    DivisionByZero(f64),
}

/// `x ^ n` by Knuth's right-to-left binary method, as GW-BASIC's `XTON`:
/// `y = y·z` for each set bit of n, `z = z·z` between them; `x` is a single.
pub(crate) fn powi(x: f64, n: u32) -> Result<f64, Overflow> {
    let mut steps = Steps::default();
    // `y` starts at 1, and 1·z is z for every single z: the first product is
    // not computed
    let mut result: Option<f64> = None;
    let mut square = x;
    let mut n = n;
    loop {
        if n & 1 == 1 {
            result = Some(match result {
                None => square,
                Some(result) => steps.go(mul(result, square)),
            });
        }
        n >>= 1;
        if n == 0 {
            return steps.end(result.unwrap_or(1.0));
        }
        square = steps.go(mul(square, square));
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cases, xorshift};
    use super::*;

    #[test]
    fn constants_are_the_math_packs() {
        let cases: &[(f64, f64)] = &[
            (SIN_COEFFICIENTS[0], 39.710_917_66),
            (SIN_COEFFICIENTS[1], -76.574_983_78),
            (SIN_COEFFICIENTS[4], 6.283_185_272),
            // the listing's comment says -.3333324; its bytes hold -.3333242
            (ATN_COEFFICIENTS[2], -0.333_324_2),
            (EXP_COEFFICIENTS[0], 0.000_207_455_774),
            (EXP_COEFFICIENTS[5], 0.693_147_172),
            (LOG_P[2], -8.862_66),
            (LOG_Q[3], 0.353_553_4),
            (LN_2, std::f64::consts::LN_2),
            (LOG2_E, std::f64::consts::LOG2_E),
            (HALF_PI, std::f64::consts::FRAC_PI_2),
            (SIXTH_PI, std::f64::consts::FRAC_PI_6),
            (TAN_TWELFTH_PI, 0.267_949_19),
            (SQRT_3, 1.732_050_8),
        ];
        for &(constant, expected) in cases {
            assert!(
                (constant - expected).abs() < 1e-6 * expected.abs(),
                "{constant} vs {expected}"
            );
        }
        let inverse = INV_TWO_PI as f64 * 2f64.powi(-58);
        assert!((inverse - 1.0 / std::f64::consts::TAU).abs() < 1e-15);
    }

    /// The positive single with this exponent byte and 24-bit mantissa.
    fn positive(exp: u64, man24: u64) -> f64 {
        f64::from_bits((exp + 894) << 52 | (man24 & 0x7F_FFFF) << 29)
    }

    #[test]
    fn sine_reduction_in_words_is_the_reduction_in_u128() {
        let check = |x: f64| {
            let taken = Single::of(x);
            let words = quarter_turns(taken).map(|(q, angle)| (u128::from(q), angle.to_f64()));
            let (quadrant, angle) = quadrant_and_angle(turns(x));
            let reference = (angle != 0.0).then_some((quadrant, angle));
            assert_eq!(words, reference, "{x:e}");
        };
        let mut next = xorshift(0x1F83_D9AB_FB41_BD6B);
        for _ in 0..cases(300_000) {
            let r = next();
            // every exponent SIN reduces, weighted towards the ones with bits below the point
            let exp = if r & 1 == 0 {
                0o167 + (r >> 8) % 137
            } else {
                0o167 + (r >> 8) % 40
            };
            check(positive(exp, r >> 32));
        }
        // BM8's arguments, and the singles nearest multiples of a quarter turn with
        // their neighbours, where the quadrant changes and the complement is small
        for k in 1..=100_000 {
            check(f64::from(k));
            let near = f64::from((f64::from(k) * std::f64::consts::FRAC_PI_2) as f32);
            let taken = Single::of(near);
            for step in -3i64..=3 {
                let man = taken.mantissa() as i64 + step;
                check(positive(taken.exponent_byte() as u64, man as u64));
            }
        }
        check(SNG_MAX);
        check(positive(0o167, 0));
    }

    #[test]
    fn sines_in_words_are_the_sines_through_turns() {
        let through_turns = |x: f64| {
            if exponent_byte(x) < 0o167 {
                return Ok(x);
            }
            let sine = sine_of_turns(turns(x.abs()))?;
            Ok(if x < 0.0 && sine != 0.0 { -sine } else { sine })
        };
        let mut next = xorshift(0x5BE0_CD19_137E_2179);
        for _ in 0..cases(100_000) {
            let r = next();
            let x = positive(1 + (r >> 8) % 255, r >> 32);
            let x = if r & 1 == 0 { x } else { -x };
            assert_eq!(sin(x), through_turns(x), "{x:e}");
        }
        for x in [
            0.0,
            1.0,
            -1.0,
            std::f64::consts::PI as f32 as f64,
            1e-3,
            SNG_MAX,
            -SNG_MAX,
        ] {
            assert_eq!(sin(x), through_turns(x), "{x:e}");
        }
    }

    #[test]
    fn the_sine_polynomial_in_steps_taken_apart_is_the_f64_steps() {
        let check = |x: f64| {
            let angle = Single::of(x);
            let mut chain = Chain::on(&[angle]);
            let checked = sine_steps(&mut chain, angle);
            assert!(
                chain.result(checked).is_some(),
                "{x:e} leaves the plain singles"
            );
            let mut chain = Chain::bounded();
            let sine = sine_steps(&mut chain, angle);
            // plain for every reduced angle: the f64 steps are only a safety net
            assert_eq!(
                chain.result(sine).map(Ok),
                Some(poly_odd(x, &SIN_COEFFICIENTS)),
                "{x:e}"
            );
        };
        let mut next = xorshift(0x243F_6A88_85A3_08D3);
        for _ in 0..cases(300_000) {
            let r = next();
            // the angles the polynomial gets: 2^-12 to 1/4
            check(positive(0o164 + (r >> 8) % 12, r >> 32));
        }
        check(0.25);
        for man in [0, 1, 0x7F_FFFF] {
            for exp in 0o164..=0o177 {
                check(positive(exp, man));
            }
        }
    }

    #[test]
    fn logarithms_in_steps_taken_apart_are_the_f64_steps() {
        let f64_steps = |mantissa: f64, exponent: i32| {
            let ratio = div(poly(mantissa, &LOG_P)?, poly(mantissa, &LOG_Q)?)?;
            mul(add(f64::from(exponent), ratio)?, LN_2)
        };
        let mut next = xorshift(0x9B05_688C_2B3E_6C1F);
        for i in 0..cases(300_000) {
            let r = next();
            // mantissas in [1/2, 1) with every exponent a single has
            let mantissa = positive(0o200, r >> 32);
            let exponent = (r >> 8) as i32 % 128 - if i % 2 == 0 { 0 } else { 127 };
            let chain = log_chain(Single::of(mantissa), exponent).map(Ok);
            assert_eq!(
                chain,
                Some(f64_steps(mantissa, exponent)),
                "{mantissa} {exponent}"
            );
            let each_step = log_chain_in(Chain::on(&[]), Single::of(mantissa), exponent).map(Ok);
            assert_eq!(each_step, chain, "{mantissa} {exponent}");
        }
        for man in [0, 1, 2, 0x40_0000, 0x7F_FFFE, 0x7F_FFFF] {
            for exponent in [-128, -127, -1, 0, 1, 127] {
                let mantissa = positive(0o200, man);
                let chain = log_chain(Single::of(mantissa), exponent).map(Ok);
                assert_eq!(
                    chain,
                    Some(f64_steps(mantissa, exponent)),
                    "{mantissa} {exponent}"
                );
            }
        }
    }

    #[test]
    fn log_of_a_half_is_minus_ln_2() {
        // P(1/2)/Q(1/2) is -1 within a unit of the last place
        let r = log(0.5).unwrap();
        assert!((r + std::f64::consts::LN_2).abs() < 1e-7, "{r}");
    }

    /// `XTON` as the math pack runs it, `y` starting at 1 and multiplied for
    /// the first set bit too: the reference `powi` is held to.
    fn powi_from_one(x: f64, n: u32) -> Result<f64, Overflow> {
        let mut steps = Steps::default();
        let (mut result, mut square, mut n) = (1.0, x, n);
        loop {
            if n & 1 == 1 {
                result = steps.go(mul(result, square));
            }
            n >>= 1;
            if n == 0 {
                return steps.end(result);
            }
            square = steps.go(mul(square, square));
        }
    }

    #[test]
    fn whole_powers_skip_the_product_by_one_and_nothing_else() {
        let mut next = xorshift(0x3C6E_F372_FE94_F82B);
        for _ in 0..cases(20_000) {
            let r = next();
            // every exponent byte, so that powers overflow and underflow too
            let x = positive(1 + (r >> 8) % 255, r >> 32);
            let x = if r & 1 == 0 { x } else { -x };
            let n = if r & 2 == 0 {
                (r >> 16) as u32 % 41
            } else {
                (r >> 16) as u32 % 32768
            };
            assert_eq!(powi(x, n), powi_from_one(x, n), "{x:e} ^ {n}");
            if n > 0 {
                assert_eq!(
                    power(x, f64::from(n)),
                    Ok(powi_from_one(x, n)),
                    "{x:e} ^ {n}"
                );
            }
        }
        for x in [0.0, -0.0, 1.0, -1.0, SNG_MAX, -SNG_MAX] {
            for n in [0, 1, 2, 3, 255, 32767] {
                let (fast, slow) = (powi(x, n), powi_from_one(x, n));
                assert_eq!(
                    fast.map(f64::to_bits),
                    slow.map(f64::to_bits),
                    "{x:e} ^ {n}"
                );
            }
        }
    }

    #[test]
    fn square_roots_of_squares_are_exact() {
        for n in 1..2000u32 {
            let square = f64::from(n * n);
            assert_eq!(sqr(square), f64::from(n));
        }
        assert_eq!(sqr(0.25), 0.5);
    }
}
