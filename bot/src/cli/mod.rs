//! The command-line tools: `tavern roll`, `tavern basic` and `tavern npc`.

pub mod basic;
pub mod npc;
pub mod roll;
