//! NPC conversations (issue 7): `/npc install|list|remove|activity` for server
//! admins, `/talk npc:NAME [conv:CONV]` for players, and the components and replies
//! that answer an NPC.
//!
//! - **Which NPC, which conversation.** An install's name (letters, digits, `_`,
//!   starting with a letter) is the NPC's tag in lower case: what JOIN puts in the
//!   party, what CHECK_MEMBER and ACTIVITY refer to. `/talk` starts the script's
//!   first CONV, or the one named by `conv`.
//! - **Whose world.** A conversation is had by a character: the player's active one
//!   (`/character use`), else their most recently made one here; without any, `/talk`
//!   asks them to make one. Gold, food, items and party are that character's; flags
//!   and parameters are the player's on this server (flags 0..127 per NPC and CONV,
//!   128..255 shared); the activity code is the NPC's.
//! - **A turn commits as every turn does** (`core::turn`): it reads the script and
//!   the world, runs the engine on a worker outside any transaction, then claims the
//!   conversation's step (a second answer to the same prompt finds it gone), checks
//!   that the world and the character's effects are still as read, and writes the
//!   world's changes and the waiting conversation in one short transaction before
//!   the NPC's message is returned; a world that changed meanwhile runs the turn
//!   again on what is there now. A turn stopped by the step budget changes nothing
//!   but ending the conversation (npc-core leaves the world untouched, Z2).
//! - **In chat.** Each turn is a regular channel message (so a reply to it answers
//!   the NPC) whose components fit the prompt; the previous message loses its
//!   components. Custom ids carry the step, so a button of an earlier prompt is stale.
//! - **Which language.** The conversation's channel messages, buttons and menus speak
//!   the server's language (the whole table reads them); answers only the player
//!   sees, and the forms they open, speak the player's own.

mod apply;
mod ids;
mod turns;
mod view;
mod words;

use std::sync::Arc;

use npc_core::{Conversation, EndReason, Prompt, Script};
use sqlx::AnyConnection;

use super::commands::{CommandSpec, OptionKind, OptionSpec, attachment, string, sub};
use super::context::Context;
use super::scripts::{SourceKind, load_error_replies};
use super::table::{
    Answer, CommandEntry, ComponentFamily, Guard, Subcommand, by_subcommand, defer_private,
    guild_of, name_choices,
};
use super::text::{code_span_text, escape_markdown, one_line, truncate};
use super::turn::{self, Lost};
use super::{
    Ack, ActionRow, Command, CoreSettings, Message, Modal, Reply, Request, RequestKind, TextInput,
    TextInputStyle, Track, ephemeral,
};
use crate::engine::worker;
use crate::i18n::{self, Lang};
use crate::storage::npc::{
    claim_npc_step, delete_npc_conversation_in, insert_npc_conversation_in, load_world_in,
    npc_keywords_in, record_npc_keyword_in, save_world_in, take_npc_conversation_of_in,
    update_npc_conversation_in,
};
use crate::storage::{
    NewNpcConversation, NewNpcScript, NpcConversationRow, NpcConversationUpdate, NpcScriptRow,
    WorldKey, name_key, playing_character_in,
};

pub use ids::{NpcAction, NpcId};

/// A `/talk` that opens a conversation, checked and about to greet.
struct TalkStart<'a> {
    request: &'a Request,
    guild_id: i64,
    script_row: &'a NpcScriptRow,
    script: &'a Arc<Script>,
    /// The NPC's tag, and the conversation it starts.
    npc: String,
    conv: String,
    display: String,
    /// The player's language, and the server's (the conversation's messages).
    lang: Lang,
    table: Lang,
    now: i64,
}

/// The modal fields.
const KEYWORD_FIELD: &str = "keyword";
const AMOUNT_FIELD: &str = "amount";
const QUANTITY_FIELD: &str = "quantity";

/// Longest install name: a slash-command choice and a script word.
const MAX_NAME_CHARS: usize = 32;
const MAX_DISPLAY_CHARS: usize = 32;
/// A player's line to an NPC is cut here; no keyword or trade command is longer.
const MAX_INPUT_CHARS: usize = 500;

/// `/npc install|list|remove|activity`, for server admins.
pub(in crate::core) const NPC_COMMAND: CommandEntry = CommandEntry {
    name: "npc",
    spec: npc_spec,
    ack: defer_private,
    run: by_subcommand,
    autocomplete,
    components: &[],
    subcommands: &[
        Subcommand {
            name: None,
            guards: ON_SERVER,
            run: |cx, request, command| Box::pin(cx.npc_list(request, command)),
        },
        Subcommand {
            name: Some("install"),
            guards: ADMIN,
            run: |cx, request, command| Box::pin(cx.npc_install(request, command)),
        },
        Subcommand {
            name: Some("list"),
            guards: ON_SERVER,
            run: |cx, request, command| Box::pin(cx.npc_list(request, command)),
        },
        Subcommand {
            name: Some("remove"),
            guards: ADMIN,
            run: |cx, request, command| Box::pin(cx.npc_remove(request, command)),
        },
        Subcommand {
            name: Some("activity"),
            guards: ADMIN,
            run: |cx, request, command| Box::pin(cx.npc_activity(request, command)),
        },
    ],
    typed_replies: None,
    sweep: None,
};

