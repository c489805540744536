//! Finished characters.

use sqlx::FromRow;

use super::Storage;

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct CharacterRow {
    pub id: i64,
    pub owner_id: i64,
    pub guild_id: i64,
    pub name: String,
    pub program: String,
    pub program_hash: String,
    /// JSON array of `[name, value]` pairs.
    pub fields: String,
    pub transcript: String,
    pub gold: i64,
    pub food: i64,
    pub created_at: i64,
    /// JSON array of `[variable, value]` pairs the character was captured from
    /// (no `RECORD`); empty otherwise.
    pub capture: String,
}

/// A character a finished session hands over.
#[derive(Debug, Clone)]
pub struct NewCharacter {
    pub id: i64,
    pub owner_id: i64,
    pub guild_id: i64,
    /// The wanted name; a clash with another of the owner's characters in that guild
    /// gets a number appended.
    pub name: String,
    pub program: String,
    pub program_hash: String,
    pub fields: String,
    pub transcript: String,
    pub gold: i64,
    pub food: i64,
    pub now: i64,
    /// The raw capture (JSON), or empty for a `RECORD` character.
    pub capture: String,
    /// No name was found: the name is `Character N`, N the first free number.
    pub numbered: bool,
}

pub(super) const COLUMNS: &str = "id, owner_id, guild_id, name, program, program_hash, fields, transcript, \
     gold, food, created_at, capture";

/// The case-insensitive lookup key of a name.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

impl Storage {
    /// Stores the characters of a run's last step and ends its session (`(id, step)`,
    /// if the run had one and it is still at that step), in one transaction. Returns
    /// the names given, or `None` when the session had already moved on (nothing is
    /// stored then).
    pub async fn finish_session(
        &self,
        session: Option<(i64, i64)>,
        characters: &[NewCharacter],
    ) -> anyhow::Result<Option<Vec<String>>> {
        let mut tx = self.begin().await?;
        let Some(names) = finish_session_in(&mut tx, session, characters).await? else {
            tx.rollback().await?;
            return Ok(None);
        };
        tx.commit().await?;
        Ok(Some(names))
    }

