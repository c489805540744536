//! Which module posted a message that users may reply to, remembered when the message's
//! id is stored ([`super::Core::message_sent`]), so that a typed reply goes first to the
//! module that can answer it. Without this, `Core::dispatch` asks each module with
//! typed replies in turn, and a reply to an NPC costs the generator's lookup (a miss)
//! before the NPC's own read (issue 28).
//!
//! Only an order: a message not remembered (posted before a restart, or by another
//! process, or forgotten) is offered to every module as before, and a module that does
//! not answer passes the reply on. A message id belongs to one message, which one
//! module posted, so trying that module first changes no answer.

use std::collections::HashMap;
use std::sync::Mutex;

/// How many message ids one generation holds: two generations are kept, so the newest
/// 4,096 to 8,192 posted messages are remembered, in at most a few hundred KiB.
const GENERATION: usize = 4096;

#[derive(Default)]
pub struct ReplyRoutes {
    generations: Mutex<Generations>,
}

#[derive(Default)]
struct Generations {
    newer: HashMap<i64, &'static str>,
    older: HashMap<i64, &'static str>,
}

impl ReplyRoutes {
    /// Remembers that the module of command `entry` posted message `message_id`.
    pub fn posted(&self, message_id: i64, entry: &'static str) {
        let mut generations = self.lock();
        if generations.newer.len() >= GENERATION {
            generations.older = std::mem::take(&mut generations.newer);
        }
        generations.newer.insert(message_id, entry);
    }

    /// The command entry whose module posted `message_id`, if remembered.
    pub fn poster_of(&self, message_id: i64) -> Option<&'static str> {
        let generations = self.lock();
        generations
            .newer
            .get(&message_id)
            .or_else(|| generations.older.get(&message_id))
            .copied()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Generations> {
        self.generations
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_the_newest_generations_only() {
        let routes = ReplyRoutes::default();
        routes.posted(1, "talk");
        assert_eq!(routes.poster_of(1), Some("talk"));
        assert_eq!(routes.poster_of(2), None);
        let last = 2 * GENERATION as i64 + 1;
        for id in 2..=last {
            routes.posted(id, "chargen");
        }
        // Two generations later the first id is forgotten; the newest are kept.
        assert_eq!(routes.poster_of(1), None);
        assert_eq!(routes.poster_of(last), Some("chargen"));
        assert_eq!(routes.poster_of(GENERATION as i64 + 1), Some("chargen"));
    }
}
