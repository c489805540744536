//! A run of a program, paused at every `INPUT` and serializable whole.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::capture::{self, Capture};
use crate::code::InputTarget;
use crate::cp437::{self, Ch};
use crate::error::{ErrorCode, LimitKind, RestoreError, RunError, RunErrorKind};
use crate::input;
use crate::limits::Limits;
use crate::op::{Ext, Op};
use crate::program::{MAX_LINE_CHARS, Program};
use crate::rnd::{Rnd, RndMode};
use crate::vm::{self, CharacterRecord, Event, Fault, Frame, Machine, Output};

/// The version of the snapshot format [`Session::snapshot`] writes.
/// Version 2 packs array elements into a deflated block (`packed.rs`); version 1
/// snapshots, with plain JSON lists, are still restored.
pub const SNAPSHOT_VERSION: u32 = 2;

/// What one call of [`Session::resume`] produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The output, up to and including an input prompt. `'\x0c'` (from `CHR$(12)`
    /// or `CLS`) marks a page break: the screen was cleared there.
    pub output: String,
    /// Whether the program waits for input or has finished.
    pub state: StepState,
}

impl Step {
    /// The output without the prompt line it ends with (all of it when the program
    /// finished): what a chat message shows above an input box labelled with the prompt.
    pub fn output_before_prompt(&self) -> &str {
        match &self.state {
            StepState::NeedsInput { prompt } => self
                .output
                .strip_suffix(prompt.as_str())
                .unwrap_or(&self.output),
            StepState::Finished { .. } => &self.output,
        }
    }

    /// The output split at page breaks (`CLS`, `CHR$(12)`): the first piece
    /// continues the previous page, each further piece starts a new one.
    pub fn pages(&self) -> std::str::Split<'_, char> {
        self.output.split('\x0c')
    }
}

