//! The console: Tavern in a terminal, over the same core as Discord.
//!
//! Slash commands are typed as text (`/roll 4d6kh3 label:stats`, `/chargen`,
//! `/character show Udo`): options are `name:value`, and a bare value at the start
//! fills the command's first option. Commands, options and choices are named in
//! English or in the console's language (`/würfeln 4d6kh3 zweck:Attribute`), as
//! Discord shows them to a user of that language. A line that does not start with `/` answers
//! the pending question (a generator's prompt, or a form opened by a button).
//! Buttons are listed under their message; `/press LABEL` presses one (the newest
//! button of that label among the last messages shown, so an NPC's buttons stay
//! pressable while a generator waits; an older button of the same label is no longer
//! pressable, so pressing twice never reaches an older question). A select menu lists its options; `/choose N`
//! (or the option's label) picks one. Attachments are written to files it names.
//! With a terminal, lines are edited with history; otherwise stdin is read one line
//! at a time and every reply is printed, so sessions can be scripted.

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use crate::core::commands::{CommandSpec, OptionKind, OptionSpec};
use crate::core::{
    ActionRow, Command, CommandOption, Component, Core, Member, Message, Modal, OptionValue,
    Permissions, Reply, Request, RequestKind, User,
};
use crate::i18n::{self, Lang};

/// Who the console user is: one local user, admin of one server.
#[derive(Debug, Clone)]
pub struct ConsoleIdentity {
    pub user: User,
    pub guild_id: i64,
    pub channel_id: i64,
    /// The language the user and the local server speak (`--lang`, else `LANG`).
    pub lang: Lang,
}

impl Default for ConsoleIdentity {
    fn default() -> Self {
        ConsoleIdentity::named(std::env::var("USER").ok())
    }
}

impl ConsoleIdentity {
    /// The local user under the login name, if there is one. Texts speak of the user
    /// in the third person ("… rolls again", "… talks to Hawknoz"), so the stand-in
    /// for a missing name is a noun, never "you".
    pub fn named(login: Option<String>) -> ConsoleIdentity {
        let name = login
            .map(|name| name.trim().to_owned())
            .filter(|name| !name.is_empty() && !name.eq_ignore_ascii_case("you"))
            .unwrap_or_else(|| "Player".to_owned());
        ConsoleIdentity {
            user: User { id: 1, name },
            guild_id: 1,
            channel_id: 1,
            lang: Lang::En,
        }
    }

    /// The same identity speaking `lang`.
    pub fn with_lang(mut self, lang: Lang) -> ConsoleIdentity {
        self.lang = lang;
        self
    }
}

/// The longest line the console takes, in bytes: more than any option Discord
/// allows (6,000 characters in all); the reader stops holding a line past it.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What a line did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineOutcome {
    /// Text to print (may be empty).
    Output(String),
    /// The user asked to leave.
    Quit,
}

/// One console conversation: the core plus what is on screen (buttons, a pending
/// prompt or form).
pub struct Console {
    core: Arc<Core>,
    identity: ConsoleIdentity,
    specs: Vec<CommandSpec>,
    /// Ids for the messages the console "sends"; time-based so that ids stored by an
    /// earlier run never collide.
    next_message_id: i64,
    /// The message carrying the pending generator prompt.
    pending_prompt: Option<i64>,
    /// A form opened by a button, filled by the next plain line.
    pending_modal: Option<Modal>,
    /// Buttons of the last messages that had any, newest first: (label, custom id,
    /// message id).
    buttons: Vec<(String, String, i64)>,
    /// The newest select menu shown: its custom id, message id and (label, value)
    /// options.
    menu: Option<Menu>,
    /// The message whose button or menu was used last: its new state replaces it.
    acted_on: Option<i64>,
    /// Where attachments are written: one bounded folder, removed with the console.
    files: crate::scratch::Scratch,
}

/// A select menu as the console shows it.
#[derive(Debug, Clone)]
struct Menu {
    custom_id: String,
    message_id: i64,
    options: Vec<(String, String)>,
    max_values: usize,
}

/// How many messages' buttons stay pressable.
const BUTTON_MESSAGES: usize = 8;

impl Console {
    pub fn new(core: Arc<Core>, identity: ConsoleIdentity) -> Console {
        let specs = core.command_specs();
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let next_message_id = i64::try_from(since_epoch.as_millis())
            .unwrap_or(1)
            .saturating_mul(1000);
        Console {
            core,
            identity,
            specs,
            next_message_id,
            pending_prompt: None,
            pending_modal: None,
            buttons: Vec::new(),
            menu: None,
            acted_on: None,
            files: crate::scratch::Scratch::in_temp_dir(),
        }
    }

    /// The folder the console writes attachments to.
    pub fn files_dir(&self) -> &std::path::Path {
        self.files.dir()
    }

