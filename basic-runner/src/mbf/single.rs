//! The math pack's chains of single-precision steps without packing between them.
//!
//! A `SIN` or a `LOG` is some fifteen MBF operations in a row, each rounded as
//! GW-BASIC rounds. Going through `f64` for each of them (`mbf::add`, `mul`)
//! unpacks and packs the value at every step and decides the rounding with
//! branches on the value's bits, which the processor cannot predict. Here a value
//! is its `f64`'s bits from the first step of a chain to the last: a product or a
//! sum of one sign is the `f64` operation (exact) rounded by integer arithmetic
//! on its bits, a difference is aligned and quirked in a 32-bit word as the math
//! pack does it and normalised by converting the word to `f64`, and no rounding
//! branches on the value. Each operation
//! yields what `mbf::add`, `mul` and `div` yield for a result inside MBF's range
//! and not zero (`Single::is_plain`); a chain that leaves that (an overflow, an
//! underflow, a cancellation to zero) is run again by the `f64` steps, which know
//! those cases. The tests below hold each operation to its `f64` twin.

use super::{Den, div_den};

/// A single precision number as the bits of the `f64` that holds it: value =
/// 1.f × 2^(e − 1023), where the exponent field e is the MBF exponent byte + 894
/// and only the fraction's top 23 bits are used. An `f64` multiplies two of them
/// exactly, a carry out of a rounded mantissa runs into the exponent field by
/// itself, and the value is its own `f64`: no packing between steps. Outside
/// `is_plain` (zero, or out of MBF's range), only says its chain must be run again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Single {
    bits: u64,
}

/// The bits of an `f64`'s fraction below a single's 24.
const F64_CUT: u32 = 29;
const SIGN: u64 = 1 << 63;
const FRACTION: u64 = (1 << 52) - 1;
/// The `f64` exponent field of MBF's exponent byte 0.
const FIELD_OF_BYTE_0: u64 = 894;

impl Single {
    /// A single's `f64`; zero and values outside MBF's range come out not plain.
    #[inline(always)]
    pub(super) const fn of(value: f64) -> Single {
        Single {
            bits: value.to_bits(),
        }
    }

    /// From the parts: a mantissa in [2^23, 2^24] (2^24 is carried into the
    /// exponent) and the exponent byte (1 or more).
    #[inline(always)]
    pub(super) fn from_parts(man: u64, exp: i32, neg: bool) -> Single {
        Single::packed(u64::from(neg) << 63, exp as u64 + FIELD_OF_BYTE_0, man)
    }

    /// `sign` (the sign bit alone), an exponent field and a mantissa in [2^23,
    /// 2^24]: the mantissa's top bit adds one to the field below it, and a
    /// mantissa of 2^24 adds two, which is the carry into the next exponent.
    #[inline(always)]
    fn packed(sign: u64, field: u64, man: u64) -> Single {
        Single {
            bits: sign | ((field.wrapping_sub(1) << 52).wrapping_add(man << F64_CUT)),
        }
    }

    /// A whole number between −2^24 and 2^24, not zero.
    #[inline(always)]
    pub(super) fn of_int(value: i32) -> Single {
        Single::of(f64::from(value))
    }

    /// The `f64` exponent field.
    #[inline(always)]
    fn field(self) -> u64 {
        (self.bits >> 52) & 0x7FF
    }

    /// Inside MBF's range (exponent byte 1 to 255) and not zero: where every
    /// operation here is its `f64` twin's.
    #[inline(always)]
    pub(super) fn is_plain(self) -> bool {
        self.field().wrapping_sub(FIELD_OF_BYTE_0 + 1) <= 254
    }

    /// The MBF exponent byte (0 for zero).
    pub(super) fn exponent_byte(self) -> i32 {
        match self.field() {
            0 => 0,
            field => field as i32 - FIELD_OF_BYTE_0 as i32,
        }
    }

    /// The same mantissa and sign with another exponent byte.
    pub(super) fn with_exponent_byte(self, exp: i32) -> Single {
        Single {
            bits: (self.bits & !(0x7FF << 52)) | ((exp as u64 + FIELD_OF_BYTE_0) << 52),
        }
    }

