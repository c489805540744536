//! What an effect declaration means once loaded: subjects, value forms, element sets.

use serde::{Deserialize, Serialize};

/// What an effect changes (issue 14's subject table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Subject {
    HitPoints,
    ManaPoints,
    Strength,
    Dexterity,
    Intelligence,
    Wisdom,
    Constitution,
    Charisma,
    ArmorClass,
    Experience,
    Level,
    Speed,
    Field0,
    Field1,
    Field2,
    Field3,
    Field4,
    Field5,
    Field6,
    Field7,
    Field8,
    Field9,
    Flags,
    Immunity,
    Alignment,
    Protections,
    Dead,
    LoseTurn,
    Occupation,
    Species,
    Existence,
}

/// The type of a subject, which decides the value forms it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SubjectKind {
    Int,
    Set,
    Bool,
    Tag,
    /// The map element -> INT of P1.
    Protections,
    /// X1 / X2: creates or destroys.
    Existence,
}

impl Subject {
    /// Every subject, in the order of the table.
    pub const ALL: [Subject; 31] = [
        Subject::HitPoints,
        Subject::ManaPoints,
        Subject::Strength,
        Subject::Dexterity,
        Subject::Intelligence,
        Subject::Wisdom,
        Subject::Constitution,
        Subject::Charisma,
        Subject::ArmorClass,
        Subject::Experience,
        Subject::Level,
        Subject::Speed,
        Subject::Field0,
        Subject::Field1,
        Subject::Field2,
        Subject::Field3,
        Subject::Field4,
        Subject::Field5,
        Subject::Field6,
        Subject::Field7,
        Subject::Field8,
        Subject::Field9,
        Subject::Flags,
        Subject::Immunity,
        Subject::Alignment,
        Subject::Protections,
        Subject::Dead,
        Subject::LoseTurn,
        Subject::Occupation,
        Subject::Species,
        Subject::Existence,
    ];

    pub fn kind(self) -> SubjectKind {
        match self {
            Subject::Flags | Subject::Immunity | Subject::Alignment => SubjectKind::Set,
            Subject::Protections => SubjectKind::Protections,
            Subject::Dead | Subject::LoseTurn => SubjectKind::Bool,
            Subject::Occupation | Subject::Species => SubjectKind::Tag,
            Subject::Existence => SubjectKind::Existence,
            _ => SubjectKind::Int,
        }
    }
}

/// What an effect applies to. The seed's map target types are refused at load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TargetType {
    Character,
    /// Attached effects (X2).
    Effect,
}

/// M1: how an effect with a duration acts while attached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    /// Applies again at the start of each of its holder's turns (D1).
    Recurring,
    /// A layer over the subject's base value while attached.
    WhileActive,
}

/// A number in an effect: a literal, or a dice expression rolled once per target.
#[derive(Debug, Clone)]
pub(crate) enum Number {
    Fixed(i64),
    Dice(dice_core::Expr),
}

/// The operator of an INT value (its prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IntOperator {
    Add,
    Subtract,
    Assign,
    Multiply,
    Divide,
}

/// The operator of a SET value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SetOperator {
    Union,
    Difference,
    Intersect,
    Assign,
}

/// A declared `value`, checked against its subject's type.
#[derive(Debug, Clone)]
pub(crate) enum ValueSpec {
    Int(IntOperator, Number),
    Set(SetOperator, ElementSet),
    Complement,
    Bool(BoolOp),
    Tag(String),
    /// Existence `new` (X1).
    Clone,
    /// Existence `false` (X1 on a Character, X2 on an Effect).
    Destroy,
}

/// A BOOL operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoolOp {
    Assign(bool),
    Invert,
}

/// An INT operation with its number rolled (what a layer keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum IntOp {
    Add(i64),
    Assign(i64),
    Multiply(i64),
    /// A divisor of 0 (only a dice roll can give one) leaves the value as it is.
    Divide(i64),
}

impl IntOp {
    pub(crate) fn apply(self, value: i64) -> i64 {
        match self {
            IntOp::Add(offset) => value.saturating_add(offset),
            IntOp::Assign(new) => new,
            IntOp::Multiply(factor) => value.saturating_mul(factor),
            IntOp::Divide(0) => value,
            IntOp::Divide(divisor) => value.checked_div(divisor).unwrap_or(i64::MAX),
        }
    }
}

/// A set of declared elements: at most 256, one bit each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct ElementSet([u64; 4]);

impl ElementSet {
    pub(crate) fn single(index: usize) -> ElementSet {
        let mut set = ElementSet::default();
        set.insert(index);
        set
    }

    pub(crate) fn insert(&mut self, index: usize) {
        if let Some(word) = self.0.get_mut(index / 64) {
            *word |= 1 << (index % 64);
        }
    }

    pub(crate) fn union(self, other: ElementSet) -> ElementSet {
        let mut out = self;
        for (word, other) in out.0.iter_mut().zip(other.0) {
            *word |= other;
        }
        out
    }

    pub(crate) fn intersect(self, other: ElementSet) -> ElementSet {
        let mut out = self;
        for (word, other) in out.0.iter_mut().zip(other.0) {
            *word &= other;
        }
        out
    }

    /// Everything in `universe` that is not in `self`.
    pub(crate) fn complement_in(self, universe: ElementSet) -> ElementSet {
        let mut out = universe;
        for (word, own) in out.0.iter_mut().zip(self.0) {
            *word &= !own;
        }
        out
    }

    pub(crate) fn indices(self) -> impl Iterator<Item = usize> {
        (0..256).filter(move |&index| self.0[index / 64] & (1 << (index % 64)) != 0)
    }
}
