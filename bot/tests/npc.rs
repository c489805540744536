//! NPC conversations through the core: installing scripts (errors, permissions),
//! `/talk`, every kind of prompt as components, the world stored per character and
//! player, stale and foreign buttons, the step budget, restarts and idle expiry.

use std::collections::HashMap;
use std::sync::Arc;

use tavern::core::{
    Ack, Component, Core, CoreSettings, Member, Modal, OptionValue, Permissions, Reply, Request,
    RequestKind, Select,
};
use tavern::fetch::MapFetch;
use tavern::storage::{NewCharacter, Storage, WorldKey};

use crate::harness::{ALICE, BOB, CHANNEL, GUILD, Harness, START_MS, Sent, command, text};
use crate::on_both_backends;
use crate::support::TempDir;

pub const SHOPKEEPER: &str = include_str!("../../npc-core/scripts/shopkeeper.ghul");
pub const HEALER: &str = include_str!("../../npc-core/scripts/healer.ghul");
pub const QUEST_GIVER: &str = include_str!("../../npc-core/scripts/quest_giver.ghul");

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
const URLS: [(&str, &str); 4] = [
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

fn reply_to(message: i64, line: &str) -> RequestKind {
    RequestKind::MessageReply {
        message_id: message + 1_000_000,
        to_message: message,
        text: line.to_owned(),
    }
}

fn buttons(sent: &Sent) -> Vec<String> {
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

#[tokio::test]
async fn an_install_with_errors_answers_every_error_and_installs_nothing() {
    let mut table = Table::new().await;
    let sent = table
        .member(
            ALICE,
            Permissions::MANAGE_GUILD,
            &[],
            install("broken", "broken.ghul"),
        )
        .await;
    let answer = sent.interaction();
    assert!(answer.ephemeral);
    assert_eq!(
        answer.content,
        "`broken` was not installed: the script has 2 errors.\n```\n\
         CONV c { NATIVE { HAIL r_missing } }\n                       ^\n\
         line 1: unknown response `r_missing` in NATIVE\n\n\
         RESP r { say \"hi\" }\n         ^\n\
         line 2: expected a response statement or `}`, found `say` (words are case-sensitive: write `SAY`)\n```"
    );
    assert!(table.storage().npc_scripts(GUILD).await.unwrap().is_empty());

    // Every error of a long list is in the answer's file.
    let many: String = (0..60)
        .map(|n| format!("RESP r{n} {{ $missing{n} }}\n"))
        .collect();
    let sent = table
        .member(
            ALICE,
            Permissions::MANAGE_GUILD,
            &[],
            command(
                "npc",
                &["install"],
                &[("name", text("many")), ("code", text(&many))],
            ),
        )
        .await;
    let answer = sent.interaction();
    assert!(
        answer
            .content
            .starts_with("`many` was not installed: the script has 60 errors.")
    );
    assert!(
        answer
            .content
            .contains("every error is in the attached file")
    );
    let file = String::from_utf8(answer.attachments[0].bytes.clone()).unwrap();
    assert!(
        file.contains("line 60: unknown response `$missing59` in call"),
        "{file}"
    );
    assert!(table.storage().npc_scripts(GUILD).await.unwrap().is_empty());
}

#[tokio::test]
async fn install_sources_and_refusals() {
    struct Case {
        options: Vec<(&'static str, OptionValue)>,
        answer: &'static str,
    }
    let attachment = |file: &str| OptionValue::Attachment {
        filename: file.to_owned(),
        url: format!("https://cdn.test/{file}"),
        size: 10,
    };
    let cases = vec![
        Case {
            options: vec![
                ("name", text("hawknoz")),
                ("file", attachment("shopkeeper.ghul")),
            ],
            answer: "Installed **Hawknoz** (`hawknoz`; conversations `c_hawknoz`, `c_townsfolk`). \
                     Players talk to it with `/talk npc:hawknoz`.",
        },
        Case {
            options: vec![
                ("name", text("hawknoz")),
                ("file", attachment("shopkeeper.ghul")),
                ("display", text("Hawknoz the Smith")),
            ],
            answer: "Replaced **Hawknoz the Smith** (`hawknoz`;",
        },
        Case {
            options: vec![
                ("name", text("guard")),
                (
                    "code",
                    text("```ghul CONV c_guard { NATIVE { HAIL r } } RESP r { SAY \"Halt!\" } ```"),
                ),
            ],
            answer: "Installed **Guard** (`guard`; conversations `c_guard`).",
        },
        Case {
            options: vec![("name", text("x")), ("file", attachment("notes.txt"))],
            answer: "`notes.txt` is not a `.ghul` script.",
        },
        Case {
            options: vec![("name", text("x")), ("file", attachment("missing.ghul"))],
            answer: "I could not read the script: the file could not be read: not found.",
        },
        Case {
            options: vec![("name", text("x")), ("file", attachment("latin1.ghul"))],
            answer: "The script is not UTF-8 text.",
        },
        Case {
            options: vec![("name", text("x"))],
            answer: "Attach the script as a `.ghul` file (`file`), or paste it as `code`.",
        },
        Case {
            options: vec![
                ("name", text("x")),
                ("file", attachment("healer.ghul")),
                ("code", text("CONV c {}")),
            ],
            answer: "Give the script either as a file or as code, not both.",
        },
        Case {
            options: vec![("name", text("old maud")), ("code", text("CONV c {}"))],
            answer: "`old maud` cannot name an NPC",
        },
        Case {
            options: vec![("name", text("9lives")), ("code", text("CONV c {}"))],
            answer: "`9lives` cannot name an NPC",
        },
        Case {
            options: vec![
                ("name", text("big")),
                (
                    "file",
                    OptionValue::Attachment {
                        filename: "big.ghul".to_owned(),
                        url: "https://cdn.test/big.ghul".to_owned(),
                        size: 10_000_000,
                    },
                ),
            ],
            answer: "The script is larger than 262144 bytes.",
        },
    ];
    let mut table = Table::new().await;
    for case in cases {
        let sent = table
            .member(
                ALICE,
                Permissions::MANAGE_GUILD,
                &[],
                command("npc", &["install"], &case.options),
            )
            .await;
        let answer = sent.interaction();
        assert!(answer.ephemeral);
        assert!(
            answer.content.starts_with(case.answer),
            "{:?}: {}",
            case.options,
            answer.content
        );
    }
    let names: Vec<String> = table
        .storage()
        .npc_scripts(GUILD)
        .await
        .unwrap()
        .into_iter()
        .map(|row| row.name)
        .collect();
    assert_eq!(names, ["guard", "hawknoz"]);
    let listed = table.alice(command("npc", &["list"], &[])).await;
    assert_eq!(
        listed.interaction().content,
        "NPCs here (2):\n- **Guard** (`guard`)\n- **Hawknoz the Smith** (`hawknoz`)\n\
         Talk to one with `/talk npc:NAME`."
    );
}

#[tokio::test]
async fn only_managers_and_the_tavern_role_change_npcs() {
    let mut table = Table::new().await;
    sqlx::query(
        "INSERT INTO guild_settings (guild_id, macro_role_id, updated_by, updated_at) \
         VALUES ($1, 77, 1, 1)",
    )
    .bind(GUILD)
    .execute(table.storage().pool())
    .await
    .unwrap();
    let refused = "Only members with the Manage Server permission";
    let cases: Vec<(u64, Vec<i64>, RequestKind, &str)> = vec![
        (0, vec![], install("hawknoz", "shopkeeper.ghul"), refused),
        (0, vec![5], install("hawknoz", "shopkeeper.ghul"), refused),
        (
            Permissions::MANAGE_GUILD,
            vec![],
            install("hawknoz", "shopkeeper.ghul"),
            "Installed",
        ),
        (
            Permissions::ADMINISTRATOR,
            vec![],
            install("avra", "healer.ghul"),
            "Installed",
        ),
        (
            0,
            vec![5, 77],
            install("maud", "quest_giver.ghul"),
            "Installed",
        ),
        (
            0,
            vec![],
            command(
                "npc",
                &["activity"],
                &[("name", text("hawknoz")), ("code", OptionValue::Integer(1))],
            ),
            refused,
        ),
        (
            0,
            vec![],
            command("npc", &["remove"], &[("name", text("maud"))]),
            refused,
        ),
        (
            0,
            vec![77],
            command(
                "npc",
                &["activity"],
                &[("name", text("Hawknoz")), ("code", OptionValue::Integer(1))],
            ),
            "`Hawknoz` now has activity code 1",
        ),
        (
            Permissions::MANAGE_GUILD,
            vec![],
            command(
                "npc",
                &["activity"],
                &[("name", text("nobody")), ("code", OptionValue::Integer(1))],
            ),
            "There is no NPC called `nobody` here.",
        ),
        (
            Permissions::MANAGE_GUILD,
            vec![],
            command("npc", &["remove"], &[("name", text("maud"))]),
            "Removed `maud`.",
        ),
        // Anyone may list.
        (0, vec![], command("npc", &["list"], &[]), "NPCs here (2):"),
    ];
    for (permissions, roles, kind, expected) in cases {
        let sent = table.member(BOB, permissions, &roles, kind.clone()).await;
        let answer = &sent.interaction().content;
        assert!(answer.starts_with(expected), "{kind:?}: {answer}");
    }
    let hawknoz = table
        .storage()
        .npc_script(GUILD, "hawknoz")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(hawknoz.activity, 1);
    assert!(
        table
            .storage()
            .npc_script(GUILD, "maud")
            .await
            .unwrap()
            .is_none()
    );
    // In direct messages there are no NPCs.
    let dm = table.harness.request(ALICE, None, talk("hawknoz"));
    let sent = table.harness.send(&dm).await;
    assert!(
        sent.interaction()
            .content
            .starts_with("NPCs live on servers")
    );
}

#[tokio::test]
async fn talk_greets_and_keywords_are_asked_by_modal_button_and_reply() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 120).await;

    let none = table.as_user(BOB, talk("hawknoz")).await;
    assert_eq!(
        none.interaction().content,
        "To talk to Hawknoz you need a character here: make one with `/chargen start`."
    );
    let missing = table.alice(talk("nobody")).await;
    assert!(
        missing
            .interaction()
            .content
            .starts_with("There is no NPC called `nobody` here.")
    );

    let hail = table.alice(talk("Hawknoz")).await;
    let ack = hail.interaction();
    assert!(ack.ephemeral);
    assert!(
        ack.content.starts_with("You talk to Hawknoz as **Udo**."),
        "{}",
        ack.content
    );
    assert_eq!(
        said(&hail),
        "*Alice talks to Hawknoz.*\nHawknoz: Welcome to my forge, stranger."
    );
    assert_eq!(buttons(&hail), ["Ask Hawknoz…", "Bye"]);
    let prompt = hail.prompt_message.expect("the prompt is tracked");

    // "Ask…" opens a modal at once; its answer is the keyword.
    let ask = RequestKind::Button {
        custom_id: button(&hail, "Ask Hawknoz…"),
        message_id: prompt,
    };
    assert_eq!(
        table
            .harness
            .core
            .ack(&table.harness.request(ALICE, Some(GUILD), ask.clone())),
        Ack::Immediate
    );
    let opened = table.alice(ask).await;
    let form = modal(&opened);
    assert_eq!(form.title, "Talking to Hawknoz");
    // NPCs answer to the first word: the form says so.
    assert_eq!(
        form.inputs[0].placeholder.as_deref(),
        Some("One word: name, job, trade, bye…")
    );
    let answered = table.alice(submit(&form, "Name?")).await;
    assert_eq!(
        said(&answered),
        "> **Alice:** Name?\nHawknoz: Hawknoz, smith of Glasdrin."
    );
    // The answered prompt loses its buttons.
    let edits: Vec<&Reply> = answered
        .replies
        .iter()
        .filter(|reply| matches!(reply, Reply::Edit { .. }))
        .collect();
    assert_eq!(edits.len(), 1);
    if let Reply::Edit {
        message_id,
        message,
        ..
    } = edits[0]
    {
        assert_eq!(*message_id, prompt);
        assert!(message.components.is_empty());
        assert_eq!(
            message.content,
            "*Alice talks to Hawknoz.*\nHawknoz: Welcome to my forge, stranger."
        );
    }
    assert_eq!(buttons(&answered), ["Ask Hawknoz…", "Bye", "name"]);

    // An empty reply (what Discord shows the bot without the message-content intent)
    // is no BYE.
    let blank = table
        .alice(reply_to(answered.prompt_message.unwrap(), "  "))
        .await;
    assert!(blank.replies.is_empty());
    // A reply to the NPC's message answers too; an imported keyword becomes a button.
    let weather = table
        .alice(reply_to(answered.prompt_message.unwrap(), "weathervane"))
        .await;
    assert_eq!(
        said(&weather),
        "> **Alice:** weathervane\nHawknoz: Cold. Good weather for a forge."
    );
    assert_eq!(
        buttons(&weather),
        ["Ask Hawknoz…", "Bye", "weather", "name"]
    );
    // DEFAULT answers and "no reply" make no button.
    let what = table.alice(press(button(&weather, "Ask Hawknoz…"))).await;
    let what = table.alice(submit(&modal(&what), "gossip")).await;
    assert!(said(&what).ends_with("Hawknoz: Hmm? Ask me about my job, or let us trade."));
    assert_eq!(buttons(&what), ["Ask Hawknoz…", "Bye", "weather", "name"]);
    // A keyword button asks again.
    let again = table.alice(press(button(&what, "name"))).await;
    assert_eq!(
        said(&again),
        "> **Alice:** NAME\nHawknoz: Hawknoz, smith of Glasdrin."
    );
    let bye = table.alice(press(button(&again, "Bye"))).await;
    assert_eq!(
        said(&bye),
        "> **Alice:** bye\nHawknoz: Farewell.\n*The conversation is over.*"
    );
    assert!(buttons(&bye).is_empty());
    assert!(bye.prompt_message.is_none());
    assert!(
        table
            .storage()
            .npc_conversation_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );
    // The keyword buttons are remembered for the next conversation.
    let next = table.alice(talk("hawknoz")).await;
    assert_eq!(
        said(&next),
        "*Alice talks to Hawknoz.*\nHawknoz: Back again? Good."
    );
    assert_eq!(buttons(&next), ["Ask Hawknoz…", "Bye", "name", "weather"]);
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=120 food=3 items=- party=- flags=c_hawknoz:1 parms=-"
    );
}