    /// The 24-bit mantissa, the top bit set.
    #[inline(always)]
    pub(super) fn mantissa(self) -> u64 {
        ((self.bits >> F64_CUT) & 0x7F_FFFF) | (1 << 23)
    }

    pub(super) fn is_negative(self) -> bool {
        self.bits >> 63 == 1
    }

    /// The `f64` of a plain single.
    #[inline(always)]
    pub(super) fn to_f64(self) -> f64 {
        f64::from_bits(self.bits)
    }

    /// `mbf::mul`: the 48-bit product cut to 28 bits, the 4 below the 24 kept read
    /// as halves to even with a `1001` taken for a tie.
    #[inline(always)]
    pub(super) fn mul(self, other: Single) -> Single {
        // exact: 24 × 24 bits fit in an f64's 53, and the exponents in its range
        let product = (self.to_f64() * other.to_f64()).to_bits();
        // The top 27 bits: up from a guard of 5 on, and from 4 on when the kept
        // bits are odd (halves to even on the nibble's top three bits; its
        // fourth bit never counts). Adding 3 and the kept bits' last one carries
        // exactly then, into the exponent field where the mantissa was all ones.
        let kept = product >> (52 - 26);
        let rounded = (kept + 3 + ((kept >> 3) & 1)) >> 3;
        Single {
            bits: rounded << F64_CUT,
        }
    }

    /// `mbf::add`: the smaller one aligned with its tail cut off (a sticky bit for
    /// it in a sum, nothing in a difference), the subtraction's borrow quirk, and
    /// the carry byte rounded halves to even.
    #[inline(always)]
    pub(super) fn add(self, other: Single) -> Single {
        // the larger magnitude; on a tie the right operand, as add_den orders them.
        // A branch, not a select: a step of a chain nearly always has the same
        // order, and a predicted branch keeps the order out of the step's latency.
        if self.bits & !SIGN > other.bits & !SIGN {
            add_ordered(other, self)
        } else {
            add_ordered(self, other)
        }
    }

    /// `mbf::div`: the long division of the mantissas as `div_den` runs it.
    ///
    /// `div_den`'s last 23 steps cut the divisor's last bit at each halving, so
    /// its quotient is at least the quotient by the uncut divisor and at most 23
    /// units above it (each of the 23 steps leaves less than one unit behind).
    /// Where both ends of that range round to the same single, that is the
    /// result, from one integer division; near a rounding boundary (13 % of
    /// random mantissa pairs) the long division decides.
    #[inline(always)]
    pub(super) fn div(self, other: Single) -> Single {
        // the quotient's exponent byte is self's − other's + 129 before normalising
        let field = (self.field() + FIELD_OF_BYTE_0 + 129).wrapping_sub(other.field());
        let like = ((self.bits ^ other.bits) & SIGN) | (field << 52);
        let least = ((self.mantissa() << 31) - 1) / other.mantissa();
        let low = from_word(least, like);
        if low == from_word(least + MAX_CUT_EXCESS, like) {
            return low;
        }
        // div_den's exponent is the same as `field`'s
        from_word(div_den(self.den(), other.den()).man, like)
    }

    fn den(self) -> Den {
        Den {
            exp: self.exponent_byte(),
            man: self.mantissa() << 8,
            neg: self.is_negative(),
        }
    }
}

/// `Single::add` of a smaller and a larger (or equal) magnitude.
#[inline(always)]
fn add_ordered(small: Single, large: Single) -> Single {
    if (small.bits ^ large.bits) & SIGN == 0 {
        return same_sign_sum(small, large);
    }
    let large_field = large.field();
    let shift = (large_field - small.field()).min(32);
    let small_word = small.mantissa() << 8;
    // the smaller one adds nothing unless, aligned, it is above half a unit of
    // the word's low byte (its cut tail counting as a little above)
    if small_word <= 0x80 << shift {
        return large;
    }
    let shifted = small_word >> shift;
    let mut word = (large.mantissa() << 8) - shifted;
    // the borrow quirk: bits 8-6 `010` and some of bits 4-0 set lose bit 7
    if (word & 0x1DF).wrapping_sub(0x81) < 0x1F {
        word &= !0x80;
    }
    from_word(word, large.bits)
}

