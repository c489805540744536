//! `/init attack` and `/init save`: rolls against a target's armour class or a
//! difficulty, with damage applied through the effect engine
//! ([`Encounter::damage`]), so the means meet immunities and protections as an
//! effect of that method does. The rules are the D&D 5e SRD's:
//!
//! - **Attack.** `1d20 + bonus` (advantage `2d20kh1`, disadvantage `2d20kl1`, both
//!   cancel) against the target's AC (10 when it has none). A natural 20 always
//!   hits and is critical: the damage dice are rolled twice (the second roll's dice
//!   added, its modifiers not); a natural 1 always misses. Each target gets its own
//!   attack and damage roll.
//! - **Save.** Each target rolls `1d20 +` its modifier: a monster's given bonus for
//!   that ability, else the ability's `@…_MOD` from its score in the encounter
//!   (effects included), else 0. Total ≥ DC succeeds (no natural 20 or 1 rule for
//!   saves). The damage is rolled once; a failure takes it all (and the effect, if
//!   one is named), a success half (rounded down) or, with `half:false`, none. An
//!   effect whose file declares a save (`save DEX 15 half`) gives what is not typed;
//!   an instant hit point one is then the damage itself, by its method.
//! - **At 0 hit points.** A monster is dead and out of the fight: it rolls no
//!   save, takes nothing, and its line says so. A character (or a player's other
//!   combatant) is unconscious: it fails STR and DEX saves without rolling and
//!   takes the failure's damage and effect; other saves it rolls as usual (death
//!   saves are the table's, not the tracker's). An attack on a monster at 0 rolls
//!   nothing and says so, the other targets go on; a character at 0 is attacked as
//!   any other (the SRD makes a hit from within 5 feet on an unconscious creature
//!   critical, and the tracker knows no distances).
//!
//! Expressions are prepared as `/roll` prepares them (macros, the asker's
//! `@FIELD`s), and every roll uses the command's seeded generator. One command is
//! one stored change; `/init prev` moves the turn back and undoes no attack or
//! save (as it undoes no effect). A hidden combatant's numbers (its AC, a hidden
//! attacker's or saver's dice) are left out of the public lines; the GM gets them
//! in a private follow-up.

use npc_core::effects::{EffectEvent, EffectLibrary, Encounter, Subject};
use rand::rngs::StdRng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::seats::Seat;
use super::seats::{StoredAttack, means_of};
use super::words::{damage_lines, element_words};
use super::{
    Asker, Extra, Loaded, Stepped, answer, engine_reason, event_blocks, gm_name, meant_combatant,
};
use crate::core::context::Context;
use crate::core::fields::ability_modifier;
use crate::core::prepare::Prepared;
use crate::core::text::{code_span_text, truncate};
use crate::core::{Command, Message, Reply, Request, ephemeral};
use crate::engine::RollOutcome;
use crate::engine::worker;
use crate::i18n::{self, Lang};

/// The abilities a save names, with the subject holding each score.
const ABILITIES: [(&str, Subject); 6] = [
    ("STR", Subject::Strength),
    ("DEX", Subject::Dexterity),
    ("CON", Subject::Constitution),
    ("INT", Subject::Intelligence),
    ("WIS", Subject::Wisdom),
    ("CHA", Subject::Charisma),
];

/// The armour class of a target that has none (the SRD's unarmoured base).
const NO_ARMOUR: i64 = 10;

/// The saves an unconscious creature fails without rolling (SRD, Unconscious).
const UNCONSCIOUS_FAILS: [&str; 2] = ["STR", "DEX"];

/// Characters a rendered roll may take in an event line.
const ROLL_BUDGET: usize = 200;

/// `DEX+1 WIS-2`: a monster's save bonuses by ability; `None` when a word is not one.
pub fn parse_saves(text: &str) -> Option<Vec<(String, i64)>> {
    text.split([' ', ','])
        .filter(|word| !word.is_empty())
        .map(|word| {
            let at = word.find(['+', '-'])?;
            let ability = ability_key(&word[..at])?;
            let bonus = word[at..].trim_start_matches('+').parse::<i64>().ok()?;
            Some((ability.to_owned(), bonus))
        })
        .collect()
}

/// The ability key (`DEX`) of what was typed (`dex`, `Dexterity`).
fn ability_key(typed: &str) -> Option<&'static str> {
    let typed = typed.trim().to_uppercase();
    ABILITIES
        .iter()
        .map(|(key, _)| *key)
        .find(|key| typed == *key || (typed.len() > 3 && typed.starts_with(key)))
}

