//! Single precision as GW-BASIC computes it: Microsoft Binary Format arithmetic.
//!
//! Values stay `f64`s holding a 24-bit mantissa (every MBF single in range is one),
//! but `+ - * /`, the decimal conversions of `PRINT`/`STR$` and the reading of
//! numbers go through GW-BASIC's own algorithms here, because IEEE rounding
//! differs from them in the last bit of one operation in twenty, and GW-BASIC's
//! decimal conversion rounds differently too (`PRINT 1/3` shows `.3333334`).
//! The quirks below (a strict `>` in the long division, the sticky bit of the
//! addition, the carry rounding of the conversions) are what makes transcripts
//! match byte for byte; they were checked against PC-BASIC's emulation.

/// A number taken apart: the MBF exponent byte (0 is zero, value = `man` ×
/// 2^(exp − 160)), a 32-bit mantissa with the top bit set whose low byte holds
/// the bits below the 24 kept ones, and the sign.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Den {
    exp: i32,
    man: u64,
    neg: bool,
}

const TOP_BIT: u64 = 0x8000_0000;
const MAN_LIMIT: u64 = 0x1_0000_0000;
const KEEP: u64 = 0xFFFF_FF00;
/// The exponent byte of a number whose 24-bit mantissa is read as an integer.
const INT_BIAS: i32 = 152;
const TEN: Den = Den {
    exp: 132,
    man: 0xA000_0000,
    neg: false,
};
/// 9999999 and 999999.94, the largest singles below 10^7 and 10^6.
const SEVEN_DIGITS_TOP: Den = Den {
    exp: 152,
    man: 0x9896_7F00,
    neg: false,
};
const SEVEN_DIGITS_BOTTOM: Den = Den {
    exp: 148,
    man: 0xF423_FF00,
    neg: false,
};

pub(crate) mod functions;
mod single;

/// A result beyond the largest single: GW-BASIC's `Overflow`, carrying the signed maximum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Overflow(pub(crate) f64);

fn unpack(value: f64) -> Den {
    if value == 0.0 || !value.is_finite() {
        return Den {
            exp: 0,
            man: TOP_BIT,
            neg: false,
        };
    }
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7FF) as i32;
    // 1.f × 2^(e−1023) = 0.1f × 2^(e−1022); MBF's exponent byte is that power + 128
    let exp = biased - 1022 + 128;
    let man24 = (1 << 23) | ((bits & 0xF_FFFF_FFFF_FFFF) >> 29);
    if exp <= 0 {
        return unpack(0.0);
    }
    Den {
        exp: exp.min(255),
        man: man24 << 8,
        neg: value < 0.0,
    }
}

/// Rounds the carry byte (halves to even) and packs; zero below the smallest single.
fn normalise(den: Den) -> Result<f64, Overflow> {
    let Den {
        mut exp,
        mut man,
        neg,
    } = den;
    if man == 0 || exp <= 0 {
        return Ok(0.0);
    }
    // (a mantissa of exactly 0x7FFF_FFFF stays as it is and rounds up below)
    if man < TOP_BIT - 1 {
        let shift = man.leading_zeros().saturating_sub(32);
        exp -= shift as i32;
        man <<= shift;
    }
    let carry = man & 0xFF;
    let round_up = carry > 0x80 || (carry == 0x80 && man & 0x100 != 0);
    man = (man & KEEP) + if round_up { 0x100 } else { 0 };
    if man >= MAN_LIMIT {
        exp += 1;
        man >>= 1;
    }
    if exp > 255 {
        let sign = if neg { -1.0 } else { 1.0 };
        return Err(Overflow(sign * crate::number::SNG_MAX));
    }
    if exp <= 0 {
        return Ok(0.0);
    }
    Ok(pack(exp, man, neg))
}

/// The `f64` of a normalised mantissa (top bit 31 set) and an exponent byte in 1..=255.
#[inline(always)]
fn pack(exp: i32, man: u64, neg: bool) -> f64 {
    // 0.1f × 2^(exp−128) = 1.f × 2^(exp−129)
    let biased = (exp - 129 + 1023) as u64;
    let fraction = (man & 0x7FFF_FFFF) << 21;
    f64::from_bits((u64::from(neg) << 63) | (biased << 52) | fraction)
}

