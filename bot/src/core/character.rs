//! `/character list|show|delete`: the characters finished generators stored.

use super::text::{code_block, escape_markdown, human_duration, one_line, truncate};
use super::{Command, Core, FileAttachment, Message, Reply, Request, ephemeral};
use crate::storage::CharacterRow;

impl Core {
    pub(super) async fn character_command(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let name = command.string("name").map(str::trim).unwrap_or("");
        match command.sub() {
            None | Some("list") => self.character_list(request).await,
            Some("show") => self.character_show(request, name).await,
            Some("delete") => self.character_delete(request, name).await,
            Some(other) => Ok(ephemeral(format!(
                "`/character {other}` is not a command; try list, show or delete."
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

    async fn character_show(&self, request: &Request, name: &str) -> anyhow::Result<Vec<Reply>> {
        let Some(row) = self
            .storage
            .character_named(request.user.id, request.place(), name)
            .await?
        else {
            return Ok(not_found(name));
        };
        let (items, party) = self.storage.character_belongings(row.id).await?;
        let message = Message {
            content: sheet(&row, &belongings(&row, &items, &party)),
            attachments: vec![FileAttachment {
                filename: format!("{}.txt", file_stem(&row.name)),
                bytes: row.transcript.clone().into_bytes(),
                description: Some(format!("The generator's transcript for {}", row.name)),
            }],
            ..Message::default()
        };
        Ok(vec![Reply::Interaction(message)])
    }

    async fn character_delete(&self, request: &Request, name: &str) -> anyhow::Result<Vec<Reply>> {
        let Some(row) = self
            .storage
            .character_named(request.user.id, request.place(), name)
            .await?
        else {
            return Ok(not_found(name));
        };
        if !self
            .storage
            .delete_character(request.user.id, request.place(), &row.name)
            .await?
        {
            return Ok(not_found(name));
        }
        Ok(ephemeral(format!(
            "Deleted **{}**.",
            escape_markdown(&row.name)
        )))
    }
}

fn not_found(name: &str) -> Vec<Reply> {
    ephemeral(format!(
        "You have no character called `{}` here. `/character list` shows yours.",
        one_line(name, 100)
    ))
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

/// The character as a sheet: its fields aligned in a monospace block, then gold,
/// food, inventory and party.
fn sheet(row: &CharacterRow, belongings: &str) -> String {
    let fields: Vec<(String, String)> = serde_json::from_str(&row.fields).unwrap_or_default();
    let width = fields
        .iter()
        .map(|(key, _)| key.chars().count().min(20))
        .max()
        .unwrap_or(0);
    let mut lines = Vec::with_capacity(fields.len());
    for (key, value) in &fields {
        lines.push(format!(
            "{:<width$}  {}",
            one_line(key, 20),
            one_line(value, 200)
        ));
    }
    let header = format!(
        "**{}**, made with `{}` on {}",
        escape_markdown(&row.name),
        row.program,
        date_of(row.created_at)
    );
    let mut body = lines.join("\n");
    if body.is_empty() {
        body = "(no fields recorded; the transcript is attached)".to_owned();
    }
    // Room for the header, the belongings and the fences.
    let budget = super::text::MESSAGE_LIMIT
        .saturating_sub(header.chars().count() + belongings.chars().count() + 20);
    format!(
        "{header}\n{}\n{belongings}",
        code_block(&truncate(&body, budget))
    )
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
fn date_of(unix_ms: i64) -> String {
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
