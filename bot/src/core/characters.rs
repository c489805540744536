//! Characters as every command reads them: their fields through the program's record
//! map and under what encounters wrote back ([`Context::character_fields`]), and the
//! effects they carry out of encounters ([`Context::kept_effects_line`]). `/character`,
//! `/chargen`, rolls, encounters and NPCs read characters here.

use npc_core::effects::CarriedEffects;

use super::context::Context;
use super::record_map::{self, RecordMap};
use super::text::one_line;
use crate::i18n::{self, Lang};
use crate::storage::CharacterRow;

/// The sheet with what encounters wrote back over it (a written field replaces
/// the generator's value; one the sheet lacks is added).
pub(crate) fn overlay(
    sheet: Vec<(String, String)>,
    written: &[(String, String)],
) -> Vec<(String, String)> {
    let mut sheet = sheet;
    for (field, value) in written {
        match sheet.iter_mut().find(|(name, _)| name == field) {
            Some(slot) => slot.1 = value.clone(),
            None => sheet.push((field.clone(), value.clone())),
        }
    }
    sheet
}

impl Context {
    /// A character's fields as they read now: one captured from a program without
    /// `RECORD` goes through its program's current record map (so fixing a map
    /// fixes the characters made already); others are as stored.
    pub(crate) async fn character_fields(
        &self,
        row: &CharacterRow,
    ) -> anyhow::Result<Vec<(String, String)>> {
        let generated = self.generated_fields(row).await?;
        // What encounters wrote back (HP and the like) reads over the generator's.
        let Some(kept) = self.storage.character_effects(row.id).await? else {
            return Ok(generated);
        };
        let written: Vec<(String, String)> = serde_json::from_str(&kept.fields).unwrap_or_default();
        Ok(overlay(generated, &written))
    }

    /// The fields as the generator made them (through the record map), without
    /// what encounters wrote back: the HP there is the character's maximum.
    pub(crate) async fn generated_fields(
        &self,
        row: &CharacterRow,
    ) -> anyhow::Result<Vec<(String, String)>> {
        let stored: Vec<(String, String)> = serde_json::from_str(&row.fields).unwrap_or_default();
        if row.capture.is_empty() {
            return Ok(stored);
        }
        let Some(map) = self
            .record_map_of(row.guild_id, &row.program, &row.program_hash)
            .await?
            .filter(|map| !map.pairs.is_empty())
        else {
            return Ok(stored);
        };
        let capture: Vec<(String, String)> = serde_json::from_str(&row.capture).unwrap_or_default();
        Ok(record_map::apply(&map, &capture))
    }

    /// The record map of an installed program as it is now, when the program is still
    /// the very listing with `hash` (a map names lines and variables of one listing).
    pub(crate) async fn record_map_of(
        &self,
        place: i64,
        name: &str,
        hash: &str,
    ) -> anyhow::Result<Option<RecordMap>> {
        if place == 0 {
            return Ok(None);
        }
        let Some(text) = self.storage.installed_record_map(place, name, hash).await? else {
            return Ok(None);
        };
        Ok(record_map::parse_stored(&text))
    }

    /// The effects encounters left on a character, for its sheet: `Poison (2 turns
    /// left), Bless (until removed)`; `None` when it carries none.
    pub(crate) async fn kept_effects_line(
        &self,
        character_id: i64,
        lang: Lang,
    ) -> anyhow::Result<Option<String>> {
        let Some(row) = self.storage.character_effects(character_id).await? else {
            return Ok(None);
        };
        let carried: CarriedEffects = serde_json::from_str(&row.effects).unwrap_or_default();
        if carried.is_empty() {
            return Ok(None);
        }
        let listed: Vec<String> = carried
            .views()
            .into_iter()
            .map(|view| match view.turns_left {
                Some(turns) => i18n::tr_args(
                    lang,
                    "encounter-kept-turns",
                    &[("tag", view.tag.as_str().into()), ("turns", turns.into())],
                ),
                None => i18n::tr_args(
                    lang,
                    "encounter-kept-until-removed",
                    &[("tag", view.tag.as_str().into())],
                ),
            })
            .collect();
        Ok(Some(one_line(&listed.join(", "), 300)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlays_replace_and_add() {
        let owned = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let shown = overlay(
            owned(&[("HP", "12"), ("STR", "17")]),
            &owned(&[("HP", "5"), ("XP", "100")]),
        );
        assert_eq!(shown, owned(&[("HP", "5"), ("STR", "17"), ("XP", "100")]));
    }
}
