//! A small map of values kept by the hash of the text they were made from, the
//! least recently used one dropped when it is full: compiled BASIC programs and
//! loaded NPC scripts, which the same few texts ask for again and again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub struct HashCache<V> {
    capacity: usize,
    /// The value and the tick of its last use.
    entries: Mutex<HashMap<String, (Arc<V>, u64)>>,
    tick: AtomicU64,
}

impl<V> HashCache<V> {
    pub fn new(capacity: usize) -> HashCache<V> {
        HashCache {
            capacity: capacity.max(1),
            entries: Mutex::new(HashMap::new()),
            tick: AtomicU64::new(0),
        }
    }

    /// The value kept for `hash`, now the most recently used.
    pub fn get(&self, hash: &str) -> Option<Arc<V>> {
        let tick = self.tick.fetch_add(1, Ordering::Relaxed);
        let mut entries = self.lock();
        let (value, used) = entries.get_mut(hash)?;
        *used = tick;
        Some(value.clone())
    }

    /// Keeps `value` for `hash`, dropping the least recently used value when full.
    pub fn insert(&self, hash: String, value: Arc<V>) {
        let tick = self.tick.fetch_add(1, Ordering::Relaxed);
        let mut entries = self.lock();
        if entries.len() >= self.capacity && !entries.contains_key(&hash) {
            let oldest = entries
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(hash, _)| hash.clone());
            if let Some(oldest) = oldest {
                entries.remove(&oldest);
            }
        }
        entries.insert(hash, (value, tick));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Arc<V>, u64)>> {
        // A panic elsewhere cannot leave a half-written entry: keep using the map.
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_recently_used_and_drops_the_oldest() {
        let cache = HashCache::new(2);
        cache.insert("a".to_owned(), Arc::new(1));
        cache.insert("b".to_owned(), Arc::new(2));
        assert_eq!(cache.get("a").as_deref(), Some(&1));
        cache.insert("c".to_owned(), Arc::new(3));
        assert!(cache.get("b").is_none());
        assert_eq!(cache.get("a").as_deref(), Some(&1));
        assert_eq!(cache.get("c").as_deref(), Some(&3));
        cache.insert("c".to_owned(), Arc::new(4));
        assert_eq!(cache.get("c").as_deref(), Some(&4));
    }
}
