//! `/character list|show|use|delete`: the characters finished generators stored.
//!
//! `delete` only asks: the character goes when its owner presses "Delete" under the
//! question (the character's id waits in `button_states` meanwhile, for 15 minutes).

use super::commands::{CommandSpec, string, sub};
use super::context::Context;
use super::custom_id;
use super::dates::date_of;
use super::table::{
    Answer, CommandEntry, ComponentFamily, Subcommand, by_subcommand, defer_update, name_choices,
};
use super::text::{code_block, code_span_text, escape_markdown, one_line, truncate};
use super::{
    Ack, ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, FileAttachment, Message,
    Reply, Request, ephemeral, fields,
};
use crate::i18n::{self, Lang};
use crate::storage::CharacterRow;

const PENDING_DELETE_KIND: &str = "character-delete";
/// How long the "Delete" button stays valid (an ephemeral message's token lasts as
/// long).
const PENDING_DELETE_TTL_MS: i64 = 15 * 60_000;

fn not_pending_delete(lang: Lang) -> Vec<Reply> {
    ephemeral(i18n::tr(lang, "character-not-pending"))
}

/// A deletion waiting for the owner's press.
#[derive(serde::Serialize, serde::Deserialize)]
struct PendingDelete {
    character_id: i64,
    owner_id: i64,
    name: String,
}

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "character",
    spec,
    // A sheet is shown to the channel; everything else answers privately.
    ack: |command| match command.sub() {
        Some("show") => Ack::Defer { ephemeral: false },
        _ => Ack::Defer { ephemeral: true },
    },
    run: by_subcommand,
    autocomplete,
    // A member's own characters, in a server or a direct message: no guard.
    subcommands: &[
        Subcommand {
            name: None,
            guards: &[],
            run: |cx, request, _| Box::pin(cx.character_list(request)),
        },
        Subcommand {
            name: Some("list"),
            guards: &[],
            run: |cx, request, _| Box::pin(cx.character_list(request)),
        },
        Subcommand {
            name: Some("show"),
            guards: &[],
            run: |cx, request, command| Box::pin(cx.character_show(request, command)),
        },
        Subcommand {
            name: Some("delete"),
            guards: &[],
            run: |cx, request, command| Box::pin(cx.character_delete(request, command)),
        },
        Subcommand {
            name: Some("use"),
            guards: &[],
            run: |cx, request, command| Box::pin(cx.character_use(request, command)),
        },
    ],
    typed_replies: None,
    sweep: Some(|cx, now| Box::pin(cx.character_sweep(now))),
    components: &[ComponentFamily {
        kinds: &[DELETE_KIND, KEEP_KIND],
        // The confirmation's own message becomes the outcome.
        ack: defer_update,
        run: |cx, request, custom_id| Box::pin(cx.character_delete_button(request, custom_id)),
    }],
};

/// "Delete" under `/character delete`'s question: `tv1:cd:<pending state>`.
const DELETE_KIND: &str = "cd";
/// "Cancel" next to it.
const KEEP_KIND: &str = "ck";

fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "character",
        description: "Your stored characters",
        options: vec![],
        subcommands: vec![
            sub("list", "List your characters here", vec![]),
            sub(
                "show",
                "Show a character (without a name: the one you play here, else your newest)",
                vec![string("name", "The character's name", 100).autocomplete()],
            ),
            sub(
                "delete",
                "Delete a character",
                vec![
                    string("name", "The character's name", 100)
                        .required()
                        .autocomplete(),
                ],
            ),
            sub(
                "use",
                "Play this character here: its fields work in rolls (@STR_MOD)",
                vec![
                    string("name", "The character's name", 100)
                        .required()
                        .autocomplete(),
                ],
            ),
        ],
        groups: vec![],
    }
}

/// The custom ids of the question's two buttons, "Delete" and "Cancel".
pub fn delete_ids(state_id: i64) -> (String, String) {
    (
        custom_id::with_state(DELETE_KIND, state_id),
        custom_id::with_state(KEEP_KIND, state_id),
    )
}

/// The pending deletion a "Delete" (`true`) or "Cancel" button names.
pub fn decode_delete_id(text: &str) -> Option<(i64, bool)> {
    if let Some(state_id) = custom_id::state_of(text, DELETE_KIND) {
        return Some((state_id, true));
    }
    custom_id::state_of(text, KEEP_KIND).map(|state_id| (state_id, false))
}

fn autocomplete<'a>(
    cx: &'a Context,
    request: &'a Request,
    command: &'a Command,
    focused: &'a str,
) -> Answer<'a> {
    Box::pin(async move {
        if focused != "name" {
            return Ok(name_choices(Vec::new()));
        }
        let typed = command.string(focused).unwrap_or("");
        let names = cx
            .storage
            .character_names_starting(request.user.id, request.place(), typed, 25)
            .await?;
        Ok(name_choices(names))
    })
}

