//! Generator programs installed in a guild and the guild's settings (the tables of
//! issue 5; `/chargen start` already reads them).

use super::Storage;
use super::characters::name_key;
use super::guild_settings::{clear_default_program_in, default_program_in};

/// An installed program.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ProgramRow {
    pub name: String,
    pub source: String,
    pub source_hash: String,
    /// The record map (`at LINE FIELD=VARIABLE …`), empty for none.
    pub record_map: String,
}

/// What `/chargen program list` shows of an installed program.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ProgramInfo {
    pub name: String,
    pub installed_by: i64,
    pub installed_by_name: String,
    pub installed_at: i64,
    pub line_count: i64,
    /// Syntax errors the installer accepted.
    pub syntax_errors: i64,
    pub source_bytes: i64,
    pub record_map: String,
}

/// A program to install.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct NewProgram {
    pub id: i64,
    pub guild_id: i64,
    pub name: String,
    pub source: String,
    pub source_hash: String,
    pub installed_by: i64,
    pub installed_by_name: String,
    pub line_count: i64,
    pub syntax_errors: i64,
    pub now: i64,
    /// The record map, checked against the listing; empty for none.
    #[serde(default)]
    pub record_map: String,
}

impl Storage {
    pub async fn installed_program(
        &self,
        guild_id: i64,
        name: &str,
    ) -> anyhow::Result<Option<ProgramRow>> {
        Ok(sqlx::query_as::<_, ProgramRow>(
            "SELECT name, source, source_hash, record_map FROM programs \
             WHERE guild_id = $1 AND name_key = $2",
        )
        .bind(guild_id)
        .bind(name_key(name))
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The record map of the installed program `name`, while it is still the listing
    /// with `source_hash` (a map names lines and variables of one listing); without
    /// the source, as every `@field` roll asks for it.
    pub async fn installed_record_map(
        &self,
        guild_id: i64,
        name: &str,
        source_hash: &str,
    ) -> anyhow::Result<Option<String>> {
        let row: Option<(String,)> = sqlx::query_as(
            "SELECT record_map FROM programs \
             WHERE guild_id = $1 AND name_key = $2 AND source_hash = $3",
        )
        .bind(guild_id)
        .bind(name_key(name))
        .bind(source_hash)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(record_map,)| record_map))
    }

    pub async fn installed_program_names(&self, guild_id: i64) -> anyhow::Result<Vec<String>> {
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT name FROM programs WHERE guild_id = $1 ORDER BY name_key")
                .bind(guild_id)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().map(|(name,)| name).collect())
    }

    /// Installs or replaces a program (same guild, same name).
    pub async fn install_program(&self, program: &NewProgram) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO programs (id, guild_id, name, name_key, source, source_hash, \
             installed_by, installed_at, installed_by_name, line_count, syntax_errors, \
             record_map) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
             ON CONFLICT (guild_id, name_key) DO UPDATE SET name = excluded.name, \
             source = excluded.source, source_hash = excluded.source_hash, \
             installed_by = excluded.installed_by, installed_at = excluded.installed_at, \
             installed_by_name = excluded.installed_by_name, \
             line_count = excluded.line_count, syntax_errors = excluded.syntax_errors, \
             record_map = excluded.record_map",
        )
        .bind(program.id)
        .bind(program.guild_id)
        .bind(&program.name)
        .bind(name_key(&program.name))
        .bind(&program.source)
        .bind(&program.source_hash)
        .bind(program.installed_by)
        .bind(program.now)
        .bind(&program.installed_by_name)
        .bind(program.line_count)
        .bind(program.syntax_errors)
        .bind(&program.record_map)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The installed programs of a guild, by name.
    pub async fn installed_programs(&self, guild_id: i64) -> anyhow::Result<Vec<ProgramInfo>> {
        Ok(sqlx::query_as::<_, ProgramInfo>(
            "SELECT name, installed_by, installed_by_name, installed_at, line_count, \
             syntax_errors, CAST(LENGTH(source) AS BIGINT) AS source_bytes, record_map \
             FROM programs \
             WHERE guild_id = $1 ORDER BY name_key",
        )
        .bind(guild_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Sets an installed program's record map; `false` when there is no such program.
    pub async fn set_record_map(
        &self,
        guild_id: i64,
        name: &str,
        record_map: &str,
    ) -> anyhow::Result<bool> {
        let result = sqlx::query(
            "UPDATE programs SET record_map = $1 WHERE guild_id = $2 AND name_key = $3",
        )
        .bind(record_map)
        .bind(guild_id)
        .bind(name_key(name))
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    pub async fn count_programs(&self, guild_id: i64) -> anyhow::Result<i64> {
        let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM programs WHERE guild_id = $1")
            .bind(guild_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(count)
    }

    /// Removes an installed program; when it was the guild's default, the default
    /// goes back to the shipped program (in the same transaction).
    pub async fn remove_program(&self, guild_id: i64, name: &str) -> anyhow::Result<bool> {
        let mut tx = self.begin().await?;
        let removed = sqlx::query("DELETE FROM programs WHERE guild_id = $1 AND name_key = $2")
            .bind(guild_id)
            .bind(name_key(name))
            .execute(&mut *tx)
            .await?;
        if removed.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        let default = default_program_in(&mut tx, guild_id).await?;
        if default.is_some_and(|default| name_key(&default) == name_key(name)) {
            clear_default_program_in(&mut tx, guild_id).await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}
