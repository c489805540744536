//! `/init`: encounters (issue 14). One per channel, run by `npc-core`'s effect engine
//! on the server's effect library, stored as a database row after every change.
//!
//! - **One change, one transaction.** A command reads the channel's encounter, runs
//!   the engine on it, and stores the new state with the step it read (the claim the
//!   chargen sessions use); a command that finds the step moved changed nothing and
//!   says so. The replies are built from the stored state afterwards.
//! - **The tracker** is a regular channel message edited in place (`Track::Encounter`
//!   tells the core its id); its buttons carry the encounter and its step, so an old
//!   or second press is refused. A command's events are its interaction's answer.
//! - **Who may do what.** The GM (who began it, and members with Manage Server or
//!   the macro role) may do everything. A player may join, act on their own
//!   combatant at any time (`hp`, `effect`, `cure`, `remove`), act on any combatant
//!   during their own combatant's turn (a spell cast, a hit), and end their own turn
//!   (Next). Everyone else is refused privately.
//! - **Characters.** `join` seats the player's active character (HP, AC, abilities
//!   from its fields; initiative `1d20 + @DEX_MOD` unless given) with the effects it
//!   carries from earlier encounters. When it leaves (the end, `remove`, or an
//!   effect destroying it), its base values (while-active layers undone) and the
//!   effects still attached are written back to it in the same transaction.

mod combat;
mod end;
mod ids;
mod monsters;
mod subcommands;
mod tracker;

pub use words::event_lines;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use sqlx::AnyConnection;

use npc_core::effects::{
    CarriedEffects, EffectError, EffectEvent, EffectLibrary, Encounter, HpChange, Subject,
};

use super::combatants::{seats, words};
use super::commands::{CommandSpec, OptionKind, OptionSpec, string, sub};
use super::context::Context;
use super::live::EncounterChanged;
use super::table::{Answer, CommandEntry, ComponentFamily, by_subcommand, name_choices};
use super::text::{MESSAGE_LIMIT, code_block, code_span_text, escape_markdown, truncate};
use super::turn::{self, Lost};
use super::{
    Ack, ActionRow, Button, ButtonStyle, Command, Component, CoreSettings, Message, Reply, Request,
    Track, ephemeral, fields,
};
use crate::engine::RollContext;
use crate::engine::worker::{self, WorkError};
use crate::i18n::{self, Lang};
use crate::storage::encounters::commit_encounter_in;
use crate::storage::{
    CharacterEffectsRow, CharacterRow, Committed, EncounterChange, EncounterRow, NewEncounter,
};

pub use ids::{InitAction, InitId};
use seats::Seat;
use tracker::Viewer;
use words::engine_reason;

pub(super) const COMMAND: CommandEntry = CommandEntry {
    name: "init",
    spec,
    // Everything is public but the GM's list and the end question.
    ack: |command| match command.sub() {
        Some("list" | "end") => Ack::Defer { ephemeral: true },
        _ => Ack::Defer { ephemeral: false },
    },
    run: by_subcommand,
    autocomplete,
    subcommands: subcommands::SUBCOMMANDS,
    typed_replies: None,
    sweep: Some(|cx, now| Box::pin(cx.end_idle_encounters(now))),
    components: &[ComponentFamily {
        kinds: ids::KINDS,
        ack: |_, custom_id| match InitId::decode(custom_id).map(|id| id.action) {
            // The question is a new private message.
            Some(InitAction::End) => Ack::Defer { ephemeral: true },
            _ => Ack::DeferUpdate,
        },
        run: |cx, request, custom_id| Box::pin(cx.init_button(request, custom_id)),
    }],
};

fn integer(name: &'static str, description: &'static str, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name,
        description,
        kind: OptionKind::Integer { min, max },
        required: false,
        autocomplete: false,
        choices: &[],
    }
}

fn boolean(name: &'static str, description: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        description,
        kind: OptionKind::Boolean,
        required: false,
        autocomplete: false,
        choices: &[],
    }
}

