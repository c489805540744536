//! Custom ids of the tracker's buttons and of the end question:
//! `tv1:<kind>:<encounter>:<step>` (base 36). The step is the encounter's when the
//! button was drawn, so a press on an older tracker, or a second press of the same
//! button, is refused instead of applied twice.

use crate::core::custom_id::{compose, from_base36, split, to_base36};

/// What a button does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InitAction {
    Next,
    Previous,
    /// Asks whether to end (privately).
    End,
    /// "End the encounter" under the question.
    ConfirmEnd,
    /// "Keep going" under the question.
    CancelEnd,
}

/// Every kind the encounter posts.
pub(super) const KINDS: &[&str] = &["in", "ip", "ie", "iy", "ix"];

impl InitAction {
    fn code(self) -> &'static str {
        match self {
            InitAction::Next => "in",
            InitAction::Previous => "ip",
            InitAction::End => "ie",
            InitAction::ConfirmEnd => "iy",
            InitAction::CancelEnd => "ix",
        }
    }

    fn from_code(code: &str) -> Option<InitAction> {
        Some(match code {
            "in" => InitAction::Next,
            "ip" => InitAction::Previous,
            "ie" => InitAction::End,
            "iy" => InitAction::ConfirmEnd,
            "ix" => InitAction::CancelEnd,
            _ => return None,
        })
    }
}

/// A button of encounter `encounter` drawn at `step`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitId {
    pub action: InitAction,
    pub encounter: i64,
    pub step: i64,
}

impl InitId {
    pub fn new(action: InitAction, encounter: i64, step: i64) -> InitId {
        InitId {
            action,
            encounter,
            step,
        }
    }

    /// At most 34 characters, well within Discord's 100.
    pub fn encode(&self) -> String {
        compose(
            self.action.code(),
            &format!("{}:{}", to_base36(self.encounter), to_base36(self.step)),
        )
    }

    /// Reads an id of ours; `None` for anything else.
    pub fn decode(text: &str) -> Option<InitId> {
        let (code, rest) = split(text)?;
        let action = InitAction::from_code(code)?;
        let (encounter, step) = rest.split_once(':')?;
        Some(InitId {
            action,
            encounter: from_base36(encounter)?,
            step: from_base36(step)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_refuse_others() {
        for action in [
            InitAction::Next,
            InitAction::Previous,
            InitAction::End,
            InitAction::ConfirmEnd,
            InitAction::CancelEnd,
        ] {
            let id = InitId::new(action, i64::MAX, 12_345);
            let text = id.encode();
            assert!(text.len() <= 100);
            assert_eq!(InitId::decode(&text), Some(id));
        }
        for text in [
            "tv1:in:zz",
            "tv1:iq:1:2",
            "tv2:in:1:2",
            "tv1:in:1:",
            "in:1:2",
        ] {
            assert_eq!(InitId::decode(text), None, "{text}");
        }
    }
}
