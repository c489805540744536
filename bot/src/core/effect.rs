//! `/effect install|list|show|remove`: each server's one file of spell effects
//! (`ELEMENTS` and `EFFECT` declarations, `npc-core`'s effect language), which
//! `/init effect` applies and NPC scripts' `APPLY_EFFECT` refer to.
//!
//! - **One file per server.** An install replaces the whole file, and only when it
//!   loads without a single error (every error is listed with its line); `remove`
//!   cuts one declaration out of the file (which must still load) or, with
//!   `everything`, drops the file.
//! - **NPC scripts.** `/npc install` refuses an `APPLY_EFFECT` of an effect the file
//!   lacks; an install or removal here that leaves installed scripts naming a missing
//!   effect succeeds, says which scripts, and their `APPLY_EFFECT` does nothing.
//! - **Language.** Every answer is private: the asking member's language (`effect.ftl`).

use npc_core::effects::EffectLibrary;

use super::commands::{CommandSpec, OptionKind, OptionSpec, attachment, string, sub};
use super::context::Context;
use super::custom_id;
use super::fit::CONTENT_CHARS;
use super::scripts::{SourceKind, load_error_replies};
use super::table::{
    Answer, CommandEntry, ComponentFamily, Guard, Subcommand, by_subcommand, guild_of, name_choices,
};
use super::text::{FenceTag, code_block, escape_markdown, strip_code_fences, truncate};
use super::{
    Ack, Command, CoreSettings, Modal, Reply, Request, RequestKind, TextInput, TextInputStyle,
    ephemeral,
};
use crate::i18n::{self, Lang};
use crate::storage::EffectLibraryRow;

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "effect",
    spec,
    ack: |command| match asks_for_paste(command) {
        // The paste form is a modal, which must be the first response.
        true => Ack::Immediate,
        false => Ack::Defer { ephemeral: true },
    },
    run: by_subcommand,
    autocomplete,
    typed_replies: None,
    sweep: None,
    subcommands: &[
        Subcommand {
            name: None,
            guards: &[Guard::GuildOnly],
            run: |cx, request, _| Box::pin(cx.effect_list(request)),
        },
        Subcommand {
            name: Some("list"),
            guards: &[Guard::GuildOnly],
            run: |cx, request, _| Box::pin(cx.effect_list(request)),
        },
        Subcommand {
            name: Some("show"),
            guards: &[Guard::GuildOnly],
            run: |cx, request, command| Box::pin(cx.effect_show(request, command)),
        },
        Subcommand {
            name: Some("install"),
            guards: &[Guard::GuildOnly, ADMIN],
            run: |cx, request, command| Box::pin(cx.effect_install_command(request, command)),
        },
        Subcommand {
            name: Some("remove"),
            guards: &[Guard::GuildOnly, ADMIN],
            run: |cx, request, command| Box::pin(cx.effect_remove_command(request, command)),
        },
    ],
    components: &[ComponentFamily {
        kinds: &[PASTE_KIND],
        // Submitted from a command: its answer is a new private message.
        ack: |_, _| Ack::Defer { ephemeral: true },
        run: |cx, request, custom_id| Box::pin(cx.effect_pasted(request, custom_id)),
    }],
};

/// The paste form of `/effect install`: `tv1:fp:`.
const PASTE_KIND: &str = "fp";
/// The paste form's text field.
const SOURCE_FIELD: &str = "source";
/// What a paste form holds (Discord's limit for a text input).
const PASTE_MAX_CHARS: u16 = 4000;
/// The language tags a pasted file's code block may open with.
const FILE_TAGS: FenceTag = FenceTag::Known(&["ghul", "ghulscript", "txt", "text"]);
/// How the file is named in errors.
const FILE_NAME: &str = "effects";
/// Characters of declarations in one `/effect list` answer, at most; less when the
/// heading (a long name, many elements, a wordier language) leaves less room.
const LIST_BUDGET: usize = 1700;
/// Room kept in the list for its last line, "… and N more".
const MORE_ROOM: usize = 40;

fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "effect",
        description: "Spell effects of this server, for encounters and NPCs",
        options: vec![],
        subcommands: vec![
            sub(
                "install",
                "Install or replace the effect file (.ghul file, code, or paste it)",
                vec![
                    attachment("file", "The .ghul file of ELEMENTS and EFFECT declarations"),
                    string("code", "The file, as a code block", 6000),
                ],
            ),
            sub("list", "List this server's effects", vec![]),
            sub(
                "show",
                "Show an effect's declaration",
                vec![
                    string("name", "The effect's tag, e.g. Poison", 64)
                        .required()
                        .autocomplete(),
                ],
            ),
            sub(
                "remove",
                "Remove one effect, or the whole file",
                vec![
                    string("name", "The effect's tag", 64).autocomplete(),
                    OptionSpec {
                        name: "everything",
                        description: "Remove the whole effect file",
                        kind: OptionKind::Boolean,
                        required: false,
                        autocomplete: false,
                        choices: &[],
                    },
                ],
            ),
        ],
        groups: vec![],
    }
}

/// Who may install and remove effects.
const ADMIN: Guard = Guard::Admin {
    what_key: "effect-not-allowed",
};

/// `/effect install` without a file or code answers with the paste form.
fn asks_for_paste(command: &Command) -> bool {
    command.sub() == Some("install")
        && command.option("file").is_none()
        && command.option("code").is_none()
}

/// The tags of the server's effects.
fn autocomplete<'a>(
    cx: &'a Context,
    request: &'a Request,
    command: &'a Command,
    focused: &'a str,
) -> Answer<'a> {
    Box::pin(async move {
        let (Some(guild_id), "name") = (request.guild_id, focused) else {
            return Ok(name_choices(Vec::new()));
        };
        let Some(library) = cx.effect_library(guild_id).await? else {
            return Ok(name_choices(Vec::new()));
        };
        let typed = command.string(focused).unwrap_or("").to_lowercase();
        let tags = library
            .effect_tags()
            .into_iter()
            .filter(|tag| tag.to_lowercase().starts_with(&typed))
            .map(str::to_owned)
            .collect();
        Ok(name_choices(tags))
    })
}

/// The custom id of the paste form.
pub fn paste_form_id() -> String {
    custom_id::compose(PASTE_KIND, "")
}

/// The paste form.
fn paste_form(lang: Lang) -> Modal {
    Modal {
        custom_id: paste_form_id(),
        title: i18n::tr(lang, "effect-paste-title"),
        inputs: vec![TextInput {
            custom_id: SOURCE_FIELD.to_owned(),
            label: i18n::tr(lang, "effect-paste-label"),
            style: TextInputStyle::Paragraph,
            placeholder: Some("ELEMENTS { BURN POISON }\nEFFECT Poison { … }".to_owned()),
            required: true,
            max_length: PASTE_MAX_CHARS,
        }],
    }
}

