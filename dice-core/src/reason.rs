//! Why an expression failed, as data: a stable id and named arguments.
//!
//! The English message of an [`Error`](crate::Error) is rendered from its
//! [`Reason`] here and nowhere else, from one table of templates. A caller
//! that speaks another language maps [`Reason::id`] to its own text and
//! fills in [`Reason::args`]: numbers stay numbers (for plurals), a nested
//! reason or a [`Phrase`] is translated in turn, and what the user wrote
//! (names, notation) is text to show as it is.

use std::fmt::Write as _;

/// Declares [`ReasonId`] and [`Phrase`] from one table each: the variant, its
/// stable id and its English text.
macro_rules! table {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $id:literal => $english:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $(#[doc = $english] $variant,)*
        }

        impl $name {
            /// Every value, in the table's order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The stable id (`too-many-dice`): lower case words joined by `-`.
            pub fn id(self) -> &'static str {
                match self {
                    $($name::$variant => $id,)*
                }
            }

            /// The English text; `{name}` stands for the argument `name`.
            pub fn english(self) -> &'static str {
                match self {
                    $($name::$variant => $english,)*
                }
            }
        }
    };
}

table! {
    /// Each form of error message: the argument names are the `{name}`s of
    /// its [`english`](ReasonId::english) template ([`ReasonId::params`]).
    ReasonId {
        Unexpected = "unexpected" => "unexpected `{found}`; expected {expected}",
        ExpectedAtEnd = "expected-at-end" => "expected {expected} at the end",
        ExpectedExpression = "expected-expression" => "expected an expression",
        ExpectedValue = "expected-value" => "expected a value",
        ExpectedDiceCount = "expected-dice-count" => "expected a number of dice",
        ExpectedNumber = "expected-number" => "expected a number",
        ExpectedComparison = "expected-comparison" => "expected a comparison",
        ExpectedTarget = "expected-target" => "expected a target",
        ExpectedFilter = "expected-filter" => "expected a filter",
        ExpectedFaces = "expected-faces" => "expected a series of faces",
        MissingArgument = "missing-argument" => "missing argument",
        MinMaxNumber = "min-max-number" => "min/max need a number",
        UnknownModifierBare = "unknown-modifier-bare" => "unknown modifier",
        UnknownModifierNear = "unknown-modifier-near" =>
            "unknown modifier `{word}`; the nearest known is `{near}`",
        UnknownModifierLabel = "unknown-modifier-label" =>
            "unknown modifier `{word}` (a label needs a space before it: `{fixed}`)",
        UnknownModifierAdvantage = "unknown-modifier-advantage" =>
            "unknown modifier `{word}`: roll with advantage as `2d20kh1`, or write `{word}` after a space at the end of `/roll 1d20 {word}`",
        UnknownModifierDisadvantage = "unknown-modifier-disadvantage" =>
            "unknown modifier `{word}`: roll with disadvantage as `2d20kl1`, or write `{word}` after a space at the end of `/roll 1d20 {word}`",
        UnknownFunctionNear = "unknown-function-near" =>
            "unknown function `{word}`; did you mean `{near}`?",
        UnknownFunction = "unknown-function" =>
            "unknown function `{word}`; the functions are {names}",
        Trigonometry = "trigonometry" =>
            "there is no `{word}`: results are whole numbers, so there is no trigonometry; the functions are {names}",
        LabelSpace = "label-space" => "a label needs a space before it",
        LabelSpaceAfter = "label-space-after" => "{inner} (a label needs a space before it)",
        ModifierSpace = "modifier-space" =>
            "modifiers go right after the dice, without a space (`{fixed}`)",
        RepeatWord = "repeat-word" =>
            "to roll several times use the command's `repeat:{times}` (`{word}` after a space is Roll20's repeat; `3d6x6` glued explodes on 6)",
        DecimalPoint = "decimal-point" =>
            "numbers are whole here: `{number}` has a decimal point (`/` divides and truncates; `round(7/2)` rounds, `floor` and `ceil` too)",
        CompareNumber = "compare-number" =>
            "`{written}` needs a number to compare with, like `4d6{modifier}>3`",
        RaCondition = "ra-condition" =>
            "`ra` needs a condition: which dice add another, like `ra1`, `ra<3` or `ra(1|2)`",
        FateFraction = "fate-fraction" =>
            "`dF.{fraction}` is not a Fate die here: `dF` (also `dF.2`) has faces -1, 0, +1, two of each; `dF.1` has one -1, four 0 and one +1",
        SetAsCount = "set-as-count" =>
            "a set like `(1, 2)` cannot be a number of dice; write one expression",
        SetHere = "set-here" => "a set like `(1, 2)` cannot stand here; write one expression",
        RerollForever = "reroll-forever" =>
            "`{written}` would reroll forever (there is always a lowest and a highest die); reroll once with `ro`, like `{fixed}`",
        CompoundByValue = "compound-by-value" =>
            "`{written}`: a compounding explosion goes by value, like `!!>=5`; `!h1` and `eh1` explode the highest die",
        OneWay = "one-way" =>
            "a dice term can explode (or reroll) only one way; combine conditions like `!(>=5|1)`",
        TakesOne = "takes-one" => "{func}() takes exactly one argument",
        TakesTwo = "takes-two" => "{func}() takes exactly two arguments",
        NeedsArgument = "needs-argument" => "{func}() needs at least one argument",
        SqrtNegative = "sqrt-negative" =>
            "{func}() of {value}: no square root of a negative number",
        LogSmall = "log-small" =>
            "{func}() of {value}: the logarithm needs a number of at least 1",
        NegativeCount = "negative-count" => "a negative number of dice ({count})",
        TooLong = "too-long" => "the expression is too long ({length} bytes, at most {max})",
        ExpandedTooLong = "expanded-too-long" =>
            "with its macros expanded, the expression is too long (at most {max} bytes)",
        ExpandedTooDeep = "expanded-too-deep" =>
            "with its macros expanded, the expression nests too deeply (at most {max} levels)",
        Expanded = "expanded" => "with its macros expanded: {inner}",
        TooDeep = "too-deep" => "parentheses and braces nest too deeply (at most {max} levels)",
        TooManyMinus = "too-many-minus" => "too many minus signs in a row (at most {max})",
        TooManyPowers = "too-many-powers" => "too many powers in a row (at most {max})",
        NumberTooLarge = "number-too-large" => "the number {number} is too large",
        Overflow = "overflow" => "the result does not fit into a 64-bit integer",
        DivisionByZero = "division-by-zero" => "division by zero",
        TooManyDice = "too-many-dice" => "too many dice (at most {max} per roll)",
        EmptySeries = "empty-series" => "a die needs at least one face; this series is empty",
        NoFaces = "no-faces" => "a die needs at least one face, not {sides}",
        TooManyFaces = "too-many-faces" => "too many faces (at most {max} per die)",
        TooManyElements = "too-many-elements" =>
            "this roll has too many dice and elements (at most {max})",
        SeriesTooLong = "series-too-long" => "this series is too long (at most {max} elements)",
        UnresolvedMacro = "unresolved-macro" => "the macro ${name} must be resolved before rolling",
        UnresolvedField = "unresolved-field" => "the field @{name} must be resolved before rolling",
        UnknownMacro = "unknown-macro" => "unknown macro ${name}",
        UnknownFieldNone = "unknown-field-none" => "unknown field @{name}; there are no fields",
        UnknownField = "unknown-field" => "unknown field @{name}; there are: {known}",
        MacroCycle = "macro-cycle" => "macro cycle: {chain}",
        TooManyExpansions = "too-many-expansions" =>
            "macros expand more than {max} times (at ${name})",
        BadMacro = "bad-macro" => "macro ${name} is invalid: {inner}",
        TooComplexSteps = "too-complex-steps" =>
            "too complex to compute exactly: {cause} needs more than {max} steps",
        TooComplexMemory = "too-complex-memory" =>
            "too complex to compute exactly: {cause} needs more than {max} MiB of memory",
        Cancelled = "cancelled" => "the computation was cancelled",
        Unsupported = "unsupported" =>
            "exact odds are not computed for rerolls that depend on the other dice (`u`, `rol1`, `ral1`); roll it many times instead",
    }
}

