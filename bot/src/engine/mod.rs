//! The two engines the core drives, behind small traits: the dice roller
//! (`dice-core`) and the BASIC character generators (`basic-runner`).
//!
//! The core sees only these traits, so its tests can script a generator precisely
//! (expiry, splitting, errors) while the binary plugs in the real libraries.

use rand::RngCore;

pub mod basic;
mod cache;
pub mod dice;
pub mod dice_reason;
pub mod effects;
pub mod npc;
pub mod worker;

/// A rolled expression, rendered.
#[derive(Debug, Clone)]
pub struct RollOutcome {
    pub total: i64,
    /// Discord markdown: `4d6kh3 (6, 5, 3, ~~1~~) = **14**`.
    pub markdown: String,
    /// The roll itself, for the forms only some readers want (encounters): made on
    /// demand, not on every `/roll`.
    roll: dice_core::Roll,
    /// The characters the breakdown may take.
    budget: usize,
}

impl RollOutcome {
    /// Plain text for terminals.
    pub fn plain(&self) -> String {
        self.roll.to_plain(self.budget)
    }

    /// The JSON object of `tavern roll --json`: `total`, `breakdown`, dice.
    pub fn json(&self) -> serde_json::Value {
        serde_json::to_value(&self.roll).unwrap_or_default()
    }
}

/// An expression that cannot be rolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceFailure {
    /// A friendly one-line message.
    pub message: String,
    /// The input, a caret line under the place, and the message.
    pub caret: String,
    /// Byte span in the input.
    pub start: usize,
    pub end: usize,
    /// dice-core's kind of the error, for a reason the catalogue lacks.
    pub kind: dice_core::ErrorKind,
    /// dice-core's reason (an id and its arguments), for the reason in another
    /// language; boxed, so that results carrying a failure stay small.
    pub reason: Box<dice_core::Reason>,
    /// The input and the caret line, without the reason.
    pub excerpt: String,
}

impl DiceFailure {
    /// [`DiceFailure::caret`] with the reason in `lang` (English: the same text).
    pub fn caret_in(&self, lang: crate::i18n::Lang) -> String {
        dice::with_reason(&self.excerpt, &self.reason_in(lang))
    }

    /// [`DiceFailure::message`] in `lang`, safe to show inline: it quotes the input
    /// in code spans, and a quoted backtick must not make a code fence.
    pub fn reason_in(&self, lang: crate::i18n::Lang) -> String {
        let reason = if lang == crate::i18n::Lang::En {
            self.message.clone()
        } else {
            dice_reason::reason(lang, self.kind, &self.reason)
        };
        crate::text::break_fences(&reason)
    }
}

/// The `$macro` and `@FIELD` names an expression refers to, in order, without
/// repeats.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct References {
    pub macros: Vec<String>,
    pub fields: Vec<String>,
    /// The label written after the expression (`1d20+5 to hit`: `to hit`).
    pub label: Option<String>,
}

/// What `$macro` and `@FIELD` references stand for in one roll: looked up in the
/// database by the core before rolling, so the engine itself stays synchronous.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RollContext {
    /// Macro texts by lower-case name, already chosen between the user's personal
    /// macro and the server's (personal shadows server).
    pub macros: std::collections::BTreeMap<String, String>,
    /// The active character's numeric fields by upper-case name (derived ability
    /// modifiers included).
    pub fields: std::collections::BTreeMap<String, i64>,
}

pub trait Dice: Send + Sync {
    /// Parses `expr` and lists its references; an invalid expression is the failure.
    fn references(&self, expr: &str) -> Result<References, DiceFailure>;

    /// Parses `expr`, replaces its references from `context`, and rolls it;
    /// renderings keep to about `budget` characters.
    fn roll(
        &self,
        expr: &str,
        context: &RollContext,
        rng: &mut dyn RngCore,
        budget: usize,
    ) -> Result<RollOutcome, DiceFailure>;

    /// Parses `expr`, replaces its references from `context`, and computes the
    /// exact distribution of its total; returns the resolved text with it.
    /// Slow for complex expressions (bounded by the limits): call it off the
    /// async threads.
    fn odds(
        &self,
        expr: &str,
        context: &RollContext,
    ) -> Result<(String, dice_core::Odds), DiceFailure>;

    /// Resolves `expr` with `macros` (lower-case name to text; every field counts as
    /// 0) without rolling: what saving a macro checks, so that a cycle or an expansion
    /// past the limits is refused before anyone rolls it.
    fn check(
        &self,
        expr: &str,
        macros: &std::collections::BTreeMap<String, String>,
    ) -> Result<(), DiceFailure>;
}

