//! GhulScript texts as the commands and the editors read them (a room below the
//! commands): where a script comes from (`script_source`, an attachment or a pasted
//! block, with its [`SourceKind`]), its load on an engine worker under the time limit
//! (`npc_load` for an NPC's script, `load_library` for a server's effect file), and
//! the wording of its load errors in the reader's language ([`load_error_replies`],
//! [`load_message`]). `/npc install`, `/effect install`, `/talk`, the NPC turn and the
//! editors' checks all load through here, so a script loads one way.

use std::sync::Arc;

use npc_core::effects::EffectLibrary;
use npc_core::{LoadError, LoadMessage, MessageArg, MessageId, Script};

use super::context::Context;
use super::text::{FenceTag, code_block, code_span_text, one_line, strip_code_fences, truncate};
use super::{Command, FileAttachment, Message, OptionValue, Reply};
use crate::engine::worker::WorkError;
use crate::i18n::{self, Lang};

/// The language tags a pasted script's code block may open with (```ghul).
const SCRIPT_TAGS: FenceTag = FenceTag::Known(&["ghul", "ghulscript", "txt", "text"]);
/// The most of a script's name a load error's header shows: as long as an NPC's
/// install name may be.
const SHOWN_NAME_CHARS: usize = 32;

/// Load errors shown in the answer itself; all of them are in the attached file.
const ERROR_BUDGET: usize = 1700;
/// A load error's line and caret longer than this (a long line) are shown as a
/// window of the line, so that the first error always fits the answer.
const CARET_CHARS: usize = 400;
/// Characters of an error's own message shown under its caret: with the longest
/// caret, still within [`ERROR_BUDGET`].
const CARET_MESSAGE_CHARS: usize = 800;

/// What a script's text is, for the wording of its errors: the `noun` of
/// `npc-source-*` and `npc-load-failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SourceKind {
    /// An NPC's GhulScript.
    Script,
    /// A server's effect file.
    Effects,
}

impl SourceKind {
    fn noun(self) -> &'static str {
        match self {
            SourceKind::Script => "script",
            SourceKind::Effects => "effect",
        }
    }
}

impl Context {
    /// A GhulScript file's text from the `file` attachment or the `code` option;
    /// `kind` names it in the answers (in `lang`).
    pub(crate) async fn script_source(
        &self,
        lang: Lang,
        command: &Command,
        kind: SourceKind,
    ) -> Result<String, String> {
        let max_bytes = self.settings.npc_max_script_bytes;
        let noun = ("noun", i18n::Arg::from(kind.noun()));
        let just_noun = std::slice::from_ref(&noun);
        let too_large = || {
            i18n::tr_args(
                lang,
                "npc-source-too-large",
                &[noun.clone(), ("max_bytes", max_bytes.into())],
            )
        };
        let bytes = match (command.option("file"), command.string("code")) {
            (Some(_), Some(_)) => return Err(i18n::tr_args(lang, "npc-source-both", just_noun)),
            (
                Some(OptionValue::Attachment {
                    filename,
                    url,
                    size,
                }),
                None,
            ) => {
                if !filename.to_lowercase().ends_with(".ghul") {
                    return Err(i18n::tr_args(
                        lang,
                        "npc-source-not-ghul",
                        &[noun.clone(), ("file", code_span_text(filename, 100).into())],
                    ));
                }
                if *size > max_bytes as u64 {
                    return Err(too_large());
                }
                self.fetch.fetch(url, max_bytes).await.map_err(|error| {
                    i18n::tr_args(
                        lang,
                        "npc-source-unreadable",
                        &[noun.clone(), ("error", error.to_string().into())],
                    )
                })?
            }
            (None, Some(code)) => strip_code_fences(code, SCRIPT_TAGS).into_bytes(),
            _ => return Err(i18n::tr_args(lang, "npc-source-missing", just_noun)),
        };
        if bytes.len() > max_bytes {
            return Err(too_large());
        }
        let source = String::from_utf8(bytes)
            .map_err(|_| i18n::tr_args(lang, "npc-source-not-utf8", just_noun))?;
        if source.trim().is_empty() {
            return Err(i18n::tr_args(lang, "npc-source-empty", just_noun));
        }
        Ok(source)
    }

    /// Loads a script on an engine worker, under the time limit, unless it was
    /// loaded before.
    pub(crate) async fn npc_load(
        &self,
        source: &str,
    ) -> Result<Result<Arc<Script>, Vec<LoadError>>, WorkError> {
        if let Some(script) = self.npc_scripts.cached(source) {
            return Ok(Ok(script));
        }
        let source = source.to_owned();
        let scripts = self.npc_scripts.clone();
        self.workers
            .run("npc-load", move || scripts.load(&source))
            .await
    }

    /// Loads an effect file on an engine worker, under the time limit: the library,
    /// or every load error.
    pub(crate) async fn load_library(
        &self,
        source: &str,
    ) -> Result<Result<Arc<EffectLibrary>, Vec<LoadError>>, WorkError> {
        let source = source.to_owned();
        let libraries = self.effect_libraries.clone();
        self.workers
            .run("effects-load", move || libraries.load(&source))
            .await
    }
}

