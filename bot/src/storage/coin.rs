//! `coin_tallies`: each user's heads and tails per server (`/coin`). Every query of
//! the table is here.

use super::Storage;

impl Storage {
    /// Counts one flip of `user_id` in `guild_id` (0: direct messages) and returns
    /// the tally with it, `(heads, tails)`.
    pub async fn count_coin_flip(
        &self,
        guild_id: i64,
        user_id: i64,
        heads: bool,
    ) -> anyhow::Result<(i64, i64)> {
        let (new_heads, new_tails) = if heads { (1_i64, 0_i64) } else { (0, 1) };
        let tally = sqlx::query_as::<_, (i64, i64)>(
            "INSERT INTO coin_tallies (guild_id, user_id, heads, tails) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (guild_id, user_id) DO UPDATE SET \
             heads = coin_tallies.heads + excluded.heads, \
             tails = coin_tallies.tails + excluded.tails \
             RETURNING heads, tails",
        )
        .bind(guild_id)
        .bind(user_id)
        .bind(new_heads)
        .bind(new_tails)
        .fetch_one(&self.pool)
        .await?;
        Ok(tally)
    }
}
