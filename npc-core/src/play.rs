//! The `tavern npc play` protocol as a pure function: stdin text in, transcript out.

use std::collections::BTreeMap;

use crate::engine::Conversation;
use crate::script::Script;
use crate::world::World;

const DEFAULT_SERVER: &str = "s1";
const DEFAULT_PLAYER: &str = "p1";

/// Runs the play protocol of issue 7 on `input` against a fresh in-memory
/// state and returns the transcript, one line per event, each ending in `\n`.
///
/// A script that does not load gives only its `[load error] line N: message`
/// lines. Lines starting with `@` are directives (`@talk NPC CONV Display
/// Name`, `@player`, `@server`, `@gold`, `@food`, `@item TAG N`, `@member TAG`,
/// `@activity NPC N`, `@state`); a directive, or the end of the input, ends a
/// waiting conversation with `[end left]`. Malformed or unknown directives
/// change nothing else. Every other line is player input while a conversation
/// waits (echoed as `> line`) and is skipped, unechoed, while none does.
pub fn play(script_source: &str, input: &str) -> String {
    let script = match crate::load(script_source) {
        Ok(script) => script,
        Err(errors) => {
            return errors
                .iter()
                .map(|error| format!("[load error] {error}\n"))
                .collect();
        }
    };
    let mut session = PlaySession {
        script: &script,
        server: DEFAULT_SERVER.to_string(),
        player: DEFAULT_PLAYER.to_string(),
        worlds: BTreeMap::new(),
        activities: BTreeMap::new(),
        talk: None,
        transcript: String::new(),
    };
    for line in input.lines() {
        session.line(line);
    }
    session.leave();
    session.transcript
}

struct PlaySession<'s> {
    script: &'s Script,
    server: String,
    player: String,
    /// Per (server, player).
    worlds: BTreeMap<(String, String), World>,
    /// Per (server, NPC tag).
    activities: BTreeMap<(String, String), i32>,
    talk: Option<Conversation>,
    transcript: String,
}

impl PlaySession<'_> {
    fn write(&mut self, line: &str) {
        self.transcript.push_str(line);
        self.transcript.push('\n');
    }

    fn write_events(&mut self, events: &[crate::Event]) {
        for event in events {
            let line = event.to_line();
            self.write(&line);
        }
    }

    /// The acting player's world, with the talked-to NPC's activity filled in.
    fn world(&mut self, npc: &str) -> &mut World {
        let activity = self
            .activities
            .get(&(self.server.clone(), npc.to_string()))
            .copied()
            .unwrap_or(0);
        let world = self
            .worlds
            .entry((self.server.clone(), self.player.clone()))
            .or_default();
        world.activity = activity;
        world
    }

    fn line(&mut self, line: &str) {
        if let Some(directive) = line.strip_prefix('@') {
            self.leave();
            self.directive(directive);
            return;
        }
        let Some(mut talk) = self.talk.take() else {
            return;
        };
        let echoed = line.trim_end();
        if echoed.is_empty() {
            self.write(">");
        } else {
            self.write(&format!("> {echoed}"));
        }
        let script = self.script;
        let turn = talk.input(script, line, self.world(talk.npc()));
        self.write_events(&turn.events);
        if !turn.is_over() {
            self.talk = Some(talk);
        }
    }

    fn leave(&mut self) {
        if let Some(mut talk) = self.talk.take() {
            let events = talk.leave();
            self.write_events(&events);
        }
    }

    fn directive(&mut self, directive: &str) {
        let (name, rest) = split_word(directive);
        let (first, after_first) = split_word(rest);
        let (second, after_second) = split_word(after_first);
        match name {
            "talk" if !first.is_empty() && !second.is_empty() => {
                let display = if after_second.is_empty() {
                    first
                } else {
                    after_second
                };
                self.start(first, second, display);
            }
            "player" if !first.is_empty() => self.player = first.to_string(),
            "server" if !first.is_empty() => self.server = first.to_string(),
            "gold" => {
                if let Ok(gold) = first.parse::<i64>() {
                    self.current_world().gold = gold;
                }
            }
            "food" => {
                if let Ok(food) = first.parse::<i64>() {
                    self.current_world().food = food;
                }
            }
            "item" if !first.is_empty() => {
                if let Ok(count) = second.parse::<i64>() {
                    self.current_world().set_item_count(first, count);
                }
            }
            "member" if !first.is_empty() => {
                let max_party = self.script.limits().max_party;
                let world = self.current_world();
                if !world.has_member(first) && world.party.len() < max_party {
                    world.party.push(first.to_string());
                }
            }
            "activity" if !first.is_empty() => {
                if let Ok(code) = second.parse::<i32>() {
                    self.activities
                        .insert((self.server.clone(), first.to_string()), code);
                }
            }
            "state" => {
                let summary = self.current_world().state_summary();
                let line = format!("[state {}/{}] {summary}", self.server, self.player);
                self.write(&line);
            }
            _ => {}
        }
    }

    fn current_world(&mut self) -> &mut World {
        self.worlds
            .entry((self.server.clone(), self.player.clone()))
            .or_default()
    }

    fn start(&mut self, npc: &str, conversation: &str, display: &str) {
        let script = self.script;
        let result = Conversation::start(script, npc, conversation, display, self.world(npc));
        match result {
            Ok((talk, turn)) => {
                self.write_events(&turn.events);
                if !turn.is_over() {
                    self.talk = Some(talk);
                }
            }
            Err(unknown) => self.write(&format!("[error] {unknown}")),
        }
    }
}

/// The first whitespace-separated word and the trimmed rest.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.find(char::is_whitespace) {
        Some(end) => (
            text.get(..end).unwrap_or(""),
            text.get(end..).unwrap_or("").trim(),
        ),
        None => (text, ""),
    }
}