/// A word of 32 bits or fewer (the low byte below the 24 kept) in the binade
/// of `like` (its sign and exponent field), normalised and rounded halves to
/// even as `normalise` does; zero stays zero, which is not plain. An `f64`
/// holds the word exactly and normalises it by itself: its conversion and a
/// multiplication by a power of two replace counting the leading zeros.
#[inline(always)]
fn from_word(word: u64, like: u64) -> Single {
    // word × 2^(exponent byte − 160): the f64 exponent field 31 below `like`'s
    let scale = f64::from_bits((like & !FRACTION) - (31 << 52));
    let value = (word as i64 as f64 * scale).to_bits();
    Single {
        bits: round_bits(value),
    }
}

/// An `f64`'s bits rounded to a single's 24 bits, halves to even: adding
/// 2^28 − 1 and the kept bits' last one carries exactly then (into the
/// exponent field too).
#[inline(always)]
fn round_bits(bits: u64) -> u64 {
    let half = (1 << (F64_CUT - 1)) - 1 + ((bits >> F64_CUT) & 1);
    (bits + half) & !((1 << F64_CUT) - 1)
}

/// `add_ordered` of two singles of one sign, read off their `f64` sum, which is
/// exact while their exponents lie at most 29 apart (and beyond that rounds to
/// the larger one, as the aligned sum does). The aligned sum rounds halves to
/// even on its carry byte with a sticky bit for the cut tail: the `f64` sum's
/// rounding at 24 bits, but for one bit: after a carry into the next exponent
/// the bit shifted out of the word is dropped, not made sticky. Cleared in the
/// `f64` sum (it lies 9 places below the 24 kept), it rounds as it does there.
#[inline(always)]
fn same_sign_sum(small: Single, large: Single) -> Single {
    let sum = (small.to_f64() + large.to_f64()).to_bits();
    let carry = (sum ^ large.bits) >> 52 != 0;
    let bits = sum & !(u64::from(carry) << (F64_CUT - 9));
    Single {
        bits: round_bits(bits),
    }
}

/// How far `div_den`'s quotient can lie above the one by the uncut divisor.
const MAX_CUT_EXCESS: u64 = 23;

/// A chain of steps and whether all of them stayed plain.
pub(super) struct Chain {
    plain: bool,
    /// Whether each step is checked; not for a chain whose every step is known
    /// to stay plain on its domain (only its result is then checked).
    each_step: bool,
}

impl Chain {
    /// A chain on these inputs that checks each step (the tests run the
    /// bounded chains beside one).
    #[cfg(test)]
    pub(super) fn on(inputs: &[Single]) -> Chain {
        Chain {
            plain: inputs.iter().all(|x| x.is_plain()),
            each_step: true,
        }
    }

    /// A chain whose steps stay plain for every input in its domain, as its
    /// equivalence test shows: only the result is checked.
    #[inline(always)]
    pub(super) fn bounded() -> Chain {
        Chain {
            plain: true,
            each_step: false,
        }
    }

    #[inline(always)]
    fn check(&mut self, x: Single) -> Single {
        if self.each_step {
            self.plain &= x.is_plain();
        }
        x
    }

    /// `x`, checked in a chain that does not check each step.
    #[inline(always)]
    pub(super) fn checked(&mut self, x: Single) -> Single {
        self.plain &= x.is_plain();
        x
    }

    #[inline(always)]
    pub(super) fn mul(&mut self, a: Single, b: Single) -> Single {
        self.check(a.mul(b))
    }

    #[inline(always)]
    pub(super) fn add(&mut self, a: Single, b: Single) -> Single {
        self.check(a.add(b))
    }