impl Context {
    async fn character_delete_button(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        match decode_delete_id(custom_id) {
            Some((state_id, delete)) => {
                self.character_delete_confirm(request, state_id, delete)
                    .await
            }
            None => Ok(super::stale_component(request)),
        }
    }

    /// What `show`, `use` and `delete` read first: the member's language (every
    /// refusal is private) and the `name` typed.
    async fn character_ask<'a>(
        &self,
        request: &Request,
        command: &'a Command,
    ) -> anyhow::Result<(Lang, &'a str)> {
        let name = command.string("name").map(str::trim).unwrap_or("");
        Ok((self.language(request, false).await?, name))
    }

    async fn character_list(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let rows = self
            .storage
            .characters_of(request.user.id, request.place())
            .await?;
        if rows.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "character-none")));
        }
        let now = self.now();
        let mut lines = vec![i18n::tr_args(
            lang,
            "character-list-heading",
            &[("count", rows.len().into())],
        )];
        for row in &rows {
            lines.push(i18n::tr_args(
                lang,
                "character-list-entry",
                &[
                    ("name", escape_markdown(&row.name).into()),
                    ("program", row.program.as_str().into()),
                    ("age", i18n::duration(lang, now - row.created_at).into()),
                ],
            ));
        }
        Ok(ephemeral(truncate(
            &lines.join("\n"),
            super::text::MESSAGE_LIMIT,
        )))
    }

    /// `/character show NAME`, or without a name the character played here, else the
    /// newest one made here. The sheet is public (in the server's language); a
    /// refusal is private, in `lang`.
    async fn character_show(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, name) = self.character_ask(request, command).await?;
        let found = if name.is_empty() {
            self.storage
                .playing_character(request.place(), request.user.id)
                .await?
        } else {
            self.own_character(request, name).await?
        };
        let Some(row) = found else {
            if name.is_empty() {
                return Ok(ephemeral(i18n::tr(lang, "character-none-to-show")));
            }
            return Ok(not_found(name, lang));
        };
        let table = self.language(request, true).await?;
        let active = self
            .storage
            .active_character(request.place(), request.user.id)
            .await?
            .is_some_and(|active| active.id == row.id);
        let (items, party) = self.storage.character_belongings(row.id).await?;
        let current = self.character_fields(&row).await?;
        let mut belongings = belongings(&row, &items, &party, table);
        if let Some(effects) = self.kept_effects_line(row.id, table).await? {
            belongings.push('\n');
            belongings.push_str(&i18n::tr_args(
                table,
                "character-sheet-effects",
                &[("effects", escape_markdown(&effects).as_str().into())],
            ));
        }
        let message = Message {
            content: sheet(&row, &current, active, &belongings, table),
            attachments: vec![FileAttachment {
                filename: format!("{}.txt", file_stem(&row.name, table)),
                bytes: row.transcript.clone().into_bytes(),
                description: Some(i18n::tr_args(
                    table,
                    "character-transcript-description",
                    &[("name", row.name.as_str().into())],
                )),
            }],
            ..Message::default()
        };
        Ok(vec![Reply::Interaction(message)])
    }

    async fn own_character(
        &self,
        request: &Request,
        name: &str,
    ) -> anyhow::Result<Option<CharacterRow>> {
        self.storage
            .character_named(request.user.id, request.place(), name)
            .await
    }

    async fn character_use(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, name) = self.character_ask(request, command).await?;
        let Some(row) = self.own_character(request, name).await? else {
            return Ok(not_found(name, lang));
        };
        self.storage
            .set_active_character(request.place(), request.user.id, row.id, self.now())
            .await?;
        let current = self.character_fields(&row).await?;
        let numbers = fields::roll_fields_with_purse(&current, row.gold, row.food);
        let mut text = i18n::tr_args(
            lang,
            "character-playing",
            &[("name", escape_markdown(&row.name).into())],
        );
        text.push(' ');
        if numbers.is_empty() {
            text.push_str(&i18n::tr(lang, "character-playing-no-fields"));
        } else {
            let example = if numbers.contains_key("STR_MOD") {
                "1d20 + @STR_MOD"
            } else {
                "1d20"
            };
            text.push_str(&i18n::tr_args(
                lang,
                "character-playing-fields",
                &[
                    ("example", example.into()),
                    ("fields", field_list(&numbers).into()),
                ],
            ));
        }
        Ok(ephemeral(truncate(&text, super::text::MESSAGE_LIMIT)))
    }

    /// Asks before deleting: a private question with "Delete" and "Cancel".
    async fn character_delete(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let (lang, name) = self.character_ask(request, command).await?;
        let Some(row) = self.own_character(request, name).await? else {
            return Ok(not_found(name, lang));
        };
        if self.storage.character_seated(row.id).await? {
            return Ok(seated(&row.name, lang));
        }
        let state_id = self
            .store_button_state(
                PENDING_DELETE_KIND,
                &PendingDelete {
                    character_id: row.id,
                    owner_id: row.owner_id,
                    name: row.name.clone(),
                },
            )
            .await?;
        let mut message = Message::ephemeral(i18n::tr_args(
            lang,
            "character-delete-question",
            &[
                ("name", escape_markdown(&row.name).into()),
                ("program", row.program.as_str().into()),
            ],
        ));
        let (delete_id, keep_id) = delete_ids(state_id);
        message.components.push(ActionRow(vec![
            Component::Button(Button {
                custom_id: delete_id,
                label: i18n::tr(lang, "character-delete-button"),
                style: ButtonStyle::Danger,
                disabled: false,
            }),
            Component::Button(Button {
                custom_id: keep_id,
                label: i18n::tr(lang, "character-cancel-button"),
                style: ButtonStyle::Secondary,
                disabled: false,
            }),
        ]));
        Ok(vec![Reply::Interaction(message)])
    }

    /// "Delete" (`delete`) or "Cancel" under the question: the question becomes the
    /// outcome, without buttons. Only the owner's press counts, and only once.
    async fn character_delete_confirm(
        &self,
        request: &Request,
        state_id: i64,
        delete: bool,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let pending = match self.storage.button_state(state_id).await? {
            Some(state) if state.kind == PENDING_DELETE_KIND => state,
            _ => return Ok(not_pending_delete(lang)),
        };
        let Ok(question) = serde_json::from_str::<PendingDelete>(&pending.payload) else {
            self.storage.delete_button_state(state_id).await?;
            return Ok(not_pending_delete(lang));
        };
        if question.owner_id != request.user.id {
            return Ok(ephemeral(i18n::tr(lang, "character-not-owner")));
        }
        if pending.created_at + PENDING_DELETE_TTL_MS <= self.now() {
            self.storage.delete_button_state(state_id).await?;
            return Ok(not_pending_delete(lang));
        }
        // The first press decides; a second one finds nothing.
        if !self.storage.delete_button_state(state_id).await? {
            return Ok(not_pending_delete(lang));
        }
        let name = [("name", escape_markdown(&question.name).into())];
        let outcome = if !delete {
            i18n::tr_args(lang, "character-kept", &name)
        } else if self
            .storage
            .delete_character(request.user.id, question.character_id)
            .await?
        {
            i18n::tr_args(lang, "character-deleted", &name)
        } else if self.storage.character_seated(question.character_id).await? {
            i18n::tr_args(lang, "character-seated", &name)
        } else {
            i18n::tr_args(lang, "character-already-gone", &name)
        };
        Ok(vec![Reply::Update(Message::ephemeral(outcome))])
    }

    /// `/character`'s part of the sweep: forgets deletions nobody confirmed in time.
    async fn character_sweep(&self, now: i64) -> anyhow::Result<Vec<Reply>> {
        self.storage
            .purge_button_states_of(
                PENDING_DELETE_KIND,
                now.saturating_sub(PENDING_DELETE_TTL_MS),
            )
            .await?;
        Ok(Vec::new())
    }
}

