//! Uniform draws for dice, and the loop that rolls a plain dice term.

use rand::Rng;
use smallvec::SmallVec;

use crate::roll::{INLINE_ITEMS, Item};

/// Uniform integers from `low..=high`: exactly the numbers
/// `rng.random_range(low..=high)` gives for the same generator state (rand
/// 0.9's single-sample method: one widening multiply, and a second draw only
/// when the first lands in the biased zone), so seeded rolls stay the same.
/// The range is worked out once per dice term and the draw is inlined into
/// the roll loop; through `random_range` it cost a call and the range's
/// checks for every die. A test compares it with `random_range`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Uniform {
    pub(crate) low: i64,
    /// `high - low + 1` in two's complement; 0 is the whole `i64` range.
    range: u64,
}

impl Uniform {
    /// The caller guarantees `low <= high`.
    pub(crate) fn new(low: i64, high: i64) -> Uniform {
        debug_assert!(low <= high);
        Uniform {
            low,
            range: high.wrapping_sub(low).wrapping_add(1) as u64,
        }
    }

    pub(crate) fn high(self) -> i64 {
        self.low.wrapping_add(self.range.wrapping_sub(1) as i64)
    }

    #[inline(always)]
    pub(crate) fn sample<R: Rng + ?Sized>(self, rng: &mut R) -> i64 {
        if self.range == 0 {
            return rng.next_u64() as i64;
        }
        let (mut result, low_order) = widening_mul(rng.next_u64(), self.range);
        if low_order > self.range.wrapping_neg() {
            let (next_high, _) = widening_mul(rng.next_u64(), self.range);
            result += u64::from(low_order.checked_add(next_high).is_none());
        }
        self.low.wrapping_add(result as i64)
    }
}

/// The high and low halves of `a * b`.
#[inline(always)]
fn widening_mul(a: u64, b: u64) -> (u64, u64) {
    let wide = u128::from(a) * u128::from(b);
    ((wide >> 64) as u64, wide as u64)
}

/// Rolls `count` dice of one range onto `items` and returns their sum.
///
/// A function of its own, not a method: with the generator and the item
/// table as separate `&mut` arguments the compiler knows that writing a die
/// cannot change the generator, and keeps its state in registers for the
/// whole loop instead of loading and storing it for every die.
#[inline(never)]
pub(super) fn roll_range<R: Rng + ?Sized>(
    rng: &mut R,
    uniform: Uniform,
    count: usize,
    items: &mut SmallVec<[Item; INLINE_ITEMS]>,
) -> i128 {
    let mut sum: i128 = 0;
    if count <= 8 {
        items.reserve(count);
        for _ in 0..count {
            let value = uniform.sample(rng);
            sum += i128::from(value);
            items.push(Item::new(value, 0));
        }
        return sum;
    }
    // Many dice: grow the table once and write the values into a slice,
    // which spares each die a push's checks of length and capacity.
    let start = items.len();
    items.resize(start + count, Item::new(0, 0));
    for item in &mut items[start..] {
        let value = uniform.sample(rng);
        sum += i128::from(value);
        item.value = value;
    }
    sum
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::Uniform;

    /// Seeded rolls everywhere depend on `Uniform` drawing what
    /// `random_range` draws, die for die.
    #[test]
    fn uniform_draws_the_numbers_random_range_draws() {
        let ranges = [
            (1, 1),
            (1, 2),
            (1, 4),
            (1, 6),
            (1, 20),
            (1, 100),
            (-1, 1),
            (1, 1_000_000),
            (-5, 7),
            (1, i64::MAX),
            (i64::MIN, -1),
            (i64::MIN, i64::MAX),
            // Ranges just past 2^63 land in the biased zone about half the
            // time, so the second draw is taken often.
            (i64::MIN, 1 << 61),
            (-(1 << 62), i64::MAX),
        ];
        for seed in 0..20 {
            for (low, high) in ranges {
                let mut by_rand = ChaCha8Rng::seed_from_u64(seed);
                let mut by_uniform = by_rand.clone();
                let uniform = Uniform::new(low, high);
                assert_eq!((uniform.low, uniform.high()), (low, high));
                for draw in 0..200 {
                    let expected: i64 = by_rand.random_range(low..=high);
                    let actual = uniform.sample(&mut by_uniform);
                    assert_eq!(actual, expected, "{low}..={high}, seed {seed}, draw {draw}");
                }
            }
        }
    }
}