fn spec(_: &CoreSettings) -> CommandSpec {
    CommandSpec {
        name: "init",
        description: "Encounters: initiative, hit points and effects",
        options: vec![],
        subcommands: vec![
            sub(
                "begin",
                "Begin an encounter in this channel (you are its GM)",
                vec![],
            ),
            sub(
                "join",
                "Join with your character (default: the one you play here)",
                vec![
                    string("character", "Your character's name", 100).autocomplete(),
                    string("init", "Your initiative (default: 1d20 + @DEX_MOD)", 100),
                ],
            ),
            sub(
                "add",
                "Add monsters (GM)",
                vec![
                    string("name", "Their name (count 3 makes Orc_1 … Orc_3)", 32).required(),
                    string("init", "Initiative: a number or dice such as 1d20+2", 100).required(),
                    string("hp", "Hit points: a number or dice such as 2d8+2", 100).required(),
                    integer(
                        "ac",
                        "Armour class",
                        *monsters::ARMOUR_CLASS.start(),
                        *monsters::ARMOUR_CLASS.end(),
                    ),
                    integer(
                        "count",
                        "How many (default 1)",
                        *monsters::COUNT.start(),
                        *monsters::COUNT.end(),
                    ),
                    boolean("hidden", "Players see only healthy / bloodied / down"),
                    string(
                        "attack",
                        "Their attack: to-hit bonus, damage, means (+5 1d12+3 SLASH)",
                        100,
                    ),
                    string("save", "Their save bonuses (DEX+1 WIS-2)", 100),
                ],
            ),
            sub(
                "attack",
                "Attack: to hit against AC, damage on a hit (D&D 5e SRD)",
                vec![
                    string("targets", "Combatants, comma-separated", 500)
                        .required()
                        .autocomplete(),
                    string(
                        "hit",
                        "To hit: 1d20+@STR_MOD or +5 (default: the monster's)",
                        100,
                    ),
                    string(
                        "damage",
                        "Damage: 1d8+@STR_MOD (default: the monster's)",
                        100,
                    ),
                    string(
                        "means",
                        "Elements of the effect file: SLASH, FIRE|MAGIC",
                        100,
                    ),
                    string("attacker", "Who attacks (default: whose turn it is)", 64)
                        .autocomplete(),
                    boolean("advantage", "Roll 2d20, keep the higher"),
                    boolean("disadvantage", "Roll 2d20, keep the lower"),
                    string(
                        "macro",
                        "A macro holding the attack: 1d20+@STR_MOD # 1d8+@STR_MOD SLASH",
                        32,
                    ),
                ],
            ),
            sub(
                "save",
                "Each target saves against a DC: full damage on a failure, half on a success",
                vec![
                    string("targets", "Combatants, comma-separated", 500)
                        .required()
                        .autocomplete(),
                    // Not required: an effect that declares its save gives both.
                    integer("dc", "Difficulty class", 1, 100),
                    string("ability", "STR, DEX, CON, INT, WIS or CHA", 12),
                    string("damage", "Damage, rolled once: 8d6", 100),
                    string("means", "Elements of the effect file: FIRE", 100),
                    boolean("half", "Half damage on a success (default true)"),
                    string(
                        "effect",
                        "An effect of this server's library for a failure",
                        64,
                    )
                    .autocomplete(),
                    boolean("advantage", "Roll 2d20, keep the higher"),
                    boolean("disadvantage", "Roll 2d20, keep the lower"),
                ],
            ),
            sub("next", "End the current turn and start the next", vec![]),
            sub("prev", "Go back one turn (GM)", vec![]),
            sub(
                "hp",
                "Change hit points: -7, +2d4, =12",
                vec![
                    string("target", "The combatant", 64)
                        .required()
                        .autocomplete(),
                    string("amount", "-7 (damage), +2d4 (healing), =12 (set)", 100).required(),
                ],
            ),
            sub(
                "effect",
                "Apply an effect of this server's library",
                vec![
                    string("targets", "Combatants, comma-separated", 500)
                        .required()
                        .autocomplete(),
                    string("effect", "The effect", 64).required().autocomplete(),
                ],
            ),
            sub(
                "cure",
                "Remove an attached effect",
                vec![
                    string("target", "The combatant", 64)
                        .required()
                        .autocomplete(),
                    string("effect", "The effect", 64).required().autocomplete(),
                ],
            ),
            sub(
                "remove",
                "Take a combatant out of the encounter",
                vec![
                    string("target", "The combatant", 64)
                        .required()
                        .autocomplete(),
                ],
            ),
            sub(
                "list",
                "The combatants (the GM sees hidden numbers)",
                vec![],
            ),
            sub("end", "End the encounter (GM; asks first)", vec![]),
        ],
        groups: vec![],
    }
}

/// The encounter of a channel, read for one command.
struct Loaded {
    row: EncounterRow,
    engine: Encounter,
    seats: Vec<Seat>,
    library: Arc<EffectLibrary>,
}

/// Who is asking, for one encounter, and in which languages they are answered.
struct Asker {
    gm: bool,
    /// The combatants the asker acts for.
    own: Vec<String>,
    /// Private answers: the asker's language.
    lang: Lang,
    /// What the channel sees (the tracker, the events): the server's language.
    table: Lang,
}

impl Asker {
    fn owns(&self, name: &str) -> bool {
        self.own.iter().any(|own| own == name)
    }

    /// A player acts on their own combatants, or on anyone during their turn.
    fn may_act_on(&self, engine: &Encounter, targets: &[&str]) -> bool {
        self.gm
            || targets.iter().all(|target| self.owns(target))
            || engine.current().is_some_and(|current| self.owns(current))
    }
}

/// What a change stores beyond the engine and the seats.
#[derive(Default)]
struct Extra {
    join: Option<i64>,
    leave: Vec<i64>,
    write_backs: Vec<CharacterEffectsRow>,
}

fn autocomplete<'a>(
    cx: &'a Context,
    request: &'a Request,
    command: &'a Command,
    focused: &'a str,
) -> Answer<'a> {
    Box::pin(async move {
        let typed = command.string(focused).unwrap_or("");
        let names = match focused {
            "character" => {
                cx.storage
                    .character_names_starting(request.user.id, request.place(), typed, 25)
                    .await?
            }
            "target" | "targets" | "attacker" => {
                cx.combatant_choices(request, focused, typed).await?
            }
            "effect" => cx.effect_choices(request, command, typed).await?,
            _ => Vec::new(),
        };
        Ok(name_choices(names))
    })
}

