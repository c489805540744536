//! Who may do what: the guards every command module uses instead of checking by
//! hand. A server-only command refuses a direct message ([`not_in_dms`]); changing a
//! server's shared things (server macros, programs, NPCs, effects, the settings) takes
//! Manage Server or the role of `/config macro-role` ([`Context::may_administer`],
//! refused by [`Context::refuse_unless_admin`]); revealing a roll takes the GM role
//! ([`Context::is_gm`]).

use super::context::Context;
use super::{Permissions, Reply, Request, ephemeral};
use crate::i18n::{self, Lang};

/// The answer to a server-only command in a direct message.
pub(crate) fn not_in_dms(lang: Lang) -> String {
    i18n::tr(lang, "config-not-in-dms")
}

/// Manage Server (or Administrator) itself, without the role: what choosing the GM
/// role takes, so that the macro role cannot hand itself more.
pub(crate) fn manages_server(request: &Request) -> bool {
    request
        .member
        .as_ref()
        .is_some_and(|member| member.permissions.has(Permissions::MANAGE_GUILD))
}

impl Context {
    /// Manage Server (or Administrator), or the role the server set with
    /// `/config macro-role`. Checked here from the member's permissions and roles,
    /// not left to Discord's command permissions, which a server can override.
    pub(crate) async fn may_administer(&self, request: &Request) -> anyhow::Result<bool> {
        let (Some(guild_id), Some(member)) = (request.guild_id, &request.member) else {
            return Ok(false);
        };
        if manages_server(request) {
            return Ok(true);
        }
        let role = self.storage.tavern_role(guild_id).await?;
        Ok(role.is_some_and(|role| member.roles.contains(&role)))
    }

    /// Why a member may not change a server's shared things, naming the role when
    /// the server set one. `what` is what they may not do, in `lang`, as the end of
    /// "Only members with … can …" (`delete server macros`; German: `Server-Makros
    /// löschen`).
    pub(crate) async fn not_allowed_in(
        &self,
        lang: Lang,
        request: &Request,
        what: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let role = match request.guild_id {
            Some(guild_id) => self.storage.tavern_role(guild_id).await?,
            None => None,
        };
        let role = role.map_or_else(|| "none".to_owned(), |role| role.to_string());
        Ok(ephemeral(i18n::tr_args(
            lang,
            "config-not-allowed",
            &[("role", role.into()), ("what", what.into())],
        )))
    }

    /// The refusal for a member who may not change the server's shared things, or
    /// `None` when they may: `what_key` names what they may not do (a catalogue key
    /// whose text ends "Only members with … can …").
    pub(crate) async fn refuse_unless_admin(
        &self,
        lang: Lang,
        request: &Request,
        what_key: &str,
    ) -> anyhow::Result<Option<Vec<Reply>>> {
        if self.may_administer(request).await? {
            return Ok(None);
        }
        let what = i18n::tr(lang, what_key);
        self.not_allowed_in(lang, request, &what).await.map(Some)
    }

    /// Whether the member is a game master here: the GM role, or Tavern's admins.
    pub(crate) async fn is_gm(&self, request: &Request) -> anyhow::Result<bool> {
        let (Some(guild_id), Some(member)) = (request.guild_id, &request.member) else {
            return Ok(false);
        };
        let role = self.storage.gm_role(guild_id).await?;
        if role.is_some_and(|role| member.roles.contains(&role)) {
            return Ok(true);
        }
        self.may_administer(request).await
    }

    /// Whether the member runs the encounter begun by `gm_id`: its GM, or Tavern's
    /// admins here.
    pub(crate) async fn is_encounter_gm(
        &self,
        request: &Request,
        gm_id: i64,
    ) -> anyhow::Result<bool> {
        Ok(gm_id == request.user.id || self.may_administer(request).await?)
    }
}