#[tokio::test]
async fn yes_no_buttons_and_flags_that_persist_per_player() {
    let mut table = Table::new().await;
    table.install("maud", "quest_giver.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 10).await;
    let rex = character(table.storage(), 2, BOB, "Rex", 10).await;

    let hail = table.alice(talk("maud")).await;
    assert!(
        said(&hail).ends_with("Maud: Oh, a visitor. I have a favour to ask. Ask me about my ring.")
    );
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "ring"))
        .await;
    assert!(
        said(&asked).contains("Will you look for it?\n*Yes or no?*"),
        "{}",
        said(&asked)
    );
    assert_eq!(buttons(&asked), ["Yes", "No", "Walk away"]);
    // Anything else than yes or no is asked again (Y1); a reply works here too.
    let bye = table
        .alice(reply_to(asked.prompt_message.unwrap(), "bye"))
        .await;
    assert!(
        said(&bye).contains("*Please answer yes or no.*\n*Yes or no?*"),
        "{}",
        said(&bye)
    );
    let yes = table.alice(press(button(&bye, "Yes"))).await;
    assert!(said(&yes).contains("Maud: Bless you! Come back when you have it."));
    table.alice(press(button(&yes, "Bye"))).await;
    assert_eq!(
        world(table.storage(), ALICE, udo, "maud", "c_maud").await,
        "gold=10 food=3 items=- party=- flags=c_maud:1 parms=-"
    );

    // The flag is Alice's: she is remembered, Bob is not.
    let back = table.alice(talk("maud")).await;
    assert!(said(&back).ends_with("Maud: Any news of my ring?"));
    let bob = table.as_user(BOB, talk("maud")).await;
    assert!(
        said(&bob).ends_with("Maud: Oh, a visitor. I have a favour to ask. Ask me about my ring.")
    );
    let no = table
        .as_user(BOB, reply_to(bob.prompt_message.unwrap(), "quest"))
        .await;
    let no = table.as_user(BOB, press(button(&no, "No"))).await;
    assert!(said(&no).ends_with("Maud: Ah well. Perhaps someone else will."));
    assert_eq!(
        world(table.storage(), BOB, rex, "maud", "c_maud").await,
        "gold=10 food=3 items=- party=- flags=- parms=-"
    );
    // Both conversations wait at once, each with its own state.
    assert!(
        table
            .storage()
            .npc_conversation_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        table
            .storage()
            .npc_conversation_of(BOB, GUILD)
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn a_quest_rewards_items_and_gold_then_the_npc_joins_the_party() {
    let mut table = Table::new().await;
    table.install("maud", "quest_giver.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 10).await;
    let hail = table.alice(talk("maud")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "ring"))
        .await;
    let yes = table.alice(press(button(&asked, "Yes"))).await;
    // Alice finds the ring (another command would give it; here the database does).
    sqlx::query(
        "INSERT INTO character_items (character_id, item, count) VALUES ($1, 't_silver_ring', 1)",
    )
    .bind(udo)
    .execute(table.storage().pool())
    .await
    .unwrap();
    let found = table
        .alice(reply_to(yes.prompt_message.unwrap(), "reward"))
        .await;
    assert!(
        said(&found).ends_with("Maud: My ring! You found it!\n*You receive 2 healing potion.*"),
        "{}",
        said(&found)
    );
    let joined = table
        .alice(reply_to(found.prompt_message.unwrap(), "join"))
        .await;
    assert!(
        said(&joined).ends_with(
            "Maud: Adventure, at my age? Oh, why not!\n*Maud joins your party.*\n*The conversation is over.*"
        ),
        "{}",
        said(&joined)
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "maud", "c_maud").await,
        "gold=60 food=3 items=t_healing_potion:2 party=maud flags=c_maud:1,2;global:150 parms=-"
    );
    let sheet = table
        .alice(command("character", &["show"], &[("name", text("Udo"))]))
        .await;
    assert!(
        sheet.interaction().content.ends_with(
            "Gold 60 · Food 3\nInventory: 2 healing potion\nParty: maud\nIn rolls: `@FOOD`, `@GOLD`"
        ),
        "{}",
        sheet.interaction().content
    );
    // A member already: she says so and the conversation goes on.
    let again = table.alice(talk("maud")).await;
    let again = table
        .alice(reply_to(again.prompt_message.unwrap(), "join"))
        .await;
    assert!(
        said(&again).ends_with("*Maud is already in your party.*"),
        "{}",
        said(&again)
    );
}

