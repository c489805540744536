//! `/config`: a server's settings, and who may change the server's shared things
//! (server macros, installed generator programs).

use super::commands::string;
use super::commands::{CommandSpec, OptionKind, OptionSpec, sub};
use super::context::Context;
use super::table::{
    CommandEntry, Guard, Subcommand, by_subcommand, defer_private, guild_of, no_choices,
};
use super::{Command, CoreSettings, OptionValue, Reply, Request, ephemeral};
use crate::i18n::{self, Lang, LanguageSetting};
use crate::storage::GmSetting;

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "config",
    spec,
    ack: defer_private,
    run: by_subcommand,
    autocomplete: no_choices,
    components: &[],
    typed_replies: None,
    sweep: None,
    subcommands: &[
        Subcommand {
            name: None,
            guards: &[Guard::GuildOnly],
            run: |cx, request, _| Box::pin(cx.config_show(request)),
        },
        Subcommand {
            name: Some("show"),
            guards: &[Guard::GuildOnly],
            run: |cx, request, _| Box::pin(cx.config_show(request)),
        },
        // Who may set the language is decided after showing it, which anyone may.
        Subcommand {
            name: Some("language"),
            guards: &[Guard::GuildOnly],
            run: |cx, request, command| Box::pin(cx.config_language(request, command)),
        },
        Subcommand {
            name: Some("gm-channel"),
            guards: &[
                Guard::GuildOnly,
                Guard::AdminPlain {
                    refusal_key: "gm-config-not-allowed",
                },
            ],
            run: |cx, request, command| Box::pin(cx.config_gm(request, command)),
        },
        // The GM role takes Manage Server itself: the macro role cannot hand itself more.
        Subcommand {
            name: Some("gm-role"),
            guards: &[
                Guard::GuildOnly,
                Guard::ManagesServer {
                    refusal_key: "gm-config-not-allowed",
                },
            ],
            run: |cx, request, command| Box::pin(cx.config_gm(request, command)),
        },
        Subcommand {
            name: Some("macro-role"),
            guards: &[
                Guard::GuildOnly,
                Guard::ManagesServer {
                    refusal_key: "config-macro-role-not-allowed",
                },
            ],
            run: |cx, request, command| Box::pin(cx.config_macro_role(request, command)),
        },
    ],
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
    /// `/config macro-role [role]`: sets or clears the role that may change the
    /// server's shared things.
    async fn config_macro_role(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        // Every answer of `/config` is private: the user's language.
        let lang = self.language(request, false).await?;
        let guild_id = guild_of(request)?;
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

    /// `/config language [language]`: shows the language of public messages, or sets
    /// it (`auto`: the server's Discord locale).
    async fn config_language(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let guild_id = guild_of(request)?;
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

    async fn config_show(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let guild_id = guild_of(request)?;
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

    /// The lines of `/config show` about the GM channel and role (the GM's rolls: `roll/gm.rs`).
    async fn gm_settings_line(&self, lang: Lang, guild_id: i64) -> anyhow::Result<String> {
        let none = || "none".to_owned();
        let channel = self.storage.gm_channel(guild_id).await?;
        let role = self.storage.gm_role(guild_id).await?;
        Ok(i18n::tr_args(
            lang,
            "gm-show",
            &[
                (
                    "channel",
                    channel.map_or_else(none, |id| id.to_string()).into(),
                ),
                ("role", role.map_or_else(none, |id| id.to_string()).into()),
            ],
        ))
    }

    /// `/config gm-channel [channel]` and `/config gm-role [role]`: each sets its
    /// value, or clears it when left out. The channel is for Tavern's admins; the role
    /// for Manage Server only, since GMs may reveal what others rolled in secret.
    async fn config_gm(&self, request: &Request, command: &Command) -> anyhow::Result<Vec<Reply>> {
        // Who may is the table's guard (above).
        let guild_id = guild_of(request)?;
        let lang = self.language(request, false).await?;
        let role = command.sub() == Some("gm-role");
        let value = match (role, command.option(if role { "role" } else { "channel" })) {
            (true, Some(OptionValue::Role(id))) | (false, Some(OptionValue::Channel(id))) => {
                Some(*id)
            }
            _ => None,
        };
        let (which, set, cleared, name) = match role {
            true => (GmSetting::Role, "gm-role-set", "gm-role-cleared", "role"),
            false => (
                GmSetting::Channel,
                "gm-channel-set",
                "gm-channel-cleared",
                "channel",
            ),
        };
        self.storage
            .set_gm(guild_id, which, value, request.user.id, self.now())
            .await?;
        Ok(ephemeral(match value {
            Some(id) => i18n::tr_args(lang, set, &[(name, id.to_string().into())]),
            None => i18n::tr(lang, cleared),
        }))
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
