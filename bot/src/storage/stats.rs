//! What the metrics endpoint reads from the database, and how a failing database is
//! told apart from a failing query.

use super::Storage;

/// Generator sessions and NPC conversations waiting for a player's answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SessionCounts {
    /// Chargen sessions paused at an INPUT.
    pub chargen_paused: i64,
    /// Of those, the ones answered recently.
    pub chargen_active: i64,
    /// NPC conversations waiting for the player.
    pub npc_paused: i64,
    /// Of those, the ones answered recently.
    pub npc_active: i64,
}

impl Storage {
    /// Counts waiting sessions; "active" ones were changed at or after `active_since`
    /// (unix milliseconds).
    pub async fn session_counts(&self, active_since: i64) -> anyhow::Result<SessionCounts> {
        Ok(SessionCounts {
            chargen_paused: self.count_rows("chargen_sessions", i64::MIN).await?,
            chargen_active: self.count_rows("chargen_sessions", active_since).await?,
            npc_paused: self.count_rows("npc_conversations", i64::MIN).await?,
            npc_active: self.count_rows("npc_conversations", active_since).await?,
        })
    }

    /// `table` is one of ours, never user input.
    async fn count_rows(&self, table: &'static str, since: i64) -> anyhow::Result<i64> {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE updated_at >= $1");
        let (count,): (i64,) = sqlx::query_as(&sql)
            .bind(since)
            .fetch_one(&self.pool)
            .await?;
        Ok(count)
    }
}

/// Whether `error` means the database cannot be reached or is busy (a lost
/// connection, a full pool, a lock held too long), as opposed to a query that is
/// wrong: the first passes by itself, so the user is asked to try again. A pool
/// closed by a shutdown does not come back and is not counted here.
pub fn is_unavailable(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|cause| cause.downcast_ref::<sqlx::Error>())
        .any(sqlx_unavailable)
}

fn sqlx_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(database) => database
            .code()
            .is_some_and(|code| unavailable_code(code.as_ref())),
        _ => false,
    }
}

/// PostgreSQL's connection exceptions (class 08), shutdowns (57P01..57P03) and too
/// many connections (53300): SQLSTATEs are always five characters. SQLite's BUSY (5)
/// and LOCKED (6), also as extended codes (at most four digits).
fn unavailable_code(code: &str) -> bool {
    if code.len() == 5 {
        return code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03" | "53300");
    }
    code.parse::<u32>()
        .is_ok_and(|sqlite| matches!(sqlite & 0xff, 5 | 6))
}

#[cfg(test)]
mod tests {
    use super::unavailable_code;

    #[test]
    fn codes_of_an_unreachable_or_busy_database() {
        let table = [
            ("5", true),
            ("517", true),
            ("6", true),
            ("19", false),
            ("2067", false),
            ("08006", true),
            ("57P01", true),
            ("53300", true),
            ("42P01", false),
            ("23505", false),
        ];
        for (code, expected) in table {
            assert_eq!(unavailable_code(code), expected, "{code}");
        }
    }
}
