//! Scripted NPC conversations in GhulScript: loading, checking and running
//! one player turn at a time.
//!
//! This crate does no I/O; the conversation state is plain data the host stores.
