//! The syntax tree the parser builds and the roller (and later the exact
//! evaluator) walks.
//!
//! It is our own tree, not pest's: small nodes, literal arguments stored
//! inline (`4d6kh3` is one node with no child allocations but its modifier
//! list), precedence levels flattened into n-ary chains so that the depth of
//! the tree is the nesting depth of the input, and a byte span on every node.
//! Every node that produces a pool (dice, series, modified values) carries a
//! `slot`: its index in the roll's pool table, so a roll records its story
//! without hashing or searching.

use std::ops::Range;

use smallvec::SmallVec;

/// Modifiers of one term; most terms have one or two, stored inline.
pub(crate) type Mods = SmallVec<[Modifier; 2]>;

/// A byte range of the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        // Inputs are bounded far below 4 GiB by `Limits::max_resolved_len`.
        Span {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    pub fn text(self, source: &str) -> &str {
        source.get(self.range()).unwrap_or("")
    }
}

/// Index of a pool in a roll's pool table.
pub(crate) type Slot = u32;

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub(crate) enum NodeKind {
    /// A constant.
    Num(i64),
    /// `NdM`, `(e)d(e)`, `d{...}`, `dF`, `d%` with modifiers.
    Dice(Box<Dice>),
    /// `{a, b..c}` with modifiers.
    Series(Box<Series>),
    /// Parentheses. Transparent: `(4d6)kh3` keeps among the four dice.
    Group(Box<Node>),
    /// A number, parentheses, call or reference followed by seed modifiers.
    Modified(Box<Modified>),
    /// Unary minus.
    Neg(Box<Node>),
    /// One precedence level: `first op node op node ...`, left to right.
    Chain(Box<Chain>),
    /// `abs(e)`, `min(a, b, ...)`, ...
    Call(Box<Call>),
    /// A term followed by `[tag]`; the span is the text inside the brackets.
    Tagged(Box<Node>, Span),
    /// `$name`; the span is the name without `$`.
    Macro(Span),
    /// `@NAME`; the span is the name without `@`.
    Field(Span),
}

/// A dice count, modifier argument or filter value: a literal (the common
/// case, stored inline) or an expression.
#[derive(Debug, Clone)]
pub(crate) enum Arg {
    Lit(i64, Span),
    Expr(Box<Node>),
}

