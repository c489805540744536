//! Which character is "yours" in a server, for every command that needs one
//! (`@FIELD`s in `/roll`, `/odds` and macros, `/character show`, `/init join`,
//! `/talk`): the one chosen with `/character use`, else the newest one made there
//! (so the only one, when there is one). Written once, here, so the commands cannot
//! disagree about it.

use sqlx::AnyConnection;

use super::characters::{COLUMNS, CharacterRow};
use super::{PlayingCharacter, Storage};

/// One statement, so a `/character use` or a delete in between cannot make it read
/// half of each: the active character sorts first, then the newest.
fn playing_sql(columns: &str) -> String {
    format!(
        "SELECT {columns} FROM characters WHERE guild_id = $1 AND owner_id = $2 \
         ORDER BY CASE WHEN id = (SELECT character_id FROM active_characters \
         WHERE guild_id = $1 AND user_id = $2) THEN 0 ELSE 1 END, created_at DESC, id DESC \
         LIMIT 1"
    )
}

impl Storage {
    /// The character `user_id` plays in a guild; `None` when they have none there.
    pub async fn playing_character(
        &self,
        guild_id: i64,
        user_id: i64,
    ) -> anyhow::Result<Option<CharacterRow>> {
        Ok(sqlx::query_as::<_, CharacterRow>(&playing_sql(COLUMNS))
            .bind(guild_id)
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?)
    }
}

/// [`Storage::playing_character`] inside a transaction, as `/talk` reads it.
pub async fn playing_character_in(
    conn: &mut AnyConnection,
    guild_id: i64,
    user_id: i64,
) -> anyhow::Result<Option<PlayingCharacter>> {
    Ok(
        sqlx::query_as::<_, PlayingCharacter>(&playing_sql("id, name"))
            .bind(guild_id)
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?,
    )
}
