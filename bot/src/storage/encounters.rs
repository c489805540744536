//! Encounters (`/init`, issue 14): one row per channel holding the effect engine's
//! state, the combatants' seats and a `step`; the characters sitting in one; and what
//! encounters leave on a character (`character_effects`). Every query of these
//! tables is here. A change is one transaction that first claims the step, so a
//! double press or two racing commands cannot both apply.

use sqlx::{AnyConnection, FromRow, Row};

use super::effects::LIBRARY_COLUMNS;
use super::{EffectLibraryRow, Storage, is_unique_violation, joined_columns};

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct EncounterRow {
    pub id: i64,
    pub guild_id: i64,
    pub channel_id: i64,
    pub gm_id: i64,
    pub gm_name: String,
    /// The serialized `npc_core::effects::Encounter`.
    pub state: String,
    /// The seats, as JSON (the core's own type).
    pub seats: String,
    pub step: i64,
    /// The tracker message, once sent.
    pub message_id: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// An encounter about to begin (at step 0).
#[derive(Debug, Clone)]
pub struct NewEncounter {
    pub id: i64,
    pub guild_id: i64,
    pub channel_id: i64,
    pub gm_id: i64,
    pub gm_name: String,
    pub state: String,
    pub seats: String,
    pub now: i64,
}

/// What encounters left on a character.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct CharacterEffectsRow {
    pub character_id: i64,
    /// JSON `[[field, value]]`, shown over the generator's fields.
    pub fields: String,
    /// JSON of the engine's carried effects.
    pub effects: String,
    pub updated_at: i64,
}

/// One change of an encounter, stored in one transaction.
#[derive(Debug, Clone, Default)]
pub struct EncounterChange {
    /// The new engine state and seats; `None` ends the encounter (the row goes).
    pub state: Option<(String, String)>,
    pub now: i64,
    /// A character that sits down in this encounter.
    pub join: Option<i64>,
    /// Characters that leave it (removed, or the encounter ends).
    pub leave: Vec<i64>,
    /// What is written back to characters (`character_effects`, replaced whole).
    pub write_backs: Vec<CharacterEffectsRow>,
}

/// How a change went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Committed {
    /// Stored; the encounter is now at this step.
    Done { step: i64 },
    /// The encounter is gone or moved past the expected step: nothing was stored.
    Stale,
    /// The joining character sits in another encounter: nothing was stored.
    CharacterBusy,
}

const COLUMNS: &str = "id, guild_id, channel_id, gm_id, gm_name, state, seats, step, message_id, \
     created_at, updated_at";

impl Storage {
    /// Begins an encounter; `Ok(false)` when its channel has one already.
    pub async fn insert_encounter(&self, encounter: &NewEncounter) -> anyhow::Result<bool> {
        let result = sqlx::query(
            "INSERT INTO encounters (id, guild_id, channel_id, gm_id, gm_name, state, seats, \
             step, message_id, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 0, NULL, $8, $8)",
        )
        .bind(encounter.id)
        .bind(encounter.guild_id)
        .bind(encounter.channel_id)
        .bind(encounter.gm_id)
        .bind(&encounter.gm_name)
        .bind(&encounter.state)
        .bind(&encounter.seats)
        .bind(encounter.now)
        .execute(&self.pool)
        .await;
        match result {
            Ok(_) => Ok(true),
            Err(error) if is_unique_violation(&error) => Ok(false),
            Err(error) => Err(error.into()),
        }
    }

    pub async fn encounter(&self, id: i64) -> anyhow::Result<Option<EncounterRow>> {
        self.encounter_where("id = $1", id).await
    }

    /// The encounter of a channel, if one runs there.
    pub async fn encounter_in_channel(
        &self,
        channel_id: i64,
    ) -> anyhow::Result<Option<EncounterRow>> {
        self.encounter_where("channel_id = $1", channel_id).await
    }