    /// What to show when the console opens: a generator or NPC conversation left
    /// waiting by an earlier run is resumed where it stopped (plain lines answer the
    /// generator when both wait).
    pub async fn greeting(&mut self) -> anyhow::Result<String> {
        let mut text = String::new();
        if let Some(talk) = self
            .core
            .storage()
            .npc_conversation_of(self.identity.user.id, self.identity.guild_id)
            .await?
            && let Some(message_id) = talk.message_id
        {
            self.pending_prompt = Some(message_id);
            let waiting = i18n::tr_args(
                self.identity.lang,
                "transport-console-waiting-npc",
                &[("npc", talk.npc.as_str().into())],
            );
            text.push_str(&format!("{waiting}\n{}\n", talk.content));
            // The buttons were the last run's; they are pressable again.
            let components = self
                .core
                .npc_prompt_components(&talk, self.identity.lang)
                .await?;
            self.show_components(&components, message_id, &mut text);
        }
        let Some(session) = self
            .core
            .storage()
            .session_of(self.identity.user.id, self.identity.guild_id)
            .await?
        else {
            return Ok(text);
        };
        self.pending_prompt = session.prompt_message_id;
        let waiting = i18n::tr_args(
            self.identity.lang,
            "transport-console-waiting-chargen",
            &[("program", session.program.as_str().into())],
        );
        text.push_str(&format!(
            "{waiting}\n{}\n",
            strip_fences(&crate::core::text::code_block(&session.prompt_content))
        ));
        let components = self
            .core
            .chargen_prompt_components(&session, self.identity.lang);
        let message_id = match session.prompt_message_id {
            Some(message_id) => message_id,
            None => self.new_message_id(),
        };
        self.show_components(&components, message_id, &mut text);
        Ok(text)
    }

    /// Handles one typed line.
    pub async fn line(&mut self, line: &str) -> LineOutcome {
        let line = line.trim_end_matches(['\r', '\n']);
        if line.len() > MAX_LINE_BYTES {
            let skipped = i18n::tr_args(
                self.identity.lang,
                "transport-console-line-too-long",
                &[("kib", (MAX_LINE_BYTES / 1024).into())],
            );
            return LineOutcome::Output(format!("{skipped}\n"));
        }
        let mut out = String::new();
        match self.core.sweep().await {
            Ok(notices) => out.push_str(&self.render(notices).await),
            Err(error) => tracing::warn!(error = %format!("{error:#}"), "sweep failed"),
        }
        let trimmed = line.trim();
        let kind = if let Some(command_line) = trimmed.strip_prefix('/') {
            match self.parse_command(command_line) {
                Parsed::Quit => return LineOutcome::Quit,
                Parsed::Text(text) => {
                    out.push_str(&text);
                    return LineOutcome::Output(out);
                }
                Parsed::Request(kind) => kind,
            }
        } else {
            match self.answer(line).await {
                Some(kind) => kind,
                None if trimmed.is_empty() => return LineOutcome::Output(out),
                None => {
                    out.push_str(&i18n::tr(
                        self.identity.lang,
                        "transport-console-nothing-waiting",
                    ));
                    out.push('\n');
                    return LineOutcome::Output(out);
                }
            }
        };
        let is_reply = matches!(kind, RequestKind::MessageReply { .. });
        let request = self.request(kind);
        let replies = self.core.handle(&request).await;
        // An NPC ignores an empty reply; its question still waits.
        if is_reply && replies.is_empty() && !trimmed.is_empty() {
            // The question replied to is gone (answered elsewhere, ended).
            self.pending_prompt = None;
            out.push_str(&i18n::tr(
                self.identity.lang,
                "transport-console-nothing-waiting-chargen",
            ));
            out.push('\n');
        }
        out.push_str(&self.render(replies).await);
        LineOutcome::Output(out)
    }

    fn request(&self, kind: RequestKind) -> Request {
        Request {
            user: self.identity.user.clone(),
            guild_id: Some(self.identity.guild_id),
            channel_id: self.identity.channel_id,
            member: Some(Member {
                permissions: Permissions::ALL,
                roles: Vec::new(),
            }),
            // The local user and the local server speak the same language, as a
            // Discord client and server set to it would.
            locale: Some(self.identity.lang.discord_locale().to_owned()),
            guild_locale: Some(self.identity.lang.discord_locale().to_owned()),
            kind,
        }
    }

    /// A plain line: fills the open form, or replies to the pending prompt.
    async fn answer(&mut self, line: &str) -> Option<RequestKind> {
        if let Some(modal) = self.pending_modal.take() {
            let fields = modal
                .inputs
                .first()
                .map(|input| vec![(input.custom_id.clone(), line.to_owned())])
                .unwrap_or_default();
            return Some(RequestKind::Modal {
                custom_id: modal.custom_id,
                fields,
            });
        }
        if let Some(prompt_message) = self.pending_prompt {
            let message_id = self.new_message_id();
            return Some(RequestKind::MessageReply {
                message_id,
                to_message: prompt_message,
                text: line.to_owned(),
            });
        }
        if line.trim().is_empty() {
            return None;
        }
        // No prompt seen in this run (its message id was never recorded): answer the
        // user's session by command, if there is one; else nothing waits.
        let session = self
            .core
            .storage()
            .session_of(self.identity.user.id, self.identity.guild_id)
            .await;
        if matches!(session, Ok(None)) {
            return None;
        }
        Some(RequestKind::Command(Command {
            name: "chargen".to_owned(),
            subcommand: vec!["answer".to_owned()],
            options: vec![CommandOption {
                name: "text".to_owned(),
                value: OptionValue::String(line.to_owned()),
            }],
        }))
    }

