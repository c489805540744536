//! State behind buttons whose custom id cannot carry it.

use sqlx::FromRow;

use super::Storage;

#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct ButtonState {
    pub id: i64,
    pub kind: String,
    pub payload: String,
    pub created_at: i64,
}

impl Storage {
    pub async fn insert_button_state(&self, state: &ButtonState) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO button_states (id, kind, payload, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(state.id)
        .bind(&state.kind)
        .bind(&state.payload)
        .bind(state.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn button_state(&self, id: i64) -> anyhow::Result<Option<ButtonState>> {
        Ok(sqlx::query_as::<_, ButtonState>(
            "SELECT id, kind, payload, created_at FROM button_states WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Replaces the payload of a button state; whether it was there.
    pub async fn set_button_payload(&self, id: i64, payload: &str) -> anyhow::Result<bool> {
        let result = sqlx::query("UPDATE button_states SET payload = $2 WHERE id = $1")
            .bind(id)
            .bind(payload)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Forgets one button state; whether it was there.
    pub async fn delete_button_state(&self, id: i64) -> anyhow::Result<bool> {
        let result = sqlx::query("DELETE FROM button_states WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Forgets button states of one kind created before `before`; returns how many.
    pub async fn purge_button_states_of(&self, kind: &str, before: i64) -> anyhow::Result<u64> {
        let result = sqlx::query("DELETE FROM button_states WHERE kind = $1 AND created_at < $2")
            .bind(kind)
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected())
    }

    /// Forgets button states created before `before`; returns how many.
    pub async fn purge_button_states(&self, before: i64) -> anyhow::Result<u64> {
        let result = sqlx::query("DELETE FROM button_states WHERE created_at < $1")
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected())
    }
}
