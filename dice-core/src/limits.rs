//! Bounds on everything an expression can make the roller do.

/// Bounds on parsing, rolling, macro expansion and rendering.
///
/// Every field has a default sized for a chat bot: generous for real games,
/// small enough that no input can make a roll slow or large. A roll that would
/// pass a bound is an [`Error`](crate::Error), except explosions and rerolls,
/// which stop at their bound and mark the die as capped (so `1d1!` ends).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Longest accepted input, in bytes.
    pub max_input_len: usize,
    /// Deepest nesting of `(`, `{` and function calls (and runs of unary
    /// minus). Checked before the grammar runs, because parsing, rolling and
    /// rendering recurse once per level: the default of 32 fits easily in a
    /// 2 MiB thread stack (tested); raise it with care.
    pub max_depth: usize,
    /// Dice rolled by one roll of an expression, counting every explosion and
    /// reroll.
    pub max_dice: usize,
    /// Faces of one die (`d1000000`), also the largest face count of `d{...}`.
    pub max_faces: i64,
    /// Elements of one series after ranges are expanded (`{1..100}` has 100).
    pub max_series_len: usize,
    /// Elements (dice, numbers and nested series) of all pools of one roll.
    pub max_elements: usize,
    /// Extra dice one die may add by exploding; then it stops and is marked.
    pub max_explosions_per_die: u32,
    /// Rerolls of one die; then it stops and is marked. 1,000 like Avrae's
    /// d20, so `1d20rr<20` is 20 in every roll within ordinary odds.
    pub max_rerolls_per_die: u32,
    /// Macro references replaced while resolving one expression.
    pub max_macro_expansions: usize,
    /// Longest expression text after macros and fields are substituted.
    pub max_resolved_len: usize,
    /// Characters a rendering aims for; longer breakdowns are shortened and
    /// keep the total. Discord's message limit is 2,000.
    pub render_budget: usize,
    /// Steps (arithmetic on big integers, states visited) the exact
    /// distribution of one expression may take; past it, [`Expr::odds`](crate::Expr::odds)
    /// answers "too complex to compute exactly" instead of running long.
    pub max_odds_work: u64,
    /// Bytes the tables of one exact distribution (outcomes with their big
    /// integer weights, a die's faces, rows of counts) may take together,
    /// counted as they grow and never given back, so it bounds the peak;
    /// past it, [`Expr::odds`](crate::Expr::odds) answers "too complex to
    /// compute exactly" before allocating more. The answer itself (a
    /// million outcomes of `1d1000000` as fractions) comes on top.
    pub max_odds_memory: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_len: 2_000,
            max_depth: 32,
            max_dice: 10_000,
            max_faces: 1_000_000,
            max_series_len: 10_000,
            max_elements: 100_000,
            max_explosions_per_die: 100,
            max_rerolls_per_die: 1_000,
            max_macro_expansions: 64,
            max_resolved_len: 16_000,
            render_budget: 1_800,
            max_odds_work: 20_000_000,
            max_odds_memory: 128 << 20,
        }
    }
}