/// The d20 term: advantage and disadvantage cancel.
fn d20_term(command: &Command) -> &'static str {
    match (
        command.boolean("advantage").unwrap_or(false),
        command.boolean("disadvantage").unwrap_or(false),
    ) {
        (true, false) => "2d20kh1",
        (false, true) => "2d20kl1",
        _ => "1d20",
    }
}

/// The to-hit expression: `hit` with its leading `1d20` (if written) replaced by
/// the d20 term; a bare bonus (`+5`, `@STR_MOD`) is added to it.
fn to_hit_expr(term: &str, hit: &str) -> String {
    let hit = hit.trim();
    let lower = hit.to_lowercase();
    let rest = ["1d20", "d20"]
        .iter()
        .find_map(|prefix| {
            lower
                .starts_with(prefix)
                .then(|| hit[prefix.len()..].trim())
        })
        .unwrap_or(hit);
    match rest.chars().next() {
        None => term.to_owned(),
        Some('+' | '-') => format!("{term}{rest}"),
        Some(_) => format!("{term} + {rest}"),
    }
}

/// The value of the kept d20 a roll of `term` rolled first.
fn natural(outcome: &RollOutcome, term: &str) -> Option<i64> {
    outcome.json()["dice"].as_array()?.iter().find_map(|die| {
        let ours = die["term"].as_str()? == term && die["kept"].as_bool()?;
        ours.then(|| die["value"].as_i64()).flatten()
    })
}

/// The kept dice of a roll, summed: a critical hit's extra damage.
fn dice_sum(outcome: &RollOutcome) -> i64 {
    outcome.json()["dice"].as_array().map_or(0, |dice| {
        dice.iter()
            .filter(|die| die["kept"].as_bool() == Some(true))
            .filter_map(|die| die["value"].as_i64())
            .sum()
    })
}

/// A monster: the GM's combatant that is no stored character (a split-off clone
/// has no seat of its own and is the GM's too).
fn is_monster(seats: &[Seat], name: &str) -> bool {
    seats
        .iter()
        .find(|seat| seat.name == name)
        .is_none_or(|seat| seat.owner == 0 && seat.character.is_none())
}

/// A combatant at 0 hit points (or below, as stored hit points may be).
fn is_down(engine: &Encounter, name: &str) -> bool {
    engine.combatant(name).is_some_and(|view| view.hp <= 0)
}

/// A monster at 0 hit points: dead, so no attack or save touches it any more.
fn out_of_the_fight(engine: &Encounter, seats: &[Seat], name: &str) -> bool {
    is_down(engine, name) && is_monster(seats, name)
}

fn is_hidden(seats: &[Seat], name: &str) -> bool {
    seats.iter().any(|seat| seat.name == name && seat.hidden)
}

/// What one target's roll came to, in the order told: the public line, the GM's
/// line (differs when a hidden combatant's numbers are in it), and the engine's
/// events of its damage.
struct Told {
    public: String,
    gm: String,
    events: Vec<EffectEvent>,
}

impl Told {
    /// The one line for a target out of the fight: the same for players and GM
    /// (its name is all it says, a hidden one's too).
    fn out(table: Lang, key: &str, target: &str) -> Told {
        let said = line(table, key, &[("target", target)]);
        Told {
            public: said.clone(),
            gm: said,
            events: Vec::new(),
        }
    }
}

/// A catalogue line with text arguments.
fn line(lang: Lang, key: &str, args: &[(&str, &str)]) -> String {
    let args: Vec<(&str, i18n::Arg)> = args
        .iter()
        .map(|(name, value)| (*name, (*value).into()))
        .collect();
    i18n::tr_args(lang, key, &args)
}

/// A roll as the table sees it: its breakdown, or only its total when it is a
/// hidden combatant's.
fn shown_roll(outcome: &RollOutcome, hidden: bool) -> String {
    match hidden {
        true => outcome.total.to_string(),
        false => one_roll(outcome),
    }
}

/// A roll's breakdown on one line; a plain number (`damage:6`) as itself.
fn one_roll(outcome: &RollOutcome) -> String {
    if !has_dice(outcome) {
        return outcome.total.to_string();
    }
    outcome.plain().replace('\n', " ")
}

fn has_dice(outcome: &RollOutcome) -> bool {
    outcome.json()["dice"]
        .as_array()
        .is_some_and(|dice| !dice.is_empty())
}

/// The damage line, with the means (in words) when there are any.
fn damage_line(lang: Lang, roll: &str, means: &str) -> String {
    match means.is_empty() {
        true => line(lang, "encounter-damage-line", &[("roll", roll)]),
        false => line(
            lang,
            "encounter-damage-line-means",
            &[("roll", roll), ("means", means)],
        ),
    }
}

