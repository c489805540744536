//! The result of a roll: its total and the story of every die.

use std::cell::Cell;
use std::ops::{Deref, DerefMut};
use std::sync::LazyLock;

use serde::Serialize;
use serde::ser::SerializeStruct;
use smallvec::SmallVec;

use crate::Expr;
use crate::ast::{Slot, Span};
use crate::render::{self, Style};

/// One evaluated pool (dice term, series or modified value), by slot.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PoolRec {
    pub start: u32,
    pub len: u32,
    pub value: i64,
    /// Lowest and highest face, for dice pools.
    pub faces: Option<(i64, i64)>,
    pub count: i64,
    pub counted: bool,
    /// 0: as rolled, 1: ascending, 2: descending.
    pub order: u8,
    pub filled: bool,
    pub span: Span,
}

/// One element of a pool: a die, a number, or a nested pool.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item {
    pub value: i64,
    pub flags: u16,
    pub successes: u8,
    pub failures: u8,
    /// The nested pool's slot, for nested elements.
    pub link: Slot,
    /// For series elements: which element of the series text produced it.
    pub origin: u32,
    pub hist_start: u32,
    pub hist_len: u16,
}

impl Item {
    pub const fn new(value: i64, flags: u16) -> Item {
        Item {
            value,
            flags,
            successes: 0,
            failures: 0,
            link: 0,
            origin: 0,
            hist_start: 0,
            hist_len: 0,
        }
    }

    pub fn has(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }

    pub fn kept(&self) -> bool {
        !self.has(flag::DROPPED)
    }

    pub fn is_die(&self) -> bool {
        !self.has(flag::NUMBER | flag::NESTED)
    }
}

pub(crate) mod flag {
    pub const DROPPED: u16 = 1;
    /// This die matched its explosion condition (and added a die or a part).
    pub const EXPLODED: u16 = 1 << 1;
    /// Added by an explosion.
    pub const FROM_EXPLOSION: u16 = 1 << 2;
    /// Added by a penetrating explosion: counts one less than rolled.
    pub const PENETRATED: u16 = 1 << 3;
    pub const COMPOUNDED: u16 = 1 << 4;
    pub const REROLLED: u16 = 1 << 5;
    pub const CLAMPED: u16 = 1 << 6;
    /// Stopped by the explosion or reroll limit.
    pub const CAPPED: u16 = 1 << 7;
    pub const NUMBER: u16 = 1 << 8;
    pub const NESTED: u16 = 1 << 9;
}

/// What happened to a die before its final value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hist {
    /// A value thrown away by a reroll.
    Rerolled(i64),
    /// One roll of a compounding chain, as counted.
    Part(i64),
    /// The value before `min`/`max` changed it.
    Clamped(i64),
}

/// The dice a story holds inline: `10d10!` with its explosions, `8d6`,
/// `4d6kh3` twice. Past them the table moves to the heap, an allocation, a
/// copy and a free more per roll.
pub(crate) const INLINE_ITEMS: usize = 16;

/// Everything a roll recorded; reused between rolls by [`crate::Totals`].
/// Small rolls (a few pools, a dozen dice) fit inline, so rolling
/// `4d6kh3` or `10d10!` allocates nothing but the result.
#[derive(Debug, Clone, Default)]
pub(crate) struct Story {
    pub pools: SmallVec<[PoolRec; 2]>,
    pub items: SmallVec<[Item; INLINE_ITEMS]>,
    pub history: Vec<Hist>,
}

impl Story {
    pub fn reset(&mut self, slots: u32) {
        self.pools.clear();
        // Pushes, not `resize`: an expression has a pool or two, and
        // SmallVec's resize goes through a generic iterator each roll.
        for _ in 0..slots {
            self.pools.push(PoolRec::default());
        }
        self.items.clear();
        self.history.clear();
    }

    pub fn pool(&self, slot: Slot) -> Option<&PoolRec> {
        self.pools.get(slot as usize).filter(|pool| pool.filled)
    }

