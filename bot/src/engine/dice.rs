//! The dice engine of the binary: `dice-core` with the configured limits and a
//! cache of parsed expressions (the same few expressions and macros are rolled
//! again and again, and parsing costs more than rolling).

use std::collections::BTreeMap;
use std::sync::Mutex;

use dice_core::{Error, ExprCache, Limits, Resolver};
use rand::RngCore;

use super::{Dice, DiceFailure, References, RollContext, RollOutcome};
use crate::config::DiceConfig;

/// Parsed expressions kept; a few thousand entries cost well under a megabyte.
const CACHE_CAPACITY: usize = 4096;

pub struct DiceEngine {
    limits: Limits,
    cache: Mutex<ExprCache>,
}

impl DiceEngine {
    pub fn new(limits: Limits) -> DiceEngine {
        let cache = ExprCache::with_limits(CACHE_CAPACITY, limits.clone());
        DiceEngine {
            limits,
            cache: Mutex::new(cache),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn parse(&self, expr: &str) -> Result<dice_core::Expr, DiceFailure> {
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        cache
            .get_or_parse(expr)
            .map_err(|error| failure(&error, expr))
    }
}

/// `dice-core`'s limits with the configuration's overrides.
pub fn limits_from_config(config: &DiceConfig) -> Limits {
    let mut limits = Limits::default();
    if let Some(value) = config.max_input_len {
        limits.max_input_len = value;
    }
    if let Some(value) = config.max_depth {
        limits.max_depth = value;
    }
    if let Some(value) = config.max_dice {
        limits.max_dice = usize::try_from(value).unwrap_or(usize::MAX);
    }
    if let Some(value) = config.max_faces {
        limits.max_faces = i64::try_from(value).unwrap_or(i64::MAX);
    }
    if let Some(value) = config.max_series_len {
        limits.max_series_len = value;
    }
    if let Some(value) = config.max_explosions_per_die {
        limits.max_explosions_per_die = value;
    }
    if let Some(value) = config.max_rerolls_per_die {
        limits.max_rerolls_per_die = value;
    }
    if let Some(value) = config.max_macro_expansions {
        limits.max_macro_expansions = value;
    }
    if let Some(value) = config.render_budget {
        limits.render_budget = value;
    }
    limits
}

/// A failure with its caret drawn under `source` (the text the span points into).
pub fn failure(error: &Error, source: &str) -> DiceFailure {
    let excerpt = caret_lines(source, error.start(), error.end());
    DiceFailure {
        message: error.message().to_owned(),
        caret: with_reason(&excerpt, error.message()),
        start: error.start(),
        end: error.end(),
        kind: error.kind(),
        reason: Box::new(error.reason().clone()),
        excerpt,
    }
}

/// Characters of the input shown on each side of an error's place.
const CARET_CONTEXT_CHARS: usize = 40;
/// Carets drawn under a long span at most.
const CARET_SPAN_CHARS: usize = 40;
/// Characters of the message under the excerpt at most.
const CARET_MESSAGE_CHARS: usize = 300;

/// The line of `source` around the byte span `start..end`, a caret line under the
/// span, and the message: a window of the input, not all of it, so that the answer
/// stays short however long the input or its macro expansion is (a 999-character
/// expression, a long macro used thirty times).
pub fn caret_excerpt(source: &str, start: usize, end: usize, message: &str) -> String {
    with_reason(&caret_lines(source, start, end), message)
}

/// [`caret_excerpt`]'s lines without the message: the window of the input and the
/// carets under the span.
pub fn caret_lines(source: &str, start: usize, end: usize) -> String {
    let start = floor_char_boundary(source, start.min(source.len()));
    let end = floor_char_boundary(source, end.min(source.len())).max(start);
    let line_start = source[..start].rfind('\n').map_or(0, |index| index + 1);
    let line_end = source[start..]
        .find('\n')
        .map_or(source.len(), |index| start + index);
    let line: Vec<char> = source[line_start..line_end].chars().collect();
    let at = source[line_start..start].chars().count();
    let span = source[start..end.min(line_end)]
        .chars()
        .count()
        .clamp(1, CARET_SPAN_CHARS);
    let from = at.saturating_sub(CARET_CONTEXT_CHARS);
    let to = (at + span + CARET_CONTEXT_CHARS).min(line.len());
    let mut excerpt = String::new();
    if from > 0 {
        excerpt.push('…');
    }
    excerpt.extend(&line[from..to]);
    if to < line.len() {
        excerpt.push('…');
    }
    let indent = at - from + usize::from(from > 0);
    format!("{excerpt}\n{}{}", " ".repeat(indent), "^".repeat(span))
}

/// The caret lines and the reason after the carets (shortened to a few lines' worth).
pub fn with_reason(lines: &str, reason: &str) -> String {
    format!(
        "{lines} {}",
        crate::text::truncate(reason, CARET_MESSAGE_CHARS)
    )
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

impl Dice for DiceEngine {
    fn references(&self, expr: &str) -> Result<References, DiceFailure> {
        let parsed = self.parse(expr)?;
        Ok(References {
            macros: parsed.macro_names(),
            fields: parsed.field_names(),
            label: parsed.label().map(str::to_owned),
        })
    }

    fn roll(
        &self,
        expr: &str,
        context: &RollContext,
        rng: &mut dyn RngCore,
        budget: usize,
    ) -> Result<RollOutcome, DiceFailure> {
        let parsed = self.parse(expr)?;
        let resolved = parsed
            .resolve(&ContextResolver(context), &self.limits)
            .map_err(|error| failure(&error, expr))?;
        // Errors of the roll itself point into the resolved text, which is what the
        // breakdown shows too.
        let roll = resolved
            .roll(rng, &self.limits)
            .map_err(|error| failure(&error, resolved.source()))?;
        Ok(RollOutcome {
            total: roll.total(),
            markdown: roll.to_markdown(budget),
            roll,
            budget,
        })
    }

    fn odds(
        &self,
        expr: &str,
        context: &RollContext,
    ) -> Result<(String, dice_core::Odds), DiceFailure> {
        let parsed = self.parse(expr)?;
        let resolved = parsed
            .resolve(&ContextResolver(context), &self.limits)
            .map_err(|error| failure(&error, expr))?;
        let odds = resolved
            .odds_cancellable(&self.limits, Some(super::worker::cancel_flag()))
            .map_err(|error| failure(&error, resolved.source()))?;
        let end = resolved.source().len() - resolved.label().map_or(0, |label| label.len());
        let shown = resolved.source()[..end]
            .trim_end()
            .trim_end_matches('#')
            .trim_end();
        Ok((shown.to_owned(), odds))
    }

    fn check(&self, expr: &str, macros: &BTreeMap<String, String>) -> Result<(), DiceFailure> {
        let parsed = self.parse(expr)?;
        parsed
            .resolve(&CheckResolver(macros), &self.limits)
            .map(|_| ())
            .map_err(|error| failure(&error, expr))
    }
}

struct ContextResolver<'a>(&'a RollContext);

impl Resolver for ContextResolver<'_> {
    fn macro_source(&self, name: &str) -> Option<String> {
        self.0.macros.get(&name.to_lowercase()).cloned()
    }

    fn field(&self, name: &str) -> Option<i64> {
        self.0.fields.get(&name.to_uppercase()).copied()
    }

    fn field_names(&self) -> Vec<String> {
        self.0.fields.keys().cloned().collect()
    }
}

/// Resolution at save time: the macros as they would be, every field a 0 (fields
/// belong to whichever character is active when the macro is rolled).
struct CheckResolver<'a>(&'a BTreeMap<String, String>);

impl Resolver for CheckResolver<'_> {
    fn macro_source(&self, name: &str) -> Option<String> {
        self.0.get(&name.to_lowercase()).cloned()
    }

    fn field(&self, _name: &str) -> Option<i64> {
        Some(0)
    }

    fn field_names(&self) -> Vec<String> {
        Vec::new()
    }
}