impl Context {
    /// Rolls a prepared expression with the command's generator; the failure as
    /// the asker's private answer.
    fn roll_prepared(
        &self,
        lang: Lang,
        prepared: &Prepared,
        rng: &mut StdRng,
    ) -> Result<RollOutcome, Vec<Reply>> {
        self.engines
            .dice
            .roll(&prepared.expr, &prepared.context, rng, ROLL_BUDGET)
            .map_err(|failure| ephemeral(crate::core::roll_line::cannot_roll(lang, &failure)))
    }

    /// `/init attack`.
    /// The attack macro `name` holds (personal before server), written as the roll
    /// to hit, `#`, the damage and its elements: `1d20+@STR_MOD # 1d8+@STR_MOD SLASH`.
    /// `Err` is the refusal to give.
    async fn attack_macro(
        &self,
        request: &Request,
        lang: Lang,
        name: &str,
    ) -> anyhow::Result<Result<StoredAttack, Vec<Reply>>> {
        let name = name.trim_start_matches('$');
        let shown = [("name", code_span_text(name, 32).into())];
        let texts = self
            .lookup_macros(
                request.place(),
                Some(request.user.id),
                &[name.to_owned()],
                None,
            )
            .await?;
        let Some(text) = texts.get(&name.to_lowercase()) else {
            return Ok(Err(ephemeral(i18n::tr_args(
                lang,
                "encounter-attack-macro-unknown",
                &shown,
            ))));
        };
        let held = text.split_once('#').and_then(|(hit, rest)| {
            let hit = hit.trim();
            let mut words = rest.split_whitespace();
            let damage = words.next()?;
            (!hit.is_empty()).then(|| StoredAttack {
                hit: hit.to_owned(),
                damage: damage.to_owned(),
                means: means_of(&words.collect::<Vec<_>>().join(" ")),
            })
        });
        Ok(held
            .ok_or_else(|| ephemeral(i18n::tr_args(lang, "encounter-attack-macro-shape", &shown))))
    }

