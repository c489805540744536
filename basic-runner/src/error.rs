//! Errors of loading, running and restoring, worded as GW-BASIC words them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A GW-BASIC run-time error, with the number and message GW-BASIC uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum ErrorCode {
    /// 1: `NEXT` with no matching `FOR` on the stack.
    NextWithoutFor,
    /// 2: a line that did not parse was reached, or a `DATA` item did not read as a number.
    SyntaxError,
    /// 3: `RETURN` with no `GOSUB` on the stack.
    ReturnWithoutGosub,
    /// 4: `READ` past the last `DATA` item.
    OutOfData,
    /// 5: an argument out of its range.
    IllegalFunctionCall,
    /// 6: a value too large for its type.
    Overflow,
    /// 7: memory ran out: nesting past `max_stack_depth`, arrays past `max_memory_bytes`.
    OutOfMemory,
    /// 8: a jump to a line that does not exist.
    UndefinedLineNumber,
    /// 9: an array index outside its dimensions.
    SubscriptOutOfRange,
    /// 10: `DIM` of an array that already exists.
    DuplicateDefinition,
    /// 11: division by zero.
    DivisionByZero,
    /// 13: a string where a number belongs or the other way round.
    TypeMismatch,
    /// 15: a string longer than 255 characters.
    StringTooLong,
    /// 18: `FN` called before its `DEF FN` ran.
    UndefinedUserFunction,
    /// 20: `RESUME` outside an error handler.
    ResumeWithoutError,
    /// 26: a `FOR` that has to skip its body but has no `NEXT`.
    ForWithoutNext,
    /// 29: a `WHILE` whose condition is false but that has no `WEND`.
    WhileWithoutWend,
    /// 30: `WEND` with no `WHILE` running.
    WendWithoutWhile,
    /// Any other error number, as `ERROR n` raises it.
    Other(u8),
}

impl ErrorCode {
    /// GW-BASIC's error number (`ERR`).
    pub fn number(self) -> u8 {
        match self {
            ErrorCode::NextWithoutFor => 1,
            ErrorCode::SyntaxError => 2,
            ErrorCode::ReturnWithoutGosub => 3,
            ErrorCode::OutOfData => 4,
            ErrorCode::IllegalFunctionCall => 5,
            ErrorCode::Overflow => 6,
            ErrorCode::OutOfMemory => 7,
            ErrorCode::UndefinedLineNumber => 8,
            ErrorCode::SubscriptOutOfRange => 9,
            ErrorCode::DuplicateDefinition => 10,
            ErrorCode::DivisionByZero => 11,
            ErrorCode::TypeMismatch => 13,
            ErrorCode::StringTooLong => 15,
            ErrorCode::UndefinedUserFunction => 18,
            ErrorCode::ResumeWithoutError => 20,
            ErrorCode::ForWithoutNext => 26,
            ErrorCode::WhileWithoutWend => 29,
            ErrorCode::WendWithoutWhile => 30,
            ErrorCode::Other(number) => number,
        }
    }

    /// The message exactly as GW-BASIC prints it, without the line.
    pub fn message(self) -> &'static str {
        match self {
            ErrorCode::NextWithoutFor => "NEXT without FOR",
            ErrorCode::SyntaxError => "Syntax error",
            ErrorCode::ReturnWithoutGosub => "RETURN without GOSUB",
            ErrorCode::OutOfData => "Out of DATA",
            ErrorCode::IllegalFunctionCall => "Illegal function call",
            ErrorCode::Overflow => "Overflow",
            ErrorCode::OutOfMemory => "Out of memory",
            ErrorCode::UndefinedLineNumber => "Undefined line number",
            ErrorCode::SubscriptOutOfRange => "Subscript out of range",
            ErrorCode::DuplicateDefinition => "Duplicate Definition",
            ErrorCode::DivisionByZero => "Division by zero",
            ErrorCode::TypeMismatch => "Type mismatch",
            ErrorCode::StringTooLong => "String too long",
            ErrorCode::UndefinedUserFunction => "Undefined user function",
            ErrorCode::ResumeWithoutError => "RESUME without error",
            ErrorCode::ForWithoutNext => "FOR without NEXT",
            ErrorCode::WhileWithoutWend => "WHILE without WEND",
            ErrorCode::WendWithoutWhile => "WEND without WHILE",
            ErrorCode::Other(number) => other_message(number),
        }
    }

    /// The error GW-BASIC numbers `number` (for `ERROR n`).
    pub fn from_number(number: u8) -> ErrorCode {
        let known = [
            ErrorCode::NextWithoutFor,
            ErrorCode::SyntaxError,
            ErrorCode::ReturnWithoutGosub,
            ErrorCode::OutOfData,
            ErrorCode::IllegalFunctionCall,
            ErrorCode::Overflow,
            ErrorCode::OutOfMemory,
            ErrorCode::UndefinedLineNumber,
            ErrorCode::SubscriptOutOfRange,
            ErrorCode::DuplicateDefinition,
            ErrorCode::DivisionByZero,
            ErrorCode::TypeMismatch,
            ErrorCode::StringTooLong,
            ErrorCode::UndefinedUserFunction,
            ErrorCode::ResumeWithoutError,
            ErrorCode::ForWithoutNext,
            ErrorCode::WhileWithoutWend,
            ErrorCode::WendWithoutWhile,
        ];
        known
            .into_iter()
            .find(|code| code.number() == number)
            .unwrap_or(ErrorCode::Other(number))
    }
}

