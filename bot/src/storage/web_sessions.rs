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
}

const COLUMNS: &str =
    "id_hash, user_id, user_name, guilds, csrf_token, dev_login, created_at, expires_at";

impl Storage {
    pub async fn create_web_session(&self, row: &WebSessionRow) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO web_sessions (id_hash, user_id, user_name, guilds, csrf_token, \
             dev_login, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&row.id_hash)
        .bind(row.user_id)
        .bind(&row.user_name)
        .bind(&row.guilds)
        .bind(&row.csrf_token)
        .bind(row.dev_login)
        .bind(row.created_at)
        .bind(row.expires_at)
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
}