fn add_den(left: Den, right: Den) -> Den {
    if right.exp == 0 {
        return left;
    }
    if left.exp == 0 {
        return right;
    }
    let (small, large) = if left.exp > right.exp || (left.exp == right.exp && left.man > right.man)
    {
        (right, left)
    } else {
        (left, right)
    };
    let shift = (large.exp - small.exp) as u32;
    let lost_mask = 1u64.checked_shl(shift).map_or(u64::MAX, |bit| bit - 1);
    let nothing_lost = small.man & lost_mask == 0;
    let subtract = small.neg != large.neg;
    let small_man = small.man.checked_shr(shift).unwrap_or(0);
    if subtract && (small_man < 0x80 || (small_man == 0x80 && nothing_lost)) {
        return large;
    }
    let mut exp = large.exp;
    let (mut man, neg) = if subtract {
        (large.man - small_man, large.neg)
    } else {
        let mut sum = small_man + large.man;
        if sum >= MAN_LIMIT {
            exp += 1;
            sum >>= 1;
        }
        (sum, small.neg)
    };
    if !nothing_lost && !subtract {
        // a sticky bit, so that a lost tail breaks a tie upwards
        man |= 1;
    }
    if subtract && man & 0x1C0 == 0x80 && man & 0x1DF != 0x80 {
        man &= KEEP + 0x7F;
    }
    Den { exp, man, neg }
}

fn div_den(left: Den, right: Den) -> Den {
    // the divisor's top bit is set (unpack's zero too): 32 steps, one bit each
    let exp = left.exp - (right.exp - INT_BIAS - 8) + 1 - 32;
    let divisor = right.man;
    // While the divisor only halves (its low byte is clear: 9 steps), a step takes
    // it where `remainder > divisor`, i.e. `remainder - 1 >= divisor`: those 9
    // bits are one integer division of `remainder - 1`. The remainder is below
    // twice the divisor, so the quotient fits in 9 bits.
    // Mantissas are 32-bit words: a 32-bit division is the cheaper instruction.
    debug_assert!(left.man < MAN_LIMIT && divisor < MAN_LIMIT);
    let low = (divisor >> 8) as u32;
    let dividend = (left.man as u32).saturating_sub(1);
    let mut quotient = u64::from(dividend / low);
    // The remainder less one (the remainder is at least 1), so that
    // `remainder > divisor` is a subtraction that does not borrow.
    let mut below = u64::from(dividend % low);
    let mut divisor = u64::from(low >> 1);
    // from here on each halving cuts the divisor's last bit, step by step;
    // without a branch per bit: the quotient's bits are data, and a mispredicted
    // branch for each of them cost more than the arithmetic. A step waits for
    // one subtraction and the select on its borrow.
    for _ in 0..23 {
        let (difference, borrow) = below.overflowing_sub(divisor);
        quotient = (quotient << 1) | u64::from(!borrow);
        below = std::hint::select_unpredictable(borrow, below, difference);
        divisor >>= 1;
    }
    Den {
        exp,
        man: quotient,
        neg: left.neg != right.neg,
    }
}

/// The long division one bit a step, as the math pack runs it: the reference
/// `div_den` is tested against.
#[cfg(test)]
fn div_den_bitwise(left: Den, right: Den) -> Den {
    let mut exp = left.exp - (right.exp - INT_BIAS - 8) + 1;
    let mut remainder = left.man;
    let mut divisor = right.man;
    let mut quotient: u64 = 0;
    while divisor > 0 {
        let take = u64::from(remainder > divisor);
        quotient = (quotient << 1) | take;
        remainder -= divisor * take;
        exp -= 1;
        divisor >>= 1;
    }
    Den {
        exp,
        man: quotient,
        neg: left.neg != right.neg,
    }
}

fn div10(den: Den) -> Den {
    let mut result = div_den(den, TEN);
    while result.man < TOP_BIT {
        result.exp -= 1;
        result.man <<= 1;
    }
    result
}

