//! `/chargen`: BASIC character generators, one paused session per user per server
//! (and one in DMs), stored after every step.
//!
//! The program's output goes out as regular channel messages in monospace blocks;
//! the last one ends with the prompt and carries an "Answer" button. A reply to that
//! message, the button's modal and `/chargen answer` all answer it.

mod ids;
pub mod programs;

use rand::RngCore;
use sqlx::AnyConnection;

use super::commands::{CommandSpec, string, sub};
use super::context::Context;
use super::gen_reason;
use super::naming::{character_name, is_name_field};
use super::record_map::{self, RecordMap};
use super::table::{
    Answer, CommandEntry, ComponentFamily, Subcommand, by_subcommand, name_choices,
};
use super::text::{
    MESSAGE_LIMIT, break_fences, code_block, code_span_text, escape_markdown, fence_broken_len,
    one_line, split_chunks, truncate,
};
use super::turn::{self, Lost};
use super::{
    Ack, ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, FileAttachment, Message,
    Modal, Reply, Request, RequestKind, TextInput, TextInputStyle, Track, ephemeral,
};
use crate::engine::{GenFailure, GenFailureKind, GenState, GenStep, ProgramText, Taken};
use crate::i18n::{self, Lang};
use crate::storage::characters::finish_session_in;
use crate::storage::{NewCharacter, NewSession, SessionRow, SessionUpdate, advance_session_in};

pub use ids::ChargenId;

/// The custom id of the modal's text field.
pub(super) const ANSWER_FIELD: &str = "answer";

/// Characters of program output per message: below Discord's 2,000 with room for the
/// code fences and for an answer echoed after the prompt.
const CHUNK_BUDGET: usize = 1700;

/// Characters a code block adds to its text: "```" and a new line on each side.
const FENCE_CHARS: usize = 8;

/// The least text a prompt message keeps when a server allows answers so long that
/// no room is left for them (the edit that shows the answer then scrolls instead).
const PROMPT_BUDGET_MIN: usize = 500;

/// The transcript kept with a session and a character; older output is dropped.
const TRANSCRIPT_MAX_BYTES: usize = 256 * 1024;

fn no_session(lang: Lang) -> String {
    i18n::tr(lang, "chargen-no-session")
}

fn already_answered(lang: Lang) -> Vec<Reply> {
    ephemeral(i18n::tr(lang, "chargen-already-answered"))
}

fn session_ended(lang: Lang) -> String {
    i18n::tr(lang, "chargen-session-ended")
}

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "chargen",
    spec,
    ack: |command| match programs::asks_for_paste(command) {
        // The paste form is a modal, which must be the first response.
        true => Ack::Immediate,
        false => Ack::Defer { ephemeral: true },
    },
    run: by_subcommand,
    autocomplete,
    // A generator runs anywhere; programs belong to a server and its admins.
    subcommands: &[
        Subcommand {
            name: None,
            guards: &[],
            run: |cx, request, command| Box::pin(cx.chargen_start(request, command)),
        },
        Subcommand {
            name: Some("start"),
            guards: &[],
            run: |cx, request, command| Box::pin(cx.chargen_start(request, command)),
        },
        Subcommand {
            name: Some("answer"),
            guards: &[],
            run: |cx, request, command| {
                let text = command.string("text").unwrap_or("");
                Box::pin(cx.chargen_answer(request, Target::Mine, text))
            },
        },
        Subcommand {
            name: Some("cancel"),
            guards: &[],
            run: |cx, request, _| Box::pin(cx.chargen_cancel(request)),
        },
        Subcommand {
            name: Some("status"),
            guards: &[],
            run: |cx, request, _| Box::pin(cx.chargen_status(request)),
        },
        Subcommand {
            name: Some("program add"),
            guards: programs::ADMIN,
            run: |cx, request, command| Box::pin(cx.program_add_command(request, command)),
        },
        Subcommand {
            name: Some("program list"),
            guards: programs::ON_SERVER,
            run: |cx, request, command| Box::pin(cx.program_list_command(request, command)),
        },
        Subcommand {
            name: Some("program remove"),
            guards: programs::ADMIN,
            run: |cx, request, command| Box::pin(cx.program_remove_command(request, command)),
        },
        Subcommand {
            name: Some("program default"),
            guards: programs::ADMIN,
            run: |cx, request, command| Box::pin(cx.program_default_command(request, command)),
        },
        Subcommand {
            name: Some("program show"),
            guards: programs::ON_SERVER,
            run: |cx, request, command| Box::pin(cx.program_show_command(request, command)),
        },
        Subcommand {
            name: Some("program map"),
            guards: programs::ADMIN,
            run: |cx, request, command| Box::pin(cx.program_map_command(request, command)),
        },
    ],
    // A reply to a message that is not a prompt of a session answers nothing.
    typed_replies: Some(|cx, request, to_message, text| {
        Box::pin(async move {
            let replies = cx.chargen_reply(request, to_message, text).await?;
            Ok((!replies.is_empty()).then_some(replies))
        })
    }),
    sweep: Some(|cx, now| Box::pin(cx.chargen_sweep(now))),
    components: &[
        ComponentFamily {
            kinds: &[ChargenId::ANSWER, ChargenId::MODAL],
            ack: |request, _| match request.kind {
                // The "Answer" button opens a modal: it must be the first response.
                RequestKind::Button { .. } => Ack::Immediate,
                _ => Ack::DeferUpdate,
            },
            run: |cx, request, custom_id| Box::pin(cx.chargen_component(request, custom_id)),
        },
        programs::CONFIRM_FAMILY,
        programs::PASTE_FAMILY,
    ],
};

fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "chargen",
        description: "Create a character with a generator program",
        options: vec![],
        subcommands: vec![
            sub(
                "start",
                "Start a character generator",
                vec![string("program", "Which program (default: the server's)", 32).autocomplete()],
            ),
            sub(
                "answer",
                "Answer the generator's question",
                vec![string("text", "Your answer", 255).required()],
            ),
            sub("cancel", "Stop your character generator", vec![]),
            sub(
                "status",
                "Show where your character generator stands",
                vec![],
            ),
        ],
        groups: vec![programs::group_spec()],
    }
}

/// The program to start, or the installed program to act on.
fn autocomplete<'a>(
    cx: &'a Context,
    request: &'a Request,
    command: &'a Command,
    focused: &'a str,
) -> Answer<'a> {
    Box::pin(async move {
        let names = match (command.sub(), focused) {
            (Some("start"), "program") | (Some("program"), "name") => {
                let typed = command.string(focused).unwrap_or("").to_lowercase();
                cx.program_names(request.place())
                    .await?
                    .into_iter()
                    .filter(|name| name.to_lowercase().starts_with(&typed))
                    .collect()
            }
            _ => Vec::new(),
        };
        Ok(name_choices(names))
    })
}

/// Which session an answer is for.
pub(super) enum Target {
    /// The user's session in the request's place (`/chargen answer`).
    Mine,
    /// A session at a given step (the modal of a prompt).
    Exact { session_id: i64, step: i64 },
    /// A session already loaded (a reply to its prompt message).
    Loaded(Box<SessionRow>),
}

/// Program output laid out as messages.
struct Pages {
    messages: Vec<Message>,
    /// The text of the last message without its fences (the prompt message), its
    /// own backtick runs already broken.
    last_inner: String,
}

/// Where a generator step starts: a new run with its seed, or a stored session.
enum From {
    /// A new run with its RND seed, taking a character each time `capture_line`
    /// is about to run (a record map's `at`).
    Start {
        seed: u64,
        capture_line: Option<u32>,
    },
    Restore(String),
}

/// What one generator step did: where it stands (or the error that stopped it),
/// and the characters it took on the way, which are stored with the step.
struct Stepped {
    step: Result<(Snapshot, GenStep), GenFailure>,
    taken: Vec<Taken>,
    /// Where a captured character's name is when nothing else names it.
    name_inputs: Vec<String>,
}

/// The most names a "was stored" message lists (the count says how many).
const STORED_NAMES_SHOWN: usize = 10;

/// The state of a session after a step, taken only when it waits for input (a
/// finished run is not stored).
struct Snapshot(Option<Result<String, GenFailure>>);

impl Snapshot {
    fn stored(self) -> anyhow::Result<String> {
        match self.0 {
            Some(state) => Ok(state?),
            None => Err(anyhow::anyhow!("a waiting session without a snapshot")),
        }
    }
}

impl Context {
    /// The "Answer" button (a modal) or its modal submitted.
    async fn chargen_component(
        &self,
        request: &Request,
        custom_id: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        match (ChargenId::decode(custom_id), &request.kind) {
            (Some(ChargenId::Answer { session_id, step }), RequestKind::Button { .. }) => {
                self.chargen_answer_button(request, session_id, step).await
            }
            (Some(ChargenId::Modal { session_id, step }), RequestKind::Modal { fields, .. }) => {
                let text = fields
                    .iter()
                    .find(|(id, _)| id == ANSWER_FIELD)
                    .map(|(_, value)| value.as_str())
                    .unwrap_or("");
                self.chargen_answer(request, Target::Exact { session_id, step }, text)
                    .await
            }
            _ => Ok(super::stale_component(request)),
        }
    }

    /// One generator step on an engine worker, under the time limit: start or
    /// restore the session, run it to its next question or its end, and snapshot
    /// it if it waits.
    async fn generator_step(
        &self,
        program: &ProgramText,
        from: From,
        input: Option<&str>,
    ) -> Result<Stepped, crate::engine::worker::WorkError> {
        let generators = self.engines.generators.clone();
        let program = program.clone();
        let input = input.map(str::to_owned);
        self.workers
            .run("chargen", move || {
                let opened = match from {
                    From::Start { seed, capture_line } => {
                        generators.start(&program, seed).map(|mut session| {
                            if let Some(line) = capture_line {
                                // Checked when the map was saved; a replaced listing may lack it.
                                session.capture_at_line(line);
                            }
                            session
                        })
                    }
                    From::Restore(state) => generators.restore(&program, &state),
                };
                let mut session = match opened {
                    Ok(session) => session,
                    // Nothing ran, so nothing was taken.
                    Err(failure) => {
                        return Stepped {
                            step: Err(failure),
                            taken: Vec::new(),
                            name_inputs: Vec::new(),
                        };
                    }
                };
                // A restored session holds what earlier steps took (and stored).
                let before = session.taken_count();
                let step = session.resume(input.as_deref());
                let mut taken = session.taken_since(before);
                if let Ok(GenStep {
                    state: GenState::Finished(run),
                    ..
                }) = &step
                    && session.taken_count() == 0
                {
                    // Without RECORD and a map's line, the character is the
                    // variables as they last held values.
                    taken.push(Taken::Capture(run.variables.clone()));
                }
                let step = step.map(|step| {
                    let waits = matches!(step.state, GenState::NeedsInput { .. });
                    (Snapshot(waits.then(|| session.snapshot())), step)
                });
                Stepped {
                    step,
                    taken,
                    name_inputs: session.name_inputs(),
                }
            })
            .await
    }

