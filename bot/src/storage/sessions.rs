//! Paused `/chargen` sessions. Every change checks the session's `step`, so two
//! answers to the same prompt (a double click, two shards) cannot both apply.

use sqlx::FromRow;

use super::characters::insert_characters;
use super::{NewCharacter, Storage, is_unique_violation};

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct SessionRow {
    pub id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub guild_id: i64,
    pub channel_id: i64,
    pub program: String,
    pub program_hash: String,
    pub state: String,
    pub step: i64,
    pub prompt: String,
    pub prompt_content: String,
    pub prompt_message_id: Option<i64>,
    pub transcript: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub expires_at: i64,
}

/// A session about to be stored for the first time (at step 0).
#[derive(Debug, Clone)]
pub struct NewSession {
    pub id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub guild_id: i64,
    pub channel_id: i64,
    pub program: String,
    pub program_hash: String,
    pub state: String,
    pub prompt: String,
    pub prompt_content: String,
    pub transcript: String,
    pub now: i64,
    pub expires_at: i64,
}

/// What one answered prompt changes.
#[derive(Debug, Clone)]
pub struct SessionUpdate {
    pub channel_id: i64,
    pub state: String,
    pub prompt: String,
    pub prompt_content: String,
    pub transcript: String,
    pub now: i64,
    pub expires_at: i64,
}

const COLUMNS: &str = "id, user_id, user_name, guild_id, channel_id, program, program_hash, state, step, \
     prompt, prompt_content, prompt_message_id, transcript, created_at, updated_at, expires_at";

impl Storage {
    /// Stores a new session with the characters its first step took, in one
    /// transaction; returns their names, or `None` when the user already has a
    /// session in that place (nothing is stored then).
    pub async fn insert_session(
        &self,
        session: &NewSession,
        characters: &[NewCharacter],
    ) -> anyhow::Result<Option<Vec<String>>> {
        let mut tx = self.begin().await?;
        let result = sqlx::query(
            "INSERT INTO chargen_sessions (id, user_id, user_name, guild_id, channel_id, program, \
             program_hash, state, step, prompt, prompt_content, prompt_message_id, transcript, \
             created_at, updated_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $10, NULL, $11, $12, $12, $13)",
        )
        .bind(session.id)
        .bind(session.user_id)
        .bind(&session.user_name)
        .bind(session.guild_id)
        .bind(session.channel_id)
        .bind(&session.program)
        .bind(&session.program_hash)
        .bind(&session.state)
        .bind(&session.prompt)
        .bind(&session.prompt_content)
        .bind(&session.transcript)
        .bind(session.now)
        .bind(session.expires_at)
        .execute(&mut *tx)
        .await;
        match result {
            Ok(_) => {}
            Err(error) if is_unique_violation(&error) => {
                tx.rollback().await?;
                return Ok(None);
            }
            Err(error) => return Err(error.into()),
        }
        let names = insert_characters(&mut tx, Some(session.id), characters).await?;
        tx.commit().await?;
        Ok(Some(names))
    }

    pub async fn session(&self, id: i64) -> anyhow::Result<Option<SessionRow>> {
        self.session_where("id = $1", id).await
    }

