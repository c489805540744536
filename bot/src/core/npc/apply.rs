//! `APPLY_EFFECT` in a conversation: the effect lands on the character the player
//! talks as, outside any encounter (see `encounter::apply_alone`), stored in the
//! turn's transaction with the rest of the turn. An effect the server's file no
//! longer has, or a character gone, makes nothing happen; a character sitting in an
//! encounter is out of the NPC's reach until the encounter lets it go (the
//! encounter holds its state and writes it back at the end).

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use sqlx::AnyConnection;

use super::super::context::Context;
use super::super::encounter::{apply_alone, overlay};
use super::super::text::escape_markdown;
use crate::i18n::{self, Lang};
use crate::storage::characters::character_by_id_in;
use crate::storage::encounters::{
    CharacterEffectsRow, character_effects_in, character_seated_in, store_character_effects,
};

impl Context {
    /// Applies `effect` to character `character_id` of server `guild_id` within the
    /// turn's transaction; the lines the conversation shows (in `lang`).
    pub(super) async fn apply_npc_effect(
        &self,
        conn: &mut AnyConnection,
        guild_id: i64,
        character_id: i64,
        effect: &str,
        lang: Lang,
    ) -> anyhow::Result<Vec<String>> {
        let nothing = || vec![i18n::tr(lang, "npc-effect-nothing-happens")];
        let Some(library) = self
            .effect_library(guild_id)
            .await?
            .filter(|library| library.has_effect(effect))
        else {
            return Ok(nothing());
        };
        let Some(row) = character_by_id_in(conn, character_id).await? else {
            return Ok(nothing());
        };
        if character_seated_in(conn, character_id).await? {
            return Ok(vec![i18n::tr_args(
                lang,
                "npc-effect-in-encounter",
                &[
                    ("effect", escape_markdown(effect).into()),
                    ("name", escape_markdown(&row.name).into()),
                ],
            )]);
        }
        let generated = self.generated_fields(&row).await?;
        let kept = character_effects_in(conn, character_id).await?;
        let written: Vec<(String, String)> = kept
            .as_ref()
            .and_then(|kept| serde_json::from_str(&kept.fields).ok())
            .unwrap_or_default();
        let carried = kept
            .as_ref()
            .and_then(|kept| serde_json::from_str(&kept.effects).ok())
            .unwrap_or_default();
        let current = overlay(generated.clone(), &written);
        // Owned and seeded from the core's generator: a seeded core replays, and no
        // lock is held across the database calls below.
        let mut rng = StdRng::seed_from_u64(self.rng().next_u64());
        let applied = apply_alone(
            lang, &library, effect, &row.name, &generated, &current, &written, &carried, &mut rng,
        );
        let alone = match applied {
            Ok(alone) => alone,
            Err(reason) => {
                return Ok(vec![i18n::tr_args(
                    lang,
                    "npc-effect-failed",
                    &[
                        ("effect", escape_markdown(effect).into()),
                        ("reason", escape_markdown(&reason).into()),
                    ],
                )]);
            }
        };
        store_character_effects(
            conn,
            &CharacterEffectsRow {
                character_id,
                fields: serde_json::to_string(&alone.fields)?,
                effects: serde_json::to_string(&alone.effects)?,
                updated_at: self.now(),
            },
        )
        .await?;
        // The engine's lines (`* Poison on Udo: HitPoints 12 -> 10`) as the
        // conversation's other system lines read: in italics.
        Ok(alone
            .lines
            .iter()
            .map(|line| format!("*{}*", escape_markdown(line.trim_start_matches("* "))))
            .collect())
    }
}