    fn parse_command(&mut self, command_line: &str) -> Parsed {
        let lang = self.identity.lang;
        let (name, rest) = split_word(command_line);
        match name.to_lowercase().as_str() {
            "quit" | "exit" => return Parsed::Quit,
            "" if rest.trim().is_empty() => return Parsed::Text(self.help()),
            "press" => return self.press(rest),
            "choose" => return self.choose(rest),
            _ => {}
        }
        let Some(spec) = self
            .specs
            .iter()
            .find(|spec| is_named(lang, &[spec.name], None, name))
        else {
            let unknown = i18n::tr_args(
                lang,
                "transport-console-unknown-command",
                &[("name", name.into())],
            );
            return Parsed::Text(format!("{unknown}\n"));
        };
        // `/help roll` and the other topics are the core's guide; `/help` alone lists
        // what the console takes.
        if spec.name == "help" && rest.trim().is_empty() {
            return Parsed::Text(self.help());
        }
        let command = shown_name(lang, &[spec.name], None);
        let (first_word, after_first) = split_word(rest);
        if let Some(group) = spec
            .groups
            .iter()
            .find(|group| is_named(lang, &[spec.name, group.name], None, first_word))
        {
            let (word, after) = split_word(after_first);
            let Some(sub) = group
                .subcommands
                .iter()
                .find(|sub| is_named(lang, &[spec.name, group.name, sub.name], None, word))
            else {
                let names: Vec<String> = group
                    .subcommands
                    .iter()
                    .map(|sub| shown_name(lang, &[spec.name, group.name, sub.name], None))
                    .collect();
                let takes = i18n::tr_args(
                    lang,
                    "transport-console-group-takes",
                    &[
                        ("command", command.into()),
                        (
                            "group",
                            shown_name(lang, &[spec.name, group.name], None).into(),
                        ),
                        ("names", names.join(", ").into()),
                    ],
                );
                return Parsed::Text(format!("{takes}\n"));
            };
            let path = [spec.name, group.name, sub.name];
            return match parse_options(lang, &path, &sub.options, after) {
                Ok(options) => Parsed::Request(RequestKind::Command(Command {
                    name: spec.name.to_owned(),
                    subcommand: vec![group.name.to_owned(), sub.name.to_owned()],
                    options,
                })),
                Err(message) => Parsed::Text(format!("{message}\n")),
            };
        }
        // A command with subcommands runs none by itself (Discord offers no such
        // command either): it lists them.
        let has_subcommands = !spec.subcommands.is_empty() || !spec.groups.is_empty();
        let (sub, rest) = if has_subcommands {
            let named = spec
                .subcommands
                .iter()
                .find(|sub| is_named(lang, &[spec.name, sub.name], None, first_word));
            let Some(sub) = named else {
                let names: Vec<String> = spec
                    .subcommands
                    .iter()
                    .map(|sub| shown_name(lang, &[spec.name, sub.name], None))
                    .chain(
                        spec.groups
                            .iter()
                            .map(|group| shown_name(lang, &[spec.name, group.name], None)),
                    )
                    .collect();
                let takes = i18n::tr_args(
                    lang,
                    "transport-console-takes",
                    &[
                        ("command", command.into()),
                        ("names", names.join(", ").into()),
                    ],
                );
                return Parsed::Text(format!("{takes}\n"));
            };
            (Some(sub), after_first)
        } else {
            (None, rest)
        };
        let parsed = match sub {
            Some(sub) => parse_options(lang, &[spec.name, sub.name], &sub.options, rest),
            None => parse_options(lang, &[spec.name], &spec.options, rest),
        };
        match parsed {
            Ok(options) => Parsed::Request(RequestKind::Command(Command {
                name: spec.name.to_owned(),
                subcommand: sub.map(|sub| vec![sub.name.to_owned()]).unwrap_or_default(),
                options,
            })),
            Err(message) => Parsed::Text(format!("{message}\n")),
        }
    }

    fn press(&mut self, label: &str) -> Parsed {
        let lang = self.identity.lang;
        let label = label.trim();
        let found = self
            .buttons
            .iter()
            .find(|(button, _, _)| button.eq_ignore_ascii_case(label))
            .or_else(|| (self.buttons.len() == 1 && label.is_empty()).then(|| &self.buttons[0]))
            .cloned();
        match found {
            Some((_, custom_id, message_id)) => {
                self.acted_on = Some(message_id);
                Parsed::Request(RequestKind::Button {
                    custom_id,
                    message_id,
                })
            }
            None if self.buttons.is_empty() => Parsed::Text(format!(
                "{}\n",
                i18n::tr(lang, "transport-console-no-button")
            )),
            None => {
                // Each label once: the trackers of several messages repeat theirs.
                let mut labels: Vec<&str> = Vec::new();
                for (label, _, _) in &self.buttons {
                    if !labels.contains(&label.as_str()) {
                        labels.push(label);
                    }
                }
                let missing = i18n::tr_args(
                    lang,
                    "transport-console-no-such-button",
                    &[
                        ("label", label.into()),
                        ("labels", labels.join(", ").into()),
                    ],
                );
                Parsed::Text(format!("{missing}\n"))
            }
        }
    }

