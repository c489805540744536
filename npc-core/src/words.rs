//! Every word npc-core makes of its own identifiers, in one place: the names
//! scripts write for subjects and their kinds, an operation as a change line
//! writes it, an item's and an element's name for people.
//!
//! Hosts that speak other languages word these themselves from the identifiers;
//! what is here is the English of the canonical transcripts and of load errors.

use crate::effects::{IntOp, Subject, SubjectKind};

impl Subject {
    /// The name scripts write.
    pub fn name(self) -> &'static str {
        match self {
            Subject::HitPoints => "HitPoints",
            Subject::ManaPoints => "ManaPoints",
            Subject::Strength => "Strength",
            Subject::Dexterity => "Dexterity",
            Subject::Intelligence => "Intelligence",
            Subject::Wisdom => "Wisdom",
            Subject::Constitution => "Constitution",
            Subject::Charisma => "Charisma",
            Subject::ArmorClass => "ArmorClass",
            Subject::Experience => "Experience",
            Subject::Level => "Level",
            Subject::Speed => "Speed",
            Subject::Field0 => "Field0",
            Subject::Field1 => "Field1",
            Subject::Field2 => "Field2",
            Subject::Field3 => "Field3",
            Subject::Field4 => "Field4",
            Subject::Field5 => "Field5",
            Subject::Field6 => "Field6",
            Subject::Field7 => "Field7",
            Subject::Field8 => "Field8",
            Subject::Field9 => "Field9",
            Subject::Flags => "Flags",
            Subject::Immunity => "Immunity",
            Subject::Alignment => "Alignment",
            Subject::Protections => "Protections",
            Subject::Dead => "Dead",
            Subject::LoseTurn => "LoseTurn",
            Subject::Occupation => "Occupation",
            Subject::Species => "Species",
            Subject::Existence => "Existence",
        }
    }

    /// The subject a script's word names, as [`Subject::name`] writes it.
    pub fn from_name(name: &str) -> Option<Subject> {
        Subject::ALL
            .iter()
            .copied()
            .find(|subject| subject.name() == name)
    }
}

impl SubjectKind {
    /// The kind as a load error names it (`INT`, `SET`, `BOOL`, `TAG`, …).
    pub(crate) fn name(self) -> &'static str {
        match self {
            SubjectKind::Int => "INT",
            SubjectKind::Set => "SET",
            SubjectKind::Bool => "BOOL",
            SubjectKind::Tag => "TAG",
            SubjectKind::Protections => "protections",
            SubjectKind::Existence => "existence",
        }
    }
}

impl IntOp {
    /// How the operation reads in a protection change line: `+10`, `-5`, `=3`, `*2`, `/2`.
    pub(crate) fn written(self) -> String {
        match self {
            IntOp::Add(offset) if offset >= 0 => format!("+{offset}"),
            IntOp::Add(offset) => offset.to_string(),
            IntOp::Assign(value) => format!("={value}"),
            IntOp::Multiply(factor) => format!("*{factor}"),
            IntOp::Divide(divisor) => format!("/{divisor}"),
        }
    }
}

/// An item's display name: the tag without a leading `t_`, underscores as spaces.
pub fn item_display_name(tag: &str) -> String {
    tag.strip_prefix("t_").unwrap_or(tag).replace('_', " ")
}

/// An element as people write it: lower case, underscores as spaces
/// (`EDGED_WEAPON` is `edged weapon`). Effect files declare elements in capitals
/// because the language keeps them apart from tags, not because players read them so.
pub fn element_word(element: &str) -> String {
    element.to_lowercase().replace('_', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_as_words() {
        for subject in Subject::ALL {
            assert_eq!(Subject::from_name(subject.name()), Some(subject));
        }
        assert_eq!(Subject::from_name("hitpoints"), None);
        for (op, written) in [
            (IntOp::Add(10), "+10"),
            (IntOp::Add(-5), "-5"),
            (IntOp::Assign(3), "=3"),
            (IntOp::Multiply(2), "*2"),
            (IntOp::Divide(2), "/2"),
        ] {
            assert_eq!(op.written(), written);
        }
        for (tag, shown) in [("t_long_sword", "long sword"), ("rope", "rope")] {
            assert_eq!(item_display_name(tag), shown);
        }
        for (element, word) in [
            ("EDGED_WEAPON", "edged weapon"),
            ("BURN", "burn"),
            ("Ä_X", "ä x"),
        ] {
            assert_eq!(element_word(element), word);
        }
    }
}
