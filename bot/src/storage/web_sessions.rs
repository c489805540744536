//! Sessions of the web dashboard (`web/`): one row per login, found by the SHA-256
//! of the cookie's random id.

use sqlx::FromRow;

use super::Storage;

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct WebSessionRow {
    pub id_hash: String,
    pub user_id: i64,
    pub user_name: String,
    /// JSON: the servers and the user's permission bits in each, as at login.
    pub guilds: String,
    pub csrf_token: String,
    /// 1 when the session came from the development login.
    pub dev_login: i64,
    pub created_at: i64,
    pub expires_at: i64,
    /// The Discord OAuth2 access token (`identify guilds`) that reads the servers
    /// again, sealed under a key only the session's cookie gives (`web::seal`);
    /// `None` for the development login.
    pub sealed_token: Option<String>,
    /// When `guilds` was read from Discord (ms).
    pub guilds_at: i64,
    /// The user's Discord locale at login (`identify`), if Discord gave one.
    pub locale: Option<String>,
}

const COLUMNS: &str = "id_hash, user_id, user_name, guilds, csrf_token, dev_login, created_at, \
     expires_at, sealed_token, guilds_at, locale";

impl Storage {
    pub async fn create_web_session(&self, row: &WebSessionRow) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO web_sessions (id_hash, user_id, user_name, guilds, csrf_token, \
             dev_login, created_at, expires_at, sealed_token, guilds_at, locale) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(&row.id_hash)
        .bind(row.user_id)
        .bind(&row.user_name)
        .bind(&row.guilds)
        .bind(&row.csrf_token)
        .bind(row.dev_login)
        .bind(row.created_at)
        .bind(row.expires_at)
        .bind(&row.sealed_token)
        .bind(row.guilds_at)
        .bind(&row.locale)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The session whose id hashes to `id_hash`, unless it has expired at `now`.
    pub async fn web_session(
        &self,
        id_hash: &str,
        now: i64,
    ) -> anyhow::Result<Option<WebSessionRow>> {
        let sql =
            format!("SELECT {COLUMNS} FROM web_sessions WHERE id_hash = $1 AND expires_at > $2");
        Ok(sqlx::query_as::<_, WebSessionRow>(&sql)
            .bind(id_hash)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Logs one session out.
    pub async fn delete_web_session(&self, id_hash: &str) -> anyhow::Result<bool> {
        let result = sqlx::query("DELETE FROM web_sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Logs a user out everywhere; returns how many sessions ended.
    pub async fn delete_web_sessions_of(&self, user_id: i64) -> anyhow::Result<u64> {
        let result = sqlx::query("DELETE FROM web_sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected())
    }

    /// Forgets sessions that expired before `now`.
    pub async fn purge_web_sessions(&self, now: i64) -> anyhow::Result<u64> {
        let result = sqlx::query("DELETE FROM web_sessions WHERE expires_at <= $1")
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected())
    }

    /// The servers of a session, read again from Discord at `now`.
    pub async fn update_web_session_guilds(
        &self,
        id_hash: &str,
        guilds: &str,
        now: i64,
    ) -> anyhow::Result<()> {
        sqlx::query("UPDATE web_sessions SET guilds = $1, guilds_at = $2 WHERE id_hash = $3")
            .bind(guilds)
            .bind(now)
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A member's role ids (JSON) in `guild_id` as read at `fetched_at`, if any.
    pub async fn web_member_roles(
        &self,
        guild_id: i64,
        user_id: i64,
    ) -> anyhow::Result<Option<(String, i64)>> {
        Ok(sqlx::query_as::<_, (String, i64)>(
            "SELECT roles, fetched_at FROM web_member_roles WHERE guild_id = $1 AND user_id = $2",
        )
        .bind(guild_id)
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Keeps a member's role ids (JSON) as read from Discord at `now`.
    pub async fn set_web_member_roles(
        &self,
        guild_id: i64,
        user_id: i64,
        roles: &str,
        now: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO web_member_roles (guild_id, user_id, roles, fetched_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, user_id) \
             DO UPDATE SET roles = excluded.roles, fetched_at = excluded.fetched_at",
        )
        .bind(guild_id)
        .bind(user_id)
        .bind(roles)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A server's channels (JSON) as read at `fetched_at`, if any.
    pub async fn web_guild_channels(&self, guild_id: i64) -> anyhow::Result<Option<(String, i64)>> {
        Ok(sqlx::query_as::<_, (String, i64)>(
            "SELECT channels, fetched_at FROM web_guild_channels WHERE guild_id = $1",
        )
        .bind(guild_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Keeps a server's channels (JSON) as read from Discord at `now`.
    pub async fn set_web_guild_channels(
        &self,
        guild_id: i64,
        channels: &str,
        now: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO web_guild_channels (guild_id, channels, fetched_at) \
             VALUES ($1, $2, $3) ON CONFLICT (guild_id) \
             DO UPDATE SET channels = excluded.channels, fetched_at = excluded.fetched_at",
        )
        .bind(guild_id)
        .bind(channels)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