fn mul10(den: Den) -> Den {
    // 10x = 2x + 8x
    add_den(
        Den {
            exp: den.exp + 1,
            ..den
        },
        Den {
            exp: den.exp + 3,
            ..den
        },
    )
}

fn apply_carry(den: Den) -> Den {
    let Den {
        mut exp,
        mut man,
        neg,
    } = den;
    if man & 0xFF > 0x7F {
        man += 0x100;
    }
    if man >= MAN_LIMIT {
        exp += 1;
        man >>= 1;
    }
    Den {
        exp,
        man: man & !0xFF,
        neg,
    }
}

fn magnitude_above(left: Den, right: Den) -> bool {
    (left.exp, left.man) > (right.exp, right.man)
}

/// An integer as a single: the mantissa keeps its top 24 bits (the rest is cut off).
fn from_int(value: u128) -> Den {
    if value == 0 {
        return unpack(0.0);
    }
    let mut man = value;
    let mut exp = INT_BIAS;
    while man <= 0x7F_FFFF {
        exp -= 1;
        man <<= 1;
    }
    while man > 0xFF_FFFF {
        exp += 1;
        man >>= 1;
    }
    Den {
        exp,
        man: ((man as u64) << 8) | TOP_BIT,
        neg: false,
    }
}

fn just_under(den: Den) -> Den {
    let value = normalise(Den {
        man: den.man - 0x100,
        ..den
    })
    .unwrap_or(crate::number::SNG_MAX);
    unpack(value)
}

/// A result that `f64` arithmetic got exactly and that is a single already: MBF
/// arithmetic yields the same, so the hot loops skip it. Not below MBF's
/// smallest number, where an `f32` still has subnormals but MBF only zero.
#[inline(always)]
fn exact(value: f64) -> Option<f64> {
    let single = f64::from(value as f32);
    // the magnitude's bits, which order as the magnitudes do
    let magnitude = value.to_bits() << 1;
    let smallest = MBF_SMALLEST.to_bits() << 1;
    let in_range = magnitude.wrapping_sub(smallest)
        <= (crate::number::SNG_MAX.to_bits() << 1) - smallest
        || magnitude == 0;
    (single == value && in_range).then_some(value)
}

/// `a + b` in single precision.
#[inline(always)]
pub(crate) fn add(a: f64, b: f64) -> Result<f64, Overflow> {
    let sum = a + b;
    if let Some(sum) = exact(sum) {
        return Ok(sum);
    }
    add_rounded(a, b, sum)
}

/// `add` where the sum is not a single: out of line, so that the exact case
/// stays small where the interpreter inlines it.
#[inline(never)]
fn add_rounded(a: f64, b: f64, sum: f64) -> Result<f64, Overflow> {
    let rounded = if (a.to_bits() ^ b.to_bits()) >> 63 == 0 {
        same_sign_sum(a, b, sum)
    } else {
        opposite_sign_sum(a, b)
    };
    rounded.unwrap_or_else(|| normalise(add_den(unpack(a), unpack(b))))
}

