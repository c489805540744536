//! The custom ids of a generator's prompt, `tv1:ca:<session>:<step>` and
//! `tv1:cm:<session>:<step>` (base 36): the step makes an earlier prompt's button stale.

use crate::core::custom_id;

/// The custom ids of a generator's prompt: the "Answer" button and its modal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChargenId {
    /// `tv1:ca:<session>:<step>`: opens the modal.
    Answer { session_id: i64, step: i64 },
    /// `tv1:cm:<session>:<step>`: the modal of that prompt.
    Modal { session_id: i64, step: i64 },
}

impl ChargenId {
    pub(super) const ANSWER: &str = "ca";
    pub(super) const MODAL: &str = "cm";

    pub fn encode(&self) -> String {
        let (kind, session_id, step) = match *self {
            ChargenId::Answer { session_id, step } => (ChargenId::ANSWER, session_id, step),
            ChargenId::Modal { session_id, step } => (ChargenId::MODAL, session_id, step),
        };
        let rest = format!(
            "{}:{}",
            custom_id::to_base36(session_id),
            custom_id::to_base36(step)
        );
        custom_id::compose(kind, &rest)
    }

    pub fn decode(text: &str) -> Option<ChargenId> {
        let (kind, rest) = custom_id::split(text)?;
        let (session, step) = rest.split_once(':')?;
        let session_id = custom_id::from_base36(session)?;
        let step = custom_id::from_base36(step)?;
        match kind {
            ChargenId::ANSWER => Some(ChargenId::Answer { session_id, step }),
            ChargenId::MODAL => Some(ChargenId::Modal { session_id, step }),
            _ => None,
        }
    }
}