/// The combatant a user means by `typed`: the one of that exact name, else the only
/// one whose name equals what was typed once spaces become `_` as `/init add` names
/// them (`orc 1` is `Orc_1`), case ignored, else the only one that reads the same
/// with its `_` and `-` left out (`goblin1` is `Goblin_1`: what a player types who
/// has only seen the tracker). Otherwise what was typed, for the engine to report
/// as unknown.
fn meant_combatant(engine: &Encounter, typed: &str) -> String {
    if typed.is_empty() || engine.combatant(typed).is_some() {
        return typed.to_owned();
    }
    let names: Vec<String> = engine.combatants().into_iter().map(|c| c.name).collect();
    let wanted = seats::combatant_name(typed).to_lowercase();
    let spaced: Vec<&String> = names
        .iter()
        .filter(|name| name.to_lowercase() == wanted)
        .collect();
    // the glued spelling only when the spaced one fits nobody
    let found = if spaced.is_empty() {
        let wanted = glued(&wanted);
        names.iter().filter(|name| glued(name) == wanted).collect()
    } else {
        spaced
    };
    match found.as_slice() {
        [only] => (*only).clone(),
        _ => typed.to_owned(),
    }
}

/// A name in lower case without its `_` and `-`.
fn glued(name: &str) -> String {
    name.chars()
        .filter(|ch| !matches!(ch, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `name` starts with what was typed, ignoring case.
fn starts(name: &str, typed: &str) -> bool {
    name.to_lowercase()
        .starts_with(&typed.trim().to_lowercase())
}

impl Context {
    async fn combatant_choices(
        &self,
        request: &Request,
        focused: &str,
        typed: &str,
    ) -> anyhow::Result<Vec<String>> {
        let Some(row) = self
            .storage
            .encounter_in_channel(request.channel_id)
            .await?
        else {
            return Ok(Vec::new());
        };
        let engine: Encounter = serde_json::from_str(&row.state).unwrap_or_default();
        // `targets` completes its last comma-separated name, keeping the others.
        let (before, last) = match (focused, typed.rsplit_once(',')) {
            ("targets", Some((before, last))) => (format!("{},", before.trim_end()), last),
            _ => (String::new(), typed),
        };
        Ok(engine
            .combatants()
            .into_iter()
            .map(|combatant| combatant.name)
            .filter(|name| starts(name, last))
            .map(|name| match before.is_empty() {
                true => name,
                false => format!("{before} {name}"),
            })
            .filter(|choice| choice.chars().count() <= 100)
            .collect())
    }

    /// For `cure`, the effects the target holds; otherwise the library's effects.
    async fn effect_choices(
        &self,
        request: &Request,
        command: &Command,
        typed: &str,
    ) -> anyhow::Result<Vec<String>> {
        if command.sub() == Some("cure")
            && let Some(row) = self
                .storage
                .encounter_in_channel(request.channel_id)
                .await?
        {
            let engine: Encounter = serde_json::from_str(&row.state).unwrap_or_default();
            let target = command.string("target").unwrap_or("").trim();
            if let Some(combatant) = engine.combatant(target) {
                let mut tags: Vec<String> = combatant
                    .effects
                    .into_iter()
                    .map(|effect| effect.tag)
                    .collect();
                tags.dedup();
                return Ok(tags.into_iter().filter(|tag| starts(tag, typed)).collect());
            }
        }
        let Some(library) = self.effect_library(request.place()).await? else {
            return Ok(Vec::new());
        };
        Ok(library
            .effect_tags()
            .into_iter()
            .filter(|tag| starts(tag, typed))
            .map(str::to_owned)
            .collect())
    }

    async fn init_button(&self, request: &Request, custom_id: &str) -> anyhow::Result<Vec<Reply>> {
        let Some(id) = InitId::decode(custom_id) else {
            return Ok(super::stale_component(request));
        };
        let lang = self.language(request, false).await?;
        let Some(loaded) = self.load_encounter_id(id.encounter).await? else {
            return Ok(ephemeral(i18n::tr(lang, "encounter-ended")));
        };
        if loaded.row.step != id.step {
            return Ok(ephemeral(i18n::tr(lang, "encounter-stale")));
        }
        let asker = self.asker(request, &loaded).await?;
        match id.action {
            InitAction::Next => self.init_next(loaded, &asker, Some(id.step)).await,
            InitAction::Previous => self.init_prev(loaded, &asker, Some(id.step)).await,
            InitAction::End => Ok(end::end_question(&loaded, &asker)),
            InitAction::ConfirmEnd => self.init_end(loaded, &asker).await,
            InitAction::CancelEnd => Ok(vec![Reply::Update(Message::ephemeral(i18n::tr(
                asker.lang,
                "encounter-goes-on",
            )))]),
        }
    }

    /// The encounter of a channel, read with its server's effect file.
    async fn load_encounter(&self, channel_id: i64) -> anyhow::Result<Option<Loaded>> {
        match self
            .storage
            .encounter_and_library_in_channel(channel_id)
            .await?
        {
            Some((row, library)) => self.loaded_with(row, library).await.map(Some),
            None => Ok(None),
        }
    }

    async fn load_encounter_id(&self, id: i64) -> anyhow::Result<Option<Loaded>> {
        match self.storage.encounter_and_library(id).await? {
            Some((row, library)) => self.loaded_with(row, library).await.map(Some),
            None => Ok(None),
        }
    }

    async fn loaded(&self, row: EncounterRow) -> anyhow::Result<Loaded> {
        let library = self.storage.effect_library(row.guild_id).await?;
        self.loaded_with(row, library).await
    }

    /// An encounter and its server's effect file as read (`None`: none installed).
    async fn loaded_with(
        &self,
        row: EncounterRow,
        library: Option<crate::storage::EffectLibraryRow>,
    ) -> anyhow::Result<Loaded> {
        let engine: Encounter = serde_json::from_str(&row.state)?;
        let seats: Vec<Seat> = serde_json::from_str(&row.seats)?;
        // Without an installed library an encounter still runs turns and hit points.
        let library = match self.loaded_library(library).await? {
            Some(library) => library,
            None => Arc::new(EffectLibrary::empty()),
        };
        Ok(Loaded {
            row,
            engine,
            seats,
            library,
        })
    }

    async fn asker(&self, request: &Request, loaded: &Loaded) -> anyhow::Result<Asker> {
        let gm = self.is_encounter_gm(request, loaded.row.gm_id).await?;
        let own = loaded
            .seats
            .iter()
            .filter(|seat| seat.owner == request.user.id && seat.owner != 0)
            .map(|seat| seat.name.clone())
            .collect();
        Ok(Asker {
            gm,
            own,
            lang: self.language(request, false).await?,
            table: self.language(request, true).await?,
        })
    }

    async fn init_begin(&self, request: &Request) -> anyhow::Result<Vec<Reply>> {
        let lang = self.language(request, false).await?;
        let encounter = NewEncounter {
            id: self.new_id(),
            guild_id: request.place(),
            channel_id: request.channel_id,
            gm_id: request.user.id,
            gm_name: request.user.name.clone(),
            state: serde_json::to_string(&Encounter::new())?,
            seats: "[]".to_owned(),
            now: self.now(),
        };
        if !self.storage.insert_encounter(&encounter).await? {
            return Ok(ephemeral(i18n::tr(lang, "encounter-already-running")));
        }
        self.encounter_changes.publish(EncounterChanged {
            guild_id: encounter.guild_id,
            channel_id: encounter.channel_id,
            step: Some(0),
        });
        let Some(loaded) = self.load_encounter_id(encounter.id).await? else {
            return Ok(ephemeral(i18n::tr(lang, "encounter-ended")));
        };
        let table = self.language(request, true).await?;
        let mut replies = vec![Reply::Interaction(Message::text(i18n::tr_args(
            table,
            "encounter-begins",
            &[("name", escape_markdown(&request.user.name).into())],
        )))];
        replies.push(tracker_reply(
            table,
            &loaded.row,
            &loaded.engine,
            &loaded.seats,
            0,
        ));
        Ok(replies)
    }

    /// Stores a change made on `loaded`: the engine and the seats after it, and
    /// whatever characters leave with the combatants that are gone (written back as
    /// they were before the change). `Err` holds the refusal when the step moved.
    async fn store(
        &self,
        lang: Lang,
        loaded: &Loaded,
        engine: &Encounter,
        seats: Vec<Seat>,
        mut extra: Extra,
    ) -> anyhow::Result<Result<(i64, Vec<Seat>), Vec<Reply>>> {
        let (seats, gone) = seats::follow(&seats, engine);
        for seat in gone {
            let Some(character) = seat.character else {
                continue;
            };
            extra.leave.push(character);
            if let Some(row) = self
                .write_back_row(&seat, &loaded.engine, character)
                .await?
            {
                extra.write_backs.push(row);
            }
        }
        let change = EncounterChange {
            state: Some((
                serde_json::to_string(engine)?,
                serde_json::to_string(&seats)?,
            )),
            now: self.now(),
            join: extra.join,
            leave: extra.leave,
            write_backs: extra.write_backs,
        };
        match self.commit(loaded, &change).await? {
            Committed::Done { step } => Ok(Ok((step, seats))),
            Committed::Stale => Ok(Err(ephemeral(i18n::tr(lang, "encounter-raced")))),
            Committed::CharacterBusy => {
                Ok(Err(ephemeral(i18n::tr(lang, "encounter-character-busy"))))
            }
        }
    }

    /// Stores `change` of the encounter `loaded` read, by the rule every turn follows
    /// (`turn::write`): the step claimed and everything written in one short
    /// transaction, nothing of it when the claim is lost.
    async fn commit(&self, loaded: &Loaded, change: &EncounterChange) -> anyhow::Result<Committed> {
        let (id, step) = (loaded.row.id, loaded.row.step);
        let written = turn::write(&self.storage, async |tx: &mut AnyConnection| {
            Ok(match commit_encounter_in(tx, id, step, change).await? {
                Committed::Done { step } => Ok(step),
                Committed::Stale => Err(Lost::Answered),
                // The character was seated elsewhere after the change read it free.
                Committed::CharacterBusy => Err(Lost::Changed),
            })
        })
        .await?;
        if let Ok(step) = written {
            // The row is gone when the change ended the encounter.
            let ended = change.state.is_none();
            self.encounter_changes.publish(EncounterChanged {
                guild_id: loaded.row.guild_id,
                channel_id: loaded.row.channel_id,
                step: (!ended).then_some(step),
            });
        }
        Ok(match written {
            Ok(step) => Committed::Done { step },
            Err(Lost::Answered) => Committed::Stale,
            Err(Lost::Changed) => Committed::CharacterBusy,
        })
    }

    /// What `seat`'s character keeps, from `engine`.
    async fn write_back_row(
        &self,
        seat: &Seat,
        engine: &Encounter,
        character: i64,
    ) -> anyhow::Result<Option<CharacterEffectsRow>> {
        let previous = self.storage.character_effects(character).await?;
        let written: Vec<(String, String)> = previous
            .as_ref()
            .and_then(|row| serde_json::from_str(&row.fields).ok())
            .unwrap_or_default();
        let Some((fields, carried)) = seats::write_back(seat, engine, &written) else {
            return Ok(None);
        };
        Ok(Some(CharacterEffectsRow {
            character_id: character,
            fields: serde_json::to_string(&fields)?,
            effects: serde_json::to_string(&carried)?,
            updated_at: self.now(),
        }))
    }

    /// Runs an engine command on a copy on the engine workers (under their time limit,
    /// with the worker's cancel flag), stores it, and answers with its events and
    /// the redrawn tracker. From a button (`pressed`), the tracker is the pressed
    /// message.
    async fn change(
        &self,
        loaded: Loaded,
        asker: &Asker,
        intro: Vec<String>,
        pressed: bool,
        run: impl FnOnce(&mut Encounter, &EffectLibrary, &AtomicBool) -> Stepped + Send + 'static,
    ) -> anyhow::Result<Vec<Reply>> {
        let mut engine = loaded.engine.clone();
        let library = loaded.library.clone();
        let ran = self
            .workers
            .run("effects", move || {
                let cancel = worker::cancel_flag();
                let events = run(&mut engine, &library, &cancel);
                (engine, events)
            })
            .await;
        let (engine, events) = match ran {
            Ok(ran) => ran,
            // Nothing claimed, nothing stored: the encounter stands as it was.
            Err(error) => return effects_overrun(asker.lang, error),
        };
        let events = match events {
            Ok(events) => events,
            Err(error) => {
                let error = engine_reason(asker.lang, &error);
                return Ok(ephemeral(i18n::tr_args(
                    asker.lang,
                    "encounter-nothing-happened",
                    &[("error", error.into())],
                )));
            }
        };
        let (step, seats) = match self
            .store(
                asker.lang,
                &loaded,
                &engine,
                loaded.seats.clone(),
                Extra::default(),
            )
            .await?
        {
            Ok(stored) => stored,
            Err(refusal) => return Ok(refusal),
        };
        let events = words::event_lines(asker.table, &events, &engine, &seats);
        Ok(answer(
            asker.table,
            &loaded.row,
            &engine,
            &seats,
            step,
            intro,
            events,
            pressed,
        ))
    }

    async fn init_join(
        &self,
        request: &Request,
        loaded: Loaded,
        asker: &Asker,
        character: &str,
        initiative: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let found = if character.is_empty() {
            self.storage
                .playing_character(request.place(), request.user.id)
                .await?
        } else {
            self.storage
                .character_named(request.user.id, request.place(), character)
                .await?
        };
        let lang = asker.lang;
        let Some(row) = found else {
            return Ok(ephemeral(i18n::tr(lang, "encounter-no-character")));
        };
        if loaded
            .seats
            .iter()
            .any(|seat| seat.character == Some(row.id))
        {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "encounter-already-in",
                &[("name", escape_markdown(&row.name).into())],
            )));
        }
        let name = seats::combatant_name(&row.name);
        if name.is_empty() {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "encounter-no-letters",
                &[("name", escape_markdown(&row.name).into())],
            )));
        }
        if loaded.engine.combatant(&name).is_some() {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "encounter-name-taken",
                &[("name", code_span_text(&name, 64).into())],
            )));
        }
        self.join_character(request, loaded, asker, row, name, initiative)
            .await
    }

    async fn join_character(
        &self,
        request: &Request,
        loaded: Loaded,
        asker: &Asker,
        row: CharacterRow,
        name: String,
        initiative: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let generated = self.generated_fields(&row).await?;
        let current = self.character_fields(&row).await?;
        let joined = seats::subject_fields(&current);
        let Some(hp) = joined
            .iter()
            .find(|(subject, _, _)| *subject == Subject::HitPoints)
            .map(|(_, _, hp)| *hp)
        else {
            return Ok(ephemeral(i18n::tr_args(
                asker.lang,
                "encounter-no-hp-field",
                &[("name", escape_markdown(&row.name).into())],
            )));
        };
        // The generator's HP is the maximum; a written-back HP is the current value.
        let maximum = seats::subject_fields(&generated)
            .iter()
            .find(|(subject, _, _)| *subject == Subject::HitPoints)
            .map_or(hp, |(_, _, generated)| (*generated).max(hp));
        let numbers = fields::roll_fields(&current);
        let expr = match (initiative, numbers.contains_key("DEX_MOD")) {
            ("", true) => "1d20 + @DEX_MOD",
            ("", false) => "1d20",
            (given, _) => given,
        };
        let context = RollContext {
            fields: numbers,
            ..RollContext::default()
        };
        let (initiative, shown) = match self.roll_number(asker.lang, expr, &context) {
            Ok(rolled) => rolled,
            Err(problem) => {
                return Ok(ephemeral(i18n::tr_args(
                    asker.lang,
                    "encounter-bad-initiative",
                    &[("problem", problem.into())],
                )));
            }
        };
        let kept = self.storage.character_effects(row.id).await?;
        let carried: CarriedEffects = kept
            .as_ref()
            .and_then(|kept| serde_json::from_str(&kept.effects).ok())
            .unwrap_or_default();
        let mut engine = loaded.engine.clone();
        let spec = seats::character_spec(&name, initiative, maximum, &joined);
        let library = loaded.library.clone();
        // Drawn here, as before the join ran on a worker, so a seeded core replays.
        let rng = (hp < maximum).then(|| self.command_rng());
        let joining = name.clone();
        let ran = self
            .workers
            .run("effects", move || {
                let added = engine.add(&library, &spec).and_then(|_| {
                    if let Some(mut rng) = rng {
                        engine.hp(&library, &joining, HpChange::Assign(hp), &mut rng)?;
                    }
                    engine.attach_carried(&library, &joining, &carried)
                });
                (engine, added)
            })
            .await;
        let (engine, added) = match ran {
            Ok(ran) => ran,
            Err(error) => return effects_overrun(asker.lang, error),
        };
        let attached = match added {
            Ok(attached) => attached,
            Err(error) => {
                let error = engine_reason(asker.lang, &error);
                return Ok(ephemeral(i18n::tr_args(
                    asker.lang,
                    "encounter-nothing-happened",
                    &[("error", error.into())],
                )));
            }
        };
        let mut seats = loaded.seats.clone();
        seats.push(Seat {
            name: name.clone(),
            owner: request.user.id,
            character: Some(row.id),
            hidden: false,
            fields: joined,
            attack: None,
            saves: Vec::new(),
        });
        let extra = Extra {
            join: Some(row.id),
            ..Extra::default()
        };
        let (step, seats) = match self
            .store(asker.lang, &loaded, &engine, seats, extra)
            .await?
        {
            Ok(stored) => stored,
            Err(refusal) => return Ok(refusal),
        };
        let mut line = i18n::tr_args(
            asker.table,
            "encounter-joins",
            &[
                ("name", escape_markdown(&row.name).into()),
                ("combatant", name.as_str().into()),
                ("initiative", shown.into()),
                ("hp", hp.to_string().into()),
                ("max", maximum.to_string().into()),
            ],
        );
        if !attached.is_empty() {
            line.push_str(&i18n::tr_args(
                asker.table,
                "encounter-joins-still-under",
                &[("effects", escape_markdown(&attached.join(", ")).into())],
            ));
        }
        line.push('.');
        Ok(answer(
            asker.table,
            &loaded.row,
            &engine,
            &seats,
            step,
            vec![line],
            Vec::new(),
            false,
        ))
    }

    /// The engine's randomness for one command: seeded from the core's generator
    /// (so a seeded core replays), and owned, so no lock is held across a database
    /// call.
    fn command_rng(&self) -> StdRng {
        StdRng::seed_from_u64(self.rng().next_u64())
    }

    /// A number or a dice expression, rolled with dice-core: its total and how it
    /// reads (`1d20 + 2 (14) = **16**`); the error as a sentence's end.
    fn roll_number(
        &self,
        lang: Lang,
        expr: &str,
        context: &RollContext,
    ) -> Result<(i64, String), String> {
        if let Ok(number) = expr.trim().parse::<i64>() {
            return Ok((number, number.to_string()));
        }
        let rolled = {
            let mut rng = self.rng();
            self.engines.dice.roll(expr, context, &mut *rng, 300)
        };
        match rolled {
            Ok(outcome) => Ok((outcome.total, outcome.markdown)),
            Err(failure) => Err(i18n::tr_args(
                lang,
                "encounter-cannot-roll",
                &[
                    ("expr", code_span_text(expr, 100).into()),
                    ("reason", failure.reason_in(lang).into()),
                ],
            )),
        }
    }

    async fn init_next(
        &self,
        loaded: Loaded,
        asker: &Asker,
        pressed: Option<i64>,
    ) -> anyhow::Result<Vec<Reply>> {
        let own_turn = loaded
            .engine
            .current()
            .is_some_and(|current| asker.owns(current));
        if !asker.gm && !own_turn {
            let gm = gm_name(&loaded);
            return Ok(ephemeral(i18n::tr_args(
                asker.lang,
                "encounter-refuse-next",
                &[("gm", gm.into())],
            )));
        }
        let mut rng = self.command_rng();
        self.change(
            loaded,
            asker,
            Vec::new(),
            pressed.is_some(),
            move |engine, library, cancel| engine.next_cancellable(library, &mut rng, Some(cancel)),
        )
        .await
    }

    async fn init_prev(
        &self,
        loaded: Loaded,
        asker: &Asker,
        pressed: Option<i64>,
    ) -> anyhow::Result<Vec<Reply>> {
        if !asker.gm {
            let gm = gm_name(&loaded);
            return Ok(ephemeral(i18n::tr_args(
                asker.lang,
                "encounter-gm-only-prev",
                &[("gm", gm.into())],
            )));
        }
        // Going back moves only the turn: say so, since a table may expect an undo.
        let note = vec![i18n::tr(asker.table, "encounter-prev-note")];
        self.change(loaded, asker, note, pressed.is_some(), |engine, _, _| {
            engine.prev()
        })
        .await
    }

    async fn init_hp(
        &self,
        request: &Request,
        loaded: Loaded,
        asker: &Asker,
        target: &str,
        amount: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = asker.lang;
        if !asker.may_act_on(&loaded.engine, &[target]) {
            let gm = gm_name(&loaded);
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "encounter-refuse-hp",
                &[("gm", gm.into())],
            )));
        }
        let (operator, expr) = match amount.chars().next() {
            Some(sign @ ('+' | '-' | '=')) => (sign, amount[1..].trim()),
            _ => return Ok(ephemeral(i18n::tr(lang, "encounter-amount-form"))),
        };
        let (total, shown) = match self.roll_number(lang, expr, &RollContext::default()) {
            Ok(rolled) => rolled,
            Err(problem) => {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "encounter-bad-amount",
                    &[("problem", problem.into())],
                )));
            }
        };
        let change = match operator {
            '+' => HpChange::Offset(total),
            '-' => HpChange::Offset(total.saturating_neg()),
            _ => HpChange::Assign(total),
        };
        let mut intro = Vec::new();
        if expr.parse::<i64>().is_err() {
            intro.push(i18n::tr_args(
                asker.table,
                "encounter-rolls",
                &[
                    ("name", escape_markdown(&request.user.name).into()),
                    ("roll", format!("{operator}{shown}").into()),
                ],
            ));
        }
        let target = target.to_owned();
        let mut rng = self.command_rng();
        self.change(loaded, asker, intro, false, move |engine, library, _| {
            engine.hp(library, &target, change, &mut rng)
        })
        .await
    }

    async fn init_effect(
        &self,
        request: &Request,
        loaded: Loaded,
        asker: &Asker,
        targets: &str,
        effect: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        let names = combat::target_names(&loaded.engine, targets);
        let lang = asker.lang;
        if names.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "encounter-no-targets")));
        }
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        if !asker.may_act_on(&loaded.engine, &refs) {
            let gm = gm_name(&loaded);
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "encounter-refuse-effect",
                &[("gm", gm.into())],
            )));
        }
        if !loaded.library.has_effect(effect) {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "encounter-no-such-effect",
                &[("effect", code_span_text(effect, 64).into())],
            )));
        }
        let intro = vec![i18n::tr_args(
            asker.table,
            "encounter-applies",
            &[
                ("name", escape_markdown(&request.user.name).into()),
                ("effect", escape_markdown(effect).into()),
            ],
        )];
        let effect = effect.to_owned();
        let mut rng = self.command_rng();
        self.change(
            loaded,
            asker,
            intro,
            false,
            move |engine, library, cancel| {
                let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                engine.apply_cancellable(library, &effect, &refs, &mut rng, Some(cancel))
            },
        )
        .await
    }

    async fn init_cure(
        &self,
        loaded: Loaded,
        asker: &Asker,
        target: &str,
        effect: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        if !asker.may_act_on(&loaded.engine, &[target]) {
            let gm = gm_name(&loaded);
            return Ok(ephemeral(i18n::tr_args(
                asker.lang,
                "encounter-refuse-cure",
                &[("gm", gm.into())],
            )));
        }
        let (target, effect) = (target.to_owned(), effect.to_owned());
        self.change(loaded, asker, Vec::new(), false, move |engine, _, _| {
            engine.remove_effect(&target, &effect)
        })
        .await
    }

    async fn init_remove(
        &self,
        loaded: Loaded,
        asker: &Asker,
        target: &str,
    ) -> anyhow::Result<Vec<Reply>> {
        if !asker.gm && !asker.owns(target) {
            let gm = gm_name(&loaded);
            return Ok(ephemeral(i18n::tr_args(
                asker.lang,
                "encounter-refuse-remove",
                &[("gm", gm.into())],
            )));
        }
        let target = target.to_owned();
        self.change(loaded, asker, Vec::new(), false, move |engine, _, _| {
            engine.remove(&target)
        })
        .await
    }
}

