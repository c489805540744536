//! The authoring operations the commands and the web dashboard share: checking and
//! installing a generator listing, checking an NPC script or an effect file, trying
//! a generator and playing an NPC in a scratch world. There is one implementation of
//! each; `/chargen program add` words its outcome as a message, the web's editors
//! mark it in the listing (issue 25).

use std::sync::Arc;

use basic_runner::LoadErrorDetail;

use super::context::Context;
use super::gen_reason;
use super::record_map;
use super::text::one_line;
use super::{Core, Reply, Request};
use crate::engine::worker::WorkError;
use crate::engine::{GenFailure, GenFailureKind, GenReason, GenState, ProgramCheck, ProgramText};
use crate::engine::{Taken, program_hash};
use crate::i18n::{self, Lang};
use crate::storage::NewProgram;

/// Longest program name.
pub const MAX_NAME_LEN: usize = 32;

/// A problem at a place of a text: for a listing `line` is the BASIC line number,
/// for a script the 1-based line of the file; `column` is 1-based, in characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marked {
    pub line: Option<u32>,
    pub column: Option<usize>,
    /// What is wrong, in the reader's language.
    pub text: String,
}

/// A record map next to a listing: none given, one that fits (as stored), or why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapVerdict {
    None,
    Fits(String),
    DoesNotFit(String),
}

/// What checking a listing found, the way `/chargen program add` checks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingReport {
    /// Lines of the program (0 when it does not load).
    pub lines: usize,
    /// Every syntax error: the program installs with them only when confirmed.
    pub syntax_errors: Vec<Marked>,
    /// Why the listing cannot be installed at all (refused statements, limits):
    /// every refused statement at its line.
    pub refusals: Vec<Marked>,
    pub map: MapVerdict,
}

impl ListingReport {
    /// Whether nothing at all was found.
    pub fn is_clean(&self) -> bool {
        self.syntax_errors.is_empty()
            && self.refusals.is_empty()
            && !matches!(self.map, MapVerdict::DoesNotFit(_))
    }

    fn refused(text: String) -> ListingReport {
        ListingReport {
            lines: 0,
            syntax_errors: Vec::new(),
            refusals: vec![Marked {
                line: None,
                column: None,
                text,
            }],
            map: MapVerdict::None,
        }
    }
}

/// What an install did.
#[derive(Debug)]
pub enum Install {
    /// Nothing was stored; the sentence says why.
    Refused(String),
    /// Stored; the sentence says what was installed.
    Installed(String),
    /// The listing loads with syntax errors: it is stored only when the admin
    /// confirms (the command's "Install anyway", the web's checkbox).
    Unconfirmed(Box<Unconfirmed>),
}

/// A listing that loads with syntax errors, waiting for the admin's confirmation.
#[derive(Debug)]
pub struct Unconfirmed {
    pub program: NewProgram,
    pub check: ProgramCheck,
}

/// What a try of a generator showed: its screen and then its question, its end, or
/// the error that stopped it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TryRun {
    pub output: String,
    pub end: TryEnd,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TryEnd {
    /// Waiting at an `INPUT` with this prompt.
    Asks(String),
    /// The program ended; the characters it took, each as its fields.
    Finished(Vec<Vec<(String, String)>>),
    /// The run stopped: why, in the reader's language.
    Failed(String),
}

/// The most answers a try replays (a generator asks far fewer questions).
pub const MAX_TRY_ANSWERS: usize = 500;

/// The text of the first message among `replies` (a refusal worded for a command).
fn text_of(replies: Vec<Reply>) -> String {
    replies
        .into_iter()
        .find_map(|reply| match reply {
            Reply::Interaction(message) | Reply::Update(message) => Some(message.content),
            _ => None,
        })
        .unwrap_or_default()
}

