//! NPC scripts installed in a guild, waiting conversations, and the world a
//! conversation plays in: the character's gold, food, items and party, the player's
//! flags and parameters, the NPC's activity (issue 7).
//!
//! A player turn is one transaction: [`Storage::begin`], then the `*_in` functions on
//! that connection, then commit. Every change of a conversation checks its `step`, so
//! two answers to one prompt (a double click, two shards) cannot both apply.

use std::collections::{BTreeMap, BTreeSet};

use npc_core::World;
use sqlx::{AnyConnection, FromRow, Row};

use super::characters::name_key;
use super::{Storage, joined_columns};

/// An installed script.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct NpcScriptRow {
    pub id: i64,
    pub guild_id: i64,
    /// As the admin typed it; the lower-cased name is the NPC's tag.
    pub name: String,
    /// Empty: derived from the name.
    pub display: String,
    pub source: String,
    pub source_hash: String,
    pub activity: i64,
    pub installed_by: i64,
    pub installed_at: i64,
}

/// A script to install.
#[derive(Debug, Clone)]
pub struct NewNpcScript {
    pub id: i64,
    pub guild_id: i64,
    pub name: String,
    pub display: String,
    pub source: String,
    pub source_hash: String,
    pub installed_by: i64,
    pub now: i64,
}

/// A waiting conversation.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct NpcConversationRow {
    pub id: i64,
    pub guild_id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub channel_id: i64,
    pub script_id: i64,
    /// The NPC's tag (the install's name key).
    pub npc: String,
    pub character_id: Option<i64>,
    /// The serialized `npc_core::Conversation`.
    pub state: String,
    pub step: i64,
    /// The message showing the current prompt, once sent.
    pub message_id: Option<i64>,
    /// That message's text.
    pub content: String,
    /// The index of the item picked in the TRADE list.
    pub selected: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub expires_at: i64,
}

/// A conversation about to be stored (at step 0).
#[derive(Debug, Clone)]
pub struct NewNpcConversation {
    pub id: i64,
    pub guild_id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub channel_id: i64,
    pub script_id: i64,
    pub npc: String,
    pub character_id: i64,
    pub state: String,
    pub content: String,
    pub now: i64,
    pub expires_at: i64,
}

/// What one answered prompt changes.
#[derive(Debug, Clone)]
pub struct NpcConversationUpdate {
    pub channel_id: i64,
    pub state: String,
    pub content: String,
    pub now: i64,
    pub expires_at: i64,
}

/// The character a player talks as.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct PlayingCharacter {
    pub id: i64,
    pub name: String,
}

/// Whose world to load and store: a character, its player, and the NPC conversation
/// whose per-conversation flags (0..127) are in play.
#[derive(Debug, Clone, Copy)]
pub struct WorldKey<'a> {
    pub guild_id: i64,
    pub user_id: i64,
    pub character_id: i64,
    /// The install's name key.
    pub npc: &'a str,
    /// The CONV tag talked to.
    pub conversation: &'a str,
}

impl WorldKey<'_> {
    /// `player_flags.scope` of the conversation's own flags.
    fn flag_scope(&self, conversation: &str) -> String {
        format!("{}/{conversation}", self.npc)
    }
}

const SCRIPT_COLUMNS: &str = "id, guild_id, name, display, source, source_hash, activity, \
     installed_by, installed_at";

const CONVERSATION_COLUMNS: &str = "id, guild_id, user_id, user_name, channel_id, script_id, \
     npc, character_id, state, step, message_id, content, selected, created_at, updated_at, \
     expires_at";

/// The global flags' scope.
const GLOBAL_SCOPE: &str = "";

