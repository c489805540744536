//! The loaded, checked script: immutable tables that conversations index into.
//!
//! Blocks, menus and trade lists live in flat tables and refer to each other by
//! index, so a waiting conversation is a few integers that serialize trivially.

use crate::lexer::CmpOp;
use crate::limits::Limits;

pub(crate) type BlockId = u32;

/// A parameter id (G3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parm {
    Amount,
    Gold,
    Food,
    Activity,
    Script(i32),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Stmt {
    Say(String),
    Trade(u32),
    TurnAway,
    Join,
    Attack,
    GetAmount,
    Exit,
    Break,
    SetFlag(u8),
    ClearFlag(u8),
    /// `None`: take AMOUNT (N5).
    TakeGold(Option<i32>),
    ChangeParm(Parm, i32),
    SetParm(Parm, i32),
    TakeItem(String, i32),
    GiveItem(String, i32),
    /// `APPLY_EFFECT tag`: asks the host to apply an effect of its library.
    ApplyEffect(String),
    GetYesNo(BlockId, BlockId),
    CheckParm(Parm, CmpOp, i32, BlockId, BlockId),
    CheckFlag(u8, BlockId, BlockId),
    CheckItem(String, CmpOp, i32, BlockId, BlockId),
    CheckMember(String, BlockId, BlockId),
    Menu(u32),
    Call(u32),
}