/// GW-BASIC's messages for the errors this BASIC never raises itself, as the
/// GW-BASIC 3.2x that PC-BASIC copies spells them (`ERROR 26`'s "FOR without
/// NEXT" already was; the 1983 source's table in GWDATA.ASM has "Out of Paper",
/// "Device I/O Error" and no error 75).
fn other_message(number: u8) -> &'static str {
    match number {
        12 => "Illegal direct",
        14 => "Out of string space",
        16 => "String formula too complex",
        17 => "Can't continue",
        19 => "No RESUME",
        22 => "Missing operand",
        23 => "Line buffer overflow",
        24 => "Device Timeout",
        25 => "Device Fault",
        27 => "Out of paper",
        50 => "FIELD overflow",
        51 => "Internal error",
        52 => "Bad file number",
        53 => "File not found",
        54 => "Bad file mode",
        55 => "File already open",
        57 => "Device I/O error",
        58 => "File already exists",
        61 => "Disk full",
        62 => "Input past end",
        63 => "Bad record number",
        64 => "Bad file name",
        66 => "Direct statement in file",
        67 => "Too many files",
        68 => "Device Unavailable",
        69 => "Communication buffer overflow",
        70 => "Permission Denied",
        71 => "Disk not Ready",
        72 => "Disk media error",
        73 => "Advanced Feature",
        74 => "Rename across disks",
        75 => "Path/File access error",
        76 => "Path not found",
        77 => "Deadlock",
        _ => "Unprintable error",
    }
}

/// Which sandbox limit a run reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum LimitKind {
    /// [`crate::Limits::max_steps_per_resume`].
    StepsPerResume,
    /// [`crate::Limits::max_steps_per_session`].
    StepsPerSession,
    /// [`crate::Limits::max_memory_bytes`]. A run no longer stops with it:
    /// past the limit is GW-BASIC's trappable `Out of memory` or `Out of
    /// string space` (kept for hosts that match on it).
    Memory,
    /// [`crate::Limits::max_stack_depth`]. A run no longer stops with it:
    /// past the limit is GW-BASIC's trappable `Out of memory`.
    StackDepth,
    /// [`crate::Limits::max_output_bytes_per_resume`].
    OutputPerResume,
    /// [`crate::Limits::max_records`].
    Records,
}

impl LimitKind {
    pub(crate) fn describe(self, limit: u64) -> String {
        match self {
            LimitKind::StepsPerResume => format!("Step limit reached ({limit} steps per input)"),
            LimitKind::StepsPerSession => format!("Step limit reached ({limit} steps per session)"),
            LimitKind::Memory => format!("Memory limit reached ({limit} bytes)"),
            LimitKind::StackDepth => {
                format!("Nesting limit reached ({limit} GOSUB/FOR/WHILE/FN levels)")
            }
            LimitKind::OutputPerResume => {
                format!("Output limit reached ({limit} bytes per input)")
            }
            LimitKind::Records => format!("Record limit reached ({limit} characters)"),
        }
    }
}

/// What stopped a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum RunErrorKind {
    /// A GW-BASIC run-time error.
    Basic(ErrorCode),
    /// A sandbox limit.
    Limit(LimitKind),
    /// An input line longer than [`crate::Limits::max_input_len`]; the session still
    /// waits for input and may be resumed with a shorter line.
    InputTooLong,
    /// The host raised the cancel flag ([`crate::Session::set_cancel`]): it no
    /// longer wants the run, which stopped within a few thousand steps.
    Cancelled,
    /// The bytecode broke one of the VM's invariants (a bug in this crate, never the program's).
    Internal,
}

