//! The command-line tools: `tavern roll`, `tavern odds`, `tavern basic`, `tavern npc` and `tavern effects`.

pub mod basic;
pub mod effects;
pub mod npc;
pub mod odds;
pub mod roll;
