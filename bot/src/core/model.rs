//! The core's own plain types: what a transport hands in ([`Request`]) and what it
//! must carry out ([`Reply`]). No Discord or terminal type appears here; the Discord
//! adapter and the console map their world onto these.

/// Who sent a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    /// The display name, used in texts (never as a mention).
    pub name: String,
}

/// Discord permission bits of the member (the interaction's resolved
/// `member.permissions`, which already accounts for channel overwrites).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Permissions(pub u64);

impl Permissions {
    pub const ADMINISTRATOR: u64 = 1 << 3;
    pub const MANAGE_GUILD: u64 = 1 << 5;
    pub const ALL: Permissions = Permissions(u64::MAX);

    /// Whether every bit of `bits` is granted; Administrator grants everything.
    pub fn has(self, bits: u64) -> bool {
        self.0 & Self::ADMINISTRATOR != 0 || self.0 & bits == bits
    }
}

/// The guild member behind a request (absent in DMs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Member {
    pub permissions: Permissions,
    pub roles: Vec<i64>,
}

/// A command, button press, modal submit, message reply or autocomplete, with its
/// context.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub user: User,
    /// `None` in direct messages.
    pub guild_id: Option<i64>,
    pub channel_id: i64,
    pub member: Option<Member>,
    /// The user's Discord locale (`de`, `en-US`, `en-GB` …), when the transport knows
    /// it; private answers speak it (see `core::language`).
    pub locale: Option<String>,
    /// The server's Discord locale (`guild_locale`), absent in DMs; public answers
    /// speak it unless the server chose a language.
    pub guild_locale: Option<String>,
    pub kind: RequestKind,
}

impl Request {
    /// The key of the place a session lives in: the guild, or 0 for DMs.
    pub fn place(&self) -> i64 {
        self.guild_id.unwrap_or(0)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum RequestKind {
    /// A slash command.
    Command(Command),
    /// The user is typing option `focused` of a command.
    Autocomplete { command: Command, focused: String },
    /// A button on message `message_id` was pressed.
    Button { custom_id: String, message_id: i64 },
    /// A select menu on message `message_id` was used.
    Select {
        custom_id: String,
        message_id: i64,
        values: Vec<String>,
    },
    /// A modal was submitted: `(text input custom_id, value)` pairs.
    Modal {
        custom_id: String,
        fields: Vec<(String, String)>,
    },
    /// A regular message `message_id` that replies to the bot's message `to_message`.
    MessageReply {
        message_id: i64,
        to_message: i64,
        text: String,
    },
}

/// A slash command as typed: `/chargen program add name:x` is name `chargen`,
/// subcommand `["program", "add"]`, options `[name = x]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Command {
    pub name: String,
    pub subcommand: Vec<String>,
    pub options: Vec<CommandOption>,
}

impl Command {
    pub fn option(&self, name: &str) -> Option<&OptionValue> {
        self.options
            .iter()
            .find(|option| option.name == name)
            .map(|option| &option.value)
    }

    pub fn string(&self, name: &str) -> Option<&str> {
        match self.option(name) {
            Some(OptionValue::String(text)) => Some(text),
            _ => None,
        }
    }

    pub fn integer(&self, name: &str) -> Option<i64> {
        match self.option(name) {
            Some(OptionValue::Integer(value)) => Some(*value),
            _ => None,
        }
    }

    pub fn boolean(&self, name: &str) -> Option<bool> {
        match self.option(name) {
            Some(OptionValue::Boolean(value)) => Some(*value),
            _ => None,
        }
    }

    pub fn sub(&self) -> Option<&str> {
        self.subcommand.first().map(String::as_str)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct CommandOption {
    pub name: String,
    pub value: OptionValue,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    String(String),
    Integer(i64),
    Boolean(bool),
    Number(f64),
    /// A role of the server (its id).
    Role(i64),
    /// A channel of the server (its id).
    Channel(i64),
    /// An uploaded file; in the console, a local path.
    Attachment {
        filename: String,
        url: String,
        size: u64,
    },
}

/// What a transport must do, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// An answer to the interaction: the first is its response (or the edit of the
    /// deferred response), the others are follow-ups. For a `MessageReply` request,
    /// which has no interaction, a regular message replying to the user's message.
    Interaction(Message),
    /// A regular channel message (sent with the bot token), so that users can reply to
    /// it; prompts go this way.
    Channel { channel_id: i64, message: Message },
    /// Replaces a message the bot sent earlier (content and components).
    Edit {
        channel_id: i64,
        message_id: i64,
        message: Message,
    },
    /// Replaces the message whose component was pressed (content and components; an
    /// ephemeral one too, which only the interaction can edit). Only for a component
    /// whose [`Ack`] is [`Ack::DeferUpdate`] or immediate; the message keeps its
    /// visibility whatever `ephemeral` says.
    Update(Message),
    /// Opens a modal; only valid as the first reply to a command or component.
    Modal(Modal),
    /// Autocomplete suggestions (at most 25).
    Choices(Vec<Choice>),
}

/// One message. `allowed_mentions` is always [`AllowedMentions::None`]: nothing Tavern
/// sends may ping, whatever the text holds (`@everyone`, `<@id>`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Message {
    pub content: String,
    /// Only the invoking user sees it (interaction answers only).
    pub ephemeral: bool,
    pub components: Vec<ActionRow>,
    pub attachments: Vec<FileAttachment>,
    /// What a transport that shows no images prints after the content (the
    /// console's text histogram of an `/odds` chart); Discord ignores it.
    pub text_view: Option<String>,
    pub allowed_mentions: AllowedMentions,
    /// Tell the core the id of the sent message ([`super::Core::message_sent`]).
    pub track: Option<Track>,
    /// A link in `content` to the request's own public answer, which the transport
    /// completes once that answer is posted ([`Message::link_answer`]).
    pub answer_link: Option<AnswerLink>,
}

/// Where a message links to the public answer of the same request, whose id only
/// the transport learns once the answer is posted: the GM channel's message links
/// the channel's "rolls for the GM" line. The content holds the channel's link
/// (`https://discord.com/channels/{guild}/{channel}`) ending at byte `at`, which
/// stays as it is when the answer's id never comes (a failed or private answer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerLink {
    pub at: usize,
}

