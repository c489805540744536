//! The integration tests of `tavern`: one binary, one module per area.

// Databases and temporary directories shared by the modules.
mod support;
// Engines with known behaviour, for the core's tests.
mod doubles;
// A core on a fresh database, driven as a transport drives it.
mod harness;

// The storage suite on SQLite and PostgreSQL.
mod storage;
// The command core: /roll, buttons, rate limits, errors.
mod core;
// The real command table: Discord's registration rules, every command dispatched.
mod command_table;
// /chargen sessions and /character through the core.
mod chargen;
// Localization: the catalogues, which language answers, the German console.
mod i18n;
// In German: /roll, dice errors, /odds, /macro, /config, /help.
mod german_rolls;
// In German: /chargen, /chargen program and /character, within Discord's limits.
mod german_chargen;
// In German: /npc, /talk, the conversations and /effect.
mod german_npc;
// In German: /init, the encounters page of /help and the transports.
mod german_encounters;
// Issue 18: every module's messages, both languages, hostile longest inputs (a property).
mod discord_limits;
// The configuration file and its documented example.
mod config;
// The console adapter: typed commands, answers, buttons, restarts.
mod console;
// The binary: subcommands, exit codes, scripted consoles.
mod cli;
// The README's console examples, run through the console.
mod readme;
// Macros: saving, permissions, rolling, cycles, show/list/delete, autocomplete.
mod macros;
// Characters in rolls: /character use, @FIELD, modifiers, the sheet.
mod fields;
// `/roll atk adv` on a macro.
mod macro_advantage;
// The arrows between the bot's modules, read from the source; no file over 1,500 lines.
mod rooms;
// One rule for the character played: @FIELD, /character show, in both languages.
mod playing;
// /character delete's confirmation, /character show without a name.
mod characters;
// `tavern roll`: breakdowns, JSON, samples, exit codes.
mod cli_roll;
// `tavern odds`: exact distributions, JSON, charts.
mod cli_odds;
// `/odds`: summary, chart, view buttons.
mod odds;
// Generator programs installed by server admins.
mod programs;
// Record maps: listings without RECORD, captures, the record sheet, safe ids.
mod record_maps;
// `tavern basic`: the program suite through the binary, input, errors, limits.
mod cli_basic;
// The shipped chargen.bas through the core and a piped console across a restart.
mod shipped;
// NPC conversations through the core: /npc, /talk, components, stored worlds.
mod npc;
// `tavern npc check` and `tavern npc play`.
mod npc_cli;
// `tavern effects check` and `tavern effects play`.
mod effects_cli;
// /init encounters through the core: turns, effects, hidden monsters, write-back.
mod encounter;
// /init attack and /init save: the 5e rules, damage through the effect engine.
mod encounter_combat;
// Rolls for the GM: /config gm-channel and gm-role, /roll to:gm, Reveal, the console.
mod gm_rolls;
// Reading attachments: files, HTTP, nothing.
mod fetch;
// The Discord adapter end to end: real serenity against the fake Discord.
mod e2e;
// /metrics and /healthz over HTTP.
mod metrics;
// deploy/: the compose file, the Dockerfile, the systemd unit and their configurations.
mod deploy;
// The engine workers: kept threads, panics, jobs past their limit.
mod workers;
// Hostile input: Discord's limits, time limits, bounded reads, issue 11's reproducers.
mod hostile;
// The web dashboard: sessions, CSRF, escaping, every route's access checks.
mod web;
// What the web modules share: the dashboard in-process, sessions, GET and POST.
mod web_support;
// Issue 25: live encounters, settings, locale, rate limits; the browser tests.
mod web_browser;
mod web_live;
// Issue 25: the admins' editors (generators, NPCs, the effect file) on the web.
mod web_editors;
// Issue 28: the database statements of each kind of interaction, counted in a child process.
mod statements;
