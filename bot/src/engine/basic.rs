//! The generator engine of the binary: `basic-runner` with the configured sandbox
//! limits. Compiled programs are kept by hash, so a session's every answer does not
//! compile its program again; a session itself is a snapshot in the database
//! between answers.

use std::sync::Arc;

use basic_runner::{
    LimitKind, Limits, LoadError, Program, RndMode, RunError, RunErrorKind, Session, StepState,
};

use super::cache::HashCache;
use super::{
    FinishedRun, GenFailure, GenReason, GenSession, GenState, GenStep, Generators, ProgramCheck,
    ProgramText, SandboxLimit, SyntaxError, Taken,
};
use crate::config::BasicConfig;

/// Compiled programs kept; the shipped one and a server's few installed ones.
const PROGRAM_CACHE: usize = 64;

pub struct BasicEngine {
    limits: Limits,
    programs: HashCache<Program>,
}

/// `basic-runner`'s limits with the configuration's overrides.
pub fn limits_from_config(config: &BasicConfig) -> Limits {
    let mut limits = Limits::default();
    if let Some(value) = config.max_steps_per_resume {
        limits.max_steps_per_resume = value;
    }
    if let Some(value) = config.max_steps_per_session {
        limits.max_steps_per_session = value;
    }
    if let Some(value) = config.max_memory_bytes {
        limits.max_memory_bytes = value;
    }
    if let Some(value) = config.max_stack_depth {
        limits.max_stack_depth = value;
    }
    if let Some(value) = config.max_output_bytes {
        limits.max_output_bytes_per_resume = value;
    }
    if let Some(value) = config.max_program_bytes {
        limits.max_program_bytes = value;
    }
    if let Some(value) = config.max_lines {
        limits.max_program_lines = value;
    }
    if let Some(value) = config.max_input_len {
        limits.max_input_len = value;
    }
    if let Some(value) = config.max_records {
        limits.max_records = value;
    }
    limits
}

impl BasicEngine {
    pub fn new(limits: Limits) -> BasicEngine {
        BasicEngine {
            limits,
            programs: HashCache::new(PROGRAM_CACHE),
        }
    }

    fn compiled(&self, program: &ProgramText) -> Result<Arc<Program>, GenFailure> {
        if let Some(compiled) = self.programs.get(&program.hash) {
            return Ok(compiled);
        }
        let compiled = Arc::new(load(&program.source, &self.limits)?);
        self.programs.insert(program.hash.clone(), compiled.clone());
        Ok(compiled)
    }
}

impl Generators for BasicEngine {
    fn check(&self, source: &str) -> Result<ProgramCheck, GenFailure> {
        let program = load(source, &self.limits)?;
        Ok(ProgramCheck {
            line_numbers: program.line_numbers(),
            assigned_variables: program.assigned_variables(),
            uses_records: program.uses_records(),
            lines: program.line_count(),
            syntax_errors: program
                .diagnostics()
                .iter()
                .map(|diagnostic| SyntaxError {
                    line: diagnostic.line,
                    column: diagnostic.column,
                    problem: diagnostic.problem.clone(),
                })
                .collect(),
        })
    }

    fn start(&self, program: &ProgramText, seed: u64) -> Result<Box<dyn GenSession>, GenFailure> {
        let compiled = self.compiled(program)?;
        let mut session = Session::new(compiled, RndMode::Seeded(seed), self.limits.clone());
        session.set_cancel(super::worker::cancel_flag());
        Ok(Box::new(BasicSession(session)))
    }

    fn restore(
        &self,
        program: &ProgramText,
        snapshot: &str,
    ) -> Result<Box<dyn GenSession>, GenFailure> {
        let compiled = self.compiled(program)?;
        let mut session =
            Session::restore(compiled, snapshot.as_bytes()).map_err(|error| GenFailure {
                reason: GenReason::Restore,
                message: error.to_string(),
                output: String::new(),
            })?;
        // The limits of today's configuration, not those the session was saved with.
        session.set_limits(self.limits.clone());
        session.set_cancel(super::worker::cancel_flag());
        Ok(Box::new(BasicSession(session)))
    }
}

/// Compiles `source`, stopping when the worker's time is up (a check or first start
/// of a large listing is engine work like a run).
fn load(source: &str, limits: &Limits) -> Result<Program, GenFailure> {
    let cancel = super::worker::cancel_flag();
    Program::load_cancellable(source, limits, &cancel).map_err(|e| load_failure(&e))
}

struct BasicSession(Session);