    /// `/choose N` or `/choose LABEL` (several: `1, 3`): picks from the newest menu.
    fn choose(&mut self, picked: &str) -> Parsed {
        let lang = self.identity.lang;
        let Some(menu) = self.menu.clone() else {
            return Parsed::Text(format!("{}\n", i18n::tr(lang, "transport-console-no-menu")));
        };
        let mut values = Vec::new();
        for word in picked
            .split(',')
            .map(str::trim)
            .filter(|word| !word.is_empty())
        {
            let by_number = word
                .parse::<usize>()
                .ok()
                .and_then(|number| number.checked_sub(1))
                .and_then(|index| menu.options.get(index));
            let by_label = || {
                menu.options
                    .iter()
                    .find(|(label, _)| label.eq_ignore_ascii_case(word))
            };
            let Some((_, value)) = by_number.or_else(by_label) else {
                let missing = i18n::tr_args(
                    lang,
                    "transport-console-no-such-option",
                    &[
                        ("word", format!("{word:?}").into()),
                        ("count", menu.options.len().into()),
                    ],
                );
                return Parsed::Text(format!("{missing}\n"));
            };
            values.push(value.clone());
        }
        if values.is_empty() || values.len() > menu.max_values {
            let choose = match menu.max_values {
                0 | 1 => i18n::tr(lang, "transport-console-choose-one"),
                max => i18n::tr_args(
                    lang,
                    "transport-console-choose-up-to",
                    &[("max", max.into())],
                ),
            };
            return Parsed::Text(format!("{choose}\n"));
        }
        self.acted_on = Some(menu.message_id);
        Parsed::Request(RequestKind::Select {
            custom_id: menu.custom_id,
            message_id: menu.message_id,
            values,
        })
    }

    /// Forgets the buttons and menu of a message that was replaced or edited.
    fn forget_components(&mut self, message_id: i64) {
        self.buttons.retain(|(_, _, id)| *id != message_id);
        if self
            .menu
            .as_ref()
            .is_some_and(|menu| menu.message_id == message_id)
        {
            self.menu = None;
        }
    }

    /// Every command the console takes, under its names in the console's language
    /// (the English names are taken too).
    fn help(&self) -> String {
        let lang = self.identity.lang;
        let mut text = format!("{}\n", i18n::tr(lang, "transport-console-commands"));
        let mut line = |path: &[&str], options: &[OptionSpec], description: &str| {
            text.push_str(&format!(
                "  /{}{}  {}\n",
                shown_path(lang, path),
                usage(lang, path, options),
                described(lang, path, description)
            ));
        };
        for spec in &self.specs {
            if spec.subcommands.is_empty() && spec.groups.is_empty() {
                line(&[spec.name], &spec.options, spec.description);
            }
            for sub in &spec.subcommands {
                line(&[spec.name, sub.name], &sub.options, sub.description);
            }
            for group in &spec.groups {
                for sub in &group.subcommands {
                    line(
                        &[spec.name, group.name, sub.name],
                        &sub.options,
                        sub.description,
                    );
                }
            }
        }
        text.push_str(&i18n::tr(lang, "transport-console-help-footer"));
        text.push('\n');
        text
    }

    fn new_message_id(&mut self) -> i64 {
        self.next_message_id += 1;
        self.next_message_id
    }