    /// The names of the characters a generator session has stored so far (they
    /// outlive it), oldest first.
    pub async fn session_character_names(&self, session_id: i64) -> anyhow::Result<Vec<String>> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT name FROM characters WHERE session_id = $1 ORDER BY created_at, name_key",
        )
        .bind(session_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(name,)| name).collect())
    }

    /// The owner's characters in a guild (0: made in DMs), oldest first.
    pub async fn characters_of(
        &self,
        owner_id: i64,
        guild_id: i64,
    ) -> anyhow::Result<Vec<CharacterRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM characters WHERE owner_id = $1 AND guild_id = $2 \
             ORDER BY created_at, name_key"
        );
        Ok(sqlx::query_as::<_, CharacterRow>(&sql)
            .bind(owner_id)
            .bind(guild_id)
            .fetch_all(&self.pool)
            .await?)
    }

    pub async fn character_named(
        &self,
        owner_id: i64,
        guild_id: i64,
        name: &str,
    ) -> anyhow::Result<Option<CharacterRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM characters WHERE owner_id = $1 AND guild_id = $2 AND name_key = $3"
        );
        Ok(sqlx::query_as::<_, CharacterRow>(&sql)
            .bind(owner_id)
            .bind(guild_id)
            .bind(name_key(name))
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Names of the owner's characters starting with `prefix` (case-insensitive), for
    /// autocomplete.
    pub async fn character_names_starting(
        &self,
        owner_id: i64,
        guild_id: i64,
        prefix: &str,
        limit: i64,
    ) -> anyhow::Result<Vec<String>> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT name, name_key FROM characters WHERE owner_id = $1 AND guild_id = $2 \
             ORDER BY name_key",
        )
        .bind(owner_id)
        .bind(guild_id)
        .fetch_all(&self.pool)
        .await?;
        let prefix = name_key(prefix);
        Ok(rows
            .into_iter()
            .filter(|(_, key)| key.starts_with(&prefix))
            .map(|(name, _)| name)
            .take(usize::try_from(limit).unwrap_or(0))
            .collect())
    }

    /// The captured characters of a program in a guild (all owners, traded with or
    /// not), for a map change.
    pub async fn captured_characters(
        &self,
        guild_id: i64,
        program: &str,
        program_hash: &str,
    ) -> anyhow::Result<Vec<CharacterRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM characters WHERE guild_id = $1 AND program = $2 \
             AND program_hash = $3 AND capture <> ''"
        );
        Ok(sqlx::query_as::<_, CharacterRow>(&sql)
            .bind(guild_id)
            .bind(program)
            .bind(program_hash)
            .fetch_all(&self.pool)
            .await?)
    }

    /// Sets the gold and food of a character nobody traded with yet (a map change
    /// moved where they start); `false` when it has traded since.
    pub async fn restart_purse(&self, id: i64, gold: i64, food: i64) -> anyhow::Result<bool> {
        let result = sqlx::query(
            "UPDATE characters SET gold = $1, food = $2 WHERE id = $3 AND updated_at = created_at",
        )
        .bind(gold)
        .bind(food)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Deletes one of the owner's characters by id; whether it was there.
    pub async fn delete_character(&self, owner_id: i64, id: i64) -> anyhow::Result<bool> {
        // A character seated in an encounter stays: the encounter holds its state
        // and would write it back at the end. Checked in the statement itself, so a
        // join between a check and the delete cannot slip through.
        let result = sqlx::query(
            "DELETE FROM characters WHERE owner_id = $1 AND id = $2 AND NOT EXISTS \
             (SELECT 1 FROM encounter_characters WHERE character_id = $2)",
        )
        .bind(owner_id)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Whether a character sits in an encounter now.
    pub async fn character_seated(&self, id: i64) -> anyhow::Result<bool> {
        let mut conn = self.pool.acquire().await?;
        crate::storage::encounters::character_seated_in(&mut conn, id).await
    }

    /// Renames a character to `wanted`, or to `wanted N` (the first free N) when the
    /// owner has another character of that name in the guild; returns the name given.
    pub async fn rename_character(
        &self,
        row: &CharacterRow,
        wanted: &str,
    ) -> anyhow::Result<String> {
        let mut tx = self.begin().await?;
        let name = free_name(&mut tx, row.id, row.owner_id, row.guild_id, wanted, false).await?;
        sqlx::query("UPDATE characters SET name = $1, name_key = $2 WHERE id = $3")
            .bind(&name)
            .bind(name_key(&name))
            .bind(row.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(name)
    }
}

/// [`Storage::finish_session`] within the caller's transaction, the session's step
/// claimed first (its row deleted); `None` (roll back) when it had moved on.
pub async fn finish_session_in(
    conn: &mut sqlx::AnyConnection,
    session: Option<(i64, i64)>,
    characters: &[NewCharacter],
) -> anyhow::Result<Option<Vec<String>>> {
    if let Some((session_id, expected_step)) = session {
        let deleted = sqlx::query("DELETE FROM chargen_sessions WHERE id = $1 AND step = $2")
            .bind(session_id)
            .bind(expected_step)
            .execute(&mut *conn)
            .await?;
        if deleted.rows_affected() != 1 {
            return Ok(None);
        }
    }
    let names = insert_characters(conn, session.map(|(id, _)| id), characters).await?;
    Ok(Some(names))
}

/// Stores characters within a transaction, each under a free name, as taken by
/// `session_id` (if a session took them); returns the names given.
pub(super) async fn insert_characters(
    tx: &mut sqlx::AnyConnection,
    session_id: Option<i64>,
    characters: &[NewCharacter],
) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::with_capacity(characters.len());
    for character in characters {
        let name = free_name(
            tx,
            character.id,
            character.owner_id,
            character.guild_id,
            &character.name,
            character.numbered,
        )
        .await?;
        sqlx::query(
            "INSERT INTO characters (id, owner_id, guild_id, name, name_key, program, \
             program_hash, fields, transcript, gold, food, created_at, updated_at, capture, \
             session_id) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14)",
        )
        .bind(character.id)
        .bind(character.owner_id)
        .bind(character.guild_id)
        .bind(&name)
        .bind(name_key(&name))
        .bind(&character.program)
        .bind(&character.program_hash)
        .bind(&character.fields)
        .bind(&character.transcript)
        .bind(character.gold)
        .bind(character.food)
        .bind(character.now)
        .bind(&character.capture)
        .bind(session_id)
        .execute(&mut *tx)
        .await?;
        names.push(name);
    }
    Ok(names)
}

/// `base`, or `base N` with the first N free among the owner's other characters in
/// the guild (`id` is the character being named, which never clashes with itself).
async fn free_name(
    tx: &mut sqlx::AnyConnection,
    id: i64,
    owner_id: i64,
    guild_id: i64,
    base: &str,
    numbered: bool,
) -> anyhow::Result<String> {
    let base = base.trim();
    for attempt in 1..=1000u32 {
        let candidate = if attempt == 1 && !numbered {
            base.to_owned()
        } else {
            format!("{base} {attempt}")
        };
        let taken: Option<(i64,)> = sqlx::query_as(
            "SELECT id FROM characters WHERE owner_id = $1 AND guild_id = $2 AND name_key = $3 \
             AND id <> $4",
        )
        .bind(owner_id)
        .bind(guild_id)
        .bind(name_key(&candidate))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        if taken.is_none() {
            return Ok(candidate);
        }
    }
    anyhow::bail!("no free character name for {base:?}")
}

/// A character by id, within a transaction (an NPC turn applying an effect to the
/// character it is had by).
pub async fn character_by_id_in(
    conn: &mut sqlx::AnyConnection,
    id: i64,
) -> anyhow::Result<Option<CharacterRow>> {
    let sql = format!("SELECT {COLUMNS} FROM characters WHERE id = $1");
    Ok(sqlx::query_as::<_, CharacterRow>(&sql)
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?)
}
