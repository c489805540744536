//! The one integration-test binary of dice-core.

// Shared helpers: rolling with a seeded generator, fixed-value checks.
mod common;
// Exact results of the seed language and the common notation (table-driven).
mod language;
// Rolls checked against the dice they recorded, over many seeds.
mod stories;
// Invalid input: kinds, spans, messages, caret lines, limits.
mod errors;
// Markdown and plain breakdowns, shortening, JSON.
mod render;
// Macros and fields.
mod resolve;
// The expression cache and repeated rolling.
mod cache;
// Property tests: bounds, means, no panics, no stack overflow.
mod properties;
// Exact distributions: brute force, sampled rolls, errors.
mod odds;
// Every spelling taken from the peers: range and mean (exact or sampled).
mod spellings;
// Hostile input: the reproducers of refused odds, generated expressions.
mod hostile;
// Structured reasons: ids, arguments and English messages of every reachable error.
mod reasons;