/// Where a session stands after a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepState {
    /// The program waits at `INPUT` or `LINE INPUT`, for keys at `INPUT$`, or
    /// for the seed of a bare `RANDOMIZE` (GW-BASIC's random-number mode).
    NeedsInput {
        /// The last line of the output, up to where the user types: the `INPUT`
        /// prompt (e.g. `NAME? `) together with anything printed before it on the
        /// same line. It is also the end of [`Step::output`], except where
        /// `INPUT$` waits again on a line it waited on before (keys typed for
        /// it show nothing): the prompt is then the whole line so far.
        prompt: String,
    },
    /// The program ended (`END`, `STOP`, or the last line).
    Finished {
        /// The characters the program handed over with `RECORD`, in order.
        records: Vec<CharacterRecord>,
        /// Every scalar variable at the end, by name (with its type sign: `A$`,
        /// `N%`, `X#`; singles have none), numbers as `PRINT` shows them without spaces.
        variables: Vec<(String, String)>,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
enum Status {
    NotStarted,
    Waiting { form: u32, prompt: String },
    Finished,
    Failed(RunError),
}

/// One run of a program: call [`Session::resume`] until it finishes.
#[derive(Debug, Clone)]
pub struct Session {
    program: Arc<Program>,
    limits: Limits,
    machine: Machine,
    status: Status,
}

#[derive(Serialize, Deserialize)]
struct Snapshot {
    version: u32,
    program_hash: String,
    limits: Limits,
    status: Status,
    machine: Machine,
}

#[derive(Deserialize)]
struct VersionProbe {
    version: u32,
}

impl Session {
    /// A session at the start of the program.
    pub fn new(program: Arc<Program>, rnd: RndMode, limits: Limits) -> Session {
        let machine = Machine::new(&program.code, Rnd::new(rnd));
        Session {
            program,
            limits,
            machine,
            status: Status::NotStarted,
        }
    }

    /// Replaces the session's limits (a restored session keeps the limits it was
    /// saved with until the host sets its current ones).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Gives the session a flag the host raises (from another thread, say at a
    /// deadline) when it no longer wants the run: [`Session::resume`] then stops
    /// within a few thousand steps with an error of kind
    /// [`RunErrorKind::Cancelled`]. The flag is not part of a snapshot.
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.machine.cancel = Some(flag);
    }

    /// The limits the session runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The program this session runs.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// Whether the session has finished or failed.
    pub fn is_over(&self) -> bool {
        matches!(self.status, Status::Finished | Status::Failed(_))
    }

    /// The prompt the session waits at, if it waits.
    pub fn waiting_prompt(&self) -> Option<&str> {
        match &self.status {
            Status::Waiting { prompt, .. } => Some(prompt),
            _ => None,
        }
    }

    /// The character records handed over so far.
    pub fn records(&self) -> &[CharacterRecord] {
        &self.machine.records
    }

    /// Captures every variable each time `line` is about to run, from now on (see
    /// [`Session::captures`]). Captures count against [`Limits::max_records`]
    /// together with `RECORD`s. `false` (and nothing changes) when the program has
    /// no such line.
    pub fn capture_at_line(&mut self, line: u32) -> bool {
        let Some(&(pc, _)) = self.program.code.lines.iter().find(|(_, at)| *at == line) else {
            return false;
        };
        self.machine.capture_pc = Some(pc);
        true
    }

    /// The captures taken at the capture line so far, in order.
    pub fn captures(&self) -> &[Capture] {
        &self.machine.captures
    }

    /// The variables (array elements too) as they were the last time they were
    /// alive: now, unless a `CLEAR` or `RUN` wiped values that more variables held
    /// than hold values now; then as they were just before it.
    pub fn last_alive(&self) -> Vec<(String, String)> {
        let now = capture::variables(&self.machine, &self.program.code, true);
        match &self.machine.last_alive {
            Some(before) if capture::alive_count(before) > capture::alive_count(&now) => {
                before.clone()
            }
            _ => now,
        }
    }

    /// Instructions executed so far.
    pub fn steps(&self) -> u64 {
        self.machine.steps
    }

    /// Runs the program until it waits for input or ends.
    ///
    /// Start with `resume(None)`. At [`StepState::NeedsInput`] pass the line the
    /// user typed (without its line break); `None` there just repeats the prompt.
    /// A wrong count or type of values prints `?Redo from start` and the prompt
    /// again, as GW-BASIC does. After the end, `resume` returns the end again; after
    /// an error, the error again. A line longer than GW-BASIC's 255 characters gets
    /// `?Redo from start` at `INPUT` and is cut to 255 at `LINE INPUT`, as in
    /// GW-BASIC; when [`Limits::max_input_len`] is below 255, a line longer than it is
    /// an error of kind [`RunErrorKind::InputTooLong`] and the session keeps waiting.
    pub fn resume(&mut self, input: Option<&str>) -> Result<Step, RunError> {
        let mut out = Output {
            text: String::new(),
            limit: self.limits.max_output_bytes_per_resume,
        };
        // keys typed for INPUT$ show nothing, so its line goes on
        let line_so_far = match &self.status {
            Status::Waiting { form, prompt } if *form == vm::KEYS_WAIT => prompt.clone(),
            _ => String::new(),
        };
        match self.status.clone() {
            Status::Finished => return Ok(self.finished_step(out.text)),
            Status::Failed(error) => return Err(error),
            Status::NotStarted => self.report_load_overflows(&mut out),
            Status::Waiting { form, prompt } => {
                let Some(line) = input else {
                    return Ok(Step {
                        output: String::new(),
                        state: StepState::NeedsInput { prompt },
                    });
                };
                let line = line.trim_end_matches(['\r', '\n']);
                // GW-BASIC's own buffer takes 255 characters: a host limit at or
                // above that leaves longer lines to accept_input, as GW-BASIC would
                if self.limits.max_input_len < MAX_LINE_CHARS
                    && line.chars().count() > self.limits.max_input_len
                {
                    return Err(RunError {
                        kind: RunErrorKind::InputTooLong,
                        line: self.program.code.line_of(self.machine.pc),
                        message: format!(
                            "Input too long (the limit is {} characters)",
                            self.limits.max_input_len
                        ),
                        output: String::new(),
                        at_line_start: false,
                        limit: Some(self.limits.max_input_len as u64),
                    });
                }
                self.advance_past_typing(form, line);
                if let Some(done) = self.accept_input(form, line, &mut out) {
                    return done;
                }
            }
        }
        let mut step = self.run(out)?;
        if let (StepState::NeedsInput { prompt }, Status::Waiting { prompt: kept, .. }) =
            (&mut step.state, &mut self.status)
            && !line_so_far.is_empty()
            && !step.output.contains(['\n', '\x0c'])
        {
            prompt.insert_str(0, &line_so_far);
            kept.clone_from(prompt);
        }
        Ok(step)
    }

    /// GW-BASIC's `Overflow` for each literal beyond range, printed while it loads
    /// the program, so before anything the program prints (at most what the
    /// output limit holds: the run then stops at that limit as usual).
    fn report_load_overflows(&mut self, out: &mut Output) {
        const MESSAGE: &[u8] = b"Overflow\n";
        let fits = out.limit / MESSAGE.len() + 1;
        for _ in 0..self.program.load_overflows().min(fits) {
            vm::write_text(&mut self.machine, out, MESSAGE);
        }
    }

    /// Where the cursor is after the user's line: the Enter ends the line, but
    /// after `INPUT;` the cursor stays behind what was typed.
    fn advance_past_typing(&mut self, form_id: u32, line: &str) {
        if form_id == vm::KEYS_WAIT {
            // INPUT$ shows nothing of what was typed
            return;
        }
        let keep_line = self
            .program
            .code
            .inputs
            .get(form_id as usize)
            .is_some_and(|form| form.keep_line);
        if !keep_line {
            self.machine.column = 0;
            return;
        }
        let width = self.machine.width;
        let typed = u16::try_from(line.chars().count()).unwrap_or(u16::MAX);
        let mut column = self.machine.column.saturating_add(typed);
        if width != 255 && width > 0 {
            column %= width;
        }
        self.machine.column = column;
    }

    /// Whether what the user types at this wait shows on the screen: it does
    /// at `INPUT`, `LINE INPUT` and the seed prompt, not at `INPUT$`, which
    /// takes keys without echoing them.
    pub fn input_is_shown(&self) -> bool {
        !matches!(&self.status, Status::Waiting { form, .. } if *form == vm::KEYS_WAIT)
    }

    /// Whether the user's Enter at the waiting `INPUT` ends the output line (it
    /// does except after `INPUT;`), for hosts that echo what was typed.
    pub fn input_ends_line(&self) -> bool {
        let Status::Waiting { form, .. } = &self.status else {
            return true;
        };
        if *form == vm::KEYS_WAIT {
            return false;
        }
        self.program
            .code
            .inputs
            .get(*form as usize)
            .is_none_or(|input| !input.keep_line)
    }

    /// The line typed for `INPUT$`: its characters are the keys (at most a
    /// line's 255), an empty line the Enter key. The pc stays on the
    /// `INPUT$`, which takes them, or waits for more. For a polling `INKEY$`
    /// only the first is a key: an answer such as `yes` to a Y/N question
    /// asked with it leaves nothing behind to answer the next one.
    fn accept_keys(&mut self, line: &str) {
        let polling = key_wait_at(&self.program, self.machine.pc) == Some(Ext::AwaitKey);
        let mut keys = cp437::encode(line);
        keys.truncate(if polling { 1 } else { MAX_LINE_CHARS });
        if keys.is_empty() {
            keys.push(Ch::from(b'\r'));
        }
        self.machine.keys.extend(keys);
    }

    /// Seeds GW-BASIC's generator from the line typed at the `RANDOMIZE` prompt;
    /// `Some` if the step ends here (asked again, or `Overflow`).
    fn accept_seed(&mut self, line: &str, out: &mut Output) -> Option<Result<Step, RunError>> {
        match vm::typed_seed(&cp437::encode(line)) {
            // GW-BASIC just asks again, without "?Redo from start".
            None => Some(Ok(self.ask_for_seed(out))),
            Some(Err(fault)) => {
                // a seed out of range is an Overflow ON ERROR can trap, as in GW-BASIC
                self.trap_or_fail(fault, out)
            }
            Some(Ok(seed)) => {
                self.machine.rnd.randomize_typed(seed);
                self.machine.pc += 1;
                None
            }
        }
    }

    /// An error raised while the session waits at a prompt: to the `ON ERROR`
    /// handler if one takes it (`None`: the run goes on there), else the end.
    fn trap_or_fail(&mut self, fault: Fault, out: &mut Output) -> Option<Result<Step, RunError>> {
        let program = Arc::clone(&self.program);
        if let Some(handler) =
            vm::trap_at_pc(&mut self.machine, &program.code, &self.limits, out, fault)
        {
            self.machine.pc = handler;
            return None;
        }
        Some(Err(self.fail(fault, out)))
    }

    /// Writes GW-BASIC's seed prompt of a bare `RANDOMIZE` and waits for the seed.
    fn ask_for_seed(&mut self, out: &mut Output) -> Step {
        vm::write_text(&mut self.machine, out, vm::SEED_PROMPT_TEXT);
        self.waiting_step(vm::SEED_PROMPT, std::mem::take(&mut out.text))
    }

    /// Parses and assigns an input line; `Some` if the step ends here (a redo or an error).
    fn accept_input(
        &mut self,
        form_id: u32,
        line: &str,
        out: &mut Output,
    ) -> Option<Result<Step, RunError>> {
        if form_id == vm::SEED_PROMPT {
            return self.accept_seed(line, out);
        }
        if form_id == vm::KEYS_WAIT {
            self.accept_keys(line);
            return None;
        }
        let program = Arc::clone(&self.program);
        let Some(form) = program.code.inputs.get(form_id as usize) else {
            return Some(Err(self.fail(Fault::Internal, out)));
        };
        // GW-BASIC's line buffer holds 255 characters: LINE INPUT keeps those,
        // INPUT asks again (one character more tells the two apart)
        let kept = line
            .char_indices()
            .nth(MAX_LINE_CHARS + 1)
            .map_or(line, |(end, _)| &line[..end]);
        let bytes = cp437::encode(kept);
        let entries = if form.whole_line {
            // GW-BASIC reads the line off the screen, where trailing blanks are not kept
            let kept = bytes
                .iter()
                .rposition(|&c| c != cp437::Ch::from(b' '))
                .map_or(0, |last| last + 1);
            let mut text = bytes;
            text.truncate(kept.min(255));
            Ok(vec![input::Entry::Str(text)])
        } else if bytes.len() > MAX_LINE_CHARS {
            Err(input::Redo::Retype)
        } else {
            let kinds: Vec<input::Target> = form.targets.iter().map(InputTarget::kind).collect();
            input::parse(&bytes, &kinds)
        };
        let entries = match entries {
            Ok(entries) => entries,
            Err(redo) => {
                if redo == input::Redo::Overflow {
                    // the reader's overflow (MATH1.ASM, OVFLS): under ON ERROR
                    // TRAPER sends it to the trap as error 6, nothing assigned;
                    // else it prints the message and INPUT asks again
                    if self.machine.on_error.is_some() {
                        return self.trap_or_fail(Fault::Basic(ErrorCode::Overflow), out);
                    }
                    vm::write_text(&mut self.machine, out, b"Overflow\n");
                }
                if redo == input::Redo::RadixOverflow {
                    vm::write_text(&mut self.machine, out, b"Overflow\n");
                }
                vm::write_text(&mut self.machine, out, b"?Redo from start\n");
                vm::write_text(&mut self.machine, out, &form.prompt);
                return Some(Ok(self.waiting_step(form_id, std::mem::take(&mut out.text))));
            }
        };
        if let Err(fault) = vm::assign_input(
            &mut self.machine,
            &program.code,
            &self.limits,
            form,
            entries,
            out,
        ) {
            // an integer out of range is an error ON ERROR can trap
            return self.trap_or_fail(fault, out);
        }
        self.machine.pc += 1;
        None
    }

    fn run(&mut self, mut out: Output) -> Result<Step, RunError> {
        let program = Arc::clone(&self.program);
        // a LINE INPUT's error goes to the trap and the run on (the loop below):
        // the resume's budget counts every round of it
        let started = self.machine.steps;
        loop {
            let session_left = self
                .limits
                .max_steps_per_session
                .saturating_sub(self.machine.steps);
            let resume_left = self
                .limits
                .max_steps_per_resume
                .saturating_sub(self.machine.steps.saturating_sub(started));
            let (budget, budget_limit) = if session_left < resume_left {
                (session_left, LimitKind::StepsPerSession)
            } else {
                (resume_left, LimitKind::StepsPerResume)
            };
            let result =
                self.machine
                    .run(&program.code, &mut out, &self.limits, budget, budget_limit);
            let Ok(Event::Input(form)) = result else {
                return self.ran(result, out);
            };
            if form == vm::SEED_PROMPT {
                return Ok(self.ask_for_seed(&mut out));
            }
            if form == vm::KEYS_WAIT {
                // INPUT$ shows no prompt: the user types at the cursor
                return Ok(self.waiting_step(form, std::mem::take(&mut out.text)));
            }
            let Some(input_form) = program.code.inputs.get(form as usize) else {
                return Err(self.fail(Fault::Internal, &mut out));
            };
            vm::write_text(&mut self.machine, &mut out, &input_form.prompt);
            // LINE INPUT makes its variable (PTRGET) after the prompt and before
            // it reads the line (GWMAIN.ASM, LINE): Out of memory comes first
            if let Err(fault) = vm::ready_line_input(
                &mut self.machine,
                &program.code,
                &self.limits,
                input_form,
                &mut out,
            ) {
                if let Some(done) = self.trap_or_fail(fault, &mut out) {
                    return done;
                }
                continue;
            }
            return Ok(self.waiting_step(form, out.text));
        }
    }

    /// The step a run that did not stop at an input ends in.
    fn ran(&mut self, result: Result<Event, Fault>, mut out: Output) -> Result<Step, RunError> {
        let program = Arc::clone(&self.program);
        match result {
            Ok(Event::Input(_)) => Err(self.fail(Fault::Internal, &mut out)),
            // GW-BASIC's PRGEND (GWMAIN.ASM): running off the end of the text
            // while ONEFLG says a handler runs is "No RESUME" (19), at the
            // last line run and never trapped (the handler is running); an
            // END statement ends the program without it (ENDCON)
            Ok(Event::End)
                if self.machine.handling.is_some()
                    && self.machine.pc == program.code.text_end + 1 =>
            {
                self.machine.pc = program.code.text_end;
                Err(self.fail(Fault::Basic(ErrorCode::from_number(19)), &mut out))
            }
            Ok(Event::End) => {
                self.status = Status::Finished;
                Ok(self.finished_step(out.text))
            }
            Ok(Event::Stop) => {
                // `Break in` names `CURLIN` (see `Machine::curlin`)
                let line = self
                    .machine
                    .error_line(&program.code, self.machine.pc.saturating_sub(1));
                if self.machine.column != 0 {
                    vm::write_text(&mut self.machine, &mut out, b"\n");
                }
                let message = match line {
                    Some(line) => format!("Break in {line}\n"),
                    None => "Break\n".to_string(),
                };
                vm::write_text(&mut self.machine, &mut out, message.as_bytes());
                self.status = Status::Finished;
                Ok(self.finished_step(out.text))
            }
            Err(fault) => Err(self.fail(fault, &mut out)),
        }
    }

    fn waiting_step(&mut self, form: u32, output: String) -> Step {
        let prompt = output
            .rfind(['\n', '\x0c'])
            .map_or(output.as_str(), |at| &output[at + 1..])
            .to_string();
        self.status = Status::Waiting {
            form,
            prompt: prompt.clone(),
        };
        Step {
            output,
            state: StepState::NeedsInput { prompt },
        }
    }

    fn finished_step(&self, output: String) -> Step {
        Step {
            output,
            state: StepState::Finished {
                records: self.machine.records.clone(),
                variables: self.variables(),
            },
        }
    }

    /// Every scalar variable with its current value, sorted by name.
    pub fn variables(&self) -> Vec<(String, String)> {
        capture::variables(&self.machine, &self.program.code, false)
    }

    fn fail(&mut self, fault: Fault, out: &mut Output) -> RunError {
        let code = &self.program.code;
        let pc = self.machine.pc;
        let mut reached = None;
        let (kind, line, message) = match fault {
            Fault::Basic(error) => {
                let line = self.machine.error_line(code, pc);
                (RunErrorKind::Basic(error), line, gw_message(error, line))
            }
            Fault::BasicAtLine(error, line) => (
                RunErrorKind::Basic(error),
                Some(line),
                gw_message(error, Some(line)),
            ),
            Fault::Limit(limit) => {
                let line = self.machine.error_line(code, pc);
                let value = match limit {
                    LimitKind::StepsPerResume => self.limits.max_steps_per_resume,
                    LimitKind::StepsPerSession => self.limits.max_steps_per_session,
                    LimitKind::Memory => self.limits.max_memory_bytes as u64,
                    LimitKind::StackDepth => self.limits.max_stack_depth as u64,
                    LimitKind::OutputPerResume => self.limits.max_output_bytes_per_resume as u64,
                    LimitKind::Records => self.limits.max_records as u64,
                };
                reached = Some(value);
                let mut message = limit.describe(value);
                if let Some(line) = line {
                    message.push_str(&format!(" in {line}"));
                }
                (RunErrorKind::Limit(limit), line, message)
            }
            Fault::Cancelled => (
                RunErrorKind::Cancelled,
                self.machine.error_line(code, pc),
                "Cancelled by the host".to_string(),
            ),
            Fault::Internal | Fault::Retune(_) | Fault::AwaitKeys => (
                RunErrorKind::Internal,
                self.machine.error_line(code, pc),
                "Internal error in the BASIC VM".to_string(),
            ),
        };
        if matches!(kind, RunErrorKind::Limit(LimitKind::OutputPerResume)) {
            let mut cut = out.limit.min(out.text.len());
            while !out.text.is_char_boundary(cut) {
                cut -= 1;
            }
            out.text.truncate(cut);
        }
        let error = RunError {
            kind,
            line,
            message,
            output: std::mem::take(&mut out.text),
            at_line_start: self.machine.column == 0,
            limit: reached,
        };
        self.status = Status::Failed(error.clone());
        error
    }

    /// The whole session as bytes (JSON, versioned): program hash, program counter,
    /// stacks, variables, arrays, RNG state, output column and records.
    pub fn snapshot(&self) -> Vec<u8> {
        let snapshot = Snapshot {
            version: SNAPSHOT_VERSION,
            program_hash: self.program.hash(),
            limits: self.limits.clone(),
            status: self.status.clone(),
            machine: self.machine.clone(),
        };
        serde_json::to_vec(&snapshot).unwrap_or_default()
    }

    /// A session from a snapshot of a session of the same program.
    pub fn restore(program: Arc<Program>, snapshot: &[u8]) -> Result<Session, RestoreError> {
        let probe: VersionProbe =
            serde_json::from_slice(snapshot).map_err(|e| RestoreError::Malformed(e.to_string()))?;
        if !(1..=SNAPSHOT_VERSION).contains(&probe.version) {
            return Err(RestoreError::Version {
                found: probe.version,
                expected: SNAPSHOT_VERSION,
            });
        }
        let snapshot: Snapshot =
            serde_json::from_slice(snapshot).map_err(|e| RestoreError::Malformed(e.to_string()))?;
        if snapshot.program_hash != program.hash() {
            return Err(RestoreError::ProgramMismatch);
        }
        check_fits(&program, &snapshot.machine)?;
        let waits_for_seed =
            |form: u32| form == vm::SEED_PROMPT && snapshot.machine.rnd.asks_for_seed();
        let waits_for_keys = |form: u32| {
            form == vm::KEYS_WAIT && key_wait_at(&program, snapshot.machine.pc).is_some()
        };
        if let Status::Waiting { form, .. } = &snapshot.status
            && *form as usize >= program.code.inputs.len()
            && !waits_for_seed(*form)
            && !waits_for_keys(*form)
        {
            return Err(RestoreError::Inconsistent("input form".to_string()));
        }
        let mut machine = snapshot.machine;
        machine.fit_segment(&program.code);
        Ok(Session {
            program,
            limits: snapshot.limits,
            machine,
            status: snapshot.status,
        })
    }
}

