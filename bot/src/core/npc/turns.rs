//! One player turn of an NPC conversation, committed as every turn is (`core::turn`):
//! read the script and the world, run the engine on a worker outside any
//! transaction, then claim the conversation's step and write in one short
//! transaction; a world that changed meanwhile runs the turn again.

use super::*;

/// What one player turn answers, and in which languages.
#[derive(Clone, Copy)]
pub(super) struct NpcTurn<'a> {
    pub(super) request: &'a Request,
    pub(super) row: &'a NpcConversationRow,
    /// What goes to the engine (cut to [`MAX_INPUT_CHARS`]).
    pub(super) line: &'a str,
    /// What the new message shows the player said.
    pub(super) echo: &'a str,
    /// The player's language.
    pub(super) lang: Lang,
    /// The server's language: the conversation's messages.
    pub(super) table: Lang,
    pub(super) now: i64,
}

impl Context {
    /// One player turn: `line` goes to the engine, `echo` is what the new message
    /// shows the player said. Committed as every turn is (`core::turn`): read, run
    /// the script outside any transaction, then claim the step and write at once;
    /// run again when the world changed meanwhile.
    ///
    /// `talk` is the conversation and its script as read together (`None`: removed);
    /// a turn run again reads the script again.
    pub(super) async fn npc_turn(
        &self,
        request: &Request,
        talk: (&NpcConversationRow, Option<NpcScriptRow>),
        line: &str,
        echo: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let (row, script) = talk;
        let line: String = line.chars().take(MAX_INPUT_CHARS).collect();
        // The player's language for what only they see, the server's for the
        // conversation's messages.
        let lang = self.language(request, false).await?;
        let table = self.language(request, true).await?;
        let turn = NpcTurn {
            request,
            row,
            line: &line,
            echo,
            lang,
            table,
            now: self.now(),
        };
        let mut read_with_row = Some(script);
        let attempt = || self.npc_turn_once(&turn, read_with_row.take());
        let text = match turn::attempts(attempt).await? {
            Ok(replies) => return Ok(replies),
            Err(Lost::Answered) => i18n::tr(lang, "npc-answered"),
            Err(Lost::Changed) => i18n::tr(lang, "npc-world-changed"),
        };
        Ok(ephemeral_if_interaction(request, text))
    }

