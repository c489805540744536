//! Roll macros (owner 0: the server's; otherwise a user's own), the guild settings
//! they depend on, and the character each user plays.

use sqlx::FromRow;

use super::characters::name_key;
use super::{CharacterRow, Storage};

/// The owner id of a server macro.
pub const SERVER_OWNER: i64 = 0;

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct MacroRow {
    pub id: i64,
    pub guild_id: i64,
    /// [`SERVER_OWNER`] for a server macro.
    pub owner_id: i64,
    pub name: String,
    pub expr: String,
    pub description: Option<String>,
    pub created_by: i64,
    pub created_by_name: String,
    pub created_at: i64,
    pub updated_by: i64,
    pub updated_by_name: String,
    pub updated_at: i64,
}

impl MacroRow {
    pub fn is_server(&self) -> bool {
        self.owner_id == SERVER_OWNER
    }
}

/// A macro to create or change.
#[derive(Debug, Clone)]
pub struct MacroWrite {
    /// The id a new row gets (ignored when the macro exists).
    pub id: i64,
    pub guild_id: i64,
    pub owner_id: i64,
    pub name: String,
    pub expr: String,
    pub description: Option<String>,
    pub user_id: i64,
    pub user_name: String,
    pub now: i64,
}

const COLUMNS: &str = "id, guild_id, owner_id, name, expr, description, created_by, \
     created_by_name, created_at, updated_by, updated_by_name, updated_at";

impl Storage {
    /// Creates the macro or changes its text and description (keeping who created
    /// it and when). Returns whether it was created.
    pub async fn save_macro(&self, write: &MacroWrite) -> anyhow::Result<bool> {
        let existed = self
            .macro_of(write.guild_id, write.owner_id, &write.name)
            .await?
            .is_some();
        sqlx::query(
            "INSERT INTO macros (id, guild_id, owner_id, name, name_key, expr, description, \
             created_by, created_by_name, created_at, updated_by, updated_by_name, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $8, $9, $10) \
             ON CONFLICT (guild_id, owner_id, name_key) DO UPDATE SET name = excluded.name, \
             expr = excluded.expr, description = excluded.description, \
             updated_by = excluded.updated_by, updated_by_name = excluded.updated_by_name, \
             updated_at = excluded.updated_at",
        )
        .bind(write.id)
        .bind(write.guild_id)
        .bind(write.owner_id)
        .bind(&write.name)
        .bind(name_key(&write.name))
        .bind(&write.expr)
        .bind(write.description.as_deref())
        .bind(write.user_id)
        .bind(&write.user_name)
        .bind(write.now)
        .execute(&self.pool)
        .await?;
        Ok(!existed)
    }

