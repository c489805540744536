//! `tavern basic FILE.bas [--rnd gwbasic] [--seed N] [--echo-input] [--max-steps N]`.

use std::path::PathBuf;
use std::process::ExitCode;

/// Run a BASIC program in the terminal.
#[derive(Debug, clap::Args)]
pub struct BasicArgs {
    /// The program.
    pub file: PathBuf,
    /// `gwbasic` reproduces GW-BASIC's RND sequence.
    #[arg(long, value_name = "MODE")]
    pub rnd: Option<RndChoice>,
    /// Seed the default generator.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write each consumed input line after its prompt, as a terminal shows it.
    #[arg(long)]
    pub echo_input: bool,
    /// Stop after this many steps per INPUT (a limit; exit 3).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum RndChoice {
    Gwbasic,
}

pub fn run(_args: &BasicArgs) -> ExitCode {
    eprintln!("tavern basic: waiting for basic-runner");
    ExitCode::from(70)
}