/// A run that stopped: the kind, the BASIC line, GW-BASIC's message and the output
/// produced before the error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunError {
    pub(crate) kind: RunErrorKind,
    pub(crate) line: Option<u32>,
    pub(crate) message: String,
    pub(crate) output: String,
    pub(crate) at_line_start: bool,
    /// The value of the limit reached, for a host that words the message itself
    /// (absent in snapshots written before it was kept).
    #[serde(default)]
    pub(crate) limit: Option<u64>,
}

impl RunError {
    /// What stopped the run.
    pub fn kind(&self) -> RunErrorKind {
        self.kind
    }

    /// The BASIC line number where it stopped, if a line was running.
    pub fn line(&self) -> Option<u32> {
        self.line
    }

    /// The message as GW-BASIC prints it, e.g. `Subscript out of range in 4350`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The value of the limit the run reached: for [`RunErrorKind::Limit`] that
    /// limit (`max_steps_per_resume` for [`LimitKind::StepsPerResume`], …), for
    /// [`RunErrorKind::InputTooLong`] `max_input_len`; `None` for the others. With
    /// [`RunError::kind`] and [`RunError::line`], what a host needs to say the
    /// message in its own words.
    pub fn limit(&self) -> Option<u64> {
        self.limit
    }

    /// The output the program produced in this step before it stopped.
    pub fn output(&self) -> &str {
        &self.output
    }

    /// What a terminal shows after [`RunError::output`]: the message on a line of its
    /// own (GW-BASIC starts a new line first when the cursor is not at the left).
    pub fn transcript_tail(&self) -> String {
        let newline = if self.at_line_start { "" } else { "\n" };
        format!("{newline}{}\n", self.message)
    }

    /// The whole transcript of this step: output, then the message.
    pub fn transcript(&self) -> String {
        format!("{}{}", self.output, self.transcript_tail())
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RunError {}

/// Why a program could not be loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The source is larger than [`crate::Limits::max_program_bytes`].
    TooLarge,
    /// The source has more lines than [`crate::Limits::max_program_lines`].
    TooManyLines,
    /// A line longer than GW-BASIC's 255 characters (GW-BASIC: `Line buffer overflow`).
    LineTooLong,
    /// A line does not start with a line number (GW-BASIC: "Direct statement in file").
    MissingLineNumber,
    /// A line number above 65529.
    BadLineNumber,
    /// A statement or function the sandbox refuses (file I/O, PEEK/POKE, graphics, …).
    Refused,
    /// The compiler produced bytecode the verifier rejects (a bug in this crate).
    Internal,
    /// The host raised the load's cancel flag ([`crate::Program::load_cancellable`]).
    Cancelled,
}

/// What a refused statement or function would reach outside the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum RefusalCategory {
    /// Files, printers, ports (`OPEN`, `LPRINT`, `INP`, …).
    FileAndDeviceIo,
    /// `PEEK`, `POKE`, `CALL`, `USR`, `VARPTR`, `DEF SEG`.
    DirectMemoryAccess,
    /// `SHELL`, `ENVIRON`.
    OperatingSystem,
    /// `DATE$`, `TIME$`.
    Clock,
    /// `SCREEN`, `LINE`, `CIRCLE`, `CSRLIN`, …
    GraphicsAndCursor,
    /// `SOUND`, `PLAY`.
    Sound,
    /// `PEN`, `STICK`, `STRIG`, `KEY`.
    InputDevices,
    /// `LIST`, `NEW`, `RENUM`, … inside a program.
    DirectModeCommands,
    /// Anything else this BASIC does not implement.
    Unsupported,
    /// A statement that names letters which `DEFINT`/`DEFSNG`/`DEFDBL`/`DEFSTR`
    /// can have retyped or not when it runs, in more combinations than the
    /// compiler makes copies of it for.
    RetypedName,
}