impl Storage {
    /// Installs or replaces a script (same guild, same name). Returns whether one was
    /// replaced. A replaced script keeps its id and activity, so flags and keyword
    /// buttons survive a fix; conversations waiting on the old text end when next
    /// answered.
    pub async fn install_npc(&self, script: &NewNpcScript) -> anyhow::Result<bool> {
        let mut tx = self.begin().await?;
        let existing: Option<(i64,)> =
            sqlx::query_as("SELECT id FROM npc_scripts WHERE guild_id = $1 AND name_key = $2")
                .bind(script.guild_id)
                .bind(name_key(&script.name))
                .fetch_optional(&mut *tx)
                .await?;
        match existing {
            Some((id,)) => {
                sqlx::query(
                    "UPDATE npc_scripts SET name = $1, display = $2, source = $3, \
                     source_hash = $4, installed_by = $5, installed_at = $6 WHERE id = $7",
                )
                .bind(&script.name)
                .bind(&script.display)
                .bind(&script.source)
                .bind(&script.source_hash)
                .bind(script.installed_by)
                .bind(script.now)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            }
            None => {
                sqlx::query(
                    "INSERT INTO npc_scripts (id, guild_id, name, name_key, display, source, \
                     source_hash, activity, installed_by, installed_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $9)",
                )
                .bind(script.id)
                .bind(script.guild_id)
                .bind(&script.name)
                .bind(name_key(&script.name))
                .bind(&script.display)
                .bind(&script.source)
                .bind(&script.source_hash)
                .bind(script.installed_by)
                .bind(script.now)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(existing.is_some())
    }

    pub async fn npc_script(
        &self,
        guild_id: i64,
        name: &str,
    ) -> anyhow::Result<Option<NpcScriptRow>> {
        let sql = format!(
            "SELECT {SCRIPT_COLUMNS} FROM npc_scripts WHERE guild_id = $1 AND name_key = $2"
        );
        Ok(sqlx::query_as::<_, NpcScriptRow>(&sql)
            .bind(guild_id)
            .bind(name_key(name))
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The guild's scripts by name.
    pub async fn npc_scripts(&self, guild_id: i64) -> anyhow::Result<Vec<NpcScriptRow>> {
        let sql = format!(
            "SELECT {SCRIPT_COLUMNS} FROM npc_scripts WHERE guild_id = $1 ORDER BY name_key"
        );
        Ok(sqlx::query_as::<_, NpcScriptRow>(&sql)
            .bind(guild_id)
            .fetch_all(&self.pool)
            .await?)
    }

    pub async fn count_npcs(&self, guild_id: i64) -> anyhow::Result<i64> {
        let (count,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM npc_scripts WHERE guild_id = $1")
                .bind(guild_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(count)
    }

    /// Names starting with `prefix` (case-insensitive), for autocomplete.
    pub async fn npc_names_starting(
        &self,
        guild_id: i64,
        prefix: &str,
        limit: usize,
    ) -> anyhow::Result<Vec<String>> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT name, name_key FROM npc_scripts WHERE guild_id = $1 ORDER BY name_key",
        )
        .bind(guild_id)
        .fetch_all(&self.pool)
        .await?;
        let prefix = name_key(prefix);
        Ok(rows
            .into_iter()
            .filter(|(_, key)| key.starts_with(&prefix))
            .map(|(name, _)| name)
            .take(limit)
            .collect())
    }

    /// Removes a script; its waiting conversations go with it (foreign key).
    pub async fn remove_npc(&self, guild_id: i64, name: &str) -> anyhow::Result<bool> {
        let result = sqlx::query("DELETE FROM npc_scripts WHERE guild_id = $1 AND name_key = $2")
            .bind(guild_id)
            .bind(name_key(name))
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    pub async fn set_npc_activity(
        &self,
        guild_id: i64,
        name: &str,
        activity: i64,
    ) -> anyhow::Result<bool> {
        let result = sqlx::query(
            "UPDATE npc_scripts SET activity = $1 WHERE guild_id = $2 AND name_key = $3",
        )
        .bind(activity)
        .bind(guild_id)
        .bind(name_key(name))
        .execute(&self.pool)
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Waiting conversations of a script (at most `limit`), to take their buttons off.
    pub async fn npc_conversations_of_script(
        &self,
        script_id: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<NpcConversationRow>> {
        let sql = format!(
            "SELECT {CONVERSATION_COLUMNS} FROM npc_conversations WHERE script_id = $1 \
             ORDER BY id LIMIT $2"
        );
        Ok(sqlx::query_as::<_, NpcConversationRow>(&sql)
            .bind(script_id)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }

    pub async fn npc_conversation(&self, id: i64) -> anyhow::Result<Option<NpcConversationRow>> {
        self.npc_conversation_where("id = $1", id).await
    }

    /// The conversation whose prompt was posted as `message_id`.
    pub async fn npc_conversation_by_message(
        &self,
        message_id: i64,
    ) -> anyhow::Result<Option<NpcConversationRow>> {
        self.npc_conversation_where("message_id = $1", message_id)
            .await
    }

    /// A conversation and its script as installed now (`None`: removed), in one
    /// statement: every turn needs both.
    pub async fn npc_conversation_and_script(
        &self,
        id: i64,
    ) -> anyhow::Result<Option<(NpcConversationRow, Option<NpcScriptRow>)>> {
        self.npc_conversation_and_script_where("c.id = $1", id)
            .await
    }

    /// [`Storage::npc_conversation_and_script`] of the conversation whose prompt was
    /// posted as `message_id`.
    pub async fn npc_conversation_and_script_by_message(
        &self,
        message_id: i64,
    ) -> anyhow::Result<Option<(NpcConversationRow, Option<NpcScriptRow>)>> {
        self.npc_conversation_and_script_where("c.message_id = $1", message_id)
            .await
    }

    async fn npc_conversation_and_script_where(
        &self,
        condition: &str,
        key: i64,
    ) -> anyhow::Result<Option<(NpcConversationRow, Option<NpcScriptRow>)>> {
        let sql = format!(
            "SELECT {}, {} FROM npc_conversations c LEFT JOIN npc_scripts s ON s.id = c.script_id \
             WHERE {condition}",
            joined_columns(CONVERSATION_COLUMNS, "c", None),
            joined_columns(SCRIPT_COLUMNS, "s", Some("npc_script"))
        );
        let Some(row) = self.joined_row(&sql, key).await? else {
            return Ok(None);
        };
        let conversation = NpcConversationRow::from_row(&row)?;
        let script = match row.try_get::<Option<i64>, _>("npc_script_id")? {
            None => None,
            Some(id) => Some(NpcScriptRow {
                id,
                guild_id: row.try_get("npc_script_guild_id")?,
                name: row.try_get("npc_script_name")?,
                display: row.try_get("npc_script_display")?,
                source: row.try_get("npc_script_source")?,
                source_hash: row.try_get("npc_script_source_hash")?,
                activity: row.try_get("npc_script_activity")?,
                installed_by: row.try_get("npc_script_installed_by")?,
                installed_at: row.try_get("npc_script_installed_at")?,
            }),
        };
        Ok(Some((conversation, script)))
    }

    /// The user's waiting conversation in a guild.
    pub async fn npc_conversation_of(
        &self,
        user_id: i64,
        guild_id: i64,
    ) -> anyhow::Result<Option<NpcConversationRow>> {
        let mut conn = self.pool.acquire().await?;
        npc_conversation_of_in(&mut conn, user_id, guild_id).await
    }

    async fn npc_conversation_where(
        &self,
        condition: &str,
        key: i64,
    ) -> anyhow::Result<Option<NpcConversationRow>> {
        let sql = format!("SELECT {CONVERSATION_COLUMNS} FROM npc_conversations WHERE {condition}");
        Ok(sqlx::query_as::<_, NpcConversationRow>(&sql)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// Remembers which message shows the prompt of `step`, so replies to it answer.
    pub async fn set_npc_message(
        &self,
        id: i64,
        step: i64,
        message_id: i64,
    ) -> anyhow::Result<bool> {
        self.set_at_step("message_id", id, step, message_id).await
    }

    /// Remembers the item picked in the TRADE list of prompt `step`.
    pub async fn set_npc_selection(
        &self,
        id: i64,
        step: i64,
        selected: i64,
    ) -> anyhow::Result<bool> {
        self.set_at_step("selected", id, step, selected).await
    }

    /// Sets `column` of a conversation still at `step`; a later prompt ignores it.
    async fn set_at_step(
        &self,
        column: &'static str,
        id: i64,
        step: i64,
        value: i64,
    ) -> anyhow::Result<bool> {
        let sql = format!("UPDATE npc_conversations SET {column} = $1 WHERE id = $2 AND step = $3");
        let result = sqlx::query(&sql)
            .bind(value)
            .bind(id)
            .bind(step)
            .execute(&self.pool)
            .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Ends a conversation; with `expected_step`, only if it is still at that step.
    pub async fn delete_npc_conversation(
        &self,
        id: i64,
        expected_step: Option<i64>,
    ) -> anyhow::Result<bool> {
        let mut conn = self.pool.acquire().await?;
        delete_npc_conversation_in(&mut conn, id, expected_step).await
    }

    /// Conversations idle past their expiry, oldest first.
    pub async fn expired_npc_conversations(
        &self,
        now: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<NpcConversationRow>> {
        let sql = format!(
            "SELECT {CONVERSATION_COLUMNS} FROM npc_conversations WHERE expires_at <= $1 \
             ORDER BY expires_at, id LIMIT $2"
        );
        Ok(sqlx::query_as::<_, NpcConversationRow>(&sql)
            .bind(now)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }

    /// The script with this id.
    pub async fn npc_script_by_id(&self, id: i64) -> anyhow::Result<Option<NpcScriptRow>> {
        let mut conn = self.pool.acquire().await?;
        npc_script_in(&mut conn, id).await
    }

    /// The world of `key` as stored now (the character's, the player's), outside a turn.
    pub async fn npc_world(&self, key: &WorldKey<'_>) -> anyhow::Result<Option<World>> {
        let mut conn = self.pool.acquire().await?;
        load_world_in(&mut conn, key).await
    }

    /// The character's items and party, for `/character show`.
    pub async fn character_belongings(
        &self,
        character_id: i64,
    ) -> anyhow::Result<(BTreeMap<String, i64>, Vec<String>)> {
        let mut conn = self.pool.acquire().await?;
        let items = items_in(&mut conn, character_id).await?;
        let party = party_in(&mut conn, character_id).await?;
        Ok((items, party))
    }
}

/// The script of a conversation, read inside its turn.
pub async fn npc_script_in(
    conn: &mut AnyConnection,
    script_id: i64,
) -> anyhow::Result<Option<NpcScriptRow>> {
    let sql = format!("SELECT {SCRIPT_COLUMNS} FROM npc_scripts WHERE id = $1");
    Ok(sqlx::query_as::<_, NpcScriptRow>(&sql)
        .bind(script_id)
        .fetch_optional(&mut *conn)
        .await?)
}

/// The user's conversation in a guild, read inside a transaction.
pub async fn npc_conversation_of_in(
    conn: &mut AnyConnection,
    user_id: i64,
    guild_id: i64,
) -> anyhow::Result<Option<NpcConversationRow>> {
    let sql = format!(
        "SELECT {CONVERSATION_COLUMNS} FROM npc_conversations WHERE user_id = $1 AND guild_id = $2"
    );
    Ok(sqlx::query_as::<_, NpcConversationRow>(&sql)
        .bind(user_id)
        .bind(guild_id)
        .fetch_optional(&mut *conn)
        .await?)
}

/// Ends the user's conversation in a guild and returns it, if there was one. The
/// first statement of a `/talk`: a write, so the transaction holds SQLite's write
/// lock from the start instead of failing to upgrade a read later.
pub async fn take_npc_conversation_of_in(
    conn: &mut AnyConnection,
    user_id: i64,
    guild_id: i64,
) -> anyhow::Result<Option<NpcConversationRow>> {
    let sql = format!(
        "DELETE FROM npc_conversations WHERE user_id = $1 AND guild_id = $2 \
         RETURNING {CONVERSATION_COLUMNS}"
    );
    Ok(sqlx::query_as::<_, NpcConversationRow>(&sql)
        .bind(user_id)
        .bind(guild_id)
        .fetch_optional(&mut *conn)
        .await?)
}

/// Moves a conversation from `step` to `step + 1`; `false` when it is gone or has
/// moved on already. The first write of a turn, so the turn holds the write lock from
/// the start.
pub async fn claim_npc_step(conn: &mut AnyConnection, id: i64, step: i64) -> anyhow::Result<bool> {
    let result = sqlx::query(
        "UPDATE npc_conversations SET step = step + 1, selected = NULL WHERE id = $1 AND step = $2",
    )
    .bind(id)
    .bind(step)
    .execute(&mut *conn)
    .await?;
    Ok(result.rows_affected() == 1)
}

pub async fn insert_npc_conversation_in(
    conn: &mut AnyConnection,
    conversation: &NewNpcConversation,
) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO npc_conversations (id, guild_id, user_id, user_name, channel_id, script_id, \
         npc, character_id, state, step, message_id, content, selected, created_at, updated_at, \
         expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, NULL, $10, NULL, $11, $11, $12)",
    )
    .bind(conversation.id)
    .bind(conversation.guild_id)
    .bind(conversation.user_id)
    .bind(&conversation.user_name)
    .bind(conversation.channel_id)
    .bind(conversation.script_id)
    .bind(&conversation.npc)
    .bind(conversation.character_id)
    .bind(&conversation.state)
    .bind(&conversation.content)
    .bind(conversation.now)
    .bind(conversation.expires_at)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Stores the state after a turn (the step was claimed already).
pub async fn update_npc_conversation_in(
    conn: &mut AnyConnection,
    id: i64,
    update: &NpcConversationUpdate,
) -> anyhow::Result<()> {
    sqlx::query(
        "UPDATE npc_conversations SET channel_id = $1, state = $2, content = $3, \
         message_id = NULL, updated_at = $4, expires_at = $5 WHERE id = $6",
    )
    .bind(update.channel_id)
    .bind(&update.state)
    .bind(&update.content)
    .bind(update.now)
    .bind(update.expires_at)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

pub async fn delete_npc_conversation_in(
    conn: &mut AnyConnection,
    id: i64,
    expected_step: Option<i64>,
) -> anyhow::Result<bool> {
    let result = match expected_step {
        Some(step) => {
            sqlx::query("DELETE FROM npc_conversations WHERE id = $1 AND step = $2")
                .bind(id)
                .bind(step)
                .execute(&mut *conn)
                .await?
        }
        None => {
            sqlx::query("DELETE FROM npc_conversations WHERE id = $1")
                .bind(id)
                .execute(&mut *conn)
                .await?
        }
    };
    Ok(result.rows_affected() == 1)
}

/// The world of `key`, without `activity` (the caller fills it in); `None` when the
/// character is gone. One statement: a turn reads the world twice (before it runs, and
/// in its transaction to check that nothing changed), so its five tables are read as
/// the rows of one query, each row tagged with its part.
pub async fn load_world_in(
    conn: &mut AnyConnection,
    key: &WorldKey<'_>,
) -> anyhow::Result<Option<World>> {
    let own_scope = key.flag_scope(key.conversation);
    let rows: Vec<(String, String, i64, i64)> = sqlx::query_as(
        "SELECT 'character' AS part, '' AS name, gold AS a, food AS b FROM characters \
         WHERE id = $1 \
         UNION ALL SELECT 'item', item, count, 0 FROM character_items WHERE character_id = $1 \
         UNION ALL SELECT 'party', npc, position, 0 FROM character_party \
         WHERE character_id = $1 \
         UNION ALL SELECT 'flag', scope, flag, 0 FROM player_flags \
         WHERE guild_id = $2 AND user_id = $3 AND (scope = $4 OR scope = $5) \
         UNION ALL SELECT 'param', '', param, value FROM player_params \
         WHERE guild_id = $2 AND user_id = $3",
    )
    .bind(key.character_id)
    .bind(key.guild_id)
    .bind(key.user_id)
    .bind(GLOBAL_SCOPE)
    .bind(&own_scope)
    .fetch_all(&mut *conn)
    .await?;
    let mut character = None;
    let mut world = World::default();
    let mut party = Vec::new();
    for (part, name, a, b) in rows {
        match part.as_str() {
            "character" => character = Some((a, b)),
            "item" if a > 0 => {
                world.items.insert(name, a);
            }
            // (position, npc): the party's order.
            "party" => party.push((a, name)),
            "flag" => {
                let Ok(flag) = u8::try_from(a) else {
                    continue;
                };
                if name == GLOBAL_SCOPE {
                    world.flags.global.insert(flag);
                } else {
                    world
                        .flags
                        .conversation
                        .entry(key.conversation.to_owned())
                        .or_default()
                        .insert(flag);
                }
            }
            "param" => {
                if let (Ok(param), Ok(value)) = (i32::try_from(a), i32::try_from(b)) {
                    world.set_param(param, value);
                }
            }
            _ => {}
        }
    }
    let Some((gold, food)) = character else {
        return Ok(None);
    };
    party.sort();
    world.gold = gold;
    world.food = food;
    world.party = party.into_iter().map(|(_, npc)| npc).collect();
    Ok(Some(world))
}

/// Writes what a turn changed, from `before` to `after`: only the rows that differ.
pub async fn save_world_in(
    conn: &mut AnyConnection,
    key: &WorldKey<'_>,
    before: &World,
    after: &World,
    now: i64,
) -> anyhow::Result<()> {
    if (before.gold, before.food) != (after.gold, after.food) {
        sqlx::query("UPDATE characters SET gold = $1, food = $2, updated_at = $3 WHERE id = $4")
            .bind(after.gold)
            .bind(after.food)
            .bind(now)
            .bind(key.character_id)
            .execute(&mut *conn)
            .await?;
    }
    save_items(conn, key.character_id, &before.items, &after.items).await?;
    if before.party != after.party {
        sqlx::query("DELETE FROM character_party WHERE character_id = $1")
            .bind(key.character_id)
            .execute(&mut *conn)
            .await?;
        for (position, npc) in after.party.iter().enumerate() {
            sqlx::query(
                "INSERT INTO character_party (character_id, npc, position) VALUES ($1, $2, $3)",
            )
            .bind(key.character_id)
            .bind(npc)
            .bind(i64::try_from(position).unwrap_or(i64::MAX))
            .execute(&mut *conn)
            .await?;
        }
    }
    save_flags(
        conn,
        key,
        GLOBAL_SCOPE,
        &before.flags.global,
        &after.flags.global,
    )
    .await?;
    let conversations: BTreeSet<&String> = before
        .flags
        .conversation
        .keys()
        .chain(after.flags.conversation.keys())
        .collect();
    let empty = BTreeSet::new();
    for conversation in conversations {
        let old = before
            .flags
            .conversation
            .get(conversation)
            .unwrap_or(&empty);
        let new = after.flags.conversation.get(conversation).unwrap_or(&empty);
        save_flags(conn, key, &key.flag_scope(conversation), old, new).await?;
    }
    let params: BTreeSet<&i32> = before.params.keys().chain(after.params.keys()).collect();
    for param in params {
        let new = after.param(*param);
        if before.param(*param) == new {
            continue;
        }
        if new == 0 {
            sqlx::query(
                "DELETE FROM player_params WHERE guild_id = $1 AND user_id = $2 AND param = $3",
            )
            .bind(key.guild_id)
            .bind(key.user_id)
            .bind(i64::from(*param))
            .execute(&mut *conn)
            .await?;
            continue;
        }
        sqlx::query(
            "INSERT INTO player_params (guild_id, user_id, param, value) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (guild_id, user_id, param) DO UPDATE SET value = excluded.value",
        )
        .bind(key.guild_id)
        .bind(key.user_id)
        .bind(i64::from(*param))
        .bind(i64::from(new))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The keywords a player asked an NPC about, most recent first.
pub async fn npc_keywords_in(
    conn: &mut AnyConnection,
    key: &WorldKey<'_>,
    limit: usize,
) -> anyhow::Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT keyword FROM npc_keywords WHERE guild_id = $1 AND user_id = $2 AND npc = $3 \
         ORDER BY used_at DESC, keyword LIMIT $4",
    )
    .bind(key.guild_id)
    .bind(key.user_id)
    .bind(key.npc)
    .bind(i64::try_from(limit).unwrap_or(i64::MAX))
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows.into_iter().map(|(keyword,)| keyword).collect())
}

/// Notes that a player asked an NPC about `keyword`, keeping the `keep` most recent;
/// returns those, most recent first (what [`npc_keywords_in`] would read next).
pub async fn record_npc_keyword_in(
    conn: &mut AnyConnection,
    key: &WorldKey<'_>,
    keyword: &str,
    now: i64,
    keep: usize,
) -> anyhow::Result<Vec<String>> {
    sqlx::query(
        "INSERT INTO npc_keywords (guild_id, user_id, npc, keyword, used_at) \
         VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (guild_id, user_id, npc, keyword) DO UPDATE SET used_at = excluded.used_at",
    )
    .bind(key.guild_id)
    .bind(key.user_id)
    .bind(key.npc)
    .bind(keyword)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT keyword FROM npc_keywords WHERE guild_id = $1 AND user_id = $2 AND npc = $3 \
         ORDER BY used_at DESC, keyword",
    )
    .bind(key.guild_id)
    .bind(key.user_id)
    .bind(key.npc)
    .fetch_all(&mut *conn)
    .await?;
    for (old,) in rows.iter().skip(keep) {
        sqlx::query(
            "DELETE FROM npc_keywords WHERE guild_id = $1 AND user_id = $2 AND npc = $3 \
             AND keyword = $4",
        )
        .bind(key.guild_id)
        .bind(key.user_id)
        .bind(key.npc)
        .bind(old)
        .execute(&mut *conn)
        .await?;
    }
    Ok(rows.into_iter().take(keep).map(|(kept,)| kept).collect())
}

async fn items_in(
    conn: &mut AnyConnection,
    character_id: i64,
) -> anyhow::Result<BTreeMap<String, i64>> {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT item, count FROM character_items WHERE character_id = $1")
            .bind(character_id)
            .fetch_all(&mut *conn)
            .await?;
    Ok(rows.into_iter().filter(|(_, count)| *count > 0).collect())
}

async fn party_in(conn: &mut AnyConnection, character_id: i64) -> anyhow::Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as(
        "SELECT npc FROM character_party WHERE character_id = $1 ORDER BY position, npc",
    )
    .bind(character_id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows.into_iter().map(|(npc,)| npc).collect())
}

async fn save_items(
    conn: &mut AnyConnection,
    character_id: i64,
    before: &BTreeMap<String, i64>,
    after: &BTreeMap<String, i64>,
) -> anyhow::Result<()> {
    let tags: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for tag in tags {
        let new = after.get(tag).copied().unwrap_or(0).max(0);
        if before.get(tag).copied().unwrap_or(0).max(0) == new {
            continue;
        }
        if new == 0 {
            sqlx::query("DELETE FROM character_items WHERE character_id = $1 AND item = $2")
                .bind(character_id)
                .bind(tag)
                .execute(&mut *conn)
                .await?;
            continue;
        }
        sqlx::query(
            "INSERT INTO character_items (character_id, item, count) VALUES ($1, $2, $3) \
             ON CONFLICT (character_id, item) DO UPDATE SET count = excluded.count",
        )
        .bind(character_id)
        .bind(tag)
        .bind(new)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

async fn save_flags(
    conn: &mut AnyConnection,
    key: &WorldKey<'_>,
    scope: &str,
    before: &BTreeSet<u8>,
    after: &BTreeSet<u8>,
) -> anyhow::Result<()> {
    for flag in after.difference(before) {
        sqlx::query(
            "INSERT INTO player_flags (guild_id, user_id, scope, flag) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (guild_id, user_id, scope, flag) DO NOTHING",
        )
        .bind(key.guild_id)
        .bind(key.user_id)
        .bind(scope)
        .bind(i64::from(*flag))
        .execute(&mut *conn)
        .await?;
    }
    for flag in before.difference(after) {
        sqlx::query(
            "DELETE FROM player_flags WHERE guild_id = $1 AND user_id = $2 AND scope = $3 \
             AND flag = $4",
        )
        .bind(key.guild_id)
        .bind(key.user_id)
        .bind(scope)
        .bind(i64::from(*flag))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