#[tokio::test]
async fn a_menu_is_a_select_whose_costs_are_charged() {
    let mut table = Table::new().await;
    table.install("avra", "healer.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 40).await;
    let hail = table.alice(talk("avra")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "heal"))
        .await;
    let menu = table.alice(press(button(&asked, "Yes"))).await;
    assert!(
        said(&menu).ends_with(
            "*Choose:* Heal (30 gold) · Cure poison (50 gold) · Bless (100 gold) · Donate · Done"
        ),
        "{}",
        said(&menu)
    );
    let select = &selects(&menu)[0];
    let options: Vec<(&str, Option<&str>)> = select
        .options
        .iter()
        .map(|option| (option.label.as_str(), option.description.as_deref()))
        .collect();
    assert_eq!(
        options,
        [
            ("Heal", Some("30 gold")),
            ("Cure poison", Some("50 gold")),
            ("Bless", Some("100 gold")),
            ("Donate", None),
            ("Done", None)
        ]
    );
    assert_eq!(buttons(&menu), ["Walk away"]);
    let healed = table.alice(choose(&menu, "Heal")).await;
    assert!(said(&healed).starts_with("> **Alice:** Heal\nAvra: Your wounds close.\n*Choose:*"));
    let poor = table.alice(choose(&healed, "Cure poison")).await;
    assert!(
        said(&poor).contains("*You cannot afford Cure poison.*"),
        "{}",
        said(&poor)
    );
    // Donating asks for an amount in a modal.
    let donate = table.alice(choose(&poor, "Donate")).await;
    assert!(said(&donate).ends_with("Avra: How much will you give?\n*How much?*"));
    let opened = table.alice(press(button(&donate, "Answer…"))).await;
    let given = table.alice(submit(&modal(&opened), "4")).await;
    assert!(
        said(&given).contains("Avra: Bless you for your gift."),
        "{}",
        said(&given)
    );
    let done = table.alice(choose(&given, "Done")).await;
    assert!(said(&done).ends_with("Avra: Go in peace."));
    assert_eq!(
        world(table.storage(), ALICE, udo, "avra", "c_avra").await,
        "gold=6 food=3 items=- party=- flags=- parms=1:1"
    );
}

