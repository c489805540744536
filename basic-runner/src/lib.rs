//! A sandboxed, GW-BASIC-faithful BASIC: a compiler to a stack bytecode and a VM
//! whose sessions pause at every `INPUT` and can be saved and restored whole.
//!
//! Old listings — the 1983 "DM'S PERSONNEL SERVICE" character generator, David
//! Ahl's *BASIC Computer Games* — run unchanged and print exactly what GW-BASIC
//! prints: number formatting, 14-column `PRINT` zones, `INPUT`'s `? ` and
//! `?Redo from start`, the error messages, and (in [`RndMode::GwBasic`]) even the
//! random numbers. Single precision follows GW-BASIC's Microsoft Binary Format
//! arithmetic and decimal conversion bit for bit (`PRINT 1/3` shows `.3333334`);
//! double precision is IEEE `f64`, so its 16th digit can differ.
//!
//! The principal types are [`Program`] (compiled once, shared between sessions with
//! an `Arc`), [`Session`] (one run; [`Session::resume`] runs to the next `INPUT` or the
//! end, [`Session::snapshot`] saves it) and [`Limits`] (the sandbox's budget);
//! [`run_transcript`] drives a session with a list of input lines.
//!
//! ```
//! use std::sync::Arc;
//! use basic_runner::{Limits, Program, RndMode, Session, StepState};
//!
//! let source = "10 INPUT \"NAME\"; N$\n20 PRINT \"HELLO, \"; N$; LEN(N$)\n";
//! let program = Arc::new(Program::load(source, &Limits::default()).unwrap());
//! let mut session = Session::new(program, RndMode::Seeded(1), Limits::default());
//!
//! let step = session.resume(None).unwrap();
//! assert_eq!(step.output, "NAME? ");
//! assert_eq!(step.state, StepState::NeedsInput { prompt: "NAME? ".into() });
//!
//! let step = session.resume(Some("Udo")).unwrap();
//! assert_eq!(step.output, "HELLO, Udo 3 \n");
//! assert!(matches!(step.state, StepState::Finished { .. }));
//! ```
//!
//! # Design
//!
//! Source lines go through a lexer, a parser (an AST whose nodes carry their
//! column), a compiler, a verifier and the VM. The key design decision is to
//! resolve everything the dynamic interpreters of the era looked up at run time
//! when the program loads: variable names become slots, line numbers become code
//! addresses, each `FOR` learns its `NEXT`, and every expression's type picks a
//! typed instruction; common sequences fuse into superinstructions. The VM's hot
//! loop then does no lookups and no allocation for numbers, which makes it fast,
//! and a verifier checks every jump, operand and stack depth before the first
//! instruction runs. A line that does not parse still loads
//! and raises `Syntax error in N` when reached, as in GW-BASIC; all such lines are
//! listed at load time by [`Program::diagnostics`].
//!
//! The sandbox: the crate does no I/O. Output, input, random numbers and
//! character records leave the VM only through host-call instructions
//! (`Op::Ext`), and every resource is bounded by [`Limits`].
//!
//! # Character records
//!
//! The extension statement `RECORD` hands the host a finished character as
//! named fields (several per run are allowed):
//!
//! ```text
//! 900 RECORD "NAME", N$, "CLASS", C$, "LEVEL", 1, "STR", S(1), "HP", HP
//! ```
//!
//! Field names and values are any expressions, in pairs; numbers are given as
//! `PRINT` shows them without spaces. The records come back in
//! [`StepState::Finished`]; a program that does not use `RECORD` still yields
//! its scalar variables there.
//!
//! For listings that never heard of `RECORD`, a host can capture instead:
//! [`Session::capture_at_line`] takes every variable (array elements too) each
//! time a chosen line is about to run ([`Session::captures`]), and
//! [`Session::last_alive`] gives the variables as they were the last time they
//! held values, before a closing `CLEAR` or `RUN` wiped them.

mod ast;
mod capture;
mod code;
mod compiler;
mod cp437;
mod error;
mod input;
mod lexer;
mod limits;
mod mbf;
mod number;
pub mod op;
mod optimize;
mod packed;
mod parser;
mod program;
mod rnd;
mod segment;
mod session;
mod transcript;
mod using;
mod verify;
mod vm;

pub use capture::{Capture, MAX_CAPTURED_VALUES, MAX_ELEMENTS_PER_ARRAY};
pub use error::{
    Diagnostic, ErrorCode, Expected, LimitKind, LoadError, LoadErrorDetail, LoadErrorKind, Refusal,
    RefusalCategory, RestoreError, RunError, RunErrorKind, SyntaxProblem,
};
pub use limits::Limits;
pub use program::{MAX_LINE_CHARS, Program};
pub use rnd::RndMode;
pub use session::{SNAPSHOT_VERSION, Session, Step, StepState};
pub use transcript::{Outcome, Transcript, run_transcript};
pub use vm::CharacterRecord;

/// The source of `programs/chargen.bas`, the character generator behind `/chargen`:
/// classic (B/X-era) ability scores, class, hit points, saving throws and gold,
/// handed over with `RECORD`.
pub const CHARGEN: &str = include_str!("../programs/chargen.bas");

/// Formats a number as GW-BASIC's `PRINT` does (sign position, digits, one space
/// after), for single (`double == false`) or double precision.
pub fn format_number(value: f64, double: bool) -> String {
    let ty = if double {
        number::NumTy::Dbl
    } else {
        number::NumTy::Sng
    };
    let value = if double {
        value
    } else {
        f64::from(value as f32)
    };
    number::format_print(value, ty)
}
