//! Load errors: what the install-time checker reports.

use serde::{Deserialize, Serialize};

/// What kind of problem a [`LoadError`] reports; the rulings' letters are in the docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// B1 (and X1): a token or construct the grammar does not allow here.
    Syntax,
    /// B2 / L5: an IMPORT cycle, self-import included.
    ImportCycle,
    /// B3: a NATIVE target, IMPORT or `$call` naming no defined tag.
    UnknownTag,
    /// G4: a CONV or RESP tag defined twice.
    DuplicateTag,
    /// B4: a flag id outside 0..=255.
    FlagRange,
    /// G3 / N4 / G1: a parameter id below -4, a write to ACTIVITY, a count or price out of range.
    BadValue,
    /// B5: a MENU none of whose choices can leave it.
    EndlessMenu,
    /// M4: BREAK outside a MENU.
    BreakOutsideMenu,
    /// M5: a MENU with no choices, too many, a label too long, empty or repeated.
    BadMenu,
    /// B6: a `$call` cycle.
    CallCycle,
    /// B7: blocks nested deeper than the limit.
    TooDeep,
    /// K3: a keyword that another keyword of the same NATIVE block hides.
    UnreachableKeyword,
    /// The script is larger than the limit allows.
    TooLarge,
    /// More errors than the limit allows; the rest were not reported.
    TooManyErrors,
    /// Effects: a required field (target_type, subject, value) is missing.
    MissingField,
    /// Effects: a field given twice in one EFFECT.
    DuplicateField,
    /// Effects: a target type Tavern does not support (the seed's map types).
    Unsupported,
    /// The host raised the load's cancel flag (its time was up); nothing was loaded.
    Cancelled,
}

/// One problem found when a script is installed.
///
/// `Display` gives the line `line N: message` that `tavern npc check` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct LoadError {
    /// 1-based line of the offending token (an unterminated string: where it opens).
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
    /// What kind of problem this is.
    pub kind: LoadErrorKind,
    /// Lower-case message saying what was expected and what was found (English):
    /// `detail` rendered.
    pub message: String,
    /// The message as data, for a host that words it in another language.
    pub detail: LoadMessage,
}

/// What a [`LoadError`] says, as a stable id and named parameters; its English
/// rendering is the error's `message`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadMessage {
    /// Which message this is.
    pub id: MessageId,
    /// Its parameters by name; each name appears once.
    pub args: Vec<(String, MessageArg)>,
}

/// A parameter of a [`LoadMessage`]: text as the script wrote it (a tag, a token, a
/// cycle's path), a number, or a phrase that is itself a message (what a syntax
/// error expected, how the token it found is described).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MessageArg {
    Text(String),
    Integer(i64),
    Phrase(Box<LoadMessage>),
    /// dice-core's reason for refusing a dice expression: its English message, and
    /// (unless deserialized) its structured reason, which a host words as it words
    /// dice-core's errors everywhere else.
    DiceReason {
        english: String,
        #[serde(skip)]
        reason: Option<Box<dice_core::Reason>>,
    },
}

impl MessageArg {
    /// The phrase `id` with `args`.
    pub(crate) fn phrase<const N: usize>(
        id: MessageId,
        args: [(&'static str, MessageArg); N],
    ) -> MessageArg {
        MessageArg::Phrase(Box::new(LoadMessage::new(id, args)))
    }
}

impl std::fmt::Display for MessageArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MessageArg::Text(text) => f.write_str(text),
            MessageArg::Integer(value) => write!(f, "{value}"),
            MessageArg::Phrase(phrase) => f.write_str(&phrase.english()),
            MessageArg::DiceReason { english, .. } => f.write_str(english),
        }
    }
}

impl From<&str> for MessageArg {
    fn from(text: &str) -> Self {
        MessageArg::Text(text.to_string())
    }
}

impl From<String> for MessageArg {
    fn from(text: String) -> Self {
        MessageArg::Text(text)
    }
}

impl From<char> for MessageArg {
    fn from(c: char) -> Self {
        MessageArg::Text(c.to_string())
    }
}

macro_rules! integer_args {
    ($($int:ty),*) => {$(
        impl From<$int> for MessageArg {
            fn from(value: $int) -> Self {
                MessageArg::Integer(i64::try_from(value).unwrap_or(i64::MAX))
            }
        }
    )*};
}
integer_args!(i32, i64, u32, usize);

