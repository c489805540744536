//! `/chargen program add|list|remove|default`: BASIC generator programs a server's
//! admins install, checked before they are stored.
//!
//! A program is loaded exactly as a run would load it: refused statements (file
//! I/O and the like) and the size and line limits keep it out, with the reason and
//! the line. Syntax errors do not: old listings often carry a broken line that never
//! runs, and GW-BASIC only complains when it reaches one. So every syntax error is
//! listed in one answer, and the program is installed only when the admin presses
//! "Install anyway" (the listing waits in `button_states` meanwhile, for an hour).

use super::super::authoring::{Install, check_overrun, installed_text, map_fits, too_large};
use super::super::commands::{GroupSpec, attachment, string, sub};
use super::super::context::Context;
use super::super::custom_id;
use super::super::dates::date_time;
use super::super::gen_reason;
use super::super::record_map::{self, RecordMap};
use super::super::table::{ComponentFamily, Guard, guild_of};
use super::super::text::{MESSAGE_LIMIT, code_block, escape_markdown, one_line, truncate};
use super::super::{
    Ack, ActionRow, Button, ButtonStyle, Command, Component, FileAttachment, Message, Modal,
    OptionValue, Reply, Request, RequestKind, TextInput, TextInputStyle, ephemeral,
};
use crate::engine::ProgramCheck;
use crate::i18n::{self, Lang};
use crate::storage::{NewProgram, name_key};

/// The text field of the paste form.
pub(super) const SOURCE_FIELD: &str = "source";
/// The record map field of the paste form.
pub(super) const MAP_FIELD: &str = "map";
/// Discord's limit on a modal's text field.
const PASTE_MAX_CHARS: u16 = 4000;
const PENDING_KIND: &str = "program";
/// How long "Install anyway" stays valid.
const PENDING_TTL_MS: i64 = 3_600_000;

fn not_pending(lang: Lang) -> Vec<Reply> {
    ephemeral(i18n::tr(lang, "programs-not-pending"))
}

/// How many characters a map change restarted the purse of, and renamed.
#[derive(Default)]
struct MapFollowed {
    restarted: usize,
    renamed: usize,
}

/// An install waiting for its admin's confirmation.
#[derive(serde::Serialize, serde::Deserialize)]
struct Pending {
    program: NewProgram,
}

/// The `/chargen program` group of the spec.
pub(super) fn group_spec() -> GroupSpec {
    GroupSpec {
        name: "program",
        description: "Generator programs of this server (server admins)",
        subcommands: vec![
            sub(
                "add",
                "Install or replace a BASIC program (.bas file, code, or paste it)",
                vec![
                    string("name", "The program's name: letters, digits, - and _", 32).required(),
                    attachment("file", "The .bas listing"),
                    string("code", "The listing, as a code block", 6000),
                    string(
                        "map",
                        "How its variables become a character: at 4180 NAME=NA$ STR=ST",
                        1000,
                    ),
                ],
            ),
            sub("list", "List the generator programs here", vec![]),
            sub(
                "remove",
                "Remove an installed program",
                vec![
                    string("name", "The program's name", 32)
                        .required()
                        .autocomplete(),
                ],
            ),
            sub(
                "default",
                "The program /chargen start runs (leave out: the shipped one)",
                vec![string("name", "The program's name", 32).autocomplete()],
            ),
            sub(
                "show",
                "Show an installed program, its record map and its listing",
                vec![
                    string("name", "The program's name", 32)
                        .required()
                        .autocomplete(),
                ],
            ),
            sub(
                "map",
                "Set how a program's variables become a character (empty: none)",
                vec![
                    string("name", "The program's name", 32)
                        .required()
                        .autocomplete(),
                    string(
                        "map",
                        "at LINE FIELD=VARIABLE … (e.g. at 4180 NAME=NA$ STR=ST)",
                        1000,
                    ),
                ],
            ),
        ],
    }
}