/// `add_den`'s subtraction of two singles of opposite signs, on the mantissas
/// straight from the `f64` bits (no `Den` to build and order): the smaller one
/// shifted right with its tail cut off, nothing added for it unless the shifted
/// mantissa is above half a unit of the 32-bit word, the borrow quirk, then
/// `normalise`. `None` for zero, `f64` subnormals, infinities and exponents
/// outside MBF's range, which `unpack` maps.
#[inline]
fn opposite_sign_sum(a: f64, b: f64) -> Option<Result<f64, Overflow>> {
    let (a_bits, b_bits) = (a.to_bits(), b.to_bits());
    let exponent = |bits: u64| (bits >> 52) & 0x7FF;
    // MBF exponent bytes 1..=255 are f64 biased exponents 895..=1149
    let in_range = |e: u64| (895..=1149).contains(&e);
    let (ea, eb) = (exponent(a_bits), exponent(b_bits));
    if !in_range(ea) || !in_range(eb) {
        return None;
    }
    let mantissa = |bits: u64| (((bits & 0xF_FFFF_FFFF_FFFF) >> 29) | (1 << 23)) << 8;
    let (ma, mb) = (mantissa(a_bits), mantissa(b_bits));
    // the larger magnitude; on a tie the right operand, as add_den orders them
    let ((large_exp, large_man, large_bits), (small_exp, small_man)) = if (ea, ma) > (eb, mb) {
        ((ea, ma, a_bits), (eb, mb))
    } else {
        ((eb, mb, b_bits), (ea, ma))
    };
    let shift = (large_exp - small_exp) as u32;
    let shifted = small_man.checked_shr(shift).unwrap_or(0);
    let nothing_lost = shift < 64 && small_man & ((1u64 << shift) - 1) == 0;
    if shifted < 0x80 || (shifted == 0x80 && nothing_lost) {
        // the larger operand unchanged (cut to its 24 bits, as unpack reads it)
        return Some(Ok(f64::from_bits(large_bits & !((1 << 29) - 1))));
    }
    let mut man = large_man - shifted;
    if man & 0x1C0 == 0x80 && man & 0x1DF != 0x80 {
        man &= KEEP + 0x7F;
    }
    Some(normalise(Den {
        exp: large_exp as i32 - 894,
        man,
        neg: large_bits >> 63 == 1,
    }))
}

/// `add_den`'s rounding of two singles of one sign, read off their `f64` sum,
/// which is exact while their exponents lie at most 28 apart: the 8 bits below
/// the 24 kept, a sticky bit for what the alignment shifted out, and after a
/// carry the 9th bit dropped (the math pack adds in every step). `None` where
/// `add_den` must do it.
#[inline]
fn same_sign_sum(a: f64, b: f64, sum: f64) -> Option<Result<f64, Overflow>> {
    let (a_bits, b_bits, bits) = (a.to_bits(), b.to_bits(), sum.to_bits());
    let exponent = |bits: u64| (bits >> 52) & 0x7FF;
    let (ea, eb) = (exponent(a_bits), exponent(b_bits));
    if (a_bits ^ b_bits) >> 63 != 0 || ea == 0 || eb == 0 || ea.abs_diff(eb) > 28 {
        return None;
    }
    let biased = exponent(bits);
    let carry = biased > ea.max(eb);
    let mantissa = (bits & 0xF_FFFF_FFFF_FFFF) | (1 << 52);
    let mut man24 = mantissa >> 29;
    let below = mantissa & ((1 << 29) - 1);
    let shifted_out = if carry {
        below & ((1 << 20) - 1)
    } else {
        below & ((1 << 21) - 1)
    };
    let guard = (below >> 21) | u64::from(shifted_out != 0);
    if guard > 0x80 || (guard == 0x80 && man24 & 1 == 1) {
        man24 += 1;
    }
    Some(packed_single(bits, biased, man24))
}

/// A rounded 24-bit mantissa `man24` (which may have carried into bit 24) with the
/// sign of `bits` and the biased `f64` exponent `biased`, as a single: the carry
/// renormalised, a result beyond the largest single an overflow.
#[inline(always)]
fn packed_single(bits: u64, mut biased: u64, mut man24: u64) -> Result<f64, Overflow> {
    if man24 == 1 << 24 {
        man24 >>= 1;
        biased += 1;
    }
    let rounded = f64::from_bits((bits & (1 << 63)) | (biased << 52) | ((man24 & 0x7F_FFFF) << 29));
    if rounded.abs() > crate::number::SNG_MAX {
        return Err(Overflow(rounded.signum() * crate::number::SNG_MAX));
    }
    Ok(rounded)
}

/// `a - b` in single precision.
#[inline(always)]
pub(crate) fn sub(a: f64, b: f64) -> Result<f64, Overflow> {
    add(a, -b)
}

/// `a * b` in single precision.
#[inline(always)]
pub(crate) fn mul(a: f64, b: f64) -> Result<f64, Overflow> {
    let product = a * b;
    if let Some(product) = exact(product) {
        return Ok(product);
    }
    mul_rounded(product)
}