/// What an effect-engine command answers.
type Stepped = Result<Vec<EffectEvent>, EffectError>;

/// The answer when the effect engine gave none in time (issue 24): the user is told
/// what took too long, and nothing of the command is stored.
fn effects_overrun(lang: Lang, error: WorkError) -> anyhow::Result<Vec<Reply>> {
    super::overrun_in(lang, &i18n::tr(lang, "encounter-work-effects"), error)
}

/// The answer of a stored change: what was done and its events (publicly, the
/// events in a monospace block) and the redrawn tracker. Events past one message
/// follow in further messages (a 20-target attack is read whole), at most
/// [`EVENT_MESSAGES`] in all.
#[allow(clippy::too_many_arguments)]
fn answer(
    lang: Lang,
    row: &EncounterRow,
    engine: &Encounter,
    seats: &[Seat],
    step: i64,
    intro: Vec<String>,
    events: Vec<String>,
    pressed: bool,
) -> Vec<Reply> {
    let intro = truncate(&intro.join("\n"), 600);
    let mut texts = match (intro.is_empty(), events.is_empty()) {
        (true, true) => vec![i18n::tr(lang, "encounter-nothing-changed")],
        (false, true) => vec![intro],
        (true, false) => event_blocks(lang, "", &events),
        (false, false) => event_blocks(lang, &intro, &events),
    };
    let first = texts.remove(0);
    let rest = texts
        .into_iter()
        .map(|text| Reply::Interaction(Message::text(text)));
    let tracker = tracker_reply(lang, row, engine, seats, step);
    if pressed {
        // The pressed message is the tracker: it is redrawn in place.
        let mut message = match tracker {
            Reply::Edit { message, .. } | Reply::Channel { message, .. } => message,
            other => return vec![other],
        };
        // The same message, so no new id to record.
        message.track = None;
        let mut replies = vec![
            Reply::Update(message),
            Reply::Interaction(Message::text(first)),
        ];
        replies.extend(rest);
        return replies;
    }
    let mut replies = vec![Reply::Interaction(Message::text(first))];
    replies.extend(rest);
    replies.push(tracker);
    replies
}