/// A listing's check turned into marks in `lang`; `map_text` is checked against it.
pub fn listing_report(
    lang: Lang,
    check: &Result<ProgramCheck, GenFailure>,
    map_text: Option<&str>,
) -> ListingReport {
    let check = match check {
        Ok(check) => check,
        Err(failure) => {
            let refusals = match &failure.reason {
                GenReason::Load {
                    refusals,
                    problem: _,
                    line: _,
                } if !refusals.is_empty() => refusals
                    .iter()
                    .map(|refusal| {
                        let problem = LoadErrorDetail::Refused {
                            keyword: refusal.keyword,
                            category: refusal.category,
                        };
                        Marked {
                            line: Some(refusal.line),
                            column: None,
                            text: gen_reason::load_reason(lang, &problem, Some(refusal.line)),
                        }
                    })
                    .collect(),
                GenReason::Load { problem, line, .. } => vec![Marked {
                    line: *line,
                    column: None,
                    text: gen_reason::load_reason(lang, problem, *line),
                }],
                _ => vec![Marked {
                    line: None,
                    column: None,
                    text: one_line(&gen_reason::reason(lang, failure), 500),
                }],
            };
            return ListingReport {
                lines: 0,
                syntax_errors: Vec::new(),
                refusals,
                map: MapVerdict::None,
            };
        }
    };
    let syntax_errors = check
        .syntax_errors
        .iter()
        .map(|error| Marked {
            line: Some(error.line),
            column: Some(error.column),
            text: gen_reason::syntax_problem(lang, &error.problem),
        })
        .collect();
    let map = match map_text.map(str::trim).filter(|text| !text.is_empty()) {
        None => MapVerdict::None,
        Some(text) => match map_fits(text, check) {
            Ok(map) => MapVerdict::Fits(map.to_string()),
            Err(problem) => MapVerdict::DoesNotFit(problem.text(lang)),
        },
    };
    ListingReport {
        lines: check.lines,
        syntax_errors,
        refusals: Vec::new(),
        map,
    }
}

/// npc-core's load errors as marks in `lang`.
fn script_marks(lang: Lang, errors: &[npc_core::LoadError]) -> Vec<Marked> {
    errors
        .iter()
        .map(|error| Marked {
            line: Some(error.line),
            column: usize::try_from(error.column).ok(),
            text: super::scripts::load_message(lang, error),
        })
        .collect()
}

impl Context {
    /// The engine's check of a listing (a load: its lines, variables and syntax
    /// errors), on an engine worker under the time limit, since its cost grows with
    /// the listing.
    pub(crate) async fn check_listing(
        &self,
        source: &str,
    ) -> Result<Result<ProgramCheck, GenFailure>, WorkError> {
        let generators = self.engines.generators.clone();
        let source = source.to_owned();
        self.workers
            .run("program-check", move || generators.check(&source))
            .await
    }

    /// The shipped program named `name` (a server's cannot take its name).
    pub(crate) fn builtin_named(&self, name: &str) -> Option<&crate::engine::ProgramText> {
        self.engines
            .builtin_programs
            .iter()
            .find(|program| program.name.eq_ignore_ascii_case(name))
    }

    /// Whether `name` may name a server's program, else why not (in `lang`).
    pub(crate) fn check_program_name(&self, name: &str, lang: Lang) -> Result<(), String> {
        let shaped = !name.is_empty()
            && name.chars().count() <= MAX_NAME_LEN
            && name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
        if !shaped {
            return Err(i18n::tr_args(
                lang,
                "programs-bad-name",
                &[
                    ("name", one_line(name, 40).replace('`', "'").into()),
                    ("max", MAX_NAME_LEN.into()),
                ],
            ));
        }
        if self.builtin_named(name).is_some() {
            return Err(i18n::tr_args(
                lang,
                "programs-name-shipped",
                &[("name", name.into())],
            ));
        }
        Ok(())
    }

