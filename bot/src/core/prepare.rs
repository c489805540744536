//! Roll preparation, shared by `/roll`, `/odds`, rolls for the GM and encounters:
//! what a user asked to roll becomes an expression with its macros looked up and the
//! `@FIELD`s of the character played here ([`Prepared`]).

use std::collections::{BTreeMap, BTreeSet};

use super::context::Context;
use super::fields;
use super::naming::is_name_shaped;
use super::{Reply, Request, ephemeral};
use crate::engine::RollContext;
use crate::i18n;
use crate::storage::{SERVER_OWNER, name_key};

/// Rounds of lookups for macros used by macros; a deeper chain is past
/// `dice-core`'s expansion limit anyway.
const MAX_LOOKUP_ROUNDS: usize = 128;
/// Distinct macro names looked up for one roll.
const MAX_LOOKUP_NAMES: usize = 512;

/// An expression ready to roll: its text (a bare macro name became `$name`) and what
/// its references stand for.
pub(crate) struct Prepared {
    pub expr: String,
    /// The expression without its label, for the answer's header.
    pub asked: String,
    pub context: RollContext,
    /// Whose `@FIELD`s the roll used, to say so in the answer.
    pub character: Option<String>,
}

impl Context {
    /// Macro texts by lower-case name for `names` and the macros they use, as
    /// `viewer` sees them (their own shadowing the server's; `None`: the server's
    /// only). `replacing` stands in for a macro about to be saved.
    pub(crate) async fn lookup_macros(
        &self,
        place: i64,
        viewer: Option<i64>,
        names: &[String],
        replacing: Option<(&str, &str)>,
    ) -> anyhow::Result<BTreeMap<String, String>> {
        let mut texts: BTreeMap<String, String> = BTreeMap::new();
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut pending: Vec<String> = Vec::new();
        for name in names {
            let key = name.to_lowercase();
            if seen.insert(key.clone()) {
                pending.push(key);
            }
        }
        for _ in 0..MAX_LOOKUP_ROUNDS {
            if pending.is_empty() {
                break;
            }
            let mut found: BTreeMap<String, (bool, String)> = BTreeMap::new();
            if let Some((name, expr)) = replacing {
                let key = name_key(name);
                if pending.contains(&key) {
                    found.insert(key, (true, expr.to_owned()));
                }
            }
            let rows = self
                .storage
                .macros_named(place, viewer.unwrap_or(SERVER_OWNER), &pending)
                .await?;
            for row in rows {
                let key = name_key(&row.name);
                let personal = !row.is_server();
                match found.get(&key) {
                    Some((true, _)) => {}
                    Some((false, _)) if !personal => {}
                    _ => {
                        found.insert(key, (personal, row.expr));
                    }
                }
            }
            let mut next = Vec::new();
            for (key, (_, text)) in found {
                if let Ok(references) = self.engines.dice.references(&text) {
                    for name in references.macros {
                        let key = name.to_lowercase();
                        if seen.len() < MAX_LOOKUP_NAMES && seen.insert(key.clone()) {
                            next.push(key);
                        }
                    }
                }
                texts.insert(key, text);
            }
            pending = next;
        }
        Ok(texts)
    }