/// Declares the message ids, each with its stable name and its English template
/// (`{name}` stands for the parameter `name`).
/// The effect engine's refusals (`EffectError`) declare their ids with it too.
macro_rules! message_ids {
    (
        $(#[$enum_doc:meta])* enum $enum:ident;
        $($(#[$doc:meta])* $variant:ident = $name:literal: $english:literal,)*
    ) => {
        $(#[$enum_doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[non_exhaustive]
        pub enum $enum {
            $($(#[$doc])* $variant,)*
        }

        impl $enum {
            /// Every id, so a host can check that it words each of them.
            pub const ALL: &'static [$enum] = &[$($enum::$variant,)*];

            /// The stable name: lower case words joined by `-`.
            pub fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)*
                }
            }

            /// The English wording, `{name}` standing for the parameter `name`: what
            /// the message's `english` fills in.
            pub fn english_template(self) -> &'static str {
                match self {
                    $($enum::$variant => $english,)*
                }
            }
        }
    };
}
pub(crate) use message_ids;

message_ids! {
    /// The id of a [`LoadMessage`]; [`MessageId::name`] is stable across versions.
    enum MessageId;
    // The lexer (X1).
    /// A `/*` comment that never ends.
    UnterminatedComment = "unterminated-comment":
        "unterminated comment: expected `*/`, found end of file",
    /// `integer`: the literal as written.
    IntegerTooLarge = "integer-too-large":
        "integer {integer} does not fit 32 bits (-2147483648 to 2147483647)",
    /// A `$` not followed by a tag.
    CallWithoutTag = "call-without-tag": "expected a response tag right after `$`",
    /// `character`: the character.
    UnexpectedCharacter = "unexpected-character": "unexpected character `{character}`",
    /// A string not closed on its line.
    UnterminatedString = "unterminated-string":
        "unterminated string: expected a closing `\"` on the same line",
    /// A backslash at the end of a line inside a string.
    EscapeAtEndOfLine = "escape-at-end-of-line":
        "unknown escape end of line: only `\\\"` and `\\\\` are allowed",
    /// `character`: what follows the backslash.
    UnknownEscape = "unknown-escape":
        "unknown escape `\\{character}`: only `\\\"` and `\\\\` are allowed",
    // The parser's checks of single statements.
    /// `max`: the nesting limit.
    TooDeep = "too-deep": "blocks nested deeper than {max} levels",
    /// `tag`: the CONV's tag.
    ConvTwice = "conv-twice": "CONV `{tag}` is defined twice",
    /// `tag`: the RESP's tag.
    RespTwice = "resp-twice": "RESP `{tag}` is defined twice",
    /// `text`: the string written as a keyword.
    BadKeywordString = "bad-keyword-string":
        "expected a keyword (one word of letters, digits or `_`), found \"{text}\"",
    /// BREAK outside a MENU (M4).
    BreakOutsideMenu = "break-outside-menu": "BREAK outside a MENU",
    /// `id`: the parameter id given to TAKE.
    TakeGoldOnly = "take-gold-only":
        "TAKE takes gold only: GOLD or its parameter id -2 (got {id})",
    /// SET_PARM with a negative value.
    SetParmNegative = "set-parm-negative": "SET_PARM needs a value of 0 or more",
    /// `statement`, `minimum`, `value`.
    CountTooSmall = "count-too-small":
        "{statement} needs a count of {minimum} or more, found {value}",
    /// `flag`: the flag id (B4).
    FlagRange = "flag-range": "flag id {flag} is out of range 0..255",
    /// `id`: a parameter id below -4 (G3).
    ReservedParameter = "reserved-parameter":
        "parameter id {id} is reserved: ids below -4 do not exist",
    /// `statement`: a write to ACTIVITY (G3).
    ActivityReadOnly = "activity-read-only": "ACTIVITY is read-only: {statement} cannot change it",
    /// `item`: the item tag.
    NegativePrice = "negative-price": "the price of `{item}` must be 0 or more",
    /// `item`: the item tag.
    WareTwice = "ware-twice": "item `{item}` is listed twice in this TRADE",
    /// `label`: the MENU choice.
    NegativeCost = "negative-cost": "the cost of \"{label}\" must be 0 or more",
    /// A MENU without choices (M5).
    MenuEmpty = "menu-empty": "MENU has no choices",
    /// `count`, `max`.
    MenuTooManyChoices = "menu-too-many-choices":
        "MENU has {count} choices; at most {max} are allowed",
    /// An empty MENU label.
    MenuLabelEmpty = "menu-label-empty": "MENU label is empty",
    /// `length`, `max`: in characters.
    MenuLabelTooLong = "menu-label-too-long":
        "MENU label is {length} characters long; at most {max} are allowed",
    /// `label`: the repeated label.
    MenuLabelTwice = "menu-label-twice": "MENU label \"{label}\" appears twice",
    // The whole-file checks (B2, B3, B5, B6, K3).
    /// `path`: the tags of the cycle, joined by ` -> `.
    ImportCycle = "import-cycle": "IMPORT cycle: {path}",
    /// `path`: the `$tag`s of the cycle, joined by ` -> `.
    CallCycle = "call-cycle": "call cycle: {path}",
    /// `tag`: a conversation no CONV defines.
    UnknownConversation = "unknown-conversation": "unknown conversation `{tag}` in IMPORT",
    /// `tag`: a response NATIVE names that no RESP defines.
    UnknownNativeResponse = "unknown-native-response": "unknown response `{tag}` in NATIVE",
    /// `tag`: a response a `$call` names that no RESP defines.
    UnknownCalledResponse = "unknown-called-response": "unknown response `${tag}` in call",
    /// `keyword`, `earlier` and its `line` (K3).
    UnreachableKeyword = "unreachable-keyword":
        "keyword `{keyword}` can never be reached: `{earlier}` on line {line} has the same first four letters",
    /// A MENU no choice leaves (B5).
    EndlessMenu = "endless-menu":
        "MENU can never be left: no choice reaches a BREAK, EXIT, TURN_AWAY or ATTACK",
    /// `effect`: APPLY_EFFECT naming an effect the library lacks.
    UnknownEffect = "unknown-effect":
        "unknown effect `{effect}` in APPLY_EFFECT (the effect library has no such effect)",
    // Whole loads.
    /// `bytes`, `max`.
    ScriptTooLarge = "script-too-large":
        "the script is {bytes} bytes long; at most {max} are allowed",
    /// `bytes`, `max`.
    EffectFileTooLarge = "effect-file-too-large":
        "the effect file is {bytes} bytes long; at most {max} are allowed",
    /// `max`: the errors shown.
    TooManyErrors = "too-many-errors": "too many errors; only the first {max} are shown",
    /// The safety net: nothing reported, yet no script.
    NotLoaded = "not-loaded": "the script could not be loaded",
    /// The host cancelled the load (its time was up).
    LoadCancelled = "load-cancelled": "loading was cancelled",
    // The parser's syntax errors (B1): what it expected, and what it found.
    /// `expected`: a `want-*` phrase; `found`: a `token-*` phrase.
    Expected = "expected": "expected {expected}, found {found}",
    /// The same, when the word found is a known word in the wrong case; `upper`: it
    /// in upper case.
    ExpectedUpperCase = "expected-upper-case":
        "expected {expected}, found {found} (words are case-sensitive: write `{upper}`)",
    /// Phrase: what a script starts with.
    WantDefinition = "want-definition": "CONV or RESP",
    /// Phrase.
    WantConversationTag = "want-conversation-tag": "a conversation tag after CONV",
    /// Phrase.
    WantResponseTag = "want-response-tag": "a response tag after RESP",
    /// Phrase; `keyword`: the keyword as written.
    WantKeywordResponse = "want-keyword-response": "a response tag after keyword `{keyword}`",
    /// Phrase; `statement`: TAKE_ITEM, GIVE_ITEM or CHECK_ITEM.
    WantItemTag = "want-item-tag": "an item tag after {statement}",
    /// Phrase.
    WantEffectTag = "want-effect-tag": "an effect tag after APPLY_EFFECT",
    /// Phrase.
    WantNpcTag = "want-npc-tag": "an NPC tag after CHECK_MEMBER",
    /// Phrase; `after`: a word of the script or an `after-*` phrase.
    WantOpenBrace = "want-open-brace": "`{` after {after}",
    /// Phrase; `line`: where the block opens.
    WantCloseBrace = "want-close-brace": "`}` to close the block opened on line {line}",
    /// Phrase.
    WantConversationPart = "want-conversation-part": "IMPORT, NATIVE or `}`",
    /// Phrase.
    WantImportEntry = "want-import-entry": "a conversation tag or `}` in IMPORT",
    /// Phrase.
    WantNativeEntry = "want-native-entry": "a keyword or `}` in NATIVE",
    /// Phrase.
    WantStatement = "want-statement": "a response statement or `}`",
    /// Phrase.
    WantSayText = "want-say-text": "a string after SAY",
    /// Phrase.
    WantTakeGold = "want-take-gold": "GOLD (or its parameter id -2) after TAKE",
    /// Phrase.
    WantDelta = "want-delta": "a delta after the parameter of CHANGE_PARM",
    /// Phrase.
    WantSetValue = "want-set-value": "a value after the parameter of SET_PARM",
    /// Phrase; `statement`: CHECK_PARM or CHECK_ITEM.
    WantComparedInteger = "want-compared-integer": "an integer after the operator of {statement}",
    /// Phrase; `statement`: SET_FLAG, CLEAR_FLAG or CHECK_FLAG.
    WantFlag = "want-flag": "a flag id after {statement}",
    /// Phrase; `statement`: CHECK_PARM or CHECK_ITEM.
    WantOperator = "want-operator": "a comparison operator (=, !=, <, <=, >, >=) in {statement}",
    /// Phrase; `statement`: the statement that names a parameter.
    WantParameter = "want-parameter":
        "a parameter (an integer, AMOUNT, GOLD, FOOD or ACTIVITY) after {statement}",
    /// Phrase.
    WantTradeEntry = "want-trade-entry": "an item tag or `}` in TRADE",
    /// Phrase; `item`: the ware's tag.
    WantPrice = "want-price": "a price after item `{item}`",
    /// Phrase.
    WantMenuEntry = "want-menu-entry": "a choice label (a string) or `}` in MENU",
    /// Phrase: where a block follows.
    AfterConversationTag = "after-conversation-tag": "the conversation tag",
    /// Phrase: where a block follows.
    AfterResponseTag = "after-response-tag": "the response tag",
    /// Phrase; `statement`: whose second block follows.
    AfterFirstBlock = "after-first-block": "the first block of {statement}",
    /// Phrase; `label`: the MENU choice whose block follows.
    AfterChoice = "after-choice": "choice \"{label}\"",
    /// Phrase; `word`: the word found.
    TokenWord = "token-word": "`{word}`",
    /// Phrase; `value`: the integer found.
    TokenInteger = "token-integer": "integer {value}",
    /// Phrase: an integer too large for 32 bits (already reported).
    TokenLargeInteger = "token-large-integer": "an integer",
    /// Phrase.
    TokenString = "token-string": "a string",
    /// Phrase; `tag`: the call's tag.
    TokenCall = "token-call": "`${tag}`",
    /// Phrase; `operator`: the comparison operator.
    TokenOperator = "token-operator": "`{operator}`",
    /// Phrase.
    TokenOpenBrace = "token-open-brace": "`{`",
    /// Phrase.
    TokenCloseBrace = "token-close-brace": "`}`",
    /// Phrase.
    TokenEnd = "token-end": "end of file",
    // Effect files (issue 14): declarations.
    /// `found`: the character found.
    EffectExpectedDeclaration = "effect-expected-declaration":
        "expected ELEMENTS or EFFECT, found `{found}`",
    /// `found`: the word found; `upper`: it in upper case.
    EffectExpectedDeclarationUpperCase = "effect-expected-declaration-upper-case":
        "expected ELEMENTS or EFFECT, found `{found}` (words are case-sensitive: write `{upper}`)",
    /// `line`: the first ELEMENTS.
    ElementsTwice = "elements-twice":
        "ELEMENTS is declared twice (first on line {line}); declare every element in one list",
    /// `max`.
    TooManyEffects = "too-many-effects": "more than {max} effects in one file",
    /// `tag`, `line`: the first definition.
    EffectTwice = "effect-twice": "EFFECT `{tag}` is defined twice (first on line {line})",
    /// `tag`, `line`: where the element is declared.
    EffectIsElement = "effect-is-element":
        "`{tag}` is already an element (line {line}); elements and effects share one namespace",
    /// ELEMENTS without its list.
    ElementsWithoutBrace = "elements-without-brace": "expected `{` after ELEMENTS",
    /// `line`: where ELEMENTS opens.
    ElementsUnclosed = "elements-unclosed":
        "expected `}` to close ELEMENTS opened on line {line}, found end of file",
    /// `found`: the character found.
    WantElement = "elements-bad-entry": "expected an element name or `}` in ELEMENTS, found `{found}`",
    /// `name`, `max`.
    ElementNameTooLong = "element-name-too-long": "element name `{name}` is longer than {max} characters",
    /// `name`, `line`: the first declaration.
    ElementTwice = "element-twice": "`{name}` is declared twice (first on line {line})",
    /// `max`.
    TooManyElements = "too-many-elements": "more than {max} elements",
    /// EFFECT without a tag.
    EffectWithoutTag = "effect-without-tag": "expected an effect tag after EFFECT",
    /// `tag`, `max`.
    EffectTagTooLong = "effect-tag-too-long": "effect tag `{tag}` is longer than {max} characters",
    /// `tag`.
    EffectWithoutBrace = "effect-without-brace": "expected `{` after EFFECT {tag}",
    /// `tag`, `found`: the character found.
    WantField = "effect-bad-entry": "expected a field name or `}` in EFFECT {tag}, found `{found}`",
    /// `tag`, `line`: where it opens; `found`: the next declaration's word.
    EffectUnclosedBefore = "effect-unclosed-before":
        "expected `}` to close EFFECT {tag} opened on line {line}, found `{found}`",
    /// `tag`, `line`: where it opens.
    EffectUnclosed = "effect-unclosed":
        "expected `}` to close EFFECT {tag} opened on line {line}, found end of file",
    /// `name`, `tag`, `fields`: the known fields.
    UnknownField = "unknown-field": "unknown field `{name}` in EFFECT {tag} (fields: {fields})",
    /// `field`, `tag`, `line`: the first one.
    FieldTwice = "field-twice": "field `{field}` is given twice in EFFECT {tag} (first on line {line})",
    /// `field`.
    FieldWithoutValue = "field-without-value": "field `{field}` needs a value on the same line",
    // Effect files: the fields of one EFFECT.
    /// `tag`, `field`.
    MissingField = "missing-field":
        "EFFECT {tag} has no `{field}` (target_type, subject and value are required)",
    /// `target`, `supported`.
    MapTargetType = "map-target-type":
        "target type `{target}` needs a map, and Tavern has no map (supported: {supported})",
    /// `target`, `supported`.
    UnknownTargetType = "unknown-target-type": "unknown target type `{target}` (supported: {supported})",
    /// `subject`, `subjects`: the known ones.
    UnknownSubject = "unknown-subject": "unknown subject `{subject}` (subjects: {subjects})",
    /// `subject`.
    EffectTargetSubject = "effect-target-subject":
        "target type Effect has only the subject Existence, not `{subject}`",
    /// `field`, `value`.
    YesOrNo = "yes-or-no": "`{field}` takes yes or no, not `{value}`",
    /// `value`.
    BadProbability = "bad-probability":
        "probability takes a number from 0 to 1 (such as 0.25), not `{value}`",
    /// `hook`.
    UnknownHook = "unknown-hook": "unknown hook `{hook}` (hooks: HpReduced)",
    /// `method`.
    UnknownTargetMethod = "unknown-target-method":
        "unknown target_method `{method}` (supported: Effected, the effect's holder)",
    /// `value`.
    BadSource = "bad-source": "source takes only `()` (it is accepted and ignored), not `{value}`",
    /// Existence with mode while_active.
    ExistenceWhileActive = "existence-while-active":
        "Existence cannot be while_active: a removal or a clone cannot be undone",
    /// `value`.
    BadMode = "bad-mode": "mode takes recurring or while_active, not `{value}`",
    /// `value`.
    BadSave = "bad-save":
        "save takes an ability (STR DEX CON INT WIS CHA), a DC from 1 to 100 and, if you like, half or none for a success (such as `DEX 15 half`), not `{value}`",
    /// Protections without a method.
    ProtectionsWithoutMethod = "protections-without-method":
        "a Protections effect needs a method naming what it protects against, such as (BURN)",
    // Effect files: a field's value, a number, a set of elements.
    /// `value`, `subject`, `kind` (INT, SET, …), `forms`: a `forms-*` phrase.
    ValueMisfit = "value-misfit": "value `{value}` does not fit subject {subject} ({kind}: {forms})",
    /// Phrase: the forms of an integer subject's value.
    FormsInteger = "forms-integer": "+N, -N, =N, *N, /N or N, N an integer or dice",
    /// Phrase: the forms of a set subject's value.
    FormsSet = "forms-set": "+S, -S, &S, =S or ~, S a set of elements such as (MAGIC|BURN)",
    /// Phrase: the forms of a yes-no subject's value.
    FormsBool = "forms-bool": "true, false or invert",
    /// Phrase: the forms of a tag subject's value.
    FormsTag = "forms-tag": "=tag or tag",
    /// Phrase: the forms of Existence's value on a character.
    FormsExistence = "forms-existence": "new or false",
    /// `/0`.
    DivisionByZero = "division-by-zero": "division by zero: `/0`",
    /// `value`.
    ExistenceOfEffect = "existence-of-effect":
        "value `{value}` does not fit subject Existence of target type Effect (false removes the matching effects)",
    /// `text`.
    NumberWithField = "number-with-field": "`{text}`: `@` fields and `$` macros are not allowed in effects",
    /// `text`.
    DiceLabelled = "dice-labelled": "dice expression `{text}` has a label; write only the expression",
    /// `rest`, `set`.
    SetUnexpected = "set-unexpected": "unexpected `{rest}` in set `{set}`",
    /// `set`, `max`.
    SetTooDeep = "set-too-deep": "set `{set}` is nested deeper than {max} levels",
    /// `set`.
    SetUnclosed = "set-unclosed": "expected `)` in set `{set}`",
    /// `name`.
    UnknownElement = "unknown-element": "unknown element `{name}` (declare it in ELEMENTS)",
    /// `set`, `found`.
    SetBadStart = "set-bad-start": "expected an element, `(` or `~` in set `{set}`, found `{found}`",
    /// `set`.
    SetEndsEarly = "set-ends-early": "set `{set}` ends too early",
    /// `text`: the expression; `reason`: dice-core's reason ([`MessageArg::DiceReason`]).
    DiceRefused = "dice-refused": "dice expression `{text}` is refused: {reason}",
    /// `reason`: a phrase, why the duration is refused.
    Duration = "duration": "duration: {reason}",
}

impl LoadMessage {
    /// Message `id` with `args`.
    pub(crate) fn new(
        id: MessageId,
        args: impl IntoIterator<Item = (&'static str, MessageArg)>,
    ) -> LoadMessage {
        LoadMessage {
            id,
            args: args
                .into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect(),
        }
    }

    /// The English text: the template with each `{name}` replaced by its parameter.
    pub fn english(&self) -> String {
        fill(self.id.english_template(), &self.args)
    }

    /// The parameter called `name`.
    pub fn arg(&self, name: &str) -> Option<&MessageArg> {
        arg(&self.args, name)
    }
}

/// The parameter called `name` among `args`.
pub(crate) fn arg<'a>(args: &'a [(String, MessageArg)], name: &str) -> Option<&'a MessageArg> {
    args.iter()
        .find(|(arg, _)| arg == name)
        .map(|(_, value)| value)
}

/// `template` with each `{name}` replaced by the parameter `name` of `args`; a brace
/// naming no parameter stays as written (templates quote `{` and `}` of scripts).
pub(crate) fn fill(template: &str, args: &[(String, MessageArg)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let (before, from_brace) = rest.split_at(open);
        out.push_str(before);
        let name = from_brace[1..].split('}').next().unwrap_or("");
        match arg(args, name) {
            Some(value) if from_brace[1..].contains('}') => {
                out.push_str(&value.to_string());
                rest = &from_brace[name.len() + 2..];
            }
            _ => {
                out.push('{');
                rest = &from_brace[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

impl LoadError {
    /// An error whose message is `id` with `args`; its `message` is the English.
    pub(crate) fn said(
        kind: LoadErrorKind,
        line: u32,
        column: u32,
        id: MessageId,
        args: impl IntoIterator<Item = (&'static str, MessageArg)>,
    ) -> LoadError {
        LoadError::from_message(kind, line, column, LoadMessage::new(id, args))
    }

    /// An error whose message is `detail`.
    pub(crate) fn from_message(
        kind: LoadErrorKind,
        line: u32,
        column: u32,
        detail: LoadMessage,
    ) -> LoadError {
        LoadError {
            line,
            column,
            kind,
            message: detail.english(),
            detail,
        }
    }

    /// The offending source line and a caret under the column: what the bot shows
    /// above the message (in the admin's language).
    pub fn pointer(&self, source: &str) -> String {
        let line_index = usize::try_from(self.line.saturating_sub(1)).unwrap_or(usize::MAX);
        let text = source.lines().nth(line_index).unwrap_or("");
        let text = text.trim_end();
        let indent: String = text
            .chars()
            .take(usize::try_from(self.column.saturating_sub(1)).unwrap_or(0))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!("{text}\n{indent}^")
    }

    /// The offending source line, a caret under the column, and the message:
    /// what an admin whose install was refused sees, in English.
    pub fn caret(&self, source: &str) -> String {
        format!("{}\n{self}", self.pointer(source))
    }
}