    /// `/chargen start [program]`.
    async fn chargen_start(
        &self,
        request: &Request,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let program_name = command.string("program");
        let now = self.now();
        let lang = self.language(request, false).await?;
        let table = self.language(request, true).await?;
        let mut replies = Vec::new();
        if let Some(row) = self
            .storage
            .session_of(request.user.id, request.place())
            .await?
        {
            if row.expires_at > now {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "chargen-already-running",
                    &[
                        ("program", row.program.as_str().into()),
                        ("prompt", code_span_text(&row.prompt, 100).into()),
                    ],
                )));
            }
            replies.extend(self.expire_session(&row, table).await?);
        }
        let Some(FoundProgram {
            text: program,
            record_map: stored_map,
        }) = self.find_program(request.place(), program_name).await?
        else {
            let names = self.program_names(request.place()).await?.join("`, `");
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "chargen-no-such-program",
                &[
                    (
                        "name",
                        code_span_text(program_name.unwrap_or(""), 32).into(),
                    ),
                    ("programs", names.into()),
                ],
            )));
        };
        let seed = self.rng().next_u64();
        let map = stored_map.as_deref().and_then(record_map::parse_stored);
        let capture_line = map.as_ref().and_then(|map| map.at);
        let from = From::Start { seed, capture_line };
        let started = match self.generator_step(&program, from, None).await {
            Ok(started) => started,
            Err(error) => {
                let what = i18n::tr_args(
                    lang,
                    "chargen-overrun-start",
                    &[("program", one_line(&program.name, 32).into())],
                );
                return super::overrun_in(lang, &what, error);
            }
        };
        let Stepped {
            step,
            taken,
            name_inputs,
        } = started;
        let made = |transcript| Made {
            program: &program,
            map: map.as_ref(),
            name_inputs: &name_inputs,
            transcript,
            table,
        };
        let (snapshot, step) = match step {
            Ok(started) => started,
            Err(failure) => {
                let transcript = cap_transcript(failure.output.clone());
                let characters = self.new_characters(request, taken, &made(&transcript));
                let names = self
                    .storage
                    .finish_session(None, &characters)
                    .await?
                    .unwrap_or_default();
                replies.extend(self.failure_replies(
                    request.channel_id,
                    &program.name,
                    &failure,
                    &names,
                    (lang, table),
                ));
                return Ok(replies);
            }
        };
        let GenStep { output, state } = step;
        let transcript = cap_transcript(output.clone());
        let characters = self.new_characters(request, taken, &made(&transcript));
        match state {
            GenState::NeedsInput { prompt } => {
                let session_id = self.new_id();
                let pages = self.pages(&output, Some(&prompt), table);
                let new_session = NewSession {
                    id: session_id,
                    user_id: request.user.id,
                    user_name: request.user.name.clone(),
                    guild_id: request.place(),
                    channel_id: request.channel_id,
                    program: program.name.clone(),
                    program_hash: program.hash.clone(),
                    state: snapshot.stored()?,
                    prompt: prompt.clone(),
                    prompt_content: pages.last_inner.clone(),
                    transcript,
                    now,
                    expires_at: now.saturating_add(self.settings.session_expiry_ms),
                };
                let Some(names) = self
                    .storage
                    .insert_session(&new_session, &characters)
                    .await?
                else {
                    return Ok(ephemeral(i18n::tr(lang, "chargen-already-running-short")));
                };
                replies.push(Reply::Interaction(Message::ephemeral(i18n::tr_args(
                    lang,
                    "chargen-started",
                    &[("program", program.name.as_str().into())],
                ))));
                replies.extend(self.post_pages(
                    request.channel_id,
                    pages,
                    Some((session_id, 0)),
                    table,
                ));
                replies.extend(self.summary(request.channel_id, &names, &characters, None, table));
            }
            GenState::Finished(_) => {
                let names = self
                    .storage
                    .finish_session(None, &characters)
                    .await?
                    .unwrap_or_default();
                replies.push(Reply::Interaction(Message::ephemeral(i18n::tr_args(
                    lang,
                    "chargen-ran-to-end",
                    &[("program", program.name.as_str().into())],
                ))));
                replies.extend(self.post_pages(
                    request.channel_id,
                    self.pages(&output, None, table),
                    None,
                    table,
                ));
                let fields = self.last_stored_fields(request, &names).await?;
                let ended = Ended {
                    program: &program.name,
                    stored: &names,
                    fields: &fields,
                };
                replies.extend(self.summary(
                    request.channel_id,
                    &names,
                    &characters,
                    Some(ended),
                    table,
                ));
            }
        }
        Ok(replies)
    }

    async fn chargen_answer(
        &self,
        request: &Request,
        target: Target,
        text: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let now = self.now();
        let lang = self.language(request, false).await?;
        let table = self.language(request, true).await?;
        let row = match target {
            Target::Mine => {
                match self
                    .storage
                    .session_of(request.user.id, request.place())
                    .await?
                {
                    Some(row) => row,
                    None => return Ok(ephemeral(no_session(lang))),
                }
            }
            Target::Exact { session_id, step } => {
                let Some(row) = self.storage.session(session_id).await? else {
                    return Ok(ephemeral(session_ended(lang)));
                };
                if row.user_id != request.user.id {
                    return Ok(not_yours(&row, lang));
                }
                if row.step != step {
                    return Ok(already_answered(lang));
                }
                row
            }
            Target::Loaded(row) => *row,
        };
        if row.expires_at <= now {
            let mut replies = self.expire_session(&row, table).await?;
            replies.push(Reply::Interaction(Message::ephemeral(i18n::tr(
                lang,
                "chargen-had-expired",
            ))));
            return Ok(replies);
        }
        let answer = text.lines().next().unwrap_or("").trim_end_matches('\r');
        if answer.chars().count() > self.settings.max_answer_len {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "chargen-answer-too-long",
                &[("max", self.settings.max_answer_len.into())],
            )));
        }
        let Some(FoundProgram {
            text: program,
            record_map: stored_map,
        }) = self.session_program(&row).await?
        else {
            self.storage.delete_session(row.id, None).await?;
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "chargen-program-changed",
                &[("program", row.program.as_str().into())],
            )));
        };
        let from = From::Restore(row.state.clone());
        let resumed = match self.generator_step(&program, from, Some(answer)).await {
            Ok(resumed) => resumed,
            // Nothing was stored: the question still waits, as before the answer.
            Err(error) => {
                let what = i18n::tr_args(
                    lang,
                    "chargen-overrun-answer",
                    &[("program", row.program.as_str().into())],
                );
                return super::overrun_in(lang, &what, error);
            }
        };
        let mut replies = Vec::new();
        if matches!(request.kind, RequestKind::Command(_)) {
            replies.push(Reply::Interaction(Message::ephemeral(i18n::tr_args(
                lang,
                "chargen-answered",
                &[("answer", code_span_text(answer, 100).into())],
            ))));
        }
        let mut transcript = row.transcript.clone();
        transcript.push_str(answer);
        transcript.push('\n');
        let Stepped {
            step,
            taken,
            name_inputs,
        } = resumed;
        // The map came with the program's row; parsed only when something was taken.
        let map = match taken.is_empty() {
            true => None,
            false => stored_map.as_deref().and_then(record_map::parse_stored),
        };
        let made = |transcript| Made {
            program: &program,
            map: map.as_ref(),
            name_inputs: &name_inputs,
            transcript,
            table,
        };
        let (snapshot, step) = match step {
            Ok(resumed) => resumed,
            Err(failure) => {
                transcript.push_str(&failure.output);
                let transcript = cap_transcript(transcript);
                let characters = self.new_characters(request, taken, &made(&transcript));
                if self.finish_answered(&row, &characters).await?.is_none() {
                    return Ok(already_answered(lang));
                }
                let stored = self.storage.session_character_names(row.id).await?;
                replies.extend(answered_edit(&row, answer));
                replies.extend(self.failure_replies(
                    request.channel_id,
                    &row.program,
                    &failure,
                    &stored,
                    (lang, table),
                ));
                return Ok(replies);
            }
        };
        let GenStep { output, state } = step;
        transcript.push_str(&output);
        let transcript = cap_transcript(transcript);
        let characters = self.new_characters(request, taken, &made(&transcript));
        match state {
            GenState::NeedsInput { prompt } => {
                let pages = self.pages(&output, Some(&prompt), table);
                let update = SessionUpdate {
                    channel_id: request.channel_id,
                    state: snapshot.stored()?,
                    prompt,
                    prompt_content: pages.last_inner.clone(),
                    transcript,
                    now,
                    expires_at: now.saturating_add(self.settings.session_expiry_ms),
                };
                let advanced = turn::write(&self.storage, async |tx: &mut AnyConnection| {
                    let advanced =
                        advance_session_in(tx, row.id, row.step, &update, &characters).await?;
                    Ok(advanced.ok_or(Lost::Answered))
                })
                .await?;
                let Ok(names) = advanced else {
                    return Ok(already_answered(lang));
                };
                replies.extend(answered_edit(&row, answer));
                replies.extend(self.post_pages(
                    request.channel_id,
                    pages,
                    Some((row.id, row.step + 1)),
                    table,
                ));
                replies.extend(self.summary(request.channel_id, &names, &characters, None, table));
            }
            GenState::Finished(_) => {
                let Some(names) = self.finish_answered(&row, &characters).await? else {
                    return Ok(already_answered(lang));
                };
                let stored = self.storage.session_character_names(row.id).await?;
                replies.extend(answered_edit(&row, answer));
                replies.extend(self.post_pages(
                    request.channel_id,
                    self.pages(&output, None, table),
                    None,
                    table,
                ));
                let fields = self.last_stored_fields(request, &stored).await?;
                let ended = Ended {
                    program: &program.name,
                    stored: &stored,
                    fields: &fields,
                };
                replies.extend(self.summary(
                    request.channel_id,
                    &names,
                    &characters,
                    Some(ended),
                    table,
                ));
            }
        }
        Ok(replies)
    }

    /// Ends the session `row` after an answer, storing `characters`, by the rule every
    /// turn follows (`turn::write`): the step claimed and all written in one short
    /// transaction. `None` when another answer claimed the step first (nothing stored).
    async fn finish_answered(
        &self,
        row: &SessionRow,
        characters: &[NewCharacter],
    ) -> anyhow::Result<Option<Vec<String>>> {
        let finished = turn::write(&self.storage, async |tx: &mut AnyConnection| {
            let finished = finish_session_in(tx, Some((row.id, row.step)), characters).await?;
            Ok(finished.ok_or(Lost::Answered))
        })
        .await?;
        Ok(finished.ok())
    }

    /// A message replying to one of our messages: an answer if it is the prompt of
    /// the author's session, otherwise nothing at all.
    async fn chargen_reply(
        &self,
        request: &Request,
        to_message: i64,
        text: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let Some(row) = self.storage.session_by_prompt_message(to_message).await? else {
            return Ok(Vec::new());
        };
        if row.user_id != request.user.id {
            return Ok(Vec::new());
        }
        if let Some(replies) = self.rate_limited(request) {
            return Ok(replies);
        }
        self.chargen_answer(request, Target::Loaded(Box::new(row)), text)
            .await
    }

    /// The "Answer" button: a modal whose field is labelled with the prompt.
    async fn chargen_answer_button(
        &self,
        request: &Request,
        session_id: i64,
        step: i64,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let Some(row) = self.storage.session(session_id).await? else {
            return Ok(ephemeral(session_ended(lang)));
        };
        if row.user_id != request.user.id {
            return Ok(not_yours(&row, lang));
        }
        if row.step != step {
            return Ok(already_answered(lang));
        }
        if row.expires_at <= self.now() {
            let table = self.language(request, true).await?;
            let mut replies = self.expire_session(&row, table).await?;
            replies.insert(
                0,
                Reply::Interaction(Message::ephemeral(session_ended(lang))),
            );
            return Ok(replies);
        }
        let modal = self.modal_for(session_id, step, Some(&row.program), &row.prompt, lang);
        Ok(vec![Reply::Modal(modal)])
    }

    /// The "Answer" button's modal, built from the button's custom id and the text of
    /// the prompt message it sits on, without the database. A transport with a deadline
    /// opens it at once (on Discord a modal must be the first response, within 3
    /// seconds); the submit checks the session as usual (owner, step, expiry), so a
    /// stale or foreign button only gets its answer refused there. `None` when the
    /// custom id is not an "Answer" button. `locale` is the presser's Discord locale
    /// (the modal speaks it; English for one Tavern does not speak).
    pub fn answer_modal(
        &self,
        custom_id: &str,
        prompt_message: &str,
        locale: Option<&str>,
    ) -> Option<Modal> {
        let Some(ChargenId::Answer { session_id, step }) = ChargenId::decode(custom_id) else {
            return None;
        };
        let lang = locale
            .and_then(Lang::from_discord_locale)
            .unwrap_or(Lang::En);
        Some(self.modal_for(session_id, step, None, prompt_line(prompt_message), lang))
    }

    fn modal_for(
        &self,
        session_id: i64,
        step: i64,
        program: Option<&str>,
        prompt: &str,
        lang: Lang,
    ) -> Modal {
        let prompt = one_line(prompt, 200);
        let title = match program {
            Some(program) => {
                i18n::tr_args(lang, "chargen-modal-title", &[("program", program.into())])
            }
            None => i18n::tr(lang, "chargen-modal-title-plain"),
        };
        Modal {
            custom_id: ChargenId::Modal { session_id, step }.encode(),
            title: truncate(&title, 45),
            inputs: vec![TextInput {
                custom_id: ANSWER_FIELD.to_owned(),
                label: modal_label(&prompt, lang),
                style: TextInputStyle::Short,
                placeholder: (prompt.chars().count() > 45).then(|| truncate(&prompt, 100)),
                required: false,
                max_length: u16::try_from(self.settings.max_answer_len).unwrap_or(4000),
            }],
        }
    }

    async fn chargen_cancel(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let Some(row) = self
            .storage
            .session_of(request.user.id, request.place())
            .await?
        else {
            return Ok(ephemeral(no_session(lang)));
        };
        if !self.storage.delete_session(row.id, None).await? {
            return Ok(ephemeral(no_session(lang)));
        }
        let stored = self.storage.session_character_names(row.id).await?;
        let mut replies = ephemeral(i18n::tr_args(
            lang,
            "chargen-cancelled",
            &[
                ("program", row.program.as_str().into()),
                ("stored", stored_text(lang, &stored).into()),
            ],
        ));
        let table = self.language(request, true).await?;
        replies.extend(closed_edit(
            &row,
            &i18n::tr(table, "chargen-closed-cancelled"),
        ));
        Ok(replies)
    }

    async fn chargen_status(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let Some(row) = self
            .storage
            .session_of(request.user.id, request.place())
            .await?
        else {
            return Ok(ephemeral(no_session(lang)));
        };
        let now = self.now();
        if row.expires_at <= now {
            let table = self.language(request, true).await?;
            let mut replies = self.expire_session(&row, table).await?;
            replies.insert(0, Reply::Interaction(Message::ephemeral(no_session(lang))));
            return Ok(replies);
        }
        let stored = self.storage.session_character_names(row.id).await?.len();
        let message = Message::ephemeral(i18n::tr_args(
            lang,
            "chargen-status",
            &[
                ("stored", stored.into()),
                ("program", row.program.as_str().into()),
                ("age", i18n::duration(lang, now - row.created_at).into()),
                ("answers", row.step.into()),
                ("prompt", code_block(&row.prompt_content).into()),
                (
                    "remaining",
                    i18n::duration(lang, row.expires_at - now).into(),
                ),
            ],
        ))
        .with_row(answer_row(row.id, row.step, lang));
        Ok(vec![Reply::Interaction(message)])
    }

    /// `/chargen`'s part of the sweep: expired sessions end with a notice, and
    /// installs waiting for "Install anyway" (whole listings) are forgotten.
    async fn chargen_sweep(&self, now: i64) -> anyhow::Result<Vec<Reply>> {
        let replies = self.expire_sessions(now).await?;
        self.purge_pending_installs(now).await?;
        Ok(replies)
    }

    /// Ends expired sessions, with a notice in their channels.
    async fn expire_sessions(&self, now: i64) -> anyhow::Result<Vec<Reply>> {
        let mut replies = Vec::new();
        // Bounded per sweep; the next sweep takes the rest.
        for _ in 0..10 {
            let expired = self.storage.expired_sessions(now, 100).await?;
            let batch_len = expired.len();
            for row in &expired {
                let table = self.place_language(row.guild_id).await?;
                replies.extend(self.expire_session(row, table).await?);
            }
            if batch_len < 100 {
                break;
            }
        }
        Ok(replies)
    }

    /// Ends an expired session with a notice in its channel, in `table`: the
    /// language of the channel's public messages.
    async fn expire_session(&self, row: &SessionRow, table: Lang) -> anyhow::Result<Vec<Reply>> {
        if !self.storage.delete_session(row.id, Some(row.step)).await? {
            return Ok(Vec::new());
        }
        tracing::info!(
            session = row.id,
            user = row.user_id,
            "chargen session expired"
        );
        let idle = i18n::duration(table, self.settings.session_expiry_ms);
        let stored = self.storage.session_character_names(row.id).await?;
        let mut replies = vec![Reply::Channel {
            channel_id: row.channel_id,
            message: Message::text(i18n::tr_args(
                table,
                "chargen-expired",
                &[
                    ("user", escape_markdown(&row.user_name).into()),
                    ("program", row.program.as_str().into()),
                    ("idle", idle.into()),
                    ("stored", stored_text(table, &stored).into()),
                ],
            )),
        }];
        replies.extend(closed_edit(row, &i18n::tr(table, "chargen-closed-expired")));
        Ok(replies)
    }

    /// The program a name stands for in a place, with the record map of an installed
    /// one (its text as stored; `None` for a shipped program). Without a name, the
    /// place's default. A shipped name is answered without the database: a server's
    /// program cannot take it (`check_program_name`), so no installed one has it.
    async fn find_program(
        &self,
        place: i64,
        name: Option<&str>,
    ) -> anyhow::Result<Option<FoundProgram>> {
        let name = match name.map(str::trim).filter(|name| !name.is_empty()) {
            Some(name) => name.to_owned(),
            None => match self.storage.default_program(place).await? {
                Some(name) => name,
                None => match self.engines.builtin_programs.first() {
                    Some(program) => program.name.clone(),
                    None => return Ok(None),
                },
            },
        };
        if let Some(shipped) = self.builtin_named(&name) {
            return Ok(Some(FoundProgram {
                text: shipped.clone(),
                record_map: None,
            }));
        }
        if place == 0 {
            return Ok(None);
        }
        let Some(row) = self.storage.installed_program(place, &name).await? else {
            return Ok(None);
        };
        Ok(Some(FoundProgram {
            text: ProgramText {
                name: row.name,
                source: row.source.into(),
                hash: row.source_hash,
            },
            record_map: Some(row.record_map),
        }))
    }

    /// The exact program a session started with, if it is still there.
    async fn session_program(&self, row: &SessionRow) -> anyhow::Result<Option<FoundProgram>> {
        Ok(self
            .find_program(row.guild_id, Some(&row.program))
            .await?
            .filter(|found| found.text.hash == row.program_hash))
    }

    async fn program_names(&self, place: i64) -> anyhow::Result<Vec<String>> {
        let mut names: Vec<String> = self
            .engines
            .builtin_programs
            .iter()
            .map(|program| program.name.clone())
            .collect();
        if place != 0 {
            for name in self.storage.installed_program_names(place).await? {
                if !names.iter().any(|known| known.eq_ignore_ascii_case(&name)) {
                    names.push(name);
                }
            }
        }
        Ok(names)
    }

    /// Lays out output: a new message at every page break (`CHR$(12)`), long pages
    /// split into blocks, the prompt at the end of the last one. `table` is the
    /// language of the note when the output goes into a file.
    fn pages(&self, output: &str, prompt: Option<&str>, table: Lang) -> Pages {
        let mut text = output.to_owned();
        if let Some(prompt) = prompt
            && !text.ends_with(prompt)
        {
            text.push_str(prompt);
        }
        // What is split is what the blocks show: broken up, a run of backticks grows
        // by up to half, so raw text within the budget could overflow its message.
        let mut chunks: Vec<String> = text
            .split('\x0c')
            .flat_map(|page| split_chunks(&break_fences(page), CHUNK_BUDGET))
            .filter(|chunk| !chunk.trim().is_empty())
            .collect();
        if let Some(prompt) = prompt {
            // The prompt message must exist even when the prompt is blank.
            let shown_prompt = break_fences(prompt);
            let ends_with_prompt = chunks
                .last()
                .is_some_and(|last| last.ends_with(&shown_prompt));
            if !ends_with_prompt {
                let shown = if prompt.trim().is_empty() {
                    "?".to_owned()
                } else {
                    shown_prompt
                };
                chunks.push(shown);
            }
            // The prompt message is later edited to show the answer after the
            // prompt, so it leaves room for the longest answer.
            if let Some(last) = chunks.pop() {
                chunks.extend(split_chunks(&last, self.prompt_budget()));
            }
        }
        let mut messages = Vec::new();
        let max_messages = self.settings.max_messages_per_step.max(1);
        if chunks.len() > max_messages {
            let keep_from = chunks.len() - (max_messages - 1);
            let full_text = text.replace('\x0c', "\n");
            messages.push(Message {
                content: i18n::tr(table, "chargen-output-in-file"),
                attachments: vec![FileAttachment {
                    filename: i18n::tr(table, "chargen-output-filename"),
                    bytes: full_text.into_bytes(),
                    description: Some(i18n::tr(table, "chargen-output-file-description")),
                }],
                ..Message::default()
            });
            chunks.drain(..keep_from);
        }
        let last_inner = chunks.last().cloned().unwrap_or_default();
        messages.extend(chunks.iter().map(|chunk| Message::text(code_block(chunk))));
        Pages {
            messages,
            last_inner,
        }
    }

    /// Characters of the prompt message's text: [`CHUNK_BUDGET`], or less when the
    /// longest answer, its backticks broken, would not fit after it. Two more
    /// characters are counted for the prompt's trailing backticks, which join the
    /// answer's run when the edit breaks it.
    fn prompt_budget(&self) -> usize {
        let answer = fence_broken_len(self.settings.max_answer_len + 2);
        MESSAGE_LIMIT
            .saturating_sub(FENCE_CHARS + answer)
            .clamp(PROMPT_BUDGET_MIN, CHUNK_BUDGET)
    }

    /// Channel messages for `pages`; with a session, the last carries the "Answer"
    /// button and is tracked so that replies to it answer.
    fn post_pages(
        &self,
        channel_id: i64,
        pages: Pages,
        session: Option<(i64, i64)>,
        table: Lang,
    ) -> Vec<Reply> {
        let count = pages.messages.len();
        pages
            .messages
            .into_iter()
            .enumerate()
            .map(|(index, mut message)| {
                if index + 1 == count
                    && let Some((session_id, step)) = session
                {
                    message.components.push(answer_row(session_id, step, table));
                    message.track = Some(Track::ChargenPrompt { session_id, step });
                }
                Reply::Channel {
                    channel_id,
                    message,
                }
            })
            .collect()
    }

    /// A run that failed: why, privately in `lang`; then its output in the channel,
    /// laid out in `table`'s words.
    fn failure_replies(
        &self,
        channel_id: i64,
        program: &str,
        failure: &GenFailure,
        stored: &[String],
        (lang, table): (Lang, Lang),
    ) -> Vec<Reply> {
        let kind = match failure.kind() {
            GenFailureKind::Limit => "limit",
            GenFailureKind::Load => "load",
            GenFailureKind::Restore => "restore",
            GenFailureKind::Runtime => "runtime",
        };
        gen_reason::log_if_ours(failure);
        let mut replies = vec![Reply::Interaction(Message::ephemeral(i18n::tr_args(
            lang,
            "chargen-failed",
            &[
                ("program", program.into()),
                ("kind", kind.into()),
                (
                    "reason",
                    one_line(&gen_reason::reason(lang, failure), 300).into(),
                ),
                ("stored", stored_text(lang, stored).into()),
            ],
        )))];
        // A listing that did not load and a session that could not be resumed ran
        // nothing in this step: there is no output to show.
        if matches!(
            failure.kind(),
            GenFailureKind::Load | GenFailureKind::Restore
        ) {
            return replies;
        }
        let mut transcript = failure.output.clone();
        if !transcript.is_empty() && !transcript.ends_with('\n') {
            transcript.push('\n');
        }
        transcript.push_str(&gen_reason::transcript_line(table, failure));
        let pages = self.pages(&transcript, None, table);
        replies.extend(self.post_pages(channel_id, pages, None, table));
        replies
    }

    /// The characters a step took, ready to be stored with it.
    fn new_characters(
        &self,
        request: &Request,
        taken: Vec<Taken>,
        made: &Made<'_>,
    ) -> Vec<NewCharacter> {
        let Made {
            program,
            map,
            name_inputs,
            transcript,
            table,
        } = *made;
        let now = self.now();
        let made: Vec<(Vec<(String, String)>, String)> = taken
            .into_iter()
            .map(|taken| match taken {
                // RECORD, where a program uses it, wins over any map.
                Taken::Record(fields) => {
                    let fields = fields
                        .into_iter()
                        .map(|(key, value)| (record_map::cut(&key), record_map::cut(&value)))
                        .collect();
                    (fields, String::new())
                }
                Taken::Capture(capture) => {
                    let fields = captured_fields(map, &capture, name_inputs);
                    let raw = serde_json::to_string(&capture).unwrap_or_else(|_| "[]".to_owned());
                    (fields, raw)
                }
            })
            .collect();
        made.into_iter()
            .map(|(fields, capture)| {
                let name = character_name(&fields);
                NewCharacter {
                    id: self.new_id(),
                    owner_id: request.user.id,
                    guild_id: request.place(),
                    numbered: name.is_empty(),
                    name: if name.is_empty() {
                        i18n::tr(table, "chargen-unnamed-character")
                    } else {
                        name
                    },
                    program: program.name.clone(),
                    program_hash: program.hash.clone(),
                    gold: super::fields::purse_value(&fields, super::fields::GOLD_KEYS),
                    food: super::fields::purse_value(&fields, super::fields::FOOD_KEYS),
                    fields: serde_json::to_string(&fields).unwrap_or_else(|_| "[]".to_owned()),
                    transcript: transcript.to_owned(),
                    now,
                    capture,
                }
            })
            .collect()
    }

    /// The fields of the last character a run stored, read as `/character show`
    /// reads them (through the record map: a map's raw capture names no `STR`), for
    /// the closing example; a character stored in an earlier step counts too.
    async fn last_stored_fields(
        &self,
        request: &Request,
        stored: &[String],
    ) -> anyhow::Result<Vec<(String, String)>> {
        let Some(name) = stored.last() else {
            return Ok(Vec::new());
        };
        let row = self
            .storage
            .character_named(request.user.id, request.place(), name)
            .await?;
        match row {
            Some(row) => self.character_fields(&row).await,
            None => Ok(Vec::new()),
        }
    }

    /// The characters a step stored, each "ready" at once; at the end of a run, what
    /// the whole run stored. `None` when there is nothing to say.
    fn summary(
        &self,
        channel_id: i64,
        names: &[String],
        characters: &[NewCharacter],
        ended: Option<Ended<'_>>,
        table: Lang,
    ) -> Option<Reply> {
        let mut lines = Vec::new();
        for (name, character) in names.iter().zip(characters) {
            let fields: Vec<(String, String)> =
                serde_json::from_str(&character.fields).unwrap_or_default();
            let details: Vec<String> = fields
                .iter()
                .filter(|(key, _)| !is_name_field(key))
                .take(8)
                .map(|(key, value)| format!("{} {}", one_line(key, 20), one_line(value, 40)))
                .collect();
            let name = escape_markdown(name);
            let line = if details.is_empty() {
                i18n::tr_args(table, "chargen-ready", &[("name", name.into())])
            } else {
                i18n::tr_args(
                    table,
                    "chargen-ready-with",
                    &[
                        ("name", name.into()),
                        ("fields", escape_markdown(&details.join(" · ")).into()),
                    ],
                )
            };
            lines.push(truncate(&line, 400));
        }
        if let Some(first) = names.first() {
            lines.push(i18n::tr_args(
                table,
                "chargen-see-sheet",
                &[("name", code_span_text(first, 100).into())],
            ));
        }
        if let Some(Ended {
            program,
            stored,
            fields,
        }) = ended
        {
            lines.push(i18n::tr_args(
                table,
                "chargen-finished",
                &[
                    ("program", program.into()),
                    ("stored", stored_text(table, stored).into()),
                ],
            ));
            if !stored.is_empty() {
                lines.push(super::playing::fields_hint(table, fields));
            }
        }
        if lines.is_empty() {
            return None;
        }
        Some(Reply::Channel {
            channel_id,
            message: Message::text(truncate(&lines.join("\n"), super::text::MESSAGE_LIMIT)),
        })
    }
}