    pub(super) async fn init_attack(
        &self,
        request: &Request,
        loaded: Loaded,
        asker: &Asker,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = asker.lang;
        let targets = target_names(&loaded.engine, command.string("targets").unwrap_or(""));
        if targets.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "encounter-no-targets")));
        }
        if let Some(refusal) = unknown_target(lang, &loaded.engine, &targets) {
            return Ok(refusal);
        }
        let attacker = self.attacker(&loaded, asker, command.string("attacker"), &targets);
        if let Some(refusal) = refuse_acting(&loaded, asker, attacker.as_deref(), &targets) {
            return Ok(refusal);
        }
        let stored = attacker
            .as_deref()
            .and_then(|name| loaded.seats.iter().find(|seat| seat.name == name))
            .and_then(|seat| seat.attack.clone());
        let typed = |name: &str| {
            command
                .string(name)
                .map(str::trim)
                .filter(|text| !text.is_empty())
        };
        // A macro may hold the whole attack; what is typed still wins.
        let stored = match typed("macro") {
            Some(name) => match self.attack_macro(request, lang, name).await? {
                Ok(held) => Some(held),
                Err(refusal) => return Ok(refusal),
            },
            None => stored,
        };
        let hit = typed("hit")
            .map(str::to_owned)
            .or_else(|| stored.as_ref().map(|a| a.hit.clone()));
        let damage = typed("damage")
            .map(str::to_owned)
            .or_else(|| stored.as_ref().map(|a| a.damage.clone()));
        let (Some(hit), Some(damage)) = (hit, damage) else {
            return Ok(ephemeral(i18n::tr(lang, "encounter-attack-needs")));
        };
        let means = match typed("means") {
            Some(means) => means_of(means),
            None => stored.map(|a| a.means).unwrap_or_default(),
        };
        if let Some(refusal) = unknown_means(lang, &loaded, &means) {
            return Ok(refusal);
        }
        let term = d20_term(command);
        let to_hit = match self.prepare_roll(request, &to_hit_expr(term, &hit)).await? {
            Ok(prepared) => prepared,
            Err(refusal) => return Ok(refusal),
        };
        let damage = match self.prepare_roll(request, &damage).await? {
            Ok(prepared) => prepared,
            Err(refusal) => return Ok(refusal),
        };
        let who = attacker
            .clone()
            .unwrap_or_else(|| crate::core::text::one_line(&request.user.name, 32));
        let attacker_hidden = attacker
            .as_deref()
            .is_some_and(|name| is_hidden(&loaded.seats, name));
        let label = means.join("|");
        let table = asker.table;
        let means_shown = element_words(table, &means);
        let mut rng = self.command_rng();
        let mut engine = loaded.engine.clone();
        let mut told = Vec::new();
        for target in &targets {
            // A monster at 0 hit points is dead and out of the fight: nothing rolls
            // against it (the seeded dice go on to the next target). A character at
            // 0 is unconscious and is attacked as before: the SRD's automatic
            // critical wants the attacker within 5 feet, which the tracker does not know.
            if out_of_the_fight(&engine, &loaded.seats, target) {
                told.push(Told::out(table, "encounter-attack-out", target));
                continue;
            }
            let rolled = match self.roll_prepared(lang, &to_hit, &mut rng) {
                Ok(rolled) => rolled,
                Err(refusal) => return Ok(refusal),
            };
            let natural = natural(&rolled, term).unwrap_or(0);
            let view = engine.combatant(target);
            let ac = view
                .as_ref()
                .and_then(|view| view.int(Subject::ArmorClass))
                .unwrap_or(NO_ARMOUR);
            let outcome = match natural {
                20 => "encounter-attack-crit",
                1 => "encounter-attack-fumble",
                _ if rolled.total >= ac => "encounter-attack-hit",
                _ => "encounter-attack-miss",
            };
            let target_hidden = is_hidden(&loaded.seats, target);
            let outcome_word = i18n::tr(table, outcome);
            let against = i18n::tr_args(table, "encounter-attack-against", &[("ac", ac.into())]);
            let roll = one_roll(&rolled);
            let gm = line(
                table,
                "encounter-attack-line",
                &[
                    ("attacker", &who),
                    ("target", target),
                    ("roll", &roll),
                    ("against", &against),
                    ("outcome", &outcome_word),
                ],
            );
            let public = line(
                table,
                "encounter-attack-line",
                &[
                    ("attacker", &who),
                    ("target", target),
                    ("roll", &shown_roll(&rolled, attacker_hidden)),
                    ("against", if target_hidden { "" } else { &against }),
                    ("outcome", &outcome_word),
                ],
            );
            let mut one = Told {
                public,
                gm,
                events: Vec::new(),
            };
            if matches!(outcome, "encounter-attack-hit" | "encounter-attack-crit") {
                let mut dealt = match self.roll_prepared(lang, &damage, &mut rng) {
                    Ok(dealt) => dealt,
                    Err(refusal) => return Ok(refusal),
                };
                let mut shown = one_roll(&dealt);
                // A critical hit rolls the dice again; damage without dice has none to roll.
                if outcome == "encounter-attack-crit" && has_dice(&dealt) {
                    let again = match self.roll_prepared(lang, &damage, &mut rng) {
                        Ok(again) => again,
                        Err(refusal) => return Ok(refusal),
                    };
                    let extra = dice_sum(&again);
                    dealt.total = dealt.total.saturating_add(extra);
                    shown = i18n::tr_args(
                        table,
                        "encounter-attack-crit-dice",
                        &[
                            ("roll", shown.into()),
                            ("extra", extra.into()),
                            ("total", dealt.total.into()),
                        ],
                    );
                }
                let gm_damage = damage_line(table, &shown, &means_shown);
                let public_damage = match attacker_hidden {
                    true => damage_line(table, &dealt.total.to_string(), &means_shown),
                    false => gm_damage.clone(),
                };
                one.public.push('\n');
                one.public.push_str(&public_damage);
                one.gm.push('\n');
                one.gm.push_str(&gm_damage);
                let step = damage_step(target, dealt.total, &means, &label);
                match self
                    .step_on_worker(asker, &mut engine, &loaded.library, &mut rng, step)
                    .await?
                {
                    Ok(events) => one.events = events,
                    Err(refusal) => return Ok(refusal),
                }
            }
            told.push(one);
        }
        // Who rolls is said when it is a combatant, not the asker.
        let intro = attacker.map(|attacker| {
            i18n::tr_args(
                table,
                "encounter-attacks",
                &[
                    (
                        "name",
                        crate::core::text::escape_markdown(&request.user.name).into(),
                    ),
                    ("attacker", attacker.into()),
                ],
            )
        });
        self.store_told(loaded, asker, engine, intro, told, &means)
            .await
    }

    /// `/init save`.
    pub(super) async fn init_save(
        &self,
        request: &Request,
        loaded: Loaded,
        asker: &Asker,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = asker.lang;
        let targets = target_names(&loaded.engine, command.string("targets").unwrap_or(""));
        if targets.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "encounter-no-targets")));
        }
        if let Some(refusal) = unknown_target(lang, &loaded.engine, &targets) {
            return Ok(refusal);
        }
        if let Some(refusal) = refuse_acting(&loaded, asker, None, &targets) {
            return Ok(refusal);
        }
        let typed = |name: &str| {
            command
                .string(name)
                .map(str::trim)
                .filter(|text| !text.is_empty())
        };
        let named_effect = typed("effect");
        if let Some(effect) = named_effect
            && !loaded.library.has_effect(effect)
        {
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "encounter-no-such-effect",
                &[("effect", code_span_text(effect, 64).into())],
            )));
        }
        // An effect that declares its save (`save DEX 15 half`) gives what is not
        // typed: the ability, the DC, half or none, and, when it is instant hit
        // point damage, that damage by its method, rolled once so a success can
        // take half. Then the damage is the effect, which is not applied again.
        let declared = named_effect.and_then(|effect| loaded.library.save(effect));
        let declared_damage = declared
            .as_ref()
            .and_then(|(save, means)| Some((save.damage.as_deref()?, means)));
        let typed_ability = typed("ability").map(str::to_owned);
        // Nothing of the save typed: the effect was meant to bring it.
        let undeclared =
            named_effect.filter(|_| typed_ability.is_none() && command.integer("dc").is_none());
        let Some(ability) = typed_ability
            .or_else(|| declared.as_ref().map(|(save, _)| save.ability.clone()))
            .and_then(|ability| ability_key(&ability))
        else {
            return Ok(save_not_declared(lang, undeclared, declared.is_some())
                .unwrap_or_else(|| ephemeral(i18n::tr(lang, "encounter-save-ability"))));
        };
        let Some(dc) = command
            .integer("dc")
            .or_else(|| declared.as_ref().map(|(save, _)| save.dc))
        else {
            return Ok(save_not_declared(lang, undeclared, declared.is_some())
                .unwrap_or_else(|| ephemeral(i18n::tr(lang, "encounter-save-dc"))));
        };
        let damage = typed("damage").or(declared_damage.map(|(damage, _)| damage));
        let effect = named_effect.filter(|_| declared_damage.is_none());
        if damage.is_none() && effect.is_none() {
            return Ok(ephemeral(i18n::tr(lang, "encounter-save-needs")));
        }
        let means = match (typed("means"), declared_damage) {
            (Some(typed), _) => means_of(typed),
            (None, Some((_, means))) => means.clone(),
            (None, None) => Vec::new(),
        };
        if let Some(refusal) = unknown_means(lang, &loaded, &means) {
            return Ok(refusal);
        }
        let half = command
            .boolean("half")
            .or_else(|| declared.as_ref().map(|(save, _)| save.half))
            .unwrap_or(true);
        let table = asker.table;
        let mut rng = self.command_rng();
        // One damage roll for every target, as a spell's.
        let dealt = match damage {
            Some(damage) => {
                let prepared = match self.prepare_roll(request, damage).await? {
                    Ok(prepared) => prepared,
                    Err(refusal) => return Ok(refusal),
                };
                match self.roll_prepared(lang, &prepared, &mut rng) {
                    Ok(dealt) => Some(dealt),
                    Err(refusal) => return Ok(refusal),
                }
            }
            None => None,
        };
        let term = d20_term(command);
        let label = means.join("|");
        let mut engine = loaded.engine.clone();
        let mut told = Vec::new();
        for target in &targets {
            let hidden = is_hidden(&loaded.seats, target);
            // At 0 hit points a monster is dead and out of the fight (it rolls no
            // save and takes nothing); a character is unconscious, which fails STR
            // and DEX saves without a roll (SRD, Unconscious) and rolls the others.
            if out_of_the_fight(&engine, &loaded.seats, target) {
                told.push(Told::out(table, "encounter-save-out", target));
                continue;
            }
            let down = is_down(&engine, target);
            let (saved, public, gm) = if down && UNCONSCIOUS_FAILS.contains(&ability) {
                let fails = line(
                    table,
                    "encounter-save-unconscious",
                    &[("target", target), ("ability", ability)],
                );
                (false, fails.clone(), fails)
            } else {
                let bonus = save_bonus(&engine, &loaded.seats, target, ability);
                let expr = to_hit_expr(term, &format!("{bonus:+}"));
                let rolled = match self.engines.dice.roll(
                    &expr,
                    &crate::engine::RollContext::default(),
                    &mut rng,
                    ROLL_BUDGET,
                ) {
                    Ok(rolled) => rolled,
                    Err(failure) => {
                        return Ok(ephemeral(crate::core::roll_line::cannot_roll(
                            lang, &failure,
                        )));
                    }
                };
                let saved = rolled.total >= dc;
                let outcome = match saved {
                    true => "encounter-save-success",
                    false => "encounter-save-failure",
                };
                let outcome_word = i18n::tr(table, outcome);
                let dc_text = dc.to_string();
                let save_line = |roll: &str| {
                    line(
                        table,
                        "encounter-save-line",
                        &[
                            ("target", target),
                            ("ability", ability),
                            ("roll", roll),
                            ("dc", &dc_text),
                            ("outcome", &outcome_word),
                        ],
                    )
                };
                let gm = save_line(&one_roll(&rolled));
                let public = match hidden {
                    true => save_line(&rolled.total.to_string()),
                    false => gm.clone(),
                };
                (saved, public, gm)
            };
            let mut one = Told {
                public,
                gm,
                events: Vec::new(),
            };
            let amount = match (&dealt, saved, half) {
                (Some(dealt), false, _) => Some(dealt.total),
                (Some(dealt), true, true) => Some(dealt.total.max(0) / 2),
                _ => None,
            };
            // The damage, then the effect of a failure on a target it left standing:
            // one step on a worker.
            let damage = amount.map(|amount| damage_step(target, amount, &means, &label));
            let failed = effect
                .filter(|_| !saved)
                .map(|effect| (effect.to_owned(), target.clone()));
            if damage.is_some() || failed.is_some() {
                let step = move |engine: &mut Encounter,
                                 library: &EffectLibrary,
                                 rng: &mut StdRng,
                                 cancel: &AtomicBool|
                      -> Stepped {
                    let mut events = Vec::new();
                    if let Some(damage) = damage {
                        events.extend(damage(engine, library, rng, cancel)?);
                    }
                    if let Some((effect, target)) = failed
                        && engine.combatant(&target).is_some()
                    {
                        let targets = [target.as_str()];
                        events.extend(engine.apply_cancellable(
                            library,
                            &effect,
                            &targets,
                            rng,
                            Some(cancel),
                        )?);
                    }
                    Ok(events)
                };
                match self
                    .step_on_worker(asker, &mut engine, &loaded.library, &mut rng, step)
                    .await?
                {
                    Ok(events) => one.events.extend(events),
                    Err(refusal) => return Ok(refusal),
                }
            }
            told.push(one);
        }
        // The damage of a named effect is that effect: the intro names it.
        let (intro_key, cast) = match named_effect.filter(|_| effect.is_none()) {
            Some(cast) => ("encounter-save-intro-effect", cast),
            None => ("encounter-save-intro", ""),
        };
        let mut intro = i18n::tr_args(
            table,
            intro_key,
            &[
                (
                    "name",
                    crate::core::text::escape_markdown(&request.user.name).into(),
                ),
                ("ability", ability.into()),
                ("dc", dc.into()),
                ("effect", crate::core::text::escape_markdown(cast).into()),
            ],
        );
        if let Some(dealt) = &dealt {
            let means_shown = match means.is_empty() {
                true => String::new(),
                false => format!(" {}", element_words(table, &means)),
            };
            intro.push(' ');
            intro.push_str(&i18n::tr_args(
                table,
                "encounter-save-damage",
                &[
                    (
                        "roll",
                        crate::core::text::escape_markdown(&one_roll(dealt)).into(),
                    ),
                    ("means", means_shown.into()),
                    ("half", half.to_string().into()),
                ],
            ));
        }
        if let Some(effect) = effect {
            intro.push(' ');
            intro.push_str(&i18n::tr_args(
                table,
                "encounter-save-effect",
                &[("effect", crate::core::text::escape_markdown(effect).into())],
            ));
        }
        self.store_told(loaded, asker, engine, Some(intro), told, &means)
            .await
    }

    /// Who attacks: the one named, else the asker's combatant whose turn it is, else
    /// (for the GM) the monster whose turn it is, else the asker's only combatant;
    /// never by default one of the targets (the GM's `/init attack targets:Orc` on
    /// the Orc's turn is the GM rolling, not the Orc hitting itself).
    fn attacker(
        &self,
        loaded: &Loaded,
        asker: &Asker,
        typed: Option<&str>,
        targets: &[String],
    ) -> Option<String> {
        if let Some(typed) = typed.map(str::trim).filter(|typed| !typed.is_empty()) {
            return Some(meant_combatant(&loaded.engine, typed));
        }
        let may = |name: &String| !targets.contains(name);
        let current = loaded.engine.current().map(str::to_owned).filter(may);
        if let Some(current) = &current {
            let monster = loaded
                .seats
                .iter()
                .any(|seat| &seat.name == current && seat.owner == 0);
            if asker.owns(current) || (asker.gm && monster) {
                return Some(current.clone());
            }
        }
        match asker.own.as_slice() {
            [only] if may(only) => Some(only.clone()),
            _ => None,
        }
    }

    /// One effect-engine step of `attack` or `save`, which roll dice between their
    /// steps: the command's copy of the encounter and its dice go to an engine
    /// worker (under its time limit, with its cancel flag) and come back with the
    /// step's events. `Err` holds the answer instead: the step failed (nothing is
    /// stored), or it took too long.
    async fn step_on_worker(
        &self,
        asker: &Asker,
        engine: &mut Encounter,
        library: &Arc<EffectLibrary>,
        rng: &mut StdRng,
        step: impl FnOnce(&mut Encounter, &EffectLibrary, &mut StdRng, &AtomicBool) -> Stepped
        + Send
        + 'static,
    ) -> anyhow::Result<Result<Vec<EffectEvent>, Vec<Reply>>> {
        let library = library.clone();
        // The copy goes to the worker and comes back; after a failure the command
        // stores nothing, so what it leaves behind is never read.
        let (mut job_engine, mut job_rng) = (std::mem::take(engine), rng.clone());
        let ran = self
            .workers
            .run("effects", move || {
                let cancel = worker::cancel_flag();
                let stepped = step(&mut job_engine, &library, &mut job_rng, &cancel);
                (job_engine, job_rng, stepped)
            })
            .await;
        match ran {
            Ok((stepped_engine, stepped_rng, Ok(events))) => {
                (*engine, *rng) = (stepped_engine, stepped_rng);
                Ok(Ok(events))
            }
            Ok((_, _, Err(error))) => Ok(Err(self.did_nothing(asker, &error))),
            Err(error) => super::effects_overrun(asker.lang, error).map(Err),
        }
    }

    fn did_nothing(&self, asker: &Asker, error: &npc_core::effects::EffectError) -> Vec<Reply> {
        let error = engine_reason(asker.lang, error);
        ephemeral(i18n::tr_args(
            asker.lang,
            "encounter-nothing-happened",
            &[("error", error.into())],
        ))
    }

    /// Stores the engine after the rolls and answers: the lines in order (each
    /// target's roll, then what its damage did), the redrawn tracker, and for the
    /// GM, when hidden numbers were left out, the same lines with them.
    async fn store_told(
        &self,
        loaded: Loaded,
        asker: &Asker,
        engine: Encounter,
        intro: Option<String>,
        told: Vec<Told>,
        means: &[String],
    ) -> anyhow::Result<Vec<Reply>> {
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
        let table = asker.table;
        let unveiled: Vec<Seat> = seats
            .iter()
            .cloned()
            .map(|mut seat| {
                seat.hidden = false;
                seat
            })
            .collect();
        let mut public = Vec::new();
        let mut gm = Vec::new();
        for one in &told {
            public.extend(one.public.lines().map(str::to_owned));
            public.extend(damage_lines(table, &one.events, &engine, &seats, means));
            gm.extend(one.gm.lines().map(str::to_owned));
            gm.extend(damage_lines(table, &one.events, &engine, &unveiled, means));
        }
        let mut replies = answer(
            table,
            &loaded.row,
            &engine,
            &seats,
            step,
            intro.into_iter().collect(),
            public.clone(),
            false,
        );
        if asker.gm && gm != public {
            // The GM's lines whole too, as many private messages as they need.
            let title = i18n::tr(asker.lang, "encounter-gm-numbers");
            replies.extend(
                event_blocks(table, &title, &gm)
                    .into_iter()
                    .map(|text| Reply::Interaction(Message::ephemeral(text))),
            );
        }
        Ok(replies)
    }
}