    /// Prints replies as a terminal shows them; records sent message ids.
    async fn render(&mut self, replies: Vec<Reply>) -> String {
        let mut out = String::new();
        let acted_on = self.acted_on.take();
        // The id of this request's tracked answer, which a later message may link.
        let mut answer_id = None;
        for reply in replies {
            match reply {
                // The console is a log: a message's new state is shown below, marked
                // as an edit, and only the new state's components can be used.
                Reply::Update(message) => {
                    if let Some(message_id) = acted_on {
                        self.forget_components(message_id);
                    }
                    self.render_message(message, Shown::Edited, &mut out).await;
                }
                Reply::Interaction(message) => {
                    let tracked = message.track.is_some();
                    let message_id = self.render_message(message, Shown::New, &mut out).await;
                    if tracked {
                        answer_id = Some(message_id);
                    }
                }
                // The console is one channel; a message for another (the GM channel)
                // is shown, marked with where it went.
                Reply::Channel {
                    channel_id,
                    mut message,
                } => {
                    if let Some(answer_id) = answer_id {
                        message.link_answer(answer_id);
                    }
                    if channel_id != self.identity.channel_id {
                        let lang = self.identity.lang;
                        let marker = i18n::tr_args(
                            lang,
                            "transport-console-in-channel",
                            &[("channel", channel_id.to_string().into())],
                        );
                        out.push_str(&format!("{marker} "));
                    }
                    self.render_message(message, Shown::New, &mut out).await;
                }
                // The console shows the conversation as a log; earlier lines stay. An
                // edited prompt has been answered or closed.
                Reply::Edit {
                    message_id,
                    mut message,
                    ..
                } => {
                    // An edit keeps its message: nothing new to record.
                    message.track = None;
                    if self.pending_prompt == Some(message_id) {
                        self.pending_prompt = None;
                    }
                    self.forget_components(message_id);
                    // A redrawn chart (an /odds view button) is shown anew, and so is
                    // the message whose button was pressed ("Walk away") and one that
                    // keeps buttons (an encounter's tracker), so they can be pressed.
                    if message.text_view.is_some()
                        || acted_on == Some(message_id)
                        || !message.components.is_empty()
                    {
                        self.render_message(message, Shown::Edited, &mut out).await;
                    }
                }
                Reply::Modal(modal) => {
                    let label = modal
                        .inputs
                        .first()
                        .map(|input| input.label.clone())
                        .unwrap_or_default();
                    let lang = self.identity.lang;
                    let form = i18n::tr_args(
                        lang,
                        "transport-console-form",
                        &[
                            ("title", modal.title.as_str().into()),
                            ("label", label.into()),
                        ],
                    );
                    let hint = i18n::tr(lang, "transport-console-form-hint");
                    out.push_str(&format!("{form}\n{hint}\n"));
                    self.pending_modal = Some(modal);
                }
                Reply::Choices(choices) => {
                    let names: Vec<String> =
                        choices.into_iter().map(|choice| choice.name).collect();
                    let suggestions = i18n::tr_args(
                        self.identity.lang,
                        "transport-console-suggestions",
                        &[("names", names.join(", ").into())],
                    );
                    out.push_str(&format!("{suggestions}\n"));
                }
            }
        }
        out
    }

    /// Prints one message; returns the id it got.
    async fn render_message(&mut self, message: Message, shown: Shown, out: &mut String) -> i64 {
        let lang = self.identity.lang;
        let message_id = self.new_message_id();
        let content = strip_fences(&message.content);
        // An edit is not a second message: one purchase must not read as two.
        if shown == Shown::Edited {
            out.push_str(&i18n::tr(lang, "transport-console-edited"));
            out.push(' ');
        }
        if message.ephemeral {
            out.push_str(&i18n::tr(lang, "transport-console-only-you"));
            out.push(' ');
        }
        out.push_str(&content);
        if !content.ends_with('\n') {
            out.push('\n');
        }
        if let Some(text) = &message.text_view {
            out.push_str(text);
        }
        for attachment in &message.attachments {
            let attached = i18n::tr_args(
                lang,
                "transport-console-attached",
                &[
                    ("file", attachment.filename.as_str().into()),
                    ("bytes", attachment.bytes.len().to_string().into()),
                ],
            );
            out.push_str(&format!("{attached}\n"));
            // Files (a transcript, a chart) go where the user can open them, in the
            // console's one folder.
            let name = format!("{message_id}-{}", attachment.filename);
            let written = match self.files.write(&name, &attachment.bytes) {
                Ok(path) => i18n::tr_args(
                    lang,
                    "transport-console-written",
                    &[("path", path.display().to_string().into())],
                ),
                Err(error) => i18n::tr_args(
                    lang,
                    "transport-console-cannot-write",
                    &[
                        (
                            "path",
                            self.files.dir().join(&name).display().to_string().into(),
                        ),
                        ("error", error.to_string().into()),
                    ],
                ),
            };
            out.push_str(&format!("{written}\n"));
        }
        self.show_components(&message.components, message_id, out);
        if let Some(track) = message.track {
            // A tracker is edited, never answered: typed text stays for the prompt.
            let answerable = !matches!(
                track,
                crate::core::Track::Encounter { .. }
                    | crate::core::Track::GmRoll { .. }
                    | crate::core::Track::GmAnswer { .. }
            );
            match self.core.message_sent(track, message_id).await {
                Ok(()) if answerable => self.pending_prompt = Some(message_id),
                Ok(()) => {}
                Err(error) => {
                    tracing::warn!(error = %format!("{error:#}"), "cannot record a message id")
                }
            }
        }
        message_id
    }

