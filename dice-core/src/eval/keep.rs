//! Keeping and dropping the highest or lowest dice of a pool.

use crate::roll::{Item, flag};

/// Orders candidates by value (descending when `highest`), leftmost first
/// among equal values, as the seed asks.
pub(super) fn sort_by_value(candidates: &mut [(i64, u32)], highest: bool) {
    if !highest {
        candidates.sort_unstable();
        return;
    }
    // `!value` reverses the order of values without overflow, so the plain
    // tuple order (cheaper than a comparison closure) sorts highest first,
    // leftmost first among equals.
    for candidate in candidates.iter_mut() {
        candidate.0 = !candidate.0;
    }
    candidates.sort_unstable();
    for candidate in candidates.iter_mut() {
        candidate.0 = !candidate.0;
    }
}

/// Keeps the first `n` kept items of `items` in the order `sort_by_value`
/// gives (highest or lowest value first, leftmost first among equals) and
/// drops the other kept ones, without collecting or sorting: it picks the
/// few to drop (`4d6kh3`: one) or the few to keep (`10d6kh2`: two) by
/// repeated scans, `min(kept, dropped)` scans of the pool. `all_kept` says
/// that no item is dropped yet (a freshly rolled term), which spares a
/// count. Returns false, changing nothing, when the scans would cost more
/// than a sort (large pools).
pub(super) fn keep_by_selection(items: &mut [Item], highest: bool, n: i64, all_kept: bool) -> bool {
    const MAX_SCANNED: usize = 512;
    if items.len() > 64 {
        return false;
    }
    let total = if all_kept {
        items.len()
    } else {
        items.iter().filter(|item| item.kept()).count()
    };
    let keep = usize::try_from(n).unwrap_or(0).min(total);
    let drop = total - keep;
    if keep.min(drop) * items.len() > MAX_SCANNED {
        return false;
    }
    // Keys in the order's direction: `!value` reverses the order of values
    // without overflow, so "lowest first" is "highest key first".
    let flip = if highest { 0 } else { !0 };
    if drop <= keep {
        // Each scan skips the items dropped by the scans before it.
        for _ in 0..drop {
            let Some(worst) = scan::<true>(items, 0, flip) else {
                break;
            };
            items[worst].flags |= flag::DROPPED;
        }
        return true;
    }
    let mut chosen: u64 = 0;
    for _ in 0..keep {
        let Some(best) = scan::<false>(items, chosen, flip) else {
            break;
        };
        chosen |= 1 << best;
    }
    for (index, item) in items.iter_mut().enumerate() {
        if chosen & (1 << index) == 0 {
            item.flags |= flag::DROPPED;
        }
    }
    true
}

/// Keeps the `n` highest (lowest) dice of a freshly rolled pool (nothing
/// dropped yet) whose values sum to `sum`, dropping what `keep_by_selection`
/// drops, and returns the sum of the kept dice; `None`, changing nothing,
/// where the selection declines. The commonest keeps drop one die
/// (`4d6kh3`) or keep one (`2d20kh1`): one scan finds it and the sum
/// follows from the rolled sum, with no flags to test and no second sum.
pub(super) fn keep_fresh(items: &mut [Item], highest: bool, n: i64, sum: i128) -> Option<i128> {
    let keep = usize::try_from(n).unwrap_or(0).min(items.len());
    let drop = items.len() - keep;
    let flip = if highest { 0 } else { !0 };
    if drop == 0 {
        return Some(sum);
    }
    if drop == 1 {
        let worst = extreme::<true>(items, flip)?;
        items[worst].flags |= flag::DROPPED;
        return Some(sum - i128::from(items[worst].value));
    }
    if keep == 1 {
        let best = extreme::<false>(items, flip)?;
        for item in items.iter_mut() {
            item.flags |= flag::DROPPED;
        }
        items[best].flags &= !flag::DROPPED;
        return Some(i128::from(items[best].value));
    }
    if !keep_by_selection(items, highest, n, true) {
        return None;
    }
    let mut kept_sum = 0;
    for item in items.iter() {
        if item.kept() {
            kept_sum += i128::from(item.value);
        }
    }
    Some(kept_sum)
}

/// `scan` for a pool where every item is kept: the index of the last
/// (`LAST`) item of the lowest key or the first of the highest.
#[inline(always)]
fn extreme<const LAST: bool>(items: &[Item], flip: i64) -> Option<usize> {
    let (first, rest) = items.split_first()?;
    let mut found = 0;
    let mut found_key = first.value ^ flip;
    for (index, item) in rest.iter().enumerate() {
        let key = item.value ^ flip;
        let replaces = if LAST {
            key <= found_key
        } else {
            key > found_key
        };
        if replaces {
            found = index + 1;
            found_key = key;
        }
    }
    Some(found)
}

