//! The Tavern dice language: parsing, rolling and rendering dice expressions.
//!
//! This crate does no I/O and knows nothing of Discord or SQL; randomness is
//! injected so that every roll can be reproduced from a seed.
