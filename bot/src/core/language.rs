//! Which language an answer speaks (issue 18). A private answer speaks the user's own
//! Discord language; a message the whole channel sees speaks the server's setting
//! (`/config language`, auto by default: the server's Discord locale), so that a table
//! reads one language whoever asked.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::i18n::{Lang, LanguageSetting};

use super::context::Context;
use super::{Core, Request};

/// The language of an answer to `request`. `setting` is the server's `/config
/// language` (irrelevant in DMs, where the user is the whole table); `public` says
/// whether the channel sees the answer.
///
/// - public, in a server: the server's choice; with auto, its Discord locale; English
///   for a locale Tavern does not speak (never the asking user's: the table sees
///   one language);
/// - private: the user's Discord locale; for one Tavern does not speak, what the
///   table would get;
/// - in DMs: the user's locale, else English.
pub fn language_for(request: &Request, setting: LanguageSetting, public: bool) -> Lang {
    let user = request
        .locale
        .as_deref()
        .and_then(Lang::from_discord_locale);
    if request.guild_id.is_none() {
        return user.unwrap_or(Lang::En);
    }
    let table = match setting {
        LanguageSetting::Fixed(lang) => lang,
        LanguageSetting::Auto => request
            .guild_locale
            .as_deref()
            .and_then(Lang::from_discord_locale)
            .unwrap_or(Lang::En),
    };
    match (public, user) {
        (false, Some(user)) => user,
        _ => table,
    }
}

/// The language of a private answer given without the database (the rate limit, an
/// unreachable database): the user's locale, else the server's Discord locale.
pub fn private_language(request: &Request) -> Lang {
    language_for(request, LanguageSetting::Auto, false)
}

impl Core {
    /// The language of an answer to `request` (see [`Context::language`]).
    pub async fn language(&self, request: &Request, public: bool) -> anyhow::Result<Lang> {
        self.cx.language(request, public).await
    }
}

impl Context {
    /// The language of an answer to `request`, reading the server's setting only when
    /// it decides (a public answer in a server, or a user whose locale Tavern does
    /// not speak).
    pub async fn language(&self, request: &Request, public: bool) -> anyhow::Result<Lang> {
        let user_decides = !public
            && request
                .locale
                .as_deref()
                .and_then(Lang::from_discord_locale)
                .is_some();
        let Some(guild_id) = request.guild_id.filter(|_| !user_decides) else {
            return Ok(language_for(request, LanguageSetting::Auto, public));
        };
        let (language, seen_locale) = self.guild_language(guild_id).await?;
        let setting = LanguageSetting::from_stored(language.as_deref());
        match (&request.guild_locale, seen_locale) {
            // A reply typed to a prompt carries no server locale: the last one seen.
            (None, Some(seen)) => {
                let mut known = request.clone();
                known.guild_locale = Some(seen);
                Ok(language_for(&known, setting, public))
            }
            (Some(locale), seen) => {
                if seen.as_deref() != Some(locale.as_str()) {
                    self.storage
                        .remember_discord_locale(guild_id, locale, self.now())
                        .await?;
                    self.languages.forget(guild_id);
                }
                Ok(language_for(request, setting, public))
            }
            (None, None) => Ok(language_for(request, setting, public)),
        }
    }

    /// The language of public messages in a place when no request asks (the sweep's
    /// notices of sessions that ended on their own): the server's `/config language`;
    /// for auto, the Discord locale its last interaction gave; English in DMs and for
    /// a server never seen.
    pub async fn place_language(&self, place: i64) -> anyhow::Result<Lang> {
        if place == 0 {
            return Ok(Lang::En);
        }
        let (language, seen_locale) = self.guild_language(place).await?;
        Ok(match LanguageSetting::from_stored(language.as_deref()) {
            LanguageSetting::Fixed(lang) => lang,
            LanguageSetting::Auto => seen_locale
                .as_deref()
                .and_then(Lang::from_discord_locale)
                .unwrap_or(Lang::En),
        })
    }

    /// The server's `/config language` and last seen Discord locale, read at most
    /// once per [`LANGUAGE_TTL_MS`] per server: every public answer asks (each `/roll`
    /// does), and a database read per roll cost the bot a third more CPU per roll
    /// (BENCHMARKS.md). A change made by this process is seen at once; one made by
    /// another shard's process within the TTL.
    async fn guild_language(&self, guild_id: i64) -> anyhow::Result<GuildLanguage> {
        let now = self.now();
        if let Some(known) = self.languages.get(guild_id, now) {
            return Ok(known);
        }
        let read = self.storage.guild_language_and_locale(guild_id).await?;
        self.languages.put(guild_id, read.clone(), now);
        Ok(read)
    }
}

/// How long a server's language settings are trusted without reading them again.
pub const LANGUAGE_TTL_MS: i64 = 30_000;

/// Servers kept at most; the map is emptied when it would grow past this.
const LANGUAGE_CACHE_SERVERS: usize = 10_000;

/// A server's `/config language` and last seen Discord locale.
type GuildLanguage = (Option<String>, Option<String>);

/// Servers' language settings as last read, each with the time it was read.
#[derive(Default)]
pub struct LanguageCache {
    known: Mutex<HashMap<i64, (i64, GuildLanguage)>>,
}

impl LanguageCache {
    fn get(&self, guild_id: i64, now: i64) -> Option<GuildLanguage> {
        let known = self
            .known
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        known
            .get(&guild_id)
            .filter(|(read_at, _)| now.saturating_sub(*read_at) < LANGUAGE_TTL_MS)
            .map(|(_, settings)| settings.clone())
    }

    fn put(&self, guild_id: i64, settings: GuildLanguage, now: i64) {
        let mut known = self
            .known
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if known.len() >= LANGUAGE_CACHE_SERVERS {
            known.clear();
        }
        known.insert(guild_id, (now, settings));
    }

    /// Forgets a server's settings after this process changed them.
    pub fn forget(&self, guild_id: i64) {
        let mut known = self
            .known
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        known.remove(&guild_id);
    }
}