    /// Lists the select menus and buttons of message `message_id` and keeps them
    /// usable (`/choose`, `/press`).
    fn show_components(&mut self, components: &[ActionRow], message_id: i64, out: &mut String) {
        let lang = self.identity.lang;
        for component in components.iter().flat_map(|row| row.0.iter()) {
            let Component::Select(select) = component else {
                continue;
            };
            let menu = i18n::tr_args(
                lang,
                "transport-console-menu",
                &[("placeholder", select.placeholder.as_str().into())],
            );
            out.push_str(&format!("{menu}\n"));
            for (number, option) in select.options.iter().enumerate() {
                let description = option
                    .description
                    .as_deref()
                    .map(|text| format!(" ({text})"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "  {}. {}{description}\n",
                    number + 1,
                    option.label
                ));
            }
            out.push_str(&i18n::tr(lang, "transport-console-choose-hint"));
            out.push('\n');
            self.menu = Some(Menu {
                custom_id: select.custom_id.clone(),
                message_id,
                options: select
                    .options
                    .iter()
                    .map(|option| (option.label.clone(), option.value.clone()))
                    .collect(),
                max_values: usize::from(select.max_values.max(1)),
            });
        }
        let buttons: Vec<(String, String, i64)> = components
            .iter()
            .flat_map(|row| row.0.iter())
            .filter_map(|component| match component {
                Component::Button(button) if !button.disabled => {
                    Some((button.label.clone(), button.custom_id.clone(), message_id))
                }
                _ => None,
            })
            .collect();
        if !buttons.is_empty() {
            let labels: Vec<&str> = buttons.iter().map(|(label, _, _)| label.as_str()).collect();
            let shown = i18n::tr_args(
                self.identity.lang,
                "transport-console-buttons",
                &[("labels", labels.join(" | ").into())],
            );
            out.push_str(&format!("{shown}\n"));
            // `/press LABEL` presses the newest button so labelled. An older one with
            // the same label is dropped: it would be pressed by the next `/press` of
            // that label once the newest is spent, so a double `/press Delete` under
            // two questions would delete two characters.
            self.buttons.retain(|(label, _, _)| {
                !buttons
                    .iter()
                    .any(|(new, _, _)| new.eq_ignore_ascii_case(label))
            });
            // Newest first; the buttons of the last few messages stay pressable.
            let mut kept: Vec<i64> = Vec::new();
            for (_, _, id) in &self.buttons {
                if !kept.contains(id) {
                    kept.push(*id);
                }
            }
            kept.truncate(BUTTON_MESSAGES - 1);
            self.buttons.retain(|(_, _, id)| kept.contains(id));
            self.buttons.splice(0..0, buttons);
        }
    }
}

/// Whether a message is shown as new or as the new state of one shown before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shown {
    New,
    Edited,
}

enum Parsed {
    Request(RequestKind),
    Text(String),
    Quit,
}

fn usage(lang: Lang, path: &[&str], options: &[OptionSpec]) -> String {
    options
        .iter()
        .map(|option| {
            let name = shown_name(lang, path, Some(option.name));
            if option.required {
                format!(" {name}:…")
            } else {
                format!(" [{name}:…]")
            }
        })
        .collect()
}

/// The catalogue key of the command, group or subcommand at `path`, or of its
/// option `option`.
fn key_of(path: &[&str], option: Option<&str>) -> String {
    match option {
        Some(option) => i18n::commands::option_key(path, option),
        None => i18n::commands::command_key(path),
    }
}

/// The name Discord shows a user of `lang` for the element (its registered
/// localization), else the spec's own.
fn shown_name(lang: Lang, path: &[&str], option: Option<&str>) -> String {
    let english = option.or(path.last().copied()).unwrap_or_default();
    i18n::attribute(lang, &key_of(path, option), "name").unwrap_or_else(|| english.to_owned())
}

/// The command, group and subcommand at `path` as a user of `lang` types them.
fn shown_path(lang: Lang, path: &[&str]) -> String {
    (1..=path.len())
        .map(|end| shown_name(lang, &path[..end], None))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `typed` names the element: its spec's (English) name, or its name in
/// `lang`, case ignored. So a German console takes `/würfeln` and `/roll` alike, as
/// the German answers name the German commands.
fn is_named(lang: Lang, path: &[&str], option: Option<&str>, typed: &str) -> bool {
    let english = option.or(path.last().copied()).unwrap_or_default();
    if typed.is_empty() {
        return false;
    }
    typed.eq_ignore_ascii_case(english)
        || i18n::attribute(lang, &key_of(path, option), "name")
            .is_some_and(|name| name.to_lowercase() == typed.to_lowercase())
}

/// The value of choice `typed` of an option with choices: a value itself, or a
/// choice's name in `lang`; anything else stays as typed, for the core to refuse.
fn choice_value<'t>(lang: Lang, path: &[&str], spec: &OptionSpec, typed: &'t str) -> &'t str {
    let key = key_of(path, Some(spec.name));
    spec.choices
        .iter()
        .find(|value| {
            i18n::attribute(lang, &key, &i18n::commands::choice_attribute(value)).is_some_and(
                |name| {
                    // `automatisch (Sprache des Servers)` is typed `automatisch`.
                    let word = name.split(" (").next().unwrap_or(&name);
                    [name.as_str(), word]
                        .iter()
                        .any(|name| name.to_lowercase() == typed.to_lowercase())
                },
            )
        })
        .copied()
        .unwrap_or(typed)
}

fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(end) => (&text[..end], text[end..].trim_start()),
        None => (text, ""),
    }
}

/// A command's description in `lang` (the one Discord shows a user of that
/// language), else the spec's own.
fn described(lang: Lang, path: &[&str], description: &str) -> String {
    i18n::attribute(lang, &i18n::commands::command_key(path), "description")
        .unwrap_or_else(|| description.to_owned())
}