    /// The user's session in a guild (0: in DMs).
    pub async fn session_of(
        &self,
        user_id: i64,
        guild_id: i64,
    ) -> anyhow::Result<Option<SessionRow>> {
        let sql =
            format!("SELECT {COLUMNS} FROM chargen_sessions WHERE user_id = $1 AND guild_id = $2");
        Ok(sqlx::query_as::<_, SessionRow>(&sql)
            .bind(user_id)
            .bind(guild_id)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The session whose prompt was posted as `message_id`.
    pub async fn session_by_prompt_message(
        &self,
        message_id: i64,
    ) -> anyhow::Result<Option<SessionRow>> {
        self.session_where("prompt_message_id = $1", message_id)
            .await
    }

    async fn session_where(&self, condition: &str, key: i64) -> anyhow::Result<Option<SessionRow>> {
        let sql = format!("SELECT {COLUMNS} FROM chargen_sessions WHERE {condition}");
        Ok(sqlx::query_as::<_, SessionRow>(&sql)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Stores the next paused state with the characters this step took, in one
    /// transaction; returns their names, or `None` when the session is gone or has
    /// moved past `expected_step` already (nothing is stored then).
    pub async fn advance_session(
        &self,
        id: i64,
        expected_step: i64,
        update: &SessionUpdate,
        characters: &[NewCharacter],
    ) -> anyhow::Result<Option<Vec<String>>> {
        let mut tx = self.begin().await?;
        let Some(names) =
            advance_session_in(&mut tx, id, expected_step, update, characters).await?
        else {
            tx.rollback().await?;
            return Ok(None);
        };
        tx.commit().await?;
        Ok(Some(names))
    }

    /// Remembers which message carries the prompt of `step`, so replies to it answer.
    pub async fn set_prompt_message(
        &self,
        id: i64,
        step: i64,
        message_id: i64,
    ) -> anyhow::Result<bool> {
        let result = sqlx::query(
            "UPDATE chargen_sessions SET prompt_message_id = $1 WHERE id = $2 AND step = $3",
        )
        .bind(message_id)
        .bind(id)
        .bind(step)
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Ends a session; with `expected_step`, only if it is still at that step.
    pub async fn delete_session(
        &self,
        id: i64,
        expected_step: Option<i64>,
    ) -> anyhow::Result<bool> {
        let result = match expected_step {
            Some(step) => {
                sqlx::query("DELETE FROM chargen_sessions WHERE id = $1 AND step = $2")
                    .bind(id)
                    .bind(step)
                    .execute(&self.pool)
                    .await?
            }
            None => {
                sqlx::query("DELETE FROM chargen_sessions WHERE id = $1")
                    .bind(id)
                    .execute(&self.pool)
                    .await?
            }
        };
        Ok(result.rows_affected() == 1)
    }

    /// Sessions whose expiry time has passed, oldest first.
    pub async fn expired_sessions(&self, now: i64, limit: i64) -> anyhow::Result<Vec<SessionRow>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM chargen_sessions WHERE expires_at <= $1 \
             ORDER BY expires_at, id LIMIT $2"
        );
        Ok(sqlx::query_as::<_, SessionRow>(&sql)
            .bind(now)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }

    /// Paused sessions, for status and metrics.
    pub async fn count_sessions(&self) -> anyhow::Result<i64> {
        let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM chargen_sessions")
            .fetch_one(&self.pool)
            .await?;
        Ok(count)
    }
}

/// [`Storage::advance_session`] within the caller's transaction, the step claimed
/// first; `None` (roll back) when the session had moved on.
pub async fn advance_session_in(
    conn: &mut sqlx::AnyConnection,
    id: i64,
    expected_step: i64,
    update: &SessionUpdate,
    characters: &[NewCharacter],
) -> anyhow::Result<Option<Vec<String>>> {
    let result = sqlx::query(
        "UPDATE chargen_sessions SET channel_id = $1, state = $2, step = step + 1, \
         prompt = $3, prompt_content = $4, prompt_message_id = NULL, transcript = $5, \
         updated_at = $6, expires_at = $7 WHERE id = $8 AND step = $9",
    )
    .bind(update.channel_id)
    .bind(&update.state)
    .bind(&update.prompt)
    .bind(&update.prompt_content)
    .bind(&update.transcript)
    .bind(update.now)
    .bind(update.expires_at)
    .bind(id)
    .bind(expected_step)
    .execute(&mut *conn)
    .await?;
    if result.rows_affected() != 1 {
        return Ok(None);
    }
    Ok(Some(insert_characters(conn, Some(id), characters).await?))
}