/// The MBF rounding of a product, taken from the `f64` product of two singles,
/// which is exact (24 × 24 bits fit in 53): the same bits as `mul_slow`, which
/// keeps 4 bits below the 24 (cutting the rest), reads a `1001` there as a tie
/// and rounds halves to even, without taking the operands apart (the math pack
/// runs on products).
#[inline(never)]
fn mul_rounded(product: f64) -> Result<f64, Overflow> {
    let bits = product.to_bits();
    let biased = (bits >> 52) & 0x7FF;
    if product == 0.0 || !product.is_finite() || biased == 0 {
        return mul_slow_product(product);
    }
    let mantissa = (bits & 0xF_FFFF_FFFF_FFFF) | (1 << 52);
    let kept = mantissa >> 25;
    let guard = kept & 0xF;
    let mut man24 = kept >> 4;
    if guard > 9 || (guard >= 8 && man24 & 1 == 1) {
        man24 += 1;
    }
    let rounded = packed_single(bits, biased, man24)?;
    // below MBF's smallest number (2^-128) there is only zero
    if rounded.abs() < MBF_SMALLEST {
        return Ok(0.0);
    }
    Ok(rounded)
}

/// 2^-128, the smallest MBF number (exponent byte 1).
const MBF_SMALLEST: f64 = f64::from_bits((1023 - 128) << 52);

fn mul_slow_product(product: f64) -> Result<f64, Overflow> {
    if product == 0.0 {
        return Ok(0.0);
    }
    let sign = if product < 0.0 { -1.0 } else { 1.0 };
    if product.is_finite() {
        // an f64 subnormal is far below MBF's range
        return Ok(0.0);
    }
    Err(Overflow(sign * crate::number::SNG_MAX))
}

/// The long multiplication taken apart as GW-BASIC does it: the reference
/// `mul_rounded` is tested against.
#[cfg(test)]
fn mul_slow(a: f64, b: f64) -> Result<f64, Overflow> {
    if a == 0.0 || b == 0.0 {
        return Ok(0.0);
    }
    let (left, right) = (unpack(a), unpack(b));
    let mut exp = left.exp + right.exp - INT_BIAS - 8;
    if exp < -31 {
        return Ok(0.0);
    }
    // the product of two mantissas with their top bits set is at least 2^62:
    // shift it down into (2^27, 2^28], the bits below simply falling off
    let mut man = left.man * right.man;
    let mut shift = (64 - man.leading_zeros()).saturating_sub(29);
    if man >> shift > MAN_LIMIT >> 4 {
        shift += 1;
    }
    man >>= shift;
    exp += shift as i32;
    if man & 0xF == 0x9 {
        man &= KEEP + 0xFE;
    }
    normalise(Den {
        exp,
        man,
        neg: left.neg != right.neg,
    })
}

/// `a / b` in single precision; `b` is not zero.
#[inline(always)]
pub(crate) fn div(a: f64, b: f64) -> Result<f64, Overflow> {
    // an exact quotient comes out of the long division exact too
    if let Some(quotient) = exact(a / b)
        && quotient * b == a
    {
        return Ok(quotient);
    }
    div_slow(a, b)
}

fn div_slow(a: f64, b: f64) -> Result<f64, Overflow> {
    if a == 0.0 {
        return Ok(0.0);
    }
    normalise(div_den(unpack(a), unpack(b)))
}

/// The number as `digits` decimal digits (an integer below 10^digits) and the power
/// of ten of its last digit, rounded as GW-BASIC's `PRINT` rounds.
pub(crate) fn to_decimal(value: f64, digits: i32) -> (u64, i32) {
    let (top, bottom) = if digits >= 7 {
        (SEVEN_DIGITS_TOP, SEVEN_DIGITS_BOTTOM)
    } else if digits > 0 {
        (
            just_under(from_int(10u128.pow(digits as u32))),
            just_under(from_int(10u128.pow(digits as u32 - 1))),
        )
    } else {
        (just_under(from_int(1)), from_int(0))
    };
    let mut den = unpack(value.abs());
    let mut exp10 = 0;
    while magnitude_above(den, top) {
        den = div10(den);
        exp10 += 1;
    }
    den = apply_carry(den);
    while magnitude_above(bottom, den) {
        den = mul10(den);
        exp10 -= 1;
    }
    den = apply_carry(den);
    let shift = INT_BIAS - den.exp;
    let mut man = if shift >= 0 {
        den.man.checked_shr(shift as u32).unwrap_or(0)
    } else {
        den.man << (-shift).min(8)
    };
    if man & 0x80 != 0 {
        man += 0x80;
    }
    (man >> 8, exp10)
}