    /// Turns what a user asked to roll into an expression and its context: a bare
    /// macro name (`fireball`, `fireball at the orc`) means `$fireball`; macros are
    /// looked up (personal before server); `@FIELD`s come from the character played here (`storage::playing`).
    /// `adv` / `dis` anywhere in the label roll a d20 twice, and a label word that
    /// reads as dice is refused (`roll::advantage`), for `/roll` and `/odds` alike.
    /// `Err` holds the answer to give instead of a roll.
    pub(crate) async fn prepare_roll(
        &self,
        request: &Request,
        expr: &str,
    ) -> anyhow::Result<Result<Prepared, Vec<Reply>>> {
        let dice = &self.engines.dice;
        let place = request.place();
        // What goes wrong here is answered privately.
        let lang = self.language(request, false).await?;
        // `adv` / `dis` and dice in the label are read before the dice language;
        // on a macro alone (`$atk adv`) they go into its text (`macro_advantage`).
        let mut on_macro = None;
        let expr = match super::roll_line::advantage(expr) {
            Ok(expr) => expr,
            Err(problem) => match self.macro_advantage(request, expr).await? {
                Some(read) => on_macro.insert(read).line.clone(),
                None => return Ok(Err(ephemeral(problem.text(lang)))),
            },
        };
        let expr = expr.as_str();
        let (expr, references) = match dice.references(expr) {
            Ok(references) => (expr.to_owned(), references),
            Err(failure) => {
                let (first, rest) = match expr.split_once(char::is_whitespace) {
                    Some((first, rest)) => (first, format!(" {rest}")),
                    None => (expr, String::new()),
                };
                let known = is_name_shaped(first)
                    && !self
                        .storage
                        .macros_named(place, request.user.id, &[first.to_owned()])
                        .await?
                        .is_empty();
                if !known {
                    let mut text = super::roll_line::cannot_roll(lang, &failure);
                    if is_name_shaped(first) {
                        text.push('\n');
                        text.push_str(&i18n::tr_args(
                            lang,
                            "macros-no-such-macro",
                            &[("name", first.into())],
                        ));
                    }
                    return Ok(Err(ephemeral(text)));
                }
                let line = format!("${first}{rest}");
                let expr = match super::roll_line::advantage(&line) {
                    Ok(expr) => expr,
                    Err(problem) => match self.macro_advantage(request, &line).await? {
                        Some(read) => on_macro.insert(read).line.clone(),
                        None => return Ok(Err(ephemeral(problem.text(lang)))),
                    },
                };
                match dice.references(&expr) {
                    Ok(references) => (expr, references),
                    Err(failure) => {
                        return Ok(Err(ephemeral(super::roll_line::cannot_roll(
                            lang, &failure,
                        ))));
                    }
                }
            }
        };
        let mut context = RollContext::default();
        let mut uses_fields = !references.fields.is_empty();
        if !references.macros.is_empty() {
            context.macros = self
                .lookup_macros(place, Some(request.user.id), &references.macros, None)
                .await?;
            if let Some(read) = &on_macro {
                let key = name_key(&read.name);
                if let Some(text) = context.macros.get(&key) {
                    match super::macro_advantage::apply(&read.name, text, read.word) {
                        Ok(rolled) => context.macros.insert(key, rolled),
                        Err(problem) => return Ok(Err(ephemeral(problem.text(lang)))),
                    };
                }
            }
            uses_fields |= context.macros.values().any(|text| {
                dice.references(text)
                    .is_ok_and(|references| !references.fields.is_empty())
            });
        }
        let mut playing = None;
        if uses_fields {
            let Some(character) = self
                .storage
                .playing_character(place, request.user.id)
                .await?
            else {
                return Ok(Err(ephemeral(i18n::tr(lang, "macros-no-character"))));
            };
            let current = self.character_fields(&character).await?;
            context.fields =
                fields::roll_fields_with_purse(&current, character.gold, character.food);
            playing = Some(character.name);
        }
        let mut asked = without_label(&expr, references.label.as_deref());
        if let Some(read) = &on_macro {
            asked = format!("{asked} {}", read.word);
        }
        Ok(Ok(Prepared {
            expr,
            asked,
            context,
            character: playing,
        }))
    }

    /// `$atk adv` (or `atk adv` for a macro that exists): the macro and the word.
    async fn macro_advantage(
        &self,
        request: &Request,
        line: &str,
    ) -> anyhow::Result<Option<super::macro_advantage::MacroAdvantage>> {
        let Some(read) = super::macro_advantage::read(line) else {
            return Ok(None);
        };
        let exists = !self
            .storage
            .macros_named(
                request.place(),
                request.user.id,
                std::slice::from_ref(&read.name),
            )
            .await?
            .is_empty();
        Ok(exists.then_some(read))
    }
}

/// `1d20 + $bonus to hit` without ` to hit` (or ` # to hit`).
fn without_label(expr: &str, label: Option<&str>) -> String {
    let Some(label) = label else {
        return expr.trim().to_owned();
    };
    let trimmed = expr.trim_end();
    match trimmed.strip_suffix(label) {
        Some(rest) => rest.trim_end().trim_end_matches('#').trim_end().to_owned(),
        None => trimmed.to_owned(),
    }
}