/// The combatants of a comma-separated `targets`, as `/init effect` finds them.
pub(super) fn target_names(engine: &Encounter, typed: &str) -> Vec<String> {
    typed
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| meant_combatant(engine, name))
        .collect()
}

/// A player attacks with their own combatant, on their own turn or at their own
/// combatants; the GM with anyone.
fn refuse_acting(
    loaded: &Loaded,
    asker: &Asker,
    attacker: Option<&str>,
    targets: &[String],
) -> Option<Vec<Reply>> {
    let refs: Vec<&str> = targets.iter().map(String::as_str).collect();
    let own_attacker = attacker.is_none_or(|name| asker.owns(name));
    if asker.gm || (own_attacker && asker.may_act_on(&loaded.engine, &refs)) {
        return None;
    }
    Some(ephemeral(i18n::tr_args(
        asker.lang,
        "encounter-refuse-attack",
        &[("gm", gm_name(loaded).into())],
    )))
}

/// The first target not in the encounter, refused before anything rolls (a miss
/// against a name nobody has would read as a roll that happened).
fn unknown_target(lang: Lang, engine: &Encounter, targets: &[String]) -> Option<Vec<Reply>> {
    let unknown = targets
        .iter()
        .find(|target| engine.combatant(target).is_none())?;
    Some(ephemeral(i18n::tr_args(
        lang,
        "encounter-unknown-target",
        &[("name", code_span_text(unknown, 40).into())],
    )))
}