/// A character in an encounter is not deleted: the encounter would write it back.
fn seated(name: &str, lang: Lang) -> Vec<Reply> {
    ephemeral(i18n::tr_args(
        lang,
        "character-seated",
        &[("name", escape_markdown(name).into())],
    ))
}

fn not_found(name: &str, lang: Lang) -> Vec<Reply> {
    ephemeral(i18n::tr_args(
        lang,
        "character-not-found",
        &[("name", code_span_text(name, 100).into())],
    ))
}

/// `@AC`, `@CHA`, `@CHA_MOD`, …: the fields a roll can use.
fn field_list(numbers: &std::collections::BTreeMap<String, i64>) -> String {
    let names: Vec<String> = numbers.keys().map(|name| format!("`@{name}`")).collect();
    truncate(&names.join(", "), 1200)
}

/// What NPC scripts trade with (issue 7): gold, food, inventory, party.
fn belongings(
    row: &CharacterRow,
    items: &std::collections::BTreeMap<String, i64>,
    party: &[String],
    table: Lang,
) -> String {
    let inventory: Vec<String> = items
        .iter()
        .map(|(tag, count)| format!("{count} {}", npc_core::item_display_name(tag)))
        .collect();
    let list = |parts: &[String]| {
        if parts.is_empty() {
            i18n::tr(table, "character-sheet-none")
        } else {
            one_line(&parts.join(", "), 300)
        }
    };
    i18n::tr_args(
        table,
        "character-sheet-belongings",
        &[
            ("gold", row.gold.into()),
            ("food", row.food.into()),
            ("inventory", escape_markdown(&list(&inventory)).into()),
            ("party", escape_markdown(&list(party)).into()),
        ],
    )
}

