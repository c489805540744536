//! `/init add`: monsters, one or a group, with their numbers checked. Discord keeps
//! an option to its spec's range, but the console and an outdated client need not,
//! so a number no monster can have is refused with the range it may take, and a
//! hit-point roll below 1 makes a monster of 1 and says so.

use std::ops::RangeInclusive;

use super::combat::{parse_saves, unknown_means};
use super::seats::StoredAttack;
use super::seats::{self, Seat};
use super::{Asker, Extra, Loaded, answer, engine_reason, gm_name};
use crate::core::context::Context;
use crate::core::text::code_span_text;
use crate::core::{Command, Reply, ephemeral};
use crate::engine::RollContext;
use crate::i18n::{self, Lang};
use npc_core::effects::Subject;

/// Monsters one `/init add` may add.
pub(super) const COUNT: RangeInclusive<i64> = 1..=20;
/// The armour classes `/init add` takes.
pub(super) const ARMOUR_CLASS: RangeInclusive<i64> = -100..=100;

/// Why `command`'s numbers make no monster, in `lang`; `None` when they do. The
/// hit points are checked here when written as a number; a roll is checked by
/// what it comes to.
fn out_of_range(lang: Lang, command: &Command) -> Option<String> {
    if let Some(count) = command.integer("count")
        && !COUNT.contains(&count)
    {
        return Some(i18n::tr_args(
            lang,
            "encounter-bad-count",
            &[
                ("min", (*COUNT.start()).into()),
                ("max", (*COUNT.end()).into()),
                ("count", count.into()),
            ],
        ));
    }
    if let Some(ac) = command.integer("ac")
        && !ARMOUR_CLASS.contains(&ac)
    {
        return Some(i18n::tr_args(
            lang,
            "encounter-bad-ac",
            &[
                ("min", (*ARMOUR_CLASS.start()).into()),
                ("max", (*ARMOUR_CLASS.end()).into()),
                ("ac", ac.into()),
            ],
        ));
    }
    let hp = command.string("hp").unwrap_or("").trim().parse::<i64>();
    if let Ok(hp) = hp
        && hp < 1
    {
        return Some(i18n::tr_args(
            lang,
            "encounter-bad-start-hp",
            &[("hp", hp.into())],
        ));
    }
    None
}

impl Context {
    pub(super) async fn init_add(
        &self,
        loaded: Loaded,
        asker: &Asker,
        command: &Command,
    ) -> anyhow::Result<Vec<Reply>> {
        let lang = asker.lang;
        if !asker.gm {
            let gm = gm_name(&loaded);
            return Ok(ephemeral(i18n::tr_args(
                lang,
                "encounter-gm-only-add",
                &[("gm", gm.into())],
            )));
        }
        let typed = command.string("name").unwrap_or("");
        let name = seats::combatant_name(typed);
        if name.is_empty() {
            return Ok(ephemeral(i18n::tr(lang, "encounter-monster-name")));
        }
        if let Some(refusal) = out_of_range(lang, command) {
            return Ok(ephemeral(refusal));
        }
        let typed = |name: &str| {
            command
                .string(name)
                .map(str::trim)
                .filter(|text| !text.is_empty())
        };
        let attack = match typed("attack").map(|text| (text, StoredAttack::parse(text))) {
            None => None,
            Some((_, Some(attack))) => Some(attack),
            Some((text, None)) => {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "encounter-bad-attack",
                    &[("attack", code_span_text(text, 100).into())],
                )));
            }
        };
        if let Some(attack) = &attack
            && let Some(refusal) = unknown_means(lang, &loaded, &attack.means)
        {
            return Ok(refusal);
        }
        let saves = match typed("save").map(|text| (text, parse_saves(text))) {
            None => Vec::new(),
            Some((_, Some(saves))) => saves,
            Some((text, None)) => {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "encounter-bad-saves",
                    &[("save", code_span_text(text, 100).into())],
                )));
            }
        };
        let count = command.integer("count").unwrap_or(1);
        let hidden = command.boolean("hidden").unwrap_or(false);
        let context = RollContext::default();
        let init_expr = command.string("init").unwrap_or("").trim();
        let (initiative, init_shown) = match self.roll_number(lang, init_expr, &context) {
            Ok(rolled) => rolled,
            Err(problem) => {
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "encounter-bad-initiative",
                    &[("problem", problem.into())],
                )));
            }
        };
        let hp_expr = command.string("hp").unwrap_or("").trim();
        let mut engine = loaded.engine.clone();
        let mut seats = loaded.seats.clone();
        let mut added = Vec::new();
        for index in 1..=count {
            let each = match count {
                1 => name.clone(),
                _ => format!("{name}_{index}"),
            };
            // Each monster rolls its own hit points; the group shares one initiative.
            let (hp, hp_shown) = match self.roll_number(lang, hp_expr, &context) {
                Ok(rolled) => rolled,
                Err(problem) => {
                    return Ok(ephemeral(i18n::tr_args(
                        lang,
                        "encounter-bad-hp",
                        &[("problem", problem.into())],
                    )));
                }
            };
            let mut stats = Vec::new();
            if let Some(ac) = command.integer("ac") {
                stats.push((Subject::ArmorClass, ac));
            }
            let spec = npc_core::effects::CombatantSpec {
                name: each.clone(),
                initiative,
                // A roll below 1 (`1d4-3`) makes a monster of 1, and the answer says so.
                hp: hp.max(1),
                stats,
                ..Default::default()
            };
            if let Err(error) = engine.add(&loaded.library, &spec) {
                let error = engine_reason(lang, &error);
                return Ok(ephemeral(i18n::tr_args(
                    lang,
                    "encounter-nothing-added",
                    &[("error", error.into())],
                )));
            }
            seats.push(Seat {
                name: each.clone(),
                owner: 0,
                character: None,
                hidden,
                fields: Vec::new(),
                attack: attack.clone(),
                saves: saves.clone(),
            });
            let args = [("name", each.as_str().into()), ("hp", hp_shown.into())];
            added.push(match (hidden, hp < 1) {
                (true, _) => format!("`{each}`"),
                (false, false) => i18n::tr_args(asker.table, "encounter-added-one", &args),
                (false, true) => i18n::tr_args(asker.table, "encounter-added-one-raised", &args),
            });
        }
        let (step, seats) = match self
            .store(lang, &loaded, &engine, seats, Extra::default())
            .await?
        {
            Ok(stored) => stored,
            Err(refusal) => return Ok(refusal),
        };
        let args = [
            ("added", added.join(", ").into()),
            ("initiative", init_shown.into()),
        ];
        let line = match hidden {
            true => i18n::tr_args(asker.table, "encounter-added-hidden", &args),
            false => i18n::tr_args(asker.table, "encounter-added", &args),
        };
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
}
