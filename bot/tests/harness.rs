//! A core on a fresh database with a hand-moved clock, plus Discord's rules checked on
//! every reply.

use std::sync::Arc;

use tavern::core::custom_id::MAX_LEN;
use tavern::core::limits::ManualClock;
use tavern::core::{
    AllowedMentions, Command, CommandOption, Component, Core, CoreSettings, Member, OptionValue,
    Permissions, Reply, Request, RequestKind, User,
};
use tavern::storage::Storage;

use crate::support::TempDir;

pub const GUILD: i64 = 500;
pub const CHANNEL: i64 = 600;
pub const ALICE: i64 = 11;
pub const BOB: i64 = 12;
/// 2026-01-01T00:00:00Z.
pub const START_MS: i64 = 1_767_225_600_000;

pub struct Harness {
    pub core: Arc<Core>,
    pub clock: Arc<ManualClock>,
    pub storage: Storage,
    next_message_id: i64,
    _dir: Option<TempDir>,
}

impl Harness {
    pub async fn new() -> Harness {
        Harness::with_settings(CoreSettings::default()).await
    }

    pub async fn with_settings(settings: CoreSettings) -> Harness {
        let dir = TempDir::new("core");
        let storage = crate::support::sqlite_storage(&dir).await;
        let mut harness = Harness::on(storage, settings, 7);
        harness._dir = Some(dir);
        harness
    }

    /// A core on an existing database, as a restarted process would have.
    pub fn on(storage: Storage, settings: CoreSettings, seed: u64) -> Harness {
        let clock = Arc::new(ManualClock::new(START_MS));
        let core = Arc::new(Core::new(
            storage.clone(),
            crate::doubles::engines(),
            settings,
            clock.clone(),
            Some(seed),
        ));
        Harness {
            core,
            clock,
            storage,
            next_message_id: 9_000,
            _dir: None,
        }
    }

    pub fn request(&self, user: i64, guild: Option<i64>, kind: RequestKind) -> Request {
        Request {
            user: User {
                id: user,
                name: if user == ALICE { "Alice" } else { "Bob" }.to_owned(),
            },
            guild_id: guild,
            channel_id: if guild.is_some() { CHANNEL } else { 700 + user },
            member: guild.map(|_| Member {
                permissions: Permissions(0),
                roles: vec![],
            }),
            // Like a Discord client and server set to US English.
            locale: Some("en-US".to_owned()),
            guild_locale: guild.map(|_| "en-US".to_owned()),
            kind,
        }
    }

    /// Sends a request as Alice in the guild.
    pub async fn alice(&mut self, kind: RequestKind) -> Sent {
        let request = self.request(ALICE, Some(GUILD), kind);
        self.send(&request).await
    }

    /// Handles a request like a transport: checks Discord's rules, "sends" the
    /// messages (ids for tracked ones are reported back).
    pub async fn send(&mut self, request: &Request) -> Sent {
        let replies = self.core.handle(request).await;
        check_rules(&replies);
        self.deliver(replies).await
    }

    /// "Sends" replies the core gave: ids for tracked messages are reported back.
    pub async fn deliver(&mut self, mut replies: Vec<Reply>) -> Sent {
        let mut prompt_message = None;
        // The id of the request's tracked answer, which a later message may link.
        let mut answer_id = None;
        for reply in &mut replies {
            let message = match reply {
                Reply::Interaction(message) => {
                    if message.track.is_some() {
                        answer_id = Some(self.next_message_id + 1);
                    }
                    message
                }
                Reply::Channel { message, .. } => {
                    if let Some(answer_id) = answer_id {
                        message.link_answer(answer_id);
                    }
                    message
                }
                _ => continue,
            };
            self.next_message_id += 1;
            if let Some(track) = message.track {
                self.core
                    .message_sent(track, self.next_message_id)
                    .await
                    .unwrap();
                prompt_message = Some(self.next_message_id);
            }
        }
        Sent {
            replies,
            prompt_message,
            answer_message: answer_id,
        }
    }
}