impl Context {
    async fn effect_install_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let guild_id = guild_of(request)?;
        if asks_for_paste(command) {
            return Ok(vec![Reply::Modal(paste_form(lang))]);
        }
        match self.script_source(lang, command, SourceKind::Effects).await {
            Ok(source) => self.effect_install(lang, request, guild_id, source).await,
            Err(problem) => Ok(ephemeral(problem)),
        }
    }

    async fn effect_remove_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let guild_id = guild_of(request)?;
        let name = command.string("name").map(str::trim).unwrap_or("");
        let everything = command.boolean("everything").unwrap_or(false);
        self.effect_remove(lang, request, guild_id, name, everything)
            .await
    }

    /// The paste form submitted.
    async fn effect_pasted(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let (Some(_), RequestKind::Modal { fields, .. }) =
            (custom_id::rest_of(custom_id, PASTE_KIND), &request.kind)
        else {
            return Ok(super::stale_component(request));
        };
        let lang = self.language(request, false).await?;
        let Some(guild_id) = request.guild_id else {
            return Ok(ephemeral(super::access::not_in_dms(lang)));
        };
        if let Some(refusal) = self
            .refuse_unless_admin(lang, request, "effect-not-allowed-install")
            .await?
        {
            return Ok(refusal);
        }
        let source = fields
            .iter()
            .find(|(id, _)| id == SOURCE_FIELD)
            .map(|(_, value)| strip_code_fences(value, FILE_TAGS))
            .unwrap_or_default();
        if source.trim().is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "effect-file-empty")));
        }
        self.effect_install(lang, request, guild_id, source).await
    }

    async fn effect_install(
        &self,
        lang: Lang,
        request: &Request,
        guild_id: i64,
        source: String,
    ) -> anyhow::Result<Vec<Reply>> {
        let library = match self.load_library(&source).await {
            Ok(Ok(library)) => library,
            Ok(Err(errors)) => {
                return Ok(load_error_replies(
                    lang,
                    FILE_NAME,
                    SourceKind::Effects,
                    &source,
                    &errors,
                ));
            }
            Err(error) => {
                return super::overrun_in(lang, &i18n::tr(lang, "effect-work-checking"), error);
            }
        };
        let replaced = self.storage.effect_library(guild_id).await?.is_some();
        self.store_library(request, guild_id, &source, &library)
            .await?;
        let tags = library.effect_tags();
        let args = [
            ("effects", tags.len().into()),
            ("tags", truncate(&tags.join(", "), 1000).into()),
            ("elements", library.elements().len().into()),
        ];
        let mut text = if replaced {
            i18n::tr_args(lang, "effect-replaced", &args)
        } else {
            i18n::tr_args(lang, "effect-installed", &args)
        };
        text.push_str(&self.orphaned_scripts_note(lang, guild_id, &library).await?);
        Ok(ephemeral(text))
    }

    async fn store_library(
        &self,
        request: &Request,
        guild_id: i64,
        source: &str,
        library: &EffectLibrary,
    ) -> anyhow::Result<()> {
        self.storage
            .set_effect_library(&EffectLibraryRow {
                guild_id,
                source: source.to_owned(),
                effect_count: i64::try_from(library.effect_tags().len()).unwrap_or(i64::MAX),
                installed_by: request.user.id,
                installed_by_name: request.user.name.clone(),
                installed_at: self.now(),
            })
            .await
    }

    /// " NPC scripts … name effects the file no longer has", or nothing.
    async fn orphaned_scripts_note(
        &self,
        lang: Lang,
        guild_id: i64,
        library: &EffectLibrary,
    ) -> anyhow::Result<String> {
        let mut orphaned = Vec::new();
        for row in self.storage.npc_scripts(guild_id).await? {
            let Ok(Ok(script)) = self.npc_load(&row.source).await else {
                continue;
            };
            if !script.unknown_effects(library).is_empty() {
                orphaned.push(format!("`{}`", row.name));
            }
        }
        if orphaned.is_empty() {
            return Ok(String::new());
        }
        let note = i18n::tr_args(
            lang,
            "effect-orphaned",
            &[("npcs", truncate(&orphaned.join(", "), 500).into())],
        );
        Ok(format!("\n{note}"))
    }

    async fn effect_list(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let guild_id = guild_of(request)?;
        let Some(row) = self.storage.effect_library(guild_id).await? else {
            return Ok(no_library(lang));
        };
        let Some(library) = self.library_of(&row) else {
            return Ok(no_library(lang));
        };
        let elements = library.elements().join(" ");
        // No elements would be an empty `` in the header.
        let header_id = if elements.trim().is_empty() {
            "effect-list-header-no-elements"
        } else {
            "effect-list-header"
        };
        let header = i18n::tr_args(
            lang,
            header_id,
            &[
                ("user", escape_markdown(&row.installed_by_name).into()),
                ("date", super::dates::date_time(row.installed_at).into()),
                ("elements", truncate(&elements, 200).into()),
            ],
        );
        let footer = i18n::tr(lang, "effect-list-footer");
        // Two line breaks and the code block's fences around the list.
        let around = header.chars().count() + footer.chars().count() + 2 + 8;
        let budget = LIST_BUDGET.min(CONTENT_CHARS.saturating_sub(around + MORE_ROOM));
        let mut lines = Vec::new();
        let mut used = 0;
        let tags = library.effect_tags();
        for (shown, tag) in tags.iter().enumerate() {
            let line = match library.declaration(tag) {
                Some(declaration) => summary(tag, declaration),
                None => (*tag).to_owned(),
            };
            if used + line.chars().count() + 1 > budget {
                lines.push(i18n::tr_args(
                    lang,
                    "effect-list-more",
                    &[("count", (tags.len() - shown).into())],
                ));
                break;
            }
            used += line.chars().count() + 1;
            lines.push(line);
        }
        // A file of elements alone declares no effect: no empty code block.
        let body = if lines.is_empty() {
            i18n::tr(lang, "effect-list-empty")
        } else {
            code_block(&lines.join("\n"))
        };
        Ok(ephemeral(format!("{header}\n{body}\n{footer}")))
    }

    async fn effect_show(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let guild_id = guild_of(request)?;
        let name = command.string("name").map(str::trim).unwrap_or("");
        let Some(library) = self.effect_library(guild_id).await? else {
            return Ok(no_library(lang));
        };
        match library.declaration(name) {
            Some(declaration) => Ok(ephemeral(code_block(&truncate(declaration, 1800)))),
            None => Ok(ephemeral(no_effect(lang, name, &library))),
        }
    }

    async fn effect_remove(
        &self,
        lang: Lang,
        request: &Request,
        guild_id: i64,
        name: &str,
        everything: bool,
    ) -> anyhow::Result<Vec<Reply>> {
        if everything {
            if !self.storage.delete_effect_library(guild_id).await? {
                return Ok(no_library(lang));
            }
            let note = self
                .orphaned_scripts_note(lang, guild_id, &EffectLibrary::empty())
                .await?;
            let removed = i18n::tr(lang, "effect-removed-all");
            return Ok(ephemeral(format!("{removed}{note}")));
        }
        if name.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "effect-remove-what")));
        }
        let Some(row) = self.storage.effect_library(guild_id).await? else {
            return Ok(no_library(lang));
        };
        let library = match self.load_library(&row.source).await {
            Ok(Ok(library)) => library,
            Ok(Err(_)) => return Ok(no_library(lang)),
            Err(error) => {
                return super::overrun_in(lang, &i18n::tr(lang, "effect-work-reading"), error);
            }
        };
        let Some(declaration) = library.declaration(name) else {
            return Ok(ephemeral(no_effect(lang, name, &library)));
        };
        let source = row.source.replacen(declaration, "", 1);
        let smaller = match self.load_library(&source).await {
            Ok(Ok(smaller)) => smaller,
            Ok(Err(errors)) => {
                let first = errors.first().map(ToString::to_string).unwrap_or_default();
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "effect-stays",
                    &[
                        ("name", name.into()),
                        ("error", truncate(&first, 300).into()),
                    ],
                )));
            }
            Err(error) => {
                return super::overrun_in(lang, &i18n::tr(lang, "effect-work-checking"), error);
            }
        };
        self.store_library(request, guild_id, &source, &smaller)
            .await?;
        let note = self.orphaned_scripts_note(lang, guild_id, &smaller).await?;
        let removed = i18n::tr_args(lang, "effect-removed", &[("name", name.into())]);
        Ok(ephemeral(format!("{removed}{note}")))
    }
}

