//! Discord's limits on what a bot sends, enforced in one place.
//!
//! Every reply leaves the core through [`Reply::fit_noting`] (in
//! [`super::Core::handle`] and [`super::Core::sweep`], which count what had to be
//! cut), and the Discord adapter fits every message again as it builds it, so no
//! code path, however it composed its text, can send something Discord refuses (a
//! refused message reaches nobody). Cutting is the last resort: the builders aim
//! below these limits, so a cut shows only for hostile input.

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

/// Whether fitting had to change anything: the builders aim below the limits, so a
/// cut is noted (and counted by the core) rather than found by comparing copies.
#[derive(Debug, Default)]
struct Cuts(bool);

impl Cuts {
    /// `text` in at most `max` characters.
    fn text(&mut self, text: String, max: usize) -> String {
        if text.chars().count() <= max {
            return text;
        }
        self.0 = true;
        truncate(&text, max)
    }

    fn optional(&mut self, text: Option<String>, max: usize) -> Option<String> {
        text.map(|text| self.text(text, max))
    }

    /// At most `max` items of `items`.
    fn count<T>(&mut self, items: &mut Vec<T>, max: usize) {
        if items.len() > max {
            self.0 = true;
            items.truncate(max);
        }
    }

    /// The items of `items` that `keep` keeps.
    fn keep<T>(&mut self, items: &mut Vec<T>, keep: impl FnMut(&T) -> bool) {
        let before = items.len();
        items.retain(keep);
        self.0 |= items.len() != before;
    }
}

impl Reply {
    /// The reply within Discord's limits; a reply already within them is unchanged.
    pub fn fit(self) -> Reply {
        self.fit_noting().0
    }

    /// [`Reply::fit`], and whether anything had to be cut or dropped.
    pub fn fit_noting(self) -> (Reply, bool) {
        let mut cuts = Cuts::default();
        let reply = match self {
            Reply::Interaction(message) => Reply::Interaction(message.fit_into(&mut cuts)),
            Reply::Channel {
                channel_id,
                message,
            } => Reply::Channel {
                channel_id,
                message: message.fit_into(&mut cuts),
            },
            Reply::Edit {
                channel_id,
                message_id,
                message,
            } => Reply::Edit {
                channel_id,
                message_id,
                message: message.fit_into(&mut cuts),
            },
            Reply::Update(message) => Reply::Update(message.fit_into(&mut cuts)),
            Reply::Modal(modal) => Reply::Modal(modal.fit_into(&mut cuts)),
            Reply::Choices(mut choices) => {
                // A value is what Discord sends back: a cut one would mean something
                // else, so a choice that cannot fit is left out.
                cuts.keep(&mut choices, |choice| {
                    choice.value.chars().count() <= CHOICE_CHARS
                });
                cuts.count(&mut choices, CHOICES);
                for choice in &mut choices {
                    choice.name = cuts.text(std::mem::take(&mut choice.name), CHOICE_CHARS);
                    if choice.name.is_empty() {
                        cuts.0 = true;
                        choice.name = choice.value.clone();
                    }
                }
                Reply::Choices(choices)
            }
        };
        (reply, cuts.0)
    }
}

impl Message {
    /// The message within Discord's limits: content cut (a code block left open by
    /// the cut is closed), rows, buttons, selects and files within their counts and
    /// lengths.
    pub fn fit(self) -> Message {
        self.fit_into(&mut Cuts::default())
    }

    fn fit_into(mut self, cuts: &mut Cuts) -> Message {
        self.content = fit_content(self.content, cuts);
        cuts.count(&mut self.components, ACTION_ROWS);
        self.components = std::mem::take(&mut self.components)
            .into_iter()
            .map(|row| fit_row(row, cuts))
            .collect();
        cuts.keep(&mut self.components, |row| !row.0.is_empty());
        cuts.count(&mut self.attachments, ATTACHMENTS);
        for attachment in &mut self.attachments {
            attachment.description =
                cuts.optional(attachment.description.take(), ATTACHMENT_DESCRIPTION_CHARS);
        }
        self
    }
}

