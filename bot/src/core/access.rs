//! Who may do what: the guards every command module uses instead of checking by
//! hand. A server-only command refuses a direct message ([`not_in_dms`]); changing a
//! server's shared things (server macros, programs, NPCs, effects, the settings) takes
//! Manage Server or the role of `/config macro-role` ([`Context::may_administer`],
//! refused by [`Context::refuse_unless_admin`]); revealing a roll takes the GM role
//! ([`Context::is_gm`]); a server macro takes what the server's shared things take
//! ([`Context::refuse_macro_scope`]); the GM-only parts of an encounter take its GM
//! ([`Context::refuse_unless_encounter_gm`]).

use super::context::Context;
use super::text::{code_span_text, escape_markdown, one_line};
use super::{Command, Permissions, Reply, Request, ephemeral};
use crate::i18n::{self, Lang};
use crate::storage::SERVER_OWNER;

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

/// Whose macro a `/macro` subcommand means: the server's (shared, guarded) or the
/// member's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    Server,
    Personal,
}

impl Scope {
    /// The macro's owner in storage.
    pub(crate) fn owner(self, user_id: i64) -> i64 {
        match self {
            Scope::Server => SERVER_OWNER,
            Scope::Personal => user_id,
        }
    }

    /// `server` or `personal`, as the catalogue's `whose` takes it.
    pub(crate) fn whose(self) -> &'static str {
        match self {
            Scope::Server => "server",
            Scope::Personal => "personal",
        }
    }

    /// The `scope` option as typed; `None` when left out, the refusal for a typo.
    fn parse(lang: Lang, value: Option<&str>) -> Result<Option<Scope>, String> {
        let Some(value) = value.map(str::trim).filter(|value| !value.is_empty()) else {
            return Ok(None);
        };
        match value.to_lowercase().as_str() {
            "server" => Ok(Some(Scope::Server)),
            "me" | "personal" | "mine" => Ok(Some(Scope::Personal)),
            _ => Err(i18n::tr_args(
                lang,
                "macros-scope-unknown",
                &[("scope", code_span_text(value, 20).into())],
            )),
        }
    }
}

/// What a `/macro` subcommand does to the macro its `scope` names: it decides whose
/// macro a command without `scope` means, and when the server's macro is guarded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MacroChange {
    /// `set` creates or changes; without a scope, the member's own.
    Set,
    /// `delete`: without a scope, the member's own if they have one of that name,
    /// else the server's. A server macro that does not exist passes the guard: there
    /// is nothing to refuse, and the handler says it does not exist.
    Delete,
}

/// The macro name a `/macro` command names (`$` and spaces around it dropped).
pub(crate) fn macro_name(command: &Command) -> &str {
    command
        .string("name")
        .map(|name| name.trim().trim_start_matches('$'))
        .unwrap_or("")
}

/// The encounter's GM as refusals name them (markdown escaped, one short line).
pub(crate) fn encounter_gm_name(gm_name: &str) -> String {
    escape_markdown(&one_line(gm_name, 32))
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

    /// Whose macro `command` means, or the refusal of a `scope` that is neither.
    pub(crate) async fn macro_scope(
        &self,
        lang: Lang,
        request: &Request,
        command: &Command,
        change: MacroChange,
    ) -> anyhow::Result<Result<Scope, String>> {
        let typed = match Scope::parse(lang, command.string("scope")) {
            Ok(typed) => typed,
            Err(problem) => return Ok(Err(problem)),
        };
        if let Some(scope) = typed {
            return Ok(Ok(scope));
        }
        let scope = match change {
            MacroChange::Set => Scope::Personal,
            MacroChange::Delete => {
                let own = self
                    .storage
                    .macro_of(request.place(), request.user.id, macro_name(command))
                    .await?;
                match own {
                    Some(_) => Scope::Personal,
                    None => Scope::Server,
                }
            }
        };
        Ok(Ok(scope))
    }

    /// The refusal of a `/macro` subcommand that would `change` a server macro the
    /// member may not change (`what_key`, as in [`Self::refuse_unless_admin`]), or in
    /// a direct message (`dm_key`); a `scope` that is neither is refused too. `None`
    /// when the member may go on.
    pub(crate) async fn refuse_macro_scope(
        &self,
        lang: Lang,
        request: &Request,
        command: &Command,
        change: MacroChange,
        dm_key: &str,
        what_key: &str,
    ) -> anyhow::Result<Option<Vec<Reply>>> {
        let scope = match self.macro_scope(lang, request, command, change).await? {
            Ok(scope) => scope,
            Err(problem) => return Ok(Some(ephemeral(problem))),
        };
        if scope == Scope::Personal {
            return Ok(None);
        }
        if request.guild_id.is_none() {
            return Ok(Some(ephemeral(i18n::tr(lang, dm_key))));
        }
        if change == MacroChange::Delete
            && self
                .storage
                .macro_of(request.place(), SERVER_OWNER, macro_name(command))
                .await?
                .is_none()
        {
            return Ok(None);
        }
        self.refuse_unless_admin(lang, request, what_key).await
    }

    /// The refusal for a member who does not run the encounter of the request's
    /// channel (`refusal_key`, whose `gm` names its GM), or `None` when they do or
    /// no encounter runs there (the handler says so).
    pub(crate) async fn refuse_unless_encounter_gm(
        &self,
        lang: Lang,
        request: &Request,
        refusal_key: &str,
    ) -> anyhow::Result<Option<Vec<Reply>>> {
        let Some(row) = self
            .storage
            .encounter_in_channel(request.channel_id)
            .await?
        else {
            return Ok(None);
        };
        if self.is_encounter_gm(request, row.gm_id).await? {
            return Ok(None);
        }
        Ok(Some(ephemeral(i18n::tr_args(
            lang,
            refusal_key,
            &[("gm", encounter_gm_name(&row.gm_name).into())],
        ))))
    }
}