/// A save with an effect whose file declares none, when neither an ability nor a
/// DC was typed: the refusal says so, instead of only asking for the ability.
fn save_not_declared(lang: Lang, effect: Option<&str>, declared: bool) -> Option<Vec<Reply>> {
    let effect = effect.filter(|_| !declared)?;
    Some(ephemeral(i18n::tr_args(
        lang,
        "encounter-save-not-declared",
        &[("effect", code_span_text(effect, 64).into())],
    )))
}

/// Means the server's effect file does not declare, refused before anything rolls
/// (or a monster with them is added).
pub(super) fn unknown_means(lang: Lang, loaded: &Loaded, means: &[String]) -> Option<Vec<Reply>> {
    let unknown = means
        .iter()
        .find(|element| !loaded.library.has_element(element))?;
    if loaded.library.elements().is_empty() {
        // "Known: ." would list nothing: say why there is nothing to know.
        return Some(ephemeral(i18n::tr(lang, "encounter-no-means")));
    }
    let known = loaded.library.elements().join(", ");
    Some(ephemeral(i18n::tr_args(
        lang,
        "encounter-unknown-means",
        &[
            ("means", code_span_text(unknown, 40).into()),
            ("known", truncate(&known, 500).into()),
        ],
    )))
}

/// A target's save modifier: a monster's given bonus, else its score's modifier.
fn save_bonus(engine: &Encounter, seats: &[Seat], target: &str, ability: &str) -> i64 {
    let given = seats
        .iter()
        .find(|seat| seat.name == target)
        .and_then(|seat| seat.saves.iter().find(|(key, _)| key == ability))
        .map(|(_, bonus)| *bonus);
    if let Some(bonus) = given {
        return bonus;
    }
    let subject = ABILITIES
        .iter()
        .find(|(key, _)| *key == ability)
        .map(|(_, subject)| *subject);
    subject
        .and_then(|subject| engine.combatant(target)?.int(subject))
        .map_or(0, ability_modifier)
}

