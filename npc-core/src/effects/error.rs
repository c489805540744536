//! Why an effect-engine command did nothing: a kind to branch on, and a message id
//! with named arguments, the shape of the load errors, so a host words the refusal
//! in its own language from the error alone.

use serde::{Deserialize, Serialize};

use crate::error::{MessageArg, fill, message_ids};

/// Why a command did nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum EffectErrorKind {
    /// No effect with that tag in the library.
    UnknownEffect,
    /// No combatant with that name.
    UnknownCombatant,
    /// A combatant name that is empty, too long, has spaces or is taken.
    BadName,
    /// An element the library does not declare.
    UnknownElement,
    /// The encounter already holds the most combatants allowed.
    Full,
    /// `next` on an encounter without combatants.
    Empty,
    /// `prev` before the first turn has ended.
    NoEarlierTurn,
    /// Z1: the command took more steps than the budget.
    StepBudget,
    /// H1: hooks fired hooks deeper than allowed.
    HookDepth,
    /// A combatant would hold more effects than allowed.
    TooManyEffects,
    /// A dice expression could not be rolled (overflow and the like).
    Dice,
    /// The host raised the command's cancel flag (its time was up).
    Cancelled,
}

message_ids! {
    /// The id of an [`EffectError`]'s message; [`EffectMessageId::name`] is stable
    /// across versions. A kind may have more than one (a name too long or taken).
    enum EffectMessageId;
    /// `max`: the longest name, in bytes.
    BadName = "bad-name": "a combatant name is one word of at most {max} characters",
    /// `name`: the name already in the encounter; `max`: the longest name (a host
    /// may say the whole rule).
    NameTaken = "name-taken": "there is already a combatant named {name}",
    /// `max`: the most combatants.
    Full = "full": "the encounter is full ({max} combatants)",
    /// `element`: the element the library lacks.
    UnknownElement = "unknown-element": "unknown element {element}",
    /// `effect`: the tag the library lacks.
    UnknownEffect = "unknown-effect": "no effect named {effect}",
    /// `name`: the combatant; `effect`: the tag it does not hold.
    NotHeld = "not-held": "{name} holds no {effect}",
    /// `next` on an empty encounter.
    Empty = "empty": "the encounter has no combatants",
    /// `prev` before the first turn has ended.
    NoEarlierTurn = "no-earlier-turn": "there is no earlier turn",
    /// `name`: the name no combatant has.
    UnknownCombatant = "unknown-combatant": "no combatant named {name}",
    /// `max`: the step budget.
    StepBudget = "step-budget": "the command needed more than {max} steps; nothing was changed",
    /// The host's cancel flag.
    Cancelled = "cancelled": "the command was cancelled; nothing was changed",
    /// `effect`: whose dice; `reason`: dice-core's reason ([`MessageArg::DiceReason`]).
    Dice = "dice": "the dice of {effect} could not be rolled ({reason}); nothing was changed",
    /// `max`: the hook depth.
    HookDepth = "hook-depth": "hooks fired hooks more than {max} deep; nothing was changed",
    /// `name`: the combatant; `max`: the most effects one holds.
    TooManyEffects = "too-many-effects": "{name} already holds {max} effects; nothing was changed",
}

/// A command that changed nothing, and why. `Display` is the message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct EffectError {
    pub kind: EffectErrorKind,
    /// Lower-case English: the id's template with the arguments filled in.
    pub message: String,
    /// Which message this is.
    pub id: EffectMessageId,
    /// Its parameters by name; each name appears once, each the template names.
    pub args: Vec<(String, MessageArg)>,
}

impl EffectError {
    /// An error of `kind` saying `id` with `args`; its `message` is the English.
    pub(crate) fn said<const N: usize>(
        kind: EffectErrorKind,
        id: EffectMessageId,
        args: [(&'static str, MessageArg); N],
    ) -> EffectError {
        let args: Vec<(String, MessageArg)> = args
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect();
        EffectError {
            kind,
            message: fill(id.english_template(), &args),
            id,
            args,
        }
    }

    /// The parameter called `name`.
    pub fn arg(&self, name: &str) -> Option<&MessageArg> {
        crate::error::arg(&self.args, name)
    }
}