/// Reads `name:value` options of the command at `path`; text before the first one
/// fills the first option. A value runs up to the next `name:` of a known option, so
/// it may hold spaces. Options are named in English or in `lang`.
pub fn parse_options(
    lang: Lang,
    path: &[&str],
    specs: &[OptionSpec],
    text: &str,
) -> Result<Vec<CommandOption>, String> {
    let mut starts = Vec::new();
    let mut word_start = None;
    for (index, ch) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        if ch.is_whitespace() {
            if let Some(start) = word_start.take() {
                let word: &str = &text[start..index];
                let Some((name, value)) = word.split_once(':') else {
                    continue;
                };
                if let Some(spec) = specs
                    .iter()
                    .find(|spec| is_named(lang, path, Some(spec.name), name))
                {
                    starts.push((start, start + name.len() + 1, spec));
                } else if is_option_shaped(name, value) && !in_quotes(&text[..start]) {
                    // Discord sends only the options a command has: `privat:true`
                    // is a typo, not text for the previous option.
                    return Err(unknown_option(lang, path, specs, name));
                }
            }
        } else if word_start.is_none() {
            word_start = Some(index);
        }
    }
    let mut raw: Vec<(&OptionSpec, &str)> = Vec::new();
    let bare_end = starts.first().map_or(text.len(), |(start, _, _)| *start);
    let bare = text[..bare_end].trim();
    if !bare.is_empty() {
        let Some(first) = specs.first() else {
            return Err(i18n::tr_args(
                lang,
                "transport-console-no-options",
                &[("value", format!("{bare:?}").into())],
            ));
        };
        raw.push((first, bare));
    }
    for (position, (_, value_start, spec)) in starts.iter().enumerate() {
        let value_end = starts
            .get(position + 1)
            .map_or(text.len(), |(start, _, _)| *start);
        raw.push((spec, text[*value_start..value_end].trim()));
    }
    let mut options: Vec<CommandOption> = Vec::new();
    for (spec, value) in raw {
        if options.iter().any(|option| option.name == spec.name) {
            return Err(i18n::tr_args(
                lang,
                "transport-console-option-twice",
                &[("option", shown_name(lang, path, Some(spec.name)).into())],
            ));
        }
        let value = unquote(value);
        let value = match spec.kind {
            OptionKind::String { .. } => {
                OptionValue::String(choice_value(lang, path, spec, value).to_owned())
            }
            OptionKind::Integer { .. } => match value.parse::<i64>() {
                Ok(number) => OptionValue::Integer(number),
                Err(_) => {
                    return Err(i18n::tr_args(
                        lang,
                        "transport-console-not-a-number",
                        &[
                            ("option", shown_name(lang, path, Some(spec.name)).into()),
                            ("value", format!("{value:?}").into()),
                        ],
                    ));
                }
            },
            // A local file stands for an upload: `file:scripts/shop.ghul`.
            OptionKind::Attachment => {
                let file = value.strip_prefix("file:").unwrap_or(value);
                if file.is_empty() {
                    return Err(i18n::tr_args(
                        lang,
                        "transport-console-needs-path",
                        &[("option", shown_name(lang, path, Some(spec.name)).into())],
                    ));
                }
                let filename = std::path::Path::new(file)
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
                    .unwrap_or_else(|| file.to_owned());
                OptionValue::Attachment {
                    filename,
                    url: format!("file:{file}"),
                    size: 0,
                }
            }
            // A role or channel by id or mention: `role:123` or `role:<@&123>`,
            // `channel:2` or `channel:<#2>`.
            OptionKind::Role | OptionKind::Channel => {
                let role = matches!(spec.kind, OptionKind::Role);
                let (mention, refusal) = match role {
                    true => ("<@&", "transport-console-not-a-role"),
                    false => ("<#", "transport-console-not-a-channel"),
                };
                let digits = value
                    .trim()
                    .trim_start_matches(mention)
                    .trim_end_matches('>');
                match digits.parse::<i64>() {
                    Ok(id) if id > 0 && role => OptionValue::Role(id),
                    Ok(id) if id > 0 => OptionValue::Channel(id),
                    _ => {
                        return Err(i18n::tr_args(
                            lang,
                            refusal,
                            &[
                                ("option", shown_name(lang, path, Some(spec.name)).into()),
                                ("value", format!("{value:?}").into()),
                            ],
                        ));
                    }
                }
            }
            OptionKind::Boolean => match value.to_lowercase().as_str() {
                "" | "true" | "yes" | "on" | "1" | "ja" => OptionValue::Boolean(true),
                "false" | "no" | "off" | "0" | "nein" => OptionValue::Boolean(false),
                _ => {
                    return Err(i18n::tr_args(
                        lang,
                        "transport-console-not-a-boolean",
                        &[
                            ("option", shown_name(lang, path, Some(spec.name)).into()),
                            ("value", format!("{value:?}").into()),
                        ],
                    ));
                }
            },
        };
        options.push(CommandOption {
            name: spec.name.to_owned(),
            value,
        });
    }
    for spec in specs.iter().filter(|spec| spec.required) {
        if !options.iter().any(|option| option.name == spec.name) {
            return Err(i18n::tr_args(
                lang,
                "transport-console-missing",
                &[("option", shown_name(lang, path, Some(spec.name)).into())],
            ));
        }
    }
    Ok(options)
}

