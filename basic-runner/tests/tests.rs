//! The integration tests of basic-runner: one binary, one module per area.

// the public API: resume, prompts, records, variables, errors
mod api;
// captures for listings without RECORD: at a line, and the last living variables
mod capture;
// arbitrary program text never panics and always ends within its limits
mod fuzz;
// the character generator we ship, against its golden transcript
mod chargen;
// hostile programs: long lines, deep expressions, many dimensions, huge sources
mod hostile;
// every sandbox limit stops a run with a clear error
mod limits;
// BASIC programs under tests/programs/ against their expected transcripts
mod programs;
// sessions restored from snapshots continue byte for byte
mod snapshots;