/// The damage step of `attack` and `save`, owning what it needs to run on a worker.
fn damage_step(
    target: &str,
    amount: i64,
    means: &[String],
    label: &str,
) -> impl FnOnce(&mut Encounter, &EffectLibrary, &mut StdRng, &AtomicBool) -> Stepped + Send + 'static
{
    let (target, means, label) = (target.to_owned(), means.to_vec(), label.to_owned());
    move |engine, library, rng, _| engine.damage(library, &target, amount, &means, &label, rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_hit_expressions() {
        for (term, hit, expr) in [
            ("1d20", "1d20+@STR_MOD", "1d20+@STR_MOD"),
            ("2d20kh1", "1d20 + 5", "2d20kh1+ 5"),
            ("1d20", "+5", "1d20+5"),
            ("2d20kl1", "@STR_MOD", "2d20kl1 + @STR_MOD"),
            ("1d20", "D20", "1d20"),
            ("1d20", "-1", "1d20-1"),
        ] {
            assert_eq!(to_hit_expr(term, hit), expr, "{hit}");
        }
    }

    #[test]
    fn monster_attacks_and_saves_as_written() {
        assert_eq!(
            StoredAttack::parse("+5 1d12+3 SLASH"),
            Some(StoredAttack {
                hit: "+5".into(),
                damage: "1d12+3".into(),
                means: vec!["SLASH".into()],
            })
        );
        assert_eq!(StoredAttack::parse("+5"), None);
        assert_eq!(
            parse_saves("DEX+1 wis-2,Constitution+0"),
            Some(vec![
                ("DEX".into(), 1),
                ("WIS".into(), -2),
                ("CON".into(), 0)
            ])
        );
        for bad in ["DEX", "LUCK+1", "DEX+x"] {
            assert_eq!(parse_saves(bad), None, "{bad}");
        }
    }
}