fn no_library(lang: Lang) -> Vec<Reply> {
    ephemeral(i18n::tr(lang, "effect-none"))
}

fn no_effect(lang: Lang, name: &str, library: &EffectLibrary) -> String {
    i18n::tr_args(
        lang,
        "effect-no-such",
        &[
            ("name", name.replace('`', "'").into()),
            (
                "effects",
                truncate(&library.effect_tags().join(", "), 1500).into(),
            ),
        ],
    )
}

/// One line of `/effect list`: the tag and its fields, comments, line breaks and
/// the usual `target_type Character` gone.
fn summary(tag: &str, declaration: &str) -> String {
    let body = declaration
        .split_once('{')
        .map_or(declaration, |(_, body)| body)
        .trim_end()
        .trim_end_matches('}');
    let fields: Vec<String> = body
        .lines()
        .map(|line| line.split_once("//").map_or(line, |(code, _)| code))
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .map(|line| line.trim_end_matches(';').to_owned())
        // Characters are the usual target; an effect on effects says so.
        .filter(|line| !line.is_empty() && line != "target_type Character")
        .collect();
    truncate(&format!("{tag}: {}", fields.join("; ")), 160)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_is_one_line_of_the_fields() {
        let declaration = "EFFECT Poison {\n    target_type Character\n    subject HitPoints;\n    \
                           value -2 // hurts\n    duration 3\n}";
        assert_eq!(
            summary("Poison", declaration),
            "Poison: subject HitPoints; value -2; duration 3"
        );
    }
}