    /// `/chargen program add` and the web's "Save": checks `source` (and `map_text`)
    /// as a run would load it and installs it as `name` in the request's server.
    /// With syntax errors it installs only when `confirmed`; the report says what
    /// the check found (`None` when it did not get that far).
    pub(crate) async fn install_program(
        &self,
        request: &Request,
        name: &str,
        source: String,
        map_text: Option<&str>,
        confirmed: bool,
        lang: Lang,
    ) -> anyhow::Result<(Install, Option<ListingReport>)> {
        let refused = |text: String| Ok((Install::Refused(text), None));
        if request.guild_id.is_none() {
            return refused(super::access::not_in_dms(lang));
        }
        if !self.may_administer(request).await? {
            let what = i18n::tr(lang, "programs-may-install");
            return refused(text_of(self.not_allowed_in(lang, request, &what).await?));
        }
        if let Err(problem) = self.check_program_name(name, lang) {
            return refused(problem);
        }
        let guild_id = request.place();
        if source.trim().is_empty() {
            return refused(i18n::tr(lang, "programs-empty"));
        }
        let max_bytes = self.settings.max_program_bytes;
        if source.len() > max_bytes {
            return refused(too_large(max_bytes, lang));
        }
        let installed = self.storage.installed_program(guild_id, name).await?;
        let replacing = installed.is_some();
        if !replacing {
            let count = self.storage.count_programs(guild_id).await?;
            if count >= i64::from(self.settings.max_programs) {
                return refused(i18n::tr_args(
                    lang,
                    "programs-too-many",
                    &[("count", count.into())],
                ));
            }
        }
        let check = match self.check_listing(&source).await {
            Ok(check) => check,
            Err(error) => {
                return refused(text_of(check_overrun(name, error, lang)?));
            }
        };
        let report = listing_report(lang, &check, map_text);
        let check = match check {
            Ok(check) => check,
            Err(failure) if failure.kind() == GenFailureKind::Load => {
                gen_reason::log_if_ours(&failure);
                let text = i18n::tr_args(
                    lang,
                    "programs-not-installed",
                    &[
                        ("program", name.into()),
                        (
                            "reason",
                            one_line(&gen_reason::reason(lang, &failure), 500).into(),
                        ),
                    ],
                );
                return Ok((Install::Refused(text), Some(report)));
            }
            Err(failure) => return Err(anyhow::anyhow!("checking a program: {failure}")),
        };
        // A map given now must fit; the map of a replaced listing is kept if it still does.
        let mut map_note = String::new();
        let record_map = match &report.map {
            MapVerdict::Fits(map) => map.clone(),
            MapVerdict::DoesNotFit(problem) => {
                let text = i18n::tr_args(
                    lang,
                    "programs-map-does-not-fit",
                    &[
                        ("program", name.into()),
                        ("problem", problem.as_str().into()),
                    ],
                );
                return Ok((Install::Refused(text), Some(report)));
            }
            MapVerdict::None => match installed.map(|row| row.record_map) {
                Some(old) if !old.trim().is_empty() => match map_fits(&old, &check) {
                    Ok(map) => map.to_string(),
                    Err(problem) => {
                        map_note = format!(
                            " {}",
                            i18n::tr_args(
                                lang,
                                "programs-old-map-dropped",
                                &[
                                    ("map", one_line(&old, 200).replace('`', "'").into()),
                                    ("problem", problem.text(lang).into()),
                                ],
                            )
                        );
                        String::new()
                    }
                },
                _ => String::new(),
            },
        };
        let program = NewProgram {
            id: self.new_id(),
            guild_id,
            name: name.to_owned(),
            source_hash: program_hash(&source),
            source,
            installed_by: request.user.id,
            installed_by_name: request.user.name.clone(),
            line_count: i64::try_from(check.lines).unwrap_or(i64::MAX),
            syntax_errors: i64::try_from(check.syntax_errors.len()).unwrap_or(i64::MAX),
            now: self.now(),
            record_map,
        };
        if !check.syntax_errors.is_empty() && !confirmed {
            return Ok((
                Install::Unconfirmed(Box::new(Unconfirmed { program, check })),
                Some(report),
            ));
        }
        self.storage.install_program(&program).await?;
        let text = installed_text(&program, replacing, lang) + &map_note;
        Ok((Install::Installed(text), Some(report)))
    }
}

impl Core {
    /// Checks a listing (and a record map against it) exactly as `/chargen program
    /// add` does before it installs, on an engine worker under the time limit.
    pub async fn check_listing(
        &self,
        lang: Lang,
        source: &str,
        map_text: Option<&str>,
    ) -> Result<ListingReport, WorkError> {
        let max_bytes = self.cx.settings.max_program_bytes;
        if source.len() > max_bytes {
            return Ok(ListingReport::refused(too_large(max_bytes, lang)));
        }
        if source.trim().is_empty() {
            return Ok(ListingReport::refused(i18n::tr(lang, "programs-empty")));
        }
        let check = self.cx.check_listing(source).await?;
        Ok(listing_report(lang, &check, map_text))
    }

