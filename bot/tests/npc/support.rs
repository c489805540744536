//! Scripts, a core that fetches them, and the requests NPC tests send.

use std::collections::HashMap;
use std::sync::Arc;

use tavern::core::{
    Component, Core, CoreSettings, Member, Modal, OptionValue, Permissions, Reply, Request,
    RequestKind, Select,
};
use tavern::fetch::MapFetch;
use tavern::storage::{NewCharacter, Storage, WorldKey};

use crate::harness::{ALICE, GUILD, Harness, START_MS, Sent, command, text};
use crate::support::TempDir;

pub const SHOPKEEPER: &str = include_str!("../../../npc-core/scripts/shopkeeper.ghul");
pub const HEALER: &str = include_str!("../../../npc-core/scripts/healer.ghul");
pub const QUEST_GIVER: &str = include_str!("../../../npc-core/scripts/quest_giver.ghul");

/// A script whose keyword `spin` first changes the world, then runs far past the step
/// budget (10 × 10 × 10 × 10 calls), and whose `gift` just gives.
pub const RUNAWAY: &str = r#"
CONV c_spin { NATIVE { HAIL r_hail SPIN r_spin GIFT r_gift } }
RESP r_hail { SAY "Round and round. Ping @everyone and <@123>, \"quoted\" \\ slash." }
RESP r_gift { GIVE_ITEM t_gem SAY "A gem for you." }
RESP r_spin { GIVE_ITEM t_gem CHANGE_PARM GOLD +100 SET_FLAG 3 $r1 $r1 $r1 $r1 $r1 $r1 $r1 $r1 $r1 $r1 }
RESP r1 { $r2 $r2 $r2 $r2 $r2 $r2 $r2 $r2 $r2 $r2 }
RESP r2 { $r3 $r3 $r3 $r3 $r3 $r3 $r3 $r3 $r3 $r3 }
RESP r3 { CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 CHANGE_PARM 1 +1 }
"#;

/// Where the fake fetcher serves each script.
pub const URLS: [(&str, &str); 4] = [
    ("https://cdn.test/shopkeeper.ghul", SHOPKEEPER),
    ("https://cdn.test/healer.ghul", HEALER),
    ("https://cdn.test/quest_giver.ghul", QUEST_GIVER),
    ("https://cdn.test/runaway.ghul", RUNAWAY),
];

/// A core whose fetcher serves the sample scripts, with Alice playing a character.
pub struct Table {
    pub harness: Harness,
    _dir: Option<TempDir>,
}

pub fn fetcher() -> MapFetch {
    let mut files: HashMap<String, Vec<u8>> = URLS
        .iter()
        .map(|(url, source)| ((*url).to_owned(), source.as_bytes().to_vec()))
        .collect();
    files.insert(
        "https://cdn.test/broken.ghul".to_owned(),
        b"CONV c { NATIVE { HAIL r_missing } }\nRESP r { say \"hi\" }\n".to_vec(),
    );
    files.insert("https://cdn.test/latin1.ghul".to_owned(), vec![0xE9, 0x0A]);
    MapFetch(files)
}

impl Table {
    pub async fn new() -> Table {
        let dir = TempDir::new("npc");
        let storage = crate::support::sqlite_storage(&dir).await;
        let mut table = Table::on(storage, settings(), 7);
        table._dir = Some(dir);
        table
    }

    /// A core on an existing database, as a restarted process would have.
    pub fn on(storage: Storage, settings: CoreSettings, seed: u64) -> Table {
        let mut harness = Harness::on(storage.clone(), settings.clone(), seed);
        harness.core = Arc::new(
            Core::new(
                storage,
                crate::doubles::engines(),
                settings,
                harness.clock.clone(),
                Some(seed),
            )
            .with_fetch(Arc::new(fetcher())),
        );
        Table {
            harness,
            _dir: None,
        }
    }

    pub fn storage(&self) -> &Storage {
        &self.harness.storage
    }

    /// Each request a moment after the last, so "most recent" is well defined.
    pub async fn as_user(&mut self, user: i64, kind: RequestKind) -> Sent {
        self.harness.clock.advance_ms(1);
        let request = self.harness.request(user, Some(GUILD), kind);
        self.harness.send(&request).await
    }

    pub async fn alice(&mut self, kind: RequestKind) -> Sent {
        self.as_user(ALICE, kind).await
    }

    /// A request from a member with these permissions and roles.
    pub async fn member(
        &mut self,
        user: i64,
        permissions: u64,
        roles: &[i64],
        kind: RequestKind,
    ) -> Sent {
        self.harness.clock.advance_ms(1);
        let mut request: Request = self.harness.request(user, Some(GUILD), kind);
        request.member = Some(Member {
            permissions: Permissions(permissions),
            roles: roles.to_vec(),
        });
        self.harness.send(&request).await
    }