    #[inline(always)]
    pub(super) fn div(&mut self, a: Single, b: Single) -> Single {
        self.check(a.div(b))
    }

    /// One step of Horner's rule (`$POLY`): `acc·x + c`.
    #[inline(always)]
    pub(super) fn step(&mut self, acc: Single, x: Single, c: Single) -> Single {
        let product = self.mul(acc, x);
        self.add(product, c)
    }

    /// The chain's result as an `f64`, or `None` where a step left the plain
    /// singles and the `f64` steps must run it.
    #[inline(always)]
    pub(super) fn result(self, x: Single) -> Option<f64> {
        (self.plain && x.is_plain()).then(|| x.to_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cases, xorshift};
    use super::super::{Overflow, add, div, mul};
    use super::*;

    /// A single with this exponent byte, from a random word's mantissa bits and sign.
    fn single(exp: u64, r: u64) -> f64 {
        Single::from_parts((r & 0xFF_FFFF) | 0x80_0000, exp as i32, r >> 63 == 1).to_f64()
    }

    /// The fast operation against its `f64` twin: equal wherever the fast result is plain.
    fn agree(
        name: &str,
        fast: impl Fn(Single, Single) -> Single,
        slow: impl Fn(f64, f64) -> Result<f64, Overflow>,
        a: f64,
        b: f64,
    ) -> bool {
        let quick = fast(Single::of(a), Single::of(b));
        let reference = slow(a, b);
        if !quick.is_plain() {
            // out of range or zero: the f64 step must have left the plain singles too
            assert!(
                reference.map_or(true, |r| r == 0.0 || !Single::of(r).is_plain()),
                "{name}: {a:e}, {b:e}: not plain, but {reference:?}"
            );
            return false;
        }
        assert_eq!(Ok(quick.to_f64()), reference, "{name}: {a:e}, {b:e}");
        true
    }

    #[test]
    fn conversions_keep_the_value() {
        let mut next = xorshift(0x8F1B_BCDC_BF6A_C3A1);
        for _ in 0..100_000 {
            let x = single(next() % 255 + 1, next());
            assert_eq!(Single::of(x).to_f64(), x);
            assert!(Single::of(x).is_plain());
        }
        assert!(!Single::of(0.0).is_plain());
        for n in (-70_000..70_000).filter(|&n| n != 0) {
            assert_eq!(Single::of_int(n).to_f64(), f64::from(n));
        }
        assert_eq!(Single::from_parts(1 << 24, 129, false).to_f64(), 2.0);
    }

    /// `agree` on `count` pairs from `seed`, each both ways round: the first of a
    /// pair anywhere in the range, the second half of the time near the math
    /// pack's range, where no step leaves it. How many results were plain.
    fn agree_on_pairs(
        name: &str,
        fast: impl Fn(Single, Single) -> Single,
        slow: impl Fn(f64, f64) -> Result<f64, Overflow>,
        seed: u64,
        count: usize,
    ) -> usize {
        let mut next = xorshift(seed);
        let mut plain = 0;
        for _ in 0..count {
            let (x, y) = (next(), next());
            let a = single((x >> 24) % 255 + 1, x);
            let b = if y & 1 == 0 {
                single((y >> 24) % 255 + 1, y)
            } else {
                single((y >> 24) % 20 + 118, y)
            };
            plain += usize::from(agree(name, &fast, &slow, a, b));
            plain += usize::from(agree(name, &fast, &slow, b, a));
        }
        plain
    }

    #[test]
    fn products_are_mbf_products() {
        let count = cases(400_000);
        let plain = agree_on_pairs("*", Single::mul, mul, 0x3C6E_F372_FE94_F82B, count);
        assert!(plain > count, "{plain}");
        // exact products, mantissas all ones, the carry into the next exponent
        for (a, b) in [
            (1.0, 1.0),
            (0.5, 3.0),
            (16_777_215.0, 16_777_215.0),
            (4095.0, 4097.0),
        ] {
            agree("*", Single::mul, mul, a, b);
        }
    }

    #[test]
    fn sums_are_mbf_sums() {
        let mut next = xorshift(0xA54F_F53A_5F1D_36F1);
        let mut plain = 0;
        let count = cases(400_000);
        for _ in 0..count {
            let (x, y) = (next(), next());
            let exponent = (x >> 24) % 255 + 1;
            // exponents apart by 0 to 40, a third of them equal
            let gap = if y % 3 == 0 { 0 } else { (y >> 40) % 41 };
            let other = exponent.saturating_sub(gap).max(1);
            let a = single(exponent, x);
            // mantissas close to each other too, for the cancellations
            let near = if y & 2 == 0 {
                y
            } else {
                (x ^ (y >> 50)) & 0xFF_FFFF | (y & (1 << 63))
            };
            let b = single(other, near);
            plain += usize::from(agree("+", Single::add, add, a, b));
            plain += usize::from(agree("+", Single::add, add, b, a));
            plain += usize::from(agree("+", Single::add, add, a, -b));
            plain += usize::from(agree("+", Single::add, add, -b, a));
        }
        assert!(plain > count * 15 / 4, "{plain}");
        let max = crate::number::SNG_MAX;
        let edge = |exp: u64, man24: u64| single(exp, man24);
        for (a, b) in [
            // neighbours, across a power of two, equal magnitudes
            (edge(129, 0x80_0001), -edge(129, 0x80_0000)),
            (edge(129, 0x80_0000), -edge(128, 0xFF_FFFF)),
            (edge(129, 0xC0_0000), -edge(129, 0xC0_0000)),
            (edge(129, 0xC0_0000), edge(129, 0xC0_0000)),
            // the cut tail, from 24 to 40 places down
            (edge(129, 0x80_0000), -edge(105, 0x80_0001)),
            (edge(129, 0x80_0000), -edge(104, 0xFF_FFFF)),
            (edge(129, 0x80_0000), -edge(103, 0x80_0000)),
            (edge(129, 0x80_0000), edge(100, 0x80_0001)),
            (edge(129, 0x80_0000), -edge(89, 0x80_0000)),
            // the borrow quirk's bit patterns
            (edge(140, 0x80_0002), -edge(115, 0xA0_0001)),
            (edge(140, 0x80_0003), -edge(116, 0x90_0001)),
            // a carry into the next exponent, and past the top of the range
            (edge(129, 0xFF_FFFF), edge(105, 0x80_0000)),
            (edge(140, 0xFF_8001), edge(132, 0x80_0001)),
            (max, max),
            (max, edge(231, 0xC0_0000)),
            (edge(1, 0x80_0001), -edge(1, 0x80_0000)),
        ] {
            for (x, y) in [(a, b), (b, a), (-a, -b), (-b, -a)] {
                agree("+", Single::add, add, x, y);
            }
        }
    }

    #[test]
    fn the_cut_divisor_adds_at_most_23_units() {
        let mut next = xorshift(0x1F83_D9AB_FB41_BD6B);
        for _ in 0..300_000 {
            let (x, y) = (next(), next());
            let (a, b) = (Single::of(single(129, x)), Single::of(single(129, y)));
            let least = ((a.mantissa() << 31) - 1) / b.mantissa();
            let quotient = div_den(a.den(), b.den()).man;
            assert!(
                (least..=least + MAX_CUT_EXCESS).contains(&quotient),
                "{a:?} / {b:?}: {quotient} from {least}"
            );
        }
    }

    #[test]
    fn quotients_are_mbf_quotients() {
        let count = cases(300_000);
        let plain = agree_on_pairs("/", Single::div, div, 0x510E_527F_ADE6_82D1, count);
        assert!(plain > count, "{plain}");
        // exact quotients, equal mantissas, the largest over the smallest
        for (a, b) in [
            (1.0, 1.0),
            (3.0, 0.5),
            (1.0, 3.0),
            (16_777_215.0, 3.0),
            (6.0, 3.0),
        ] {
            agree("/", Single::div, div, a, b);
            agree("/", Single::div, div, b, a);
        }
    }
}