/// The guards of `/chargen program list` and `show`: programs belong to a server.
pub(super) const ON_SERVER: &[Guard] = &[Guard::GuildOnly];
/// The guards of the subcommands that change a server's programs.
pub(super) const ADMIN: &[Guard] = &[
    Guard::GuildOnly,
    Guard::Admin {
        what_key: "programs-may-manage",
    },
];

/// "Install anyway" and "Cancel" under a program with syntax errors; the
/// confirmation's own message becomes the outcome.
pub(super) const CONFIRM_FAMILY: ComponentFamily = ComponentFamily {
    kinds: &[INSTALL_KIND, CANCEL_KIND],
    ack: super::super::table::defer_update,
    run: |cx, request, custom_id| Box::pin(cx.program_confirm_button(request, custom_id)),
};

/// The paste form of `/chargen program add`: submitted from a command, not from a
/// message, so its answer is a new private message, not an update.
pub(super) const PASTE_FAMILY: ComponentFamily = ComponentFamily {
    kinds: &[PASTE_KIND],
    ack: |_, _| Ack::Defer { ephemeral: true },
    run: |cx, request, custom_id| Box::pin(cx.program_pasted(request, custom_id)),
};

/// "Install anyway": `tv1:pi:<pending install>`.
const INSTALL_KIND: &str = "pi";
/// "Cancel" next to it.
const CANCEL_KIND: &str = "px";
/// The paste form: `tv1:pm:<program name>`.
const PASTE_KIND: &str = "pm";

/// The custom id of a program's paste form.
pub fn paste_form_id(name: &str) -> String {
    custom_id::compose(PASTE_KIND, name)
}

/// The custom ids of "Install anyway" and "Cancel" under a pending install.
pub fn confirm_ids(state_id: i64) -> (String, String) {
    (
        custom_id::with_state(INSTALL_KIND, state_id),
        custom_id::with_state(CANCEL_KIND, state_id),
    )
}

/// The pending install an "Install anyway" (`true`) or "Cancel" button names.
pub fn decode_confirm_id(text: &str) -> Option<(i64, bool)> {
    if let Some(state_id) = custom_id::state_of(text, INSTALL_KIND) {
        return Some((state_id, true));
    }
    custom_id::state_of(text, CANCEL_KIND).map(|state_id| (state_id, false))
}

/// `/chargen program add` without a file or code answers with the paste form; a
/// modal must be the first response, so this also decides the acknowledgement.
pub(super) fn asks_for_paste(command: &Command) -> bool {
    command.sub() == Some("program")
        && command.subcommand.get(1).is_some_and(|sub| sub == "add")
        && command.option("file").is_none()
        && command.option("code").is_none()
}

impl Context {
    async fn program_confirm_button(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        match decode_confirm_id(custom_id) {
            Some((state_id, install)) => self.program_confirm(request, state_id, install).await,
            None => Ok(super::super::stale_component(request)),
        }
    }

