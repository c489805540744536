//! The sandbox budget every load and every session runs under.

use serde::{Deserialize, Serialize};

/// Bounds on what a program may use; every field is configurable and has a default.
///
/// A program that reaches one of them stops with a [`crate::RunError`] whose kind is
/// [`crate::RunErrorKind::Limit`], naming the limit and the BASIC line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// VM instructions one call of [`crate::Session::resume`] may execute.
    pub max_steps_per_resume: u64,
    /// VM instructions a whole session may execute.
    pub max_steps_per_session: u64,
    /// Memory a session may hold: array elements (8 bytes a number, 24 a string slot)
    /// plus the bytes of every string held in variables.
    pub max_memory_bytes: usize,
    /// Nesting of `GOSUB`, `FOR`, `WHILE` and user function calls together.
    pub max_stack_depth: usize,
    /// Output bytes one call of `resume` may produce.
    pub max_output_bytes_per_resume: usize,
    /// Size of the program source in bytes.
    pub max_program_bytes: usize,
    /// Number of program lines.
    pub max_program_lines: usize,
    /// Characters of one input line; below 255, a longer line is rejected and the
    /// session keeps waiting. At 255 or more GW-BASIC's rule applies instead: an
    /// `INPUT` answer beyond 255 characters gets `?Redo from start`, a `LINE INPUT`
    /// line keeps its first 255.
    pub max_input_len: usize,
    /// Character records one session may hand over.
    pub max_records: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps_per_resume: 10_000_000,
            max_steps_per_session: 200_000_000,
            max_memory_bytes: 16 * 1024 * 1024,
            max_stack_depth: 1_000,
            max_output_bytes_per_resume: 256 * 1024,
            max_program_bytes: 512 * 1024,
            max_program_lines: 20_000,
            max_input_len: 255,
            max_records: 100,
        }
    }
}