#[tokio::test]
async fn trade_buys_and_sells_with_a_select_buttons_and_a_quantity_modal() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 120).await;
    let hail = table.alice(talk("hawknoz")).await;
    let shop = table
        .alice(reply_to(hail.prompt_message.unwrap(), "wares"))
        .await;
    assert!(
        said(&shop).ends_with(
            "*For sale:* iron helm 80 gold · short sword 40 gold · arrow 3 gold · light potion 10 gold\n\
             *Say buy ITEM [N], sell ITEM [N] or done.*\n\
             *Your gold:* 120 · *you can sell:* nothing this trader buys"
        ),
        "{}",
        said(&shop)
    );
    assert_eq!(buttons(&shop), ["Buy…", "Sell…", "Done", "Walk away"]);
    let items: Vec<String> = selects(&shop)[0]
        .options
        .iter()
        .map(|option| {
            format!(
                "{}: {}",
                option.label,
                option.description.clone().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            "iron helm: 80 gold; sells back for 20",
            "short sword: 40 gold; sells back for 10",
            "arrow: 3 gold",
            "light potion: 10 gold; sells back for 2"
        ]
    );
    // Buy without a pick: a hint.
    let hint = table.alice(press(button(&shop, "Buy…"))).await;
    assert_eq!(
        hint.interaction().content,
        "Pick an item from the list first."
    );
    // Picking an item answers nothing visible; Buy then opens the quantity modal.
    let picked = table.alice(choose(&shop, "arrow")).await;
    assert!(picked.replies.is_empty());
    let opened = table.alice(press(button(&shop, "Buy…"))).await;
    let form = modal(&opened);
    assert_eq!(form.title, "How many arrow to buy?");
    assert_eq!(form.inputs[0].label, "Quantity (3 gold each)");
    let not_a_number = table.alice(submit(&form, "lots")).await;
    assert_eq!(
        not_a_number.interaction().content,
        "Give the quantity as a whole number, like 3."
    );
    let bought = table.alice(submit(&form, "10")).await;
    assert_eq!(
        said(&bought),
        "> **Alice:** buy arrow 10\n*You buy 10 arrows for 30 gold.*\n\
         *Your gold:* 90 · *you can sell:* nothing this trader buys"
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=90 food=3 items=t_arrow:10 party=- flags=c_hawknoz:1 parms=-"
    );
    // The pick belonged to the answered prompt: pick again, then sell.
    let picked = table.alice(choose(&bought, "iron helm")).await;
    assert!(picked.replies.is_empty());
    let helm = table.alice(press(button(&bought, "Buy…"))).await;
    let bought = table.alice(submit(&modal(&helm), "")).await;
    assert!(said(&bought).ends_with(
        "*You buy 1 iron helm for 80 gold.*\n\
         *Your gold:* 10 · *you can sell:* 1 iron helm (20 gold each)"
    ));
    table.alice(choose(&bought, "iron helm")).await;
    let sell = table.alice(press(button(&bought, "Sell…"))).await;
    assert_eq!(modal(&sell).title, "How many iron helm to sell?");
    let sold = table.alice(submit(&modal(&sell), "5")).await;
    assert!(
        said(&sold).ends_with(
            "*You sell 1 iron helm for 20 gold.*\n\
             *Your gold:* 30 · *you can sell:* nothing this trader buys"
        ),
        "{}",
        said(&sold)
    );
    // Typed trade commands work as replies.
    let typed = table
        .alice(reply_to(sold.prompt_message.unwrap(), "sell arrow 4"))
        .await;
    assert!(
        said(&typed).ends_with(
            "*Hawknoz will not buy arrow: it sells for 3 gold, and Hawknoz pays a quarter of \
             that, rounded down: nothing.*\n\
             *Your gold:* 30 · *you can sell:* nothing this trader buys"
        ),
        "{}",
        said(&typed)
    );
    let gem = table
        .alice(reply_to(typed.prompt_message.unwrap(), "sell gem"))
        .await;
    assert!(
        said(&gem)
            .contains("*Hawknoz will not buy gem: Hawknoz buys back only what Hawknoz sells.*"),
        "{}",
        said(&gem)
    );
    // A purchase cut to what the gold pays for says so.
    let potions = table
        .alice(reply_to(gem.prompt_message.unwrap(), "buy light potion 5"))
        .await;
    assert!(
        said(&potions).contains(
            "*You buy 3 light potions for 30 gold.* *Your gold pays for 3 of the 5.*\n\
             *Your gold:* 0 · *you can sell:* 3 light potions (2 gold each)"
        ),
        "{}",
        said(&potions)
    );
    let done = table.alice(press(button(&potions, "Done"))).await;
    assert!(
        said(&done).ends_with("Hawknoz: Mind the edges."),
        "{}",
        said(&done)
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=0 food=3 items=t_arrow:10,t_light_potion:3 party=- flags=c_hawknoz:1 parms=-"
    );
}

