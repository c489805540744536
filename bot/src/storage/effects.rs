//! `effect_libraries`: each server's effect file (`/effect install`). Every query of
//! the table is here.

use sqlx::AnyConnection;

use super::Storage;

/// A server's installed effect file.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EffectLibraryRow {
    pub guild_id: i64,
    pub source: String,
    pub effect_count: i64,
    pub installed_by: i64,
    pub installed_by_name: String,
    pub installed_at: i64,
}

/// The columns of `effect_libraries`, in [`EffectLibraryRow`]'s order.
pub(super) const LIBRARY_COLUMNS: &str =
    "guild_id, source, effect_count, installed_by, installed_by_name, installed_at";

impl Storage {
    /// The server's effect file, if one is installed.
    pub async fn effect_library(&self, guild_id: i64) -> anyhow::Result<Option<EffectLibraryRow>> {
        let mut conn = self.pool.acquire().await?;
        effect_library_in(&mut conn, guild_id).await
    }

    /// Installs (or replaces) a server's effect file.
    pub async fn set_effect_library(&self, row: &EffectLibraryRow) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO effect_libraries (guild_id, source, effect_count, installed_by, \
             installed_by_name, installed_at) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (guild_id) DO UPDATE SET source = excluded.source, \
             effect_count = excluded.effect_count, installed_by = excluded.installed_by, \
             installed_by_name = excluded.installed_by_name, \
             installed_at = excluded.installed_at",
        )
        .bind(row.guild_id)
        .bind(&row.source)
        .bind(row.effect_count)
        .bind(row.installed_by)
        .bind(&row.installed_by_name)
        .bind(row.installed_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Removes the server's effect file; `false` when there was none.
    pub async fn delete_effect_library(&self, guild_id: i64) -> anyhow::Result<bool> {
        let done = sqlx::query("DELETE FROM effect_libraries WHERE guild_id = $1")
            .bind(guild_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

/// [`Storage::effect_library`] within a transaction (an encounter's step reads the
/// library it applies with the rows it changes).
pub async fn effect_library_in(
    conn: &mut AnyConnection,
    guild_id: i64,
) -> anyhow::Result<Option<EffectLibraryRow>> {
    let sql = format!("SELECT {LIBRARY_COLUMNS} FROM effect_libraries WHERE guild_id = $1");
    let row = sqlx::query_as::<_, EffectLibraryRow>(&sql)
        .bind(guild_id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row)
}
