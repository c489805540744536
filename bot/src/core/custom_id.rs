//! Component and modal custom ids: compact, versioned (`tv1:`), at most 100
//! characters. They name what to do and which stored state to use; the state itself
//! stays in the database.

/// Discord's limit on a custom id.
pub const MAX_LEN: usize = 100;

const PREFIX: &str = "tv1:";

/// What a custom id means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CustomId {
    /// "Answer" under chargen prompt `step` of session `session_id`: opens the modal.
    ChargenAnswer { session_id: i64, step: i64 },
    /// The modal of that prompt.
    ChargenModal { session_id: i64, step: i64 },
    /// "Roll again" with everything inline.
    RollAgain(RollAgain),
    /// "Roll again" whose parameters are stored (`button_states`).
    RollAgainStored { state_id: i64 },
    /// "Install anyway" under a program with syntax errors (stored in `button_states`).
    ProgramInstall { state_id: i64 },
    /// "Cancel" next to it.
    ProgramCancel { state_id: i64 },
    /// The form `/chargen program add name` opens for pasting a program.
    ProgramModal { name: String },
    /// A view button under an `/odds` chart, with everything inline.
    Odds(OddsView),
    /// The same with the expression stored (`button_states`); `view` is the key of
    /// the view to show.
    OddsStored { state_id: i64, view: String },
    /// A page button under `/help`: the page's key (`roll`, `macros`, …).
    Help { page: String },
    /// "Delete" under `/character delete`'s question (the character in `button_states`).
    CharacterDelete { state_id: i64 },
    /// "Cancel" next to it.
    CharacterKeep { state_id: i64 },
}

/// What an `/odds` answer shows: the expression, the target, the chart's view
/// (`eq`, `ge` or `le`, see [`crate::chart::View::key`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OddsView {
    pub expr: String,
    pub target: Option<i64>,
    pub view: String,
}

/// The parameters of a roll to repeat.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RollAgain {
    pub expr: String,
    pub label: Option<String>,
    pub private: bool,
    pub repeat: u32,
}

impl CustomId {
    /// The id as a string. A `RollAgain` may be longer than [`MAX_LEN`]; callers
    /// store it and use `RollAgainStored` instead.
    pub fn encode(&self) -> String {
        match self {
            CustomId::ChargenAnswer { session_id, step } => {
                format!("{PREFIX}ca:{}:{}", to_base36(*session_id), to_base36(*step))
            }
            CustomId::ChargenModal { session_id, step } => {
                format!("{PREFIX}cm:{}:{}", to_base36(*session_id), to_base36(*step))
            }
            CustomId::RollAgain(roll) => {
                let label = roll.label.as_deref().unwrap_or("");
                format!(
                    "{PREFIX}r:{}:{}:{}:{label}{}",
                    if roll.private { "p" } else { "-" },
                    roll.repeat,
                    label.len(),
                    roll.expr
                )
            }
            CustomId::RollAgainStored { state_id } => {
                format!("{PREFIX}rs:{}", to_base36(*state_id))
            }
            CustomId::ProgramInstall { state_id } => {
                format!("{PREFIX}pi:{}", to_base36(*state_id))
            }
            CustomId::ProgramCancel { state_id } => {
                format!("{PREFIX}px:{}", to_base36(*state_id))
            }
            CustomId::ProgramModal { name } => format!("{PREFIX}pm:{name}"),
            CustomId::Odds(odds) => {
                let target = odds.target.map_or("-".to_owned(), |t| t.to_string());
                format!("{PREFIX}o:{}:{target}:{}", odds.view, odds.expr)
            }
            CustomId::OddsStored { state_id, view } => {
                format!("{PREFIX}os:{view}:{}", to_base36(*state_id))
            }
            CustomId::Help { page } => format!("{PREFIX}h:{page}"),
            CustomId::CharacterDelete { state_id } => {
                format!("{PREFIX}cd:{}", to_base36(*state_id))
            }
            CustomId::CharacterKeep { state_id } => {
                format!("{PREFIX}ck:{}", to_base36(*state_id))
            }
        }
    }

    /// Reads a custom id; `None` for ids of another version or malformed ones (old
    /// or forged buttons).
    pub fn decode(text: &str) -> Option<CustomId> {
        let rest = text.strip_prefix(PREFIX)?;
        let (kind, rest) = rest.split_once(':')?;
        match kind {
            "ca" | "cm" => {
                let (session, step) = rest.split_once(':')?;
                let session_id = from_base36(session)?;
                let step = from_base36(step)?;
                Some(if kind == "ca" {
                    CustomId::ChargenAnswer { session_id, step }
                } else {
                    CustomId::ChargenModal { session_id, step }
                })
            }
            "r" => {
                let mut parts = rest.splitn(4, ':');
                let private = match parts.next()? {
                    "p" => true,
                    "-" => false,
                    _ => return None,
                };
                let repeat: u32 = parts.next()?.parse().ok()?;
                let label_len: usize = parts.next()?.parse().ok()?;
                let tail = parts.next()?;
                let label = tail.get(..label_len)?;
                let expr = tail.get(label_len..)?;
                Some(CustomId::RollAgain(RollAgain {
                    expr: expr.to_owned(),
                    label: (!label.is_empty()).then(|| label.to_owned()),
                    private,
                    repeat,
                }))
            }
            "rs" => Some(CustomId::RollAgainStored {
                state_id: from_base36(rest)?,
            }),
            "pi" => Some(CustomId::ProgramInstall {
                state_id: from_base36(rest)?,
            }),
            "px" => Some(CustomId::ProgramCancel {
                state_id: from_base36(rest)?,
            }),
            "cd" => Some(CustomId::CharacterDelete {
                state_id: from_base36(rest)?,
            }),
            "ck" => Some(CustomId::CharacterKeep {
                state_id: from_base36(rest)?,
            }),
            "o" => {
                let mut parts = rest.splitn(3, ':');
                let view = parts.next()?.to_owned();
                let target = match parts.next()? {
                    "-" => None,
                    number => Some(number.parse().ok()?),
                };
                let expr = parts.next()?.to_owned();
                Some(CustomId::Odds(OddsView { expr, target, view }))
            }
            "os" => {
                let (view, id) = rest.split_once(':')?;
                Some(CustomId::OddsStored {
                    state_id: from_base36(id)?,
                    view: view.to_owned(),
                })
            }
            "h" if !rest.is_empty() => Some(CustomId::Help {
                page: rest.to_owned(),
            }),
            "pm" if !rest.is_empty() => Some(CustomId::ProgramModal {
                name: rest.to_owned(),
            }),
            _ => None,
        }
    }
}

/// Base 36 of a non-negative id (negative ids, which we never generate, get a `-`).
pub fn to_base36(value: i64) -> String {
    let mut n = value.unsigned_abs();
    let mut digits = Vec::new();
    loop {
        let digit = (n % 36) as u32;
        digits.push(char::from_digit(digit, 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    if value < 0 {
        digits.push('-');
    }
    digits.iter().rev().collect()
}

pub fn from_base36(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 14 {
        return None;
    }
    i64::from_str_radix(text, 36).ok()
}
