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
    let input = match read_play_input(&mut std::io::stdin().lock()) {
        Ok(input) => input,
        Err(problem) => {
            eprintln!("tavern npc play: {problem}");
            return ExitCode::from(UNREADABLE);
        }
    };
    let transcript = npc_core::play(&source, &input);
    if write_stdout(&transcript).is_err() {
        return ExitCode::from(UNREADABLE);
    }
    ExitCode::SUCCESS
}

/// The longest line kept of the play input: far beyond any keyword, directive or
/// trade command; the rest of a longer line is skipped unread into memory.
pub const MAX_PLAY_LINE_BYTES: usize = 4096;
/// The most play input read at all.
pub const MAX_PLAY_INPUT_BYTES: usize = 64 * 1024 * 1024;

/// The play protocol's input: lines cut at [`MAX_PLAY_LINE_BYTES`], at most
/// [`MAX_PLAY_INPUT_BYTES`] in all. Player lines are text; a stray invalid byte must
/// not stop the transcript.
pub fn read_play_input(reader: &mut impl std::io::BufRead) -> Result<String, String> {
    let mut input = String::new();
    while let Some(line) = crate::lines::read_line(reader, MAX_PLAY_LINE_BYTES)
        .map_err(|error| format!("cannot read stdin: {error}"))?
    {
        if input.len() + line.bytes.len() > MAX_PLAY_INPUT_BYTES {
            return Err(format!(
                "the input is larger than {MAX_PLAY_INPUT_BYTES} bytes"
            ));
        }
        input.push_str(&String::from_utf8_lossy(&line.bytes));
        input.push('\n');
    }
    Ok(input)
}

/// The script file, read up to one byte past npc-core's size limit (which then
/// refuses it): a link to an endless file is not read whole.
pub(super) fn read_script(file: &Path) -> Result<String, ExitCode> {
    let max_bytes = npc_core::Limits::default().max_source_bytes;
    let mut bytes = Vec::new();
    let read = std::fs::File::open(file).and_then(|opened| {
        opened
            .take(
                u64::try_from(max_bytes)
                    .unwrap_or(u64::MAX)
                    .saturating_add(1),
            )
            .read_to_end(&mut bytes)
    });
    read.map_err(|error| {
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