/// Every load error, with its line and a caret, in one answer; all of them also as a
/// file when they do not fit.
pub(crate) fn load_error_replies(
    lang: Lang,
    name: &str,
    kind: SourceKind,
    source: &str,
    errors: &[npc_core::LoadError],
) -> Vec<Reply> {
    let header = i18n::tr_args(
        lang,
        "npc-load-failed",
        &[
            ("name", one_line(name, SHOWN_NAME_CHARS).into()),
            ("noun", kind.noun().into()),
            ("count", errors.len().into()),
        ],
    );
    let carets: Vec<String> = errors
        .iter()
        .map(|error| caret(lang, error, source))
        .collect();
    let full = carets.join("\n\n");
    let mut shown = String::new();
    let mut shown_count = 0;
    for caret in &carets {
        let next_len = shown.chars().count() + caret.chars().count() + 2;
        if next_len > ERROR_BUDGET {
            break;
        }
        if !shown.is_empty() {
            shown.push_str("\n\n");
        }
        shown.push_str(caret);
        shown_count += 1;
    }
    let mut message = Message::ephemeral(format!("{header}\n{}", code_block(&shown)));
    if shown_count < carets.len() {
        message.content.push('\n');
        message.content.push_str(&i18n::tr_args(
            lang,
            "npc-load-more",
            &[("count", (carets.len() - shown_count).into())],
        ));
        let listing: Vec<String> = errors
            .iter()
            .map(|error| load_error_line(lang, error))
            .collect();
        message.attachments.push(FileAttachment {
            filename: i18n::tr(lang, "npc-load-filename"),
            bytes: format!("{full}\n\n{}\n", listing.join("\n")).into_bytes(),
            description: Some(i18n::tr(lang, "npc-load-file-description")),
        });
    }
    vec![Reply::Interaction(message)]
}

/// `line N: message` of a load error, in `lang`.
fn load_error_line(lang: Lang, error: &LoadError) -> String {
    i18n::tr_args(
        lang,
        "npc-load-at",
        &[
            ("line", error.line.into()),
            ("message", load_message(lang, error).into()),
        ],
    )
}

/// What a load error says, in `lang`: its message id's text (`npc-load-<id>`) with
/// its parameters.
pub fn load_message(lang: Lang, error: &LoadError) -> String {
    worded(lang, &error.detail)
}

/// A message of npc-core in `lang`; a phrase among its parameters (what a syntax
/// error expected or found) is worded first.
fn worded(lang: Lang, message: &LoadMessage) -> String {
    let args: Vec<(&str, i18n::Arg<'_>)> = message
        .args
        .iter()
        .map(|(name, value)| {
            let value = match value {
                MessageArg::Text(text) => i18n::Arg::from(text),
                MessageArg::Integer(number) => i18n::Arg::from(*number),
                MessageArg::Phrase(phrase) => i18n::Arg::from(worded(lang, phrase)),
                // dice-core's English, worded as its errors are everywhere else.
                MessageArg::DiceReason { english, reason } => i18n::Arg::from(
                    match (lang, reason) {
                        (Lang::En, _) => Some(english.clone()),
                        (_, Some(reason)) => {
                            crate::engine::dice_reason::from_catalogue(lang, reason)
                        }
                        (_, None) => None,
                    }
                    .unwrap_or_else(|| i18n::tr(lang, "npc-load-dice-reason-unknown")),
                ),
            };
            (name.as_str(), value)
        })
        .collect();
    i18n::tr_args(lang, &load_message_key(message.id), &args)
}

/// The catalogue key of a load error's message id.
pub fn load_message_key(id: MessageId) -> String {
    format!("npc-load-{}", id.name())
}

/// The error's line with a caret under its place, and the error in `lang`: the line
/// as npc-core draws it (tabs kept, so the caret stands under the place), or for a
/// line too long for an answer, a window of the line around the place.
fn caret(lang: Lang, error: &LoadError, source: &str) -> String {
    let message = truncate(&load_error_line(lang, error), CARET_MESSAGE_CHARS);
    let pointer = error.pointer(source);
    if pointer.chars().count() <= CARET_CHARS {
        return format!("{pointer}\n{message}");
    }
    let line_index = usize::try_from(error.line.saturating_sub(1)).unwrap_or(usize::MAX);
    let line_start: usize = source
        .split_inclusive('\n')
        .take(line_index)
        .map(str::len)
        .sum();
    let line = source[line_start..].lines().next().unwrap_or("");
    let column = usize::try_from(error.column.saturating_sub(1)).unwrap_or(usize::MAX);
    let at = line
        .char_indices()
        .nth(column)
        .map_or(line.len(), |(index, _)| index);
    let lines = crate::engine::dice::caret_lines(source, line_start + at, line_start + at);
    format!("{lines}\n{message}")
}