/// NPCs live on servers: the guard of every `/npc` subcommand.
const ON_SERVER: &[Guard] = &[Guard::GuildOnlyWith {
    refusal_key: "npc-not-here",
}];
/// Installing, removing and changing NPCs is for the server's admins.
const ADMIN: &[Guard] = &[
    Guard::GuildOnlyWith {
        refusal_key: "npc-not-here",
    },
    Guard::Admin {
        what_key: "npc-not-allowed",
    },
];

/// `/talk npc [conv]`, and every component of a conversation.
pub(in crate::core) const TALK_COMMAND: CommandEntry = CommandEntry {
    name: "talk",
    spec: talk_spec,
    ack: defer_private,
    run: |cx, request, command| Box::pin(cx.talk_command(request, command)),
    autocomplete,
    subcommands: &[],
    typed_replies: Some(|cx, request, to_message, text| {
        Box::pin(cx.npc_message_reply(request, to_message, text))
    }),
    sweep: Some(|cx, now| Box::pin(cx.expire_npc_conversations(now))),
    components: &[ComponentFamily {
        kinds: ids::KINDS,
        ack: |_, custom_id| NpcId::decode(custom_id).map_or(Ack::DeferUpdate, |id| id.ack()),
        run: |cx, request, custom_id| Box::pin(cx.npc_component_id(request, custom_id)),
    }],
};

fn npc_spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "npc",
        description: "NPCs players can talk to (server admins)",
        options: vec![],
        subcommands: vec![
            sub(
                "install",
                "Install or replace an NPC from a GhulScript file or code block",
                vec![
                    string("name", "The NPC's name: letters, digits, _", 32).required(),
                    attachment("file", "The .ghul script"),
                    string("code", "The script, as a code block", 6000),
                    string("display", "How the NPC is shown (default: the name)", 32),
                ],
            ),
            sub("list", "List the NPCs of this server", vec![]),
            sub(
                "remove",
                "Remove an NPC",
                vec![
                    string("name", "The NPC's name", 32)
                        .required()
                        .autocomplete(),
                ],
            ),
            sub(
                "activity",
                "Set an NPC's activity code (the script's ACTIVITY)",
                vec![
                    string("name", "The NPC's name", 32)
                        .required()
                        .autocomplete(),
                    OptionSpec {
                        name: "code",
                        description: "The activity code (0: the default)",
                        kind: OptionKind::Integer {
                            min: i64::from(i32::MIN),
                            max: i64::from(i32::MAX),
                        },
                        required: true,
                        autocomplete: false,
                        choices: &[],
                    },
                ],
            ),
        ],
        groups: vec![],
    }
}

fn talk_spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "talk",
        description: "Talk to an NPC",
        options: vec![
            string("npc", "Who to talk to", 32)
                .required()
                .autocomplete(),
            string(
                "conv",
                "Which of its conversations (default: the first)",
                64,
            )
            .autocomplete(),
        ],
        subcommands: vec![],
        groups: vec![],
    }
}

/// `/talk npc`, `/talk conv` and the names of `/npc remove|activity`.
fn autocomplete<'a>(
    cx: &'a Context,
    request: &'a Request,
    command: &'a Command,
    focused: &'a str,
) -> Answer<'a> {
    Box::pin(async move {
        let names = match (command.name.as_str(), command.sub(), focused) {
            ("talk", _, "npc" | "conv") | ("npc", Some("remove" | "activity"), "name") => {
                cx.npc_autocomplete(request, command, focused).await?
            }
            _ => Vec::new(),
        };
        Ok(name_choices(names))
    })
}

impl Context {
    async fn npc_component_id(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let Some(id) = NpcId::decode(custom_id) else {
            return Ok(super::stale_component(request));
        };
        let (values, fields): (&[String], &[(String, String)]) = match &request.kind {
            RequestKind::Select { values, .. } => (values, &[]),
            RequestKind::Modal { fields, .. } => (&[], fields),
            _ => (&[], &[]),
        };
        self.npc_component(request, id, values, fields).await
    }