    /// What every `/chargen program` subcommand reads first: the member's language,
    /// the server (its guard let only servers through) and the `name` typed.
    async fn program_ask<'a>(
        &self,
        request: &Request,
        command: &'a Command,
    ) -> anyhow::Result<(Lang, i64, &'a str)> {
        let lang = self.language(request, false).await?;
        let guild_id = guild_of(request)?;
        let name = command.string("name").map(str::trim).unwrap_or("");
        Ok((lang, guild_id, name))
    }

    pub(super) async fn program_add_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, _, name) = self.program_ask(request, command).await?;
        if let Err(problem) = self.check_program_name(name, lang) {
            return Ok(ephemeral(problem));
        }
        // Discord's option fields hold one line; a listing is pasted in a form.
        if asks_for_paste(command) {
            return Ok(vec![Reply::Modal(paste_form(name, lang))]);
        }
        let source = match (command.option("file"), command.string("code")) {
            (Some(_), Some(_)) => {
                return Ok(ephemeral(i18n::tr(lang, "programs-file-and-code")));
            }
            (
                Some(OptionValue::Attachment {
                    filename,
                    url,
                    size,
                }),
                None,
            ) => match self.read_listing(filename, url, *size, lang).await {
                Ok(source) => source,
                Err(problem) => return Ok(ephemeral(problem)),
            },
            (None, Some(code)) => {
                super::super::text::strip_code_fences(code, super::super::text::FenceTag::AnyWord)
            }
            _ => {
                return Ok(ephemeral(i18n::tr(lang, "programs-no-source")));
            }
        };
        self.install_source(request, name, source, command.string("map"), lang)
            .await
    }

    /// `/chargen program map name map:…`: sets (or, with an empty map, removes) the
    /// record map of an installed program, checked against its listing.
    pub(super) async fn program_map_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, name) = self.program_ask(request, command).await?;
        let map_text = command.string("map").unwrap_or("");
        let Some(program) = self.storage.installed_program(guild_id, name).await? else {
            if self.builtin_named(name).is_some() {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "programs-map-shipped",
                    &[("program", name.into())],
                )));
            }
            return Ok(ephemeral(no_program(name, lang)));
        };
        let map_text = map_text.trim();
        let map = if map_text.is_empty() {
            None
        } else {
            let check = match self.check_listing(&program.source).await {
                Ok(check) => check,
                Err(error) => return check_overrun(name, error, lang),
            };
            let fits = check
                .map_err(|failure| {
                    gen_reason::log_if_ours(&failure);
                    one_line(&gen_reason::reason(lang, &failure), 300)
                })
                .and_then(|check| map_fits(map_text, &check).map_err(|error| error.text(lang)));
            match fits {
                Ok(map) => Some(map),
                Err(problem) => {
                    let kept = program.record_map.trim();
                    let args = [
                        ("problem", problem.into()),
                        ("program", program.name.as_str().into()),
                        ("map", one_line(kept, 1000).replace('`', "'").into()),
                    ];
                    return Ok(ephemeral(if kept.is_empty() {
                        i18n::tr_args(lang, "programs-map-not-saved", &args)
                    } else {
                        i18n::tr_args(lang, "programs-map-not-saved-kept", &args)
                    }));
                }
            }
        };
        let stored = map.as_ref().map(ToString::to_string).unwrap_or_default();
        if !self
            .storage
            .set_record_map(guild_id, &program.name, &stored)
            .await?
        {
            return Ok(ephemeral(no_program(name, lang)));
        }
        let followed = self
            .follow_map(guild_id, &program.name, &program.source_hash, map.as_ref())
            .await?;
        let program_name = program.name.as_str();
        let mut sentences = vec![match &map {
            Some(map) => i18n::tr_args(
                lang,
                "programs-map-set",
                &[
                    ("program", program_name.into()),
                    ("map", map.to_string().into()),
                ],
            ),
            None => i18n::tr_args(
                lang,
                "programs-map-removed",
                &[("program", program_name.into())],
            ),
        }];
        sentences.push(i18n::tr(lang, "programs-map-followed"));
        if followed.restarted > 0 {
            sentences.push(i18n::tr_args(
                lang,
                "programs-map-restarted",
                &[("count", followed.restarted.into())],
            ));
        }
        if followed.renamed > 0 {
            sentences.push(i18n::tr_args(
                lang,
                "programs-map-renamed",
                &[("count", followed.renamed.into())],
            ));
        }
        Ok(ephemeral(sentences.join(" ")))
    }

    /// `/chargen program show name`: an installed program's facts and its record
    /// map spelled out, with the listing attached.
    pub(super) async fn program_show_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, name) = self.program_ask(request, command).await?;
        let Some(program) = self.storage.installed_program(guild_id, name).await? else {
            if let Some(shipped) = self.builtin_named(name) {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "programs-show-shipped",
                    &[("program", shipped.name.as_str().into())],
                )));
            }
            return Ok(ephemeral(no_program(name, lang)));
        };
        let mut lines = vec![i18n::tr_args(
            lang,
            "programs-show-facts",
            &[
                ("program", program.name.as_str().into()),
                ("lines", program.source.lines().count().into()),
                ("bytes", program.source.len().into()),
            ],
        )];
        match record_map::parse(&program.record_map) {
            Ok(map) if !program.record_map.trim().is_empty() => {
                lines.push(i18n::tr_args(
                    lang,
                    "programs-show-map",
                    &[("map", map.to_string().into())],
                ));
                lines.push(match map.at {
                    Some(line) => i18n::tr_args(
                        lang,
                        "programs-show-taken-at",
                        &[("line", line.to_string().into())],
                    ),
                    None => i18n::tr(lang, "programs-show-taken-at-end"),
                });
                let pairs: Vec<String> = map
                    .pairs
                    .iter()
                    .map(|(field, variable)| format!("{field} ← {variable}"))
                    .collect();
                if !pairs.is_empty() {
                    lines.push(code_block(&pairs.join("\n")));
                }
            }
            _ => lines.push(i18n::tr(lang, "programs-show-no-map")),
        }
        let mut message = Message::ephemeral(truncate(&lines.join("\n"), MESSAGE_LIMIT));
        let description = i18n::tr_args(
            lang,
            "programs-show-listing-description",
            &[("program", program.name.as_str().into())],
        );
        message.attachments.push(FileAttachment {
            filename: format!("{}.bas", program.name),
            bytes: program.source.into_bytes(),
            description: Some(description),
        });
        Ok(vec![Reply::Interaction(message)])
    }

    /// What the fields of a map change cannot do on read, done when the map changes:
    /// gold and food start where the map says (for the characters nobody has traded
    /// with yet), and a character takes the name the map's `NAME` gives it.
    ///
    /// Names are stored, not applied on read like the other fields: the stored name
    /// is what `/character show`, `use`, `delete` and autocomplete look up (by its
    /// key, unique per owner and server), so renaming here keeps every lookup and the
    /// uniqueness in one place; a clash gets a number (`Ann 2`) as at creation. A map
    /// without `NAME` (or removed) leaves names as they are.
    async fn follow_map(
        &self,
        guild_id: i64,
        program: &str,
        hash: &str,
        map: Option<&RecordMap>,
    ) -> anyhow::Result<MapFollowed> {
        let mut followed = MapFollowed::default();
        let Some(map) = map else {
            return Ok(followed);
        };
        for row in self
            .storage
            .captured_characters(guild_id, program, hash)
            .await?
        {
            let capture: Vec<(String, String)> =
                serde_json::from_str(&row.capture).unwrap_or_default();
            let fields = record_map::apply(map, &capture);
            let gold = super::super::fields::purse_value(&fields, super::super::fields::GOLD_KEYS);
            let food = super::super::fields::purse_value(&fields, super::super::fields::FOOD_KEYS);
            if (gold, food) != (row.gold, row.food)
                && self.storage.restart_purse(row.id, gold, food).await?
            {
                followed.restarted += 1;
            }
            let wanted = super::super::naming::character_name(&fields);
            if !wanted.is_empty()
                && wanted != row.name
                && self.storage.rename_character(&row, &wanted).await? != row.name
            {
                followed.renamed += 1;
            }
        }
        Ok(followed)
    }

    /// The paste form submitted.
    async fn program_pasted(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let (Some(name), RequestKind::Modal { fields, .. }) =
            (custom_id::rest_of(custom_id, PASTE_KIND), &request.kind)
        else {
            return Ok(super::super::stale_component(request));
        };
        let lang = self.language(request, false).await?;
        if request.guild_id.is_none() {
            return Ok(ephemeral(super::super::access::not_in_dms(lang)));
        }
        if let Some(refusal) = self
            .refuse_unless_admin(lang, request, "programs-may-install")
            .await?
        {
            return Ok(refusal);
        }
        if let Err(problem) = self.check_program_name(name, lang) {
            return Ok(ephemeral(problem));
        }
        let source = fields
            .iter()
            .find(|(id, _)| id == SOURCE_FIELD)
            .map(|(_, value)| {
                super::super::text::strip_code_fences(value, super::super::text::FenceTag::AnyWord)
            })
            .unwrap_or_default();
        let map = fields
            .iter()
            .find(|(id, _)| id == MAP_FIELD)
            .map(|(_, value)| value.as_str());
        self.install_source(request, name, source, map, lang).await
    }

    async fn read_listing(
        &self,
        filename: &str,
        url: &str,
        size: u64,
        lang: Lang,
    ) -> Result<String, String> {
        let max_bytes = self.settings.max_program_bytes;
        if !filename.to_lowercase().ends_with(".bas") {
            return Err(i18n::tr_args(
                lang,
                "programs-not-bas",
                &[("file", one_line(filename, 100).replace('`', "'").into())],
            ));
        }
        if size > max_bytes as u64 {
            return Err(too_large(max_bytes, lang));
        }
        let bytes = self.fetch.fetch(url, max_bytes).await.map_err(|error| {
            i18n::tr_args(
                lang,
                "programs-unreadable",
                &[("error", error.to_string().into())],
            )
        })?;
        Ok(super::super::text::decode_listing(&bytes))
    }

    /// The install of `/chargen program add` ([`Context::install_program`]): with
    /// syntax errors the listing waits for "Install anyway".
    async fn install_source(
        &self,
        request: &Request,
        name: &str,
        source: String,
        map_text: Option<&str>,
        lang: Lang,
    ) -> anyhow::Result<Vec<Reply>> {
        let (install, _) = self
            .install_program(request, name, source, map_text, false, lang)
            .await?;
        let (program, check) = match install {
            Install::Refused(text) | Install::Installed(text) => {
                return Ok(ephemeral(truncate(&text, MESSAGE_LIMIT)));
            }
            Install::Unconfirmed(waiting) => (waiting.program, waiting.check),
        };
        let state_id = self
            .store_button_state(
                PENDING_KIND,
                &Pending {
                    program: program.clone(),
                },
            )
            .await?;
        Ok(vec![Reply::Interaction(errors_message(
            &program, &check, state_id, lang,
        ))])
    }

    /// "Install anyway" (`install`) or "Cancel" under a program with syntax errors.
    async fn program_confirm(
        &self,
        request: &Request,
        state_id: i64,
        install: bool,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let pending = match self.storage.button_state(state_id).await? {
            Some(state) if state.kind == PENDING_KIND => state,
            _ => return Ok(not_pending(lang)),
        };
        if pending.created_at + PENDING_TTL_MS <= self.now() {
            self.storage.delete_button_state(state_id).await?;
            return Ok(not_pending(lang));
        }
        let Ok(Pending { mut program }) = serde_json::from_str::<Pending>(&pending.payload) else {
            self.storage.delete_button_state(state_id).await?;
            return Ok(not_pending(lang));
        };
        if request.guild_id != Some(program.guild_id) {
            return Ok(not_pending(lang));
        }
        if let Some(refusal) = self
            .refuse_unless_admin(lang, request, "programs-may-install")
            .await?
        {
            return Ok(refusal);
        }
        // Whoever presses first decides; a second press finds nothing.
        if !self.storage.delete_button_state(state_id).await? {
            return Ok(not_pending(lang));
        }
        if !install {
            let cancelled = Message::ephemeral(i18n::tr_args(
                lang,
                "programs-install-cancelled",
                &[("program", program.name.as_str().into())],
            ));
            return Ok(vec![Reply::Update(cancelled)]);
        }
        let replacing = self
            .storage
            .installed_program(program.guild_id, &program.name)
            .await?
            .is_some();
        program.installed_by = request.user.id;
        program.installed_by_name = request.user.name.clone();
        program.now = self.now();
        self.storage.install_program(&program).await?;
        let installed = Message::ephemeral(installed_text(&program, replacing, lang));
        Ok(vec![Reply::Update(installed)])
    }

    /// Forgets installs nobody confirmed within the hour.
    pub(super) async fn purge_pending_installs(&self, now: i64) -> anyhow::Result<()> {
        self.storage
            .purge_button_states_of(PENDING_KIND, now.saturating_sub(PENDING_TTL_MS))
            .await?;
        Ok(())
    }

    pub(super) async fn program_list_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, _) = self.program_ask(request, command).await?;
        let installed = self.storage.installed_programs(guild_id).await?;
        let default = self.storage.default_program(guild_id).await?;
        let is_default = |name: &str| match &default {
            Some(default) => name_key(default) == name_key(name),
            None => false,
        };
        let the_default = format!(" {}", i18n::tr(lang, "programs-list-default"));
        let mut lines = vec![i18n::tr(lang, "programs-list-heading")];
        for (index, program) in self.engines.builtin_programs.iter().enumerate() {
            let mut line = i18n::tr_args(
                lang,
                "programs-list-shipped",
                &[("program", program.name.as_str().into())],
            );
            if is_default(&program.name) || (default.is_none() && index == 0) {
                line.push_str(&the_default);
            }
            lines.push(line);
        }
        for program in &installed {
            let by = if program.installed_by_name.is_empty() {
                i18n::tr_args(
                    lang,
                    "programs-list-user",
                    &[("id", program.installed_by.to_string().into())],
                )
            } else {
                format!(
                    "**{}**",
                    escape_markdown(&one_line(&program.installed_by_name, 64))
                )
            };
            let mut line = i18n::tr_args(
                lang,
                "programs-list-installed",
                &[
                    ("program", program.name.as_str().into()),
                    ("lines", program.line_count.into()),
                    ("bytes", program.source_bytes.into()),
                    ("by", by.into()),
                    ("date", date_time(program.installed_at).into()),
                ],
            );
            if program.syntax_errors > 0 {
                line.push_str(&i18n::tr_args(
                    lang,
                    "programs-list-errors",
                    &[("count", program.syntax_errors.into())],
                ));
            }
            if is_default(&program.name) {
                line.push_str(&the_default);
            }
            if !program.record_map.trim().is_empty() {
                line.push_str("\n  ");
                line.push_str(&i18n::tr_args(
                    lang,
                    "programs-list-map",
                    &[(
                        "map",
                        one_line(&program.record_map, 1000).replace('`', "'").into(),
                    )],
                ));
            }
            lines.push(line);
        }
        Ok(ephemeral(truncate(&lines.join("\n"), MESSAGE_LIMIT)))
    }

    pub(super) async fn program_remove_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, name) = self.program_ask(request, command).await?;
        let Some(program) = self.storage.installed_program(guild_id, name).await? else {
            if self.builtin_named(name).is_some() {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "programs-remove-shipped",
                    &[("program", name.into())],
                )));
            }
            return Ok(ephemeral(no_program(name, lang)));
        };
        if !self.storage.remove_program(guild_id, &program.name).await? {
            return Ok(ephemeral(no_program(name, lang)));
        }
        Ok(ephemeral(i18n::tr_args(
            lang,
            "programs-removed",
            &[("program", program.name.as_str().into())],
        )))
    }

    pub(super) async fn program_default_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, name) = self.program_ask(request, command).await?;
        let shipped_default = self
            .engines
            .builtin_programs
            .first()
            .map(|p| p.name.clone());
        let chosen = if name.is_empty() {
            None
        } else if let Some(program) = self.storage.installed_program(guild_id, name).await? {
            Some(program.name)
        } else if let Some(program) = self.builtin_named(name) {
            Some(program.name.clone())
        } else {
            return Ok(ephemeral(no_program(name, lang)));
        };
        // Choosing the shipped default is the same as choosing none.
        let stored = chosen.filter(|chosen| Some(chosen) != shipped_default.as_ref());
        self.storage
            .set_default_program(guild_id, stored.as_deref(), request.user.id, self.now())
            .await?;
        let shown = stored.or(shipped_default).unwrap_or_default();
        Ok(ephemeral(i18n::tr_args(
            lang,
            "programs-default-set",
            &[("program", shown.into())],
        )))
    }
}