/// What a step's characters are made from.
struct Made<'a> {
    program: &'a ProgramText,
    map: Option<&'a RecordMap>,
    name_inputs: &'a [String],
    transcript: &'a str,
    /// The language of the channel, which names an unnamed character.
    table: Lang,
}

/// The end of a run, for its summary: the program, every character it stored and
/// the fields of the last one (for the example of how to roll with them).
struct Ended<'a> {
    program: &'a str,
    stored: &'a [String],
    fields: &'a [(String, String)],
}

/// What a session stored, said in `lang` (`chargen-stored`): its count and the
/// first names, bold.
fn stored_text(lang: Lang, stored: &[String]) -> String {
    let mut names: Vec<String> = stored
        .iter()
        .take(STORED_NAMES_SHOWN)
        .map(|name| format!("**{}**", escape_markdown(name)))
        .collect();
    if stored.len() > STORED_NAMES_SHOWN {
        names.push("…".to_owned());
    }
    i18n::tr_args(
        lang,
        "chargen-stored",
        &[
            ("count", stored.len().into()),
            ("names", names.join(", ").into()),
        ],
    )
}

fn answer_row(session_id: i64, step: i64, lang: Lang) -> ActionRow {
    ActionRow(vec![Component::Button(Button {
        custom_id: ChargenId::Answer { session_id, step }.encode(),
        label: i18n::tr(lang, "chargen-answer-button"),
        style: ButtonStyle::Primary,
        disabled: false,
    })])
}