fn gw_message(error: ErrorCode, line: Option<u32>) -> String {
    match line {
        Some(line) => format!("{} in {line}", error.message()),
        None => error.message().to_string(),
    }
}

/// A snapshot of the same program always fits; this guards against edited bytes.
/// The wait for keys at `pc` (`INPUT$`'s or a polled `INKEY$`'s), if one is there.
fn key_wait_at(program: &Program, pc: u32) -> Option<Ext> {
    match program.code.ops.get(pc as usize) {
        Some(Op::Ext(wait @ (Ext::AwaitKeys | Ext::AwaitKey))) => Some(*wait),
        _ => None,
    }
}

fn check_fits(program: &Program, machine: &Machine) -> Result<(), RestoreError> {
    let code = &program.code;
    let bad = |what: &str| Err(RestoreError::Inconsistent(what.to_string()));
    let pcs = code.ops.len() as u32;
    if machine.pc > pcs {
        return bad("program counter");
    }
    if machine.nums.len() != code.num_vars.len() || machine.strs.len() != code.str_vars.len() {
        return bad("variables");
    }
    if machine.arrays.len() != code.arrays.len() {
        return bad("arrays");
    }
    for (array, info) in machine.arrays.iter().zip(&code.arrays) {
        let Some(array) = array else {
            continue;
        };
        let elements = array.bounds.iter().try_fold(1usize, |acc, &bound| {
            acc.checked_mul((usize::from(bound) + 1).checked_sub(usize::from(array.base))?)
        });
        let len = match &array.data {
            vm::ArrayData::Num(values) if !info.is_str => values.len(),
            vm::ArrayData::Str(values) if info.is_str => values.len(),
            _ => return bad("array type"),
        };
        if elements != Some(len) {
            return bad("array size");
        }
    }
    if machine.active_defs.len() != code.fn_names.len()
        || machine
            .active_defs
            .iter()
            .flatten()
            .any(|&def| def as usize >= code.defs.len())
    {
        return bad("function definitions");
    }
    if machine.data_ptr as usize > code.data.len() {
        return bad("DATA pointer");
    }
    if machine.on_error.is_some_and(|pc| pc >= pcs)
        || machine
            .handling
            .is_some_and(|(resume, next)| resume > pcs || next > pcs)
    {
        return bad("error handler");
    }
    for frame in &machine.frames {
        let ok = match frame {
            Frame::For {
                var, body, exit, ..
            } => (*var as usize) < code.num_vars.len() && *body <= pcs && *exit <= pcs,
            Frame::Gosub { ret } => *ret <= pcs,
            Frame::While { start } => *start < pcs,
            Frame::Fn {
                ret,
                saved_nums,
                saved_strs,
                ..
            } => {
                *ret <= pcs
                    && saved_nums
                        .iter()
                        .all(|(slot, _)| (*slot as usize) < code.num_vars.len())
                    && saved_strs
                        .iter()
                        .all(|(slot, _)| (*slot as usize) < code.str_vars.len())
            }
        };
        if !ok {
            return bad("control stack");
        }
    }
    Ok(())
}