/// The character as a record sheet: who it is (race, gender, class, level, hit
/// points) and the six abilities with their modifiers first, then the rest of the
/// fields in the program's order, in a monospace block; then gold, food, inventory
/// and party (gold and food only there: the one purse NPC trades change); then the
/// `@` names for rolls.
fn sheet(
    row: &CharacterRow,
    current: &[(String, String)],
    active: bool,
    belongings: &str,
    table: Lang,
) -> String {
    let numbers = fields::roll_fields_with_purse(current, row.gold, row.food);
    let mut shown: Vec<&(String, String)> = current
        .iter()
        .filter(|(key, _)| !fields::is_purse_field(key) && !is_name(key))
        .collect();
    shown.sort_by_key(|(key, _)| sheet_rank(key));
    let width = shown
        .iter()
        .map(|(key, _)| key.chars().count().min(20))
        .max()
        .unwrap_or(0);
    let mut lines = Vec::with_capacity(shown.len());
    for (key, value) in shown {
        let mut line = format!("{:<width$}  {}", one_line(key, 20), one_line(value, 200));
        if let (Some(ability), Some(score)) =
            (fields::ability_of(key), fields::numeric_value(value))
        {
            let modifier = numbers
                .get(&format!("{ability}_MOD"))
                .copied()
                .unwrap_or_else(|| fields::ability_modifier(score));
            line.push_str(&format!(" ({})", fields::signed(modifier)));
        }
        lines.push(line);
    }
    let mut header = i18n::tr_args(
        table,
        "character-sheet-heading",
        &[
            ("name", escape_markdown(&row.name).into()),
            ("program", row.program.as_str().into()),
            ("date", date_of(row.created_at).into()),
        ],
    );
    if active {
        header.push(' ');
        header.push_str(&i18n::tr(table, "character-sheet-played-here"));
    }
    let mut body = lines.join("\n");
    if body.is_empty() {
        body = i18n::tr(table, "character-sheet-no-fields");
    }
    let footer = if numbers.is_empty() {
        String::new()
    } else {
        let fields = [("fields", field_list(&numbers).into())];
        format!(
            "\n{}",
            i18n::tr_args(table, "character-sheet-in-rolls", &fields)
        )
    };
    // Room for the header, the belongings, the footer and the fences.
    let budget = super::text::MESSAGE_LIMIT
        .saturating_sub(
            header.chars().count() + belongings.chars().count() + footer.chars().count() + 20,
        )
        .max(100);
    let text = format!(
        "{header}\n{}\n{belongings}",
        code_block(&truncate(&body, budget))
    );
    // Within Discord's limit without breaking the block: the footer goes first.
    if text.chars().count() + footer.chars().count() > super::text::MESSAGE_LIMIT {
        return text;
    }
    text + &footer
}

/// The transcript's file name from the character's name; a name without letters or
/// digits gives the word for a character in `table`.
fn file_stem(name: &str, table: Lang) -> String {
    let stem: String = name
        .chars()
        .map(|ch| if ch.is_alphanumeric() { ch } else { '-' })
        .collect();
    let stem = stem.trim_matches('-');
    if stem.is_empty() {
        return i18n::tr(table, "character-transcript-file-stem");
    }
    stem.to_lowercase()
}

/// Where a field goes on the sheet: who the character is, then the abilities in
/// their classic order, then everything else in the program's order.
fn sheet_rank(key: &str) -> usize {
    const WHO: [&str; 10] = [
        "RACE",
        "GENDER",
        "SEX",
        "CLASS",
        "LEVEL",
        "LVL",
        "HP",
        "HIT_POINTS",
        "AC",
        "ALIGNMENT",
    ];
    let Some(key) = fields::field_key(key) else {
        return usize::MAX;
    };
    if let Some(at) = WHO.iter().position(|who| *who == key) {
        return at;
    }
    if let Some(at) = fields::ABILITIES
        .iter()
        .position(|(short, long)| *short == key || *long == key)
    {
        return WHO.len() + at;
    }
    usize::MAX
}

/// The name is the sheet's title, not a line of it.
fn is_name(key: &str) -> bool {
    fields::field_key(key).is_some_and(|key| key == "NAME" || key == "CHARACTER")
}