impl RefusalCategory {
    /// The category as a load error's message names it, e.g. `file and device I/O`.
    pub fn describe(self) -> &'static str {
        match self {
            RefusalCategory::FileAndDeviceIo => "file and device I/O",
            RefusalCategory::DirectMemoryAccess => "direct memory access",
            RefusalCategory::OperatingSystem => "the operating system",
            RefusalCategory::Clock => "the clock",
            RefusalCategory::GraphicsAndCursor => "graphics and cursor control",
            RefusalCategory::Sound => "sound",
            RefusalCategory::InputDevices => "input devices",
            RefusalCategory::DirectModeCommands => "direct-mode commands",
            RefusalCategory::Unsupported => "not supported by this BASIC",
            RefusalCategory::RetypedName => "a name typed differently by the runs that reach it",
        }
    }
}

/// The parameters of a load error, for a host that says it in its own words.
/// Source lines count from 1 and are lines of the text, not BASIC line numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadErrorDetail {
    /// The source has `bytes` bytes; at most `limit` are loaded.
    TooLarge { bytes: usize, limit: usize },
    /// The source has more than `limit` lines.
    TooManyLines { limit: usize },
    /// A line of `chars` characters, more than `max`; [`LoadError::line`] is its
    /// line number when it has a valid one.
    LineTooLong {
        chars: usize,
        max: usize,
        source_line: usize,
    },
    /// The line at `source_line` does not start with a line number.
    MissingLineNumber { source_line: usize },
    /// The line number `digits` (as written) at `source_line` is above 65529.
    BadLineNumber { digits: String, source_line: usize },
    /// `keyword` is refused because of what it would reach.
    Refused {
        keyword: &'static str,
        category: RefusalCategory,
    },
    /// The verifier rejected the compiled bytecode (a bug in this crate).
    Internal,
    /// The host raised the load's cancel flag.
    Cancelled,
}

impl LoadErrorDetail {
    /// The kind of load error these parameters describe.
    pub fn kind(&self) -> LoadErrorKind {
        match self {
            LoadErrorDetail::TooLarge { .. } => LoadErrorKind::TooLarge,
            LoadErrorDetail::TooManyLines { .. } => LoadErrorKind::TooManyLines,
            LoadErrorDetail::LineTooLong { .. } => LoadErrorKind::LineTooLong,
            LoadErrorDetail::MissingLineNumber { .. } => LoadErrorKind::MissingLineNumber,
            LoadErrorDetail::BadLineNumber { .. } => LoadErrorKind::BadLineNumber,
            LoadErrorDetail::Refused { .. } => LoadErrorKind::Refused,
            LoadErrorDetail::Internal => LoadErrorKind::Internal,
            LoadErrorDetail::Cancelled => LoadErrorKind::Cancelled,
        }
    }
}

/// One statement the sandbox refuses: its BASIC line, its keyword and what it
/// would reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub line: u32,
    pub keyword: &'static str,
    pub category: RefusalCategory,
}

/// A program that failed to load, with the BASIC line (or source line) at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LoadError {
    pub(crate) detail: LoadErrorDetail,
    pub(crate) line: Option<u32>,
    pub(crate) message: String,
    /// Every refused statement, in line order, when the load failed on refusals.
    pub(crate) refusals: Vec<Refusal>,
}

impl LoadError {
    pub(crate) fn new(detail: LoadErrorDetail, line: Option<u32>, message: String) -> LoadError {
        LoadError {
            detail,
            line,
            message,
            refusals: Vec::new(),
        }
    }

    /// Every statement the sandbox refuses, in line order (the first is
    /// [`LoadError::detail`] and [`LoadError::line`]); empty unless the kind is
    /// [`LoadErrorKind::Refused`]. An author fixes them all in one go.
    pub fn refusals(&self) -> &[Refusal] {
        &self.refusals
    }

    /// Why the load failed.
    pub fn kind(&self) -> LoadErrorKind {
        self.detail.kind()
    }

    /// The parameters of the failure (sizes, line numbers, the refused keyword).
    pub fn detail(&self) -> &LoadErrorDetail {
        &self.detail
    }

    /// The BASIC line number at fault, when there is one.
    pub fn line(&self) -> Option<u32> {
        self.line
    }

    /// A one-line message naming the line, e.g. `OPEN is not allowed here (file and device I/O) in 120`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A syntax error found at load time. The line still loads; running into it raises
/// `Syntax error in N`, as in GW-BASIC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The BASIC line number.
    pub line: u32,
    /// The column (1-based, in characters) where parsing failed.
    pub column: usize,
    /// What is wrong, as data, for a host that words it itself.
    pub problem: SyntaxProblem,
}

