//! Scripted NPC conversations in GhulScript (Nazghul's conversation language):
//! loading and checking a script, and running a conversation one player turn
//! at a time.
//!
//! - [`load`] parses and checks a `.ghul` file and reports **every** load error
//!   with its line ([`LoadError`]); [`check`] is the same for `tavern npc check`.
//! - [`Conversation`] runs one conversation against a [`World`] (the player's
//!   gold, food, items, party, flags and parameters): [`Conversation::start`]
//!   greets (HAIL), [`Conversation::input`] feeds one player line. Each call
//!   returns a [`Turn`]: [`Event`]s as data plus the [`Prompt`] the NPC now
//!   waits for (menu choices with costs, trade items with names and prices).
//! - [`play`] is the `tavern npc play` protocol as a pure function.
//! - [`effects`] is spell effects (issue 14): the `ELEMENTS` / `EFFECT`
//!   language, the effect engine over a serde [`effects::Encounter`], and the
//!   `tavern effects play` protocol. A conversation's `APPLY_EFFECT` becomes
//!   [`Event::ApplyEffect`]; [`load_against`] checks it against a library.
//!
//! The rulings of issue 7 (X, G, K, L, S, F, N, A, P, Y, M, T, I, C, E, R, B, Z)
//! are the specification; the crate README summarises them.
//!
//! # Design
//!
//! The crate does no I/O and holds no global state: the host stores two plain
//! serde values, the [`World`] per (server, player) and a waiting
//! [`Conversation`], and loads them back for the next turn, even after a
//! restart. A conversation is an explicit stack of frames indexing into the
//! script's tables, never a suspended Rust call stack, which is what makes it
//! storable. Every turn is bounded: at most 10,000 statements between two
//! prompts (Z1) and a cap on what one turn may say; a turn stopped by a limit
//! is discarded whole and leaves the world as it was (Z2), because the engine
//! runs each turn on copies and commits them only on success. Loading is
//! bounded too (source size, nesting, error count), and every graph walk is
//! iterative, so no script can overflow the stack.
//!
//! # Example
//!
//! ```
//! use npc_core::{Conversation, Prompt, World, load};
//!
//! let script = load(r#"
//!     CONV c_guard { NATIVE { HAIL r_hail JOB r_job } }
//!     RESP r_hail { SAY "Halt!" }
//!     RESP r_job { SAY "I guard the gate." GIVE_ITEM t_pass }
//! "#).expect("the script loads");
//!
//! let mut world = World::default();
//! let (mut talk, turn) =
//!     Conversation::start(&script, "guard", "c_guard", "Guard", &mut world).unwrap();
//! assert_eq!(turn.events[1].to_line(), "Guard: Halt!");
//! assert_eq!(turn.prompt, Prompt::Keyword);
//!
//! let turn = talk.input(&script, "jobs?", &mut world); // "jobs" != "job": K2
//! assert_eq!(turn.events[0].to_line(), "* No reply.");
//! let turn = talk.input(&script, "Job", &mut world);
//! assert_eq!(turn.events[1].to_line(), "* You receive 1 pass.");
//! assert_eq!(world.item_count("t_pass"), 1);
//!
//! // The same exchange through the play protocol:
//! let transcript = npc_core::play(
//!     "CONV c { NATIVE { HAIL r } } RESP r { SAY \"Hi.\" }",
//!     "@talk npc c Nia\nbye\n",
//! );
//! assert_eq!(transcript, "[talk Nia]\nNia: Hi.\n> bye\n[end bye]\n");
//! ```

mod check;
pub mod effects;
mod engine;
mod error;
mod event;
mod lexer;
mod limits;
mod parser;
mod play;
mod script;
mod words;
mod world;

use std::sync::atomic::{AtomicBool, Ordering};

pub use engine::{Conversation, UnknownConversation, first_word};
pub use error::{LoadError, LoadErrorKind, LoadMessage, MessageArg, MessageId};
pub use event::{EndReason, Event, MenuChoice, Prompt, TradeItem, Turn};
pub use limits::Limits;
pub use play::play;
pub use script::{EffectRef, Script};
pub use words::{element_word, item_display_name};
pub use world::{FIRST_GLOBAL_FLAG, Flags, World};