impl Message {
    pub fn text(content: impl Into<String>) -> Message {
        Message {
            content: content.into(),
            ..Message::default()
        }
    }

    pub fn ephemeral(content: impl Into<String>) -> Message {
        Message {
            content: content.into(),
            ephemeral: true,
            ..Message::default()
        }
    }

    pub fn with_row(mut self, row: ActionRow) -> Message {
        self.components.push(row);
        self
    }

    /// Completes the channel link of [`Message::answer_link`] into the link of
    /// message `answer_id` (the answer posted in that channel). A message without
    /// one, or whose content no longer has the channel's id there, stays as it is.
    pub fn link_answer(&mut self, answer_id: i64) {
        let Some(AnswerLink { at }) = self.answer_link.take() else {
            return;
        };
        let ends_an_id = self.content.is_char_boundary(at)
            && self.content[..at].ends_with(|ch: char| ch.is_ascii_digit());
        if ends_an_id {
            self.content.insert_str(at, &format!("/{answer_id}"));
        }
    }
}

/// Which mentions may ping. The Discord adapter maps `None` to an empty
/// `allowed_mentions` (no `parse`, no users, no roles, no replied user).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AllowedMentions {
    #[default]
    None,
}

/// A message whose id the core wants to know once it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Track {
    /// The message carrying the prompt of chargen session `session_id` at `step`:
    /// replies to it answer the prompt.
    ChargenPrompt { session_id: i64, step: i64 },
    /// The message carrying prompt `step` of NPC conversation `conversation_id`:
    /// replies to it answer the NPC.
    NpcPrompt { conversation_id: i64, step: i64 },
    /// The tracker of encounter `encounter_id`, edited in place on every change.
    Encounter { encounter_id: i64 },
    /// A roll for the GM in the GM channel (its result in `button_states`): only its
    /// failure matters, which hands the result to the roller instead.
    GmRoll { state_id: i64 },
    /// The channel's public line of roll `state_id` for the GM: the GM channel's
    /// message links it, also once revealed.
    GmAnswer { state_id: i64 },
}

/// Up to five components in a row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ActionRow(pub Vec<Component>);

#[derive(Debug, Clone, PartialEq)]
pub enum Component {
    Button(Button),
    Select(Select),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Button {
    /// At most 100 characters, versioned (`tv1:…`).
    pub custom_id: String,
    pub label: String,
    pub style: ButtonStyle,
    pub disabled: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ButtonStyle {
    Primary,
    Secondary,
    Success,
    Danger,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Select {
    pub custom_id: String,
    pub placeholder: String,
    pub options: Vec<SelectOption>,
    pub min_values: u8,
    pub max_values: u8,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SelectOption {
    pub label: String,
    pub value: String,
    pub description: Option<String>,
}

/// A form with text fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Modal {
    pub custom_id: String,
    /// At most 45 characters.
    pub title: String,
    pub inputs: Vec<TextInput>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TextInput {
    pub custom_id: String,
    /// At most 45 characters.
    pub label: String,
    pub style: TextInputStyle,
    /// At most 100 characters.
    pub placeholder: Option<String>,
    pub required: bool,
    pub max_length: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextInputStyle {
    Short,
    Paragraph,
}

/// A file sent with a message.
#[derive(Debug, Clone, PartialEq)]
pub struct FileAttachment {
    pub filename: String,
    pub bytes: Vec<u8>,
    pub description: Option<String>,
}

/// An autocomplete suggestion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub name: String,
    pub value: String,
}

/// How the Discord adapter acknowledges an interaction if the core's answer is not
/// ready quickly (Discord invalidates an interaction not answered within 3 seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ack {
    /// The work is quick and must not be deferred (rolls, modals, autocomplete).
    Immediate,
    /// Defer with a "thinking" response, ephemeral or not; the first
    /// [`Reply::Interaction`] then edits it.
    Defer { ephemeral: bool },
    /// Defer a component or modal interaction without a visible response.
    DeferUpdate,
    /// Not an interaction (a message reply): nothing to acknowledge.
    None,
}