    /// One macro of one owner ([`SERVER_OWNER`] for the server's).
    pub async fn macro_of(
        &self,
        guild_id: i64,
        owner_id: i64,
        name: &str,
    ) -> anyhow::Result<Option<MacroRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM macros WHERE guild_id = $1 AND owner_id = $2 AND name_key = $3"
        );
        Ok(sqlx::query_as::<_, MacroRow>(&sql)
            .bind(guild_id)
            .bind(owner_id)
            .bind(name_key(name))
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The macros called `names` that `user_id` can use in a guild: their own and
    /// the server's (both, when both exist; the caller prefers the personal one).
    pub async fn macros_named(
        &self,
        guild_id: i64,
        user_id: i64,
        names: &[String],
    ) -> anyhow::Result<Vec<MacroRow>> {
        if names.is_empty() {
            return Ok(Vec::new());
        }
        let placeholders: Vec<String> = (0..names.len()).map(|i| format!("${}", i + 4)).collect();
        let sql = format!(
            "SELECT {COLUMNS} FROM macros WHERE guild_id = $1 AND (owner_id = $2 OR owner_id = $3) \
             AND name_key IN ({})",
            placeholders.join(", ")
        );
        let mut query = sqlx::query_as::<_, MacroRow>(&sql)
            .bind(guild_id)
            .bind(SERVER_OWNER)
            .bind(user_id);
        for name in names {
            query = query.bind(name_key(name));
        }
        Ok(query.fetch_all(&self.pool).await?)
    }

    /// Every macro `user_id` can use in a guild, personal ones first, by name.
    pub async fn macros_visible(
        &self,
        guild_id: i64,
        user_id: i64,
    ) -> anyhow::Result<Vec<MacroRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM macros WHERE guild_id = $1 AND (owner_id = $2 OR owner_id = $3) \
             ORDER BY CASE WHEN owner_id = $2 THEN 1 ELSE 0 END, name_key"
        );
        Ok(sqlx::query_as::<_, MacroRow>(&sql)
            .bind(guild_id)
            .bind(SERVER_OWNER)
            .bind(user_id)
            .fetch_all(&self.pool)
            .await?)
    }

    /// Up to `limit` macros `user_id` can use whose names start with `prefix`
    /// (case-insensitive), for autocomplete: one indexed query.
    pub async fn macros_starting(
        &self,
        guild_id: i64,
        user_id: i64,
        prefix: &str,
        limit: i64,
    ) -> anyhow::Result<Vec<MacroRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM macros WHERE guild_id = $1 AND (owner_id = $2 OR owner_id = $3) \
             AND name_key LIKE $4 ESCAPE '!' \
             ORDER BY name_key, CASE WHEN owner_id = $2 THEN 1 ELSE 0 END LIMIT $5"
        );
        Ok(sqlx::query_as::<_, MacroRow>(&sql)
            .bind(guild_id)
            .bind(SERVER_OWNER)
            .bind(user_id)
            .bind(like_prefix(&name_key(prefix)))
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }

    /// How many macros an owner has in a guild.
    pub async fn count_macros(&self, guild_id: i64, owner_id: i64) -> anyhow::Result<i64> {
        let (count,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM macros WHERE guild_id = $1 AND owner_id = $2")
                .bind(guild_id)
                .bind(owner_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(count)
    }

    pub async fn delete_macro(
        &self,
        guild_id: i64,
        owner_id: i64,
        name: &str,
    ) -> anyhow::Result<bool> {
        let result = sqlx::query(
            "DELETE FROM macros WHERE guild_id = $1 AND owner_id = $2 AND name_key = $3",
        )
        .bind(guild_id)
        .bind(owner_id)
        .bind(name_key(name))
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Makes `character_id` the character `user_id` plays in a guild.
    pub async fn set_active_character(
        &self,
        guild_id: i64,
        user_id: i64,
        character_id: i64,
        now: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO active_characters (guild_id, user_id, character_id, updated_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, user_id) DO UPDATE SET \
             character_id = excluded.character_id, updated_at = excluded.updated_at",
        )
        .bind(guild_id)
        .bind(user_id)
        .bind(character_id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The character `user_id` plays in a guild, if one is set and still exists.
    pub async fn active_character(
        &self,
        guild_id: i64,
        user_id: i64,
    ) -> anyhow::Result<Option<CharacterRow>> {
        Ok(sqlx::query_as::<_, CharacterRow>(
            "SELECT c.id, c.owner_id, c.guild_id, c.name, c.program, c.program_hash, c.fields, \
             c.transcript, c.gold, c.food, c.created_at, c.capture FROM active_characters a \
             JOIN characters c ON c.id = a.character_id \
             WHERE a.guild_id = $1 AND a.user_id = $2 AND c.owner_id = $2",
        )
        .bind(guild_id)
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?)
    }
}

/// A LIKE pattern matching names that start with `prefix` (`!` escapes).
fn like_prefix(prefix: &str) -> String {
    let mut pattern = String::with_capacity(prefix.len() + 1);
    for ch in prefix.chars() {
        if matches!(ch, '%' | '_' | '!') {
            pattern.push('!');
        }
        pattern.push(ch);
    }
    pattern.push('%');
    pattern
}