/// The buttons under a waiting session's prompt, as they were posted: a transport
/// that lost them (the console after a restart) shows them again.
pub(super) fn prompt_components(row: &SessionRow, table: Lang) -> Vec<ActionRow> {
    vec![answer_row(row.id, row.step, table)]
}

fn not_yours(row: &SessionRow, lang: Lang) -> Vec<Reply> {
    ephemeral(i18n::tr_args(
        lang,
        "chargen-not-yours",
        &[("user", escape_markdown(&row.user_name).into())],
    ))
}

/// The old prompt message once answered: the answer after the prompt, as a terminal
/// shows it, and no button.
fn answered_edit(row: &SessionRow, answer: &str) -> Option<Reply> {
    let message_id = row.prompt_message_id?;
    Some(Reply::Edit {
        channel_id: row.channel_id,
        message_id,
        message: Message::text(answered_block(&row.prompt_content, answer)),
    })
}

/// The prompt message's text with `answer` after the prompt, in one code block
/// within Discord's limit. The prompt message left room for the longest answer
/// (`Context::prompt_budget`); when a server allows answers longer than any room, or a
/// session was stored before that room was kept, the block shows its end after
/// "…", as a terminal scrolls, so the prompt and the answer stay in view.
fn answered_block(prompt_content: &str, answer: &str) -> String {
    let broken = break_fences(&format!("{prompt_content}{answer}"));
    let shown = broken.trim_end_matches('\n');
    let room = MESSAGE_LIMIT - FENCE_CHARS;
    let count = shown.chars().count();
    if count <= room {
        return code_block(shown);
    }
    let tail: String = shown.chars().skip(count - (room - 1)).collect();
    code_block(&format!("…{tail}"))
}

