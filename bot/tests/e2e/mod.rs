//! End-to-end tests: Tavern's real serenity adapter, in process, against the fake
//! Discord on loopback. Nothing here sleeps: every wait is one of the fake's `wait_*`,
//! woken by the change it waits for.

// The bot and the fake together, and the helpers every test uses.
pub mod support;

// Command registration, shard ranges and the Http guard.
mod setup;
// /roll: answers, bad expressions, the "roll again" button, autocomplete, limits.
mod roll;
// /chargen runs answered by button and modal, by replies, in DMs, across a restart.
mod chargen;
// The 3-second rule, pings, internal errors, expiry notices.
mod rules;
// Macros and the macro role, autocomplete, characters' fields in rolls.
mod macros;
// Rolls for the GM: the GM channel, Reveal, a GM channel the bot may not post in.
mod gm;
// /odds: the chart as a file, the view buttons.
mod odds;
// Generator programs installed by server admins.
mod programs;
// Record maps: a listing without RECORD made into three characters, maps changed.
mod record_maps;
// /character delete's confirmation, answered in place.
mod characters;
// NPC conversations: an attachment from the CDN, buttons, modals, replies.
mod npc;
// /init: an encounter on the tracker's buttons, hidden monsters, a restart.
mod encounter;
// /init attack and /init save: to hit, damage by means, saves, on both backends.
mod combat;
// Two processes, one shard each, on one database.
mod scale;
// Gateway faults, 429s, a database away for a while, SIGKILL.
mod faults;
// A German user in an English server and the reverse (issue 18).
mod language;
