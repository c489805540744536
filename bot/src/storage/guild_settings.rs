//! `guild_settings`: one row per server with what its admins configured (the
//! Tavern role, the default generator program, the language). Every query of the
//! table is here.

use sqlx::AnyConnection;

use super::Storage;

impl Storage {
    /// The role a server configured for Tavern's admin commands (`/config
    /// macro-role`), which also manages NPCs.
    pub async fn tavern_role(&self, guild_id: i64) -> anyhow::Result<Option<i64>> {
        self.setting("macro_role_id", guild_id).await
    }

    pub async fn set_macro_role(
        &self,
        guild_id: i64,
        role: Option<i64>,
        updated_by: i64,
        now: i64,
    ) -> anyhow::Result<()> {
        let change = SettingChange {
            guild_id,
            updated_by,
            now,
        };
        self.upsert_setting("macro_role_id", change, role).await
    }

    /// The channel `/roll … to:gm` sends results to (`/config gm-channel`).
    pub async fn gm_channel(&self, guild_id: i64) -> anyhow::Result<Option<i64>> {
        self.setting("gm_channel_id", guild_id).await
    }

    /// The role whose members are game masters (`/config gm-role`).
    pub async fn gm_role(&self, guild_id: i64) -> anyhow::Result<Option<i64>> {
        self.setting("gm_role_id", guild_id).await
    }

    /// Sets (`Some`) or clears (`None`) `/config gm-channel` or `gm-role`.
    pub async fn set_gm(
        &self,
        guild_id: i64,
        which: GmSetting,
        value: Option<i64>,
        updated_by: i64,
        now: i64,
    ) -> anyhow::Result<()> {
        let change = SettingChange {
            guild_id,
            updated_by,
            now,
        };
        let column = match which {
            GmSetting::Channel => "gm_channel_id",
            GmSetting::Role => "gm_role_id",
        };
        self.upsert_setting(column, change, value).await
    }

    /// The program `/chargen start` runs without a name in this guild.
    pub async fn default_program(&self, guild_id: i64) -> anyhow::Result<Option<String>> {
        let mut conn = self.pool.acquire().await?;
        default_program_in(&mut conn, guild_id).await
    }

    pub async fn set_default_program(
        &self,
        guild_id: i64,
        program: Option<&str>,
        updated_by: i64,
        now: i64,
    ) -> anyhow::Result<()> {
        let change = SettingChange {
            guild_id,
            updated_by,
            now,
        };
        self.upsert_setting("default_program", change, program.map(str::to_owned))
            .await
    }

    /// The language code the server chose for public messages (`/config language`);
    /// `None` for auto, and for a server that never chose.
    pub async fn guild_language(&self, guild_id: i64) -> anyhow::Result<Option<String>> {
        self.setting("language", guild_id).await
    }

    /// The server's `/config language` (`None`: auto) and the Discord locale its last
    /// interaction gave (`None`: never seen), read together.
    pub async fn guild_language_and_locale(
        &self,
        guild_id: i64,
    ) -> anyhow::Result<(Option<String>, Option<String>)> {
        let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT language, discord_locale FROM guild_settings WHERE guild_id = $1",
        )
        .bind(guild_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.unwrap_or((None, None)))
    }

    /// Notes the server's Discord locale (not a setting anyone chose: a new row says
    /// nobody, user 0, changed it).
    pub async fn remember_discord_locale(
        &self,
        guild_id: i64,
        locale: &str,
        now: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO guild_settings (guild_id, discord_locale, updated_by, updated_at) \
             VALUES ($1, $2, 0, $3) ON CONFLICT (guild_id) DO UPDATE SET \
             discord_locale = excluded.discord_locale",
        )
        .bind(guild_id)
        .bind(locale)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `None` is auto.
    pub async fn set_guild_language(
        &self,
        guild_id: i64,
        language: Option<&str>,
        updated_by: i64,
        now: i64,
    ) -> anyhow::Result<()> {
        let change = SettingChange {
            guild_id,
            updated_by,
            now,
        };
        self.upsert_setting("language", change, language.map(str::to_owned))
            .await
    }

    /// One column of the server's row; `None` when it is NULL or the server has no
    /// row. `column` is one of this module's literals, never user text.
    async fn setting<T>(&self, column: &'static str, guild_id: i64) -> anyhow::Result<Option<T>>
    where
        T: for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any> + Send + Unpin,
    {
        let sql = format!("SELECT {column} FROM guild_settings WHERE guild_id = $1");
        let row: Option<(Option<T>,)> = sqlx::query_as(&sql)
            .bind(guild_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.and_then(|(value,)| value))
    }

    /// Sets one column of the server's row (creating the row), noting who and when.
    /// `column` is one of this module's literals, never user text.
    async fn upsert_setting<T>(
        &self,
        column: &'static str,
        change: SettingChange,
        value: T,
    ) -> anyhow::Result<()>
    where
        T: for<'q> sqlx::Encode<'q, sqlx::Any> + sqlx::Type<sqlx::Any> + Send + 'static,
    {
        let sql = format!(
            "INSERT INTO guild_settings (guild_id, {column}, updated_by, updated_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET \
             {column} = excluded.{column}, updated_by = excluded.updated_by, \
             updated_at = excluded.updated_at"
        );
        sqlx::query(&sql)
            .bind(change.guild_id)
            .bind(value)
            .bind(change.updated_by)
            .bind(change.now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// The GM settings of a server (`/config gm-channel`, `/config gm-role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GmSetting {
    Channel,
    Role,
}

/// Whose server a setting changes, who changed it and when.
struct SettingChange {
    guild_id: i64,
    updated_by: i64,
    now: i64,
}

/// The program `/chargen start` runs without a name, inside a transaction.
pub(super) async fn default_program_in(
    conn: &mut AnyConnection,
    guild_id: i64,
) -> anyhow::Result<Option<String>> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("SELECT default_program FROM guild_settings WHERE guild_id = $1")
            .bind(guild_id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.and_then(|(program,)| program))
}

/// Back to the shipped program, inside a transaction (its program was removed).
pub(super) async fn clear_default_program_in(
    conn: &mut AnyConnection,
    guild_id: i64,
) -> anyhow::Result<()> {
    sqlx::query("UPDATE guild_settings SET default_program = NULL WHERE guild_id = $1")
        .bind(guild_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}