impl Stmt {
    /// The blocks nested directly in this statement (branches; not menu choices).
    pub(crate) fn branches(&self) -> Option<(BlockId, BlockId)> {
        match *self {
            Stmt::GetYesNo(yes, no)
            | Stmt::CheckParm(_, _, _, yes, no)
            | Stmt::CheckFlag(_, yes, no)
            | Stmt::CheckItem(_, _, _, yes, no)
            | Stmt::CheckMember(_, yes, no) => Some((yes, no)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Keyword {
    pub text: String,
    /// Unicode lower case, for full-name lookups (HAIL, DEFAULT, BYE).
    pub lower: String,
    /// The first four characters of `lower` (K2).
    pub key: String,
    pub resp: u32,
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conv {
    pub tag: String,
    pub line: u32,
    pub imports: Vec<u32>,
    pub native: Vec<Keyword>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resp {
    pub body: BlockId,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Choice {
    pub label: String,
    pub cost: Option<i32>,
    pub body: BlockId,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Menu {
    pub line: u32,
    pub column: u32,
    pub choices: Vec<Choice>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ware {
    pub tag: String,
    pub name: String,
    pub price: i32,
}

/// A loaded script: every CONV and RESP of one `.ghul` file, checked.
///
/// Immutable and `Send + Sync`: load it once per install and share it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    pub(crate) hash: u64,
    pub(crate) limits: Limits,
    pub(crate) convs: Vec<Conv>,
    pub(crate) resps: Vec<Resp>,
    pub(crate) blocks: Vec<Vec<Stmt>>,
    pub(crate) menus: Vec<Menu>,
    pub(crate) trades: Vec<Vec<Ware>>,
    pub(crate) effect_refs: Vec<EffectRef>,
}

pub(crate) fn unknown_effects(
    refs: &[EffectRef],
    library: &crate::effects::EffectLibrary,
) -> Vec<crate::LoadError> {
    refs.iter()
        .filter(|effect| !library.has_effect(&effect.tag))
        .map(|effect| {
            crate::LoadError::said(
                crate::LoadErrorKind::UnknownTag,
                effect.line,
                effect.column,
                crate::MessageId::UnknownEffect,
                [("effect", effect.tag.as_str().into())],
            )
        })
        .collect()
}

/// An `APPLY_EFFECT` in a script: the effect tag and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectRef {
    pub tag: String,
    pub line: u32,
    pub column: u32,
}

impl Script {
    /// The CONV tags in file order; the bot may offer the first as the default.
    pub fn conversations(&self) -> Vec<&str> {
        let mut in_file_order: Vec<&Conv> = self.convs.iter().collect();
        in_file_order.sort_by_key(|conv| conv.line);
        in_file_order.iter().map(|conv| conv.tag.as_str()).collect()
    }

    /// True when a CONV with this tag exists.
    pub fn has_conversation(&self, tag: &str) -> bool {
        self.conversation_index(tag).is_some()
    }

    /// A stable digest of the source text: a stored conversation only resumes
    /// against the very script it started with.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Every `APPLY_EFFECT` in the script, in source order: what the host checks
    /// against a server's effect library when either is installed.
    pub fn applied_effects(&self) -> &[EffectRef] {
        &self.effect_refs
    }

    /// One load error per `APPLY_EFFECT` naming an effect `library` lacks
    /// (empty when every one is known).
    pub fn unknown_effects(
        &self,
        library: &crate::effects::EffectLibrary,
    ) -> Vec<crate::LoadError> {
        unknown_effects(&self.effect_refs, library)
    }

    /// The limits this script was loaded with; conversations run under them.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The keyword, as written in the script, that the first word of the
    /// player's `line` finds in conversation `conversation` by the four-letter
    /// rule and the lookup order (K1, K2, L1..L3), without the DEFAULT
    /// fallback: `None` when the line would get DEFAULT or `* No reply.`, is
    /// empty, or the conversation does not exist. A host uses it to offer the
    /// keywords a player has already asked about (the bot's keyword buttons).
    pub fn keyword_for(&self, conversation: &str, line: &str) -> Option<&str> {
        let conv = self.conversation_index(conversation)?;
        let word = crate::engine::first_word(line)?;
        let key = keyword_key(word);
        self.search_order(conv).into_iter().find_map(|index| {
            let found = self.conv(index)?;
            found
                .native
                .iter()
                .find(|keyword| keyword.key == key)
                .map(|keyword| keyword.text.as_str())
        })
    }

    pub(crate) fn conversation_index(&self, tag: &str) -> Option<u32> {
        let index = self.convs.iter().position(|conv| conv.tag == tag)?;
        u32::try_from(index).ok()
    }

    /// The conversations searched for `conv`, in lookup order (L1): its own
    /// NATIVE block, then each IMPORT depth first. A conversation reached again
    /// through a diamond (L4) is skipped: its first visit already answered.
    fn search_order(&self, conv: u32) -> Vec<u32> {
        let mut order = Vec::new();
        let mut seen = vec![false; self.convs.len()];
        let mut pending = vec![conv];
        while let Some(next) = pending.pop() {
            let Some(visited) = usize::try_from(next).ok().and_then(|i| seen.get_mut(i)) else {
                continue;
            };
            if *visited {
                continue;
            }
            *visited = true;
            order.push(next);
            if let Some(found) = self.conv(next) {
                pending.extend(found.imports.iter().rev().copied());
            }
        }
        order
    }

    fn find(&self, conv: u32, matches: impl Fn(&Keyword) -> bool) -> Option<u32> {
        self.search_order(conv).into_iter().find_map(|index| {
            let found = self.conv(index)?;
            found.native.iter().find(|k| matches(k)).map(|k| k.resp)
        })
    }

    /// The response for a player's word by the four-letter rule (K2, L1..L3).
    pub(crate) fn lookup_word(&self, conv: u32, word: &str) -> Option<u32> {
        let key = keyword_key(word);
        self.find(conv, |keyword| keyword.key == key)
    }

    /// The response for a special keyword, compared in full (L2, S1, S2).
    pub(crate) fn lookup_special(&self, conv: u32, lower_name: &str) -> Option<u32> {
        self.find(conv, |keyword| keyword.lower == lower_name)
    }

    pub(crate) fn conv(&self, index: u32) -> Option<&Conv> {
        self.convs.get(usize::try_from(index).ok()?)
    }

    pub(crate) fn resp(&self, index: u32) -> Option<&Resp> {
        self.resps.get(usize::try_from(index).ok()?)
    }

    pub(crate) fn stmt(&self, block: BlockId, pc: u32) -> Option<&Stmt> {
        self.blocks
            .get(usize::try_from(block).ok()?)?
            .get(usize::try_from(pc).ok()?)
    }

    pub(crate) fn menu(&self, index: u32) -> Option<&Menu> {
        self.menus.get(usize::try_from(index).ok()?)
    }

    pub(crate) fn trade(&self, index: u32) -> Option<&[Ware]> {
        self.trades
            .get(usize::try_from(index).ok()?)
            .map(Vec::as_slice)
    }
}

/// K2: Unicode lower case, cut to its first four characters.
pub(crate) fn keyword_key(word: &str) -> String {
    word.to_lowercase().chars().take(4).collect()
}

/// FNV-1a: stable across Rust versions and platforms, unlike `DefaultHasher`.
pub(crate) fn stable_hash(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}
