//! What a command's handler may touch: storage, the engines, the settings, the clock,
//! the RNG, the rate limiter, the attachment reader and the engine workers. Handlers
//! are methods of [`Context`] (or functions taking it), never of [`super::Core`], so
//! they cannot reach the command table, the error counters or each other's dispatch.

use std::sync::{Arc, Mutex, MutexGuard};

use rand::rngs::StdRng;

use super::limits::{Clock, RateLimiter};
use super::text;
use super::{CoreSettings, FileAttachment, Message, Reply, Request, RequestKind};
use crate::engine::Engines;
use crate::engine::effects::EffectLibraries;
use crate::engine::npc::NpcScripts;
use crate::engine::worker::Workers;
use crate::fetch::Fetch;
use crate::i18n;
use crate::storage::Storage;

/// The services every handler receives.
pub struct Context {
    pub(super) storage: Storage,
    pub(super) engines: Engines,
    pub(super) settings: CoreSettings,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) rng: Mutex<StdRng>,
    pub(super) limiter: RateLimiter,
    /// Reads attachments (`/chargen program add`, `/npc install`); refuses them
    /// unless a transport sets one.
    pub(super) fetch: Arc<dyn Fetch>,
    /// Where engine work whose cost the input decides runs, under a time limit.
    pub(super) workers: Workers,
    /// NPC scripts loaded once per text, for every turn and autocomplete.
    pub(super) npc_scripts: Arc<NpcScripts>,
    /// Servers' effect files loaded once per text.
    pub(super) effect_libraries: Arc<EffectLibraries>,
    /// Servers' language settings, read at most every 30 seconds.
    pub(super) languages: super::language::LanguageCache,
    /// Where stored encounter changes are announced (`live.rs`).
    pub(super) encounter_changes: super::live::EncounterChanges,
    /// Which module posted a message users reply to, so a reply goes to it first.
    pub(super) reply_routes: super::reply_routes::ReplyRoutes,
}

impl Context {
    pub(super) fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    pub(super) fn rng(&self) -> MutexGuard<'_, StdRng> {
        self.rng
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A fresh positive id for rows and sessions. Never from the game's RNG: a seeded
    /// core (`--seed`, tests) replays its rolls, and ids replayed on a database that
    /// already holds them would collide (`UNIQUE constraint failed: characters.id`).
    /// 63 random bits from the OS-seeded thread generator make a clash negligible.
    pub(super) fn new_id(&self) -> i64 {
        loop {
            let id = (rand::random::<u64>() >> 1) as i64;
            if id != 0 {
                return id;
            }
        }
    }

    /// The server's installed effect library, loaded. A stored file that no longer
    /// loads (a newer Tavern refusing what an older one took) counts as none, and is
    /// logged. A file not loaded yet is parsed on an engine worker, as its install's
    /// check was: off the async threads and stopped at the time limit.
    pub(super) async fn effect_library(
        &self,
        guild_id: i64,
    ) -> anyhow::Result<Option<Arc<npc_core::effects::EffectLibrary>>> {
        let row = self.storage.effect_library(guild_id).await?;
        self.loaded_library(row).await
    }

    /// [`Context::effect_library`] of the row read (`None`: no file installed).
    pub(super) async fn loaded_library(
        &self,
        row: Option<crate::storage::EffectLibraryRow>,
    ) -> anyhow::Result<Option<Arc<npc_core::effects::EffectLibrary>>> {
        let Some(row) = row else {
            return Ok(None);
        };
        let guild_id = row.guild_id;
        if let Some(library) = self.effect_libraries.cached(&row.source) {
            return Ok(Some(library));
        }
        let loaded = self
            .load_library(&row.source)
            .await
            .map_err(|error| anyhow::anyhow!("the effect library of {guild_id}: {error}"))?;
        Ok(kept_library(&row, loaded))
    }

    /// A stored effect file, loaded (once per text); `None`, logged, when it no
    /// longer loads.
    pub(super) fn library_of(
        &self,
        row: &crate::storage::EffectLibraryRow,
    ) -> Option<Arc<npc_core::effects::EffectLibrary>> {
        kept_library(row, self.effect_libraries.load(&row.source))
    }

    /// Stores what a button needs beyond its custom id (which holds 100 characters)
    /// and returns the row's id, for the custom id to name.
    pub(super) async fn store_button_state(
        &self,
        kind: &str,
        payload: &impl serde::Serialize,
    ) -> anyhow::Result<i64> {
        let state = crate::storage::ButtonState {
            id: self.new_id(),
            kind: kind.to_owned(),
            payload: serde_json::to_string(payload)?,
            created_at: self.now(),
        };
        self.storage.insert_button_state(&state).await?;
        Ok(state.id)
    }

    /// The refusal of a user over the rate limit. What they typed into a modal is
    /// handed back, since Discord does not keep it.
    pub(super) fn rate_limited(&self, request: &Request) -> Option<Vec<Reply>> {
        let wait_ms = self.limiter.check(request.user.id, self.now()).err()?;
        let lang = super::language::private_language(request);
        let wait = i18n::duration(lang, wait_ms);
        let mut message = Message::ephemeral(i18n::tr_args(
            lang,
            "common-rate-limited",
            &[("wait", wait.into())],
        ));
        let typed = match &request.kind {
            RequestKind::Modal { fields, .. } => fields
                .iter()
                .map(|(_, value)| value.trim_end())
                .filter(|value| !value.is_empty())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        };
        if typed.is_empty() {
            return Some(vec![Reply::Interaction(message)]);
        }
        let block = text::code_block(&typed);
        if message.content.chars().count() + block.chars().count() + 40 <= text::MESSAGE_LIMIT {
            let heading = i18n::tr(lang, "common-rate-limited-typed");
            message.content = format!("{}\n{heading}\n{block}", message.content);
        } else {
            message.content.push(' ');
            message
                .content
                .push_str(&i18n::tr(lang, "common-rate-limited-typed-in-file"));
            message.attachments.push(FileAttachment {
                filename: i18n::tr(lang, "common-rate-limited-typed-filename"),
                bytes: format!("{typed}\n").into_bytes(),
                description: Some(i18n::tr(lang, "common-rate-limited-typed-file-description")),
            });
        }
        Some(vec![Reply::Interaction(message)])
    }
}

/// The library `loaded` from `row`, or `None`, logged, when it no longer loads.
fn kept_library(
    row: &crate::storage::EffectLibraryRow,
    loaded: Result<Arc<npc_core::effects::EffectLibrary>, Vec<npc_core::LoadError>>,
) -> Option<Arc<npc_core::effects::EffectLibrary>> {
    match loaded {
        Ok(library) => Some(library),
        Err(errors) => {
            tracing::warn!(
                guild = row.guild_id,
                errors = errors.len(),
                "a stored effect library no longer loads"
            );
            None
        }
    }
}