/// A generator program's text, with the hash that identifies it in sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramText {
    pub name: String,
    pub source: std::sync::Arc<str>,
    pub hash: String,
}

impl ProgramText {
    pub fn new(name: &str, source: &str) -> ProgramText {
        ProgramText {
            name: name.to_owned(),
            source: source.into(),
            hash: program_hash(source),
        }
    }
}

/// The identity of a program's text: a session resumes only with the very program it
/// started with.
pub fn program_hash(source: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(source.as_bytes());
    digest
        .iter()
        .take(16)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// One stretch of a generator run: its output, then a question or the end.
#[derive(Debug, Clone, PartialEq)]
pub struct GenStep {
    /// What the program printed; `'\x0c'` (from `CHR$(12)`) marks a new page.
    pub output: String,
    pub state: GenState,
}

#[derive(Debug, Clone, PartialEq)]
pub enum GenState {
    /// Paused at an `INPUT`; `prompt` is what it printed last (e.g. `NAME? `).
    NeedsInput { prompt: String },
    /// The program ended, with what it leaves for its characters.
    Finished(FinishedRun),
}

/// What a finished run leaves: `records` are the characters it reported, each an
/// ordered list of fields; the rest serves programs that report none.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedRun {
    pub records: Vec<Vec<(String, String)>>,
    /// The variables (array elements too) the last time they were alive: before a
    /// closing `CLEAR` or `RUN` wiped them, else at the end.
    pub variables: Vec<(String, String)>,
    /// The variables each time the capture line was about to run
    /// ([`GenSession::capture_at_line`]), in order.
    pub captures: Vec<Vec<(String, String)>>,
    /// String variables the program reads with `INPUT` after a prompt that says
    /// "NAME": where a character's name is when nothing else names it.
    pub name_inputs: Vec<String>,
}

/// A character a run took: handed over with `RECORD` (its fields), or captured at a
/// record map's line (every variable, which the map turns into fields).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taken {
    Record(Vec<(String, String)>),
    Capture(Vec<(String, String)>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenFailureKind {
    /// The program text was refused (size, refused statements).
    Load,
    /// A syntax or run-time error, reported as GW-BASIC would.
    Runtime,
    /// A sandbox limit stopped the program.
    Limit,
    /// A stored session could not be restored.
    Restore,
}

/// A run that stopped with an error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct GenFailure {
    /// Why, as data: what the core words in the player's language.
    pub reason: GenReason,
    /// The engine's own English message, for the log and the command line; for
    /// [`GenReason::Basic`] the line GW-BASIC prints (`Subscript out of range in
    /// 4350`), which players see as it is.
    pub message: String,
    /// Output produced before the error.
    pub output: String,
}

impl GenFailure {
    /// The kind of failure its reason is.
    pub fn kind(&self) -> GenFailureKind {
        match self.reason {
            GenReason::Load { .. } => GenFailureKind::Load,
            GenReason::Limit { .. } => GenFailureKind::Limit,
            GenReason::Restore => GenFailureKind::Restore,
            GenReason::Basic | GenReason::Internal => GenFailureKind::Runtime,
        }
    }
}

/// Why a generator failed, with the numbers and words of the reason, so that the
/// core says it in the player's language instead of the engine's English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenReason {
    /// A GW-BASIC run-time error: [`GenFailure::message`] is GW-BASIC's own line,
    /// part of the program's screen, and stays as it is.
    Basic,
    /// A sandbox limit stopped the run at BASIC line `line`; `value` is the limit.
    Limit {
        limit: SandboxLimit,
        value: u64,
        line: Option<u32>,
    },
    /// The listing cannot load (basic-runner's own parameters, as
    /// [`SyntaxError::problem`] is basic-runner's); `line` is the BASIC line at
    /// fault, if any.
    Load {
        problem: basic_runner::LoadErrorDetail,
        line: Option<u32>,
        /// Every refused statement when the listing is refused (`problem` and
        /// `line` are the first), so that all are named.
        refusals: Vec<basic_runner::Refusal>,
    },
    /// A stored session could not be restored (its details are for the log).
    Restore,
    /// The interpreter broke one of its own rules (a bug, never the program's).
    Internal,
}