#[tokio::test]
async fn foreign_and_stale_components_are_refused() {
    let mut table = Table::new().await;
    table.install("maud", "quest_giver.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 10).await;
    character(table.storage(), 2, BOB, "Rex", 10).await;
    let hail = table.alice(talk("maud")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "ring"))
        .await;
    let yes = button(&asked, "Yes");

    let foreign = table.as_user(BOB, press(yes.clone())).await;
    assert!(foreign.interaction().ephemeral);
    assert_eq!(
        foreign.interaction().content,
        "This is Alice's conversation; start your own with `/talk`."
    );
    // Bob's reply to Alice's NPC is table talk.
    let talk_over = table
        .as_user(BOB, reply_to(asked.prompt_message.unwrap(), "no"))
        .await;
    assert!(talk_over.replies.is_empty());

    let answered = table.alice(press(yes.clone())).await;
    assert!(said(&answered).contains("Bless you!"));
    // The same button again, and the earlier prompt's "Ask" button: stale.
    for old in [yes.clone(), button(&hail, "Ask Maud…")] {
        let stale = table.alice(press(old)).await;
        assert!(stale.interaction().ephemeral);
        assert_eq!(
            stale.interaction().content,
            "That question has been answered already."
        );
    }
    // A reply to an old message is no answer either.
    assert!(
        table
            .alice(reply_to(asked.prompt_message.unwrap(), "no"))
            .await
            .replies
            .is_empty()
    );
    // Walking away ends it; then every button of it has ended.
    let left = table.alice(press(button(&answered, "Bye"))).await;
    assert!(said(&left).contains("Maud: Mind the bees on your way out."));
    let ended = table.alice(press(button(&answered, "Ask Maud…"))).await;
    assert_eq!(
        ended.interaction().content,
        "This conversation has ended. `/talk` starts a new one."
    );
    // Forged ids are refused kindly too.
    for forged in ["tv1:ny:zzzzzz:0", "tv1:nx:1:0:q9", "tv1:nk:1:0:"] {
        let sent = table.alice(press(forged.to_owned())).await;
        assert!(sent.interaction().ephemeral, "{forged}");
    }
}

#[tokio::test]
async fn walking_away_and_idle_conversations_end_as_left() {
    let mut table = Table::new().await;
    table.install("avra", "healer.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 10).await;
    let hail = table.alice(talk("avra")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "help"))
        .await;
    let left = table.alice(press(button(&asked, "Walk away"))).await;
    let Reply::Edit {
        message,
        message_id,
        ..
    } = &left.replies[0]
    else {
        panic!("an edit expected: {:#?}", left.replies);
    };
    assert_eq!(Some(*message_id), asked.prompt_message);
    assert!(message.content.ends_with("*Alice walked away.*"));
    assert!(message.components.is_empty());
    assert!(
        table
            .storage()
            .npc_conversation_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );

    // Idle for 15 minutes: the sweep ends it.
    let hail = table.alice(talk("avra")).await;
    table.harness.clock.advance_ms(14 * 60_000);
    assert!(table.harness.core.sweep().await.unwrap().is_empty());
    table.harness.clock.advance_ms(60_000);
    let notices = table.harness.core.sweep().await.unwrap();
    assert_eq!(notices.len(), 1);
    let Reply::Edit {
        message,
        message_id,
        channel_id,
    } = &notices[0]
    else {
        panic!("an edit expected: {notices:#?}");
    };
    assert_eq!(
        (Some(*message_id), *channel_id),
        (hail.prompt_message, CHANNEL)
    );
    assert!(message.content.ends_with("*Alice walked away.*"));
    let late = table.alice(press(button(&hail, "Bye"))).await;
    assert!(
        late.interaction()
            .content
            .starts_with("This conversation has ended.")
    );

    // A new /talk walks away from the waiting conversation.
    let first = table.alice(talk("avra")).await;
    let second = table.alice(talk("avra")).await;
    assert!(second.replies.iter().any(|reply| matches!(
        reply,
        Reply::Edit { message_id, message, .. }
            if Some(*message_id) == first.prompt_message && message.content.ends_with("*Alice walked away.*")
    )));
}