    pub fn pool_items(&self, pool: &PoolRec) -> &[Item] {
        let start = pool.start as usize;
        self.items
            .get(start..start + pool.len as usize)
            .unwrap_or(&[])
    }

    pub fn history(&self, item: &Item) -> &[Hist] {
        let start = item.hist_start as usize;
        self.history
            .get(start..start + item.hist_len as usize)
            .unwrap_or(&[])
    }
}

/// A rolled expression: the total and every die with its story.
///
/// Render it with [`Roll::to_markdown`] (Discord) or [`Roll::to_plain`]
/// (terminals); serialize it (serde) for JSON: `total`, `breakdown` (plain
/// text), `markdown`, `label`, `source` and `dice` (see [`Die`]).
#[derive(Debug, Clone)]
pub struct Roll {
    pub(crate) expr: Expr,
    pub(crate) total: i64,
    /// Boxed: its inline tables are a few hundred bytes, which every move
    /// of a `Roll` (into a `Result`, an `Option`, a caller's variable)
    /// copied. The box is recycled (see [`StoryBox`]).
    pub(crate) story: StoryBox,
}

/// A roll's boxed [`Story`], handed back to its thread when the roll is
/// dropped, so that the next roll on that thread reuses it instead of
/// allocating and freeing one: in a cached `4d6kh3` the allocation and the
/// free were an eighth of the work. Each thread keeps at most one spare,
/// and only a small one (inline tables, little history), so a thread holds
/// under 2 KB it is not using.
#[derive(Debug, Clone)]
pub(crate) struct StoryBox(Option<Box<Story>>);

thread_local! {
    static SPARE_STORY: Cell<Option<Box<Story>>> = const { Cell::new(None) };
}

/// A spare story keeps no more history than this.
const SPARE_HISTORY: usize = 64;

impl StoryBox {
    /// The thread's spare story, or a new one. Its contents are stale: the
    /// roll resets it before use.
    pub(crate) fn take() -> StoryBox {
        let spare = SPARE_STORY.try_with(Cell::take).ok().flatten();
        StoryBox(Some(spare.unwrap_or_default()))
    }
}

impl Drop for StoryBox {
    fn drop(&mut self) {
        let Some(story) = self.0.take() else {
            return;
        };
        if story.items.spilled()
            || story.pools.spilled()
            || story.history.capacity() > SPARE_HISTORY
        {
            return;
        }
        // At thread exit the slot may be gone; the story is then just freed.
        let _ = SPARE_STORY.try_with(|spare| spare.set(Some(story)));
    }
}

impl Deref for StoryBox {
    type Target = Story;

    fn deref(&self) -> &Story {
        // `None` only inside `drop`.
        static EMPTY: LazyLock<Story> = LazyLock::new(Story::default);
        self.0.as_deref().unwrap_or(&EMPTY)
    }
}

impl DerefMut for StoryBox {
    fn deref_mut(&mut self) -> &mut Story {
        self.0.get_or_insert_default()
    }
}

impl Roll {
    /// The value of the whole expression.
    pub fn total(&self) -> i64 {
        self.total
    }

    /// The label written after the expression, if any.
    pub fn label(&self) -> Option<&str> {
        self.expr.label()
    }

    /// The expression that was rolled.
    pub fn expr(&self) -> &Expr {
        &self.expr
    }

    /// Discord markdown, at most about `budget` characters:
    /// `4d6kh3 (**6**, 5, 3, ~~__1__~~) = **14**`. Highest faces are bold,
    /// lowest faces underlined, dropped dice struck through, explosions
    /// marked `!`, rerolls `~~1~~→4`, successes `✓` and failures `✗`.
    /// A longer breakdown is shortened (dice lists first, then the
    /// expression), and the total always stays.
    pub fn to_markdown(&self, budget: usize) -> String {
        render::render(self, Style::Markdown, budget)
    }

