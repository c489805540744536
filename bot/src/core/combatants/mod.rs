//! An encounter's combatants as the engine and people see them (a room below the
//! commands): who sits behind each combatant and what leaves with it (`seats`), the
//! engine's events in the reader's words (`words`), and an effect on a character
//! outside any encounter (`apply_alone`). `/init` runs encounters over these; an
//! NPC's `APPLY_EFFECT` uses them on a lone character.

mod alone;
pub mod seats;
pub mod words;

pub use alone::apply_alone;