    /// What every `/npc` subcommand reads first: the member's language, the server
    /// (its guard let only servers through) and the `name` typed.
    async fn npc_ask<'a>(
        &self,
        request: &Request,
        command: &'a Command,
    ) -> anyhow::Result<(Lang, i64, &'a str)> {
        let lang = self.language(request, false).await?;
        let name = command.string("name").map(str::trim).unwrap_or("");
        Ok((lang, guild_of(request)?, name))
    }

    async fn npc_install(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, name) = self.npc_ask(request, command).await?;
        if let Err(problem) = check_name(lang, name) {
            return Ok(ephemeral(problem));
        }
        let display = match command.string("display").map(|d| one_line(d, 200)) {
            Some(display) if display.is_empty() || display.chars().count() > MAX_DISPLAY_CHARS => {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "npc-display-length",
                    &[("max", MAX_DISPLAY_CHARS.into())],
                )));
            }
            Some(display) => display,
            None => String::new(),
        };
        let kind = SourceKind::Script;
        let source = match self.script_source(lang, command, kind).await {
            Ok(source) => source,
            Err(problem) => return Ok(ephemeral(problem)),
        };
        let script = match self.npc_load(&source).await {
            Ok(Ok(script)) => script,
            Ok(Err(errors)) => {
                return Ok(load_error_replies(lang, name, kind, &source, &errors));
            }
            Err(error) => {
                let what = i18n::tr_args(lang, "npc-work-checking", &[("name", name.into())]);
                return super::overrun_in(lang, &what, error);
            }
        };
        // APPLY_EFFECT names an effect of this server's library (none: every such
        // statement is unknown).
        let library = match self.effect_library(guild_id).await? {
            Some(library) => library,
            None => Arc::new(npc_core::effects::EffectLibrary::empty()),
        };
        let unknown = script.unknown_effects(&library);
        if !unknown.is_empty() {
            return Ok(load_error_replies(lang, name, kind, &source, &unknown));
        }
        let existing = self.storage.npc_script(guild_id, name).await?;
        if existing.is_none() {
            let count = self.storage.count_npcs(guild_id).await?;
            if count >= i64::from(self.settings.npc_max_per_server) {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "npc-too-many",
                    &[("count", count.into())],
                )));
            }
        }
        let replaced = self
            .storage
            .install_npc(&NewNpcScript {
                id: self.new_id(),
                guild_id,
                name: name.to_owned(),
                display: display.clone(),
                source: source.clone(),
                source_hash: script.hash().to_string(),
                installed_by: request.user.id,
                now: self.now(),
            })
            .await?;
        let shown = if display.is_empty() {
            default_display(name)
        } else {
            display
        };
        let conversations = script.conversations().join("`, `");
        let args = [
            ("display", escape_markdown(&shown).into()),
            ("name", name.into()),
            ("conversations", conversations.into()),
        ];
        Ok(ephemeral(if replaced {
            i18n::tr_args(lang, "npc-replaced", &args)
        } else {
            i18n::tr_args(lang, "npc-installed", &args)
        }))
    }

    async fn npc_list(&self, request: &Request, command: &Command) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, _) = self.npc_ask(request, command).await?;
        let rows = self.storage.npc_scripts(guild_id).await?;
        if rows.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "npc-list-empty")));
        }
        let mut lines = vec![i18n::tr_args(
            lang,
            "npc-list-header",
            &[("count", rows.len().into())],
        )];
        for row in &rows {
            lines.push(i18n::tr_args(
                lang,
                "npc-list-entry",
                &[
                    ("display", escape_markdown(&display_of(row)).into()),
                    ("name", (&row.name).into()),
                    ("activity", row.activity.into()),
                ],
            ));
        }
        lines.push(i18n::tr(lang, "npc-list-footer"));
        Ok(ephemeral(truncate(
            &lines.join("\n"),
            super::text::MESSAGE_LIMIT,
        )))
    }

    async fn npc_remove(&self, request: &Request, command: &Command) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, name) = self.npc_ask(request, command).await?;
        if !self.storage.remove_npc(guild_id, name).await? {
            return Ok(no_such_npc(lang, name));
        }
        Ok(ephemeral(i18n::tr_args(
            lang,
            "npc-removed",
            &[("name", one_line(name, MAX_NAME_CHARS).into())],
        )))
    }

    async fn npc_activity(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, guild_id, name) = self.npc_ask(request, command).await?;
        let code = command.integer("code").unwrap_or(0);
        if i32::try_from(code).is_err() {
            return Ok(ephemeral(i18n::tr(lang, "npc-activity-range")));
        }
        if !self.storage.set_npc_activity(guild_id, name, code).await? {
            return Ok(no_such_npc(lang, name));
        }
        Ok(ephemeral(i18n::tr_args(
            lang,
            "npc-activity-set",
            &[
                ("name", one_line(name, MAX_NAME_CHARS).into()),
                ("code", code.into()),
            ],
        )))
    }

    /// Autocomplete of `/talk npc`, `/talk conv` and the names of `/npc`.
    async fn npc_autocomplete(
        &self,
        request: &Request,
        command: &Command,
        focused: &str,
    ) -> anyhow::Result<Vec<String>> {
        let Some(guild_id) = request.guild_id else {
            return Ok(Vec::new());
        };
        let typed = command.string(focused).unwrap_or("");
        if focused == "conv" {
            let npc = command.string("npc").unwrap_or("");
            let Some(row) = self.storage.npc_script(guild_id, npc).await? else {
                return Ok(Vec::new());
            };
            let Ok(Ok(script)) = self.npc_load(&row.source).await else {
                return Ok(Vec::new());
            };
            let typed = typed.to_lowercase();
            return Ok(script
                .conversations()
                .into_iter()
                .filter(|conv| conv.to_lowercase().starts_with(&typed))
                .map(str::to_owned)
                .collect());
        }
        self.storage.npc_names_starting(guild_id, typed, 25).await
    }

    /// `/talk npc:NAME [conv:CONV]`: ends the player's waiting conversation, if any,
    /// and greets them (HAIL).
    async fn talk_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let Some(guild_id) = request.guild_id else {
            return Ok(ephemeral(i18n::tr(lang, "npc-not-here")));
        };
        let table = self.language(request, true).await?;
        let name = command.string("npc").map(str::trim).unwrap_or("");
        let Some(script_row) = self.storage.npc_script(guild_id, name).await? else {
            return Ok(no_such_npc(lang, name));
        };
        let display = display_of(&script_row);
        let npc_arg = [("npc", i18n::Arg::from(escape_markdown(&display)))];
        let script = match self.npc_load(&script_row.source).await {
            Ok(Ok(script)) => script,
            Ok(Err(_)) => {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "npc-broken-script",
                    &npc_arg,
                )));
            }
            Err(error) => {
                let what = i18n::tr_args(lang, "npc-work-loading", &npc_arg);
                return super::overrun_in(lang, &what, error);
            }
        };
        let conversations = script.conversations();
        let conv = match command
            .string("conv")
            .map(str::trim)
            .filter(|c| !c.is_empty())
        {
            Some(conv) => conv.to_owned(),
            None => match conversations.first() {
                Some(first) => (*first).to_owned(),
                None => return Ok(no_such_npc(lang, name)),
            },
        };
        let no_conversation = || {
            ephemeral(i18n::tr_args(
                lang,
                "npc-no-conversation",
                &[
                    npc_arg[0].clone(),
                    ("conv", code_span_text(&conv, 64).into()),
                    ("conversations", conversations.join("`, `").into()),
                ],
            ))
        };
        if !script.has_conversation(&conv) {
            return Ok(no_conversation());
        }
        let talk = TalkStart {
            request,
            guild_id,
            script_row: &script_row,
            script: &script,
            npc: name_key(&script_row.name),
            conv,
            display,
            lang,
            table,
            now: self.now(),
        };
        match turn::attempts(|| self.start_talk_once(&talk)).await? {
            Ok(replies) => Ok(replies),
            Err(_changed) => Ok(ephemeral(i18n::tr(lang, "npc-world-changed"))),
        }
    }

    /// One attempt at opening a conversation, committed as every turn is
    /// (`core::turn`); `Err` when the player's character or its world changed while
    /// the greeting ran.
    async fn start_talk_once(
        &self,
        talk: &TalkStart<'_>,
    ) -> anyhow::Result<Result<Vec<Reply>, Lost>> {
        let TalkStart {
            request,
            guild_id,
            lang,
            table,
            now,
            ..
        } = *talk;
        let (npc, conv, display) = (&talk.npc, &talk.conv, &talk.display);
        let npc_arg = [("npc", i18n::Arg::from(escape_markdown(display)))];
        let (character, before) = {
            let mut conn = self.storage.pool().acquire().await?;
            let Some(character) =
                playing_character_in(&mut conn, guild_id, request.user.id).await?
            else {
                return Ok(Ok(ephemeral(i18n::tr_args(
                    lang,
                    "npc-needs-character",
                    &npc_arg,
                ))));
            };
            let key = WorldKey {
                guild_id,
                user_id: request.user.id,
                character_id: character.id,
                npc,
                conversation: conv,
            };
            let Some(mut before) = load_world_in(&mut conn, &key).await? else {
                return Ok(Ok(ephemeral(i18n::tr(lang, "npc-ended"))));
            };
            before.activity = activity_of(talk.script_row);
            (character, before)
        };
        let key = WorldKey {
            guild_id,
            user_id: request.user.id,
            character_id: character.id,
            npc,
            conversation: conv,
        };
        let mut after = before.clone();
        let job = (
            talk.script.clone(),
            npc.clone(),
            conv.clone(),
            display.clone(),
        );
        let started = self
            .workers
            .run("npc", move || {
                let (script, npc, conv, display) = job;
                let cancel = worker::cancel_flag();
                Conversation::start_cancellable(
                    &script,
                    &npc,
                    &conv,
                    &display,
                    &mut after,
                    Some(&cancel),
                )
                .map(|(talk, turn)| (talk, turn, after))
            })
            .await;
        let (state, turn, after) = match started {
            Ok(Ok(started)) => started,
            // Checked above; the script is the one checked, so this is a race at most.
            Ok(Err(_unknown)) => {
                return Ok(Ok(ephemeral(i18n::tr_args(
                    lang,
                    "npc-no-conversation",
                    &[
                        npc_arg[0].clone(),
                        ("conv", code_span_text(conv, 64).into()),
                        (
                            "conversations",
                            talk.script.conversations().join("`, `").into(),
                        ),
                    ],
                ))));
            }
            Err(error) => {
                let what = i18n::tr_args(lang, "npc-work-greeting", &npc_arg);
                return super::overrun_in(lang, &what, error).map(Ok);
            }
        };
        let state = serde_json::to_string(&state)?;
        let conversation_id = self.new_id();
        let failed = turn.prompt == Prompt::Ended(EndReason::Error);
        let written = turn::write(&self.storage, async |tx: &mut AnyConnection| {
            // A write first: the transaction holds the write lock from the start.
            let left = take_npc_conversation_of_in(tx, request.user.id, guild_id).await?;
            let playing = playing_character_in(tx, guild_id, request.user.id).await?;
            let now_world = load_world_in(tx, &key).await?.map(|mut world| {
                world.activity = before.activity;
                world
            });
            if playing.map(|playing| playing.id) != Some(character.id)
                || now_world.as_ref() != Some(&before)
            {
                return Ok(Err(Lost::Changed));
            }
            let speakers = view::Speakers {
                player: &request.user.name,
                npc: display,
            };
            let mut lines = view::turn_lines(table, &speakers, None, &turn.events, &turn.prompt);
            lines.extend(view::trade_status(table, &turn.prompt, &after));
            let keywords = if turn.is_over() {
                Vec::new()
            } else {
                npc_keywords_in(tx, &key, view::MAX_KEYWORD_BUTTONS).await?
            };
            let components = view::prompt_components(
                table,
                conversation_id,
                0,
                &turn.prompt,
                &keywords,
                display,
            );
            let laid = view::lay_out(table, &lines, components);
            if !failed {
                save_world_in(tx, &key, &before, &after, now).await?;
            }
            if !turn.is_over() {
                insert_npc_conversation_in(
                    tx,
                    &NewNpcConversation {
                        id: conversation_id,
                        guild_id,
                        user_id: request.user.id,
                        user_name: request.user.name.clone(),
                        channel_id: request.channel_id,
                        script_id: talk.script_row.id,
                        npc: npc.clone(),
                        character_id: character.id,
                        state: state.clone(),
                        content: laid.last_content.clone(),
                        now,
                        expires_at: now.saturating_add(self.settings.npc_idle_ms),
                    },
                )
                .await?;
            }
            Ok(Ok((left, laid)))
        })
        .await?;
        let (left, laid) = match written {
            Ok(written) => written,
            Err(lost) => return Ok(Err(lost)),
        };
        let args = [
            npc_arg[0].clone(),
            ("character", escape_markdown(&character.name).into()),
        ];
        let talking = if turn.is_over() {
            i18n::tr_args(lang, "npc-talking", &args)
        } else {
            i18n::tr_args(lang, "npc-talking-answer", &args)
        };
        let mut replies = vec![Reply::Interaction(Message::ephemeral(talking))];
        if let Some(old) = &left {
            replies.extend(left_edit(table, old));
        }
        let track = (!turn.is_over()).then_some((conversation_id, 0));
        replies.extend(post(request.channel_id, laid, track));
        Ok(Ok(replies))
    }

    /// A reply to an NPC's message; `None` when the message is not an NPC's.
    async fn npc_message_reply(
        &self,
        request: &Request,
        to_message: i64,
        text: &str,
    ) -> anyhow::Result<Option<Vec<Reply>>> {
        let Some((row, script)) = self
            .storage
            .npc_conversation_and_script_by_message(to_message)
            .await?
        else {
            return Ok(None);
        };
        // Someone else's reply to the NPC is table talk, not an answer.
        if row.user_id != request.user.id {
            return Ok(Some(Vec::new()));
        }
        if let Some(replies) = self.rate_limited(request) {
            return Ok(Some(replies));
        }
        // Discord blanks the text of replies it does not show the bot (no message
        // content intent, no ping); an empty line would mean BYE, so it means nothing.
        let line = text.lines().next().unwrap_or("");
        if line.trim().is_empty() {
            return Ok(Some(Vec::new()));
        }
        if row.expires_at <= self.now() {
            let table = self.language(request, true).await?;
            return Ok(Some(self.expire_npc(table, &row).await?));
        }
        self.npc_turn(request, (&row, script), line, line)
            .await
            .map(Some)
    }

    async fn npc_component(
        &self,
        request: &Request,
        id: NpcId,
        values: &[String],
        fields: &[(String, String)],
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let answered = || Ok(ephemeral(i18n::tr(lang, "npc-answered")));
        let Some((row, script)) = self
            .storage
            .npc_conversation_and_script(id.conversation)
            .await?
        else {
            return Ok(ephemeral(i18n::tr(lang, "npc-ended")));
        };
        if row.user_id != request.user.id {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "npc-not-yours",
                &[("player", escape_markdown(&row.user_name).into())],
            )));
        }
        if row.step != id.step {
            return answered();
        }
        if row.expires_at <= self.now() {
            let table = self.language(request, true).await?;
            let mut replies = ephemeral(i18n::tr(lang, "npc-ended"));
            replies.extend(self.expire_npc(table, &row).await?);
            return Ok(replies);
        }
        let field = |name: &str| {
            fields
                .iter()
                .find(|(id, _)| id == name)
                .map(|(_, value)| value.as_str())
                .unwrap_or("")
        };
        // The forms are private to the player: in their language.
        let title = || async {
            let npc = self.row_display(&row).await?;
            let title = i18n::tr_args(lang, "npc-modal-title", &[("npc", npc.into())]);
            anyhow::Ok(truncate(&title, 45))
        };
        match id.action {
            NpcAction::Ask => Ok(vec![Reply::Modal(Modal {
                custom_id: self.id_of(&row, NpcAction::AskModal),
                title: title().await?,
                inputs: vec![TextInput {
                    custom_id: KEYWORD_FIELD.to_owned(),
                    label: i18n::tr(lang, "npc-ask-label"),
                    style: TextInputStyle::Short,
                    // NPCs answer to one keyword: the first word of what is asked.
                    placeholder: Some(i18n::tr(lang, "npc-ask-placeholder")),
                    required: true,
                    max_length: 100,
                }],
            })]),
            NpcAction::Amount => Ok(vec![Reply::Modal(Modal {
                custom_id: self.id_of(&row, NpcAction::AmountModal),
                title: title().await?,
                inputs: vec![TextInput {
                    custom_id: AMOUNT_FIELD.to_owned(),
                    label: i18n::tr(lang, "npc-amount-label"),
                    style: TextInputStyle::Short,
                    placeholder: Some(i18n::tr(lang, "npc-amount-placeholder")),
                    required: true,
                    max_length: 10,
                }],
            })]),
            NpcAction::Buy | NpcAction::Sell => {
                let sell = id.action == NpcAction::Sell;
                let Some(index) = row.selected.and_then(|i| u32::try_from(i).ok()) else {
                    return Ok(ephemeral(i18n::tr(lang, "npc-pick-first")));
                };
                let Some(item) = self.trade_item(&row, index).await? else {
                    return answered();
                };
                let (action, price) = if sell {
                    ("sell", item.sell_price)
                } else {
                    ("buy", item.price)
                };
                let title = i18n::tr_args(
                    lang,
                    "npc-quantity-title",
                    &[("action", action.into()), ("item", (&item.name).into())],
                );
                let label = i18n::tr_args(lang, "npc-quantity-label", &[("price", price.into())]);
                Ok(vec![Reply::Modal(Modal {
                    custom_id: self.id_of(&row, NpcAction::Quantity { sell, item: index }),
                    title: truncate(&title, 45),
                    inputs: vec![TextInput {
                        custom_id: QUANTITY_FIELD.to_owned(),
                        label: truncate(&label, 45),
                        style: TextInputStyle::Short,
                        placeholder: Some("1".to_owned()),
                        required: false,
                        max_length: 9,
                    }],
                })])
            }
            NpcAction::TradeSelect(_) => {
                let Some(index) = values.first().and_then(|v| v.parse::<u32>().ok()) else {
                    return answered();
                };
                if self.trade_item(&row, index).await?.is_none() {
                    return answered();
                }
                self.storage
                    .set_npc_selection(row.id, row.step, i64::from(index))
                    .await?;
                Ok(Vec::new())
            }
            NpcAction::Menu => {
                let chosen = values.first().and_then(|v| v.parse::<usize>().ok());
                let label = match (self.row_prompt(&row).await?, chosen) {
                    (Some(Prompt::Menu(choices)), Some(index)) => {
                        choices.get(index).map(|choice| choice.label.clone())
                    }
                    _ => None,
                };
                let Some(label) = label else {
                    return answered();
                };
                self.npc_turn(request, (&row, script), &label, &label).await
            }
            NpcAction::Quantity { sell, item } => {
                let quantity = field(QUANTITY_FIELD).trim();
                let quantity = if quantity.is_empty() { "1" } else { quantity };
                if !quantity.chars().all(|ch| ch.is_ascii_digit()) {
                    return Ok(ephemeral(i18n::tr(lang, "npc-quantity-number")));
                }
                let Some(ware) = self.trade_item(&row, item).await? else {
                    return answered();
                };
                let verb = if sell { "sell" } else { "buy" };
                let line = format!("{verb} {} {quantity}", ware.tag);
                let echo = format!("{verb} {} {quantity}", ware.name);
                self.npc_turn(request, (&row, script), &line, &echo).await
            }
            NpcAction::AskModal => {
                let text = field(KEYWORD_FIELD).to_owned();
                self.npc_turn(request, (&row, script), &text, &text).await
            }
            NpcAction::AmountModal => {
                let text = field(AMOUNT_FIELD).to_owned();
                self.npc_turn(request, (&row, script), &text, &text).await
            }
            NpcAction::Keyword(keyword) => {
                self.npc_turn(request, (&row, script), &keyword, &keyword)
                    .await
            }
            NpcAction::Bye => self.npc_turn(request, (&row, script), "bye", "bye").await,
            NpcAction::Yes => self.npc_turn(request, (&row, script), "yes", "yes").await,
            NpcAction::No => self.npc_turn(request, (&row, script), "no", "no").await,
            NpcAction::Done => self.npc_turn(request, (&row, script), "done", "done").await,
            NpcAction::Leave => self.npc_leave(request, &row).await,
        }
    }

    fn id_of(&self, row: &NpcConversationRow, action: NpcAction) -> String {
        NpcId::new(row.id, row.step, action)
            .encode()
            .unwrap_or_default()
    }

    async fn row_display(&self, row: &NpcConversationRow) -> anyhow::Result<String> {
        let conversation: Option<Conversation> = serde_json::from_str(&row.state).ok();
        Ok(conversation
            .map(|talk| talk.display_name().to_owned())
            .unwrap_or_else(|| default_display(&row.npc)))
    }

    /// What a stored conversation waits for, against its script as installed now.
    async fn row_prompt(&self, row: &NpcConversationRow) -> anyhow::Result<Option<Prompt>> {
        let Some(script) = self.storage.npc_script_by_id(row.script_id).await? else {
            return Ok(None);
        };
        let Ok(Ok(script)) = self.npc_load(&script.source).await else {
            return Ok(None);
        };
        let Ok(talk) = serde_json::from_str::<Conversation>(&row.state) else {
            return Ok(None);
        };
        Ok(Some(talk.prompt(&script)))
    }

    /// The buttons and menus under a waiting conversation's prompt, as they were
    /// posted: a transport that lost them (the console after a restart) shows them
    /// again. Nothing when the script or the stored state no longer loads.
    pub(in crate::core) async fn npc_prompt_components(
        &self,
        row: &NpcConversationRow,
        table: Lang,
    ) -> anyhow::Result<Vec<ActionRow>> {
        let Some(prompt) = self.row_prompt(row).await? else {
            return Ok(Vec::new());
        };
        let talk = serde_json::from_str::<Conversation>(&row.state).ok();
        let keywords = match (&prompt, talk, row.character_id) {
            (Prompt::Keyword, Some(talk), Some(character_id)) => {
                let key = WorldKey {
                    guild_id: row.guild_id,
                    user_id: row.user_id,
                    character_id,
                    npc: &row.npc,
                    conversation: talk.conversation(),
                };
                let mut tx = self.storage.begin().await?;
                let keywords = npc_keywords_in(&mut tx, &key, view::MAX_KEYWORD_BUTTONS).await?;
                tx.rollback().await?;
                keywords
            }
            _ => Vec::new(),
        };
        let display = self.row_display(row).await?;
        Ok(view::prompt_components(
            table, row.id, row.step, &prompt, &keywords, &display,
        ))
    }

    async fn trade_item(
        &self,
        row: &NpcConversationRow,
        index: u32,
    ) -> anyhow::Result<Option<npc_core::TradeItem>> {
        Ok(match self.row_prompt(row).await? {
            Some(Prompt::Trade(items)) => usize::try_from(index)
                .ok()
                .and_then(|index| items.get(index).cloned()),
            _ => None,
        })
    }

    /// "Walk away": ends the conversation without BYE (E6).
    async fn npc_leave(
        &self,
        request: &Request,
        row: &NpcConversationRow,
    ) -> anyhow::Result<Vec<Reply>> {
        if !self
            .storage
            .delete_npc_conversation(row.id, Some(row.step))
            .await?
        {
            let lang = self.language(request, false).await?;
            return Ok(ephemeral(i18n::tr(lang, "npc-answered")));
        }
        Ok(left_notice(self.language(request, true).await?, row))
    }

    /// Ends an idle conversation as "left"; `table` is the server's language.
    async fn expire_npc(
        &self,
        table: Lang,
        row: &NpcConversationRow,
    ) -> anyhow::Result<Vec<Reply>> {
        if !self
            .storage
            .delete_npc_conversation(row.id, Some(row.step))
            .await?
        {
            return Ok(Vec::new());
        }
        tracing::info!(
            conversation = row.id,
            user = row.user_id,
            "npc conversation ended idle"
        );
        Ok(left_notice(table, row))
    }

    /// Ends conversations idle past their time (`/talk`'s part of [`super::Core::sweep`]).
    async fn expire_npc_conversations(&self, now: i64) -> anyhow::Result<Vec<Reply>> {
        let mut replies = Vec::new();
        // Bounded per sweep; the next sweep takes the rest.
        for _ in 0..10 {
            let expired = self.storage.expired_npc_conversations(now, 100).await?;
            for row in &expired {
                let table = self.place_language(row.guild_id).await?;
                replies.extend(self.expire_npc(table, row).await?);
            }
            if expired.len() < 100 {
                break;
            }
        }
        Ok(replies)
    }
}