    /// Plain text for terminals, at most about `budget` characters:
    /// `4d6kh3 (6, 5, 3, ~1~) = 14`.
    pub fn to_plain(&self, budget: usize) -> String {
        render::render(self, Style::Plain, budget)
    }

    /// Every die rolled, in the order it was rolled (explosion dice right
    /// after the die that exploded).
    pub fn dice(&self) -> Vec<Die> {
        let source = self.expr.source();
        let mut pools: Vec<&PoolRec> = self
            .story
            .pools
            .iter()
            .filter(|pool| pool.filled && pool.faces.is_some())
            .collect();
        pools.sort_by_key(|pool| pool.start);
        let mut dice = Vec::new();
        for pool in pools {
            let Some((lowest_face, highest_face)) = pool.faces else {
                continue;
            };
            let term = pool.span.text(source);
            for item in self.story.pool_items(pool) {
                if !item.is_die() {
                    continue;
                }
                dice.push(self.die(item, term, lowest_face, highest_face));
            }
        }
        dice
    }

    fn die(&self, item: &Item, term: &str, lowest_face: i64, highest_face: i64) -> Die {
        let mut rerolled = Vec::new();
        let mut compounded = Vec::new();
        let mut clamped_from = None;
        for entry in self.story.history(item) {
            match *entry {
                Hist::Rerolled(value) => rerolled.push(value),
                Hist::Part(value) => compounded.push(value),
                Hist::Clamped(value) => {
                    clamped_from.get_or_insert(value);
                }
            }
        }
        Die {
            term: term.to_string(),
            value: item.value,
            lowest_face,
            highest_face,
            kept: item.kept(),
            highest: item.value == highest_face,
            lowest: item.value == lowest_face,
            exploded: item.has(flag::EXPLODED),
            from_explosion: item.has(flag::FROM_EXPLOSION),
            penetrated: item.has(flag::PENETRATED),
            compounded,
            rerolled,
            clamped_from,
            capped: item.has(flag::CAPPED),
            successes: u32::from(item.successes),
            failures: u32::from(item.failures),
        }
    }
}

/// One die of a [`Roll`] and its story.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Die {
    /// The dice term it belongs to, as written (`4d6kh3`).
    pub term: String,
    /// Its value as counted (after rerolls, compounding, penetration, clamps).
    pub value: i64,
    /// The first face of its face series.
    pub lowest_face: i64,
    /// The last face of its face series.
    pub highest_face: i64,
    /// Not dropped by a keep or drop modifier.
    pub kept: bool,
    /// Shows its highest face.
    pub highest: bool,
    /// Shows its lowest face.
    pub lowest: bool,
    /// Matched its explosion condition.
    pub exploded: bool,
    /// Was added by an explosion.
    pub from_explosion: bool,
    /// Was added by a penetrating explosion (counts one less than rolled).
    pub penetrated: bool,
    /// The rolls of a compounding chain (`!!`), empty otherwise.
    pub compounded: Vec<i64>,
    /// Values thrown away by rerolls, in order.
    pub rerolled: Vec<i64>,
    /// The value before `min`/`max` changed it.
    pub clamped_from: Option<i64>,
    /// Stopped by the explosion or reroll limit.
    pub capped: bool,
    /// How often a count modifier counted it as a success.
    pub successes: u32,
    /// How often a count modifier counted it as a failure.
    pub failures: u32,
}

impl Serialize for Roll {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut state = serializer.serialize_struct("Roll", 6)?;
        state.serialize_field("total", &self.total)?;
        state.serialize_field("breakdown", &self.to_plain(usize::MAX))?;
        state.serialize_field("markdown", &self.to_markdown(usize::MAX))?;
        state.serialize_field("label", &self.label())?;
        state.serialize_field("source", self.expr.source())?;
        state.serialize_field("dice", &self.dice())?;
        state.end()
    }
}

impl std::fmt::Display for Roll {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_plain(usize::MAX))
    }
}