table! {
    /// Words a reason names as an argument: what the parser expected
    /// (`expected-…`, in a list of [`Choice`]s) and what made exact odds too
    /// complex (`cause-…`).
    Phrase {
        ExpectedSides = "expected-sides" => "the sides of the dice (a number, `%`, `F`, `(` or `{`)",
        ExpectedAValue = "expected-a-value" => "a value (a number, dice, `(`, `{` or a function)",
        ExpectedNumberOrParen = "expected-number-or-paren" => "a number or `(`",
        ExpectedAFilter = "expected-a-filter" =>
            "a filter (`h`, `l`, `o`, `e`, a number, or a comparison like `>=5`)",
        ExpectedOperator = "expected-operator" => "an operator",
        ExpectedEnd = "expected-end" => "the end of the expression",
        ExpectedSomethingElse = "expected-something-else" => "something else",
        CauseMixing = "cause-mixing" => "mixing the outcomes",
        CauseCombining = "cause-combining" => "combining the outcomes",
        CauseAdding = "cause-adding" => "adding the outcomes",
        CauseAddingDice = "cause-adding-dice" => "adding this many dice",
        CauseFaces = "cause-faces" => "a die with this many faces",
        CauseSeries = "cause-series" => "listing every way this series can fall",
        CausePool = "cause-pool" => "listing every way this pool can fall",
        CauseExplosions = "cause-explosions" => "following the explosions",
        CauseKeeping = "cause-keeping" => "keeping and dropping among this many dice",
    }
}

