//! Effect libraries (`npc-core`'s `ELEMENTS` / `EFFECT` files) loaded once per text:
//! every encounter command, NPC turn that applies an effect and autocomplete asks for
//! its server's library, which changes only when an admin installs it again.

use std::sync::Arc;

use npc_core::LoadError;
use npc_core::effects::{EffectLibrary, EffectLimits, load_effects_cancellable};

use super::cache::HashCache;
use super::program_hash;

/// Loaded libraries kept: one per server active at once.
const LIBRARY_CACHE: usize = 64;

pub struct EffectLibraries {
    loaded: HashCache<EffectLibrary>,
}

impl Default for EffectLibraries {
    fn default() -> EffectLibraries {
        EffectLibraries {
            loaded: HashCache::new(LIBRARY_CACHE),
        }
    }
}

impl EffectLibraries {
    /// The library of `source` if it was loaded before.
    pub fn cached(&self, source: &str) -> Option<Arc<EffectLibrary>> {
        self.loaded.get(&program_hash(source))
    }

    /// Loads `source` (or finds it loaded); a file that does not load is not kept.
    pub fn load(&self, source: &str) -> Result<Arc<EffectLibrary>, Vec<LoadError>> {
        let hash = program_hash(source);
        if let Some(library) = self.loaded.get(&hash) {
            return Ok(library);
        }
        // Loads run on workers: they stop when the worker's time is up.
        let cancel = super::worker::cancel_flag();
        let library = Arc::new(load_effects_cancellable(
            source,
            &EffectLimits::default(),
            &cancel,
        )?);
        self.loaded.insert(hash, library.clone());
        Ok(library)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EFFECTS: &str = include_str!("../../../npc-core/scripts/effects.ghul");

    #[test]
    fn a_library_is_loaded_once_per_text() {
        let libraries = EffectLibraries::default();
        let first = libraries.load(EFFECTS).expect("the shipped effects load");
        let again = libraries.load(EFFECTS).expect("the shipped effects load");
        assert!(Arc::ptr_eq(&first, &again));
        assert!(libraries.load("EFFECT {").is_err());
    }
}