    /// The encounters running in a server, oldest first, at most `limit` (the web's
    /// list of live trackers).
    pub async fn encounters_in_guild(
        &self,
        guild_id: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<EncounterRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM encounters WHERE guild_id = $1 \
             ORDER BY created_at, id LIMIT $2"
        );
        Ok(sqlx::query_as::<_, EncounterRow>(&sql)
            .bind(guild_id)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }

    /// Encounters without a change since `before`, oldest first, at most `limit`.
    pub async fn idle_encounters(
        &self,
        before: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<EncounterRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM encounters WHERE updated_at <= $1 \
             ORDER BY updated_at, id LIMIT $2"
        );
        Ok(sqlx::query_as::<_, EncounterRow>(&sql)
            .bind(before)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }

    /// An encounter with its server's effect file (`None`: none installed), in one
    /// statement: every change of an encounter runs with the file.
    pub async fn encounter_and_library(
        &self,
        id: i64,
    ) -> anyhow::Result<Option<(EncounterRow, Option<EffectLibraryRow>)>> {
        self.encounter_and_library_where("e.id = $1", id).await
    }

    /// [`Storage::encounter_and_library`] of the encounter of a channel.
    pub async fn encounter_and_library_in_channel(
        &self,
        channel_id: i64,
    ) -> anyhow::Result<Option<(EncounterRow, Option<EffectLibraryRow>)>> {
        self.encounter_and_library_where("e.channel_id = $1", channel_id)
            .await
    }

    async fn encounter_and_library_where(
        &self,
        condition: &str,
        key: i64,
    ) -> anyhow::Result<Option<(EncounterRow, Option<EffectLibraryRow>)>> {
        let sql = format!(
            "SELECT {}, {} \
             FROM encounters e LEFT JOIN effect_libraries l ON l.guild_id = e.guild_id \
             WHERE {condition}",
            joined_columns(COLUMNS, "e", None),
            joined_columns(LIBRARY_COLUMNS, "l", Some("library"))
        );
        let Some(row) = self.joined_row(&sql, key).await? else {
            return Ok(None);
        };
        let encounter = EncounterRow::from_row(&row)?;
        let library = match row.try_get::<Option<String>, _>("library_source")? {
            None => None,
            Some(source) => Some(EffectLibraryRow {
                guild_id: row.try_get("library_guild_id")?,
                source,
                effect_count: row.try_get("library_effect_count")?,
                installed_by: row.try_get("library_installed_by")?,
                installed_by_name: row.try_get("library_installed_by_name")?,
                installed_at: row.try_get("library_installed_at")?,
            }),
        };
        Ok(Some((encounter, library)))
    }

