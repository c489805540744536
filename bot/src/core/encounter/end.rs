//! How an encounter ends: by the GM (`/init end`, a question first) or by the sweep
//! when nobody changed it for the configured time (`[encounters] idle_minutes`).
//! Both write every character back and delete the row in one transaction, leave the
//! last tracker readable without buttons, and tell the channel what was kept.

use npc_core::effects::CarriedEffects;

use super::tracker::{self, Viewer};
use super::{Asker, Extra, InitAction, InitId, Loaded, gm_name};
use crate::core::context::Context;
use crate::core::text::{MESSAGE_LIMIT, escape_markdown, truncate};
use crate::core::{ActionRow, Button, ButtonStyle, Component, Message, Reply, ephemeral};
use crate::i18n::{self, Lang};
use crate::storage::{Committed, EncounterChange};

/// Encounters one sweep ends at most; the next sweep takes the rest.
const PER_SWEEP: i64 = 100;

impl Context {
    /// "End the encounter" under the question.
    pub(super) async fn init_end(
        &self,
        loaded: Loaded,
        asker: &Asker,
    ) -> anyhow::Result<Vec<Reply>> {
        if !asker.gm {
            return Ok(gm_only_end(&loaded, asker));
        }
        let Some(public) = self.finish(&loaded, asker.table).await? else {
            return Ok(ephemeral(i18n::tr(asker.lang, "encounter-stale")));
        };
        let mut replies = vec![Reply::Update(Message::ephemeral(i18n::tr(
            asker.lang,
            "encounter-has-ended",
        )))];
        replies.extend(public);
        Ok(replies)
    }

    /// Ends the encounters without a change for the configured time (`/init`'s part
    /// of [`crate::core::Core::sweep`]), each with a notice in its channel.
    pub(super) async fn end_idle_encounters(&self, now: i64) -> anyhow::Result<Vec<Reply>> {
        let idle_ms = self.settings.encounter_idle_ms;
        let rows = self
            .storage
            .idle_encounters(now.saturating_sub(idle_ms), PER_SWEEP)
            .await?;
        let mut replies = Vec::new();
        for row in rows {
            let table = self.place_language(row.guild_id).await?;
            let channel_id = row.channel_id;
            let loaded = self.loaded(row).await?;
            // A change that came in meanwhile keeps it going.
            let Some(public) = self.finish(&loaded, table).await? else {
                continue;
            };
            tracing::info!(encounter = loaded.row.id, "encounter ended idle");
            replies.push(Reply::Channel {
                channel_id,
                message: Message::text(idle_notice(table, idle_ms)),
            });
            replies.extend(public);
        }
        Ok(replies)
    }

    /// Writes every character back and deletes the encounter, in one transaction;
    /// the channel's replies (the last tracker without buttons, the summary), or
    /// `None` when the encounter moved on or is gone.
    async fn finish(&self, loaded: &Loaded, table: Lang) -> anyhow::Result<Option<Vec<Reply>>> {
        let mut extra = Extra::default();
        let mut kept = Vec::new();
        for seat in &loaded.seats {
            let Some(character) = seat.character else {
                continue;
            };
            extra.leave.push(character);
            if let Some(row) = self.write_back_row(seat, &loaded.engine, character).await? {
                let carried: CarriedEffects =
                    serde_json::from_str(&row.effects).unwrap_or_default();
                let hp = loaded.engine.base(&seat.name).map_or(0, |base| base.hp);
                let mut line = i18n::tr_args(
                    table,
                    "encounter-kept-hp",
                    &[
                        ("name", seat.name.as_str().into()),
                        ("hp", hp.to_string().into()),
                    ],
                );
                if !carried.is_empty() {
                    let tags: Vec<String> =
                        carried.views().into_iter().map(|view| view.tag).collect();
                    line.push_str(&i18n::tr_args(
                        table,
                        "encounter-kept-keeps",
                        &[("effects", tags.join(", ").into())],
                    ));
                }
                kept.push(line);
                extra.write_backs.push(row);
            }
        }
        let change = EncounterChange {
            state: None,
            now: self.now(),
            join: None,
            leave: extra.leave,
            write_backs: extra.write_backs,
        };
        if self.commit(loaded, &change).await?
            != (Committed::Done {
                step: loaded.row.step + 1,
            })
        {
            return Ok(None);
        }
        let mut summary = i18n::tr_args(
            table,
            "encounter-over",
            &[("rounds", loaded.engine.round().into())],
        );
        if !kept.is_empty() {
            summary.push_str(&i18n::tr_args(
                table,
                "encounter-written-back",
                &[("kept", escape_markdown(&kept.join("; ")).into())],
            ));
        }
        let summary = truncate(&summary, MESSAGE_LIMIT);
        let mut replies = Vec::new();
        if let Some(message_id) = loaded.row.message_id {
            // The last state stays readable, without buttons.
            let last = tracker::render(
                table,
                &loaded.engine,
                &loaded.seats,
                &loaded.row.gm_name,
                Viewer::Players,
            );
            let ended = i18n::tr(table, "encounter-ended-mark");
            replies.push(Reply::Edit {
                channel_id: loaded.row.channel_id,
                message_id,
                message: Message::text(truncate(&format!("{last}\n{ended}"), MESSAGE_LIMIT)),
            });
        }
        replies.push(Reply::Channel {
            channel_id: loaded.row.channel_id,
            message: Message::text(summary),
        });
        Ok(Some(replies))
    }
}

/// Why the sweep ended an encounter: in hours when the time is whole hours.
fn idle_notice(lang: Lang, idle_ms: i64) -> String {
    let minutes = idle_ms / 60_000;
    match minutes % 60 {
        0 => i18n::tr_args(
            lang,
            "encounter-idle-ended-hours",
            &[("hours", (minutes / 60).into())],
        ),
        _ => i18n::tr_args(
            lang,
            "encounter-idle-ended-minutes",
            &[("minutes", minutes.into())],
        ),
    }
}

/// The private question before ending, with its two buttons.
pub(super) fn end_question(loaded: &Loaded, asker: &Asker) -> Vec<Reply> {
    if !asker.gm {
        return gm_only_end(loaded, asker);
    }
    let lang = asker.lang;
    let id = |action| InitId::new(action, loaded.row.id, loaded.row.step).encode();
    let message =
        Message::ephemeral(i18n::tr(lang, "encounter-end-question")).with_row(ActionRow(vec![
            Component::Button(Button {
                custom_id: id(InitAction::ConfirmEnd),
                label: i18n::tr(lang, "encounter-end-confirm"),
                style: ButtonStyle::Danger,
                disabled: false,
            }),
            Component::Button(Button {
                custom_id: id(InitAction::CancelEnd),
                label: i18n::tr(lang, "encounter-end-cancel"),
                style: ButtonStyle::Secondary,
                disabled: false,
            }),
        ]));
    vec![Reply::Interaction(message)]
}

fn gm_only_end(loaded: &Loaded, asker: &Asker) -> Vec<Reply> {
    ephemeral(i18n::tr_args(
        asker.lang,
        "encounter-gm-only-end",
        &[("gm", gm_name(loaded).into())],
    ))
}