/// The core's only engine worker, held by the test until it lets go: requests queued
/// meanwhile have read what they need and wait for the engine, so that two of them
/// race for one step deterministically (no sleeping).
pub struct Hold {
    core: Arc<Core>,
    release: std::sync::mpsc::Sender<()>,
    holder: tokio::task::JoinHandle<()>,
}

impl Hold {
    pub async fn start(core: &Arc<Core>) -> Hold {
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let (started, running) = tokio::sync::oneshot::channel();
        let workers = core.workers().clone();
        let holder = tokio::spawn(async move {
            let held = workers
                .run("hold", move || {
                    let _ = started.send(());
                    let _ = hold.recv();
                })
                .await;
            held.unwrap();
        });
        running.await.unwrap();
        Hold {
            core: core.clone(),
            release,
            holder,
        }
    }

    /// Sends `request` in a task of its own and returns once its engine job waits
    /// for the held worker.
    pub async fn queue(&self, request: Request) -> tokio::task::JoinHandle<Vec<Reply>> {
        let waiting = self.core.workers().waiting();
        let core = self.core.clone();
        let turn = tokio::spawn(async move { core.handle(&request).await });
        while self.core.workers().waiting() == waiting {
            assert!(
                !turn.is_finished(),
                "the request ended without waiting for a worker"
            );
            tokio::task::yield_now().await;
        }
        turn
    }

    pub async fn let_go(self) {
        self.release.send(()).unwrap();
        self.holder.await.unwrap();
    }
}

/// What one request produced.
pub struct Sent {
    pub replies: Vec<Reply>,
    /// The id the prompt message got, if one was sent.
    pub prompt_message: Option<i64>,
    /// The id of the tracked interaction answer, which later messages link.
    pub answer_message: Option<i64>,
}

impl Sent {
    /// Every message's content, in order (edits included).
    pub fn texts(&self) -> Vec<String> {
        self.replies
            .iter()
            .filter_map(|reply| match reply {
                Reply::Interaction(message)
                | Reply::Update(message)
                | Reply::Channel { message, .. }
                | Reply::Edit { message, .. } => Some(message.content.clone()),
                _ => None,
            })
            .collect()
    }

    pub fn all_text(&self) -> String {
        self.texts().join("\n")
    }