/// Messages one command's events may take; past them the last says `… and N more`.
const EVENT_MESSAGES: usize = 5;

/// `lines` as messages of monospace blocks within Discord's limit, the first
/// opening with `heading` (if any): whole lines, in order, at most
/// [`EVENT_MESSAGES`]; what does not fit in those is counted at the end.
pub(super) fn event_blocks(lang: Lang, heading: &str, lines: &[String]) -> Vec<String> {
    // A block's fences and newlines, and the heading's line.
    const FENCES: usize = 10;
    let mut messages = Vec::new();
    let mut rest = lines;
    while !rest.is_empty() {
        let lead = match messages.is_empty() {
            true => heading.chars().count() + 1,
            false => 0,
        };
        let budget = MESSAGE_LIMIT - FENCES - lead;
        let last = messages.len() + 1 == EVENT_MESSAGES;
        let (body, taken) = fit_lines(lang, rest, budget, last);
        rest = &rest[taken..];
        let block = code_block(&body);
        messages.push(match (messages.is_empty(), heading.is_empty()) {
            (true, false) => format!("{heading}\n{block}"),
            _ => block,
        });
        if last {
            break;
        }
    }
    messages
}

/// As many whole lines of `lines` as fit in `budget` characters, and how many
/// were taken (at least one, cut if it alone is too long). On the `last` message
/// the lines that do not fit are counted (`… and N more`).
fn fit_lines(lang: Lang, lines: &[String], budget: usize, last: bool) -> (String, usize) {
    let mut out = String::new();
    for (index, line) in lines.iter().enumerate() {
        let more = match last {
            true => format!("\n{}", tracker::and_more(lang, lines.len() - index))
                .chars()
                .count(),
            false => 0,
        };
        let needed = out.chars().count() + line.chars().count() + 1;
        if needed + more > budget && index > 0 {
            if last {
                out.push('\n');
                out.push_str(&tracker::and_more(lang, lines.len() - index));
            }
            return (out, index);
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&truncate(line, budget.saturating_sub(more + 1)));
    }
    (out, lines.len())
}