impl Arg {
    pub fn span(&self) -> Span {
        match self {
            Arg::Lit(_, span) => *span,
            Arg::Expr(node) => node.span,
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Dice {
    /// `None` for `dM` (one die).
    pub count: Option<Arg>,
    pub sides: Sides,
    pub mods: Mods,
    pub slot: Slot,
}

#[derive(Debug, Clone)]
pub(crate) enum Sides {
    /// `dM` or `d(e)`: faces 1..=M.
    Count(Arg),
    /// `d{...}`: the series' elements are the faces, first lowest, last highest.
    Faces(Box<Node>),
    /// `dF`, `dF.2`: faces -1, 0, 1.
    Fate,
    /// `dF.1`: faces -1, 0, 0, 0, 0, 1 (rpg-dice-roller's variant).
    FateOne,
    /// `d%`: faces 1..=100.
    Percent,
}

#[derive(Debug, Clone)]
pub(crate) struct Series {
    pub items: Vec<SeriesItem>,
    /// Span of the braces, without the modifiers.
    pub body_span: Span,
    /// Written as an Avrae set `(a, b)` instead of `{a, b}`.
    pub parenthesised: bool,
    pub mods: Mods,
    pub slot: Slot,
}

#[derive(Debug, Clone)]
pub(crate) enum SeriesItem {
    One(Node),
    Range(Node, Node),
}

#[derive(Debug, Clone)]
pub(crate) struct Modified {
    pub base: Node,
    pub mods: Mods,
    /// Used when the base is a plain value, which becomes a one-element pool.
    pub slot: Slot,
}

#[derive(Debug, Clone)]
pub(crate) struct Chain {
    pub first: Node,
    pub rest: SmallVec<[(BinOp, Node); 2]>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `//`: division rounding down (Avrae's d20, Python).
    FloorDiv,
    Rem,
    /// `^`, `**`: power; right-associative, binds tighter than unary minus.
    Pow,
    Cmp(CmpOp),
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Rem => "%",
            BinOp::Pow => "^",
            BinOp::Cmp(op) => op.symbol(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpOp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

impl CmpOp {
    pub fn test(self, left: i64, right: i64) -> bool {
        match self {
            CmpOp::Eq => left == right,
            CmpOp::Ne => left != right,
            CmpOp::Lt => left < right,
            CmpOp::Gt => left > right,
            CmpOp::Le => left <= right,
            CmpOp::Ge => left >= right,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Gt => ">",
            CmpOp::Le => "<=",
            CmpOp::Ge => ">=",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub func: Func,
    pub args: Vec<Node>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Func {
    Abs,
    Floor,
    Ceil,
    Round,
    Min,
    Max,
    Sqrt,
    Exp,
    Log,
    Pow,
    Sign,
}

impl Func {
    /// Every function, for parsing and for suggesting a spelling.
    pub const ALL: [Func; 11] = [
        Func::Abs,
        Func::Floor,
        Func::Ceil,
        Func::Round,
        Func::Min,
        Func::Max,
        Func::Sqrt,
        Func::Exp,
        Func::Log,
        Func::Pow,
        Func::Sign,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Func::Abs => "abs",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Round => "round",
            Func::Min => "min",
            Func::Max => "max",
            Func::Sqrt => "sqrt",
            Func::Exp => "exp",
            Func::Log => "log",
            Func::Pow => "pow",
            Func::Sign => "sign",
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Modifier {
    pub kind: ModKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub(crate) enum ModKind {
    /// `k`/`kh`, `kl`, `ke`, `ko`; `n` defaults to 1 (`ke`/`ko`: all).
    Keep { which: KeepWhich, n: Option<Arg> },
    /// `d`/`dl`/`p`/`pl`, `dh`/`ph`; `n` defaults to 1.
    Drop { highest: bool, n: Option<Arg> },
    /// Avrae's `k>3` (`keep`: keep the elements that compare true) and
    /// `p<3` (drop them); also `<=`, `>=`, `=`.
    Select { keep: bool, op: CmpOp, n: Arg },
    /// `c`/`cs`, `cf`, `ss`, `sf`/`df`, pools `>=8`, `t8`, `f1`.
    Count {
        kind: CountKind,
        filters: Vec<Filter>,
        /// A success comparison (`>=8`, `t8`, `f1`): after a series it
        /// tests each element's value (`{4d6}>10` is 0 or 1), as
        /// rpg-dice-roller does; `cs` and its kin count the dice inside.
        elements: bool,
    },
    /// `s`/`sa`, `sd`: display order only.
    Sort { descending: bool },
    /// `!`, `!!`, `!p`, `x`, `xo`, `e`, `ra`; `None` means the highest face.
    Explode {
        mode: ExplodeMode,
        cond: Option<Filter>,
    },
    /// `ro`, `rr`/`r`; `None` means the lowest face.
    Reroll { once: bool, cond: Option<Filter> },
    /// `u`, `uo` (rpg-dice-roller): a die rerolls while it shows the face
    /// of a die rolled before it in the term (and, with a condition, only
    /// while it also matches it); `once`: at most once.
    Unique { once: bool, cond: Option<Filter> },
    /// Avrae's rank selectors `rol1`, `roh2` (reroll once the N lowest or
    /// highest dice), `ral1`, `rah1` (each of them adds a die) and `eh1`
    /// (explode them, again while new dice are selected), applied when every
    /// die of the term is rolled.
    RerollRank {
        mode: RankMode,
        highest: bool,
        n: i64,
    },
    /// `min`/`mi`, `max`/`ma`.
    Clamp { at_least: bool, n: Arg },
}

/// What a rank selector does to the dice it selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RankMode {
    /// `ro`: reroll once.
    Reroll,
    /// `ra`: add one die each.
    Add,
    /// `e`, `!`, `x`: add one die each, then again for newly selected dice.
    Explode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeepWhich {
    Highest,
    Lowest,
    Even,
    Odd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CountKind {
    /// `c`, `cs`, success pools: +1 per match, marked as success.
    Successes,
    /// `cf`: +1 per match, marked as failure.
    Failures,
    /// `ss`: -1 per match, marked as success.
    SubtractSuccesses,
    /// `sf`, `df`, `f1`: -1 per match, marked as failure.
    SubtractFailures,
}

impl CountKind {
    pub fn weight(self) -> i64 {
        match self {
            CountKind::Successes | CountKind::Failures => 1,
            CountKind::SubtractSuccesses | CountKind::SubtractFailures => -1,
        }
    }

    pub fn marks_failure(self) -> bool {
        matches!(self, CountKind::Failures | CountKind::SubtractFailures)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExplodeMode {
    /// `!`, `x`, `e`: each explosion adds a die, which may explode again.
    Standard,
    /// `!!`: the chain is added into one die.
    Compound,
    /// `!p`: like standard, each added die counts one less.
    Penetrate,
    /// `xo`, Avrae's `ra`: at most one added die, which does not explode.
    Once,
    /// `!!p` (rpg-dice-roller): compounded into one die, each added roll
    /// counting one less.
    CompoundPenetrate,
}

#[derive(Debug, Clone)]
pub(crate) enum Filter {
    /// `h`: the die shows its highest face (the last of its face series).
    High,
    /// `l`: the die shows its lowest face (the first of its face series).
    Low,
    Odd,
    Even,
    /// `N` (meaning `=N`) or `op N` / `op (e)`.
    Cmp(CmpOp, Arg),
    /// `( a & b | c )`: alternatives of conjunctions; matches at most once.
    Any(Vec<Vec<Filter>>),
}

impl Node {
    /// Calls `visit` on this node and every node below it: operands,
    /// dice counts and sides, series elements, modifier and filter arguments.
    pub fn walk<'a>(&'a self, visit: &mut dyn FnMut(&'a Node)) {
        visit(self);
        match &self.kind {
            NodeKind::Num(_) | NodeKind::Macro(_) | NodeKind::Field(_) => {}
            NodeKind::Dice(dice) => {
                if let Some(count) = &dice.count {
                    count.walk(visit);
                }
                match &dice.sides {
                    Sides::Count(arg) => arg.walk(visit),
                    Sides::Faces(node) => node.walk(visit),
                    Sides::Fate | Sides::FateOne | Sides::Percent => {}
                }
                walk_mods(&dice.mods, visit);
            }
            NodeKind::Series(series) => {
                for item in &series.items {
                    match item {
                        SeriesItem::One(node) => node.walk(visit),
                        SeriesItem::Range(low, high) => {
                            low.walk(visit);
                            high.walk(visit);
                        }
                    }
                }
                walk_mods(&series.mods, visit);
            }
            NodeKind::Group(inner) | NodeKind::Neg(inner) | NodeKind::Tagged(inner, _) => {
                inner.walk(visit);
            }
            NodeKind::Modified(modified) => {
                modified.base.walk(visit);
                walk_mods(&modified.mods, visit);
            }
            NodeKind::Chain(chain) => {
                chain.first.walk(visit);
                for (_, node) in &chain.rest {
                    node.walk(visit);
                }
            }
            NodeKind::Call(call) => {
                for arg in &call.args {
                    arg.walk(visit);
                }
            }
        }
    }
}

impl Arg {
    fn walk<'a>(&'a self, visit: &mut dyn FnMut(&'a Node)) {
        if let Arg::Expr(node) = self {
            node.walk(visit);
        }
    }
}

fn walk_mods<'a>(mods: &'a [Modifier], visit: &mut dyn FnMut(&'a Node)) {
    for modifier in mods {
        match &modifier.kind {
            ModKind::Keep { n: Some(n), .. } | ModKind::Drop { n: Some(n), .. } => n.walk(visit),
            ModKind::Clamp { n, .. } | ModKind::Select { n, .. } => n.walk(visit),
            ModKind::Count { filters, .. } => {
                for filter in filters {
                    filter.walk(visit);
                }
            }
            ModKind::Explode {
                cond: Some(filter), ..
            }
            | ModKind::Reroll {
                cond: Some(filter), ..
            }
            | ModKind::Unique {
                cond: Some(filter), ..
            } => filter.walk(visit),
            _ => {}
        }
    }
}

impl Filter {
    fn walk<'a>(&'a self, visit: &mut dyn FnMut(&'a Node)) {
        match self {
            Filter::Cmp(_, arg) => arg.walk(visit),
            Filter::Any(alternatives) => {
                for filter in alternatives.iter().flatten() {
                    filter.walk(visit);
                }
            }
            _ => {}
        }
    }
}
