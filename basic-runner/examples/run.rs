//! Runs a BASIC program in the terminal: `cargo run --release --example run -- FILE.bas
//! [--rnd gwbasic] [--seed N] [--echo-input] [--max-steps N]`. Input lines come from
//! stdin. Exit status: 0 finished or out of input, 1 BASIC error, 3 limit.

use std::io::{BufRead, Write};
use std::sync::Arc;

use basic_runner::{Limits, Program, RndMode, RunErrorKind, Session, StepState};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let mut gw = false;
    let mut seed: u64 = 0;
    let mut echo = false;
    let mut limits = Limits::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rnd" => gw = args.next().as_deref() == Some("gwbasic"),
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(0),
            "--echo-input" => echo = true,
            "--max-steps" => {
                let steps = args.next().and_then(|s| s.parse().ok()).unwrap_or(u64::MAX);
                limits.max_steps_per_resume = steps;
                limits.max_steps_per_session = steps;
            }
            _ => file = Some(arg),
        }
    }
    let Some(file) = file else {
        eprintln!("usage: run FILE.bas [--rnd gwbasic] [--seed N] [--echo-input] [--max-steps N]");
        std::process::exit(2);
    };
    let source = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        eprintln!("{file}: {e}");
        std::process::exit(2);
    });
    limits.max_program_bytes = limits.max_program_bytes.max(source.len());
    let program = match Program::load(&source, &limits) {
        Ok(program) => Arc::new(program),
        Err(error) => {
            eprintln!("{error}");
            std::process::exit(1);
        }
    };
    for diagnostic in program.diagnostics() {
        eprintln!("{diagnostic}");
    }
    let rnd = if gw {
        RndMode::GwBasic
    } else {
        RndMode::Seeded(seed)
    };
    let mut session = Session::new(program, rnd, limits);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut input: Option<String> = None;
    loop {
        match session.resume(input.as_deref()) {
            Ok(step) => {
                let _ = out.write_all(step.output.as_bytes());
                match step.state {
                    StepState::Finished { .. } => break,
                    StepState::NeedsInput { .. } => match lines.next() {
                        Some(Ok(line)) => {
                            if echo && session.input_is_shown() {
                                let end = if session.input_ends_line() { "\n" } else { "" };
                                let _ = write!(out, "{line}{end}");
                            }
                            input = Some(line);
                        }
                        _ => break,
                    },
                }
            }
            Err(error) => {
                let _ = out.write_all(error.transcript().as_bytes());
                let _ = out.flush();
                let code = match error.kind() {
                    RunErrorKind::Limit(_) => 3,
                    _ => 1,
                };
                std::process::exit(code);
            }
        }
    }
    let _ = out.flush();
}