    /// The one interaction answer, which must be there.
    pub fn interaction(&self) -> &tavern::core::Message {
        self.replies
            .iter()
            .find_map(|reply| match reply {
                Reply::Interaction(message) => Some(message),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no interaction answer in {:#?}", self.replies))
    }

    pub fn channel_messages(&self) -> Vec<&tavern::core::Message> {
        self.replies
            .iter()
            .filter_map(|reply| match reply {
                Reply::Channel { message, .. } => Some(message),
                _ => None,
            })
            .collect()
    }

    /// Custom ids of the buttons, by label.
    pub fn button(&self, label: &str) -> Option<String> {
        self.replies.iter().find_map(|reply| {
            let message = match reply {
                Reply::Interaction(message) | Reply::Channel { message, .. } => message,
                _ => return None,
            };
            message
                .components
                .iter()
                .flat_map(|row| row.0.iter())
                .find_map(|component| match component {
                    Component::Button(button) if button.label == label => {
                        Some(button.custom_id.clone())
                    }
                    _ => None,
                })
        })
    }
}

pub fn command(name: &str, sub: &[&str], options: &[(&str, OptionValue)]) -> RequestKind {
    RequestKind::Command(Command {
        name: name.to_owned(),
        subcommand: sub.iter().map(|sub| (*sub).to_owned()).collect(),
        options: options
            .iter()
            .map(|(name, value)| CommandOption {
                name: (*name).to_owned(),
                value: value.clone(),
            })
            .collect(),
    })
}

pub fn text(value: &str) -> OptionValue {
    OptionValue::String(value.to_owned())
}

/// What the real Discord would refuse, or what would break our promises.
pub fn check_rules(replies: &[Reply]) {
    // No message of this test process lacked a variable (it would show `{$name}`).
    assert_eq!(
        tavern::i18n::format_errors(),
        0,
        "a message was formatted without a variable it uses (the log names it)"
    );
    for reply in replies {
        match reply {
            Reply::Interaction(message)
            | Reply::Update(message)
            | Reply::Channel { message, .. }
            | Reply::Edit { message, .. } => {
                let chars = message.content.chars().count();
                assert!(chars <= 2000, "content of {chars} characters");
                assert!(
                    !message.content.is_empty() || !message.attachments.is_empty(),
                    "an empty message"
                );
                assert_eq!(message.allowed_mentions, AllowedMentions::None);
                assert_eq!(
                    message.content.matches("```").count() % 2,
                    0,
                    "an unbalanced code block: {}",
                    message.content
                );
                if !matches!(reply, Reply::Interaction(_) | Reply::Update(_)) {
                    assert!(
                        !message.ephemeral,
                        "only interaction answers can be ephemeral"
                    );
                }
                assert!(message.components.len() <= 5);
                for row in &message.components {
                    assert!(!row.0.is_empty() && row.0.len() <= 5);
                    for component in &row.0 {
                        match component {
                            Component::Button(button) => {
                                assert!((1..=MAX_LEN).contains(&button.custom_id.chars().count()));
                                assert!(
                                    (1..=80).contains(&button.label.chars().count()),
                                    "{}",
                                    button.label
                                );
                            }
                            Component::Select(select) => check_select(select, row.0.len()),
                        }
                    }
                }
                assert!(message.attachments.len() <= 10);
                for file in &message.attachments {
                    assert!(!file.filename.is_empty());
                    let description = file.description.as_deref().unwrap_or("");
                    assert!(description.chars().count() <= 1024, "{description}");
                }
            }
            Reply::Modal(modal) => {
                assert!((1..=MAX_LEN).contains(&modal.custom_id.chars().count()));
                assert!(
                    (1..=45).contains(&modal.title.chars().count()),
                    "{}",
                    modal.title
                );
                assert!((1..=5).contains(&modal.inputs.len()));
                for input in &modal.inputs {
                    assert!((1..=MAX_LEN).contains(&input.custom_id.chars().count()));
                    assert!(
                        (1..=45).contains(&input.label.chars().count()),
                        "{}",
                        input.label
                    );
                    if let Some(placeholder) = &input.placeholder {
                        assert!(placeholder.chars().count() <= 100, "{placeholder}");
                    }
                    assert!((1..=4000).contains(&input.max_length));
                }
            }
            Reply::Choices(choices) => {
                assert!(choices.len() <= 25);
                for choice in choices {
                    assert!(
                        (1..=100).contains(&choice.name.chars().count()),
                        "{}",
                        choice.name
                    );
                    assert!(
                        (1..=100).contains(&choice.value.chars().count()),
                        "{}",
                        choice.value
                    );
                }
            }
        }
    }
}

/// A select menu as Discord takes it: alone in its row, 1 to 25 options with labels
/// and values of 1 to 100 characters, a placeholder of at most 150.
fn check_select(select: &tavern::core::Select, row_len: usize) {
    assert_eq!(row_len, 1, "a select shares its row");
    assert!((1..=MAX_LEN).contains(&select.custom_id.chars().count()));
    assert!(
        select.placeholder.chars().count() <= 150,
        "{}",
        select.placeholder
    );
    assert!((1..=25).contains(&select.options.len()));
    for option in &select.options {
        assert!(
            (1..=100).contains(&option.label.chars().count()),
            "{}",
            option.label
        );
        assert!((1..=100).contains(&option.value.chars().count()));
        let description = option.description.as_deref().unwrap_or("");
        assert!(description.chars().count() <= 100, "{description}");
    }
    let count = select.options.len();
    assert!(
        select.min_values <= select.max_values
            && (1..=count).contains(&usize::from(select.max_values))
    );
}