    /// Installs a listing for the request's user in the request's server: the one
    /// install `/chargen program add` runs (see [`Context::install_program`]).
    pub async fn install_program(
        &self,
        request: &Request,
        name: &str,
        source: String,
        map_text: Option<&str>,
        confirmed: bool,
    ) -> anyhow::Result<(Install, Option<ListingReport>)> {
        let lang = self.cx.language(request, false).await?;
        self.cx
            .install_program(request, name, source, map_text, confirmed, lang)
            .await
    }

    /// Whether the request's member may change the server's shared things (Manage
    /// Server or the Tavern role), as every command decides it.
    pub async fn may_administer(&self, request: &Request) -> anyhow::Result<bool> {
        self.cx.may_administer(request).await
    }

    /// The programs that ship with the binary, the first the default.
    pub fn shipped_programs(&self) -> &[ProgramText] {
        &self.cx.engines.builtin_programs
    }

    /// Runs `program` in the sandbox from the start with `seed`, answering its
    /// questions with `answers` in turn, to its next question or its end, on an
    /// engine worker under the time limit. Nothing is stored: a try of the web's
    /// generator editor replays its answers on every step.
    pub async fn try_program(
        &self,
        lang: Lang,
        program: &ProgramText,
        map_text: &str,
        seed: u64,
        answers: Vec<String>,
    ) -> Result<TryRun, WorkError> {
        // A saved listing passed this at its install; an unsaved draft from the
        // editor meets it here, so a try runs nothing larger than an install would.
        let max_bytes = self.cx.settings.max_program_bytes;
        if program.source.len() > max_bytes {
            return Ok(TryRun {
                output: String::new(),
                end: TryEnd::Failed(too_large(max_bytes, lang)),
            });
        }
        let map = record_map::parse(map_text)
            .ok()
            .filter(|_| !map_text.trim().is_empty());
        let capture_line = map.as_ref().and_then(|map| map.at);
        let generators = self.cx.engines.generators.clone();
        let program = program.clone();
        let answers: Vec<String> = answers.into_iter().take(MAX_TRY_ANSWERS).collect();
        let ran = self
            .cx
            .workers
            .run("program-try", move || {
                let mut session = generators.start(&program, seed)?;
                if let Some(line) = capture_line {
                    session.capture_at_line(line);
                }
                let mut output = String::new();
                let mut step = session.resume(None);
                for answer in &answers {
                    match step {
                        Ok(ref done) if matches!(done.state, GenState::NeedsInput { .. }) => {
                            output.push_str(&done.output);
                            output.push_str(answer);
                            output.push('\n');
                        }
                        _ => break,
                    }
                    step = session.resume(Some(answer));
                }
                let taken = session.taken_since(0);
                Ok::<_, GenFailure>((output, step, taken))
            })
            .await?;
        let (mut output, step, taken) = match ran {
            Ok(ran) => ran,
            Err(failure) => {
                return Ok(TryRun {
                    output: failure.output.clone(),
                    end: TryEnd::Failed(gen_reason::reason(lang, &failure)),
                });
            }
        };
        let end = match step {
            Ok(step) => {
                output.push_str(&step.output);
                match step.state {
                    GenState::NeedsInput { prompt } => TryEnd::Asks(prompt),
                    GenState::Finished(_) => TryEnd::Finished(
                        taken
                            .into_iter()
                            .map(|taken| match (taken, &map) {
                                (Taken::Record(fields), _) => fields,
                                (Taken::Capture(variables), Some(map)) => {
                                    record_map::apply(map, &variables)
                                }
                                (Taken::Capture(variables), None) => variables,
                            })
                            .collect(),
                    ),
                }
            }
            Err(failure) => {
                output.push_str(&failure.output);
                TryEnd::Failed(gen_reason::reason(lang, &failure))
            }
        };
        Ok(TryRun { output, end })
    }

