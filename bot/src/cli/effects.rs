//! `tavern effects check FILE.ghul` and `tavern effects play FILE.ghul`: the effect
//! author's tools, on `npc-core` alone (no database, no Discord).

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use npc_core::effects::{EffectPlay, check_effects};

use crate::core::encounter::event_lines;
use crate::i18n::Lang;

/// Check an effect library, or play an encounter on stdin.
#[derive(Debug, clap::Args)]
pub struct EffectsArgs {
    #[command(subcommand)]
    pub command: EffectsCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum EffectsCommand {
    /// Print every load error as `line N: message` (exit 1), or nothing (exit 0).
    Check {
        /// The effect file.
        file: PathBuf,
    },
    /// Run the play protocol: directives on stdin, the transcript on stdout.
    Play {
        /// The effect file.
        file: PathBuf,
        /// Word the events as an encounter shows them on Discord (`* Fireball 3d6
        /// (6, 5, 4) = 15 on Orc: 30 → 15 hit points`) instead of the protocol's
        /// own lines; in `--lang`, else the environment's language.
        #[arg(long)]
        worded: bool,
        /// The language of `--worded` lines: de or en.
        #[arg(long, value_parser = super::parse_lang, requires = "worded")]
        lang: Option<Lang>,
    },
}

/// Exit code of a file that cannot be read (1 is "the file has errors").
const UNREADABLE: u8 = 2;

/// Bytes of one stdin line kept; the rest of a longer line is skipped (the
/// engine refuses lines over `MAX_LINE_BYTES` anyway).
const LINE_CAP: u64 = npc_core::effects::MAX_LINE_BYTES as u64 + 1;

pub fn run(args: &EffectsArgs) -> ExitCode {
    match &args.command {
        EffectsCommand::Check { file } => check(file),
        EffectsCommand::Play { file, worded, lang } => {
            let lang = worded.then(|| lang.unwrap_or_else(super::lang_from_environment));
            play(file, lang)
        }
    }
}

fn check(file: &Path) -> ExitCode {
    let source = match super::npc::read_script(file) {
        Ok(source) => source,
        Err(code) => return code,
    };
    let errors = check_effects(&source);
    let out: String = errors.iter().map(|error| format!("{error}\n")).collect();
    if super::npc::write_stdout(&out).is_err() {
        return ExitCode::from(UNREADABLE);
    }
    if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Plays `file` on stdin; with `worded`, the events in that language as the
/// encounter words them (nobody is hidden here).
fn play(file: &Path, worded: Option<Lang>) -> ExitCode {
    let source = match super::npc::read_script(file) {
        Ok(source) => source,
        Err(code) => return code,
    };
    let mut session = match EffectPlay::new(&source) {
        Ok(session) => session,
        Err(errors) => {
            return match super::npc::write_stdout(&errors) {
                Ok(()) => ExitCode::SUCCESS,
                Err(_) => ExitCode::from(UNREADABLE),
            };
        }
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut stdout = std::io::stdout().lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match read_bounded_line(&mut input, &mut buffer) {
            Ok(false) => break,
            Ok(true) => {}
            Err(error) => {
                eprintln!("tavern effects play: cannot read stdin: {error}");
                return ExitCode::from(UNREADABLE);
            }
        }
        // A stray invalid byte must not stop the transcript.
        let line = String::from_utf8_lossy(&buffer);
        let out = match worded {
            None => session.line(&line),
            Some(lang) => session.line_worded(&line, &mut |events, encounter| {
                event_lines(lang, events, encounter, &[])
            }),
        };
        if stdout.write_all(out.as_bytes()).is_err() {
            return ExitCode::from(UNREADABLE);
        }
    }
    if stdout.flush().is_err() {
        return ExitCode::from(UNREADABLE);
    }
    ExitCode::SUCCESS
}

/// Reads one line into `buffer` (without its newline), keeping at most
/// `LINE_CAP` bytes and skipping the rest; false at the end of the input.
fn read_bounded_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<bool> {
    let read = input.by_ref().take(LINE_CAP).read_until(b'\n', buffer)?;
    if read == 0 {
        return Ok(false);
    }
    if buffer.last() == Some(&b'\n') {
        buffer.pop();
        return Ok(true);
    }
    // Cut off: skip to the end of the line without storing it.
    let mut skipped = Vec::new();
    loop {
        skipped.clear();
        let read = input
            .by_ref()
            .take(LINE_CAP)
            .read_until(b'\n', &mut skipped)?;
        if read == 0 || skipped.last() == Some(&b'\n') {
            return Ok(true);
        }
    }
}
