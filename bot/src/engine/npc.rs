//! NPC scripts (`npc-core`) loaded once per text: every turn, button and
//! autocomplete keystroke of a conversation asks for its script, which changes only
//! when an admin installs it again.

use std::sync::Arc;

use npc_core::{LoadError, Script};

use super::cache::HashCache;
use super::program_hash;

/// Loaded scripts kept; a server's few NPCs, for the servers active at once.
const SCRIPT_CACHE: usize = 64;

pub struct NpcScripts {
    loaded: HashCache<Script>,
}

impl Default for NpcScripts {
    fn default() -> NpcScripts {
        NpcScripts {
            loaded: HashCache::new(SCRIPT_CACHE),
        }
    }
}

impl NpcScripts {
    /// The script of `source` if it was loaded before.
    pub fn cached(&self, source: &str) -> Option<Arc<Script>> {
        self.loaded.get(&program_hash(source))
    }

    /// Loads `source` (or finds it loaded); a script that does not load is not kept.
    pub fn load(&self, source: &str) -> Result<Arc<Script>, Vec<LoadError>> {
        let hash = program_hash(source);
        if let Some(script) = self.loaded.get(&hash) {
            return Ok(script);
        }
        // Loads run on workers: they stop when the worker's time is up.
        let cancel = super::worker::cancel_flag();
        let script = Arc::new(npc_core::load_cancellable(
            source,
            &npc_core::Limits::default(),
            &cancel,
        )?);
        self.loaded.insert(hash, script.clone());
        Ok(script)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEALER: &str = include_str!("../../../npc-core/scripts/healer.ghul");

    #[test]
    fn a_script_is_loaded_once_per_text() {
        let scripts = NpcScripts::default();
        assert!(scripts.cached(HEALER).is_none());
        let first = scripts.load(HEALER).expect("the healer loads");
        let again = scripts.load(HEALER).expect("the healer loads");
        assert!(Arc::ptr_eq(&first, &again));
        assert!(
            scripts
                .cached(HEALER)
                .is_some_and(|kept| Arc::ptr_eq(&kept, &first))
        );
    }

    #[test]
    fn a_script_that_does_not_load_is_not_kept() {
        let scripts = NpcScripts::default();
        assert!(scripts.load("@conv broken\n@say").is_err());
        assert!(scripts.cached("@conv broken\n@say").is_none());
    }
}
