//! Spell effects (issue 14): the `ELEMENTS` / `EFFECT` language and the effect
//! engine over an [`Encounter`].
//!
//! - [`load_effects`] parses and checks an effect file into an
//!   [`EffectLibrary`], or reports every load error with its line.
//! - [`Encounter`] is the combat state as plain serde data (combatants, turn
//!   order, attached effects); its commands ([`Encounter::add`],
//!   [`Encounter::apply`], [`Encounter::hp`], [`Encounter::next`],
//!   [`Encounter::remove`]) return [`EffectEvent`]s, take the randomness as a
//!   parameter ([`Randomness`]) and are bounded by a step budget: a command
//!   stopped by a limit returns an error and leaves the encounter unchanged.
//! - [`EffectPlay`] / [`play_effects`] is the `tavern effects play` protocol.

mod engine;
mod error;
mod event;
mod lang;
mod model;
mod play;
mod protection;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

pub use engine::{
    AttachedView, CarriedEffects, CombatantSpec, CombatantView, Encounter, HpChange, Randomness,
};
pub use error::{EffectError, EffectErrorKind, EffectMessageId};
pub use event::{EffectEvent, EffectRoll};
pub use model::{BoolOp, IntOp, Mode, Subject, SubjectKind, TargetType};
pub use play::{EffectPlay, MAX_LINE_BYTES, play_effects};
pub use protection::Protectors;

use crate::error::LoadError;
use model::{ElementSet, Number, ValueSpec};

/// Bounds on effect files and on every encounter command (Z1, Z2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectLimits {
    /// Largest effect file accepted, in bytes.
    pub max_source_bytes: usize,
    /// Load errors listed before the rest are summarised.
    pub max_errors: usize,
    /// Most EFFECT declarations in one file (256).
    pub max_effects: usize,
    /// Most ELEMENTS in one file (256: a method set is 256 bits).
    pub max_elements: usize,
    /// Deepest nesting of `( )` and `~` in a set expression.
    pub max_set_depth: u32,
    /// Longest tag, element or combatant name, in bytes.
    pub max_name_len: usize,
    /// Steps (an effect applied, recurring or fired; a turn started) one command may take.
    pub max_steps: u32,
    /// H1: how deep hooks may fire hooks within one step.
    pub max_hook_depth: u32,
    /// X1: most combatants in one encounter.
    pub max_combatants: usize,
    /// Most effects attached to one combatant; a further attach is refused.
    pub max_attached: usize,
    /// Limits for the dice expressions in values and durations.
    pub dice: dice_core::Limits,
}

impl Default for EffectLimits {
    fn default() -> EffectLimits {
        EffectLimits {
            max_source_bytes: 256 * 1024,
            max_errors: 200,
            max_effects: 256,
            max_elements: 256,
            max_set_depth: 16,
            max_name_len: 64,
            max_steps: 10_000,
            max_hook_depth: 4,
            max_combatants: 50,
            max_attached: 64,
            dice: dice_core::Limits {
                max_input_len: 200,
                max_dice: 1_000,
                max_series_len: 1_000,
                max_elements: 2_000,
                ..dice_core::Limits::default()
            },
        }
    }
}

/// One declared effect, checked.
#[derive(Debug, Clone)]
pub(crate) struct Effect {
    pub tag: String,
    pub target: TargetType,
    pub subject: Subject,
    pub value: ValueSpec,
    pub method: ElementSet,
    pub duration: Number,
    pub cumulative: bool,
    pub multi: bool,
    pub probability: f64,
    pub hook: bool,
    pub mode: Mode,
    pub declaration: String,
    pub save: Option<EffectSave>,
}

/// The saving throw an effect declares (`save DEX 15 half`): the host rolls it for
/// each target, and a failure takes the effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectSave {
    /// `STR`, `DEX`, `CON`, `INT`, `WIS` or `CHA`.
    pub ability: String,
    pub dc: i64,
    /// Whether a success takes half the damage (else none).
    pub half: bool,
    /// The damage as written without its sign (`8d6`), when the effect is instant
    /// hit point damage (`subject HitPoints; value -8d6`, no duration): the host
    /// rolls it once for every target and deals it by the effect's method, so that
    /// a success can take half. `None` for any other effect, which a failure takes
    /// as it is declared.
    pub damage: Option<String>,
}

