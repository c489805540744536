//! `/config`: a server's settings, and who may change the server's shared things
//! (server macros, installed generator programs).

use super::access;
use super::commands::string;
use super::commands::{CommandSpec, OptionKind, OptionSpec, sub};
use super::context::Context;
use super::table::{CommandEntry, defer_private, no_choices};
use super::{Command, CoreSettings, OptionValue, Permissions, Reply, Request, ephemeral};
use crate::i18n::{self, Lang, LanguageSetting};

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "config",
    spec,
    ack: defer_private,
    run: |cx, request, command| Box::pin(cx.config_command(request, command)),
    autocomplete: no_choices,
    components: &[],
};

fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "config",
        description: "This server's Tavern settings",
        options: vec![],
        subcommands: vec![
            sub("show", "Show this server's settings", vec![]),
            sub(
                "macro-role",
                "The role that may manage server macros and programs (none: clear)",
                vec![OptionSpec {
                    name: "role",
                    description: "The role (leave out to clear)",
                    kind: OptionKind::Role,
                    required: false,
                    autocomplete: false,
                    choices: &[],
                }],
            ),
            sub(
                "gm-channel",
                "Where rolls for the GM go (leave out to clear)",
                vec![OptionSpec {
                    name: "channel",
                    description: "The GM channel (leave out to clear)",
                    kind: OptionKind::Channel,
                    required: false,
                    autocomplete: false,
                    choices: &[],
                }],
            ),
            sub(
                "gm-role",
                "The role of game masters, who may reveal rolls (leave out to clear)",
                vec![OptionSpec {
                    name: "role",
                    description: "The GM role (leave out to clear)",
                    kind: OptionKind::Role,
                    required: false,
                    autocomplete: false,
                    choices: &[],
                }],
            ),
            sub(
                "language",
                "The language of Tavern's public messages here (leave out: show it)",
                vec![
                    string(
                        "language",
                        "de, en, or auto: the server's Discord language",
                        4,
                    )
                    .choices(&["auto", "de", "en"]),
                ],
            ),
        ],
        groups: vec![],
    }
}

impl Context {
    async fn config_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        // Every answer of `/config` is private: the user's language.
        let lang = self.language(request, false).await?;
        let Some(guild_id) = request.guild_id else {
            return Ok(ephemeral(access::not_in_dms(lang)));
        };
        match command.sub() {
            None | Some("show") => self.config_show(request, guild_id).await,
            Some("language") => self.config_language(request, guild_id, command).await,
            Some("gm-channel" | "gm-role") => self.config_gm(request, guild_id, command).await,
            Some("macro-role") => {
                let managers = request
                    .member
                    .as_ref()
                    .is_some_and(|member| member.permissions.has(Permissions::MANAGE_GUILD));
                if !managers {
                    return Ok(ephemeral(i18n::tr(lang, "config-macro-role-not-allowed")));
                }
                let role = match command.option("role") {
                    Some(OptionValue::Role(role)) => Some(*role),
                    _ => None,
                };
                self.storage
                    .set_macro_role(guild_id, role, request.user.id, self.now())
                    .await?;
                Ok(ephemeral(match role {
                    Some(role) => i18n::tr_args(
                        lang,
                        "config-macro-role-set",
                        &[("role", role.to_string().into())],
                    ),
                    None => i18n::tr(lang, "config-macro-role-cleared"),
                }))
            }
            Some(other) => Ok(ephemeral(i18n::tr_args(
                lang,
                "config-unknown-subcommand",
                &[("sub", other.into())],
            ))),
        }
    }

    /// `/config language [language]`: shows the language of public messages, or sets
    /// it (`auto`: the server's Discord locale).
    async fn config_language(
        &self,
        request: &Request,
        guild_id: i64,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let Some(choice) = command.string("language") else {
            let stored = self.storage.guild_language(guild_id).await?;
            let setting = LanguageSetting::from_stored(stored.as_deref());
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "config-language-current",
                &[
                    ("language", language_name(lang, request, setting).into()),
                    ("setting", setting.code().into()),
                ],
            )));
        };
        let Some(setting) = LanguageSetting::parse(choice) else {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "config-language-unknown",
                &[("choice", choice.replace('`', "'").into())],
            )));
        };
        if !self.may_administer(request).await? {
            return Ok(ephemeral(i18n::tr(lang, "config-language-not-allowed")));
        }
        self.storage
            .set_guild_language(guild_id, setting.to_stored(), request.user.id, self.now())
            .await?;
        self.languages.forget(guild_id);
        let language = [("language", language_name(lang, request, setting).into())];
        Ok(ephemeral(match setting {
            LanguageSetting::Auto => i18n::tr_args(lang, "config-language-set-auto", &language),
            LanguageSetting::Fixed(_) => i18n::tr_args(lang, "config-language-set", &language),
        }))
    }

    async fn config_show(&self, request: &Request, guild_id: i64) -> anyhow::Result<Vec<Reply>> {
        let role = self.storage.tavern_role(guild_id).await?;
        let program = self.storage.default_program(guild_id).await?;
        let shipped = self
            .engines
            .builtin_programs
            .first()
            .map(|program| program.name.clone())
            .unwrap_or_default();
        let lang = self.language(request, false).await?;
        let role = role.map_or_else(|| "none".to_owned(), |role| role.to_string());
        let (program, shipped) = match program {
            Some(name) => (name, "no"),
            None => (shipped, "yes"),
        };
        let setting =
            LanguageSetting::from_stored(self.storage.guild_language(guild_id).await?.as_deref());
        let language = i18n::tr_args(
            lang,
            "config-show-language",
            &[
                ("language", language_name(lang, request, setting).into()),
                ("setting", setting.code().into()),
            ],
        );
        let show = i18n::tr_args(
            lang,
            "config-show",
            &[
                ("role", role.into()),
                ("program", program.into()),
                ("shipped", shipped.into()),
                ("language", language.into()),
            ],
        );
        let gm = self.gm_settings_line(lang, guild_id).await?;
        Ok(ephemeral(format!("{show}\n{gm}")))
    }
}

/// The name, in `lang`, of the language public messages get under `setting`.
fn language_name(lang: Lang, request: &Request, setting: LanguageSetting) -> String {
    let public = super::language::language_for(request, setting, true);
    i18n::tr_args(
        lang,
        "config-language-name",
        &[("code", public.code().into())],
    )
}