impl Modal {
    /// The modal within Discord's limits.
    pub fn fit(self) -> Modal {
        self.fit_into(&mut Cuts::default())
    }

    fn fit_into(mut self, cuts: &mut Cuts) -> Modal {
        self.title = cuts.text(self.title, MODAL_TITLE_CHARS);
        cuts.count(&mut self.inputs, MODAL_INPUTS);
        for input in &mut self.inputs {
            input.label = cuts.text(std::mem::take(&mut input.label), INPUT_LABEL_CHARS);
            input.placeholder = cuts.optional(input.placeholder.take(), INPUT_PLACEHOLDER_CHARS);
            let max_length = input.max_length.clamp(1, INPUT_MAX_LENGTH);
            cuts.0 |= max_length != input.max_length;
            input.max_length = max_length;
        }
        self
    }
}

/// Content of at most [`CONTENT_CHARS`] characters. A cut inside a code block
/// closes the block, so the rest of the message is not swallowed by it.
fn fit_content(content: String, cuts: &mut Cuts) -> String {
    if content.chars().count() <= CONTENT_CHARS {
        return content;
    }
    cuts.0 = true;
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
fn fit_row(row: ActionRow, cuts: &mut Cuts) -> ActionRow {
    let mut components = row.0;
    cuts.keep(&mut components, |component| {
        let custom_id = match component {
            Component::Button(button) => &button.custom_id,
            Component::Select(select) => &select.custom_id,
        };
        custom_id.chars().count() <= CUSTOM_ID_CHARS
    });
    if let Some(index) = components
        .iter()
        .position(|component| matches!(component, Component::Select(_)))
    {
        cuts.0 |= components.len() > 1;
        components = vec![components.swap_remove(index)];
    }
    cuts.count(&mut components, ROW_BUTTONS);
    for component in &mut components {
        match component {
            Component::Button(button) => {
                button.label = cuts.text(std::mem::take(&mut button.label), BUTTON_LABEL_CHARS);
            }
            Component::Select(select) => {
                select.placeholder = cuts.text(
                    std::mem::take(&mut select.placeholder),
                    SELECT_PLACEHOLDER_CHARS,
                );
                cuts.keep(&mut select.options, |option| {
                    option.value.chars().count() <= SELECT_OPTION_CHARS
                });
                cuts.count(&mut select.options, SELECT_OPTIONS);
                for option in &mut select.options {
                    option.label =
                        cuts.text(std::mem::take(&mut option.label), SELECT_OPTION_CHARS);
                    option.description =
                        cuts.optional(option.description.take(), SELECT_OPTION_CHARS);
                }
                let count = u8::try_from(select.options.len()).unwrap_or(u8::MAX);
                let max_values = select.max_values.clamp(1, count.max(1));
                let min_values = select.min_values.min(max_values);
                cuts.0 |= (max_values, min_values) != (select.max_values, select.min_values);
                select.max_values = max_values;
                select.min_values = min_values;
            }
        }
    }
    // A select left without options cannot be sent.
    cuts.keep(&mut components, |component| match component {
        Component::Select(select) => !select.options.is_empty(),
        Component::Button(_) => true,
    });
    ActionRow(components)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{
        Button, ButtonStyle, Choice, FileAttachment, Select, SelectOption, TextInput,
        TextInputStyle,
    };

    fn button(label: &str, custom_id: &str) -> Component {
        Component::Button(Button {
            custom_id: custom_id.to_owned(),
            label: label.to_owned(),
            style: ButtonStyle::Primary,
            disabled: false,
        })
    }

    fn select(options: usize, max_values: u8) -> Component {
        Component::Select(Select {
            custom_id: "tv1:s".to_owned(),
            placeholder: "pick".to_owned(),
            options: (0..options)
                .map(|n| SelectOption {
                    label: format!("o{n}"),
                    value: format!("{n}"),
                    description: None,
                })
                .collect(),
            min_values: 1,
            max_values,
        })
    }

    fn modal(title: &str, max_length: u16) -> Reply {
        Reply::Modal(Modal {
            custom_id: "tv1:m".to_owned(),
            title: title.to_owned(),
            inputs: vec![TextInput {
                custom_id: "a".to_owned(),
                label: "Answer".to_owned(),
                style: TextInputStyle::Short,
                placeholder: None,
                required: true,
                max_length,
            }],
        })
    }

    /// The cut is noted exactly when fitting changed the reply, so the core counts
    /// cuts without keeping a copy of every reply to compare.
    #[test]
    fn a_cut_is_noted_exactly_when_the_reply_changes() {
        let long = "x".repeat(CONTENT_CHARS + 1);
        let cases: Vec<(&str, Reply, bool)> = vec![
            ("short text", Reply::Interaction(Message::text("hi")), false),
            (
                "long text",
                Reply::Interaction(Message::text(long.clone())),
                true,
            ),
            (
                "two buttons",
                Reply::Update(Message::text("a").with_row(ActionRow(vec![
                    button("Yes", "tv1:y"),
                    button("No", "tv1:n"),
                ]))),
                false,
            ),
            (
                "long label",
                Reply::Update(
                    Message::text("a").with_row(ActionRow(vec![button(&"L".repeat(81), "tv1:y")])),
                ),
                true,
            ),
            (
                "long custom id",
                Reply::Update(
                    Message::text("a").with_row(ActionRow(vec![button("Yes", &"i".repeat(101))])),
                ),
                true,
            ),
            (
                "six buttons",
                Reply::Update(Message::text("a").with_row(ActionRow(
                    (0..6).map(|n| button("B", &format!("tv1:{n}"))).collect(),
                ))),
                true,
            ),
            (
                "six rows",
                Reply::Update(Message {
                    components: (0..6)
                        .map(|n| ActionRow(vec![button("B", &format!("tv1:{n}"))]))
                        .collect(),
                    ..Message::text("a")
                }),
                true,
            ),
            (
                "a select",
                Reply::Update(Message::text("a").with_row(ActionRow(vec![select(3, 1)]))),
                false,
            ),
            (
                "a select beside a button",
                Reply::Update(
                    Message::text("a")
                        .with_row(ActionRow(vec![button("B", "tv1:b"), select(3, 1)])),
                ),
                true,
            ),
            (
                "30 options",
                Reply::Update(Message::text("a").with_row(ActionRow(vec![select(30, 1)]))),
                true,
            ),
            (
                "more values than options",
                Reply::Update(Message::text("a").with_row(ActionRow(vec![select(3, 5)]))),
                true,
            ),
            (
                "an empty select",
                Reply::Update(Message::text("a").with_row(ActionRow(vec![select(0, 1)]))),
                true,
            ),
            (
                "eleven files",
                Reply::Interaction(Message {
                    attachments: (0..11)
                        .map(|n| FileAttachment {
                            filename: format!("{n}.txt"),
                            bytes: vec![b'x'],
                            description: None,
                        })
                        .collect(),
                    ..Message::text("a")
                }),
                true,
            ),
            ("a modal", modal("Answer", 100), false),
            ("a long title", modal(&"T".repeat(46), 100), true),
            ("a long input", modal("Answer", 5000), true),
            (
                "choices",
                Reply::Choices(vec![Choice {
                    name: "a".to_owned(),
                    value: "a".to_owned(),
                }]),
                false,
            ),
            (
                "an unnamed choice",
                Reply::Choices(vec![Choice {
                    name: String::new(),
                    value: "a".to_owned(),
                }]),
                true,
            ),
            (
                "a long value",
                Reply::Choices(vec![Choice {
                    name: "a".to_owned(),
                    value: "v".repeat(101),
                }]),
                true,
            ),
        ];
        for (case, reply, cut) in cases {
            let (fitted, noted) = reply.clone().fit_noting();
            assert_eq!(noted, cut, "{case}");
            assert_eq!(fitted != reply, cut, "{case}");
        }
    }
}