    /// One attempt at a turn; `Err` when it wrote nothing because another answer came
    /// first or the world changed while the script ran. `script_read` is the script
    /// read with the conversation (the first attempt's); without it, it is read now.
    async fn npc_turn_once(
        &self,
        turn: &NpcTurn<'_>,
        script_read: Option<Option<NpcScriptRow>>,
    ) -> anyhow::Result<Result<Vec<Reply>, Lost>> {
        let NpcTurn {
            request,
            row,
            lang,
            table,
            now,
            ..
        } = *turn;
        let step = row.step + 1;
        let script_row = match script_read {
            Some(script_row) => script_row,
            None => self.storage.npc_script_by_id(row.script_id).await?,
        };
        let loaded = match &script_row {
            Some(script_row) => match self.npc_load(&script_row.source).await {
                Ok(loaded) => loaded.ok(),
                Err(error) => {
                    // Nothing claimed: the question still waits.
                    let what = i18n::tr(lang, "npc-work-loading-this");
                    return super::super::overrun_in(lang, &what, error).map(Ok);
                }
            },
            None => None,
        };
        let talk = serde_json::from_str::<Conversation>(&row.state).ok();
        let (Some(script_row), Some(script), Some(talk), Some(character_id)) =
            (script_row, loaded, talk, row.character_id)
        else {
            return self.end_npc_turn(turn, i18n::tr(lang, "npc-changed")).await;
        };
        let conversation = talk.conversation().to_owned();
        let key = WorldKey {
            guild_id: row.guild_id,
            user_id: row.user_id,
            character_id,
            npc: &row.npc,
            conversation: &conversation,
        };
        let Some(mut before) = self.storage.npc_world(&key).await? else {
            return self
                .end_npc_turn(turn, i18n::tr(lang, "npc-character-gone"))
                .await;
        };
        before.activity = activity_of(&script_row);
        let waiting_for = talk.prompt(&script);
        let asked_keyword = waiting_for == Prompt::Keyword;
        // German is understood where a German player speaks or reads German words
        // (the hints at a German table name them); English always.
        let line = if lang == Lang::De || table == Lang::De {
            words::engine_line(&waiting_for, turn.line, || {
                script.keyword_for(&conversation, turn.line).is_some()
            })
            .into_owned()
        } else {
            turn.line.to_owned()
        };
        let mut after = before.clone();
        let (job_script, job_line) = (script.clone(), line.clone());
        let shown = talk.display_name().to_owned();
        let ran = self
            .workers
            .run("npc", move || {
                let mut talk = talk;
                let cancel = worker::cancel_flag();
                let turn =
                    talk.input_cancellable(&job_script, &job_line, &mut after, Some(&cancel));
                (talk, turn, after)
            })
            .await;
        let (talk, npc_turn, after) = match ran {
            Ok(ran) => ran,
            // Nothing claimed: the question still waits.
            Err(error) => {
                let what = i18n::tr_args(
                    lang,
                    "npc-work-answer",
                    &[("npc", escape_markdown(&shown).into())],
                );
                return super::super::overrun_in(lang, &what, error).map(Ok);
            }
        };
        let failed = npc_turn.prompt == Prompt::Ended(EndReason::Error);
        let effects: Vec<&str> = if failed {
            Vec::new()
        } else {
            npc_turn
                .events
                .iter()
                .filter_map(|event| match event {
                    npc_core::Event::ApplyEffect { effect, .. } => Some(effect.as_str()),
                    _ => None,
                })
                .collect()
        };
        let effects = {
            let mut conn = self.storage.pool().acquire().await?;
            self.plan_npc_effects(&mut conn, key.guild_id, character_id, &effects, table)
                .await?
        };
        let display = talk.display_name().to_owned();
        let state = serde_json::to_string(&talk)?;
        let recorded = (asked_keyword && !failed)
            .then(|| script.keyword_for(&conversation, &line))
            .flatten()
            .filter(|keyword| !is_special(keyword));
        let written = turn::write(&self.storage, async |tx: &mut AnyConnection| {
            if !claim_npc_step(tx, row.id, row.step).await? {
                return Ok(Err(Lost::Answered));
            }
            let now_world = load_world_in(tx, &key).await?.map(|mut world| {
                world.activity = before.activity;
                world
            });
            if now_world.as_ref() != Some(&before)
                || !effects.store_if_unchanged(tx, character_id).await?
            {
                return Ok(Err(Lost::Changed));
            }
            // The keywords kept when one was recorded: the buttons' list, read once.
            let mut kept = None;
            if failed {
                // npc-core left `after` untouched; nothing of the world is written.
                delete_npc_conversation_in(tx, row.id, None).await?;
            } else {
                save_world_in(tx, &key, &before, &after, now).await?;
                if let Some(keyword) = recorded {
                    kept = Some(
                        record_npc_keyword_in(tx, &key, keyword, now, view::MAX_KEYWORD_BUTTONS)
                            .await?,
                    );
                }
            }
            let speakers = view::Speakers {
                player: &request.user.name,
                npc: &display,
            };
            let mut lines = view::turn_lines(
                table,
                &speakers,
                Some(turn.echo),
                &npc_turn.events,
                &npc_turn.prompt,
            );
            lines.extend(effects.lines.iter().cloned());
            lines.extend(view::trade_status(table, &npc_turn.prompt, &after));
            let keywords = match (npc_turn.prompt == Prompt::Keyword, kept) {
                (false, _) => Vec::new(),
                (true, Some(kept)) => kept,
                (true, None) => npc_keywords_in(tx, &key, view::MAX_KEYWORD_BUTTONS).await?,
            };
            let components =
                view::prompt_components(table, row.id, step, &npc_turn.prompt, &keywords, &display);
            let laid = view::lay_out(table, &lines, components);
            if npc_turn.is_over() {
                if !failed {
                    delete_npc_conversation_in(tx, row.id, None).await?;
                }
            } else {
                update_npc_conversation_in(
                    tx,
                    row.id,
                    &NpcConversationUpdate {
                        channel_id: request.channel_id,
                        state: state.clone(),
                        content: laid.last_content.clone(),
                        now,
                        expires_at: now.saturating_add(self.settings.npc_idle_ms),
                    },
                )
                .await?;
            }
            Ok(Ok(laid))
        })
        .await?;
        let laid = match written {
            Ok(laid) => laid,
            Err(lost) => return Ok(Err(lost)),
        };
        let mut replies: Vec<Reply> = answered_edit(row).into_iter().collect();
        let track = (!npc_turn.is_over()).then_some((row.id, step));
        replies.extend(post(request.channel_id, laid, track));
        Ok(Ok(replies))
    }

    /// Ends a conversation whose script or character is gone, telling the player
    /// why (`reason`, in their language), if this answer claims the step.
    async fn end_npc_turn(
        &self,
        turn: &NpcTurn<'_>,
        reason: String,
    ) -> anyhow::Result<Result<Vec<Reply>, Lost>> {
        let row = turn.row;
        let ended = turn::write(&self.storage, async |tx: &mut AnyConnection| {
            if !claim_npc_step(tx, row.id, row.step).await? {
                return Ok(Err(Lost::Answered));
            }
            delete_npc_conversation_in(tx, row.id, None).await?;
            Ok(Ok(()))
        })
        .await?;
        if let Err(lost) = ended {
            return Ok(Err(lost));
        }
        let mut replies = ephemeral_if_interaction(turn.request, reason);
        replies.extend(left_edit(turn.table, row));
        Ok(Ok(replies))
    }
}