impl ReasonId {
    /// The names of the arguments a reason of this id carries, in the order
    /// its English template names them, each once.
    pub fn params(self) -> Vec<&'static str> {
        let mut params = Vec::new();
        for (_, name) in pieces(self.english()) {
            if let Some(name) = name
                && !params.contains(&name)
            {
                params.push(name);
            }
        }
        params
    }
}

/// One item of an "expected …" list: a phrase to translate, or a token of
/// the notation (`` `)` ``) that reads the same in every language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    Phrase(Phrase),
    Token(&'static str),
}

/// The value of a reason's argument.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReasonArg {
    /// Shown as it is: what the user wrote, a name, a list of names.
    Text(String),
    /// A count or a limit (an `i128` holds every `i64`, `u64` and `usize`).
    Integer(i128),
    /// A phrase to translate (a cause of too-complex odds).
    Phrase(Phrase),
    /// Alternatives, said as "a, b or c" (what the parser expected).
    Choices(Vec<Choice>),
    /// The reason of an error inside this one (in a macro, after expansion).
    Reason(Box<Reason>),
}

impl From<&str> for ReasonArg {
    fn from(text: &str) -> Self {
        ReasonArg::Text(text.to_owned())
    }
}

impl From<String> for ReasonArg {
    fn from(text: String) -> Self {
        ReasonArg::Text(text)
    }
}

impl From<char> for ReasonArg {
    fn from(character: char) -> Self {
        ReasonArg::Text(character.to_string())
    }
}

macro_rules! integer_args {
    ($($int:ty),*) => {$(
        impl From<$int> for ReasonArg {
            fn from(number: $int) -> Self {
                ReasonArg::Integer(i128::from(number))
            }
        }
    )*};
}
integer_args!(i64, u64);

impl From<usize> for ReasonArg {
    fn from(number: usize) -> Self {
        // usize is at most 64 bits on every target Rust supports.
        ReasonArg::Integer(i128::try_from(number).unwrap_or(i128::MAX))
    }
}

impl From<Phrase> for ReasonArg {
    fn from(phrase: Phrase) -> Self {
        ReasonArg::Phrase(phrase)
    }
}

