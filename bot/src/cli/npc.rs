//! `tavern npc check FILE.ghul` and `tavern npc play FILE.ghul`: the script author's
//! tools, on `npc-core` alone (no database, no Discord).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Check or play an NPC conversation script.
#[derive(Debug, clap::Args)]
pub struct NpcArgs {
    #[command(subcommand)]
    pub command: NpcCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum NpcCommand {
    /// Print every load error as `line N: message` (exit 1), or nothing (exit 0).
    Check {
        /// The script.
        file: PathBuf,
    },
    /// Run the play protocol: directives and player lines on stdin, the transcript on
    /// stdout, against a fresh in-memory state.
    Play {
        /// The script.
        file: PathBuf,
    },
}

/// Exit code of a file that cannot be read (1 is "the script has errors").
const UNREADABLE: u8 = 2;

pub fn run(args: &NpcArgs) -> ExitCode {
    match &args.command {
        NpcCommand::Check { file } => check(file),
        NpcCommand::Play { file } => play(file),
    }
}

fn check(file: &Path) -> ExitCode {
    let source = match read_script(file) {
        Ok(source) => source,
        Err(code) => return code,
    };
    let errors = npc_core::check(&source);
    let mut out = String::new();
    for error in &errors {
        out.push_str(&format!("{error}\n"));
    }
    if write_stdout(&out).is_err() {
        return ExitCode::from(UNREADABLE);
    }
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn play(file: &Path) -> ExitCode {
    let source = match read_script(file) {
        Ok(source) => source,
        Err(code) => return code,
    };
    let mut input = Vec::new();
    if let Err(error) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("tavern npc play: cannot read stdin: {error}");
        return ExitCode::from(UNREADABLE);
    }
    // Player lines are text; a stray invalid byte must not stop the transcript.
    let input = String::from_utf8_lossy(&input);
    let transcript = npc_core::play(&source, &input);
    if write_stdout(&transcript).is_err() {
        return ExitCode::from(UNREADABLE);
    }
    ExitCode::SUCCESS
}

pub(super) fn read_script(file: &Path) -> Result<String, ExitCode> {
    let bytes = std::fs::read(file).map_err(|error| {
        eprintln!("tavern: cannot read {}: {error}", file.display());
        ExitCode::from(UNREADABLE)
    })?;
    String::from_utf8(bytes).map_err(|error| {
        eprintln!(
            "tavern: {} is not UTF-8 text (byte {})",
            file.display(),
            error.utf8_error().valid_up_to()
        );
        ExitCode::from(UNREADABLE)
    })
}

pub(super) fn write_stdout(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}