    async fn encounter_where(
        &self,
        condition: &str,
        key: i64,
    ) -> anyhow::Result<Option<EncounterRow>> {
        let sql = format!("SELECT {COLUMNS} FROM encounters WHERE {condition}");
        Ok(sqlx::query_as::<_, EncounterRow>(&sql)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Remembers the tracker message of an encounter (whatever its step: later
    /// changes edit it).
    pub async fn set_encounter_message(&self, id: i64, message_id: i64) -> anyhow::Result<bool> {
        let result = sqlx::query("UPDATE encounters SET message_id = $1 WHERE id = $2")
            .bind(message_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Forgets a tracker message Discord refused to post; the next change posts anew.
    pub async fn clear_encounter_message(&self, id: i64) -> anyhow::Result<()> {
        sqlx::query("UPDATE encounters SET message_id = NULL WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores one change of encounter `id`, expected at `expected_step`, in one
    /// transaction ([`commit_encounter_in`]): committed when done, rolled back
    /// (nothing stored) otherwise.
    pub async fn commit_encounter(
        &self,
        id: i64,
        expected_step: i64,
        change: &EncounterChange,
    ) -> anyhow::Result<Committed> {
        let mut tx = self.begin().await?;
        let committed = commit_encounter_in(&mut tx, id, expected_step, change).await?;
        match committed {
            Committed::Done { .. } => tx.commit().await?,
            Committed::Stale | Committed::CharacterBusy => tx.rollback().await?,
        }
        Ok(committed)
    }

    /// What encounters left on a character, if anything.
    pub async fn character_effects(
        &self,
        character_id: i64,
    ) -> anyhow::Result<Option<CharacterEffectsRow>> {
        let mut conn = self.pool.acquire().await?;
        character_effects_in(&mut conn, character_id).await
    }
}

/// One change of encounter `id`, expected at `expected_step`, within the caller's
/// transaction: the step claimed first (or the row deleted when the change ends it),
/// then the joining character seated, the leaving ones unseated, the write-backs
/// stored. Anything but [`Committed::Done`] means the transaction must be rolled back.
pub async fn commit_encounter_in(
    conn: &mut AnyConnection,
    id: i64,
    expected_step: i64,
    change: &EncounterChange,
) -> anyhow::Result<Committed> {
    let claimed = match &change.state {
        Some((state, seats)) => {
            sqlx::query(
                "UPDATE encounters SET state = $1, seats = $2, step = step + 1, \
                 updated_at = $3 WHERE id = $4 AND step = $5",
            )
            .bind(state)
            .bind(seats)
            .bind(change.now)
            .bind(id)
            .bind(expected_step)
            .execute(&mut *conn)
            .await?
        }
        None => {
            sqlx::query("DELETE FROM encounters WHERE id = $1 AND step = $2")
                .bind(id)
                .bind(expected_step)
                .execute(&mut *conn)
                .await?
        }
    };
    if claimed.rows_affected() != 1 {
        return Ok(Committed::Stale);
    }
    if let Some(character_id) = change.join {
        let seated = sqlx::query(
            "INSERT INTO encounter_characters (character_id, encounter_id) VALUES ($1, $2)",
        )
        .bind(character_id)
        .bind(id)
        .execute(&mut *conn)
        .await;
        match seated {
            Ok(_) => {}
            Err(error) if is_unique_violation(&error) => return Ok(Committed::CharacterBusy),
            Err(error) => return Err(error.into()),
        }
    }
    for character_id in &change.leave {
        sqlx::query(
            "DELETE FROM encounter_characters WHERE character_id = $1 AND encounter_id = $2",
        )
        .bind(character_id)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    }
    for row in &change.write_backs {
        store_character_effects(conn, row).await?;
    }
    Ok(Committed::Done {
        step: expected_step + 1,
    })
}

/// What encounters left on a character, within a transaction.
pub async fn character_effects_in(
    conn: &mut AnyConnection,
    character_id: i64,
) -> anyhow::Result<Option<CharacterEffectsRow>> {
    Ok(sqlx::query_as::<_, CharacterEffectsRow>(
        "SELECT character_id, fields, effects, updated_at FROM character_effects \
         WHERE character_id = $1",
    )
    .bind(character_id)
    .fetch_optional(&mut *conn)
    .await?)
}

/// Whether a character sits in an encounter now (its state lives there until it
/// leaves).
pub async fn character_seated_in(
    conn: &mut AnyConnection,
    character_id: i64,
) -> anyhow::Result<bool> {
    let seated: Option<(i64,)> =
        sqlx::query_as("SELECT encounter_id FROM encounter_characters WHERE character_id = $1")
            .bind(character_id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(seated.is_some())
}

/// Replaces what encounters left on a character; a character deleted meanwhile
/// gets nothing (the row would have no owner).
pub async fn store_character_effects(
    conn: &mut AnyConnection,
    row: &CharacterEffectsRow,
) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO character_effects (character_id, fields, effects, updated_at) \
         SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM characters WHERE id = $1) \
         ON CONFLICT (character_id) DO UPDATE SET fields = excluded.fields, \
         effects = excluded.effects, updated_at = excluded.updated_at",
    )
    .bind(row.character_id)
    .bind(&row.fields)
    .bind(&row.effects)
    .bind(row.updated_at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
