//! Discord's limits on what a bot sends, enforced in one place.
//!
//! Every reply leaves the core through [`Reply::fit`] (in [`super::Core::handle`] and
//! [`super::Core::sweep`]), and the Discord adapter fits every message again as it
//! builds it, so no code path, however it composed its text, can send something
//! Discord refuses (a refused message reaches nobody). Cutting is the last resort:
//! the builders aim below these limits, so a cut shows only for hostile input.

use super::text::truncate;
use super::{ActionRow, Component, Message, Modal, Reply};

/// Characters of a message's content.
pub const CONTENT_CHARS: usize = 2000;
/// Action rows of a message, and buttons in one row.
pub const ACTION_ROWS: usize = 5;
pub const ROW_BUTTONS: usize = 5;
/// Characters of a button's label.
pub const BUTTON_LABEL_CHARS: usize = 80;
/// Characters of a custom id (ours are built to fit; a longer one is a bug that
/// Discord would refuse, so the component goes rather than the message).
pub const CUSTOM_ID_CHARS: usize = 100;
/// Options of a select menu; characters of its placeholder and of an option's
/// label, value and description.
pub const SELECT_OPTIONS: usize = 25;
pub const SELECT_PLACEHOLDER_CHARS: usize = 150;
pub const SELECT_OPTION_CHARS: usize = 100;
/// Files of one message, and characters of a file's description (alt text).
pub const ATTACHMENTS: usize = 10;
pub const ATTACHMENT_DESCRIPTION_CHARS: usize = 1024;
/// A modal's title, its text inputs, an input's label, placeholder and length.
pub const MODAL_TITLE_CHARS: usize = 45;
pub const MODAL_INPUTS: usize = 5;
pub const INPUT_LABEL_CHARS: usize = 45;
pub const INPUT_PLACEHOLDER_CHARS: usize = 100;
pub const INPUT_MAX_LENGTH: u16 = 4000;
/// Autocomplete choices, and characters of a choice's name and value.
pub const CHOICES: usize = 25;
pub const CHOICE_CHARS: usize = 100;

/// What a cut message ends with, so a reader knows text is missing.
const CUT_MARK: &str = "…";

impl Reply {
    /// The reply within Discord's limits; a reply already within them is unchanged.
    pub fn fit(self) -> Reply {
        match self {
            Reply::Interaction(message) => Reply::Interaction(message.fit()),
            Reply::Channel {
                channel_id,
                message,
            } => Reply::Channel {
                channel_id,
                message: message.fit(),
            },
            Reply::Edit {
                channel_id,
                message_id,
                message,
            } => Reply::Edit {
                channel_id,
                message_id,
                message: message.fit(),
            },
            Reply::Update(message) => Reply::Update(message.fit()),
            Reply::Modal(modal) => Reply::Modal(modal.fit()),
            Reply::Choices(choices) => Reply::Choices(
                choices
                    .into_iter()
                    // A value is what Discord sends back: a cut one would mean
                    // something else, so a choice that cannot fit is left out.
                    .filter(|choice| choice.value.chars().count() <= CHOICE_CHARS)
                    .take(CHOICES)
                    .map(|mut choice| {
                        choice.name = truncate(&choice.name, CHOICE_CHARS);
                        if choice.name.is_empty() {
                            choice.name = choice.value.clone();
                        }
                        choice
                    })
                    .collect(),
            ),
        }
    }
}

/// Every reply of a list within Discord's limits.
pub fn replies(replies: Vec<Reply>) -> Vec<Reply> {
    replies.into_iter().map(Reply::fit).collect()
}

impl Message {
    /// The message within Discord's limits: content cut (a code block left open by
    /// the cut is closed), rows, buttons, selects and files within their counts and
    /// lengths.
    pub fn fit(mut self) -> Message {
        self.content = fit_content(self.content);
        self.components.truncate(ACTION_ROWS);
        self.components = self
            .components
            .into_iter()
            .map(fit_row)
            .filter(|row| !row.0.is_empty())
            .collect();
        self.attachments.truncate(ATTACHMENTS);
        for attachment in &mut self.attachments {
            attachment.description =
                truncate_optional(&attachment.description, ATTACHMENT_DESCRIPTION_CHARS);
        }
        self
    }
}

impl Modal {
    /// The modal within Discord's limits.
    pub fn fit(mut self) -> Modal {
        self.title = truncate(&self.title, MODAL_TITLE_CHARS);
        self.inputs.truncate(MODAL_INPUTS);
        for input in &mut self.inputs {
            input.label = truncate(&input.label, INPUT_LABEL_CHARS);
            input.placeholder = truncate_optional(&input.placeholder, INPUT_PLACEHOLDER_CHARS);
            input.max_length = input.max_length.clamp(1, INPUT_MAX_LENGTH);
        }
        self
    }
}

/// Content of at most [`CONTENT_CHARS`] characters. A cut inside a code block
/// closes the block, so the rest of the message is not swallowed by it.
fn fit_content(content: String) -> String {
    if content.chars().count() <= CONTENT_CHARS {
        return content;
    }
    const CLOSE: &str = "\n```";
    let budget = CONTENT_CHARS - CUT_MARK.chars().count() - CLOSE.chars().count();
    let mut cut: String = content.chars().take(budget).collect();
    cut.push_str(CUT_MARK);
    if cut.matches("```").count() % 2 == 1 {
        cut.push_str(CLOSE);
    }
    cut
}

/// A row of at most five buttons, or of one select menu (Discord allows nothing
/// beside a select), each within its lengths; a component whose custom id is too
/// long cannot be sent and goes.
fn fit_row(row: ActionRow) -> ActionRow {
    let mut components: Vec<Component> = row
        .0
        .into_iter()
        .filter(|component| {
            let custom_id = match component {
                Component::Button(button) => &button.custom_id,
                Component::Select(select) => &select.custom_id,
            };
            custom_id.chars().count() <= CUSTOM_ID_CHARS
        })
        .collect();
    if let Some(index) = components
        .iter()
        .position(|component| matches!(component, Component::Select(_)))
    {
        components = vec![components.swap_remove(index)];
    }
    components.truncate(ROW_BUTTONS);
    for component in &mut components {
        match component {
            Component::Button(button) => {
                button.label = truncate(&button.label, BUTTON_LABEL_CHARS);
            }
            Component::Select(select) => {
                select.placeholder = truncate(&select.placeholder, SELECT_PLACEHOLDER_CHARS);
                select
                    .options
                    .retain(|option| option.value.chars().count() <= SELECT_OPTION_CHARS);
                select.options.truncate(SELECT_OPTIONS);
                for option in &mut select.options {
                    option.label = truncate(&option.label, SELECT_OPTION_CHARS);
                    option.description =
                        truncate_optional(&option.description, SELECT_OPTION_CHARS);
                }
                let count = u8::try_from(select.options.len()).unwrap_or(u8::MAX);
                select.max_values = select.max_values.clamp(1, count.max(1));
                select.min_values = select.min_values.min(select.max_values);
            }
        }
    }
    // A select left without options cannot be sent.
    components.retain(|component| match component {
        Component::Select(select) => !select.options.is_empty(),
        Component::Button(_) => true,
    });
    ActionRow(components)
}

fn truncate_optional(text: &Option<String>, max: usize) -> Option<String> {
    text.as_deref().map(|text| truncate(text, max))
}
