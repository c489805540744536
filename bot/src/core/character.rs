//! `/character list|show|use|delete`: the characters finished generators stored.
//!
//! `delete` only asks: the character goes when its owner presses "Delete" under the
//! question (the character's id waits in `button_states` meanwhile, for 15 minutes).

use super::commands::{CommandSpec, string, sub};
use super::context::Context;
use super::custom_id;
use super::table::{Answer, CommandEntry, ComponentFamily, defer_update, name_choices};
use super::text::{code_block, escape_markdown, human_duration, one_line, truncate};
use super::{
    Ack, ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, FileAttachment, Message,
    Reply, Request, ephemeral, fields,
};
use crate::storage::CharacterRow;

const PENDING_DELETE_KIND: &str = "character-delete";
/// How long the "Delete" button stays valid (an ephemeral message's token lasts as
/// long).
const PENDING_DELETE_TTL_MS: i64 = 15 * 60_000;

const NOT_PENDING_DELETE: &str = "That deletion has been confirmed, cancelled or has expired; \
     run `/character delete` again.";

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
    run: |cx, request, command| Box::pin(cx.character_command(request, command)),
    autocomplete,
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

    async fn character_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let name = command.string("name").map(str::trim).unwrap_or("");
        match command.sub() {
            None | Some("list") => self.character_list(request).await,
            Some("show") => self.character_show(request, name).await,
            Some("delete") => self.character_delete(request, name).await,
            Some("use") => self.character_use(request, name).await,
            Some(other) => Ok(ephemeral(format!(
                "`/character {other}` is not a command; try list, show, use or delete."
            ))),
        }
    }

    async fn character_list(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let rows = self
            .storage
            .characters_of(request.user.id, request.place())
            .await?;
        if rows.is_empty() {
            return Ok(ephemeral(
                "You have no characters here yet. Make one with `/chargen start`.",
            ));
        }
        let now = self.now();
        let mut lines = vec![format!("Your characters here ({}):", rows.len())];
        for row in &rows {
            lines.push(format!(
                "- **{}** ({}, made {} ago)",
                escape_markdown(&row.name),
                row.program,
                human_duration(now - row.created_at)
            ));
        }
        Ok(ephemeral(truncate(
            &lines.join("\n"),
            super::text::MESSAGE_LIMIT,
        )))
    }

    /// `/character show NAME`, or without a name the character played here, else the
    /// newest one made here.
    async fn character_show(&self, request: &Request, name: &str) -> anyhow::Result<Vec<Reply>> {
        let found = if name.is_empty() {
            match self
                .storage
                .active_character(request.place(), request.user.id)
                .await?
            {
                Some(active) => Some(active),
                None => {
                    self.storage
                        .newest_character(request.user.id, request.place())
                        .await?
                }
            }
        } else {
            self.own_character(request, name).await?
        };
        let Some(row) = found else {
            if name.is_empty() {
                return Ok(ephemeral(
                    "You have no characters here yet. Make one with `/chargen start`, then \
                     `/character show` shows it.",
                ));
            }
            return Ok(not_found(name));
        };
        let active = self
            .storage
            .active_character(request.place(), request.user.id)
            .await?
            .is_some_and(|active| active.id == row.id);
        let (items, party) = self.storage.character_belongings(row.id).await?;
        let current = self.character_fields(&row).await?;
        let mut belongings = belongings(&row, &items, &party);
        if let Some(effects) = self.kept_effects_line(row.id).await? {
            belongings.push_str(&format!("\nEffects: {}", escape_markdown(&effects)));
        }
        let message = Message {
            content: sheet(&row, &current, active, &belongings),
            attachments: vec![FileAttachment {
                filename: format!("{}.txt", file_stem(&row.name)),
                bytes: row.transcript.clone().into_bytes(),
                description: Some(format!("The generator's transcript for {}", row.name)),
            }],
            ..Message::default()
        };
        Ok(vec![Reply::Interaction(message)])
    }

    /// A character's fields as they read now: one captured from a program without
    /// `RECORD` goes through its program's current record map (so fixing a map
    /// fixes the characters made already); others are as stored.
    pub(super) async fn character_fields(
        &self,
        row: &CharacterRow,
    ) -> anyhow::Result<Vec<(String, String)>> {
        let generated = self.generated_fields(row).await?;
        // What encounters wrote back (HP and the like) reads over the generator's.
        let Some(kept) = self.storage.character_effects(row.id).await? else {
            return Ok(generated);
        };
        let written: Vec<(String, String)> = serde_json::from_str(&kept.fields).unwrap_or_default();
        Ok(super::encounter::overlay(generated, &written))
    }

    /// The fields as the generator made them (through the record map), without
    /// what encounters wrote back: the HP there is the character's maximum.
    pub(super) async fn generated_fields(
        &self,
        row: &CharacterRow,
    ) -> anyhow::Result<Vec<(String, String)>> {
        let stored: Vec<(String, String)> = serde_json::from_str(&row.fields).unwrap_or_default();
        if row.capture.is_empty() {
            return Ok(stored);
        }
        let Some(map) = self
            .record_map_of(row.guild_id, &row.program, &row.program_hash)
            .await?
            .filter(|map| !map.pairs.is_empty())
        else {
            return Ok(stored);
        };
        let capture: Vec<(String, String)> = serde_json::from_str(&row.capture).unwrap_or_default();
        Ok(super::record_map::apply(&map, &capture))
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

    async fn character_use(&self, request: &Request, name: &str) -> anyhow::Result<Vec<Reply>> {
        let Some(row) = self.own_character(request, name).await? else {
            return Ok(not_found(name));
        };
        self.storage
            .set_active_character(request.place(), request.user.id, row.id, self.now())
            .await?;
        let current = self.character_fields(&row).await?;
        let numbers = fields::roll_fields_with_purse(&current, row.gold, row.food);
        let mut text = format!("You play **{}** here now.", escape_markdown(&row.name));
        if numbers.is_empty() {
            text.push_str(" It has no numeric fields to use in rolls.");
        } else {
            let example = if numbers.contains_key("STR_MOD") {
                "1d20 + @STR_MOD"
            } else {
                "1d20"
            };
            text.push_str(&format!(
                " Its fields work in any roll, e.g. `/roll {example}`: {}.",
                field_list(&numbers)
            ));
        }
        Ok(ephemeral(truncate(&text, super::text::MESSAGE_LIMIT)))
    }

    /// Asks before deleting: a private question with "Delete" and "Cancel".
    async fn character_delete(&self, request: &Request, name: &str) -> anyhow::Result<Vec<Reply>> {
        let Some(row) = self.own_character(request, name).await? else {
            return Ok(not_found(name));
        };
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
        let mut message = Message::ephemeral(format!(
            "Delete **{}** (made with `{}`), with its fields, belongings and transcript? This \
             cannot be undone.",
            escape_markdown(&row.name),
            row.program
        ));
        let (delete_id, keep_id) = delete_ids(state_id);
        message.components.push(ActionRow(vec![
            Component::Button(Button {
                custom_id: delete_id,
                label: "Delete".to_owned(),
                style: ButtonStyle::Danger,
                disabled: false,
            }),
            Component::Button(Button {
                custom_id: keep_id,
                label: "Cancel".to_owned(),
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
        let pending = match self.storage.button_state(state_id).await? {
            Some(state) if state.kind == PENDING_DELETE_KIND => state,
            _ => return Ok(ephemeral(NOT_PENDING_DELETE)),
        };
        let Ok(question) = serde_json::from_str::<PendingDelete>(&pending.payload) else {
            self.storage.delete_button_state(state_id).await?;
            return Ok(ephemeral(NOT_PENDING_DELETE));
        };
        if question.owner_id != request.user.id {
            return Ok(ephemeral("Only the character's owner can answer that."));
        }
        if pending.created_at + PENDING_DELETE_TTL_MS <= self.now() {
            self.storage.delete_button_state(state_id).await?;
            return Ok(ephemeral(NOT_PENDING_DELETE));
        }
        // The first press decides; a second one finds nothing.
        if !self.storage.delete_button_state(state_id).await? {
            return Ok(ephemeral(NOT_PENDING_DELETE));
        }
        let name = escape_markdown(&question.name);
        let outcome = if !delete {
            format!("Kept **{name}**.")
        } else if self
            .storage
            .delete_character(request.user.id, question.character_id)
            .await?
        {
            format!("Deleted **{name}**.")
        } else {
            format!("**{name}** was already gone.")
        };
        Ok(vec![Reply::Update(Message::ephemeral(outcome))])
    }

    /// Forgets deletions nobody confirmed in time.
    pub(super) async fn purge_pending_deletes(&self, now: i64) -> anyhow::Result<()> {
        self.storage
            .purge_button_states_of(
                PENDING_DELETE_KIND,
                now.saturating_sub(PENDING_DELETE_TTL_MS),
            )
            .await?;
        Ok(())
    }
}

fn not_found(name: &str) -> Vec<Reply> {
    ephemeral(format!(
        "You have no character called `{}` here. `/character list` shows yours.",
        one_line(name, 100)
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
) -> String {
    let inventory: Vec<String> = items
        .iter()
        .map(|(tag, count)| format!("{count} {}", npc_core::item_display_name(tag)))
        .collect();
    let list = |parts: &[String]| {
        if parts.is_empty() {
            "none".to_owned()
        } else {
            one_line(&parts.join(", "), 300)
        }
    };
    format!(
        "Gold {} · Food {}\nInventory: {}\nParty: {}",
        row.gold,
        row.food,
        escape_markdown(&list(&inventory)),
        escape_markdown(&list(party))
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
    let mut header = format!(
        "**{}**, made with `{}` on {}",
        escape_markdown(&row.name),
        row.program,
        date_of(row.created_at)
    );
    if active {
        header.push_str(" (you play this character here)");
    }
    let mut body = lines.join("\n");
    if body.is_empty() {
        body = "(no fields recorded; the transcript is attached)".to_owned();
    }
    let footer = if numbers.is_empty() {
        String::new()
    } else {
        format!("\nIn rolls: {}", field_list(&numbers))
    };
    // Room for the header, the belongings, the footer and the fences.
    let budget = super::text::MESSAGE_LIMIT
        .saturating_sub(
            header.chars().count() + belongings.chars().count() + footer.chars().count() + 20,
        )
        .max(100);
    let text = format!(
        "{header}\n{}\n{belongings}{footer}",
        code_block(&truncate(&body, budget))
    );
    truncate_keeping_block(&text)
}

/// The sheet within Discord's limit without breaking its block (the footer goes
/// first).
fn truncate_keeping_block(text: &str) -> String {
    if text.chars().count() <= super::text::MESSAGE_LIMIT {
        return text.to_owned();
    }
    match text.rfind("\nIn rolls: ") {
        Some(at) => text[..at].to_owned(),
        None => text.to_owned(),
    }
}

fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|ch| if ch.is_alphanumeric() { ch } else { '-' })
        .collect();
    let stem = stem.trim_matches('-');
    if stem.is_empty() {
        return "character".to_owned();
    }
    stem.to_lowercase()
}

/// `YYYY-MM-DD` (UTC) of a unix-ms time.
pub(super) fn date_of(unix_ms: i64) -> String {
    let days = unix_ms.div_euclid(86_400_000);
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
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
