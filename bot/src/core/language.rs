//! Which language an answer speaks (issue 18). A private answer speaks the user's own
//! Discord language; a message the whole channel sees speaks the server's setting
//! (`/config language`, auto by default: the server's Discord locale), so that a table
//! reads one language whoever asked.

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
        let setting = match request.guild_id {
            Some(guild_id) if !user_decides => LanguageSetting::from_stored(
                self.storage.guild_language(guild_id).await?.as_deref(),
            ),
            _ => LanguageSetting::Auto,
        };
        Ok(language_for(request, setting, public))
    }
}