/// The sandbox's limits on a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SandboxLimit {
    StepsPerInput,
    StepsPerSession,
    /// Bytes of variables and arrays.
    Memory,
    /// Levels of `GOSUB`, `FOR`, `WHILE` and `FN`.
    Nesting,
    /// Bytes of output per input.
    OutputPerInput,
    /// Characters handed over with `RECORD`.
    Records,
    /// Characters of one answer.
    InputLength,
}

/// A syntax error of a program, found when it is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// The BASIC line number.
    pub line: u32,
    /// 1-based column where reading failed.
    pub column: usize,
    /// What is wrong, as data, for the explanation in the reader's language
    /// (`basic-runner`'s own type, as [`DiceFailure::kind`] is `dice-core`'s).
    pub problem: basic_runner::SyntaxProblem,
}

/// What checking a program found: it loads (refused statements and size limits are a
/// [`GenFailureKind::Load`] failure instead), with these syntax errors, which stop it
/// only when a run reaches them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramCheck {
    pub lines: usize,
    pub syntax_errors: Vec<SyntaxError>,
    /// Every line number, ascending (what a record map's `at` may name).
    pub line_numbers: Vec<u32>,
    /// Variables the program gives a value somewhere (`N$`, `ST`, arrays as `A()`).
    pub assigned_variables: Vec<String>,
    /// Whether the program hands its characters over with `RECORD` itself.
    pub uses_records: bool,
}

pub trait Generators: Send + Sync {
    /// Loads `source` as a program would be loaded to run, and reports what is wrong
    /// with it: every syntax error, or the reason it cannot load at all.
    fn check(&self, source: &str) -> Result<ProgramCheck, GenFailure>;
    /// Starts `program` with an RNG seeded from `seed`.
    fn start(&self, program: &ProgramText, seed: u64) -> Result<Box<dyn GenSession>, GenFailure>;
    /// Restores a session from [`GenSession::snapshot`].
    fn restore(
        &self,
        program: &ProgramText,
        snapshot: &str,
    ) -> Result<Box<dyn GenSession>, GenFailure>;
}

/// A running generator.
pub trait GenSession: Send {
    /// Runs until the next `INPUT` or the end; `input` answers the pending `INPUT`.
    fn resume(&mut self, input: Option<&str>) -> Result<GenStep, GenFailure>;
    /// The whole state as text, for the database.
    fn snapshot(&self) -> Result<String, GenFailure>;
    /// Takes the variables every time `line` is about to run (a record map's `at`);
    /// `false` when the program has no such line or hands its characters over
    /// with `RECORD` (which wins).
    fn capture_at_line(&mut self, line: u32) -> bool;
    /// How many characters the run has taken so far (`RECORD`s and captures).
    fn taken_count(&self) -> usize;
    /// The characters taken after the first `count`, in order: what one step took,
    /// also when the step ended in an error.
    fn taken_since(&self, count: usize) -> Vec<Taken>;
    /// String variables the program reads with `INPUT` after a prompt that says
    /// "NAME" ([`FinishedRun::name_inputs`]).
    fn name_inputs(&self) -> Vec<String>;
}

/// The engines and programs the core works with.
#[derive(Clone)]
pub struct Engines {
    pub dice: std::sync::Arc<dyn Dice>,
    pub generators: std::sync::Arc<dyn Generators>,
    /// Programs that ship with the binary; the first is the default.
    pub builtin_programs: Vec<ProgramText>,
}

/// The dice engine of the binary: `dice-core` with the configured limits.
pub fn real_dice(config: &crate::config::Config) -> std::sync::Arc<dyn Dice> {
    std::sync::Arc::new(dice::DiceEngine::new(dice::limits_from_config(
        &config.dice,
    )))
}

/// The engines of the binary: `dice-core` and `basic-runner` with the configured
/// limits, and the shipped generator program (`basic-runner/programs/chargen.bas`).
pub fn real_engines(config: &crate::config::Config) -> anyhow::Result<Engines> {
    let generators = basic::BasicEngine::new(basic::limits_from_config(&config.basic));
    let shipped = ProgramText::new(SHIPPED_PROGRAM, basic_runner::CHARGEN);
    // A shipped program that does not load is a build mistake; say so at start.
    generators
        .check(&shipped.source)
        .map_err(|failure| anyhow::anyhow!("the shipped chargen.bas does not load: {failure}"))?;
    Ok(Engines {
        dice: real_dice(config),
        generators: std::sync::Arc::new(generators),
        builtin_programs: vec![shipped],
    })
}

/// The name of the shipped generator program.
pub const SHIPPED_PROGRAM: &str = "chargen";