/// A loaded effect file: its elements and effects. Immutable and `Send + Sync`;
/// load it once per install and share it.
#[derive(Debug, Clone)]
pub struct EffectLibrary {
    pub(crate) hash: u64,
    pub(crate) elements: Vec<String>,
    pub(crate) element_index: HashMap<String, usize>,
    pub(crate) effects: Vec<Effect>,
    pub(crate) by_tag: HashMap<String, usize>,
    pub(crate) limits: EffectLimits,
}

impl EffectLibrary {
    /// An empty library (no elements, no effects).
    pub fn empty() -> EffectLibrary {
        EffectLibrary {
            hash: 0,
            elements: Vec::new(),
            element_index: HashMap::new(),
            effects: Vec::new(),
            by_tag: HashMap::new(),
            limits: EffectLimits::default(),
        }
    }

    /// The effect tags, in file order (for `/effect list` and autocomplete).
    pub fn effect_tags(&self) -> Vec<&str> {
        self.effects
            .iter()
            .map(|effect| effect.tag.as_str())
            .collect()
    }

    /// The save effect `tag` declares, if any, with its method's element names.
    pub fn save(&self, tag: &str) -> Option<(&EffectSave, Vec<String>)> {
        let effect = self.effect(tag)?;
        let save = effect.save.as_ref()?;
        Some((save, self.names(effect.method)))
    }

    /// Whether an effect with this tag is declared (case-sensitive).
    pub fn has_effect(&self, tag: &str) -> bool {
        self.by_tag.contains_key(tag)
    }

    /// The declared elements, in file order.
    pub fn elements(&self) -> &[String] {
        &self.elements
    }

    /// Whether `name` is a declared element.
    pub fn has_element(&self, name: &str) -> bool {
        self.element_index.contains_key(name)
    }

    /// The declaration's source text, `EFFECT Tag { ... }` (for `/effect show`).
    pub fn declaration(&self, tag: &str) -> Option<&str> {
        self.effect(tag).map(|effect| effect.declaration.as_str())
    }

    /// A stable digest of the source the library was loaded from.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The limits the library was loaded with; the engine runs under them.
    pub fn limits(&self) -> &EffectLimits {
        &self.limits
    }

    pub(crate) fn effect(&self, tag: &str) -> Option<&Effect> {
        self.by_tag
            .get(tag)
            .and_then(|&index| self.effects.get(index))
    }

    pub(crate) fn names(&self, set: ElementSet) -> Vec<String> {
        let mut names: Vec<String> = set
            .indices()
            .filter_map(|index| self.elements.get(index).cloned())
            .collect();
        names.sort();
        names
    }
}

/// Loads an effect file with [`EffectLimits::default`].
pub fn load_effects(source: &str) -> Result<EffectLibrary, Vec<LoadError>> {
    load_effects_with(source, &EffectLimits::default())
}

/// Loads an effect file: the library, or every load error sorted by line.
pub fn load_effects_with(
    source: &str,
    limits: &EffectLimits,
) -> Result<EffectLibrary, Vec<LoadError>> {
    load_effects_inner(source, limits, None)
}

/// [`load_effects_with`] with a flag the host raises (from another thread, at its
/// deadline) when it no longer wants the library: the load stops at its next
/// declaration with the one error [`crate::MessageId::LoadCancelled`].
pub fn load_effects_cancellable(
    source: &str,
    limits: &EffectLimits,
    cancel: &AtomicBool,
) -> Result<EffectLibrary, Vec<LoadError>> {
    load_effects_inner(source, limits, Some(cancel))
}

fn load_effects_inner(
    source: &str,
    limits: &EffectLimits,
    cancel: Option<&AtomicBool>,
) -> Result<EffectLibrary, Vec<LoadError>> {
    if source.len() > limits.max_source_bytes {
        return Err(vec![LoadError::said(
            crate::LoadErrorKind::TooLarge,
            1,
            1,
            crate::MessageId::EffectFileTooLarge,
            [
                ("bytes", source.len().into()),
                ("max", limits.max_source_bytes.into()),
            ],
        )]);
    }
    if crate::is_cancelled(cancel) {
        return Err(crate::cancelled());
    }
    lang::load(source, limits, cancel)
        .ok_or_else(crate::cancelled)?
        .map_err(|errors| crate::finish_errors(errors, limits.max_errors))
}

/// Every load error of an effect file (empty when it loads): `tavern effects check`.
pub fn check_effects(source: &str) -> Vec<LoadError> {
    match load_effects(source) {
        Ok(_) => Vec::new(),
        Err(errors) => errors,
    }
}
