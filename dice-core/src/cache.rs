//! A bounded cache of parsed expressions, for macros rolled again and again.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::error::Error;
use crate::limits::Limits;
use crate::{Expr, parse_with};

/// A least-recently-used cache of parsed expressions keyed by their text.
///
/// Parsing costs far more than rolling, so a bot that sees the same
/// expressions over and over (macros, `/roll 1d20+5`) parses each once.
/// Invalid expressions are not cached. Wrap it in a `Mutex` to share it;
/// the returned [`Expr`] is a cheap handle that outlives the lock.
///
/// ```
/// use dice_core::{ExprCache, Limits};
/// use rand::SeedableRng;
///
/// let mut cache = ExprCache::new(128);
/// let mut rng = rand::rngs::StdRng::seed_from_u64(7);
/// for _ in 0..3 {
///     let expr = cache.get_or_parse("4d6kh3").unwrap();
///     let total = expr.roll(&mut rng, &Limits::default()).unwrap().total();
///     assert!((3..=18).contains(&total));
/// }
/// assert_eq!(cache.len(), 1);
/// ```
#[derive(Debug, Clone)]
pub struct ExprCache {
    limits: Limits,
    capacity: usize,
    tick: u64,
    entries: HashMap<Box<str>, (Expr, u64), BuildHasherDefault<WordHash>>,
}

/// A word-at-a-time multiplicative hash: a short expression is one or two
/// words, where a byte-wise hash (FNV) spends a multiply per character and
/// SipHash tens of nanoseconds. Collisions chosen by an attacker cost little
/// here: the map holds at most `capacity` entries.
#[derive(Debug, Clone, Copy, Default)]
struct WordHash(u64);

impl WordHash {
    const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(WordHash::SEED);
    }
}

impl Hasher for WordHash {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        // The last, partial word is read as whole words that overlap what
        // came before (a copy of a variable length is a call to memcpy).
        // Equal texts still hash alike, and the length keeps `ab` and
        // `ab\0` apart.
        let rest = chunks.remainder().len();
        let tail = if rest == 0 {
            0
        } else if let Some(last) = bytes.last_chunk::<8>() {
            u64::from_le_bytes(*last)
        } else if let (Some(first), Some(last)) =
            (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
        {
            u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32
        } else {
            // One to three bytes.
            let byte = |index: usize| u64::from(bytes[index]);
            byte(0) | byte(rest / 2) << 8 | byte(rest - 1) << 16
        };
        self.add(tail ^ ((rest as u64) << 59));
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The multiply leaves the low bits, which pick the bucket, weakest:
        // fold the high half of a wide product into them.
        let wide = u128::from(self.0) * u128::from(WordHash::SEED);
        (wide as u64) ^ ((wide >> 64) as u64)
    }
}

impl ExprCache {
    /// A cache of at most `capacity` expressions, parsed under default limits.
    pub fn new(capacity: usize) -> ExprCache {
        ExprCache::with_limits(capacity, Limits::default())
    }

    /// A cache of at most `capacity` expressions, parsed under `limits`.
    pub fn with_limits(capacity: usize, limits: Limits) -> ExprCache {
        ExprCache {
            limits,
            capacity: capacity.max(1),
            tick: 0,
            entries: HashMap::default(),
        }
    }

    /// The parsed expression for `source`, from the cache or parsed now.
    pub fn get_or_parse(&mut self, source: &str) -> Result<Expr, Error> {
        self.tick += 1;
        if let Some((expr, used)) = self.entries.get_mut(source) {
            *used = self.tick;
            return Ok(expr.clone());
        }
        let expr = parse_with(source, &self.limits)?;
        if self.entries.len() >= self.capacity {
            self.evict();
        }
        self.entries
            .insert(source.into(), (expr.clone(), self.tick));
        Ok(expr)
    }

    /// Forgets the least recently used entry. A scan is fine: it runs only
    /// on a miss of a full cache, next to a parse that costs more.
    fn evict(&mut self) {
        let oldest = self
            .entries
            .iter()
            .min_by_key(|(_, (_, used))| *used)
            .map(|(key, _)| key.clone());
        if let Some(key) = oldest {
            self.entries.remove(&key);
        }
    }

    /// How many expressions are cached.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The most expressions this cache holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Forgets every expression.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}