/// The prompt message of a session that ended without an answer.
fn closed_edit(row: &SessionRow, note: &str) -> Option<Reply> {
    let message_id = row.prompt_message_id?;
    Some(Reply::Edit {
        channel_id: row.channel_id,
        message_id,
        message: Message::text(format!("{}\n{note}", code_block(&row.prompt_content))),
    })
}

/// The prompt in a prompt message: the last line of text inside its monospace block.
fn prompt_line(message: &str) -> &str {
    message
        .lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty() && !line.starts_with("```"))
        .unwrap_or("")
}

/// A modal field label (at most 45 characters on Discord) from a prompt.
fn modal_label(prompt: &str, lang: Lang) -> String {
    let prompt = prompt.trim();
    if prompt.is_empty() || prompt == "?" {
        return i18n::tr(lang, "chargen-modal-label");
    }
    truncate(prompt, 45)
}

/// A captured character's fields: the map's, or (without one) every variable that
/// holds a value; then, when nothing names the character, the string the program
/// asked for after a prompt saying "NAME".
fn captured_fields(
    map: Option<&RecordMap>,
    capture: &[(String, String)],
    name_inputs: &[String],
) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = match map {
        Some(map) if !map.pairs.is_empty() => record_map::apply(map, capture),
        _ => capture
            .iter()
            .filter(|(_, value)| !value.trim().is_empty() && value.trim() != "0")
            .map(|(key, value)| (record_map::cut(key), record_map::cut(value)))
            .collect(),
    };
    if character_name(&fields).is_empty() {
        let asked = name_inputs.iter().find_map(|variable| {
            capture
                .iter()
                .find(|(name, value)| name == variable && !value.trim().is_empty())
        });
        if let Some((_, value)) = asked {
            fields.insert(0, ("NAME".to_owned(), record_map::cut(value.trim())));
        }
    }
    fields
}

/// Keeps the last [`TRANSCRIPT_MAX_BYTES`] of a transcript.
fn cap_transcript(transcript: String) -> String {
    if transcript.len() <= TRANSCRIPT_MAX_BYTES {
        return transcript;
    }
    let mut start = transcript.len() - TRANSCRIPT_MAX_BYTES;
    while !transcript.is_char_boundary(start) {
        start += 1;
    }
    format!("[earlier output omitted]\n{}", &transcript[start..])
}

/// A program found by name, with the record map of an installed one read in the same
/// row (a turn reads the `programs` row once).
struct FoundProgram {
    text: ProgramText,
    /// The installed program's record map as stored (empty for none); `None` for a
    /// shipped program.
    record_map: Option<String>,
}