impl Diagnostic {
    /// What the parser expected, in English, e.g. `expected THEN or GOTO`.
    pub fn message(&self) -> String {
        self.problem.describe()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Syntax error in {} (column {}): {}",
            self.line,
            self.column,
            self.message()
        )
    }
}

/// What is wrong where a line stops parsing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum SyntaxProblem {
    /// Something else was due here.
    Expected(Expected),
    /// A keyword that cannot begin a statement (`THEN` at the start).
    CannotStartStatement(String),
    /// A keyword that has no value (`PRINT GOTO`).
    NotInExpression(String),
    /// More subscripts or arguments in one pair of parentheses than the limit.
    TooManySubscripts(usize),
    /// Parentheses or `IF`s nested past the parser's bound.
    NestedTooDeeply,
    /// More operators on the line than the parser's bound.
    TooComplex,
    /// A function called with a wrong number of arguments.
    ArgumentCount {
        keyword: String,
        min: usize,
        max: usize,
    },
    /// A function that takes exactly one argument (`RND`) called with more.
    OneArgument(String),
}

/// What the parser expected where a line stopped parsing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Expected {
    Expression,
    Statement,
    EndOfStatement,
    /// An item after `PRINT USING`'s format.
    ValueToPrint,
    LineNumber,
    /// A letter (`DEFINT A-Z`).
    Letter,
    VariableName,
    /// BASIC text as BASIC spells it: `=`, `)`, `TO`.
    Code(String),
    /// One of two pieces of BASIC text: `THEN` or `GOTO`.
    Either(String, String),
    /// `;` after `PRINT USING`'s format.
    SemicolonAfterUsingFormat,
    /// `;` or `,` after an `INPUT` prompt.
    SeparatorAfterPrompt,
    /// `;` after a `LINE INPUT` prompt.
    SemicolonAfterPrompt,
    /// `,` and the field's value (`RECORD`).
    CommaAndFieldValue,
}

impl SyntaxProblem {
    /// The English message, as [`Diagnostic::message`] says it.
    pub fn describe(&self) -> String {
        match self {
            SyntaxProblem::Expected(expected) => format!("expected {}", expected.describe()),
            SyntaxProblem::CannotStartStatement(keyword) => {
                format!("{keyword} cannot start a statement")
            }
            SyntaxProblem::NotInExpression(keyword) => {
                format!("{keyword} cannot be used in an expression")
            }
            SyntaxProblem::TooManySubscripts(max) => format!("more than {max} subscripts"),
            SyntaxProblem::NestedTooDeeply => "expression nested too deeply".to_owned(),
            SyntaxProblem::TooComplex => "expression too complex".to_owned(),
            SyntaxProblem::ArgumentCount { keyword, min, max } => {
                format!("{keyword} takes {min} to {max} arguments")
            }
            SyntaxProblem::OneArgument(keyword) => format!("{keyword} takes one argument"),
        }
    }
}

impl Expected {
    fn describe(&self) -> String {
        match self {
            Expected::Expression => "an expression".to_owned(),
            Expected::Statement => "a statement".to_owned(),
            Expected::EndOfStatement => "end of statement".to_owned(),
            Expected::ValueToPrint => "a value to print".to_owned(),
            Expected::LineNumber => "a line number".to_owned(),
            Expected::Letter => "a letter".to_owned(),
            Expected::VariableName => "a variable name".to_owned(),
            Expected::Code(code) => code.clone(),
            Expected::Either(first, second) => format!("{first} or {second}"),
            Expected::SemicolonAfterUsingFormat => "; after the PRINT USING format".to_owned(),
            Expected::SeparatorAfterPrompt => "; or , after the prompt".to_owned(),
            Expected::SemicolonAfterPrompt => "; after the prompt".to_owned(),
            Expected::CommaAndFieldValue => ", and the field's value".to_owned(),
        }
    }
}

/// Why a snapshot could not be restored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RestoreError {
    /// The bytes are not a snapshot.
    #[error("not a session snapshot: {0}")]
    Malformed(String),
    /// The snapshot was written by an incompatible version of this crate.
    #[error("snapshot format version {found} is not supported (expected {expected})")]
    Version {
        /// The version in the snapshot.
        found: u32,
        /// The version this crate writes.
        expected: u32,
    },
    /// The snapshot belongs to another program (its hash differs).
    #[error("snapshot belongs to another program")]
    ProgramMismatch,
    /// The snapshot refers to variables, code or data the program does not have.
    #[error("snapshot does not fit the program: {0}")]
    Inconsistent(String),
}