/// `mantissa × 10^exp10` as a single, by GW-BASIC's steps (exact digits, then
/// one rounding division or multiplication by ten per power).
pub(crate) fn from_decimal(mantissa: u128, exp10: i32, negative: bool) -> Result<f64, Overflow> {
    if mantissa == 0 {
        return Ok(0.0);
    }
    // past these every single is zero or an overflow; the bound keeps the loops short
    let exp10 = exp10.clamp(-90, 60);
    let mut den = from_int(mantissa);
    den.neg = negative;
    for _ in exp10..0 {
        den = div10(den);
    }
    for _ in 0..exp10.max(0) {
        den = mul10(den);
    }
    normalise(den)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_matches_gw_basic_where_ieee_differs() {
        // reference results from PC-BASIC's MBF emulation
        let cases: &[(&str, f64, f64, f64)] = &[
            ("-", 35_369.707, 0.009_044_889_360_666_275, 35_369.695_312_5),
            ("+", -167_640.125, 0.084_437_713_027_000_43, -167_640.031_25),
            (
                "*",
                -0.001_478_186_459_280_550_5,
                -37.796_363_830_566_406,
                0.055_870_071_053_504_944,
            ),
            (
                "/",
                -88.367_485_046_386_72,
                -0.373_586_624_860_763_55,
                236.538_146_972_656_25,
            ),
        ];
        for &(op, a, b, expected) in cases {
            let (a, b) = (f64::from(a as f32), f64::from(b as f32));
            let result = match op {
                "+" => add(a, b),
                "-" => sub(a, b),
                "*" => mul(a, b),
                _ => div(a, b),
            };
            assert_eq!(result, Ok(expected), "{a} {op} {b}");
        }
    }

    #[test]
    fn decimal_conversion_rounds_like_gw_basic() {
        let third = div(1.0, 3.0).unwrap();
        assert_eq!(to_decimal(third, 7), (3_333_334, -7));
        assert_eq!(to_decimal(1.0, 7), (1_000_000, -6));
        assert_eq!(to_decimal(1e7, 7), (1_000_000, 1));
        assert_eq!(from_decimal(1, -1, false), Ok(f64::from(0.1f32)));
        assert_eq!(from_decimal(15, 2, true), Ok(-1500.0));
    }

    #[test]
    fn products_round_as_the_long_multiplication_does() {
        // a fixed sequence of singles across the whole MBF range
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200_000 {
            let (x, y) = (next(), next());
            let single = |r: u64| {
                let exponent = (r >> 24) % 254 + 1;
                unpack_value(exponent as i32, (r & 0xFF_FFFF) | 0x80_0000, r >> 63 == 1)
            };
            let (a, b) = (single(x), single(y));
            assert_eq!(mul(a, b), mul_slow(a, b), "{a:e} * {b:e}");
        }
    }

    #[test]
    fn sums_of_one_sign_round_as_the_aligned_addition_does() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for _ in 0..400_000 {
            let (x, y) = (next(), next());
            let exponent = (x >> 24) % 250 + 3;
            // exponents apart by 0 to 40, both signs
            let gap = (y >> 40) % 41;
            let other = exponent.saturating_sub(gap).max(1);
            let neg = x >> 63 == 1;
            let a = unpack_value(exponent as i32, (x & 0xFF_FFFF) | 0x80_0000, neg);
            let b = unpack_value(
                other as i32,
                (y & 0xFF_FFFF) | 0x80_0000,
                neg ^ (y >> 63 == 1 && y & 1 == 1),
            );
            let slow = normalise(add_den(unpack(a), unpack(b)));
            let expected = exact(a + b).map_or(slow, Ok);
            assert_eq!(add(a, b), expected, "{a:e} + {b:e}");
            assert_eq!(add(b, a), expected, "{b:e} + {a:e}");
        }
    }

    #[test]
    fn differences_round_as_the_aligned_subtraction_does() {
        let slow = |a: f64, b: f64| normalise(add_den(unpack(a), unpack(b)));
        let mut next = xorshift(0xD1B5_4A32_D192_ED03);
        for _ in 0..400_000 {
            let (x, y) = (next(), next());
            let exponent = (x >> 24) % 255 + 1;
            // exponents apart by 0 to 40, a third of them equal
            let gap = if y % 3 == 0 { 0 } else { (y >> 40) % 41 };
            let other = exponent.saturating_sub(gap).max(1);
            let neg = x >> 63 == 1;
            let a = unpack_value(exponent as i32, (x & 0xFF_FFFF) | 0x80_0000, neg);
            // mantissas close to each other too, for the cancellations
            let near = if y & 2 == 0 {
                y & 0xFF_FFFF
            } else {
                (x ^ (y >> 50)) & 0xFF_FFFF
            };
            let b = unpack_value(other as i32, near | 0x80_0000, !neg);
            assert_eq!(add(a, b), slow(a, b), "{a:e} + {b:e}");
            assert_eq!(add(b, a), slow(b, a), "{b:e} + {a:e}");
            assert_eq!(sub(a, -b), slow(a, b), "{a:e} - {:e}", -b);
        }
        let single = |exp: i32, man24: u64| unpack_value(exp, man24, false);
        let max = crate::number::SNG_MAX;
        let cases: &[(f64, f64)] = &[
            // cancellation: neighbours, and neighbours across a power of two
            (single(129, 0x80_0001), single(129, 0x80_0000)),
            (single(129, 0x80_0000), single(128, 0xFF_FFFF)),
            (single(129, 0xC0_0000), single(129, 0xC0_0000)),
            // borrow: the cut tail of the smaller one, from 1 to 40 places down
            (single(129, 0x80_0000), single(105, 0x80_0001)),
            (single(129, 0x80_0000), single(104, 0xFF_FFFF)),
            (single(129, 0x80_0000), single(103, 0x80_0000)),
            (single(129, 0x80_0000), single(103, 0x80_0001)),
            (single(129, 0x80_0000), single(100, 0x80_0000)),
            (single(129, 0xFF_FFFF), single(105, 0xFF_FFFF)),
            (single(129, 0x80_0000), single(89, 0x80_0000)),
            // the borrow quirk's bit patterns
            (single(140, 0x80_0002), single(115, 0xA0_0001)),
            (single(140, 0x80_0003), single(116, 0x90_0001)),
            // rounding up to the next exponent
            (single(129, 0xFF_FFFF), single(105, 0x80_0000)),
            (single(129, 0x80_0000), single(104, 0x80_0001)),
            // below the smallest single: zero
            (single(1, 0x80_0001), single(1, 0x80_0000)),
            (single(2, 0x80_0000), single(1, 0xFF_FFFF)),
            (single(1, 0xFF_FFFF), single(1, 0x80_0000)),
            // at the top of the range
            (max, single(200, 0x80_0000)),
            (max, single(231, 0xC0_0000)),
            (max, max),
            (max, 0.0),
            (0.0, max),
        ];
        for &(a, b) in cases {
            for (x, y) in [(a, -b), (-a, b), (-b, a), (b, -a)] {
                assert_eq!(add(x, y), slow(x, y), "{x:e} + {y:e}");
                let fast = opposite_sign_sum(x, y).unwrap_or_else(|| slow(x, y));
                assert_eq!(fast, slow(x, y), "{x:e} + {y:e} without the exact shortcut");
            }
        }
        assert_eq!(add(single(1, 0x80_0001), -single(1, 0x80_0000)), Ok(0.0));
    }

    #[test]
    fn exact_results_below_the_smallest_single_are_zero() {
        // exact in f32 (a subnormal there), but under MBF's 2^-128
        let tiny = unpack_value(60, 0x80_0000, false);
        assert_eq!(mul(tiny, tiny), mul_slow(tiny, tiny));
        assert_eq!(mul(tiny, tiny), Ok(0.0));
        let small = unpack_value(5, 0x80_0000, true);
        assert_eq!(div(small, 1024.0), div_slow(small, 1024.0));
        assert_eq!(div(small, 1024.0), Ok(0.0));
    }

    #[test]
    fn quotients_come_out_as_the_bit_by_bit_division_does() {
        let den = |exp: i32, man: u64, neg: bool| Den { exp, man, neg };
        let mut next = xorshift(0x6A09_E667_F3BC_C908);
        for _ in 0..300_000 {
            let (x, y) = (next(), next());
            // dividends with their low byte set too (div10 divides those)
            let low = if y & 1 == 0 { 0 } else { x >> 56 };
            let left = den(
                (x >> 32) as i32 & 0xFF,
                ((x & 0xFF_FFFF) | 0x80_0000) << 8 | low,
                false,
            );
            let right = den(
                (y >> 32) as i32 & 0xFF,
                ((y & 0xFF_FFFF) | 0x80_0000) << 8,
                y >> 63 == 1,
            );
            assert_eq!(
                div_den(left, right),
                div_den_bitwise(left, right),
                "{left:?} / {right:?}"
            );
        }
        let mantissas = [
            0x8000_0000,
            0x8000_0100,
            0x8000_0001,
            0xFFFF_FF00,
            0xFFFF_FFFF,
            0xA000_0000,
            0xC000_0000,
            0xAAAA_AA00,
            0,
        ];
        for &l in &mantissas {
            for &r in mantissas.iter().filter(|&&r| r >= TOP_BIT && r & 0xFF == 0) {
                let (left, right) = (den(129, l, false), den(129, r, true));
                assert_eq!(
                    div_den(left, right),
                    div_den_bitwise(left, right),
                    "{l:#x} / {r:#x}"
                );
            }
        }
        // whole divisions: overflow, underflow to zero, the largest and smallest
        let max = crate::number::SNG_MAX;
        let smallest = unpack_value(1, 0x80_0000, false);
        let slow = |a: f64, b: f64| normalise(div_den_bitwise(unpack(a), unpack(b)));
        for (a, b) in [
            (max, 0.5),
            (max, -0.25),
            (smallest, 2.0),
            (smallest, 3.0),
            (-smallest, 0.75),
            (max, max),
            (1.0, 3.0),
            (2.0, 3.0),
            (1.0, max),
            (smallest, max),
        ] {
            assert_eq!(div(a, b), slow(a, b), "{a:e} / {b:e}");
        }
    }

    #[test]
    fn a_carry_drops_its_last_bit_before_rounding() {
        // 0xFF8001 + 0x800001 / 2^8 carries: the bits below the 24 kept are a
        // tie and a dropped 1, which add_den rounds to even (down), not up
        let a = unpack_value(140, 0xFF_8001, false);
        let b = unpack_value(132, 0x80_0001, false);
        let down = unpack_value(141, 0x80_0000, false);
        assert_eq!(normalise(add_den(unpack(a), unpack(b))), Ok(down));
        assert_eq!(add(a, b), Ok(down));
        assert_eq!(add(b, a), Ok(down));
    }

    /// A case count for the debug suite, 25 times more in a release build
    /// (`cargo test --release -p basic-runner --lib mbf`: the long run).
    pub(super) fn cases(debug: usize) -> usize {
        if cfg!(debug_assertions) {
            debug
        } else {
            debug * 25
        }
    }

    /// A fixed pseudo-random sequence (xorshift64) for the equivalence tests.
    pub(super) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    fn unpack_value(exp: i32, man24: u64, neg: bool) -> f64 {
        pack(exp, man24 << 8, neg)
    }

    #[test]
    fn overflow_carries_the_signed_maximum() {
        let max = crate::number::SNG_MAX;
        assert_eq!(mul(max, 2.0), Err(Overflow(max)));
        assert_eq!(mul(-max, 2.0), Err(Overflow(-max)));
        assert_eq!(to_decimal(functions::sqr(2.0), 7), (1_414_214, -6));
    }
}