/// Whether `name:value` reads as an option (`privat:true`), not as text with a colon
/// in it (`12:30`, `https://…`, `Note:` before a space).
fn is_option_shaped(name: &str, value: &str) -> bool {
    name.chars().next().is_some_and(char::is_alphabetic)
        && name
            .chars()
            .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '-')
        && !value.is_empty()
        && !value.starts_with('/')
}

/// Whether a quoted value (`label:"a: b"`) is open at the end of `before`.
fn in_quotes(before: &str) -> bool {
    before.matches('"').count() % 2 == 1
}

/// The refusal of an option the command does not have, with the names it has.
fn unknown_option(lang: Lang, path: &[&str], specs: &[OptionSpec], name: &str) -> String {
    let names: Vec<String> = specs
        .iter()
        .map(|spec| format!("{}:", shown_name(lang, path, Some(spec.name))))
        .collect();
    i18n::tr_args(
        lang,
        "transport-console-unknown-option",
        &[
            ("command", format!("/{}", shown_path(lang, path)).into()),
            ("option", name.into()),
            ("options", names.join(", ").into()),
            ("count", names.len().into()),
        ],
    )
}

fn unquote(value: &str) -> &str {
    value
        .strip_prefix('"')
        .and_then(|inner| inner.strip_suffix('"'))
        .unwrap_or(value)
}

/// Drops the lines that open and close monospace blocks.
fn strip_fences(content: &str) -> String {
    let mut out = String::with_capacity(content.len());
    for line in content.split('\n') {
        if line.trim() == "```" {
            continue;
        }
        out.push_str(&line.replace('\u{200b}', ""));
        out.push('\n');
    }
    out
}

/// Runs the console on stdin and stdout until end of input, `/quit`, or a signal.
pub async fn run(core: Arc<Core>, identity: ConsoleIdentity) -> anyhow::Result<()> {
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    // Markdown becomes terminal styles on a terminal; piped output stays as written.
    let show = |text: String| {
        if std::io::stdout().is_terminal() {
            crate::terminal::styled(&text)
        } else {
            text
        }
    };
    let identity_lang = identity.lang;
    // A terminal shows what was typed; piped answers are echoed, so that a transcript
    // reads as the dialogue it was.
    let echo_answers = !std::io::stdin().is_terminal();
    let mut console = Console::new(core, identity);
    let mut stdout = std::io::stdout();
    let greeting = console.greeting().await?;
    if interactive {
        writeln!(
            stdout,
            "{}",
            i18n::tr(identity_lang, "transport-console-welcome")
        )?;
    }
    write!(stdout, "{}", show(greeting))?;
    stdout.flush()?;
    let (line_tx, mut line_rx) = tokio::sync::mpsc::channel::<String>(1);
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if interactive {
            read_terminal(line_tx, done_rx);
        } else {
            read_pipe(line_tx, done_rx);
        }
    });
    let shutdown = crate::shutdown::signal();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            line = line_rx.recv() => {
                let Some(line) = line else { break };
                // A signal also ends a line still being answered: engine work runs
                // on worker threads, which end with the process.
                let outcome = tokio::select! {
                    outcome = console.line(&line) => outcome,
                    () = &mut shutdown => break,
                };
                match outcome {
                    LineOutcome::Quit => break,
                    LineOutcome::Output(text) => {
                        if echo_answers && let Some(echo) = echo_of(&line) {
                            write!(stdout, "{echo}")?;
                        }
                        write!(stdout, "{}", show(text))?;
                        stdout.flush()?;
                    }
                }
                if done_tx.send(()).is_err() {
                    break;
                }
            }
            () = &mut shutdown => break,
        }
    }
    Ok(())
}

/// How a piped line that answers (anything but a command) is echoed: as a terminal
/// shows it after the console's `> `. Commands are not echoed: their answers name
/// them.
pub fn echo_of(line: &str) -> Option<String> {
    let line = line.trim_end_matches(['\r', '\n']);
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('/') || line.len() > MAX_LINE_BYTES {
        return None;
    }
    Some(format!("> {line}\n"))
}

fn read_pipe(line_tx: tokio::sync::mpsc::Sender<String>, done_rx: std::sync::mpsc::Receiver<()>) {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    loop {
        // One byte past the limit is enough for `Console::line` to refuse the line.
        let line = match crate::lines::read_line(&mut lines, MAX_LINE_BYTES + 1) {
            Ok(Some(line)) => String::from_utf8_lossy(&line.bytes).into_owned(),
            Ok(None) | Err(_) => return,
        };
        if line_tx.blocking_send(line).is_err() || done_rx.recv().is_err() {
            return;
        }
    }
}

fn read_terminal(
    line_tx: tokio::sync::mpsc::Sender<String>,
    done_rx: std::sync::mpsc::Receiver<()>,
) {
    let Ok(mut editor) = rustyline::DefaultEditor::new() else {
        read_pipe(line_tx, done_rx);
        return;
    };
    loop {
        let line = match editor.readline("> ") {
            Ok(line) => line,
            // Ctrl-C and Ctrl-D leave.
            Err(_) => return,
        };
        if !line.trim().is_empty() {
            let _ = editor.add_history_entry(line.as_str());
        }
        if line_tx.blocking_send(line).is_err() || done_rx.recv().is_err() {
            return;
        }
    }
}
