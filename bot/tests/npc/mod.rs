//! NPC conversations through the core: installing scripts (errors, permissions),
//! `/talk`, every kind of prompt as components, the world stored per character and
//! player, stale and foreign buttons, the step budget, restarts and idle expiry.

// Scripts, the table and the requests every module below uses.
mod support;
pub use support::*;

mod console;
mod effects;
mod ids;
mod install;
mod lifecycle;
mod state;
mod talk;
mod trade;
mod turns;