fn check_name(lang: Lang, name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let starts_with_letter = chars.next().is_some_and(|ch| ch.is_ascii_alphabetic());
    let rest_ok = chars.all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    if starts_with_letter && rest_ok && name.chars().count() <= MAX_NAME_CHARS {
        return Ok(());
    }
    Err(i18n::tr_args(
        lang,
        "npc-bad-name",
        &[
            ("name", code_span_text(name, 40).into()),
            ("max", MAX_NAME_CHARS.into()),
        ],
    ))
}

/// "hawknoz" shows as "Hawknoz".
fn default_display(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn display_of(row: &NpcScriptRow) -> String {
    if row.display.is_empty() {
        return default_display(&row.name);
    }
    row.display.clone()
}

fn activity_of(row: &NpcScriptRow) -> i32 {
    i32::try_from(row.activity).unwrap_or(0)
}

fn is_special(keyword: &str) -> bool {
    ["hail", "default", "bye"]
        .iter()
        .any(|special| keyword.eq_ignore_ascii_case(special))
}

fn no_such_npc(lang: Lang, name: &str) -> Vec<Reply> {
    ephemeral(i18n::tr_args(
        lang,
        "npc-no-such",
        &[("name", code_span_text(name, MAX_NAME_CHARS).into())],
    ))
}

/// A message, or nothing for a reply (which has no interaction to answer privately).
fn ephemeral_if_interaction(request: &Request, text: String) -> Vec<Reply> {
    if matches!(request.kind, RequestKind::MessageReply { .. }) {
        return Vec::new();
    }
    ephemeral(text)
}

/// The previous message of an answered prompt, without its components.
fn answered_edit(row: &NpcConversationRow) -> Option<Reply> {
    let message_id = row.message_id?;
    Some(Reply::Edit {
        channel_id: row.channel_id,
        message_id,
        message: Message::text(if row.content.is_empty() {
            "…".to_owned()
        } else {
            row.content.clone()
        }),
    })
}

/// The message of a conversation that ended without an answer, marked so in the
/// server's language `table`.
fn left_edit(table: Lang, row: &NpcConversationRow) -> Option<Reply> {
    let message_id = row.message_id?;
    let walked_away = i18n::tr_args(
        table,
        "npc-event-walked-away",
        &[("player", escape_markdown(&row.user_name).into())],
    );
    Some(Reply::Edit {
        channel_id: row.channel_id,
        message_id,
        message: Message::text(truncate(
            &format!("{}\n{walked_away}", row.content),
            super::text::MESSAGE_LIMIT,
        )),
    })
}

/// A conversation that ended without an answer: its message marked, or a notice when
/// that message is unknown.
fn left_notice(table: Lang, row: &NpcConversationRow) -> Vec<Reply> {
    if let Some(edit) = left_edit(table, row) {
        return vec![edit];
    }
    vec![Reply::Channel {
        channel_id: row.channel_id,
        message: Message::text(i18n::tr_args(
            table,
            "npc-walked-away-notice",
            &[("player", escape_markdown(&row.user_name).into())],
        )),
    }]
}

/// Channel messages of a turn; the last is tracked while the conversation waits, so
/// replies to it answer.
fn post(channel_id: i64, laid: view::Laid, track: Option<(i64, i64)>) -> Vec<Reply> {
    let count = laid.messages.len();
    laid.messages
        .into_iter()
        .enumerate()
        .map(|(index, mut message)| {
            if index + 1 == count
                && let Some((conversation_id, step)) = track
            {
                message.track = Some(Track::NpcPrompt {
                    conversation_id,
                    step,
                });
            }
            Reply::Channel {
                channel_id,
                message,
            }
        })
        .collect()
}
