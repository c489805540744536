//! The integration tests of basic-runner: one binary, one module per area.

// BASIC programs under tests/programs/ against their expected transcripts
mod programs;