fn no_program(name: &str, lang: Lang) -> String {
    i18n::tr_args(
        lang,
        "programs-no-such-program",
        &[("name", one_line(name, 40).replace('`', "'").into())],
    )
}

/// The paste form of `/chargen program add name`: the listing and its record map.
fn paste_form(name: &str, lang: Lang) -> Modal {
    Modal {
        custom_id: paste_form_id(name),
        title: truncate(
            &i18n::tr_args(lang, "programs-paste-title", &[("program", name.into())]),
            45,
        ),
        inputs: vec![
            TextInput {
                custom_id: SOURCE_FIELD.to_owned(),
                label: i18n::tr(lang, "programs-paste-listing"),
                style: TextInputStyle::Paragraph,
                placeholder: Some("10 PRINT \"HELLO\"".to_owned()),
                required: true,
                max_length: PASTE_MAX_CHARS,
            },
            TextInput {
                custom_id: MAP_FIELD.to_owned(),
                label: i18n::tr(lang, "programs-paste-map"),
                style: TextInputStyle::Short,
                placeholder: Some("at 4180 NAME=NA$ STR=ST HP=PT GOLD=GC".to_owned()),
                required: false,
                max_length: u16::try_from(record_map::MAX_MAP_LEN).unwrap_or(1000),
            },
        ],
    }
}