    /// Checks an NPC script as `/npc install` does: every load error, and every
    /// `APPLY_EFFECT` naming no effect of the server's effect file.
    pub async fn check_npc_script(
        &self,
        lang: Lang,
        guild_id: i64,
        name: &str,
        source: &str,
    ) -> anyhow::Result<Result<Vec<Marked>, String>> {
        let script = match self.cx.npc_load(source).await {
            Ok(Ok(script)) => script,
            Ok(Err(errors)) => return Ok(Ok(script_marks(lang, &errors))),
            Err(error) => {
                let what = i18n::tr_args(lang, "npc-work-checking", &[("name", name.into())]);
                return Ok(Err(text_of(super::overrun_in(lang, &what, error)?)));
            }
        };
        let library = match self.cx.effect_library(guild_id).await? {
            Some(library) => library,
            None => Arc::new(npc_core::effects::EffectLibrary::empty()),
        };
        Ok(Ok(script_marks(lang, &script.unknown_effects(&library))))
    }

    /// Checks an effect file as `/effect install` does: every load error.
    pub async fn check_effect_file(
        &self,
        lang: Lang,
        source: &str,
    ) -> anyhow::Result<Result<Vec<Marked>, String>> {
        match self.cx.load_library(source).await {
            Ok(Ok(_)) => Ok(Ok(Vec::new())),
            Ok(Err(errors)) => Ok(Ok(script_marks(lang, &errors))),
            Err(error) => {
                let what = i18n::tr(lang, "effect-work-checking");
                Ok(Err(text_of(super::overrun_in(lang, &what, error)?)))
            }
        }
    }

    /// Talks to an NPC script as `tavern npc play` does: the play protocol's
    /// `input` (directives and player lines) against a scratch world, nothing
    /// stored; the transcript, on an engine worker under the time limit.
    pub async fn play_npc(&self, source: &str, input: &str) -> Result<String, WorkError> {
        let source = source.to_owned();
        let input = input.to_owned();
        self.cx
            .workers
            .run("npc-play", move || npc_core::play(&source, &input))
            .await
    }

    /// Plays an effect file as `tavern effects play` does, one directive a line.
    pub async fn play_effects(&self, source: &str, input: &str) -> Result<String, WorkError> {
        let source = source.to_owned();
        let input = input.to_owned();
        self.cx
            .workers
            .run("effects-play", move || {
                let mut session = match npc_core::effects::EffectPlay::new(&source) {
                    Ok(session) => session,
                    Err(errors) => return errors,
                };
                input.lines().map(|line| session.line(line)).collect()
            })
            .await
    }
}

pub(crate) fn too_large(max_bytes: usize, lang: Lang) -> String {
    i18n::tr_args(
        lang,
        "programs-too-large",
        &[("max_bytes", max_bytes.into())],
    )
}

/// Checking a listing gave no answer in time.
pub(crate) fn check_overrun(
    name: &str,
    error: WorkError,
    lang: Lang,
) -> anyhow::Result<Vec<Reply>> {
    let what = i18n::tr_args(lang, "programs-overrun-check", &[("program", name.into())]);
    super::overrun_in(lang, &what, error)
}

/// A map parsed and checked against a listing's facts, or the reason it does not fit.
pub(crate) fn map_fits(
    map_text: &str,
    check: &ProgramCheck,
) -> Result<super::record_map::RecordMap, super::record_map::MapError> {
    let map = record_map::parse(map_text)?;
    let has_line = |line: u32| check.line_numbers.binary_search(&line).is_ok();
    record_map::check(
        &map,
        &record_map::ProgramFacts {
            has_line: &has_line,
            assigned: &check.assigned_variables,
        },
    )?;
    Ok(map)
}

pub(crate) fn installed_text(program: &NewProgram, replacing: bool, lang: Lang) -> String {
    let mut sentences = vec![i18n::tr_args(
        lang,
        "programs-installed",
        &[
            ("replaced", if replacing { "yes" } else { "no" }.into()),
            ("program", program.name.as_str().into()),
            ("lines", program.line_count.into()),
            ("errors", program.syntax_errors.into()),
        ],
    )];
    if replacing {
        sentences.push(i18n::tr(lang, "programs-replaced-sessions-end"));
    }
    if !program.record_map.is_empty() {
        sentences.push(i18n::tr_args(
            lang,
            "programs-installed-map",
            &[("map", program.record_map.as_str().into())],
        ));
    }
    sentences.join(" ")
}
