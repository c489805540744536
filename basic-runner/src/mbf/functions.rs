//! `SQR SIN COS TAN ATN EXP LOG` and `^` as GW-BASIC's math pack computes them.
//!
//! GW-BASIC does not call a floating-point library: each function is a short
//! chain of single-precision operations (Hart's polynomial approximations,
//! Horner's rule) whose every step rounds as Microsoft Binary Format rounds, so
//! the last printed digit is the one those steps leave, not the correctly
//! rounded one (`ATN(1)` is `.7853982`, `EXP(1)` `2.718282`, `SQR(2)`
//! `1.414214`). The algorithms and coefficients here are the ones of GW-BASIC's
//! published math pack (MATH1/MATH2, 1983): the steps run on this module's MBF
//! `add`/`mul`/`div`, and `SIN`/`COS` reduce their argument in double precision
//! first, as GW-BASIC does since 1982.

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
    let quarters = fraction << 2;
    let quadrant = quarters >> POINT;
    let mut within = quarters & (ONE - 1);
    if quadrant & 1 == 1 {
        within = round_significant(ONE - within, DOUBLE_BITS);
    }
    let x = to_single(within);
    let sine = if exponent_byte(x) < 0o164 {
        mul(x, TWO_PI)?
    } else {
        poly_odd(x, &SIN_COEFFICIENTS)?
    };
    Ok(if quadrant >= 2 && sine != 0.0 {
        -sine
    } else {
        sine
    })
}

/// `SIN(x)` of a single.
pub(crate) fn sin(x: f64) -> Result<f64, Overflow> {
    // below 2^-9 the sine is the argument itself
    if exponent_byte(x) < 0o167 {
        return Ok(x);
    }
    let sine = sine_of_turns(turns(x.abs()))?;
    Ok(if x < 0.0 && sine != 0.0 { -sine } else { sine })
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
    let exponent = exponent_byte(x) - 0o200;
    let mantissa = x * pow2(-exponent);
    let ratio = div(poly(mantissa, &LOG_P)?, poly(mantissa, &LOG_Q)?)?;
    mul(add(f64::from(exponent), ratio)?, LN_2)
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
/// `y = y·z` for each set bit of n, `z = z·z` between them.
pub(crate) fn powi(x: f64, n: u32) -> Result<f64, Overflow> {
    let mut steps = Steps::default();
    let mut result = 1.0;
    let mut square = x;
    let mut n = n;
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

#[cfg(test)]
mod tests {
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

    #[test]
    fn log_of_a_half_is_minus_ln_2() {
        // P(1/2)/Q(1/2) is -1 within a unit of the last place
        let r = log(0.5).unwrap();
        assert!((r + std::f64::consts::LN_2).abs() < 1e-7, "{r}");
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