/// The tracker as stored at `step`: an edit of its message, or a new message
/// (tracked) when it has none yet.
fn tracker_reply(
    lang: Lang,
    row: &EncounterRow,
    engine: &Encounter,
    seats: &[Seat],
    step: i64,
) -> Reply {
    let mut message = Message::text(tracker::render(
        lang,
        engine,
        seats,
        &row.gm_name,
        Viewer::Players,
    ));
    let button = |action, label: String, style, disabled| {
        Component::Button(Button {
            custom_id: InitId::new(action, row.id, step).encode(),
            label,
            style,
            disabled,
        })
    };
    message.components.push(ActionRow(vec![
        button(
            InitAction::Next,
            i18n::tr(lang, "encounter-button-next"),
            ButtonStyle::Primary,
            engine.is_empty(),
        ),
        button(
            InitAction::Previous,
            i18n::tr(lang, "encounter-button-prev"),
            ButtonStyle::Secondary,
            engine.round() == 0,
        ),
        button(
            InitAction::End,
            i18n::tr(lang, "encounter-button-end"),
            ButtonStyle::Danger,
            false,
        ),
    ]));
    // Tracked also when edited: a transport posts a deleted tracker again.
    message.track = Some(Track::Encounter {
        encounter_id: row.id,
    });
    match row.message_id {
        Some(message_id) => Reply::Edit {
            channel_id: row.channel_id,
            message_id,
            message,
        },
        None => Reply::Channel {
            channel_id: row.channel_id,
            message,
        },
    }
}

/// `/init list`: privately, the GM's numbers or the players' view.
fn init_list(loaded: &Loaded, asker: &Asker) -> Vec<Reply> {
    let viewer = match asker.gm {
        true => Viewer::Gm,
        false => Viewer::Players,
    };
    ephemeral(tracker::render(
        asker.lang,
        &loaded.engine,
        &loaded.seats,
        &loaded.row.gm_name,
        viewer,
    ))
}

/// The GM's name as refusals give it.
fn gm_name(loaded: &Loaded) -> String {
    super::access::encounter_gm_name(&loaded.row.gm_name)
}
