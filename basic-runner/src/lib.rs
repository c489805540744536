//! A sandboxed, GW-BASIC-faithful interpreter: BASIC compiled to a stack
//! bytecode VM whose sessions pause at every `INPUT`.
//!
//! This crate does no I/O; output, input and randomness cross the sandbox
//! only through the host.
