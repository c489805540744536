//! A fake Discord (REST and WebSocket gateway) on loopback for the bot's end-to-end tests.
//!
//! [`FakeDiscord::start`] binds `127.0.0.1:0` and serves one axum router: `/ws` is the
//! gateway, `/attachments/...` the CDN, and everything else the REST API under
//! `/api/v10`. Unmodified serenity 0.12.5 runs against it when its `Http` is built with
//! `proxy(fake.api_base())` **and** `ratelimiter_disabled(true)`: serenity's rate limiter
//! drops the proxy and would send requests to the real `discord.com` (see
//! [`guard_http`], which the bot calls in its own Http construction).
//!
//! The test drives Discord's side: [`FakeDiscord::dispatch`] sends gateway events (built by
//! [`FakeDiscord::interaction_slash`] and its siblings, which produce JSON that serenity's
//! models accept), and the `wait_*` methods wake when the bot's answer arrives. The fake
//! enforces the rules that bite in production and records each breach as a [`Violation`]:
//! the 3-second deadline, one acknowledgement per interaction, message, embed and component
//! limits, the MESSAGE_CONTENT blanking, and pings allowed by `allowed_mentions`.
//!
//! Why it is built this way: serenity has no transport seam to mock, and its failure modes
//! are quiet (an unreadable dispatch becomes `Event::Unknown`; a failed `GET /gateway` falls
//! back to the real gateway with a warning). Only the real client against a real socket
//! tests the path production takes; the fake keeps every rule it enforces in one pure
//! module (`rules`) so each limit is unit-tested apart from the sockets.
//!
//! # Time
//!
//! The fake measures deadlines on its own clock: tokio's `Instant` plus an offset moved by
//! [`FakeDiscord::advance_time`]. A test that holds an interaction calls
//! `fake.advance_time(Duration::from_secs(4))` and the next callback gets Discord's
//! `404 Unknown interaction` at once. (`tokio::time::pause()` also works, but only on a
//! current-thread runtime, where serenity's own timers would be paused too.)
//!
//! # Example
//!
//! ```
//! use fake_discord::{FakeConfig, FakeDiscord, Invoker, Opt};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let fake = FakeDiscord::start(FakeConfig::default()).await;
//! // serenity: HttpBuilder::new(token).proxy(fake.api_base()).ratelimiter_disabled(true)
//! assert!(fake.gateway_url().starts_with("ws://127.0.0.1:"));
//!
//! let file = fake.add_attachment("chargen.bas", "10 PRINT \"HI\"\n");
//! let alice = Invoker::member(42, 1_000_000, 2_000_000);
//! let interaction = fake.interaction_slash(&alice, "chargen", vec![Opt::attachment("program", &file)]);
//! // Queued until the bot's shard has identified, then sent with the next sequence number.
//! let interaction_id = fake.dispatch_interaction(interaction);
//! assert_ne!(interaction_id, 0);
//! fake.assert_no_violations();
//! fake.shutdown().await;
//! # }
//! ```

mod channels;
mod config;
mod gateway;
mod guard;
mod guilds;
mod handle;
mod oauth;
mod payloads;
mod records;
mod registration;
mod rest;
mod rules;
mod state;

#[cfg(test)]
mod model_tests;

pub use channels::{GuildChannel, Overwrite, OverwriteTarget, kind as channel_kind};
pub use config::{FakeConfig, MentionPolicy};
pub use guard::{HttpGuardError, guard_http};
pub use guilds::GuildShape;
pub use handle::FakeDiscord;
pub use oauth::{CODE_LIFETIME, OAuthApp, OAuthGuild, OAuthUser};
pub use payloads::{Invoker, Opt, permissions};
pub use records::{
    Callback, CdnFile, GatewayRecord, Origin, Ping, RecordedRequest, Rule, SentMessage, Timeout,
    Violation,
};