/// Loads a script with [`Limits::default`]: every load error, sorted by line, or the script.
pub fn load(source: &str) -> Result<Script, Vec<LoadError>> {
    load_with(source, &Limits::default())
}

/// Loads a script under the given limits. `APPLY_EFFECT` tags are not checked
/// (no effect library is known): see [`load_against`] and [`Script::unknown_effects`].
pub fn load_with(source: &str, limits: &Limits) -> Result<Script, Vec<LoadError>> {
    load_inner(source, limits, None, None)
}

/// [`load_with`] with a flag the host raises (from another thread, at its deadline)
/// when it no longer wants the script: the load stops at its next definition or
/// phase with the one error [`MessageId::LoadCancelled`].
pub fn load_cancellable(
    source: &str,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Script, Vec<LoadError>> {
    load_inner(source, limits, None, Some(cancel))
}

/// Loads a script and checks every `APPLY_EFFECT` against `library`: an
/// unknown effect is a load error, reported with the script's other errors.
pub fn load_against(
    source: &str,
    limits: &Limits,
    library: &effects::EffectLibrary,
) -> Result<Script, Vec<LoadError>> {
    load_inner(source, limits, Some(library), None)
}

fn load_inner(
    source: &str,
    limits: &Limits,
    library: Option<&effects::EffectLibrary>,
    cancel: Option<&AtomicBool>,
) -> Result<Script, Vec<LoadError>> {
    if source.len() > limits.max_source_bytes {
        return Err(vec![LoadError::said(
            LoadErrorKind::TooLarge,
            1,
            1,
            MessageId::ScriptTooLarge,
            [
                ("bytes", source.len().into()),
                ("max", limits.max_source_bytes.into()),
            ],
        )]);
    }
    let mut errors = Vec::new();
    let tokens = lexer::tokenize(source, limits.max_errors, &mut errors);
    let parsed = parser::parse(&tokens, limits, &mut errors, cancel).ok_or_else(cancelled)?;
    // Each phase is linear in the script, bounded by its size: checked between them.
    if is_cancelled(cancel) {
        return Err(cancelled());
    }
    check::check(&parsed, &mut errors);
    if is_cancelled(cancel) {
        return Err(cancelled());
    }
    if let Some(library) = library {
        errors.extend(script::unknown_effects(&parsed.effect_refs, library));
    }
    if errors.is_empty()
        && let Some(script) = check::build(parsed, script::stable_hash(source), limits)
    {
        return Ok(script);
    }
    Err(finish_errors(errors, limits.max_errors))
}

/// Every load error of `source` (empty when it loads): `tavern npc check`.
/// Each error's `Display` is the line `line N: message`.
pub fn check(source: &str) -> Vec<LoadError> {
    match load(source) {
        Ok(_) => Vec::new(),
        Err(errors) => errors,
    }
}

/// Whether the host raised the cancel flag of a load or command.
pub(crate) fn is_cancelled(cancel: Option<&AtomicBool>) -> bool {
    cancel.is_some_and(|flag| flag.load(Ordering::Relaxed))
}

/// The one error of a cancelled load.
pub(crate) fn cancelled() -> Vec<LoadError> {
    vec![LoadError::said(
        LoadErrorKind::Cancelled,
        1,
        1,
        MessageId::LoadCancelled,
        [],
    )]
}

pub(crate) fn finish_errors(mut errors: Vec<LoadError>, max_errors: usize) -> Vec<LoadError> {
    if errors.is_empty() {
        // The checks report whatever keeps a script from building; this is a
        // safety net, not an expected path.
        errors.push(LoadError::said(
            LoadErrorKind::Syntax,
            1,
            1,
            MessageId::NotLoaded,
            [],
        ));
    }
    errors.sort_by_key(|error| (error.line, error.column));
    errors.dedup();
    if errors.len() > max_errors {
        errors.truncate(max_errors);
        let last_line = errors.last().map(|e| e.line).unwrap_or(1);
        errors.push(LoadError::said(
            LoadErrorKind::TooManyErrors,
            last_line,
            1,
            MessageId::TooManyErrors,
            [("max", max_errors.into())],
        ));
    }
    errors
}