impl GenSession for BasicSession {
    fn resume(&mut self, input: Option<&str>) -> Result<GenStep, GenFailure> {
        let step = self.0.resume(input).map_err(|error| run_failure(&error))?;
        let state = match step.state {
            StepState::NeedsInput { prompt } => GenState::NeedsInput {
                prompt: screen_glyphs(prompt),
            },
            StepState::Finished { records, .. } => GenState::Finished(FinishedRun {
                records: records.into_iter().map(|record| record.fields).collect(),
                variables: self.0.last_alive(),
                captures: self
                    .0
                    .captures()
                    .iter()
                    .map(|capture| capture.variables.clone())
                    .collect(),
                name_inputs: self.name_inputs(),
            }),
        };
        Ok(GenStep {
            output: screen_glyphs(step.output),
            state,
        })
    }

    fn capture_at_line(&mut self, line: u32) -> bool {
        // RECORD, where a program uses it, wins: its captures would only count
        // against the records limit.
        if self.0.program().uses_records() {
            return false;
        }
        self.0.capture_at_line(line)
    }

    fn taken_count(&self) -> usize {
        self.0.records().len() + self.0.captures().len()
    }

    fn taken_since(&self, count: usize) -> Vec<Taken> {
        // A program that uses RECORD takes no captures, so the two never interleave.
        let records = self
            .0
            .records()
            .iter()
            .map(|record| Taken::Record(record.fields.clone()));
        let captures = self
            .0
            .captures()
            .iter()
            .map(|capture| Taken::Capture(capture.variables.clone()));
        records.chain(captures).skip(count).collect()
    }

    fn name_inputs(&self) -> Vec<String> {
        self.0.program().inputs_prompted("NAME")
    }

    fn snapshot(&self) -> Result<String, GenFailure> {
        // basic-runner's snapshots are JSON, so UTF-8.
        String::from_utf8(self.0.snapshot()).map_err(|error| GenFailure {
            reason: GenReason::Restore,
            message: format!("a session snapshot is not text: {error}"),
            output: String::new(),
        })
    }
}

fn run_failure(error: &RunError) -> GenFailure {
    let value = error.limit().unwrap_or_default();
    let line = error.line();
    let limit = |limit| GenReason::Limit { limit, value, line };
    let reason = match error.kind() {
        RunErrorKind::Basic(_) => GenReason::Basic,
        RunErrorKind::Limit(kind) => limit(sandbox_limit(kind)),
        RunErrorKind::InputTooLong => limit(SandboxLimit::InputLength),
        // RunErrorKind is non-exhaustive: a newer kind is the interpreter's, not GW-BASIC's.
        _ => GenReason::Internal,
    };
    GenFailure {
        reason,
        message: error.message().to_owned(),
        output: screen_glyphs(error.output().to_owned()),
    }
}

/// The glyphs of code page 437's codes 1 to 31 and 127, as the IBM PC's screen
/// shows them.
const LOW_GLYPHS: [char; 32] = [
    ' ', '☺', '☻', '♥', '♦', '♣', '♠', '•', '◘', '○', '◙', '♂', '♀', '♪', '♫', '☼', //
    '►', '◄', '↕', '‼', '¶', '§', '▬', '↨', '↑', '↓', '→', '←', '∟', '↔', '▲', '▼',
];

/// A program's output as a player sees it on a PC's screen. basic-runner's
/// transcript keeps the codes a program printed, as GW-BASIC writes them to a
/// file (line ends, tabs and the page break are its layout; the codes GW-BASIC's
/// screen acts on, the bell and the cursor moves, it has already left out), but
/// on the screen `CHR$(1)` is a smiling face and `CHR$(16)` the arrow old menus
/// point with, where Discord would show nothing or a box.
fn screen_glyphs(text: String) -> String {
    let shown =
        |ch: char| matches!(ch, '\u{1}'..='\u{8}' | '\u{b}' | '\u{e}'..='\u{1f}' | '\u{7f}');
    if !text.chars().any(shown) {
        return text;
    }
    text.chars()
        .map(|ch| match ch {
            '\u{7f}' => '⌂',
            ch if shown(ch) => LOW_GLYPHS[ch as usize],
            ch => ch,
        })
        .collect()
}

fn sandbox_limit(kind: LimitKind) -> SandboxLimit {
    match kind {
        LimitKind::StepsPerResume => SandboxLimit::StepsPerInput,
        LimitKind::StepsPerSession => SandboxLimit::StepsPerSession,
        LimitKind::Memory => SandboxLimit::Memory,
        LimitKind::StackDepth => SandboxLimit::Nesting,
        LimitKind::OutputPerResume => SandboxLimit::OutputPerInput,
        LimitKind::Records => SandboxLimit::Records,
        // LimitKind is non-exhaustive; a newer limit is still a memory-like bound.
        _ => SandboxLimit::Memory,
    }
}

fn load_failure(error: &LoadError) -> GenFailure {
    GenFailure {
        reason: GenReason::Load {
            problem: error.detail().clone(),
            line: error.line(),
            refusals: error.refusals().to_vec(),
        },
        message: error.message().to_owned(),
        output: String::new(),
    }
}
