//! `APPLY_EFFECT` in a conversation: the effect lands on the character the player
//! talks as, outside any encounter (see `combatants::apply_alone`). The effects of a
//! turn are worked out before the turn's transaction, from the character as read
//! then ([`EffectPlan`]), and stored in that transaction if the character's effects
//! are still as read. An effect the server's file no longer has, or a character
//! gone, makes nothing happen; a character sitting in an encounter is out of the
//! NPC's reach until the encounter lets it go (the encounter holds its state and
//! writes it back at the end).

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use sqlx::AnyConnection;

use super::super::characters::overlay;
use super::super::combatants::apply_alone;
use super::super::context::Context;
use super::super::text::escape_markdown;
use crate::engine::worker;
use crate::i18n::{self, Lang};
use crate::storage::characters::character_by_id_in;
use crate::storage::encounters::{
    CharacterEffectsRow, character_effects_in, character_seated_in, store_character_effects,
};

/// What a turn's `APPLY_EFFECT`s do to its character: the conversation's lines,
/// and what to store, with what was read, to check that nothing changed meanwhile.
#[derive(Debug, Default)]
pub(super) struct EffectPlan {
    pub(super) lines: Vec<String>,
    /// The character's effects row as read (`None`: it had none).
    read: Option<CharacterEffectsRow>,
    /// Whether the character sat in an encounter when read.
    seated: bool,
    /// What the effects leave, if any landed.
    store: Option<CharacterEffectsRow>,
}

impl EffectPlan {
    /// Whether the character's effects and seat are still as read; then stores what
    /// the effects left, within the turn's transaction.
    pub(super) async fn store_if_unchanged(
        &self,
        conn: &mut AnyConnection,
        character_id: i64,
    ) -> anyhow::Result<bool> {
        if self.lines.is_empty() {
            return Ok(true);
        }
        if character_effects_in(conn, character_id).await? != self.read
            || character_seated_in(conn, character_id).await? != self.seated
        {
            return Ok(false);
        }
        if let Some(row) = &self.store {
            store_character_effects(conn, row).await?;
        }
        Ok(true)
    }
}

impl Context {
    /// Works out `effects`, in order, on character `character_id` of server
    /// `guild_id`, reading through `conn` (outside the turn's transaction); the lines
    /// the conversation shows are in `lang`.
    pub(super) async fn plan_npc_effects(
        &self,
        conn: &mut AnyConnection,
        guild_id: i64,
        character_id: i64,
        effects: &[&str],
        lang: Lang,
    ) -> anyhow::Result<EffectPlan> {
        let mut plan = EffectPlan::default();
        if effects.is_empty() {
            return Ok(plan);
        }
        let nothing = || i18n::tr(lang, "npc-effect-nothing-happens");
        let library = self.effect_library(guild_id).await?;
        let Some(row) = character_by_id_in(conn, character_id).await? else {
            plan.lines = effects.iter().map(|_| nothing()).collect();
            return Ok(plan);
        };
        plan.read = character_effects_in(conn, character_id).await?;
        plan.seated = character_seated_in(conn, character_id).await?;
        let generated = self.generated_fields(&row).await?;
        let mut written: Vec<(String, String)> = plan
            .read
            .as_ref()
            .and_then(|kept| serde_json::from_str(&kept.fields).ok())
            .unwrap_or_default();
        let mut carried: npc_core::effects::CarriedEffects = plan
            .read
            .as_ref()
            .and_then(|kept| serde_json::from_str(&kept.effects).ok())
            .unwrap_or_default();
        for effect in effects {
            let Some(library) = library
                .as_ref()
                .filter(|library| library.has_effect(effect))
            else {
                plan.lines.push(nothing());
                continue;
            };
            if plan.seated {
                plan.lines.push(i18n::tr_args(
                    lang,
                    "npc-effect-in-encounter",
                    &[
                        ("effect", escape_markdown(effect).into()),
                        ("name", escape_markdown(&row.name).into()),
                    ],
                ));
                continue;
            }
            let current = overlay(generated.clone(), &written);
            // Owned and seeded from the core's generator: a seeded core replays, and no
            // lock is held across the database calls.
            let mut rng = StdRng::seed_from_u64(self.rng().next_u64());
            // The effect engine may take up to its step limit: on an engine worker,
            // so that the turn's task never computes for long.
            let job = (
                library.clone(),
                (*effect).to_owned(),
                row.name.clone(),
                generated.clone(),
                written.clone(),
                carried.clone(),
            );
            let applied = self
                .workers
                .run("npc-effect", move || {
                    let (library, effect, name, generated, written, carried) = job;
                    apply_alone(
                        lang,
                        &library,
                        &effect,
                        &name,
                        &generated,
                        &current,
                        &written,
                        &carried,
                        &worker::cancel_flag(),
                        &mut rng,
                    )
                })
                .await;
            let applied = match applied {
                Ok(applied) => applied,
                Err(error) => {
                    // Nothing was kept of the run: the effect changed nothing.
                    tracing::warn!(error = %error, effect, "an NPC's effect gave no answer");
                    plan.lines.push(nothing());
                    continue;
                }
            };
            let alone = match applied {
                Ok(alone) => alone,
                Err(reason) => {
                    plan.lines.push(i18n::tr_args(
                        lang,
                        "npc-effect-failed",
                        &[
                            ("effect", escape_markdown(effect).into()),
                            ("reason", escape_markdown(&reason).into()),
                        ],
                    ));
                    continue;
                }
            };
            // The engine's lines (`* Poison on Udo: 12 → 10 hit points`) as the
            // conversation's other system lines read: in italics.
            plan.lines.extend(
                alone
                    .lines
                    .iter()
                    .map(|line| format!("*{}*", escape_markdown(line.trim_start_matches("* ")))),
            );
            plan.store = Some(CharacterEffectsRow {
                character_id,
                fields: serde_json::to_string(&alone.fields)?,
                effects: serde_json::to_string(&alone.effects)?,
                updated_at: self.now(),
            });
            written = alone.fields;
            carried = alone.effects;
        }
        Ok(plan)
    }
}