    /// Installs a sample script as an admin; panics unless it is installed.
    pub async fn install(&mut self, name: &str, file: &str) {
        let sent = self
            .member(ALICE, Permissions::MANAGE_GUILD, &[], install(name, file))
            .await;
        let answer = &sent.interaction().content;
        assert!(
            answer.contains("nstalled") || answer.contains("Replaced"),
            "{answer}"
        );
    }
}

/// The defaults, with a rate limit no test reaches.
pub fn settings() -> CoreSettings {
    CoreSettings {
        rate_burst: 1000,
        ..CoreSettings::default()
    }
}

/// Gives `user` a character in the guild, with this much gold.
pub async fn character(storage: &Storage, id: i64, user: i64, name: &str, gold: i64) -> i64 {
    storage
        .finish_session(
            None,
            &[NewCharacter {
                id,
                owner_id: user,
                guild_id: GUILD,
                name: name.to_owned(),
                program: "chargen".to_owned(),
                program_hash: "x".to_owned(),
                gold,
                food: 3,
                fields: "[]".to_owned(),
                transcript: String::new(),
                now: START_MS + id,
                capture: String::new(),
                numbered: false,
            }],
        )
        .await
        .unwrap()
        .unwrap();
    id
}

pub fn install(name: &str, file: &str) -> RequestKind {
    command(
        "npc",
        &["install"],
        &[
            ("name", text(name)),
            (
                "file",
                OptionValue::Attachment {
                    filename: file.to_owned(),
                    url: format!("https://cdn.test/{file}"),
                    size: 100,
                },
            ),
        ],
    )
}

pub fn talk(npc: &str) -> RequestKind {
    command("talk", &[], &[("npc", text(npc))])
}

pub fn press(custom_id: String) -> RequestKind {
    RequestKind::Button {
        custom_id,
        message_id: 1,
    }
}

pub fn button(sent: &Sent, label: &str) -> String {
    sent.button(label)
        .unwrap_or_else(|| panic!("no button {label:?} in {:#?}", sent.replies))
}

pub fn modal(sent: &Sent) -> Modal {
    sent.replies
        .iter()
        .find_map(|reply| match reply {
            Reply::Modal(modal) => Some(modal.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no modal in {:#?}", sent.replies))
}

pub fn submit(modal: &Modal, value: &str) -> RequestKind {
    RequestKind::Modal {
        custom_id: modal.custom_id.clone(),
        fields: vec![(modal.inputs[0].custom_id.clone(), value.to_owned())],
    }
}

pub fn selects(sent: &Sent) -> Vec<Select> {
    sent.channel_messages()
        .iter()
        .flat_map(|message| message.components.iter())
        .flat_map(|row| row.0.iter())
        .filter_map(|component| match component {
            Component::Select(select) => Some(select.clone()),
            _ => None,
        })
        .collect()
}

/// Picks the option labelled `label` in the first select menu.
pub fn choose(sent: &Sent, label: &str) -> RequestKind {
    let select = selects(sent).into_iter().next().expect("a select menu");
    let option = select
        .options
        .iter()
        .find(|option| option.label == label)
        .unwrap_or_else(|| panic!("no option {label:?} in {select:?}"));
    RequestKind::Select {
        custom_id: select.custom_id.clone(),
        message_id: 1,
        values: vec![option.value.clone()],
    }
}

/// The NPC's channel messages.
pub fn said(sent: &Sent) -> String {
    sent.channel_messages()
        .iter()
        .map(|message| message.content.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn reply_to(message: i64, line: &str) -> RequestKind {
    RequestKind::MessageReply {
        message_id: message + 1_000_000,
        to_message: message,
        text: line.to_owned(),
    }
}

pub fn buttons(sent: &Sent) -> Vec<String> {
    sent.channel_messages()
        .iter()
        .flat_map(|message| message.components.iter())
        .flat_map(|row| row.0.iter())
        .filter_map(|component| match component {
            Component::Button(button) => Some(button.label.clone()),
            _ => None,
        })
        .collect()
}

pub async fn world(
    storage: &Storage,
    user: i64,
    character_id: i64,
    npc: &str,
    conv: &str,
) -> String {
    storage
        .npc_world(&WorldKey {
            guild_id: GUILD,
            user_id: user,
            character_id,
            npc,
            conversation: conv,
        })
        .await
        .unwrap()
        .expect("the character exists")
        .state_summary()
}
