//! End-to-end tests: the real serenity 0.12.5 client (and raw WebSocket clients, where a
//! test needs control of every frame) against the fake.

// The harness: a serenity client pointed at the fake, forwarding what it sees.
mod support;

// Handshake, heartbeats, command registration, an interaction answered.
mod handshake;
// Discord's rules on interaction responses, through serenity's own calls.
mod interactions;
// Message-content blanking without the MESSAGE_CONTENT intent, and its exemptions.
mod content;
// Scripted gateway and REST faults, and serenity's recovery from them.
mod faults;
// Sequence numbers, resume replay and close codes, frame by frame.
mod raw_gateway;
// Channel permissions, replies to deleted messages, files on edits, the intents gate.
mod channels;
// Two shards: dispatches routed by guild.
mod shards;
