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

    use super::{drop_after, keep_by_selection, sort_by_value};
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
            let items: Vec<Item> = (0..len)
                .map(|_| {
                    let flags = if case % 4 != 0 && rng.random_range(0..8) == 0 {
                        flag::DROPPED
                    } else {
                        0
                    };
                    Item::new(rng.random_range(-2..=sides), flags)
                })
                .collect();
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
                let flags =
                    |items: &[Item]| items.iter().map(|item| item.flags).collect::<Vec<_>>();
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
}
