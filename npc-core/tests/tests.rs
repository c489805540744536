//! The integration tests of npc-core, one binary.

// Play transcripts: one `.play` file per group of rulings, written from the rulings.
mod transcripts;
// `check` and `load`: every load error with its line (B1..B7, M5, K3, G3, ...).
mod load_errors;
// The Rust API: serde round trips mid-conversation, rollback (Z2), prompts as data.
mod api;
// Arbitrary script text and player input never panic and stay bounded (Z3).
mod properties;
// The sample scripts the bot ships load and behave.
mod samples;
// Effects (issue 14): one `.play` file per ruling through the effects play protocol.
mod effects_transcripts;
// Effects: every load-time check of the ELEMENTS / EFFECT language, and APPLY_EFFECT.
mod effects_load_errors;
// Effects: the Encounter API (serde mid-combat, step-budget rollback) and properties.
mod effects_api;
