//! The command-line tools: `tavern roll`, `tavern odds`, `tavern basic` and `tavern npc`.

pub mod basic;
pub mod npc;
pub mod odds;
pub mod roll;