impl From<Vec<Choice>> for ReasonArg {
    fn from(choices: Vec<Choice>) -> Self {
        ReasonArg::Choices(choices)
    }
}

impl From<Reason> for ReasonArg {
    fn from(reason: Reason) -> Self {
        ReasonArg::Reason(Box::new(reason))
    }
}

/// Why an expression failed: a [`ReasonId`] and its named arguments.
///
/// ```
/// use dice_core::{ReasonArg, ReasonId};
///
/// let error = dice_core::parse("1d0").unwrap().odds(&Default::default()).unwrap_err();
/// let reason = error.reason();
/// assert_eq!(reason.id(), "no-faces");
/// assert_eq!(reason.form(), ReasonId::NoFaces);
/// assert_eq!(reason.arg("sides"), Some(&ReasonArg::Integer(0)));
/// assert_eq!(reason.to_english(), "a die needs at least one face, not 0");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    form: ReasonId,
    args: Vec<(&'static str, ReasonArg)>,
}

impl Reason {
    pub(crate) fn new(form: ReasonId) -> Reason {
        Reason {
            form,
            args: Vec::new(),
        }
    }

    /// This reason with the argument `name` (one its template names).
    pub(crate) fn with(mut self, name: &'static str, value: impl Into<ReasonArg>) -> Reason {
        debug_assert!(
            self.form.params().contains(&name),
            "{name} is not an argument of {}",
            self.form.id()
        );
        self.args.push((name, value.into()));
        self
    }

    /// The stable id of this reason's form (`too-many-dice`).
    pub fn id(&self) -> &'static str {
        self.form.id()
    }

    /// The form as a value to match on.
    pub fn form(&self) -> ReasonId {
        self.form
    }

    /// The arguments by name, each of [`ReasonId::params`] once.
    pub fn args(&self) -> &[(&'static str, ReasonArg)] {
        &self.args
    }

    /// The argument `name`, if this reason has it.
    pub fn arg(&self, name: &str) -> Option<&ReasonArg> {
        self.args
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, value)| value)
    }

    /// The English message ([`Error::message`](crate::Error::message)).
    pub fn to_english(&self) -> String {
        let mut out = String::new();
        self.write_english(&mut out);
        out
    }

    fn write_english(&self, out: &mut String) {
        for (literal, name) in pieces(self.form.english()) {
            out.push_str(literal);
            if let Some(value) = name.and_then(|name| self.arg(name)) {
                value.write_english(out);
            }
        }
    }
}

impl ReasonArg {
    fn write_english(&self, out: &mut String) {
        match self {
            ReasonArg::Text(text) => out.push_str(text),
            ReasonArg::Integer(number) => {
                let _ = write!(out, "{number}");
            }
            ReasonArg::Phrase(phrase) => out.push_str(phrase.english()),
            ReasonArg::Choices(choices) => {
                for (index, choice) in choices.iter().enumerate() {
                    if index > 0 {
                        out.push_str(if index + 1 == choices.len() {
                            " or "
                        } else {
                            ", "
                        });
                    }
                    out.push_str(match choice {
                        Choice::Phrase(phrase) => phrase.english(),
                        Choice::Token(token) => token,
                    });
                }
            }
            // Nested only as deep as the code nests errors (three at most).
            ReasonArg::Reason(inner) => inner.write_english(out),
        }
    }
}

/// A template as (literal text, the placeholder after it) pairs.
fn pieces(template: &'static str) -> impl Iterator<Item = (&'static str, Option<&'static str>)> {
    let mut rest = template;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(open) = rest.find('{') else {
            let literal = rest;
            rest = "";
            return Some((literal, None));
        };
        let close = rest[open..].find('}').map_or(rest.len(), |at| open + at);
        let literal = &rest[..open];
        let name = rest.get(open + 1..close).unwrap_or("");
        rest = rest.get(close + 1..).unwrap_or("");
        Some((literal, Some(name)))
    })
}
