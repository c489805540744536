//! `tavern basic FILE.bas [--rnd gwbasic] [--seed N] [--echo-input] [--max-steps N]`.
//!
//! Runs a program in the sandbox the bot uses, `INPUT` reading lines from stdin as
//! they come (so it works at a terminal and in a pipe). Exit status: 0 when the
//! program ends, or when stdin ends while it waits at an `INPUT` (after the prompt);
//! 1 for a syntax or run-time error (its message ends the transcript) or a program
//! that cannot load (its reason on stderr); 3 when a sandbox limit stops it (an
//! answer longer than the input limit included); 2 for a file that cannot be read or
//! bad arguments.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use basic_runner::{Limits, Program, RndMode, RunErrorKind, Session, StepState};
use rand::RngCore;

/// Run a BASIC program in the terminal.
#[derive(Debug, clap::Args)]
pub struct BasicArgs {
    /// The program.
    pub file: PathBuf,
    /// `gwbasic` reproduces GW-BASIC's RND sequence.
    #[arg(long, value_name = "MODE")]
    pub rnd: Option<RndChoice>,
    /// Seed the default generator (with `--rnd gwbasic`: the number a bare RANDOMIZE
    /// takes instead of asking for it, -32768 to 32767).
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<i64>,
    /// Write each consumed input line after its prompt, as a terminal shows it.
    #[arg(long)]
    pub echo_input: bool,
    /// Stop after this many VM steps between two INPUTs (a limit; exit 3).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum RndChoice {
    Gwbasic,
}

const ERROR: u8 = 1;
const USAGE: u8 = 2;
const LIMIT: u8 = 3;

pub fn run(args: &BasicArgs) -> ExitCode {
    let bytes = match std::fs::read(&args.file) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("tavern basic: {}: {error}", args.file.display());
            return ExitCode::from(USAGE);
        }
    };
    let source = crate::core::text::decode_listing(&bytes);
    let rnd = match rnd_mode(args) {
        Ok(rnd) => rnd,
        Err(message) => {
            eprintln!("tavern basic: {message}");
            return ExitCode::from(USAGE);
        }
    };
    let mut limits = Limits::default();
    // A file on the user's own disk may be as large as it is.
    limits.max_program_bytes = limits.max_program_bytes.max(source.len());
    if let Some(steps) = args.max_steps {
        limits.max_steps_per_resume = steps;
        limits.max_steps_per_session = limits.max_steps_per_session.max(steps);
    }
    let program = match Program::load(&source, &limits) {
        Ok(program) => Arc::new(program),
        Err(error) => {
            eprintln!("tavern basic: {}", error.message());
            return ExitCode::from(ERROR);
        }
    };
    for diagnostic in program.diagnostics() {
        eprintln!("tavern basic: warning: {diagnostic}");
    }
    let max_input_len = limits.max_input_len;
    let mut session = Session::new(program, rnd, limits);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut input: Option<String> = None;
    loop {
        let step = match session.resume(input.as_deref()) {
            Ok(step) => step,
            Err(error) => {
                let _ = out.write_all(error.transcript().as_bytes());
                let _ = out.flush();
                return ExitCode::from(match error.kind() {
                    RunErrorKind::Limit(_) | RunErrorKind::InputTooLong => LIMIT,
                    _ => ERROR,
                });
            }
        };
        // A closed stdout (`| head`) ends the run quietly.
        if out.write_all(step.output.as_bytes()).is_err() || out.flush().is_err() {
            return ExitCode::SUCCESS;
        }
        if let StepState::Finished { .. } = step.state {
            return ExitCode::SUCCESS;
        }
        let Some(line) = read_line(&mut lines, max_input_len) else {
            // Out of input while waiting: the transcript ends after the prompt.
            return ExitCode::SUCCESS;
        };
        if args.echo_input && session.input_is_shown() {
            // after `INPUT;` the program's output goes on right behind the typed text
            let end = if session.input_ends_line() { "\n" } else { "" };
            let _ = write!(out, "{line}{end}");
        }
        input = Some(line);
    }
}

fn rnd_mode(args: &BasicArgs) -> Result<RndMode, String> {
    match (args.rnd, args.seed) {
        (Some(RndChoice::Gwbasic), None) => Ok(RndMode::GwBasic),
        (Some(RndChoice::Gwbasic), Some(seed)) => i16::try_from(seed)
            .map(RndMode::GwBasicWithSeed)
            .map_err(|_| "with --rnd gwbasic, --seed is between -32768 and 32767".to_owned()),
        (None, Some(seed)) => Ok(RndMode::Seeded(seed as u64)),
        (None, None) => Ok(RndMode::Seeded(rand::rng().next_u64())),
    }
}

/// One line of stdin without its line break; `None` at the end (or on a read error).
/// A line longer than `max_chars` characters is read only up to a length that is
/// sure to exceed it (four bytes a character), so the session refuses it as too
/// long without the whole line ever being held.
fn read_line(lines: &mut impl BufRead, max_chars: usize) -> Option<String> {
    let max_bytes = max_chars.saturating_add(1).saturating_mul(4);
    let line = crate::lines::read_line(lines, max_bytes).ok()??;
    Some(crate::core::text::decode_listing(&line.bytes))
}
