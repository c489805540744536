//! The core's messages, modals and choices as serenity builders.
//!
//! Every message builder carries an empty `allowed_mentions` explicitly: the `Http`
//! default covers only builders without one, and a message Tavern sends must never
//! ping, whatever its text holds (`@everyone` in a label or printed by a program).

use serenity::all::{
    ButtonStyle as SerenityButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment,
    CreateAutocompleteResponse, CreateButton, CreateInputText, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, CreateModal, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption, EditInteractionResponse, EditMessage,
    InputTextStyle,
};

use crate::core::text::truncate;
use crate::core::{
    ActionRow, AllowedMentions, ButtonStyle, Choice, Component, FileAttachment, Message, Modal,
    TextInputStyle,
};

/// Discord's `allowed_mentions` for the core's policy: nothing pings, not even the
/// author of a message replied to.
pub(super) fn allowed_mentions(policy: AllowedMentions) -> CreateAllowedMentions {
    match policy {
        AllowedMentions::None => CreateAllowedMentions::new().replied_user(false),
    }
}

/// The initial response (callback type 4).
pub(super) fn response(message: &Message) -> CreateInteractionResponseMessage {
    CreateInteractionResponseMessage::new()
        .content(&message.content)
        .ephemeral(message.ephemeral)
        .components(rows(&message.components))
        .add_files(files(&message.attachments))
        .allowed_mentions(allowed_mentions(message.allowed_mentions))
}

/// The new state of the message whose component was pressed (callback type 7): its
/// visibility cannot change, so no flags.
pub(super) fn update(message: &Message) -> CreateInteractionResponseMessage {
    CreateInteractionResponseMessage::new()
        .content(&message.content)
        .components(rows(&message.components))
        .add_files(files(&message.attachments))
        .allowed_mentions(allowed_mentions(message.allowed_mentions))
}

/// The edit of a deferred response ("Tavern is thinking…").
pub(super) fn edit_original(message: &Message) -> EditInteractionResponse {
    let mut edit = EditInteractionResponse::new()
        .content(&message.content)
        .components(rows(&message.components))
        .allowed_mentions(allowed_mentions(message.allowed_mentions));
    for file in files(&message.attachments) {
        edit = edit.new_attachment(file);
    }
    edit
}

/// A follow-up message of an interaction.
pub(super) fn followup(message: &Message) -> CreateInteractionResponseFollowup {
    CreateInteractionResponseFollowup::new()
        .content(&message.content)
        .ephemeral(message.ephemeral)
        .components(rows(&message.components))
        .add_files(files(&message.attachments))
        .allowed_mentions(allowed_mentions(message.allowed_mentions))
}

/// A regular channel message, sent with the bot token. Channel messages cannot be
/// ephemeral; the core never asks for that.
pub(super) fn channel_message(message: &Message) -> CreateMessage {
    CreateMessage::new()
        .content(&message.content)
        .components(rows(&message.components))
        .add_files(files(&message.attachments))
        .allowed_mentions(allowed_mentions(message.allowed_mentions))
}

/// The replacement of an earlier message: content and components (an empty list
/// removes the buttons).
pub(super) fn edit(message: &Message) -> EditMessage {
    let mut edit = EditMessage::new()
        .content(&message.content)
        .components(rows(&message.components))
        .allowed_mentions(allowed_mentions(message.allowed_mentions));
    for file in files(&message.attachments) {
        edit = edit.new_attachment(file);
    }
    edit
}

pub(super) fn modal(modal: &Modal) -> CreateModal {
    let inputs = modal
        .inputs
        .iter()
        .map(|input| {
            let style = match input.style {
                TextInputStyle::Short => InputTextStyle::Short,
                TextInputStyle::Paragraph => InputTextStyle::Paragraph,
            };
            let mut text = CreateInputText::new(style, &input.label, &input.custom_id)
                .required(input.required)
                .max_length(input.max_length);
            if let Some(placeholder) = &input.placeholder {
                text = text.placeholder(placeholder);
            }
            CreateActionRow::InputText(text)
        })
        .collect();
    CreateModal::new(&modal.custom_id, &modal.title).components(inputs)
}

/// Discord's bound on an autocomplete choice's name and value, in characters.
const MAX_CHOICE_CHARS: usize = 100;

/// At most 25 suggestions, as Discord allows, each name cut to 100 characters. A value
/// over 100 characters cannot be sent (cut, it would name something else): that
/// suggestion is left out, and the user types the name in full.
pub(super) fn choices(choices: &[Choice]) -> CreateAutocompleteResponse {
    choices
        .iter()
        .filter(|choice| choice.value.chars().count() <= MAX_CHOICE_CHARS)
        .take(25)
        .fold(CreateAutocompleteResponse::new(), |response, choice| {
            response.add_string_choice(truncate(&choice.name, MAX_CHOICE_CHARS), &choice.value)
        })
}

fn rows(rows: &[ActionRow]) -> Vec<CreateActionRow> {
    rows.iter().filter_map(row).collect()
}

/// A row of buttons, or a row holding one select menu (Discord allows nothing else in
/// a select's row).
fn row(row: &ActionRow) -> Option<CreateActionRow> {
    if let Some(Component::Select(select)) = row
        .0
        .iter()
        .find(|component| matches!(component, Component::Select(_)))
    {
        let options = select
            .options
            .iter()
            .map(|option| {
                let mut created = CreateSelectMenuOption::new(&option.label, &option.value);
                if let Some(description) = &option.description {
                    created = created.description(description);
                }
                created
            })
            .collect();
        let menu =
            CreateSelectMenu::new(&select.custom_id, CreateSelectMenuKind::String { options })
                .placeholder(&select.placeholder)
                .min_values(select.min_values)
                .max_values(select.max_values);
        return Some(CreateActionRow::SelectMenu(menu));
    }
    let buttons: Vec<CreateButton> = row
        .0
        .iter()
        .filter_map(|component| match component {
            Component::Button(button) => Some(
                CreateButton::new(&button.custom_id)
                    .label(&button.label)
                    .style(match button.style {
                        ButtonStyle::Primary => SerenityButtonStyle::Primary,
                        ButtonStyle::Secondary => SerenityButtonStyle::Secondary,
                        ButtonStyle::Success => SerenityButtonStyle::Success,
                        ButtonStyle::Danger => SerenityButtonStyle::Danger,
                    })
                    .disabled(button.disabled),
            ),
            Component::Select(_) => None,
        })
        .collect();
    (!buttons.is_empty()).then_some(CreateActionRow::Buttons(buttons))
}

fn files(attachments: &[FileAttachment]) -> Vec<CreateAttachment> {
    attachments
        .iter()
        .map(|file| {
            let attachment = CreateAttachment::bytes(file.bytes.clone(), &file.filename);
            match &file.description {
                Some(description) => attachment.description(description),
                None => attachment,
            }
        })
        .collect()
}
