//! The command-line tools: `tavern roll` and `tavern basic`.

pub mod basic;
pub mod roll;
