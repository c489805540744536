//! `tavern`: the Discord bot for tabletop role-playing, its console and its
//! command-line tools.
//!
//! The command core (`core`) is transport-free: a [`core::Request`] goes in, a list of
//! [`core::Reply`] comes out. The console (`console`) and the Discord adapter
//! (`discord`) are thin layers that map their world onto those types. State lives in the database
//! (`storage`), never only in memory, so any process can continue any session.

pub mod chart;
pub mod cli;
pub mod config;
pub mod console;
pub mod core;
pub mod discord;
pub mod engine;
pub mod fetch;
pub mod i18n;
pub mod lines;
pub mod memory;
pub mod metrics;
pub mod scratch;
pub mod shutdown;
pub mod spec;
pub mod storage;
pub mod telemetry;
pub mod terminal;
pub mod text;
pub mod web;