/// The index of the last (`LAST`) or first kept item, not in `chosen`, in
/// the order of `keep_by_selection`: the lowest or highest key, in one scan
/// from the left, where among equal keys the later item is the later in
/// the order.
#[inline(always)]
fn scan<const LAST: bool>(items: &[Item], chosen: u64, flip: i64) -> Option<usize> {
    let mut found = None;
    let mut found_key = 0;
    for (index, item) in items.iter().enumerate() {
        if !item.kept() || chosen & (1 << index) != 0 {
            continue;
        }
        let key = item.value ^ flip;
        let replaces = if LAST {
            key <= found_key
        } else {
            key > found_key
        };
        if found.is_none() || replaces {
            found = Some(index);
            found_key = key;
        }
    }
    found
}

/// Drops every candidate after the first `n` (all of them when `n <= 0`).
pub(super) fn drop_after(candidates: &[(i64, u32)], n: i64, items: &mut [Item]) {
    let n = usize::try_from(n).unwrap_or(0);
    for &(_, index) in candidates.iter().skip(n) {
        items[index as usize].flags |= flag::DROPPED;
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::{drop_after, keep_by_selection, keep_fresh, sort_by_value};
    use crate::roll::{Item, flag};

    /// The sorting route, which `keep_by_selection` must agree with.
    fn keep_by_sorting(items: &mut [Item], highest: bool, n: i64) {
        let mut candidates: Vec<(i64, u32)> = items
            .iter()
            .zip(0..)
            .filter(|(item, _)| item.kept())
            .map(|(item, index)| (item.value, index))
            .collect();
        sort_by_value(&mut candidates, highest);
        drop_after(&candidates, n, items);
    }

    /// `len` dice of `-2..=sides`, every eighth or so dropped if `drop_some`.
    fn random_pool(rng: &mut ChaCha8Rng, len: usize, sides: i64, drop_some: bool) -> Vec<Item> {
        (0..len)
            .map(|_| {
                let flags = if drop_some && rng.random_range(0..8) == 0 {
                    flag::DROPPED
                } else {
                    0
                };
                Item::new(rng.random_range(-2..=sides), flags)
            })
            .collect()
    }

    fn flags(items: &[Item]) -> Vec<u16> {
        items.iter().map(|item| item.flags).collect()
    }

    /// Pools of every size up to past the selection's bound, with ties,
    /// items dropped before, and every `n` from below zero to past the pool,
    /// drop the same items by selection as by sorting.
    #[test]
    fn selection_drops_what_sorting_drops() {
        let mut rng = ChaCha8Rng::seed_from_u64(28);
        let mut selected = 0;
        for case in 0..4000 {
            let len = rng.random_range(0..=70_usize);
            let sides = if case % 3 == 0 { 3 } else { 20 };
            let items = random_pool(&mut rng, len, sides, case % 4 != 0);
            let n = rng.random_range(-1..=len as i64 + 1);
            for highest in [true, false] {
                let mut expected = items.clone();
                keep_by_sorting(&mut expected, highest, n);
                let mut actual = items.clone();
                // Fresh pools (nothing dropped yet) may say so, half the time.
                let all_kept = case % 2 == 0 && items.iter().all(Item::kept);
                if !keep_by_selection(&mut actual, highest, n, all_kept) {
                    assert!(actual.iter().zip(&items).all(|(a, b)| a.flags == b.flags));
                    continue;
                }
                selected += 1;
                assert_eq!(
                    flags(&actual),
                    flags(&expected),
                    "{len} items, n {n}, highest {highest}"
                );
            }
        }
        // Most cases take the selection route; the rest tested the refusal.
        assert!(selected > 4000, "{selected}");
    }

    /// Freshly rolled pools, past the selection's bound too, with the keeps
    /// that take the one-scan routes (drop one, keep one) and their
    /// neighbours: `keep_fresh` drops what sorting drops and sums the rest.
    #[test]
    fn fresh_keep_drops_what_sorting_drops() {
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let mut answered = 0;
        for case in 0..1500 {
            let len = rng.random_range(0..=80_usize);
            let sides = if case % 3 == 0 { 3 } else { 20 };
            let items = random_pool(&mut rng, len, sides, false);
            let len = len as i64;
            let sum: i128 = items.iter().map(|item| i128::from(item.value)).sum();
            for n in [-1, 0, 1, 2, len - 2, len - 1, len, len + 1] {
                for highest in [true, false] {
                    let mut expected = items.clone();
                    keep_by_sorting(&mut expected, highest, n);
                    let mut actual = items.clone();
                    let Some(kept_sum) = keep_fresh(&mut actual, highest, n, sum) else {
                        assert!(actual.iter().all(|item| item.flags == 0));
                        continue;
                    };
                    answered += 1;
                    let expected_sum: i128 = expected
                        .iter()
                        .filter(|item| item.kept())
                        .map(|item| i128::from(item.value))
                        .sum();
                    let context = format!("{len} items, n {n}, highest {highest}");
                    assert_eq!(flags(&actual), flags(&expected), "{context}");
                    assert_eq!(kept_sum, expected_sum, "{context}");
                }
            }
        }
        assert!(answered > 20_000, "{answered}");
    }
}
