//! What a conversation reads and changes outside itself: the player's side of the world.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// Flag ids below this are per conversation (F2); the rest are global.
pub const FIRST_GLOBAL_FLAG: u8 = 128;

/// Set flags (F1..F4); a flag not present is clear.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flags {
    /// Flags 0..=127, per CONV tag of the conversation talked to (F2).
    #[serde(default)]
    pub conversation: BTreeMap<String, BTreeSet<u8>>,
    /// Flags 128..=255, shared by every conversation of this (server, player).
    #[serde(default)]
    pub global: BTreeSet<u8>,
}

impl Flags {
    /// Whether `flag` is set, as seen from the conversation `conv`.
    pub fn is_set(&self, conv: &str, flag: u8) -> bool {
        if flag >= FIRST_GLOBAL_FLAG {
            return self.global.contains(&flag);
        }
        self.conversation
            .get(conv)
            .is_some_and(|set| set.contains(&flag))
    }

    /// Sets or clears `flag` as seen from the conversation `conv`.
    pub fn set(&mut self, conv: &str, flag: u8, value: bool) {
        if flag >= FIRST_GLOBAL_FLAG {
            if value {
                self.global.insert(flag);
            } else {
                self.global.remove(&flag);
            }
            return;
        }
        if value {
            self.conversation
                .entry(conv.to_string())
                .or_default()
                .insert(flag);
            return;
        }
        if let Some(set) = self.conversation.get_mut(conv) {
            set.remove(&flag);
            if set.is_empty() {
                self.conversation.remove(conv);
            }
        }
    }
}

/// The state a conversation reads and changes: the active character's gold,
/// food, inventory and party, the (server, player)'s flags and parameters, and
/// the NPC's activity code.
///
/// The host loads it before a turn and stores it after (it is serde data). The
/// bot keeps everything but `activity` per (server, player), and `activity` per
/// (server, NPC): it fills `activity` in before each call; the engine never
/// changes it (G3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct World {
    #[serde(default)]
    pub gold: i64,
    #[serde(default)]
    pub food: i64,
    /// Item tag to count held; absent means 0.
    #[serde(default)]
    pub items: BTreeMap<String, i64>,
    /// NPC tags of the companions, in joining order (at most `Limits::max_party`).
    #[serde(default)]
    pub party: Vec<String>,
    #[serde(default)]
    pub flags: Flags,
    /// Script parameters (id >= 0); absent means 0 (N1).
    #[serde(default)]
    pub params: BTreeMap<i32, i32>,
    /// The NPC's activity code on this server (N7); input only.
    #[serde(default)]
    pub activity: i32,
}

impl World {
    /// How many of `item` the character holds.
    pub fn item_count(&self, item: &str) -> i64 {
        self.items.get(item).copied().unwrap_or(0)
    }

    /// Sets the count of `item`; counts of 0 or less are removed.
    pub fn set_item_count(&mut self, item: &str, count: i64) {
        if count > 0 {
            self.items.insert(item.to_string(), count);
        } else {
            self.items.remove(item);
        }
    }

    /// The value of a script parameter (id >= 0).
    pub fn param(&self, id: i32) -> i32 {
        self.params.get(&id).copied().unwrap_or(0)
    }

    /// Sets a script parameter; 0 is stored as absent.
    pub fn set_param(&mut self, id: i32, value: i32) {
        if value == 0 {
            self.params.remove(&id);
        } else {
            self.params.insert(id, value);
        }
    }

    /// Whether the NPC `npc` is one of the companions.
    pub fn has_member(&self, npc: &str) -> bool {
        self.party.iter().any(|member| member == npc)
    }

    /// The `@state` line's body for this world (without the `[state S/P] ` prefix):
    /// `gold=G food=F items=TAG:N,... party=TAG,... flags=CONV:ID,...;global:ID,... parms=ID:V,...`.
    pub fn state_summary(&self) -> String {
        let items: Vec<String> = self
            .items
            .iter()
            .filter(|(_, count)| **count > 0)
            .map(|(tag, count)| format!("{tag}:{count}"))
            .collect();
        let mut party = self.party.clone();
        party.sort();
        let mut flag_groups: Vec<String> = self
            .flags
            .conversation
            .iter()
            .filter(|(_, set)| !set.is_empty())
            .map(|(conv, set)| format!("{conv}:{}", join_ids(set)))
            .collect();
        if !self.flags.global.is_empty() {
            flag_groups.push(format!("global:{}", join_ids(&self.flags.global)));
        }
        let params: Vec<String> = self
            .params
            .iter()
            .filter(|(id, value)| **id >= 0 && **value != 0)
            .map(|(id, value)| format!("{id}:{value}"))
            .collect();
        format!(
            "gold={} food={} items={} party={} flags={} parms={}",
            self.gold,
            self.food,
            list_or_dash(&items, ","),
            list_or_dash(&party, ","),
            list_or_dash(&flag_groups, ";"),
            list_or_dash(&params, ","),
        )
    }
}

fn join_ids(set: &BTreeSet<u8>) -> String {
    set.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

fn list_or_dash(parts: &[String], separator: &str) -> String {
    if parts.is_empty() {
        return "-".to_string();
    }
    parts.join(separator)
}