/// Every syntax error, with "Install anyway" and "Cancel"; when they do not all fit
/// in the message, all of them are attached as a file too.
fn errors_message(
    program: &NewProgram,
    check: &ProgramCheck,
    state_id: i64,
    lang: Lang,
) -> Message {
    let count = check.syntax_errors.len();
    let lines: Vec<String> = check
        .syntax_errors
        .iter()
        .map(|error| {
            i18n::tr_args(
                lang,
                "programs-syntax-error",
                &[
                    ("line", error.line.to_string().into()),
                    ("column", error.column.into()),
                    (
                        "message",
                        gen_reason::syntax_problem(lang, &error.problem).into(),
                    ),
                ],
            )
        })
        .collect();
    let program_name = program.name.as_str();
    let header = i18n::tr_args(
        lang,
        "programs-syntax-errors",
        &[("program", program_name.into()), ("count", count.into())],
    );
    let footer = i18n::tr(lang, "programs-syntax-errors-question");
    let all = lines.join("\n");
    let room = MESSAGE_LIMIT - header.chars().count() - footer.chars().count() - 60;
    let mut message = Message::ephemeral("");
    let shown = if all.chars().count() <= room {
        all.clone()
    } else {
        let mut kept = String::new();
        let mut shown_count = 0;
        for line in &lines {
            if kept.chars().count() + line.chars().count() + 1 > room.saturating_sub(40) {
                break;
            }
            kept.push_str(line);
            kept.push('\n');
            shown_count += 1;
        }
        let program_arg = ("program", program_name.into());
        message.attachments.push(FileAttachment {
            filename: i18n::tr_args(
                lang,
                "programs-syntax-errors-filename",
                std::slice::from_ref(&program_arg),
            ),
            bytes: format!("{all}\n").into_bytes(),
            description: Some(i18n::tr_args(
                lang,
                "programs-syntax-errors-file-description",
                &[program_arg, ("count", count.into())],
            )),
        });
        let more = i18n::tr_args(
            lang,
            "programs-syntax-errors-more",
            &[("count", (count - shown_count).into())],
        );
        format!("{kept}{more}")
    };
    message.content = format!("{header}\n{}\n{footer}", code_block(&shown));
    let (install_id, cancel_id) = confirm_ids(state_id);
    message.components.push(ActionRow(vec![
        Component::Button(Button {
            custom_id: install_id,
            label: i18n::tr(lang, "programs-install-anyway"),
            style: ButtonStyle::Danger,
            disabled: false,
        }),
        Component::Button(Button {
            custom_id: cancel_id,
            label: i18n::tr(lang, "programs-cancel"),
            style: ButtonStyle::Secondary,
            disabled: false,
        }),
    ]));
    message
}