#[tokio::test]
async fn a_turn_stopped_by_the_step_budget_changes_nothing() {
    let mut table = Table::new().await;
    table.install("spin", "runaway.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 5).await;
    let hail = table.alice(talk("spin")).await;
    // SAY text reaches chat as written, markdown-escaped (Discord shows the one
    // backslash); check_rules saw that nothing can ping.
    assert!(
        said(&hail)
            .ends_with(r#"Spin: Round and round. Ping @everyone and <@123>, "quoted" \\ slash."#)
    );
    let gift = table
        .alice(reply_to(hail.prompt_message.unwrap(), "gift"))
        .await;
    assert!(said(&gift).ends_with("*You receive 1 gem.*\nSpin: A gem for you."));
    let before = world(table.storage(), ALICE, udo, "spin", "c_spin").await;
    assert_eq!(
        before,
        "gold=5 food=3 items=t_gem:1 party=- flags=- parms=-"
    );
    let spun = table
        .alice(reply_to(gift.prompt_message.unwrap(), "spin"))
        .await;
    assert_eq!(
        said(&spun),
        "> **Alice:** spin\n*Spin stopped: the script ran more than 10000 statements without \
         waiting for the player. Nothing of this turn was kept.*"
    );
    assert!(buttons(&spun).is_empty());
    assert_eq!(
        world(table.storage(), ALICE, udo, "spin", "c_spin").await,
        before
    );
    assert!(
        table
            .storage()
            .npc_conversation_of(ALICE, GUILD)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn a_restarted_core_resumes_the_waiting_conversation() {
    let dir = TempDir::new("npc-restart");
    let path = dir.path("tavern.db");
    let storage = crate::support::sqlite_storage_at(&path).await;
    let mut table = Table::on(storage.clone(), settings(), 1);
    table.install("hawknoz", "shopkeeper.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 100).await;
    let hail = table.alice(talk("hawknoz")).await;
    let shop = table
        .alice(reply_to(hail.prompt_message.unwrap(), "trade"))
        .await;
    table.alice(choose(&shop, "short sword")).await;
    storage.close().await;
    drop(table);

    let storage = crate::support::sqlite_storage_at(&path).await;
    let mut table = Table::on(storage.clone(), settings(), 2);
    let opened = table.alice(press(button(&shop, "Buy…"))).await;
    assert_eq!(modal(&opened).title, "How many short sword to buy?");
    let bought = table.alice(submit(&modal(&opened), "2")).await;
    assert!(said(&bought).contains("*You buy 2 short swords for 80 gold.*\n*Your gold:* "));
    let typed = table
        .alice(reply_to(bought.prompt_message.unwrap(), "done"))
        .await;
    assert!(said(&typed).ends_with("Hawknoz: Mind the edges."));
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=20 food=3 items=t_short_sword:2 party=- flags=c_hawknoz:1 parms=-"
    );
    storage.close().await;
}

#[tokio::test]
async fn activity_conversations_autocomplete_and_acks() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    table.install("hawk2", "healer.ghul").await;
    character(table.storage(), 1, ALICE, "Udo", 100).await;
    table
        .member(
            ALICE,
            Permissions::MANAGE_GUILD,
            &[],
            command(
                "npc",
                &["activity"],
                &[("name", text("hawknoz")), ("code", OptionValue::Integer(1))],
            ),
        )
        .await;
    let closed = table.alice(talk("hawknoz")).await;
    assert_eq!(
        said(&closed),
        "*Alice talks to Hawknoz.*\nHawknoz: The forge is cold for the night. Come back in the morning.\n\
         *The conversation is over.*"
    );
    assert!(buttons(&closed).is_empty());
    // A second CONV of the script, by name.
    let townsfolk = table
        .alice(command(
            "talk",
            &[],
            &[("npc", text("hawknoz")), ("conv", text("c_townsfolk"))],
        ))
        .await;
    assert_eq!(said(&townsfolk), "*Alice talks to Hawknoz.*");
    let unknown = table
        .alice(command(
            "talk",
            &[],
            &[("npc", text("hawknoz")), ("conv", text("c_x"))],
        ))
        .await;
    assert_eq!(
        unknown.interaction().content,
        "Hawknoz has no conversation `c_x`; there are: `c_hawknoz`, `c_townsfolk`."
    );

    let complete = |options: &[(&str, OptionValue)], focused: &str| {
        let RequestKind::Command(command) = command("talk", &[], options) else {
            unreachable!()
        };
        RequestKind::Autocomplete {
            command,
            focused: focused.to_owned(),
        }
    };
    for (options, focused, expected) in [
        (vec![("npc", text("HAW"))], "npc", vec!["hawk2", "hawknoz"]),
        (vec![("npc", text("hawkn"))], "npc", vec!["hawknoz"]),
        (
            vec![("npc", text("hawknoz")), ("conv", text(""))],
            "conv",
            vec!["c_hawknoz", "c_townsfolk"],
        ),
        (
            vec![("npc", text("hawknoz")), ("conv", text("c_t"))],
            "conv",
            vec!["c_townsfolk"],
        ),
    ] {
        let sent = table.alice(complete(&options, focused)).await;
        let Reply::Choices(choices) = &sent.replies[0] else {
            panic!("choices expected");
        };
        let names: Vec<&str> = choices.iter().map(|choice| choice.name.as_str()).collect();
        assert_eq!(names, expected, "{options:?}");
    }

    let core = &table.harness.core;
    let request = |kind: RequestKind| table.harness.request(ALICE, Some(GUILD), kind);
    let id = |code: &str| format!("tv1:{code}:1:0");
    for (kind, expected) in [
        (talk("hawknoz"), Ack::Defer { ephemeral: true }),
        (press(id("na")), Ack::Immediate),
        (press(id("nq")), Ack::Immediate),
        (press(id("nu")), Ack::Immediate),
        (press(id("ns")), Ack::Immediate),
        (press(id("ny")), Ack::DeferUpdate),
        (press(id("nl")), Ack::DeferUpdate),
        (press(format!("{}:weather", id("nk"))), Ack::DeferUpdate),
        (
            RequestKind::Select {
                custom_id: id("nm"),
                message_id: 1,
                values: vec!["0".to_owned()],
            },
            Ack::DeferUpdate,
        ),
        (
            RequestKind::Modal {
                custom_id: id("nam"),
                fields: vec![],
            },
            Ack::DeferUpdate,
        ),
    ] {
        assert_eq!(core.ack(&request(kind.clone())), expected, "{kind:?}");
    }
}

on_both_backends!(conversation_state_on_both_backends);
async fn conversation_state_on_both_backends(storage: Storage) {
    let mut table = Table::on(storage, settings(), 5);
    table.install("maud", "quest_giver.ghul").await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    let udo = character(table.storage(), 1, ALICE, "Udo", 100).await;
    let hail = table.alice(talk("maud")).await;
    let asked = table
        .alice(reply_to(hail.prompt_message.unwrap(), "ring"))
        .await;
    table.alice(press(button(&asked, "Yes"))).await;
    let shop = table.alice(talk("hawknoz")).await;
    let shop = table
        .alice(reply_to(shop.prompt_message.unwrap(), "buy"))
        .await;
    table.alice(choose(&shop, "arrow")).await;
    let opened = table.alice(press(button(&shop, "Buy…"))).await;
    let bought = table.alice(submit(&modal(&opened), "7")).await;
    assert!(
        said(&bought).contains("*You buy 7 arrows for 21 gold.*\n*Your gold:* 79"),
        "{}",
        said(&bought)
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "maud", "c_maud").await,
        "gold=79 food=3 items=t_arrow:7 party=- flags=c_maud:1 parms=-"
    );
    assert_eq!(
        world(table.storage(), ALICE, udo, "hawknoz", "c_hawknoz").await,
        "gold=79 food=3 items=t_arrow:7 party=- flags=c_hawknoz:1 parms=-"
    );
    let keywords = table
        .storage()
        .npc_conversation_of(ALICE, GUILD)
        .await
        .unwrap();
    assert!(keywords.is_some());
}

fn console_on(storage: &Storage) -> tavern::console::Console {
    let core = Core::new(
        storage.clone(),
        crate::doubles::engines(),
        settings(),
        Arc::new(tavern::core::limits::ManualClock::new(START_MS)),
        Some(3),
    )
    .with_fetch(Arc::new(tavern::fetch::FileFetch));
    let identity = tavern::console::ConsoleIdentity {
        user: tavern::core::User {
            id: 1,
            name: "tester".to_owned(),
        },
        guild_id: 1,
        channel_id: 1,
    };
    tavern::console::Console::new(Arc::new(core), identity)
}

async fn type_line(console: &mut tavern::console::Console, line: &str) -> String {
    match console.line(line).await {
        tavern::console::LineOutcome::Output(text) => text,
        tavern::console::LineOutcome::Quit => "<quit>".to_owned(),
    }
}

#[tokio::test]
async fn the_console_talks_with_plain_lines_and_resumes_after_a_restart() {
    let dir = TempDir::new("npc-console");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../npc-core/scripts/shopkeeper.ghul");
    let installed = type_line(
        &mut console,
        &format!("/npc install hawknoz file:{}", script.display()),
    )
    .await;
    assert!(
        installed.starts_with("(only you) Installed **Hawknoz**"),
        "{installed}"
    );
    let missing = type_line(&mut console, "/npc install x file:/nonexistent/x.ghul").await;
    assert!(
        missing.starts_with("(only you) I could not read the script"),
        "{missing}"
    );
    let nobody = type_line(&mut console, "/talk hawknoz").await;
    assert!(nobody.contains("you need a character here"), "{nobody}");
    for line in ["/chargen", "Udo", "1", "M"] {
        type_line(&mut console, line).await;
    }

    let hail = type_line(&mut console, "/talk Hawknoz").await;
    assert_eq!(
        hail,
        "(only you) You talk to Hawknoz as **Udo**. Answer with the buttons under Hawknoz's \
         message, or reply to it.\n*tester talks to Hawknoz.*\n\
         Hawknoz: Welcome to my forge, stranger.\n[buttons: Ask Hawknoz… | Bye] (/press LABEL)\n"
    );
    let name = type_line(&mut console, "name").await;
    assert_eq!(
        name,
        "> **tester:** name\nHawknoz: Hawknoz, smith of Glasdrin.\n\
         [buttons: Ask Hawknoz… | Bye | name] (/press LABEL)\n"
    );
    assert_eq!(type_line(&mut console, "").await, "");
    let shop = type_line(&mut console, "trade").await;
    assert!(shop.contains("*For sale:* iron helm 80 gold"), "{shop}");
    assert!(
        shop.ends_with("[buttons: Buy… | Sell… | Done | Walk away] (/press LABEL)\n"),
        "{shop}"
    );
    let bought = type_line(&mut console, "buy arrow 2").await;
    assert!(
        bought.contains("*You buy 2 arrows for 6 gold.*"),
        "{bought}"
    );
    drop(console);
    storage.close().await;

    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    let greeting = console.greeting().await.unwrap();
    assert!(
        greeting.starts_with(
            "Your conversation with `hawknoz` is waiting for an answer:\n> **tester:** buy arrow 2"
        ),
        "{greeting}"
    );
    let done = type_line(&mut console, "done").await;
    assert!(done.contains("Hawknoz: Mind the edges."), "{done}");
    let asked = type_line(&mut console, "/press name").await;
    assert!(
        asked.contains("Hawknoz: Hawknoz, smith of Glasdrin."),
        "{asked}"
    );
    let form = type_line(&mut console, "/press Ask Hawknoz…").await;
    assert!(
        form.starts_with("[form: Talking to Hawknoz] Ask about…"),
        "{form}"
    );
    let weather = type_line(&mut console, "weather").await;
    assert!(
        weather.contains("Hawknoz: Cold. Good weather for a forge."),
        "{weather}"
    );
    let bye = type_line(&mut console, "bye").await;
    assert!(
        bye.contains("Hawknoz: Farewell.\n*The conversation is over.*"),
        "{bye}"
    );
    let sheet = type_line(&mut console, "/character show Udo").await;
    assert!(
        sheet.contains("Gold 114 · Food 0\nInventory: 2 arrow\nParty: none"),
        "{sheet}"
    );
    storage.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_talks_and_double_presses_apply_once() {
    let mut table = Table::new().await;
    table.install("hawknoz", "shopkeeper.ghul").await;
    let players: Vec<i64> = (100..108).collect();
    for (index, player) in players.iter().enumerate() {
        character(table.storage(), 1000 + index as i64, *player, "Hero", 100).await;
    }
    let mut talks = tokio::task::JoinSet::new();
    for player in &players {
        let core = table.harness.core.clone();
        let request = table.harness.request(*player, Some(GUILD), talk("hawknoz"));
        talks.spawn(async move { core.handle(&request).await });
    }
    let mut gifts = Vec::new();
    while let Some(replies) = talks.join_next().await {
        let replies = replies.unwrap();
        let greeted = replies.iter().any(|reply| {
            matches!(reply, Reply::Channel { message, .. } if message.content.contains("Welcome to my forge"))
        });
        assert!(greeted, "{replies:#?}");
        gifts.push(replies);
    }
    assert_eq!(gifts.len(), players.len());

    // Alice opens the shop, picks arrows, and submits the same quantity form twice at once.
    character(table.storage(), 1, ALICE, "Udo", 100).await;
    let hail = table.alice(talk("hawknoz")).await;
    let shop = table
        .alice(reply_to(hail.prompt_message.unwrap(), "wares"))
        .await;
    table.alice(choose(&shop, "arrow")).await;
    let form = modal(&table.alice(press(button(&shop, "Buy…"))).await);
    let mut submits = tokio::task::JoinSet::new();
    for _ in 0..2 {
        let core = table.harness.core.clone();
        let request = table
            .harness
            .request(ALICE, Some(GUILD), submit(&form, "5"));
        submits.spawn(async move { core.handle(&request).await });
    }
    let mut bought = 0;
    while let Some(replies) = submits.join_next().await {
        for reply in replies.unwrap() {
            match reply {
                Reply::Channel { message, .. } if message.content.contains("You buy 5 arrows") => {
                    bought += 1
                }
                Reply::Interaction(message) => {
                    assert_eq!(message.content, "That question has been answered already.")
                }
                _ => {}
            }
        }
    }
    assert_eq!(bought, 1);
    assert_eq!(
        world(table.storage(), ALICE, 1, "hawknoz", "c_hawknoz").await,
        "gold=85 food=3 items=t_arrow:5 party=- flags=c_hawknoz:1 parms=-"
    );
}

#[test]
fn component_ids_round_trip_and_stay_within_discord_limits() {
    use tavern::core::npc::{NpcAction, NpcId};
    let actions = [
        NpcAction::Ask,
        NpcAction::AskModal,
        NpcAction::Keyword("ÉPÉE".to_owned()),
        NpcAction::Bye,
        NpcAction::Yes,
        NpcAction::No,
        NpcAction::Amount,
        NpcAction::AmountModal,
        NpcAction::Menu,
        NpcAction::TradeSelect(3),
        NpcAction::Buy,
        NpcAction::Sell,
        NpcAction::Quantity {
            sell: true,
            item: 99,
        },
        NpcAction::Quantity {
            sell: false,
            item: 0,
        },
        NpcAction::Done,
        NpcAction::Leave,
    ];
    for action in actions {
        let id = NpcId::new(i64::MAX, 1_000_000, action);
        let encoded = id.encode().expect("fits");
        assert!(encoded.chars().count() <= 100, "{encoded}");
        assert_eq!(NpcId::decode(&encoded), Some(id));
    }
    // A keyword too long for a custom id gets no button.
    let long = NpcId::new(1, 1, NpcAction::Keyword("k".repeat(100)));
    assert_eq!(long.encode(), None);
    for garbage in [
        "",
        "tv1:",
        "tv1:n",
        "tv1:ny",
        "tv1:ny:1",
        "tv1:ny:1:2:3",
        "tv1:nx:1:2:",
        "tv1:nx:1:2:b",
        "tv1:nx:1:2:é1",
        "tv1:nt:1:2:x",
        "tv1:nk:1:2",
        "tv1:zz:1:2",
        "tv1:ny:-:2",
        "tv1:ny:1:zzzzzzzzzzzzzzzz",
    ] {
        assert_eq!(NpcId::decode(garbage), None, "{garbage:?}");
    }
}

#[tokio::test]
async fn the_console_chooses_from_menus_and_keeps_an_npcs_buttons_while_a_generator_waits() {
    let dir = TempDir::new("npc-console-menus");
    let storage = crate::support::sqlite_storage(&dir).await;
    let mut console = console_on(&storage);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../npc-core/scripts/shopkeeper.ghul");
    type_line(
        &mut console,
        &format!("/npc install hawknoz file:{}", script.display()),
    )
    .await;
    for line in ["/chargen", "Udo", "1", "M"] {
        type_line(&mut console, line).await;
    }
    type_line(&mut console, "/talk Hawknoz").await;
    let shop = type_line(&mut console, "trade").await;
    assert!(
        shop.contains("[menu: Pick an item, then Buy or Sell]\n  1. iron helm"),
        "{shop}"
    );
    assert!(shop.contains("\n  2. short sword ("), "{shop}");
    assert_eq!(
        type_line(&mut console, "/choose 9").await,
        "No option \"9\"; choose a number from 1 to 4.\n"
    );
    type_line(&mut console, "/choose short sword").await;
    let form = type_line(&mut console, "/press Buy…").await;
    assert!(
        form.starts_with("[form: How many short sword to buy?]"),
        "{form}"
    );
    let bought = type_line(&mut console, "1").await;
    assert!(
        bought.contains("*You buy 1 short sword for 40 gold.*"),
        "{bought}"
    );

    // A generator's question does not hide the NPC's buttons.
    let started = type_line(&mut console, "/chargen start").await;
    assert!(started.contains("[buttons: Answer]"), "{started}");
    let left = type_line(&mut console, "/press Walk away").await;
    assert!(left.ends_with("*tester walked away.*\n"), "{left}");
    drop(console);
    storage.close().await;
}
