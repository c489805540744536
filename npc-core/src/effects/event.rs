//! What an encounter command produces, as data. `to_line` is the canonical
//! line of `tavern effects play`; the bot may word things its own way.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::model::Subject;
use super::protection::Protectors;

/// The dice an effect's value rolled for one target, as data: the total is before
/// protections take anything off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectRoll {
    /// The expression as the effect file writes it, without the value's operator
    /// (`3d6` of `-3d6`, `2d4+2`).
    pub expr: String,
    /// Every die as counted, in the order rolled (dropped dice too).
    pub dice: Vec<i64>,
    /// What the expression came to.
    pub total: i64,
}

/// One thing that happened in an encounter command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum EffectEvent {
    /// `[round R] NAME`: a turn starts.
    TurnStart { round: u32, name: String },
    /// `* EFFECT on NAME: SUBJECT A -> B` (an INT change, also when A = B), or
    /// `* NAME: HitPoints A -> B` for a direct change (`effect` is `None`).
    IntChange {
        effect: Option<String>,
        name: String,
        subject: Subject,
        before: i64,
        after: i64,
        /// The dice of the effect's value, when it has dice (the canonical line
        /// leaves them out; a host may show them).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        roll: Option<EffectRoll>,
    },
    /// `* EFFECT on NAME: Protections E +N` (the operation as written: `+N`, `-N`, `=N`, `*N`, `/N`).
    ProtectionChange {
        effect: String,
        name: String,
        element: String,
        operation: String,
    },
    /// `* EFFECT on NAME: SUBJECT +{E,…}` (union) or `-{E,…}` (difference).
    SetChange {
        effect: String,
        name: String,
        subject: Subject,
        added: bool,
        elements: Vec<String>,
    },
    /// `* EFFECT on NAME: SUBJECT = value`: a set assigned, intersected or
    /// complemented (the resulting set), a BOOL or a TAG.
    Assigned {
        effect: String,
        name: String,
        subject: Subject,
        value: String,
    },
    /// `* NAME is immune to EFFECT.`
    Immune { name: String, effect: String },
    /// `* NAME already has EFFECT.`
    AlreadyHas { name: String, effect: String },
    /// `* EFFECT has no effect on NAME.` (the probability draw failed)
    NoEffect { effect: String, name: String },
    /// `* EFFECT reduced by N on NAME.` (P1)
    Reduced {
        effect: String,
        name: String,
        amount: i64,
        /// The element whose protection took it off (the largest among the
        /// method's).
        #[serde(default)]
        element: String,
        /// Who gave that protection: the effects by tag and the combatant's own
        /// (the canonical line leaves them out; a host may name them).
        #[serde(default)]
        protectors: Protectors,
    },
    /// `* NAME now holds EFFECT.`: a hook attached (H1; the issue gives no line for it).
    HookAttached { effect: String, name: String },
    /// `* EFFECT wears off NAME.`
    WearsOff { effect: String, name: String },
    /// `* EFFECT removed from NAME.`
    Removed { effect: String, name: String },
    /// `* EFFECT removes nothing from NAME.` (X2)
    RemovesNothing { effect: String, name: String },
    /// `* NAME is down.` (HP1)
    Down { name: String },
    /// `* NAME loses the turn.`
    LosesTurn { name: String },
    /// `* NAME is dead.`
    IsDead { name: String },
    /// `* NAME is down and skips the turn.`
    DownSkips { name: String },
    /// `* NAME#2 appears.` (X1)
    Appears { name: String },
    /// `* NAME cannot split: the encounter is full.` (X1)
    CannotSplit { name: String },
    /// `* NAME leaves the encounter.`
    Leaves { name: String },
    /// `* Everyone is out of action.` (T1)
    EveryoneOut,
}

impl EffectEvent {
    /// The canonical transcript line (issue 14's table).
    pub fn to_line(&self) -> String {
        match self {
            EffectEvent::TurnStart { round, name } => format!("[round {round}] {name}"),
            EffectEvent::IntChange {
                effect: Some(effect),
                name,
                subject,
                before,
                after,
                ..
            } => format!(
                "* {effect} on {name}: {} {before} -> {after}",
                subject.name()
            ),
            EffectEvent::IntChange {
                effect: None,
                name,
                subject,
                before,
                after,
                ..
            } => format!("* {name}: {} {before} -> {after}", subject.name()),
            EffectEvent::ProtectionChange {
                effect,
                name,
                element,
                operation,
            } => format!("* {effect} on {name}: Protections {element} {operation}"),
            EffectEvent::SetChange {
                effect,
                name,
                subject,
                added,
                elements,
            } => {
                let sign = if *added { '+' } else { '-' };
                format!(
                    "* {effect} on {name}: {} {sign}{{{}}}",
                    subject.name(),
                    elements.join(",")
                )
            }
            EffectEvent::Assigned {
                effect,
                name,
                subject,
                value,
            } => format!("* {effect} on {name}: {} = {value}", subject.name()),
            EffectEvent::Immune { name, effect } => format!("* {name} is immune to {effect}."),
            EffectEvent::AlreadyHas { name, effect } => format!("* {name} already has {effect}."),
            EffectEvent::NoEffect { effect, name } => {
                format!("* {effect} has no effect on {name}.")
            }
            EffectEvent::Reduced {
                effect,
                name,
                amount,
                ..
            } => format!("* {effect} reduced by {amount} on {name}."),
            EffectEvent::HookAttached { effect, name } => format!("* {name} now holds {effect}."),
            EffectEvent::WearsOff { effect, name } => format!("* {effect} wears off {name}."),
            EffectEvent::Removed { effect, name } => format!("* {effect} removed from {name}."),
            EffectEvent::RemovesNothing { effect, name } => {
                format!("* {effect} removes nothing from {name}.")
            }
            EffectEvent::Down { name } => format!("* {name} is down."),
            EffectEvent::LosesTurn { name } => format!("* {name} loses the turn."),
            EffectEvent::IsDead { name } => format!("* {name} is dead."),
            EffectEvent::DownSkips { name } => format!("* {name} is down and skips the turn."),
            EffectEvent::Appears { name } => format!("* {name} appears."),
            EffectEvent::CannotSplit { name } => {
                format!("* {name} cannot split: the encounter is full.")
            }
            EffectEvent::Leaves { name } => format!("* {name} leaves the encounter."),
            EffectEvent::EveryoneOut => "* Everyone is out of action.".to_string(),
        }
    }
}

impl fmt::Display for EffectEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}
